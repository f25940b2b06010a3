"""Native builds of generated kernels: the same straight-line code, compiled by the machine's C compiler.

A kernel of :class:`~armlab._core.codegen.Tracer` is elementary float arithmetic (``+ - * /``, ``cos``,
``sin``), so its Python source is also C. :func:`native` translates it through Python's own parse tree
(every operation parenthesised as Python grouped it), compiles it into a CPython extension and returns a
function with the kernel's signature that gives **the same floats, bit for bit**:

* IEEE double arithmetic in source order: ``-O2 -ffp-contract=off`` (no fused multiply-add), no fast-math,
  ``-fno-builtin`` (``cos`` and ``sin`` are the C library's, as Python's ``math.cos`` and ``math.sin``);
* anything off the fast path runs the Python kernel itself: a batch (numpy columns), keywords, another
  ``cos``, an element that is not a float, a non-finite input, and any step that raised a floating-point
  exception (division by zero, an invalid operation, an overflow), so Python's errors are raised as before.

Compiled libraries live in one cache on disk (``ARMLAB_NATIVE_CACHE``, else ``~/.cache/armlab/native``),
named by the hash of what they were compiled from: the C text, the flags and the Python ABI. A kernel not
yet there is compiled in one background thread while its Python version runs; :func:`settle` waits for
them. Without a C compiler or Python's headers, or with ``ARMLAB_NATIVE=0``, everything stays Python.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import math
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
from typing import Any

__all__ = ["native", "translate", "compile_now", "settle", "available", "last_error", "python_of", "cache_dir", "FLAGS"]

#: What keeps the compiled floats equal to Python's (see the module's docstring).
FLAGS = ("-O2", "-fPIC", "-shared", "-ffp-contract=off", "-fno-fast-math", "-fno-builtin", "-std=c11")
_FUNCS = {"cos", "sin"}
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def cache_dir() -> Path:
    """Where compiled kernels are kept: ``ARMLAB_NATIVE_CACHE``, else ``~/.cache/armlab/native``."""
    env = os.environ.get("ARMLAB_NATIVE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "armlab" / "native"


def _compiler() -> str | None:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def available() -> str:
    """ "" when kernels can be compiled here, else why not (no compiler, no Python headers, switched off)."""
    if os.environ.get("ARMLAB_NATIVE", "1") == "0":
        return "switched off (ARMLAB_NATIVE=0)"
    if _compiler() is None:
        return "no C compiler (install gcc, or set CC)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (install python3-dev)"
    return ""


def _c_expr(node: ast.expr, names: set[str]) -> str:
    """C for one Python expression of a kernel, every operation in parentheses; ValueError if it is not
    plain float arithmetic on known names."""
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return f"({_c_expr(node.left, names)} {_OPS[type(node.op)]} {_c_expr(node.right, names)})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return f"(-{_c_expr(node.operand, names)})"
    if isinstance(node, ast.Name) and node.id in names:
        return node.id
    if isinstance(node, ast.Constant) and type(node.value) is float and math.isfinite(node.value):
        return repr(node.value)  # the shortest text that reads back as the same double, in C as in Python
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCS
        and len(node.args) == 1
        and not node.keywords
    ):
        return f"{node.func.id}({_c_expr(node.args[0], names)})"
    raise ValueError(f"not plain float arithmetic: {ast.unparse(node)!r}")


def translate(source: str) -> tuple[str, str]:
    """(C body, name) of a generated kernel's Python ``source``: the C defines ``kernel`` with the same
    arguments and results. ValueError if the source is not a straight-line float kernel."""
    (fn,) = ast.parse(source).body
    if not isinstance(fn, ast.FunctionDef) or [a.arg for a in fn.args.args][-2:] != ["cos", "sin"]:
        raise ValueError("not a kernel f(..., cos, sin)")
    args = [a.arg for a in fn.args.args][:-2]
    sizes = {
        st.value.id: len(st.targets[0].elts)
        for st in fn.body
        if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Tuple) and isinstance(st.value, ast.Name)
    }
    names = {a for a in args if a not in sizes}  # the scalars, e.g. a step h
    body = [f"    const double {a} = x_{a}[0];" for a in sorted(names)]
    out: list[list[ast.expr]] = []
    tupled = False
    for st in fn.body:
        if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Tuple):  # q0, q1, q2 = q
            src, targets = st.value, st.targets[0].elts
            if not (isinstance(src, ast.Name) and src.id in sizes and src.id in args):
                raise ValueError(f"unexpected unpacking: {ast.unparse(st)!r}")
            for k, t in enumerate(targets):
                assert isinstance(t, ast.Name)
                body.append(f"    const double {t.id} = x_{src.id}[{k}];")
                names.add(t.id)
        elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            body.append(f"    const double {st.targets[0].id} = {_c_expr(st.value, names)};")
            names.add(st.targets[0].id)
        elif isinstance(st, ast.Return) and st.value is not None:
            groups = st.value.elts if isinstance(st.value, ast.Tuple) else [st.value]
            tupled = isinstance(st.value, ast.Tuple)
            if not all(isinstance(g, ast.List) for g in groups):
                raise ValueError("a kernel returns lists of floats")
            out = [g.elts for g in groups]  # type: ignore[attr-defined]
        elif not isinstance(st, ast.Pass):
            raise ValueError(f"unexpected statement: {ast.unparse(st)!r}")
    flat = [_c_expr(e, names) for g in out for e in g]
    body += [f"    y[{k}] = {e};" for k, e in enumerate(flat)]
    return _MODULE.format(
        params=", ".join(f"const double *restrict x_{a}" for a in args),
        body="\n".join(body),
        nargs=len(args) + 2,
        decls="\n".join(f"    double x_{a}[{sizes.get(a, 1)}];" for a in args),
        loads="\n".join(
            f"        || !load_seq(args[{i}], {sizes[a]}, x_{a})"
            if a in sizes
            else f"        || !load_one(args[{i}], x_{a})"
            for i, a in enumerate(args)
        ),
        call=", ".join(f"x_{a}" for a in args),
        ny=max(1, len(flat)),
        groups=", ".join(str(len(g)) for g in out),
        ngroups=len(out),
        tupled=int(tupled),
    ), fn.name


# One extension module per kernel. compute() is kept out of line so that its floating-point exceptions
# are all raised before fetestexcept reads them.
_MODULE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <fenv.h>
#include <math.h>

static PyObject *fallback, *py_cos, *py_sin;
static const Py_ssize_t groups[] = {{{groups}}};

static __attribute__((noinline)) void compute({params}, double *restrict y) {{
{body}
}}

static int load_one(PyObject *o, double *x) {{
    if (!PyFloat_Check(o)) return 0;
    *x = PyFloat_AS_DOUBLE(o);
    return isfinite(*x);
}}

static int load_seq(PyObject *s, Py_ssize_t n, double *x) {{
    PyObject **items;
    if (PyList_CheckExact(s) && PyList_GET_SIZE(s) == n) items = ((PyListObject *)s)->ob_item;
    else if (PyTuple_CheckExact(s) && PyTuple_GET_SIZE(s) == n) items = ((PyTupleObject *)s)->ob_item;
    else return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!load_one(items[i], x + i)) return 0;
    return 1;
}}

static PyObject *results(const double *y) {{
    PyObject *lists[{ngroups}];
    Py_ssize_t k = 0;
    for (Py_ssize_t g = 0; g < {ngroups}; g++) {{
        if (!(lists[g] = PyList_New(groups[g]))) return NULL;
        for (Py_ssize_t i = 0; i < groups[g]; i++, k++) {{
            PyObject *v = PyFloat_FromDouble(y[k]);
            if (!v) return NULL;
            PyList_SET_ITEM(lists[g], i, v);
        }}
    }}
    if (!{tupled}) return lists[0];
    PyObject *t = PyTuple_New({ngroups});
    if (!t) return NULL;
    for (Py_ssize_t g = 0; g < {ngroups}; g++) PyTuple_SET_ITEM(t, g, lists[g]);
    return t;
}}

static PyObject *kernel(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {{
{decls}
    double y[{ny}];
    if (kwnames || nargs != {nargs} || args[{nargs} - 2] != py_cos || args[{nargs} - 1] != py_sin
{loads}
    ) return PyObject_Vectorcall(fallback, args, nargs, kwnames);
    feclearexcept(FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW);
    compute({call}, y);
    int raised = fetestexcept(FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW);
    feclearexcept(FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW);
    for (Py_ssize_t k = 0; k < (Py_ssize_t)(sizeof y / sizeof *y); k++) raised |= !isfinite(y[k]);
    if (raised) return PyObject_Vectorcall(fallback, args, nargs, kwnames);  /* Python says what went wrong */
    return results(y);
}}

static PyObject *bind(PyObject *self, PyObject *fn) {{
    Py_XSETREF(fallback, Py_NewRef(fn));
    Py_RETURN_NONE;
}}

static PyMethodDef methods[] = {{
    {{"kernel", (PyCFunction)(void (*)(void))kernel, METH_FASTCALL | METH_KEYWORDS, "the compiled kernel"}},
    {{"bind", bind, METH_O, "set the Python kernel that runs off the fast path"}},
    {{NULL, NULL, 0, NULL}},
}};

static struct PyModuleDef module = {{PyModuleDef_HEAD_INIT, "NAME", NULL, -1, methods}};

PyMODINIT_FUNC PyInit_NAME(void) {{
    PyObject *m = PyImport_ImportModule("math");
    if (!m) return NULL;
    py_cos = PyObject_GetAttrString(m, "cos");
    py_sin = PyObject_GetAttrString(m, "sin");
    Py_DECREF(m);
    if (!py_cos || !py_sin) return NULL;
    return PyModule_Create(&module);
}}
"""


