"""Old names, kept for one term with a DeprecationWarning: renamed keywords and moved modules.

Everything deprecated lives here, so it can be removed in one place (see docs/instructor.md).
"""
from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def renamed_kwargs(**old_to_new: str) -> Callable[[F], F]:
    """Accept each old keyword as its new name, with a DeprecationWarning.

    >>> @renamed_kwargs(q_current="q0")
    ... def f(q0=None):
    ...     return q0
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     f(q_current=1)
    1
    """

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{fn.__name__}() got both {old!r} (old name) and {new!r}")
                    warnings.warn(f"{fn.__name__}(): the keyword {old!r} is now {new!r}",
                                  DeprecationWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return fn(*args, **kwargs)

        return inner  # type: ignore[return-value]

    return wrap
