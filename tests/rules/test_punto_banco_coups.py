"""Punto banco coups: golden files of recorded coups, refusals with their clause, the dealer's
next step, queried/unread cards, voids, the cutting card, and the journal codec.

Golden files live in tests/rules/golden/ (see tests/rules/golden_coups.py for their shape).
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.engine import (
    BetKind,
    CardDealt,
    CardQueried,
    CardSource,
    CommissionMode,
    Hand,
    Limit,
    Phase,
    PuntoBancoRules,
)
from kiosk.rules.baccarat.outcomes import Winner
from kiosk.rules.cards import Card
from kiosk.rules.errors import ImpossibleCard, NotAllowed, UnreadableInput
from kiosk.rules.money import ChipRule, RoundingFavour
from kiosk.rules.operations import Operation, operation_from_record
from tests.rules.golden_coups import Table, fold, golden_names, load, replay, roundtrip, rules_of

# --- Golden coups ----------------------------------------------------------------------------

REQUIRED_GOLDEN = {
    "banker_net_house", "banker_net_player_favour", "banker_net_nearest",
    "banker_commission_house", "banker_commission_nearest", "player_win", "tie", "naturals",
    "three_card",
}


def test_golden_files_present():
    # rules 5.2, 5.7: the recorded coups this suite promises
    assert set(golden_names()) >= REQUIRED_GOLDEN


@pytest.mark.parametrize("name", sorted(REQUIRED_GOLDEN))
def test_golden_coup(name):
    # rules 5.2 (deal order, drawing table), 5.4 (values), 5.7 (payouts), 2.2 (limits)
    golden = load(name)
    actual, table = replay(golden)
    for got, want in zip(actual["coups"], golden["coups"], strict=True):
        assert got["expected"] == want["expected"], (name, want["cards"])
    assert actual == golden
    # the journal written while replaying folds back into the same state (docs/architecture.md)
    assert fold([roundtrip(op) for op in table.journal], table.rules, "T1") == table.state


def test_golden_rules_decode_to_the_configured_rules():
    # rules 5.4 (decks), 5.2 (areas), 2.2 (limits), 5.7 (odds): the files' rules config
    assert rules_of(load("banker_net_house")) == PuntoBancoRules()
    assert rules_of(load("banker_commission_house")) == PuntoBancoRules(
        commission_mode=CommissionMode.COMMISSION)
    assert rules_of(load("banker_net_nearest")) == PuntoBancoRules(
        chips=ChipRule(100, RoundingFavour.NEAREST))
    assert rules_of(load("three_card")) == PuntoBancoRules(
        decks=6, areas=14,
        limits=(Limit(BetKind.BANKER, 10_000, 1_000_000),
                Limit(BetKind.PLAYER, 10_000, 1_000_000),
                Limit(BetKind.TIE, 2_500, 100_000)),
        chips=ChipRule(500, RoundingFavour.PLAYER))


def test_commission_accumulates_and_is_collected_by_area():
    # rule 5.7: "the total of the original bets less 5%", owed per area and collected later
    table = Table(PuntoBancoRules(commission_mode=CommissionMode.COMMISSION)).shuffle()
    table.bet("1", "banker", 5_100).bet("3", "player", 5_000).close()
    table.cards("5S", "9H", "KC", "KD")
    table.confirm()
    assert table.state.owed_by("1") == 255
    assert table.state.owed_by("3") == 0
    table.bet("1", "banker", 5_000).close().cards("2C", "4S", "3H", "KH", "7D", "3C")
    table.confirm()
    assert table.state.commission_owed == (("1", Fraction(505)),)
    with pytest.raises(NotAllowed) as exc:
        pb.collect_commission(table.state, "3")
    assert str(exc.value) == "Area 3 owes no commission"
    op = table.do(pb.collect_commission(table.state, "1"))
    assert op == pb.CommissionCollected(area="1", owed=Fraction(505), collected=600,
                                        rounding=Fraction(-95))
    assert table.state.commission_owed == ()
    assert not pb.can_place_bet(table.state, "1", BetKind.BANKER, 5_050)
    # not while dealing
    table.bet("1", "banker", 5_000).close().cards("5S", "9H", "KC", "KD")
    table.confirm()
    table.bet("2", "player", 5_000).close()
    with pytest.raises(NotAllowed) as exc:
        pb.collect_commission(table.state, "1")
    assert str(exc.value) == "Collect commission between coups, not while dealing"


def test_commission_in_net_mode_is_never_owed():
    # rule 5.7: NET mode pays 19:20 at once, nothing is owed afterwards
    table = Table().shuffle()
    table.bet("1", "banker", 5_100).close().cards("5S", "9H", "KC", "KD")
    settled = table.confirm()
    assert settled.settlements[0].commission == 0
    assert table.state.commission_owed == ()


def test_signage_odds():
    # rule 2.6: payment odds displayed; rule 5.7: 19:20, 1:1, 8:1
    assert PuntoBancoRules().odds() == (("Banker", "19:20"), ("Player", "1:1"), ("Tie", "8:1"))
    assert PuntoBancoRules(commission_mode=CommissionMode.COMMISSION).odds() == (
        ("Banker", "1:1 less 5% commission"), ("Player", "1:1"), ("Tie", "8:1"))


def test_rules_config_is_checked():
    # rule 5.2: seven to fourteen numbered betting areas; rule 2.2: limits per bet kind
    assert PuntoBancoRules(areas=14).area_ids()[-2:] == ("14", "standing")
    assert PuntoBancoRules(standing_area=False).area_ids() == tuple("1234567")
    for bad in (6, 15):
        with pytest.raises(ValueError, match=r"7 to 14 numbered betting areas \(rule 5.2\)"):
            PuntoBancoRules(areas=bad)
    with pytest.raises(ValueError, match=r"banker, player and tie once each \(rule 2.2\)"):
        PuntoBancoRules(limits=(Limit(BetKind.BANKER, 100, 200),))
    with pytest.raises(ValueError, match="0 < minimum <= maximum"):
        PuntoBancoRules(limits=(Limit(BetKind.BANKER, 300, 200), Limit(BetKind.PLAYER, 1, 2),
                                Limit(BetKind.TIE, 1, 2)))
    with pytest.raises(ValueError, match="1 to 16 decks"):
        PuntoBancoRules(decks=0)


# --- Refusals with their clause ---------------------------------------------------------------


def betting_table(**rules: object) -> Table:
    return Table(PuntoBancoRules(**rules)).shuffle()  # type: ignore[arg-type]


def refused(fn, *args) -> NotAllowed:  # type: ignore[no-untyped-def]
    with pytest.raises(NotAllowed) as exc:
        fn(*args)
    return exc.value


def test_bet_after_no_more_bets_is_refused():
    # rule 5.6: no bets once "no more bets" has been announced
    table = betting_table().bet("1", "banker", 5_000).close()
    err = refused(pb.place_bet, table.state, "2", BetKind.PLAYER, 5_000)
    assert err.clause == "5.6"
    assert str(err) == ("No more bets has been called: bets are closed for this coup "
                        "(rule 5.6)")
    assert not pb.can_place_bet(table.state, "2", BetKind.PLAYER, 5_000)
    assert refused(pb.remove_bet, table.state, "1", BetKind.BANKER, 5_000).clause == "5.6"
    assert refused(pb.close_betting, table.state).clause == "5.6"
    table.cards("2H", "3S", "4D", "4C")  # complete: still no bets until the coup is settled
    assert table.state.phase is Phase.PAYING
    assert refused(pb.place_bet, table.state, "2", BetKind.PLAYER, 5_000).clause == "5.6"


def test_unknown_area_is_refused():
    # rule 5.2: seven to fourteen numbered areas and the standing players' area
    table = betting_table()
    err = refused(pb.place_bet, table.state, "8", BetKind.BANKER, 5_000)
    assert err.clause == "5.2"
    assert str(err) == ("There is no betting area '8' on this table "
                        "(areas 1, 2, 3, 4, 5, 6, 7, standing) (rule 5.2)")
    no_standing = betting_table(standing_area=False)
    assert refused(pb.place_bet, no_standing.state, "standing", BetKind.BANKER,
                   5_000).clause == "5.2"
    assert pb.can_place_bet(table.state, "standing", BetKind.BANKER, 5_000)


def test_over_the_maximum_is_refused_and_names_it():
    # rule 2.2: table maximums; the message names the maximum and what is still allowed
    table = betting_table()
    err = refused(pb.place_bet, table.state, "1", BetKind.BANKER, 5_000_100)
    assert err.clause == "2.2"
    assert str(err) == ("Area 1: banker bet of R50,001 is over the table maximum of R50,000; "
                        "at most R50,000 more (rule 2.2)")
    table.bet("1", "banker", 4_990_000)
    err = refused(pb.place_bet, table.state, "1", BetKind.BANKER, 20_000)
    assert str(err) == ("Area 1: banker bet of R50,100 is over the table maximum of R50,000; "
                        "at most R100 more (rule 2.2)")
    table.bet("1", "banker", 10_000)  # exactly the maximum is allowed
    assert table.state.bet_total("1", BetKind.BANKER) == 5_000_000
    tie = refused(pb.place_bet, table.state, "1", BetKind.TIE, 500_100)
    assert "over the table maximum of R5,000" in str(tie)
    assert tie.clause == "2.2"


def test_under_the_minimum_at_close_is_refused():
    # rule 2.2: table minimums, checked when "no more bets" is called
    table = betting_table().bet("1", "banker", 4_000).bet("2", "player", 5_000)
    assert pb.can_place_bet(table.state, "1", BetKind.BANKER, 100)  # may still be topped up
    err = refused(pb.close_betting, table.state)
    assert err.clause == "2.2"
    assert str(err) == "Cannot close bets: area 1 banker R40 is under the R50 minimum (rule 2.2)"
    assert not pb.can_close_betting(table.state)
    table.bet("1", "banker", 1_000).close()  # topped up to the minimum: closes
    assert table.state.phase is Phase.DEALING


def test_tie_only_area_at_close_is_refused():
    # rule 5.2: "The Player must have a bet on either Banco or Punto"
    table = betting_table().bet("3", "tie", 1_000).bet("1", "banker", 5_000)
    err = refused(pb.close_betting, table.state)
    assert err.clause == "5.2"
    assert str(err) == ("Cannot close bets: area 3 has a tie bet without a bet on Banker or "
                        "Player (rule 5.2)")
    table.bet("3", "player", 5_000).close()
    assert table.state.phase is Phase.DEALING


def test_close_refusal_names_every_problem_with_its_clause():
    # rules 2.2 and 5.2 together: every problem is listed; the clause is the first one's
    table = betting_table().bet("3", "tie", 1_000).bet("1", "banker", 4_000)
    err = refused(pb.close_betting, table.state)
    assert str(err) == ("Cannot close bets: area 1 banker R40 is under the R50 minimum "
                        "(rule 2.2); area 3 has a tie bet without a bet on Banker or Player "
                        "(rule 5.2)")
    assert err.clause == "2.2"


def test_bet_not_in_whole_chips_is_refused():
    # docs/architecture.md chip rule: a bet is made of chips (rule 5.6: "placing chips")
    table = betting_table()
    err = refused(pb.place_bet, table.state, "1", BetKind.BANKER, 5_150)
    assert str(err) == "R51.50 cannot be made of chips: bets are in steps of R1"
    five = betting_table(chips=ChipRule(500))
    assert not pb.can_place_bet(five.state, "1", BetKind.BANKER, 5_100)
    assert pb.can_place_bet(five.state, "1", BetKind.BANKER, 5_500)
    for bad in (0, -5_000, True, 5_000.0):
        err = refused(pb.place_bet, table.state, "1", BetKind.BANKER, bad)
        assert str(err) == f"A bet must be a positive amount, not {bad!r}"


def test_remove_bet():
    # rule 5.6: bets may be changed until "no more bets"
    table = betting_table().bet("1", "banker", 8_000)
    table.do(pb.remove_bet(table.state, "1", BetKind.BANKER, 3_000))
    assert table.state.bets == (pb.Bet("1", BetKind.BANKER, 5_000),)
    err = refused(pb.remove_bet, table.state, "1", BetKind.BANKER, 6_000)
    assert str(err) == "Area 1 has only R50 on banker"
    table.do(pb.remove_bet(table.state, "1", BetKind.BANKER, 5_000))
    assert table.state.bets == ()


def test_card_before_bets_closed_is_refused():
    # rule 5.2: cards come out after "no more bets" (5.6), on the Palette Person's instruction
    table = betting_table().bet("1", "banker", 5_000)
    err = refused(pb.shoe_card, table.state, Card.parse("AS"))
    assert err.clause == "5.2"
    assert str(err) == "A card cannot be dealt before no more bets (rule 5.2)"
    assert not pb.can_deal_card(table.state, Card.parse("AS"))
    assert refused(pb.unread_card, table.state).clause == "5.2"


def test_card_after_the_coup_is_complete_is_refused():
    # rule 5.2: the drawing table gives no more cards
    table = betting_table().bet("1", "banker", 5_000).close().cards("2H", "3S", "4D", "4C")
    err = refused(pb.shoe_card, table.state, Card.parse("AS"))
    assert err.clause == "5.2"
    assert str(err) == "A card cannot be dealt after the coup ended (rule 5.2)"
    assert refused(pb.unread_card, table.state).clause == "5.2"


def test_shuffle_only_between_coups():
    # rule 5.5: the shoe is shuffled prior to the first cards being dealt
    table = betting_table().bet("1", "banker", 5_000).close().cards("2H")
    assert refused(pb.shuffle, table.state).clause == "5.5"
    assert not pb.can_shuffle(table.state)
    fresh = Table()
    assert refused(pb.shuffle, fresh.state, "riffle").clause == "5.5"
    assert pb.shuffle(fresh.state, "shuffler") == pb.ShoeShuffled(decks=8, method="shuffler")


def test_confirm_payouts_refused_while_a_card_is_due():
    # rule 5.2: Banker 5 must still draw when the Player stood
    table = betting_table().bet("1", "banker", 5_000).close().cards("7H", "2S", "KD", "3C")
    assert pb.next_step(table.state) == "Banker draws"
    assert not pb.can_confirm_payouts(table.state)
    assert refused(pb.confirm_payouts, table.state).clause == "5.2"


@pytest.mark.parametrize("cards", [(), ("2H",), ("2H", "3S", "4D")])
def test_confirm_payouts_refused_before_four_cards(cards):
    # rule 5.2: the coup is not complete (was an IndexError from coup_result before the fix)
    table = betting_table().bet("1", "banker", 5_000)
    if cards:
        table.close().cards(*cards)
    assert refused(pb.confirm_payouts, table.state).clause == "5.2"


# --- Queried, unread and keyed cards; voids ---------------------------------------------------

AS = Card.parse("AS")


def nine_aces_table() -> Table:
    """Eight aces of spades out of an 8-deck shoe (rule 5.4), the ninth coming next."""
    table = betting_table().bet("1", "banker", 5_000).bet("2", "player", 5_000).close()
    table.cards("AS", "AS", "AS", "AS", "AS", "AS")  # 2 v 2, both draw: tie 3 to 3
    settled = table.confirm()
    assert settled.result.winner is Winner.TIE
    table.bet("1", "banker", 5_000).bet("standing", "tie", 1_000).bet("standing", "player",
                                                                     5_000)
    table.close().cards("AS", "AS")
    assert table.state.shoe is not None and table.state.shoe.remaining_of(AS) == 0
    return table


def test_impossible_card_is_queried_not_dealt():
    # rule 5.4: eight decks hold eight aces of spades; a ninth is never counted silently
    table = nine_aces_table()
    err = refused(pb.deal_card, table.state, AS)
    assert isinstance(err, ImpossibleCard)
    assert err.clause == "5.4"
    pb.verify_shoe_card(table.state, AS)  # the shoe may report it: it becomes a query
    op = table.card("AS")
    message = ("The shoe cannot hold another ace of spades (AS): all 8 have already come out "
               "of this 8-deck shoe (rule 5.4)")
    assert op == CardQueried(coup=2, hand=Hand.PLAYER, card=AS, message=message)
    assert table.state.pending == pb.PendingCard(Hand.PLAYER, "impossible", AS, message)
    assert table.state.player_cards == (AS,)  # not dealt
    assert pb.next_step(table.state) == ("Queried card for the Player: key the right card "
                                         "or void")
    # the pending card blocks further shoe cards and unread cards
    err = refused(pb.shoe_card, table.state, Card.parse("2H"))
    assert str(err) == "First resolve the impossible card for the player"
    assert str(refused(pb.unread_card, table.state)) == ("First resolve the impossible card "
                                                         "for the player")
    # a keyed card that is itself impossible is refused too
    assert refused(pb.deal_card, table.state, AS, CardSource.KEYED).clause == "5.4"


def test_queried_card_resolved_by_a_keyed_card():
    # rule 5.2: the coup goes on with the right card, to the hand that was due
    table = nine_aces_table()
    table.card("AS")
    op = table.do(pb.deal_card(table.state, Card.parse("2H"), CardSource.KEYED))
    assert op == CardDealt(coup=2, hand=Hand.PLAYER, card=Card.parse("2H"),
                           source=CardSource.KEYED)
    assert table.state.pending is None
    assert table.state.player_cards == (AS, Card.parse("2H"))
    assert table.state.shoe is not None and table.state.shoe.remaining_of(AS) == 0
    assert pb.next_step(table.state) == "Banker's second card"
    table.cards("KD")  # player 3, banker 1: both draw
    table.cards("5C", "6C")
    settled = table.confirm()
    assert (settled.result.player_total, settled.result.banker_total) == (8, 7)


def test_queried_card_accepted_by_an_inspector():
    # rule 2.8 (disputes attended to on merit): an inspector's override is recorded by name
    table = nine_aces_table()
    table.card("AS")
    assert str(refused(pb.accept_queried_card, table.state, "  ")) == (
        "An inspector must accept a card the shoe cannot hold")
    op = table.do(pb.accept_queried_card(table.state, " Inspector Dlamini "))
    assert op == CardDealt(coup=2, hand=Hand.PLAYER, card=AS, source=CardSource.OVERRIDE,
                           by="Inspector Dlamini")
    assert table.state.pending is None
    assert table.state.shoe is not None and table.state.shoe.seen.get(AS) == 9
    assert pb.next_step(table.state) == "Banker's second card"


def test_void_coup_returns_every_bet():
    # a void coup: no settlement, every bet back to its area, the next coup starts clean
    table = nine_aces_table()
    table.card("AS")
    before = table.state
    assert before.total_staked == 11_000
    assert str(refused(pb.void_round, table.state, " ")) == "Say why the coup is void"
    op = table.do(pb.void_round(table.state, " foreign card in the shoe ", by="pit boss"))
    assert op == pb.CoupVoided(coup=2, reason="foreign card in the shoe", by="pit boss")
    after = table.state
    assert after.coup == 3
    assert after.phase is Phase.BETTING
    assert after.bets == () and after.player_cards == () and after.banker_cards == ()
    assert after.pending is None
    assert after.last_settled == before.last_settled  # coup 1's settlement, no other
    assert after.results == before.results
    assert [o.coup for o in table.journal if isinstance(o, pb.CoupSettled)] == [1]
    assert after.shoe is not None and after.shoe.seen.get(AS) == 8  # the dealt cards stay out
    assert str(refused(pb.void_round, after, "why")) == "There is no coup in play to void"


def test_unread_card_then_keyed_card():
    # rule 5.2: the unread card is the card that was due; the dealer keys it in
    table = betting_table().bet("1", "banker", 5_000).close().cards("2H")
    op = table.do(pb.unread_card(table.state))
    assert op == pb.CardUnread(coup=1, hand=Hand.BANKER)
    assert pb.next_step(table.state) == "Key in the unread Banker card"
    assert str(refused(pb.shoe_card, table.state, Card.parse("3S"))) == (
        "First resolve the unread card for the banker")
    assert str(refused(pb.accept_queried_card, table.state, "Inspector")) == (
        "There is no queried card to accept")
    assert not pb.can_deal_card(table.state, Card.parse("3S"))
    assert pb.can_deal_card(table.state, Card.parse("3S"), CardSource.KEYED)
    keyed = table.do(pb.deal_card(table.state, Card.parse("3S"), CardSource.KEYED))
    assert keyed == CardDealt(coup=1, hand=Hand.BANKER, card=Card.parse("3S"),
                              source=CardSource.KEYED)
    assert table.state.pending is None
    assert table.state.banker_cards == (Card.parse("3S"),)
    assert pb.next_step(table.state) == "Player's second card"
    table.cards("4D", "4C")
    assert pb.next_step(table.state) == "Coup complete: Banker wins 7 to 6. Pay and confirm"


def test_cut_card_ends_the_shoe():
    # rule 5.5: the shoe is shuffled before the first cards of the next shoe are dealt
    table = betting_table().bet("1", "banker", 5_000).close().cards("2H", "3S")
    table.do(pb.cut_card_out(table.state))
    assert table.state.cut_card_out is True
    table.cards("4D", "4C")
    table.confirm()
    state = table.state
    assert state.shoe is None
    assert state.cut_card_out is False
    assert state.results != ()
    assert pb.next_step(state) == "Shuffle and load a new shoe"
    table.bet("1", "player", 5_000)  # bets may go down while the shoe is shuffled
    err = refused(pb.close_betting, table.state)
    assert err.clause == "5.5"
    assert str(err) == "Shuffle and load the shoe before dealing (rule 5.5)"
    table.shuffle("shuffler")
    assert table.state.shoe == pb.ShoeContents(8)
    assert table.state.results == ()  # a new shoe starts new roads
    assert pb.next_step(table.state) == "Place your bets"
    table.close()
    assert table.state.phase is Phase.DEALING


def test_burn_cards():
    # rule 5.5: cards burned after the shuffle, before the coup; never in the middle of one
    table = betting_table()
    table.do(pb.burn(table.state, Card.parse("KH")))
    table.do(pb.burn(table.state, None))
    assert table.state.burned == 2
    assert table.state.shoe is not None and table.state.shoe.dealt == 1
    table.bet("1", "banker", 5_000).close().cards("2H")
    assert str(refused(pb.burn, table.state, None)) == ("A card cannot be burned in the "
                                                        "middle of a coup")


def test_next_step_through_a_six_card_coup():
    # rule 5.2: the Palette Person's instructions, in the deal order and by the drawing table
    table = Table()
    steps = [pb.next_step(table.state)]
    table.shuffle()
    steps.append(pb.next_step(table.state))
    table.bet("1", "banker", 5_000).close()
    for code in ("2C", "4S", "3H", "KH", "7D", "3C"):
        steps.append(pb.next_step(table.state))
        table.cards(code)
    steps.append(pb.next_step(table.state))
    table.confirm()
    steps.append(pb.next_step(table.state))
    assert steps == [
        "Shuffle and load a new shoe",
        "Place your bets",
        "Player's first card",
        "Banker's first card",
        "Player's second card",
        "Banker's second card",
        "Player draws",
        "Banker draws",
        "Coup complete: Banker wins 7 to 2. Pay and confirm",
        "Place your bets",
    ]


def test_next_step_banker_wins_7_to_6():
    # rule 5.2 / 5.7
    table = betting_table().bet("1", "banker", 5_000).close().cards("2H", "3S", "4D", "4C")
    assert pb.next_step(table.state) == "Coup complete: Banker wins 7 to 6. Pay and confirm"


def test_no_payout_until_confirmed():
    # rule 5.7: the settlement shown is the one journaled; nothing moves until CoupSettled
    table = betting_table().bet("1", "banker", 5_100).close().cards("2H", "3S", "4D", "4C")
    shown = pb.settlement(table.state)
    assert table.state.last_settled is None
    settled = table.confirm()
    assert settled.settlements == shown
    assert table.state.last_settled == settled
    assert table.state.coup == 2


# --- The journal codec -------------------------------------------------------------------------


def punto_banco_operation_kinds() -> set[str]:
    return {cls.kind for cls in vars(pb).values()
            if isinstance(cls, type) and issubclass(cls, Operation) and cls.kind}


def every_kind_of_journal() -> list[list[Operation]]:
    """Journals holding every kind of punto banco Operation."""
    journals = [replay(load(name))[1].journal for name in sorted(REQUIRED_GOLDEN)]
    for resolve in ("keyed", "override", "void"):
        table = nine_aces_table()
        table.card("AS")  # queried
        if resolve == "keyed":
            table.do(pb.deal_card(table.state, Card.parse("2H"), CardSource.KEYED))
        elif resolve == "override":
            table.do(pb.accept_queried_card(table.state, "Inspector Dlamini"))
        else:
            table.do(pb.void_round(table.state, "foreign card", by="pit boss"))
        journals.append(table.journal)
    table = betting_table(commission_mode=CommissionMode.COMMISSION)
    table.do(pb.burn(table.state, Card.parse("TD")))
    table.do(pb.burn(table.state, None))
    table.bet("1", "banker", 8_000)
    table.do(pb.remove_bet(table.state, "1", BetKind.BANKER, 3_000))
    table.close().cards("2H")
    table.do(pb.unread_card(table.state))
    table.do(pb.deal_card(table.state, Card.parse("3S"), CardSource.KEYED))
    table.do(pb.cut_card_out(table.state))
    table.cards("4D", "4C")
    table.confirm()
    table.do(pb.collect_commission(table.state, "1"))
    table.shuffle("shuffler")
    journals.append(table.journal)
    return journals


def test_every_operation_round_trips_through_json():
    # docs/architecture.md: Operations are the journal, the sync payload and the replay input
    ops: list[Operation] = [op for journal in every_kind_of_journal() for op in journal]
    for op in ops:
        text = json.dumps(op.to_payload())
        back = operation_from_record(op.kind, json.loads(text))
        assert back == op
        assert type(back) is type(op)
    assert punto_banco_operation_kinds() <= {op.kind for op in ops}


def test_operation_codec_keeps_fractions_and_cards_exact():
    # rule 5.7: 19:20 and 5% are exact ratios in the journal, never floats
    op = pb.CommissionCollected(area="1", owed=Fraction(969, 2), collected=500,
                                rounding=Fraction(-31, 2))
    assert op.to_payload() == {"area": "1", "owed": "969/2", "collected": 500,
                               "rounding": "-31/2"}
    dealt = CardDealt(coup=3, hand=Hand.BANKER, card=Card.parse("QH"))
    assert dealt.to_payload() == {"coup": 3, "hand": "banker", "card": "QH", "source": "shoe",
                                  "by": ""}
    assert operation_from_record("punto_banco.card_dealt",
                                 {"coup": 3, "hand": "banker", "card": "QH"}) == dealt


def test_operation_codec_refuses_bad_records():
    # docs/architecture.md: a corrupt record is unreadable input, not a crash
    with pytest.raises(UnreadableInput):
        operation_from_record("no_such_kind", {})
    with pytest.raises(UnreadableInput):
        operation_from_record("punto_banco.card_dealt", {"coup": 1, "hand": "banker", "card": "ZZ"})
    with pytest.raises(UnreadableInput):
        operation_from_record("punto_banco.bet_placed", {"coup": 1, "area": "1", "bet": "banker",
                                             "amount": 50.0})
    with pytest.raises(UnreadableInput):
        operation_from_record("punto_banco.bet_placed", {"coup": 1, "area": "1", "bet": "banker"})
    with pytest.raises(TypeError):
        pb.BetPlaced(coup=1, area="1", bet=BetKind.BANKER, amount=50.0).to_payload()  # type: ignore[arg-type]


def test_table_opened_fold_restarts_from_the_rules():
    # docs/architecture.md: state is a fold over the journal, starting from TableOpened
    table = betting_table(commission_mode=CommissionMode.COMMISSION)
    table.bet("1", "banker", 5_000)
    journal = [roundtrip(op) for op in table.journal]
    assert isinstance(journal[0], pb.TableOpened)
    other = pb.initial_state(PuntoBancoRules(decks=1), "elsewhere")
    state = other
    for op in journal:
        state = pb.apply(state, op)
    assert state == table.state
    assert dataclasses.replace(state, bets=()) != table.state
