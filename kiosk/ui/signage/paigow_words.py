"""What the pai gow tiles sign says (pure: tested without drawing).

The Mpumalanga table game rules, section 13: who banks the game and where the chung is (the
House on area one, rule 13.1.1; a player/banker on their own area, rule 13.2.1; a
player/banker co-banking with the House, rule 13.3), the table's limits, the commission on
winning wagers (even money less 5%), the call, and the banker's hands of the last rounds with
what they did against the players. It only shows state: a player's tiles never, the banker's
once exposed (rules 13.1.3, 13.2.4).

`PaiGowSign` is everything the view draws; `sign_words` makes it from the folded state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.i18n import N_, _, money, ngettext
from kiosk.rules.paigow.config import COMMISSION
from kiosk.rules.paigow.hands import Result, hand
from kiosk.rules.paigow.operations import Bank, Pair
from kiosk.rules.paigow.settlement import results
from kiosk.rules.paigow.state import PaiGowState, Phase, SettledRound

GAME_NAME = "Pai Gow"  # the game's name, as the registry spells it (not translated)
LAST_HANDS = 5
"""How many of the last rounds the sign lists, newest first."""
LIMITS = (("Minimum", N_("MIN")), ("Maximum", N_("MAX")))
"""The limits of a wager (rule 2.2): each one's name (a key, in English) and its caption."""


@dataclass(frozen=True, slots=True)
class LastHand:
    """One settled round on the sign: the banker's hands as exposed, and what they did."""

    low: tuple[str, ...]  # the low hand's two tiles, by their pips ("6-6")
    high: tuple[str, ...]  # the high hand's two tiles
    words: str  # "Banker: 9 and gong" (the hands' names in the sign's language)
    outcome: str  # "2 win · 3 lose · 1 stand-off"


@dataclass(frozen=True, slots=True)
class PaiGowSign:
    headline: str
    detail: str
    banker: str  # who banks, in capitals ("THE HOUSE BANKS")
    chung: str  # where the chung is ("Chung on area 1")
    limits: tuple[tuple[str, str], ...]  # ("Minimum", "R50"), ... (names: keys)
    limit_captions: tuple[str, ...]  # "MIN", "MAX"
    commission: str  # "5% of winning wagers"
    last: tuple[LastHand, ...]  # newest first


def banker_words(bank: Bank, area: int) -> tuple[str, str]:
    """Who banks and where the chung is (rules 13.1.1, 13.2.1, 13.3)."""
    chung = _("Chung on area %(area)s") % {"area": area}
    if bank is Bank.HOUSE:
        # TRANSLATORS: on the pai gow sign, in capitals: the House banks (rule 13.1).
        return _("THE HOUSE BANKS"), chung
    if bank is Bank.PLAYER:
        # TRANSLATORS: on the pai gow sign, in capitals: the player of this area banks
        # (rule 13.2).
        return _("AREA %(area)s BANKS") % {"area": area}, chung
    # TRANSLATORS: on the pai gow sign, in capitals: the player of this area and the House
    # bank together (rule 13.3).
    return _("AREA %(area)s CO-BANKS WITH THE HOUSE") % {"area": area}, chung


def commission_words(percent: int) -> str:
    # TRANSLATORS: the commission on the pai gow sign: "5% of winning wagers".
    return _("%(percent)s%% of winning wagers") % {"percent": percent}


def outcome_words(wins: int, losses: int, stand_offs: int) -> str:
    """What the banker's hands did against the players' ("2 win · 3 lose · 1 stand-off"),
    counted from the players' side."""
    parts = []
    if wins:
        # TRANSLATORS: on the pai gow sign: how many players' hands beat the banker's.
        parts.append(ngettext("%(n)s win", "%(n)s win", wins) % {"n": wins})
    if losses:
        # TRANSLATORS: on the pai gow sign: how many players' hands lost to the banker's.
        parts.append(ngettext("%(n)s lose", "%(n)s lose", losses) % {"n": losses})
    if stand_offs:
        # TRANSLATORS: on the pai gow sign: how many players' hands were stand-offs.
        parts.append(ngettext("%(n)s stand-off", "%(n)s stand-offs", stand_offs)
                     % {"n": stand_offs})
    return " · ".join(parts)


