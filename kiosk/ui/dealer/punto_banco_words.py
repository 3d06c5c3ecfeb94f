"""The punto banco dealer screen's words: pure functions from the state to the text an area
tile and the area panel show (no Kivy; tested without drawing). The screen
(`punto_banco.py`) places them.

Colour is never the only signal: what to do with each bet is a word (pay, take,
stands off) in the tile and in the panel, whatever colour it is drawn in. The words are in
the dealer's language (kiosk/i18n.py); the bets are named as the players' sign names them."""

from __future__ import annotations

from kiosk.i18n import N_, _, percent, pgettext
from kiosk.rules.baccarat import engine as pb
from kiosk.ui.dealer.payout_words import PanelRow, money, tile_money

KIND_NAME = {pb.BetKind.BANKER: N_("Banker"), pb.BetKind.PLAYER: N_("Player"),
             pb.BetKind.TIE: N_("Tie")}


def kind_short(kind: pb.BetKind) -> str:
    """A bet's initial in a tile ("B 500"), as the bead plate on the sign writes it."""
    if kind is pb.BetKind.BANKER:
        # TRANSLATORS: a bet's initial in the dealer's area tiles ("B R500"): the initial
        # of Banker, Player and Tie as the sign's bead plate writes them.
        return pgettext("bet", "B")
    if kind is pb.BetKind.PLAYER:
        return pgettext("bet", "P")
    return pgettext("bet", "T")


def kind_name(kind: pb.BetKind) -> str:
    """A bet's name, as the felt and the sign name it."""
    return _(KIND_NAME[kind])


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
                lines.append(f"{kind_short(kind)} {tile_money(amount, cur)}")
    owed = state.owed_by(area)
    if owed:
        # TRANSLATORS: in an area's tile: the commission it owes (rule 5.7).
        lines.append(_("owes %(amount)s") % {"amount": tile_money(owed, cur)})
    return "\n".join(lines)


def area_title(area: str) -> str:
    if area == pb.STANDING:
        # TRANSLATORS: the betting area of the players standing behind the seats.
        return _("Standing")
    return _("Area %(area)s") % {"area": area}


def settled_line(x: pb.BetSettlement, currency: str = "") -> str:
    """One bet's settlement in a tile, in words: "B pay", "T take", "P stands off". How
    much is in the area panel, in large type: a tile at 800x480 is 80 pixels wide."""
    kind = kind_short(x.kind)
    if x.outcome is pb.Outcome.WIN:
        # TRANSLATORS: in a tile 80 pixels wide: the bet's initial and what the dealer
        # does with it. Keep these three short.
        return _("%(bet)s pay") % {"bet": kind}
    if x.outcome is pb.Outcome.STAND_OFF:
        return _("%(bet)s stands off") % {"bet": kind}
    return _("%(bet)s take") % {"bet": kind}


def area_panel(state: pb.PuntoBancoState, area: str,
               settlements: tuple[pb.BetSettlement, ...] = ()) -> list[PanelRow]:
    """The selected area in large type: each bet, and when paying what to do with it in
    words and the amount (rule 5.7), with any commission it owes."""
    cur = state.rules.currency
    rows: list[PanelRow] = []
    if settlements:
        for x in (s for s in settlements if s.area == area):
            bet = {"bet": kind_name(x.kind), "stake": money(x.stake, cur)}
            if x.outcome is pb.Outcome.WIN:
                odds = f"{x.odds.numerator}:{x.odds.denominator}"
                rows.append(PanelRow(_("%(bet)s %(stake)s wins %(odds)s")
                                     % {**bet, "odds": odds},
                                     pay_words(money(x.paid, cur)), "pay"))
                if x.commission:
                    rows.append(PanelRow(_("%(rate)s commission owed")
                                         % {"rate": percent(state.rules.commission_rate)},
                                         owes_words(money(x.commission, cur)), "owe"))
            elif x.outcome is pb.Outcome.STAND_OFF:
                rows.append(PanelRow(_("%(bet)s %(stake)s: a tie stands it off (rule 5.7)")
                                     % bet,
                                     # TRANSLATORS: in large type: the bet stays where it is.
                                     _("STANDS OFF"), "even"))
            else:
                rows.append(PanelRow(_("%(bet)s %(stake)s loses") % bet,
                                     take_words(money(x.stake, cur)), "take"))
    else:
        for kind in pb.BetKind:
            amount = state.bet_total(area, kind)
            if amount:
                rows.append(PanelRow(_("%(bet)s bet") % {"bet": kind_name(kind)},
                                     money(amount, cur), "bet"))
    owed = state.owed_by(area)
    if owed and not settlements:
        rows.append(PanelRow(_("Commission owed (rule 5.7)"), owes_words(money(owed, cur)),
                             "owe"))
    return rows


def pay_words(amount: str) -> str:
    # TRANSLATORS: what the dealer does, in large type beside the bet: "PAY R9,500". These
    # are the words the dealer pays from: keep them short, in capitals.
    return _("PAY %(amount)s") % {"amount": amount}


def take_words(amount: str) -> str:
    return _("TAKE %(amount)s") % {"amount": amount}


def owes_words(amount: str) -> str:
    # TRANSLATORS: the commission the area owes the house (rule 5.7), in large type.
    return _("OWES %(amount)s") % {"amount": amount}
