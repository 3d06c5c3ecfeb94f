"""Tests of a built SD image run only when asked: `image-build/test` (or `pytest -m image`
with TABLESIDE_IMAGE naming the build's folder); the fast checks of the image's files always
run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    built = os.environ.get("TABLESIDE_IMAGE", "")
    if built and Path(built, "tableside-pi4-arm64.img").exists():
        return
    skip = pytest.mark.skip(reason="no built image: run image-build/build, then image-build/test")
    for item in items:
        if item.get_closest_marker("image") is not None:
            item.add_marker(skip)
