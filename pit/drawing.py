"""A round as the inspector's round page draws it (pit/templates/round.html): cards as cards,
money in the table's currency to the cent. Each game's audit draws its own rounds
(`RoundReplay.drawing`, kiosk/rules/audit.py); a round of a game whose audit draws none is drawn
from the parts every round has (`kiosk.rules.audit.drawing_of`), so the page names no game."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.audit import RoundReplay, drawing_of

__all__ = ["CardFace", "card_face", "drawing_of", "money", "who_did_what"]

_SUITS = {"S": ("♠", "black"), "C": ("♣", "black"), "H": ("♥", "red"), "D": ("♦", "red")}
_RANKS = {"T": "10"}


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as the page shows it: "10♠", in black or red; `code` is the journal's."""

    code: str
    face: str
    colour: str


def card_face(code: str) -> CardFace:
    """"TS" -> 10♠ in black, "7H" -> 7♥ in red; a domino tile's code (its two ends' pips,
    "66" teen) -> "6·6", drawn as a tile; a code that is no card is shown as it is."""
    if len(code) == 2 and code[1] in _SUITS:
        symbol, colour = _SUITS[code[1]]
        return CardFace(code, _RANKS.get(code[0], code[0]) + symbol, colour)
    if len(code) == 2 and all(c in "123456" for c in code):
        return CardFace(code, f"{code[0]}·{code[1]}", "tile")
    return CardFace(code, code, "unknown")


def money(cents: int, currency: str) -> str:
    """An amount to the cent as an inspector reads it: 9500 -> "R95.00", -12345 ->
    "-R123.45" (always with the cents: the page's columns line up)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}{currency}{whole:,}.{part:02d}"


def who_did_what(played: RoundReplay) -> tuple[tuple[str, str], ...]:
    """Who did what in the round, as (role, words) pairs: the game's drawing's, else what the
    round itself says of its people (`RoundReplay.who()`, once tables journal sign-ins);
    none for a journal that names no people."""
    drawn = drawing_of(played).by
    if drawn:
        return drawn
    return played.who()
