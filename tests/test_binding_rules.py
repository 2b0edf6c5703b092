"""Rules for the pybind11 module's sources that no behavioural test can see."""
import re
from pathlib import Path

BINDINGS = Path(__file__).resolve().parents[1] / "bindings"


def test_no_private_pybind11_api():
    """pybind11's `detail` namespace is internal and changes between releases; the module
    must build on the public API alone."""
    sources = sorted(BINDINGS.glob("*.cpp")) + sorted(BINDINGS.glob("*.h"))
    assert sources
    offenders = [f"{path.name}:{number}" for path in sources
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if re.search(r"\b(py|pybind11)::detail\b", line)]
    assert offenders == []
