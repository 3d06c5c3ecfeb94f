"""The dealer's blackjack screen: standard blackjack (section 4) and Touch 21 (section 7), with
the shuffle and cut (rules 4.1-4.7 of the shuffle-and-cut text).

It shows the state and sends actions; every button is enabled from the engine's `can_` (or
`verify_`) queries and every refusal comes back as the engine's sentence. Nothing here
decides a rule: the sentences on the screen are the engine's (`next_step`, `who_cuts`, the
refusals, in the approved rules' English), the totals are `Total`'s ("soft 17 / 7"), the
payouts are `settlement`'s. The screen's own words are in the dealer's language
(kiosk/i18n.py), its amounts in the house's money style.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.i18n import _, ngettext, number, percent, pgettext, say
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.cut import DECK, Stage
from kiosk.rules.blackjack.settle import Outcome
from kiosk.rules.cards import Card
from kiosk.rules.operations import Operation
from kiosk.table.roles import Override
from kiosk.table.session import TableSession
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.card_face import CARD_ASPECT, COMPACT_SHOWN, CardFace
from kiosk.ui.dealer.base import (
    VOID_REASONS,
    DealerScreen,
    chip_buttons,
    default_chip_values,
    refusal,
)
from kiosk.ui.dealer.blackjack_dialogs import (
    BehindChooser,
    InsuranceAmount,
    due_words,
    keyed_allowed,
    keyed_refused,
)
from kiosk.ui.dealer.blackjack_words import (
    HandShown,
    allowed,
    box_blocks,
    box_title,
    dealer_rule,
    decks_words,
    hand_label,
    hands_shown,
    insurance_lines,
    stake_lines,
    total_words,
)
from kiosk.ui.dealer.card_keypad import CardKeypad
from kiosk.ui.dealer.choices import BadgePad, ReasonPicker
from kiosk.ui.dealer.payout_words import money
from kiosk.ui.dealer.payouts import PayoutSheet
from kiosk.ui.widgets import ChipButton, TableButton

log = logging.getLogger(__name__)
Builder.load_file(str(Path(__file__).with_name("blackjack.kv")))

Session = TableSession[bj.BlackjackState]

PLAYERS = "ABCDEFG"  # rule 4.2 item 2: the first bet on a box calls it, the others play behind
HALF_DECK = DECK // 2  # the cut is entered in half decks (26 cards)


# --- Widgets -----------------------------------------------------------------------------------


class BjCardRow(Widget):
    """A hand's cards, overlapping when there are more than fit: `cards` holds
    (code, face down, highlighted) triples."""

    cards = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._faces: list[CardFace] = []
        super().__init__(**kwargs)
        self._layout_trigger = Clock.create_trigger(self._layout, 0)
        self.bind(pos=self._layout_trigger, size=self._layout_trigger)

    @property
    def faces(self) -> list[CardFace]:
        return list(self._faces)

    def on_cards(self, _inst: Any, cards: list[tuple[str, bool, bool]]) -> None:
        while len(self._faces) < len(cards):
            face = CardFace()
            self._faces.append(face)
            self.add_widget(face)
        while len(self._faces) > len(cards):
            self.remove_widget(self._faces.pop())
        for face, (code, down, highlight) in zip(self._faces, cards, strict=True):
            face.code = code
            face.face_down = down
            face.highlight = highlight
        self._layout_trigger()

    def _layout(self, *_args: Any) -> None:
        n = len(self._faces)
        if not n or self.width <= 0 or self.height <= 0:
            return
        # Up to three cards side by side; more fan out, each still showing its corner. In a
        # narrow hand (a box split to four) three or more cards fan out too, as tall as the
        # row allows while each still shows its rank.
        side_by_side = max(2, min(n, 3))
        w = min(self.height * CARD_ASPECT, self.width / side_by_side * 0.94)
        if n > 2:
            fanned = self.width / (1 + (n - 1) * COMPACT_SHOWN)
            w = max(w, min(self.height * CARD_ASPECT, fanned))
        h = w / CARD_ASPECT
        gap = w * 0.06
        step = w + gap
        if n > 1 and w + step * (n - 1) > self.width:
            step = (self.width - w) / (n - 1)  # fan them: each still shows its corner
        x = self.x + max(0.0, (self.width - (w + step * (n - 1))) / 2)
        for face in self._faces:
            face.size = (w, h)
            face.pos = (x, self.y + (self.height - h) / 2)
            x += step


class BjHandStrip(BoxLayout):
    """One hand in a box: cards, total ("soft 17 / 7") and each player's bet or payout."""

    total = StringProperty("")
    detail = StringProperty("")
    turn = BooleanProperty(False)
    unit = NumericProperty(1.0)

    def total_wraps(self, width: float, total: str, font_size: float, font_name: str) -> bool:
        """Whether the total needs two lines ("bust (27)" in a box split to four, 50 px wide
        at 800x480): it takes the detail's line then, rather than shrink under 1.75 mm."""
        from kiosk.ui.fit import extent

        return bool(total) and extent(total, font_size, font_name, True, False)[0] > width - 2


