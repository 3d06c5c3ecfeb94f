"""The card faces are drawn from vector shapes: check the colours land where a card is."""

from __future__ import annotations

from typing import Any

from kiosk.ui import theme
from tests.ui.conftest import UI


def _close(c: tuple[int, int, int], rgba: tuple[float, float, float, float], tol: int = 6
           ) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(c, rgba[:3], strict=False))


def test_red_and_black_suits_and_back_are_drawn(ui: UI) -> None:
    from kivy.graphics import Color, Rectangle
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.ui.card_face import CardFace

    row = BoxLayout(padding=20, spacing=20)
    with row.canvas.before:
        Color(*theme.FELT)
        Rectangle(size=(4000, 4000))
    faces: list[Any] = [CardFace(code=c) for c in ("AS", "TH", "QD", "7C")]
    faces.append(CardFace(face_down=True))
    faces.append(CardFace(code=""))
    for f in faces:
        row.add_widget(f)
    ui.window.add_widget(row)
    frame = ui.frame()
    for face, ink in zip(faces[:4], (theme.INK, theme.CARD_RED, theme.CARD_RED, theme.INK),
                         strict=True):
        colours = frame.region_colours(face.x + face.width * 0.3, face.y + face.height * 0.3,
                                       face.width * 0.5, face.height * 0.3)
        assert any(_close(c, theme.IVORY) for c in colours), face.code
        assert any(_close(c, ink) for c in colours), f"{face.code} has no {ink} pips"
        wrong = theme.CARD_RED if ink == theme.INK else theme.INK
        assert not any(_close(c, wrong, 3) for c in colours), face.code
    back = frame.pixel(*faces[4].center)
    assert _close(back, theme.BANKER), back
    empty = frame.pixel(*faces[5].center)
    assert _close(empty, theme.FELT), "an empty place shows the felt through it"
    ui.screenshot("card-faces")
