"""The type stub of earl._core (python/earl/_core.pyi) names exactly what the module has,
so it cannot go stale when the bindings change."""
import ast
import inspect
from pathlib import Path

import earl
from earl import _core

# Only in the stub: types that describe the module's dicts and callables.
STUB_ONLY = {"Position", "Value", "Progress", "ProblemKind", "ConvertSummary", "GeneratorOption",
             "TraceFormatRow", "AnalysisMetric", "Bookmarks", "IndexInfo", "TimeCorrection",
             "MetricDefinition", "MergeSummary", "MergeInputSummary",
             "Violation"}


def stub_file():
    for folder in earl.__path__:
        path = Path(folder) / "_core.pyi"
        if path.is_file():
            return path
    raise AssertionError(f"no _core.pyi in {earl.__path__}")


def stub_names():
    """Top-level names and, per class, member names of the stub."""
    tree = ast.parse(stub_file().read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {
                item.name if isinstance(item, ast.FunctionDef) else item.target.id
                for item in node.body if isinstance(item, (ast.FunctionDef, ast.AnnAssign))}
    return top, members


def module_members(cls):
    """A class's own names, without Python's and pybind11's machinery."""
    return {name for name in vars(cls)
            if not name.startswith("_pybind11") and
            (not name.startswith("__") or name in ("__init__", "__len__"))}


def test_stub_lists_every_public_name_of_core():
    top, _ = stub_names()
    public = {name for name in dir(_core) if not name.startswith("_")}
    assert public == top - STUB_ONLY


def test_stub_classes_list_every_member():
    _, members = stub_names()
    for name, cls in inspect.getmembers(_core, inspect.isclass):
        if issubclass(cls, Exception):
            continue
        assert module_members(cls) == members[name], name


def test_py_typed_marks_the_package():
    assert any((Path(folder) / "py.typed").is_file() for folder in earl.__path__)
