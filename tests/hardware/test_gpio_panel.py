"""The table's panel on gpiozero's mock pins: buttons, tower lamp, 7-segment display, close.

Buttons are wired to ground (pull-up, the default): pressing drives the pin low. Mock pins fire
gpiozero's callbacks synchronously and ignore `bounce_time`, so the panel's own debounce is what
these tests exercise, with a fake clock. The display is checked at the pins: every segment
change is recorded in order, and the multiplexing is replayed to see what each digit lit.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import gpiozero  # type: ignore[import-untyped]
import gpiozero.boards  # type: ignore[import-untyped]
import pytest
from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]
from gpiozero.threads import GPIOThread  # type: ignore[import-untyped]

from hardware.gpio import (
    LampState,
    LightState,
    PanelError,
    PinMap,
    TablePanel,
)

PINS = PinMap()
assert PINS.display_dp is not None
DP: int = PINS.display_dp
SEGMENT_PINS = [*PINS.display_segments, DP]  # a b c d e f g dp
DIGIT_PINS = list(PINS.display_digits)


class FakeClock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class RecordingPin(MockPin):  # type: ignore[misc]
    """A mock pin that appends every change to one log shared by all pins, in order."""

    log: ClassVar[list[tuple[int, bool]]] = []

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            RecordingPin.log.append((int(self.info.name[4:]), bool(value)))
        return changed


class Harness:
    """A panel on mock pins, with its actions queued the way Kivy's Clock would run them."""

    def __init__(self, factory: Any, pins: PinMap = PINS, **kwargs: Any) -> None:
        self.factory = factory
        self.pins = pins
        self.clock = FakeClock()
        self.queue: list[Callable[[], None]] = []
        self.calls: list[str] = []
        self.panel = TablePanel(
            pins, factory=factory, dispatch=self.queue.append, clock=self.clock,
            on_no_more_bets=lambda: self.calls.append("no more bets"),
            on_call_inspector=lambda: self.calls.append("call inspector"), **kwargs)

    def run_ui(self) -> list[str]:
        """Run what was dispatched (the UI thread's turn) and return every call so far."""
        while self.queue:
            self.queue.pop(0)()
        return self.calls

    def pin(self, gpio: int) -> Any:
        return self.factory.pin(gpio)

    def press(self, gpio: int) -> None:
        pin = self.pin(gpio)
        if self.pins.buttons_pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    def release(self, gpio: int) -> None:
        pin = self.pin(gpio)
        if self.pins.buttons_pull_up:
            pin.drive_high()
        else:
            pin.drive_low()

    def tap(self, gpio: int, hold: float = 0.15, then_wait: float = 0.2) -> None:
        self.press(gpio)
        self.clock.advance(hold)
        self.release(gpio)
        self.clock.advance(then_wait)

    def level(self, gpio: int) -> bool:
        return bool(self.pin(gpio).state)


@pytest.fixture
def factory() -> Iterator[Any]:
    f = MockFactory(pin_class=RecordingPin)
    RecordingPin.log = []
    yield f
    f.close()


@pytest.fixture
def harness(factory: Any) -> Iterator[Harness]:
    h = Harness(factory)
    yield h
    h.panel.close()


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll for something a background thread does; a generous limit, not a timing test."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out waiting for the panel's thread"
        time.sleep(0.005)


# -- buttons ------------------------------------------------------------------------------------

NMB = PINS.button_no_more_bets
CALL = PINS.button_call_inspector


def test_a_press_acts_once_through_dispatch(harness: Harness) -> None:
    harness.press(NMB)
    # The action waits for the UI thread: the GPIO callback only hands it over.
    assert harness.calls == []
    assert len(harness.queue) == 1
    assert harness.run_ui() == ["no more bets"]
    harness.clock.advance(0.1)
    harness.release(NMB)
    assert harness.run_ui() == ["no more bets"]


def test_call_inspector_button_acts_once(harness: Harness) -> None:
    harness.tap(CALL)
    assert harness.run_ui() == ["call inspector"]


