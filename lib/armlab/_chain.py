"""A DH chain compiled to straight-line Python, once per robot.

A 4×4 numpy matmul costs microseconds, so a matmul chain cannot reach the
fkine/jacob0 targets. Instead the chain is written out as elementary column
operations (T·Rx, T·Tx, T·Rz, T·Tz) with the table's constants folded in:
zero terms vanish and α = ±90° becomes a swap. The generated function runs on
Python floats for one configuration and on numpy arrays for a batch.
"""
from __future__ import annotations

import math
import re

_SNAP = 1e-15
_NAME = re.compile(r"\bv\d+\b")


def _snap(x: float) -> float:
    for exact in (0.0, 1.0, -1.0):
        if abs(x - exact) < _SNAP:
            return exact
    return float(x)


class _Emitter:
    """Straight-line code with constant folding. Values are floats or variable names."""

    def __init__(self):
        self.lines: list[str] = []
        self.count = 0

    def var(self, expr: str) -> str:
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"    {name} = {expr}")
        return name

    def lin(self, *terms):
        """Σ sign·x·y over terms (x, y) or (x, y, sign), folded."""
        const, parts = 0.0, []
        for term in terms:
            x, y, sign = term if len(term) == 3 else (*term, 1.0)
            if isinstance(x, float) and isinstance(y, float):
                const += sign * x * y
                continue
            if isinstance(x, float):
                x, y = y, x
            if isinstance(y, float):
                k = sign * y
                if k == 0.0:
                    continue
                parts.append(x if k == 1.0 else f"-{x}" if k == -1.0 else f"{k!r}*{x}")
            else:
                parts.append(f"{x}*{y}" if sign == 1.0 else f"-{x}*{y}")
        const = _snap(const)
        if not parts:
            return const
        if const:
            parts.append(repr(const))
        if len(parts) == 1 and parts[0].isidentifier():
            return parts[0]
        return self.var(" + ".join(parts))


def _rotate(em, T, i, j, c, s):
    """T·R where R rotates columns i, j by (c, s): new i = c·i + s·j, new j = c·j − s·i."""
    ci, cj = T[i], T[j]
    T[i] = [em.lin((c, ci[r]), (s, cj[r])) for r in range(3)]
    T[j] = [em.lin((c, cj[r]), (s, ci[r], -1.0)) for r in range(3)]


def _translate(em, T, axis, amount):
    T[3] = [em.lin((1.0, T[3][r]), (amount, T[axis][r])) for r in range(3)]


def _angle(em, value):
    """(cos, sin) of a constant angle or of an emitted expression."""
    if isinstance(value, float):
        return _snap(math.cos(value)), _snap(math.sin(value))
    return em.var(f"cos({value})"), em.var(f"sin({value})")


def _joint_value(q_name, offset):
    return f"{q_name} + {offset!r}" if offset else q_name


def _needed(lines, outputs):
    """Drop the lines whose results the outputs do not use (the kernels share one emitter)."""
    need = {v for v in outputs if isinstance(v, str)}
    kept = []
    for line in reversed(lines):
        target, _, expr = line.strip().partition(" = ")
        if target.startswith("v") and target not in need:
            continue
        need.update(_NAME.findall(expr))
        kept.append(line)
    return kept[::-1]


def compile_chain(links, modified, base, tool):
    """Compile fkine, fkine_all and jacob0 kernels for a numeric DH table.

    Each kernel is ``f(q, cos, sin) -> list`` of matrix entries, row-major:
    fkine 16 entries (4×4), fkine_all (n+1)·12 entries ((n+1)×3×4), jacob0 6·n.
    """
    em = _Emitter()
    n = len(links)
    em.lines.append(f"    {', '.join(f'q{i}' for i in range(n))}{',' if n == 1 else ''} = q")
    # T as columns [x, y, z, p], each three row entries
    B = [[_snap(float(v)) for v in row] for row in (base if base is not None else
                                                     [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])]
    T = [[B[r][c] for r in range(3)] for c in range(4)]
    frames = [[col[:] for col in T]]
    for i, link in enumerate(links):
        ca, sa = _snap(math.cos(link.alpha)), _snap(math.sin(link.alpha))
        theta = _joint_value(f"q{i}", link.offset) if link.revolute else float(link.theta)
        d = float(link.d) if link.revolute else em.lin((1.0, f"q{i}"), (1.0, float(link.offset)))
        ct, st = _angle(em, theta)
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
        tool = [[_snap(float(v)) for v in row] for row in tool]
        T = [[em.lin(*((T[k][r], tool[k][c]) for k in range(3)), *(((T[3][r], 1.0),) if c == 3 else ()))
              for r in range(3)] for c in range(4)]

    def entries(F):
        return [F[c][r] for r in range(3) for c in range(4)]

    pe = T[3]
    axes = frames[1:] if modified else frames[:-1]
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
        body = "\n".join(_needed(em.lines, values))
        src = f"def {name}(q, cos, sin):\n{body}\n    return [{', '.join(map(str, values))}]\n"
        scope: dict = {}
        exec(compile(src, f"<armlab {name}>", "exec"), scope)  # noqa: S102 - our own generated code
        return scope[name], src

    fk, fk_src = make("fkine", entries(T) + [0.0, 0.0, 0.0, 1.0])
    fk_all, _ = make("fkine_all", [e for F in frames for e in entries(F)])
    jac_fn, _ = make("jacob0", jac)
    return fk, fk_all, jac_fn, fk_src
