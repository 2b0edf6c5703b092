"""EARL: a programmable environment for analysing event traces of parallel programs."""
from earl._core import EarlError

__version__ = "0.1.0"
__all__ = ["EarlError", "__version__"]
