"""A frame's colours are counted a row at a time (the layout tests' contrast check reads
millions of pixels); the counts are exactly those of reading each pixel on its own."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from kiosk.ui.capture import Frame


def _one_by_one(frame: Frame, xs: range, ys: range) -> Counter[tuple[int, int, int]]:
    counts: Counter[tuple[int, int, int]] = Counter()
    for y in ys:
        for x in xs:
            counts[frame.pixel(x, y)] += 1
    return counts


def _frame(width: int, height: int, seed: int) -> Frame:
    pick = random.Random(seed)
    return Frame(width, height, bytes(pick.randrange(4) for _ in range(width * height * 3)))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 16), st.integers(1, 16), st.integers(0, 2**32),
       st.floats(-20, 30), st.floats(-20, 30), st.floats(0, 40), st.floats(0, 40),
       st.integers(1, 5))
def test_a_box_counts_each_sampled_pixel_once_and_the_edge_for_what_is_past_it(
        width: int, height: int, seed: int, x: float, y: float, w: float, h: float,
        step: int) -> None:
    frame = _frame(width, height, seed)
    expected = _one_by_one(frame, range(int(x), int(x + w), step),
                           range(int(y), int(y + h), step))
    assert frame.region_colours(x, y, w, h, step=step) == expected


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 16), st.integers(1, 16), st.integers(0, 2**32), st.integers(1, 9))
def test_the_whole_frame_is_sampled_every_step_each_way(width: int, height: int, seed: int,
                                                         step: int) -> None:
    frame = _frame(width, height, seed)
    expected = _one_by_one(frame, range(0, width, step), range(0, height, step))
    assert frame.colours(step=step) == expected


def test_a_box_past_the_corner_counts_the_corner_pixel() -> None:
    frame = Frame(2, 2, bytes([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]))  # rows bottom-up
    assert frame.region_colours(1, 1, 3, 2, step=1) == Counter({(4, 4, 4): 6})
    assert frame.region_colours(-2, 0, 3, 1, step=1) == Counter({(1, 1, 1): 3})
