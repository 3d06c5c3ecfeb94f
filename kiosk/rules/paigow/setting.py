"""The hands as set: each player's, then the bank's (13.1.2, 13.2.3, 13.3.4), and the game
supervisor's confirmation of the House hand (13.1.5)."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.rules.errors import NotAllowed, Said, allowed
from kiosk.rules.paigow import hands as tile_hands
from kiosk.rules.paigow.hands import hand
from kiosk.rules.paigow.houseway import house_way
from kiosk.rules.paigow.operations import (
    Bank,
    BankHandSet,
    HandSet,
    HandUnset,
    HouseWayConfirmed,
    Pair,
)
from kiosk.rules.paigow.state import PaiGowState, Phase
from kiosk.rules.paigow.tiles import Tile, too_many


def _pair(tiles: Sequence[Tile]) -> Pair:
    h = hand(*tiles)
    return h.tiles


def _tiles_left(state: PaiGowState, tiles: Sequence[Tile]) -> None:
    extra = too_many((*state.tiles_in_play, *tiles))
    if extra is not None:
        raise NotAllowed.of("The set has only %(copies)s of %(tile)s, and it is in play "
                            "already", copies=extra.copies, tile=extra.code)


def verify_set_hand(state: PaiGowState, area: int, high: Sequence[Tile],
                    low: Sequence[Tile]) -> None:
    """A wagered area's four tiles as its player set them."""
    if state.phase is not Phase.SETTING:
        raise NotAllowed.of("Hands are set after no more bets and before the bank's")
    if not state.wager_of(area):
        raise NotAllowed.of("Area %(area)s has no wager", area=area)
    if state.hand_of(area) is not None:
        raise NotAllowed.of("Area %(area)s has set its hands", area=area)
    _check_hand(high, low)
    _tiles_left(state, (*high, *low))


def _check_hand(high: Sequence[Tile], low: Sequence[Tile]) -> None:
    tile_hands.verify_set_hand(high, low)


def can_set_hand(state: PaiGowState, area: int, high: Sequence[Tile],
                 low: Sequence[Tile]) -> bool:
    return allowed(verify_set_hand, state, area, high, low)


def set_hand(state: PaiGowState, area: int, high: Sequence[Tile],
             low: Sequence[Tile]) -> HandSet:
    verify_set_hand(state, area, high, low)
    return HandSet(area, _pair(high), _pair(low))


def verify_unset_hand(state: PaiGowState, area: int) -> None:
    """An area's hands keyed wrong are taken off, to be keyed again, while the bank's hands
    are not set (the house's procedure: the rules' text does not speak of it; once the bank's
    hands are set after every other hand, 13.1.2, 13.2.3, 13.3.4, the round's hands stand)."""
    if state.phase is not Phase.SETTING:
        raise NotAllowed.of("A hand is corrected only before the bank's hands are set")
    if state.hand_of(area) is None:
        raise NotAllowed.of("Area %(area)s has no hands set to correct", area=area)


def can_unset_hand(state: PaiGowState, area: int) -> bool:
    return allowed(verify_unset_hand, state, area)


def unset_hand(state: PaiGowState, area: int) -> HandUnset:
    verify_unset_hand(state, area)
    return HandUnset(area)


def verify_set_bank(state: PaiGowState, tiles: Sequence[Tile],
                    high: Sequence[Tile] | None = None) -> None:
    """The bank's four tiles, set after all the players' hands: the House's and the co-bank's
    the house way (13.1.2, 13.3.4: `high` None or the house way's), the player/banker's as
    they set them (`high` the two tiles of their high hand; None: the house way, 13.2.3)."""
    if state.phase is not Phase.SETTING:
        raise NotAllowed.of("The bank's hands are set after no more bets")
    if state.to_set is not None:
        raise NotAllowed.of("Area %(area)s sets its hands first: the bank's come last",
                            clause={Bank.HOUSE: "13.1.2", Bank.PLAYER: "13.2.3",
                                                   Bank.COBANK: "13.3.4"}[state.bank],
                            area=state.to_set)
    if len(tiles) != 4:
        raise NotAllowed.of("Set four tiles: two in the high hand and two in the low")
    _tiles_left(state, tiles)
    way = house_way(tiles, state.rules.house_way).setting
    if high is None:
        return
    rest = list(tiles)
    for t in high:
        if t not in rest:
            raise NotAllowed.of("The high hand's tiles must be two of the bank's four")
        rest.remove(t)
    _check_hand(high, rest)
    if state.bank is Bank.HOUSE and hand(*high) != way.high:
        raise NotAllowed.of("The House hand is set the house way: %(way)s", clause="13.1.5",
                            way=way.codes)
    if state.bank is Bank.COBANK and hand(*high) != way.high:
        raise NotAllowed.of("The co-banking hands are set the house way: %(way)s",
                            clause="13.3.4", way=way.codes)


def can_set_bank(state: PaiGowState, tiles: Sequence[Tile],
                 high: Sequence[Tile] | None = None) -> bool:
    return allowed(verify_set_bank, state, tiles, high)


def set_bank(state: PaiGowState, tiles: Sequence[Tile],
             high: Sequence[Tile] | None = None) -> BankHandSet:
    verify_set_bank(state, tiles, high)
    decision = house_way(tiles, state.rules.house_way)
    if high is None:
        return BankHandSet(decision.setting.high.tiles, decision.setting.low.tiles, True,
                           str(decision.why))
    rest = list(tiles)
    for t in high:
        rest.remove(t)
    by_way = hand(*high) == decision.setting.high
    why = decision.why if by_way else Said.words("set by the player/banker")
    return BankHandSet(_pair(high), _pair(rest), by_way, str(why))


def verify_confirm_house_way(state: PaiGowState, supervisor: str) -> None:
    """Rule 13.1.5: the game supervisor confirms the House hand was set the House way."""
    if state.phase is not Phase.CONFIRM:
        raise NotAllowed.of("No House hand waits for the supervisor", clause="13.1.5")
    if not supervisor.strip():
        raise NotAllowed.of("Name the supervisor who confirms the House way", clause="13.1.5")


def can_confirm_house_way(state: PaiGowState, supervisor: str) -> bool:
    return allowed(verify_confirm_house_way, state, supervisor)


def confirm_house_way(state: PaiGowState, supervisor: str) -> HouseWayConfirmed:
    verify_confirm_house_way(state, supervisor)
    return HouseWayConfirmed(supervisor.strip())
