"""Chapter 07's excitation explorer (armlab.viz.identification) driven programmatically: the picture is sent
before the identification runs, work that did not change is not redone, and the numbers are those of
armlab.dynamics."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from armlab import dynamics  # noqa: E402

pytest.importorskip("ipywidgets")
from armlab.viz import excitation_explorer  # noqa: E402


@pytest.fixture(scope="module")
def ex():
    return excitation_explorer(harmonics=3, amplitude=0.8, noise=0.02)


def test_the_picture_goes_out_before_the_identification(ex, monkeypatch):
    order = []
    identify = dynamics.identify
    monkeypatch.setattr(dynamics, "identify", lambda *a, **k: (order.append("identify"), identify(*a, **k))[1])
    ex.scenes[0].widget.observe(lambda _: order.append("scene"), names="scene")
    ex.plot.widget.observe(lambda _: order.append("plot"), names="points")
    ex.readout.observe(lambda _: order.append("readout"), names="value")
    ex.sliders["harmonics"].value = 4.0
    assert order == ["scene", "plot", "identify", "readout"]
    ex.sliders["harmonics"].value = 3.0


def test_noise_changes_keep_the_trajectory_and_validation_is_validate(ex):
    before = ex.excitation
    ex.sliders["noise"].value = 0.05
    assert ex.excitation is before  # only the noise changed: same trajectory, same cond
    fresh = ex._excitation(4, 0.8, ex._pattern[::-1, :, ::-1])[0]
    _, q2, qd2, qdd2 = fresh.sample(ex.RATE)
    tau2 = dynamics.regressor_full(ex.robot, q2, qd2, qdd2) @ ex.truth + 0.05 * ex._noise[1, : len(q2)]
    np.testing.assert_allclose(ex.validation_rms, ex.result.validate(q2, qd2, qdd2, tau2), rtol=1e-9)
    assert ex.cond == pytest.approx(dynamics.regressor_condition(ex.robot, ex.excitation))
    ex.sliders["noise"].value = 0.02


def test_path_is_the_tool_over_one_period(ex):
    np.testing.assert_allclose(np.array(ex.path.get_data_3d()).T, ex.robot.fkine(ex.q[::2])[:, :3, 3])
    p = ex.excitation.peaks(ex.robot, samples=200)
    for k in p:
        np.testing.assert_allclose(ex.peaks[k], p[k])
