"""Least-squares identification of the base parameters, lab report §3 (3.1)–(3.2), and its checks.

:func:`identify` stacks ξ̄_B (the independent columns of ξ̄, :mod:`~armlab.dynamics.base_params`) over the
samples into Ξ (3.1) and solves Ξ·χ_B ≈ T_e:

* ``"ols"`` — ordinary least squares, (3.2) on the base parameters (ΞᵀΞ itself is singular, see
  docs/errata.md), columns normalised for the solve;
* ``"wls"`` — weighted least squares (Gautier): each joint's rows divided by the standard deviation of its
  OLS residual, so a noisy or weak joint does not dominate;
* ``"constrained"`` — the same weighted fit over the full χ̄, restricted to physically consistent links:
  each link's 4×4 pseudo-inertia J = ∫[r; 1][r; 1]ᵀdm is positive definite (Wensing et al. 2017; equivalent
  to m > 0 and the inertia about the centre of mass positive with principal moments satisfying the triangle
  inequality), and I_a, f_v, f_c ≥ 0. J is linear in χ, so this is a small semidefinite program (the LMI
  formulation one would hand to cvxpy). It is solved here directly, without a new dependency, by the
  textbook interior-point method: Newton steps on t·‖residual‖² − Σ log det J_k − Σ log f, t growing until
  the duality gap ν/t is negligible — a convex problem, so the result is the global optimum. A weak pull
  towards a prior χ̄ (the robot's catalogue values), not scaled by t, settles the directions the data cannot
  see and fades from the others.

The result (:class:`Identification`) predicts torques on fresh data (step д of §3.1) and reports its RMS
error per joint, the condition number of the (column-normalised) stacked regressor and the physical
consistency of the estimate (:meth:`Identification.consistency`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.protocol import RobotLike
from .._core.inertia import shift_inertia
from .._core.validation import as_float_array, joint_vector
from .base_params import BaseParameters, base_parameters, random_states
from .model import GRAVITY
from .params import dynamic_params

__all__ = ["Identification", "identify", "check_data", "pseudo_inertia_matrix", "link_consistency", "METHODS"]

METHODS = ("ols", "wls", "constrained")
#: a true base parameter this small relative to the largest is zero: the round-off of β·χ, not a value
ZERO_RELATIVE = 1e-12
_CHUNK = 4096
#: typical magnitudes of (m, m·c, I, I_a, f_v, f_c, f_off) for the prior's pull (kg, kg·m, kg·m², …)
_UNITS = np.array([1.0, 0.1, 0.1, 0.1, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.1, 0.1, 0.1])


def check_data(robot: RobotLike, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, tau: ArrayLike) -> list[np.ndarray]:
    """The four arrays as (N, n) floats with one length; a clear ValueError naming the argument otherwise
    (NaN or inf included: mask such samples explicitly before identifying)."""
    out = []
    for value, name in ((q, "q"), (qd, "qd"), (qdd, "qdd"), (tau, "tau")):
        a = np.asarray(value)
        if a.dtype.kind not in "biuf":  # complex, strings, objects: the one joint validator names the problem
            a = joint_vector(value, robot.n, name, symbolic=False)
        a = a.astype(float, copy=False)
        if a.ndim == 1 and a.shape[0] == robot.n:
            a = a[None]
        if a.ndim != 2 or a.shape[1] != robot.n:
            raise ValueError(f"{name} must be an (N, {robot.n}) array of samples, got shape {a.shape}")
        bad = ~np.isfinite(a).all(axis=1)
        if bad.any():
            rows = np.flatnonzero(bad)
            raise ValueError(
                f"{name} has NaN or inf in {rows.size} of {a.shape[0]} samples (first at row {rows[0]}): "
                "drop or mask those samples first (prepare(..., nan='drop') masks them explicitly)"
            )
        out.append(a)
    lengths = {name: a.shape[0] for a, name in zip(out, ("q", "qd", "qdd", "tau"))}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"the data arrays must have one length (samples): {lengths}")
    return out


def _stack(params, q, qd, qdd):
    """Ξ (N·n × count), built in chunks (the full ξ̄ of 20k samples would be 56 MB)."""
    N, n = q.shape
    out = np.empty((N, n, params.count))
    for s in range(0, N, _CHUNK):
        sl = slice(s, s + _CHUNK)
        out[sl] = params.regressor(q[sl], qd[sl], qdd[sl])
    return out


def pseudo_inertia_matrix(chi10: ArrayLike) -> np.ndarray:
    """The 4×4 pseudo-inertia J = [[½tr(I)·E − I, h], [hᵀ, m]] of one link from its 10 parameters (2.54)."""
    m, hx, hy, hz, ixx, iyy, izz, ixy, ixz, iyz = np.asarray(chi10, dtype=float)
    I = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])  # noqa: E741
    J = np.empty((4, 4))
    J[:3, :3] = 0.5 * np.trace(I) * np.eye(3) - I
    J[:3, 3] = J[3, :3] = hx, hy, hz
    J[3, 3] = m
    return J


#: A_i with J(χ) = Σ χ_i·A_i: the pseudo-inertia is linear in the ten parameters
_BASIS = None


def _basis():
    global _BASIS
    if _BASIS is None:
        _BASIS = np.array([pseudo_inertia_matrix(e) for e in np.eye(10)])
    return _BASIS


def link_consistency(chi10: ArrayLike, tol: float = 0.0) -> dict[str, Any]:
    """Physical consistency of one link's parameters: a dict with the mass, the principal moments about the
    centre of mass, and whether m > 0, the moments satisfy the triangle inequality (each ≤ the sum of the
    other two, hence ≥ 0) and the pseudo-inertia is positive definite (all three together)."""
    chi10 = np.asarray(chi10, float)
    m = chi10[0]
    J = pseudo_inertia_matrix(chi10)
    out = {"mass": m, "mass_positive": bool(m > tol), "pseudo_inertia_min_eig": float(np.linalg.eigvalsh(J)[0])}
    if m > 0:
        c = chi10[1:4] / m
        _, _, _, _, ixx, iyy, izz, ixy, ixz, iyz = chi10
        Io = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        p = np.linalg.eigvalsh(shift_inertia(Io, -m, c))  # back from the origin to the centre of mass
        out["principal_moments"] = p
        out["triangle"] = bool(p[0] + p[1] >= p[2] - tol and p[0] >= -tol)
    else:
        out["principal_moments"], out["triangle"] = None, False
    out["consistent"] = out["mass_positive"] and out["triangle"] and out["pseudo_inertia_min_eig"] > -tol
    return out


class Identification:
    """The result of :func:`identify`.

    ``base`` (count,): the estimated base parameters, in ``params.names`` order (``params`` the
    :class:`~armlab.dynamics.base_params.BaseParameters`); ``std``: their standard deviations from the fit's
    covariance; ``chi``: the full χ̄ (or χ) for ``"constrained"``, else None; ``rms`` (n,): RMS torque residual
    per joint on the data fitted (N·m); ``sigma`` (n,): the residual standard deviations the WLS weights
    used; ``cond``: condition number of the column-normalised stacked base regressor; ``samples``: N.
    ``ok`` and ``reason`` as every result object of the library: ``ok`` is False only when the constrained
    fit stopped before its duality gap closed (``reason`` then says so; the estimate is the last iterate),
    ``reason`` is "" when ok. Data that cannot determine the base parameters raise a ValueError instead.
    """

    def __init__(
        self,
        robot: Any,
        params: BaseParameters,
        method: str,
        base: np.ndarray,
        std: np.ndarray,
        chi: np.ndarray | None,
        rms: np.ndarray,
        sigma: np.ndarray,
        cond: float,
        samples: int,
        *,
        ok: bool = True,
        reason: str = "",
    ) -> None:
        self.robot, self.params, self.method = robot, params, method
        self.base, self.std, self.chi = base, std, chi
        self.rms, self.sigma, self.cond, self.samples = rms, sigma, cond, samples
        self.ok, self.reason = ok, reason
        self.data: dict[str, np.ndarray] | None = None  # the samples armlab.lab.ident.identify_log used

    @property
    def friction(self) -> bool:
        return self.params.friction

    def predict(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike) -> np.ndarray:
        """τ (…, n) = ξ̄_B(q, q̇, q̈)·χ_B, (2.67) with the estimate (step д of §3.1)."""
        return self.params.regressor(q, qd, qdd) @ self.base

    def validate(
        self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, tau: ArrayLike, *, regressor: ArrayLike | None = None
    ) -> np.ndarray:
        """RMS torque error per joint (n,) on fresh data (step д of §3.1). ``regressor``: ξ_B of these samples
        (N, n, count), if the caller has it already (it is most of the cost)."""
        q, qd, qdd, tau = check_data(self.robot, q, qd, qdd, tau)
        if regressor is None:
            regressor = self.params.regressor(q, qd, qdd)
        elif np.shape(regressor) != (*q.shape, self.params.count):
            raise ValueError(f"regressor must have shape {(*q.shape, self.params.count)}, got {np.shape(regressor)}")
        return np.sqrt(np.mean((regressor @ self.base - tau) ** 2, axis=0))

    def _truth(self, chi_true: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """The true base parameters β·χ_true, and which of them are zero (to the round-off of β·χ)."""
        true = self.params.of(chi_true)
        return true, np.abs(true) <= ZERO_RELATIVE * np.abs(true).max(initial=0.0)

    def relative_error(self, chi_true: ArrayLike) -> np.ndarray:
        """|χ_B − β·χ_true| / |β·χ_true| per base parameter, for a known true χ (or χ̄) — simulations.

        NaN where the true base parameter is zero (the true arm does not have it, e.g. a friction offset of 0):
        any estimate is then infinitely wrong relative to it, so the relative error says nothing;
        :meth:`error_table` shows the absolute error there."""
        true, zero = self._truth(chi_true)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(zero, np.nan, np.abs(self.base - true) / np.abs(true))

    def error_table(self, chi_true: ArrayLike) -> str:
        """True against identified base parameters, as text: one line each, largest true value first, with
        the fit's σ and the error. The error is relative where the true value is nonzero; where it is zero a
        relative error is undefined, and the line shows the absolute error (in the parameter's own unit),
        marked "abs", with a note saying why."""
        true, zero = self._truth(chi_true)
        rel = self.relative_error(chi_true)
        lines = [f"{'base parameter':>15s} {'true':>11s} {'identified':>11s} {'σ (fit)':>9s} {'error':>11s}"]
        for k in np.argsort(-np.abs(true), kind="stable"):
            err = f"{abs(self.base[k] - true[k]):7.1e} abs" if zero[k] else f"{rel[k]:11.1%}"
            value = 0.0 if zero[k] else true[k]
            lines.append(
                f"{self.params.names[k]:>15s} {value:11.5f} {self.base[k]:11.5f} {self.std[k]:9.5f} {err:>11s}"
            )
        if zero.any():
            lines.append(
                f"abs: the true value is 0 ({', '.join(np.asarray(self.params.names)[zero])}), so a relative error is "
                "undefined; the absolute error is shown instead."
            )
        return "\n".join(lines)

    def inertia(self, q: ArrayLike) -> np.ndarray:
        """M(q) (…, n, n) of the identified model, actuator inertias included."""
        qv = joint_vector(q, self.robot.n, "q", symbolic=False)
        n, zero = self.robot.n, np.zeros(qv.shape)
        rest = self.params.regressor(qv, zero, zero, gravity=(0.0, 0.0, 0.0))  # f_off's column: not inertia
        cols = [
            (self.params.regressor(qv, zero, np.broadcast_to(np.eye(n)[j], qv.shape), gravity=(0.0, 0.0, 0.0)) - rest)
            @ self.base
            for j in range(n)
        ]
        return np.stack(cols, axis=-1)

    def consistency(self, samples: int = 500, seed: int = 1) -> dict[str, Any]:
        """Physical consistency: M(q) positive definite at ``samples`` random states within the joint limits
        (``M_min_eig``: the smallest eigenvalue seen), and for a full χ̄ each link by :func:`link_consistency`
        and I_a, f_v, f_c ≥ 0. A base estimate alone cannot show masses: ``links`` is then None."""
        q, _, _ = random_states(self.robot, samples, seed)
        eig = float(np.linalg.eigvalsh(self.inertia(q)).min())
        out: dict[str, Any] = {
            "M_min_eig": eig,
            "M_positive_definite": eig > 0,
            "links": None,
            "friction_nonnegative": None,
        }
        if self.chi is not None:
            per = 14 if self.friction else 10
            chi = self.chi.reshape(self.robot.n, per)
            out["links"] = [link_consistency(c[:10]) for c in chi]
            if self.friction:
                out["friction_nonnegative"] = bool((chi[:, 10:13] >= 0).all())
        ok = out["M_positive_definite"] and (out["links"] is None or all(L["consistent"] for L in out["links"]))
        out["consistent"] = bool(ok and out["friction_nonnegative"] is not False)
        return out

    def __repr__(self):
        return (
            f"Identification({self.method}, {self.params.count} base parameters from {self.samples} samples, "
            f"cond {self.cond:.3g}, rms {np.array2string(self.rms, precision=3)} N·m)"
        )


def identify(
    robot: RobotLike,
    q: ArrayLike,
    qd: ArrayLike,
    qdd: ArrayLike,
    tau: ArrayLike,
    method: str = "ols",
    friction: bool = True,
    *,
    gravity: Any = GRAVITY,
    prior: ArrayLike | None = None,
    pull: float = 1.0,
) -> Identification:
    """Identify the base parameters from samples (N, n) of q, q̇, q̈ and the joint efforts τ (N·m).

    ``method``: "ols", "wls" or "constrained" (see the module); ``friction``: identify I_a, f_v, f_c, f_off
    too (ξ̄, (2.64)–(2.67)); ``prior``: χ̄ (or χ) the constrained fit leans towards where the data are
    silent (default: the robot's own parameters, zero friction), with weight ``pull`` (it fades as the fit
    converges, so it cannot bias what the data determine). A trajectory that
    cannot separate the base parameters (rank-deficient Ξ) raises a ValueError naming them.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    q, qd, qdd, tau = check_data(robot, q, qd, qdd, tau)
    params = base_parameters(robot, friction, gravity=gravity)
    N, n = q.shape
    if N * n < 2 * params.count:
        raise ValueError(f"{N} samples give {N * n} equations for {params.count} base parameters: record more")
    X = _stack(params, q, qd, qdd)  # (N, n, count)
    scale = np.sqrt((X**2).sum(axis=(0, 1)))
    _check_dead(params, scale, qd)
    Xs = X / scale
    # one QR per joint: any per-joint weighting is then a small problem on the stacked R_j (count·n rows)
    Rs, Qbs = zip(*(_qr(Xs[:, j, :], tau[:, j]) for j in range(n)))
    R, Qb = np.concatenate(Rs), np.concatenate(Qbs)
    _check_rank(params, R, qd)
    weights = np.ones(n)
    sol = _small_lstsq(R, Qb, weights)
    resid = tau - Xs @ sol
    sigma = np.sqrt((resid**2).sum(axis=0) / max(N - params.count / n, 1))
    if method != "ols":
        # noise-free data leave only rounding in the residuals: weights from it would be arbitrary
        weights = 1.0 / np.maximum(sigma, 1e-9 * np.sqrt(np.mean(tau**2)) + 1e-300)
        sol = _small_lstsq(R, Qb, weights)
    A = R * np.repeat(weights, params.count)[:, None]  # ‖A·x − b‖ = the weighted residual (plus a constant)
    b = Qb * np.repeat(weights, params.count)
    s = np.linalg.svd(A, compute_uv=False)
    cond = float(s[0] / s[-1])
    chi, reason = None, ""
    if method == "constrained":
        chi, reason = _constrained(robot, params, A, b, scale, prior, pull)
        sol = params.of(chi) * scale
    resid = tau - Xs @ sol
    base = sol / scale
    dof = max(N * n - params.count, 1)
    s2 = ((resid * weights) ** 2).sum() / dof
    cov = s2 * np.linalg.pinv(A.T @ A)
    std = np.sqrt(np.clip(np.diag(cov), 0, None)) / scale
    rms = np.sqrt(np.mean(resid**2, axis=0))
    return Identification(robot, params, method, base, std, chi, rms, sigma, cond, N, ok=not reason, reason=reason)


def _qr(X, y):
    """(R, Qᵀy) of one joint's rows, R square (count × count): the R factor of [X | y] holds both."""
    Ra: np.ndarray = np.linalg.qr(np.column_stack([X, y]), mode="r")  # type: ignore[assignment]
    p = X.shape[1]
    return Ra[:p, :p], Ra[:p, p]


def _small_lstsq(R, Qb, weights):
    p = R.shape[1]
    w = np.repeat(weights, p)
    return np.linalg.lstsq(R * w[:, None], Qb * w, rcond=None)[0]


def _still(qd):
    still = [j + 1 for j in range(qd.shape[1]) if not qd[:, j].any()]
    if not still:
        return ""
    return f" (joint{'s' if len(still) > 1 else ''} {', '.join(map(str, still))} never move{'' if len(still) > 1 else 's'})"


def _check_dead(params, scale, qd):
    """Explain a trajectory that leaves some base parameter's column at zero."""
    dead = np.flatnonzero(scale == 0)
    if dead.size:
        raise ValueError(
            f"the trajectory is rank-deficient: the data never excite {[params.names[i] for i in dead]}"
            f"{_still(qd)}; move every joint, both ways, with varying speed"
        )


def _check_rank(params, R, qd):
    """Explain a trajectory that cannot separate the base parameters (Ξ's columns nearly dependent)."""
    _, s, Vt = np.linalg.svd(R, full_matrices=False)
    if s[-1] < 1e-9 * s[0]:
        v = Vt[-1]
        involved = [params.names[i] for i in np.argsort(-np.abs(v))[:4] if abs(v[i]) > 0.1]
        raise ValueError(
            f"the trajectory is rank-deficient (condition number {s[0] / max(s[-1], 1e-300):.2g}): it "
            f"cannot tell {involved} apart{_still(qd)}; use a richer excitation (design_excitation)"
        )


def _constrained(robot, params, A, b, scale, prior, pull):
    """(χ̄, reason): the consistent χ̄ that minimises the weighted residual, by a log-det barrier Newton method
    (see the module); reason is "" when the duality gap closed, else why the estimate is only the last iterate."""
    n, per = robot.n, (14 if params.friction else 10)
    p = n * per
    chi = _prior(robot, per, prior)
    R, Qb = A, b  # already small: the stacked per-joint R factors
    M = R @ (params.combination * scale[:, None])  # the scaled unknowns are scale·β·χ̄
    # the pull, like the barrier, is not scaled by t: as t grows the data decide every direction they see
    # and the pull and the barrier only the others (so no bias, and those stay bounded)
    d2 = pull / np.tile(_UNITS[:per], n) ** 2
    H0 = M.T @ M
    fric = np.zeros(p, bool)
    if per > 10:
        fric.reshape(n, per)[:, 10:13] = True  # I_a, f_v, f_c ≥ 0
        chi[fric] = np.maximum(chi[fric], 1e-3 * np.tile(_UNITS[:per], n)[fric])
    B = _basis()
    nu = 4 * n + fric.sum()  # the barrier's parameter: 4 per 4×4 block, 1 per scalar
    chi0, D = chi.copy(), np.sqrt(d2)

    def F(x):  # the data's part, a sum of squares: no cancellation, so line searches work to tiny residuals
        return 0.5 * np.sum((M @ x - Qb) ** 2)

    def value(t, x):  # what Newton minimises for one t; inf outside the consistent set
        return t * F(x) + 0.5 * np.sum((D * (x - chi0)) ** 2) + _barrier(x, n, per, B, fric)

    floor = 1e-22 * (Qb @ Qb) + 1e-300
    t = nu / max(F(chi), floor)
    for _ in range(60):  # outer: t grows until the duality gap ν/t is negligible
        for _ in range(50):  # inner: Newton on t·F + barrier
            g = t * (M.T @ (M @ chi - Qb)) + d2 * (chi - chi0)  # residual form: no cancellation
            H = t * H0 + np.diag(d2)
            Js = chi.reshape(n, per)[:, :10] @ B.reshape(10, 16)
            for k in range(n):
                Ji = np.linalg.inv(Js[k].reshape(4, 4))
                G = np.einsum("ab,ibc->iac", Ji, B)  # J⁻¹A_i
                sl = slice(k * per, k * per + 10)
                g[sl] -= np.trace(G, axis1=1, axis2=2)
                H[sl, sl] += np.einsum("iab,jba->ij", G, G)
            g[fric] -= 1.0 / chi[fric]
            H[fric, fric] += 1.0 / chi[fric] ** 2
            step = -np.linalg.lstsq(H, g, rcond=None)[0]
            decrement = -g @ step
            s_ = 1.0
            phi = value(t, chi)
            while s_ > 1e-12:
                new = chi + s_ * step
                if value(t, new) <= phi - 0.25 * s_ * decrement:
                    break
                s_ *= 0.5
            chi = new
            if decrement < 1e-10:
                break
        if nu / t < 1e-10 * F(chi) + floor:
            return chi, ""
        t *= 20.0
    return chi, (
        f"the constrained fit stopped after 60 barrier rounds with the duality gap ν/t = {nu / t:.3g} "
        f"still above {1e-10 * F(chi) + floor:.3g}: the estimate is the last iterate"
    )


def _barrier(chi, n, per, B, fric):
    """−Σ log det J_k − Σ log χ_fric, or inf outside the consistent set."""
    if fric.any() and (chi[fric] <= 0).any():
        return np.inf
    total = -np.log(chi[fric]).sum()
    Js = (chi.reshape(n, per)[:, :10] @ B.reshape(10, 16)).reshape(n, 4, 4)
    sign, logdet = np.linalg.slogdet(Js)
    eig = np.linalg.eigvalsh(Js)[:, 0]
    if (sign <= 0).any() or (eig <= 0).any():
        return np.inf
    return total - logdet.sum()


def _prior(robot, per, prior):
    """χ̄ to lean on: the given one, else the robot's parameters (each link made consistent) and no friction."""
    n = robot.n
    if prior is not None:
        chi0 = as_float_array(prior, "prior", (n * per,), allow_batch=False)
    else:
        chi = dynamic_params(robot).reshape(n, 10) if any(float(L.m or 0) for L in robot.links) else np.zeros((n, 10))
        chi0 = np.concatenate([chi, np.zeros((n, per - 10))], axis=1).reshape(-1)
    chi0 = chi0.reshape(n, per).copy()
    for k in range(n):  # a link without mass (or an inconsistent prior) starts as a small consistent body
        if np.linalg.eigvalsh(pseudo_inertia_matrix(chi0[k, :10]))[0] <= 1e-12:
            chi0[k, :10] = [0.1, 0, 0, 0, 1e-3, 1e-3, 1e-3, 0, 0, 0]
    return chi0.reshape(-1)
