"""The dealer's punto banco screen (rules 5.2-5.7).

It shows the state and sends actions; every button is enabled from the engine's `can_`
queries and every refusal comes back as the engine's sentence. Nothing here decides a rule.
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
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.rules.errors import TablesideError
from kiosk.rules.money import format_money
from kiosk.rules.operations import Operation
from kiosk.table.session import Alert, Severity, TableSession
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.card_face import CardFace
from kiosk.ui.dealer.card_keypad import CardKeypad
from kiosk.ui.dealer.choices import BadgePad, ReasonPicker
from kiosk.ui.perf_present import flush_each_frame
from kiosk.ui.widgets import AreaTile, ChipButton

log = logging.getLogger(__name__)
Builder.load_file(str(Path(__file__).with_name("punto_banco.kv")))

Session = TableSession[pb.PuntoBancoState]

KIND_SHORT = {pb.BetKind.BANKER: "B", pb.BetKind.PLAYER: "P", pb.BetKind.TIE: "T"}
CHIP_TONES = (theme.rgb("#e8e8e8"), theme.rgb("#c62828"), theme.rgb("#2e7d32"),
              theme.rgb("#1b1b1b"), theme.rgb("#6a1b9a"), theme.rgb("#ef8f00"))
VOID_REASONS = ("Misdeal: cards out of order", "Card exposed or dropped",
                "Shoe or card reader fault", "Inspector's decision")
SEVERITY_TONE = {Severity.INFO: theme.INFO, Severity.WARNING: theme.WARNING,
                 Severity.STOP: theme.STOP}


# The usual casino chip values, in cents.
CHIP_SERIES = tuple(units * 100 for units in (1, 2, 5, 10, 25, 50, 100, 500, 1000, 5000))


def default_chip_values(smallest_chip: int) -> tuple[int, ...]:
    """Five chip buttons: the house's smallest chip and the next usual values that are whole
    numbers of it (R5: 5, 10, 25, 50, 100)."""
    values = [smallest_chip]
    values += [v for v in CHIP_SERIES if v > smallest_chip and v % smallest_chip == 0]
    return tuple(values[:5])


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


class PuntoBancoDealer(BoxLayout):
    """The whole dealer screen for one punto banco table."""

    unit = NumericProperty(1.0)  # 1.0 at 800x480; everything scales with the screen
    touch = NumericProperty(48.0)  # the smallest touch target in px (9 mm)
    header = StringProperty("")
    shoe_status = StringProperty("")
    shoe_ok = BooleanProperty(True)
    step = StringProperty("")
    step_detail = StringProperty("")  # why the next step cannot be taken yet, in the rules' words
    step_tone = ColorProperty(theme.FELT_DARK)
    step_dark_text = BooleanProperty(False)  # dark ink on the gold and amber banners
    alert_text = StringProperty("")
    alert_tone = ColorProperty(theme.INFO)
    alert_shown = BooleanProperty(False)
    alert_dark_text = BooleanProperty(False)
    selected_area = StringProperty("1")
    selected_kind = StringProperty(pb.BetKind.BANKER.value)
    primary_text = StringProperty("No more bets")
    primary_enabled = BooleanProperty(False)
    inspector_text = StringProperty("Call inspector")
    inspector_called = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_key_card = BooleanProperty(False)
    can_void = BooleanProperty(False)
    can_shuffle = BooleanProperty(False)
    can_collect = BooleanProperty(False)
    can_accept = BooleanProperty(False)
    chip_values = ListProperty([])
    session = ObjectProperty(None, allownone=True)

    def __init__(self, session: Session, *, table_name: str = "",
                 chip_values: tuple[int, ...] = (),
                 on_new_shoe: Callable[[], None] | None = None,
                 px_per_mm: float = theme.PI_TOUCHSCREEN_PX_PER_MM, **kwargs: Any) -> None:
        self.table_name = table_name or session.table_id
        self.on_new_shoe = on_new_shoe
        self.px_per_mm = px_per_mm
        self._undo: list[tuple[int, str, pb.BetKind, int]] = []  # (coup, area, kind, amount)
        self._alerts_seen = 0  # the alerts from opening the table too (a restart's news)
        self._shown_alert: Alert | None = None
        super().__init__(**kwargs)
        self.session = session
        rules = session.state.rules
        self.chip_values = list(chip_values or default_chip_values(rules.chips.smallest_chip))
        self._build_chips()
        self._build_areas()
        self._refresh_trigger = Clock.create_trigger(self.refresh, 0)
        session.listeners.append(self._on_session)
        self.bind(size=self._rescale)
        self._rescale()
        self.refresh()
        # Once the window exists: each frame drawn before the next (see perf_present).
        Clock.schedule_once(lambda _dt: flush_each_frame(), 0)

    # --- layout ------------------------------------------------------------------------

    def _rescale(self, *_args: Any) -> None:
        w, h = self.size
        self.unit = theme.ui_unit(w, h)
        self.touch = max(theme.Metrics(self.px_per_mm).touch, 46 * self.unit)

    def _build_chips(self) -> None:
        box = self.ids.chips
        box.clear_widgets()
        cur = self.session.state.rules.currency
        for i, value in enumerate(self.chip_values):
            chip = ChipButton(value=value, text=_chip_label(value, cur),
                              tone=CHIP_TONES[i % len(CHIP_TONES)])
            if i == 0:
                chip.color = theme.INK
            chip.bind(on_release=lambda w: self.add_chip(int(w.value)))
            box.add_widget(chip)

    def _build_areas(self) -> None:
        grid = self.ids.areas
        grid.clear_widgets()
        area_ids = self.session.state.rules.area_ids()
        grid.cols = 5  # 7-14 areas and the standing area: two or three rows
        for area in area_ids:
            tile = AreaTile(area=area, title=_area_title(area))
            tile.bind(on_release=lambda t: self.select_area(t.area))
            self.bind(unit=tile.setter("unit"))
            tile.unit = self.unit
            grid.add_widget(tile)
        if self.selected_area not in area_ids:
            self.selected_area = area_ids[0]

    # --- actions (each one the engine checks) ------------------------------------------

    def act(self, action: Callable[[pb.PuntoBancoState], Operation]) -> Operation | None:
        """Send one action; a refusal is shown in the engine's words and changes nothing."""
        try:
            return self.session.perform(action)
        except TablesideError as exc:
            self.session.alert(Severity.WARNING, str(exc))
            return None
        except Exception as exc:  # a bug or a full disk must not close the dealer's screen
            log.exception("action failed")
            self.session.alert(Severity.STOP, f"Not recorded: {exc}",
                               "Call a technician; nothing was changed")
            return None

    def select_area(self, area: str) -> None:
        self.selected_area = area
        self.refresh()

    def select_kind(self, kind: str) -> None:
        self.selected_kind = kind
        self.refresh()

    def add_chip(self, amount: int) -> None:
        area, kind = self.selected_area, pb.BetKind(self.selected_kind)
        op = self.act(lambda s: pb.place_bet(s, area, kind, amount))
        if op is not None:
            self._undo.append((self.session.state.coup, area, kind, amount))

    def undo(self) -> None:
        last = self._undo_top()
        if last is None:
            return
        _coup, area, kind, amount = last
        if self.act(lambda s: pb.remove_bet(s, area, kind, amount)) is not None:
            self._undo.pop()

    def _undo_top(self) -> tuple[int, str, pb.BetKind, int] | None:
        coup = self.session.state.coup
        while self._undo and self._undo[-1][0] != coup:
            self._undo.pop()  # chips of an earlier coup cannot be taken back
        return self._undo[-1] if self._undo else None

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

    def call_inspector(self, source: str = "screen") -> None:
        """The screen's and the table's "call inspector" buttons both come here."""
        try:
            self.session.call_inspector(source)
        except TablesideError as exc:
            self.session.alert(Severity.STOP, f"Not recorded: {exc}", "Call a technician")

    def inspector_button(self) -> None:
        if not self.session.inspector_called:
            self.call_inspector("screen")
            return
        BadgePad(title="Inspector attended: badge number",
                 on_done=lambda badge: self._attended(badge)).open()

    def _attended(self, badge: str) -> None:
        try:
            self.session.inspector_attended(f"inspector {badge}")
        except TablesideError as exc:
            self.session.alert(Severity.WARNING, str(exc))

    def new_shoe(self) -> None:
        if not pb.can_shuffle(self.session.state):
            return
        if self.on_new_shoe is not None:
            self.on_new_shoe()
        self.act(lambda s: pb.shuffle(s, "hand"))

    def open_keypad(self) -> None:
        CardKeypad(state_of=lambda: self.session.state, on_card=self.key_card).open()

    def key_card(self, card: Card) -> None:
        self.act(lambda s: pb.deal_card(s, card, pb.CardSource.KEYED))

    def open_void(self) -> None:
        ReasonPicker(title="Void this coup: every bet goes back", reasons=VOID_REASONS,
                     on_done=lambda reason: self.act(
                         lambda s: pb.void_coup(s, reason, "dealer"))).open()

    def open_accept(self) -> None:
        BadgePad(title="Inspector accepts the queried card: badge number",
                 on_done=lambda badge: self.act(
                     lambda s: pb.accept_queried_card(s, f"inspector {badge}"))).open()

    def collect(self) -> None:
        area = self.selected_area
        self.act(lambda s: pb.collect_commission(s, area))

    def dismiss_alert(self) -> None:
        self._shown_alert = None
        self.alert_shown = False
        self.alert_text = ""

    # --- showing the state ---------------------------------------------------------------

    def _on_session(self, _state: Any, _op: Operation | None) -> None:
        self._refresh_trigger()

    def refresh(self, *_args: Any) -> None:
        s: Session = self.session
        state = s.state
        rules = state.rules
        cur = rules.currency
        shoe = f"{state.shoe.remaining} cards in the shoe" if state.shoe else "No shoe loaded"
        if state.cut_card_out:
            shoe += " · last coup"
        self.header = f"{self.table_name}   ·   Coup {state.coup}"
        online = s.device_online.get("SHOE", True)
        self.shoe_ok = online
        self.shoe_status = shoe if online else "Shoe not answering: key cards in"
        self.step = s.next_step()
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
        for tile in self.ids.areas.children:
            tile.selected = tile.area == self.selected_area
            owed = state.owed_by(tile.area)
            lines: list[str] = []
            if settlements:
                lines = [_settled_line(x, cur) for x in settlements if x.area == tile.area]
            else:
                for kind in pb.BetKind:
                    amount = state.bet_total(tile.area, kind)
                    if amount:
                        lines.append(f"{KIND_SHORT[kind]} {format_money(amount, cur)}")
            if owed:
                lines.append(f"[color=#f2a900]owes {format_money(owed, cur)}[/color]")
            tile.detail = "\n".join(lines)
            tile.attention = bool(owed) and state.phase is pb.Phase.BETTING
        # Bet entry, enabled by the engine for the selected area and kind.
        area, kind = self.selected_area, pb.BetKind(self.selected_kind)
        for chip in self.ids.chips.children:
            chip.disabled = not pb.can_place_bet(state, area, kind, int(chip.value))
        for button in self.ids.kinds.children:
            button.selected = button.kind == self.selected_kind
            button.disabled = state.phase is not pb.Phase.BETTING
        top = self._undo_top()
        self.can_undo = top is not None and pb.can_remove_bet(state, *top[1:])
        # The big button and the others.
        if state.phase is pb.Phase.PAYING:
            self.primary_text = "Confirm payouts"
            self.primary_enabled = pb.can_confirm_payouts(state)
        elif state.phase is pb.Phase.DEALING:
            self.primary_text = "Dealing…"
            self.primary_enabled = False
        else:
            self.primary_text = "No more bets"
            self.primary_enabled = pb.can_close_betting(state)
        self.step_detail = ""
        if state.phase is pb.Phase.BETTING and state.bets and not self.primary_enabled:
            try:
                pb.verify_close_betting(state)
            except TablesideError as exc:
                self.step_detail = str(exc)
        legal = pb.legal_actions(state)
        self.can_key_card = "deal_card" in legal
        self.can_void = "void_round" in legal
        self.can_shuffle = pb.can_shuffle(state) and (state.shoe is None or state.cut_card_out
                                                      or state.coup == 1 or not state.bets)
        self.can_collect = pb.can_collect_commission(state, area)
        self.can_accept = state.pending is not None and state.pending.reason == "impossible"
        self.inspector_called = s.inspector_called
        self.inspector_text = "Inspector here" if s.inspector_called else "Call inspector"
        self._show_alerts()

    def _show_alerts(self) -> None:
        s = self.session
        fresh = s.alerts_since(self._alerts_seen)
        self._alerts_seen = s.alerts_raised
        if not fresh:
            return
        # Show the most serious of the new ones; a STOP is never replaced by an INFO.
        order = {Severity.INFO: 0, Severity.WARNING: 1, Severity.STOP: 2}
        best = max(fresh, key=lambda a: order[a.severity])
        if self._shown_alert is not None and \
                order[self._shown_alert.severity] > order[best.severity]:
            return
        self._shown_alert = best
        way = f". {best.way_forward}" if best.way_forward else ""
        self.alert_text = f"{best.message}{way}"
        self.alert_tone = SEVERITY_TONE[best.severity]
        self.alert_dark_text = best.severity is Severity.WARNING
        self.alert_shown = True


def _chip_label(cents: int, currency: str) -> str:
    units, part = divmod(cents, 100)
    if part:
        return format_money(cents, "")
    return f"{units // 1000}k" if units >= 1000 and units % 1000 == 0 else str(units)


def _area_title(area: str) -> str:
    return "Standing" if area == pb.STANDING else f"Area {area}"


def _settled_line(x: pb.BetSettlement, currency: str) -> str:
    kind = KIND_SHORT[x.kind]
    stake = format_money(x.stake, currency)
    if x.outcome is pb.Outcome.WIN:
        text = f"{kind} {stake} [color=#7ee08a]pay {format_money(x.paid, currency)}[/color]"
        if x.commission:
            text += f"\n[color=#f2a900]+{format_money(x.commission, currency)} comm.[/color]"
        return text
    if x.outcome is pb.Outcome.STAND_OFF:
        return f"{kind} {stake} [color=#b8cfc2]stands off[/color]"
    return f"{kind} {stake} [color=#ff8a80]take[/color]"
