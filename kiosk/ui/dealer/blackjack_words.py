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
from kiosk.ui.dealer.payout_words import PanelBlock, PanelRow, tile_money

OUTCOME_WORD = {Outcome.WIN: "pay", Outcome.BLACKJACK: "pay", Outcome.EVEN_MONEY: "pay",
                Outcome.PUSH: "push", Outcome.RETURNED: "back", Outcome.SURRENDER: "back",
                Outcome.LOSE: "take"}
"""What the dealer does with a settled bet, in one word (the tiles)."""


def decks_words(halves: int) -> str:
    """A position entered in half decks: "½ deck", "1 deck", "1½ decks"."""
    whole, half = divmod(halves, 2)
    text = (str(whole) if whole else "") + ("½" if half else "")
    return f"{text} deck" if halves <= 2 else f"{text} decks"


def settlement_row(x: Settlement, currency: str) -> PanelRow:
    """One player's settlement on one hand (or their insurance), as the dealer pays it: what
    the bet was, and what to do, in words (issue 14: colour is never the only signal)."""

    def m(cents: int) -> str:
        return format_money(cents, currency)

    what = f"{x.player} {'insurance' if x.kind is BetKind.INSURANCE else 'bet'} {m(x.stake)}"
    if x.outcome in (Outcome.WIN, Outcome.BLACKJACK, Outcome.EVEN_MONEY):
        how = {Outcome.BLACKJACK: " blackjack 3:2", Outcome.EVEN_MONEY: " even money"}.get(
            x.outcome, f" wins {x.odds.numerator}:{x.odds.denominator}")
        return PanelRow(what + how, f"PAY {m(x.paid)}", "pay")
    if x.outcome is Outcome.PUSH:
        return PanelRow(what + ": a stand off", "PUSH", "even")
    if x.outcome is Outcome.RETURNED:
        return PanelRow(what + ": handed back", f"BACK {m(x.returned)}", "even")
    if x.outcome is Outcome.SURRENDER:
        return PanelRow(what + " surrendered", f"BACK {m(x.returned)}", "even")
    back = f", BACK {m(x.returned)}" if x.returned else ""
    return PanelRow(what + " loses", f"TAKE {m(x.stake - x.returned)}{back}", "take")


def settlement_words(x: Settlement, currency: str) -> str:
    """One settlement in one line: "A pay R150", "B take R100", "C push"."""
    row = settlement_row(x, currency)
    return f"{x.player} {row.amount.lower()}"


def stake_lines(state: bj.BlackjackState, box: int) -> list[str]:
    """The bets on a box before the deal, the caller's first (rule 4.2 item 2): "A R100",
    "B R50"; with players behind, the last line says who calls ("A calls"), so a line
    stays short enough to read in a box a seventh of a small screen wide."""
    cur = state.rules.currency
    stakes = state.stakes_on(box)
    lines = [f"{s.player} {tile_money(s.amount, cur)}" for s in stakes]
    if len(stakes) > 1:
        lines.append(f"{stakes[0].player} calls")
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
    """One hand as a box tile draws it: its cards, its total and one short line (what to do
    with its bets when paying; whose bets they are before). The whole of it, every player's
    amount, is in the box's payout sheet (`box_blocks`)."""

    cards: tuple[tuple[str, bool, bool], ...]  # (code, face down, needs a decision)
    total: str
    detail: str
    turn: bool


def _hand_rows(state: bj.BlackjackState, h: bj.PlayerHand,
               open_rows: tuple[Settlement, ...]) -> list[tuple[bj.HandBet, list[Settlement]]]:
    """Each bet on a hand with its settlements (paid during the round, or now)."""
    out = []
    for b in h.bets:
        earlier = [x for x in state.paid if (x.box, x.hand, x.player) ==
                   (h.box, h.number, b.player) and x.kind is BetKind.HAND]
        now = [x for x in open_rows if (x.box, x.hand, x.player) ==
               (h.box, h.number, b.player) and x.kind is BetKind.HAND]
        out.append((b, earlier if earlier and not b.active else now))
    return out


