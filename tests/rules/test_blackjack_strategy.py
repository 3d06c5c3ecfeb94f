"""The computed basic strategy and house edge (kiosk/rules/blackjack/strategy.py, analysis.py).

Published figures are cited in docs/blackjack-odds.md; the tolerances say how far an additive
rule-effect table can be trusted, not how far our analysis may drift."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from kiosk.rules.blackjack.analysis import analyse, house_edge
from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes, SplitMatch
from kiosk.rules.blackjack.strategy import (
    Decision,
    basic_strategy,
    dealer_odds,
    full_shoe,
    remove,
)
from tests.rules.test_purity import imported_modules, impure

ALL = DealerBlackjackTakes.ALL
ORIGINAL = DealerBlackjackTakes.ORIGINAL
S17 = BlackjackRules()  # 6 decks, S17, DAS, no surrender, ENHC, dealer blackjack takes all
S17_ORIGINAL = BlackjackRules(dealer_blackjack_takes=ORIGINAL)
S17_SURRENDER = BlackjackRules(surrender=True)
H17 = BlackjackRules(dealer_hits_soft_17=True)
H17_ORIGINAL = BlackjackRules(dealer_hits_soft_17=True, dealer_blackjack_takes=ORIGINAL)
BLACKJACK_DIR = Path(__file__).resolve().parents[2] / "kiosk" / "rules" / "blackjack"


def play(rules: BlackjackRules, hand: tuple[int, ...], up: int, *, double: bool = True,
         split: bool | None = None, surrender: bool | None = None) -> Decision:
    """What the engine would ask on a box's first two cards (or later cards)."""
    pair = len(hand) == 2 and hand[0] == hand[1]
    return basic_strategy(rules).decide(
        hand, up, can_double=double and len(hand) == 2,
        can_split=pair if split is None else split,
        can_surrender=(rules.surrender and up != 1 and len(hand) == 2) if surrender is None
        else surrender)


# --- purity (docs/architecture.md; test_purity.py only scans kiosk/rules/*.py) ---------

@pytest.mark.parametrize("path", sorted(BLACKJACK_DIR.glob("*.py")), ids=lambda p: p.name)
def test_blackjack_modules_are_pure(path: Path) -> None:
    modules = imported_modules(path.read_text(encoding="utf-8"), "kiosk.rules.blackjack")
    assert impure(modules) == set(), path.name


def test_strategy_and_analysis_are_among_the_scanned_modules() -> None:
    assert {"strategy.py", "analysis.py"} <= {p.name for p in BLACKJACK_DIR.glob("*.py")}


# --- well-known decisions, 6 decks S17 DAS, no hole card ------------------------------------

@pytest.mark.parametrize(("hand", "up", "expected"), [
    ((10, 6), 10, Decision.HIT),  # 16 v 10: hit when surrender is not offered
    ((5, 6), 10, Decision.HIT),  # ENHC, dealer blackjack takes all: 11 v 10 is not doubled
    ((5, 6), 1, Decision.HIT),
    ((5, 6), 6, Decision.DOUBLE),
    ((6, 4), 9, Decision.DOUBLE),
    ((5, 4), 3, Decision.DOUBLE),
    ((5, 4), 2, Decision.HIT),
    ((8, 8), 6, Decision.SPLIT),
    ((8, 8), 10, Decision.HIT),  # ENHC all: 8,8 v 10 and v A are hit, not split
    ((8, 8), 1, Decision.HIT),
    ((1, 1), 6, Decision.SPLIT),
    ((1, 1), 10, Decision.SPLIT),
    ((1, 1), 1, Decision.HIT),  # ENHC all: A,A v A is hit
    ((1, 7), 9, Decision.HIT),  # soft 18 v 9
    ((1, 7), 2, Decision.STAND),  # S17: soft 18 v 2 stands
    ((1, 7), 4, Decision.DOUBLE),
    ((1, 2), 5, Decision.DOUBLE),
    ((1, 8), 6, Decision.STAND),  # S17: soft 19 v 6 stands
    ((10, 2), 4, Decision.STAND),
    ((10, 2), 3, Decision.HIT),
    ((10, 3), 2, Decision.STAND),
    ((9, 9), 7, Decision.STAND),
    ((9, 9), 9, Decision.SPLIT),
    ((4, 4), 5, Decision.SPLIT),  # with double after split
    ((2, 2), 2, Decision.SPLIT),
    ((5, 5), 9, Decision.DOUBLE),  # never split fives
    ((7, 7), 8, Decision.HIT),
])
def test_six_deck_stand_on_17_all_bets(hand: tuple[int, ...], up: int,
                                       expected: Decision) -> None:
    assert play(S17, hand, up) is expected


@pytest.mark.parametrize("rules", [S17, S17_ORIGINAL, H17, BlackjackRules.touch_21(decks=1)])
@pytest.mark.parametrize("up", range(1, 11))
def test_tens_are_never_split(rules: BlackjackRules, up: int) -> None:
    assert play(rules, (10, 10), up) is Decision.STAND


