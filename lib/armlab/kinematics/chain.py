"""A DH chain compiled to straight-line Python, once per robot.

A 4×4 numpy matmul costs microseconds, so a matmul chain cannot reach the fkine/jacob0 targets.
Instead the one forward recursion (:func:`armlab.kinematics.scalar.forward`, each link two screws
written as column operations) and the one geometric Jacobian
(:func:`armlab.kinematics.scalar.geometric_columns`) are traced by
:class:`armlab._core.codegen.Tracer` with the table's constants folded in: zero terms vanish and
α = ±90° becomes a swap. The generated functions run on Python floats for one configuration and
on numpy arrays for a batch.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .._core.codegen import Tracer
from .._core.dhlink import DHLink
from .frames import axis_frames
from .scalar import Frame, TracerBackend, forward, geometric_columns


def _entries(frame: Frame) -> list[Any]:
    """The top three rows of a 4×4 transform, row-major."""
    R, p = frame
    return [x for r in range(3) for x in (*R[r], p[r])]


def compile_chain(
    links: Sequence[DHLink], modified: bool, base: Any, tool: Any
) -> tuple[Callable[..., list], Callable[..., list], Callable[..., list]]:
    """Compile fkine, fkine_all and jacob0 kernels for a numeric DH table (each keeps its ``.source``).

    Each kernel is ``f(q, cos, sin) -> list`` of matrix entries, row-major:
    fkine 16 entries (4×4), fkine_all (n+1)·12 entries ((n+1)×3×4), jacob0 6·n.
    """
    tr = Tracer()
    n = len(links)
    frames, end = forward(links, modified, tr.inputs("q", n), TracerBackend(tr), base, tool)
    cols = geometric_columns(links, axis_frames(frames, modified), end[1])
    fk = tr.kernel("fkine", "q", _entries(end) + [0.0, 0.0, 0.0, 1.0])
    fk_all = tr.kernel("fkine_all", "q", [x for F in frames for x in _entries(F)])
    jac = tr.kernel("jacob0", "q", [c[r] for r in range(6) for c in cols])
    return fk, fk_all, jac
