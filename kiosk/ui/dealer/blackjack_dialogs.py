"""The blackjack screen's small dialogs: who behind the box joins a double, a split or a
surrender (rule 4.2 items 4a, 4d, 4e), how much insurance a player puts up (rule 4.7), and
keying a card in by hand.

They only collect the dealer's entries; the engine decides whether the action is allowed.
Their words are in the dealer's language, their amounts in the house's money style. A
greyed-out button in them, tapped, says why on the dialog's own line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from kiosk.i18n import N_, _, ngettext, pgettext
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.cards import Card
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.card_face import CardFace  # noqa: F401  (used by the kv rules)
from kiosk.ui.dealer.base import refusal
from kiosk.ui.dealer.blackjack_words import hand_label
from kiosk.ui.dealer.payout_words import money
from kiosk.ui.widgets import ChipButton, SaysWhyHere, TableButton

Builder.load_file(str(Path(__file__).with_name("blackjack_dialogs.kv")))

# What a player behind can say to each decision of the caller (rule 4.2 items 4a, 4d, 4e);
# shown in the dealer's language where the buttons are made.
# TRANSLATORS: a player behind the box answers the caller's double, surrender or split:
# "Doubles" / "No", "Surrenders" / "No", or which hand they follow: "Both", "First", "Second".
DOUBLE_CHOICES = (("yes", N_("Doubles")), ("no", N_("No")))
SURRENDER_CHOICES = (("yes", N_("Surrenders")), ("no", N_("No")))
SPLIT_CHOICES = ((bj.Follow.BOTH.value, N_("Both")), (bj.Follow.FIRST.value, N_("First")),
                 (bj.Follow.SECOND.value, N_("Second")))


def _unit() -> float:
    from kivy.core.window import Window

    return theme.ui_unit(Window.width, Window.height)


class BjChoiceRow(BoxLayout):
    """One player behind the box and the buttons of their answer."""

    player = StringProperty("")
    caption = StringProperty("")
    choice = StringProperty("")
    unit = NumericProperty(1.0)


class BehindChooser(SaysWhyHere, ModalView):  # type: ignore[misc]
    """Rule 4.2 item 4d/4e (and 4a): the caller decided; each player behind says whether they
    double (surrender) with the box, or which hand of a split they follow. A split waits until
    every player behind has said (they "have to indicate upon which hand they are going to
    play"); a double or surrender defaults to "no" for them (they "do not have to")."""

    title = StringProperty("")
    action = StringProperty("")
    confirm_text = StringProperty("")  # the action, in the dealer's words
    can_confirm = BooleanProperty(False)
    unit = NumericProperty(1.0)

    def __init__(self, action: str, title: str, players: Sequence[tuple[str, str]],
                 on_done: Callable[[dict[str, str]], Any], **kwargs: Any) -> None:
        """`action` is "double", "split" or "surrender"; `players` are (name, caption)."""
        self.on_done = on_done
        # Given to the constructor, so the kv rule reads them as it builds the buttons (set
        # after it, the confirm button's label stayed empty).
        confirm = {"double": _("Double"), "surrender": _("Surrender"),
                   "split": pgettext("blackjack", "Split")}[action]
        super().__init__(action=action, title=title, confirm_text=confirm, **kwargs)
        self.unit = _unit()
        choices = {"double": DOUBLE_CHOICES, "surrender": SURRENDER_CHOICES,
                   "split": SPLIT_CHOICES}[action]
        default = "" if action == "split" else "no"
        self.rows: dict[str, BjChoiceRow] = {}
        for name, caption in players:
            row = BjChoiceRow(player=name, caption=caption, choice=default, unit=self.unit)
            for value, text in choices:
                b = TableButton(text=_(text), font_size=17 * self.unit)
                b.choice_value = value
                b.bind(on_release=lambda w, r=row: self.choose(r.player, w.choice_value))
                row.ids.options.add_widget(b)
            self.rows[name] = row
            self.ids.rows.add_widget(row)
        self.ids.rows.add_widget(Label())  # keeps the rows at the top
        self.refresh()

    def choose(self, player: str, value: str) -> None:
        self.rows[player].choice = value
        self.refresh()

    def refresh(self) -> None:
        self.refusal_text = ""
        for row in self.rows.values():
            for b in row.ids.options.children:
                b.selected = b.choice_value == row.choice
        self.can_confirm = all(r.choice for r in self.rows.values())

    def why_not(self, widget: Any) -> str:
        """Confirm waits for every player behind on a split (rule 4.2 item 4e)."""
        waiting = [name for name, row in self.rows.items() if not row.choice]
        if widget is self.ids.confirm.__self__ and waiting:
            return ngettext(
                "Player %(players)s has not said which hand they play: both, first or second",
                "Players %(players)s have not said which hand they play: both, first or "
                "second", len(waiting)) % {"players": ", ".join(waiting)}
        return ""

    def choices(self) -> dict[str, str]:
        return {name: row.choice for name, row in self.rows.items()}

    def confirm(self) -> None:
        if not self.can_confirm:
            return
        self.dismiss()
        self.on_done(self.choices())


class InsuranceAmount(SaysWhyHere, ModalView):  # type: ignore[misc]
    """Rule 4.7 (rule 7.2 item 6): the insurance one player puts up, "up to half" the bet.

    It opens at the most the player may insure, so *Insure* at once takes that. The first
    chip tapped starts the count again from that chip (the player put up less), the next
    ones add to it; *Undo* takes back the last chip, *Clear* starts from nothing. Under the
    amount, the engine's sentence when it would refuse it; *Insure* is lit only when it
    would not. `refusal(amount)` is that sentence, or "" when the amount is allowed."""

    title = StringProperty("")
    amount_text = StringProperty("")
    why = StringProperty("")
    refused = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    unit = NumericProperty(1.0)

    def __init__(self, title: str, most: int, currency: str, chips: Sequence[ChipButton],
                 refusal: Callable[[int], str], on_done: Callable[[int], Any],
                 **kwargs: Any) -> None:
        self.most = most
        self.currency = currency
        self.refusal = refusal
        self.on_done = on_done
        self._amount = most  # cents
        self._default = True  # still the most: the next chip starts the count again
        self._history: list[tuple[int, bool]] = []
        super().__init__(**kwargs)
        self.unit = _unit()
        self.title = title
        for chip in chips:
            chip.bind(on_release=lambda w: self.add_chip(int(w.value)))
            self.ids.chips.add_widget(chip)
        self.refresh()

    @property
    def amount(self) -> int:
        """The amount entered, in cents."""
        return self._amount

    def add_chip(self, value: int) -> None:
        self._history.append((self._amount, self._default))
        self._amount = value if self._default else self._amount + value
        self._default = False
        self.refresh()

    def undo(self) -> None:
        if self._history:
            self._amount, self._default = self._history.pop()
            self.refresh()

    def clear(self) -> None:
        self._history.append((self._amount, self._default))
        self._amount, self._default = 0, False
        self.refresh()

    def refresh(self) -> None:
        self.refusal_text = ""
        why = self.refusal(self._amount)
        self.refused = bool(why)
        self.amount_text = money(self._amount, self.currency)
        self.why = why or (_("The most this player may insure; tap chips for less")
                           if self._default else "")
        self.can_undo = bool(self._history)
        confirm = self.ids.confirm
        confirm.text = _("Insure %(amount)s") % {"amount": self.amount_text}
        confirm.disabled = self.refused

    def why_not(self, widget: Any) -> str:
        """*Insure*: the engine's sentence for the amount (rule 4.7); *Undo*: no chip yet."""
        if widget is self.ids.confirm.__self__:
            return self.refusal(self._amount)
        if widget is self.ids.undo.__self__:
            return _("Nothing to undo: no chip has been tapped yet")
        return ""

    def confirm(self) -> None:
        if self.refused:
            return
        self.dismiss()
        self.on_done(self._amount)


def keyed_allowed(state: bj.BlackjackState, card: Card) -> bool:
    """Whether the engine would take `card` keyed in now (the card keypad greys the rest)."""
    return bj.can_deal_card(state, card, bj.CardSource.KEYED)


def keyed_refused(state: bj.BlackjackState, card: Card) -> str:
    """The engine's sentence refusing `card` keyed in now ("" when it takes it)."""
    return refusal(bj.verify_deal_card, state, card, bj.CardSource.KEYED)


def due_words(state: bj.BlackjackState) -> str:
    """Whose card is due: the pending card's hand, else the engine's `card_target`."""
    p = state.pending
    target = ((p.box, p.hand) if p is not None and p.box != bj.NOBODY
              else bj.card_target(state))
    if target is None:
        return ""
    if target[0] == bj.DEALER:
        # TRANSLATORS: whose card the card keypad asks for: "Key in the card for the dealer"
        # (or for "box 3", "box 3, hand 2").
        return _("the dealer")
    return hand_label(state.hand(*target))
