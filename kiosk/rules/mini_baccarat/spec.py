"""Mini baccarat's registration (kiosk/rules/registry.py): punto banco's family of records,
its own engine, configuration, audit, sign and dealer screen."""

from __future__ import annotations

from kiosk.rules.baccarat import operations as pb_operations
from kiosk.rules.mini_baccarat import audit, config, engine as mb, operations
from kiosk.rules.registry import ConfigSection, GameSpec, Places, records_in, rules_but

SPEC = GameSpec(
    name=mb.GAME,
    title="Mini baccarat",
    aliases=("mini_baccarat", "minibaccarat"),
    family="punto-banco",  # the same coup, the same records: punto banco's
    rule_sections="2, 5.1-5.7, 12.1-12.5; shuffle and cut 4.1-4.5",
    engine=mb.MiniBaccarat(),
    records=(*records_in(pb_operations), *records_in(operations)),
    config=ConfigSection(config.SECTION, config.parse, config.EXAMPLE),
    places=Places("seats", lambda rules: rules.areas),
    devices=("shoe",),
    audit=audit.audit,
    alerts=audit.alerts,
    demo="kiosk.rules.mini_baccarat.demo",
    screens="kiosk.ui.games.mini_baccarat",
    default_rules=mb.MiniBaccaratRules,
    table_prefix="MB",
    screen_rules=rules_but("limits"),  # the screens read the limits on every refresh
    round_word="coup",
)
