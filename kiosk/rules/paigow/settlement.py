"""The three banking procedures of section 13, step by step in the order of the text.

`settle(state)` matches each wagered area against the bank's hands and returns every movement
of chips in order (`Step`); `ledger(steps)` sums them by party, and every settlement balances
(what the players win the bank, the House and the commission lose, and the other way round).

Readings where the text is silent (docs/paigow.md):

- Commission: 5% of each winning wager, taken as it is paid (the rules cite rule 14.1, not in
  this text), and 5% of what the player/banker takes from the losing wager area (14.2); each
  rounded by the house's chip rule as an amount owed to the House.
- The co-bankers' halves (13.3.9, 13.3.11): the player/banker's half is rounded by the chip
  rule as a payment to a player; the House takes the rest, so an odd chip goes by the rule.
- 13.2: what is left of the player/banker's wager after any shortfall goes back to them.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from kiosk.rules.paigow.hands import Result, Setting, hand, match
from kiosk.rules.paigow.operations import AreaResult, Bank, Move, Place, Step
from kiosk.rules.paigow.state import PaiGowState

_CLAUSES = {  # (house, player/banker, co-bank) clause of each move
    Move.WAGER: ("", "13.2.2", "13.3.2"),
    Move.EXPOSE: ("13.1.3", "13.2.4", "13.3.3"),
    Move.LOSE: ("13.1.7", "13.2.6", "13.3.6"),
    Move.PAY: ("13.1.8", "13.2.7", "13.3.7"),
    Move.SHORTFALL: ("", "13.2.8", "13.3.11"),
    Move.STANDOFF: ("13.1.9", "13.2.9", "13.3.8"),
}
_MODE = {Bank.HOUSE: 0, Bank.PLAYER: 1, Bank.COBANK: 2}


def bank_setting(state: PaiGowState) -> Setting:
    if state.bank_hand is None:
        raise ValueError("the bank's hands are not set")
    high, low = state.bank_hand
    return Setting(hand(*high), hand(*low))


def results(state: PaiGowState) -> tuple[AreaResult, ...]:
    """Each wagered area matched against the bank (13.1.6, 13.2.5, 13.3.5), in order; a win
    nets the wager less commission."""
    bank = bank_setting(state)
    out: list[AreaResult] = []
    for area in state.in_order():
        set_ = state.hand_of(area)
        if set_ is None:
            raise ValueError(f"area {area} has no hands set")
        high, low = set_
        result = match(Setting(hand(*high), hand(*low)), bank)
        wager = state.wager_of(area)
        net = {Result.WIN: wager - state.rules.commission(wager), Result.LOSE: -wager,
               Result.STANDOFF: 0}[result]
        out.append(AreaResult(area, wager, high, low, result, net))
    return tuple(out)


def settle(state: PaiGowState) -> tuple[tuple[AreaResult, ...], tuple[Step, ...]]:
    """The areas' results and the steps of the bank's procedure, in the order of the text."""
    areas = results(state)
    mode = _MODE[state.bank]
    steps: list[Step] = []
    chung = state.chung

    def step(move: Move, area: int, amount: int, source: Place, to: Place,
             clause: str = "") -> None:
        steps.append(Step(clause or _CLAUSES[move][mode], move, area, amount, source, to))

    rules = state.rules
    b = state.banker_wager
    if state.bank is Bank.PLAYER:
        step(Move.WAGER, chung, b, Place.BANKER, Place.BANKER_WAGER)
    elif state.bank is Bank.COBANK:
        step(Move.WAGER, chung, b, Place.BANKER, Place.COBANK_WAGER)  # 13.3.2
        step(Move.WAGER, chung, b, Place.FLOAT, Place.COBANK_WAGER)  # "an equivalent amount"
    step(Move.EXPOSE, chung, 0, Place.NONE, Place.NONE)
    pool = Place.FLOAT if state.bank is Bank.HOUSE else Place.LOSING
    for r in areas:
        if r.result is Result.LOSE:
            step(Move.LOSE, r.area, r.wager, Place.PLAYER, pool)
    losing = sum(r.wager for r in areas if r.result is Result.LOSE)
    reserve = {Bank.HOUSE: Place.FLOAT, Bank.PLAYER: Place.BANKER_WAGER,
               Bank.COBANK: Place.COBANK_WAGER}[state.bank]
    short = 0
    for r in areas:
        if r.result is Result.STANDOFF:
            step(Move.STANDOFF, r.area, 0, Place.NONE, Place.NONE)
        elif r.result is Result.WIN:
            if state.bank is Bank.HOUSE:
                step(Move.PAY, r.area, r.wager, Place.FLOAT, Place.PLAYER)
            else:
                from_pool = min(losing, r.wager)
                losing -= from_pool
                if from_pool:
                    step(Move.PAY, r.area, from_pool, Place.LOSING, Place.PLAYER)
                if r.wager > from_pool:
                    short += r.wager - from_pool
                    step(Move.SHORTFALL, r.area, r.wager - from_pool, reserve, Place.PLAYER)
            fee = rules.commission(r.wager)
            if fee:
                step(Move.COMMISSION, r.area, fee, Place.PLAYER, Place.COMMISSION, "14.1")
    if state.bank is Bank.PLAYER:
        if losing:
            step(Move.REMAINDER, chung, losing, Place.LOSING, Place.BANKER, "13.2.7")
            fee = rules.commission(losing)
            if fee:
                step(Move.COMMISSION, chung, fee, Place.BANKER, Place.COMMISSION, "14.2")
        if b - short:
            step(Move.RETURN, chung, b - short, Place.BANKER_WAGER, Place.BANKER, "13.2.8")
    elif state.bank is Bank.COBANK:
        if not short:  # 13.3.9, 13.3.10: the excess halved, the original wagers returned
            banker_half = rules.chips.round_payout(Fraction(losing, 2))
            house_half = losing - banker_half
            if house_half:
                step(Move.SPLIT, chung, house_half, Place.LOSING, Place.FLOAT, "13.3.9")
            step(Move.RETURN, chung, b, Place.COBANK_WAGER, Place.FLOAT, "13.3.10")
            step(Move.RETURN, chung, b, Place.COBANK_WAGER, Place.BANKER, "13.3.10")
            if banker_half:
                step(Move.SPLIT, chung, banker_half, Place.LOSING, Place.BANKER, "13.3.10")
                fee = rules.commission(banker_half)
                if fee:
                    step(Move.COMMISSION, chung, fee, Place.BANKER, Place.COMMISSION, "14.2")
        else:  # 13.3.11: what is left of the co-bank wager halved
            left = 2 * b - short
            banker_half = rules.chips.round_payout(Fraction(left, 2))
            if left - banker_half:
                step(Move.SPLIT, chung, left - banker_half, Place.COBANK_WAGER, Place.FLOAT,
                     "13.3.11")
            if banker_half:
                step(Move.SPLIT, chung, banker_half, Place.COBANK_WAGER, Place.BANKER,
                     "13.3.11")
    return areas, tuple(steps)


def ledger(steps: tuple[Step, ...]) -> dict[str, int]:
    """Each party's net from the steps: "area N" for each player, "player/banker", "house"
    (the float and the commission), and the pools, which a settlement leaves at 0."""
    out: Counter[str] = Counter()

    def party(place: Place, area: int) -> str:
        if place is Place.PLAYER:
            return f"area {area}"
        if place in (Place.FLOAT, Place.COMMISSION):
            return "house"
        return place.value

    for s in steps:
        if s.amount:
            out[party(s.source, s.area)] -= s.amount
            out[party(s.to, s.area)] += s.amount
    return dict(out)
