"""The layout of tests/ (README, "Layout"): one folder per library package, sources/ for the worked examples
and errata of the source texts, integration/ for notebooks, browser, lab over the network and nbgrader;
one conftest.py (tests/conftest.py) and the helpers in tests/support.

pytest imports the test files by their base name (the default "prepend" import mode, no ``__init__.py``
files), so two test files with the same name in two folders would fail to import: this test names them first.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
PACKAGES = {
    "core",
    "transforms",
    "kinematics",
    "ik",
    "jacobians",
    "dynamics",
    "statics",
    "sim",
    "control",
    "models",
    "viz",
    "grading",
    "autograde",
    "class_report",
    "lab",
}
FOLDERS = PACKAGES | {"sources", "integration"}


def _test_files():
    return sorted(p for p in TESTS.rglob("test_*.py") if "support" not in p.relative_to(TESTS).parts)


def test_every_test_file_is_in_a_package_sources_or_integration_folder():
    misplaced = [
        str(p.relative_to(TESTS))
        for p in _test_files()
        if len(p.relative_to(TESTS).parts) != 2 or p.parent.name not in FOLDERS
    ]
    assert not misplaced, f"put these in tests/<package>/, tests/sources/ or tests/integration/: {misplaced}"
    lib = TESTS.parent / "lib" / "armlab"
    for name in PACKAGES - {"core"}:  # each package folder is named after a library package (core: _core)
        assert (lib / name).is_dir() or (lib / f"{name}.py").is_file(), f"tests/{name}/ names no armlab package"


def test_test_file_names_are_unique_across_folders():
    twice = [name for name, n in Counter(p.name for p in _test_files()).items() if n > 1]
    assert not twice, f"test files with the same name in two folders (pytest cannot import both): {twice}"


def test_one_conftest_and_no_package_markers():
    conftests = sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("conftest.py"))
    assert conftests == ["conftest.py"], f"shared fixtures go in tests/conftest.py only: {conftests}"
    inits = sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("__init__.py") if p.parent.name != "support")
    assert not inits, f"no __init__.py in the test folders (tests/support is the one package): {inits}"
