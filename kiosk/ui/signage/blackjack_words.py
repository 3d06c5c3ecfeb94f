"""The players' sign's words for blackjack and Touch 21: pure functions from the table's
state to the headline, the hands and the limits the sign shows (no Kivy; tested without
drawing). The view (`blackjack_view.py`) only places them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from kiosk.i18n import _, money, number, odds, percent
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.hands import Total, is_blackjack, total
from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes
from kiosk.ui import theme


class Tone(StrEnum):
    BETS = "bets"
    CLOSED = "closed"
    SHUFFLE = "shuffle"
    RESULT = "result"
    WAIT = "wait"


# (fill, text, border) of the headline banner per tone.
TONE_COLOURS: dict[Tone, tuple[theme.RGBA, theme.RGBA, theme.RGBA]] = {
    Tone.BETS: (theme.FELT_DARK, theme.GOLD, theme.GOLD),
    Tone.CLOSED: (theme.IVORY, theme.INK, theme.GOLD),
    Tone.SHUFFLE: (theme.FELT_DARK, theme.IVORY, theme.GOLD),
    Tone.RESULT: (theme.BANKER, theme.WHITE, theme.GOLD),
    Tone.WAIT: (theme.FELT_DARK, theme.MUTED, theme.MUTED),
}


@dataclass(frozen=True, slots=True)
class Headline:
    text: str
    detail: str
    tone: Tone


def _round_started(state: bj.BlackjackState) -> bool:
    return bool(state.dealer) or any(h.cards for h in state.hands)


def headline(state: bj.BlackjackState | None) -> Headline:
    """What the players must know now, in the words the dealer calls."""
    if state is None:
        return Headline(_("Welcome"), _("The table opens shortly"), Tone.WAIT)
    rules = state.rules
    prep = state.prep
    if state.phase is bj.Phase.BETTING and prep.stage in (Stage.SHUFFLE, Stage.HAND_SHUFFLE):
        return Headline(_("Shuffling"), _("A new shoe is being prepared"),
                        Tone.SHUFFLE)  # rule 4.1
    if state.phase is bj.Phase.BETTING and prep.stage is Stage.CUT:
        box = prep.offered_to()
        who = (_("Box %(box)s is offered the cut") % {"box": box} if box is not None
               else _("A player cuts the cards"))
        return Headline(_("Cutting the cards"), who, Tone.SHUFFLE)  # rules 4.2-4.3
    if state.phase is bj.Phase.BETTING:
        return Headline(_("Place your bets"), _("Bets %(limits)s per box") % {
            "limits": limits_words(rules)}, Tone.BETS)  # rule 4.2 item 1
    if state.phase is bj.Phase.DEALING:
        return Headline(_("No more bets"), round_words(state.round), Tone.CLOSED)  # item 3
    if state.phase is bj.Phase.CHECK:  # Touch 21, rule 7.2 items 4-5
        return Headline(_("Check your cards"), _("A blackjack is turned face up"), Tone.CLOSED)
    if state.phase is bj.Phase.INSURANCE:  # rule 4.7; rule 7.2 item 6
        detail = _("Dealer shows an ace · insurance pays %(odds)s") % {
            "odds": odds(rules.insurance_odds)}
        if rules.even_money:
            detail += " · " + _("even money on a blackjack")
        return Headline(_("Insurance?"), detail, Tone.CLOSED)
    if state.phase is bj.Phase.PLAYING:
        cur = state.current
        text = (_("Box %(box)s to play") % {"box": cur.box} if cur is not None
                else _("No more bets"))
        return Headline(text, _("No more bets"), Tone.CLOSED)
    if state.phase is bj.Phase.DEALER:
        return Headline(_("Dealer's hand"), dealer_rule(rules), Tone.CLOSED)
    return Headline(dealer_words(state.dealer), _("Paying"), Tone.RESULT)


def round_words(n: int) -> str:
    return _("Round %(round)s") % {"round": number(n)}


def limits_words(rules: BlackjackRules) -> str:
    """ "R50 – R10,000": the table's limits per box (rule 2.2)."""
    return (f"{money(rules.minimum, rules.currency)} – "
            f"{money(rules.maximum, rules.currency)}")


