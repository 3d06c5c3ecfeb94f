"""The table's physical panel: two push buttons, a tower lamp and the minimum-bet display.

- "No more bets" and "call inspector" buttons. A press acts exactly like the on-screen button;
  bounce or a held button never acts twice (`Debouncer`). Edges arrive on gpiozero's thread;
  each action is handed to `dispatch`, which runs it on the UI thread (docs/architecture.md
  "Architecture": hardware callbacks reach Kivy only through `Clock.schedule_once`).
- Tower lamp: green while betting is open, red from "no more bets" through dealing and paying,
  both off while the table is closed; amber flashes on top of either while the inspector is
  called. The panel shows what it is told (`show`); it decides nothing.
- A 4-digit 7-segment display (gpiozero `LEDMultiCharDisplay`, multiplexed by a background
  thread) shows the table minimum (`show_minimum`, rule in `display.format_minimum`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from gpiozero import (  # type: ignore[import-untyped]
    LED,
    Button,
    LEDCharDisplay,
    LEDMultiCharDisplay,
)
from gpiozero.exc import GPIOPinInUse, PinFixedPull  # type: ignore[import-untyped]

from hardware.gpio.debounce import Debouncer
from hardware.gpio.display import BLANK, DOES_NOT_FIT, FONT, format_minimum, layout_text
from hardware.gpio.errors import PanelError
from hardware.gpio.factory import PinFactory, make_pin_factory
from hardware.gpio.pinmap import PinMap

logger = logging.getLogger(__name__)

Action = Callable[[], None]
Dispatch = Callable[[Action], None]


class LampState(StrEnum):
    """What the tower lamp's green and red say (amber is `inspector_called`)."""

    OFF = "off"  # table closed, no shoe
    BETTING_OPEN = "betting_open"  # green
    NO_MORE_BETS = "no_more_bets"  # red: no more bets, dealing, paying


class LightState(StrEnum):
    OFF = "off"
    ON = "on"
    FLASHING = "flashing"


@dataclass(frozen=True, slots=True, kw_only=True)
class PanelState:
    """A snapshot for the self-test screen; lights and buttons are read back from the pins.

    `display` is the digits as shown, a "." following the digit whose point is lit.
    """

    lamp: LampState
    inspector_called: bool
    green: LightState
    red: LightState
    amber: LightState
    display: str
    no_more_bets_pressed: bool
    call_inspector_pressed: bool
    factory: str
    closed: bool


