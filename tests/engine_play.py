"""Seeded random blackjack play, printed step by step, for tests/test_engine_transcript.py.

    python -m tests.engine_play SEED ROUNDS [FUZZ]    (from the repository's root)

plays about ROUNDS rounds spread over several house rule sets, choosing at every step among
legal and illegal actions (bets over and under the limits, decisions out of turn, shoe cards
including impossible ones, unread cards, insurance amounts, voids, shuffles and cuts, the
cutting card). Each step prints one JSON line: the action with its arguments, the journal
record of the Operation it built (kind and payload) or the refusal (class, message, clause),
the dealer's next step and a digest of the state and of every query the dealer screen asks.
Then operations rebuilt from random journal payloads are folded into states met on the way
(as a foreign or damaged journal would be), the values' protocols (eq, hash, repr, fields,
replace) are printed, a table session plays on a real journal (shoe cards as device events)
and is reopened and replayed, and the basic strategy, the combinatorial house edge (floats
to the last digit) and a short simulation are printed for two rule sets.

The same seed must print the same lines as the golden transcript kept in tests/golden/
(PYTHONHASHSEED=0 for the hashes of text). The first line names the transcript; the last one
counts what happened.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import logging
import random
import sys
import tempfile
import types
import typing
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from hardware import events as ev
from kiosk.replay import replay
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.analysis import analyse, house_edge
from kiosk.rules.blackjack.cut import DECK, Stage, cut_margin
from kiosk.rules.blackjack.fold import _replace
from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes, SplitMatch
from kiosk.rules.blackjack.simulation import Simulator, strategy_for
from kiosk.rules.blackjack.strategy import basic_strategy, describe
from kiosk.rules.cards import Card, deck
from kiosk.rules.errors import NotAllowed
from kiosk.rules.money import ChipRule, RoundingFavour
from kiosk.rules.operations import _REGISTRY, Operation, operation_from_record
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession

RULESETS: tuple[BlackjackRules, ...] = (
    BlackjackRules(),
    BlackjackRules(decks=8, surrender=True, dealer_blackjack_takes=DealerBlackjackTakes.ORIGINAL,
                   chips=ChipRule(500)),
    BlackjackRules.touch_21(),
    BlackjackRules.touch_21(decks=1, double_after_split=False, max_hands=2, minimum=1000,
                            maximum=20_000),
    BlackjackRules(decks=4, shuffler=True, split_match=SplitMatch.RANK, even_money=False,
                   dealer_hits_soft_17=True, blackjack_odds=Fraction(6, 5), boxes=5,
                   chips=ChipRule(100, RoundingFavour.PLAYER)),
    BlackjackRules(surrender=True, double_after_split=False, max_hands=8, minimum=2500,
                   maximum=50_000, chips=ChipRule(250, RoundingFavour.NEAREST), currency="$"),
)
PLAYERS = ("A", "A", "A", "B", "C")
CARDS = deck()
Action = Callable[[bj.BlackjackState], Operation]


def out(line: object) -> None:
    sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")


def short(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def queries(s: bj.BlackjackState) -> list[Any]:
    """What the dealer screen, the strategy and the session ask of a state."""
    rules = s.rules
    size = DECK * rules.decks
    offered = s.prep.offered_to()
    q: list[Any] = [
        bj.can_stand(s), bj.can_double(s), bj.can_split(s), bj.can_surrender(s),
        bj.can_pay_blackjack(s), bj.can_close_betting(s), bj.can_close_insurance(s),
        bj.can_check_blackjacks(s), bj.can_confirm_payouts(s), bj.can_void_round(s),
        bj.void_needs_inspector(s), bj.can_set_aside_card(s), bj.can_accept_queried_card(s),
        bj.can_shuffle(s, "hand"), bj.can_shuffle(s, "shuffler"), bj.can_shuffle(s, "hand", True),
        bj.burn_due(s), bj.holds_cards(s), bj.card_due_without_decision(s), bj.decisions(s),
        bj.decision_flags(s), bj.card_target(s), str(s.penetration), str(s.cutting_card_at),
        str(s.dealer_total), s.dealer_blackjack, repr(s.up_card), s.boxes_in_play,
        s.current.label if s.current is not None else None, bj.cut_card_words(s),
        offered, s.prep.supervisor_must_cut(), repr(bj.prep_now(s)),
        s.prep.who_cuts() if s.prep.stage is Stage.CUT else "",
        bj.can_cut_cards(s, offered or 1, size // 2, size // 4),
        bj.can_cut_cards(s, None, size // 2, size // 4, "supervisor 1"),
        bj.can_refuse_cut(s, offered or 1),
        [bj.can_place_bet(s, box, amount, "A") for box in (1, rules.boxes)
         for amount in (rules.minimum, rules.maximum)],
        [c.code for c in CARDS[::7] if bj.can_deal_card(s, c, bj.CardSource.KEYED)],
    ]
    for h in s.hands:
        q.append((h.label, str(h.total), h.blackjack, h.bust, h.finished, h.active,
                  repr(h.caller)))
    for st in s.stakes:
        q.append((st.box, st.player, bj.max_insurance(s, st.box, st.player),
                  bj.can_insure(s, st.box, st.player), bj.can_take_even_money(s, st.box, st.player),
                  bj.can_set_caller(s, st.box, st.player),
                  bj.can_remove_bet(s, st.box, st.amount, st.player)))
    if s.phase is bj.Phase.PAYING and s.pending is None:
        q.append(repr(bj.settlement(s)))
    return q


def digest(s: bj.BlackjackState) -> str:
    return short(repr(s) + "|" + repr(queries(s)))


def shown(s: bj.BlackjackState, counts: Counter[str], what: str) -> list[Any]:
    """The dealer's next step and the digest, or how asking for them failed."""
    try:
        return [bj.next_step(s), digest(s)]
    except Exception as exc:
        counts[what] += 1
        return refusal(exc)


