"""Native builds of generated kernels: the same straight-line code, compiled by the machine's C compiler.

A kernel of :class:`~armlab._core.codegen.Tracer` is elementary float arithmetic (``+ - * /``, ``cos``,
``sin``), so its Python source is also C (:mod:`armlab._core.c_kernels` translates it). :func:`native`
compiles it into a CPython extension whose ``kernel`` has the Python kernel's signature and gives **the
same floats, bit for bit**:

* IEEE double arithmetic in source order: ``-O2 -ffp-contract=off`` (no fused multiply-add), no fast-math,
  ``-fno-builtin`` (``cos`` and ``sin`` are the C library's, as Python's ``math.cos`` and ``math.sin``);
* anything off the fast path runs the Python kernel itself: a batch (numpy columns), keywords, another
  ``cos``, an element that is not a float, a non-finite input, and any step that raised a floating-point
  exception (division by zero, an invalid operation, an overflow), so Python's errors are raised as before.

Compiled libraries live in one cache on disk (``ARMLAB_NATIVE_CACHE``, else ``~/.cache/armlab/native``),
named by the hash of what they were compiled from: the C text, the flags and the Python ABI. A library not
yet there is compiled in one background thread while Python runs; :func:`settle` waits for it. Without a C
compiler or Python's headers, or with ``ARMLAB_NATIVE=0``, everything stays Python.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import queue
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from .c_kernels import CKernel, translate

__all__ = [
    "native",
    "compile_now",
    "extension",
    "request",
    "settle",
    "available",
    "last_error",
    "python_of",
    "kernel_abi",
    "cache_dir",
    "FLAGS",
]

#: What keeps the compiled floats equal to Python's (see the module's docstring).
FLAGS = ("-O2", "-fPIC", "-shared", "-ffp-contract=off", "-fno-fast-math", "-fno-builtin", "-std=c11")


def cache_dir() -> Path:
    """Where compiled libraries are kept: ``ARMLAB_NATIVE_CACHE``, else ``~/.cache/armlab/native``."""
    env = os.environ.get("ARMLAB_NATIVE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "armlab" / "native"


def _compiler() -> str | None:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def available() -> str:
    """ "" when libraries can be compiled here, else why not (no compiler, no Python headers, switched off).
    Asked once per setting of ``ARMLAB_NATIVE`` and ``CC``: without a compiler, every simulated stretch asks."""
    key = (os.environ.get("ARMLAB_NATIVE", "1"), os.environ.get("CC"))
    if key not in _why_not:
        _why_not[key] = _ask()
    return _why_not[key]


_why_not: dict[tuple[str, str | None], str] = {}


def _ask() -> str:
    if os.environ.get("ARMLAB_NATIVE", "1") == "0":
        return "switched off (ARMLAB_NATIVE=0)"
    if _compiler() is None:
        return "no C compiler (install gcc, or set CC)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (install python3-dev)"
    return ""


def _library(c: str) -> Path:
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    digest = hashlib.sha256("\n".join((c, " ".join(FLAGS), suffix, sys.version)).encode()).hexdigest()[:24]
    return cache_dir() / f"k{digest}{suffix}"


def _build(c: str, path: Path) -> None:
    """Compile ``c`` into ``path``: into a temporary file first, renamed when whole (another process may be
    compiling the same library, and a loaded library must never be overwritten in place)."""
    cc = _compiler()
    if cc is None:
        raise OSError("no C compiler")
    path.parent.mkdir(parents=True, exist_ok=True)
    name = path.name.split(".")[0]
    with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
        src, lib = Path(tmp) / f"{name}.c", Path(tmp) / path.name
        src.write_text(c.replace("NAME", name))
        inc = sysconfig.get_paths()["include"]
        cmd = [cc, *FLAGS, f"-I{inc}", str(src), "-o", str(lib), "-lm"]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if done.returncode:
            raise OSError(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
        os.replace(lib, path)


def _load(path: Path) -> ModuleType:
    name = path.name.split(".")[0]
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def _cached(c: str) -> ModuleType | None:
    """The module of ``c`` if the cache holds a good one."""
    path = _library(c)
    if path.exists():
        try:
            return _load(path)
        except ImportError:  # a damaged file: built again
            pass
    return None


def extension(c: str) -> ModuleType:
    """The extension module compiled from the C text ``c`` (whose module name is written ``NAME``), built
    now if the cache does not hold it. Raises OSError when it cannot be built."""
    why = available()
    if why:
        raise OSError(why)
    mod = _cached(c)
    if mod is None:
        _build(c, _library(c))
        mod = _load(_library(c))
    return mod


class _Builder:
    """One background thread that builds the libraries asked for, one at a time (one compiler at a time)."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[str] = queue.Queue()
        self.idle = threading.Condition()
        self.waiting: dict[str, list[Callable[[ModuleType], None]]] = {}  # C text -> who waits for it
        self.thread: threading.Thread | None = None
        self.error = ""  # why the last build failed: what it was for stays Python

    def put(self, c: str, ready: Callable[[ModuleType], None]) -> None:
        with self.idle:
            if c in self.waiting:  # asked for again while queued: built once, every caller told
                self.waiting[c].append(ready)
                return
            self.waiting[c] = [ready]
        if self.thread is None:
            self.thread = threading.Thread(target=self.work, name="armlab-native", daemon=True)
            self.thread.start()
        self.jobs.put(c)

    def work(self) -> None:
        while True:
            c = self.jobs.get()
            mod = None
            try:
                mod = extension(c)
            except Exception as e:  # noqa: BLE001 - whatever fails, Python goes on and the thread lives
                self.error = f"{type(e).__name__}: {e}"
            while True:  # tell every caller, those who ask meanwhile too; then c is no longer waited for
                with self.idle:
                    callers, self.waiting[c] = self.waiting[c], []
                    if not callers:
                        del self.waiting[c]
                        self.idle.notify_all()
                        break
                for ready in callers:
                    try:
                        if mod is not None:
                            ready(mod)
                    except Exception as e:  # noqa: BLE001
                        self.error = f"{type(e).__name__}: {e}"

    def settle(self, timeout: float | None) -> bool:
        with self.idle:
            return self.idle.wait_for(lambda: not self.waiting, timeout)


