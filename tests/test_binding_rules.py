"""Rules for the pybind11 module's sources that no behavioural test can see."""
import re
from pathlib import Path

BINDINGS = Path(__file__).resolve().parents[1] / "bindings" / "python"


def test_no_private_pybind11_api():
    """pybind11's `detail` namespace is internal and changes between releases; the module
    must build on the public API alone."""
    sources = sorted(BINDINGS.glob("*.cpp")) + sorted(BINDINGS.glob("*.h"))
    assert sources
    offenders = [f"{path.name}:{number}" for path in sources
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if re.search(r"\b(py|pybind11)::detail\b", line)]
    assert offenders == []


def test_each_language_has_its_own_folder():
    """DESIGN.md section 5: bindings/ holds one folder per language (python/, lua/, tcl/);
    pybind11 is used in python/ alone, and nothing lies loose beside the folders."""
    root = BINDINGS.parent
    assert sorted(p.name for p in root.iterdir()) == ["lua", "python", "tcl"]
    using_pybind11 = {path.relative_to(root).parts[0] for path in root.rglob("*")
                      if path.suffix in (".cpp", ".h") and "pybind11" in path.read_text()}
    assert using_pybind11 == {"python"}
