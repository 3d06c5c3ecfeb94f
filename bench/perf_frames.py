"""Per-frame breakdown for the dealer screen bench: where one turn of Kivy's loop goes.

`FrameProfiler.install()` wraps, before the app is built:
- the wait inside `Clock.async_idle` (asyncio's turn: the shoe reader, the session and the
  journal, the bench's own scenario): `asyncio`;
- `Clock.post_idle` and `Clock.tick_draw` (every Clock callback: refresh, layouts, label
  textures, card redraws): `clock`; inside it, `refresh` (the screen's `refresh()`),
  `text` (SDL_ttf rendering a label's texture), `layout` (`do_layout` of every layout) and
  `cards` (`CardFace._redraw`);
- the window's `on_draw` (the canvas drawn by GL) and `on_flip` (buffer swap, and the glFinish
  that makes the software renderer draw the frame): `draw`, `flip` (`raster`: the bench's own
  glFinish, inside `flip`, when the app does not finish its frames itself);
- `TableSession.on_device_event` and `perform` (inside asyncio's turn): `session`;
- Python's cyclic garbage collector, wherever it runs: `gc`.
A label's text is rendered by SDL_ttf when its texture is first drawn, so most of `text` is
inside `draw` (`LabelBase._texture_fill`).
Figures are milliseconds of wall time; nested buckets are also counted in their parent.
"""

from __future__ import annotations

import functools
import gc
import time
from typing import Any

BUCKETS = ("asyncio", "session", "clock", "refresh", "text", "layout", "cards", "draw", "flip",
           "raster", "gc")


class FrameProfiler:
    def __init__(self) -> None:
        self.frames: list[dict[str, float]] = []  # one per turn of the loop
        self.current: dict[str, float] = {}
        self.texts = 0  # label textures rendered in all
        self.idle_turns = 0  # turns of the loop under 1 ms that drew nothing: not kept
        self._depth: dict[str, int] = {}

    def _wrap(self, owner: Any, name: str, bucket: str) -> None:
        fn = getattr(owner, name)
        prof = self

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            # A bucket already being timed further up the stack is not counted twice.
            depth = prof._depth.get(bucket, 0)
            prof._depth[bucket] = depth + 1
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                prof._depth[bucket] = depth
                if depth == 0:
                    cur = prof.current
                    cur[bucket] = cur.get(bucket, 0.0) + (time.perf_counter() - t) * 1000
                    if bucket == "text":
                        prof.texts += 1
                        cur["texts"] = cur.get("texts", 0) + 1

        setattr(owner, name, timed)

    def _wrap_async(self, owner: Any, name: str, bucket: str) -> None:
        fn = getattr(owner, name)
        prof = self

        @functools.wraps(fn)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                cur = prof.current
                cur[bucket] = cur.get(bucket, 0.0) + (time.perf_counter() - t) * 1000

        setattr(owner, name, timed)

    def install(self, extra: tuple[tuple[Any, str, str], ...] = ()) -> None:
        from kivy.base import EventLoop
        from kivy.clock import Clock
        from kivy.core.text import LabelBase
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.gridlayout import GridLayout

        self._wrap_async(Clock, "async_idle", "asyncio")
        self._wrap(Clock, "post_idle", "clock")
        self._wrap(Clock, "tick_draw", "clock")
        self._wrap(LabelBase, "_texture_fill", "text")
        self._wrap(BoxLayout, "do_layout", "layout")
        self._wrap(GridLayout, "do_layout", "layout")
        for owner, name, bucket in extra:
            self._wrap(owner, name, bucket)
        fill = LabelBase._texture_fill

        def texture_fill(label: Any, texture: Any) -> Any:
            t = time.perf_counter()
            try:
                return fill(label, texture)
            finally:
                items = prof.current.setdefault("text_items", [])
                items.append((str(label.text)[:28], tuple(texture.size),
                              round((time.perf_counter() - t) * 1000, 1)))

        LabelBase._texture_fill = texture_fill
        loop_idle = EventLoop.async_idle
        prof = self

        async def idle() -> Any:
            t = time.perf_counter()
            prof.current = {"start": t}
            try:
                return await loop_idle()
            finally:
                cur = prof.current
                cur["total"] = (time.perf_counter() - t) * 1000
                # Most turns of the loop do nothing (no frame drawn, < 1 ms): keeping them all
                # would grow the very memory this bench measures.
                if "draw" in cur or cur["total"] > 1.0:
                    prof.frames.append(cur)
                else:
                    prof.idle_turns += 1

        EventLoop.async_idle = idle
        gc_start: list[float] = []

        def on_gc(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                gc_start[:] = [time.perf_counter()]
            elif gc_start:
                cur = prof.current
                cur["gc"] = cur.get("gc", 0.0) + (time.perf_counter() - gc_start[0]) * 1000

        gc.callbacks.append(on_gc)

    def watch_window(self) -> None:
        """Time the window's draw and flip events, handlers included (the app's own glFinish
        on flip is the frame's rasterizing). Call once the window exists."""
        from kivy.core.window import Window

        dispatch = Window.dispatch
        prof = self

        def timed_dispatch(event: str, *args: Any, **kwargs: Any) -> Any:
            bucket = {"on_draw": "draw", "on_flip": "flip"}.get(event)
            if bucket is None:
                return dispatch(event, *args, **kwargs)
            t = time.perf_counter()
            try:
                return dispatch(event, *args, **kwargs)
            finally:
                cur = prof.current
                cur[bucket] = cur.get(bucket, 0.0) + (time.perf_counter() - t) * 1000

        Window.dispatch = timed_dispatch

    def window(self, since: float, until: float) -> list[dict[str, float]]:
        return [f for f in self.frames if since <= f["start"] <= until]


def summary(frames: list[dict[str, float]]) -> dict[str, Any]:
    """The longest frame's breakdown and each bucket's sum over `frames`."""
    if not frames:
        return {}
    longest = max(frames, key=lambda f: f.get("total", 0.0))
    drawn = [f for f in frames if "draw" in f]
    out: dict[str, Any] = {
        "frames_kept": len(frames),  # turns that drew or took over 1 ms
        "frames_drawn": len(drawn),
        "longest": {k: round(longest.get(k, 0.0), 2) for k in ("total", *BUCKETS, "texts")},
        "longest_texts": longest.get("text_items", []),
        "sum": {k: round(sum(f.get(k, 0.0) for f in frames), 1) for k in (*BUCKETS, "texts")},
        "worst_draw_ms": round(max((f["draw"] for f in drawn), default=0.0), 2),
    }
    return out
