"""Property tests of the punto banco engine (hypothesis).

A "session" is a random table run through the engine's own actions: random house rules, random
legal bets in several areas, cards picked by hypothesis from what is left in the shoe whenever
the engine asks for one, and now and then a burn, a bet taken back, an unread card keyed in, a
void, the cutting card and commission collected. Every Operation is journaled. The properties:
(a) chips are conserved in every settlement; (b) every legal card sequence is a legal coup;
(c) illegal cards are refused with the clause they break; (d) state is a fold over the journal;
(e) no payout without its CoupSettled operation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.engine import (
    BetKind,
    CardDealt,
    CardQueried,
    CardSource,
    CommissionMode,
    Hand,
    Outcome,
    Phase,
    PuntoBancoRules,
)
from kiosk.rules.cards import Card, deck
from kiosk.rules.errors import ImpossibleCard, NotAllowed
from kiosk.rules.money import ChipRule, RoundingFavour
from kiosk.rules.operations import Operation
from tests.rules.golden_coups import fold, roundtrip
from tests.rules.test_drawing_table import expected_banker_draws, expected_player_draws

PROPERTY_SETTINGS = settings(max_examples=120, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])

# rule 5.4, written out independently of kiosk.rules.baccarat.drawing.baccarat_value
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
         "T": 0, "J": 0, "Q": 0, "K": 0}
ALL_CARDS = deck()


def value(card: Card) -> int:
    return VALUE[card.code[0]]


def hand_total(cards: tuple[Card, ...]) -> int:
    return sum(value(c) for c in cards) % 10


# --- A random session -------------------------------------------------------------------------


@st.composite
def house_rules(draw: st.DrawFn, decks: int | None = None) -> PuntoBancoRules:
    return PuntoBancoRules(
        decks=decks if decks is not None else draw(st.sampled_from([1, 2, 6, 8])),
        areas=draw(st.integers(7, 14)),
        standing_area=draw(st.booleans()),
        commission_mode=draw(st.sampled_from(list(CommissionMode))),
        chips=ChipRule(draw(st.sampled_from([100, 250, 300, 500, 1000])),
                       draw(st.sampled_from(list(RoundingFavour)))),
    )


def legal_amount(draw: st.DrawFn, rules: PuntoBancoRules, kind: BetKind) -> int:
    """A bet in whole chips within the table limits for its kind (rule 2.2)."""
    chip, lim = rules.chips.smallest_chip, rules.limit(kind)
    low, high = -(-lim.minimum // chip), lim.maximum // chip
    n = draw(st.one_of(st.integers(low, min(high, low + 60)), st.integers(low, high)))
    return int(n * chip)


@dataclass
class Session:
    rules: PuntoBancoRules
    state: pb.PuntoBancoState = field(init=False)
    journal: list[Operation] = field(default_factory=list)
    states: list[pb.PuntoBancoState] = field(default_factory=list)  # after each op
    shown: dict[int, tuple[pb.BetSettlement, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.state = pb.initial_state(self.rules, "T9")
        self.do(pb.open_table(self.rules, "T9"))

    def do(self, op: Operation) -> None:
        self.journal.append(op)
        self.state = pb.apply(self.state, op)
        self.states.append(self.state)


def legal_cards(state: pb.PuntoBancoState) -> list[Card]:
    assert state.shoe is not None
    return [c for c in ALL_CARDS if state.shoe.can_draw(c)]


def check_dealing_invariant(state: pb.PuntoBancoState) -> None:
    # (b) rule 5.2: the coup is complete (PAYING) exactly when the drawing table gives no card
    if state.phase in (Phase.DEALING, Phase.PAYING):
        due = pb.next_to_draw([value(c) for c in state.player_cards],
                              [value(c) for c in state.banker_cards])
        assert (state.phase is Phase.PAYING) == (due is None)


def play_coup(s: Session, draw: st.DrawFn, *, extras: bool) -> None:
    rules = s.rules
    if s.state.shoe is None or (extras and draw(st.integers(0, 9)) == 0):
        s.do(pb.shuffle(s.state, draw(st.sampled_from(["hand", "shuffler"]))))
    if extras and draw(st.integers(0, 5)) == 0:
        s.do(pb.burn(s.state, draw(st.sampled_from([*legal_cards(s.state), None]))))
    areas = draw(st.lists(st.sampled_from(rules.area_ids()), min_size=1, max_size=5,
                          unique=True))
    for area in areas:
        main = draw(st.sampled_from([[BetKind.BANKER], [BetKind.PLAYER],
                                     [BetKind.BANKER, BetKind.PLAYER]]))
        kinds = main + ([BetKind.TIE] if draw(st.booleans()) else [])
        for kind in kinds:
            amount = legal_amount(draw, rules, kind)
            chip = rules.chips.smallest_chip
            lim = rules.limit(kind)
            extra = 0
            if extras and draw(st.integers(0, 3)) == 0 and amount + 3 * chip <= lim.maximum:
                extra = draw(st.integers(1, 3)) * chip  # placed, then taken back (5.6)
            assert pb.can_place_bet(s.state, area, kind, amount + extra)
            s.do(pb.place_bet(s.state, area, kind, amount + extra))
            if extra:
                s.do(pb.remove_bet(s.state, area, kind, extra))
    s.do(pb.close_betting(s.state))
    cut_at = draw(st.integers(0, 12)) if extras else 99
    void_at = draw(st.integers(0, 30)) if extras else 99
    n = 0
    while s.state.phase is Phase.DEALING:
        check_dealing_invariant(s.state)
        if n == cut_at:
            s.do(pb.cut_card_out(s.state))
        if n == void_at:
            s.do(pb.void_round(s.state, "dealer error", by="pit boss"))
            return
        card = draw(st.sampled_from(legal_cards(s.state)))
        if extras and draw(st.integers(0, 7)) == 0:
            s.do(pb.unread_card(s.state))
            s.do(pb.deal_card(s.state, card, CardSource.KEYED))
        else:
            op = pb.shoe_card(s.state, card)
            assert isinstance(op, CardDealt)
            s.do(op)
        n += 1
    check_dealing_invariant(s.state)
    assert s.state.phase is Phase.PAYING
    s.shown[s.state.coup] = pb.settlement(s.state)
    s.do(pb.confirm_payouts(s.state))
    if extras:
        for area, _owed in s.state.commission_owed:
            if draw(st.booleans()):
                s.do(pb.collect_commission(s.state, area))


@st.composite
def sessions(draw: st.DrawFn, extras: bool = True, decks: int | None = None) -> Session:
    s = Session(draw(house_rules(decks)))
    for _ in range(draw(st.integers(1, 4))):
        play_coup(s, draw, extras=extras)
    return s


# --- (a) chips are conserved ------------------------------------------------------------------


def odds_for(rules: PuntoBancoRules, kind: BetKind) -> Fraction:
    """Rule 5.7, written out: banker 19:20 (or 1:1 less 5%), player 1:1, tie 8:1."""
    if kind is BetKind.BANKER:
        return Fraction(19, 20) if rules.commission_mode is CommissionMode.NET else Fraction(1)
    return Fraction(1) if kind is BetKind.PLAYER else Fraction(8)


def expected_outcome(kind: BetKind, player: int, banker: int) -> Outcome:
    """Rule 5.7: closest to 9 wins; a tie pays tie bets and stands off the others."""
    if player == banker:
        return Outcome.WIN if kind is BetKind.TIE else Outcome.STAND_OFF
    winner = BetKind.PLAYER if player > banker else BetKind.BANKER
    return Outcome.WIN if kind is winner else Outcome.LOSE


def staked_per_coup(journal: list[Operation]) -> dict[int, Counter[tuple[str, BetKind]]]:
    out: dict[int, Counter[tuple[str, BetKind]]] = {}
    for op in journal:
        if isinstance(op, pb.BetPlaced):
            out.setdefault(op.coup, Counter())[(op.area, op.bet)] += op.amount
        elif isinstance(op, pb.BetRemoved):
            out.setdefault(op.coup, Counter())[(op.area, op.bet)] -= op.amount
    return {c: +counts for c, counts in out.items()}


@PROPERTY_SETTINGS
@given(sessions())
def test_chips_are_conserved(s):
    # rule 5.7 payouts and the chip rule (docs/architecture.md): nothing is created or lost silently
    rules = s.rules
    chip = rules.chips.smallest_chip
    favour = rules.chips.favour
    staked = staked_per_coup(s.journal)
    owed: Counter[str] = Counter()
    settled_any = False
    for op in s.journal:
        if isinstance(op, pb.CommissionCollected):
            assert op.owed == owed[op.area]
            assert op.collected % chip == 0
            assert abs(op.rounding) < chip
            assert op.rounding == op.owed - op.collected
            owed[op.area] = 0
            continue
        if not isinstance(op, pb.CoupSettled):
            continue
        settled_any = True
        pt, bt = hand_total(op.player_cards), hand_total(op.banker_cards)
        # every bet on the table is settled, with its whole stake
        assert Counter({(x.area, x.kind): x.stake for x in op.settlements}) == staked[op.coup]
        table_player_net = Fraction(0)
        house_net = Fraction(0)
        for x in op.settlements:
            outcome = expected_outcome(x.kind, pt, bt)
            assert x.outcome is outcome
            commission = (x.stake * Fraction(5, 100)
                          if (outcome is Outcome.WIN and x.kind is BetKind.BANKER
                              and rules.commission_mode is CommissionMode.COMMISSION)
                          else Fraction(0))
            assert x.commission == commission
            exact_gain = {Outcome.WIN: x.stake * odds_for(rules, x.kind) - commission,
                          Outcome.LOSE: Fraction(-x.stake),
                          Outcome.STAND_OFF: Fraction(0)}[outcome]
            assert x.returned - x.stake - x.commission == exact_gain - x.rounding
            assert abs(x.rounding) < chip
            assert x.paid % chip == 0 and x.paid >= 0
            if favour is RoundingFavour.HOUSE:
                assert x.rounding >= 0
            elif favour is RoundingFavour.PLAYER:
                assert x.rounding <= 0
            else:
                assert abs(x.rounding) <= Fraction(chip, 2)
                if abs(x.rounding) == Fraction(chip, 2):
                    assert x.rounding < 0  # an exact half goes the player's way
            # the house's side, from the stake and the chips moved, not from `returned`
            house = {Outcome.WIN: x.commission - x.paid, Outcome.LOSE: Fraction(x.stake),
                     Outcome.STAND_OFF: Fraction(0)}[outcome]
            assert x.player_net + house == 0
            table_player_net += x.player_net
            house_net += house
            owed[x.area] += x.commission
        assert table_player_net + house_net == 0
    assert dict(+owed) == dict(s.state.commission_owed)
    assert settled_any or any(isinstance(op, pb.CoupVoided) for op in s.journal)


# --- (b) every legal card sequence is a legal coup --------------------------------------------


@PROPERTY_SETTINGS
@given(sessions(extras=False))
def test_every_legal_card_sequence_is_a_legal_coup(s):
    # rules 5.2 (deal order, drawing table), 5.4 (values), 5.7 (who wins)
    settled = [op for op in s.journal if isinstance(op, pb.CoupSettled)]
    assert settled
    for op in settled:
        p, b = op.player_cards, op.banker_cards
        assert 4 <= len(p) + len(b) <= 6
        assert len(p) in (2, 3) and len(b) in (2, 3)
        p2, b2 = hand_total(p[:2]), hand_total(b[:2])
        assert (len(p) == 3) == expected_player_draws(p2, b2)
        third = value(p[2]) if len(p) == 3 else None
        assert (len(b) == 3) == expected_banker_draws(p2, b2, third)
        r = op.result
        assert (r.player_total, r.banker_total) == (hand_total(p), hand_total(b))
        assert r.natural == (p2 >= 8 or b2 >= 8)
        assert r.player_pair == (p[0].rank is p[1].rank)
        assert r.banker_pair == (b[0].rank is b[1].rank)
        assert r.winner.value == ("tie" if r.player_total == r.banker_total else
                                  "player" if r.player_total > r.banker_total else "banker")
    # the deal order P, B, P, B, then third cards player before banker
    hands = [op.hand for op in s.journal if isinstance(op, CardDealt)]
    i = 0
    for op in settled:
        n = len(op.player_cards) + len(op.banker_cards)
        coup = hands[i:i + n]
        i += n
        assert coup[:4] == [Hand.PLAYER, Hand.BANKER, Hand.PLAYER, Hand.BANKER]
        assert coup[4:] in ([], [Hand.PLAYER], [Hand.BANKER], [Hand.PLAYER, Hand.BANKER])
    for state in s.states:
        check_dealing_invariant(state)


# --- (c) illegal sequences are refused with their clause --------------------------------------


@PROPERTY_SETTINGS
@given(st.data(), house_rules(decks=1))
def test_illegal_cards_are_refused_with_their_clause(data, rules):
    # rule 5.2: no card after the coup is complete; rule 5.4: no more copies than decks
    s = Session(rules)
    s.do(pb.shuffle(s.state))
    queried = 0
    for _ in range(data.draw(st.integers(1, 5))):
        area = rules.area_ids()[0]
        s.do(pb.place_bet(s.state, area, BetKind.BANKER, legal_amount(data.draw, rules,
                                                                      BetKind.BANKER)))
        s.do(pb.close_betting(s.state))
        while s.state.phase is Phase.DEALING:
            assert s.state.shoe is not None
            gone = [c for c in ALL_CARDS if s.state.shoe.remaining_of(c) <= 0]
            if gone:
                bad = data.draw(st.sampled_from(gone))
                try:
                    pb.deal_card(s.state, bad)
                except ImpossibleCard as exc:
                    assert exc.clause == "5.4"
                else:
                    raise AssertionError(f"{bad} dealt from a 1-deck shoe twice")
                assert not pb.can_deal_card(s.state, bad)
                op = pb.shoe_card(s.state, bad)
                assert isinstance(op, CardQueried)
                assert op.hand is pb.next_hand(s.state)
                s.do(op)
                queried += 1
                good = data.draw(st.sampled_from(legal_cards(s.state)))
                s.do(pb.deal_card(s.state, good, CardSource.KEYED))
                continue
            s.do(pb.shoe_card(s.state, data.draw(st.sampled_from(legal_cards(s.state)))))
        any_card = data.draw(st.sampled_from(ALL_CARDS))
        for source in CardSource:
            try:
                pb.deal_card(s.state, any_card, source)
            except NotAllowed as exc:
                assert exc.clause == "5.2"
                assert not isinstance(exc, ImpossibleCard)
            else:
                raise AssertionError("a card was dealt after the coup was complete")
        try:
            pb.shoe_card(s.state, any_card)
        except NotAllowed as exc:
            assert exc.clause == "5.2"
        else:
            raise AssertionError("the shoe dealt a card after the coup was complete")
        s.do(pb.confirm_payouts(s.state))
        if s.state.shoe is not None and s.state.shoe.remaining < 6:
            break
    # the shoe never counts more copies of a card than a 1-deck shoe holds
    assert s.state.shoe is not None
    assert min(s.state.shoe.remaining_of(c) for c in ALL_CARDS) >= 0
    assert queried == sum(isinstance(op, CardQueried) for op in s.journal)


# --- (d) state is a fold over the journal -----------------------------------------------------


@PROPERTY_SETTINGS
@given(sessions(), st.data())
def test_state_is_a_fold_over_the_journal(s, data):
    # docs/architecture.md: replaying the journal (as stored, through JSON) lands in the same state
    stored = [roundtrip(op) for op in s.journal]
    assert stored == s.journal
    assert fold(stored, s.rules, "T9") == s.state
    # from any snapshot plus the tail, and at every step along the way
    k = data.draw(st.integers(0, len(stored)))
    snapshot = fold(stored[:k], s.rules, "T9")
    assert snapshot == (s.states[k - 1] if k else pb.initial_state(s.rules, "T9"))
    for op in stored[k:]:
        snapshot = pb.apply(snapshot, op)
    assert snapshot == s.state
    # a journal starts with TableOpened, so replay needs no outside knowledge of the rules
    blank = pb.initial_state(PuntoBancoRules(), "")
    state = blank
    for op in stored:
        state = pb.apply(state, op)
    assert state == s.state


# --- (e) no payout without its CoupSettled operation ------------------------------------------


@PROPERTY_SETTINGS
@given(sessions())
def test_no_payout_without_its_coup_settled(s):
    # rule 5.7 / docs/architecture.md: money moves only through a journaled CoupSettled
    before = pb.initial_state(s.rules, "T9")
    settled_coups = []
    for op, after in zip(s.journal, s.states, strict=True):
        if isinstance(op, pb.CoupSettled):
            settled_coups.append(op.coup)
            assert before.phase is Phase.PAYING
            assert op.coup == before.coup
            assert op.settlements == s.shown[op.coup]  # what the dealer was shown
            assert after.last_settled is op
            assert after.results == (*before.results, op.result)
        else:
            assert after.last_settled is before.last_settled
            if not isinstance(op, pb.ShoeShuffled | pb.TableOpened):
                assert after.results == before.results
            if not isinstance(op, pb.CommissionCollected | pb.TableOpened):
                assert after.commission_owed == before.commission_owed
            if not isinstance(op, pb.CoupVoided | pb.TableOpened):
                assert after.coup == before.coup
        before = after
    # every coup that ended did so by exactly one CoupSettled or CoupVoided
    ended = [op.coup for op in s.journal if isinstance(op, pb.CoupSettled | pb.CoupVoided)]
    assert sorted(ended) == list(range(1, s.state.coup))
    assert len(set(ended)) == len(ended)
    assert sorted(settled_coups) == sorted(s.shown)
