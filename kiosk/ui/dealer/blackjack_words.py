"""The blackjack dealer screen's words: pure functions from the state to the text the screen
shows (no Kivy; tested without drawing), in the dealer's language (kiosk/i18n.py), amounts in
the house's money style. The screen (`blackjack.py`) only places them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.i18n import N_, _, ngettext, pgettext, said
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.hands import Total
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.blackjack.settle import BetKind, Outcome, Settlement
from kiosk.rules.errors import TablesideError
from kiosk.rules.money import format_ratio
from kiosk.ui.dealer.payout_words import PanelBlock, PanelRow, money, tile_money

# TRANSLATORS: what the dealer does with a settled bet, one short word in a box's tile
# ("pay 3 · take 1"): pay it, it stands off, hand it back, take it.
OUTCOME_WORD = {Outcome.WIN: N_("pay"), Outcome.BLACKJACK: N_("pay"),
                Outcome.EVEN_MONEY: N_("pay"), Outcome.PUSH: N_("push"),
                Outcome.RETURNED: N_("back"), Outcome.SURRENDER: N_("back"),
                Outcome.LOSE: N_("take")}
"""What the dealer does with a settled bet, in one word (the tiles); `_()` where shown."""


def decks_words(halves: int) -> str:
    """A position entered in half decks: "½ deck", "1 deck", "1½ decks"."""
    whole, half = divmod(halves, 2)
    text = (str(whole) if whole else "") + ("½" if half else "")
    return ngettext("%(n)s deck", "%(n)s decks", 1 if halves <= 2 else 2) % {"n": text}


def dealer_rule(rules: BlackjackRules) -> str:
    """The dealer's drawing rule (rules 4.2, 7.2): the English of the players' sign, in
    words short enough for the line under DEALER (the sign has room for longer ones)."""
    if rules.dealer_hits_soft_17:
        # TRANSLATORS: the dealer's drawing rule on the dealer screen, on one line about
        # 240 pixels wide at 800x480: shorter than the sign's words for it if need be.
        return pgettext("dealer screen", "Dealer draws to soft 17, stands on hard 17")
    return pgettext("dealer screen", "Dealer draws to 16, stands on all 17s")


def total_words(t: Total) -> str:
    """A total as a dealer says it: "soft 17 / 7", "hard 12" reads "12", "bust (24)"."""
    if t.bust:
        return _("bust (%(total)s)") % {"total": t.hard}
    if t.soft and t.best != 21:
        # TRANSLATORS: a soft total and its hard count: "soft 17 / 7".
        return _("soft %(best)s / %(hard)s") % {"best": t.best, "hard": t.hard}
    return str(t.best)


def hand_label(h: bj.PlayerHand) -> str:
    """A hand in words: "box 3", or "box 3, hand 2" once the box is split."""
    if h.split:
        return _("box %(box)s, hand %(hand)s") % {"box": h.box, "hand": h.number}
    return _("box %(box)s") % {"box": h.box}


def pay_words(amount: str) -> str:
    # TRANSLATORS: what the dealer does, in large type beside the bet: "PAY R9,500". These
    # are the words the dealer pays from: keep them short, in capitals.
    return _("PAY %(amount)s") % {"amount": amount}


def take_words(amount: str) -> str:
    return _("TAKE %(amount)s") % {"amount": amount}


def back_words(amount: str) -> str:
    # TRANSLATORS: in large type: hand the bet (or this much of it) back to the player.
    return _("BACK %(amount)s") % {"amount": amount}


def settlement_row(x: Settlement, currency: str) -> PanelRow:
    """One player's settlement on one hand (or their insurance), as the dealer pays it: what
    the bet was, and what to do, in words (colour is never the only signal)."""

    def m(cents: int) -> str:
        return money(cents, currency)

    bet = {"player": x.player, "stake": m(x.stake)}
    what = (_("%(player)s insurance %(stake)s") if x.kind is BetKind.INSURANCE
            else _("%(player)s bet %(stake)s")) % bet
    if x.outcome is Outcome.BLACKJACK:
        # the house's blackjack odds, as the engine paid them (3:2, or 6:5 where set)
        return PanelRow(_("%(bet)s blackjack %(odds)s") % {"bet": what,
                                                           "odds": format_ratio(x.odds)},
                        pay_words(m(x.paid)), "pay")
    if x.outcome is Outcome.EVEN_MONEY:
        return PanelRow(_("%(bet)s even money") % {"bet": what}, pay_words(m(x.paid)), "pay")
    if x.outcome is Outcome.WIN:
        return PanelRow(_("%(bet)s wins %(odds)s") % {"bet": what,
                                                      "odds": format_ratio(x.odds)},
                        pay_words(m(x.paid)), "pay")
    if x.outcome is Outcome.PUSH:
        # TRANSLATORS: in large type: the bet neither wins nor loses (a stand off).
        return PanelRow(_("%(bet)s: a stand off") % {"bet": what}, _("PUSH"), "even")
    if x.outcome is Outcome.RETURNED:
        return PanelRow(_("%(bet)s: handed back") % {"bet": what}, back_words(m(x.returned)),
                        "even")
    if x.outcome is Outcome.SURRENDER:
        return PanelRow(_("%(bet)s surrendered") % {"bet": what}, back_words(m(x.returned)),
                        "even")
    take = take_words(m(x.stake - x.returned))
    if x.returned:
        take += ", " + back_words(m(x.returned))
    return PanelRow(_("%(bet)s loses") % {"bet": what}, take, "take")


def stake_lines(state: bj.BlackjackState, box: int) -> list[str]:
    """The bets on a box before the deal, the caller's first (rule 4.2 item 2): "A R100",
    "B R50"; with players behind, the last line says who calls ("A calls"), so a line
    stays short enough to read in a box a seventh of a small screen wide."""
    cur = state.rules.currency
    stakes = state.stakes_on(box)
    lines = [f"{s.player} {tile_money(s.amount, cur)}" for s in stakes]
    if len(stakes) > 1:
        # TRANSLATORS: the last line of a box's tile when players play behind: who calls
        # the box (rule 4.2 item 2), "A calls". A tile is narrow.
        lines.append(_("%(player)s calls") % {"player": stakes[0].player})
    return lines


def hand_total_words(h: bj.PlayerHand) -> str:
    if not h.points:
        return ""
    if h.blackjack:
        return _("Blackjack")
    t = h.total
    if h.finished and not t.bust:
        return str(t.best)  # a finished hand has one total: "19", not "soft 19 / 9"
    return total_words(t)


@dataclass(frozen=True, slots=True)
class HandShown:
    """One hand as a box tile draws it: its cards, its total and one short line (what to do
    with its bets when paying; whose bets they are before). The whole of it, every player's
    amount, is in the box's payout sheet (`box_blocks`)."""

    cards: tuple[tuple[str, bool, bool], ...]  # (code, face down, needs a decision)
    total: str
    detail: str
    turn: bool


