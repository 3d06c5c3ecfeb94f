"""Punto banco's registration (kiosk/rules/registry.py)."""

from __future__ import annotations

from kiosk.rules.baccarat import audit, config, engine as pb, operations
from kiosk.rules.registry import ConfigSection, GameSpec, Places, records_in, rules_but

SPEC = GameSpec(
    name=pb.GAME,
    title="Punto banco",
    aliases=("baccarat", "punto_banco"),
    rule_sections="2, 5.1-5.7",
    engine=pb.PuntoBanco(),
    records=records_in(operations),
    config=ConfigSection(config.SECTION, config.parse, config.EXAMPLE),
    places=Places("areas", lambda rules: rules.areas),
    devices=("shoe",),
    audit=audit.audit,
    demo="kiosk.rules.baccarat.demo",
    screens="kiosk.ui.games.baccarat",
    default_rules=pb.PuntoBancoRules,
    table_prefix="PB",
    screen_rules=rules_but("limits"),  # the screens read the limits on every refresh
    round_word="coup",
)
