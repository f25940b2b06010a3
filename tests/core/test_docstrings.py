"""Every docstring example in armlab, in every subpackage, runs and prints what it says."""

import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import armlab

# walk_packages recurses into subpackages (iter_modules would only see the top level)
MODULES = sorted(m.name for m in pkgutil.walk_packages(armlab.__path__, "armlab."))


def test_subpackages_are_walked():
    assert {"armlab.ik.puma560", "armlab.kinematics.frames", "armlab._core.validation"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:  # optional extras (e.g. ipywidgets) missing
        pytest.skip(f"{name}: {e}")
    result = doctest.testmod(module, extraglobs={"np": np}, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
