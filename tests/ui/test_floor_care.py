"""A sign left on 18 hours a day: the burn-in shift, the idle screen's
timing and the night hours, as pure functions."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from hypothesis import given, strategies as st

from kiosk.floor_care import SHIFT_PX, burn_in_shift, idle, parse_night


@given(st.floats(0, 10 * 86400))
def test_the_shift_stays_within_its_square_and_moves_a_pixel_at_a_time(t: float) -> None:
    x, y = burn_in_shift(t)
    assert max(abs(x), abs(y)) == SHIFT_PX  # on the square's edge
    nx, ny = burn_in_shift(t + 60.0)
    assert abs(nx - x) + abs(ny - y) == 1  # one pixel a minute


def test_the_shift_goes_all_the_way_round() -> None:
    seen = {burn_in_shift(60.0 * k) for k in range(4 * 2 * SHIFT_PX)}
    assert len(seen) == 4 * 2 * SHIFT_PX and burn_in_shift(60.0 * 32) == burn_in_shift(0)


def test_idle_after_the_minutes_with_no_round() -> None:
    now = datetime(2026, 11, 25, 3, 0, tzinfo=UTC)
    assert idle(now - timedelta(minutes=10), now, 10)
    assert not idle(now - timedelta(minutes=9, seconds=59), now, 10)
    assert not idle(now - timedelta(hours=5), now, 0) and not idle(None, now, 10)


def test_night_hours_across_midnight_and_within_a_day() -> None:
    night = parse_night("22:00-06:00", 0.5)
    assert [night.brightness(time(h)) for h in (21, 22, 23, 0, 5, 6, 12)] == [
        1.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0]
    siesta = parse_night("13:30 - 15:00", 0.7)
    assert siesta.brightness(time(14)) == 0.7 and siesta.brightness(time(15)) == 1.0


@pytest.mark.parametrize(("text", "level", "words"), [
    ("10pm-6am", 0.5, "not night hours like"), ("25:00-06:00", 0.5, "00:00 to 23:59"),
    ("22:00-22:00", 0.5, "starts and ends at the same time"), ("22:00-06:00", 0.1, "0.2 to 1.0"),
])
def test_night_hours_the_house_mistyped_are_refused_in_words(text: str, level: float,
                                                             words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_night(text, level)
