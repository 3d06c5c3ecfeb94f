"""The table's physical panel on the Pi's GPIO: buttons, tower lamp, minimum-bet display."""

from hardware.gpio.debounce import Debouncer
from hardware.gpio.display import CHARACTERS, FONT, format_minimum, layout_text
from hardware.gpio.errors import PanelError, PinMapError
from hardware.gpio.factory import PinFactory, make_pin_factory
from hardware.gpio.panel import (
    Action,
    Dispatch,
    LampState,
    LightState,
    PanelState,
    TablePanel,
)
from hardware.gpio.pinmap import PinMap

__all__ = [
    "CHARACTERS",
    "FONT",
    "Action",
    "Debouncer",
    "Dispatch",
    "LampState",
    "LightState",
    "PanelError",
    "PanelState",
    "PinFactory",
    "PinMap",
    "PinMapError",
    "TablePanel",
    "format_minimum",
    "layout_text",
    "make_pin_factory",
]
