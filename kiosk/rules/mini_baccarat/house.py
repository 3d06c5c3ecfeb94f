"""Mini baccarat's house rules and the values of its shuffler malfunction procedure (the
Mpumalanga table game rules for mini baccarat, rules 12.1-12.5; the coup itself is punto
banco's, rules 5.1-5.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules.baccarat.house import PuntoBancoRules

GAME = "mini-baccarat"
SEATS = (7, 9)  # one dealer, seven or nine seated players


class Device(StrEnum):
    """What the cards are dealt from."""

    SHUFFLER = "shuffler"  # a shuffling device that deals (rule 12.1.1)
    SHOE = "shoe"  # a dealing shoe (rule 12.5.4)


class Role(StrEnum):
    """Who established a fact or made a decision."""

    DEALER = "dealer"
    INSPECTOR = "inspector"
    DEVICE = "device"  # the shuffler's own report of its fault


class Fact(StrEnum):
    """The facts the procedure turns on, in the order the dealer screen asks them."""

    DAMAGED = "damaged"  # rule 12.3: the malfunction damaged cards in the device
    DISADVANTAGED = "disadvantaged"  # rules 12.1.3, 12.4: the casino or a player lost by it
    SPARE = "spare"  # rule 12.1.4: another shuffling device is readily available
    TRANSFERABLE = "transferable"  # rule 12.1.5: the cards can be moved to it


class Branch(StrEnum):
    """Which rule the facts lead to."""

    TRANSFER = "12.2"  # no damage: transfer the cards, continue
    REPLACE = "12.3"  # damaged cards: remove, transfer, replace, continue
    TERMINATE = "12.4"  # someone disadvantaged: the coup ends, every wager returned
    DEALING_SHOE = "12.5"  # no spare, or not transferable: offers, shuffle and cut, a shoe


@dataclass(frozen=True, slots=True)
class Who:
    """Who made a decision: the dealer, or an inspector by name and badge (the shuffler for
    its own fault report)."""

    role: Role
    name: str = ""
    badge: str = ""

    def __str__(self) -> str:
        if self.role is Role.INSPECTOR:
            name = f"inspector {self.name}" if self.name else "the inspector"
            return f"{name} (badge {self.badge})" if self.badge else name
        if self.role is Role.DEVICE:
            return self.name or "the shuffler"
        return f"dealer {self.name}" if self.name else "the dealer"


DEALER = Who(Role.DEALER)
SHUFFLER = Who(Role.DEVICE, "shuffler")


def inspector(name: str, badge: str) -> Who:
    return Who(Role.INSPECTOR, name.strip(), badge.strip())


@dataclass(frozen=True, slots=True)
class MiniBaccaratRules(PuntoBancoRules):
    """Punto banco's rules on a mini baccarat table: one dealer, seven or nine seats (no
    standing players' area), the cards dealt from a shuffling device or a shoe."""

    areas: int = 7
    standing_area: bool = False
    dealt_from: Device = Device.SHUFFLER

    def __post_init__(self) -> None:
        # No zero-argument super() in a slotted dataclass: the class is made anew.
        PuntoBancoRules.__post_init__(self)
        if self.areas not in SEATS:
            raise ValueError(f"mini baccarat has 7 or 9 seats, not {self.areas}")
        if self.standing_area:
            raise ValueError("mini baccarat has no standing players' area: every player "
                             "sits at one of the seats")
