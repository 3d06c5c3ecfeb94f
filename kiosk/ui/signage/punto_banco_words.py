"""The players' sign's words for punto banco: pure functions from the table's
state to the headline, the hands and the limits the sign shows (no Kivy; tested without
drawing). The view (`punto_banco_view.py`) only places them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.outcomes import CoupResult, Winner
from kiosk.rules.cards import Card
from kiosk.rules.money import format_money
from kiosk.ui import theme
from kiosk.ui.text_label import TextLabel  # noqa: F401  (registers the class the .kv uses)


class Tone(StrEnum):
    """The headline's looks (see `TONE_COLOURS`); a result takes its winner's name."""

    BETS = "bets"
    CLOSED = "closed"
    BANKER = "banker"
    PLAYER = "player"
    TIE = "tie"
    SHUFFLE = "shuffle"
    WAIT = "wait"


# (fill, text, border) of the headline banner per tone.
TONE_COLOURS: dict[Tone, tuple[theme.RGBA, theme.RGBA, theme.RGBA]] = {
    Tone.BETS: (theme.FELT_DARK, theme.GOLD, theme.GOLD),
    Tone.CLOSED: (theme.IVORY, theme.INK, theme.GOLD),
    Tone.BANKER: (theme.BANKER, theme.WHITE, theme.GOLD),
    Tone.PLAYER: (theme.PLAYER, theme.WHITE, theme.GOLD),
    Tone.TIE: (theme.TIE, theme.WHITE, theme.GOLD),
    Tone.SHUFFLE: (theme.FELT_DARK, theme.IVORY, theme.GOLD),
    Tone.WAIT: (theme.FELT_DARK, theme.MUTED, theme.MUTED),
}
HAND_COLOURS = {pb.Hand.PLAYER: theme.PLAYER, pb.Hand.BANKER: theme.BANKER}
KIND_COLOURS = {pb.BetKind.BANKER: theme.BANKER, pb.BetKind.PLAYER: theme.PLAYER,
                pb.BetKind.TIE: theme.TIE}


# --- The words, from the state -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Headline:
    """The big words across the screen and the line under them."""

    text: str
    detail: str
    tone: Tone


def result_words(result: CoupResult) -> str:
    """ "Banker wins 7 to 5", "Player wins 8 to 3", "Tie 6 to 6" (rule 5.7)."""
    if result.winner is Winner.TIE:
        return f"Tie {result.player_total} to {result.banker_total}"
    won, lost = ((result.banker_total, result.player_total)
                 if result.winner is Winner.BANKER
                 else (result.player_total, result.banker_total))
    return f"{result.winner.value.title()} wins {won} to {lost}"


def result_detail(result: CoupResult) -> str:
    bits = []
    if result.natural:
        bits.append("Natural")  # rule 5.2: 8 or 9 on two cards, no cards drawn
    if result.banker_pair:
        bits.append("Banker pair")
    if result.player_pair:
        bits.append("Player pair")
    return " · ".join(bits)


def headline(state: pb.PuntoBancoState | None) -> Headline:
    """What the players must know now, in the words the dealer calls (rules 5.2, 5.5, 5.6)."""
    if state is None:
        return Headline("Welcome", "The table opens shortly", Tone.WAIT)
    if state.phase is pb.Phase.BETTING:
        if state.shoe is None:  # rule 5.5: shuffled before the first cards are dealt
            return Headline("Shuffling", "A new shoe is being prepared", Tone.SHUFFLE)
        detail = ("Last coup of this shoe" if state.cut_card_out
                  else "Banker · Player · Tie")
        return Headline("Place your bets", detail, Tone.BETS)
    if state.phase is pb.Phase.DEALING:  # rule 5.6: "no more bets" has been announced
        return Headline("No more bets", f"Coup {state.coup}", Tone.CLOSED)
    result = pb.coup_result(state.player_cards, state.banker_cards)
    return Headline(result_words(result), result_detail(result), Tone(result.winner.value))


@dataclass(frozen=True, slots=True)
class HandsView:
    """Both hands for the result panel: card codes, totals ("" when no cards), the winner."""

    title: str
    player_cards: tuple[str, ...]
    banker_cards: tuple[str, ...]
    player_total: str
    banker_total: str
    winner: Winner | None
    detail: str = ""


def _total(cards: tuple[Card, ...]) -> str:
    return str(pb.total(pb.values(cards))) if cards else ""


def hands_view(state: pb.PuntoBancoState | None) -> HandsView:
    """The coup being dealt (rule 5.2's order, totals by rule 5.4), else the last result."""
    if state is not None and state.phase is not pb.Phase.BETTING:
        winner = None
        if state.phase is pb.Phase.PAYING:
            winner = pb.coup_result(state.player_cards, state.banker_cards).winner
        return HandsView(f"Coup {state.coup}",
                         tuple(c.code for c in state.player_cards),
                         tuple(c.code for c in state.banker_cards),
                         _total(state.player_cards), _total(state.banker_cards), winner)
    last = state.last_settled if state is not None else None
    if last is None:
        return HandsView("Last result", (), (), "", "", None)
    return HandsView(f"Last result · coup {last.coup}",
                     tuple(c.code for c in last.player_cards),
                     tuple(c.code for c in last.banker_cards),
                     str(last.result.player_total), str(last.result.banker_total),
                     last.result.winner, result_words(last.result))


@dataclass(frozen=True, slots=True)
class LimitRow:
    """One bet's plaque: the table minimum and maximum (rule 2.2) and its odds (rule 2.6)."""

    kind: pb.BetKind
    name: str
    minimum: str
    maximum: str
    pays: str
    note: str


def limit_rows(rules: pb.PuntoBancoRules) -> tuple[LimitRow, ...]:
    """Rule 2.2 limits and rule 2.6 odds, from the table's own journaled configuration."""
    odds = dict(rules.odds())
    rows = []
    for kind in (pb.BetKind.BANKER, pb.BetKind.PLAYER, pb.BetKind.TIE):
        lim = rules.limit(kind)
        name = kind.value.title()
        # "1:1 less 5% commission" (rule 5.7, commission mode): the ratio big, the rest small.
        pays, _, note = odds.get(name, "").partition(" ")
        rows.append(LimitRow(kind, name, format_money(lim.minimum, rules.currency),
                             format_money(lim.maximum, rules.currency), pays, note))
    return tuple(rows)


def shoe_words(state: pb.PuntoBancoState | None) -> str:
    if state is None or state.shoe is None:
        return ""
    return f"{state.shoe.remaining} cards in the shoe"


def tally(results: tuple[CoupResult, ...]) -> dict[str, int]:
    """Counts of this shoe's results for the roads' heading."""
    counts = {w.value: 0 for w in Winner}
    for r in results:
        counts[r.winner.value] += 1
    counts["banker_pair"] = sum(r.banker_pair for r in results)
    counts["player_pair"] = sum(r.player_pair for r in results)
    return counts
