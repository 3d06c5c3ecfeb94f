"""The general rules at the dealer's screen (section 2 of the Mpumalanga table game rules): a
panel of the table's own acts, each a small dialog that needs no keyboard.

- **Cash buy-in, chip change, colour-up** (rule 2.1): an amount pad that reminds the dealer to
  lay the cash or chips out on the table for verification first; *Record* stays grey until
  the dealer confirms they are laid out, and says why when tapped.
- **Dispute a round** (rule 2.8): the round, a note from a short list, flagged by the dealer
  signed in or by the inspector with a PIN (the roles' PIN pad); then the replay's
  recomputation of that round, on this screen, for the inspector.
- **Reopen outside hours** (rule 2.4): the inspector's override, with a reason and a PIN.
- **Change limits** (rule 2.2): between rounds, the inspector sets one bet's minimum and
  maximum on an amount pad, within the bounds the house set (kiosk/table/limits.py), then
  gives a reason and a PIN. Greyed, it says why: no bounds, nobody who may, a round in play.

The dialogs collect the dealer's entries; `kiosk.table.acts` decides and puts them on record.
A refusal is said on the dialog's own line, in the dealer's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from kiosk.i18n import N_, _, say
from kiosk.replay import replay_round
from kiosk.rules.errors import Said, TablesideError
from kiosk.table import acts, limits
from kiosk.table.cash import Exchange
from kiosk.table.disputes import RoundDisputed
from kiosk.table.roles import Override, RoleRefused, needs_words
from kiosk.table.session import TableSession
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.dealer.chip_values import default_chip_values
from kiosk.ui.dealer.payout_words import money
from kiosk.ui.dealer.pin_pad import PinPad
from kiosk.ui.text_label import TextLabel
from kiosk.ui.widgets import SaysWhyHere, TableButton, refusal_words

Builder.load_file(str(Path(__file__).with_name("floor.kv")))

DISPUTE_NOTES = (N_("The payout is queried"), N_("A card is queried"),
                 N_("A bet is queried"), N_("The result is queried"))
"""What a dispute is about, as the dealer picks it (the journal keeps the English)."""
REOPEN_REASONS = (N_("Approved by the casino management"), N_("A tournament"),
                  N_("A private game"))
"""Why the inspector reopens the table outside its approved hours."""
LIMIT_REASONS = (N_("Approved by the casino management"), N_("A tournament"),
                 N_("A private game"))
"""Why the inspector changes a bet's limits at the table (with "Other…" on the PIN pad)."""
BET_WORDS = {"banker": N_("Banker"), "player": N_("Player"), "tie": N_("Tie"),
             "": N_("Each bet")}
"""The bets whose limits the dialog sets, as the dealer reads them ("": the game's one pair
of limits)."""
T = TypeVar("T")
Wheel = Callable[[], tuple[str, int] | None]
"""Roulette's wheel chips for a buy-in: the colour chosen and its value each, or None."""
MAX_UNITS = 10_000_000
"""The most an amount pad takes, in whole units (R10,000,000)."""


def _unit() -> float:
    from kivy.core.window import Window

    return theme.ui_unit(Window.width, Window.height)


def on_pad(act: Callable[[], T]) -> T:
    """An act from the roles' PIN pad: a refusal goes back to the pad in the dealer's
    language (the pad says it there, and the PIN is keyed again)."""
    try:
        return act()
    except TablesideError as exc:
        raise RoleRefused(said(exc)) from exc


def said(exc: TablesideError) -> str:
    """A refusal with its sentence, for the dealer's language (its English kept)."""
    return Said(str(exc), exc.sentence) if exc.sentence is not None else str(exc)


