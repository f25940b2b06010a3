"""Misprints of the lab report (sources/001) in the notation of (2.60)–(2.69), recomputed on the youBot
(docs/errata.md lists them; issue #23 §1)."""

import numpy as np
import pytest

from armlab import models
from armlab.dynamics import params as P

YOUBOT = models.youbot()
RNG = np.random.default_rng(260)


def test_eq_2_60_2_69_the_friction_term_is_tau_f_of_2_61():
    """(2.60) and (2.69) add "t_f" (t_f(q̇) in (2.69)); the friction torque is τ_f of (2.61), f_v q̇ + f_c sign(q̇) +
    f_off, and with it τ_e = M(q)q̈ + C(q, q̇)q̇ + G(q) + τ_f(q̇), M = I_a + D (2.69), equals ξ̄χ̄ (2.67)."""
    q, qd, qdd = RNG.normal(size=(3, 5))
    Ia, fv, fc, fo = RNG.uniform(0.01, 0.2, (4, 5))
    tau_f = fv * qd + fc * np.sign(qd) + fo  # (2.61)
    M = np.diag(Ia) + YOUBOT.inertia(q)  # (2.69): M(q) = I_a + D(q)
    tau_e = M @ qdd + YOUBOT.coriolis(q, qd) @ qd + YOUBOT.gravload(q) + tau_f
    chi = P.dynamic_params(YOUBOT).reshape(5, 10)
    chib = np.concatenate([np.r_[chi[i], Ia[i], fv[i], fc[i], fo[i]] for i in range(5)])
    np.testing.assert_allclose(P.regressor_full(YOUBOT, q, qd, qdd) @ chib, tau_e, atol=1e-10)
    assert not np.allclose(tau_e - tau_f, tau_e)  # the friction term is there


def test_eq_2_53_2_65_parameter_vectors_stack_the_transposed_blocks():
    """χ_i is a column (2.54), so (2.65)'s χ̄_i = [χ_i I_a,i f_v,i f_c,i f_off,i]ᵀ, a column beside four scalars, has
    no shape, and χ̄ = [χ̄_1, …, χ̄_5]ᵀ (like χ = [χ_1, …, χ_5]ᵀ ∈ R⁵⁰ in (2.53)) would be a 5×14 matrix. They are
    χ̄_i = [χ_iᵀ I_a,i f_v,i f_c,i f_off,i]ᵀ ∈ R¹⁴ and χ̄ = [χ̄_1ᵀ … χ̄_5ᵀ]ᵀ ∈ R⁷⁰, the vector ξ̄ (5×70) multiplies."""
    chi_cols = [c.reshape(10, 1) for c in P.dynamic_params(YOUBOT).reshape(5, 10)]  # χ_i as the columns of (2.54)
    extra = RNG.uniform(0.01, 0.2, (5, 4))
    with pytest.raises(ValueError):
        np.hstack([chi_cols[0], extra[0].reshape(1, 4)])  # [χ_1 I_a,1 f_v,1 f_c,1 f_off,1] as printed
    blocks = [np.vstack([c, e.reshape(4, 1)]) for c, e in zip(chi_cols, extra)]  # [χ_iᵀ …]ᵀ: 14×1
    as_printed = np.hstack(blocks).T  # [χ̄_1, …, χ̄_5]ᵀ
    stacked = np.vstack(blocks)[:, 0]  # [χ̄_1ᵀ … χ̄_5ᵀ]ᵀ
    assert as_printed.shape == (5, 14) and stacked.shape == (70,)
    q, qd, qdd = RNG.normal(size=(3, 5))
    xi_bar = P.regressor_full(YOUBOT, q, qd, qdd)
    assert xi_bar.shape == (5, 70)
    tau_e = YOUBOT.rne(q, qd, qdd) + extra[:, 0] * qdd + extra[:, 1] * qd + extra[:, 2] * np.sign(qd) + extra[:, 3]
    np.testing.assert_allclose(xi_bar @ stacked, tau_e, atol=1e-10)
