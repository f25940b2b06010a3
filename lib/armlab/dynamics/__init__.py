"""Dynamics (textbook §3.4, lab report §2.2): Newton–Euler inverse dynamics, M, C, G, forward dynamics,
and the symbolic Lagrange model (pseudo-inertia route, (3.111)–(3.132))."""
from .lagrange import TERMS, LagrangeModel, lagrange, pseudo_inertia, simplify_trig
from .model import GRAVITY, coriolis, fdyn, gravload, inertia, kinetic_energy, potential_energy, rne
from .params import FULL_NAMES, PARAM_NAMES, dynamic_params, regressor, regressor_full

__all__ = ["rne", "inertia", "coriolis", "gravload", "fdyn", "kinetic_energy", "potential_energy", "GRAVITY",
           "lagrange", "LagrangeModel", "pseudo_inertia", "simplify_trig", "TERMS",
           "dynamic_params", "regressor", "regressor_full", "PARAM_NAMES", "FULL_NAMES"]
