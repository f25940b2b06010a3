"""The builtins the grading modules call, bound here when :mod:`armlab.grading` is first imported.

Every grading module starts with ``from ._builtins import *``: these names then shadow the live ``builtins``
module there, so a student who later reassigns ``builtins.abs`` or ``builtins.isinstance`` changes nothing a
checker calls (the autograder imports the package before any student code runs). The module holds these
names and nothing else, so that import binds exactly them; :mod:`._frozen` makes it read-only, and a test
checks that no grading function looks up a builtin that is not bound this way.
"""

from builtins import (  # noqa: F401  (all exported: ``from ._builtins import *``)
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
