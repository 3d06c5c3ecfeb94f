"""Replay audit of blackjack and Touch 21 (rule 2.8): every payout made during a round (a
blackjack paid at once, even money, a surrender), every settlement and every void's list of
bets handed back is recomputed from the cards and decisions."""

from __future__ import annotations

from typing import Any

from kiosk.rules.audit import (
    BetDrawn,
    HandDrawn,
    ReplayReport,
    RoundDrawing,
    RoundReplay,
    Row,
    odds_words,
    outcome_word,
)
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import encode


def audit(state: bj.BlackjackState, op: Any, row: Row, report: ReplayReport) -> None:
    if isinstance(op, bj.RoundSettled):
        report.rounds.append(_drawn(state, _with_outcome(_audit_round(state, op, row))))
    elif isinstance(op, bj.RoundVoided):
        report.rounds.append(_drawn(state, _with_outcome(_audit_void(state, op, row))))
    elif isinstance(op, bj.BlackjackPaid | bj.Surrendered | bj.EvenMoneyTaken):
        _audit_early(state, op, row, report)


def _with_outcome(coup: RoundReplay) -> RoundReplay:
    """"dealer 10 7; box 1/1 A K" (every hand's cards), and a void's reason."""
    hands = "; ".join(f"{k} {' '.join(v)}" for k, v in (coup.hands or {}).items())
    coup.outcome = (f"voided: {coup.reason}; {hands}" if coup.status == "voided" else hands)
    return coup


def _drawn(state: bj.BlackjackState, coup: RoundReplay) -> RoundReplay:
    coup.drawing = draw(state, coup)
    return coup


def draw(state: bj.BlackjackState, coup: RoundReplay) -> RoundDrawing:
    """The round for an inspector: the dealer's hand and each box's, each with its total,
    and every bet settled in it (paid during the round too), or a void's bets handed back."""
    hands = [HandDrawn("dealer", tuple(c.code for c in state.dealer),
                       str(state.dealer_total) if state.dealer_points else "",
                       "blackjack" if state.dealer_blackjack else "")]
    for h in state.hands:
        note = ("blackjack" if h.blackjack else "doubled" if h.doubled else
                "split" if h.split else "")
        hands.append(HandDrawn(f"box {h.box}/{h.number}", tuple(c.code for c in h.cards),
                               str(h.total) if h.points else "", note))
    bets = tuple(
        BetDrawn(f"box {s['box']}" + (" insurance" if s["kind"] == "insurance"
                                      else f"/{s['hand']}") + f", player {s['player']}",
                 int(s["stake"]), outcome_word(str(s["outcome"])), int(s["paid"]),
                 int(s["returned"]), f"pays {odds_words(s['odds'])}" if s["paid"] else "")
        for s in coup.settlements)
    if coup.status == "voided":
        return RoundDrawing(state.rules.currency, tuple(hands), f"void: {coup.reason}",
                            bets=bets, voided=True)
    dealer = (coup.result or {}).get("dealer_total")
    said = ("dealer has blackjack" if state.dealer_blackjack else
            f"dealer busts with {dealer}" if isinstance(dealer, int) and dealer > 21 else
            f"dealer stands on {dealer}" if dealer is not None else "dealer did not draw")
    return RoundDrawing(state.rules.currency, tuple(hands), said, bets=bets)


def _hands(state: bj.BlackjackState) -> dict[str, list[str]]:
    out = {"dealer": [c.code for c in state.dealer]}
    for h in state.hands:
        out[f"box {h.box}/{h.number}"] = [c.code for c in h.cards]
    return out


def _audit_early(state: bj.BlackjackState, op: Any, row: Row, report: ReplayReport) -> None:
    """A payout made during the round, recomputed at the moment it was made."""
    if isinstance(op, bj.BlackjackPaid):
        again: Any = bj.pay_blackjack(state)
        got, want = op.settlements, again.settlements
    elif isinstance(op, bj.Surrendered):
        again = bj.surrender(state, op.players[1:])
        got, want = op.settlements, again.settlements
    else:
        again = bj.take_even_money(state, op.box, op.player)
        got, want = (op.settlement,), (again.settlement,)
    if got != want:
        report.problems.append(f"row {row.seq}: {row.kind} recorded "
                               f"{[encode(s) for s in got]}, recomputed "
                               f"{[encode(s) for s in want]}")


def _audit_void(state: bj.BlackjackState, op: bj.RoundVoided, row: Row) -> RoundReplay:
    """A void hands back every bet not yet settled: recomputed, and compared with what the
    journal lists (rows written before the list was recorded have no `returned` at all;
    an empty list is a list, compared like any other)."""
    out = RoundReplay(op.round, "voided", row.seq, row.wall_time, hands=_hands(state),
                     reason=op.reason)
    expected = bj.void_returns(state)
    out.settlements = [encode(s) for s in expected]
    if "returned" in row.payload and op.returned != expected:
        out.differences.append(f"returned {[encode(s) for s in op.returned]}, recomputed "
                               f"{[encode(s) for s in expected]}")
    return out


def _audit_round(state: bj.BlackjackState, op: bj.RoundSettled, row: Row) -> RoundReplay:
    out = RoundReplay(op.round, "settled", row.seq, row.wall_time, hands=_hands(state))
    diffs = out.differences
    try:
        expected = bj.confirm_payouts(state)
    except TablesideError as exc:
        diffs.append(f"settled although {exc}")
        out.settlements = [encode(s) for s in op.settlements]
        return out
    out.result = {"dealer_total": state.dealer_total.best if state.dealer_points else None,
                  "dealer_blackjack": state.dealer_blackjack}
    out.settlements = [encode(s) for s in (*expected.settlements, *expected.paid_earlier)]
    if op.dealer_cards != expected.dealer_cards or op.hands != expected.hands:
        diffs.append("the cards recorded with the settlement differ from the cards dealt")
    recorded = {(s.box, s.hand, s.player, s.kind): s for s in op.settlements}
    for s in expected.settlements:
        r = recorded.pop((s.box, s.hand, s.player, s.kind), None)
        where = f"box {s.box} hand {s.hand} player {s.player} {s.kind.value}"
        if r is None:
            diffs.append(f"{where}: stake {s.stake} was never settled")
        elif r != s:
            diffs.append(f"{where}: recorded {encode(r)}, recomputed {encode(s)}")
    for (box, hand, player, kind), r in recorded.items():
        diffs.append(f"box {box} hand {hand} player {player} {kind.value}: settled "
                     f"{r.stake} that was never staked")
    return out
