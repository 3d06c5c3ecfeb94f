"""Bets before "no more bets" (rules 5.2, 5.6, 2.2): place, remove, close."""

from __future__ import annotations

from kiosk.rules.baccarat.helpers import amount_of, bet_word, money_of
from kiosk.rules.baccarat.house import BetKind, Phase
from kiosk.rules.baccarat.operations import BetPlaced, BetRemoved, BettingClosed
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.errors import NotAllowed, allowed


def verify_place_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> None:
    """Rules 5.2, 5.6 and 2.2: a bet goes on a real area before "no more bets", in chips,
    within the table maximum for its kind."""
    rules = state.rules
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets has been called: bets are closed for this coup",
                         clause="5.6")
    if area not in rules.area_ids():
        raise NotAllowed(f"There is no betting area {area!r} on this table "
                         f"(areas {', '.join(rules.area_ids())})", clause="5.2")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise NotAllowed(f"A bet must be a positive amount, not {amount!r}")
    rules.chips.verify_stake(amount)
    lim = rules.limit(kind)
    now = state.bet_total(area, kind)
    if now + amount > lim.maximum:
        # TRANSLATORS: %(kind)s is the bet's name as the screens say it (Banker, Player, Tie).
        raise NotAllowed.of(
            "Area %(area)s: %(kind)s bet of %(amount)s is over the table maximum of "
            "%(maximum)s; at most %(more)s more", clause="2.2", area=area, kind=bet_word(kind),
            amount=amount_of(state, now + amount), maximum=amount_of(state, lim.maximum),
            more=amount_of(state, lim.maximum - now))


def can_place_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> bool:
    return allowed(verify_place_bet, state, area, kind, amount)


def place_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> BetPlaced:
    verify_place_bet(state, area, kind, amount)
    # Fields in order (coup, area, bet, amount): keywords make every construction build a dict.
    return BetPlaced(state.coup, area, kind, amount)


def verify_remove_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets has been called: bets cannot be taken back now",
                         clause="5.6")
    if amount <= 0 or state.bet_total(area, kind) < amount:
        # TRANSLATORS: %(kind)s is the bet's name as the screens say it (Banker, Player, Tie).
        raise NotAllowed.of("Area %(area)s has only %(amount)s on %(kind)s", area=area,
                            amount=amount_of(state, state.bet_total(area, kind)),
                            kind=bet_word(kind))


def can_remove_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> bool:
    return allowed(verify_remove_bet, state, area, kind, amount)


def remove_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> BetRemoved:
    verify_remove_bet(state, area, kind, amount)
    return BetRemoved(coup=state.coup, area=area, bet=kind, amount=amount)


def verify_close_betting(state: PuntoBancoState) -> None:
    """ "No more bets": every bet at or above its minimum (2.2), a tie bet only beside a bet
    on Banco or Punto (5.2: "The Player must have a bet on either Banco or Punto"), and a
    shuffled shoe loaded (5.5)."""
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("Bets are already closed for this coup", clause="5.6")
    if state.shoe is None:
        raise NotAllowed.of("Shuffle and load the shoe before dealing", clause="5.5")
    problems: list[tuple[str, str]] = []  # (what is wrong, the clause it breaks)
    alone: NotAllowed | None = None  # the refusal when there is one problem, as a sentence
    rules = state.rules
    totals: dict[tuple[str, BetKind], int] = {}
    for b in state.bets:
        totals[b.area, b.kind] = totals.get((b.area, b.kind), 0) + b.amount
    for (area, kind), amt in sorted(totals.items()):
        if 0 < amt < rules.limit(kind).minimum:
            problems.append((f"area {area} {kind} {money_of(state, amt)} is under the "
                             f"{money_of(state, rules.limit(kind).minimum)} minimum", "2.2"))
            # TRANSLATORS: %(kind)s is the bet's name as the screens say it (Banker ...).
            alone = NotAllowed.of(
                "Cannot close bets: area %(area)s %(kind)s %(amount)s is under the "
                "%(minimum)s minimum", clause="2.2", area=area, kind=bet_word(kind),
                amount=amount_of(state, amt), minimum=amount_of(state, rules.limit(kind).minimum))
        if kind is BetKind.TIE and not (totals.get((area, BetKind.BANKER))
                                        or totals.get((area, BetKind.PLAYER))):
            problems.append((f"area {area} has a tie bet without a bet on Banker or Player",
                             "5.2"))
            alone = NotAllowed.of("Cannot close bets: area %(area)s has a tie bet without a "
                                  "bet on Banker or Player", clause="5.2", area=area)
    if problems:
        clauses = {c for _, c in problems}
        if len(problems) == 1 and alone is not None:
            raise alone
        if len(clauses) == 1:
            raise NotAllowed("Cannot close bets: " + "; ".join(t for t, _ in problems),
                             clause=clauses.pop())
        err = NotAllowed("Cannot close bets: " + "; ".join(f"{t} (rule {c})"
                                                           for t, c in problems))
        err.clause = problems[0][1]
        raise err


def can_close_betting(state: PuntoBancoState) -> bool:
    return allowed(verify_close_betting, state)


def close_betting(state: PuntoBancoState) -> BettingClosed:
    verify_close_betting(state)
    return BettingClosed(coup=state.coup)