def _hand_rows(state: bj.BlackjackState, h: bj.PlayerHand,
               open_rows: tuple[Settlement, ...]) -> list[tuple[bj.HandBet, list[Settlement]]]:
    """Each bet on a hand with its settlements (paid during the round, or now)."""
    out = []
    for b in h.bets:
        earlier = [x for x in state.paid if (x.box, x.hand, x.player) ==
                   (h.box, h.number, b.player) and x.kind is BetKind.HAND]
        now = [x for x in open_rows if (x.box, x.hand, x.player) ==
               (h.box, h.number, b.player) and x.kind is BetKind.HAND]
        out.append((b, earlier if earlier and not b.active else now))
    return out


def _open_rows(state: bj.BlackjackState) -> tuple[Settlement, ...]:
    paying = state.phase is bj.Phase.PAYING and state.pending is None
    return bj.settlement(state) if paying else ()


def _short(bets: list[tuple[bj.HandBet, list[Settlement]]], currency: str) -> str:
    """A hand's bets in a few words: "A R100", "4 bets", "pay 3 · take 1"."""
    words = [_(OUTCOME_WORD[x.outcome]) for _b, xs in bets for x in xs]
    if words:
        counts = {w: words.count(w) for w in dict.fromkeys(words)}
        return " · ".join(w if n == 1 else f"{w} {n}" for w, n in counts.items())
    if len(bets) == 1:
        b = bets[0][0]
        return f"{b.player} {tile_money(b.stake, currency)}" + (" " + _("doubled") if b.doubled
                                                                 else "")
    doubled = " " + _("doubled") if any(b.doubled for b, _x in bets) else ""
    return ngettext("%(n)s bet", "%(n)s bets", len(bets)) % {"n": len(bets)} + doubled


