"""The lab's joint check is the library's one joint validator (issue #19): complex values, NaN, strings and a
wrong length are refused with a SafetyError naming the argument, and nothing reaches the robot."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("websockets")

from armlab.lab import SafetyError, Simulator, YoubotArm  # noqa: E402
from armlab.lab.safety import check_joint_vector  # noqa: E402

ARM_TOPIC = "/arm_1/arm_controller/position_command"


@pytest.mark.parametrize(
    "q, words",
    [
        ([0.1, 0.2, 0.3j, 0.1, 0.1], ("target", "complex")),
        (np.array([0.1, 0.2, 0.3, 0.1, 0.1], dtype=complex), ("target", "complex")),
        ([0.1, np.nan, 0.3, 0.1, 0.1], ("target", "NaN")),
        (["0.1", 0.2, 0.3, 0.1, 0.1], ("target", "numbers")),
        ([0.1, 0.2, 0.3], ("target", "5 joint values")),
    ],
)
def test_check_joint_vector_refuses_bad_values_naming_the_argument(q, words):
    with pytest.raises(SafetyError) as e:
        check_joint_vector(q, "target")
    assert all(w in str(e.value) for w in words) and "nothing was sent" in str(e.value)


@pytest.mark.integration  # starts a process
def test_a_complex_command_through_youbotarm_sends_nothing(tmp_path):
    with Simulator(port=0, record=True) as sim, YoubotArm(sim.url, log=tmp_path / "c.jsonl") as arm:
        q = arm.state().q.astype(complex)
        q[0] += 0.2 + 0.1j  # a real part that would be a legal, small motion
        n = len(sim.received)
        for command in (
            lambda: arm.move_joints(q),
            lambda: arm.move_joints(list(q), frame="dh"),
            lambda: arm.follow([arm.state().q, q]),
        ):
            with pytest.raises(SafetyError, match="complex"):
                command()
        assert not [t for _, _, t in list(sim.received)[n:] if ARM_TOPIC in t], "a complex command was sent"