class BjBoxTile(ButtonBehavior, BoxLayout):
    """One of the seven boxes (rule 4.3): its hands, or its bets before the deal."""

    box = NumericProperty(0)
    title = StringProperty("")
    detail = StringProperty("")
    selected = BooleanProperty(False)
    attention = BooleanProperty(False)
    unit = NumericProperty(1.0)

    def show_hands(self, hands: list[HandShown]) -> None:
        box = self.ids.hands
        strips = [w for w in box.children[::-1] if isinstance(w, BjHandStrip)]
        while len(strips) < len(hands):
            strip = BjHandStrip(unit=self.unit)
            self.bind(unit=strip.setter("unit"))
            box.add_widget(strip)
            strips.append(strip)
        while len(strips) > len(hands):
            box.remove_widget(strips.pop())
        for strip, hand in zip(strips, hands, strict=True):
            strip.ids.cards.cards = list(hand.cards)
            strip.total = hand.total
            strip.detail = hand.detail
            strip.turn = hand.turn

    @property
    def strips(self) -> list[BjHandStrip]:
        return [w for w in self.ids.hands.children[::-1] if isinstance(w, BjHandStrip)]


class BlackjackDealer(DealerScreen):
    """The whole dealer screen for one blackjack (or Touch 21) table."""

    game_name = StringProperty("Blackjack")
    dealer_rule = StringProperty("")
    dealer_total = StringProperty("")
    selected_box = NumericProperty(1)
    insurance_box = NumericProperty(0)  # whose players the insurance row shows (rule 4.7)
    insurance_step = StringProperty("")  # "Box 1: next box" while more boxes have bets
    player = StringProperty("A")  # whose chips go on the selected box
    player_text = StringProperty("Player A")
    split_text = StringProperty("Split")  # the Split button: the blackjack sense of the word
    crowded = BooleanProperty(False)  # a box holds more than two hands
    can_new_shoe = BooleanProperty(False)
    can_burn = BooleanProperty(False)
    # shuffle and cut
    prep_text = StringProperty("")
    can_hand_shuffle = BooleanProperty(False)
    can_into_shuffler = BooleanProperty(False)
    cut_halves = NumericProperty(6)  # where the stack is cut, in half decks from the front
    back_halves = NumericProperty(3)  # where the cutting card goes, half decks from the back
    cut_words = StringProperty("")
    back_words = StringProperty("")
    cutter = NumericProperty(0)  # the box the cut buttons speak of (0: none)
    can_cut = BooleanProperty(False)
    can_refuse = BooleanProperty(False)
    can_supervisor_cut = BooleanProperty(False)
    # decisions (rule 4.2 item 4)
    draw_hint = StringProperty("")
    has_draw = BooleanProperty(False)  # a simulated shoe: the Draw button pulls a card
    can_call = BooleanProperty(False)  # the selected player could be made the box's caller
    can_draw = BooleanProperty(False)
    can_stand = BooleanProperty(False)
    can_double = BooleanProperty(False)
    can_split = BooleanProperty(False)
    can_surrender = BooleanProperty(False)
    can_pay_blackjack = BooleanProperty(False)
    # a card waiting for the dealer
    query_text = StringProperty("")
    query_code = StringProperty("")  # the queried card as the shoe read it
    can_set_aside = BooleanProperty(False)
    can_accept = BooleanProperty(False)
    rows = ListProperty([])  # the context rows shown now, by name
    chip_values = ListProperty([])
    session = ObjectProperty(None, allownone=True)

    ROW_NAMES = ("shuffle_row", "shuffler_row", "cut_row", "cutter_row", "bet_row",
                 "decision_row", "insurance_row", "query_row")

    def __init__(self, session: Session, *, table_name: str = "",
                 chip_values: tuple[int, ...] = (),
                 on_new_shoe: Callable[[], None] | None = None,
                 on_draw: Callable[[], None] | None = None,
                 px_per_mm: float = theme.PI_TOUCHSCREEN_PX_PER_MM, **kwargs: Any) -> None:
        self.table_name = table_name or session.table_id
        self.on_new_shoe = on_new_shoe
        self.on_draw = on_draw
        self.px_per_mm = px_per_mm
        self.start_screen()
        self._insurance_key: tuple[Any, ...] = ()
        self._insurance_binds: list[tuple[str, int]] = []
        super().__init__(**kwargs)
        self.session = session
        self.has_draw = on_draw is not None
        if on_draw is None:  # a real shoe: the dealer draws from it; the hint says so
            self.ids.decision_row.remove_widget(self.ids.draw)
        else:
            self.ids.decision_row.remove_widget(self.ids.draw_hint)
        rules = session.state.rules
        self.game_name = rules.game_name
        self.dealer_rule = dealer_rule(rules)
        # TRANSLATORS: the blackjack button that splits a pair into two hands (rule 4.2
        # item 4e), not roulette's split bet.
        self.split_text = pgettext("blackjack", "Split")
        self.cut_halves = rules.decks  # half the shoe
        self.back_halves = min(3, rules.decks)  # 1½ decks, at most half the shoe (rule 4.5)
        self.chip_values = list(chip_values or default_chip_values(rules.chips.smallest_chip))
        # The context rows live in the kv rule; only the ones the state needs are shown.
        # Strong references: `ids` are weak, and a row off the screen has no other owner.
        self._rows: dict[str, Widget] = {name: self.ids[name].__self__
                                         for name in self.ROW_NAMES}
        self.ids.context.clear_widgets()
        self._build_chips()
        self._build_boxes()
        self.go_live(self._on_session)

    # --- layout ----------------------------------------------------------------------------

    def _rescale(self, *_args: Any) -> None:
        self.scale_to_screen()
        self._size_context()

    def _build_chips(self) -> None:
        self.build_chip_rack(self._chips())

    def _chips(self) -> list[ChipButton]:
        """The house's chip buttons (the bet row's, and the insurance amount's)."""
        return chip_buttons(self.chip_values, self.session.state.rules.currency)

    def _build_boxes(self) -> None:
        grid = self.ids.boxes
        grid.clear_widgets()
        boxes = self.session.state.rules.boxes
        grid.cols = boxes
        for n in range(1, boxes + 1):
            tile = BjBoxTile(box=n, title=box_title(n))
            tile.bind(on_release=lambda t: self.select_box(int(t.box)))
            self.bind(unit=tile.setter("unit"))
            tile.unit = self.unit
            grid.add_widget(tile)

    def tile(self, box: int) -> BjBoxTile:
        found: BjBoxTile = next(t for t in self.ids.boxes.children if t.box == box)
        return found

    def _show_rows(self, names: list[str]) -> None:
        if names == list(self.rows):
            return
        ctx = self.ids.context
        ctx.clear_widgets()
        for name in names:
            ctx.add_widget(self._rows[name])
        self.rows = names
        self._size_context()

    def _size_context(self) -> None:
        n = len(self.rows)
        gap = 5 * self.unit
        rows = sum(self._rows[name].size_hint_y or 1 for name in self.rows)  # query_row: 1.6
        self.ids.context.height = rows * self.touch + max(0, n - 1) * gap

    # --- actions (each one the engine checks) -------------------------------------------

    def select_box(self, box: int) -> None:
        state = self.session.state
        if state.phase is bj.Phase.INSURANCE and state.stakes_on(box):
            self.insurance_box = box  # its players' insurance in the row below
            self.refresh()
            return
        if state.phase is not bj.Phase.BETTING and any(h.box == box for h in state.hands):
            self.open_box(box)  # the round is dealt: the box's every hand, in large type
            return
        self.selected_box = box
        stakes = state.stakes_on(box)
        self.player = stakes[0].player if stakes else PLAYERS[0]
        self.refresh()

    def open_box(self, box: int) -> PayoutSheet:
        """A sheet over the screen with each hand of `box` and each player's bet, or what to
        pay, take or hand back and how much once the round is complete (the
        payout the dealer pays from, at least 4 mm tall)."""
        state = self.session.state
        title = (_("Box %(box)s: pay and take") if state.phase is bj.Phase.PAYING
                 else _("Box %(box)s: bets")) % {"box": box}
        sheet = PayoutSheet(title, box_blocks(state, box), unit=self.unit, touch=self.touch)
        sheet.open()
        return sheet

    def _player_options(self) -> list[str]:
        existing = [s.player for s in self.session.state.stakes_on(self.selected_box)]
        options = list(existing)
        new = next((p for p in PLAYERS if p not in existing), None)
        if existing and new is not None:
            options.append(new)  # one more player behind the box (rule 4.2 item 2)
        return options or [PLAYERS[0]]

    def next_player(self) -> None:
        """The "Player behind" button: the next player on this box, then a new one."""
        options = self._player_options()
        i = options.index(self.player) if self.player in options else -1
        self.player = options[(i + 1) % len(options)]
        self.refresh()

    def make_caller(self) -> None:
        """Rule 4.2 item 2: the dealer saw this player's bet is the one nearest the dealer,
        so it calls the box."""
        box, player = self.selected_box, self.player
        self.act(lambda s: bj.set_caller(s, box, player))

    def add_chip(self, amount: int) -> None:
        box, player = self.selected_box, self.player
        self.place_chips(lambda s: bj.place_bet(s, box, amount, player),
                         lambda s: bj.remove_bet(s, box, amount, player),
                         lambda s: bj.can_remove_bet(s, box, amount, player))

    def primary(self) -> None:
        """The big button: what closes the current phase."""
        phase = self.session.state.phase
        if phase is bj.Phase.BETTING:
            self.no_more_bets()
        elif phase is bj.Phase.CHECK:
            self.act(bj.check_blackjacks)  # Touch 21, rule 7.2 items 4-5
        elif phase is bj.Phase.INSURANCE:
            self.act(bj.close_insurance)  # rule 4.7
        elif phase is bj.Phase.PAYING:
            self.act(bj.confirm_payouts)

    def no_more_bets(self) -> None:
        """Rule 4.2 item 3. The table's physical button calls exactly this."""
        self.act(bj.close_betting)

    # shuffle and cut (rules 4.1-4.7, shuffle and cut)

    def _shuffle(self, method: str, new_cards: bool = False) -> None:
        if not bj.can_shuffle(self.session.state, method, new_cards):
            self.act(lambda s: bj.shuffle(s, method, new_cards))  # the engine says why
            return
        if self.on_new_shoe is not None:
            self.on_new_shoe()  # e.g. the simulator's shoe starts again
        self.act(lambda s: bj.shuffle(s, method, new_cards))

    def shuffled(self) -> None:
        self._shuffle("hand")

    def hand_shuffle_new_decks(self) -> None:
        self._shuffle("hand", True)  # rule 4.6.1 (shuffle and cut)

    def into_shuffler(self) -> None:
        self._shuffle("shuffler")  # rule 4.6.2 (shuffle and cut)

    def new_shoe(self) -> None:
        self._shuffle("shuffler" if self.session.state.rules.shuffler else "hand")

    def step_cut(self, delta: int) -> None:
        self.cut_halves = max(1, min(2 * self.session.state.rules.decks - 1,
                                     self.cut_halves + delta))
        self.refresh()

    def step_back(self, delta: int) -> None:
        self.back_halves = max(1, min(2 * self.session.state.rules.decks - 1,
                                      self.back_halves + delta))
        self.refresh()

    @property
    def cut_at(self) -> int:
        return int(self.cut_halves) * HALF_DECK

    @property
    def from_back(self) -> int:
        return int(self.back_halves) * HALF_DECK

    def _cutter(self) -> int:
        """The box the cut is offered to (the engine's), or the box the dealer chose when
        the first player to the table cuts (rule 4.2.1)."""
        offered = self.session.state.prep.offered_to()
        return offered if offered is not None else int(self.selected_box)

    def box_cuts(self) -> None:
        box, at, back = self._cutter(), self.cut_at, self.from_back
        self.act(lambda s: bj.cut_cards(s, box, at, back))

    def box_refused(self) -> None:
        box = self._cutter()
        self.act(lambda s: bj.refuse_cut(s, box))

    def open_supervisor_cut(self) -> None:
        at, back = self.cut_at, self.from_back
        BadgePad(title=_("A game supervisor cuts (rule 4.3): badge number"),
                 on_done=lambda badge: self.act(lambda s: bj.cut_cards(
                     s, None, at, back, f"supervisor {badge}"))).open()

    def burned_unread(self) -> None:
        """Rule 4.7 (shuffle and cut): the first card burned face down, never read."""
        self.act(lambda s: bj.burn(s, None))

    # decisions (rule 4.2 item 4)

    def draw(self) -> None:
        """The player draws (rule 4.2 item 4c): the simulated shoe deals the card, which
        comes back through the shoe driver like any other."""
        if self.on_draw is not None and self.can_draw:
            self.on_draw()

    def stand(self) -> None:
        self.act(bj.stand)

    def pay_blackjack(self) -> None:
        self.act(bj.pay_blackjack)

    def _behind(self) -> list[bj.HandBet]:
        h = self.session.state.current
        if h is None or h.caller is None:
            return []
        return [b for b in h.bets if b.active and b is not h.caller]

    def _choose_behind(self, action: str, send: Callable[[dict[str, str]], None]) -> None:
        behind = self._behind()
        if not behind:
            send({})
            return
        h = self.session.state.current
        assert h is not None
        cur = self.session.state.rules.currency
        title = {"double": _("Double on %(hand)s: who doubles with the box? (rule %(rule)s "
                             "item 4d)"),
                 "surrender": _("Surrender on %(hand)s: who surrenders with the box? (rule "
                                "%(rule)s item 4a)"),
                 "split": _("Split on %(hand)s: both hands, or which hand does each player "
                            "behind play? (rule %(rule)s item 4e)")}[action] % {
            "hand": hand_label(h), "rule": self.session.state.rules.rule_clause}
        players = [(b.player, _("Player %(player)s %(amount)s") % {
            "player": b.player, "amount": money(b.stake, cur)}) for b in behind]
        BehindChooser(action, title, players, on_done=send).open()

    def double(self) -> None:
        def send(choices: dict[str, str]) -> None:
            behind = tuple(p for p, c in choices.items() if c == "yes")
            self.act(lambda s: bj.double(s, behind))
        self._choose_behind("double", send)

    def surrender(self) -> None:
        def send(choices: dict[str, str]) -> None:
            behind = tuple(p for p, c in choices.items() if c == "yes")
            self.act(lambda s: bj.surrender(s, behind))
        self._choose_behind("surrender", send)

    def split(self) -> None:
        def send(choices: dict[str, str]) -> None:
            follow = {p: bj.Follow(c) for p, c in choices.items()}
            self.act(lambda s: bj.split(s, follow))
        self._choose_behind("split", send)

    # insurance and even money (rule 4.7; rule 7.2 item 6)

    def insure(self, box: int, player: str, amount: int | None = None) -> None:
        """The player insures `amount` cents; by default the most (rule 4.7: up to half the
        bet). An amount the engine refuses is shown in its words and changes nothing."""
        cents = bj.max_insurance(self.session.state, box, player) if amount is None else amount
        self.act(lambda s: bj.insure(s, box, player, cents))

    def open_insurance_amount(self, box: int, player: str) -> None:
        """The *Less* button: the dealer enters the chips the player put up as insurance,
        starting from the most."""
        state = self.session.state
        if not bj.can_insure(state, box, player):
            self.insure(box, player)  # not now: the engine says why
            return
        cur = state.rules.currency
        most = bj.max_insurance(state, box, player)
        InsuranceAmount(
            title=_("Insurance on box %(box)s, player %(player)s: up to %(amount)s") % {
                "box": box, "player": player, "amount": money(most, cur)},
            most=most, currency=cur, chips=self._chips(),
            refusal=lambda amount: allowed(bj.verify_insure, self.session.state, box,
                                            player, amount)[1],
            on_done=lambda amount: self.insure(box, player, amount)).open()

    def even_money(self, box: int, player: str) -> None:
        self.act(lambda s: bj.take_even_money(s, box, player))

    # cards by hand, queried cards, voids

    def open_keypad(self) -> None:
        CardKeypad(state_of=lambda: self.session.state, on_card=self.key_card,
                   allowed=keyed_allowed, due=due_words, refused=keyed_refused).open()

    def key_card(self, card: Card) -> None:
        if not self.manual_needs_inspector():
            self.act(lambda s: bj.deal_card(s, card, bj.CardSource.KEYED))
            return
        self.override(Override.MANUAL_CARD, _("Key in %(card)s over the shoe's read") % {
            "card": card.code}, lambda _pid, _why: lambda s: bj.deal_card(
                s, card, bj.CardSource.KEYED), lambda: None)

    def set_aside(self) -> None:
        self.act(lambda s: bj.set_aside_card(s))

    def open_accept(self) -> None:
        self.override(
            Override.ACCEPT_QUERIED, _("Inspector accepts the queried card"),
            lambda pid, _reason: lambda s: bj.accept_queried_card(s, f"inspector {pid}"),
            lambda: BadgePad(title=_("Inspector accepts the queried card: badge number"),
                             on_done=lambda badge: self.act(lambda s: bj.accept_queried_card(
                                 s, f"inspector {badge}"))).open())

    def open_void(self) -> None:
        title = _("Void this round: every bet not yet settled goes back")
        self.override(
            Override.VOID, title, lambda pid, reason: lambda s: bj.void_round(
                s, reason, "dealer", f"inspector {pid}"),
            lambda: ReasonPicker(title=title, reasons=VOID_REASONS,
                                 on_done=self._void).open(),
            reasons=VOID_REASONS)

    def _void(self, reason: str) -> None:
        if not bj.void_needs_inspector(self.session.state):
            self.act(lambda s: bj.void_round(s, reason, "dealer"))
            return
        # Rule 2.7: the dealer's hand has begun, so the result is known: an inspector decides.
        BadgePad(title=_("Inspector voids the round: badge number"),
                 on_done=lambda badge: self.act(lambda s: bj.void_round(
                     s, reason, "dealer", f"inspector {badge}"))).open()

    # --- showing the state -------------------------------------------------------------------

    def _on_session(self, _state: Any, _op: Operation | None) -> None:
        self._refresh_trigger()

    def refresh(self, *_args: Any) -> None:
        s: Session = self.session
        state = s.state
        rules = state.rules
        prep = state.prep
        phase = state.phase
        pending = state.pending
        self._header(state)
        self.step = say(s.next_step())  # the rules' words, in the dealer's language
        self.step_tone = (theme.WARNING if pending is not None
                          else theme.GOLD if phase is bj.Phase.PAYING
                          else theme.INFO if phase in (bj.Phase.CHECK, bj.Phase.INSURANCE)
                          else theme.FELT_DARK)
        self.step_dark_text = pending is not None or phase is bj.Phase.PAYING
        self.step_detail = ""
        # The dealer's hand and the rule it follows (rules 4.2, 7.2).
        dealer_cards = [(c.code, False, False) for c in state.dealer]
        if pending is not None and pending.box == bj.DEALER:
            dealer_cards.append((pending.card.code if pending.card else "",
                                 pending.card is None, True))
        self.ids.dealer_cards.cards = dealer_cards
        t = state.dealer_total
        done = state.phase is bj.Phase.PAYING and not t.bust
        self.dealer_total = (_("Blackjack") if state.dealer_blackjack
                             else str(t.best) if done and state.dealer_points
                             else total_words(t) if state.dealer_points else "")
        self._show_boxes(state)
        # Which rows of controls the state needs.
        rows: list[str] = []
        # Before the bets, or with the bets closed when the cutting card came out first
        # (rule 4.1.2 shuffle and cut): no card of the round is out yet.
        preparing = prep.stage in (Stage.SHUFFLE, Stage.HAND_SHUFFLE, Stage.CUT) \
            and (phase is bj.Phase.BETTING or (phase is bj.Phase.DEALING
                                               and not state.round_cards))
        if pending is not None:
            rows.append("query_row")
        elif preparing:
            if prep.stage is Stage.CUT:
                rows += ["cut_row", "cutter_row"]
            else:
                rows.append("shuffler_row" if rules.shuffler else "shuffle_row")
        if pending is None and phase is bj.Phase.BETTING:
            rows.append("bet_row")
        elif pending is None and phase is bj.Phase.PLAYING:
            rows.append("decision_row")
        elif pending is None and phase is bj.Phase.INSURANCE:
            rows.append("insurance_row")
        self._show_rows(rows)
        self._show_prep(state)
        self._show_bets(state)
        self._show_decisions(state)
        self._show_insurance(state)
        self._show_query(state)
        self._show_primary(state)
        legal = bj.legal_actions(state)
        self.can_key_card = "deal_card" in legal
        self.can_void = self.may(Override.VOID, "void_round" in legal)
        self.can_burn = bj.burn_due(state)
        method = "shuffler" if rules.shuffler else "hand"
        self.can_new_shoe = prep.stage is Stage.READY and bj.can_shuffle(state, method)
        self.show_inspector()
        self.show_alerts()

    def _header(self, state: bj.BlackjackState) -> None:
        name = self.table_name
        if self.game_name.lower() not in name.lower():  # "Blackjack demo" says it already
            name = f"{name}  ·  {self.game_name}"
        self.header = f"{name}  ·  " + _("Round %(round)s") % {"round": state.round}
        online = self.session.device_online.get("SHOE", True)
        if state.shoe is None:
            shoe = _("No shoe: shuffle and cut")
        else:
            left = state.shoe.remaining
            dealt = percent(Fraction(round(100 * state.penetration), 100))
            shoe = (ngettext("%(n)s card left", "%(n)s cards left", left)
                    % {"n": number(left)} + " · " + _("%(share)s dealt") % {"share": dealt})
            if state.shuffle_after_round:
                shoe += " · " + _("cutting card out: last round")
        self.shoe_ok = online
        self.shoe_status = shoe if online else _("Shoe not answering: key cards in")
        if "shoe" in getattr(self.session, "simulated", ()):  # never taken for real cards
            self.shoe_status = _("SIMULATED SHOE") + " · " + self.shoe_status

    def _show_boxes(self, state: bj.BlackjackState) -> None:
        betting = state.phase is bj.Phase.BETTING
        insuring = state.phase is bj.Phase.INSURANCE
        if insuring:
            self._insurance_boxes(state)
        current = state.current
        # A box split to three or four hands stacks them in two rows: the dealer's row gives
        # them its spare height, or their cards were under 6 mm at 800x480.
        self.crowded = not betting and any(
            sum(1 for h in state.hands if h.box == box) > 2 for box in range(1, 8))
        for tile in self.ids.boxes.children:
            box = int(tile.box)
            tile.selected = (box == self.selected_box and betting) or (
                insuring and box == self.insurance_box)  # whose insurance the row offers
            if betting:
                tile.show_hands([])
                tile.detail = "\n".join(stake_lines(state, box))
                tile.attention = False
            else:
                tile.show_hands(hands_shown(state, box))
                tile.detail = "\n".join(insurance_lines(state, box))
                tile.attention = current is not None and current.box == box \
                    and state.phase is bj.Phase.PLAYING
            pending = state.pending
            if pending is not None and pending.box == box:
                tile.attention = True

    def _show_prep(self, state: bj.BlackjackState) -> None:
        prep = state.prep
        self.prep_text = ""
        if prep.stage in (Stage.SHUFFLE, Stage.HAND_SHUFFLE):
            self.prep_text = _("Shuffle by hand") if not state.rules.shuffler else _("Shuffler")
        self.can_hand_shuffle = (prep.stage is Stage.SHUFFLE
                                 and bj.can_shuffle(state, "hand", state.rules.shuffler))
        self.can_into_shuffler = state.rules.shuffler and bj.can_shuffle(state, "shuffler") \
            and prep.stage in (Stage.SHUFFLE, Stage.HAND_SHUFFLE)
        self.cut_words = decks_words(int(self.cut_halves))
        self.back_words = decks_words(int(self.back_halves))
        if prep.stage is not Stage.CUT:
            self.can_cut = self.can_refuse = self.can_supervisor_cut = False
            self.cutter = 0
            return
        box = self._cutter()
        self.cutter = box
        self.can_cut, why = allowed(bj.verify_cut_cards, state, box, self.cut_at,
                                     self.from_back)
        self.can_refuse = bj.can_refuse_cut(state, box)
        self.can_supervisor_cut, why_sup = allowed(
            bj.verify_cut_cards, state, None, self.cut_at, self.from_back, "supervisor")
        if prep.supervisor_must_cut():
            why = why_sup
        if why and state.phase is bj.Phase.BETTING and state.pending is None:
            self.step_detail = why  # rules 4.3-4.5 in the engine's words

    def _show_bets(self, state: bj.BlackjackState) -> None:
        box, player = int(self.selected_box), self.player
        for chip in self.ids.chips.children:
            chip.disabled = not bj.can_place_bet(state, box, int(chip.value), player)
        stakes = state.stakes_on(box)
        caller = stakes[0].player if stakes else PLAYERS[0]
        self.player_text = (_("Player %(player)s") if player == caller
                            else _("Player %(player)s behind")) % {"player": player}
        self.ids.behind.disabled = state.phase is not bj.Phase.BETTING or len(
            self._player_options()) < 2
        self.can_undo = self.undo_allowed()
        self.can_call = bj.can_set_caller(state, self.selected_box, self.player)
        if state.phase is bj.Phase.BETTING and state.stakes and state.pending is None \
                and not self.step_detail:
            ok, why = allowed(bj.verify_close_betting, state)
            if not ok and state.prep.stage in (Stage.BURN, Stage.READY):
                self.step_detail = why  # e.g. under the table minimum (rule 2.2)

    def _show_decisions(self, state: bj.BlackjackState) -> None:
        allowed = bj.decisions(state)
        self.can_draw = "draw" in allowed and self.on_draw is not None
        self.draw_hint = (_("Draw: deal a card") if "draw" in allowed and not self.has_draw
                          else "")
        legal = bj.legal_actions(state)
        self.can_stand = "stand" in legal
        self.can_double = "double" in legal
        self.can_split = "split" in legal
        self.can_surrender = "surrender" in legal
        self.can_pay_blackjack = "pay_blackjack" in legal
        if self.can_pay_blackjack:
            self.draw_hint = _("Blackjack pays %(odds)s") % {
                "odds": bj.format_ratio_words(state.rules)}

    def _show_insurance(self, state: bj.BlackjackState) -> None:
        row = self.ids.insurance_buttons
        if state.phase is not bj.Phase.INSURANCE:
            if self._insurance_key:
                self._clear_insurance_buttons()
            return
        cur = state.rules.currency
        # One box's players at a time (seven boxes of four would not fit a row): the dealer
        # offers insurance box by box; tapping a box, or Next box, shows its players.
        boxes = self._insurance_boxes(state)
        stakes = sorted((x for x in state.stakes if x.box == self.insurance_box),
                        key=lambda x: PLAYERS.find(x.player))
        key = (state.round, self.insurance_box, len(boxes),
               tuple((x.box, x.player) for x in stakes))
        if key != self._insurance_key:
            self._clear_insurance_buttons()
            # TRANSLATORS: steps the insurance row on to the next box with bets (two lines).
            self.insurance_step = (_("Box %(box)s:\nnext box") % {"box": self.insurance_box}
                                   if len(boxes) > 1 else "")
            for x in stakes:
                # One tap insures the most; *Less* beside it opens the amount (rule 4.7).
                b = TableButton(font_size=14 * self.unit, tone=theme.INFO)
                b.box, b.player, b.less = x.box, x.player, False
                b.bind(on_release=lambda w: self._insurance_tap(w.box, w.player))
                self._insurance_binds.append(("unit", self.fbind(
                    "unit", lambda _i, u, w=b: setattr(w, "font_size", 14 * u))))
                row.add_widget(b)
                if self._even_money(state, x.box, x.player):
                    continue  # even money is the whole bet or nothing
                # TRANSLATORS: beside a player's insurance: enter less than the most.
                less = TableButton(text=_("Less"), font_size=14 * self.unit, tone=theme.RAIL,
                                   size_hint_x=None, width=self.touch)
                less.box, less.player, less.less = x.box, x.player, True
                less.bind(on_release=lambda w: self.open_insurance_amount(w.box, w.player))
                self._insurance_binds += [
                    ("unit", self.fbind("unit", lambda _i, u, w=less:
                                        setattr(w, "font_size", 14 * u))),
                    ("touch", self.fbind("touch", lambda _i, t, w=less:
                                         setattr(w, "width", t)))]
                row.add_widget(less)
            self._insurance_key = key
        for b in row.children:
            box, player = b.box, b.player
            if b.less:
                b.disabled = not bj.can_insure(state, box, player)
                continue
            insured = next((i for i in state.insurance
                            if i.box == box and i.player == player), None)
            even = bj.can_take_even_money(state, box, player)
            took_even = self._took_even_money(state, box, player)
            who = _("Box %(box)s %(player)s") % {"box": box, "player": player}
            if even or took_even:
                b.text = who + "\n" + (_("even money paid") if took_even else _("even money"))
                b.tone = theme.GOLD
                b.disabled = not even
            else:
                amount = bj.max_insurance(state, box, player)
                b.text = who + "\n" + (
                    _("insured %(amount)s") % {"amount": money(insured.amount, cur)}
                    if insured else _("insure %(amount)s") % {"amount": money(amount, cur)})
                b.tone = theme.INFO
                b.disabled = not bj.can_insure(state, box, player, amount)
            b.selected = insured is not None or took_even

    def _insurance_boxes(self, state: bj.BlackjackState) -> list[int]:
        """The boxes with bets, in order; the one the insurance row shows is one of them."""
        boxes = sorted({x.box for x in state.stakes})
        if self.insurance_box not in boxes:
            self.insurance_box = boxes[0] if boxes else 0
        return boxes

    def next_insurance_box(self) -> None:
        boxes = sorted({x.box for x in self.session.state.stakes})
        if boxes:
            later = [b for b in boxes if b > self.insurance_box]
            self.insurance_box = later[0] if later else boxes[0]
        self.refresh()

    def _clear_insurance_buttons(self) -> None:
        """Takes the last round's insurance buttons off, and their bindings to the scale."""
        for name, uid in self._insurance_binds:
            self.unbind_uid(name, uid)
        self._insurance_binds = []
        self.ids.insurance_buttons.clear_widgets()
        self._insurance_key = ()

    @staticmethod
    def _took_even_money(state: bj.BlackjackState, box: int, player: str) -> bool:
        return any(x.outcome is Outcome.EVEN_MONEY and x.box == box and x.player == player
                   for x in state.paid)

    def _even_money(self, state: bj.BlackjackState, box: int, player: str) -> bool:
        """The player is offered (or took) even money instead of insurance (rule 4.7)."""
        return (bj.can_take_even_money(state, box, player)
                or self._took_even_money(state, box, player))

    def _show_query(self, state: bj.BlackjackState) -> None:
        p = state.pending
        self.query_text = ""
        self.query_code = p.card.code if p is not None and p.card is not None else ""
        if p is None:
            self.can_set_aside = self.can_accept = False
            return
        shown = f"{p.card.name.capitalize()}: " if p.card is not None else ""
        self.query_text = f"{shown}{p.message}"
        self.can_set_aside = bj.can_set_aside_card(state)
        self.can_accept = self.may(Override.ACCEPT_QUERIED, allowed(
            bj.verify_accept_queried_card, state, "inspector")[0])

    def _show_primary(self, state: bj.BlackjackState) -> None:
        phase = state.phase
        self.primary_paying = phase is bj.Phase.PAYING
        if phase is bj.Phase.BETTING:
            self.primary_text = _("No more bets")
            self.primary_enabled = bj.can_close_betting(state)
        elif phase is bj.Phase.CHECK:
            self.primary_text = _("Blackjacks checked")
            self.primary_enabled = allowed(bj.verify_check_blackjacks, state)[0]
        elif phase is bj.Phase.INSURANCE:
            self.primary_text = _("Close insurance")
            self.primary_enabled = allowed(bj.verify_close_insurance, state)[0]
        elif phase is bj.Phase.PAYING:
            self.primary_text = _("Confirm payouts")
            self.primary_enabled = bj.can_confirm_payouts(state)
        else:
            self.primary_text = _("Dealing…") if phase is bj.Phase.DEALING else _("Playing…")
            self.primary_enabled = False

    def why_not(self, name: str, widget: Any) -> str:
        """Rules 4.1-4.7 (and 7.x, shuffle and cut) in the engine's words for a greyed-out
        control."""
        s = self.session.state
        if isinstance(widget, ChipButton):
            return refusal(bj.verify_place_bet, s, self.selected_box, int(widget.value),
                           self.player)
        if hasattr(widget, "less") and hasattr(widget, "player"):  # an insurance button
            box, player = int(widget.box), str(widget.player)
            if not widget.less and self._took_even_money(s, box, player):
                return refusal(bj.verify_take_even_money, s, box, player)
            return refusal(bj.verify_insure, s, box, player,
                           bj.max_insurance(s, box, player))
        box, player = int(self.selected_box), str(self.player)
        cutter, at, back = self._cutter(), self.cut_at, self.from_back
        shuffler = s.rules.shuffler
        primary = {bj.Phase.BETTING: bj.verify_close_betting,
                   bj.Phase.CHECK: bj.verify_check_blackjacks,
                   bj.Phase.INSURANCE: bj.verify_close_insurance,
                   bj.Phase.PAYING: bj.verify_confirm_payouts}
        words: dict[str, Callable[[], str]] = {
            "stand": lambda: refusal(bj.verify_stand, s),
            "double": lambda: refusal(bj.verify_double, s),
            "split": lambda: refusal(bj.verify_split, s),
            "surrender": lambda: refusal(bj.verify_surrender, s),
            "pay_blackjack": lambda: refusal(bj.verify_pay_blackjack, s),
            "burned": lambda: refusal(bj.verify_burn, s, None) or _("No card is to be "
                                                                  "burned now"),
            "void": lambda: self.role_refusal(Override.VOID, refusal(
                bj.verify_void_round, s, "a reason", "an inspector")),
            "primary": lambda: (refusal(primary[s.phase], s) if s.phase in primary else
                                _("The players decide first: %(step)s") % {"step": self.step}
                                if s.phase is bj.Phase.PLAYING else
                                _("The cards are still coming: the round goes on as the "
                                  "rules say")),
            "undo": lambda: _("Nothing to take back: Undo takes back chips placed in this "
                              "round"),
            "shuffled": lambda: refusal(bj.verify_shuffle, s, "hand", shuffler),
            "hand_shuffle": lambda: refusal(bj.verify_shuffle, s, "hand", True),
            "into_shuffler": lambda: refusal(bj.verify_shuffle, s, "shuffler"),
            "box_cuts": lambda: refusal(bj.verify_cut_cards, s, cutter, at, back),
            "box_refused": lambda: refusal(bj.verify_refuse_cut, s, cutter),
            "supervisor_cuts": lambda: refusal(bj.verify_cut_cards, s, None, at, back,
                                               "supervisor"),
            "caller": lambda: refusal(bj.verify_set_caller, s, box, player),
            "behind": lambda: (refusal(bj.verify_place_bet, s, box,
                                       s.rules.chips.smallest_chip, player)
                               if s.phase is not bj.Phase.BETTING else
                               _("Put a bet on box %(box)s first: then a player can "
                                 "bet behind it") % {"box": box}),
            "draw": lambda: refusal(bj.verify_stand, s) or _("This hand takes no more "
                                                             "cards"),
            "set_aside": lambda: refusal(bj.verify_set_aside_card, s),
            "accept": lambda: self.role_refusal(Override.ACCEPT_QUERIED, refusal(
                bj.verify_accept_queried_card, s, "inspector")),
            "key_card": lambda: _("No card is due now: key in a card when the screen asks "
                                  "for one"),
            "new_shoe": lambda: _("A new shoe is shuffled between rounds, once the cutting "
                                  "card is out or the dealer starts one"),
        }
        return words[name]() if name in words else ""

    def _insurance_tap(self, box: int, player: str) -> None:
        if bj.can_take_even_money(self.session.state, box, player):
            self.even_money(box, player)
        else:
            self.insure(box, player)

    def buttons(self) -> Iterable[Widget]:
        """Every touch target on screen now (for the 9 mm check)."""
        for w in self.walk():
            if isinstance(w, TableButton | ChipButton | BjBoxTile):
                yield w


