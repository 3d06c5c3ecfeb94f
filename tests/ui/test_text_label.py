"""Text tinted by the canvas (kiosk.ui.text_label) and the colour helpers of the theme: the
same pixels as Kivy's own labels, without rendering text again for a colour."""

from __future__ import annotations

from typing import Any

from kiosk.ui import theme
from tests.ui.conftest import UI


def _close(c: tuple[int, int, int], rgba: tuple[float, ...], tol: int = 6) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(c, rgba[:3], strict=False))


def test_premixed_colours_and_circle_sides() -> None:
    assert theme.over(theme.rgb("#000000"), theme.WHITE, 0.85) == (0.85, 0.85, 0.85, 1.0)
    assert theme.over(theme.GOLD, theme.WHITE, 0.0) == theme.GOLD
    assert theme.segments(2) == 24 and theme.segments(30) == 60 and theme.segments(500) == 180


def _inked(frame: Any, label: Any, ink: tuple[float, ...]) -> int:
    x, y = label.to_window(label.x, label.y)
    counts = frame.region_colours(x, y, label.width, label.height, step=1)
    return sum(n for c, n in counts.items() if _close(c, ink, 30))


def test_colour_and_greying_out_are_the_canvass_and_new_text_gets_a_new_texture(ui: UI) -> None:
    from kivy.graphics import Color, Rectangle
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.ui.text_label import TextLabel

    row = BoxLayout(padding=20)
    with row.canvas.before:
        Color(*theme.FELT_DARK)
        Rectangle(size=(4000, 4000))
    label = TextLabel(text="Player draws", font_size=40, bold=True, color=theme.GOLD)
    row.add_widget(label)
    ui.window.add_widget(row)
    frame = ui.frame()
    assert _inked(frame, label, theme.GOLD) > 100, "the text is drawn in its colour"
    texture = label.texture
    label.color = theme.BANKER
    frame = ui.frame()
    assert label.texture is texture, "a new colour does not render the text again"
    assert _inked(frame, label, theme.BANKER) > 100 and _inked(frame, label, theme.GOLD) == 0
    label.disabled = True
    frame = ui.frame()
    assert label.texture is texture and tuple(label.ink) == tuple(label.disabled_color)
    assert _inked(frame, label, theme.BANKER) == 0
    label.text = "Banker stands"
    ui.pump(frames=2)
    assert label.texture is not texture, "new text never draws into a texture in use"
    label.disabled = False
    frame = ui.frame()
    assert _inked(frame, label, theme.BANKER) > 100
    ui.window.remove_widget(row)