_builder = _Builder()


def _after_fork() -> None:  # a forked child (a grading kernel) has no builder thread: it starts its own
    global _builder
    _builder = _Builder()


os.register_at_fork(after_in_child=_after_fork)


def request(c: str, ready: Callable[[ModuleType], None]) -> ModuleType | None:
    """The extension module of C text ``c`` if the cache holds it; otherwise None, while the background
    thread builds it and then hands it to ``ready``. None, and nothing built, without a compiler."""
    if available():
        return None
    mod = _cached(c)
    if mod is None:
        _builder.put(c, ready)
    return mod


def settle(timeout: float | None = 60.0) -> bool:
    """Wait until the background builds asked for so far are done (a lab's warm-up, tests, benchmarks);
    False if ``timeout`` (s) passed first. What they built is in use from then on."""
    return _builder.settle(timeout)


def last_error() -> str:
    """Why the last background build failed, or "" (what it was for stays Python)."""
    return _builder.error


def _bound(mod: ModuleType, kernel: CKernel, python: Callable[..., Any]) -> Callable[..., Any]:
    mod.bind(python)
    setattr(mod, "python", python)  # see python_of
    setattr(mod, "abi", kernel)  # see kernel_abi
    return mod.kernel  # type: ignore[no-any-return]


def native(python: Callable[..., Any], ready: Callable[[Callable[..., Any]], None]) -> Callable[..., Any]:
    """The kernel to use now for the generated kernel ``python``: its native build if the cache holds it;
    otherwise ``python`` itself, while the background thread builds it and then hands it to ``ready``.
    Without a compiler (see :func:`available`), or for a kernel C cannot express, ``python``."""
    if available():
        return python
    try:
        kernel = translate(python.source)  # type: ignore[attr-defined]  # here: ast.parse is not thread-safe in 3.11
    except (ValueError, AttributeError):
        return python
    mod = request(kernel.c, lambda m: ready(_bound(m, kernel, python)))
    return python if mod is None else _bound(mod, kernel, python)


def compile_now(python: Callable[..., Any]) -> Callable[..., Any]:
    """The native build of the generated kernel ``python`` (made by :func:`armlab._core.codegen.make_function`),
    compiled now if the cache does not hold it. Raises OSError or ValueError when it cannot be built."""
    python = python_of(python)
    kernel = translate(python.source)  # type: ignore[attr-defined]
    return _bound(extension(kernel.c), kernel, python)


def python_of(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """The Python kernel behind a native build (with its generated ``.source``); any other kernel itself."""
    return getattr(getattr(kernel, "__self__", None), "python", kernel)


def kernel_abi(kernel: Callable[..., Any]) -> tuple[int, CKernel] | None:
    """(address of its ``compute_v``, its :class:`~armlab._core.c_kernels.CKernel`) for a native kernel,
    None for a Python one: what a loop in C needs to call it."""
    mod = getattr(kernel, "__self__", None)
    abi = getattr(mod, "abi", None)
    return None if abi is None else (mod.address(), abi)  # type: ignore[union-attr]
