"""Decisions and the shoe through the table session: the card in turn, held cards, queries."""

from __future__ import annotations

from pathlib import Path

from hardware import events as ev
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.rules.blackjack.table import Table
from tests.rules.blackjack.test_shuffle_and_cut import refused


def test_a_doubled_hand_takes_its_card_before_anything_else() -> None:
    t = Table().ready()
    t.bet(1, 10000).close().cards("6S 5D 5H")
    t.act(bj.double)
    assert bj.decisions(t.state) == ()
    refused(lambda: bj.stand(t.state), "4.2 item 4d")
    refused(lambda: bj.double(t.state), "4.2 item 4d")
    assert "one card only" in bj.next_step(t.state)
    t.cards("9C")
    assert t.state.phase is bj.Phase.DEALER



def shoe(session: TableSession[bj.BlackjackState], codes: str) -> None:
    for code in codes.split():
        session.on_device_event(ev.CardRead(device="SHOE", seq=0, card=Card.parse(code)))


def test_the_session_holds_shoe_cards_while_insurance_is_open(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "bj.db", "BJ-1")
    session = TableSession(bj.Blackjack(), journal, BlackjackRules(), "BJ-1")
    session.perform(bj.shuffle)
    session.perform(lambda s: bj.cut_cards(s, 1, 150, 78))
    shoe(session, "QH")  # rule 4.7 (shuffle and cut): burned, never shown
    assert session.state.prep.stage is bj.Stage.READY
    session.perform(lambda s: bj.place_bet(s, 3, 10000))
    session.perform(bj.close_betting)
    shoe(session, "TS AD 6H")  # box 3: 16 against an ace: insurance is open (rule 4.7)
    assert session.state.phase is bj.Phase.INSURANCE
    shoe(session, "4C")  # dealt too early: held, not counted
    assert list(session.held_cards) == [Card.parse("4C")]
    assert len(session.state.hand(3, 1).cards) == 2
    session.perform(bj.close_insurance)
    # Released on the next action: the 4 is box 3's draw.
    assert [c.code for c in session.state.hand(3, 1).cards] == ["TS", "6H", "4C"]
    session.perform(bj.stand)
    shoe(session, "7D")  # the dealer's second card: A+7 = soft 18, stands (rule 4.2)
    assert session.state.phase is bj.Phase.PAYING
    shoe(session, "2S")  # one card too many: queried with the clause, never counted
    assert session.state.pending is not None and "rule 4.2" in session.state.pending.message
    assert session.alerts[-1].message.startswith("The dealer has soft 18")
    session.perform(bj.set_aside_card)
    op = session.perform(bj.confirm_payouts)
    assert isinstance(op, bj.RoundSettled)
    assert [s.net for s in op.settlements] == [10000]  # 20 against 18
    kinds = [e.kind for e in journal.entries()]
    assert kinds.count("blackjack.card_queried") == 1 and "blackjack.card_set_aside" in kinds
    # A restart folds the journal back into the same place.
    again = TableSession(bj.Blackjack(), journal, BlackjackRules(), "BJ-1")
    assert again.state == session.state
    journal.close()


def test_which_cards_come_without_a_players_decision() -> None:
    t = Table()
    t.do(bj.shuffle)
    t.do(lambda s: bj.cut_cards(s, 1, 150, 78))
    assert bj.card_due_without_decision(t.state)  # the burn (rule 4.7 shuffle and cut)
    t.cards("2C").bet(1, 10000).close()
    assert bj.card_due_without_decision(t.state)  # the deal (rule 4.2 item 3)
    t.cards("8S 6D 8H")
    assert not bj.card_due_without_decision(t.state)  # 16 against 6: the player decides
    t.act(bj.split)
    assert bj.card_due_without_decision(t.state)  # a split hand's second card (item 4e)
    t.cards("3C")
    t.act(bj.double)
    assert bj.card_due_without_decision(t.state)  # a double's one card (item 4d)
    t.cards("9D 2H")  # hand 1 is 20; hand 2 gets its second card: 10
    assert not bj.card_due_without_decision(t.state)
    t.stand()
    assert bj.card_due_without_decision(t.state)  # the dealer's hand


def test_rules_4_3_4_6_7_3_7_6_seven_boxes_and_bets_stay_after_no_more_bets() -> None:
    for rules in (BlackjackRules(), BlackjackRules.touch_21()):
        t = Table(rules).ready()
        refused(lambda t=t: bj.place_bet(t.state, 8, 10000), "4.3")  # seven boxes (7.3)
        t.bet(7, 10000).close()
        # Rules 4.6 and 7.6: players do not touch their bets during the game.
        refused(lambda t=t: bj.remove_bet(t.state, 7, 10000), "4.6")
        refused(lambda t=t: bj.place_bet(t.state, 1, 10000), "4.2 item 3")