def test_surrender_when_the_house_offers_it_never_against_an_ace() -> None:
    # rule 4.2 item 4a: "against any card except an Ace"
    assert play(S17_SURRENDER, (10, 6), 10) is Decision.SURRENDER
    assert play(S17_SURRENDER, (10, 6), 9) is Decision.SURRENDER
    assert play(S17_SURRENDER, (10, 5), 10) is Decision.SURRENDER
    assert play(S17_SURRENDER, (10, 6), 1, surrender=True) is not Decision.SURRENDER
    assert play(S17_SURRENDER, (10, 6), 10, surrender=False) is Decision.HIT
    assert play(S17_SURRENDER, (10, 4, 2), 10) is Decision.HIT  # three cards: no surrender
    assert play(S17, (10, 6), 10, surrender=True) is Decision.HIT  # not offered: ignored


def test_stand_on_17_and_draw_to_soft_17_differ() -> None:
    # rule 4.2 (stands on 17) against rule 7.2 (draws soft 17), both ORIGINAL (peek-like)
    assert play(S17_ORIGINAL, (1, 8), 6) is Decision.STAND
    assert play(H17_ORIGINAL, (1, 8), 6) is Decision.DOUBLE
    assert play(S17_ORIGINAL, (5, 6), 1) is Decision.HIT
    assert play(H17_ORIGINAL, (5, 6), 1) is Decision.DOUBLE
    assert play(S17_ORIGINAL, (1, 7), 2) is Decision.STAND
    assert play(H17_ORIGINAL, (1, 7), 2) is Decision.DOUBLE
    assert play(H17, (1, 8), 6) is Decision.DOUBLE  # also when a blackjack takes all


def test_what_a_dealer_blackjack_takes_changes_play_against_ten_and_ace() -> None:
    # ORIGINAL returns doubles and split bets, so they are made as if the dealer had checked
    assert play(S17, (5, 6), 10) is Decision.HIT
    assert play(S17_ORIGINAL, (5, 6), 10) is Decision.DOUBLE
    assert play(S17, (8, 8), 10) is Decision.HIT
    assert play(S17_ORIGINAL, (8, 8), 10) is Decision.SPLIT
    assert play(S17, (1, 1), 1) is Decision.HIT
    assert play(S17_ORIGINAL, (1, 1), 1) is Decision.SPLIT
    # against 2-9 the dealer cannot have blackjack: the two settings play alike
    for up, (a, b) in itertools.product(range(2, 10), itertools.combinations_with_replacement(
            range(1, 11), 2)):
        if {a, b} != {1, 10}:
            assert play(S17, (a, b), up) is play(S17_ORIGINAL, (a, b), up), (a, b, up)


def test_disallowed_actions_fall_back_by_value() -> None:
    assert play(S17, (5, 6), 6, double=False) is Decision.HIT
    assert play(S17, (1, 7), 4, double=False) is Decision.STAND  # Ds
    assert play(S17, (8, 8), 6, split=False) is Decision.STAND  # hard 16 v 6
    assert play(S17, (1, 1), 6, split=False) is Decision.DOUBLE  # soft 12 v 6 (no resplit)
    assert play(S17, (1, 1), 6, split=False, double=False) is Decision.HIT
    assert play(S17, (2, 3, 6), 6) is Decision.HIT  # 11 of three cards: no double
    assert play(S17, (1, 2, 4), 9) is Decision.HIT  # soft 17 v 9
    assert play(S17, (10, 2, 5), 10) is Decision.STAND


def test_decide_is_the_best_allowed_expected_value() -> None:
    s = basic_strategy(S17_SURRENDER)
    for up in range(1, 11):
        for a, b in itertools.combinations_with_replacement(range(1, 11), 2):
            if {a, b} == {1, 10}:
                continue
            ev = s.expected_values((a, b), up)
            allowed = set(ev) - ({Decision.SURRENDER} if up == 1 else set())
            best = max(allowed, key=lambda d: ev[d])
            got = s.decide((a, b), up, can_double=True, can_split=a == b,
                           can_surrender=up != 1)
            assert ev[got] == pytest.approx(ev[best], abs=1e-12), (a, b, up)


def test_a_bust_hand_has_no_decision() -> None:
    with pytest.raises(ValueError, match="bust"):
        play(S17, (10, 6, 8), 5)


def test_insurance_is_never_worth_taking() -> None:
    for decks in (4, 6, 8):
        assert basic_strategy(BlackjackRules(decks=decks)).insurance_value() < 0
    for decks in (1, 2):
        assert basic_strategy(BlackjackRules.touch_21(decks=decks)).insurance_value() < 0


def test_the_strategy_is_computed_once_per_rules() -> None:
    assert basic_strategy(S17) is basic_strategy(BlackjackRules(minimum=10_000))
    assert basic_strategy(S17) is not basic_strategy(H17)


def test_the_chart_renders_every_row() -> None:
    text = basic_strategy(S17_SURRENDER).table()
    lines = text.splitlines()
    assert lines[0].startswith("Blackjack, 6 decks, dealer stands on all 17s")
    assert any(line.startswith("16 ") and line.split()[-2] == "Rh" for line in lines)
    assert any(line.startswith("A,A") for line in lines)
    assert len([line for line in lines if line[:1].isdigit() or line[:2] == "A,"]) == 18 + 8 + 10


