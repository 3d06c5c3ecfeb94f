"""Arizona Hold'em's registration (kiosk/rules/registry.py): section 6 of the rules."""

from __future__ import annotations

from kiosk.rules.arizona import audit, config, engine, operations
from kiosk.rules.registry import ConfigSection, GameSpec, Places, records_in, rules_but

SPEC = GameSpec(
    name=engine.NAME,
    title="Arizona Hold'em",
    aliases=("arizona-holdem", "arizona_holdem"),
    rule_sections="2, 6.1-6.6",
    engine=engine.ArizonaHoldem(),
    records=records_in(operations),
    config=ConfigSection(config.SECTION, config.parse, config.EXAMPLE),
    places=Places("boxes", lambda rules: rules.boxes),
    devices=("shoe",),
    audit=audit.audit,
    alerts=audit.alerts,
    demo="kiosk.rules.arizona.demo",
    screens="kiosk.ui.games.arizona",
    default_rules=config.ArizonaRules,
    table_prefix="AZ",
    screen_rules=rules_but("minimum", "maximum"),
    round_word="hand",
)
