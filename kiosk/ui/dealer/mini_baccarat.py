"""The dealer's mini baccarat screen: punto banco's (the same coup; its screen subclassed,
seven or nine seats) with the shuffler malfunction button and the procedure of rules
12.1-12.5 guided in place of the hands and the seats: each question as big buttons, who
answers, the wagers returned or offered back, the shuffle and the cut.

Nothing here decides a rule: the step and what is allowed are the engine's
(`kiosk.rules.mini_baccarat`), the words of each step the rules' (`next_step`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import _, money
from kiosk.rules.cards import Card
from kiosk.rules.cut import DECK as DECK_SIZE
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.ui import theme
from kiosk.ui.dealer.base import refusal
from kiosk.ui.dealer.card_keypad import CardKeypad
from kiosk.ui.dealer.choices import BadgePad
from kiosk.ui.dealer.punto_banco import PuntoBancoDealer
from kiosk.ui.widgets import TableButton

Builder.load_file(str(Path(__file__).with_name("mini_baccarat.kv")))

class DamagedCardKeypad(CardKeypad):
    """The card keypad for rule 12.3.1's damaged cards: any card the device can still hold,
    one at a time, each added to the list the dealer then removes from play."""

    def refresh(self) -> None:
        super().refresh()
        self.title = _("Key in a damaged card (rule 12.3.1)")


KIND_WORDS = {mb.BetKind.BANKER: "Banker", mb.BetKind.PLAYER: "Player", mb.BetKind.TIE: "Tie"}


class MalfunctionPanel(BoxLayout):  # type: ignore[misc]
    """The procedure's question and its buttons (mini_baccarat.kv)."""

    title = StringProperty("")
    detail = StringProperty("")
    detail_more = StringProperty("")  # a second column, for a list too long for one
    yes_text = StringProperty("")
    yes_enabled = BooleanProperty(True)
    no_text = StringProperty("")
    go_text = StringProperty("")
    steps_shown = BooleanProperty(False)  # the cut's place, in half decks (rule 12.5.3)
    cut_text = StringProperty("")
    back_text = StringProperty("")
    unit = NumericProperty(1.0)
    touch = NumericProperty(48.0)
    screen = ObjectProperty(None, allownone=True)


