"""Standard blackjack and Touch 21: two games on one engine and one family of records."""

from __future__ import annotations

from kiosk.rules.blackjack import audit, config, engine, operations
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.registry import ConfigSection, GameSpec, Places, records_in, rules_but

_RECORDS = records_in(operations)
_ENGINE = engine.Blackjack()
_BOXES = Places("boxes", lambda rules: rules.boxes)
_LIVE = rules_but("minimum", "maximum")  # the screens read the limits on every refresh

STANDARD = GameSpec(
    name="blackjack",
    title="Blackjack",
    rule_sections="2, 4.1-4.7; shuffle and cut 4.1-4.7",
    engine=_ENGINE,
    records=_RECORDS,
    config=ConfigSection(config.SECTION, config.parse_standard, config.EXAMPLE),
    places=_BOXES,
    devices=("shoe",),
    audit=audit.audit,
    demo="kiosk.rules.blackjack.demo",
    screens="kiosk.ui.games.blackjack",
    default_rules=BlackjackRules,
    table_prefix="BJ",
    screen_rules=_LIVE,
)

TOUCH_21 = GameSpec(
    name="touch-21",
    title="Touch 21",
    aliases=("touch21",),
    family="blackjack",
    rule_sections="2, 7.1-7.7; shuffle and cut 4.1-4.7",
    engine=_ENGINE,
    records=_RECORDS,
    config=ConfigSection(config.SECTION, config.parse_touch_21, config.TOUCH_21_EXAMPLE),
    places=_BOXES,
    devices=("shoe",),
    audit=audit.audit,
    demo="kiosk.rules.blackjack.demo",
    screens="kiosk.ui.games.blackjack",
    default_rules=BlackjackRules.touch_21,
    table_prefix="BJ",
    screen_rules=_LIVE,
)

SPECS = (STANDARD, TOUCH_21)
