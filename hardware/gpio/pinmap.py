"""Which GPIO pin does what on the table's panel: the `[gpio]` section of the table's config.

Pins are BCM GPIO numbers (0-27 on the 40-pin header). The defaults use exactly the 17 pins that
have no second job on a Raspberry Pi, so the UART (GPIO 14/15), I2C (2/3), SPI0 (7-11) and the
HAT ID EEPROM (0/1) stay free for a serial console, a sensor or a HAT.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from hardware.gpio.errors import PinMapError

FACTORY_KINDS = ("auto", "mock", "real")
MAX_GPIO = 27
SEGMENT_NAMES = ("a", "b", "c", "d", "e", "f", "g")
DIGITS = 4
# GPIO 2 and 3 carry 1.8 kΩ pull-ups to 3.3 V on the board itself (for I2C): a button wired to
# 3.3 V there would always read pressed.
_FIXED_PULL_UP = frozenset({2, 3})

_COMMENTS = {
    "factory": '"auto": real GPIO on a Pi, else mock | "real" | "mock"',
    "button_no_more_bets": '"no more bets" push button',
    "button_call_inspector": '"call inspector" push button',
    "buttons_pull_up": "true: buttons switch to ground; false: to 3.3 V",
    "lamp_green": "tower lamp green: betting open",
    "lamp_red": "tower lamp red: no more bets, dealing, paying",
    "lamp_amber": "tower lamp amber: flashes while the inspector is called",
    "lamps_active_high": "false for relay boards that switch on a low input",
    "display_segments": "7-segment display: segments a b c d e f g",
    "display_dp": 'decimal point segment; "none" if not wired',
    "segments_active_high": "true: common cathode; false: common anode",
    "display_digits": "one driver transistor per digit, left to right",
    "digits_active_high": "true for NPN digit drivers; false for PNP",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class PinMap:
    """The panel's wiring; checked on construction (`PinMapError` names the key and why)."""

    factory: str = "auto"
    button_no_more_bets: int = 17
    button_call_inspector: int = 27
    buttons_pull_up: bool = True
    lamp_green: int = 22
    lamp_red: int = 23
    lamp_amber: int = 24
    lamps_active_high: bool = True
    display_segments: tuple[int, ...] = (5, 6, 12, 13, 16, 19, 20)
    display_dp: int | None = 21
    segments_active_high: bool = True
    display_digits: tuple[int, ...] = (4, 18, 25, 26)
    digits_active_high: bool = True

    def __post_init__(self) -> None:
        if self.factory not in FACTORY_KINDS:
            raise PinMapError("factory", f"must be one of {', '.join(FACTORY_KINDS)}, "
                                         f"not {self.factory!r}")
        for key in ("buttons_pull_up", "lamps_active_high", "segments_active_high",
                    "digits_active_high"):
            value = getattr(self, key)
            if not isinstance(value, bool):
                raise PinMapError(key, f"must be true or false, not {value!r}")
        self._check_lists()
        used: dict[int, str] = {}
        for pin, where, key in self._pins():
            _check_pin(key, where, pin)
            if pin in used:
                raise PinMapError(key, f"GPIO {pin}{_of(where)} is already used by {used[pin]}")
            used[pin] = key + _of(where)
        if not self.buttons_pull_up:
            for key in ("button_no_more_bets", "button_call_inspector"):
                if getattr(self, key) in _FIXED_PULL_UP:
                    raise PinMapError(key, f"GPIO {getattr(self, key)} has a fixed pull-up "
                                           "resistor on the Pi; use another pin or set "
                                           "buttons_pull_up = true")

    def _check_lists(self) -> None:
        for key, count in (("display_segments", len(SEGMENT_NAMES)), ("display_digits", DIGITS)):
            value = getattr(self, key)
            if not isinstance(value, tuple) or len(value) != count:
                raise PinMapError(key, f"must be a list of {count} GPIO numbers, not {value!r}")

    def _pins(self) -> list[tuple[Any, str, str]]:
        """Every pin with where it is (a segment or digit) and its key, in declaration order."""
        found: list[tuple[Any, str, str]] = [
            (getattr(self, key), "", key)
            for key in ("button_no_more_bets", "button_call_inspector",
                        "lamp_green", "lamp_red", "lamp_amber")]
        found += [(pin, f"segment {name}", "display_segments")
                  for name, pin in zip(SEGMENT_NAMES, self.display_segments, strict=True)]
        if self.display_dp is not None:
            found.append((self.display_dp, "", "display_dp"))
        found += [(pin, f"digit {i}", "display_digits")
                  for i, pin in enumerate(self.display_digits, start=1)]
        return found

    @property
    def has_dp(self) -> bool:
        """Whether the display's decimal point is wired."""
        return self.display_dp is not None

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> PinMap:
        """The pin map from a parsed `[gpio]` table; missing keys take the defaults.

        Lists may be TOML arrays; `display_dp = "none"` means no decimal point. Unknown keys are
        refused (a misspelt key would otherwise leave a pin silently at its default).
        """
        if not isinstance(data, Mapping):
            raise PinMapError("", f"must be a table like [gpio], not {data!r}")
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                hint = difflib.get_close_matches(str(key), known, n=1)
                reason = f"did you mean {hint[0]}?" if hint else f"known keys: {', '.join(known)}"
                raise PinMapError(str(key), f"unknown key ({reason})")
        values: dict[str, Any] = dict(data)
        for key in ("display_segments", "display_digits"):
            if isinstance(values.get(key), list):
                values[key] = tuple(values[key])
        if isinstance(values.get("display_dp"), str) and values["display_dp"].lower() == "none":
            values["display_dp"] = None
        return cls(**values)

    @classmethod
    def as_toml_example(cls) -> str:
        """A commented `[gpio]` section with the defaults, for the example config file."""
        default = cls()
        lines = ["[gpio]  # the table's panel: buttons, tower lamp, display; BCM GPIO numbers "
                 f"0 to {MAX_GPIO}"]
        for f in fields(cls):
            value = getattr(default, f.name)
            setting = f"{f.name} = {_toml(value)}"
            lines.append(f"{setting:<30} # {_COMMENTS[f.name]}")
        return "\n".join(lines) + "\n"


def _check_pin(key: str, where: str, pin: object) -> None:
    if isinstance(pin, bool) or not isinstance(pin, int):
        raise PinMapError(key, f"{where + ' ' if where else ''}must be a GPIO number "
                               f"0-{MAX_GPIO}, not {pin!r}")
    if not 0 <= pin <= MAX_GPIO:
        raise PinMapError(key, f"{where + ' ' if where else ''}GPIO {pin} does not exist "
                               f"(the header has GPIO 0-{MAX_GPIO})")


def _of(where: str) -> str:
    return f" ({where})" if where else ""


def _toml(value: object) -> str:
    if value is None:
        return '"none"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)
