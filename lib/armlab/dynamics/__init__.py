"""Dynamics (textbook §3.4, lab report §2.2): Newton–Euler inverse dynamics, M, C, G, forward dynamics,
the symbolic Lagrange model (pseudo-inertia route, (3.111)–(3.132)) and the book's simplified terms
(3.133)–(3.148), and the youBot chapter's regressor
τ = ξχ (2.53)–(2.67), base parameters, excitation and identification (lab report §3)."""

from .lagrange import SIMPLIFY_JOINTS, TERMS, LagrangeModel, lagrange, pseudo_inertia, simplify_trig
from .differential_form import (
    differential_vectors,
    effective_inertia_from_differential_vectors,
    gravity_from_axis_frames,
    inertia_from_differential_vectors,
)
from . import model
from .model import *  # noqa: F403  (the names in model.__all__)
from .params import FULL_NAMES, PARAM_NAMES, dynamic_params, regressor, regressor_full
from .base_params import BaseParameters, base_parameters, parameter_names
from .symbolic_regressor import SymbolicRegressor, symbolic_regressor
from .identification import METHODS, Identification, identify, link_consistency, pseudo_inertia_matrix
from .excitation import Excitation, design_excitation, regressor_condition
from .pipeline import prepare

__all__ = [
    *model.__all__,
    "lagrange",
    "LagrangeModel",
    "pseudo_inertia",
    "simplify_trig",
    "TERMS",
    "SIMPLIFY_JOINTS",
    "differential_vectors",
    "inertia_from_differential_vectors",
    "effective_inertia_from_differential_vectors",
    "gravity_from_axis_frames",
    "dynamic_params",
    "regressor",
    "regressor_full",
    "PARAM_NAMES",
    "FULL_NAMES",
    "base_parameters",
    "BaseParameters",
    "parameter_names",
    "symbolic_regressor",
    "SymbolicRegressor",
    "identify",
    "Identification",
    "METHODS",
    "link_consistency",
    "pseudo_inertia_matrix",
    "Excitation",
    "design_excitation",
    "regressor_condition",
    "prepare",
]
