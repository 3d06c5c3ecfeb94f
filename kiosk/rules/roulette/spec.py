"""American roulette's registration (kiosk/rules/registry.py)."""

from __future__ import annotations

from kiosk.rules.registry import ConfigSection, GameSpec, Places, records_in, rules_but
from kiosk.rules.roulette import audit, config, engine as rl, operations

SPEC = GameSpec(
    name=rl.GAME,
    title="American roulette",
    aliases=("american-roulette",),
    rule_sections="2, 3.1-3.5",
    engine=rl.Roulette(),
    records=records_in(operations),
    config=ConfigSection(config.SECTION, config.parse, config.EXAMPLE),
    places=Places("colours", lambda rules: rules.colours),
    devices=("wheel",),
    audit=audit.audit,
    alerts=audit.alerts,
    demo="kiosk.rules.roulette.demo",
    screens="kiosk.ui.games.roulette",
    default_rules=rl.RouletteRules,
    table_prefix="RL",
    screen_rules=rules_but("limits"),  # the screens read the limits on every refresh
    round_word="spin",
)
