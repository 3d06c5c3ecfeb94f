"""The punto banco dealer screen's words: pure functions from the state to the text an area
tile shows (no Kivy; tested without drawing). The screen (`punto_banco.py`) places them."""

from __future__ import annotations

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.money import format_money

KIND_SHORT = {pb.BetKind.BANKER: "B", pb.BetKind.PLAYER: "P", pb.BetKind.TIE: "T"}


def area_words(state: pb.PuntoBancoState, area: str,
               settlements: tuple[pb.BetSettlement, ...] = ()) -> str:
    """An area's tile: its bets while betting and dealing, each bet's settlement when paying
    (what to pay, take or leave), and any commission it owes (rule 5.7)."""
    cur = state.rules.currency
    lines: list[str] = []
    if settlements:
        lines = [settled_line(x, cur) for x in settlements if x.area == area]
    else:
        for kind in pb.BetKind:
            amount = state.bet_total(area, kind)
            if amount:
                lines.append(f"{KIND_SHORT[kind]} {format_money(amount, cur)}")
    owed = state.owed_by(area)
    if owed:
        lines.append(f"[color=#f2a900]owes {format_money(owed, cur)}[/color]")
    return "\n".join(lines)


def area_title(area: str) -> str:
    return "Standing" if area == pb.STANDING else f"Area {area}"


def settled_line(x: pb.BetSettlement, currency: str) -> str:
    kind = KIND_SHORT[x.kind]
    stake = format_money(x.stake, currency)
    if x.outcome is pb.Outcome.WIN:
        text = f"{kind} {stake} [color=#7ee08a]pay {format_money(x.paid, currency)}[/color]"
        if x.commission:
            text += f"\n[color=#f2a900]+{format_money(x.commission, currency)} comm.[/color]"
        return text
    if x.outcome is pb.Outcome.STAND_OFF:
        return f"{kind} {stake} [color=#b8cfc2]stands off[/color]"
    return f"{kind} {stake} [color=#ff8a80]take[/color]"
