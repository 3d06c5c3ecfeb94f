"""Pai gow in the registry for a test, unless this build registers it already: the journal
opens its table through the registry. With no registration of its own yet, the rules' records
and configuration are enough for the screens' tests (no screens module is named, so the UI's
check of one is not run)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from kiosk.rules.paigow import config, engine, operations
from kiosk.rules.registry import GAMES, ConfigSection, GameSpec, Places, records_in


def spec() -> GameSpec:
    return GameSpec(name=engine.NAME, title="Pai gow", rule_sections="2, 13.1-13.3",
                    engine=engine.PaiGow(), records=records_in(operations),
                    config=ConfigSection(config.SECTION, config.parse, config.EXAMPLE),
                    places=Places("areas", lambda rules: rules.areas), devices=())


@contextmanager
def registered() -> Iterator[None]:
    ours = engine.NAME not in GAMES.names()
    if ours:
        GAMES.register(spec())
    try:
        yield
    finally:
        if ours:
            GAMES.unregister(engine.NAME)
