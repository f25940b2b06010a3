"""The builtins, math, numpy and sympy functions the checkers use, captured at first import.

The autograder imports :mod:`armlab.grading` before any student code runs
(:class:`~armlab.grading.preprocessors.InjectGradingImport`), so these are the genuine
functions even if a student later reassigns ``builtins.abs``, ``np.allclose`` or
``sympy.simplify``. Every grading module imports the builtins it calls from here under their
usual names, which shadow the live ``builtins`` module; a test checks that no grading function
looks up a builtin that is not bound this way.

:class:`ReadOnlyModule` and :func:`freeze` make each grading module refuse attribute assignment,
so ``armlab.grading.check_close = ...`` (through any module path) raises.
"""

import builtins
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

# --- builtins ---------------------------------------------------------------------------------
if TYPE_CHECKING:  # the type checker sees the builtins themselves (the same objects as below)
    from builtins import (  # noqa: F401
        AssertionError,
        AttributeError,
        BaseException,
        Ellipsis,
        Exception,
        NameError,
        NotImplemented,
        NotImplementedError,
        TypeError,
        ValueError,
        abs,
        all,
        any,
        bool,
        callable,
        complex,
        dict,
        enumerate,
        float,
        getattr,
        hasattr,
        int,
        isinstance,
        len,
        list,
        max,
        min,
        next,
        range,
        repr,
        reversed,
        set,
        sorted,
        str,
        sum,
        tuple,
        type,
        vars,
        zip,
    )
else:
    abs, float, int, len, range, isinstance, min, max = (
        builtins.abs,
        builtins.float,
        builtins.int,
        builtins.len,
        builtins.range,
        builtins.isinstance,
        builtins.min,
        builtins.max,
    )
    zip, all, any, sorted, tuple, list, str, repr, enumerate, sum = (
        builtins.zip,
        builtins.all,
        builtins.any,
        builtins.sorted,
        builtins.tuple,
        builtins.list,
        builtins.str,
        builtins.repr,
        builtins.enumerate,
        builtins.sum,
    )
    getattr, hasattr, callable, bool, complex, set, dict, type, vars, reversed, next = (
        builtins.getattr,
        builtins.hasattr,
        builtins.callable,
        builtins.bool,
        builtins.complex,
        builtins.set,
        builtins.dict,
        builtins.type,
        builtins.vars,
        builtins.reversed,
        builtins.next,
    )
    AssertionError, TypeError, ValueError, Exception, BaseException = (
        builtins.AssertionError,
        builtins.TypeError,
        builtins.ValueError,
        builtins.Exception,
        builtins.BaseException,
    )
    AttributeError, NameError, NotImplementedError = (
        builtins.AttributeError,
        builtins.NameError,
        builtins.NotImplementedError,
    )
    NotImplemented, Ellipsis = builtins.NotImplemented, builtins.Ellipsis

# --- standard library -------------------------------------------------------------------------
cos, sin, sqrt, pi, isfinite, isnan, degrees, radians = (
    math.cos,
    math.sin,
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

# --- sympy ------------------------------------------------------------------------------------
S = SimpleNamespace(
    Basic=sympy.Basic,
    MatrixBase=sympy.MatrixBase,
    Matrix=sympy.Matrix,
    Symbol=sympy.Symbol,
    sympify=sympy.sympify,
    simplify=sympy.simplify,
    count_ops=sympy.count_ops,
    Function=sympy.Function,
    sstr=sympy.sstr,
    Float=sympy.Float,
    sin=sympy.sin,
    cos=sympy.cos,
)
#: what an expression given as a string may use (its symbols are added per call)
SP_NAMESPACE = {
    name: getattr(sympy, name)
    for name in (
        "sin",
        "cos",
        "tan",
        "atan2",
        "sqrt",
        "pi",
        "exp",
        "Abs",
        "atan",
        "asin",
        "acos",
        "E",
        "Matrix",
        "Rational",
        "Integer",
        "Float",
        "Symbol",
        "I",
        "oo",
        "zoo",
        "nan",
    )
}
SP_NAMESPACE["abs"] = sympy.Abs
#: sympy's own number classes (Integer, Float, Zero, Half, ...), compared by identity
SP_NUMBER_TYPES = tuple(
    {c for c in vars(sympy.core.numbers).values() if isinstance(c, type) and sympy.Number in c.__mro__}
)


# --- read-only modules ------------------------------------------------------------------------
class ReadOnlyModule(ModuleType):
    """A module that refuses ``module.name = value`` and ``del module.name`` (a cheap tampering route).

    The one assignment allowed is the import system binding a newly imported submodule to its
    package (``armlab.grading.preprocessors`` is imported after the package is frozen).
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


freeze(__name__)
