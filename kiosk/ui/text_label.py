"""Labels whose colour is the canvas's, and whose text is never drawn into a texture in use.

Kivy renders a label's text (SDL_ttf) in its colour, so a colour change, or a button greyed
out (`disabled` picks `disabled_color`), renders the same text again; and when the size is
unchanged it draws the new pixels into the texture the last frames used, which a software
renderer (Mesa llvmpipe) can only do after drawing every frame still queued: 20-190 ms
stalls on the dealer screen. Here plain text is rendered once in white and tinted by the
canvas (`ink`: `color`, or `disabled_color` when disabled), and new text always gets a
texture of its own. Markup labels carry their colours in the text, so they are rendered in
colour as Kivy does (only the fresh texture applies to them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import AliasProperty, BooleanProperty
from kivy.uix.label import Label

from kiosk.ui.fit import fitting_size
from kiosk.ui.fonts import register as register_font

WHITE = (1.0, 1.0, 1.0, 1.0)
_COLOUR_OPTIONS = frozenset(("color", "disabled_color", "disabled", "outline_color",
                             "disabled_outline_color"))


class TintedText:
    """Mixin for a Label (or a Button) drawn by a kv rule that tints its texture by `ink`,
    and whose text always fits its box: the font size a rule asks for is the largest it is
    drawn at; when the text would not fit (a long name, a big amount), it is drawn smaller
    (kiosk/ui/fit.py), never cut off."""

    fit = BooleanProperty(True)
    _wanted_size: float | None = None
    _fitting = False
    _refit_trigger: Any = None

    def on_font_size(self, _inst: Any, value: float) -> None:
        if self._fitting:
            return
        self._wanted_size = value  # what the layout asks for
        self._refit()

    def on_size(self, *_args: Any) -> None:
        self._refit()

    def on_text(self, *_args: Any) -> None:
        self._refit()

    def on_text_size(self, *_args: Any) -> None:
        self._refit()

    def on_bold(self, *_args: Any) -> None:
        self._refit()

    def _refit(self) -> None:
        if not self.fit:
            return
        wanted = self._wanted_size
        if wanted is None:
            wanted = self._wanted_size = float(self.font_size)  # type: ignore[has-type]
        size = fitting_size(self, wanted)
        if abs(size - self.font_size) > 0.01:  # type: ignore[has-type]
            self._fitting = True
            try:
                self.font_size = size
            finally:
                self._fitting = False

    def _get_ink(self) -> Any:
        if self.markup:  # type: ignore[attr-defined]
            return WHITE
        return self.disabled_color if self.disabled else self.color  # type: ignore[attr-defined]

    ink = AliasProperty(_get_ink, None, bind=("color", "disabled_color", "disabled", "markup"),
                        cache=True)
    """The colour the text is drawn in (white for markup, whose colours are in the text)."""

    def _create_label(self) -> None:
        super()._create_label()  # type: ignore[misc]
        if not self.markup:  # type: ignore[attr-defined]
            self._label.options["color"] = WHITE  # type: ignore[attr-defined]

    def _trigger_texture_update(self, name: str | None = None, source: Any = None,
                                value: Any = None) -> None:
        if source and name in _COLOUR_OPTIONS and not self.markup:  # type: ignore[attr-defined]
            return  # only `ink` changes: the canvas tints the same white text
        super()._trigger_texture_update(name, source, value)  # type: ignore[misc]
        if name == "markup" and not self.markup:  # type: ignore[attr-defined]
            self._label.options["color"] = WHITE  # type: ignore[attr-defined]

    def texture_update(self, *largs: Any) -> None:
        # A new texture for the new text: the old one may still be in a queued frame.
        label = self._label  # type: ignore[attr-defined]
        if label is not None:
            label.texture = None
        super().texture_update(*largs)  # type: ignore[misc]


class TextLabel(TintedText, Label):  # type: ignore[misc]
    """A Label tinted by `ink` (see the module's docstring); use it wherever `Label` was."""


register_font()  # every screen imports this module: the shipped font is the default
Builder.load_file(str(Path(__file__).with_name("text_label.kv")))
