"""The players' sign's words for blackjack and Touch 21: pure functions from the table's
state to the headline, the hands and the limits the sign shows (no Kivy; tested without
drawing). The view (`blackjack_view.py`) only places them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.hands import Total, is_blackjack, total
from kiosk.rules.blackjack.house import BlackjackRules
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
        return Headline("Welcome", "The table opens shortly", Tone.WAIT)
    rules = state.rules
    prep = state.prep
    if state.phase is bj.Phase.BETTING and prep.stage in (Stage.SHUFFLE, Stage.HAND_SHUFFLE):
        return Headline("Shuffling", "A new shoe is being prepared", Tone.SHUFFLE)  # rule 4.1
    if state.phase is bj.Phase.BETTING and prep.stage is Stage.CUT:
        box = prep.offered_to()
        who = f"Box {box} is offered the cut" if box is not None else "A player cuts the cards"
        return Headline("Cutting the cards", who, Tone.SHUFFLE)  # rules 4.2-4.3
    if state.phase is bj.Phase.BETTING:
        return Headline("Place your bets", f"Bets {rules.limits_text()} per box",
                        Tone.BETS)  # rule 4.2 item 1
    if state.phase is bj.Phase.DEALING:
        return Headline("No more bets", f"Round {state.round}", Tone.CLOSED)  # item 3
    if state.phase is bj.Phase.CHECK:  # Touch 21, rule 7.2 items 4-5
        return Headline("Check your cards", "A blackjack is turned face up", Tone.CLOSED)
    if state.phase is bj.Phase.INSURANCE:  # rule 4.7; rule 7.2 item 6
        odds = dict(rules.odds())
        detail = f"Dealer shows an ace · insurance pays {odds['Insurance']}"
        if rules.even_money:
            detail += " · even money on a blackjack"
        return Headline("Insurance?", detail, Tone.CLOSED)
    if state.phase is bj.Phase.PLAYING:
        cur = state.current
        text = f"Box {cur.box} to play" if cur is not None else "No more bets"
        return Headline(text, "No more bets", Tone.CLOSED)
    if state.phase is bj.Phase.DEALER:
        return Headline("Dealer's hand", rules.dealer_rule, Tone.CLOSED)
    return Headline(dealer_words(state.dealer), "Paying", Tone.RESULT)


def dealer_words(cards: tuple[Any, ...]) -> str:
    """ "Dealer 19", "Dealer blackjack", "Dealer busts with 24"."""
    if not cards:
        return "No dealer card needed"
    t = total(cards)
    if is_blackjack(cards):
        return "Dealer blackjack"
    if t.bust:
        return f"Dealer busts with {t.hard}"
    return f"Dealer {t.best}"


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
        return "Bust"
    if t.soft and t.best != 21 and not final:
        return f"{t.hard}/{t.best}"
    return str(t.best)


def dealer_view(state: bj.BlackjackState | None) -> DealerView:
    if state is not None and _round_started(state):
        final = state.phase is bj.Phase.PAYING  # the headline says the dealer's result
        t = total_words(state.dealer_total, final=final) if state.dealer else ""
        return DealerView(f"Round {state.round}", tuple(c.code for c in state.dealer), t, "")
    last = state.last_settled if state is not None else None
    if last is None:
        return DealerView("Last round", (), "", "")
    cards = last.dealer_cards
    t = total_words(total(cards), final=True) if cards else ""
    return DealerView("Last round", tuple(c.code for c in cards), t, dealer_words(cards))


def odds_rows(rules: BlackjackRules) -> tuple[tuple[str, str], ...]:
    """Rule 2.6 with rules 4.7 / 7.7, from the table's own configuration."""
    return rules.odds()


def shoe_words(state: bj.BlackjackState | None) -> str:
    if state is None or state.shoe is None:
        return "New shoe"
    text = f"{round(100 * state.penetration)}% of the shoe dealt"
    if state.prep.cutting_card_from_back:
        text += f" · cutting card at {round(100 * state.cutting_card_at)}%"
    return text
