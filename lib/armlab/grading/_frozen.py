"""The math, numpy and sympy functions the checkers use, captured at first import.

The autograder imports :mod:`armlab.grading` before any student code runs
(:class:`~armlab.autograde.preprocessors.InjectGradingImport`), so these are the genuine
functions even if a student later reassigns ``np.allclose`` or ``sympy.simplify``. The
builtins are captured the same way in :mod:`._builtins`, which every grading module
star-imports, so they shadow the live ``builtins`` module there.

:class:`ReadOnlyModule` and :func:`freeze` make each grading module refuse attribute assignment,
so ``armlab.grading.check_close = ...`` (through any module path) raises.
"""

import itertools
import linecache
import math
import os
import random
import sys
import types
from typing import TYPE_CHECKING

import numpy
import sympy

from ._builtins import *  # noqa: F403  (the captured builtins, as in every grading module)

# --- standard library -------------------------------------------------------------------------
sqrt, pi, isfinite, isnan, degrees, radians = (
    math.sqrt,
    math.pi,
    math.isfinite,
    math.isnan,
    math.degrees,
    math.radians,
)
permutations = itertools.permutations
Random = random.Random
if TYPE_CHECKING:
    from types import ModuleType, SimpleNamespace, TracebackType  # noqa: F401
else:
    ModuleType, TracebackType, SimpleNamespace = types.ModuleType, types.TracebackType, types.SimpleNamespace
modules = sys.modules  # the dict itself: rebinding sys.modules later does not move it
getlines = linecache.getlines
path_sep = os.sep

# --- numpy ------------------------------------------------------------------------------------
ndarray, np_asarray, np_array, np_generic, np_complexfloating = (
    numpy.ndarray,
    numpy.asarray,
    numpy.array,
    numpy.generic,
    numpy.complexfloating,
)
ndarray_tolist = numpy.ndarray.tolist
# ufuncs (C objects: what they compute cannot be patched), for the diagnosis of an answer's matrix
np_matmul, np_det = numpy.matmul, numpy.linalg._umath_linalg.det

# --- sympy ------------------------------------------------------------------------------------
S = SimpleNamespace(
    **{
        name: getattr(sympy, name)
        for name in "Basic MatrixBase Matrix Symbol sympify simplify count_ops Function sstr Float sin cos".split()
    }
)
#: what an expression given as a string may use (its symbols are added per call)
SP_NAMES = "sin cos tan atan2 sqrt pi exp Abs atan asin acos E Matrix Rational Integer Float Symbol I oo zoo nan"
SP_NAMESPACE = {name: getattr(sympy, name) for name in SP_NAMES.split()}
SP_NAMESPACE["abs"] = sympy.Abs
#: sympy's own number classes (Integer, Float, Zero, Half, ...), compared by identity
SP_NUMBER_TYPES = tuple(
    {c for c in vars(sympy.core.numbers).values() if isinstance(c, type) and sympy.Number in c.__mro__}
)


# --- read-only modules ------------------------------------------------------------------------
class ReadOnlyModule(ModuleType):
    """A module that refuses ``module.name = value`` and ``del module.name`` (a cheap tampering route).

    The one assignment allowed is the import system binding a newly imported submodule to its
    package (a submodule imported after the package is frozen).
    """

    def __setattr__(self, key: str, value: object) -> None:
        child = f"{self.__name__}.{key}"
        if key not in self.__dict__ and isinstance(value, ModuleType) and modules.get(child) is value:
            ModuleType.__setattr__(self, key, value)
            return
        raise AttributeError(f"{self.__name__} is read-only (cannot set {key!r})")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"{self.__name__} is read-only (cannot delete {key!r})")


def freeze(name: str) -> None:
    """Make the module ``name`` (already in ``sys.modules``) read-only."""
    modules[name].__class__ = ReadOnlyModule


freeze(f"{__package__}._builtins")
freeze(__name__)
