"""The layout check: every text on a screen fits its box, nothing overlaps, nothing leaves
the screen, and the sizes asked of each text are met. Used by the layout tests of
every dealer screen and sign at every size the configuration accepts."""

from __future__ import annotations

from typing import Any

from kiosk.ui.fit import overflow

SIZES = ((800, 480), (1024, 600), (1280, 800), (1920, 1080), (1080, 1920))
"""The screen sizes every sign is laid out at; the dealer screen takes the landscape ones (the
configuration refuses a portrait dealer screen, with the reason)."""
LANDSCAPE = SIZES[:4]


def shown(widget: Any) -> bool:
    """Whether `widget` is drawn: it and every parent opaque, with a size."""
    w = widget
    while w is not None and w is not w.parent:
        if getattr(w, "opacity", 1) == 0 or getattr(w, "disabled_hidden", False):
            return False
        w = w.parent
        if w is not None and not hasattr(w, "opacity"):
            break
    return widget.width > 1 and widget.height > 1


def box(widget: Any) -> tuple[float, float, float, float]:
    """(x, y, right, top) in window coordinates."""
    if isinstance(widget, _Drawn):
        return widget.window_box
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _texts(root: Any) -> list[Any]:
    from kivy.uix.label import Label

    return [w for w in root.walk(restrict=True)
            if isinstance(w, Label) and w.text.strip() and shown(w)]


def _cards(root: Any) -> list[Any]:
    from kiosk.ui.card_face import CardFace

    return [w for w in root.walk(restrict=True) if isinstance(w, CardFace) and shown(w)]


def _drawn(root: Any) -> list[tuple[Any, Any, tuple[float, float, float, float]]]:
    """Texts drawn straight on a canvas (a card's rank, a road's name): (widget, the
    `DrawnText`, its box in window coordinates as (x, y, right, top))."""
    out = []
    for w in root.walk(restrict=True):
        if shown(w):
            for d in getattr(w, "drawn", ()):
                out.append((w, d, _window_box(w, d.box)))
    return out


def _window_box(w: Any, b: tuple[float, float, float, float]
                ) -> tuple[float, float, float, float]:
    x, y = w.to_window(b[0], b[1])
    return x, y, x + b[2], y + b[3]


class _Drawn:
    """A drawn text as a leaf of the overlap check."""

    def __init__(self, widget: Any, text: str, box: tuple[float, float, float, float]
                 ) -> None:
        self.parent, self.text, self.window_box = widget, text, box


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
             ) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def _inside(a: Any, b: Any) -> bool:
    w = a.parent
    while w is not None and w is not w.parent:
        if w is b:
            return True
        w = getattr(w, "parent", None)
    return False


def problems(root: Any, *, min_card_height: float = 0.0) -> list[str]:
    """Everything wrong with the layout under `root`, in words ([] when all is well)."""
    out = []
    screen = box(root)
    texts = _texts(root)
    cards = _cards(root)
    for w in texts:
        why = overflow(w)
        if why:
            out.append(f"{type(w).__name__}: {why}")
    for w in texts + cards:
        b = box(w)
        if b[0] < screen[0] - 1 or b[1] < screen[1] - 1 or b[2] > screen[2] + 1 \
                or b[3] > screen[3] + 1:
            what = getattr(w, "text", "") or getattr(w, "code", "") or "a card"
            out.append(f"{type(w).__name__} {what!r} leaves the screen at {b}")
    drawn = _drawn(root)
    for w, d, b in drawn:
        room = _window_box(w, d.room)
        why = d.overflow()
        if why:
            out.append(f"{type(w).__name__}: {why}")
        if b[0] < screen[0] - 1 or b[1] < screen[1] - 1 or b[2] > screen[2] + 1 \
                or b[3] > screen[3] + 1:
            out.append(f"{type(w).__name__} {d.text!r} drawn at {b} leaves the screen "
                       f"(its room {room})")
    # A road's name against the labels and the other names (a card's rank is inside its
    # card, which is checked as a card).
    leaves = texts + cards + [_Drawn(w, d.text, b) for w, d, b in drawn
                              if not hasattr(w, "card_height")]
    for i, a in enumerate(leaves):
        for b in leaves[i + 1:]:
            if a in cards and b in cards and a.parent is b.parent:
                continue  # a hand's cards may overlap as a dealer fans them
            if _inside(a, b) or _inside(b, a) or a.parent is b or b.parent is a:
                continue
            if _overlap(box(a), box(b)):
                out.append(f"{_name(a)} overlaps {_name(b)}")
    # A hand's cards may overlap, but no card may cover the rank of one under it.
    for c in cards:
        on_top = c.parent.children[:c.parent.children.index(c)]  # drawn after it
        for d in getattr(c, "drawn", ()):
            rank = _window_box(c, d.box)
            for other in on_top:
                if other in cards and _overlap(rank, box(other)):
                    out.append(f"the rank of {c.code} is covered by {other.code}")
    if min_card_height:
        for c in _all_cards(root):
            if c.code and not shown(c):
                out.append(f"card {c.code} is hidden or has no size ({c.size})")
            elif shown(c) and c.card_height < min_card_height - 0.5:
                out.append(f"card {c.code or 'place'} is drawn {c.card_height:.0f} px tall, "
                           f"under {min_card_height:.0f}")
    return out


