"""The shuffler at the table: what its reports (docs/protocols/shoe-shuffler.md, "Shuffler to
kiosk") become. The shuffler's protocol names this module as its `table_side`
(hardware/protocols.py).

A shuffler that deals (its `CARD`, `BURN`, `UNREAD` frames) feeds the game as the card shoe
does (kiosk/table/shoe.py), every record in the shuffler's name. Its state, count, faults and
damaged cards are on record (`device_report`), shown to the dealer with what to do, and told to
a game that weighs them (`UsesShuffler.shuffler_report(state, event, detail)`), with these
`event` words:

| event | when | detail |
|---|---|---|
| `state` | `STATE` | the state (`READY`, `DEALING`...) |
| `count` | `COUNT` that matches the decks in play | "416 cards counted" |
| `count_wrong` | `COUNT` that does not | "415 cards counted, 416 in 8 decks" |
| `fault` | `FAULT` | "JAM: card jam" |
| `damaged` | `DAMAGED` | "2 damaged card(s)" |
| `restarted` | `HELLO` after a power loss | model, firmware, serial number |

A count that does not match the decks in play takes the shuffler's cards out of play until it
counts right again: a card it deals meanwhile is refused on record, never dealt.
"""

from __future__ import annotations

from typing import Any

from hardware import events as ev
from kiosk.rules.errors import Said
from kiosk.rules.game import UsesShuffler
from kiosk.table import shoe
from kiosk.table.alerts import Severity
from kiosk.table.records import COUNT_WRONG, COUNTED, DeviceReport
from kiosk.table.session import TableSession

CARDS_A_DECK = 52


def on_event(session: TableSession[Any], event: Any) -> None:
    """Record one event of the shuffler (its protocol names this module as its
    `table_side`: kiosk/table/session.py routes its events here)."""
    device = event.device
    if isinstance(event, shoe.CARD_EVENTS):  # a shuffler that deals: as a shoe does
        shoe.on_card_event(session, event)
        return
    if isinstance(event, ev.ShoeHello):
        shoe.on_event(session, event)  # on record as any device's HELLO
        if event.restarted:
            _tell_game(session, "restarted", f"{event.model} firmware {event.firmware} "
                       f"serial {event.serial_number}")
        return
    if isinstance(event, ev.ShufflerFault):
        what, detail = "fault", f"{event.code}: {event.text}".rstrip(": ")
        session.report(device, what, detail, Severity.STOP,
                       Said.words("The shuffler reports a fault: %(detail)s", detail=detail),
                       Said.words("Stop dealing from it and call the inspector: the "
                                  "shuffler malfunction procedure decides how the %(round)s "
                                  "goes on", round=session.round_word()))
    elif isinstance(event, ev.CardsDamaged):
        what, detail = "damaged", f"{event.cards} damaged card(s)"
        session.report(device, what, detail, Severity.WARNING,
                       Said.words("The shuffler found %(n)s damaged card(s)", n=event.cards),
                       Said.words("Take the damaged cards out of play and replace them with "
                                  "cards from a new deck"))
    elif isinstance(event, ev.ShuffleCount):
        what, detail = _count(session, device, event.cards)
    elif isinstance(event, ev.ShufflerStateChanged):
        what, detail = "state", str(event.state)
        session.report(device, what, detail)
    else:  # heartbeats only keep the link alive (the driver watches them)
        return
    _tell_game(session, what, detail)


def decks_in_play(session: TableSession[Any]) -> int | None:
    """The decks the game's rules put in play (`decks`), or None for a game with no count."""
    decks = getattr(session.game.rules_of(session.state), "decks", None)
    return decks if isinstance(decks, int) and not isinstance(decks, bool) else None


def _count(session: TableSession[Any], device: str, cards: int) -> tuple[str, str]:
    """`COUNT`, checked against the decks in play. A wrong count takes the shuffler's cards
    out of play until it counts right again. Each change between in play and out of play is
    its own row (a fact of the fold, never coalesced with the report before it); a repeat is
    coalesced like any report."""
    decks = decks_in_play(session)
    was_out = device in session.out_of_play
    if decks is not None and cards != CARDS_A_DECK * decks:
        # Out of play until counted right, as damaged cards are removed from play and
        # replaced from a new deck (mini baccarat shuffling device malfunction, rule 12.3.1,
        # rule 12.3.3).
        expected = CARDS_A_DECK * decks
        detail = f"{cards} cards counted, {expected} in {decks} decks"
        message = Said.words("The shuffler counted %(n)s cards; %(decks)s decks are "
                             "%(expected)s", n=cards, decks=decks, expected=expected)
        way = Said.words("Its cards are out of play: take them all out and count them by "
                         "hand with the inspector; replace missing or damaged cards from a "
                         "new deck, or put in new decks, and shuffle again")
        if was_out:
            session.report(device, COUNT_WRONG, detail, Severity.STOP, message, way)
        else:
            session.record(DeviceReport(device, COUNT_WRONG, detail))
            session.alert(Severity.STOP, message, way)
        return COUNT_WRONG, detail
    detail = f"{cards} cards counted"
    if not was_out:
        session.report(device, COUNTED, detail)
        return COUNTED, detail
    session.record(DeviceReport(device, COUNTED, detail))
    session.alert(Severity.INFO, Said.words(
        "The shuffler counted %(n)s cards, as the decks in play: its cards are in play "
        "again", n=cards))
    return COUNTED, detail


def _tell_game(session: TableSession[Any], what: str, detail: str) -> None:
    """A game that weighs the shuffler's reports is told (mini baccarat's malfunction
    procedure); what it answers goes on record like a dealer's action."""
    game = session.game
    if isinstance(game, UsesShuffler):
        op = game.shuffler_report(session.state, what, detail)
        if op is not None:
            session.attempt(lambda _s: op)
