"""What the benchmarks share: the per-call timer and the converters to the reference libraries.

    from _harness import per_call, pin_puma, to_pin   # in bench/bench_*.py (bench/ is on sys.path when run)

``to_pin`` is the one DH → pinocchio converter of the cross-check tests (``tests/support/references.py``,
mass properties included); ``pin_puma`` is the kinematic-only model the kinematics and Jacobian benchmarks
time pinocchio on (one operational frame, no inertias). pinocchio is imported when a converter is called.
"""

from __future__ import annotations

import statistics
import sys
import timeit
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))  # tests/support: the converters and generators of the tests

from support import to_pin  # noqa: E402

__all__ = ["ROOT", "Limits", "add_check", "per_call", "pin_puma", "to_pin"]


def per_call(stmt, glob, number=2000, repeat=7):
    """Median seconds per call over `repeat` runs of `number` calls."""
    return statistics.median(t / number for t in timeit.repeat(stmt, globals=glob, number=number, repeat=repeat))


class Limits:
    """The limits of one benchmark: every value is printed beside its limit, met or not; with ``--check`` the
    script's exit code is 1 when any was missed (``./run.sh bench --check`` runs every benchmark so).

        limits = Limits()
        limits.at_most("PUMA560 tau (s)", seconds, 30)
        return limits.exit_code(args.check)
    """

    def __init__(self) -> None:
        self.missed: list[str] = []

    def at_most(self, name: str, value: float, limit: float) -> bool:
        ok = bool(value <= limit)  # NaN (nothing measured) misses
        print(f"  [{'ok' if ok else 'MISSED'}] {name}: {value:.4g} (limit {limit:g})")
        if not ok:
            self.missed.append(name)
        return ok

    def exit_code(self, check: bool) -> int:
        if self.missed:
            print(f"limits missed: {', '.join(self.missed)}")
        return 1 if check and self.missed else 0


def add_check(ap) -> None:
    """The ``--check`` flag every benchmark with limits takes."""
    ap.add_argument("--check", action="store_true", help="exit 1 if a limit is missed (every value is printed)")


def pin_puma(robot):
    """Our textbook PUMA560 as a pinocchio model: joint i placed at Rx(α)·Tx(a)·Tz(d), axis z."""
    import pinocchio as pin

    model = pin.Model()
    parent = 0
    for i, lk in enumerate(robot.links):
        ca, sa = np.cos(lk.alpha), np.sin(lk.alpha)
        Rx = np.array([[1, 0, 0], [0, ca, -sa], [0, sa, ca]])
        placement = pin.SE3(Rx, np.array([lk.a, 0, 0]) + Rx @ [0, 0, lk.d])
        parent = model.addJoint(parent, pin.JointModelRZ(), placement, f"j{i + 1}")
    model.addFrame(pin.Frame("ee", parent, 0, pin.SE3.Identity(), pin.FrameType.OP_FRAME))
    return model
