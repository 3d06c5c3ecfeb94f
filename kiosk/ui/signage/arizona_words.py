"""What the Arizona Hold'em sign says, from the folded state (pure: tested without drawing).

The Mpumalanga table game rules, section 6: players follow "place your bets" and "no more
bets" (rule 6.2), the two circles in which each player raises or checks in turn, the two
community cards as they are turned, and the reveal; the sign shows the limits of the ante
(rule 2.2: each raise is the ante's amount, rule 6.2) and rule 6.6's pay table.

Every card is dealt face down (rule 6.2): a community card is shown only once `state.turned`
says it was turned, and a player's cards never. The hands come from `state.hands`, which
holds only what the rounds' `Settled` records (the reveal) said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from kiosk.i18n import N_, _, money, odds
from kiosk.rules.arizona.hands import POKER_RANK_NAMES, POKER_RANK_PLURALS, TEN, Category
from kiosk.rules.arizona.paytable import PAY_TABLE
from kiosk.rules.arizona.state import (
    COMMUNITY_CARDS,
    ArizonaState,
    Phase,
    circle_in_play,
    deciding,
)

GAME_NAME = "Arizona Hold'em"  # the game's name, as the registry spells it (not translated)
LAST_HANDS = 6
"""How many of the last rounds' hands the sign lists, newest first."""

# TRANSLATORS: the ranks of playing cards, in a poker hand's words ("a flush, king high").
RANK_NAMES = (N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
              N_("eight"), N_("nine"), N_("ten"), N_("jack"), N_("queen"), N_("king"),
              N_("ace"))
# TRANSLATORS: the ranks of playing cards, more than one ("a pair of tens", "four kings").
RANK_PLURALS = (N_("twos"), N_("threes"), N_("fours"), N_("fives"), N_("sixes"),
                N_("sevens"), N_("eights"), N_("nines"), N_("tens"), N_("jacks"),
                N_("queens"), N_("kings"), N_("aces"))

# The words of `HandValue.words` (English, as the `Settled` record holds them), each with
# its template on the sign and its category on rule 6.6's table. "rank" is a rank's name,
# "ranks" its plural.
HAND_PATTERNS: tuple[tuple[re.Pattern[str], str, Category, tuple[str, ...]], ...] = (
    # TRANSLATORS: a poker hand, on the Arizona Hold'em sign.
    (re.compile(r"a royal flush"), N_("a royal flush"), Category.ROYAL_FLUSH, ()),
    (re.compile(r"a straight flush, (\w+) high"), N_("a straight flush, %(rank)s high"),
     Category.STRAIGHT_FLUSH, ("rank",)),
    (re.compile(r"four (\w+)"), N_("four %(ranks)s"), Category.FOUR_OF_A_KIND, ("ranks",)),
    (re.compile(r"a full house, (\w+) full of (\w+)"),
     N_("a full house, %(three)s full of %(two)s"), Category.FULL_HOUSE, ("ranks", "ranks")),
    (re.compile(r"a flush, (\w+) high"), N_("a flush, %(rank)s high"), Category.FLUSH,
     ("rank",)),
    (re.compile(r"a straight, (\w+) high"), N_("a straight, %(rank)s high"),
     Category.STRAIGHT, ("rank",)),
    (re.compile(r"three (\w+)"), N_("three %(ranks)s"), Category.THREE_OF_A_KIND,
     ("ranks",)),
    (re.compile(r"two pairs, (\w+) and (\w+)"), N_("two pairs, %(high)s and %(low)s"),
     Category.TWO_PAIRS, ("ranks", "ranks")),
    (re.compile(r"a pair of (\w+)"), N_("a pair of %(ranks)s"), Category.PAIR, ("ranks",)),
    (re.compile(r"(\w+) high"), N_("%(rank)s high"), Category.HIGH_CARD, ("rank",)),
)
_NAMES = ("three", "two")  # a full house's two ranks
_PAIRS = ("high", "low")  # two pairs' ranks

# TRANSLATORS: rule 6.6's pay table on the Arizona Hold'em sign, best hand first.
PAY_ROWS = ((N_("Royal flush"), Category.ROYAL_FLUSH),
            (N_("Straight flush"), Category.STRAIGHT_FLUSH),
            (N_("Four of a kind"), Category.FOUR_OF_A_KIND),
            (N_("Full house"), Category.FULL_HOUSE),
            (N_("Flush"), Category.FLUSH),
            (N_("Straight"), Category.STRAIGHT),
            (N_("Three of a kind"), Category.THREE_OF_A_KIND),
            (N_("Two pairs"), Category.TWO_PAIRS),
            (N_("Pair of tens or better"), Category.PAIR))
