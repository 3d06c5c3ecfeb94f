"""The punto banco dealer screen's words: pure functions from the state to the text an area
tile and the area panel show (no Kivy; tested without drawing). The screen
(`punto_banco.py`) places them.

Colour is never the only signal (issue 14): what to do with each bet is a word (pay, take,
stands off) in the tile and in the panel, whatever colour it is drawn in."""

from __future__ import annotations

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.money import format_money
from kiosk.ui.dealer.payout_words import PanelRow, tile_money

KIND_SHORT = {pb.BetKind.BANKER: "B", pb.BetKind.PLAYER: "P", pb.BetKind.TIE: "T"}
KIND_NAME = {pb.BetKind.BANKER: "Banker", pb.BetKind.PLAYER: "Player", pb.BetKind.TIE: "Tie"}


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
                lines.append(f"{KIND_SHORT[kind]} {tile_money(amount, cur)}")
    owed = state.owed_by(area)
    if owed:
        lines.append(f"owes {tile_money(owed, cur)}")
    return "\n".join(lines)


def area_title(area: str) -> str:
    return "Standing" if area == pb.STANDING else f"Area {area}"


def settled_line(x: pb.BetSettlement, currency: str = "") -> str:
    """One bet's settlement in a tile, in words: "B pay", "T take", "P stands off". How
    much is in the area panel, in large type: a tile at 800x480 is 80 pixels wide."""
    kind = KIND_SHORT[x.kind]
    if x.outcome is pb.Outcome.WIN:
        return f"{kind} pay"
    if x.outcome is pb.Outcome.STAND_OFF:
        return f"{kind} stands off"
    return f"{kind} take"


def area_panel(state: pb.PuntoBancoState, area: str,
               settlements: tuple[pb.BetSettlement, ...] = ()) -> list[PanelRow]:
    """The selected area in large type: each bet, and when paying what to do with it in
    words and the amount (rule 5.7), with any commission it owes."""
    cur = state.rules.currency
    rows: list[PanelRow] = []
    if settlements:
        for x in (s for s in settlements if s.area == area):
            stake = f"{KIND_NAME[x.kind]} {format_money(x.stake, cur)}"
            if x.outcome is pb.Outcome.WIN:
                odds = f"{x.odds.numerator}:{x.odds.denominator}"
                rows.append(PanelRow(f"{stake} wins {odds}",
                                     f"PAY {format_money(x.paid, cur)}", "pay"))
                if x.commission:
                    rows.append(PanelRow("5% commission owed",
                                         f"OWES {format_money(x.commission, cur)}", "owe"))
            elif x.outcome is pb.Outcome.STAND_OFF:
                rows.append(PanelRow(f"{stake}: a tie stands it off (rule 5.7)",
                                     "STANDS OFF", "even"))
            else:
                rows.append(PanelRow(f"{stake} loses", f"TAKE {format_money(x.stake, cur)}",
                                     "take"))
    else:
        for kind in pb.BetKind:
            amount = state.bet_total(area, kind)
            if amount:
                rows.append(PanelRow(f"{KIND_NAME[kind]} bet", format_money(amount, cur),
                                     "bet"))
    owed = state.owed_by(area)
    if owed and not settlements:
        rows.append(PanelRow("Commission owed (rule 5.7)", f"OWES {format_money(owed, cur)}",
                             "owe"))
    return rows
