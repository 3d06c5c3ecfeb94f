"""The roulette dealer's screen (rules 3.2-3.5), usable at 800x480.

Decision for the small screen: the whole layout is always in view, with no zoom. Thirty-seven
numbers fit one finger each at 800x480 (50 px, 9 mm on the Pi's 7" display); what a finger
cannot hit, the line between two numbers, is named by tapping numbers instead: choose the bet
(split, street, corner, six line) and tap the numbers it covers. The call bets of rule 3.4 are
a row of racetrack buttons by name. Every tap places the chips of the colour chosen on the
right, whose totals are shown there. Then the number (from the wheel, or tapped by hand),
the dolly on it, and the payouts per colour to confirm.

The screen decides nothing: each tap is an action of the rules (kiosk/rules/roulette) sent
through the session, refused in the rules' words. Its own words are in the dealer's language
(kiosk/i18n.py), its amounts in the house's money style; the call bets keep their French
names, as racetracks print them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line
from kivy.properties import ListProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.popup import Popup

from kiosk.i18n import N_, _, pgettext, say
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import Operation
from kiosk.rules.roulette import engine as rl
from kiosk.rules.roulette.bets import BetKind, CallBet, bet_from_taps
from kiosk.rules.roulette.engine import Direction, Phase, Source
from kiosk.rules.roulette.wheel import Colour, Wheel, colour_of
from kiosk.table.roles import Override
from kiosk.table.session import Severity
from kiosk.ui import theme
from kiosk.ui.dealer.base import VOID_REASONS, DealerScreen, refusal
from kiosk.ui.dealer.payout_words import money
from kiosk.ui.dealer.payouts import PayoutSheet
from kiosk.ui.dealer.roulette_words import colour_blocks, colour_name, payout_words, pocket_words
from kiosk.ui.text_label import TextLabel
from kiosk.ui.widgets import RefusalLine, SaysWhyHere, TableButton

POCKET_TONES = {Colour.RED: theme.rgb("#b71c1c"), Colour.BLACK: theme.rgb("#1b1b1b"),
                Colour.GREEN: theme.rgb("#1b7a3e")}
CHIP_COLOURS = {"pink": "#c2185b", "yellow": "#f4c20d", "blue": "#1e63d6", "green": "#1e7a38",
                "purple": "#7b3fb5", "orange": "#ef7d00", "brown": "#7a4a24",
                "white": "#f2f2f2", "grey": "#8a8a8a", "lime": "#9bd31e"}
DARK_INK = frozenset(c for c, hex_ in CHIP_COLOURS.items()
                     if theme.contrast(theme.INK, theme.rgb(hex_))
                     > theme.contrast(theme.WHITE, theme.rgb(hex_)))
"""The colours whose buttons read better in dark ink than in white (WCAG contrast)."""
MODES = (BetKind.STRAIGHT, BetKind.SPLIT, BetKind.STREET, BetKind.CORNER, BetKind.SIX_LINE)
CALLS = ((CallBet.NEIGHBOURS_OF_ZERO, "Voisins"), (CallBet.SERIES_5_8, "Tiers 5/8"),
         # TRANSLATORS: the racetrack's "a number and its neighbours" call bet, on a button
         # 80 pixels wide at 800x480 (Voisins, Tiers and Orphelins keep their French names).
         (CallBet.ORPHANS, "Orphelins"), (CallBet.NEIGHBOURS, N_("N + nbrs")))
UNITS = (1, 2, 5, 10)
NUMBER = "number"  # the mode in which a tap calls the winning number
NEIGHBOURS = "neighbours"  # the mode in which a tap names the number of "N and neighbours"
VALUES = (500, 1_000, 2_500, 5_000, 10_000)  # chip change: value per wheel chip, cents
COUNTS = (20, 50, 100)

# The design is laid out for 800x480 in fractions of the screen, so it scales to any size.
GRID_TOP, GRID_BOTTOM = 0.915, 0.585
ZERO_W, CELL_W = 0.06, 0.0625
RIGHT = 0.875

MODE_WORDS: dict[BetKind, Callable[[], str]] = {
    # TRANSLATORS: the roulette bets the dealer taps numbers for, on buttons 80 pixels wide
    # at 800x480: the players' sign's names for them where they fit.
    BetKind.STRAIGHT: lambda: pgettext("roulette button", "Straight"),
    BetKind.SPLIT: lambda: pgettext("roulette button", "Split"),
    BetKind.STREET: lambda: pgettext("roulette button", "Street"),
    BetKind.CORNER: lambda: pgettext("roulette button", "Corner"),
    BetKind.SIX_LINE: lambda: pgettext("roulette button", "Line"),
}
"""Each bet mode's button, in the dealer's language when the screen is built."""


def chip_tone(colour: str) -> tuple[float, float, float, float]:
    return theme.rgb(CHIP_COLOURS.get(colour, "#888888"))


class NumberCell(TableButton):  # type: ignore[misc]
    """One number of the layout."""

    def __init__(self, number: str, **kwargs: Any) -> None:
        super().__init__(text=number, tone=POCKET_TONES[colour_of(number)], **kwargs)
        self.number = number


class RouletteScreen(DealerScreen):  # type: ignore[misc]
    """The dealer's layout, colours, call bets, spin controls and payouts."""

    mode = StringProperty(BetKind.STRAIGHT.value)
    colour = StringProperty("")
    taps = ListProperty([])
    payout_text = StringProperty("")

    def __init__(self, session: Any, *, table_name: str = "",
                 wheel_online: Callable[[], bool] | None = None,
                 start_wheel: Callable[[], bool] | None = None, **kwargs: Any) -> None:
        self.table_name = table_name or session.table_id
        self.wheel_online = wheel_online or (lambda: False)
        self.start_wheel = start_wheel
        self.units = 1
        self._sheet_for = 0
        self._scaled: list[tuple[Any, float]] = []
        self.start_screen()
        super().__init__(orientation="vertical", **kwargs)  # the sync's line goes below
        self.session = session
        self.board = FloatLayout()
        self.add_widget(self.board)
        self.cells: dict[str, NumberCell] = {}
        self.colour_buttons: dict[str, TableButton] = {}
        self.mode_buttons: dict[str, TableButton] = {}
        self.call_buttons: dict[str, TableButton] = {}
        self.outside_buttons: dict[str, TableButton] = {}
        self.pad: ChipChangePad | None = None
        self._build()
        self._marks_trigger = Clock.create_trigger(self._draw_marks, 0)
        for cell in self.cells.values():  # the marks follow the cells wherever they go
            cell.bind(pos=self._marks_trigger, size=self._marks_trigger)
        self.go_live(lambda _s, _op: self._refresh_trigger())

    # --- building -------------------------------------------------------------------------

    def _place(self, widget: Any, x: float, y: float, w: float, h: float) -> Any:
        widget.size_hint = (w, h)
        widget.pos_hint = {"x": x, "y": y}
        self.board.add_widget(widget)
        if hasattr(widget, "font_size"):  # its size at 800x480; it grows with the screen
            # The size asked for, not the size a long word was fitted to in the widget's
            # first, default box (kiosk/ui/text_label.py).
            wanted = getattr(widget, "_wanted_size", None) or widget.font_size
            self._scaled.append((widget, float(wanted)))
        return widget

    def _rescale(self, *_args: Any) -> None:
        """Text grows with the screen, as the other dealer screens' (theme.ui_unit): the same
        millimetres on a 1024x600 7" panel as on the 800x480 one."""
        unit = theme.ui_unit(*self.size)
        self.unit = unit
        for widget, base in self._scaled:
            widget.font_size = base * unit

    def _button(self, text: str, x: float, y: float, w: float, h: float,
                on_press: Callable[[], Any], tone: Any = theme.FELT_LIGHT) -> TableButton:
        b = TableButton(text=text, tone=tone, font_size=15)
        b.bind(on_release=lambda *_: on_press())
        return self._place(b, x + 0.003, y + 0.005, w - 0.006, h - 0.01)  # type: ignore[no-any-return]

    def _build(self) -> None:
        rules: rl.RouletteRules = self.session.state.rules
        row_h = (GRID_TOP - GRID_BOTTOM) / 3
        zeros = ("0",) if rules.wheel is Wheel.SINGLE_ZERO else ("00", "0")
        zh = (GRID_TOP - GRID_BOTTOM) / len(zeros)
        for i, z in enumerate(zeros):
            self.cells[z] = self._cell(z, 0.0, GRID_BOTTOM + i * zh, ZERO_W, zh)
        for n in range(1, 37):
            col, row = (n - 1) // 3, (n - 1) % 3  # the layout: 1, 2, 3 bottom to top
            self.cells[str(n)] = self._cell(str(n), ZERO_W + col * CELL_W,
                                            GRID_BOTTOM + row * row_h, CELL_W, row_h)
        x_end = ZERO_W + 12 * CELL_W
        for which in (1, 2, 3):
            self._button("2:1", x_end, GRID_BOTTOM + (which - 1) * row_h, RIGHT - x_end, row_h,
                         partial(self.outside, BetKind.COLUMN, which))
        y = GRID_BOTTOM - 0.075
        # TRANSLATORS: the dozens as the layout prints them.
        dozens = ((1, _("1st 12")), (2, _("2nd 12")), (3, _("3rd 12")))
        for which, label in dozens:
            self._button(label, ZERO_W + (which - 1) * 4 * CELL_W, y, 4 * CELL_W, 0.075,
                         partial(self.outside, BetKind.DOZEN, which))
        y -= 0.075
        # TRANSLATORS: the even chances as the layout prints them, on buttons 100 pixels wide.
        evens = ((BetKind.LOW, "1-18"), (BetKind.EVEN, _("Even")), (BetKind.RED, _("Red")),
                 (BetKind.BLACK, _("Black")), (BetKind.ODD, _("Odd")), (BetKind.HIGH, "19-36"))
        for i, (kind, label) in enumerate(evens):
            tone = POCKET_TONES.get(Colour(kind.value)) if kind.value in ("red", "black") \
                else theme.FELT_LIGHT
            self.outside_buttons[kind.value] = self._button(
                label, ZERO_W + i * 2 * CELL_W, y, 2 * CELL_W, 0.075,
                partial(self.outside, kind), tone)
        # bet modes and the racetrack's call bets, one row
        y, w = 0.335, 0.1
        for i, kind in enumerate(MODES):
            b = self._button(MODE_WORDS[kind](), i * w, y, w, 0.085,
                             partial(self.set_mode, kind.value))
            self.mode_buttons[kind.value] = b
        for i, (call, label) in enumerate(CALLS):
            b = self._button(_(label), (5 + i) * w, y, w, 0.085, partial(self.call, call),
                             theme.rgb("#5b3a1a"))
            self.call_buttons[call.value] = b
            if call is CallBet.NEIGHBOURS:
                self.mode_buttons[NEIGHBOURS] = b
            else:
                b.disabled = not rules.call_bets
            if not rules.call_bets:
                b.disabled = True
        self.units_button = self._button("x1", 0.9, y, 0.1, 0.085, self.next_units,
                                         theme.GOLD)
        self.units_button.color = theme.INK  # dark on gold
        # the colours in play, with their chips on the layout
        colours = rl.COLOURS[:rules.colours]
        ch = (GRID_TOP - 0.335 - 0.085) / len(colours)
        for i, c in enumerate(colours):
            b = self._button(colour_name(c), RIGHT, GRID_TOP - (i + 1) * ch, 1 - RIGHT, ch,
                             partial(self.choose_colour, c), chip_tone(c))
            if c in DARK_INK:
                b.color = theme.INK
            self.colour_buttons[c] = b
        # what the dealer reads: the step, the alert, the totals or payouts
        # The header, as the other screens': the step; the dealer's sign-in (while the table
        # has a people list) and "More" (cash and chips, disputes, hours); the table.
        self.step_label = self._place(TextLabel(font_size=17, bold=True, halign="left",
                                                valign="middle"), 0.01, 0.92, 0.38, 0.08)
        self.sign_button = self._button(_("Sign in"), 0.39, 0.92, 0.14, 0.08,
                                        self.dealer_button, theme.RAIL)
        # TRANSLATORS: roulette's header button that opens cash and chips, disputes and
        # hours (the other screens' "More"); keep it short.
        self.floor_button = self._button(_("More"), 0.53, 0.92, 0.10, 0.08, self.open_floor,
                                         theme.RAIL)
        self.status_label = self._place(TextLabel(font_size=14, halign="right",
                                                  valign="middle"), 0.64, 0.92, 0.35, 0.08)
        self.alert_label = self._place(TextLabel(font_size=14, halign="left",
                                                 valign="middle"), 0.01, 0.255, 0.98, 0.075)
        self.text_label = self._place(TextLabel(font_size=14, halign="left",
                                                valign="top"), 0.01, 0.01, 0.44, 0.17)
        for lbl in (self.step_label, self.status_label, self.alert_label, self.text_label):
            lbl.bind(size=lambda lb, sz: setattr(lb, "text_size", sz))
        # the acts
        bx, bw, bh = 0.46, 0.18, 0.12
        self.spin_button = self._button(_("Spin"), bx, 0.13, bw, bh, self.spin)
        self.final_button = self._button(_("Final bets"), bx + bw, 0.13, bw, bh,
                                         lambda: self.act(rl.final_bets))
        self.close_button = self._button(_("No more bets"), bx + 2 * bw, 0.13, bw, bh,
                                         self.no_more_bets, theme.rgb("#8a1c1c"))
        self.no_spin_button = self._button(_("No spin"), bx, 0.01, bw, bh, self.no_spin)
        self.void_button = self._button(_("Void spin"), bx + bw, 0.01, bw, bh, self.void)
        self.confirm_button = self._button(_("Confirm payouts"), bx + 2 * bw, 0.01, bw, bh,
                                           lambda: self.act(rl.confirm_payouts), theme.GOLD)
        self.confirm_button.color = theme.INK
        self.change_button = self._button(_("Chip change"), 0.0, 0.18, 0.15, 0.075,
                                          self.open_chip_change)
        self.cash_button = self._button(_("Cash in"), 0.15, 0.18, 0.15, 0.075, self.cash_in)
        self.back_button = self._button(_("Take back"), 0.30, 0.18, 0.15, 0.075,
                                        self.take_back)

    def _cell(self, number: str, x: float, y: float, w: float, h: float) -> NumberCell:
        cell = NumberCell(number, font_size=17)
        cell.bind(on_release=lambda *_: self.tap_number(number))
        self._place(cell, x + 0.002, y + 0.004, w - 0.004, h - 0.008)
        return cell

    # --- what a tap does --------------------------------------------------------------------

    @property
    def state(self) -> rl.RouletteState:
        return self.session.state  # type: ignore[no-any-return]

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.taps = []
        self.refresh()

    def next_units(self) -> None:
        self.units = UNITS[(UNITS.index(self.units) + 1) % len(UNITS)]
        self.refresh()

    def choose_colour(self, colour: str) -> None:
        if self.state.phase is Phase.RESULT:
            self.open_payouts()
            return
        self.colour = colour
        self.refresh()

    def open_payouts(self) -> PayoutSheet | None:
        """Each colour's winnings and losing chips in large type (rule 3.5), four colours a
        page."""
        state = self.state
        if state.phase is not Phase.RESULT or not state.layout:
            return None
        title = _("%(pocket)s: pay and take") % {"pocket": pocket_words(state.number or "")}
        sheet = PayoutSheet(title, colour_blocks(state), unit=theme.ui_unit(*self.size),
                            touch=self.touch, per_page=4,
                            on_confirm=lambda: self.act(rl.confirm_payouts),
                            confirm_refused=lambda: refusal(rl.verify_confirm_payouts,
                                                            self.state))
        sheet.open()
        return sheet

    def _need_colour(self) -> bool:
        if not self.colour:
            self.session.alert(Severity.WARNING, N_("Choose the player's colour first"))
            return False
        return True

    def _bet(self, place: Callable[[rl.RouletteState], Operation],
             late: Callable[[rl.RouletteState], Operation]) -> None:
        """Chips on the layout, or a no bet once bets are closed (rule 3.4)."""
        if self.state.phase is Phase.NO_MORE_BETS:
            self.act(late)
        else:
            self.act(place)

    def tap_number(self, number: str) -> None:
        state = self.state
        if self.mode == NUMBER:
            self.act(lambda s: rl.call_number(s, number, Source.HAND))
            return
        if not self._need_colour():
            return
        c, u = self.colour, self.units
        if self.mode == NEIGHBOURS:
            self._bet(lambda s: rl.place_call_bet(s, c, CallBet.NEIGHBOURS, u, number),
                      lambda s: rl.no_call_bet(s, c, CallBet.NEIGHBOURS, u, number))
            self.set_mode(BetKind.STRAIGHT.value)
            return
        kind = BetKind(self.mode)
        taps = (*self.taps, number)
        try:
            numbers = bet_from_taps(kind, taps, state.rules.wheel)
        except TablesideError as exc:  # the rules' words for taps that name no bet
            self.taps = []
            self.session.refused(exc)
            return
        if numbers is None:
            self.taps = list(taps)
            self.refresh()
            return
        self.taps = []
        self._bet(lambda s: rl.place_bet(s, c, kind, u, numbers),
                  lambda s: rl.no_bet(s, c, kind, u, numbers))

    def outside(self, kind: BetKind, which: int = 1) -> None:
        if not self._need_colour():
            return
        c, u = self.colour, self.units
        self._bet(lambda s: rl.place_bet(s, c, kind, u, which=which),
                  lambda s: rl.no_bet(s, c, kind, u, which=which))

    def call(self, call: CallBet) -> None:
        if call is CallBet.NEIGHBOURS:
            self.set_mode(NEIGHBOURS)
            return
        if not self._need_colour():
            return
        c, u = self.colour, self.units
        self._bet(lambda s: rl.place_call_bet(s, c, call, u),
                  lambda s: rl.no_call_bet(s, c, call, u))

    def spin(self) -> None:
        """With a wheel: ask it to launch the ball (it reports the spin); without one: the
        dealer spun it, the other way from the last spin (rule 3.2)."""
        if self.wheel_online() and self.start_wheel is not None:
            if not rl.can_spin_ball(self.state, Direction.CLOCKWISE):
                self.act(lambda s: rl.spin_ball(s, Direction.CLOCKWISE))  # the refusal
            elif not self.start_wheel():
                self.session.alert(Severity.WARNING, N_("The wheel did not take the start"),
                                   N_("Spin by hand: the wheel's reports still count"))
            return
        way = rl.expected_direction(self.state) or Direction.CLOCKWISE
        self.act(lambda s: rl.spin_ball(s, way))

    def no_more_bets(self) -> None:
        if self.act(rl.close_betting) is not None and not self.wheel_online():
            self.set_mode(NUMBER)

    def no_spin(self) -> None:
        self.act(lambda s: rl.no_spin(s, "the ball left the wheel or was stopped"))

    def void(self) -> None:
        self.override(Override.VOID, _("Void this spin: every bet goes back"),
                      lambda pid, reason: lambda s: rl.void_round(s, reason),
                      lambda: self.act(lambda s: rl.void_round(s, "voided by the dealer")),
                      reasons=VOID_REASONS)

    def take_back(self) -> None:
        if self._need_colour():
            c = self.colour
            self.act(lambda s: rl.take_back(s, c))

    def cash_in(self) -> None:
        if self._need_colour():
            c = self.colour
            self.act(lambda s: rl.cash_in(s, c))

    def chip_change(self, colour: str, chips: int, value_each: int) -> Operation | None:
        return self.act(lambda s: rl.chip_change(s, colour, chips, value_each))

    def open_chip_change(self) -> None:
        if self._need_colour():
            self.pad = ChipChangePad(self, self.colour)
            self.pad.open()

    def wheel_chips(self) -> tuple[str, int] | None:
        """The colour chosen and its value each, for a cash buy-in in wheel chips (rule 2.1;
        None: no colour chosen or none given out yet, the buy-in is in value chips)."""
        stack = self.state.stack(self.colour) if self.colour else None
        return (self.colour, stack.value_each) if stack is not None else None

    def open_floor(self) -> None:
        from kiosk.ui.dealer.floor import FloorPanel

        FloorPanel(self.session, wheel=self.wheel_chips).open()

    def show_dealer(self) -> None:
        """The dealer's button in the header while the table has a people list (laid out
        here in code, where the other screens have theirs beside the inspector's)."""
        checked = bool(self.session.people.checked)
        button = self.sign_button
        if checked and button.parent is None:
            self.board.add_widget(button)
        elif not checked and button.parent is not None:
            self.board.remove_widget(button)
        self.step_label.size_hint_x = 0.38 if checked else 0.52
        dealer = self.session.dealer
        button.text = (_("Sign in") if dealer is None
                       else _("Sign out %(id)s") % {"id": dealer.id})

    # --- showing ------------------------------------------------------------------------

    def refresh(self, *_args: Any) -> None:
        state = self.state
        rules = state.rules
        self.show_alerts()
        self.show_inspector()
        if state.phase is not Phase.NO_MORE_BETS and self.mode == NUMBER:
            self.mode = BetKind.STRAIGHT.value
        wheel = _("wheel online") if self.wheel_online() else _("no wheel: numbers by hand")
        self.step_label.text = _("Spin %(spin)s: %(step)s") % {"spin": state.spin,
                                                               "step": say(rl.next_step(state))}
        self.status_label.text = f"{self.table_name}\n{wheel}"
        self.alert_label.text = self.alert_text if self.alert_shown else (
            _("Tap the numbers a bet covers") if self.mode in (BetKind.SPLIT.value,
                                                               BetKind.CORNER.value,
                                                               BetKind.SIX_LINE.value)
            else _("Tap the winning number") if self.mode == NUMBER else "")
        self.alert_label.color = self.alert_tone if self.alert_shown else theme.MUTED
        for name, b in self.mode_buttons.items():
            b.selected = self.mode == name
        self.units_button.text = f"x{self.units}"
        staked = {c: (n, v) for c, n, v in rl.totals(state)}
        for c, b in self.colour_buttons.items():
            chips = staked.get(c, (0, 0))[0]
            b.selected = c == self.colour
            b.text = f"{colour_name(c)} {chips}" if chips else colour_name(c)
        for n, cell in self.cells.items():
            cell.selected = n in self.taps or n == state.number
        if state.phase is Phase.RESULT and self._sheet_for != state.spin:
            # The number is called: the payouts in large type over the layout, once a spin;
            # tapping a colour opens them again.
            self._sheet_for = state.spin
            Clock.schedule_once(lambda _dt: self.open_payouts(), 0)
        if state.phase is Phase.RESULT:
            settled = rl.settlement(state)
            lines = [_("%(pocket)s: the dolly is on it")
                     % {"pocket": pocket_words(state.number or "")}]
            lines += [payout_words(p, rules) for p in settled.payouts if p.won] or [
                _("No winning bets")]
            lost = sum(p.lost for p in settled.payouts)
            lines.append(_("%(n)s losing chip(s) off the layout") % {"n": lost})
            self.payout_text = "\n".join(lines)
        else:
            self.payout_text = "\n".join(
                _("%(colour)s: %(n)s chips = %(amount)s")
                % {"colour": colour_name(c), "n": n, "amount": money(v, rules.currency)}
                for c, n, v in rl.totals(state)) or _("No bets on the layout")
        last = " ".join(state.results[-8:][::-1])
        self.text_label.text = self._summary(state) + (
            "\n" + _("Last: %(numbers)s") % {"numbers": last} if last else "")
        if self.wheel_online():
            self.spin_button.text = _("Spin (wheel)")
        elif (rl.expected_direction(state) or Direction.CLOCKWISE) is Direction.CLOCKWISE:
            self.spin_button.text = _("Spin clockwise")
        else:
            self.spin_button.text = _("Spin anticlockwise")
        self.spin_button.disabled = not rl.can_spin_ball(state, Direction.CLOCKWISE)
        self.final_button.disabled = not rl.can_final_bets(state)
        self.close_button.disabled = not rl.can_close_betting(state)
        self.no_spin_button.disabled = not rl.can_no_spin(state)
        self.void_button.disabled = not self.may(Override.VOID,
                                                 rl.can_void_round(state, "void"))
        self.confirm_button.disabled = not rl.can_confirm_payouts(state)
        self.cash_button.disabled = not (self.colour and rl.can_cash_in(state, self.colour))
        self.back_button.disabled = not (self.colour and rl.can_take_back(state, self.colour))
        self._marks_trigger()

    def explain_refusal(self, widget: Any) -> None:
        """A greyed-out control: say why in the engine's words (rules 3.2-3.5)."""
        s = self.state
        colour = self.colour
        by_widget: list[tuple[Any, Callable[[], str]]] = [
            (self.spin_button, lambda: refusal(rl.verify_spin_ball, s, Direction.CLOCKWISE)),
            (self.final_button, lambda: refusal(rl.verify_final_bets, s)),
            (self.close_button, lambda: refusal(rl.verify_close_betting, s)),
            (self.no_spin_button, lambda: refusal(rl.verify_no_spin, s)),
            (self.void_button, lambda: self.role_refusal(
                Override.VOID, refusal(rl.verify_void_round, s, "a reason"))),
            (self.confirm_button, lambda: refusal(rl.verify_confirm_payouts, s)),
            (self.cash_button, lambda: refusal(rl.verify_cash_in, s, colour) if colour
             else N_("Choose the player's colour first")),
            (self.back_button, lambda: refusal(rl.verify_take_back, s, colour) if colour
             else N_("Choose the player's colour first")),
        ]
        why = next((tell() for w, tell in by_widget if w is widget), "")
        if not why and widget in self.call_buttons.values():
            why = N_("Call bets are placed on the single-zero wheel only (rule 3.4)")
        self.alert_why(why or _("Not possible at this step: %(step)s")
                       % {"step": say(rl.next_step(s))})

    def _summary(self, state: rl.RouletteState) -> str:
        """At most two short lines for the corner: the payouts themselves are in the sheet,
        in large type; the colours' bets are on their buttons."""
        lines = str(self.payout_text).splitlines()
        if state.phase is Phase.RESULT:
            payouts = rl.settlement(state).payouts
            winners = sum(1 for p in payouts if p.won)  # not "No winning bets"
            lost = sum(p.lost for p in payouts)
            return lines[0] + "\n" + _("%(paid)s paid · %(lost)s chips off · tap a colour") % {
                "paid": winners, "lost": lost}
        stack = state.stack(self.colour) if self.colour else None
        chosen = ""
        if stack is not None:  # the colour the dealer is betting for: on the layout, in hand
            chosen = _("%(colour)s: %(staked)s on the layout, %(chips)s in hand") % {
                "colour": colour_name(self.colour), "staked": state.staked(self.colour),
                "chips": stack.chips} + "\n"
        if len(lines) <= 1:
            return chosen + str(self.payout_text)
        chips = sum(n for _c, n, _v in rl.totals(state))
        value = sum(v for _c, _n, v in rl.totals(state))
        return chosen + _("%(n)s colours on the layout: %(chips)s chips, %(amount)s") % {
            "n": len(lines), "chips": chips, "amount": money(value, state.rules.currency)}

    def _draw_marks(self, *_args: Any) -> None:
        """The dolly on the winning number, and a chip count on each number with chips."""
        state = self.state
        straight: dict[str, int] = {}
        for b in state.layout:
            for n in b.placement.numbers if b.placement.kind.inside else ():
                straight[n] = straight.get(n, 0) + 1
        for n, cell in self.cells.items():
            cell.canvas.after.clear()
            with cell.canvas.after:
                if n in straight:
                    Color(*chip_tone(next((b.colour for b in state.layout
                                           if n in b.placement.numbers), "")))
                    r = min(cell.width, cell.height) * 0.16
                    Ellipse(pos=(cell.right - 2.4 * r, cell.top - 2.4 * r), size=(2 * r, 2 * r))
                if n == state.number:  # the dolly
                    Color(*theme.IVORY)
                    r = min(cell.width, cell.height) * 0.42
                    Line(circle=(cell.center_x, cell.center_y, r), width=2.5)


