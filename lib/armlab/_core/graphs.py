"""Generated kernels as CasADi graphs, for loops that call them thousands of times and for derivatives.

A kernel of :class:`~armlab._core.codegen.Tracer` is straight-line arithmetic on its arguments' entries
with ``cos`` and ``sin`` passed in, so it runs unchanged on CasADi's symbols: :func:`function` calls it once
on ``casadi.SX`` symbols and keeps the expression graph as a ``casadi.Function``. CasADi evaluates such
functions in its own virtual machine, and ``mapaccum`` repeats one over many steps in one call (the closed
loop of :mod:`armlab.sim.closed_loop`): no code is compiled and no C compiler is needed. Building a function
takes milliseconds; one call from Python costs tens of µs, so single calls stay plain Python. CasADi also
differentiates the graphs (``jacobian``, ``jtimes``), and :func:`replay` turns a derivative back into Tracer
code, a plain kernel like every other (the Coriolis matrix).

Results agree with the Python kernel's to rounding (CasADi's cos and sin are the C library's, the order of
operations the generated code's), not necessarily to the bit. A division by zero gives inf or nan (callers
check the outputs) rather than raising. CasADi is imported on first use, not with armlab.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["casadi", "function", "run", "replay"]


def casadi() -> Any:
    """The casadi module, imported on first use."""
    import casadi as ca

    return ca


def function(kernel: Callable[..., Any], sizes: Sequence[int]) -> Any:
    """The ``casadi.Function`` of a generated kernel (made by :meth:`armlab._core.codegen.Tracer.kernel`):
    one input per argument of ``sizes`` (its length; 0 for a scalar such as a step h), one output (a column)
    per list the kernel returns. Built on first use and kept on the kernel."""
    built = getattr(kernel, "graph", None)
    if built is None:
        ca = casadi()
        args = [ca.SX.sym(f"x{i}", max(size, 1)) for i, size in enumerate(sizes)]
        values = [a[0] if size == 0 else [a[j] for j in range(size)] for a, size in zip(args, sizes)]
        out = kernel(*values, ca.cos, ca.sin)
        groups = out if isinstance(out, tuple) else (out,)
        built = ca.Function(kernel.__name__, args, [ca.vertcat(*(ca.SX(x) for x in g)) for g in groups])
        setattr(kernel, "graph", built)
    return built


def run(F: Any, args: Sequence[np.ndarray], results: Sequence[np.ndarray]) -> None:
    """Evaluate ``F`` reading ``args`` and writing ``results`` in place: C-ordered float arrays holding each
    input's and output's entries in CasADi's (column-major) order. No conversion to or from CasADi's
    matrices: a (columns, rows) array is a (rows, columns) matrix."""
    buf, call = F.buffer()
    for i, a in enumerate(args):
        buf.set_arg(i, a)
    for i, r in enumerate(results):
        buf.set_res(i, r)
    call()


def replay(F: Any, tracer: Any, inputs: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The operations of an SX function ``F`` (CasADi's derivatives of a kernel, say) replayed on the values of
    a :class:`~armlab._core.codegen.Tracer`, one list per input: its outputs' entries (column-major), for
    :meth:`~armlab._core.codegen.Tracer.kernel` to compile as plain Python, the one code generator."""
    ca = casadi()
    ops: dict[int, Callable[..., Any]] = {
        ca.OP_ADD: operator.add,
        ca.OP_SUB: operator.sub,
        ca.OP_MUL: operator.mul,
        ca.OP_DIV: operator.truediv,
        ca.OP_NEG: operator.neg,
        ca.OP_SQ: lambda x: x * x,
        ca.OP_TWICE: lambda x: 2.0 * x,
        ca.OP_COS: tracer.cos,
        ca.OP_SIN: tracer.sin,
    }
    work: dict[int, Any] = {}
    outs: list[list[Any]] = [[0.0] * F.nnz_out(i) for i in range(F.n_out())]
    for k in range(F.n_instructions()):
        op, i, o = F.instruction_id(k), F.instruction_input(k), F.instruction_output(k)
        if op == ca.OP_CONST:
            work[o[0]] = F.instruction_constant(k)
        elif op == ca.OP_INPUT:
            work[o[0]] = inputs[i[0]][i[1]]
        elif op == ca.OP_OUTPUT:
            outs[o[0]][o[1]] = work[i[0]]
        else:
            work[o[0]] = ops[op](*(work[j] for j in i))
    return outs