# TRANSLATORS: the captions of the ante's limits on the Arizona Hold'em sign, in capitals.
LIMITS = (("Ante minimum", N_("ANTE MIN")), ("Ante maximum", N_("ANTE MAX")))
"""The ante's limits: each one's name (a key, in English) and its caption on the sign."""


class Card(StrEnum):
    """How a community card's place is drawn."""

    EMPTY = "empty"  # not dealt yet
    FACE_DOWN = "face down"  # dealt, not turned (rule 6.2)
    FACE_UP = "face up"  # turned: its face is shown


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand from a `Settled` record, in the sign's language, and what each bet paid."""

    words: str
    pays: str  # "12 to 1", or that every bet lost


@dataclass(frozen=True, slots=True)
class ArizonaSign:
    headline: str
    detail: str
    community: tuple[tuple[Card, str], ...]  # each place: how it is drawn, and its code
    best: Hand | None  # the last settled round's best hand
    last: tuple[Hand, ...]  # the hands of the last rounds, newest first
    limits: tuple[tuple[str, str], ...]  # ("Ante minimum", "R50"), ... (names: keys)
    limit_captions: tuple[str, ...]  # "ANTE MIN", ... (the sign's short words for `limits`)
    raise_words: str  # each raise equals the ante
    payouts: tuple[tuple[str, str], ...]  # ("Royal flush", "250 to 1"), ...


def headline(state: ArizonaState) -> tuple[str, str]:
    """The call (in capitals) and a line under it."""
    match state.phase:
        case Phase.BETTING:
            return _("PLACE YOUR BETS"), ""
        case Phase.DEALING:
            return _("NO MORE BETS"), _("Three cards to each player, two community cards")
        case Phase.FIRST_RAISE | Phase.SECOND_RAISE:
            circle = circle_in_play(state)
            box = deciding(state)
            detail = (_("Box %(box)s to decide") % {"box": box} if box is not None
                      else _("The dealer turns a community card"))
            return _("CIRCLE %(circle)s: RAISE OR CHECK") % {"circle": circle}, detail
    return _("THE REVEAL"), _("Hands shown left to right")


def community(state: ArizonaState) -> tuple[tuple[Card, str], ...]:
    """The two community places: a card's face only once it is turned (rule 6.2)."""
    cards = state.community
    out = []
    for slot in range(COMMUNITY_CARDS):
        if slot >= len(cards):
            out.append((Card.EMPTY, ""))
        elif slot < state.turned:
            out.append((Card.FACE_UP, cards[slot].code))
        else:
            out.append((Card.FACE_DOWN, ""))
    return tuple(out)


def _rank(word: str, plural: bool) -> str | None:
    names = POKER_RANK_PLURALS if plural else POKER_RANK_NAMES
    if word not in names:
        return None
    return _((RANK_PLURALS if plural else RANK_NAMES)[names.index(word)])


def hand(english: str) -> Hand:
    """A `Settled` record's hand ("a full house, kings full of tens") in the sign's language,
    and what it paid (rule 6.6; below a pair of tens every bet loses). Words the sign does not
    know are shown as they are, with nothing said of the pay."""
    for pattern, template, category, kinds in HAND_PATTERNS:
        found = pattern.fullmatch(english)
        if found is None:
            continue
        ranks = [_rank(word, kind == "ranks") for word, kind in zip(found.groups(), kinds,
                                                                      strict=True)]
        if any(r is None for r in ranks):
            continue
        keys = (_NAMES if category is Category.FULL_HOUSE else _PAIRS
                if category is Category.TWO_PAIRS else kinds)
        words = _(template) % dict(zip(keys, ranks, strict=True))
        words = words[:1].upper() + words[1:]  # a line of its own on the sign
        pays = PAY_TABLE.get(category)
        if category is Category.PAIR and POKER_RANK_PLURALS.index(found.group(1)) < TEN:
            pays = None
        # TRANSLATORS: what a hand below a pair of tens pays: every bet loses (rule 6.6).
        return Hand(words, odds(pays) if pays is not None else _("loses"))
    return Hand(english, "")


def sign_words(state: ArizonaState) -> ArizonaSign:
    rules = state.rules
    call, detail = headline(state)
    hands = tuple(hand(h) for h in reversed(state.hands[-LAST_HANDS:]))
    return ArizonaSign(
        headline=call,
        detail=detail,
        community=community(state),
        best=hands[0] if hands else None,
        last=hands,
        limits=tuple((name, money(cents, rules.currency))
                     for (name, _caption), cents in zip(LIMITS, (rules.minimum, rules.maximum),
                                                        strict=True)),
        limit_captions=tuple(_(caption) for _name, caption in LIMITS),
        # rule 6.2: a raise is "a bet of equal amount to the ante bet"
        raise_words=_("Each raise equals the ante"),
        payouts=tuple((_(name), odds(PAY_TABLE[category])) for name, category in PAY_ROWS),
    )
