"""What every game's dealer screen shares: the alert banner, the inspector's button, the chip
rack, undo of the last chips, and `act` (the session's `attempt`: a refusal is shown in the
engine's words and changes nothing). Each game's screen adds its own layout and buttons.

The screens' own words are in the dealer's language (`[display] dealer_language`,
kiosk/i18n.py), and so is a refusal the rules raised with its template (`NotAllowed.of`);
the other sentences of the rules (the next step, the refusals not yet worded so) are the
approved rules' English, and what goes on record (a refusal's alert, a void's reason, a
badge) is English whatever the screen shows (docs/dealer-screen.md, "Languages").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import N_, _, said, say
from kiosk.rules.errors import Said, Sentence, TablesideError
from kiosk.rules.operations import Operation
from kiosk.table.records import InspectorAttended
from kiosk.table.roles import Override, RoleRefused, needs_words
from kiosk.table.session import Alert, Severity
from kiosk.ui import theme
from kiosk.ui.dealer.chip_values import (
    default_chip_values as default_chip_values,  # the dealer screens import it from here
)
from kiosk.ui.dealer.choices import BadgePad
from kiosk.ui.dealer.payout_words import money
from kiosk.ui.dealer.pin_pad import ATTENDED_REASON, OVERRIDE_REASONS, PinPad
from kiosk.ui.perf_present import flush_each_frame
from kiosk.ui.text_label import TextLabel
from kiosk.ui.widgets import ChipButton, TableButton

SEVERITY_TONE = {Severity.INFO: theme.INFO, Severity.WARNING: theme.WARNING,
                 Severity.STOP: theme.STOP}
CHIP_TONES = (theme.rgb("#e8e8e8"), theme.rgb("#c62828"), theme.rgb("#2e7d32"),
              theme.rgb("#1b1b1b"), theme.rgb("#6a1b9a"), theme.rgb("#ef8f00"))
VOID_REASONS = (N_("Misdeal: cards out of order"), N_("Card exposed or dropped"),
                N_("Shoe or card reader fault"), N_("Inspector's decision"))
"""The reasons a dealer voids a round with: shown in the dealer's language, journaled in
English (`ReasonPicker`)."""
_ORDER = {Severity.INFO: 0, Severity.WARNING: 1, Severity.STOP: 2}
ALERT_LINES = 3
"""The most lines the alert banner grows to."""

Act = Callable[[str, str], Callable[[Any], Operation]]
"""An override's act, from who approved it and why: (id, reason) -> the game's action."""
Undo = tuple[int, Callable[[Any], Operation], Callable[[Any], bool]]
"""(the round the chips went on in, the act that takes them back, whether it may now)"""


class Refused(str):
    """A refusal of the rules as its English (the message every record holds, so it compares
    and logs as the plain text it is), carrying the rules' `sentence` when they worded it
    with a template, for the screen to say it in the dealer's language (`alert_why`)."""

    sentence: Sentence | None

    def __new__(cls, english: str, sentence: Sentence | None = None) -> Refused:
        made = super().__new__(cls, english)
        made.sentence = sentence
        return made


def refusal(verify: Callable[..., None], *args: Any) -> str:
    """The engine's sentence for an act its `verify_` refuses now ("" when it allows it):
    its English, a `Refused` that keeps the rules' sentence."""
    try:
        verify(*args)
    except TablesideError as exc:
        return Refused(str(exc), exc.sentence)
    return ""


def chip_label(cents: int, currency: str) -> str:
    """A chip's face: whole units, thousands as "k", odd cents as money."""
    units, part = divmod(cents, 100)
    if part:
        return money(cents, "")
    return f"{units // 1000}k" if units >= 1000 and units % 1000 == 0 else str(units)


def chip_buttons(values: list[int], currency: str) -> list[ChipButton]:
    """The house's chip buttons, coloured as chips are."""
    chips = []
    for i, value in enumerate(values):
        chip = ChipButton(value=value, text=chip_label(value, currency),
                          tone=CHIP_TONES[i % len(CHIP_TONES)])
        if i == 0:
            chip.color = theme.INK
        chips.append(chip)
    return chips