class FloorDialog(SaysWhyHere, ModalView):  # type: ignore[misc]
    """The chrome the general rules' dialogs share (floor.kv): a title, rows, a refusal
    line, and actions beside *Close*."""

    title = StringProperty("")
    unit = NumericProperty(1.0)

    def __init__(self, title: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.unit = _unit()
        self.title = title

    def button(self, text: str, action: Callable[[], Any], *, parent: Any = None,
               tone: Any = None, size: float = 17.0) -> TableButton:
        b = TableButton(text=text, font_size=size * self.unit)
        if tone is not None:
            b.tone = tone
            b.color = theme.INK
        b.bind(on_release=lambda *_: action())
        (parent if parent is not None else self.ids.rows).add_widget(b)
        return b

    def line(self, text: str, *, colour: Any = None, size: float = 15.0,
             parent: Any = None) -> TextLabel:
        label = TextLabel(text=text, font_size=size * self.unit,
                          color=colour if colour is not None else theme.IVORY,
                          halign="center", valign="middle")
        label.bind(size=lambda w, s: setattr(w, "text_size", s))
        (parent if parent is not None else self.ids.rows).add_widget(label)
        return label

    def refuse(self, exc: TablesideError) -> None:
        self.refusal_text = refusal_words(said(exc))


class FloorPanel(FloorDialog):
    """The table's own acts under the general rules, one big button each."""

    def __init__(self, session: TableSession[Any], *, wheel: Wheel | None = None,
                 chips: Sequence[int] = (), **kwargs: Any) -> None:
        super().__init__(_("Cash, chips, disputes and hours"), **kwargs)
        self.session = session
        self.chips = tuple(chips) or table_chips(session)
        grid = GridLayout(cols=2, spacing=6 * self.unit)
        self.ids.rows.add_widget(grid)
        self.buy_in = self.button(
            _("Cash buy-in"), lambda: self.open_dialog(AmountPad, "buy_in",
                                                       wheel() if wheel else None),
            parent=grid)
        self.change = self.button(_("Chip change"),
                                  lambda: self.open_dialog(ChipsPad, "change", self.chips),
                                  parent=grid)
        self.colour_up = self.button(
            _("Colour-up"), lambda: self.open_dialog(ChipsPad, "colour_up", self.chips,
                                                     wheel() if wheel else None),
            parent=grid)
        self.dispute = self.button(_("Dispute a round"), lambda: self.open_dialog(DisputeDialog),
                                   parent=grid)
        self.reopen = self.button(_("Reopen outside hours"), self.open_reopen, parent=grid)
        self.reopen.disabled = not acts.table_closed(session)
        self.limits = self.button(_("Change limits"), self.open_limits, parent=grid)
        self.limits.disabled = bool(limits_refusal(session))

    def why_not(self, widget: Any) -> str:
        if widget is self.reopen:
            return _("The table is within its approved hours: nothing to reopen")
        if widget is self.limits:
            return limits_refusal(session=self.session)
        return ""

    def open_limits(self) -> None:
        self.dismiss(animation=False)
        desk = limits.desk(self.session)
        if desk is not None:
            LimitDialog(self.session, desk).open()

    def open_dialog(self, dialog: Any, *args: Any) -> None:
        self.dismiss(animation=False)
        dialog(self.session, *args).open()

    def open_reopen(self) -> None:
        self.dismiss(animation=False)
        ask_reason(self.session)


class AmountPad(FloorDialog):
    """Rule 2.1: an amount in whole units on a pad; a reminder that the cash (or chips) is
    laid out on the table for verification before the transaction; *Record* once it is."""

    digits = StringProperty("")

    def __init__(self, session: TableSession[Any], what: str,
                 wheel: tuple[str, int] | None = None, **kwargs: Any) -> None:
        titles = {"buy_in": _("Cash buy-in: chips for the cash tendered"),
                  "change": _("Chip change"), "colour_up": _("Colour-up")}
        super().__init__(titles[what], **kwargs)
        self.session, self.what = session, what
        # Roulette: the buy-in is in wheel chips of the colour chosen, at its value each.
        self.wheel = wheel if what == "buy_in" else None
        self.currency = str(getattr(session.game.rules_of(session.state), "currency", "R"))
        self.laid_out = False
        reminder = (_("Lay the cash out on the table for verification before you give chips "
                      "(rule 2.1)") if what == "buy_in" else
                    _("Lay the chips out on the table for verification before you exchange "
                      "them (rule 2.1)"))
        self.reminder = self.line(reminder, colour=theme.GOLD, size=15)
        self.reminder.size_hint_y = 0.8
        self.amount = self.line("", size=24)
        self.amount.bold = True
        self.amount.size_hint_y = 0.7
        pad = GridLayout(cols=6, spacing=6 * self.unit, size_hint_y=1.6)
        self.ids.rows.add_widget(pad)
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "00", "⌫"):
            # TRANSLATORS: the amount pad's key that deletes the last digit.
            text = _("Del") if key == "⌫" else key
            self.button(text, partial(self.press, key), parent=pad, size=20)
        self.verified = self.button(_("Laid out and verified"), self.toggle_laid_out,
                                    parent=self.ids.actions)
        self.record = self.button(_("Record"), self.done, parent=self.ids.actions,
                                  tone=theme.GOLD)
        self.show()

    def cents(self) -> int:
        return int(self.digits or "0") * 100

    def press(self, key: str) -> None:
        if key == "⌫":
            self.digits = self.digits[:-1]
        elif int((self.digits + key) or "0") <= MAX_UNITS:
            self.digits = (self.digits + key).lstrip("0")
        self.show()

    def toggle_laid_out(self) -> None:
        self.laid_out = not self.laid_out
        self.show()

    def wheel_count(self) -> int:
        """The wheel chips the cash buys (0: not a wheel-chip buy-in)."""
        return self.cents() // self.wheel[1] if self.wheel is not None else 0

    def show(self) -> None:
        self.amount.text = money(self.cents(), self.currency)
        if self.wheel is not None:
            from kiosk.ui.dealer.roulette_words import colour_name

            colour, each = self.wheel
            self.amount.text += "  " + _("= %(n)s %(colour)s chips at %(value)s") % {
                "n": self.wheel_count(), "colour": colour_name(colour).lower(),
                "value": money(each, self.currency)}
        self.verified.selected = self.laid_out
        self.record.disabled = not (self.laid_out and self.cents() > 0)
        self.refusal_text = ""

    def why_not(self, widget: Any) -> str:
        if widget is self.record:
            if not self.cents():
                return _("Key in the amount first")
            return (_("Lay the cash out on the table for verification first")
                    if self.what == "buy_in" else
                    _("Lay the chips out on the table for verification first"))
        return ""

    def done(self) -> None:
        try:
            if self.what == "buy_in" and self.wheel is not None:
                acts.record_buy_in(self.session, "", self.cents(), laid_out=self.laid_out,
                                   colour=self.wheel[0], wheel_chips=self.wheel_count(),
                                   chip_value=self.wheel[1])
            elif self.what == "buy_in":
                acts.record_buy_in(self.session, "", self.cents(), laid_out=self.laid_out)
            else:
                acts.record_exchange(self.session, Exchange(self.what), "", self.cents(),
                                     self.cents(), laid_out=self.laid_out)
        except TablesideError as exc:
            self.refuse(exc)
            return
        self.dismiss(animation=False)