def refusal(exc: Exception) -> list[Any]:
    if isinstance(exc, NotAllowed):
        return ["no", type(exc).__name__, str(exc), exc.clause]
    return ["err", type(exc).__name__, str(exc)]


class Play:
    """One table: the engine's actions chosen at random, every Operation through the
    journal's round trip (JSON text, then `operation_from_record`) before `apply`."""

    def __init__(self, rules: BlackjackRules, rng: random.Random, counts: Counter[str],
                 table_id: str, samples: list[bj.BlackjackState]) -> None:
        self.rules, self.rng, self.counts, self.table_id = rules, rng, counts, table_id
        self.samples = samples
        self.state = bj.initial_state(rules, table_id)
        self.records: list[tuple[str, str]] = []
        self.physical: list[Card] = []  # the cards still in the shoe, next first
        self.cut_from_back = 0
        self.cut_out = False
        self.rounds = 0
        self.n = 0
        self.step("open_table", lambda s: bj.open_table(rules, table_id))

    # --- one step --------------------------------------------------------------------

    def step(self, label: str, action: Action) -> Operation | None:
        self.n += 1
        op: Operation | None = None
        try:
            op = action(self.state)
        except _OutOfCards:
            raise
        except Exception as exc:  # a refusal, or anything else the other mode must match
            result = refusal(exc)
            self.counts["refused" if isinstance(exc, NotAllowed) else "error"] += 1
            self.counts["refused " + type(exc).__name__] += 1
        else:
            record = json.dumps(op.to_payload(), sort_keys=True)
            again = operation_from_record(op.kind, json.loads(record))
            result = ["op", op.kind, json.loads(record)]
            if again != op:
                result.append("the journal's round trip changed it")
                self.counts["round trip changed"] += 1
            try:
                self.state = bj.apply(self.state, again)
            except Exception as exc:
                result.append(refusal(exc))
                self.counts["apply failed"] += 1
                op = None
            else:
                self.records.append((op.kind, record))
                self.counts[op.kind] += 1
                self.after(op)
        out([self.table_id, self.n, label, result, *shown(self.state, self.counts,
                                                           "queries refused")])
        if self.n % 37 == 0:
            self.samples.append(self.state)
        return op

    def after(self, op: Operation) -> None:
        """The physical shoe follows the journal: a shuffle fills it, a cut turns it."""
        if isinstance(op, bj.CardsShuffled):
            self.physical = [c for _ in range(self.rules.decks) for c in CARDS]
            self.rng.shuffle(self.physical)
            self.cut_from_back, self.cut_out = 0, False
        elif isinstance(op, bj.CardsCut):
            self.physical = self.physical[op.cut_at:] + self.physical[:op.cut_at]
            self.cut_from_back = op.cutting_card_from_back
        elif isinstance(op, bj.RoundSettled | bj.RoundVoided):
            self.rounds += 1
            self.counts["rounds"] += 1
            if isinstance(op, bj.RoundSettled):
                self.counts["settlements"] += len(op.settlements) + len(op.paid_earlier)
                self.counts["hands settled"] += len(op.hands)
        elif isinstance(op, bj.CardDealt):
            self.counts["cards dealt"] += 1
            self.counts[f"cards dealt {op.source.value}"] += 1
        elif isinstance(op, bj.CardQueried):
            self.counts[f"queried {op.reason}"] += 1

    # --- the shoe ----------------------------------------------------------------------

    def next_card(self) -> Card | None:
        """The next card out of the physical shoe; the cutting card first when it is due."""
        if (self.cut_from_back and not self.cut_out
                and len(self.physical) <= self.cut_from_back):
            self.cut_out = True
            self.step("cut_card_out", bj.cut_card_out)
        return self.physical.pop(0) if self.physical else None

    def out_of_cards(self) -> None:
        self.counts["shoe ran out"] += 1
        if bj.can_void_round(self.state):
            self.step("void: the shoe ran out", lambda s: bj.void_round(
                s, "the shoe ran out", "dealer", "inspector 1"))
        method = "shuffler" if self.rules.shuffler else "hand"
        self.step(f"shuffle {method}", lambda s: bj.shuffle(s, method))

    def shoe(self, label: str = "shoe") -> None:
        card = self.next_card()
        if card is None:
            self.out_of_cards()
            return
        self.step(f"{label} {card.code}", lambda s: bj.shoe_card(s, card))

    def foreign_card(self) -> Card:
        """A card read although the shoe may not hold another: often one already out as
        often as the decks hold it (an impossible card), else any card."""
        shoe = self.state.shoe
        gone = [c for c in CARDS if shoe is not None and shoe.remaining_of(c) <= 0]
        return self.rng.choice(gone if gone and self.rng.random() < 0.7 else CARDS)

    # --- random arguments --------------------------------------------------------------

    def amount(self) -> int:
        r = self.rules
        chip = r.chips.smallest_chip
        return self.rng.choice([
            r.minimum, r.minimum, r.minimum + chip, r.minimum * 2 + chip,
            self.rng.randint(r.minimum // chip, r.minimum // chip * 4) * chip,
            r.minimum - chip, r.maximum, r.maximum + chip, chip // 2 or 1, 0, -chip])

    def box(self) -> int:
        if self.rng.random() < 0.1:
            return self.rng.choice([0, self.rules.boxes + 1, -1])
        return self.rng.randint(1, self.rules.boxes)

    def player(self) -> str:
        return self.rng.choice([*PLAYERS, " ", "Z"]) if self.rng.random() < 0.1 \
            else self.rng.choice(PLAYERS)

    def behind(self) -> tuple[str, ...]:
        h = self.state.current
        names = [b.player for b in h.bets[1:] if b.active] if h is not None else []
        chosen = [p for p in names if self.rng.random() < 0.5]
        if self.rng.random() < 0.05:
            chosen.append("Z")
        return tuple(chosen)

    def follow(self) -> dict[str, bj.Follow]:
        h = self.state.current
        names = [b.player for b in h.bets[1:] if b.active] if h is not None else []
        if self.rng.random() < 0.05:
            names.append("Z")
        return {p: self.rng.choice(list(bj.Follow)) for p in names}

    # --- the choice of action ----------------------------------------------------------

    def choices(self) -> list[tuple[float, str, Action]]:
        s, rules, rng = self.state, self.rules, self.rng
        size = DECK * rules.decks
        c: list[tuple[float, str, Action]] = []

        def add(weight: float, label: str, action: Action) -> None:
            c.append((weight, label, action))

        preparing = s.prep.stage is not Stage.READY and not (
            s.round_cards or s.pending is not None)
        if preparing:
            method = rng.choice(["hand", "hand", "shuffler", "by machine"])
            new = rng.random() < 0.2
            add(4 if s.prep.stage in (Stage.SHUFFLE, Stage.HAND_SHUFFLE) else 0.3,
                f"shuffle {method} new={new}", lambda st: bj.shuffle(st, method, new))
            if s.prep.stage in (Stage.SHUFFLE, Stage.HAND_SHUFFLE) and rules.shuffler:
                add(3, "shuffle shuffler", lambda st: bj.shuffle(st, "shuffler"))
            margin = cut_margin(rules.decks)
            at = rng.choice([rng.randint(margin, size - margin), margin - 1, size - margin + 1,
                             size // 2])
            back = rng.choice([rng.randint(1, size // 2), 0, size // 2 + 1, size // 4])
            offered = s.prep.offered_to()
            box = offered if offered is not None and rng.random() < 0.8 else self.box()
            add(4 if s.prep.stage is Stage.CUT else 0.3, f"cut box {box} at {at} back {back}",
                lambda st: bj.cut_cards(st, box, at, back))
            sup = rng.choice(["supervisor 12", " ", ""])
            add(1 if s.prep.stage is Stage.CUT else 0.1, f"cut {sup!r} at {at} back {back}",
                lambda st: bj.cut_cards(st, None, at, back, sup))
            add(1.5 if s.prep.stage is Stage.CUT else 0.1, f"refuse cut box {box}",
                lambda st: bj.refuse_cut(st, box))
            if s.prep.stage is Stage.BURN:
                add(4, "burn", lambda st: self.shoe_action(st, "burn"))
                add(0.5, "burn unread", lambda st: bj.burn(st, None))
                add(0.3, "unread", bj.unread_card)
        if s.phase is bj.Phase.BETTING:
            box, amount, player = self.box(), self.amount(), self.player()
            add(6 if len(s.stakes) < 6 else 1, f"bet {box} {amount} {player!r}",
                lambda st: bj.place_bet(st, box, amount, player))
            stake = rng.choice(s.stakes) if s.stakes else None
            if stake is not None:
                take = rng.choice([stake.amount, rules.minimum, stake.amount + 1])
                add(0.7, f"remove {stake.box} {take} {stake.player}",
                    lambda st: bj.remove_bet(st, stake.box, take, stake.player))
                add(0.5, f"caller {stake.box} {stake.player}",
                    lambda st: bj.set_caller(st, stake.box, stake.player))
            add(0.2, f"remove {box} {amount} {player!r}",
                lambda st: bj.remove_bet(st, box, amount, player))
            add(3 if s.stakes else 0.3, "no more bets", bj.close_betting)
            add(0.1, "shuffle (house)", lambda st: bj.shuffle(st, "hand"))
        if s.pending is not None:
            add(2, "set aside", lambda st: bj.set_aside_card(st, rng.choice(["", "misread"])))
            by = rng.choice(["inspector 4", " "])
            add(1.5, f"accept by {by!r}", lambda st: bj.accept_queried_card(st, by))
            card = rng.choice(CARDS)
            add(2, f"key {card.code}", lambda st: bj.deal_card(st, card, bj.CardSource.KEYED))
            add(0.5, "shoe while pending", lambda st: self.shoe_action(st, "shoe"))
        if s.phase in (bj.Phase.DEALING, bj.Phase.PLAYING, bj.Phase.DEALER):
            due = bj.card_due_without_decision(s)
            add(8 if due else 2, "shoe", lambda st: self.shoe_action(st, "shoe"))
            add(0.4, "foreign", lambda st: self.shoe_action(st, "foreign"))
            add(0.3, "unread", lambda st: self.shoe_action(st, "unread"))
            card = self.foreign_card() if rng.random() < 0.3 else rng.choice(CARDS)
            target = bj.card_target(s)
            box = target[0] if target is not None and rng.random() < 0.7 else self.box()
            hand = target[1] if target is not None and rng.random() < 0.9 else 2
            add(0.5, f"key {card.code} to {box}/{hand}",
                lambda st: bj.deal_card(st, card, bj.CardSource.KEYED, box, hand))
            add(0.2, f"key {card.code}", lambda st: bj.deal_card(st, card, bj.CardSource.KEYED))
        if s.phase is bj.Phase.PLAYING:
            behind, follow = self.behind(), self.follow()
            add(3, "stand", bj.stand)
            add(2 if bj.can_double(s) else 0.3, f"double {behind}",
                lambda st: bj.double(st, behind))
            add(4 if bj.can_split(s) else 0.3, f"split {sorted(follow.items())}",
                lambda st: bj.split(st, follow))
            add(1.5 if bj.can_surrender(s) else 0.3, f"surrender {behind}",
                lambda st: bj.surrender(st, behind))
            add(3 if bj.can_pay_blackjack(s) else 0.2, "pay blackjack", bj.pay_blackjack)
        if s.phase is bj.Phase.CHECK:
            add(4, "blackjacks checked", bj.check_blackjacks)
        if s.phase is bj.Phase.INSURANCE:
            add(1.5, "close insurance", bj.close_insurance)
            for st_ in s.stakes:
                box, player = st_.box, st_.player
                chip = rules.chips.smallest_chip
                top = bj.max_insurance(s, box, player)
                amount = rng.choice([top, top, top + chip, top - chip, chip, top // 2 + 1, 0])
                add(2, f"insure {box} {player} {amount}",
                    lambda st, b=box, p=player, a=amount: bj.insure(st, b, p, a))
                add(2 if bj.can_take_even_money(s, box, player) else 0.3,
                    f"even money {box} {player}",
                    lambda st, b=box, p=player: bj.take_even_money(st, b, p))
        if s.phase is bj.Phase.PAYING:
            add(6, "confirm payouts", bj.confirm_payouts)
        # Out of place: the engine must refuse them with the same words both ways.
        if s.phase is not bj.Phase.BETTING:
            reason = rng.choice(["misdeal", " "])
            inspector = rng.choice(["", "inspector 7"])
            add(0.08, f"void {reason!r} {inspector!r}",
                lambda st: bj.void_round(st, reason, "dealer", inspector))
            box, amount = self.box(), self.amount()
            add(0.1, f"late bet {box} {amount}", lambda st: bj.place_bet(st, box, amount))
            add(0.1, "late shuffle", lambda st: bj.shuffle(st, "hand"))
            add(0.1, "late burn", lambda st: bj.burn(st, rng.choice(CARDS)))
        else:
            add(0.1, "void (no round)", lambda st: bj.void_round(st, "misdeal"))
        for label, action in (("stand", bj.stand), ("double", bj.double), ("split", bj.split),
                              ("surrender", bj.surrender), ("pay blackjack", bj.pay_blackjack),
                              ("close insurance", bj.close_insurance),
                              ("blackjacks checked", bj.check_blackjacks),
                              ("confirm payouts", bj.confirm_payouts),
                              ("set aside", bj.set_aside_card), ("unread", bj.unread_card),
                              ("no more bets", bj.close_betting)):
            add(0.04, f"any time: {label}", action)
        box, player = self.box(), self.player()
        add(0.04, f"any time: insure {box} {player}", lambda st: bj.insure(st, box, player, 100))
        add(0.04, f"any time: even money {box} {player}",
            lambda st: bj.take_even_money(st, box, player))
        add(0.04, f"any time: refuse cut {box}", lambda st: bj.refuse_cut(st, box))
        add(0.04, f"any time: cut {box}", lambda st: bj.cut_cards(st, box, size // 2, 20))
        add(0.04, "any time: accept", lambda st: bj.accept_queried_card(st, "inspector 2"))
        return c

    def stack(self) -> None:
        """Now and then the shoe holds what makes the rare rounds: an ace for the dealer
        (insurance, even money), a blackjack or a pair for a box (payouts, splits)."""
        s = self.state
        target = bj.card_target(s)
        if s.phase is not bj.Phase.DEALING or target is None or self.rng.random() > 0.4:
            return
        if target[0] == bj.DEALER:
            want = "A"
        else:
            h = s.hand(*target)
            first = h.cards[0].code[0] if h.cards else ""
            want = {"": "AT8", "A": "TJQK"}.get(first, "A" if first in "TJQK" else first)
        for i, c in enumerate(self.physical):
            if c.code[0] in want:
                self.physical.insert(0, self.physical.pop(i))
                return

    def shoe_action(self, state: bj.BlackjackState, what: str) -> Operation:
        """A card out of the shoe: read (`shoe`, `burn`), foreign, or unread."""
        if what == "shoe":
            self.stack()
        card = self.foreign_card() if what == "foreign" else self.next_card()
        if card is None:
            raise _OutOfCards
        if what == "unread":
            return bj.unread_card(self.state)
        # The cutting card may have come out just now: the state it changed counts.
        return bj.shoe_card(self.state, card)

    def play(self, rounds: int) -> None:
        limit = self.n + rounds * 150 + 200
        while self.rounds < rounds and self.n < limit:
            c = self.choices()
            weight, label, action = self.rng.choices(c, weights=[w for w, _, _ in c])[0]
            try:
                self.step(label, action)
            except _OutOfCards:
                self.out_of_cards()
        self.samples.append(self.state)
        # The journal replays to the same state (kiosk/table/session.py on a restart).
        state = bj.initial_state(self.rules, self.table_id)
        for kind, record in self.records:
            state = bj.apply(state, operation_from_record(kind, json.loads(record)))
        out([self.table_id, "replayed", state == self.state, self.rounds, self.n])
        self.counts["replayed equal" if state == self.state else "replayed different"] += 1


class _OutOfCards(Exception):
    """The physical shoe is empty (raised past `step`, which must not record it)."""


# --- operations rebuilt from random journal payloads ----------------------------------


ADDED_SINCE_THE_GOLDEN = frozenset({"simulated"})
"""Enum values added after the golden transcript was written (a simulated shoe's cards,
`CardSource.SIMULATED`): the fuzz draws as it drew then, so the transcript stays the golden
one; the new values have tests of their own (tests/test_config_devices.py)."""


def random_value(rng: random.Random, tp: Any) -> Any:
    """A JSON value for the annotation `tp`: mostly well formed, often out of place."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return random_value(rng, rng.choice(typing.get_args(tp)))
    if tp is type(None):
        return None
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return [random_value(rng, args[0]) for _ in range(rng.randint(0, 3))]
        return [random_value(rng, a) for a in args]
    if tp is bool:
        return rng.random() < 0.5
    if tp is int:
        return rng.choice([0, 1, 2, 3, 4, 7, 8, -1, 5000, 10**20, rng.randint(-5, 400)])
    if tp is str:
        return rng.choice(["", "A", "B", "hand", "shuffler", "impossible", "unread",
                           "not allowed", "x"])
    if tp is Card:
        return rng.choice(CARDS).code if rng.random() < 0.97 else "ZZ"
    if tp is Fraction:
        return rng.choice(["3/2", "0/1", "2/1", "-1/2", "1/3"])
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return rng.choice([m.value for m in tp if m.value not in ADDED_SINCE_THE_GOLDEN])
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        return {f.name: random_value(rng, hints[f.name]) for f in dataclasses.fields(tp)
                if f.init}
    return None


def journal_fuzz(rng: random.Random, samples: list[bj.BlackjackState], n: int,
                 counts: Counter[str]) -> None:
    kinds = sorted(k for k in _REGISTRY if k.startswith("bj_") and k != "bj_table_opened")
    for i in range(n):
        kind = rng.choice(kinds)
        payload = random_value(rng, typing.cast(Any, _REGISTRY[kind]))
        at = rng.randrange(len(samples))
        try:
            op = operation_from_record(kind, payload)
        except Exception as exc:
            out(["fuzz", i, kind, at, payload, refusal(exc)])
            counts["fuzz unreadable"] += 1
            continue
        try:
            state = bj.apply(samples[at], op)
        except Exception as exc:
            out(["fuzz", i, kind, at, payload, refusal(exc)])
            counts["fuzz refused " + type(exc).__name__] += 1
            continue
        # A state no play reaches: the dealer screen's queries may refuse it.
        out(["fuzz", i, kind, at, payload, *shown(state, counts, "fuzz state refuses queries")])
        counts["fuzz applied"] += 1


# --- the values' protocols -------------------------------------------------------------


def protocols(samples: list[bj.BlackjackState]) -> None:
    """eq, hash, repr, order, fields, astuple and replace of the engine's values (the caller
    fixes PYTHONHASHSEED so that hashes of text compare across processes)."""

    def show(label: str, f: Callable[[], Any]) -> None:
        try:
            out(["value", label, repr(f())])
        except Exception as exc:
            out(["value", label, refusal(exc)])

    for i, s in enumerate(samples[::3]):
        values: list[Any] = [s, s.rules, s.prep, s.shoe, s.pending, *s.stakes, *s.hands,
                             *(b for h in s.hands for b in h.bets), *s.insurance, *s.paid,
                             *s.dealer, s.dealer_total, s.last_settled]
        for j, v in enumerate(values):
            if v is None:
                continue
            name = f"{i}.{j} {type(v).__name__}"
            show(name + " repr", lambda v=v: v)
            show(name + " hash", lambda v=v: hash(v))
            show(name + " fields", lambda v=v: [f.name for f in dataclasses.fields(v)])
            show(name + " astuple", lambda v=v: short(repr(dataclasses.astuple(v))))
            show(name + " asdict", lambda v=v: short(repr(dataclasses.asdict(v))))
            show(name + " replace", lambda v=v: dataclasses.replace(v) == v)
            show(name + " eq", lambda v=v: (v == v, v != v, v == object()))
            show(name + " frozen", lambda v=v: setattr(v, dataclasses.fields(v)[0].name, 1))
        show(f"{i} replace round", lambda s=s: dataclasses.replace(s, round=s.round + 1).round)
        show(f"{i} _replace", lambda s=s: _replace(s) == s)
        show(f"{i} cards sorted", lambda s=s: [c.code for c in sorted(
            [*s.dealer, *(c for h in s.hands for c in h.cards)])])
        show(f"{i} prep replace", lambda s=s: dataclasses.replace(s.prep, stage=Stage.CUT))


# --- a table session on a real journal -------------------------------------------------


def session_play(rng: random.Random, rounds: int, counts: Counter[str]) -> None:
    """The kiosk's own path: shoe cards as device events, the dealer's taps through
    `attempt`; then the table reopened from its journal, and the journal replayed."""
    rules = BlackjackRules.touch_21(decks=1, minimum=1000, maximum=20_000)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bj.db"
        journal = Journal.open(path, "BJ-S")
        session: TableSession[bj.BlackjackState] = TableSession(
            bj.Blackjack(), journal, rules, "BJ-S")
        seen = 0
        physical: list[Card] = []
        played = 0
        seq = 0
        unread: Card | None = None
        cut_sent = False

        def report(label: str) -> None:
            nonlocal seen
            alerts = [(a.severity.value, a.message, a.way_forward)
                      for a in session.alerts_since(seen)]
            seen = session.alerts_raised
            out(["session", label, alerts, [c.code for c in session.held_cards],
                 *shown(session.state, counts, "queries refused")])

        def event(e: object) -> None:
            session.on_device_event(e)

        for _ in range(rounds * 60):
            if played >= rounds:
                break
            s = session.state
            seq += 1
            if s.prep.stage is not Stage.READY and not s.round_cards and s.pending is None:
                if s.prep.stage is Stage.CUT:
                    box = s.prep.offered_to() or 1
                    session.attempt(lambda st, b=box: bj.cut_cards(st, b, 26, 13))
                elif s.prep.stage is Stage.BURN:
                    physical = [*CARDS]
                    rng.shuffle(physical)
                    cut_sent = False
                    event(ev.CardBurned(device="SHOE", seq=seq, card=physical.pop()))
                else:
                    session.attempt(bj.shuffle)
                report("prepare")
                continue
            if s.phase is bj.Phase.BETTING and rng.random() < 0.7:
                box, amount = rng.randint(1, 4), rng.choice([1000, 2500, 900, 30_000])
                session.attempt(lambda st, b=box, a=amount: bj.place_bet(st, b, a, "A"))
                report(f"bet {box} {amount}")
                continue
            r = rng.random()
            if s.pending is not None and r < 0.7:
                if s.pending.reason == "unread":
                    card = unread or rng.choice(CARDS)
                    session.attempt(lambda st, c=card: bj.deal_card(st, c, bj.CardSource.KEYED))
                    report(f"key {card.code}")
                else:
                    session.attempt(bj.set_aside_card if r < 0.5 else
                                    lambda st: bj.accept_queried_card(st, "inspector 5"))
                    report("resolve")
            elif s.phase is bj.Phase.PAYING and r < 0.8:
                op = session.attempt(bj.confirm_payouts)
                played += op is not None
                report("confirm")
            elif bj.can_pay_blackjack(s) and r < 0.6:
                session.attempt(bj.pay_blackjack)
                report("pay blackjack")
            elif bj.decisions(s) and r < 0.4:
                session.attempt(bj.stand if r < 0.3 else bj.double)
                report("decide")
            elif s.phase in (bj.Phase.CHECK, bj.Phase.INSURANCE, bj.Phase.BETTING) and r < 0.6:
                session.attempt({bj.Phase.CHECK: bj.check_blackjacks,
                                 bj.Phase.INSURANCE: bj.close_insurance}.get(
                                     s.phase, bj.close_betting))
                report("close")
            elif len(physical) <= 13 and not cut_sent:
                cut_sent = True
                event(ev.CutCardOut(device="SHOE", seq=seq))
                report("cut card")
            elif r < 0.03 and physical:
                unread = physical.pop()  # it left the shoe; the dealer reads its face
                event(ev.CardUnread(device="SHOE", seq=seq))
                report("unread")
            elif r < 0.04:
                event(ev.CutCardOut(device="SHOE", seq=seq))
                report("cut card (stray)")
            elif r < 0.07 or not physical:
                event(ev.CardRead(device="SHOE", seq=seq, card=rng.choice(CARDS)))
                report("foreign card")
            elif r < 0.08 and bj.can_void_round(s):
                op = session.attempt(
                    lambda st: bj.void_round(st, "misdeal", "dealer", "inspector 3"))
                played += op is not None
                report("void")
            else:
                event(ev.CardRead(device="SHOE", seq=seq, card=physical.pop()))
                report("card")
        rows = list(journal.entries())
        again = TableSession(bj.Blackjack(), journal, rules, "BJ-S")
        audit = replay(rows, "session")
        out(["session reopened", again.replayed, again.state == session.state,
             [(c.number, c.status, c.differences) for c in audit.rounds], audit.problems,
             audit.chain_ok])
        counts["session rounds"] += played
        counts["session rows"] += len(rows)
        counts["session reopened equal"] += again.state == session.state
        journal.close()


# --- the strategy and the simulation (floats, not only ints) -----------------------------


def strategy(counts: Counter[str]) -> None:
    """The basic strategy computed for two rule sets, the combinatorial house edge (floats
    to the last digit) and a short simulation through the engine."""
    for rules in (RULESETS[1], RULESETS[3]):
        chart = basic_strategy(rules)
        out(["strategy", describe(rules), chart.table(), repr(house_edge(rules)),
             short(repr(analyse(rules)))])
        tally = Simulator(rules, strategy_for(rules), random.Random(5)).run(150)
        out(["simulated", repr(tally), tally.edge.hex(), tally.half_width.hex()])
        counts["simulated rounds"] += tally.rounds


def main(argv: list[str]) -> int:
    seed, rounds = int(argv[0]), int(argv[1])
    logging.basicConfig(level=logging.ERROR)  # the session's alerts are printed, not logged
    fuzz = int(argv[2]) if len(argv) > 2 else 1500
    out({"transcript": "blackjack engine", "seed": seed, "rounds": rounds, "fuzz": fuzz})
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    samples: list[bj.BlackjackState] = []
    per_table = max(1, rounds // len(RULESETS))
    for i, rules in enumerate(RULESETS):
        Play(rules, rng, counts, f"BJ-{i}", samples).play(per_table)
    journal_fuzz(rng, samples, fuzz, counts)
    protocols(samples)
    session_play(rng, max(3, rounds // 30), counts)
    strategy(counts)
    out({"counts": dict(sorted(counts.items()))})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
