"""The canonical form of trigonometric polynomials (armlab._core.trigpoly), behind the readable Lagrange
model (textbook Example 3.9's coefficients as printed after (3.110)).

The form is a sum of cos(k·θ) and sin(k·θ): unique, so equal functions give the same expression and an
identity gives exactly 0; float inputs are exact decimals, so no rounding residue is left.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from armlab._core.trigpoly import TrigProgram, trig_form

a, b, c, x, y, m1, m2 = sp.symbols("a b c x y m1 m2", real=True)


def test_angle_sum_formulas_give_one_form():
    """sin(a + b) = sin a cos b + cos a sin b, cos(a − b) = cos a cos b + sin a sin b, sin 2a = 2 sin a cos a."""
    pairs = [
        (sp.sin(a + b), sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b)),
        (sp.cos(a - b), sp.cos(a) * sp.cos(b) + sp.sin(a) * sp.sin(b)),
        (sp.sin(2 * a), 2 * sp.sin(a) * sp.cos(a)),
        (sp.cos(a + b + c), sp.expand(sp.cos(a + b + c), trig=True)),
    ]
    for short, long in pairs:
        assert trig_form(long, (a, b, c)) == trig_form(short, (a, b, c)) == short
    assert trig_form(sp.sin(a) * sp.cos(b) - sp.cos(a) * sp.sin(b), (a, b)) == sp.sin(a - b)


def test_pythagorean_identity_is_exactly_zero():
    """sin² + cos² = 1, with symbolic and with float coefficients (no 1e-17 residue)."""
    assert trig_form(sp.sin(a) ** 2 + sp.cos(a) ** 2 - 1) == 0
    k = sp.Float(0.0417166666666667)
    assert (
        trig_form(k * sp.sin(a) ** 2 * sp.cos(b) ** 2 + k * sp.cos(a) ** 2 * sp.cos(b) ** 2 - k * sp.cos(b) ** 2) == 0
    )
    e = (x * sp.cos(a) + y * sp.cos(a + b)) ** 2 + (x * sp.sin(a) + y * sp.sin(a + b)) ** 2
    assert trig_form(e, (a, b)) == x**2 + 2 * x * y * sp.cos(b) + y**2  # the law of cosines


def test_power_reduction_to_multiple_angles():
    """sin²a = (1 − cos 2a)/2, cos³a = (3 cos a + cos 3a)/4."""
    assert trig_form(sp.sin(a) ** 2) == sp.Rational(1, 2) - sp.cos(2 * a) / 2
    assert trig_form(sp.cos(a) ** 3) == sp.Rational(3, 4) * sp.cos(a) + sp.cos(3 * a) / 4


def test_the_form_equals_its_input_at_random_points():
    rng = np.random.default_rng(0)
    e = (1.3 * sp.sin(a) + x * sp.cos(a - 2 * b)) ** 3 * (sp.cos(b) - 0.7 * y * sp.sin(a + b)) + m1 * sp.sin(b) ** 4
    f = trig_form(e, (a, b))
    assert f.free_symbols == e.free_symbols
    for _ in range(5):
        at = dict(zip((a, b, x, y, m1), rng.uniform(-2, 2, 5)))
        assert float(f.xreplace(at)) == pytest.approx(float(e.xreplace(at)), abs=1e-12)


def test_group_gathers_the_masses_in_one_bracket():
    """Example 3.9's D11: m1·d1² + m2·d1² → (m1 + m2)·d1²; the masses never leave their bracket."""
    e = m1 * x**2 + m2 * ((x * sp.cos(a) + y * sp.cos(a + b)) ** 2 + (x * sp.sin(a) + y * sp.sin(a + b)) ** 2)
    assert trig_form(e, (a, b), group=(m1, m2)) == (m1 + m2) * x**2 + m2 * y**2 + 2 * m2 * x * y * sp.cos(b)
    assert trig_form(e, (a, b)) == m1 * x**2 + m2 * x**2 + m2 * y**2 + 2 * m2 * x * y * sp.cos(b)
    # a common number comes out of the bracket: 2m1 + 2m2 → 2(m1 + m2)
    assert trig_form(2 * (m1 + m2) * x * sp.cos(a), (a,), group=(m1, m2)) == sp.Mul(2, x, m1 + m2, sp.cos(a))


def test_program_entries_are_evaluated_once_and_shared():
    u, v, w = sp.symbols("u v w")
    program = TrigProgram([(u, sp.cos(a) * sp.cos(b)), (v, sp.sin(a) * sp.sin(b)), (w, u - v)], (a, b))
    assert program.form(w) == sp.cos(a + b)
    assert program.form(u + v) == sp.cos(a - b)
    assert set(program._values) == {u, v, w}


def test_symbols_outside_the_angles_stay_in_the_coefficients():
    alpha = sp.Symbol("alpha")
    e = sp.sin(alpha) * sp.cos(a) ** 2 + sp.sqrt(x) * sp.sin(a) ** 2
    expected = (sp.sin(alpha) + sp.sqrt(x)) / 2 + (sp.sin(alpha) - sp.sqrt(x)) * sp.cos(2 * a) / 2
    assert trig_form(e, (a,)) == sp.expand(expected)


def test_not_a_trigonometric_polynomial_gets_a_clear_error():
    with pytest.raises(ValueError, match=r"not a polynomial in the sines and cosines of \(a,\): 1/cos\(a\)"):
        trig_form(1 / sp.cos(a), (a,))
    with pytest.raises(ValueError, match="not a polynomial in the sines and cosines"):
        trig_form(sp.tan(a), (a,))


def test_the_reduction_sin2_to_1_minus_cos2_is_sympys_remainder_modulo_the_pythagorean_ideal():
    """The term-by-term rewrite sin^e = sin^(e mod 2)·(1 − cos²)^(e // 2) gives, for random polynomials in two
    angles' sines and cosines and one more variable, exactly the generic division's remainder."""
    program = TrigProgram((), (a, b), (x,))
    s1, c1, s2, c2, xx = program.ring.gens
    ideal = [s1**2 + c1**2 - 1, s2**2 + c2**2 - 1]
    rng = np.random.default_rng(3)
    for _ in range(40):
        p = program.ring.zero
        for _ in range(6):
            e = rng.integers(0, 5, size=5)
            p += (
                int(rng.integers(-9, 10))
                * s1 ** int(e[0])
                * c1 ** int(e[1])
                * s2 ** int(e[2])
                * c2 ** int(e[3])
                * xx ** int(e[4])
            )
        reduced = program._reduce(p)
        assert reduced == p.rem(ideal)
        assert all(m[0] < 2 and m[2] < 2 for m in reduced.itermonoms())