# --- the dealer's odds ------------------------------------------------------------------------

def _dealer_by_enumeration(shoe: list[int], up: int) -> dict[str, float]:
    """Every sequence of dealer cards, one at a time, with no memo: S17."""
    out: dict[str, float] = {}

    def walk(cards: list[int], p: float) -> None:
        hard = sum(cards)
        best = hard + 10 if 1 in cards and hard <= 11 else hard
        if len(cards) == 2 and sorted(cards) == [1, 10]:
            out["bj"] = out.get("bj", 0.0) + p
        elif hard > 21:
            out["bust"] = out.get("bust", 0.0) + p
        elif best >= 17:
            out[str(best)] = out.get(str(best), 0.0) + p
        else:
            left = sum(shoe)
            for i, n in enumerate(shoe):
                if n:
                    shoe[i] -= 1
                    walk([*cards, i + 1], p * n / left)
                    shoe[i] += 1

    walk([up], 1.0)
    return out


@pytest.mark.parametrize("up", [1, 6, 10])
def test_dealer_odds_match_a_plain_enumeration(up: int) -> None:
    shoe = list(remove(full_shoe(1), up, 10, 7))  # one deck, a player's 10,7 out
    d = dealer_odds(shoe, up, hits_soft_17=False)
    want = _dealer_by_enumeration(shoe, up)
    assert d.blackjack == pytest.approx(want.get("bj", 0.0), abs=1e-12)
    for total, p in zip(("17", "18", "19", "20", "21", "bust"), d.finals, strict=True):
        assert p * (1 - d.blackjack) == pytest.approx(want.get(total, 0.0), abs=1e-12)


def test_dealer_draws_soft_17_only_under_the_soft_17_rule() -> None:
    shoe = remove(full_shoe(6), 1)
    stands, draws = dealer_odds(shoe, 1, False), dealer_odds(shoe, 1, True)
    assert stands.finals[0] > draws.finals[0]  # fewer 17s
    assert draws.finals[5] > stands.finals[5]  # more busts
    assert sum(stands.finals) == pytest.approx(1.0)


# --- house edge -------------------------------------------------------------------------------

def test_player_blackjack_chance_is_exact() -> None:
    for decks in (1, 6):
        a = analyse(BlackjackRules(decks=decks) if decks >= 4
                    else BlackjackRules.touch_21(decks=decks))
        n = 52 * decks
        assert a.blackjack == pytest.approx(2 * (4 * decks) * (16 * decks) / (n * (n - 1)))


@pytest.mark.parametrize(("rules", "published", "tolerance"), [
    # peek-game figures from the additive table in docs/blackjack-odds.md (ORIGINAL plays as
    # a game where the dealer checks for blackjack first); ENHC "all" adds about 0.11%
    (BlackjackRules(decks=4, dealer_blackjack_takes=ORIGINAL), 0.37, 0.04),
    (S17_ORIGINAL, 0.42, 0.04),
    (BlackjackRules(decks=8, dealer_blackjack_takes=ORIGINAL), 0.44, 0.04),
    (S17, 0.53, 0.04),
    (BlackjackRules.touch_21(decks=2, dealer_blackjack_takes=ORIGINAL), 0.41, 0.04),
])
def test_house_edge_near_published_figures(rules: BlackjackRules, published: float,
                                           tolerance: float) -> None:
    assert 100 * house_edge(rules) == pytest.approx(published, abs=tolerance)


def test_rule_effects_have_the_published_size() -> None:
    enhc = house_edge(S17) - house_edge(S17_ORIGINAL)
    assert 0.0009 < enhc < 0.0014  # about 0.11%
    h17 = house_edge(H17) - house_edge(S17)
    assert 0.0018 < h17 < 0.0024  # about 0.2%
    assert house_edge(BlackjackRules(decks=4)) < house_edge(S17) < house_edge(
        BlackjackRules(decks=8))


def test_original_and_all_agree_against_two_to_nine() -> None:
    a, o = analyse(S17), analyse(S17_ORIGINAL)
    for up in range(2, 10):
        assert a.by_up_card[up] == pytest.approx(o.by_up_card[up], abs=1e-12)
    assert a.by_up_card[10] < o.by_up_card[10]
    assert a.by_up_card[1] < o.by_up_card[1]


def test_split_match_by_rank_changes_nothing_when_tens_are_never_split() -> None:
    assert house_edge(BlackjackRules(split_match=SplitMatch.RANK)) == pytest.approx(
        house_edge(S17), abs=1e-12)


def test_blackjack_paying_less_raises_the_edge_by_the_blackjack_chance() -> None:
    six_five = BlackjackRules(blackjack_odds=Fraction(6, 5))
    a = analyse(S17)
    # every player blackjack not met by a dealer blackjack (a few percent are) is paid 0.3 less
    more = house_edge(six_five) - a.house_edge
    assert 0.3 * a.blackjack * 0.93 < more < 0.3 * a.blackjack
