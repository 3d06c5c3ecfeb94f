"""The three banking procedures of section 13, worked by hand: every step in the order of the
text, each payment with its source, and money conserved.

Table: wagers R10 to R1,000, the smallest chip R1, rounded the house's way (commission, 5%,
rounds up to a whole chip; a player/banker's half of an odd excess rounds down)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import event, given, settings, strategies as st

from kiosk.rules.audit import ReplayReport
from kiosk.rules.errors import NotAllowed
from kiosk.rules.operations import operation_from_record
from kiosk.rules.paigow import engine as pg
from kiosk.rules.paigow.audit import audit
from kiosk.rules.paigow.operations import Move, Place
from kiosk.rules.paigow.tiles import SET
from tests.rules.paigow.rounds import Table, play

B = pg.Bank
LOSE, WIN, STANDOFF = ("33 23", "56 36"), ("66 66", "11 45"), ("55 55", "16 35")
BANK = "44 46 13 22"  # the house way: 44 46 | 13 22, 8 (yun) / 8 (gor)


def steps(settled: pg.Settled) -> list[tuple[Any, ...]]:
    return [(s.clause, s.move.value, s.area, s.amount, s.source.value, s.to.value)
            for s in settled.steps]


def results(settled: pg.Settled) -> list[tuple[int, str, int]]:
    return [(a.area, a.result.value, a.net) for a in settled.areas]


def balanced(settled: pg.Settled) -> dict[str, int]:
    ledger = pg.ledger(settled.steps)
    assert sum(ledger.values()) == 0
    for pool in (Place.LOSING, Place.BANKER_WAGER, Place.COBANK_WAGER):
        assert ledger.get(pool.value, 0) == 0, pool
    for a in settled.areas:
        assert ledger.get(f"area {a.area}", 0) == a.net
    return {k: v for k, v in ledger.items() if v}


def test_house_banks_13_1() -> None:
    """13.1: the chung on area one; the House hand set the house way after the players' and
    confirmed (13.1.5); exposed first (13.1.3); losing wagers to the float (13.1.7); winners
    paid from it counter clockwise from area one (13.1.8); the stand-off's wager stays."""
    t = Table()
    settled = play(t, bets=[(4, 3_000), (2, 1_000), (3, 2_000)], bank_tiles="56 15 34 26",
                   hands={2: ("66 45", "55 16"), 3: ("33 35", "22 25"), 4: ("11 11", "46 13")})
    assert (settled.bank, settled.chung) == (B.HOUSE, 1)
    assert [t.code for t in (*settled.bank_high, *settled.bank_low)] == ["56", "15", "26", "34"]
    assert results(settled) == [(2, "win", 900), (3, "lose", -2_000), (4, "stand-off", 0)]
    assert steps(settled) == [
        ("13.1.3", "expose", 1, 0, "", ""),
        ("13.1.7", "lose", 3, 2_000, "player", "float"),
        ("13.1.8", "pay", 2, 1_000, "float", "player"),
        ("14.1", "commission", 2, 100, "player", "commission"),  # 5% of R10 = 50c: R1
        ("13.1.9", "stand-off", 4, 0, "", ""),
    ]
    assert balanced(settled) == {"area 2": 900, "area 3": -2_000, "house": 1_100}
    assert t.state.round == 2 and t.state.last == ("7 (foo) / 5 (chop bot)",)


