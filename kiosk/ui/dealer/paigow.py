"""The dealer's pai gow tiles screen (the Mpumalanga table game rules, section 13).

Who banks (the House on area one, 13.1.1; a player/banker, 13.2.1; a co-bank with the House,
13.3.1) and the wagers, chips from the rack onto the selected area; "No more bets"; then each
area's four tiles keyed in on the tile keypad as the player set them (high and low), counter
clockwise from the chung; then the bank's tiles, set the house way for the House and the
co-bank (13.1.2, 13.3.4: the keypad offers only the house way's setting, the others grey
with the rule's words), as the player/banker sets them otherwise (13.2.3); the game
supervisor confirms the House hand by badge (13.1.5); then every area's result and every
movement of chips in the order of the bank's procedure, in large type, and "Confirm payouts".

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
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import N_, _, said, say
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import Operation
from kiosk.rules.paigow import engine as pg
from kiosk.rules.paigow.hands import Setting
from kiosk.rules.paigow.tiles import Tile
from kiosk.table.session import TableSession
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.dealer.base import (
    VOID_REASONS,
    DealerScreen,
    chip_buttons,
    default_chip_values,
    refusal,
)
from kiosk.ui.dealer.choices import BadgePad, ReasonPicker
from kiosk.ui.dealer.paigow_tile_keypad import TileKeypad
from kiosk.ui.dealer.paigow_words import (
    area_detail,
    area_title,
    bank_words,
    pair_words,
    settlement_blocks,
)
from kiosk.ui.dealer.payouts import PayoutSheet
from kiosk.ui.tile_face import TileFace  # noqa: F401  (registers the class the .kv uses)

log = logging.getLogger(__name__)
Builder.load_file(str(Path(__file__).with_name("paigow.kv")))

Session = TableSession[pg.PaiGowState]

BANKS = (N_("The House banks"), N_("The player/banker banks"),
         N_("The player/banker and the House co-bank"))
"""The bank chooser's choices (rules 13.1, 13.2, 13.3), shown in the dealer's language."""
BANK_OF = dict(zip(BANKS, (pg.Bank.HOUSE, pg.Bank.PLAYER, pg.Bank.COBANK), strict=True))


class AmountPad(BadgePad):
    """The number pad, for the player/banker's wager in whole units of money."""

    def why_not(self, widget: Any) -> str:
        if widget is getattr(self, "ok", None):
            # TRANSLATORS: the grey OK of the pad for the player/banker's wager.
            return _("Key in the wager first")
        return ""


class PgArea(ButtonBehavior, BoxLayout):  # type: ignore[misc]
    """One playing area: its number, its tiles as set (high hand over low hand), its wager,
    and at the reveal what to pay or take. The chung's area holds the bank."""

    area = NumericProperty(0)
    title = StringProperty("")
    detail = StringProperty("")
    tiles = ListProperty(["", "", "", ""])  # high, high, low, low (codes; "" unkeyed)
    selected = BooleanProperty(False)
    turn = BooleanProperty(False)  # its tiles are keyed next
    chung = BooleanProperty(False)
    unit = NumericProperty(1.0)


