"""A round as the inspector's round page draws it (pit/templates/round.html): cards as cards,
money in the table's currency to the cent. Each game's audit draws its own rounds
(`CoupReplay.drawing`, kiosk/rules/audit.py); a round of a game whose audit draws none is drawn
here from the parts every round has (its hands and its settlements), so the page names no
game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.rules.audit import BetDrawn, CoupReplay, HandDrawn, RoundDrawing, outcome_word

_SUITS = {"S": ("♠", "black"), "C": ("♣", "black"), "H": ("♥", "red"), "D": ("♦", "red")}
_RANKS = {"T": "10"}


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as the page shows it: "10♠", in black or red; `code` is the journal's."""

    code: str
    face: str
    colour: str


def card_face(code: str) -> CardFace:
    """"TS" -> 10♠ in black, "7H" -> 7♥ in red; a code that is no card is shown as it is."""
    if len(code) == 2 and code[1] in _SUITS:
        symbol, colour = _SUITS[code[1]]
        return CardFace(code, _RANKS.get(code[0], code[0]) + symbol, colour)
    return CardFace(code, code, "unknown")


def money(cents: int, currency: str) -> str:
    """An amount to the cent as an inspector reads it: 9500 -> "R95.00", -12345 ->
    "-R123.45" (always with the cents: the page's columns line up)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}{currency}{whole:,}.{part:02d}"


def drawing_of(coup: CoupReplay, currency: str = "R") -> RoundDrawing:
    """The round's drawing: its game's, or one made from its hands and settlements."""
    if coup.drawing is not None:
        return coup.drawing
    hands: list[HandDrawn] = []
    if coup.hands is not None:
        hands = [HandDrawn(name, tuple(cards)) for name, cards in coup.hands.items()]
    elif coup.player_cards or coup.banker_cards:
        hands = [HandDrawn("player", tuple(coup.player_cards)),
                 HandDrawn("banker", tuple(coup.banker_cards))]
    bets = tuple(_bet(s) for s in coup.settlements)
    winner = coup.outcome or (f"void: {coup.reason}" if coup.status == "voided" else "")
    return RoundDrawing(currency, tuple(hands), winner, bets=bets,
                        voided=coup.status == "voided")


def _bet(s: dict[str, Any]) -> BetDrawn:
    place = " ".join(f"{key} {s[key]}" for key in ("area", "box", "hand", "colour", "kind")
                     if key in s and s[key] not in (None, ""))

    def cents(key: str) -> int:
        value = s.get(key, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    return BetDrawn(place or "bet", cents("stake"), outcome_word(str(s.get("outcome", ""))),
                    cents("paid"), cents("returned"))
