"""Text that does not fit its box is drawn smaller, but no smaller than it must be: the fit
finds the largest font size (within half a pixel) at which a wrapped text fits, where one
step by the ratio it overflows by can overshoot because its lines break anew."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk.ui.fit import fitting_size, needed, overflow
from tests.ui.conftest import UI

WORDS = st.lists(st.sampled_from(["Dealer", "draws", "to", "16,", "stands", "on", "all",
                                  "17s", "R10,000,000", "Ukulingana", "Insurance", "A", "pays",
                                  "2:1", "Verdubbel"]), min_size=1, max_size=14)


def _label(text: str, width: float, height: float, wanted: float) -> Any:
    from kiosk.ui.text_label import TextLabel

    label = TextLabel(text=text, font_size=wanted, size_hint=(None, None),
                      size=(width, height))
    label.text_size = (width, None)
    return label


def _fits(label: Any, size: float) -> bool:
    w, h = needed(label, size)
    return w <= label.width - 1.5 and h <= label.height + 0.5


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=WORDS, width=st.integers(60, 400), height=st.integers(20, 200),
       wanted=st.integers(12, 40))
def test_the_fitted_size_fits_and_a_pixel_more_would_not(ui: UI, words: list[str],
                                                          width: int, height: int,
                                                          wanted: int) -> None:
    label = _label(" ".join(words), width, height, wanted)
    size = fitting_size(label, wanted)
    floor = wanted * 0.35
    assert floor - 1e-9 <= size <= wanted
    if size > floor:
        assert _fits(label, size)
    if floor < size < wanted:
        assert not _fits(label, size + 0.6), (size, "fits larger")


def test_a_wrapped_rule_is_drawn_at_the_largest_size_that_fits(ui: UI) -> None:
    # Three words a line at 20 px; one ratio step would have dropped it to about 13 px.
    label = _label("Dealer draws to 16, stands on all 17s", 150, 60, 20)
    ui.pump(frames=2)
    assert overflow(label) == ""
    assert _fits(label, label.font_size) and not _fits(label, label.font_size + 0.6)
