"""The dealer's Arizona Hold'em screen (the Mpumalanga table game rules, section 6).

Seven boxes, each with its ante (chips from the rack onto the selected box), its three cards
and, while a circle is in play, its Raise and Check buttons, enabled only for the box whose
player decides now (rule 6.2, each in turn); the two community cards; the shuffle (rule
6.5), "No more bets", the deal's next place outlined, keyed cards, the community card
turned, a misdeal, a void; at the reveal every box's cards, hand, odds and payouts in large
type (rule 6.6), then "Confirm payouts".

It shows the state and sends actions; every control is enabled from the engine's `can_`
queries and a greyed one, tapped, says why in the rule's words (`why_not`). Nothing here
decides a rule.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import N_, _, said, say
from kiosk.rules.arizona import engine as az
from kiosk.rules.arizona.operations import COMMUNITY
from kiosk.rules.arizona.state import circle_in_play, deciding, next_place
from kiosk.rules.cards import Card
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import Operation
from kiosk.table.roles import Override
from kiosk.table.session import TableSession
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.card_face import CardFace
from kiosk.ui.dealer.arizona_words import box_detail, box_title, due_words, reveal_blocks
from kiosk.ui.dealer.base import (
    VOID_REASONS,
    DealerScreen,
    chip_buttons,
    default_chip_values,
    refusal,
)
from kiosk.ui.dealer.card_keypad import CardKeypad
from kiosk.ui.dealer.choices import ReasonPicker
from kiosk.ui.dealer.payouts import PayoutSheet
from kiosk.ui.dealer.pin_pad import PinPad
from kiosk.ui.widgets import TableButton

log = logging.getLogger(__name__)
Builder.load_file(str(Path(__file__).with_name("arizona.kv")))

Session = TableSession[az.ArizonaState]

MISDEAL_REASONS = (N_("Card exposed"), N_("Wrong number of cards dealt"),
                   N_("Cards out of order"), N_("Inspector's decision"))
"""Rule 6.2's misdeals, shown in the dealer's language, journaled in English."""


class BoxTile(ButtonBehavior, BoxLayout):  # type: ignore[misc]
    """One player's box: its name, its three cards, its ante and circles; while a circle is
    in play its Raise and Check buttons (`raise_button`, `check_button`)."""

    box = NumericProperty(0)
    title = StringProperty("")
    detail = StringProperty("")
    selected = BooleanProperty(False)
    turn = BooleanProperty(False)  # the player of this box decides now
    deciding = BooleanProperty(False)  # a circle is in play: the buttons are shown
    unit = NumericProperty(1.0)
    touch = NumericProperty(48.0)

    @property
    def raise_button(self) -> TableButton:
        return self.ids.raise_bet  # type: ignore[no-any-return]

    @property
    def check_button(self) -> TableButton:
        return self.ids.check  # type: ignore[no-any-return]

    def show_cards(self, cards: tuple[Card, ...], face_up: bool, due: int | None) -> None:
        """Its cards face down until the reveal; the place the next card goes outlined."""
        faces = [w for w in self.ids.cards.children[::-1] if isinstance(w, CardFace)]
        for i, face in enumerate(faces):
            dealt = i < len(cards)
            face.code = cards[i].code if dealt and face_up else ""
            face.face_down = dealt and not face_up
            face.highlight = due == i


class ArizonaDealer(DealerScreen):
    """The whole dealer screen for one Arizona Hold'em table."""

    selected_box = NumericProperty(1)
    can_shuffle = BooleanProperty(False)
    can_turn = BooleanProperty(False)
    can_misdeal = BooleanProperty(False)
    turn_text = StringProperty("Turn card")

    def __init__(self, session: Session, *, table_name: str = "",
                 chip_values: tuple[int, ...] = (),
                 on_new_shoe: Callable[[], None] | None = None,
                 px_per_mm: float = theme.PI_TOUCHSCREEN_PX_PER_MM, **kwargs: Any) -> None:
        self.table_name = table_name or session.table_id
        self.on_new_shoe = on_new_shoe
        self.px_per_mm = px_per_mm
        self.start_screen()
        self.sheet: PayoutSheet | None = None
        self._sheet_round = 0  # the hand whose payouts opened by themselves
        super().__init__(**kwargs)
        self.session = session
        rules = session.state.rules
        self.chip_values = list(chip_values or default_chip_values(rules.chips.smallest_chip))
        self._build_chips()
        self._build_boxes()
        self.go_live(self._on_session)

    # --- layout ------------------------------------------------------------------------

    def _build_chips(self) -> None:
        self.build_chip_rack(chip_buttons(self.chip_values, self.session.state.rules.currency))

    def _build_boxes(self) -> None:
        row = self.ids.boxes
        row.clear_widgets()
        self.tiles: dict[int, BoxTile] = {}
        for box in range(1, self.session.state.rules.boxes + 1):
            tile = BoxTile(box=box, title=box_title(box), unit=self.unit, touch=self.touch)
            tile.bind(on_release=lambda t: self.select_box(int(t.box)))
            self.bind(unit=tile.setter("unit"), touch=tile.setter("touch"))
            tile.raise_button.act = "raise"
            tile.check_button.act = "check"
            tile.raise_button.box = tile.check_button.box = box
            tile.raise_button.bind(on_release=lambda b: self.decide(int(b.box), True))
            tile.check_button.bind(on_release=lambda b: self.decide(int(b.box), False))
            row.add_widget(tile)
            self.tiles[box] = tile

    def tile(self, box: int) -> BoxTile:
        return self.tiles[box]

    # --- actions (each one the engine checks) ------------------------------------------

    def select_box(self, box: int) -> None:
        self.selected_box = box
        if self.session.state.phase is az.Phase.REVEAL:
            self.open_payouts(box)
        self.refresh()

    def add_chip(self, amount: int) -> None:
        box = self.selected_box
        self.place_chips(lambda s: az.place_bet(s, box, amount),
                         lambda s: az.remove_bet(s, box),
                         lambda s: az.can_remove_bet(s, box))

    def undo(self) -> None:
        """Takes back the ante of the box chips last went on (all of it: the engine takes an
        ante back whole), and forgets that box's other chips of this round."""
        top = self._undo_top()
        if top is None or self.act(top[1]) is None:
            return
        self._undo.pop()
        self._undo = [u for u in self._undo if u[2](self.session.state)]

    def decide(self, box: int, raising: bool) -> None:
        """Rule 6.2: the player of `box` raises (a bet equal to the ante) or checks in the
        circle in play."""
        circle = circle_in_play(self.session.state) or 0
        act = az.raise_bet if raising else az.check
        self.act(lambda s: act(s, box, circle))

    def primary(self) -> None:
        """The big button: "No more bets" while betting, "Confirm payouts" at the reveal."""
        state = self.session.state
        if state.phase is az.Phase.REVEAL:
            self.act(az.confirm_payouts)
        elif state.phase is az.Phase.BETTING:
            self.no_more_bets()

    def no_more_bets(self) -> None:
        """Rule 6.2. The table's physical button calls exactly this."""
        self.act(az.close_betting)

    def shuffle(self) -> None:
        """Rule 6.5: the cards are shuffled before every hand."""
        if not az.can_shuffle(self.session.state):
            return
        if self.on_new_shoe is not None:
            self.on_new_shoe()
        self.act(az.shuffle)

    def turn_card(self) -> None:
        self.act(az.turn_community)

    def open_keypad(self) -> CardKeypad:
        pad = CardKeypad(state_of=lambda: self.session.state, on_card=self.key_card,
                         allowed=keyed_allowed, due=due_words, refused=keyed_refused)
        pad.open()
        return pad

    def key_card(self, card: Card) -> None:
        if not self.manual_needs_inspector():
            self.act(lambda s: az.deal_card(s, card))
            return
        self.override(Override.MANUAL_CARD, _("Key in %(card)s over the shoe's read") % {
            "card": card.code}, lambda _pid, _why: lambda s: az.deal_card(s, card),
            lambda: None)

    def open_misdeal(self) -> ReasonPicker:
        picker = ReasonPicker(
            title=_("Misdeal: the antes stay, shuffle and deal again"),
            reasons=MISDEAL_REASONS,
            on_done=lambda reason: self.act(lambda s: az.misdeal(s, reason)))
        picker.open()
        return picker

    def open_void(self) -> ReasonPicker | PinPad:
        title = _("Void this hand: every bet goes back")
        pad = self.override(Override.VOID, title,
                            lambda _pid, reason: lambda s: az.void_round(s, reason),
                            lambda: None, reasons=VOID_REASONS)
        if pad is not None:
            return pad
        picker = ReasonPicker(title=title, reasons=VOID_REASONS,
                              on_done=lambda reason: self.act(
                                  lambda s: az.void_round(s, reason)))
        picker.open()
        return picker

    def open_payouts(self, box: int | None = None) -> PayoutSheet | None:
        """Every box at the reveal in large type, over the screen, at the page of `box`;
        "Confirm payouts" there too. They open by themselves at the reveal; a box tapped
        opens them again."""
        state = self.session.state
        if state.phase is not az.Phase.REVEAL:
            return None
        if self.sheet is not None:
            self.sheet.dismiss()
        blocks = reveal_blocks(state)
        sheet = PayoutSheet(
            _("Hand %(hand)s: pay and take") % {"hand": state.round}, blocks, unit=self.unit,
            touch=self.touch, on_confirm=lambda: self.act(az.confirm_payouts),
            confirm_refused=lambda: refusal(az.verify_confirm_payouts, self.session.state))
        if box is not None and box in state.boxes:
            sheet.turn(state.boxes.index(box) // sheet.per_page)
        sheet.bind(on_dismiss=lambda *_a: setattr(self, "sheet", None))
        self.sheet = sheet
        sheet.open()
        return sheet

    def why_not(self, name: str, widget: Any) -> str:
        """Rules 2.2, 6.2, 6.5 in the engine's words for a greyed-out control."""
        s = self.session.state
        act = getattr(widget, "act", "")
        if act in ("raise", "check"):
            circle = circle_in_play(s) or 1
            verify = az.verify_raise_bet if act == "raise" else az.verify_check
            return refusal(verify, s, int(widget.box), circle)
        if hasattr(widget, "value") and not name:  # a chip of the rack
            return refusal(az.verify_place_bet, s, self.selected_box, int(widget.value))
        if name == "primary":
            if s.phase is az.Phase.REVEAL:
                return refusal(az.verify_confirm_payouts, s)
            if s.phase is not az.Phase.BETTING:
                return _("The hand is being played: payouts are confirmed at the reveal")
            return refusal(az.verify_close_betting, s)
        words: dict[str, Callable[[], str]] = {
            "shuffle": lambda: refusal(az.verify_shuffle, s) or _(
                "The cards were shuffled for this hand already"),
            "turn": lambda: refusal(az.verify_turn_community, s),
            "misdeal": lambda: refusal(az.verify_misdeal, s),
            "void": lambda: self.role_refusal(Override.VOID,
                                              refusal(az.verify_void_round, s, "a reason")),
            "key_card": lambda: refusal(az.verify_deal_card, s, Card.parse("AS")) if (
                s.phase is not az.Phase.DEALING or not s.shuffled) else _(
                "No card is due now: key in a card when the screen asks for one"),
            "undo": lambda: _("Nothing to take back: Undo takes back an ante placed in "
                              "this hand"),
        }
        return words[name]() if name in words else ""

    # --- showing the state ---------------------------------------------------------------

    def _on_session(self, _state: Any, _op: Operation | None) -> None:
        self._refresh_trigger()

    def refresh(self, *_args: Any) -> None:
        s: Session = self.session
        state = s.state
        self.header = f"{self.table_name}   ·   " + _("Hand %(hand)s") % {"hand": state.round}
        online = s.device_online.get("SHOE", True)
        self.shoe_ok = online
        waiting = state.phase in (az.Phase.BETTING, az.Phase.DEALING) and not state.shuffled
        self.shoe_status = _("Not shuffled yet") if waiting else _("Shuffled for this hand")
        if not online:
            self.shoe_status = _("Shoe not answering: key cards in")
        if "shoe" in getattr(s, "simulated", ()):  # never taken for real cards
            self.shoe_status = _("SIMULATED SHOE") + " · " + self.shoe_status
        self.step = say(s.next_step())  # the rules' words, in the dealer's language
        reveal = state.phase is az.Phase.REVEAL
        self.step_tone = theme.GOLD if reveal else theme.FELT_DARK
        self.step_dark_text = reveal
        # The boxes: ante, cards (the next place outlined), the decision in turn.
        place = next_place(state) if state.phase is az.Phase.DEALING and state.shuffled \
            else None
        circle = circle_in_play(state)
        turn = deciding(state)
        for box, tile in self.tiles.items():
            tile.selected = box == self.selected_box
            tile.detail = box_detail(state, box)
            tile.show_cards(state.cards_of(box), reveal,
                            place[1] if place is not None and place[0] == box else None)
            tile.turn = turn == box
            tile.deciding = circle is not None and box in state.boxes
            tile.raise_button.disabled = not (circle and az.can_raise_bet(state, box, circle))
            tile.check_button.disabled = not (circle and az.can_check(state, box, circle))
        community = state.community
        for slot, face in enumerate((self.ids.community_1, self.ids.community_2)):
            dealt = slot < len(community)
            up = dealt and (slot < state.turned or reveal)
            face.code = community[slot].code if up else ""
            face.face_down = dealt and not up
            face.highlight = place is not None and place == (COMMUNITY, slot)
        # The chips go on the selected box.
        for chip in self.ids.chips.children:
            chip.disabled = not az.can_place_bet(state, self.selected_box, int(chip.value))
        self.can_undo = self.undo_allowed()
        # The big button and the others.
        self.primary_paying = reveal
        if reveal:
            self.primary_text = _("Confirm payouts")
            self.primary_enabled = az.can_confirm_payouts(state)
        elif state.phase is az.Phase.BETTING:
            self.primary_text = _("No more bets")
            self.primary_enabled = az.can_close_betting(state)
        else:
            self.primary_text = _("Confirm payouts")
            self.primary_enabled = False
        self.step_detail = ""
        if state.phase is az.Phase.BETTING and state.antes and not self.primary_enabled:
            try:
                az.verify_close_betting(state)
            except TablesideError as exc:
                self.step_detail = said(exc.sentence, str(exc))
        legal = az.legal_actions(state)
        self.can_key_card = "deal_card" in legal
        self.can_void = self.may(Override.VOID, "void_round" in legal)
        self.can_misdeal = "misdeal" in legal
        self.can_turn = "turn_community" in legal
        self.turn_text = (_("Turn 2nd card") if state.turned else _("Turn 1st card"))
        self.can_shuffle = az.can_shuffle(state) and not state.shuffled
        if reveal and self._sheet_round != state.round:
            # The reveal: every box's payouts open by themselves, in large type (rule 6.6).
            self._sheet_round = state.round
            Clock.schedule_once(lambda _dt: self.open_payouts(), 0)
        self.show_inspector()
        self.show_alerts()


# The card keypad's questions, in Arizona Hold'em's words (kiosk/ui/dealer/card_keypad.py).


def keyed_allowed(state: az.ArizonaState, card: Card) -> bool:
    """Whether the engine would take `card` keyed in now (the card keypad greys the rest)."""
    return az.can_deal_card(state, card)


def keyed_refused(state: az.ArizonaState, card: Card) -> str:
    return refusal(az.verify_deal_card, state, card)
