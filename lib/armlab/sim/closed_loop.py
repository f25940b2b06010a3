"""The closed loop of :func:`armlab.sim.run_task` in C, for a controller whose law is one compiled kernel.

Each step is what the Python loop does: τ = the controller's kernel at (q, q̇, reference), clipped to the
effort limits, then one semi-implicit Euler step of the plant's kernel, the rows recorded. Both kernels
are the native builds of :mod:`armlab._core.native` (the same floats as Python's), called through their
``compute_v`` pointers, so the loop gives the Python loop's numbers to the bit. A step that raises a
floating-point exception or leaves the safe range ends the C loop there: the Python loop redoes that step
and says what went wrong, as it always has. The saturation the C loop saw is recorded afterwards, as
``Controller.output`` would have recorded it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from .._core import native

__all__ = ["run_stretch"]

_KINDS = {"q": 1, "qd": 2, "qr": 3, "qdr": 4, "qddr": 5, "tau": 6}  # 0: a constant

# The module name is written NAME (armlab._core.native names it after the text's hash).
_LOOP = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <fenv.h>
#include <math.h>
#include <string.h>

typedef void (*kernel_fn)(const double *const *x, double *restrict y);
enum { CONST, Q, QD, QR, QDR, QDDR, TAU };
#define RAISED (FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW)
#define MAXN 64
#define MAXARGS 32

static void point(const double **at, const double *const *consts, const long *kinds, long m, const double *q,
                  const double *qd, const double *qr, const double *qdr, const double *qddr, const double *tau) {
    for (long i = 0; i < m; i++) {
        switch (kinds[i]) {
            case Q: at[i] = q; break;
            case QD: at[i] = qd; break;
            case QR: at[i] = qr; break;
            case QDR: at[i] = qdr; break;
            case QDDR: at[i] = qddr; break;
            case TAU: at[i] = tau; break;
            default: at[i] = consts[i];
        }
    }
}

/* finite and far from overflow: wherever this holds, Python's checks pass too */
static int sane(const double *x, long m) {
    for (long i = 0; i < m; i++)
        if (!(fabs(x[i]) < 1e300)) return 0;
    return 1;
}

static PyObject *run(PyObject *self, PyObject *args) {
    unsigned long long law_fn, law_c, law_k, step_fn, step_c, step_k, pR, pRD, pRDD, plim, pq, pqd, pQ, pQD, pQDD,
        pTAU, pRAW;
    long law_m, step_m, n, start, stop;
    if (!PyArg_ParseTuple(args, "KKKlKKKllllKKKKKKKKKKK", &law_fn, &law_c, &law_k, &law_m, &step_fn, &step_c,
                          &step_k, &step_m, &n, &start, &stop, &pR, &pRD, &pRDD, &plim, &pq, &pqd, &pQ, &pQD,
                          &pQDD, &pTAU, &pRAW))
        return NULL;
    if (n < 1 || n > MAXN || law_m > MAXARGS || step_m > MAXARGS) {
        PyErr_SetString(PyExc_ValueError, "closed loop: too many joints or arguments");
        return NULL;
    }
    kernel_fn law = (kernel_fn)(uintptr_t)law_fn, step = (kernel_fn)(uintptr_t)step_fn;
    const double *const *lc = (const double *const *)(uintptr_t)law_c, *const *sc = (const double *const *)(uintptr_t)step_c;
    const long *lk = (const long *)(uintptr_t)law_k, *sk = (const long *)(uintptr_t)step_k;
    const double *R = (const double *)(uintptr_t)pR, *RD = (const double *)(uintptr_t)pRD;
    const double *RDD = (const double *)(uintptr_t)pRDD, *lim = (const double *)(uintptr_t)plim;
    double *q = (double *)(uintptr_t)pq, *qd = (double *)(uintptr_t)pqd;
    double *Q = (double *)(uintptr_t)pQ, *QD = (double *)(uintptr_t)pQD, *QDD = (double *)(uintptr_t)pQDD;
    double *TAU = (double *)(uintptr_t)pTAU, *RAW = (double *)(uintptr_t)pRAW;
    const double *la[MAXARGS], *sa[MAXARGS];
    double raw[MAXN], tau[MAXN], y[3 * MAXN];
    size_t row = (size_t)n * sizeof(double);
    long k;
    Py_BEGIN_ALLOW_THREADS  /* the kernels touch no Python object: the kernel's other threads run meanwhile */
    for (k = start; k < stop; k++) {
        point(la, lc, lk, law_m, q, qd, R + k * n, RD + k * n, RDD + k * n, NULL);
        feclearexcept(RAISED);
        law(la, raw);
        if (fetestexcept(RAISED) || !sane(raw, n)) break;
        for (long i = 0; i < n; i++) {  /* Controller.output's clip */
            double x = raw[i];
            tau[i] = (lim && (x > lim[i] || x < -lim[i])) ? (x > 0 ? lim[i] : -lim[i]) : x;
        }
        point(sa, sc, sk, step_m, q, qd, NULL, NULL, NULL, tau);
        step(sa, y);
        if (fetestexcept(RAISED) || !sane(y, 3 * n)) break;
        long r = (k - start) * n;
        memcpy(Q + r, q, row);
        memcpy(QD + r, qd, row);
        memcpy(QDD + r, y, row);
        memcpy(TAU + r, tau, row);
        memcpy(RAW + r, raw, row);
        memcpy(q, y + n, row);
        memcpy(qd, y + 2 * n, row);
    }
    feclearexcept(RAISED);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(k);
}

static PyMethodDef methods[] = {
    {"run", run, METH_VARARGS, "steps start..stop of the closed loop; returns the step it stopped at"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "NAME", NULL, -1, methods};

PyMODINIT_FUNC PyInit_NAME(void) { return PyModule_Create(&module); }
"""

