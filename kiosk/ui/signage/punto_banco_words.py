"""The players' sign's words for punto banco: pure functions from the table's
state to the headline, the hands and the limits the sign shows (no Kivy; tested without
drawing). The view (`punto_banco_view.py`) only places them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.i18n import N_, _, money, ngettext, number, odds, percent
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.outcomes import CoupResult, Winner
from kiosk.rules.cards import Card
from kiosk.ui import theme


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
# TRANSLATORS: the bets and hands of punto banco, as the sign names them (the felt's words).
KIND_NAMES = {pb.BetKind.BANKER: N_("Banker"), pb.BetKind.PLAYER: N_("Player"),
              pb.BetKind.TIE: N_("Tie")}


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
        return _("Tie %(player)s to %(banker)s") % {"player": result.player_total,
                                                    "banker": result.banker_total}
    if result.winner is Winner.BANKER:
        return _("Banker wins %(won)s to %(lost)s") % {"won": result.banker_total,
                                                       "lost": result.player_total}
    return _("Player wins %(won)s to %(lost)s") % {"won": result.player_total,
                                                   "lost": result.banker_total}


def result_detail(result: CoupResult) -> str:
    bits = []
    if result.natural:
        bits.append(_("Natural"))  # rule 5.2: 8 or 9 on two cards, no cards drawn
    if result.banker_pair:
        bits.append(_("Banker pair"))
    if result.player_pair:
        bits.append(_("Player pair"))
    return " · ".join(bits)


def coup_words(coup: int) -> str:
    return _("Coup %(coup)s") % {"coup": number(coup)}


def headline(state: pb.PuntoBancoState | None) -> Headline:
    """What the players must know now, in the words the dealer calls (rules 5.2, 5.5, 5.6)."""
    if state is None:
        return Headline(_("Welcome"), _("The table opens shortly"), Tone.WAIT)
    if state.phase is pb.Phase.BETTING:
        if state.shoe is None:  # rule 5.5: shuffled before the first cards are dealt
            return Headline(_("Shuffling"), _("A new shoe is being prepared"), Tone.SHUFFLE)
        detail = (_("Last coup of this shoe") if state.cut_card_out
                  else " · ".join(_(KIND_NAMES[k]) for k in KIND_NAMES))
        return Headline(_("Place your bets"), detail, Tone.BETS)
    if state.phase is pb.Phase.DEALING:  # rule 5.6: "no more bets" has been announced
        return Headline(_("No more bets"), coup_words(state.coup), Tone.CLOSED)
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
        return HandsView(coup_words(state.coup),
                         tuple(c.code for c in state.player_cards),
                         tuple(c.code for c in state.banker_cards),
                         _total(state.player_cards), _total(state.banker_cards), winner)
    last = state.last_settled if state is not None else None
    if last is None:
        return HandsView(_("Last result"), (), (), "", "", None)
    return HandsView(_("Last result · coup %(coup)s") % {"coup": number(last.coup)},
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


def pays_words(rules: pb.PuntoBancoRules, kind: pb.BetKind) -> tuple[str, str]:
    """What a bet pays (rule 2.6) as the ratio and a note: ("19:20", ""), or in commission
    mode ("1:1", "less 5% commission") (rule 5.7): the ratio big, the rest small."""
    if kind is pb.BetKind.BANKER:
        if rules.commission_mode is pb.CommissionMode.NET:
            return odds(rules.banker_odds), ""
        return odds(1), _("less %(rate)s commission") % {"rate": percent(rules.commission_rate)}
    return odds(rules.player_odds if kind is pb.BetKind.PLAYER else rules.tie_odds), ""


def limit_rows(rules: pb.PuntoBancoRules) -> tuple[LimitRow, ...]:
    """Rule 2.2 limits and rule 2.6 odds, from the table's own journaled configuration."""
    rows = []
    for kind in (pb.BetKind.BANKER, pb.BetKind.PLAYER, pb.BetKind.TIE):
        lim = rules.limit(kind)
        pays, note = pays_words(rules, kind)
        rows.append(LimitRow(kind, _(KIND_NAMES[kind]), money(lim.minimum, rules.currency),
                             money(lim.maximum, rules.currency), pays, note))
    return tuple(rows)


def shoe_words(state: pb.PuntoBancoState | None) -> str:
    if state is None or state.shoe is None:
        return ""
    n = state.shoe.remaining
    return ngettext("%(n)s card in the shoe", "%(n)s cards in the shoe", n) % {
        "n": number(n)}


def tally(results: tuple[CoupResult, ...]) -> dict[str, int]:
    """Counts of this shoe's results for the roads' heading."""
    counts = {w.value: 0 for w in Winner}
    for r in results:
        counts[r.winner.value] += 1
    counts["banker_pair"] = sum(r.banker_pair for r in results)
    counts["player_pair"] = sum(r.player_pair for r in results)
    return counts
