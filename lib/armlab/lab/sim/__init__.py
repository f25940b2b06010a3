"""The youBot simulator: a rosbridge v2 websocket server on the Newton–Euler arm model.

``python -m armlab.lab.sim --port 9090`` from a shell, or ``Simulator(port=0).start()`` in Python
(port 0: a free port; read ``sim.url``). See :mod:`armlab.lab.sim.server` and ``docs/lab.md``.
"""

from .physics import ArmPhysics
from .server import HOME_DRIVER, Simulator

__all__ = ["Simulator", "ArmPhysics", "HOME_DRIVER"]
