"""Every docstring example in armlab, in every subpackage, runs and prints what it says."""

import doctest
import importlib
import os
import pkgutil

import numpy as np
import pytest

import armlab

# walk_packages recurses into subpackages (iter_modules would only see the top level)
MODULES = sorted(m.name for m in pkgutil.walk_packages(armlab.__path__, "armlab."))
#: what the extras bring (pyproject.toml): a module that needs one is skipped where it is not installed, and
#: nowhere else; a module whose import fails for any other reason fails (a broken import must not hide here)
EXTRAS_IMPORTS = {
    "anywidget", "dask", "distributed", "IPython", "ipykernel", "ipympl", "ipywidgets", "jupyter_client",
    "jupyter_server", "jupyterhub", "mujoco", "nbclient", "nbconvert", "nbformat", "nbgrader", "traitlets",
    "websockets",
}  # fmt: skip


def optional_import_missing(error: ImportError) -> bool:
    """Whether ``error`` is only an extra's package missing (never under CI, which installs every extra)."""
    missing = (getattr(error, "name", None) or "").split(".")[0]
    return isinstance(error, ModuleNotFoundError) and missing in EXTRAS_IMPORTS and not os.environ.get("CI")


def test_subpackages_are_walked():
    assert {"armlab.ik.puma560", "armlab.kinematics.frames", "armlab._core.validation"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:
        if not optional_import_missing(e):
            raise
        pytest.skip(f"{name}: {e} (an extra that is not installed)")
    result = doctest.testmod(module, extraglobs={"np": np}, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_a_broken_import_fails_and_only_a_missing_extra_skips(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    assert optional_import_missing(ModuleNotFoundError("No module named 'ipywidgets'", name="ipywidgets"))
    assert not optional_import_missing(ModuleNotFoundError("No module named 'armlab.gone'", name="armlab.gone"))
    assert not optional_import_missing(ImportError("cannot import name 'x' from 'armlab.ik'", name="armlab.ik"))
    monkeypatch.setenv("CI", "true")
    assert not optional_import_missing(ModuleNotFoundError("No module named 'ipywidgets'", name="ipywidgets"))
