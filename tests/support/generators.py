"""Random inputs and the course models: random DH robots in either convention (revolute and
prismatic joints, offsets, base and tool), joint values and rigid transforms."""

from __future__ import annotations

import math

import numpy as np

from armlab import DHLink, DHRobot, models


# Course models, by name, as zero-argument factories.
COURSE_MODELS = {
    "puma560": models.puma560,
    "puma560_flange": lambda: models.puma560(flange=True),
    "puma560_standard": models.puma560_standard,
    "puma560_standard_flange": lambda: models.puma560_standard(flange=True),
    "youbot": models.youbot,
    "stanford_modified": lambda: models.stanford_arm(convention="modified"),
    "stanford_standard": lambda: models.stanford_arm(convention="standard"),
    "rpr": models.rpr,
    "planar2r": models.planar2r,
    "planar3r": models.planar3r,
}

# Prismatic joint range used for random robots (m): reasonable strokes, including negative d.
PRISMATIC_QLIM = (-0.5, 1.0)


def random_rotation(rng):
    """Uniform random rotation matrix from a unit quaternion."""
    qv = rng.normal(size=4)
    w, x, y, z = qv / np.linalg.norm(qv)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def random_transform(rng, scale=0.5):
    T = np.eye(4)
    T[:3, :3] = random_rotation(rng)
    T[:3, 3] = rng.uniform(-scale, scale, size=3)
    return T


_SPECIAL_ALPHAS = (0.0, math.pi / 2, -math.pi / 2, math.pi)


def random_dh_robot(rng, n, convention, prismatic_prob=0.3, with_base_tool=True):
    """A random n-joint DH robot.

    Lengths in [−0.8, 0.8] m (sometimes exactly 0), α either a special value
    (0, ±90°, 180°, which exercise the compiled kernels' constant folding) or
    uniform in (−π, π], random offsets, and for prismatic joints a random
    constant θ. With ``with_base_tool`` the robot gets random rigid base and tool
    transforms.
    """
    links = []
    for _ in range(n):
        prismatic = rng.random() < prismatic_prob
        a = 0.0 if rng.random() < 0.2 else rng.uniform(-0.8, 0.8)
        alpha = (
            _SPECIAL_ALPHAS[rng.integers(len(_SPECIAL_ALPHAS))]
            if rng.random() < 0.5
            else rng.uniform(-math.pi, math.pi)
        )
        d = 0.0 if rng.random() < 0.2 else rng.uniform(-0.8, 0.8)
        if prismatic:
            links.append(
                DHLink(
                    a=a,
                    alpha=alpha,
                    theta=rng.uniform(-math.pi, math.pi),
                    offset=rng.uniform(-0.3, 0.3),
                    joint="P",
                    qlim=PRISMATIC_QLIM,
                )
            )
        else:
            offset = 0.0 if rng.random() < 0.3 else rng.uniform(-math.pi, math.pi)
            links.append(DHLink(a=a, alpha=alpha, d=d, offset=offset, qlim=(-math.pi, math.pi)))
    base = random_transform(rng) if with_base_tool else None
    tool = random_transform(rng) if with_base_tool else None
    return DHRobot(links, convention=convention, base=base, tool=tool, name=f"random {convention}")


def random_q(rng, robot, size=None):
    """Joint values inside the robot's limits (±π where a joint has none): (n,) or (size, n)."""
    lim = robot.qlim.copy()
    lim[~np.isfinite(lim[:, 0]), 0] = -math.pi
    lim[~np.isfinite(lim[:, 1]), 1] = math.pi
    shape = (robot.n,) if size is None else (size, robot.n)
    return rng.uniform(lim[:, 0], lim[:, 1], size=shape)


def random_robots(seed, count, conventions=("standard", "modified"), n_range=(1, 7), **kw):
    """``count`` random robots per convention, n drawn from n_range (inclusive)."""
    rng = np.random.default_rng(seed)
    return [
        random_dh_robot(rng, int(rng.integers(n_range[0], n_range[1] + 1)), conv, **kw)
        for conv in conventions
        for _ in range(count)
    ]


def random_inertial(rng, robot):
    """The same robot with random physically valid mass properties on every link: mass 0.5–3 kg,
    centre of mass within 0.2 m of the frame origin, inertia = rotated diagonal of principal moments
    that satisfy the triangle inequality."""
    links = []
    for L in robot.links:
        a, b = rng.uniform(0.01, 0.1, 2)
        c = rng.uniform(abs(a - b) + 1e-3, a + b)  # triangle inequality on the principal moments
        Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        links.append(
            L.replace(m=rng.uniform(0.5, 3.0), r=tuple(rng.uniform(-0.2, 0.2, 3)), I=Q @ np.diag([a, b, c]) @ Q.T)
        )
    return robot.replace(links=links)
