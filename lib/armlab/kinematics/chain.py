"""A DH chain compiled to straight-line Python, once per robot.

A 4×4 numpy matmul costs microseconds, so a matmul chain cannot reach the
fkine/jacob0 targets. Instead the chain is written out as elementary column
operations (T·Rx, T·Tx, T·Rz, T·Tz) with the table's constants folded in:
zero terms vanish and α = ±90° becomes a swap. The generated function runs on
Python floats for one configuration and on numpy arrays for a batch.
"""
from __future__ import annotations

import math

from .._core.codegen import Emitter, snap
from .frames import axis_frames


def _rotate(em, T, i, j, c, s):
    """T·R where R rotates columns i, j by (c, s): new i = c·i + s·j, new j = c·j − s·i."""
    ci, cj = T[i], T[j]
    T[i] = [em.lin((c, ci[r]), (s, cj[r])) for r in range(3)]
    T[j] = [em.lin((c, cj[r]), (s, ci[r], -1.0)) for r in range(3)]


def _translate(em, T, axis, amount):
    T[3] = [em.lin((1.0, T[3][r]), (amount, T[axis][r])) for r in range(3)]


def _joint_value(q_name, offset):
    return f"{q_name} + {offset!r}" if offset else q_name


def compile_chain(links, modified, base, tool):
    """Compile fkine, fkine_all and jacob0 kernels for a numeric DH table (each keeps its ``.source``).

    Each kernel is ``f(q, cos, sin) -> list`` of matrix entries, row-major:
    fkine 16 entries (4×4), fkine_all (n+1)·12 entries ((n+1)×3×4), jacob0 6·n.
    """
    em = Emitter()
    n = len(links)
    em.lines.append(f"    {', '.join(f'q{i}' for i in range(n))}{',' if n == 1 else ''} = q")
    # T as columns [x, y, z, p], each three row entries
    B = [[snap(float(v)) for v in row] for row in (base if base is not None else
                                                     [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])]
    T = [[B[r][c] for r in range(3)] for c in range(4)]
    frames = [[col[:] for col in T]]
    for i, link in enumerate(links):
        ca, sa = snap(math.cos(link.alpha)), snap(math.sin(link.alpha))
        theta = _joint_value(f"q{i}", link.offset) if link.revolute else float(link.theta)
        d = float(link.d) if link.revolute else em.lin((1.0, f"q{i}"), (1.0, float(link.offset)))
        ct, st = em.angle(theta)
        if modified:  # Rx(α)·Tx(a)·Rz(θ)·Tz(d)
            _rotate(em, T, 1, 2, ca, sa)
            _translate(em, T, 0, float(link.a))
            _rotate(em, T, 0, 1, ct, st)
            _translate(em, T, 2, d)
        else:  # Rz(θ)·Tz(d)·Tx(a)·Rx(α)
            _rotate(em, T, 0, 1, ct, st)
            _translate(em, T, 2, d)
            _translate(em, T, 0, float(link.a))
            _rotate(em, T, 1, 2, ca, sa)
        frames.append([col[:] for col in T])
    if tool is not None:
        tool = [[snap(float(v)) for v in row] for row in tool]
        T = [[em.lin(*((T[k][r], tool[k][c]) for k in range(3)), *(((T[3][r], 1.0),) if c == 3 else ()))
              for r in range(3)] for c in range(4)]

    def entries(F):
        return [F[c][r] for r in range(3) for c in range(4)]

    pe = T[3]
    axes = axis_frames(frames, modified)
    jac_cols = []
    for link, F in zip(links, axes):
        z, o = F[2], F[3]
        if link.revolute:
            rv = [em.lin((1.0, pe[k]), (1.0, o[k], -1.0)) for k in range(3)]
            v = [em.lin((z[(k + 1) % 3], rv[(k + 2) % 3]), (z[(k + 2) % 3], rv[(k + 1) % 3], -1.0))
                 for k in range(3)]
            jac_cols.append(v + z)
        else:
            jac_cols.append(z + [0.0, 0.0, 0.0])
    jac = [jac_cols[j][r] for r in range(6) for j in range(n)]

    def make(name, values):
        return em.function(name, "q, cos, sin", values, env={})

    fk = make("fkine", entries(T) + [0.0, 0.0, 0.0, 1.0])
    return fk, make("fkine_all", [e for F in frames for e in entries(F)]), make("jacob0", jac)
