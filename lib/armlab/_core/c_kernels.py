"""Generated kernels in C: a Tracer kernel's Python source translated, operation for operation, into a
CPython extension module (built and cached by :mod:`armlab._core.native`).

The translation goes through Python's own parse tree and writes every operation in parentheses as Python
grouped it, so C evaluates the same IEEE operations in the same order. The module's ``kernel`` has the
Python kernel's signature; its ``address()`` is ``compute`` for C callers (a closed loop in C), taking the
arguments as an array of pointers.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass

__all__ = ["CKernel", "translate"]

_FUNCS = {"cos", "sin"}
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


@dataclass(frozen=True)
class CKernel:
    """A kernel in C: the module's text, the kernel's name, its arguments (each with its length; 1 for a
    scalar) and the lengths of the lists it returns."""

    c: str
    name: str
    args: tuple[tuple[str, int], ...]
    groups: tuple[int, ...]


def _c_expr(node: ast.expr, names: set[str]) -> str:
    """C for one Python expression of a kernel, every operation in parentheses; ValueError if it is not
    plain float arithmetic on known names."""
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return f"({_c_expr(node.left, names)} {_OPS[type(node.op)]} {_c_expr(node.right, names)})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return f"(-{_c_expr(node.operand, names)})"
    if isinstance(node, ast.Name) and node.id in names:
        return f"n_{node.id}"  # prefixed: no Python name can clash with a C keyword or the module's own names
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


def translate(source: str) -> CKernel:
    """The C extension module of a generated kernel's Python ``source``: its ``kernel`` takes the same
    arguments and returns the same lists. ValueError if the source is not a straight-line float kernel."""
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
    body = [f"    const double n_{a} = x_{a}[0];" for a in sorted(names)]
    out: list[list[ast.expr]] = []
    tupled = False
    for st in fn.body:
        if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Tuple):  # q0, q1, q2 = q
            src, targets = st.value, st.targets[0].elts
            if not (isinstance(src, ast.Name) and src.id in sizes and src.id in args):
                raise ValueError(f"unexpected unpacking: {ast.unparse(st)!r}")
            for k, t in enumerate(targets):
                assert isinstance(t, ast.Name)
                body.append(f"    const double n_{t.id} = x_{src.id}[{k}];")
                names.add(t.id)
        elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            body.append(f"    const double n_{st.targets[0].id} = {_c_expr(st.value, names)};")
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
    c = _MODULE.format(
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
        unpack=", ".join(f"x[{i}]" for i in range(len(args))),
    )
    return CKernel(c, fn.name, tuple((a, sizes.get(a, 1)) for a in args), tuple(len(g) for g in out))


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

/* compute() for C callers: the arguments as an array of pointers, in the kernel's order */
static void compute_v(const double *const *x, double *restrict y) {{
    compute({unpack}, y);
}}

static PyObject *address(PyObject *self, PyObject *unused) {{
    return PyLong_FromVoidPtr((void *)compute_v);
}}

static PyObject *bind(PyObject *self, PyObject *fn) {{
    Py_XSETREF(fallback, Py_NewRef(fn));
    Py_RETURN_NONE;
}}

static PyMethodDef methods[] = {{
    {{"kernel", (PyCFunction)(void (*)(void))kernel, METH_FASTCALL | METH_KEYWORDS, "the compiled kernel"}},
    {{"bind", bind, METH_O, "set the Python kernel that runs off the fast path"}},
    {{"address", address, METH_NOARGS, "compute_v(const double *const *x, double *y), for C callers"}},
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
