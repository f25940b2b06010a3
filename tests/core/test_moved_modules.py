"""The old module paths (armlab.dh, armlab.viz_ik, armlab.grading_ik, armlab.nbgrader_hardening): released
notebooks still import them, each import warns, and they give the very objects of the new paths. They live
in one place, ``armlab._core.deprecation.MOVED_MODULES`` (no files; removed after the spring 2027 term)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import armlab
from armlab._core.deprecation import MOVED_MODULES, MovedModuleFinder, moved_to

LIB = Path(armlab.__file__).parent
EXPECTED = {
    "armlab.dh": ("armlab", ["DHLink", "DHRobot", "link_transform_standard", "link_transform_modified"]),
    "armlab.viz_ik": (
        "armlab.viz",
        [
            "OUTSIDE_COLOR",
            "GhostArm",
            "IKExplorer",
            "SolutionArms",
            "SolutionsFigure",
            "arm_label",
            "ik_explorer",
            "show_solutions",
            "slot_of",
        ],
    ),
    "armlab.grading_ik": ("armlab.grading.ik", None),
    "armlab.nbgrader_hardening": ("armlab.autograde.preprocessors", None),
}


def _forget(old):
    """As if this process had never imported the old path (so the import runs, and warns, again)."""
    sys.modules.pop(old, None)
    if hasattr(armlab, old.rpartition(".")[2]):
        delattr(armlab, old.rpartition(".")[2])


@pytest.mark.parametrize("old", sorted(EXPECTED))
def test_old_path_imports_warns_and_gives_the_same_objects(old):
    new, names = EXPECTED[old]
    _forget(old)
    with pytest.warns(DeprecationWarning, match=rf"{old} is deprecated .* spring 2027 .*import {new} instead") as w:
        exec(compile(f"import {old} as module", __file__, "exec"), ns := {})  # an import statement, as in a notebook
    module = ns["module"]
    assert w[0].filename == __file__  # the warning points at the importing line, not at importlib
    target = importlib.import_module(new)
    if names is None:
        assert module is target
    else:
        assert sorted(module.__all__) == sorted(names)
        for name in names:
            assert getattr(module, name) is getattr(target, name), name
    assert sys.modules[old] is module and getattr(armlab, old.rpartition(".")[2]) is module
    assert moved_to(old) == new


def test_from_import_of_an_old_path_works_and_warns():
    _forget("armlab.viz_ik")
    with pytest.warns(DeprecationWarning, match="armlab.viz_ik") as w:
        from armlab import viz_ik
    assert w[0].filename == __file__
    from armlab import viz

    assert viz_ik.show_solutions is viz.show_solutions and viz_ik.ik_explorer is viz.ik_explorer


def test_the_old_paths_live_in_one_place():
    assert set(MOVED_MODULES) == set(EXPECTED)
    for old in EXPECTED:
        name = old.rpartition(".")[2]
        assert not (LIB / f"{name}.py").exists() and not (LIB / name).exists(), f"{old} has a file again"
    assert sum(isinstance(f, MovedModuleFinder) for f in sys.meta_path) == 1
    assert MovedModuleFinder().find_spec("armlab.robot") is None  # other names are not its business
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("armlab.no_such_module")


@pytest.mark.integration  # starts a process
def test_import_armlab_imports_none_of_the_targets():
    code = (
        "import sys, armlab\n"
        "loaded = [m for m in ('armlab.grading', 'armlab.viz', 'armlab.grading.ik', 'sympy') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
        "print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
