"""The panel's pin map, read from the `[gpio]` section of the table's config: every refusal
names the key and the reason (the config reader adds the file's line)."""

from __future__ import annotations

import dataclasses
import tomllib
from typing import Any

import pytest

from hardware.gpio import PinMap, PinMapError

# Pins with a second job on a Pi: HAT ID EEPROM, I2C, SPI0, UART.
RESERVED = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15}


def all_pins(p: PinMap) -> list[int]:
    pins = [p.button_no_more_bets, p.button_call_inspector, p.lamp_green, p.lamp_red,
            p.lamp_amber, *p.display_segments, *p.display_digits]
    return pins + ([p.display_dp] if p.display_dp is not None else [])


def test_defaults_use_17_distinct_pins_with_no_second_job() -> None:
    pins = all_pins(PinMap())
    assert len(pins) == 17
    assert len(set(pins)) == 17
    assert not set(pins) & RESERVED
    assert all(0 <= p <= 27 for p in pins)


def test_an_empty_section_is_the_defaults() -> None:
    assert PinMap.from_mapping({}) == PinMap()


def test_toml_example_reads_back_as_the_defaults() -> None:
    example = PinMap.as_toml_example()
    assert example.startswith("[gpio]")
    assert all(len(line) <= 100 for line in example.splitlines())
    # Every setting is explained.
    assert all("#" in line for line in example.splitlines())
    assert PinMap.from_mapping(tomllib.loads(example)["gpio"]) == PinMap()


def test_from_mapping_reads_toml_values() -> None:
    data = tomllib.loads("""
        [gpio]
        factory = "mock"
        button_no_more_bets = 5
        button_call_inspector = 6
        lamp_green = 12
        lamp_red = 13
        lamp_amber = 16
        lamps_active_high = false
        display_segments = [17, 27, 22, 23, 24, 25, 4]
        display_dp = "none"
        display_digits = [18, 19, 20, 21]
        digits_active_high = false
        segments_active_high = false
        buttons_pull_up = false
    """)["gpio"]
    p = PinMap.from_mapping(data)
    assert p == PinMap(factory="mock", button_no_more_bets=5, button_call_inspector=6,
                       lamp_green=12, lamp_red=13, lamp_amber=16, lamps_active_high=False,
                       display_segments=(17, 27, 22, 23, 24, 25, 4), display_dp=None,
                       display_digits=(18, 19, 20, 21), digits_active_high=False,
                       segments_active_high=False, buttons_pull_up=False)
    assert p.has_dp is False


@pytest.mark.parametrize(("data", "key", "reason"), [
    ({"lamp_green": 28}, "lamp_green", "GPIO 28 does not exist (the header has GPIO 0-27)"),
    ({"lamp_green": -1}, "lamp_green", "GPIO -1 does not exist"),
    ({"lamp_green": "22"}, "lamp_green", "must be a GPIO number 0-27, not '22'"),
    ({"lamp_green": True}, "lamp_green", "must be a GPIO number 0-27, not True"),
    ({"lamp_green": 22.0}, "lamp_green", "must be a GPIO number 0-27, not 22.0"),
    ({"lamp_red": 22}, "lamp_red", "GPIO 22 is already used by lamp_green"),
    ({"display_digits": [4, 18, 25, 17]}, "display_digits",
     "GPIO 17 (digit 4) is already used by button_no_more_bets"),
    ({"display_dp": 5}, "display_dp", "GPIO 5 is already used by display_segments (segment a)"),
    ({"display_dp": "yes"}, "display_dp", "must be a GPIO number 0-27, not 'yes'"),
    ({"display_segments": [5, 6, 12]}, "display_segments", "must be a list of 7 GPIO numbers"),
    ({"display_segments": 5}, "display_segments", "must be a list of 7 GPIO numbers"),
    ({"display_segments": [5, 6, 12, 13, 16, 19, 40]}, "display_segments",
     "segment g GPIO 40 does not exist"),
    ({"display_digits": [4, 18, 25]}, "display_digits", "must be a list of 4 GPIO numbers"),
    ({"buttons_pull_up": "yes"}, "buttons_pull_up", "must be true or false, not 'yes'"),
    ({"lamps_active_high": 1}, "lamps_active_high", "must be true or false, not 1"),
    ({"factory": "pigpio"}, "factory", "must be one of auto, mock, real, not 'pigpio'"),
    ({"lamp_gren": 22}, "lamp_gren", "unknown key (did you mean lamp_green?)"),
    ({"colour": "red"}, "colour", "unknown key (known keys: factory, button_no_more_bets"),
    ({"buttons_pull_up": False, "button_no_more_bets": 2}, "button_no_more_bets",
     "GPIO 2 has a fixed pull-up resistor on the Pi"),
])
def test_refusals_name_the_key_and_the_reason(data: dict[str, Any], key: str,
                                               reason: str) -> None:
    with pytest.raises(PinMapError) as caught:
        PinMap.from_mapping(data)
    err = caught.value
    assert isinstance(err, ValueError)
    assert err.key == key
    assert reason in err.reason
    assert str(err).startswith(f"gpio.{key}: ")


def test_a_button_on_gpio_2_is_fine_with_the_pull_up() -> None:
    assert PinMap(button_no_more_bets=2).button_no_more_bets == 2


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(PinMapError, match=r"gpio\.lamp_amber: GPIO 99 does not exist"):
        PinMap(lamp_amber=99)


def test_pin_map_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        PinMap().lamp_green = 5  # type: ignore[misc]
