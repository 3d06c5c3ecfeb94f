"""The panel buttons' debounce: "a press acts exactly like the on-screen button; bounce or a held
button never acts twice". Time is a fake clock, so every edge lands at a known instant."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, strategies as st

from hardware.gpio.debounce import Debouncer

WINDOW = 0.05


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_a_press_acts_on_its_edge(clock: FakeClock) -> None:
    d = Debouncer(WINDOW, clock)
    assert d.press() is True


def test_a_held_button_never_repeats(clock: FakeClock) -> None:
    d = Debouncer(WINDOW, clock)
    assert d.press() is True
    clock.advance(30.0)  # held for half a minute: no edges at all
    # A second press edge with no release in between (a missed edge) does not act either.
    assert d.press() is False


def test_contact_bounce_on_press_acts_once(clock: FakeClock) -> None:
    d = Debouncer(WINDOW, clock)
    results = [d.press()]
    for _ in range(4):  # the contacts chatter every millisecond for 8 ms
        clock.advance(0.001)
        d.release()
        clock.advance(0.001)
        results.append(d.press())
    assert results == [True, False, False, False, False]


def test_contact_bounce_on_release_does_not_act(clock: FakeClock) -> None:
    d = Debouncer(WINDOW, clock)
    assert d.press() is True
    clock.advance(0.4)  # held, then released with chatter
    d.release()
    clock.advance(0.002)
    assert d.press() is False
    clock.advance(0.002)
    d.release()
    clock.advance(0.049)  # still inside the window after the last release edge
    assert d.press() is False


def test_press_release_press_after_the_window_acts_twice(clock: FakeClock) -> None:
    d = Debouncer(WINDOW, clock)
    assert d.press() is True
    clock.advance(0.2)
    d.release()
    clock.advance(0.06)  # quiet for longer than the window: the release was stable
    assert d.press() is True


def test_quiet_for_exactly_the_window_is_stable() -> None:
    clock = FakeClock(8.0)  # binary fractions only, so the sums are exact
    d = Debouncer(0.125, clock)
    assert d.press() is True
    clock.advance(0.5)
    d.release()
    clock.advance(0.125)
    assert d.press() is True


def test_a_release_must_be_stable_not_just_long_after_the_press(clock: FakeClock) -> None:
    d = Debouncer(WINDOW, clock)
    assert d.press() is True
    clock.advance(5.0)  # a long hold...
    d.release()
    clock.advance(0.01)  # ...but the release bounced straight back
    assert d.press() is False
    clock.advance(1.0)
    d.release()
    clock.advance(0.1)
    assert d.press() is True


def test_a_button_down_at_start_acts_only_after_a_stable_release(clock: FakeClock) -> None:
    d = Debouncer(WINDOW, clock, pressed=True)
    assert d.press() is False
    d.release()
    clock.advance(0.1)
    assert d.press() is True


def test_zero_window_acts_on_every_press_after_a_release(clock: FakeClock) -> None:
    d = Debouncer(0.0, clock)
    assert d.press() is True
    d.release()
    assert d.press() is True


def test_negative_window_is_refused() -> None:
    with pytest.raises(ValueError, match="debounce window"):
        Debouncer(-0.01)


# An edge sequence: alternating press/release edges (starting with a press, the button
# released at start), each after a gap in seconds.
gaps = st.lists(st.floats(min_value=0.0, max_value=0.2, allow_nan=False), min_size=1,
                max_size=40)


@given(gaps)
def test_two_actions_are_never_closer_than_the_window(steps: list[float]) -> None:
    clock = FakeClock()
    d = Debouncer(WINDOW, clock)
    acted_at: list[float] = []
    for i, gap in enumerate(steps):
        clock.advance(gap)
        if i % 2 == 0:
            if d.press():
                acted_at.append(clock.now)
        else:
            d.release()
    assert acted_at, "the first press always acts"
    assert all(b - a >= WINDOW for a, b in pairwise(acted_at))


@given(gaps)
def test_every_press_after_a_stable_release_acts(steps: list[float]) -> None:
    clock = FakeClock()
    d = Debouncer(WINDOW, clock)
    released_at: float | None = 0.0  # released since long before the first edge
    for i, gap in enumerate(steps):
        clock.advance(gap)
        if i % 2 == 0:
            stable = released_at is not None and (i == 0 or clock.now - released_at >= WINDOW)
            acted = d.press()
            if stable:
                assert acted, f"press {i // 2 + 1} after a stable release did not act"
        else:
            d.release()
            released_at = clock.now


def test_a_burst_of_bounces_shorter_than_the_window_acts_once(clock: FakeClock) -> None:
    d = Debouncer(WINDOW, clock)
    acted = 0
    for i in range(200):  # 200 edges, each 1 ms apart: all one press
        if i % 2 == 0:
            acted += d.press()
        else:
            d.release()
        clock.advance(0.001)
    assert acted == 1
