"""Kivy's side of the screens' languages (kiosk/i18n.py): `tr`, whose `_` a .kv text calls,

    #:import tr kiosk.ui.language.tr
    caption: tr._("MIN")

and which changes whenever `kiosk.i18n.use` switches language, so every such text is drawn
again in the new language (kv binds a rule to each property its expression reads; `_` is a
property here, holding the current language's gettext). Words made in Python (the signs'
words modules) are translated when the view is shown again, which the sign does at each
switch. For the dealer screens too, when they adopt the catalogues.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.event import EventDispatcher
from kivy.properties import ObjectProperty, StringProperty

from kiosk import i18n


class Translator(EventDispatcher):  # type: ignore[misc]
    """The current language for kv: `tr._(message)` and `tr.lang` (its code)."""

    _ = ObjectProperty(None)
    """The current language's gettext; a new callable at each switch, which kv sees."""
    lang = StringProperty(i18n.SOURCE)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._switched(i18n.current())
        i18n.subscribe(self._switched)

    def _switched(self, code: str) -> None:
        self._ = partial(i18n.in_language, code)
        self.lang = code


tr = Translator()
