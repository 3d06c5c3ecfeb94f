"""The roulette dealer screen's words (pure: no Kivy), in the dealer's language, amounts in
the house's money style: each colour's settlement of the spin (rule 3.5) as a payout block,
in large type on the payout sheet, and the words the screen's corners and buttons hold."""

from __future__ import annotations

from kiosk.i18n import N_, _
from kiosk.rules.roulette import engine as rl
from kiosk.rules.roulette.wheel import Colour, colour_of
from kiosk.ui.dealer.payout_words import PanelBlock, PanelRow, money

# TRANSLATORS: the colours of the players' wheel chips (rule 3.5), on the dealer's buttons.
CHIP_COLOUR_NAMES = {"pink": N_("Pink"), "yellow": N_("Yellow"), "blue": N_("Blue"),
                     "green": N_("Green"), "purple": N_("Purple"), "orange": N_("Orange"),
                     "brown": N_("Brown"), "white": N_("White"), "grey": N_("Grey"),
                     "lime": N_("Lime")}
"""Every colour of `rl.COLOURS`, as the dealer calls it."""
POCKET_WORDS = {Colour.RED: N_("%(number)s red"), Colour.BLACK: N_("%(number)s black"),
                Colour.GREEN: N_("%(number)s green")}
"""The winning number and its colour, as the players' sign calls it."""


def colour_name(colour: str) -> str:
    """A player's chip colour by name ("Pink"); a colour the screen does not know, as is."""
    name = CHIP_COLOUR_NAMES.get(colour)
    return _(name) if name else colour.capitalize()


def pocket_words(number: str) -> str:
    """The winning number and its colour: "17 black"."""
    return _(POCKET_WORDS[colour_of(number)]) % {"number": number}


def payout_words(pay: rl.ColourPayout, rules: rl.RouletteRules) -> str:
    """Rule 3.5 as the dealer pays it: "Pink: 35 chips + R0 in cash value"."""
    return _("%(colour)s: %(chips)s chips + %(cash)s in cash value") % {
        "colour": colour_name(pay.colour), "chips": pay.colour_chips,
        "cash": money(pay.cash, rules.currency)}


def colour_blocks(state: rl.RouletteState) -> list[PanelBlock]:
    """Every colour on the layout this spin: what it wins, in its own chips and in value
    chips, and what comes off the layout (rule 3.5)."""
    settled = rl.settlement(state)
    cur = state.rules.currency
    blocks = []
    for p in settled.payouts:
        rows = []
        if p.won:
            rows.append(PanelRow(_("%(won)s chips won, %(back)s stay on the layout")
                                 % {"won": p.won, "back": p.stakes_back},
                                 # TRANSLATORS: in large type: pay the player this many of
                                 # their own colour's chips.
                                 _("PAY %(n)s CHIPS") % {"n": p.colour_chips}, "pay"))
            if p.cash:
                rows.append(PanelRow(_("the rest in value chips"),
                                     _("PAY %(amount)s") % {"amount": money(p.cash, cur)},
                                     "pay"))
        if p.lost:
            rows.append(PanelRow(_("%(n)s chips on losing bets") % {"n": p.lost},
                                 _("TAKE %(n)s CHIPS") % {"n": p.lost}, "take"))
        blocks.append(PanelBlock(colour_name(p.colour), tuple(rows)))
    return blocks
