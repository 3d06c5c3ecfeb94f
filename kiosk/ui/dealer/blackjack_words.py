"""The blackjack dealer screen's words: pure functions from the state to the text the screen
shows (no Kivy; tested without drawing). The screen (`blackjack.py`) only places them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.settle import BetKind, Outcome, Settlement
from kiosk.rules.errors import TablesideError
from kiosk.rules.money import format_money

PAY = "#7ee08a"
TAKE = "#ff8a80"
NOTE = "#f2d38a"



def decks_words(halves: int) -> str:
    """A position entered in half decks: "½ deck", "1 deck", "1½ decks"."""
    whole, half = divmod(halves, 2)
    text = (str(whole) if whole else "") + ("½" if half else "")
    return f"{text} deck" if halves <= 2 else f"{text} decks"


def settlement_words(x: Settlement, currency: str) -> str:
    """One player's settlement on one hand, as the dealer pays it (markup colours)."""

    def m(cents: int) -> str:
        return format_money(cents, currency)

    who = x.player
    if x.kind is BetKind.INSURANCE:
        if x.outcome is Outcome.WIN:
            return f"{who} insurance [color={PAY}]pay {m(x.paid)}[/color]"
        return f"{who} insurance [color={TAKE}]take[/color]"
    if x.outcome is Outcome.WIN:
        return f"{who} [color={PAY}]pay {m(x.paid)}[/color]"
    if x.outcome is Outcome.BLACKJACK:
        return f"{who} blackjack [color={PAY}]pay {m(x.paid)}[/color]"
    if x.outcome is Outcome.EVEN_MONEY:
        return f"{who} even money [color={PAY}]pay {m(x.paid)}[/color]"
    if x.outcome is Outcome.PUSH:
        return f"{who} [color={NOTE}]push[/color]"
    if x.outcome is Outcome.RETURNED:
        return f"{who} [color={NOTE}]returned {m(x.returned)}[/color]"
    if x.outcome is Outcome.SURRENDER:
        return f"{who} [color={NOTE}]surrender {m(x.returned)} back[/color]"
    back = f", return {m(x.returned)}" if x.returned else ""
    return f"{who} [color={TAKE}]take{back}[/color]"


def stake_lines(state: bj.BlackjackState, box: int) -> list[str]:
    """The bets on a box before the deal: the first calls it (rule 4.2 item 2)."""
    cur = state.rules.currency
    lines = []
    for i, s in enumerate(state.stakes_on(box)):
        role = "calls" if i == 0 else "behind"
        lines.append(f"{s.player} {format_money(s.amount, cur)} [color={NOTE}]{role}[/color]")
    return lines


def bet_words(b: bj.HandBet, currency: str) -> str:
    text = f"{b.player} {format_money(b.stake, currency)}"
    if b.doubled:
        text += " doubled"
    if not b.original:
        text += " split"
    return text


def hand_total_words(h: bj.PlayerHand) -> str:
    if not h.points:
        return ""
    if h.blackjack:
        return "Blackjack"
    t = h.total
    if h.finished and not t.bust:
        return str(t.best)  # a finished hand has one total: "19", not "soft 19 / 9"
    return str(t)


@dataclass(frozen=True, slots=True)
class HandShown:
    """One hand as a box tile draws it."""

    cards: tuple[tuple[str, bool, bool], ...]  # (code, face down, needs a decision)
    total: str
    detail: str
    turn: bool


def hands_shown(state: bj.BlackjackState, box: int) -> list[HandShown]:
    """The hands of a box with their bets, or when the round is complete their settlement."""
    cur = state.rules.currency
    paying = state.phase is bj.Phase.PAYING and state.pending is None
    open_rows = bj.settlement(state) if paying else ()
    current = state.current
    pending = state.pending
    out = []
    for h in state.hands:
        if h.box != box:
            continue
        cards = [(c.code, False, False) for c in h.cards]
        if pending is not None and (pending.box, pending.hand) == (h.box, h.number):
            cards.append((pending.card.code if pending.card else "", pending.card is None,
                          True))
        lines = []
        for b in h.bets:
            earlier = [x for x in state.paid if (x.box, x.hand, x.player) ==
                       (h.box, h.number, b.player) and x.kind is BetKind.HAND]
            now = [x for x in open_rows if (x.box, x.hand, x.player) ==
                   (h.box, h.number, b.player) and x.kind is BetKind.HAND]
            if earlier and not b.active:
                lines += [settlement_words(x, cur) for x in earlier]
            elif now:
                lines += [settlement_words(x, cur) for x in now]
            else:
                lines.append(bet_words(b, cur))
        turn = (current is not None and state.phase is bj.Phase.PLAYING
                and (current.box, current.number) == (h.box, h.number))
        out.append(HandShown(tuple(cards), hand_total_words(h), "\n".join(lines), turn))
    return out


def insurance_lines(state: bj.BlackjackState, box: int) -> list[str]:
    cur = state.rules.currency
    if state.phase is bj.Phase.PAYING and state.pending is None:
        return [settlement_words(x, cur) for x in bj.settlement(state)
                if x.box == box and x.kind is BetKind.INSURANCE]
    return [f"{i.player} insured {format_money(i.amount, cur)}" for i in state.insurance
            if i.box == box]


def allowed(verify: Callable[..., None], *args: Any) -> tuple[bool, str]:
    """The engine's `verify_` as (allowed, its sentence when not)."""
    try:
        verify(*args)
    except TablesideError as exc:
        return False, str(exc)
    return True, ""