class ChipChangePad(SaysWhyHere, Popup):  # type: ignore[misc]
    """Rule 3.5 "chip change": how many wheel chips of the colour, at what value each.
    *Give the chips* is grey while the rules would refuse the change, and says why on the
    pad when tapped (the screen's alert is under the pad)."""

    def __init__(self, screen: RouletteScreen, colour: str) -> None:
        self.screen = screen
        self.colour = colour
        stack = screen.state.stack(colour)
        rules = screen.state.rules
        least = rules.limits.minimum_chip
        # A house whose wheel chips start above the usual values (R1,000 at a high-limit
        # table): the least it allows and its multiples, as the usual values are of R5.
        values = [v for v in VALUES if v >= least] or [least * k for k in (1, 2, 5, 10, 20)]
        self.value = stack.value_each if stack else values[0]
        self.chips = 0
        board = FloatLayout()
        title = _("Chip change: %(colour)s") % {"colour": colour_name(colour).lower()}
        from kivy.core.window import Window

        # Sized from the window like the other dialogs (Popup's own 14sp title was under
        # 1.75 mm on a 1024x600 or full HD screen).
        unit = theme.ui_unit(Window.width, Window.height)
        super().__init__(title=title, content=board, size_hint=(0.8, 0.8), auto_dismiss=True,
                         title_size=20 * unit)
        self.value_buttons: dict[int, TableButton] = {}
        self.count_buttons: dict[int, TableButton] = {}
        for i, v in enumerate(values):
            b = TableButton(text=_("%(amount)s each") % {"amount": money(v, rules.currency)},
                            size_hint=(0.19, 0.22), pos_hint={"x": 0.01 + i * 0.2, "y": 0.7},
                            font_size=15 * unit)
            b.bind(on_release=lambda *_, v=v: self.choose(v))
            self.value_buttons[v] = b
            board.add_widget(b)
        for i, n in enumerate(COUNTS):
            b = TableButton(text=_("+%(n)s chips") % {"n": n}, size_hint=(0.3, 0.22),
                            pos_hint={"x": 0.02 + i * 0.33, "y": 0.4}, font_size=18 * unit)
            b.bind(on_release=lambda *_, n=n: self.add(n))
            self.count_buttons[n] = b
            board.add_widget(b)
        self.summary = TextLabel(size_hint=(0.6, 0.16), pos_hint={"x": 0.02, "y": 0.17},
                                 font_size=16 * unit)
        board.add_widget(self.summary)
        self.refusal = RefusalLine(size_hint=(0.6, 0.15), pos_hint={"x": 0.02, "y": 0.01},
                                   font_size=15 * unit)
        self.bind(refusal_text=self.refusal.setter("text"))
        board.add_widget(self.refusal)
        self.ok = TableButton(text=_("Give the chips"), tone=theme.GOLD, size_hint=(0.35, 0.25),
                              pos_hint={"x": 0.63, "y": 0.04}, font_size=18 * unit)
        self.ok.color = theme.INK
        self.ok.bind(on_release=lambda *_: self.done())
        board.add_widget(self.ok)
        self.show()

    def choose(self, value: int) -> None:
        self.value = value
        self.show()

    def add(self, chips: int) -> None:
        self.chips += chips
        self.show()

    def show(self) -> None:
        cur = self.screen.state.rules.currency
        for v, b in self.value_buttons.items():
            b.selected = v == self.value
        self.summary.text = _("%(n)s %(colour)s chips at %(value)s: %(total)s") % {
            "n": self.chips, "colour": colour_name(self.colour).lower(),
            "value": money(self.value, cur), "total": money(self.chips * self.value, cur)}
        self.ok.disabled = not rl.can_chip_change(self.screen.state, self.colour, self.chips,
                                                  self.value)
        self.refusal_text = ""

    def why_not(self, widget: Any) -> str:
        if widget is self.ok:
            return refusal(rl.verify_chip_change, self.screen.state, self.colour,
                           self.chips, self.value)
        return ""

    def done(self) -> None:
        if self.screen.chip_change(self.colour, self.chips, self.value) is not None:
            self.dismiss(animation=False)