def _all_cards(root: Any) -> list[Any]:
    from kiosk.ui.card_face import CardFace

    return [w for w in root.walk(restrict=True) if isinstance(w, CardFace)]


def card_ranks(root: Any, *, px_per_mm: float) -> tuple[float, str]:
    """The smallest card rank drawn under `root` (capital height in millimetres), and which."""
    from kiosk.ui.fonts import cap_height

    found = [(cap_height(d.font_size) / px_per_mm, c.code) for c in _cards(root)
             for d in getattr(c, "drawn", ())]
    return min(found) if found else (float("inf"), "")


def _name(w: Any) -> str:
    if isinstance(w, _Drawn):
        return f"{type(w.parent).__name__} drawn {w.text!r} at {tuple(round(v) for v in box(w))}"
    text = getattr(w, "text", "") or getattr(w, "code", "")
    return f"{type(w).__name__} {text!r} at {tuple(round(v) for v in box(w))}"


def _ink(widget: Any) -> tuple[float, float, float, float] | None:
    """The colour a text widget draws its text in (None: markup, colours in the text)."""
    if getattr(widget, "markup", False):
        return None
    ink = getattr(widget, "ink", None)
    colour = ink if ink is not None else widget.color
    return tuple(float(c) for c in colour)  # type: ignore[return-value]


def contrast_problems(frame: Any, root: Any, minimum: float = 4.5) -> list[str]:
    """Texts under `root` whose colour against what is drawn behind them (the commonest
    colour in their box that is not the text's own) is under `minimum` (WCAG AA: 4.5)."""
    from kiosk.ui.theme import contrast

    out = []
    for w in _texts(root):
        ink = _ink(w)
        if ink is None or ink[3] == 0:
            continue
        # What is behind the text: the texture's rectangle, drawn centred in the widget
        # (a round chip's box holds the felt around it too).
        tw, th = (min(a, b) for a, b in zip(w.texture_size, w.size, strict=True))
        cx, cy = w.to_window(w.center_x, w.center_y)
        counts = frame.region_colours(cx - tw / 2, cy - th / 2, tw, th, step=2)
        fg255 = tuple(round(c * 255) for c in ink[:3])
        behind = [(n, c) for c, n in counts.items()
                  if sum(abs(a - b) for a, b in zip(c, fg255, strict=True)) > 60]
        if not behind:
            continue
        bg = max(behind)[1]
        bg_rgb = tuple(v / 255 for v in bg)
        fg = tuple(ink[i] * ink[3] + bg_rgb[i] * (1 - ink[3]) for i in range(3))
        ratio = contrast(fg, bg_rgb)
        if ratio < minimum:
            out.append(f"{_name(w)}: {ratio:.1f}:1 ({fg255} on {bg})")
    return out


def smallest_text(root: Any, *, px_per_mm: float) -> tuple[float, str]:
    """The smallest capital letters on screen in millimetres, and whose."""
    from kiosk.ui.fonts import cap_height

    found = [(cap_height(w.font_size) / px_per_mm, w.text) for w in _texts(root)]
    return min(found) if found else (float("inf"), "")
