"""Choosing the pin factory, and opening the panel on it: a missing or broken GPIO is one clear
PanelError, never a crash (docs/architecture.md: gpiozero with an injected pin factory)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

import hardware.gpio.factory as factory_module
from hardware.gpio import LampState, PanelError, PinMap, TablePanel, make_pin_factory


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


def pi_files(tmp_path: Path, model: bytes | None, chip: bool = True) -> dict[str, Path]:
    gpiochip = tmp_path / "gpiochip0"
    if chip:
        gpiochip.touch()
    model_file = tmp_path / "model"
    if model is not None:
        model_file.write_bytes(model)
    return {"gpiochip": gpiochip, "model_file": model_file}


def test_mock_gives_gpiozeros_mock_factory(no_env: None) -> None:
    factory, description = make_pin_factory("mock")
    assert isinstance(factory, MockFactory)
    assert description == 'mock pins, no physical panel (factory = "mock")'


def test_auto_without_a_gpio_chip_is_mock_and_says_why(no_env: None, tmp_path: Path) -> None:
    files = pi_files(tmp_path, b"Raspberry Pi 4 Model B Rev 1.5\0", chip=False)
    factory, description = make_pin_factory("auto", **files)
    assert isinstance(factory, MockFactory)
    assert description == f"mock pins, no physical panel ({files['gpiochip']} not found)"


def test_auto_on_another_board_is_mock_and_says_why(no_env: None, tmp_path: Path) -> None:
    factory, description = make_pin_factory("auto", **pi_files(tmp_path, b"Rock Pi 4B\0"))
    assert isinstance(factory, MockFactory)
    assert "not a Raspberry Pi" in description
    assert "'Rock Pi 4B'" in description


def test_auto_on_a_raspberry_pi_takes_the_real_factory(
        no_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeLGPIOFactory:
        def close(self) -> None:
            pass

    real = FakeLGPIOFactory()
    monkeypatch.setattr(factory_module, "_load_real", lambda: real)
    files = pi_files(tmp_path, b"Raspberry Pi 5 Model B Rev 1.0\0")
    factory, description = make_pin_factory("auto", **files)
    assert factory is real
    assert description == "FakeLGPIOFactory on Raspberry Pi 5 Model B Rev 1.0"


def test_real_without_any_driver_is_a_panel_error_a_technician_can_act_on(
        no_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory_module, "REAL_FACTORIES", ("no-such-driver",))
    with pytest.raises(PanelError) as caught:
        make_pin_factory("real")
    message = str(caught.value)
    assert message.startswith("no GPIO driver could be started (no-such-driver: ")
    assert "install python3-lgpio" in message
    assert 'set factory = "mock" in [gpio]' in message


def test_the_environment_variable_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory, description = make_pin_factory("real")
    assert isinstance(factory, MockFactory)
    assert description == "MockFactory from GPIOZERO_PIN_FACTORY=mock (overrides factory = 'real')"


def test_an_unknown_driver_in_the_environment_is_a_panel_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "warp-drive")
    with pytest.raises(PanelError, match="unknown GPIO driver 'warp-drive' in "
                                         "GPIOZERO_PIN_FACTORY .known: .*mock"):
        make_pin_factory("auto")


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(PanelError, match="unknown GPIO factory 'gpio'") as caught:
        make_pin_factory("gpio")
    assert isinstance(caught.value, ValueError)


def test_open_owns_its_factory_and_reports_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    calls: list[str] = []
    panel = TablePanel.open(PinMap(), on_no_more_bets=lambda: calls.append("nmb"),
                            on_call_inspector=lambda: None, dispatch=lambda a: a())
    factory: Any = panel.factory
    try:
        assert isinstance(factory, MockFactory)
        assert panel.state().factory.startswith("MockFactory from GPIOZERO_PIN_FACTORY=mock")
        panel.show(LampState.BETTING_OPEN, False)
        assert factory.pin(PinMap().lamp_green).state is True
        factory.pin(PinMap().button_no_more_bets).drive_low()
        assert calls == ["nmb"]
    finally:
        panel.close()
    assert factory.pins == {}  # the panel closed the factory it opened


def test_open_failing_is_one_panel_error(no_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory_module, "REAL_FACTORIES", ("no-such-driver",))
    with pytest.raises(PanelError, match="no GPIO driver could be started"):
        TablePanel.open(PinMap(factory="real"), on_no_more_bets=lambda: None,
                        on_call_inspector=lambda: None, dispatch=lambda a: a())


def test_importing_the_panel_pulls_in_no_kivy() -> None:
    # Architecture: drivers hand actions to the UI through `dispatch`; they never import it.
    code = "import sys, hardware.gpio; print('kivy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2])
    assert out.stdout.strip() == "False"