def dealer_rule(rules: BlackjackRules) -> str:
    """The dealer's drawing rule as the sign shows it (rules 4.2, 7.2)."""
    if rules.dealer_hits_soft_17:
        return _("Dealer draws to soft 17, stands on hard 17")
    return _("Dealer draws to 16, stands on all 17s")


def hole_card(rules: BlackjackRules) -> str:
    """No hole card (docs/architecture.md): the dealer's second card comes after the
    players', so a player may double or split before it; what a dealer blackjack then takes
    is the house's setting (the sign says so)."""
    if rules.dealer_blackjack_takes is DealerBlackjackTakes.ORIGINAL:
        return _("No hole card: a dealer blackjack takes the original bets only; doubles and "
                 "splits go back")
    return _("No hole card: a dealer blackjack takes every bet, doubles and splits too")


def dealer_words(cards: tuple[Any, ...]) -> str:
    """ "Dealer 19", "Dealer blackjack", "Dealer busts with 24"."""
    if not cards:
        return _("No dealer card needed")
    t = total(cards)
    if is_blackjack(cards):
        return _("Dealer blackjack")
    if t.bust:
        return _("Dealer busts with %(total)s") % {"total": t.hard}
    return _("Dealer %(total)s") % {"total": t.best}


@dataclass(frozen=True, slots=True)
class DealerView:
    """The dealer's cards for the players: this round's while it is played, else the last."""

    title: str
    cards: tuple[str, ...]
    total: str
    words: str


def total_words(t: Total, *, final: bool) -> str:
    """The dealer's total in the big figures: "20"; a soft total still drawing as the pair
    players know, "7/17" (the dealer's words, "soft 17 / 7", do not fit); "Bust"."""
    if t.bust:
        return _("Bust")
    if t.soft and t.best != 21 and not final:
        return f"{t.hard}/{t.best}"
    return str(t.best)


def dealer_view(state: bj.BlackjackState | None) -> DealerView:
    if state is not None and _round_started(state):
        final = state.phase is bj.Phase.PAYING  # the headline says the dealer's result
        t = total_words(state.dealer_total, final=final) if state.dealer else ""
        return DealerView(round_words(state.round), tuple(c.code for c in state.dealer), t,
                          "")
    last = state.last_settled if state is not None else None
    if last is None:
        return DealerView(_("Last round"), (), "", "")
    cards = last.dealer_cards
    t = total_words(total(cards), final=True) if cards else ""
    return DealerView(_("Last round"), tuple(c.code for c in cards), t, dealer_words(cards))


def odds_rows(rules: BlackjackRules) -> tuple[tuple[str, str], ...]:
    """Rule 2.6 with rules 4.7 / 7.7, from the table's own configuration (as
    `BlackjackRules.odds`, in the current language)."""
    rows = [(_("Blackjack"), odds(rules.blackjack_odds)),
            (_("Insurance"), odds(rules.insurance_odds))]
    if rules.even_money:
        rows.append((_("Even money"), odds(1)))
    if rules.surrender:
        rows.append((_("Surrender"), _("half the bet back")))
    return tuple(rows)


def _whole_percent(share: Fraction) -> str:
    """A share of the shoe to the whole percent ("62%")."""
    return percent(Fraction(round(100 * share), 100))


def shoe_words(state: bj.BlackjackState | None) -> str:
    if state is None or state.shoe is None:
        return _("New shoe")
    text = _("%(share)s of the shoe dealt") % {"share": _whole_percent(state.penetration)}
    if state.prep.cutting_card_from_back:
        text += " · " + _("cutting card at %(share)s") % {
            "share": _whole_percent(state.cutting_card_at)}
    return text
