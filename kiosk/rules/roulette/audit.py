"""Replay's audit of roulette (rule 2.8): every settled spin's payouts recomputed per colour
from the bets on record and the number called; a number keyed in by hand, a no spin, a no bet
and a spin the same way as the last are said in the spin's line."""

from __future__ import annotations

from typing import Any

from kiosk.rules.audit import BetDrawn, ReplayReport, RoundDrawing, RoundReplay, Row
from kiosk.rules.errors import TablesideError
from kiosk.rules.roulette import engine as rl
from kiosk.rules.roulette.bets import PAYS
from kiosk.rules.roulette.wheel import colour_of


def _hands(state: rl.RouletteState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for b in state.layout:
        out.setdefault(b.colour, []).append(f"{b.placement.place} x{b.placement.chips}")
    return out


def audit(state: rl.RouletteState, op: Any, row: Row, report: ReplayReport) -> None:
    if isinstance(op, rl.SpinVoided):
        voided = RoundReplay(op.spin, "voided", row.seq, row.wall_time, hands=_hands(state),
                            reason="; ".join((*state.notes, op.reason)))
        voided.outcome = f"no spin: {voided.reason}"
        voided.drawing = draw(state, voided)
        report.rounds.append(voided)
        return
    if not isinstance(op, rl.SpinSettled):
        return
    out = RoundReplay(op.spin, "settled", row.seq, row.wall_time, hands=_hands(state),
                     reason="; ".join(state.notes))
    try:
        again = rl.settlement(state)
    except TablesideError as exc:
        out.differences.append(f"settled although {exc}")
    else:
        out.result = {"number": again.number}
        out.settlements = [
            {"colour": p.colour, "staked": p.staked, "won": p.won, "stakes_back": p.stakes_back,
             "lost": p.lost, "colour_chips": p.colour_chips, "cash": p.cash}
            for p in again.payouts]
        if again != op:
            out.differences.append(_difference(op, again))
    number = (out.result or {}).get("number", op.number)
    out.outcome = f"number {number}" + (f" ({out.reason})" if out.reason else "")
    out.drawing = draw(state, out, str(number))
    report.rounds.append(out)


def draw(state: rl.RouletteState, coup: RoundReplay, number: str = "") -> RoundDrawing:
    """The spin for an inspector: the number in its colour, and every bet on the layout by
    colour, at its colour's value a chip (rule 3.5: a winning bet is paid its odds and keeps
    its stake); a void's bets all handed back."""
    values = {s.colour: s.value_each for s in state.stacks}
    bets = []
    for b in state.layout:
        each = values.get(b.colour, 0)
        stake = b.placement.chips * each
        chips = f"{b.placement.chips} chip{'s' if b.placement.chips != 1 else ''}"
        if coup.status == "voided":
            bets.append(BetDrawn(f"{b.colour}: {b.placement.place}", stake, "handed back", 0,
                                 stake, chips))
        elif number in b.placement.numbers:
            paid = stake * PAYS[b.placement.kind]
            bets.append(BetDrawn(f"{b.colour}: {b.placement.place}", stake, "win", paid,
                                 stake + paid, f"{chips}, pays {PAYS[b.placement.kind]} to 1"))
        else:
            bets.append(BetDrawn(f"{b.colour}: {b.placement.place}", stake, "lose", 0, 0,
                                 chips))
    if coup.status == "voided":
        return RoundDrawing(state.rules.currency, winner=f"no spin: {coup.reason}",
                            bets=tuple(bets), voided=True)
    said = f"number {number}" + (f" ({coup.reason})" if coup.reason else "")
    return RoundDrawing(state.rules.currency, winner=said, number=number,
                        number_colour=str(colour_of(number)) if number else "",
                        bets=tuple(bets))


SAME_DIRECTION = "same_direction"
"""The alert a spin the same way as the one before raises at the pit (rule 3.2)."""


def alerts(op: Any) -> tuple[str, str] | None:
    """Roulette's records an inspector must see as alerts (`GameSpec.alerts`): a ball spun
    the same way as the spin before, where rule 3.2 wants each spin the other way."""
    if isinstance(op, rl.BallSpun) and op.same_direction:
        return SAME_DIRECTION, (f"spin {op.spin}: the ball was spun {op.direction.value}, the "
                                "same way as the spin before (rule 3.2)")
    return None


def _difference(recorded: rl.SpinSettled, again: rl.SpinSettled) -> str:
    if recorded.number != again.number:
        return f"recorded number {recorded.number}, the dolly was on {again.number}"
    rec = {p.colour: p for p in recorded.payouts}
    out = []
    for p in again.payouts:
        r = rec.pop(p.colour, None)
        if r != p:
            out.append(f"{p.colour}: recorded {_pay(r)}, recomputed {_pay(p)}")
    out.extend(f"{colour}: recorded {_pay(r)}, but it had no bets" for colour, r in rec.items())
    return "; ".join(out) or "the settlement differs"


def _pay(p: rl.ColourPayout | None) -> str:
    if p is None:
        return "nothing"
    return f"won {p.won} ({p.colour_chips} chips + {p.cash} cents), {p.stakes_back} back"
