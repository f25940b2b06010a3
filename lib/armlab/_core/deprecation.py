"""Old names, kept for one term with a DeprecationWarning: renamed keywords and moved modules.

Everything deprecated lives here, so it can be removed in one place (see docs/instructor.md).
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import types
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
                    warnings.warn(
                        f"{fn.__name__}(): the keyword {old!r} is now {new!r}", DeprecationWarning, stacklevel=2
                    )
                    kwargs[new] = kwargs.pop(old)
            return fn(*args, **kwargs)

        return inner  # type: ignore[return-value]

    return wrap


# --- moved modules ---------------------------------------------------------------------------------
#: Old module path → where it lives now: a module name (the old path *is* that module object), or
#: (module, names) for an old module that re-exported some names of another. Strings only: nothing here
#: is imported until a notebook asks for the old path (``import armlab`` stays fast, and the layer test,
#: which reads imports with ast, sees no edge). Removed after the spring 2027 term (docs/instructor.md).
MOVED_MODULES: dict[str, str | tuple[str, tuple[str, ...]]] = {
    "armlab.dh": ("armlab", ("DHLink", "DHRobot", "link_transform_standard", "link_transform_modified")),
    "armlab.viz_ik": (
        "armlab.viz",
        (
            "OUTSIDE_COLOR",
            "GhostArm",
            "IKExplorer",
            "SolutionArms",
            "SolutionsFigure",
            "arm_label",
            "ik_explorer",
            "show_solutions",
            "slot_of",
        ),
    ),
    "armlab.grading_ik": "armlab.grading.ik",
    "armlab.nbgrader_hardening": "armlab.autograde.preprocessors",
}


def moved_to(old: str) -> str:
    """The module an old path now names, e.g. ``moved_to("armlab.grading_ik") == "armlab.grading.ik"``."""
    target = MOVED_MODULES[old]
    return target if isinstance(target, str) else target[0]


class _MovedModuleLoader:
    """Imports the new module and puts it (or a module of its re-exported names) under the old path.

    An ``importlib.abc.Loader`` by protocol, not by base class: ``importlib.abc`` costs ~40 ms to import
    (tempfile, shutil, lzma ...) and ``import armlab`` must stay fast.
    """

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        target = MOVED_MODULES[spec.name]
        if isinstance(target, str):
            return importlib.import_module(target)  # the same module object: `old is new`
        return None  # a fresh module, filled by exec_module

    def exec_module(self, module: types.ModuleType) -> None:
        old = module.__spec__.name if module.__spec__ is not None else module.__name__
        if old not in MOVED_MODULES:  # the module object is the new module (create_module): its spec is its own
            old = next(name for name, target in MOVED_MODULES.items() if target == module.__name__)
        new = moved_to(old)
        warnings.warn(
            f"{old} is deprecated and will be removed after the spring 2027 term: import {new} instead",
            DeprecationWarning,
            stacklevel=2,
        )  # warnings skips the importlib frames: the user's import
        target = MOVED_MODULES[old]
        if not isinstance(target, str):
            source = importlib.import_module(target[0])
            module.__doc__ = f"Old path of {new} (deprecated): {', '.join(target[1])}."
            module.__dict__.update({name: getattr(source, name) for name in target[1]})
            module.__all__ = list(target[1])  # type: ignore[attr-defined]


class MovedModuleFinder:
    """Finds the old module paths of :data:`MOVED_MODULES` (installed on ``sys.meta_path`` by ``armlab``).

    An ``importlib.abc.MetaPathFinder`` by protocol (see :class:`_MovedModuleLoader`).
    """

    _loader = _MovedModuleLoader()

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self._loader)  # type: ignore[arg-type]  # a Loader by protocol


def install_moved_modules() -> None:
    """Put :class:`MovedModuleFinder` on ``sys.meta_path`` once (``armlab/__init__.py`` calls this)."""
    import sys

    if not any(isinstance(f, MovedModuleFinder) for f in sys.meta_path):
        sys.meta_path.append(MovedModuleFinder())