def hands_shown(state: bj.BlackjackState, box: int) -> list[HandShown]:
    """The hands of a box with their bets, or when the round is complete their settlement."""
    cur = state.rules.currency
    open_rows = _open_rows(state)
    current = state.current
    pending = state.pending
    out = []
    for h in state.hands:
        if h.box != box:
            continue
        cards = [(c.code, False, False) for c in h.cards]
        if pending is not None and (pending.box, pending.hand) == (h.box, h.number):
            cards.append((pending.card.code if pending.card else "", pending.card is None,
                          True))
        turn = (current is not None and state.phase is bj.Phase.PLAYING
                and (current.box, current.number) == (h.box, h.number))
        out.append(HandShown(tuple(cards), hand_total_words(h),
                             _short(_hand_rows(state, h, open_rows), cur), turn))
    return out


def insurance_lines(state: bj.BlackjackState, box: int) -> list[str]:
    cur = state.rules.currency
    if state.phase is bj.Phase.PAYING and state.pending is None:
        return [_("%(player)s insurance %(what)s") % {"player": x.player,
                                                       "what": _(OUTCOME_WORD[x.outcome])}
                for x in bj.settlement(state) if x.box == box and x.kind is BetKind.INSURANCE]
    return [_("%(player)s insured %(amount)s") % {"player": i.player,
                                                   "amount": tile_money(i.amount, cur)}
            for i in state.insurance if i.box == box]


def box_blocks(state: bj.BlackjackState, box: int) -> list[PanelBlock]:
    """Everything on a box in large type, a block per hand (and one for insurance): each
    player's bet, and once settled what to pay, take or hand back and how much."""
    cur = state.rules.currency
    open_rows = _open_rows(state)
    hands = [h for h in state.hands if h.box == box]
    blocks = []
    for h in hands:
        rows: list[PanelRow] = []
        for b, xs in _hand_rows(state, h, open_rows):
            if xs:
                rows += [settlement_row(x, cur) for x in xs]
            else:
                rows.append(PanelRow((_("%(player)s bet (doubled)") if b.doubled
                                      else _("%(player)s bet")) % {"player": b.player},
                                     money(b.stake, cur), "bet"))
        total = hand_total_words(h)
        title = (_("Hand %(hand)s") % {"hand": h.number} if len(hands) > 1
                 else box_title(box))
        blocks.append(PanelBlock(f"{title}: {total}" if total else title, tuple(rows)))
    if not hands:
        rows = [PanelRow(_("%(player)s bet") % {"player": s.player}, money(s.amount, cur),
                         "bet")
                for s in state.stakes_on(box)]
        blocks.append(PanelBlock(box_title(box), tuple(rows)))
    settled = [x for x in open_rows if x.box == box and x.kind is BetKind.INSURANCE]
    insured = [i for i in state.insurance if i.box == box]
    if settled:
        blocks.append(PanelBlock(_("Insurance"), tuple(settlement_row(x, cur)
                                                        for x in settled)))
    elif insured:
        blocks.append(PanelBlock(_("Insurance"), tuple(
            PanelRow(_("%(player)s insured") % {"player": i.player}, money(i.amount, cur),
                     "bet")
            for i in insured)))
    return blocks


def box_title(box: int) -> str:
    """A box's name on its tile and over its payouts: "Box 3"."""
    return _("Box %(box)s") % {"box": box}


def allowed(verify: Callable[..., None], *args: Any) -> tuple[bool, str]:
    """The engine's `verify_` as (allowed, its sentence when not, in the dealer's language:
    for the screen only)."""
    try:
        verify(*args)
    except TablesideError as exc:
        return False, said(exc.sentence, str(exc))
    return True, ""