class PaiGowDealer(DealerScreen):
    """The whole dealer screen for one pai gow table."""

    selected_area = NumericProperty(2)
    can_wash = BooleanProperty(False)
    can_bank = BooleanProperty(False)
    can_correct = BooleanProperty(False)  # the selected area's hands can be keyed again
    bank_why = StringProperty("")
    bank_tiles = ListProperty(["", "", "", ""])
    bank_flat = BooleanProperty(True)  # the House's high hand lies down (rule 13.1.4)

    def __init__(self, session: Session, *, table_name: str = "",
                 chip_values: tuple[int, ...] = (),
                 on_new_shoe: Callable[[], None] | None = None,
                 px_per_mm: float = theme.PI_TOUCHSCREEN_PX_PER_MM, **kwargs: Any) -> None:
        self.table_name = table_name or session.table_id
        self.on_new_shoe = on_new_shoe
        self.px_per_mm = px_per_mm
        self.start_screen()
        self.sheet: PayoutSheet | None = None
        self._sheet_round = 0  # the round whose settlement opened by itself
        super().__init__(**kwargs)
        self.session = session
        rules = session.state.rules
        self.chip_values = list(chip_values or default_chip_values(rules.chips.smallest_chip))
        self.build_chip_rack(chip_buttons(self.chip_values, rules.currency))
        self._build_areas()
        self.go_live(self._on_session)

    def _build_areas(self) -> None:
        row = self.ids.areas
        row.clear_widgets()
        self.cards: dict[int, PgArea] = {}
        for area in range(1, self.session.state.rules.areas + 1):
            card = PgArea(area=area, title=area_title(area), unit=self.unit)
            card.bind(on_release=lambda c: self.select_area(int(c.area)))
            self.bind(unit=card.setter("unit"))
            row.add_widget(card)
            self.cards[area] = card

    def card(self, area: int) -> PgArea:
        return self.cards[area]

    # --- actions (each one the engine checks) ------------------------------------------

    def select_area(self, area: int) -> None:
        self.selected_area = area
        state = self.session.state
        if state.phase is pg.Phase.SETTING and state.to_set == area:
            self.open_tiles()
        elif state.phase is pg.Phase.REVEAL:
            self.open_payouts()
        self.refresh()

    def add_chip(self, amount: int) -> None:
        area = self.selected_area
        self.place_chips(lambda s: pg.place_bet(s, area, amount),
                         lambda s: pg.remove_bet(s, area),
                         lambda s: pg.can_remove_bet(s, area))

    def undo(self) -> None:
        """Takes back the wager of the area chips last went on (all of it: the engine takes
        a wager back whole), and forgets that area's other chips of this round."""
        top = self._undo_top()
        if top is None or self.act(top[1]) is None:
            return
        self._undo.pop()
        self._undo = [u for u in self._undo if u[2](self.session.state)]

    def wash(self) -> None:
        if self.on_new_shoe is not None:
            self.on_new_shoe()
        self.act(pg.shuffle)

    def correct_hand(self) -> TileKeypad | None:
        """The selected area's hands, keyed wrong, taken off before the bank's are set (the
        house's procedure), and the keypad opened to key them again when it is their turn."""
        area = self.selected_area
        if self.act(lambda s: pg.unset_hand(s, area)) is None:
            return None
        if self.session.state.to_set == area:
            return self.open_tiles()
        return None

    def open_bank(self) -> ReasonPicker:
        """Who banks (13.1.1, 13.2.1, 13.3.1): the House, or the player of the selected area
        alone or with the House, with the banker's wager keyed on a pad."""
        area = self.selected_area
        picker = ReasonPicker(
            title=_("Who banks? The player/banker is at area %(area)s") % {"area": area},
            reasons=BANKS, on_done=lambda choice: self._bank_chosen(BANK_OF[choice], area))
        picker.open()
        return picker

    def _bank_chosen(self, bank: pg.Bank, area: int) -> None:
        if bank is pg.Bank.HOUSE:
            self.act(lambda s: pg.take_bank(s, pg.Bank.HOUSE, 1, 0))
            return
        pad = AmountPad(title=_("Area %(area)s: the player/banker's wager in %(currency)s")
                        % {"area": area, "currency": self.session.state.rules.currency},
                        on_done=lambda units: self.act(
                            lambda s: pg.take_bank(s, bank, area, int(units) * 100)))
        pad.open()

    def open_tiles(self) -> TileKeypad | None:
        """The tile keypad for the next hands to key: an area's as its player set them, in
        order from the chung; then the bank's."""
        state: pg.PaiGowState = self.session.state
        if state.phase is not pg.Phase.SETTING:
            return None
        area = state.to_set
        in_play = state.tiles_in_play

        def left(tile: Tile) -> int:
            return tile.copies - in_play.count(tile)

        if area is not None:
            pad = TileKeypad(
                _("Area %(area)s: key in the tiles and how the player set them")
                % {"area": area}, left=left,
                on_set=lambda st: self.act(
                    lambda s: pg.set_hand(s, area, st.high.tiles, st.low.tiles)),
                refused=lambda st: refusal(pg.verify_set_hand, self.session.state, area,
                                           st.high.tiles, st.low.tiles))
        else:
            pad = TileKeypad(self._bank_title(state), left=left,
                             on_set=self._set_bank, refused=self._bank_refused)
        pad.open()
        return pad

    def _bank_title(self, state: pg.PaiGowState) -> str:
        if state.bank is pg.Bank.HOUSE:
            # TRANSLATORS: the tile keypad's title for the House's tiles (rule 13.1.2).
            return _("The House tiles: set the house way")
        if state.bank is pg.Bank.COBANK:
            return _("The co-bank's tiles: set the house way")
        return _("Area %(area)s, the player/banker: key in the tiles as set") % {
            "area": state.chung}

    def _bank_refused(self, setting: Setting) -> str:
        return refusal(pg.verify_set_bank, self.session.state, setting.tiles,
                       setting.high.tiles)

    def _set_bank(self, setting: Setting) -> None:
        self.act(lambda s: pg.set_bank(s, setting.tiles, setting.high.tiles))

    def open_supervisor(self) -> BadgePad:
        """Rule 13.1.5: the game supervisor confirms the House hand is set the house way."""
        pad = BadgePad(title=_("Supervisor's badge: the House hand is set the house way"),
                       on_done=lambda badge: self.act(
                           lambda s: pg.confirm_house_way(s, f"supervisor {badge}")))
        pad.open()
        return pad

    def primary(self) -> None:
        """The big button: no more bets, the next tiles, the supervisor, the payouts."""
        phase = self.session.state.phase
        if phase is pg.Phase.BETTING:
            self.no_more_bets()
        elif phase is pg.Phase.SETTING:
            self.open_tiles()
        elif phase is pg.Phase.CONFIRM:
            self.open_supervisor()
        else:
            self.open_payouts()

    def no_more_bets(self) -> None:
        """The table's physical button calls exactly this."""
        self.act(pg.close_betting)

    def open_void(self) -> ReasonPicker:
        picker = ReasonPicker(title=_("Void this round: every wager goes back"),
                              reasons=VOID_REASONS,
                              on_done=lambda reason: self.act(
                                  lambda s: pg.void_round(s, reason)))
        picker.open()
        return picker

    def open_payouts(self) -> PayoutSheet | None:
        """Each hand's result, then every movement of chips in the order of the bank's
        procedure, in large type over the screen, with "Confirm payouts"."""
        state = self.session.state
        if state.phase is not pg.Phase.REVEAL:
            return None
        if self.sheet is not None:
            self.sheet.dismiss()
        sheet = PayoutSheet(
            _("Round %(round)s: pay and take in this order") % {"round": state.round},
            settlement_blocks(state), unit=self.unit, touch=self.touch,
            on_confirm=lambda: self.act(pg.confirm_payouts),
            confirm_refused=lambda: refusal(pg.verify_confirm_payouts, self.session.state))
        sheet.bind(on_dismiss=lambda *_a: setattr(self, "sheet", None))
        self.sheet = sheet
        sheet.open()
        return sheet

    def why_not(self, name: str, widget: Any) -> str:
        """Rules 2.2 and 13 in the engine's words for a greyed-out control."""
        s = self.session.state
        if hasattr(widget, "value") and not name:  # a chip of the rack
            return refusal(pg.verify_place_bet, s, self.selected_area, int(widget.value))
        if name == "primary":
            if s.phase is pg.Phase.BETTING:
                return refusal(pg.verify_close_betting, s)
            return refusal(pg.verify_confirm_payouts, s)
        words: dict[str, Callable[[], str]] = {
            "wash": lambda: refusal(pg.verify_shuffle, s) or _(
                "The tiles were washed for this round already"),
            "bank": lambda: refusal(pg.verify_take_bank, s, pg.Bank.HOUSE, 1, 0),
            "correct": lambda: refusal(pg.verify_unset_hand, s, self.selected_area),
            "void": lambda: refusal(pg.verify_void_round, s, "a reason"),
            "undo": lambda: _("Nothing to take back: Undo takes back a wager placed in "
                              "this round"),
        }
        return words[name]() if name in words else ""

    # --- showing the state ---------------------------------------------------------------

    def _on_session(self, _state: Any, _op: Operation | None) -> None:
        self._refresh_trigger()

    def refresh(self, *_args: Any) -> None:
        s: Session = self.session
        state = s.state
        self.header = f"{self.table_name}   ·   " + _("Round %(round)s") % {"round": state.round}
        self.shoe_ok = True
        self.shoe_status = bank_words(state)
        self.step = say(s.next_step())  # the rules' words, in the dealer's language
        phase = state.phase
        reveal = phase is pg.Phase.REVEAL
        self.step_tone = theme.GOLD if reveal else theme.FELT_DARK
        self.step_dark_text = reveal
        for area, card in self.cards.items():
            card.selected = area == self.selected_area
            card.chung = area == state.chung
            card.turn = phase is pg.Phase.SETTING and state.to_set == area
            card.detail = area_detail(state, area)
            set_ = state.hand_of(area)
            # A player's tiles face up once keyed: the dealer keys them from the layout.
            card.tiles = ([t.code for t in (*set_[0], *set_[1])] if set_ is not None
                          else ["", "", "", ""])
        # The bank: its hands once set, and the house way's reason (13.1.2, 13.1.5).
        self.bank_flat = state.bank is pg.Bank.HOUSE
        if state.bank_hand is not None:
            high, low = state.bank_hand
            self.bank_tiles = [t.code for t in (*high, *low)]
            self.bank_why = f"{pair_words(high)}\n{pair_words(low)}"
        else:
            self.bank_tiles = ["", "", "", ""]
            self.bank_why = ""
        # The chips go on the selected area.
        for chip in self.ids.chips.children:
            chip.disabled = not pg.can_place_bet(state, self.selected_area, int(chip.value))
        self.can_undo = self.undo_allowed()
        self.primary_paying = reveal
        self.primary_text, self.primary_enabled = self._primary(state)
        self.step_detail = ""
        if phase is pg.Phase.BETTING and state.bets and not self.primary_enabled:
            try:
                pg.verify_close_betting(state)
            except TablesideError as exc:
                self.step_detail = said(exc.sentence, str(exc))
        if phase is pg.Phase.CONFIRM and state.bank_why:
            # TRANSLATORS: under the step while the supervisor checks the House hand (13.1.5).
            self.step_detail = _("House way: %(why)s") % {"why": say(state.bank_why)}
        legal = pg.legal_actions(state)
        self.can_void = "void_round" in legal
        self.can_wash = pg.can_shuffle(state) and not state.washed
        self.can_bank = phase is pg.Phase.BETTING
        self.can_correct = pg.can_unset_hand(state, self.selected_area)
        if reveal and self._sheet_round != state.round:
            # The reveal: the settlement opens by itself, in large type.
            self._sheet_round = state.round
            Clock.schedule_once(lambda _dt: self.open_payouts(), 0)
        self.show_inspector()
        self.show_alerts()

    def _primary(self, state: pg.PaiGowState) -> tuple[str, bool]:
        phase = state.phase
        if phase is pg.Phase.BETTING:
            return _("No more bets"), pg.can_close_betting(state)
        if phase is pg.Phase.SETTING:
            # TRANSLATORS: the pai gow dealer's big button: key in the next hand's tiles.
            return _("Key in tiles"), True
        if phase is pg.Phase.CONFIRM:
            # TRANSLATORS: the pai gow dealer's big button: the supervisor confirms the House
            # hand is set the house way (rule 13.1.5).
            return _("Supervisor confirms"), True
        return _("Confirm payouts"), pg.can_confirm_payouts(state)

