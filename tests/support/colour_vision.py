"""Colour checks for the accessibility tests: WCAG contrast ratios, colour-vision deficiency simulation
(Machado, Oliveira & Fernandes 2009, severity 1: protanopia, deuteranopia, tritanopia) and CIELAB ΔE (CIE76).

ΔE76 is the Euclidean distance in CIELAB (D65); 2.3 is a just-noticeable difference, and colours meant to be
told apart at a glance on a thin line want far more (the tests ask for 20).
"""

from __future__ import annotations

import numpy as np

# Machado et al. 2009, Table 1 (severity 1.0), applied to linear RGB
CVD = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}
_RGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
_WHITE = _RGB_TO_XYZ @ np.ones(3)


def rgb(color: str) -> np.ndarray:
    """'#rrggbb' → sRGB in [0, 1]."""
    h = color.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return np.array([int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)])


def linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def luminance(color: str) -> float:
    """WCAG relative luminance."""
    return float(np.dot([0.2126, 0.7152, 0.0722], linear(rgb(color))))


def contrast(a: str, b: str = "#ffffff") -> float:
    """WCAG 2.1 contrast ratio of two colours, 1 … 21."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def blend(color: str, alpha: float, background: str = "#ffffff") -> str:
    """What ``color`` at opacity ``alpha`` looks like over ``background`` (the canvas's compositing, in sRGB)."""
    c = alpha * rgb(color) + (1 - alpha) * rgb(background)
    return "#" + "".join(f"{round(255 * v):02x}" for v in c)


def lab(lin_rgb: np.ndarray) -> np.ndarray:
    """Linear RGB → CIELAB (D65)."""
    t = (_RGB_TO_XYZ @ lin_rgb) / _WHITE
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(color: str, deficiency: str | None = None) -> np.ndarray:
    """The CIELAB colour ``color`` is seen as, with ``deficiency`` (a key of :data:`CVD`) or normal vision."""
    c = linear(rgb(color))
    if deficiency is not None:
        c = np.clip(CVD[deficiency] @ c, 0.0, 1.0)
    return lab(c)


def delta_e(a: str, b: str, deficiency: str | None = None) -> float:
    """ΔE76 between two colours as seen with ``deficiency`` (None: normal vision)."""
    return float(np.linalg.norm(seen(a, deficiency) - seen(b, deficiency)))


def closest_pair(colors: list[str], deficiency: str | None = None) -> tuple[float, str, str]:
    """(ΔE, a, b) of the two colours of ``colors`` seen most alike."""
    return min((delta_e(a, b, deficiency), a, b) for i, a in enumerate(colors) for b in colors[i + 1 :])
