"""Replay's audit of roulette (rule 2.8): every settled spin's payouts recomputed per colour
from the bets on record and the number called; a number keyed in by hand, a no spin, a no bet
and a spin the same way as the last are said in the spin's line."""

from __future__ import annotations

from typing import Any

from kiosk.rules.audit import CoupReplay, ReplayReport, Row
from kiosk.rules.errors import TablesideError
from kiosk.rules.roulette import engine as rl


def _hands(state: rl.RouletteState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for b in state.layout:
        out.setdefault(b.colour, []).append(f"{b.placement.place} x{b.placement.chips}")
    return out


def audit(state: rl.RouletteState, op: Any, row: Row, report: ReplayReport) -> None:
    if isinstance(op, rl.SpinVoided):
        voided = CoupReplay(op.spin, "voided", row.seq, row.wall_time, hands=_hands(state),
                            reason="; ".join((*state.notes, op.reason)))
        voided.outcome = f"no spin: {voided.reason}"
        report.coups.append(voided)
        return
    if not isinstance(op, rl.SpinSettled):
        return
    out = CoupReplay(op.spin, "settled", row.seq, row.wall_time, hands=_hands(state),
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
    report.coups.append(out)


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
