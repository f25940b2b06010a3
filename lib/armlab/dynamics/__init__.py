"""Dynamics (textbook §3.4, lab report §2.2): Newton–Euler inverse dynamics, M, C, G, forward dynamics."""
from .model import GRAVITY, coriolis, fdyn, gravload, inertia, kinetic_energy, potential_energy, rne

__all__ = ["rne", "inertia", "coriolis", "gravload", "fdyn", "kinetic_energy", "potential_energy", "GRAVITY"]
