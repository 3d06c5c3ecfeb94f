"""Replay audit of pai gow (rule 2.8): every settled round recomputed from the hands on the
journal, step by step in the order of its bank's procedure, each payment with its source."""

from __future__ import annotations

from typing import Any

from kiosk.rules.amounts import format_money
from kiosk.rules.audit import ReplayReport, RoundReplay, Row
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import encode
from kiosk.rules.paigow.hands import hand
from kiosk.rules.paigow.operations import AreaResult, Bank, Pair, Settled, Voided
from kiosk.rules.paigow.settlement import settle
from kiosk.rules.paigow.state import PaiGowState

BANKER = {Bank.HOUSE: "house", Bank.PLAYER: "banker", Bank.COBANK: "co-bank"}


def _codes(high: Pair, low: Pair) -> list[str]:
    return [t.code for t in (*high, *low)]


def _hands(state: PaiGowState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if state.bank_hand is not None:
        out[f"{BANKER[state.bank]} (area {state.chung})"] = _codes(*state.bank_hand)
    for area, high, low in sorted(state.hands):
        out[f"area {area}"] = _codes(high, low)
    return out


def outcome(bank: Bank, chung: int, high: Pair, low: Pair, areas: tuple[AreaResult, ...],
            currency: str) -> str:
    """"house area 1 gong / 5: area 2 win +R9; area 3 lose -R20": the bank's hands, then each
    area's result and net, in the order of the procedure."""
    def net(cents: int) -> str:
        return ("+" if cents >= 0 else "-") + format_money(abs(cents), currency)
    bank_words = f"{BANKER[bank]} area {chung} {hand(*high).words} / {hand(*low).words}"
    return bank_words + ": " + ("; ".join(
        f"area {a.area} {a.result.value} {net(a.net)}" for a in areas) or "no wager")


def audit(state: PaiGowState, op: Any, row: Row, report: ReplayReport) -> None:
    if isinstance(op, Voided):
        report.rounds.append(RoundReplay(op.round, "voided", row.seq, row.wall_time,
                                       hands=_hands(state), reason=op.reason,
                                       outcome=f"voided: {op.reason}"))
    elif isinstance(op, Settled):
        report.rounds.append(_audit_settlement(state, op, row))


def _audit_settlement(state: PaiGowState, op: Settled, row: Row) -> RoundReplay:
    out = RoundReplay(op.round, "settled", row.seq, row.wall_time, hands=_hands(state))
    currency = state.rules.currency
    out.outcome = outcome(op.bank, op.chung, op.bank_high, op.bank_low, op.areas, currency)
    if op.round != state.round:
        out.differences.append(f"recorded as round {op.round}, but the journal is at round "
                               f"{state.round}")
    try:
        areas, steps = settle(state)
    except (TablesideError, ValueError) as exc:
        out.differences.append(f"settled although {exc}")
        out.settlements = [encode(s) for s in op.steps]
        return out
    out.result = {"bank": state.bank.value, "chung": state.chung,
                  "bank_hands": _codes(*state.bank_hand) if state.bank_hand else []}
    out.settlements = [encode(s) for s in steps]
    if (op.bank, op.chung, op.banker_wager) != (state.bank, state.chung, state.banker_wager):
        out.differences.append(f"bank recorded {op.bank.value} at area {op.chung} with "
                               f"{op.banker_wager}, the journal says {state.bank.value} at "
                               f"area {state.chung} with {state.banker_wager}")
    if state.bank_hand is not None and (op.bank_high, op.bank_low) != state.bank_hand:
        out.differences.append("the bank's hands recorded differ from those set")
    if op.areas != areas:
        out.differences.append("results recorded " + "; ".join(
            f"area {a.area} {a.result.value} {a.net}" for a in op.areas) + ", recomputed "
            + "; ".join(f"area {a.area} {a.result.value} {a.net}" for a in areas))
    if op.steps != steps:
        for i, (was, again) in enumerate(zip(op.steps, steps, strict=False)):
            if was != again:
                out.differences.append(f"step {i + 1}: recorded {encode(was)}, recomputed "
                                       f"{encode(again)}")
                break
        if len(op.steps) != len(steps):
            out.differences.append(f"{len(op.steps)} steps recorded, {len(steps)} "
                                   f"recomputed")
    return out


# The round drawn for the pit's round page (docs/adding-a-game.md, "Drawing a round for the
# pit"): each area's tiles with its high and low hands in words and its result, the bank's
# hands as the house way set them, every wager, and every payment with its source in the
# order of the bank's procedure. (Its imports are here, apart from the audit's.)

from kiosk.rules.audit import BetDrawn, HandDrawn, RoundDrawing, StepDrawn  # noqa: E402
from kiosk.rules.paigow.hands import Result  # noqa: E402
from kiosk.rules.paigow.houseway import house_way  # noqa: E402
from kiosk.rules.paigow.operations import Move, Place, Step  # noqa: E402

_RESULT_NOTE = {Result.WIN: "wins", Result.LOSE: "loses", Result.STANDOFF: "stand-off"}


def audit_and_draw(state: PaiGowState, op: Any, row: Row, report: ReplayReport) -> None:
    """`audit`, each round it recomputes drawn for the pit (`draw`) from the same state."""
    before = len(report.rounds)
    audit(state, op, row, report)
    for coup in report.rounds[before:]:
        coup.drawing = draw(state, coup)


def _to_the_cent(cents: int, currency: str) -> str:
    """"R5.00": as the pit's page writes every amount."""
    return f"{currency}{cents // 100:,}.{cents % 100:02d}"


def _hand_words(high: Pair, low: Pair) -> str:
    return f"high {hand(*high).words} / low {hand(*low).words}"


def _place(place: Place, area: int) -> str:
    return f"player at area {area}" if place is Place.PLAYER else place.value


def step_words(step: Step) -> str:
    """One step of a settlement as an inspector reads it, with where its chips come from and
    go to: "area 2 wins: paid from the float to the player at area 2"."""
    src, to, area = _place(step.source, step.area), _place(step.to, step.area), step.area
    words = {
        Move.WAGER: f"the {src} puts up the {to}",
        Move.EXPOSE: f"the bank's hands exposed at area {area}",
        Move.LOSE: f"area {area} loses: its wager to the {to}",
        Move.PAY: f"area {area} wins: paid from the {src} to the {to}",
        Move.SHORTFALL: f"area {area}: the rest of its payment from the {src}",
        Move.COMMISSION: f"commission from the {src}",
        Move.STANDOFF: f"area {area} stand-off: its wager remains",
        Move.REMAINDER: f"the rest of the {src} to the {to}",
        Move.SPLIT: f"the {src} shared: to the {to}",
        Move.RETURN: f"the {src} returned to the {to}",
    }
    return words.get(step.move, f"{step.move.value}: from the {src} to the {to}")


def _banker_bet(state: PaiGowState, steps: tuple[Step, ...]) -> BetDrawn | None:
    """The player/banker's wager (13.2, 13.3) as a bet: what it put up, what came back."""
    if state.bank is Bank.HOUSE:
        return None
    stake = sum(s.amount for s in steps if s.move is Move.WAGER and s.source is Place.BANKER)
    back = (sum(s.amount for s in steps if s.to is Place.BANKER)
            - sum(s.amount for s in steps if s.source is Place.BANKER
                  and s.move is not Move.WAGER))
    outcome = "win" if back > stake else "lose" if back < stake else "stand-off"
    commission = sum(s.amount for s in steps
                     if s.move is Move.COMMISSION and s.source is Place.BANKER)
    detail = (f"commission {_to_the_cent(commission, state.rules.currency)}"
              if commission else "")
    return BetDrawn(_banker_place(state), stake, outcome, max(back - stake, 0), back, detail)


def _banker_place(state: PaiGowState) -> str:
    wager = Place.COBANK_WAGER if state.bank is Bank.COBANK else Place.BANKER_WAGER
    return f"player/banker at area {state.chung}, {wager.value}"


def draw(state: PaiGowState, coup: RoundReplay) -> RoundDrawing:
    """The round for an inspector from the state the audit saw: the bank's hands (set the
    house way, and why), each area's tiles, hands and result, every wager with what came back
    and every step of the settlement with its source; a void's wagers all handed back."""
    currency = state.rules.currency
    bank_name = f"{BANKER[state.bank]} (area {state.chung})"
    results: dict[int, AreaResult] = {}
    if coup.status == "settled":
        try:
            areas, steps = settle(state)
            results = {a.area: a for a in areas}
        except (TablesideError, ValueError):
            areas, steps = (), ()
    else:
        areas, steps = (), ()
    hands: list[HandDrawn] = []
    if state.bank_hand is not None:
        high, low = state.bank_hand
        by_way = hand(*high) == house_way((*high, *low), state.rules.house_way).setting.high
        note = (f"set the house way: {state.bank_why}" if by_way and state.bank_why
                else "set the house way" if by_way else "set by the player/banker, not the "
                "house way")
        if state.confirmed_by:
            note += f"; confirmed by {state.confirmed_by} (rule 13.1.5)"
        hands.append(HandDrawn(bank_name, tuple(_codes(*state.bank_hand)),
                               _hand_words(*state.bank_hand), note))
    for area in state.in_order():
        set_as = state.hand_of(area)
        result = results.get(area)
        hands.append(HandDrawn(
            f"area {area}", tuple(_codes(*set_as)) if set_as else (),
            _hand_words(*set_as) if set_as else "not set",
            _RESULT_NOTE[result.result] if result else ""))
    if coup.status != "settled":
        bets = [BetDrawn(f"area {area}", amount, "handed back", 0, amount)
                for area, amount in state.bets]
        if state.bank is not Bank.HOUSE and state.banker_wager:
            bets.append(BetDrawn(_banker_place(state), state.banker_wager, "handed back", 0,
                                 state.banker_wager))
        return RoundDrawing(currency, tuple(hands), f"void: {coup.reason}",
                            bets=tuple(bets), voided=True)
    bets = []
    for a in areas:
        commission = sum(s.amount for s in steps if s.move is Move.COMMISSION
                         and s.source is Place.PLAYER and s.area == a.area)
        bets.append(BetDrawn(f"area {a.area}", a.wager, a.result.value, max(a.net, 0),
                             a.wager + a.net, f"commission {_to_the_cent(commission, currency)}"
                             if commission else ""))
    banker = _banker_bet(state, steps)
    if banker is not None:
        bets.append(banker)
    said = f"{bank_name} banks: " + (", ".join(
        f"area {a.area} {_RESULT_NOTE[a.result]}" for a in areas) or "no wager")
    return RoundDrawing(currency, tuple(hands), said, bets=tuple(bets), steps=tuple(
        StepDrawn(step_words(s), s.amount if s.amount else None, s.clause) for s in steps))