def table_chips(session: TableSession[Any]) -> tuple[int, ...]:
    """The chip values a table without a rack of its own on the screen offers: five from the
    house's smallest chip (the dealer screens' rack)."""
    rule = getattr(session.game.rules_of(session.state), "chips", None)
    return default_chip_values(int(getattr(rule, "smallest_chip", 500)))


class ChipsPad(FloorDialog):
    """Rule 2.1: a chip change or a colour-up chip by chip: the chips the dealer takes, then
    the chips given, a tap on a chip's value for each (*Del* takes the last back), with both
    totals shown; a reminder that they are laid out for verification; *Record* once they
    are. Chips given that are not worth the chips taken are refused on the dialog's line and
    nothing goes on record. A colour-up at roulette takes the wheel chips of the colour
    chosen (`wheel`: the colour and its value each): *+1*, *+5* and *+20* of them go to the
    chips taken, and the record names the colour and how many."""

    side = StringProperty("taken")

    def __init__(self, session: TableSession[Any], what: str, chips: Sequence[int],
                 wheel: tuple[str, int] | None = None, **kwargs: Any) -> None:
        titles = {"change": _("Chip change"), "colour_up": _("Colour-up")}
        super().__init__(titles[what], **kwargs)
        self.session, self.what = session, what
        self.wheel = wheel if what == "colour_up" else None
        self.taken_wheel: list[bool] = []  # each chip taken: a wheel chip of that colour?
        self.currency = str(getattr(session.game.rules_of(session.state), "currency", "R"))
        self.laid_out = False
        self.taken: list[int] = []  # each chip as keyed, in cents
        self.given: list[int] = []
        reminder = self.line(_("Lay the chips out on the table for verification before you "
                               "exchange them (rule 2.1)"), colour=theme.GOLD, size=15)
        reminder.size_hint_y = 0.8
        sides = BoxLayout(spacing=6 * self.unit, size_hint_y=0.9)
        self.ids.rows.add_widget(sides)
        self.take_side = self.button(_("Chips taken"), partial(self.choose, "taken"),
                                     parent=sides, size=16)
        self.give_side = self.button(_("Chips given"), partial(self.choose, "given"),
                                     parent=sides, size=16)
        self.taken_line = self.line("", size=17)
        self.given_line = self.line("", size=17)
        rack = GridLayout(cols=len(chips) + 1, spacing=6 * self.unit, size_hint_y=1.0)
        self.ids.rows.add_widget(rack)
        self.chip_buttons = [self.button(money(v, self.currency), partial(self.add, v),
                                         parent=rack, size=17) for v in chips]
        self.delete = self.button(_("Del"), self.take_back, parent=rack, size=17)
        self.wheel_buttons: list[Any] = []
        if self.wheel is not None:
            from kiosk.ui.dealer.roulette_words import colour_name

            wheel_row = GridLayout(cols=3, spacing=6 * self.unit, size_hint_y=1.0)
            self.ids.rows.add_widget(wheel_row)
            colour = colour_name(self.wheel[0]).lower()
            for n in (1, 5, 20):
                # TRANSLATORS: a colour-up at roulette: this many wheel chips of the colour
                # go to the chips taken ("+5 pink").
                self.wheel_buttons.append(self.button(
                    _("+%(n)s %(colour)s") % {"n": n, "colour": colour},
                    partial(self.add_wheel, n), parent=wheel_row, size=17))
        self.verified = self.button(_("Laid out and verified"), self.toggle_laid_out,
                                    parent=self.ids.actions)
        self.record = self.button(_("Record"), self.done, parent=self.ids.actions,
                                  tone=theme.GOLD)
        self.show()

    def _pile(self) -> list[int]:
        return self.taken if self.side == "taken" else self.given

    @staticmethod
    def counts(chips: list[int]) -> dict[int, int]:
        out: dict[int, int] = {}
        for v in chips:
            out[v] = out.get(v, 0) + 1
        return out

    def choose(self, side: str) -> None:
        self.side = side
        self.show()

    @property
    def wheel_taken(self) -> int:
        """The wheel chips of the colour among the chips taken."""
        return sum(self.taken_wheel)

    def add(self, value: int) -> None:
        if len(self._pile()) < MAX_CHIPS:
            self._pile().append(value)
            if self.side == "taken":
                self.taken_wheel.append(False)
        self.show()

    def add_wheel(self, n: int) -> None:
        """`n` wheel chips of the colour to the chips taken (a colour-up at roulette)."""
        if self.wheel is None:
            return
        self.side = "taken"
        n = min(n, MAX_CHIPS - len(self.taken))
        self.taken.extend([self.wheel[1]] * n)
        self.taken_wheel.extend([True] * n)
        self.show()

    def take_back(self) -> None:
        if self._pile():
            self._pile().pop()
            if self.side == "taken":
                self.taken_wheel.pop()
        self.show()

    def toggle_laid_out(self) -> None:
        self.laid_out = not self.laid_out
        self.show()

    def words(self, chips: list[int]) -> str:
        """"2 × R100 + 1 × R50 = R250" (a dash: none yet)."""
        if not chips:
            return "—"
        counts = self.counts(chips)
        each = " + ".join(f"{n} × {money(v, self.currency)}"
                          for v, n in sorted(counts.items(), reverse=True))
        return f"{each} = {money(sum(chips), self.currency)}"

    def show(self) -> None:
        taken = self.words(self.taken)
        if self.wheel is not None and self.wheel_taken:
            from kiosk.ui.dealer.roulette_words import colour_name

            # TRANSLATORS: a colour-up at roulette, before the chips taken: "12 pink wheel
            # chips: 12 × R5 = R60".
            taken = _("%(n)s %(colour)s wheel chips: %(chips)s") % {
                "n": self.wheel_taken, "colour": colour_name(self.wheel[0]).lower(),
                "chips": taken}
        self.taken_line.text = _("Taken: %(chips)s") % {"chips": taken}
        self.given_line.text = _("Given: %(chips)s") % {"chips": self.words(self.given)}
        self.take_side.selected = self.side == "taken"
        self.give_side.selected = self.side == "given"
        self.delete.disabled = not self._pile()
        self.verified.selected = self.laid_out
        self.record.disabled = not (self.laid_out and self.taken and self.given)
        self.refusal_text = ""

    def why_not(self, widget: Any) -> str:
        if widget is self.record:
            if not self.taken:
                return _("Tap the chips taken first")
            if not self.given:
                return _("Tap the chips given first")
            return _("Lay the chips out on the table for verification first")
        if widget is self.delete:
            return _("No chip to take back")
        return ""

    def done(self) -> None:
        try:
            colour = self.wheel[0] if self.wheel is not None and self.wheel_taken else ""
            acts.record_chip_exchange(self.session, Exchange(self.what), "",
                                      self.counts(self.taken), self.counts(self.given),
                                      laid_out=self.laid_out, colour=colour,
                                      wheel_chips=self.wheel_taken if colour else 0)
        except TablesideError as exc:
            self.refuse(exc)
            return
        self.dismiss(animation=False)