def test_rule_7_2_item_2_the_players_say_who_calls_the_box() -> None:
    t = Table(BlackjackRules.touch_21()).ready()
    t.bet(4, 5000, "A").bet(4, 10000, "B")
    t.act(bj.set_caller, 4, "B")
    t.close().cards("8S 6D 8H")
    t.do(bj.check_blackjacks)
    h = t.state.current
    assert h is not None and h.caller is not None and h.caller.player == "B"


def test_a_table_reconfigured_from_punto_banco_to_blackjack_records_the_new_opening(
        tmp_path: Path) -> None:
    from kiosk.rules.baccarat import engine as pb

    journal = Journal.open(tmp_path / "t.db", "T-1")
    TableSession(pb.PuntoBanco(), journal, pb.PuntoBancoRules(), "T-1")
    session = TableSession(bj.Blackjack(), journal, BlackjackRules(), "T-1")
    kinds = [e.kind for e in journal.entries()]
    assert kinds == ["punto_banco.table_opened", "blackjack.table_opened"]
    assert "now runs blackjack" in session.alerts[-1].message
    again = TableSession(bj.Blackjack(), journal, BlackjackRules(), "T-1")
    assert [e.kind for e in journal.entries()] == kinds  # nothing more on a plain restart
    assert again.state == session.state
    journal.close()


def test_rule_2_7_a_round_whose_result_is_known_is_voided_only_by_an_inspector() -> None:
    t = Table().ready().bet(1, 100000).close().cards("TS 6D 9C")
    assert bj.can_void_round(t.state) and not bj.void_needs_inspector(t.state)
    t.stand()
    t.cards("TD 9H")  # the dealer busts: box 1 is owed R1,000
    assert bj.void_needs_inspector(t.state)
    refused(lambda: bj.void_round(t.state, "misdeal", "dealer"), "2.7")
    op = t.act(bj.void_round, "misdeal", "dealer", "inspector 4411")
    assert isinstance(op, bj.RoundVoided) and op.inspector == "inspector 4411"


def test_touch_21_dealer_always_draws_soft_17_and_aces_split_once() -> None:
    import pytest

    with pytest.raises(ValueError, match="rule 7.2"):
        BlackjackRules.touch_21(dealer_hits_soft_17=False)
    with pytest.raises(ValueError, match="rule 4.2 item 4e"):
        BlackjackRules(resplit_aces=True)


def _returned(op: bj.Operation) -> list[tuple[int, int, str, str, int, str, int]]:
    assert isinstance(op, bj.RoundVoided)
    return [(s.box, s.hand, s.player, s.kind.value, s.stake, s.outcome.value, s.returned)
            for s in op.returned]


def test_a_void_lists_every_bet_it_hands_back() -> None:
    """Rule 2.7: a void hands back every bet not yet settled, untouched: a split's added bet
    and a player behind on the hand they followed (4.2 item 4e), a double's added bet (4d).
    A blackjack paid at once against a 6 (4.2 item 5) stands as paid."""
    t = Table().ready()
    t.bet(1, 10000).bet(1, 5000, "B").bet(2, 5000).bet(3, 5000).close()
    t.cards("8H AS 5C 6D 8D KH 6C")  # box 1 two 8s, box 2 blackjack, box 3 11; dealer 6
    t.act(bj.split, {"B": bj.Follow.FIRST})
    t.cards("2D").stand().cards("TC").stand()  # box 1: 10 and 18
    t.act(bj.pay_blackjack)  # box 2, 3:2 at once
    t.act(bj.double)
    t.cards("9H")  # box 3 doubled to 20; the dealer's turn
    op = t.act(bj.void_round, "the shoe jammed", "dealer", "inspector 4411")
    assert _returned(op) == [
        (1, 1, "A", "hand", 10000, "returned", 10000),
        (1, 1, "B", "hand", 5000, "returned", 5000),
        (1, 2, "A", "hand", 10000, "returned", 10000),
        (3, 1, "A", "hand", 10000, "returned", 10000)]
    assert t.replayed() == t.state


def test_a_void_hands_back_insurance_too_and_bets_before_no_more_bets() -> None:
    t = Table().ready().bet(4, 5000).close().cards("9S AH 7D")  # the dealer shows an ace
    t.act(bj.insure, 4, "A", 2500)  # rule 4.7
    op = t.act(bj.void_round, "misdeal", "dealer")
    assert _returned(op) == [(4, 1, "A", "hand", 5000, "returned", 5000),
                             (4, 0, "A", "insurance", 2500, "returned", 2500)]
    t.bet(2, 7500)
    op = t.act(bj.void_round, "table closed", "pit boss")
    assert _returned(op) == [(2, 1, "A", "hand", 7500, "returned", 7500)]
