"""The roulette dealer screen's payout words (pure: no Kivy): each colour's settlement of
the spin (rule 3.5) as a payout block, in large type on the payout sheet."""

from __future__ import annotations

from kiosk.rules.money import format_money
from kiosk.rules.roulette import engine as rl
from kiosk.ui.dealer.payout_words import PanelBlock, PanelRow


def colour_blocks(state: rl.RouletteState) -> list[PanelBlock]:
    """Every colour on the layout this spin: what it wins, in its own chips and in value
    chips, and what comes off the layout (rule 3.5)."""
    settled = rl.settlement(state)
    cur = state.rules.currency
    blocks = []
    for p in settled.payouts:
        rows = []
        if p.won:
            rows.append(PanelRow(f"{p.won} chips won, {p.stakes_back} stay on the layout",
                                 f"PAY {p.colour_chips} CHIPS", "pay"))
            if p.cash:
                rows.append(PanelRow("the rest in value chips",
                                     f"PAY {format_money(p.cash, cur)}", "pay"))
        if p.lost:
            rows.append(PanelRow(f"{p.lost} chips on losing bets", f"TAKE {p.lost} CHIPS",
                                 "take"))
        blocks.append(PanelBlock(p.colour.capitalize(), tuple(rows)))
    return blocks