MAX_CHIPS = 200
"""The most chips one side of an exchange takes (a tap too many is not counted)."""


class DisputeDialog(FloorDialog):
    """Rule 2.8: which round, what is disputed, and who flags it; the replay follows."""

    round = NumericProperty(1)

    def __init__(self, session: TableSession[Any], **kwargs: Any) -> None:
        super().__init__(_("Dispute a round (rule 2.8)"), **kwargs)
        self.session = session
        self.last = session.game.round_number(session.state)
        self.round = max(1, self.last - 1) if self.last > 1 else 1
        step = BoxLayout(spacing=6 * self.unit, size_hint_y=0.9)
        self.ids.rows.add_widget(step)
        self.button("−", lambda: self.step(-1), parent=step, size=22)
        self.which = self.line("", size=20, parent=step)
        self.which.size_hint_x = 2.2
        self.button("+", lambda: self.step(1), parent=step, size=22)
        notes = GridLayout(cols=2, spacing=6 * self.unit, size_hint_y=1.8)
        self.ids.rows.add_widget(notes)
        self.note = DISPUTE_NOTES[0]
        self.note_buttons = {n: self.button(_(n), partial(self.choose, n), parent=notes,
                                            size=15) for n in DISPUTE_NOTES}
        self.by_dealer = self.button(_("Flag as the dealer"), self.flag_as_dealer,
                                     parent=self.ids.actions, tone=theme.GOLD, size=15)
        self.by_inspector = self.button(_("Flag as the inspector"), self.flag_as_inspector,
                                        parent=self.ids.actions, tone=theme.GOLD, size=15)
        self.show()

    def step(self, by: int) -> None:
        self.round = min(max(1, self.round + by), self.last)
        self.show()

    def choose(self, note: str) -> None:
        self.note = note
        self.show()

    def show(self) -> None:
        self.which.text = _("Round %(round)s") % {"round": self.round}
        for n, b in self.note_buttons.items():
            b.selected = n == self.note
        self.refusal_text = ""

    def flag_as_dealer(self) -> None:
        self._flag(role="dealer")

    def flag_as_inspector(self) -> None:
        if not self.session.people.checked:
            self._flag(role="inspector", person_id="inspector")
            return
        # The roles' PIN pad: a refusal (a wrong PIN, a technician) is said on the pad.
        PinPad(_("Dispute a round (rule 2.8)"), _("Flag as the inspector"),
               lambda pid, pin, _reason: self._flagged(on_pad(lambda: acts.flag_dispute(
                   self.session, self.round, self.note, person_id=pid, pin=pin)))).open()

    def _flag(self, *, role: str, person_id: str = "") -> None:
        try:
            op = acts.flag_dispute(self.session, self.round, self.note, person_id=person_id,
                                   role=role)
        except TablesideError as exc:
            self.refuse(exc)
            return
        self._flagged(op)

    def _flagged(self, op: RoundDisputed) -> None:
        self.dismiss(animation=False)
        ReplayView(self.session, op.round).open()


