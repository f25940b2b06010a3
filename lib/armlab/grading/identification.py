"""Checkers for the identification homework (hw07): a 1-DOF pendulum with friction and a 2R arm.

The pendulum (angle q from the downward vertical, joint torque τ the motor supplies):

    τ = J·q̈ + (m·l)·g·sin q + f_v·q̇ + f_c·sign(q̇) + f_off = [q̈, g·sin q, q̇, sign(q̇), 1]·(J, ml, f_v, f_c, f_off)

— the lab report's τ_e = ξ̄χ̄ (2.67) for one link. Same rules as the rest of :mod:`armlab.grading`: every
failure is an ``AssertionError`` that names the kind of mistake (columns in the wrong order, identifying with
unfiltered accelerations, the friction offset forgotten, cos for sin, the mean square without its root, …),
and the references are computed here with plain Python arithmetic, never with ``armlab.dynamics`` or numpy.

>>> reference_regressor_row(0.0, 1.0, 2.0, 9.81)
[2.0, 0.0, 1.0, 1.0, 1.0]

Checkers: :func:`check_regressor_function`, :func:`check_identify_function` (from measured data),
:func:`check_rank_function` and :func:`check_2r_counts` (base parameters), :func:`check_rms_function`.
"""

from __future__ import annotations

from ._base import Run, arrays, call, cases_of, check_finite, fail, fmt, fmt_list, function_checker, read
from ._builtins import *  # noqa: F403  (the captured builtins shadow the live ones)
from ._frozen import Random, cos, freeze, np_array, permutations, pi, sin, sqrt
from .checks import check_close

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Sequence

__all__ = [
    "check_regressor_function",
    "check_identify_function",
    "check_rank_function",
    "check_2r_counts",
    "check_rms_function",
    "reference_regressor_row",
    "reference_least_squares",
    "reference_rank",
    "pendulum_data",
    "PARAMETERS",
]

#: the column order of the regressor and of the parameter vector
PARAMETERS = ("J", "ml", "fv", "fc", "foff")
G = 9.81


# --- plain-math references ----------------------------------------------------------------------
def sign(x: Any) -> Any:
    return 1.0 if x > 0 else -1.0 if x < 0 else 0.0


def reference_regressor_row(q: float, qd: float, qdd: float, g: float) -> list[float]:
    """[q̈, g·sin q, q̇, sign(q̇), 1]: the pendulum's row of ξ̄ in the order of :data:`PARAMETERS`."""
    return [qdd, g * sin(q), qd, sign(qd), 1.0]