class TablePanel:
    """The panel on one table. `close()` releases every pin and stops the display thread.

    Any failure to set up or drive the pins is raised as `PanelError`. After `close()`,
    `show*` calls do nothing (a late UI callback must not crash a shutting-down kiosk).
    """

    def __init__(self, pins: PinMap, *, factory: PinFactory, on_no_more_bets: Action,
                 on_call_inspector: Action, dispatch: Dispatch,
                 clock: Callable[[], float] = time.monotonic, debounce_s: float = 0.05,
                 blink_s: float = 0.5) -> None:
        if blink_s <= 0:
            raise ValueError(f"blink_s must be above 0 s, not {blink_s}")
        self.pins = pins
        self.factory = factory
        self.factory_description = type(factory).__name__
        self._owns_factory = False
        self._dispatch = dispatch
        self._blink_s = blink_s
        self._digits = len(pins.display_digits)
        # show() comes from the UI thread, close() possibly from another (shutdown).
        self._lock = threading.RLock()
        self._closed = False
        self._lamp = LampState.OFF
        self._inspector_called = False
        self._devices: list[Any] = []
        try:
            self._green = self._build("green lamp", f"GPIO {pins.lamp_green}", lambda: LED(
                pins.lamp_green, active_high=pins.lamps_active_high, initial_value=False,
                pin_factory=factory))
            self._red = self._build("red lamp", f"GPIO {pins.lamp_red}", lambda: LED(
                pins.lamp_red, active_high=pins.lamps_active_high, initial_value=False,
                pin_factory=factory))
            self._amber = self._build("amber lamp", f"GPIO {pins.lamp_amber}", lambda: LED(
                pins.lamp_amber, active_high=pins.lamps_active_high, initial_value=False,
                pin_factory=factory))
            segments = ", ".join(str(p) for p in pins.display_segments)
            dp = "" if pins.display_dp is None else f", point GPIO {pins.display_dp}"
            char = self._build("display segments", f"GPIO {segments}{dp}",
                               lambda: LEDCharDisplay(
                                   *pins.display_segments, dp=pins.display_dp, font=FONT,
                                   active_high=pins.segments_active_high, initial_value=BLANK,
                                   pin_factory=factory))
            # The digits device closes `char` too; closing it again after that does nothing,
            # and keeping it listed frees its pins if the digits fail to open.
            self._display = self._build(
                "display digits", "GPIO " + ", ".join(str(p) for p in pins.display_digits),
                lambda: LEDMultiCharDisplay(
                    char, *pins.display_digits, active_high=pins.digits_active_high,
                    initial_value=(BLANK,) * self._digits, pin_factory=factory))
            # Buttons last: no edge can act before the lamps and display exist.
            self._no_more_bets = self._button(
                '"no more bets" button', pins.button_no_more_bets, on_no_more_bets,
                clock, debounce_s)
            self._call_inspector = self._button(
                '"call inspector" button', pins.button_call_inspector, on_call_inspector,
                clock, debounce_s)
        except BaseException:
            self._close_devices()
            raise

    @classmethod
    def open(cls, pins: PinMap, *, on_no_more_bets: Action, on_call_inspector: Action,
             dispatch: Dispatch, kind: str | None = None,
             clock: Callable[[], float] = time.monotonic, debounce_s: float = 0.05,
             blink_s: float = 0.5) -> TablePanel:
        """Choose the pin factory (`kind`, default `pins.factory`) and open the panel on it.

        The panel owns that factory and closes it with itself. PanelError, with a message for
        the technician, if anything fails.
        """
        factory, description = make_pin_factory(pins.factory if kind is None else kind)
        try:
            panel = cls(pins, factory=factory, on_no_more_bets=on_no_more_bets,
                        on_call_inspector=on_call_inspector, dispatch=dispatch, clock=clock,
                        debounce_s=debounce_s, blink_s=blink_s)
        except BaseException:
            _close_quietly(factory)
            raise
        panel._owns_factory = True
        panel.factory_description = description
        logger.info("GPIO panel open: %s", description)
        return panel

    # -- outputs ------------------------------------------------------------------------------

    def show(self, lamp: LampState, inspector_called: bool) -> None:
        """Set the tower lamp. Repeating the current state changes nothing (no flicker)."""
        lamp = LampState(lamp)
        with self._lock:
            if self._closed:
                return
            try:
                # Off before on, so green and red are never lit together, even for a moment.
                if lamp is not LampState.BETTING_OPEN:
                    self._green.off()
                if lamp is not LampState.NO_MORE_BETS:
                    self._red.off()
                if lamp is LampState.BETTING_OPEN:
                    self._green.on()
                elif lamp is LampState.NO_MORE_BETS:
                    self._red.on()
                # Only a change touches amber: blink() restarts its thread and its phase.
                if inspector_called and not self._inspector_called:
                    self._amber.blink(on_time=self._blink_s, off_time=self._blink_s,
                                      background=True)
                elif not inspector_called and self._inspector_called:
                    self._amber.off()
            except Exception as exc:
                raise PanelError(f"GPIO panel: cannot set the tower lamp: {exc}") from exc
            self._lamp = lamp
            self._inspector_called = bool(inspector_called)

    def show_text(self, text: str) -> bool:
        """Show up to 4 characters (plus decimal points), right-aligned.

        False, and "----" on the display, when `text` cannot be shown (a character the font
        lacks, too long, a point with none wired); the reason is logged. False too once the
        panel is closed. Showing the same text again does not restart the multiplexing (no
        flicker).
        """
        try:
            cells = layout_text(text, self._digits, has_dp=self.pins.has_dp)
            shown = True
        except ValueError as exc:
            logger.warning("GPIO panel: %s", exc)
            cells = (DOES_NOT_FIT,) * self._digits
            shown = False
        return self._set_cells(cells) and shown

    def show_minimum(self, cents: int) -> bool:
        """Show the table minimum (`display.format_minimum`); False when it shows "----"
        or the panel is closed."""
        text = format_minimum(cents, self._digits, has_dp=self.pins.has_dp)
        return self.show_text(text) and text != DOES_NOT_FIT * self._digits

    def _set_cells(self, cells: tuple[str, ...]) -> bool:
        """False when closed; setting the same cells again is skipped (it would restart the
        multiplexing thread)."""
        with self._lock:
            if self._closed:
                return False
            if tuple(self._display.value) != cells:
                try:
                    self._display.value = cells
                except Exception as exc:
                    raise PanelError(f"GPIO panel: cannot drive the display: {exc}") from exc
            return True

    # -- read back ----------------------------------------------------------------------------

    def state(self) -> PanelState:
        """What the panel shows now, read from the pins (everything off once closed)."""
        with self._lock:
            if self._closed:
                return PanelState(lamp=LampState.OFF, inspector_called=False,
                                  green=LightState.OFF, red=LightState.OFF,
                                  amber=LightState.OFF, display="",
                                  no_more_bets_pressed=False, call_inspector_pressed=False,
                                  factory=self.factory_description, closed=True)
            return PanelState(
                lamp=self._lamp, inspector_called=self._inspector_called,
                green=LightState.ON if self._green.is_lit else LightState.OFF,
                red=LightState.ON if self._red.is_lit else LightState.OFF,
                # A flashing lamp is on or off depending on the instant: report the intent.
                amber=LightState.FLASHING if self._inspector_called else (
                    LightState.ON if self._amber.is_lit else LightState.OFF),
                display="".join(self._display.value),
                no_more_bets_pressed=bool(self._no_more_bets.is_pressed),
                call_inspector_pressed=bool(self._call_inspector.is_pressed),
                factory=self.factory_description, closed=False)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Darken the lamps and display, stop the threads (display, amber blink, button hold)
        and release the pins. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            # Releasing a pin leaves its last level on the wire: a lamp left lit after the
            # kiosk stops would tell players something nobody decided.
            try:
                for lamp in (self._amber, self._red, self._green):
                    lamp.off()
                self._display.value = (BLANK,) * self._digits  # digits off, thread stopped
                self._display.char.off()  # and no segment line left driven
            except Exception:
                logger.exception("GPIO panel: could not darken the panel while closing")
            self._close_devices()
            if self._owns_factory:
                _close_quietly(self.factory)

    def __enter__(self) -> TablePanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- construction -------------------------------------------------------------------------

    def _build(self, label: str, where: str, make: Callable[[], Any]) -> Any:
        try:
            device = make()
        except Exception as exc:
            raise PanelError(f"GPIO panel: cannot set up the {label} on {where}: "
                             f"{_explain(exc)}") from exc
        self._devices.append(device)
        return device

    def _button(self, label: str, pin: int, action: Action, clock: Callable[[], float],
                debounce_s: float) -> Any:
        # bounce_time=None: gpiozero's debounce differs per driver and mock pins ignore it;
        # ours (Debouncer) is the only one, the same on the Pi and in the tests.
        # hold_time: we never use when_held, but Button's hold thread sleeps hold_time while
        # the button is down and close() waits for it; the default 1 s would stall shutdown.
        button = self._build(label, f"GPIO {pin}", lambda: Button(
            pin, pull_up=self.pins.buttons_pull_up, bounce_time=None, hold_time=0.05,
            pin_factory=self.factory))
        debouncer = Debouncer(debounce_s, clock, pressed=bool(button.is_pressed))
        if button.is_pressed:
            logger.warning("GPIO panel: the %s is pressed at start (stuck?); it will act "
                           "only after it is released", label)

        def pressed() -> None:
            self._on_press(label, debouncer, action)

        button.when_pressed = pressed
        button.when_released = debouncer.release
        return button

    def _on_press(self, label: str, debouncer: Debouncer, action: Action) -> None:
        # Runs on gpiozero's thread: an exception here would only be printed by the driver,
        # so it is logged instead, and the button keeps working.
        try:
            if debouncer.press():
                logger.info("GPIO panel: %s pressed", label)
                self._dispatch(action)
        except Exception:
            logger.exception("GPIO panel: the %s action failed", label)

    def _close_devices(self) -> None:
        # Buttons first (reverse order of construction), so no edge acts during shutdown.
        while self._devices:
            _close_quietly(self._devices.pop())


def _explain(exc: BaseException) -> str:
    if isinstance(exc, GPIOPinInUse):
        hint = "the pin is already in use by another device or program"
    elif isinstance(exc, PinFixedPull):
        hint = "the pin has a fixed pull resistor; set buttons_pull_up = true or move the button"
    elif isinstance(exc, PermissionError):
        hint = "permission denied; is the kiosk user in the gpio group?"
    else:
        return f"{exc} ({type(exc).__name__})"
    return f"{hint} ({exc})"


def _close_quietly(thing: Any) -> None:
    try:
        thing.close()
    except Exception:
        logger.exception("GPIO panel: error while closing %r", thing)