class ReplayView(FloorDialog):
    """The replay's recomputation of a round (rule 2.8) for the inspector: each time the
    journal settled or voided a round of that number, its cards, outcome and settlements as
    recomputed, and whether they match what the table recorded."""

    def __init__(self, session: TableSession[Any], round_number: int, **kwargs: Any) -> None:
        super().__init__(_("Replay of round %(round)s") % {"round": round_number}, **kwargs)
        found = replay_round(session.journal.entries(), round_number)
        currency = str(getattr(session.game.rules_of(session.state), "currency", "R"))
        if not found:
            self.line(_("Round %(round)s is not settled yet: nothing to recompute")
                      % {"round": round_number})
        for coup in found[-2:]:  # a table that counted again from 1: the newest two
            self.line(coup.line(), size=14)
            for s in coup.settlements[:6]:
                words = [str(s.get(k)) for k in ("area", "box", "place", "kind", "bet",
                                                 "outcome") if s.get(k) not in (None, "")]
                amounts = [money(s[k], currency) for k in ("paid", "returned")
                           if isinstance(s.get(k), int)]
                self.line(" ".join(words + amounts), size=14)
            verdict = (_("Recomputed: matches what the table recorded.")
                       if not coup.differences else
                       _("Recomputed: differs from what the table recorded: %(what)s")
                       % {"what": "; ".join(coup.differences)})
            self.line(verdict, colour=theme.GOLD if not coup.differences
                      else theme.WARNING_TEXT, size=15)