def hands_words(high: str, low: str) -> str:
    """The banker's hands as the sign names them: "Banker: gong and 7"."""
    # TRANSLATORS: the banker's two hands on the pai gow sign: the high hand, then the low.
    return _("Banker: %(high)s and %(low)s") % {"high": high, "low": low}


def call_words(phase: str) -> tuple[str, str]:
    """The call in capitals and a line under it, for each stage of a round (rules 13.1,
    13.2, 13.3): "betting", "setting", "house way", "settling"."""
    if phase == "betting":
        return _("PLACE YOUR BETS"), ""
    if phase == "setting":
        # TRANSLATORS: on the pai gow sign: the players set their tiles into two hands.
        return _("NO MORE BETS"), _("Players set their hands: high and low")
    if phase == "house way":
        # TRANSLATORS: on the pai gow sign: the banker's hands are set after the players'.
        return _("NO MORE BETS"), _("The banker's hands are set")
    # TRANSLATORS: on the pai gow sign: each area is matched in turn, counter clockwise.
    return _("HANDS MATCHED"), _("Each area in turn, counter clockwise from the chung")


def limits_words(minimum: int, maximum: int, currency: str
                 ) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Rule 2.2's limits of a wager, and their captions."""
    amounts = (money(minimum, currency), money(maximum, currency))
    return (tuple((name, amount) for (name, _c), amount in zip(LIMITS, amounts, strict=True)),
            tuple(_(caption) for _n, caption in LIMITS))


_PAIR = re.compile(r"(.+) pair")


def hand_name(english: str) -> str:
    """A hand as the rules name it ("teen pair", "high nine", "7 (teen)") in the sign's
    language: the Chinese names stay as they are."""
    found = _PAIR.fullmatch(english)
    if found is not None:
        # TRANSLATORS: a pai gow pair: the pair's Chinese name ("teen"), then "pair".
        return _("%(name)s pair") % {"name": found.group(1)}
    if english == "high nine":
        return _("high nine")
    return english


def _call(state: PaiGowState) -> tuple[str, str]:
    if state.phase is Phase.BETTING:
        return call_words("betting")
    if state.phase is Phase.SETTING and state.to_set is not None:
        return call_words("setting")
    if state.phase is Phase.REVEAL:
        return call_words("settling")
    return call_words("house way")


def _last_hand(high: Pair, low: Pair, wins: int, losses: int, stand_offs: int) -> LastHand:
    return LastHand(tuple(t.code for t in low), tuple(t.code for t in high),
                    hands_words(hand_name(hand(*high).words), hand_name(hand(*low).words)),
                    outcome_words(wins, losses, stand_offs))


def _settled(r: SettledRound) -> LastHand:
    """A settled round: the bank's tiles as exposed and the areas' results (the state's
    history)."""
    return _last_hand(r.high, r.low, r.wins, r.losses, r.stand_offs)


def _exposed(state: PaiGowState) -> LastHand | None:
    """The bank's hands of the round in play, once exposed (13.1.3, 13.2.4, 13.3.3), and how
    the areas fared against them."""
    if state.phase is not Phase.REVEAL or state.bank_hand is None:
        return None
    high, low = state.bank_hand
    counts = {r: 0 for r in Result}
    for r in results(state):
        counts[r.result] += 1
    return _last_hand(high, low, counts[Result.WIN], counts[Result.LOSE],
                      counts[Result.STANDOFF])


def sign_words(state: PaiGowState) -> PaiGowSign:
    rules = state.rules
    call, detail = _call(state)
    banker, chung = banker_words(state.bank, state.chung)
    limits, captions = limits_words(rules.minimum, rules.maximum, rules.currency)
    last = [_settled(r) for r in reversed(state.history)]
    now = _exposed(state)
    if now is not None:
        last.insert(0, now)
    return PaiGowSign(
        headline=call, detail=detail, banker=banker, chung=chung, limits=limits,
        limit_captions=captions, commission=commission_words(int(COMMISSION * 100)),
        last=tuple(last[:LAST_HANDS]))