def test_player_banker_pays_from_the_losing_wagers_then_takes_the_rest_less_commission(
        ) -> None:
    """13.2: the chung on the banker's area 2; matched counter clockwise from it (3, 5, 6);
    losers to the losing wager area (13.2.6), winners paid from it (13.2.7), the remainder
    to the player/banker less 5% (14.2), the banker's wager back."""
    t = Table()
    settled = play(t, bank=(B.PLAYER, 2, 10_000), bank_tiles=BANK, bank_high="44 46",
                   bets=[(6, 2_000), (5, 1_000), (3, 4_000)],
                   hands={3: LOSE, 5: WIN, 6: STANDOFF})
    assert results(settled) == [(3, "lose", -4_000), (5, "win", 900), (6, "stand-off", 0)]
    assert steps(settled) == [
        ("13.2.2", "wager", 2, 10_000, "player/banker", "banker's wager"),
        ("13.2.4", "expose", 2, 0, "", ""),
        ("13.2.6", "lose", 3, 4_000, "player", "losing wager area"),
        ("13.2.7", "pay", 5, 1_000, "losing wager area", "player"),
        ("14.1", "commission", 5, 100, "player", "commission"),
        ("13.2.9", "stand-off", 6, 0, "", ""),
        ("13.2.7", "remainder", 2, 3_000, "losing wager area", "player/banker"),
        ("14.2", "commission", 2, 200, "player/banker", "commission"),  # 5% of R30 = R1.50
        ("13.2.8", "return", 2, 10_000, "banker's wager", "player/banker"),
    ]
    assert balanced(settled) == {"area 3": -4_000, "area 5": 900, "player/banker": 2_800,
                                 "house": 300}


def test_a_shortfall_is_taken_from_the_player_bankers_wager_13_2_8() -> None:
    """Banker on area 3 with R50 covering R50 declared: area 4 loses R10 into the losing
    wager area; area 5 (R30) is paid R10 from it and R20 from the banker's wager, then area 1
    (R10, after 7 counter clockwise) all from the banker's wager; R20 of it goes back."""
    t = Table()
    settled = play(t, bank=(B.PLAYER, 3, 5_000), bank_tiles=BANK, bank_high="44 46",
                   bets=[(1, 1_000), (4, 1_000), (5, 3_000)],
                   hands={4: LOSE, 5: WIN, 1: ("24 12", "15 15")})
    assert [a.area for a in settled.areas] == [4, 5, 1]  # counter clockwise from the chung
    assert results(settled) == [(4, "lose", -1_000), (5, "win", 2_800), (1, "win", 900)]
    assert steps(settled) == [
        ("13.2.2", "wager", 3, 5_000, "player/banker", "banker's wager"),
        ("13.2.4", "expose", 3, 0, "", ""),
        ("13.2.6", "lose", 4, 1_000, "player", "losing wager area"),
        ("13.2.7", "pay", 5, 1_000, "losing wager area", "player"),
        ("13.2.8", "shortfall", 5, 2_000, "banker's wager", "player"),
        ("14.1", "commission", 5, 200, "player", "commission"),  # 5% of R30 = R1.50: R2
        ("13.2.8", "shortfall", 1, 1_000, "banker's wager", "player"),
        ("14.1", "commission", 1, 100, "player", "commission"),
        ("13.2.8", "return", 3, 2_000, "banker's wager", "player/banker"),
    ]
    assert balanced(settled) == {"area 4": -1_000, "area 5": 2_800, "area 1": 900,
                                 "player/banker": -3_000, "house": 300}