def _open_rows(state: bj.BlackjackState) -> tuple[Settlement, ...]:
    paying = state.phase is bj.Phase.PAYING and state.pending is None
    return bj.settlement(state) if paying else ()


def _short(bets: list[tuple[bj.HandBet, list[Settlement]]], currency: str) -> str:
    """A hand's bets in a few words: "A R100", "4 bets", "pay 3 · take 1"."""
    words = [OUTCOME_WORD[x.outcome] for _b, xs in bets for x in xs]
    if words:
        counts = {w: words.count(w) for w in dict.fromkeys(words)}
        return " · ".join(w if n == 1 else f"{w} {n}" for w, n in counts.items())
    if len(bets) == 1:
        b = bets[0][0]
        return f"{b.player} {tile_money(b.stake, currency)}" + (" doubled" if b.doubled
                                                                 else "")
    doubled = " doubled" if any(b.doubled for b, _x in bets) else ""
    return f"{len(bets)} bets{doubled}"


def hands_shown(state: bj.BlackjackState, box: int) -> list[HandShown]:
    """The hands of a box with their bets, or when the round is complete their settlement."""
    cur = state.rules.currency
    open_rows = _open_rows(state)
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
        turn = (current is not None and state.phase is bj.Phase.PLAYING
                and (current.box, current.number) == (h.box, h.number))
        out.append(HandShown(tuple(cards), hand_total_words(h),
                             _short(_hand_rows(state, h, open_rows), cur), turn))
    return out


def insurance_lines(state: bj.BlackjackState, box: int) -> list[str]:
    cur = state.rules.currency
    if state.phase is bj.Phase.PAYING and state.pending is None:
        return [f"{x.player} insurance {OUTCOME_WORD[x.outcome]}"
                for x in bj.settlement(state) if x.box == box and x.kind is BetKind.INSURANCE]
    return [f"{i.player} insured {tile_money(i.amount, cur)}" for i in state.insurance
            if i.box == box]


def box_blocks(state: bj.BlackjackState, box: int) -> list[PanelBlock]:
    """Everything on a box in large type, a block per hand (and one for insurance): each
    player's bet, and once settled what to pay, take or hand back and how much."""
    cur = state.rules.currency
    open_rows = _open_rows(state)
    hands = [h for h in state.hands if h.box == box]
    blocks = []
    for h in hands:
        rows: list[PanelRow] = []
        for b, xs in _hand_rows(state, h, open_rows):
            if xs:
                rows += [settlement_row(x, cur) for x in xs]
            else:
                rows.append(PanelRow(f"{b.player} bet" + (" (doubled)" if b.doubled else ""),
                                     format_money(b.stake, cur), "bet"))
        total = hand_total_words(h)
        title = f"Hand {h.number}" if len(hands) > 1 else f"Box {box}"
        blocks.append(PanelBlock(f"{title}: {total}" if total else title, tuple(rows)))
    if not hands:
        rows = [PanelRow(f"{s.player} bet", format_money(s.amount, cur), "bet")
                for s in state.stakes_on(box)]
        blocks.append(PanelBlock(f"Box {box}", tuple(rows)))
    settled = [x for x in open_rows if x.box == box and x.kind is BetKind.INSURANCE]
    insured = [i for i in state.insurance if i.box == box]
    if settled:
        blocks.append(PanelBlock("Insurance", tuple(settlement_row(x, cur) for x in settled)))
    elif insured:
        blocks.append(PanelBlock("Insurance", tuple(
            PanelRow(f"{i.player} insured", format_money(i.amount, cur), "bet")
            for i in insured)))
    return blocks


def allowed(verify: Callable[..., None], *args: Any) -> tuple[bool, str]:
    """The engine's `verify_` as (allowed, its sentence when not)."""
    try:
        verify(*args)
    except TablesideError as exc:
        return False, str(exc)
    return True, ""
