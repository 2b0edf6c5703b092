"""Optional packages: EARL imports them only where a user asks for what they do, and says
which of the package's extras (pyproject.toml, read back from the installed metadata, so
the extras are written once) installs a missing one."""
import importlib
import re

from earl._core import EarlError


def extra_providing(module):
    """The name of an extra of the installed earl that requires `module` (not the test
    extra), or None."""
    from importlib import metadata  # slow to import (email, zipfile, ...): only when needed

    try:
        requirements = metadata.requires("earl") or []
    except metadata.PackageNotFoundError:
        return None
    for requirement in requirements:
        found = re.match(r"\s*([A-Za-z0-9_.-]+).*;\s*extra\s*==\s*['\"]([^'\"]+)['\"]", requirement)
        if found and found.group(1).lower() == module.lower() and found.group(2) != "test":
            return found.group(2)
    return None


def require(module, purpose):
    """Imports `module`; where it is missing, an EarlError: `purpose` needs it, and the pip
    command that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        extra = extra_providing(module)
        install = f"pip install 'earl[{extra}]'" if extra else f"pip install {module}"
        raise EarlError(f"{purpose} needs {module}, which is not installed ({install})") from None