class ReasonList(FloorDialog):
    """A reason from a short list (the English goes on record)."""

    def __init__(self, title: str, reasons: Sequence[str], on_done: Callable[[str], Any],
                 **kwargs: Any) -> None:
        super().__init__(title, **kwargs)
        for reason in reasons:
            self.button(_(reason), partial(self.choose, reason, on_done))

    def choose(self, reason: str, on_done: Callable[[str], Any]) -> None:
        self.dismiss(animation=False)
        on_done(reason)


def ask_reason(session: TableSession[Any]) -> None:
    """Rule 2.4: the inspector reopens the table outside its hours: a reason, the
    inspector's id and PIN on the roles' PIN pad (a table with no people list asks only the
    reason)."""
    title = _("Reopen outside the approved hours: why?")
    if session.people.checked:
        PinPad(title, say(needs_words(Override.REOPEN_HOURS)),
               lambda pid, pin, reason: on_pad(lambda: acts.reopen_outside_hours(
                   session, pid, pin, reason)),
               reasons=REOPEN_REASONS).open()
        return

    def reopen(reason: str) -> None:
        try:
            acts.reopen_outside_hours(session, "inspector", "", reason)
        except TablesideError as exc:
            session.refused(exc)

    ReasonList(title, REOPEN_REASONS, reopen).open()


def limits_refusal(session: TableSession[Any]) -> str:
    """Why the inspector cannot change the limits at the table now, in the dealer's
    language ("" when they can)."""
    desk = limits.desk(session)
    if desk is None or desk.bounds is None:
        return _("The house set no bounds for a limit change at the table: the limits are "
                 "changed at the pit")
    if not limits.bet_limits(session.game.rules_of(session.state)):
        return _("This game's limits are changed at the pit")
    if not session.people.checked or not session.may(Override.LIMIT_CHANGE):
        return _("%(needs)s: nobody on this table's list can give it") % {
            "needs": say(needs_words(Override.LIMIT_CHANGE))}
    if not session.game.between_rounds(session.state):
        return _("The limits change between rounds: finish this %(round)s first") % {
            "round": _(session.spec.round_word)}
    return ""


