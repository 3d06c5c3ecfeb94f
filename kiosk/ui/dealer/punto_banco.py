"""The dealer's punto banco screen (rules 5.2-5.7).

It shows the state and sends actions; every button is enabled from the engine's `can_`
queries and every refusal comes back as the engine's sentence. Nothing here decides a rule.
Its own words are in the dealer's language (kiosk/i18n.py); the next step and the refusals
are the rules' English.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import _, ngettext, number, said, say
from kiosk.rules.baccarat import engine as pb
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
from kiosk.ui.dealer.base import (
    VOID_REASONS,
    DealerScreen,
    chip_buttons,
    default_chip_values,
    refusal,
)
from kiosk.ui.dealer.card_keypad import CardKeypad
from kiosk.ui.dealer.choices import BadgePad, ReasonPicker
from kiosk.ui.dealer.payouts import PayoutPanel  # noqa: F401  (the .kv places it)
from kiosk.ui.dealer.punto_banco_words import area_panel, area_title, area_words
from kiosk.ui.simulated_words import SIMULATED_ROLES, simulated_words
from kiosk.ui.widgets import AreaTile, ChipButton

log = logging.getLogger(__name__)
Builder.load_file(str(Path(__file__).with_name("punto_banco.kv")))

Session = TableSession[pb.PuntoBancoState]



class HandView(BoxLayout):
    """One hand (Player or Banker): its name, up to three cards and its total (rule 5.4)."""

    hand = StringProperty("PLAYER")
    tone = ColorProperty(theme.PLAYER)
    total = StringProperty("")
    unit = NumericProperty(1.0)
    winner = BooleanProperty(False)

    def show(self, cards: tuple[Card, ...], total: str,
             pending: pb.PendingCard | None = None) -> None:
        """The hand's cards; a card waiting for a decision is outlined in amber: the queried
        card as the shoe read it, an unread card face down."""
        faces = [w for w in self.ids.cards.children[::-1] if isinstance(w, CardFace)]
        for i, face in enumerate(faces):
            waiting = pending is not None and i == len(cards)
            face.code = (cards[i].code if i < len(cards)
                         else pending.card.code if waiting and pending and pending.card
                         else "")
            face.face_down = waiting and (pending is None or pending.card is None)
            face.highlight = waiting
        self.total = total


class PuntoBancoDealer(DealerScreen):
    """The whole dealer screen for one punto banco table."""

    selected_area = StringProperty("1")
    selected_kind = StringProperty(pb.BetKind.BANKER.value)
    can_shuffle = BooleanProperty(False)
    can_collect = BooleanProperty(False)
    can_accept = BooleanProperty(False)
    panel_shown = BooleanProperty(True)  # the area panel in place of the hands

    def __init__(self, session: Session, *, table_name: str = "",
                 chip_values: tuple[int, ...] = (),
                 on_new_shoe: Callable[[], None] | None = None,
                 px_per_mm: float = theme.PI_TOUCHSCREEN_PX_PER_MM, **kwargs: Any) -> None:
        self.table_name = table_name or session.table_id
        self.on_new_shoe = on_new_shoe
        self.px_per_mm = px_per_mm
        self.start_screen()
        self._paying_area = ""
        super().__init__(**kwargs)
        self.session = session
        rules = session.state.rules
        self.chip_values = list(chip_values or default_chip_values(rules.chips.smallest_chip))
        self._build_chips()
        self._build_areas()
        self.go_live(self._on_session)

    # --- layout ------------------------------------------------------------------------

    def _build_chips(self) -> None:
        self.build_chip_rack(chip_buttons(self.chip_values, self.session.state.rules.currency))

    def _build_areas(self) -> None:
        grid = self.ids.areas
        grid.clear_widgets()
        area_ids = self.session.state.rules.area_ids()
        grid.cols = 5  # 7-14 areas and the standing area: two or three rows
        for area in area_ids:
            tile = AreaTile(area=area, title=area_title(area))
            tile.bind(on_release=lambda t: self.select_area(t.area))
            self.bind(unit=tile.setter("unit"))
            tile.unit = self.unit
            grid.add_widget(tile)
        if self.selected_area not in area_ids:
            self.selected_area = area_ids[0]

    # --- actions (each one the engine checks) ------------------------------------------

    def select_area(self, area: str) -> None:
        self.selected_area = area
        self.refresh()

    def select_kind(self, kind: str) -> None:
        self.selected_kind = kind
        self.refresh()

    def add_chip(self, amount: int) -> None:
        area, kind = self.selected_area, pb.BetKind(self.selected_kind)
        self.place_chips(lambda s: pb.place_bet(s, area, kind, amount),
                         lambda s: pb.remove_bet(s, area, kind, amount),
                         lambda s: pb.can_remove_bet(s, area, kind, amount))

    def primary(self) -> None:
        """The big button: "No more bets" while betting, "Confirm payouts" when paying."""
        state = self.session.state
        if state.phase is pb.Phase.PAYING:
            self.act(pb.confirm_payouts)
        elif state.phase is pb.Phase.BETTING:
            self.no_more_bets()

    def no_more_bets(self) -> None:
        """Rule 5.6. The table's physical button calls exactly this."""
        self.act(pb.close_betting)

    def new_shoe(self) -> None:
        if not pb.can_shuffle(self.session.state):
            return
        if self.on_new_shoe is not None:
            self.on_new_shoe()
        self.act(lambda s: pb.shuffle(s, "hand"))

    def open_keypad(self) -> None:
        CardKeypad(state_of=lambda: self.session.state, on_card=self.key_card,
                   allowed=keyed_allowed, due=due_words, refused=keyed_refused).open()

    def key_card(self, card: Card) -> None:
        if not self.manual_needs_inspector():
            self.act(lambda s: pb.deal_card(s, card, pb.CardSource.KEYED))
            return
        self.override(Override.MANUAL_CARD, _("Key in %(card)s over the shoe's read") % {
            "card": card.code}, lambda _pid, _why: lambda s: pb.deal_card(
                s, card, pb.CardSource.KEYED), lambda: None)

    def open_void(self) -> None:
        self.override(
            Override.VOID, _("Void this coup: every bet goes back"),
            lambda pid, reason: lambda s: pb.void_round(s, reason, f"inspector {pid}"),
            lambda: ReasonPicker(title=_("Void this coup: every bet goes back"),
                                 reasons=VOID_REASONS, on_done=lambda reason: self.act(
                                     lambda s: pb.void_round(s, reason, "dealer"))).open(),
            reasons=VOID_REASONS)

    def open_accept(self) -> None:
        self.override(
            Override.ACCEPT_QUERIED, _("Inspector accepts the queried card"),
            lambda pid, _reason: lambda s: pb.accept_queried_card(s, f"inspector {pid}"),
            lambda: BadgePad(title=_("Inspector accepts the queried card: badge number"),
                             on_done=lambda badge: self.act(lambda s: pb.accept_queried_card(
                                 s, f"inspector {badge}"))).open())

    def collect(self) -> None:
        area = self.selected_area
        self.act(lambda s: pb.collect_commission(s, area))

    def why_not(self, name: str, widget: Any) -> str:
        """Rules 2.2, 5.2-5.7 in the engine's words for a greyed-out control."""
        s = self.session.state
        area, kind = self.selected_area, pb.BetKind(self.selected_kind)
        if isinstance(widget, ChipButton):
            return refusal(pb.verify_place_bet, s, area, kind, int(widget.value))
        if name.startswith("kind_"):
            return refusal(pb.verify_place_bet, s, area, pb.BetKind(widget.kind),
                           s.rules.limit(pb.BetKind(widget.kind)).minimum)
        if name == "primary":
            if s.phase is pb.Phase.DEALING:
                return _("The cards are still coming: the coup is complete when the rules "
                         "say")
            return refusal(pb.verify_confirm_payouts if s.phase is pb.Phase.PAYING
                           else pb.verify_close_betting, s)
        if name == "new_shoe":
            return refusal(pb.verify_shuffle, s) or _(
                "A new shoe starts before the first coup, once the cutting card is out, or "
                "between coups with no bets down")
        words: dict[str, Callable[[], str]] = {
            "void": lambda: self.role_refusal(Override.VOID,
                                              refusal(pb.verify_void_round, s, "a reason")),
            "collect": lambda: refusal(pb.verify_collect_commission, s, area),
            "key_card": lambda: _("No card is due now: key in a card when the screen asks "
                                  "for one"),
            "accept": lambda: self.role_refusal(Override.ACCEPT_QUERIED) or _(
                "No queried card waits for the inspector"),
            "undo": lambda: _("Nothing to take back: Undo takes back chips placed in this "
                              "coup"),
        }
        return words[name]() if name in words else ""

    # --- showing the state ---------------------------------------------------------------

    def _on_session(self, _state: Any, _op: Operation | None) -> None:
        self._refresh_trigger()

    def refresh(self, *_args: Any) -> None:
        s: Session = self.session
        state = s.state
        if state.shoe:
            left = state.shoe.remaining
            shoe = ngettext("%(n)s card in the shoe", "%(n)s cards in the shoe",
                            left) % {"n": number(left)}
        else:
            shoe = _("No shoe loaded")
        if state.cut_card_out:
            # TRANSLATORS: after the cards left in the shoe: the cutting card is out.
            shoe += " · " + _("last coup")
        self.header = f"{self.table_name}   ·   " + _("Coup %(coup)s") % {"coup": state.coup}
        online = s.device_online.get("SHOE", True)
        self.shoe_ok = online
        self.shoe_status = shoe if online else _("Shoe not answering: key cards in")
        simulated = SIMULATED_ROLES & set(getattr(self.session, "simulated", ()))
        if simulated:  # never taken for real cards: a shuffler that deals says so
            self.shoe_status = simulated_words(state, simulated) + " · " + self.shoe_status
        self.step = say(s.next_step())  # the rules' words, in the dealer's language
        self.step_tone = (theme.WARNING if state.pending is not None
                          else theme.GOLD if state.phase is pb.Phase.PAYING
                          else theme.FELT_DARK)
        self.step_dark_text = state.pending is not None or state.phase is pb.Phase.PAYING
        # Hands, with the card that needs a decision outlined.
        pending = state.pending
        pv, bv = state.player_values, state.banker_values
        result = (pb.coup_result(state.player_cards, state.banker_cards)
                  if state.phase is pb.Phase.PAYING else None)
        self.ids.player.show(state.player_cards, str(pb.total(pv)) if pv else "",
                             pending if pending and pending.hand is pb.Hand.PLAYER else None)
        self.ids.banker.show(state.banker_cards, str(pb.total(bv)) if bv else "",
                             pending if pending and pending.hand is pb.Hand.BANKER else None)
        self.ids.player.winner = result is not None and result.winner.value == "player"
        self.ids.banker.winner = result is not None and result.winner.value == "banker"
        # Areas: the bets while betting and dealing, the settlement when paying.
        settlements = pb.settlement(state) if state.phase is pb.Phase.PAYING else ()
        if state.phase is pb.Phase.PAYING and not self._paying_area:
            # Paying starts at the first area with a bet; the dealer taps the others.
            first = next((x.area for x in settlements), self.selected_area)
            self.selected_area = self._paying_area = first
        elif state.phase is not pb.Phase.PAYING:
            self._paying_area = ""
        for tile in self.ids.areas.children:
            tile.selected = tile.area == self.selected_area
            owed = state.owed_by(tile.area)
            tile.detail = area_words(state, tile.area, settlements)
            tile.attention = bool(owed) and state.phase is pb.Phase.BETTING
        self.panel_shown = state.phase in (pb.Phase.BETTING, pb.Phase.PAYING)
        self.ids.panel.show(area_title(self.selected_area),
                            area_panel(state, self.selected_area, settlements),
                            _("No bet here") if state.phase is pb.Phase.PAYING
                            else _("No bet yet: choose the bet and the chips"))
        # Bet entry, enabled by the engine for the selected area and kind.
        area, kind = self.selected_area, pb.BetKind(self.selected_kind)
        for chip in self.ids.chips.children:
            chip.disabled = not pb.can_place_bet(state, area, kind, int(chip.value))
        for button in self.ids.kinds.children:
            button.selected = button.kind == self.selected_kind
            button.disabled = state.phase is not pb.Phase.BETTING
        self.can_undo = self.undo_allowed()
        # The big button and the others.
        self.primary_paying = state.phase is pb.Phase.PAYING
        if state.phase is pb.Phase.PAYING:
            self.primary_text = _("Confirm payouts")
            self.primary_enabled = pb.can_confirm_payouts(state)
        elif state.phase is pb.Phase.DEALING:
            self.primary_text = _("Dealing…")
            self.primary_enabled = False
        else:
            self.primary_text = _("No more bets")
            self.primary_enabled = pb.can_close_betting(state)
        self.step_detail = ""
        if state.phase is pb.Phase.BETTING and state.bets and not self.primary_enabled:
            try:
                pb.verify_close_betting(state)
            except TablesideError as exc:
                self.step_detail = said(exc.sentence, str(exc))
        legal = pb.legal_actions(state)
        self.can_key_card = "deal_card" in legal
        self.can_void = self.may(Override.VOID, "void_round" in legal)
        self.can_shuffle = pb.can_shuffle(state) and (state.shoe is None or state.cut_card_out
                                                      or state.coup == 1 or not state.bets)
        self.can_collect = pb.can_collect_commission(state, area)
        self.can_accept = self.may(Override.ACCEPT_QUERIED, state.pending is not None
                                   and state.pending.reason == "impossible")
        self.show_inspector()
        self.show_alerts()


# The card keypad's questions, in punto banco's words (kiosk/ui/dealer/card_keypad.py).


def keyed_allowed(state: pb.PuntoBancoState, card: Card) -> bool:
    """Whether the engine would take `card` keyed in now (the card keypad greys the rest)."""
    return pb.can_deal_card(state, card, pb.CardSource.KEYED)


def keyed_refused(state: pb.PuntoBancoState, card: Card) -> str:
    return refusal(pb.verify_deal_card, state, card, pb.CardSource.KEYED)


def due_words(state: pb.PuntoBancoState) -> str:
    hand = pb.next_hand(state)
    if hand is None:
        return ""
    # TRANSLATORS: whose card the card keypad asks for: "Key in the card for the Player".
    return _("the Player") if hand is pb.Hand.PLAYER else _("the Banker")