def _digest(c: str) -> str:
    tag = sysconfig.get_config_var("EXT_SUFFIX") or sys.version
    return hashlib.sha256("\n".join((c, " ".join(FLAGS), tag)).encode()).hexdigest()[:24]


def _library(c: str) -> Path:
    return cache_dir() / f"k{_digest(c)}{sysconfig.get_config_var('EXT_SUFFIX') or '.so'}"


def _build(c: str, path: Path) -> None:
    """Compile ``c`` into ``path``: into a temporary file first, renamed when whole (another process may
    be compiling the same kernel)."""
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


def _load(path: Path, python: Callable[..., Any]) -> Callable[..., Any]:
    name = path.name.split(".")[0]
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    mod.bind(python)
    mod.python = python  # type: ignore[attr-defined]  # see python_of
    return mod.kernel


def python_of(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """The Python kernel behind a native build (with its generated ``.source``); any other kernel itself."""
    return getattr(getattr(kernel, "__self__", None), "python", kernel)


def _native_of(c: str, python: Callable[..., Any]) -> Callable[..., Any]:
    """The library of C text ``c`` (built now if the cache does not hold a good one), bound to ``python``."""
    path = _library(c)
    if path.exists():
        try:
            return _load(path, python)
        except ImportError:  # a damaged file: build it again
            pass
    _build(c, path)
    return _load(path, python)


def compile_now(python: Callable[..., Any]) -> Callable[..., Any]:
    """The native build of the generated kernel ``python`` (made by :func:`armlab._core.codegen.make_function`),
    compiled now if the cache does not hold it. Raises OSError or ValueError when it cannot be built."""
    why = available()
    if why:
        raise OSError(why)
    python = python_of(python)
    return _native_of(translate(python.source)[0], python)  # type: ignore[attr-defined]


class _Builder:
    """One background thread that builds the kernels asked for, one at a time (one compiler at a time)."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[tuple[str, Callable[..., Any], Callable[[Callable[..., Any]], None]]] = queue.Queue()
        self.idle = threading.Condition()
        self.pending = 0
        self.thread: threading.Thread | None = None
        self.error = ""  # why the last build failed: a kernel that cannot be built stays Python

    def put(self, c: str, python: Callable[..., Any], ready: Callable[[Callable[..., Any]], None]) -> None:
        with self.idle:
            self.pending += 1
        if self.thread is None:
            self.thread = threading.Thread(target=self.work, name="armlab-native", daemon=True)
            self.thread.start()
        self.jobs.put((c, python, ready))

    def work(self) -> None:
        while True:
            c, python, ready = self.jobs.get()
            try:
                ready(_native_of(c, python))
            except Exception as e:  # noqa: BLE001 - whatever fails, the kernel stays Python and the thread lives
                self.error = f"{getattr(python, '__name__', 'kernel')}: {type(e).__name__}: {e}"
            finally:
                with self.idle:
                    self.pending -= 1
                    self.idle.notify_all()

    def settle(self, timeout: float | None) -> bool:
        with self.idle:
            return self.idle.wait_for(lambda: self.pending == 0, timeout)


_builder = _Builder()


def _after_fork() -> None:  # a forked child (a grading kernel) has no builder thread: it starts its own
    global _builder
    _builder = _Builder()


os.register_at_fork(after_in_child=_after_fork)


def native(python: Callable[..., Any], ready: Callable[[Callable[..., Any]], None]) -> Callable[..., Any]:
    """The kernel to use now for the generated kernel ``python``: its native build if the cache holds it;
    otherwise ``python`` itself, while a background thread builds it and then hands it to ``ready``.
    Without a compiler (see :func:`available`), or for a kernel C cannot express, ``python``."""
    if available():
        return python
    try:
        c, _ = translate(python.source)  # type: ignore[attr-defined] # here: ast.parse is not thread-safe in 3.11
    except (ValueError, AttributeError):
        return python
    path = _library(c)
    if path.exists():
        try:
            return _load(path, python)
        except ImportError:  # a damaged file: built again below
            pass
    _builder.put(c, python, ready)
    return python


def settle(timeout: float | None = 60.0) -> bool:
    """Wait until the background builds asked for so far are done (a lab's warm-up, tests, benchmarks);
    False if ``timeout`` (s) passed first. Their kernels are in use from then on."""
    return _builder.settle(timeout)


def last_error() -> str:
    """Why the last background build failed, or "" (the kernel then stays Python)."""
    return _builder.error
