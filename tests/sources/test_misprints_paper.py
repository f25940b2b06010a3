"""The simulation paper's data (sources/003 §3 and §5.1) checked for physical possibility (docs/errata.md;
issue #23 §1): the ball's mass and size, where it lies, and the links' masses for their size."""

import math

import numpy as np
import pytest

from armlab.models import PAPER_3R, paper_3r

OSMIUM = 22_590.0  # kg/m³, the densest element
STEEL, COPPER = 7_850.0, 8_960.0  # kg/m³


def _sphere_density(mass, radius):
    return mass / (4 / 3 * math.pi * radius**3)


def test_section_3_a_1_kg_ball_of_0_03_m_diameter_is_denser_than_any_element():
    """§3 gives the ball a diameter of 0.03 m, §5.1 a mass of 1 kg: 70.7 t/m³, three times osmium. With 0.03 m
    as the radius (what ODE's dCreateSphere and dMassSetSphereTotal take) it is 8.84 t/m³, a steel or copper
    ball; a 3 cm steel ball would weigh 0.11 kg."""
    m, d = PAPER_3R["ball_mass"], PAPER_3R["ball_diameter"]
    as_printed = _sphere_density(m, d / 2)
    assert as_printed == pytest.approx(70_736, rel=1e-4) and as_printed > 3 * OSMIUM
    as_radius = _sphere_density(m, d)
    assert as_radius == pytest.approx(8_842, rel=1e-3) and STEEL < as_radius < COPPER
    assert STEEL * 4 / 3 * math.pi * (d / 2) ** 3 == pytest.approx(0.111, abs=1e-3)


def test_section_3_the_ball_at_1_0_0_lies_half_below_the_floor():
    """§3 puts the base's bottom at (0, 0, 0), so the floor is z = 0, and the ball at (1, 0, 0): its centre at floor
    height, half of it below the floor. Resting on the floor its centre is at z = r (0.015 m as printed, 0.03 m
    read as a radius). The pick as the paper solves it, (0°, 90°, 90°), brings the gripper tip to z = 0, the floor;
    the centre of a resting ball is reached by a pose 1–2° away, still the front-up solution."""
    arm = paper_3r()
    assert arm.fkine(np.radians([0, 90, 90]))[2, 3] == pytest.approx(0.0, abs=1e-12)
    for r in (PAPER_3R["ball_diameter"] / 2, PAPER_3R["ball_diameter"]):
        sols = arm.ikine_all(np.array([1.0, 0.0, r]))
        q = np.degrees(sols.q[sols.labels.index("front-up")])
        np.testing.assert_allclose(arm.fkine(np.radians(q))[:3, 3], [1.0, 0.0, r], atol=1e-9)
        assert 0.5 < np.abs(q - [0, 90, 90]).max() < 2.5


def test_section_5_1_two_kilogram_links_are_light_for_their_size():
    """Checked, possible: 2 kg for a solid Ø0.08 m rod of 0.9 m or 1.0 m is 442 or 398 kg/m³ (a wood); as an
    aluminium tube (2700 kg/m³) the wall would be about 3 mm. The paper's "homogeneous rigid bodies" are a model."""
    r = PAPER_3R["radius"]
    rho = [m / (math.pi * r**2 * L) for m, L in zip(PAPER_3R["masses"][:2], PAPER_3R["lengths"][:2])]
    np.testing.assert_allclose(rho, [442.1, 397.9], rtol=1e-3)
    wall = 2.0 / (2_700.0 * 1.0) / (math.pi * 2 * r)  # thin-walled tube of the middle link's size
    assert 2.5e-3 < wall < 3.5e-3