def test_a_failed_cover_falls_to_the_co_bank_13_2_2() -> None:
    """Banker on area 5 with R30 against R50 declared: 13.2.2 sends the round to 13.3; R30 is
    50% of R50 or more (13.3.1), so the House co-banks with R30 from the float (13.3.2), the
    co-banking hands are set the house way (13.3.4); area 2's win takes the losing wager area
    (R20) and R10 of the co-bank wager (13.3.11), whose R50 left is halved."""
    t = Table()
    t.do(pg.shuffle(t.state))
    t.do(pg.take_bank(t.state, B.PLAYER, 5, 3_000))
    t.do(pg.place_bet(t.state, 1, 2_000))
    t.do(pg.place_bet(t.state, 2, 3_000))
    closed = pg.close_betting(t.state)
    assert closed.bank is B.COBANK
    assert closed.reason == ("the player/banker's R30 does not cover the R50 declared "
                             "(rule 13.2.2): co-bank (rule 13.3)")
    t.do(closed)
    assert t.state.fell_to_cobank and str(pg.next_step(t.state)).startswith("Area 1:")
    for area, (high, low) in ((1, LOSE), (2, WIN)):
        t.do(pg.set_hand(t.state, area, pg.parse_tiles(high), pg.parse_tiles(low)))
    with pytest.raises(NotAllowed, match=r"co-banking hands are set the house way: 44 46 \| "
                                         r"13 22 \(rule 13.3.4\)"):
        pg.set_bank(t.state, pg.parse_tiles(BANK), pg.parse_tiles("46 22"))
    t.do(pg.set_bank(t.state, pg.parse_tiles(BANK)))
    assert t.state.phase is pg.Phase.REVEAL  # no supervisor's confirmation under 13.3
    settled = pg.confirm_payouts(t.state)
    assert results(settled) == [(1, "lose", -2_000), (2, "win", 2_800)]
    assert steps(settled) == [
        ("13.3.2", "wager", 5, 3_000, "player/banker", "co-bank wager"),
        ("13.3.2", "wager", 5, 3_000, "float", "co-bank wager"),
        ("13.3.3", "expose", 5, 0, "", ""),
        ("13.3.6", "lose", 1, 2_000, "player", "losing wager area"),
        ("13.3.7", "pay", 2, 2_000, "losing wager area", "player"),
        ("13.3.11", "shortfall", 2, 1_000, "co-bank wager", "player"),
        ("14.1", "commission", 2, 200, "player", "commission"),
        ("13.3.11", "split", 5, 2_500, "co-bank wager", "float"),
        ("13.3.11", "split", 5, 2_500, "co-bank wager", "player/banker"),
    ]
    assert balanced(settled) == {"area 1": -2_000, "area 2": 2_800, "player/banker": -500,
                                 "house": -300}


def test_a_cover_under_half_is_refused_13_3_1() -> None:
    t = Table()
    t.do(pg.shuffle(t.state))
    t.do(pg.take_bank(t.state, B.PLAYER, 5, 2_000))
    t.do(pg.place_bet(t.state, 1, 5_000))
    with pytest.raises(NotAllowed, match=r"The player/banker's R20 is under 50% of the "
                                         r"R50 wagered: not enough to co-bank \(rule 13.3.1"):
        pg.close_betting(t.state)
    assert not pg.can_close_betting(t.state) and "close_betting" not in pg.legal_actions(t.state)


def test_a_co_bank_splits_an_odd_excess_by_the_chip_rule_13_3_9() -> None:
    """Co-bank on area 4, R20 each: area 1 loses R15, area 2 wins R10 from the losing wager
    area; the R5 excess is halved, R2.50 each, not whole chips: the player/banker's half
    rounds down to R2 (the house's chip rule), the House takes R3 (13.3.9); the House's R20
    goes back to the float, the player/banker's R20 to them, then their R2 less commission
    (5% of R2 = 10c, R1 by the rule) (13.3.10)."""
    t = Table()
    settled = play(t, bank=(B.COBANK, 4, 2_000), bank_tiles=BANK,
                   bets=[(1, 1_500), (2, 1_000)], hands={1: LOSE, 2: WIN})
    assert steps(settled) == [
        ("13.3.2", "wager", 4, 2_000, "player/banker", "co-bank wager"),
        ("13.3.2", "wager", 4, 2_000, "float", "co-bank wager"),
        ("13.3.3", "expose", 4, 0, "", ""),
        ("13.3.6", "lose", 1, 1_500, "player", "losing wager area"),
        ("13.3.7", "pay", 2, 1_000, "losing wager area", "player"),
        ("14.1", "commission", 2, 100, "player", "commission"),
        ("13.3.9", "split", 4, 300, "losing wager area", "float"),
        ("13.3.10", "return", 4, 2_000, "co-bank wager", "float"),
        ("13.3.10", "return", 4, 2_000, "co-bank wager", "player/banker"),
        ("13.3.10", "split", 4, 200, "losing wager area", "player/banker"),
        ("14.2", "commission", 4, 100, "player/banker", "commission"),
    ]
    assert balanced(settled) == {"area 1": -1_500, "area 2": 900, "player/banker": 100,
                                 "house": 500}