def solve(A: Any, b: Any) -> Any:
    """x with A·x = b (plain Gaussian elimination with partial pivoting; A square, nested lists)."""
    n = len(b)
    M = [list(A[i]) + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        if M[c][c] == 0.0:
            return None
        for r in range(c + 1, n):
            f = M[r][c] / M[c][c]
            M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (M[r][n] - sum(M[r][k] * x[k] for k in range(r + 1, n))) / M[r][r]
    return x


def reference_least_squares(rows: Sequence[Sequence[float]], y: Sequence[float]) -> Any:
    """The least-squares solution of rows·x ≈ y by the normal equations (well-conditioned small problems)."""
    p = len(rows[0])
    A = [[sum(r[i] * r[j] for r in rows) for j in range(p)] for i in range(p)]
    b = [sum(r[i] * v for r, v in zip(rows, y)) for i in range(p)]
    return solve(A, b)


def reference_rank(rows: Sequence[Sequence[float]], rtol: float = 1e-9) -> int:
    """Rank of a matrix (nested lists) by elimination with partial pivoting on column-normalised entries:
    a pivot below rtol (relative to 1) counts as zero."""
    m, n = len(rows), len(rows[0])
    norms = [sqrt(sum(r[j] * r[j] for r in rows)) for j in range(n)]
    M = [[r[j] / norms[j] if norms[j] > 0 else 0.0 for j in range(n)] for r in rows]
    rank, row = 0, 0
    for c in range(n):
        if row >= m:
            break
        p = max(range(row, m), key=lambda r: abs(M[r][c]))
        if abs(M[p][c]) <= rtol:
            continue
        M[row], M[p] = M[p], M[row]
        for r in range(row + 1, m):
            f = M[r][c] / M[row][c]
            M[r] = [x - f * y for x, y in zip(M[r], M[row])]
        row += 1
        rank += 1
    return rank


def pendulum_data(
    seed: int, rate: float = 200.0, duration: float = 20.0, encoder: float = 5e-4, noise: float = 0.01
) -> Any:
    """A recorded pendulum motion: (t, q measured, τ measured, (q, q̇, q̈) exact, true parameters), lists.

    q(t) is a sum of two sines (exact derivatives); the encoder rounds q to steps of ``encoder`` rad and the
    effort gets Gaussian noise of ``noise`` N·m."""
    rng = Random(seed)
    params = [
        rng.uniform(0.05, 0.4),
        rng.uniform(0.1, 0.8),
        rng.uniform(0.02, 0.3),
        rng.uniform(0.05, 0.3),
        rng.uniform(-0.1, 0.1),
    ]
    w = 2 * pi * rng.uniform(0.3, 0.5)
    a1, a2, p1, p2 = rng.uniform(0.6, 1.2), rng.uniform(0.2, 0.5), rng.uniform(0, 2 * pi), rng.uniform(0, 2 * pi)
    t, qm, taum, exact = [], [], [], []
    for k in range(int(rate * duration)):
        tk = k / rate
        q = a1 * sin(w * tk + p1) + a2 * sin(2 * w * tk + p2)
        qd = a1 * w * sin(w * tk + p1 + pi / 2) + 2 * a2 * w * sin(2 * w * tk + p2 + pi / 2)
        qdd = -a1 * w * w * sin(w * tk + p1) - 4 * a2 * w * w * sin(2 * w * tk + p2)
        tau = sum(x * p for x, p in zip(reference_regressor_row(q, qd, qdd, G), params))
        t.append(tk)
        qm.append(encoder * int(q / encoder + (0.5 if q >= 0 else -0.5)) if encoder else q)  # to the nearest step
        taum.append(tau + rng.gauss(0.0, noise))
        exact.append((q, qd, qdd))
    return t, qm, taum, exact, params


def raw_differences(t: Any, q: Any) -> Any:
    """(q̇, q̈) by central differences of q without any filter (what not to do with encoder steps)."""
    n = len(q)
    qd = [(q[min(k + 1, n - 1)] - q[max(k - 1, 0)]) / (t[min(k + 1, n - 1)] - t[max(k - 1, 0)]) for k in range(n)]
    qdd = [(qd[min(k + 1, n - 1)] - qd[max(k - 1, 0)]) / (t[min(k + 1, n - 1)] - t[max(k - 1, 0)]) for k in range(n)]
    return qd, qdd


# --- helpers ------------------------------------------------------------------------------------
def matrix_answer(value: Any, rows: Any, cols: int, label: str) -> list[Any]:
    shape, flat = read(value, label)
    if shape == (rows, cols - 1):
        fail(
            label,
            f"shape {shape}: one column is missing — the friction offset f_off needs a column of ones "
            "(τ = … + f_off: its regressor entry is 1)",
        )
    if shape == (cols, rows) and rows != cols:
        fail(label, f"shape {shape}: this is the transpose — one row per sample, one column per parameter")
    if shape != (rows, cols):
        fail(
            label,
            f"expected an array of shape ({rows}, {cols}) — one row per sample, columns "
            f"{', '.join(PARAMETERS)} — got shape {shape}",
        )
    check_finite(flat, label)
    return [flat[i * cols : (i + 1) * cols] for i in range(rows)]


def vector_answer(value: Any, size: int, label: str) -> Any:
    shape, flat = read(value, label)
    if shape == (size - 1,):
        fail(
            label,
            f"{size - 1} numbers: the friction offset f_off is missing — identify all of "
            f"{', '.join(PARAMETERS)} (a constant torque the model lacks shifts the others)",
        )
    if shape != (size,):
        fail(label, f"expected {size} numbers ({', '.join(PARAMETERS)}), got shape {shape}")
    check_finite(flat, label)
    return flat


def number_answer(value: Any, label: str) -> Any:
    shape, flat = read(value, label)
    if len(flat) != 1:
        fail(label, f"expected one number, got shape {shape}")
    check_finite(flat, label)
    return flat[0]


# --- part 1: the regressor ------------------------------------------------------------------------
def regressor_case(rng: Random) -> Any:
    n = rng.randint(1, 6)
    return (
        [rng.uniform(-pi, pi) for _ in range(n)],
        [rng.choice((0.0, rng.uniform(-3, 3))) for _ in range(n)],
        [rng.uniform(-5, 5) for _ in range(n)],
        rng.uniform(1.0, 10.0),
    )


@function_checker("pendulum_regressor", atol=1e-9)
def check_regressor_function(fn: Callable[..., Any], run: Run) -> None:
    """``fn(q, qd, qdd, g)`` with arrays of N samples must return ξ̄ (N, 5), columns in :data:`PARAMETERS` order."""
    for q, qd, qdd, g in run.each(regressor_case):
        label = f"{run.name}(q={fmt_list(q)}, qd={fmt_list(qd)}, qdd={fmt_list(qdd)}, g={fmt(g)})"
        got = matrix_answer(
            call(fn, (*arrays(q, qd, qdd), g), run.name),
            len(q),
            5,
            label,
        )
        expected = [reference_regressor_row(a, b, c, g) for a, b, c in zip(q, qd, qdd)]
        hints: dict[str, Any] = {}
        for perm in permutations(range(5)):
            if list(perm) != [0, 1, 2, 3, 4]:
                order = ", ".join(PARAMETERS[i] for i in perm)
                hints.setdefault(
                    f"the columns are in the wrong order (this is {order}): the parameter vector is "
                    f"({', '.join(PARAMETERS)}), so the columns must be q̈, g·sin q, q̇, sign(q̇), 1",
                    [[row[i] for i in perm] for row in expected],
                )
        hints["cos q instead of sin q: q is measured from the downward vertical, gravity's torque is m·l·g·sin q"] = [
            [r[0], g * cos(a), r[2], r[3], r[4]] for r, a in zip(expected, q)
        ]
        hints["g is missing from the gravity column: its parameter is m·l, so the column is g·sin q"] = [
            [r[0], r[1] / g, r[2], r[3], r[4]] for r in expected
        ]
        hints["q̇ where sign(q̇) belongs: Coulomb friction f_c·sign(q̇) does not grow with speed"] = [
            [r[0], r[1], r[2], b, r[4]] for r, b in zip(expected, qd)
        ]
        check_close(got, expected, name=label, atol=run.atol, rtol=1e-9, hints=hints)


# --- part 2: identification from measured data ---------------------------------------------------
def check_identify_function(
    fn: Callable[..., Any], seeds: Iterable[int] = (), name: str = "identify_pendulum", rtol: float = 0.12
) -> None:
    """``fn(t, q, tau)`` (measured: q in encoder steps, τ noisy) must return the five parameters within
    ``rtol`` of the truth (each relative to max(|p|, 0.2·largest)); the known mistakes are named."""
    for seed in seeds:
        t, qm, taum, exact, truth = pendulum_data(seed)
        label = f"{name}(t, q, tau) on recording {seed}"
        got = vector_answer(call(fn, arrays(t, qm, taum), name), 5, label)
        scale = [max(abs(p), 0.2 * max(abs(x) for x in truth)) for p in truth]
        if all(abs(a - b) <= rtol * s for a, b, s in zip(got, truth, scale)):
            continue
        for perm in permutations(range(5)):
            if list(perm) != [0, 1, 2, 3, 4] and all(
                abs(got[k] - truth[perm[k]]) <= rtol * scale[perm[k]] for k in range(5)
            ):
                fail(
                    label,
                    "these are the right numbers in the wrong order: return ("
                    + ", ".join(PARAMETERS)
                    + f") — yours are ({', '.join(PARAMETERS[i] for i in perm)})",
                )
        qd_raw, qdd_raw = raw_differences(t, qm)
        raw = reference_least_squares(
            [reference_regressor_row(a, b, c, G) for a, b, c in zip(qm, qd_raw, qdd_raw)], taum
        )
        no_offset = reference_least_squares([reference_regressor_row(a, b, c, G)[:4] for a, b, c in exact], taum) + [
            0.0
        ]
        if raw is not None and all(
            abs(a - b) <= 0.3 * abs(b - c) + rtol * s for a, b, c, s in zip(got, raw, truth, scale)
        ):
            fail(
                label,
                "this is what unfiltered accelerations give: differencing encoder steps twice makes q̈ mostly "
                "noise (steps of 0.5 mrad at 200 Hz → ±80 rad/s²). Low-pass q first (a moving average over "
                "~0.1 s, applied before differencing), then take central differences",
            )
        if abs(got[4]) <= 1e-9 or all(abs(a - b) <= rtol * s for a, b, s in zip(got[:4], no_offset[:4], scale)):
            fail(
                label,
                "the friction offset f_off is missing (or fixed at 0): include the column of ones, else the "
                "constant torque leaks into the other parameters",
            )
        worst = max(range(5), key=lambda k: abs(got[k] - truth[k]) / scale[k])
        fail(
            label,
            f"{PARAMETERS[worst]} = {fmt(got[worst])}, expected ≈ {fmt(truth[worst])} (within "
            f"{rtol:.0%}); got {fmt_list(got)}, expected ≈ {fmt_list(truth)}",
        )


# --- part 3: base parameters ------------------------------------------------------------------------
def rank_case(rng: Random) -> Any:
    """(matrix, rank): a product of random factors, one column a combination of others up to rounding,
    columns scaled over six decades."""
    m, c = rng.randint(12, 30), rng.randint(4, 9)
    r = rng.randint(1, c - 1)
    A = [[rng.gauss(0, 1) for _ in range(r)] for _ in range(m)]
    B = [[rng.gauss(0, 1) for _ in range(c)] for _ in range(r)]
    Y = [[sum(A[i][k] * B[k][j] for k in range(r)) for j in range(c)] for i in range(m)]
    for j in range(c):
        s = 10.0 ** rng.uniform(-3, 3)
        for i in range(m):
            Y[i][j] *= s * (1.0 + 1e-13 * rng.gauss(0, 1))  # rounding-level noise: not a new direction
    return (Y, r)


def check_rank_function(
    fn: Callable[..., Any], cases: Any = None, seed: int | None = None, n: int = 10, name: str = "numeric_rank"
) -> None:
    """``fn(Y)`` must return the numerical rank of Y (an int): columns that are combinations of others up to
    rounding do not count, columns of very different scales do."""
    for Y, r in cases_of(cases, seed, n, rank_case):
        label = f"{name}(Y) for a {len(Y)}×{len(Y[0])} matrix"
        got = number_answer(call(fn, (np_array(Y, dtype=float),), name), label)
        if got != int(got):
            fail(label, f"a rank is a whole number, got {fmt(got)}")
        if int(got) == r:
            continue
        if int(got) > r:
            fail(
                label,
                f"rank {int(got)}, expected {r}: rounding-level differences (1e-13 relative) were counted as "
                "new directions. Normalise the columns and count singular values above a relative tolerance "
                "(e.g. 1e-9·the largest)",
            )
        fail(
            label,
            f"rank {int(got)}, expected {r}: independent columns of small scale were dropped — normalise each "
            "column to unit length before deciding what is zero",
        )


def check_2r_counts(vertical: float, horizontal: float, name: str = "base parameters of the 2R arm") -> None:
    """The planar 2R arm (standard DH, 10 inertial parameters per link, no friction) has 6 base parameters in
    a vertical plane and 4 in a horizontal one."""
    got = (number_answer(vertical, f"{name} (vertical plane)"), number_answer(horizontal, f"{name} (horizontal plane)"))
    if got == (6.0, 4.0):
        return
    if got == (4.0, 6.0):
        fail(name, "swapped: gravity does work only in the vertical plane, where it reveals link 1's first moments too")
    if 20.0 in got:
        fail(
            name,
            "20 is every parameter of both links, but most never reach a torque or only act in fixed "
            "combinations: count the independent columns of ξ stacked over many states",
        )
    fail(
        name,
        f"got {fmt(got[0])} (vertical) and {fmt(got[1])} (horizontal): stack ξ at many random states for "
        "each gravity and count its numerical rank",
    )


# --- part 4: validation --------------------------------------------------------------------------------
def check_rms_function(fn: Callable[..., Any], seeds: Iterable[int] = (), name: str = "validation_rms") -> None:
    """``fn(params, q, qd, qdd, tau)`` must return the RMS of τ − ξ̄·params over the samples (one number, N·m)."""
    for seed in seeds:
        rng = Random(seed)
        t, qm, taum, exact, truth = pendulum_data(seed, duration=1.0, encoder=0.0, noise=0.3)
        params = [p * rng.uniform(0.8, 1.2) for p in truth]
        q, qd, qdd = ([e[k] for e in exact] for k in range(3))
        label = f"{name}(params={fmt_list(params)}, …) on recording {seed}"
        got = number_answer(
            call(fn, arrays(params, q, qd, qdd, taum), name),
            label,
        )
        err = [
            tk - sum(x * p for x, p in zip(reference_regressor_row(a, b, c, G), params))
            for a, b, c, tk in zip(q, qd, qdd, taum)
        ]
        N = len(err)
        ms = sum(e * e for e in err) / N
        mean = sum(err) / N
        hints = {
            "this is the mean square: take its square root (RMS = √(mean of e²))": ms,
            "this is the mean absolute error, not the RMS: √(mean of e²)": sum(abs(e) for e in err) / N,
            "the mean error was subtracted first (that is the standard deviation): RMS keeps the bias": sqrt(
                ms - mean * mean
            ),
            "the root of the SUM of squares: divide by the number of samples first": sqrt(ms * N),
        }
        check_close(got, sqrt(ms), name=label, atol=1e-9, rtol=1e-6, hints=hints)


freeze(__name__)
