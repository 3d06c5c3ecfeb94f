"""Golden blackjack rounds: each file in tests/rules/golden/blackjack/ is a round (or a shoe)
written by hand from the rules, in a small script, with the expected money for every bet.

Script lines (one action each, through the engine's own actions):
    ready [cut_at from_back]        shuffle by hand, box 1 cuts, the first card burned
    bet BOX AMOUNT [PLAYER]         amounts in rand (whole units)
    close                           no more bets
    cards C C C ...                 cards from the shoe, each must be dealt
    query C                         a card from the shoe that must be queried
    stand | draw-nothing
    double [BEHIND ...]             the caller doubles; players behind who double too
    split [P=first|second|both ...] the caller splits; players behind choose
    surrender [BEHIND ...]
    pay                             pay the blackjack in turn
    insure BOX PLAYER AMOUNT | even BOX PLAYER | close-insurance | check
    step TEXT                       next_step must contain TEXT
    refuse ACTION ... -> CLAUSE     the action must be refused citing CLAUSE ("-": none)
    set-aside                       the queried card is set aside
    settle                          confirm payouts

`expect` maps "box/hand/player/kind" to the player's net in rand ("-50", "75", "12.5").
The expected values are worked out by hand from the rules, never written by the engine.
"""

from __future__ import annotations

import json
import shlex
from decimal import Decimal
from pathlib import Path
from typing import Any

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.errors import NotAllowed
from kiosk.rules.operations import decode, encode
from tests.rules.blackjack.table import Table, nets

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "blackjack"


def golden_names() -> list[str]:
    return sorted(p.stem for p in GOLDEN.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def rules_of(golden: dict[str, Any]) -> BlackjackRules:
    base = encode(BlackjackRules.touch_21() if golden.get("variant") == "touch-21"
                  else BlackjackRules())
    base.update(golden.get("rules", {}))
    rules: BlackjackRules = decode(BlackjackRules, base)
    return rules


def cents(text: str) -> int:
    return int(Decimal(text) * 100)


def _action(table: Table, words: list[str]) -> Any:
    """The engine action a script line names, as a callable on the state."""
    verb, args = words[0], words[1:]
    if verb == "stand":
        return bj.stand
    if verb == "double":
        return lambda s: bj.double(s, args)
    if verb == "surrender":
        return lambda s: bj.surrender(s, args)
    if verb == "split":
        follow = {p: bj.Follow(c) for p, c in (a.split("=") for a in args)}
        return lambda s: bj.split(s, follow)
    if verb == "pay":
        return bj.pay_blackjack
    if verb == "close":
        return bj.close_betting
    if verb == "bet":
        box, amount = int(args[0]), cents(args[1])
        player = args[2] if len(args) > 2 else "A"
        return lambda s: bj.place_bet(s, box, amount, player)
    if verb == "insure":
        return lambda s: bj.insure(s, int(args[0]), args[1], cents(args[2]))
    if verb == "even":
        return lambda s: bj.take_even_money(s, int(args[0]), args[1])
    if verb == "close-insurance":
        return bj.close_insurance
    if verb == "check":
        return bj.check_blackjacks
    if verb == "settle":
        return bj.confirm_payouts
    if verb == "set-aside":
        return bj.set_aside_card
    raise ValueError(f"unknown script verb {verb!r}")


def run(golden: dict[str, Any]) -> tuple[Table, list[bj.RoundSettled]]:
    table = Table(rules_of(golden))
    settled: list[bj.RoundSettled] = []
    for line in golden["script"]:
        words = shlex.split(line)
        verb = words[0]
        if verb == "ready":
            nums = [int(w) for w in words[1:]]
            table.ready(*nums)
        elif verb == "cards":
            table.cards(" ".join(words[1:]))
        elif verb == "query":
            op = table.card(words[1])
            assert isinstance(op, bj.CardQueried), f"{line}: {op}"
        elif verb == "step":
            text = " ".join(words[1:])
            assert text in bj.next_step(table.state), (line, bj.next_step(table.state))
        elif verb == "refuse":
            arrow = words.index("->")
            clause: str | None = " ".join(words[arrow + 1:])
            clause = None if clause == "-" else clause
            action = _action(table, words[1:arrow])
            try:
                action(table.state)
            except NotAllowed as exc:
                assert exc.clause == clause, f"{line}: refused citing {exc.clause!r}: {exc}"
            else:
                raise AssertionError(f"{line}: was allowed")
        else:
            op = table.do(_action(table, words))
            if isinstance(op, bj.RoundSettled):
                settled.append(op)
    return table, settled


def money(settled: list[bj.RoundSettled]) -> dict[str, str]:
    out: dict[str, int] = {}
    for r in settled:
        for (box, hand, player, kind), net in nets(r).items():
            key = f"{box}/{hand}/{player}/{kind}"
            out[key] = out.get(key, 0) + net
    return {k: str(Decimal(v) / 100) for k, v in sorted(out.items())}
