"""The shuffler malfunction procedure (the Mpumalanga table game rules for mini baccarat,
rules 12.1-12.5) in the pure rules: each branch, each refusal with its clause, and, over
any coup, any fault and any decisions, money conserved and no wager both returned and
settled."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from kiosk.rules.audit import ReplayReport
from kiosk.rules.cards import Card, deck
from kiosk.rules.errors import NotAllowed
from kiosk.rules.mini_baccarat import audit, engine as mb

RULES = mb.MiniBaccaratRules()
THANDI = mb.inspector("Thandi", "4411")


@dataclass(frozen=True)
class JournalRow:
    """A journal row as the audit sees it (`kiosk.rules.audit.Row`)."""

    seq: int
    wall_time: str
    kind: str
    payload: dict[str, Any]


def c(code: str) -> Card:
    return Card.parse(code)


def dealt(bets: tuple[tuple[str, mb.BetKind, int], ...] = (("1", mb.BetKind.BANKER, 10_000),
                                                          ("3", mb.BetKind.PLAYER, 5_000),
                                                          ("3", mb.BetKind.TIE, 1_000)),
          cards: tuple[str, ...] = ("4H", "2S", "3D")) -> mb.MiniBaccaratState:
    s = mb.initial_state(RULES, "MB-01")
    s = mb.apply(s, mb.shuffle(s, "shuffler"))
    for area, kind, amount in bets:
        s = mb.apply(s, mb.place_bet(s, area, kind, amount))
    s = mb.apply(s, mb.close_betting(s))
    for code in cards:
        s = mb.apply(s, mb.shoe_card(s, c(code)))
    return s


def stopped(**kw: Any) -> mb.MiniBaccaratState:
    s = dealt(**kw)
    return mb.apply(s, mb.shuffler_malfunction(s, "JAM", mb.SHUFFLER))


def facts(s: mb.MiniBaccaratState, *answers: tuple[mb.Fact, bool, mb.Who]
          ) -> mb.MiniBaccaratState:
    for fact, answer, who in answers:
        s = mb.apply(s, mb.establish_fact(s, fact, answer, who))
    return s


def refused(clause: str, fn: Any, *args: Any) -> str:
    with pytest.raises(NotAllowed) as err:
        fn(*args)
    assert err.value.clause == clause, str(err.value)
    return str(err.value)


# --- rule 12.1: when the procedure applies --------------------------------------------------


def test_a_fault_stops_the_coup_and_nothing_is_dealt_voided_or_settled() -> None:
    s = stopped()
    assert s.stopped and s.malfunction is not None and s.malfunction.cards_dealt == 3
    refused("12.1", mb.shoe_card, s, c("5C"))  # rule 12.1
    refused("12.1", mb.deal_card, s, c("5C"), mb.CardSource.KEYED)
    refused("12.1", mb.void_round, s, "jam")
    with pytest.raises(NotAllowed):  # the fold refuses it too, whoever built the record
        mb.apply(s, mb.CardDealt(s.coup, mb.Hand.BANKER, c("5C")))
    assert mb.legal_actions(s) == frozenset({"establish_fact"})


def test_only_a_coup_being_dealt_from_a_shuffler_can_malfunction() -> None:
    s = mb.initial_state(RULES, "MB-01")
    s = mb.apply(s, mb.shuffle(s, "shuffler"))
    refused("12.1.2", mb.shuffler_malfunction, s, "JAM", mb.SHUFFLER)  # betting: no coup
    from_shoe = mb.initial_state(mb.MiniBaccaratRules(dealt_from=mb.Device.SHOE), "MB-02")
    refused("12.1.1", mb.shuffler_malfunction, from_shoe, "JAM", mb.DEALER)
    s = stopped()
    refused("12.1", mb.shuffler_malfunction, s, "again", mb.DEALER)


def test_the_shuffler_report_steps_the_game_only_for_a_fault_in_a_coup() -> None:
    game = mb.MiniBaccarat()
    s = dealt()
    assert game.shuffler_report(s, "count", "416 cards counted") is None
    op = game.shuffler_report(s, "fault", "JAM: card path blocked")
    assert isinstance(op, mb.ShufflerMalfunctioned) and op.by == mb.SHUFFLER
    assert game.shuffler_report(mb.apply(s, op), "fault", "again") is None


def test_no_card_dealt_yet_needs_no_procedure_only_another_device() -> None:
    s = stopped(cards=())
    assert mb.where(s) == mb.Where(mb.Step.CONTINUE)
    assert "rule 12.1.2" in mb.next_step(s)
    s = mb.apply(s, mb.continue_coup(s, mb.DEALER))
    assert not s.stopped and s.bets  # every bet stays for the coup


# --- who decides ------------------------------------------------------------------------


def test_each_fact_in_turn_with_who_decided_the_disadvantage_the_inspectors() -> None:
    s = stopped()
    with pytest.raises(NotAllowed, match=r"^Not yet: Shuffler malfunction: are any cards in it "
                       r"damaged\? \(rule 12.3\)$"):  # one question at a time, in order
        mb.establish_fact(s, mb.Fact.SPARE, True, mb.DEALER)
    s = facts(s, (mb.Fact.DAMAGED, False, mb.DEALER))
    refused("12.4", mb.establish_fact, s, mb.Fact.DISADVANTAGED, False, mb.DEALER)
    with pytest.raises(NotAllowed, match="badge"):
        mb.establish_fact(s, mb.Fact.DISADVANTAGED, False, mb.inspector("Thandi", ""))
    op = mb.establish_fact(s, mb.Fact.DISADVANTAGED, False, THANDI)
    assert (op.fact, op.answer, op.by.role, op.by.badge) == (
        mb.Fact.DISADVANTAGED, False, mb.Role.INSPECTOR, "4411")


# --- the branches -------------------------------------------------------------------------


def test_12_2_no_damage_a_spare_transferable_transfer_and_continue() -> None:
    s = facts(stopped(), (mb.Fact.DAMAGED, False, mb.DEALER),
              (mb.Fact.DISADVANTAGED, False, THANDI), (mb.Fact.SPARE, True, THANDI),
              (mb.Fact.TRANSFERABLE, True, mb.DEALER))
    assert s.malfunction is not None and s.malfunction.branch is mb.Branch.TRANSFER
    assert mb.next_step(s) == ("Transfer the cards to the other shuffling device "
                               "(rule 12.2)")
    with pytest.raises(NotAllowed, match=r"Not yet: Transfer the cards"):  # transfer first
        mb.continue_coup(s, mb.DEALER)
    s = mb.apply(s, mb.transfer_cards(s, mb.DEALER))
    s = mb.apply(s, mb.continue_coup(s, mb.DEALER))
    assert s.device is mb.Device.SHUFFLER and not s.stopped
    s = mb.apply(s, mb.shoe_card(s, c("5C")))  # banker 2+5 = 7, player 7: tie
    assert s.phase is mb.Phase.PAYING
    settled = mb.confirm_payouts(s)
    assert [x.outcome.value for x in settled.settlements] == ["stand_off", "stand_off", "win"]


def test_12_3_damaged_cards_removed_transferred_replaced_then_continue() -> None:
    s = facts(stopped(), (mb.Fact.DAMAGED, True, mb.DEALER),
              (mb.Fact.DISADVANTAGED, False, THANDI), (mb.Fact.SPARE, True, THANDI),
              (mb.Fact.TRANSFERABLE, True, THANDI))
    assert "rule 12.3.1" in mb.next_step(s)
    refused("12.3.1", mb.remove_damaged_cards, s, (), mb.DEALER)
    # A damaged card is one still in the device: never more of a card than the shoe holds.
    with pytest.raises(NotAllowed):
        mb.remove_damaged_cards(s, (c("4H"),) * 32, mb.DEALER)
    s = mb.apply(s, mb.remove_damaged_cards(s, (c("QS"), c("7H")), mb.DEALER))
    assert "rule 12.3.2" in mb.next_step(s)
    s = mb.apply(s, mb.transfer_cards(s, mb.DEALER))
    assert "rule 12.3.3" in mb.next_step(s)
    op = mb.replace_damaged_cards(s, THANDI)
    assert op.cards == 2
    s = mb.apply(s, op)
    assert "rule 12.3.4" in mb.next_step(s)
    s = mb.apply(s, mb.continue_coup(s, mb.DEALER))
    assert not s.stopped and s.device is mb.Device.SHUFFLER


def test_12_4_a_disadvantage_terminates_and_returns_every_wager_per_area() -> None:
    s = facts(stopped(), (mb.Fact.DAMAGED, False, mb.DEALER),
              (mb.Fact.DISADVANTAGED, True, THANDI))
    assert mb.next_step(s) == ("The coup is terminated: return every wager, area by area "
                               "(rule 12.4)")
    op = mb.terminate_coup(s, THANDI)
    assert [(b.area, b.kind.value, b.amount) for b in op.returned] == [
        ("1", "banker", 10_000), ("3", "player", 5_000), ("3", "tie", 1_000)]
    after = mb.apply(s, op)
    assert after.coup == s.coup + 1 and not after.bets and after.malfunction is None
    assert after.phase is mb.Phase.BETTING and after.results == s.results  # no result


def test_12_5_offers_one_by_one_then_shuffle_cut_and_a_dealing_shoe() -> None:
    s = facts(stopped(bets=(("1", mb.BetKind.BANKER, 10_000), ("3", mb.BetKind.PLAYER, 5_000),
                            ("3", mb.BetKind.TIE, 1_000), ("6", mb.BetKind.BANKER, 7_500))),
              (mb.Fact.DAMAGED, True, mb.DEALER), (mb.Fact.DISADVANTAGED, False, THANDI),
              (mb.Fact.SPARE, True, THANDI), (mb.Fact.TRANSFERABLE, False, THANDI))
    assert s.malfunction is not None and s.malfunction.branch is mb.Branch.DEALING_SHOE
    refused("12.5.1", mb.offer_wager_back, s, "3", True, mb.DEALER)  # seat 1 first
    s = mb.apply(s, mb.offer_wager_back(s, "1", False, mb.DEALER))
    op = mb.offer_wager_back(s, "3", True, mb.DEALER)
    assert [(b.kind.value, b.amount) for b in op.bets] == [("player", 5_000), ("tie", 1_000)]
    s = mb.apply(s, op)
    s = mb.apply(s, mb.offer_wager_back(s, "6", False, mb.DEALER))
    assert [b.area for b in s.bets] == ["1", "6"]
    assert "rule 12.3.1" in mb.next_step(s)  # which cards are damaged (then 12.5.2)
    s = mb.apply(s, mb.remove_damaged_cards(s, (c("9C"),), THANDI))
    assert mb.next_step(s) == ("Replace the damaged cards with cards from a new deck "
                               "(rule 12.5.2)")
    s = mb.apply(s, mb.replace_damaged_cards(s, THANDI))
    assert "rule 12.5.3" in mb.next_step(s)
    s = mb.apply(s, mb.reshuffle_cards(s, mb.DEALER))
    # Rule 4.2.5 (shuffle and cut): new cards, the farthest right of those still in cuts.
    assert mb.next_step(s) == "Offer the cut to seat 6, as under rule 4 (rule 12.5.3)"
    refused("4.4 (shuffle and cut)", mb.cut_cards, s, 6, 10, 60)  # a deck in at least
    s = mb.apply(s, mb.refuse_cut(s, 6))
    assert mb.next_step(s) == "Offer the cut to seat 1, as under rule 4 (rule 12.5.3)"
    s = mb.apply(s, mb.refuse_cut(s, 1))
    assert "supervisor" in mb.next_step(s)  # rule 4.3: nobody accepted
    s = mb.apply(s, mb.cut_cards(s, None, 200, 60, "supervisor 17"))
    assert mb.next_step(s) == ("Load the dealing shoe and complete the coup for the players "
                               "who stayed (rule 12.5.4)")
    s = mb.apply(s, mb.continue_coup(s, mb.DEALER))
    assert s.device is mb.Device.SHOE and not s.stopped
    s = mb.apply(s, mb.shoe_card(s, c("5C")))  # 7 to 7
    settled = mb.confirm_payouts(s)
    assert [(x.area, x.kind.value) for x in settled.settlements] == [
        ("1", "banker"), ("6", "banker")]
    after = mb.apply(s, settled)
    assert after.malfunction is None and after.device is mb.Device.SHOE
    after = mb.apply(after, mb.shuffle(after, "shuffler"))  # a new shoe: the table's device
    assert after.device is mb.Device.SHUFFLER


def test_12_5_when_every_player_takes_the_wagers_back_the_coup_ends() -> None:
    s = facts(stopped(), (mb.Fact.DAMAGED, False, mb.DEALER),
              (mb.Fact.DISADVANTAGED, False, THANDI), (mb.Fact.SPARE, False, THANDI))
    for area in ("1", "3"):
        s = mb.apply(s, mb.offer_wager_back(s, area, True, mb.DEALER))
    assert mb.next_step(s) == "Every player took the wagers back: end the coup (rule 12.5.1)"
    op = mb.terminate_coup(s, mb.DEALER)
    assert op.returned == () and op.branch is mb.Branch.DEALING_SHOE


# --- replay re-derives the wagers returned ---------------------------------------------------


def test_replay_finds_a_wager_returned_that_was_not_on_the_layout() -> None:
    s = facts(stopped(), (mb.Fact.DAMAGED, False, mb.DEALER),
              (mb.Fact.DISADVANTAGED, True, THANDI))
    honest = mb.terminate_coup(s, THANDI)
    forged = mb.CoupTerminated(honest.coup, (*honest.returned, mb.Bet("5", mb.BetKind.BANKER,
                                                                      50_000)),
                               honest.branch, honest.by)
    for op, differences in ((honest, 0), (forged, 1)):
        report = ReplayReport("t", True, "", 0)
        audit.audit(s, op, JournalRow(9, "w", op.kind, {}), report)
        (coup,) = report.rounds
        assert len(coup.differences) == differences
        assert coup.outcome.startswith("terminated: shuffler fault, rule 12.4; 3 wager(s)")


# --- properties ------------------------------------------------------------------------------

AREAS = [str(n) for n in range(1, 8)]


@st.composite
def coups(draw: Any) -> tuple[Any, ...]:
    bets = draw(st.lists(st.tuples(st.sampled_from(AREAS),
                                   st.sampled_from([mb.BetKind.BANKER, mb.BetKind.PLAYER]),
                                   st.integers(50, 500).map(lambda n: n * 100)),
                         min_size=1, max_size=7, unique_by=lambda b: (b[0], b[1])))
    ties = draw(st.lists(st.sampled_from(sorted({a for a, _, _ in bets})), unique=True))
    seed = draw(st.integers(0, 2**32 - 1))
    before = draw(st.integers(1, 3))
    answers = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    offers = draw(st.lists(st.booleans(), min_size=7, max_size=7))
    return bets, ties, seed, before, answers, offers


def _play(bets: Any, ties: Any, seed: int, before: int, answers: list[bool],
          offers: list[bool]) -> tuple[mb.MiniBaccaratState, int, list[Any]]:
    """A coup, the fault after `before` cards, the procedure as the answers have it, the
    coup to its end: the state after, the chips staked and the records of the coup."""
    cards = list(deck()) * RULES.decks
    random.Random(seed).shuffle(cards)
    s = mb.initial_state(RULES, "MB-01")
    s = mb.apply(s, mb.shuffle(s, "shuffler"))
    ops: list[Any] = []

    def do(op: Any) -> None:
        nonlocal s
        ops.append(op)
        s = mb.apply(s, op)

    for area, kind, amount in bets:
        do(mb.place_bet(s, area, kind, amount))
    for area in ties:
        do(mb.place_bet(s, area, mb.BetKind.TIE, 1_000))
    staked = s.total_staked
    do(mb.close_betting(s))
    for _ in range(before):
        do(mb.shoe_card(s, cards.pop()))
    if s.phase is mb.Phase.DEALING:  # the fault comes in the coup (rule 12.1.2)
        do(mb.shuffler_malfunction(s, "JAM", mb.SHUFFLER))
        offer = iter(offers)
        for _ in range(40):
            now = mb.where(s)
            assert now is not None
            if now.step is mb.Step.DONE:
                break
            if now.step is mb.Step.FACT:
                assert now.fact is not None
                do(mb.establish_fact(s, now.fact, answers[mb.FACTS.index(now.fact)], THANDI))
            elif now.step is mb.Step.OFFER:
                do(mb.offer_wager_back(s, now.area, next(offer), mb.DEALER))
            elif now.step is mb.Step.REMOVE:
                do(mb.remove_damaged_cards(s, (cards[-1],), mb.DEALER))
            elif now.step is mb.Step.CUT:
                seat = s.malfunction.prep.offered_to() if s.malfunction.prep else None
                do(mb.cut_cards(s, seat, 200, 60, "" if seat else "supervisor 1"))
            else:
                act = {mb.Step.TRANSFER: mb.transfer_cards,
                       mb.Step.REPLACE: mb.replace_damaged_cards,
                       mb.Step.TERMINATE: mb.terminate_coup,
                       mb.Step.RESHUFFLE: mb.reshuffle_cards,
                       mb.Step.CONTINUE: mb.continue_coup}[now.step]
                do(act(s, mb.DEALER))
                if now.step is mb.Step.TERMINATE:
                    return s, staked, ops
    while s.phase is mb.Phase.DEALING:
        do(mb.shoe_card(s, cards.pop()))
    do(mb.confirm_payouts(s))
    return s, staked, ops


@settings(max_examples=150, deadline=None)
@given(coups())
def test_money_is_conserved_and_no_wager_is_both_returned_and_settled(coup: Any) -> None:
    s, staked, ops = _play(*coup)
    returned = [b for op in ops if isinstance(op, mb.WagerOffered) and op.returned
                for b in op.bets]
    returned += [b for op in ops if isinstance(op, mb.CoupTerminated) for b in op.returned]
    settled = [x for op in ops if isinstance(op, mb.CoupSettled) for x in op.settlements]
    # Every chip staked is either handed back untouched or settled: none twice, none lost.
    assert sum(b.amount for b in returned) + sum(x.stake for x in settled) == staked
    back = {(b.area, b.kind) for b in returned}
    assert back.isdisjoint({(x.area, x.kind) for x in settled})
    assert len(back) == len(returned)  # no wager returned twice
    # The coup ended, once: settled or terminated; the next coup has nothing on the layout.
    assert s.coup == 2 and not s.bets and s.malfunction is None
    assert sum(isinstance(op, mb.CoupSettled | mb.CoupTerminated) for op in ops) == 1


@settings(max_examples=60, deadline=None)
@given(coups())
def test_the_state_is_a_fold_of_the_records(coup: Any) -> None:
    s, _staked, ops = _play(*coup)
    again = mb.initial_state(RULES, "MB-01")
    again = mb.apply(again, mb.shuffle(again, "shuffler"))
    for op in ops:
        again = mb.apply(again, op)
    assert again == s


@pytest.mark.parametrize(("journal", "outcome"), [
    ("mb_transfer", "player 7-5 (shuffler fault, rule 12.2)"),
    ("mb_replace", "player 7-5 (shuffler fault, rule 12.3)"),
    ("mb_terminate", "terminated: shuffler fault, rule 12.4; 4 wager(s) returned (R240)"),
    ("mb_shoe", "player 7-5 (shuffler fault, rule 12.5, 1 wager(s) returned)"),
])
def test_the_pit_reads_each_branch_in_the_coups_one_line(journal: str, outcome: str) -> None:
    """Replay re-derives the coup the shuffler stopped: its outcome says the branch and
    the wagers returned (the pit's rounds list shows it as it is)."""
    from pathlib import Path

    from kiosk.replay import load_entries, replay

    golden = Path(__file__).parents[2] / "golden_journals" / f"{journal}.jsonl"
    report = replay(load_entries(golden), journal)
    assert report.ok
    assert [c.outcome for c in report.rounds][1] == outcome


@pytest.mark.parametrize("damaged", [False, True])
@pytest.mark.parametrize("disadvantaged", [False, True])
@pytest.mark.parametrize("spare", [False, True])
@pytest.mark.parametrize("transferable", [False, True])
def test_the_facts_choose_the_branch(damaged: bool, disadvantaged: bool, spare: bool,
                                     transferable: bool) -> None:
    """Rules 12.1.3 (nobody disadvantaged), 12.1.4 (a spare readily available) and 12.1.5
    (the cards can be transferred) must all hold for 12.2 or 12.3, the damage choosing
    between them; a disadvantage is 12.4 whatever else holds; otherwise 12.5. The
    transfer is not asked when there is no spare."""
    s = facts(stopped(), (mb.Fact.DAMAGED, damaged, mb.DEALER),
              (mb.Fact.DISADVANTAGED, disadvantaged, THANDI))
    if not disadvantaged:
        s = facts(s, (mb.Fact.SPARE, spare, THANDI))
        if spare:
            s = facts(s, (mb.Fact.TRANSFERABLE, transferable, THANDI))
    assert s.malfunction is not None
    m = s.malfunction
    if disadvantaged:  # rule 12.1.3 fails: rule 12.4
        want = mb.Branch.TERMINATE
    elif not spare or not transferable:  # rule 12.1.4 or 12.1.5 fails: rule 12.5
        want = mb.Branch.DEALING_SHOE
    else:
        want = mb.Branch.REPLACE if damaged else mb.Branch.TRANSFER  # rules 12.3, 12.2
    assert m.branch is want
    assert mb.asks(s) is None  # every fact the branch needs is known
    assert len(m.facts) == (2 if disadvantaged else 3 if not spare else 4)


def test_every_clause_of_rule_12_is_cited_in_the_code_and_a_test() -> None:
    from pathlib import Path

    root = Path(__file__).parents[3]
    code = "\n".join(p.read_text() for p in (root / "kiosk/rules/mini_baccarat").glob("*.py"))
    tests = "\n".join(p.read_text() for p in [
        *(root / "tests/rules/mini_baccarat").glob("*.py"),
        *(root / "tests/mini_baccarat").glob("*.py"),
        root / "tests/ui/test_dealer_mini_baccarat.py"])
    for clause in ("12.1", "12.1.1", "12.1.2", "12.1.3", "12.1.4", "12.1.5", "12.2", "12.3",
                   "12.3.1", "12.3.2", "12.3.3", "12.3.4", "12.4", "12.5", "12.5.1", "12.5.2",
                   "12.5.3", "12.5.4"):
        cite = re.compile(r"rules? " + re.escape(clause) + r"(?![\d]|\.\d)|clause=\""
                          + re.escape(clause) + "\"")
        assert cite.search(code), f"rule {clause} is not cited in kiosk/rules/mini_baccarat"
        assert re.search(re.escape(clause) + r"(?![\d]|\.\d)", tests), f"rule {clause}: no test"
