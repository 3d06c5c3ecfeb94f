"""Choosing gpiozero's pin factory: real GPIO on the Pi, mock pins anywhere else.

docs/architecture.md: GPIO goes through gpiozero with an injected pin factory. The factory is
passed to each device (never set on `gpiozero.Device.pin_factory`), so the panel changes no
global state and tests can run several panels side by side.
"""

from __future__ import annotations

import logging
import os
import warnings
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol

from hardware.gpio.errors import PanelError
from hardware.gpio.pinmap import FACTORY_KINDS

logger = logging.getLogger(__name__)

ENV_VAR = "GPIOZERO_PIN_FACTORY"
GPIOCHIP = Path("/dev/gpiochip0")
MODEL_FILE = Path("/proc/device-tree/model")
# gpiozero's own order of preference (gpiozero.devices.Device._default_pin_factory).
REAL_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native")
_ENTRY_POINTS = "gpiozero_pin_factories"


class PinFactory(Protocol):
    """The part of a gpiozero pin factory the panel relies on beyond passing it to devices."""

    def close(self) -> None: ...


def make_pin_factory(kind: str = "auto", *, gpiochip: Path = GPIOCHIP,
                     model_file: Path = MODEL_FILE) -> tuple[PinFactory, str]:
    """A pin factory for `kind` ("auto" | "mock" | "real") and a line saying which it is.

    `GPIOZERO_PIN_FACTORY` in the environment wins over `kind` (gpiozero's own convention; the
    test suites set it to "mock"). "auto" takes the real factory when `gpiochip` exists and
    `model_file` names a Raspberry Pi, and mock pins otherwise. PanelError when the factory
    asked for cannot be started.
    """
    if kind not in FACTORY_KINDS:
        raise PanelError(f"unknown GPIO factory {kind!r} (use one of {', '.join(FACTORY_KINDS)})")
    name = os.environ.get(ENV_VAR, "").strip()
    if name:
        factory = _load_named(name)
        return factory, (f"{type(factory).__name__} from {ENV_VAR}={name} "
                         f"(overrides factory = {kind!r})")
    if kind == "auto":
        why_not = _why_not_a_pi(gpiochip, model_file)
        if why_not:
            return _load_named("mock"), f"mock pins, no physical panel ({why_not})"
        kind = "real"
    if kind == "mock":
        return _load_named("mock"), "mock pins, no physical panel (factory = \"mock\")"
    factory = _load_real()
    return factory, f"{type(factory).__name__} on {_model(model_file) or 'an unknown board'}"


def _why_not_a_pi(gpiochip: Path, model_file: Path) -> str:
    """Empty when this looks like a Raspberry Pi with GPIO, otherwise the reason it does not."""
    if not gpiochip.exists():
        return f"{gpiochip} not found"
    model = _model(model_file)
    if not model.startswith("Raspberry Pi"):
        return f"not a Raspberry Pi: {model_file} says {model!r}" if model else (
            f"not a Raspberry Pi: {model_file} not readable")
    return ""


def _model(model_file: Path) -> str:
    try:
        # The device tree writes the model as a NUL-terminated string.
        return model_file.read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
    except OSError:
        return ""


def _load_named(name: str) -> Any:
    """The factory registered under `name`, found and built the way gpiozero does for its
    environment variable (exact name first, then lower case)."""
    group = entry_points(group=_ENTRY_POINTS)
    for candidate in (name, name.lower()):
        for ep in group:
            if ep.name == candidate:
                try:
                    return ep.load()()
                except Exception as exc:  # drivers raise their own types; report any of them
                    raise PanelError(f"GPIO driver {name!r} could not start: {exc}") from exc
    known = ", ".join(sorted({ep.name for ep in group}))
    raise PanelError(f"unknown GPIO driver {name!r} in {ENV_VAR} (known: {known})")


def _load_real() -> Any:
    failures: list[str] = []
    for name in REAL_FACTORIES:
        try:
            with warnings.catch_warnings():
                # gpiozero warns when it falls back to its native driver; we log instead.
                warnings.simplefilter("ignore")
                factory = _load_named(name)
        except PanelError as exc:
            failures.append(f"{name}: {exc.__cause__ or exc}")
            continue
        if failures:
            logger.warning("GPIO: using %s; could not start %s", name, "; ".join(failures))
        return factory
    raise PanelError("no GPIO driver could be started (" + "; ".join(failures) + "). On a "
                     "Raspberry Pi install python3-lgpio and check that the kiosk user is in "
                     "the gpio group; on another computer set factory = \"mock\" in [gpio].")
