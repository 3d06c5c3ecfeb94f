"""Keying in a card by hand: the shoe sent UNREAD, a card was queried, or no shoe is connected.

Only cards the engine would accept now can be chosen (a tenth ace of spades in 8 decks stays
grey), so a keyed card is never refused after the dealer confirms it. A grey key, tapped,
says why on the keypad's own line: the rules' sentence for the card, or which choice is
still missing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from kiosk.i18n import N_, _
from kiosk.rules.cards import RANKS, SUITS, Card, Rank, Suit
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.widgets import SaysWhyHere, TableButton

Builder.load_file(str(Path(__file__).with_name("card_keypad.kv")))

SUIT_WORDS = {Suit.SPADES: N_("Spades"), Suit.HEARTS: N_("Hearts"),
              Suit.DIAMONDS: N_("Diamonds"), Suit.CLUBS: N_("Clubs")}
RANK_WORDS = {Rank.TEN: "10"}


class CardKeypad(SaysWhyHere, ModalView):  # type: ignore[misc]
    """Choose rank then suit; "Deal" sends the card as keyed by the dealer."""

    title = StringProperty("")
    rank = StringProperty("")
    suit = StringProperty("")
    code = StringProperty("")
    can_deal = BooleanProperty(False)
    unit = NumericProperty(1.0)

    def __init__(self, state_of: Callable[[], Any], on_card: Callable[[Card], None], *,
                 allowed: Callable[[Any, Card], bool], due: Callable[[Any], str],
                 refused: Callable[[Any, Card], str], **kwargs: Any) -> None:
        """`allowed(state, card)`: whether the game would take the card keyed in now;
        `due(state)`: whose card it is, in the dealer's words ("the Player"; "" when none
        is due); `refused(state, card)`: the rules' sentence refusing the card ("" when
        they take it). Each game's screen passes its own: the keypad names no game."""
        self.state_of = state_of
        self.on_card = on_card
        self.allowed = allowed
        self.due = due
        self.refused = refused
        super().__init__(**kwargs)
        from kivy.core.window import Window

        self.unit = theme.ui_unit(Window.width, Window.height)
        for rank in RANKS:
            b = TableButton(text=RANK_WORDS.get(rank, rank.value), font_size=22 * self.unit)
            b.rank = rank.value
            b.bind(on_release=lambda w: self.choose_rank(w.rank))
            self.ids.ranks.add_widget(b)
        for suit in SUITS:
            b = TableButton(text=_(SUIT_WORDS[suit]), font_size=18 * self.unit)
            b.suit = suit.value
            b.tone = (0.78, 0.06, 0.18, 1) if suit in (Suit.HEARTS, Suit.DIAMONDS) \
                else (0.1, 0.1, 0.1, 1)
            b.bind(on_release=lambda w: self.choose_suit(w.suit))
            self.ids.suits.add_widget(b)
        self.refresh()

    def _allowed(self, card: Card) -> bool:
        return self.allowed(self.state_of(), card)

    def choose_rank(self, rank: str) -> None:
        self.rank = rank
        self.refresh()

    def choose_suit(self, suit: str) -> None:
        self.suit = suit
        self.refresh()

    def refresh(self) -> None:
        self.refusal_text = ""
        where = self.due(self.state_of())
        self.title = (_("Key in the card for %(whom)s") % {"whom": where} if where
                      else _("No card is due now"))
        for b in self.ids.ranks.children:
            b.disabled = not any(self._allowed(Card(Rank(b.rank), s)) for s in SUITS)
            b.selected = b.rank == self.rank
        for b in self.ids.suits.children:
            b.disabled = not self.rank or not self._allowed(Card(Rank(self.rank), Suit(b.suit)))
            b.selected = b.suit == self.suit
        self.code = f"{self.rank}{self.suit}" if self.rank and self.suit else ""
        self.can_deal = bool(self.code) and self._allowed(Card.parse(self.code))

    def why_not(self, widget: Any) -> str:
        """A grey rank: no card of it can come now; a grey suit or Deal: the card is
        refused, or a choice is missing."""
        state = self.state_of()
        rank = getattr(widget, "rank", None)
        if rank is not None:
            reasons = {self.refused(state, Card(Rank(rank), s)) for s in SUITS}
            if len(reasons) == 1:  # the same reason for every suit (no card is due, say)
                return reasons.pop()
            # TRANSLATORS: a grey rank on the card keypad: every card of it has come out.
            return _("No %(rank)s can come out of this shoe now: every one has been dealt") % {
                "rank": RANK_WORDS.get(Rank(rank), rank)}
        if not self.rank:
            return _("Choose the rank first, then the suit")
        suit = getattr(widget, "suit", None) or self.suit
        if not suit:
            return _("Choose the suit of the %(rank)s") % {
                "rank": RANK_WORDS.get(Rank(self.rank), self.rank)}
        return self.refused(state, Card(Rank(self.rank), Suit(suit)))

    def deal(self) -> None:
        if not self.can_deal:
            return
        card = Card.parse(self.code)
        self.dismiss()
        self.on_card(card)