def test_the_order_of_the_text_is_kept() -> None:
    """No payment before every losing wager is picked up; the bank's hands exposed before any
    player's is matched; the remainder, the halves and the returns after every payment."""
    t = Table()
    settled = play(t, bank=(B.PLAYER, 2, 10_000), bank_tiles=BANK, bank_high="44 46",
                   bets=[(6, 2_000), (5, 1_000), (3, 4_000)],
                   hands={3: LOSE, 5: WIN, 6: STANDOFF})
    moves = [s.move for s in settled.steps]
    assert moves.index(Move.EXPOSE) < moves.index(Move.LOSE)
    assert max(i for i, m in enumerate(moves) if m is Move.LOSE) < moves.index(Move.PAY)
    assert moves.index(Move.REMAINDER) > max(i for i, m in enumerate(moves) if m is Move.PAY)


deals = st.permutations(range(32))
modes = st.sampled_from([(B.HOUSE, 1, 0), (B.PLAYER, 3, 20_000), (B.PLAYER, 6, 3_000),
                         (B.COBANK, 2, 5_000), (B.COBANK, 7, 1_500)])
wagers = st.lists(st.sampled_from([1_000, 1_500, 2_000, 5_000, 7_000]), min_size=1,
                  max_size=6)


@settings(max_examples=150, deadline=None)
@given(deals, modes, wagers, st.lists(st.integers(0, 2), min_size=7, max_size=7),
       st.sampled_from([100, 500]))
def test_money_is_conserved_across_players_banker_house_and_commission(
        order: list[int], mode: tuple[pg.Bank, int, int], amounts: list[int],
        ways: list[int], chip: int) -> None:
    from kiosk.rules.money import ChipRule
    from tests.rules.paigow.rounds import RULES

    t = Table(rules=pg.PaiGowRules(RULES.minimum, RULES.maximum, 7, chips=ChipRule(chip)))
    bank, chung, wager = mode
    areas = [a for a in range(1, 8) if a != chung][:len(amounts)]
    amounts = [a - a % chip for a in amounts]
    t.do(pg.shuffle(t.state))
    if bank is not B.HOUSE:
        t.do(pg.take_bank(t.state, bank, chung, wager))
    for area, amount in zip(areas, amounts, strict=False):
        t.do(pg.place_bet(t.state, area, amount))
    if not pg.can_close_betting(t.state):
        assert 2 * wager < t.state.declared  # 13.3.1: the only refusal here
        event("cover under 50%: refused")
        return
    t.do(pg.close_betting(t.state))
    tiles = [SET[i] for i in order]
    stacks = [tiles[i:i + 4] for i in range(0, 32, 4)]
    for n, area in enumerate(t.state.in_order()):
        options = pg.splits(stacks[n + 1])
        s = options[ways[n] % len(options)]  # each player sets as they please
        t.do(pg.set_hand(t.state, area, s.high.tiles, s.low.tiles))
    t.do(pg.set_bank(t.state, stacks[0]))
    if t.state.phase is pg.Phase.CONFIRM:
        t.do(pg.confirm_house_way(t.state, "Thandi"))
    settled = pg.confirm_payouts(t.state)
    event(f"settled, {t.state.bank.value}")
    ledger = balanced(settled)
    if t.state.bank is B.HOUSE:
        assert set(ledger) <= {f"area {a}" for a in areas} | {"house"}
    # the record reads back from the journal as it was written, and replay's audit
    # recomputes every step of it from the state before it
    assert operation_from_record(settled.kind, settled.to_payload()) == settled
    report = ReplayReport("property", True, "", 0)

    class Row:
        seq, wall_time, kind, payload = 1, "", settled.kind, settled.to_payload()

    audit(t.state, settled, Row(), report)
    assert report.rounds[0].differences == [] and report.rounds[0].outcome
    t.do(settled)
    assert t.state.phase is pg.Phase.BETTING and not t.state.bets
