"""The card shoe at the table: what its reports (docs/protocols/shoe-shuffler.md, "Shoe to
kiosk") become. The shoe's protocols name this module as their `table_side`
(hardware/protocols.py), and so does the shuffler's for the cards it deals
(kiosk/table/shuffler.py).

A card out of the device goes to a game that deals from one (`DealsFromShoe`): dealt, held
until the screen's step is done, or refused on record with the device's name; a card offered
to a game that takes none is refused on record. While the journal cannot write, each card waits
in the session's `unrecorded`, in order (`TableSession.in_order`), never dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware import events as ev
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed, Said
from kiosk.rules.game import DealsFromShoe
from kiosk.rules.operations import Operation
from kiosk.table.alerts import Severity
from kiosk.table.records import HELD, DeviceReport
from kiosk.table.session import CHECK_THE_CARDS, TableSession, device_name

CARD_EVENTS = (ev.CardRead, ev.CardUnread, ev.CardBurned, ev.CutCardOut)
"""What a dealing device (a shoe, or a shuffler that deals) does with a card."""


def on_event(session: TableSession[Any], event: Any) -> None:
    """Record one event of the card shoe (its protocol names this module as its
    `table_side`: kiosk/table/session.py routes its events here)."""
    device = event.device
    if isinstance(event, CARD_EVENTS):
        on_card_event(session, event)
    elif isinstance(event, ev.ShoeHello):
        session.device_online[device] = True
        restarted = event.restarted
        session.report(device, "restarted" if restarted else "hello",
                       f"{event.model} firmware {event.firmware} serial "
                       f"{event.serial_number}",
                       Severity.WARNING if restarted else None,
                       Said.words("The %(device)s restarted", device=device_name(device)),
                       CHECK_THE_CARDS)
    elif isinstance(event, ev.ShoeStateChanged):
        session.report(device, "state", str(event.state))
    # Heartbeats only keep the link alive (the driver watches them).


def on_card_event(session: TableSession[Any], event: Any) -> None:
    """A card, a burn, an unread card or the cutting card out of a dealing device."""
    device = event.device
    shoe = session.dealing_game()
    if shoe is None:  # capabilities: a shoe's event reaches only a game that deals
        session.report(device, "card_refused", f"{session.spec.title} deals no cards "
                       f"from a shoe", Severity.STOP,
                       f"The {device_name(device)} reported a card, but "
                       f"{session.spec.title.lower()} takes none",
                       "Check which devices are configured for this table")
        return
    session.in_order(event, waiting_words(event), lambda: _card_event(session, shoe, event))


def _card_event(session: TableSession[Any], shoe: DealsFromShoe[Any], event: Any) -> None:
    device = event.device
    out = session.out_of_play.get(device)
    if out is not None and isinstance(event, ev.CardRead | ev.CardBurned | ev.CardUnread):
        # The device's cards are out of play (its count did not match the decks): a card it
        # still deals is on record, refused, never dealt to the game.
        card: Card | None = getattr(event, "card", None)
        code = card.code if card is not None else "??"
        session.report(device, "card_refused", f"{code}: {out}", Severity.STOP,
                       Said.words("The %(device)s dealt a card, but its cards are out of "
                                  "play: %(why)s", device=device_name(device), why=out),
                       Said.words("Put the card aside with the cards out of play and call "
                                  "the inspector"))
        return
    if isinstance(event, ev.CardRead):
        _card_read(session, shoe, device, event.card)
    elif isinstance(event, ev.CardUnread):
        _device_action(session, device, "unread", shoe.unread_card,
                       "Key in the card from its face")
    elif isinstance(event, ev.CardBurned):
        card = event.card
        _device_action(session, device, "burn", lambda s: shoe.burn(s, card), "")
    elif isinstance(event, ev.CutCardOut) and _device_action(
            session, device, "cut", shoe.cut_card_out, ""):
        session.alert(Severity.INFO, shoe.cut_card_words(session.state))


def _card_read(session: TableSession[Any], shoe: DealsFromShoe[Any], device: str,
               card: Card) -> None:
    if session.held_cards or shoe.holds_cards(session.state):
        why: str = Said.words("it waits for the card before it")
        try:  # the rule that holds it, in the game's words
            shoe.verify_shoe_card(session.state, card)
        except NotAllowed as exc:
            why = Said(str(exc), exc.sentence)
        # On record before anything else: the card has left the shoe.
        session.dealing_device = device
        session.record(DeviceReport(device, HELD, card.code))
        held = session.held_cards
        if len(held) == 1:
            session.alert(Severity.WARNING, Said.words(
                "%(card)s held: %(why)s", card=card.name.capitalize(), why=why))
        elif held:  # one alert that counts them, not the same words again
            session.alert(Severity.WARNING, Said.words(
                "%(n)s cards held, dealt in order once the screen's step is done: "
                "%(cards)s", n=len(held), cards=", ".join(c.code for c in held)))
        return
    session.deal_card(shoe, device, card)


def _device_action(session: TableSession[Any], device: str, what: str,
                   action: Callable[[Any], Operation], way_forward: str) -> bool:
    """A device's act the game must allow; refused, it is reported once (not journaled
    as if it happened). True when it was recorded."""
    try:
        session.perform(action)
    except NotAllowed as exc:
        session.report(device, f"{what}_refused", str(exc), Severity.WARNING, str(exc),
                       way_forward)
        return False
    if way_forward:
        session.alert(Severity.STOP, f"The {device_name(device)} reported: {what}",
                      way_forward)
    return True


def waiting_words(event: Any) -> str:
    """A card event kept while the journal cannot write, as the console and the log say it."""
    if isinstance(event, ev.CardRead):
        return event.card.code
    if isinstance(event, ev.CardBurned):
        return f"burn {event.card.code}" if event.card is not None else "burn"
    return "unread card" if isinstance(event, ev.CardUnread) else "cutting card"
