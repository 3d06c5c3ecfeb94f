"""Reading back what the screen shows: pixels for tests and screenshots for the headless demo.

Frames are read from the GL back buffer right after a frame is drawn, the way Kivy's own
`Window.screenshot` does, but into an exact path (Kivy's adds a counter to the name)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Frame:
    """One drawn frame, RGB, rows bottom-up as GL returns them."""

    width: int
    height: int
    rgb: bytes

    def pixel(self, x: float, y: float) -> tuple[int, int, int]:
        """The colour at window coordinates (origin bottom-left, as Kivy's)."""
        xi = min(max(int(x), 0), self.width - 1)
        yi = min(max(int(y), 0), self.height - 1)
        i = (yi * self.width + xi) * 3
        return self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]

    def colours(self, step: int = 4) -> Counter[tuple[int, int, int]]:
        """How often each colour appears, sampling every `step`th pixel each way."""
        counts: Counter[tuple[int, int, int]] = Counter()
        for y in range(0, self.height, step):
            self._count_row(counts, y, range(0, self.width, step))
        return counts

    def region_colours(self, x: float, y: float, w: float, h: float, step: int = 2
                       ) -> Counter[tuple[int, int, int]]:
        """How often each colour appears in a box, sampling every `step`th pixel each way;
        a box reaching past the frame's edge counts the edge's pixels for it, as `pixel`."""
        counts: Counter[tuple[int, int, int]] = Counter()
        xs = range(int(x), int(x + w), step)
        for yy in range(int(y), int(y + h), step):
            self._count_row(counts, min(max(yy, 0), self.height - 1), xs)
        return counts

    def _count_row(self, counts: Counter[tuple[int, int, int]], y: int, xs: range) -> None:
        """Count the colours of row `y` at the columns `xs` (clamped to the frame), a row
        at a time: a frame holds millions of pixels, and one Python call each took seconds."""
        if not xs:
            return
        row = y * self.width * 3
        if xs.start >= 0 and xs[-1] < self.width:
            line = self.rgb[row + xs.start * 3:row + xs[-1] * 3 + 3]
            stride = xs.step * 3
            counts.update(zip(line[0::stride], line[1::stride], line[2::stride], strict=True))
            return
        for xx in xs:
            i = row + min(max(xx, 0), self.width - 1) * 3
            counts[(self.rgb[i], self.rgb[i + 1], self.rgb[i + 2])] += 1

    def is_blank(self) -> bool:
        """True when one colour covers nearly all of the frame: nothing was drawn."""
        counts = self.colours(step=8)
        top = counts.most_common(1)[0][1] if counts else 0
        return top >= 0.98 * sum(counts.values())


def grab() -> Frame:
    """The frame just drawn in Kivy's window."""
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glPixelStorei, glReadPixels

    glPixelStorei(0x0D05, 1)  # GL_PACK_ALIGNMENT: rows not padded to 4 bytes
    w, h = (int(v) for v in Window.size)
    data = glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE)
    return Frame(w, h, bytes(data))


def render(widget: Any) -> Frame:
    """Draw `widget` alone into an off-screen buffer of its own size. The offscreen window
    cannot change size once created, so a 1920x1080 layout is checked this way inside an
    800x480 window (and the other way round)."""
    image = widget.export_as_image()
    tex = image.texture
    w, h = (int(v) for v in tex.size)
    rgba = bytes(tex.pixels)
    rgb = bytearray(w * h * 3)
    rgb[0::3] = rgba[0::4]
    rgb[1::3] = rgba[1::4]
    rgb[2::3] = rgba[2::4]
    # The exported image is top-down; frames are bottom-up like GL's.
    row = w * 3
    flipped = b"".join(bytes(rgb[i:i + row]) for i in range((h - 1) * row, -1, -row))
    return Frame(w, h, flipped)


def render_window(window: Any) -> Frame:
    """Draw everything on `window` (the screen and any dialog open over it) into an
    off-screen buffer of the window's size: the tests tell the window it is 1920x1080, so
    that the screen and its dialogs lay themselves out at that size, while the offscreen GL
    surface stays the size it was made at."""
    from kivy.graphics import ClearBuffers, ClearColor
    from kivy.graphics.fbo import Fbo

    w, h = (int(v) for v in window.size)
    fbo = Fbo(size=(w, h), with_stencilbuffer=True)
    with fbo:
        ClearColor(0, 0, 0, 1)
        ClearBuffers()
    moved = []
    for child in reversed(window.children):  # the first added is drawn first
        at = window.canvas.indexof(child.canvas)
        if at > -1:
            window.canvas.remove(child.canvas)
        moved.append((at, child.canvas))
        fbo.add(child.canvas)
    try:
        fbo.draw()
        rgba = bytes(fbo.texture.pixels)  # rows bottom-up, as a frame's
    finally:
        for _at, canvas in moved:
            fbo.remove(canvas)
        for at, canvas in sorted(moved, key=lambda m: m[0]):
            if at > -1:
                window.canvas.insert(at, canvas)
    rgb = bytearray(w * h * 3)
    rgb[0::3] = rgba[0::4]
    rgb[1::3] = rgba[1::4]
    rgb[2::3] = rgba[2::4]
    return Frame(w, h, bytes(rgb))


def save_png(frame: Frame, path: str | Path) -> Path:
    """Write the frame to exactly `path` as PNG."""
    from kivy.core.window import Window

    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    Window._win.save_bytes_in_png(str(out), frame.rgb, frame.width, frame.height)
    return out
