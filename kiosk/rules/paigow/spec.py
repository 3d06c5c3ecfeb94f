"""Pai gow's registration (kiosk/rules/registry.py): section 13 of the rules."""

from __future__ import annotations

from kiosk.rules.paigow import audit, config, engine, operations
from kiosk.rules.registry import ConfigSection, GameSpec, Places, records_in, rules_but

SPEC = GameSpec(
    name=engine.NAME,
    title="Pai gow",
    aliases=("pai-gow", "pai-gow-tiles", "paigow-tiles"),
    rule_sections="2, 13.1-13.3",
    engine=engine.PaiGow(),
    records=records_in(operations),
    config=ConfigSection(config.SECTION, config.parse, config.EXAMPLE),
    places=Places("areas", lambda rules: rules.areas),
    devices=(),
    audit=audit.audit_and_draw,
    demo="kiosk.rules.paigow.demo",
    screens="kiosk.ui.games.paigow",
    default_rules=config.PaiGowRules,
    table_prefix="PG",
    screen_rules=rules_but("minimum", "maximum"),
    round_word="round",
)