class MiniBaccaratDealer(PuntoBancoDealer):
    """The whole dealer screen for one mini baccarat table."""

    procedure_shown = BooleanProperty(False)
    can_malfunction = BooleanProperty(False)
    inspector_badge = StringProperty("")  # keyed once, for the inspector's decisions

    def __init__(self, session: Any, **kwargs: Any) -> None:
        self._damaged: list[Card] = []
        decks = session.state.rules.decks
        self.cut_halves = decks  # half-way in (rule 4.4 of the shuffle and cut)
        self.back_halves = min(2, decks)  # a deck from the back (rule 4.5)
        super().__init__(session, **kwargs)
        self.procedure = MalfunctionPanel(screen=self)
        self.bind(unit=self.procedure.setter("unit"), touch=self.procedure.setter("touch"))
        self.procedure.unit, self.procedure.touch = self.unit, self.touch
        middle = self.ids.areas.parent  # the hands and the seats
        self._middle = middle
        self.add_widget(self.procedure, index=self.children.index(middle))
        for name in ("proc_yes", "proc_no", "proc_go", "cut_less", "cut_more", "back_less",
                     "back_more"):
            self.ids[name] = self.procedure.ids[name]
        row = self.ids.void.parent
        button = TableButton(text=_("Shuffler fault"), font_size=15 * self.unit,
                             tone=theme.STOP)
        button.bind(on_release=lambda _w: self.malfunction())
        self.bind(unit=lambda _i, u: setattr(button, "font_size", 15 * u))
        row.add_widget(button, index=row.children.index(self.ids.void) + 1)
        self.ids["malfunction"] = button
        self.refresh()

    # --- acts ----------------------------------------------------------------------------

    def malfunction(self) -> None:
        """Rule 12.1: the dealer sees the shuffler stop in the coup."""
        self.act(lambda s: mb.shuffler_malfunction(s, "stopped (seen by the dealer)",
                                                   mb.DEALER))

    def _as_inspector(self, then: Any) -> None:
        """The inspector's decision: the badge keyed once, then `then(who)`."""
        if self.inspector_badge:
            then(mb.inspector("", self.inspector_badge))
            return

        def keyed(badge: str) -> None:
            self.inspector_badge = badge
            then(mb.inspector("", badge))

        BadgePad(title=_("The inspector decides: badge number"), on_done=keyed).open()

    def procedure_answer(self, yes: bool) -> None:
        """The left buttons: a fact's yes or no, a seat's choice, a cut or a refusal, the
        damaged cards removed."""
        state = self.session.state
        now = mb.where(state)
        if now is None:
            return
        if now.step is mb.Step.FACT and now.fact is not None:
            fact = now.fact
            if fact is mb.Fact.DAMAGED:
                self.act(lambda s: mb.establish_fact(s, fact, yes, mb.DEALER))
            else:
                self._as_inspector(lambda who: self.act(
                    lambda s: mb.establish_fact(s, fact, yes, who)))
        elif now.step is mb.Step.OFFER:
            area = now.area
            self.act(lambda s: mb.offer_wager_back(s, area, yes, mb.DEALER))
        elif now.step is mb.Step.CUT:
            m = state.malfunction
            seat = m.prep.offered_to() if m is not None and m.prep is not None else None
            if seat is None:
                return
            if yes:
                at, back = self._cut_place()
                self.act(lambda s: mb.cut_cards(s, seat, at, back))
            else:
                self.act(lambda s: mb.refuse_cut(s, seat))
        elif now.step is mb.Step.REMOVE and yes:
            cards = tuple(self._damaged)
            if self.act(lambda s: mb.remove_damaged_cards(s, cards, mb.DEALER)) is not None:
                self._damaged = []

    def procedure_go(self) -> None:
        """The right button: the step's one act."""
        state = self.session.state
        now = mb.where(state)
        if now is None:
            return
        step = now.step
        if step is mb.Step.REMOVE:
            DamagedCardKeypad(
                state_of=lambda: self.session.state, on_card=self._damaged_card,
                allowed=lambda s, c: self._could_be_damaged(c), due=lambda s: "",
                refused=lambda s, c: "" if self._could_be_damaged(c) else _(
                    "The shoe cannot hold another of this card")).open()
        elif step is mb.Step.CUT:
            at, back = self._cut_place()
            BadgePad(title=_("A game supervisor cuts (rule 4.3): badge number"),
                     on_done=lambda badge: self.act(lambda s: mb.cut_cards(
                         s, None, at, back, f"supervisor {badge}"))).open()
        elif step is mb.Step.TRANSFER:
            self.act(lambda s: mb.transfer_cards(s, mb.DEALER))
        elif step is mb.Step.REPLACE:
            self.act(lambda s: mb.replace_damaged_cards(s, mb.DEALER))
        elif step is mb.Step.TERMINATE:
            self.act(lambda s: mb.terminate_coup(s, mb.DEALER))
        elif step is mb.Step.RESHUFFLE:
            self.act(lambda s: mb.reshuffle_cards(s, mb.DEALER))
        elif step is mb.Step.CONTINUE:
            self.act(lambda s: mb.continue_coup(s, mb.DEALER))

    def _damaged_card(self, card: Card) -> None:
        self._damaged.append(card)
        self.refresh()

    def _could_be_damaged(self, card: Card) -> bool:
        return mb.can_remove_damaged_cards(self.session.state, (*self._damaged, card),
                                           mb.DEALER)

    def step_cut(self, delta: int) -> None:
        """Where the stack is cut, a half deck at a time (rule 4.4: a deck in from either
        end; the engine refuses a place outside it and says why)."""
        most = 2 * self.session.state.rules.decks - 1
        self.cut_halves = max(1, min(most, self.cut_halves + delta))
        self.refresh()

    def step_back(self, delta: int) -> None:
        """Where the cutting card goes from the back, a half deck at a time (rule 4.5)."""
        most = max(1, self.session.state.rules.decks)
        self.back_halves = max(1, min(most, self.back_halves + delta))
        self.refresh()

    def _cut_place(self) -> tuple[int, int]:
        """Where the cut is recorded: the cards in from the front, and the cutting card's
        place from the back (rules 4.4, 4.5 of the shuffle and cut), as the dealer set them."""
        half = DECK_SIZE // 2
        return self.cut_halves * half, self.back_halves * half

    def key_card(self, card: Card) -> None:
        self.act(lambda s: mb.deal_card(s, card, mb.CardSource.KEYED))

    def why_not(self, name: str, widget: Any) -> str:
        s = self.session.state
        if name == "malfunction":
            return refusal(mb.verify_shuffler_malfunction, s, "", mb.DEALER)
        if s.stopped and name in ("void", "key_card", "primary", "accept"):
            return refusal(mb.verify_void_round, s, "a reason")
        now = mb.where(s)
        if name == "proc_yes" and now is not None and now.step is mb.Step.CUT:
            m = s.malfunction
            seat = m.prep.offered_to() if m is not None and m.prep is not None else None
            at, back = self._cut_place()
            return refusal(mb.verify_cut_cards, s, seat, at, back)
        if name == "proc_yes" and now is not None:
            return _("Key in each damaged card first")
        return super().why_not(name, widget)

    # --- showing the state ---------------------------------------------------------------

    def refresh(self, *_args: Any) -> None:
        super().refresh()
        if not hasattr(self, "procedure"):
            return  # punto banco's __init__ refreshes before the panel is made
        state = self.session.state
        self.can_malfunction = mb.can_shuffler_malfunction(state, "", mb.DEALER)
        self.ids.malfunction.disabled = not self.can_malfunction
        shown = state.stopped
        self.procedure_shown = shown
        self._middle.size_hint_y = 0.001 if shown else 1
        self._middle.opacity = 0 if shown else 1
        self._middle.disabled = shown
        self.procedure.size_hint_y = 1 if shown else 0.001
        self.procedure.opacity = 1 if shown else 0
        self.procedure.disabled = not shown
        if not shown:
            return
        self.step_tone = theme.WARNING
        self.step_dark_text = True
        self.can_key_card = self.can_void = self.can_accept = False
        self.primary_enabled = False
        self.primary_text = _("Shuffler fault")
        self._show_procedure(state)

    def _show_procedure(self, state: mb.MiniBaccaratState) -> None:
        p = self.procedure
        now = mb.where(state)
        m = state.malfunction
        assert now is not None and m is not None
        p.title = _("Shuffler malfunction after %(n)s cards: %(detail)s") % {
            "n": m.cards_dealt, "detail": m.detail}
        p.yes_text = p.no_text = p.go_text = ""
        p.yes_enabled = True
        p.steps_shown = step_is_cut = now.step is mb.Step.CUT
        p.detail = self._decided(m)
        p.detail_more = ""
        step = now.step
        if step is mb.Step.FACT:
            p.yes_text, p.no_text = _("Yes"), _("No")
            who = (_("The dealer answers") if now.fact is mb.Fact.DAMAGED
                   else _("The inspector answers (badge %(badge)s)") % {
                       "badge": self.inspector_badge} if self.inspector_badge
                   else _("The inspector answers: badge number next"))
            p.detail = who + "\n" + p.detail
        elif step is mb.Step.OFFER:
            p.yes_text, p.no_text = _("Return the wagers"), _("Stays in the coup")
            p.detail = _("Seat %(seat)s: %(wagers)s") % {
                "seat": now.area, "wagers": self._wagers(state, now.area)}
        elif step is mb.Step.TERMINATE:
            p.go_text = _("Wagers returned: end the coup")
            lines = self._returned_list(state)
            half = (len(lines) + 1) // 2 if len(lines) > 4 else len(lines)
            p.detail = "\n".join(lines[:half]) or _("No wager is on the layout")
            p.detail_more = "\n".join(lines[half:])
        elif step is mb.Step.REMOVE:
            p.go_text = _("Key a damaged card")
            p.yes_text = _("Remove %(n)s cards") % {"n": len(self._damaged)}
            p.yes_enabled = bool(self._damaged)
            p.detail = (" ".join(c.code for c in self._damaged)
                        or _("No damaged card keyed yet"))
        elif step is mb.Step.TRANSFER:
            p.go_text = _("Cards transferred")
        elif step is mb.Step.REPLACE:
            p.go_text = _("Replaced from a new deck")
        elif step is mb.Step.RESHUFFLE:
            p.go_text = _("Cards shuffled")
        elif step is mb.Step.CUT:
            assert m.prep is not None
            seat = m.prep.offered_to()
            at, back = self._cut_place()
            if seat is not None:
                p.yes_text = _("Seat %(seat)s cut") % {"seat": seat}
                p.no_text = _("Seat %(seat)s refused") % {"seat": seat}
            p.go_text = _("Supervisor cuts")
            p.detail = _("Cut %(at)s cards in; the cutting card %(back)s cards from the back"
                         ) % {"at": at, "back": back}
            p.cut_text = _("Cut: %(n)s in") % {"n": at}
            p.back_text = _("Cutting card: %(n)s") % {"n": back}
            why = refusal(mb.verify_cut_cards, state, seat, at, back,
                          "" if seat is not None else "supervisor")
            if why and step_is_cut:
                p.detail += "\n" + why
                p.yes_enabled = False
        elif step is mb.Step.CONTINUE:
            p.go_text = _("Continue the coup")
            stayed = mb.seated(state)
            if m.branch is mb.Branch.DEALING_SHOE and stayed:
                p.detail = _("Players staying: seats %(seats)s") % {
                    "seats": ", ".join(str(x) for x in stayed)}

    def _decided(self, m: mb.Malfunction) -> str:
        words = {mb.Fact.DAMAGED: _("Cards damaged"),
                 mb.Fact.DISADVANTAGED: _("Anyone disadvantaged"),
                 mb.Fact.SPARE: _("Spare shuffler"),
                 mb.Fact.TRANSFERABLE: _("Cards transferable")}
        return " · ".join(f"{words[f]}: {_('Yes') if a else _('No')}" for f, a in m.facts)

    def _wagers(self, state: mb.MiniBaccaratState, area: str) -> str:
        return ", ".join(f"{_(KIND_WORDS[b.kind])} {money(b.amount, state.rules.currency)}"
                         for b in mb.returned_per_area(state) if b.area == area)

    def _returned_list(self, state: mb.MiniBaccaratState) -> list[str]:
        """Rule 12.4: every wager returned, seat by seat, a line a seat."""
        areas: list[str] = []
        for b in mb.returned_per_area(state):
            if b.area not in areas:
                areas.append(b.area)
        return [_("%(seat)s: %(wagers)s") % {"seat": a, "wagers": self._wagers(state, a)}
                for a in areas]
