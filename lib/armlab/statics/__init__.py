"""Statics (statics chapter 002 §5.2–5.5, textbook §3.5.1): forces through a resting arm.

Convention (the book's (5-1)–(5-2), Craig's): ``wrench`` = (fx, fy, fz, mx, my, mz) is what the tip
EXERTS ON the environment, so the balancing joint torques are τ = JᵀF (5-6)/(3.156). A load acting on
the arm (a payload's weight, a push) is the negative of that.

* :func:`link_forces` — the inward recursion (5-1)–(5-4), link by link, with optional link weights:
  it is the inward pass of Newton–Euler (:mod:`armlab.dynamics.rne`) at rest;
* :func:`joint_torques` — τ = JᵀF, with F in the base or the tool frame;
* :func:`gravity_load` — the holding torques G(q): the dynamics chapter's G, the very same function as
  :func:`armlab.dynamics.gravload` (re-exported here under the chapter's name);
* :func:`inverse_statics` — F from τ: exact, least squares (the book's (JJᵀ)⁻¹Jτ) or minimum norm;
* wrench transforms: :func:`armlab.transforms.wrench_transform` ((5-7)–(5-9)) and
  :func:`armlab.transforms.wrench_in_frame` (textbook (3.169)–(3.170));
* :func:`max_tip_force`, :func:`max_payload` — the static-load envelope of §5.4 under joint torque limits;
* :func:`static_mapping` — §5.3.2's Fig. 5.6: the range of Jᵀ, its complement and its null space.

Modules: :mod:`.forces` (the recursion, τ = JᵀF), :mod:`.inverse` (inverse statics), :mod:`.envelope`
(load envelope), :mod:`.mapping` (the static mapping); every public name is re-exported here.

Conventions: ``frame=`` is "base" (the default everywhere) or "tool"; ``gravity=`` is a keyword, the
gravitational acceleration in the world frame. Where gravity is the point of the function
(:func:`gravity_load`, :func:`max_payload`) its default is :data:`armlab._core.constants.GRAVITY`; where it
adds the links' own weights to a tip load (:func:`link_forces`, :func:`max_tip_force`) its default ``None``
means "no weights", the chapter's (5-2).

>>> import armlab, numpy as np
>>> arm = armlab.models.planar2r(0.5, 0.3)
>>> q, F = [0.4, 0.9], [2.0, -1.0, 0, 0, 0, 0]
>>> res = link_forces(arm, q, F, frame="tool")
>>> bool(np.allclose(res.tau, joint_torques(arm, q, F, frame="tool")))
True
"""

from __future__ import annotations

from ..dynamics.model import gravload
from ..transforms import wrench_in_frame, wrench_transform
from .envelope import max_payload, max_tip_force
from .forces import FRAMES, LinkForces, joint_torques, link_forces
from .inverse import InverseStatics, inverse_statics
from .mapping import StaticMapping, static_mapping

__all__ = [
    "link_forces",
    "LinkForces",
    "joint_torques",
    "gravity_load",
    "inverse_statics",
    "InverseStatics",
    "wrench_transform",
    "wrench_in_frame",
    "max_tip_force",
    "max_payload",
    "static_mapping",
    "StaticMapping",
    "FRAMES",
]

#: The holding torques G(q): :func:`armlab.dynamics.gravload` itself, under the statics chapter's name.
gravity_load = gravload
