"""`legal_actions(state)` answers what the dealer may do now without probing every card, box
or amount; at every state of the golden journals it agrees with the `can_` queries asked
one by one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.replay import load_entries
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.cards import deck
from kiosk.rules.operations import operation_from_record
from kiosk.table.fold import EMPTY, step

GOLDEN = Path(__file__).parents[1] / "golden_journals"
CARDS = list(deck())


def states(name: str) -> Iterator[Any]:
    folded = EMPTY
    for e in load_entries(GOLDEN / f"{name}.jsonl"):
        folded = step(folded, operation_from_record(e.kind, e.payload), e.seq)
        yield folded.state


def test_punto_banco_legal_actions_agree_with_the_queries() -> None:
    seen: set[str] = set()
    for state in states("pb"):
        legal = pb.legal_actions(state)
        seen |= legal
        rules = state.rules
        assert ("deal_card" in legal) == any(
            pb.can_deal_card(state, c, pb.CardSource.KEYED) for c in CARDS)
        assert ("place_bet" in legal) == any(
            pb.can_place_bet(state, area, kind, amount)
            for area in rules.area_ids() for kind in pb.BetKind
            for amount in (rules.limit(kind).minimum, rules.chips.smallest_chip))
        assert ("close_betting" in legal) == pb.can_close_betting(state)
        assert ("confirm_payouts" in legal) == pb.can_confirm_payouts(state)
        assert ("void_round" in legal) == pb.can_void_round(state)
        assert ("shuffle" in legal) == pb.can_shuffle(state)
        assert ("collect_commission" in legal) == any(
            pb.can_collect_commission(state, area) for area in rules.area_ids())
    assert {"shuffle", "place_bet", "close_betting", "deal_card", "confirm_payouts",
            "void_round", "remove_bet"} <= seen


@pytest.mark.parametrize("name", ["bj", "t21", "bj_rules"])
def test_blackjack_legal_actions_agree_with_the_queries(name: str) -> None:
    seen: set[str] = set()
    for state in states(name):
        legal = bj.legal_actions(state)
        seen |= legal
        boxes = range(1, state.rules.boxes + 1)
        players = "ABCDE"
        assert ("deal_card" in legal) == any(
            bj.can_deal_card(state, c, bj.CardSource.KEYED) for c in CARDS)
        assert ("insure" in legal) == any(
            bj.can_insure(state, box, p) for box in boxes for p in players)
        assert ("take_even_money" in legal) == any(
            bj.can_take_even_money(state, box, p) for box in boxes for p in players)
        assert ("place_bet" in legal) == any(
            bj.can_place_bet(state, box, state.rules.minimum, p) for box in boxes
            for p in players)
        for act, can in (("stand", bj.can_stand), ("double", bj.can_double),
                         ("split", bj.can_split), ("surrender", bj.can_surrender),
                         ("pay_blackjack", bj.can_pay_blackjack),
                         ("close_betting", bj.can_close_betting),
                         ("confirm_payouts", bj.can_confirm_payouts),
                         ("void_round", bj.can_void_round), ("shuffle", bj.can_shuffle),
                         ("set_aside_card", bj.can_set_aside_card),
                         ("close_insurance", bj.can_close_insurance)):
            assert (act in legal) == can(state), (act, bj.next_step(state))
    assert {"stand", "place_bet", "close_betting", "deal_card", "confirm_payouts"} <= seen
    if name == "bj_rules":  # the hand-written rounds cover every decision
        assert {"double", "split", "surrender", "insure", "take_even_money",
                "pay_blackjack", "close_insurance"} <= seen


def test_pai_gow_legal_actions_agree_with_the_queries() -> None:
    from kiosk.rules.paigow import engine as pg
    from kiosk.rules.paigow.tiles import too_many

    seen: set[str] = set()
    tiles = pg.parse_tiles("66 45 55 16")
    for state in states("pg"):
        if not isinstance(state, pg.PaiGowState):
            continue
        legal = pg.legal_actions(state)
        seen |= legal
        areas = range(1, state.rules.areas + 1)
        assert ("place_bet" in legal) == any(
            pg.can_place_bet(state, a, state.rules.minimum) for a in areas)
        assert ("remove_bet" in legal) == any(pg.can_remove_bet(state, a) for a in areas)
        assert ("take_bank" in legal) == (pg.can_take_bank(state, pg.Bank.HOUSE, 1, 0) or any(
            pg.can_take_bank(state, pg.Bank.PLAYER, a, state.rules.minimum) for a in areas))
        assert ("set_hand" in legal) == (state.phase is pg.Phase.SETTING
                                         and state.to_set is not None)
        assert ("set_bank" in legal) == (state.phase is pg.Phase.SETTING
                                         and state.to_set is None)
        if "set_hand" in legal or "set_bank" in legal:
            # set when the four tiles are still in the set; refused out of its turn
            free = pg.can_set_hand(state, state.to_set or 0, tiles[:2], tiles[2:])
            assert free == ("set_hand" in legal
                            and too_many((*state.tiles_in_play, *tiles)) is None)
        for act, can in (("close_betting", pg.can_close_betting),
                         ("confirm_payouts", pg.can_confirm_payouts),
                         ("shuffle", pg.can_shuffle)):
            assert (act in legal) == can(state), (act, pg.next_step(state))
        assert ("void_round" in legal) == pg.can_void_round(state, "reason")
        assert ("confirm_house_way" in legal) == pg.can_confirm_house_way(state, "Thandi")
        assert ("unset_hand" in legal) == any(pg.can_unset_hand(state, a) for a in areas)
    assert {"shuffle", "take_bank", "place_bet", "remove_bet", "close_betting", "set_hand",
            "set_bank", "confirm_house_way", "confirm_payouts", "void_round"} <= seen


@pytest.mark.parametrize("name", ["mb_transfer", "mb_replace", "mb_terminate", "mb_shoe"])
def test_mini_baccarat_legal_actions_agree_with_the_queries(name: str) -> None:
    """While the shuffler malfunction stops the coup, only the procedure's step (rules
    12.1-12.5); otherwise punto banco's acts and the malfunction button while dealing."""
    from kiosk.rules.mini_baccarat import engine as mb

    someone = mb.inspector("", "1")
    seen: set[str] = set()
    for state in states(name):
        if not isinstance(state, mb.MiniBaccaratState):
            continue
        legal = mb.legal_actions(state)
        seen |= legal
        assert ("deal_card" in legal) == any(
            mb.can_deal_card(state, c, mb.CardSource.KEYED) for c in CARDS)
        assert ("void_round" in legal) == mb.can_void_round(state, "a reason")
        assert ("confirm_payouts" in legal) == mb.can_confirm_payouts(state)
        assert ("shuffler_malfunction" in legal) == mb.can_shuffler_malfunction(
            state, "", mb.DEALER)
        assert ("establish_fact" in legal) == any(
            mb.can_establish_fact(state, f, a, someone) for f in mb.Fact for a in (True, False))
        for act, can in (("transfer_cards", mb.can_transfer_cards),
                         ("replace_damaged_cards", mb.can_replace_damaged_cards),
                         ("terminate_coup", mb.can_terminate_coup),
                         ("reshuffle_cards", mb.can_reshuffle_cards),
                         ("continue_coup", mb.can_continue_coup)):
            assert (act in legal) == can(state, mb.DEALER), (act, mb.next_step(state))
        assert ("offer_wager_back" in legal) == any(
            mb.can_offer_wager_back(state, a, True, mb.DEALER) for a in state.rules.area_ids())
        assert ("refuse_cut" in legal) == any(
            mb.can_refuse_cut(state, n) for n in range(1, 10))
    assert {"place_bet", "close_betting", "confirm_payouts", "shuffler_malfunction",
            "establish_fact"} <= seen