def test_bounce_within_the_window_acts_once(harness: Harness) -> None:
    harness.press(NMB)
    for _ in range(5):  # 1 ms chatter on the press...
        harness.clock.advance(0.001)
        harness.release(NMB)
        harness.clock.advance(0.001)
        harness.press(NMB)
    harness.clock.advance(0.3)
    for _ in range(3):  # ...and on the release
        harness.release(NMB)
        harness.clock.advance(0.002)
        harness.press(NMB)
        harness.clock.advance(0.002)
    harness.release(NMB)
    assert harness.run_ui() == ["no more bets"]


def test_a_held_button_acts_once(harness: Harness) -> None:
    harness.press(CALL)
    harness.clock.advance(10.0)
    # Long enough for gpiozero's hold machinery to have fired, had we asked it to.
    time.sleep(0.05)
    assert harness.panel.state().call_inspector_pressed is True
    assert harness.run_ui() == ["call inspector"]


def test_press_release_press_after_the_window_acts_twice(harness: Harness) -> None:
    harness.tap(NMB, hold=0.1, then_wait=0.06)
    harness.tap(NMB)
    assert harness.run_ui() == ["no more bets", "no more bets"]


def test_the_two_buttons_are_debounced_apart(harness: Harness) -> None:
    harness.press(NMB)
    harness.clock.advance(0.001)
    harness.press(CALL)  # another button 1 ms later is not bounce
    assert harness.run_ui() == ["no more bets", "call inspector"]


@pytest.mark.parametrize("pull_up", [True, False])
def test_button_polarity_follows_the_pin_map(factory: Any, pull_up: bool) -> None:
    h = Harness(factory, PinMap(buttons_pull_up=pull_up))
    try:
        assert h.level(NMB) is pull_up  # released: pulled to the idle level
        h.press(NMB)
        assert h.panel.state().no_more_bets_pressed is True
        assert h.run_ui() == ["no more bets"]
    finally:
        h.panel.close()


def test_edges_from_the_driver_thread_run_their_action_on_the_ui_thread(factory: Any) -> None:
    queue: list[Callable[[], None]] = []
    handed_from: list[threading.Thread] = []
    ran_on: list[threading.Thread] = []

    def dispatch(action: Callable[[], None]) -> None:  # as Clock.schedule_once would
        handed_from.append(threading.current_thread())
        queue.append(action)

    panel = TablePanel(PINS, factory=factory, dispatch=dispatch,
                       on_no_more_bets=lambda: ran_on.append(threading.current_thread()),
                       on_call_inspector=lambda: None, clock=FakeClock())
    try:
        edge = threading.Thread(target=factory.pin(NMB).drive_low)  # as lgpio's own thread
        edge.start()
        edge.join()
        assert handed_from == [edge]
        assert ran_on == []  # nothing ran on the driver's thread
        for action in queue:  # the UI thread's turn
            action()
        assert ran_on == [threading.current_thread()]
    finally:
        panel.close()