_driver: ModuleType | None = None


def _loop_module() -> ModuleType | None:
    """The compiled loop, or None while it is built (or without a compiler)."""
    global _driver
    if _driver is None:
        _driver = native.request(_LOOP, lambda m: globals().__setitem__("_driver", m))
    return _driver


def _arguments(
    kernel: Callable[..., Any], template: Sequence[Any], n: int, state: set[str], outputs: tuple[int, ...]
) -> tuple[int, list, np.ndarray, np.ndarray] | None:
    """(address, constants kept alive, pointer array, kind array) of a native kernel called with ``template``
    (names in ``state``, each a vector of n, or constant sequences / floats of the kernel's sizes) and
    returning lists of the lengths ``outputs``; None if it cannot be (C must never read or write past a
    buffer)."""
    abi = native.kernel_abi(kernel)
    if abi is None or len(template) != len(abi[1].args) or abi[1].groups != outputs:
        return None
    address, ck = abi
    values: list[float] = []
    offsets, kinds = [], []
    for arg, (_, size) in zip(template, ck.args):
        if isinstance(arg, str):
            if arg not in state or size != n:
                return None
            offsets.append(-1)
            kinds.append(_KINDS[arg])
            continue
        v = list(arg) if isinstance(arg, (list, tuple)) else [arg]
        if len(v) != size or not all(type(x) is float and math.isfinite(x) for x in v):
            return None  # what the Python kernel makes of it is Python's business
        offsets.append(len(values))
        kinds.append(0)
        values += v
    constants = np.array(values or [0.0])  # one buffer, each constant argument a pointer into it
    base = constants.ctypes.data
    pointers = np.array([0 if k < 0 else base + 8 * k for k in offsets], dtype=np.uintp)
    return address, [constants], pointers, np.array(kinds, dtype=np.int_)


def run_stretch(
    law: tuple[Callable[..., Any], Sequence[Any]],
    step: tuple[Callable[..., Any], Sequence[Any]],
    refs: Sequence[np.ndarray],
    limits: Sequence[float] | None,
    start: int,
    stop: int,
    q: list,
    qd: list,
) -> tuple[int, list, list, tuple[np.ndarray, ...]] | None:
    """Steps ``start``…``stop`` − 1 of the closed loop in C, or None when it cannot run here (a Python
    kernel, no compiled loop yet, an argument C would read differently).

    ``law`` and ``step``: (kernel, argument template), the template naming the state ("q", "qd", "qr",
    "qdr", "qddr", "tau") or giving constants. ``refs``: the reference (q_r, q̇_r, q̈_r), each (N + 1, n) on
    the step grid. Returns (the step it stopped at, q and q̇ there, the rows (q, q̇, q̈, τ, demanded τ) of the
    steps it ran).
    """
    n = len(q)
    mod = _loop_module()
    a = _arguments(*law, n, {"q", "qd", "qr", "qdr", "qddr"}, (n,))
    b = _arguments(*step, n, {"q", "qd", "tau"}, (n, n, n))
    if mod is None or a is None or b is None or not 0 <= start <= stop:
        return None
    if len(qd) != n or not all(type(x) is float for x in (*q, *qd)):
        return None
    R, RD, RDD = (np.ascontiguousarray(r, dtype=float) for r in refs)
    lim = None if limits is None else np.ascontiguousarray(limits, dtype=float)
    if any(r.ndim != 2 or r.shape[1] != n or len(r) < stop for r in (R, RD, RDD)) or (
        lim is not None and lim.shape != (n,)
    ):
        return None
    state = np.array([q, qd], dtype=float)
    rows = np.empty((5, stop - start, n))
    k = mod.run(
        a[0], a[2].ctypes.data, a[3].ctypes.data, len(a[2]),
        b[0], b[2].ctypes.data, b[3].ctypes.data, len(b[2]),
        n, start, stop,
        R.ctypes.data, RD.ctypes.data, RDD.ctypes.data, 0 if lim is None else lim.ctypes.data,
        state[0].ctypes.data, state[1].ctypes.data,
        *(rows[i].ctypes.data for i in range(5)),
    )  # fmt: skip
    done = rows[:, : k - start]
    return k, state[0].tolist(), state[1].tolist(), tuple(done)
