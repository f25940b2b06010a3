"""The C compiler the native builds need (armlab._core.native): skip without one, but fail in CI."""

from __future__ import annotations

import os

import pytest

from armlab._core import native


def require_native() -> None:
    """Skip the calling test when kernels cannot be compiled here; in CI, fail instead."""
    why = native.available()
    if why and os.environ.get("CI"):
        pytest.fail(f"{why}, and CI is set: the native builds must be tested in CI")
    if why:
        pytest.skip(f"{why}; skipped outside CI")
