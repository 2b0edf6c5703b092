"""Optional packages: what needs one and lacks it says which pip command installs it, as
one EarlError line (the extras come from the installed package's metadata: pyproject.toml)."""
import sys

import pytest

import earl
from earl.optional import extra_providing, require


def test_the_extras_are_read_from_the_installed_metadata():
    assert extra_providing("pandas") == "analysis"
    assert extra_providing("matplotlib") == "plot"
    assert extra_providing("pytest") is None            # only in the test extra
    assert extra_providing("no_such_package") is None


def test_a_missing_package_is_one_earl_error_naming_the_pip_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)   # what Python does for a blocked import
    with pytest.raises(earl.EarlError) as raised:
        require("pandas", "Report.to_pandas()")
    assert str(raised.value) == ("Report.to_pandas() needs pandas, which is not installed "
                                 "(pip install 'earl[analysis]')")
    with pytest.raises(earl.EarlError, match=r"\(pip install no_such_package\)$"):
        require("no_such_package", "this")


def test_to_pandas_without_pandas(monkeypatch, tmp_path):
    from earl.generate import generate

    trace = tmp_path / "t.alog"
    generate(str(trace), locations=2, events=200, seed=1)
    report = earl.analyze(str(trace), progress=lambda f: None)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(earl.EarlError, match=r"earl\[analysis\]"):
        report.to_pandas()
