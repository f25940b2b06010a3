"""Every docstring example in armlab runs and prints what it says."""
import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import armlab

MODULES = sorted(m.name for m in pkgutil.iter_modules(armlab.__path__, "armlab."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:  # optional extras (e.g. ipywidgets) missing
        pytest.skip(f"{name}: {e}")
    result = doctest.testmod(module, extraglobs={"np": np}, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