def test_a_failing_action_is_logged_and_the_button_keeps_working(
        factory: Any, caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    calls: list[str] = []

    def boom() -> None:
        calls.append("boom")
        raise RuntimeError("session refused")

    panel = TablePanel(PINS, factory=factory, on_no_more_bets=boom,
                       on_call_inspector=lambda: None, dispatch=lambda action: action(),
                       clock=clock)
    try:
        with caplog.at_level(logging.ERROR):
            factory.pin(NMB).drive_low()
        assert "action failed" in caplog.text
        clock.advance(0.1)
        factory.pin(NMB).drive_high()
        clock.advance(0.1)
        factory.pin(NMB).drive_low()
        assert calls == ["boom", "boom"]
    finally:
        panel.close()


# -- tower lamp ---------------------------------------------------------------------------------

GREEN, RED, AMBER = PINS.lamp_green, PINS.lamp_red, PINS.lamp_amber


@pytest.mark.parametrize(("lamp", "green", "red"), [
    (LampState.OFF, False, False),
    (LampState.BETTING_OPEN, True, False),
    (LampState.NO_MORE_BETS, False, True),
])
@pytest.mark.parametrize("inspector", [False, True])
def test_lamp_pins_for_each_state(harness: Harness, lamp: LampState, green: bool, red: bool,
                                  inspector: bool) -> None:
    harness.panel.show(lamp, inspector)
    assert (harness.level(GREEN), harness.level(RED)) == (green, red)
    state = harness.panel.state()
    assert state.lamp is lamp
    assert (state.green, state.red) == (LightState.ON if green else LightState.OFF,
                                        LightState.ON if red else LightState.OFF)
    assert state.amber is (LightState.FLASHING if inspector else LightState.OFF)
    if not inspector:
        assert harness.level(AMBER) is False


def test_lamps_active_low_invert_the_pins(factory: Any) -> None:
    h = Harness(factory, PinMap(lamps_active_high=False))
    try:
        assert (h.level(GREEN), h.level(RED), h.level(AMBER)) == (True, True, True)  # all off
        h.panel.show(LampState.NO_MORE_BETS, False)
        assert (h.level(GREEN), h.level(RED), h.level(AMBER)) == (True, False, True)
        assert h.panel.state().red is LightState.ON
    finally:
        h.panel.close()


def test_green_and_red_are_never_lit_together(harness: Harness) -> None:
    for lamp in [LampState.BETTING_OPEN, LampState.NO_MORE_BETS, LampState.BETTING_OPEN,
                 LampState.OFF, LampState.NO_MORE_BETS]:
        harness.panel.show(lamp, False)
    lit: dict[int, bool] = {GREEN: False, RED: False}
    for gpio, value in RecordingPin.log:
        if gpio in lit:
            lit[gpio] = value
            assert not (lit[GREEN] and lit[RED])
    assert [e for e in RecordingPin.log if e[0] in lit] == [
        (GREEN, True), (GREEN, False), (RED, True), (RED, False), (GREEN, True),
        (GREEN, False), (RED, True)]


def test_amber_flashes_over_the_current_colour(factory: Any) -> None:
    h = Harness(factory, blink_s=0.01)
    try:
        h.panel.show(LampState.NO_MORE_BETS, True)
        amber = h.pin(AMBER)
        wait_until(lambda: len(amber.states) >= 7)
        states = [s.state for s in amber.states[:7]]
        assert states == [False, True, False, True, False, True, False]
        assert h.level(RED) is True  # steady underneath
        assert [s.state for s in h.pin(RED).states] == [False, True]
        h.panel.show(LampState.NO_MORE_BETS, False)
        assert h.level(AMBER) is False
        settled = len(amber.states)
        time.sleep(0.05)  # five blink periods: a blink thread left running would show here
        assert len(amber.states) == settled
        assert h.panel.state().amber is LightState.OFF
    finally:
        h.panel.close()


def test_repeating_a_state_does_not_restart_the_blink(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[float] = []
    real_blink = gpiozero.LED.blink

    def counting_blink(self: Any, *args: Any, **kwargs: Any) -> None:
        started.append(time.monotonic())
        real_blink(self, *args, **kwargs)

    monkeypatch.setattr(gpiozero.LED, "blink", counting_blink)
    for _ in range(5):
        harness.panel.show(LampState.BETTING_OPEN, True)
    harness.panel.show(LampState.NO_MORE_BETS, True)  # the colour changes, the call stands
    assert len(started) == 1
    red_history = len(harness.pin(RED).states)
    harness.panel.show(LampState.NO_MORE_BETS, True)
    assert len(harness.pin(RED).states) == red_history  # no off/on blip either
    harness.panel.show(LampState.NO_MORE_BETS, False)
    harness.panel.show(LampState.NO_MORE_BETS, True)
    assert len(started) == 2


def test_inspector_call_shows_even_with_the_table_closed(harness: Harness) -> None:
    harness.panel.show(LampState.OFF, True)
    assert (harness.level(GREEN), harness.level(RED)) == (False, False)
    assert harness.panel.state().amber is LightState.FLASHING


# -- 7-segment display --------------------------------------------------------------------------

SHAPES = {"0": "abcdef", "1": "bc", "2": "abdeg", "5": "acdfg", "8": "abcdefg", "-": "g",
          "O": "cdeg", "P": "abefg", "E": "adefg", "N": "abcef"}


def lit(char: str, point: bool = False) -> tuple[bool, ...]:
    """The levels of segments a-g and dp for `char` (active high)."""
    return (*(s in SHAPES[char] for s in "abcdefg"), point)


def replay(initial: dict[int, bool], log: list[tuple[int, bool]]) -> list[set[tuple[bool, ...]]]:
    """What each digit showed while it was switched on, from the ordered log of pin changes.

    Also checks that segments only change while every digit is off (no ghosting).
    """
    levels = dict(initial)
    shown: list[set[tuple[bool, ...]]] = [set() for _ in DIGIT_PINS]
    for gpio, value in log:
        if gpio in SEGMENT_PINS:
            assert not any(levels[d] for d in DIGIT_PINS), "segment changed on a lit digit"
        levels[gpio] = value
        if gpio in DIGIT_PINS and value:
            shown[DIGIT_PINS.index(gpio)].add(tuple(levels[s] for s in SEGMENT_PINS))
    return shown


def multiplexed(h: Harness, show: Callable[[], object],
                expected: list[set[tuple[bool, ...]]]) -> list[set[tuple[bool, ...]]]:
    initial = {g: h.level(g) for g in SEGMENT_PINS + DIGIT_PINS}
    start = len(RecordingPin.log)
    show()

    def every_digit_seen_twice() -> bool:
        log = RecordingPin.log[start:]
        ons = [sum(1 for g, v in log if g == d and v) for d in DIGIT_PINS]
        return all(n >= 2 for n, want in zip(ons, expected, strict=True) if want)

    wait_until(every_digit_seen_twice)
    h.panel.close()  # stops the multiplexing thread, so the log is complete
    return replay(initial, RecordingPin.log[start:])


def test_minimum_50_lights_5_and_0_on_the_right_hand_digits(harness: Harness) -> None:
    expected = [set(), set(), {lit("5")}, {lit("0")}]
    assert multiplexed(harness, lambda: harness.panel.show_minimum(5000), expected) == expected


def test_minimum_12_50_lights_the_point_after_the_2(harness: Harness) -> None:
    assert harness.panel.show_minimum(1250) is True
    assert harness.panel.state().display == "12.50"
    expected = [{lit("1")}, {lit("2", point=True)}, {lit("5")}, {lit("0")}]
    assert multiplexed(harness, lambda: None, expected) == expected


def test_text_is_shown_in_the_fonts_capitals(harness: Harness) -> None:
    expected = [{lit("O")}, {lit("P")}, {lit("E")}, {lit("N")}]
    assert multiplexed(harness, lambda: harness.panel.show_text("open"), expected) == expected


def test_identical_digits_are_lit_together_without_a_thread(harness: Harness) -> None:
    assert harness.panel.show_text("8888") is True
    assert [harness.level(d) for d in DIGIT_PINS] == [True] * 4
    assert tuple(harness.level(s) for s in SEGMENT_PINS) == lit("8")
    assert harness.panel.state().display == "8888"


def test_a_minimum_that_does_not_fit_shows_dashes(harness: Harness) -> None:
    assert harness.panel.show_minimum(1_000_000) is False  # 10 000 needs five digits
    assert harness.panel.state().display == "----"
    assert [harness.level(d) for d in DIGIT_PINS] == [True] * 4
    assert tuple(harness.level(s) for s in SEGMENT_PINS) == lit("-")


def test_cents_without_a_wired_point_show_dashes(factory: Any) -> None:
    h = Harness(factory, PinMap(display_dp=None))
    try:
        assert h.panel.show_minimum(1250) is False
        assert h.panel.state().display == "----"
        assert h.panel.show_minimum(5000) is True
        assert h.panel.state().display == "  50"
        assert h.level(DP) is False  # GPIO 21 is not ours any more: never driven
    finally:
        h.panel.close()


@pytest.mark.parametrize("text", ["HI!", "12345", "OK"])
def test_text_the_display_cannot_show_falls_back_to_dashes(
        harness: Harness, text: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert harness.panel.show_text(text) is False
    assert harness.panel.state().display == "----"
    assert "cannot show" in caplog.text


def test_showing_the_same_text_does_not_restart_the_multiplexing(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[object] = []

    class CountingThread(GPIOThread):  # type: ignore[misc]
        def start(self) -> None:
            started.append(self)
            super().start()

    monkeypatch.setattr(gpiozero.boards, "GPIOThread", CountingThread)
    harness.panel.show_minimum(5000)
    harness.panel.show_text("50")
    harness.panel.show_minimum(5000)
    assert len(started) == 1
    harness.panel.show_minimum(6000)
    assert len(started) == 2
    assert harness.panel.state().display == "  60"


# -- state, close, errors -----------------------------------------------------------------------

def test_state_is_a_snapshot_for_the_self_test(harness: Harness) -> None:
    harness.panel.show(LampState.BETTING_OPEN, False)
    harness.panel.show_minimum(2500)
    harness.press(CALL)
    state = harness.panel.state()
    assert (state.lamp, state.green, state.red, state.amber) == (
        LampState.BETTING_OPEN, LightState.ON, LightState.OFF, LightState.OFF)
    assert state.display == "  25"
    assert (state.no_more_bets_pressed, state.call_inspector_pressed) == (False, True)
    assert state.factory == "MockFactory"
    assert state.closed is False


def gpio_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if isinstance(t, GPIOThread) and t.is_alive()}


def test_close_stops_every_thread_and_releases_the_pins(factory: Any) -> None:
    before = gpio_threads()
    h = Harness(factory, blink_s=0.01)
    h.panel.show(LampState.NO_MORE_BETS, True)  # amber blink thread
    h.panel.show_minimum(5000)  # multiplexing thread
    assert len(gpio_threads() - before) >= 4  # those two and the buttons' hold threads
    h.panel.close()
    assert gpio_threads() <= before
    assert h.panel.closed is True
    log_length = len(RecordingPin.log)
    time.sleep(0.05)
    assert len(RecordingPin.log) == log_length  # nothing drives the pins any more
    # Every pin is free again: a new panel opens on the same pins and works.
    again = Harness(factory)
    try:
        again.press(NMB)
        assert again.run_ui() == ["no more bets"]
        again.panel.show(LampState.BETTING_OPEN, False)
        assert again.level(GREEN) is True
    finally:
        again.panel.close()


def test_close_is_idempotent_and_later_calls_do_nothing(harness: Harness) -> None:
    harness.panel.close()
    harness.panel.close()
    harness.panel.show(LampState.BETTING_OPEN, True)
    assert harness.panel.show_minimum(5000) is False  # nothing is driven
    assert harness.level(GREEN) is False
    assert harness.panel.state().closed is True
    assert harness.panel.state().display == ""


def test_a_pin_in_use_is_a_panel_error_and_frees_what_was_opened(factory: Any) -> None:
    blocker = gpiozero.LED(PINS.display_digits[2], pin_factory=factory)
    with pytest.raises(PanelError) as caught:
        Harness(factory)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert "display digits" in message
    assert "GPIO 4, 18, 25, 26" in message
    assert "already in use" in message
    blocker.close()
    h = Harness(factory)  # lamps and segments opened by the failed attempt were released
    h.panel.close()


def test_context_manager_closes(factory: Any) -> None:
    with TablePanel(PINS, factory=factory, on_no_more_bets=lambda: None,
                    on_call_inspector=lambda: None, dispatch=lambda a: a()) as panel:
        panel.show(LampState.BETTING_OPEN, False)
        assert factory.pin(GREEN).state is True
    assert panel.closed is True
    assert factory.pin(GREEN).state is False


def test_close_darkens_the_lamps_and_the_display(harness: Harness) -> None:
    harness.panel.show(LampState.NO_MORE_BETS, True)
    harness.panel.show_text("8888")
    harness.panel.close()
    assert [harness.level(g) for g in (GREEN, RED, AMBER)] == [False, False, False]
    assert [harness.level(g) for g in SEGMENT_PINS + DIGIT_PINS] == [False] * 12