class LimitDialog(FloorDialog):
    """Rule 2.2: one bet's new minimum and maximum on an amount pad, within the house's
    bounds; then the inspector's reason and PIN on the roles' PIN pad."""

    digits = StringProperty("")

    def __init__(self, session: TableSession[Any], desk: limits.TableLimits,
                 **kwargs: Any) -> None:
        super().__init__(_("Change the table's limits (rule 2.2)"), **kwargs)
        self.session, self.desk = session, desk
        rules = session.game.rules_of(session.state)
        self.currency = str(getattr(rules, "currency", "R"))
        self.bets = limits.bet_limits(rules)
        self.bet = self.bets[0].bet if self.bets else ""
        self.amounts = {"minimum": self.bets[0].minimum if self.bets else 0,
                        "maximum": self.bets[0].maximum if self.bets else 0}
        self.field = "minimum"
        bounds = desk.bounds
        self.bounds_line = self.line(
            _("Within the house's bounds: %(lo)s to %(hi)s") % {
                "lo": money(bounds.minimum, self.currency),
                "hi": money(bounds.maximum, self.currency)} if bounds is not None else "",
            colour=theme.GOLD, size=15)
        self.bounds_line.size_hint_y = 0.6
        kinds = BoxLayout(spacing=6 * self.unit, size_hint_y=0.8)
        self.ids.rows.add_widget(kinds)
        self.bet_buttons = {b.bet: self.button(_(BET_WORDS.get(b.bet, b.bet)),
                                               partial(self.choose_bet, b.bet), parent=kinds,
                                               size=16) for b in self.bets}
        fields = BoxLayout(spacing=6 * self.unit, size_hint_y=0.8)
        self.ids.rows.add_widget(fields)
        self.field_buttons = {f: self.button("", partial(self.choose_field, f), parent=fields,
                                             size=16) for f in ("minimum", "maximum")}
        pad = GridLayout(cols=6, spacing=6 * self.unit, size_hint_y=1.6)
        self.ids.rows.add_widget(pad)
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "00", "⌫"):
            text = _("Del") if key == "⌫" else key
            self.button(text, partial(self.press, key), parent=pad, size=20)
        self.change = self.button(_("Change limits"), self.ask_pin, parent=self.ids.actions,
                                  tone=theme.GOLD)
        self.show()

    def choose_bet(self, bet: str) -> None:
        self.bet = bet
        now = next(b for b in self.bets if b.bet == bet)
        self.amounts = {"minimum": now.minimum, "maximum": now.maximum}
        self.digits = ""
        self.show()

    def choose_field(self, which: str) -> None:
        self.field, self.digits = which, ""
        self.show()

    def press(self, key: str) -> None:
        if key == "⌫":
            self.digits = self.digits[:-1]
        elif int((self.digits + key) or "0") <= MAX_UNITS:
            self.digits = (self.digits + key).lstrip("0")
        self.amounts[self.field] = int(self.digits or "0") * 100
        self.show()

    def show(self) -> None:
        for bet, b in self.bet_buttons.items():
            b.selected = bet == self.bet
        words = {"minimum": _("Minimum %(amount)s"), "maximum": _("Maximum %(amount)s")}
        for f, b in self.field_buttons.items():
            b.text = words[f] % {"amount": money(self.amounts[f], self.currency)}
            b.selected = f == self.field
        self.change.disabled = not 0 < self.amounts["minimum"] <= self.amounts["maximum"]
        self.refusal_text = ""

    def why_not(self, widget: Any) -> str:
        if widget is self.change:
            return _("The minimum must be above zero and at most the maximum")
        return ""

    def ask_pin(self) -> None:
        """The inspector's reason and PIN; the change is checked and recorded once they are
        given (a refusal is said on the PIN pad)."""
        try:  # within the bounds first: no PIN is asked for a change that cannot be made
            limits.check_change(self.desk.bounds, self.bets, self.bet,
                                self.amounts["minimum"], self.amounts["maximum"],
                                self.currency, limits.smallest_chip(
                                    self.session.game.rules_of(self.session.state)))
        except TablesideError as exc:
            self.refuse(exc)
            return
        bet, lo, hi = self.bet, self.amounts["minimum"], self.amounts["maximum"]
        self.dismiss(animation=False)
        PinPad(_("Change the table's limits (rule 2.2)"),
               say(needs_words(Override.LIMIT_CHANGE)),
               lambda pid, pin, reason: on_pad(lambda: limits.change_limits(
                   self.session, self.desk, pid, pin, reason, bet, lo, hi)),
               reasons=LIMIT_REASONS).open()