class DealerScreen(BoxLayout):
    """The base of every game's dealer screen. A subclass sets `session` and calls
    `start_screen()` from its `__init__`, and shows state in `refresh()`."""

    unit = NumericProperty(1.0)  # 1.0 at 800x480; everything scales with the screen
    touch = NumericProperty(48.0)  # the smallest touch target in px (9 mm)
    header = StringProperty("")
    shoe_status = StringProperty("")
    shoe_ok = BooleanProperty(True)
    sync_status = StringProperty("")  # the sync to the pit, in a few words ("" : no pit)
    sync_late = BooleanProperty(False)  # not running, or offline with rows waiting: amber
    step = StringProperty("")
    step_detail = StringProperty("")  # why the next step cannot be taken yet, in the rules' words
    step_tone = ColorProperty(theme.FELT_DARK)
    step_dark_text = BooleanProperty(False)  # dark ink on the gold and amber banners
    alert_text = StringProperty("")
    alert_tone = ColorProperty(theme.INFO)
    alert_shown = BooleanProperty(False)
    alert_dark_text = BooleanProperty(False)
    primary_text = StringProperty("No more bets")
    primary_enabled = BooleanProperty(False)
    primary_paying = BooleanProperty(False)  # the big button confirms payouts: drawn in gold
    inspector_text = StringProperty("Call inspector")
    inspector_called = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_key_card = BooleanProperty(False)
    # A card keyed in now stands over the shoe's read: the inspector's correction of a card
    # (PIN and reason). The key-card button then reads "Correct card" (docs/roles.md).
    correcting = BooleanProperty(False)
    can_void = BooleanProperty(False)
    chip_values = ListProperty([])
    session = ObjectProperty(None, allownone=True)

    _undo: list[Undo]
    _alerts_seen: int
    _shown_alert: Alert | None

    def scale_to_screen(self) -> None:
        """`unit` and `touch` for the screen's size (theme.ui_unit): text the same millimetres
        on every panel, every touch target at least 9 mm (`px_per_mm`, set by the subclass)."""
        self.unit = theme.ui_unit(*self.size)
        self.touch = max(theme.Metrics(self.px_per_mm).touch, 46 * self.unit)

    def build_chip_rack(self, chips: list[ChipButton]) -> None:
        """The chip rack (`ids.chips`): a tap puts that chip on the place chosen."""
        rack = self.ids.chips
        rack.clear_widgets()
        for chip in chips:
            chip.bind(on_release=lambda w: self.add_chip(int(w.value)))
            rack.add_widget(chip)

    def go_live(self, on_session: Callable[..., None]) -> None:
        """The end of every dealer screen's `__init__`, once its widgets are built: refresh
        (once per frame at most) on every change of the session through `on_session`, rescale
        with the screen, show the state now, and, once the window exists, finish drawing each
        frame before the next (kiosk/ui/perf_present.py)."""
        self._refresh_trigger = Clock.create_trigger(self.refresh, 0)
        self.session.listeners.append(on_session)
        self.bind(size=self._rescale)
        self._rescale()
        self.refresh()
        Clock.schedule_once(lambda _dt: flush_each_frame(), 0)

    def _rescale(self, *_args: Any) -> None:
        """The screen's size changed: `unit` and `touch` follow it. A screen with more to fit
        extends this."""
        self.scale_to_screen()

    def start_screen(self) -> None:
        """Before the first refresh: nothing to undo, every alert raised so far still to show
        (a restart's news)."""
        self._undo = []
        self._alerts_seen = 0
        self._shown_alert = None

    # --- the general rules: cash and chips, disputes, hours (kiosk/ui/dealer/floor.py) ----

    def on_session(self, *_args: Any) -> None:
        self._floor_button()

    def _floor_button(self) -> None:
        """The panel of the table's own acts under the general rules (rules 2.1, 2.4, 2.8),
        beside the inspector's button in the header of every game's screen that has one."""
        inspector = self.ids.get("inspector")
        if inspector is None or getattr(self, "floor_button", None) is not None:
            return
        # A narrow button ("More", or three dots beside the dealer's button when the table
        # checks PINs): the header keeps the table's name readable on the 7" panel.
        # TRANSLATORS: the header's button that opens cash and chips, disputes and hours:
        # keep it short, the header is narrow on the 7" panel.
        button = TableButton(text=_("More"), size_hint_x=None, tone=theme.RAIL)

        def fit(*_args: Any) -> None:
            narrow = self._dealer_widget is not None
            button.text = "•••" if narrow else _("More")
            button.width = self.touch if narrow else inspector.width * 0.5
            button.font_size = inspector.font_size

        inspector.bind(width=fit, font_size=fit)
        self.bind(touch=fit)
        self._fit_floor = fit
        fit()
        button.bind(on_release=lambda *_: self.open_floor())
        header = inspector.parent
        header.add_widget(button, index=header.children.index(inspector) + 1)
        self.floor_button = button

    def open_floor(self) -> None:
        from kiosk.ui.dealer.floor import FloorPanel

        FloorPanel(self.session, chips=tuple(getattr(self, "chip_values", ()))).open()

    # --- acts -----------------------------------------------------------------------------

    def act(self, action: Callable[[Any], Operation]) -> Operation | None:
        """Send one action; a refusal is shown in the engine's words and changes nothing."""
        return self.session.attempt(action)  # type: ignore[no-any-return]

    def place_chips(self, place: Callable[[Any], Operation],
                    take_back: Callable[[Any], Operation],
                    may_take_back: Callable[[Any], bool]) -> None:
        """Chips on the layout, remembered so that `undo` takes them back in this round."""
        if self.act(place) is not None:
            rnd = self.session.game.round_number(self.session.state)
            self._undo.append((rnd, take_back, may_take_back))

    def undo(self) -> None:
        top = self._undo_top()
        if top is not None and self.act(top[1]) is not None:
            self._undo.pop()

    def _undo_top(self) -> Undo | None:
        rnd = self.session.game.round_number(self.session.state)
        while self._undo and self._undo[-1][0] != rnd:
            self._undo.pop()  # chips of an earlier round cannot be taken back
        return self._undo[-1] if self._undo else None

    def undo_allowed(self) -> bool:
        top = self._undo_top()
        return top is not None and top[2](self.session.state)

    # --- who may do what (kiosk/table/roles.py) ---------------------------------------------

    def override(self, action: Override, title: str, act: Act,
                 unchecked: Callable[[], Any], reasons: Sequence[str] = OVERRIDE_REASONS
                 ) -> PinPad | None:
        """An act that needs a role's PIN and a reason: the PIN pad with its reasons, the
        act on record with the `OverrideApproved` record once the PIN and the role are
        right. A table with no people list opens `unchecked` instead (its dialog of
        before)."""
        if not self.session.people.checked:
            unchecked()
            return None
        pad = PinPad(title, say(needs_words(action)),
                     lambda pid, pin, reason: self._override(action, pid, pin, reason, act),
                     reasons=reasons)
        pad.open()
        return pad

    def _override(self, action: Override, pid: str, pin: str, reason: str, act: Act) -> None:
        try:
            self.session.override(action, pid, pin, reason, act(pid, reason))
        except RoleRefused as exc:  # on the pad: the PIN is keyed again
            raise RoleRefused(said(exc.sentence, str(exc))) from exc
        except TablesideError as exc:  # the rules refuse the act itself: the screen says
            self.session.refused(exc)
        except Exception as exc:  # a bug: a red alert, never a crash
            self.session.alert(Severity.STOP, _("Not recorded: %(why)s") % {"why": exc},
                               N_("Call a technician"))

    def manual_needs_inspector(self) -> bool:
        """A card keyed in over the shoe's read needs the inspector while the table checks
        PINs (`TableSession.keyed_over_shoe`: not for a card the shoe could not read, nor
        with the shoe away). The engines have no act that changes a card on record: keying
        the right card in over the shoe's read is how the inspector corrects one, so the
        key-card button says so ("Correct card", `correcting`)."""
        s = self.session
        return bool(s.people.checked and s.keyed_over_shoe())

    def may(self, action: Override, allowed: bool) -> bool:
        """A control's `can_` with the role in it (`TableSession.may`)."""
        return bool(self.session.may(action, allowed))

    def role_refusal(self, action: Override, why: str = "") -> str:
        """Why a greyed override is not possible: the game's reason, else the role it needs
        that nobody on the table's list holds."""
        if why or self.session.may(action):
            return why
        return _("%(needs)s: nobody on this table's list can give it") % {
            "needs": say(needs_words(action))}

    def dealer_button(self) -> None:
        """Signed out: the PIN pad signs a dealer in. Signed in: signs them out."""
        if self.session.dealer is not None:
            self.session.sign_out()
            self.show_dealer()
            return
        PinPad(_("Dealer sign-in"), "",
               lambda pid, pin, _reason: self._sign_in(pid, pin)).open()

    def _sign_in(self, pid: str, pin: str) -> None:
        try:
            self.session.sign_in(pid, pin)
        except RoleRefused as exc:
            raise RoleRefused(said(exc.sentence, str(exc))) from exc
        self.show_dealer()

    _dealer_widget: Any = None

    def show_dealer(self) -> None:
        """The dealer's button beside the inspector's, while the table checks PINs: who is
        signed in ("Sign in" when nobody is); a tap signs in or out."""
        if not self.session.people.checked:
            return
        inspector = self.ids.get("inspector")
        if inspector is None or inspector.parent is None:
            return
        button = self._dealer_widget
        if button is None:
            button = self._dealer_widget = TableButton(size_hint_x=None, tone=theme.RAIL)
            button.bind(on_release=lambda _w: self.dealer_button())

            def follow(*_args: Any) -> None:  # the inspector's size at every screen size
                button.width, button.font_size = inspector.width, inspector.font_size

            inspector.bind(width=follow, font_size=follow)
            follow()
        fit_floor = getattr(self, "_fit_floor", None)
        if fit_floor is not None:  # the general rules' button narrows beside it
            fit_floor()
        dealer = self.session.dealer
        button.text = (_("Sign in") if dealer is None
                       else _("Sign out %(id)s") % {"id": dealer.id})
        if button.parent is None:
            row = inspector.parent
            row.add_widget(button, index=row.children.index(inspector) + 1)

    # --- the inspector --------------------------------------------------------------------

    def call_inspector(self, source: str = "screen") -> None:
        """The screen's and the table's "call inspector" buttons both come here."""
        try:
            self.session.call_inspector(source)
        except TablesideError as exc:
            self.session.alert(Severity.STOP, _("Not recorded: %(why)s") % {"why": exc},
                               N_("Call a technician"))

    def inspector_button(self) -> None:
        if not self.session.inspector_called:
            self.call_inspector("screen")
            return
        if self.session.people.checked:  # the inspector's own PIN, not a number anyone types
            self.attended_by_pin()
            return
        BadgePad(title=_("Inspector attended: badge number"),
                 on_done=lambda badge: self._attended(badge)).open()

    def attended_by_pin(self) -> PinPad:
        """On a table with a people list the inspector answers the call with their id and
        PIN (`Override.ATTENDED`): the override and `InspectorAttended` in one transaction."""
        pad = PinPad(_("Inspector attended"), say(needs_words(Override.ATTENDED)),
                     lambda pid, pin, reason: self._override(
                         Override.ATTENDED, pid, pin, reason,
                         lambda who, _why: lambda _s: InspectorAttended(f"inspector {who}")),
                     reason=ATTENDED_REASON)
        pad.open()
        return pad

    def _attended(self, badge: str) -> None:
        try:
            self.session.inspector_attended(f"inspector {badge}")
        except TablesideError as exc:
            self.session.refused(exc)

    def show_inspector(self) -> None:
        called = self.session.inspector_called
        self.inspector_called = called
        self.inspector_text = _("Inspector here") if called else _("Call inspector")
        self.correcting = self.manual_needs_inspector()
        self.show_dealer()

    # --- refusals -------------------------------------------------------------------------

    def explain_refusal(self, widget: Any) -> None:
        """A greyed-out control was tapped: say why it is not allowed now, in the words of
        the rule that refuses it (`why_not`)."""
        why = self.why_not(self.id_of(widget), widget)
        if not why:
            name = (getattr(widget, "text", "") or "").splitlines()
            why = (_("%(button)s is not possible at this step: %(step)s")
                   % {"button": name[0], "step": self.step} if name
                   else _("This is not possible at this step: %(step)s") % {"step": self.step})
        self.alert_why(why)

    def alert_why(self, why: str) -> None:
        """A refusal as the table's warning: its English on record (the log), its sentence
        kept for the screen to draw in the dealer's words."""
        self.session.alert(Severity.WARNING, str(why), sentence=getattr(why, "sentence", None))

    def id_of(self, widget: Any) -> str:
        """The kv id of `widget` on this screen ("" when it has none)."""
        for name, w in self.ids.items():
            try:
                if w.__self__ is widget:
                    return str(name)
            except ReferenceError:  # a widget the screen took off for good (kv ids are weak)
                continue
        return ""

    def why_not(self, name: str, widget: Any) -> str:  # each game's screen says why
        """Why the control `name` (its kv id) is not allowed now, in the engine's words;
        "" for the general answer."""
        return ""

    # --- the sync, for a technician ------------------------------------------------------

    _sync_line: Any = None

    def on_sync_status(self, *_args: Any) -> None:
        self.show_sync()

    def on_sync_late(self, *_args: Any) -> None:
        self.show_sync()

    def show_sync(self, *_args: Any) -> None:
        """The sync's line in small type along the bottom of the screen, whole, below the
        dealer's controls; only while the table has a sync to show (`sync_status`)."""
        line = self._sync_line
        if not self.sync_status:
            if line is not None and line.parent is self:
                self.remove_widget(line)
            return
        if line is None:
            line = self._sync_line = TextLabel(size_hint_y=None, halign="right",
                                               valign="middle")
            line.bind(size=lambda lb, sz: setattr(lb, "text_size", sz))
            self.bind(unit=self.show_sync)
        line.height = 15 * self.unit
        line.font_size = 12 * self.unit
        line.text = self.sync_status
        line.color = theme.WARNING_TEXT if self.sync_late else theme.MUTED  # 5.1:1 on felt
        if line.parent is None:
            self.add_widget(line)  # the last of the screen's rows: the bottom

    # --- alerts ---------------------------------------------------------------------------

    def banner_height(self, width: float, text: str, font_size: float, font_name: str,
                      least: float) -> float:
        """The alert banner's height: its words at their full size on the lines they need,
        up to ALERT_LINES, never under `least` (a refused card's words and the way forward
        run to 210 characters: on two lines they shrank to 5 px at 800x480)."""
        from kiosk.ui.fit import extent

        if not text or width <= 0:
            return least
        w, line = extent(text, font_size, font_name, True, False)
        lines = min(ALERT_LINES, -(-int(w * 1.1) // max(1, int(width))))  # words wrap early
        return max(least, lines * line + 8 * float(self.unit))

    def dismiss_alert(self) -> None:
        self._shown_alert = None
        self.alert_shown = False
        self.alert_text = ""

    def show_alerts(self) -> None:
        """The most serious of the alerts raised since the last look; a STOP shown is never
        replaced by an INFO."""
        s = self.session
        fresh = s.alerts_since(self._alerts_seen)
        self._alerts_seen = s.alerts_raised
        if not fresh:
            return
        best = max(fresh, key=lambda a: _ORDER[a.severity])
        if self._shown_alert is not None and \
                _ORDER[self._shown_alert.severity] > _ORDER[best.severity]:
            return
        self._shown_alert = best
        # The screens' own alerts are raised in English (the log's language) with their
        # words marked N_(), and shown in the dealer's; so is a refusal the rules worded with
        # its template (its sentence); the rules' other sentences stay as they are.
        forward = best.way_forward
        way = f". {say(forward) if isinstance(forward, Said) else _(forward)}" if forward \
            else ""
        text = said(best.sentence) if best.sentence is not None else _(best.message)
        self.alert_text = f"{text}{way}"
        self.alert_tone = SEVERITY_TONE[best.severity]
        self.alert_dark_text = best.severity is Severity.WARNING
        self.alert_shown = True

    def refresh(self, *_args: Any) -> None:  # pragma: no cover - each game's screen
        raise NotImplementedError
