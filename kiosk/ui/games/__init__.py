"""The UI side of the game registry: each game's screens module, named by its
`GameSpec.screens` (the rules never import Kivy). A screens module provides

- `dealer_app(session, cfg, shoe, new_shoe)`: the dealer's Kivy App;
- `sign()` and `show_sign(view, state, link)`: the players' view of the table;
- `headless_play(app, session, cfg, opts, panel)` and `DONE`: the headless demo's touch
  script, and the words its report holds once it played a round.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from kiosk.rules.registry import GameSpec


def screens(spec: GameSpec) -> ModuleType:
    """The screens module of `spec`'s game."""
    if not spec.screens:
        raise LookupError(f"{spec.title} has no screens")
    return importlib.import_module(spec.screens)
