"""High card's configuration, replay audit and registration (docs/adding-a-game.md, part 2):
every field of `GameSpec` is used, so the toy shows each of them."""

from __future__ import annotations

from typing import Any

from kiosk.rules.audit import ReplayReport, RoundReplay, Row
from kiosk.rules.errors import TablesideError
from kiosk.rules.registry import (
    ConfigSection,
    GameSpec,
    HouseSettings,
    Places,
    SectionReader,
    records_in,
    register,
    rules_but,
)
from tests.toy_game import rules as hc

EXAMPLE = """\
[high_card]
minimum = 10                # per bet: 0.01 to 10_000_000
maximum = 1000              # 0.01 to 10_000_000, at least the minimum
"""


def parse(reader: SectionReader, house: HouseSettings) -> hc.HighCardRules:
    sec = reader.section("high_card", required=False)
    try:
        return hc.HighCardRules(minimum=reader.money(sec, "high_card", "minimum", 1_000),
                                maximum=reader.money(sec, "high_card", "maximum", 100_000),
                                chips=house.chips, currency=house.currency)
    except ValueError as exc:
        reader.fail("high_card", "minimum", str(exc))


def _hands(state: hc.HighCardState) -> dict[str, list[str]]:
    return {"player": [state.player.code] if state.player else [],
            "dealer": [state.dealer.code] if state.dealer else []}


def audit(state: hc.HighCardState, op: Any, row: Row, report: ReplayReport) -> None:
    """Every settled round recomputed from its two cards, every void kept with its reason;
    `outcome` is the round in one line, as the pit's rounds list shows it."""
    if isinstance(op, hc.Voided):
        voided = RoundReplay(op.round, "voided", row.seq, row.wall_time, hands=_hands(state),
                            reason=op.reason)
        voided.outcome = f"void: {op.reason}"
        report.rounds.append(voided)
        return
    if not isinstance(op, hc.Settled):
        return
    out = RoundReplay(op.round, "settled", row.seq, row.wall_time, hands=_hands(state))
    out.outcome = f"{op.winner} " + " against ".join(
        c.code for c in (state.player, state.dealer) if c is not None)
    try:
        again = hc.settlement(state)
    except TablesideError as exc:
        out.differences.append(f"settled although {exc}")
    else:
        out.result = {"winner": again.winner}
        out.settlements = [{"side": s, "paid": p} for s, p in again.paid]
        if again != op:
            out.differences.append(f"recorded {op.winner} {list(op.paid)}, recomputed "
                                   f"{again.winner} {list(again.paid)}")
    report.rounds.append(out)


def alerts(op: Any) -> tuple[str, str] | None:
    """The toy's records an inspector must see as alerts at the pit (`GameSpec.alerts`): a
    push (two cards of one rank), as a game would its misdeal. Its void is already one."""
    if isinstance(op, hc.Settled) and op.winner == "push":
        return "push", f"round {op.round}: a push"
    return None


SPEC = GameSpec(
    name="high-card",
    aliases=("highcard",),
    title="High card",
    rule_sections="none (a test game)",
    engine=hc.HighCard(),
    records=records_in(hc),
    config=ConfigSection("high_card", parse, EXAMPLE),
    places=Places("sides", lambda rules: 2),
    family="high-card",
    devices=("shoe",),
    audit=audit,
    alerts=alerts,
    demo="tests.toy_game.demo",
    screens="tests.toy_game.screens",
    default_rules=hc.HighCardRules,
    table_prefix="HC",
    round_word="round",
    screen_rules=rules_but("minimum", "maximum"),  # the sign reads the limits afresh
)

register(SPEC)  # the one registry line
