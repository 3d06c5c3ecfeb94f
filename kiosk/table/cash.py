"""Cash and chips (the Mpumalanga table game rules, rule 2.1).

Notes and chips the dealer takes and the chips handed out are laid out on the table for
verification before the transaction is performed; a cash buy-in gets chips to the value of
the cash tendered (less what the player asked the dealer to bet straight away). Each is on
record with its amounts in cents: a buy-in (`CashBuyIn`: the cash, the chips given, value
chips or a colour of wheel chips at roulette), a chip change and a colour-up
(`ChipExchange`: the chips taken and the chips given, equal in value, each broken down by
chip as {chip value: count}; rows written before the breakdown carry the two amounts alone
and read as before). The dealer's screen asks the dealer to confirm the layout for
verification before anything is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from kiosk.rules.amounts import format_money
from kiosk.rules.errors import Amount, NotAllowed
from kiosk.rules.operations import TableRecord

MAX_AMOUNT = 100_000_000_00
"""The largest amount one transaction records, in cents (a mistyped amount is refused)."""


class Exchange(StrEnum):
    CHANGE = "change"  # chips for chips of other values (break down, or make up)
    COLOUR_UP = "colour_up"  # a player's chips for fewer of higher value (wheel chips too)


@dataclass(frozen=True, slots=True)
class CashBuyIn(TableRecord):
    """Cash for chips (rule 2.1). `chips` is the value of the chips given, in cents: the
    cash less `bet`, the part the player asked the dealer to bet at once. At roulette the
    chips may be wheel chips of one colour: `colour`, `wheel_chips` of `chip_value` each."""

    kind = "cash_buy_in"
    place: str  # the box, area or seat; "" when none
    cash: int
    chips: int
    bet: int = 0
    colour: str = ""
    wheel_chips: int = 0
    chip_value: int = 0
    laid_out: bool = True  # the cash was laid out for verification first (rule 2.1)


@dataclass(frozen=True, slots=True)
class ChipExchange(TableRecord):
    """Chips for chips (rule 2.1): `taken` the value the dealer took, `given` the value
    handed out (equal); `colour` names the wheel chips coloured up at roulette.
    `taken_chips` and `given_chips` break them down by chip, {chip value in cents: count}
    (empty on a row written before the breakdown: its two amounts alone)."""

    kind = "chip_exchange"
    what: Exchange
    place: str
    taken: int
    given: int
    colour: str = ""
    wheel_chips: int = 0
    laid_out: bool = True
    taken_chips: dict[int, int] = field(default_factory=dict, hash=False)
    given_chips: dict[int, int] = field(default_factory=dict, hash=False)

    def words(self, currency: str = "R") -> str:
        """The exchange in words, for the replay and the pit: "took 2 x R100 = R200, gave
        4 x R50 = R200" ("took 5 pink wheel chips: 5 x R10,000 = R50,000, ..." at roulette;
        a row with no breakdown: "took R200, gave R200")."""
        took = chips_words(self.taken_chips, currency) if self.taken_chips else ""
        if took and self.colour and self.wheel_chips:  # a colour-up at roulette
            took = f"{self.wheel_chips} {self.colour} wheel chips: {took}"
        gave = chips_words(self.given_chips, currency) if self.given_chips else ""
        took = f"{took} = " if took else ""
        gave = f"{gave} = " if gave else ""
        return (f"took {took}{format_money(self.taken, currency)}, "
                f"gave {gave}{format_money(self.given, currency)}")


def chips_value(chips: Mapping[int, int]) -> int:
    """What chips {value: count} are worth, in cents."""
    return sum(value * count for value, count in chips.items())


def chips_words(chips: Mapping[int, int], currency: str = "R") -> str:
    """Chips {value: count} in words, highest value first: "2 x R100 + 1 x R50"."""
    return " + ".join(f"{count} x {format_money(value, currency)}"
                      for value, count in sorted(chips.items(), reverse=True))


def _amount(cents: int, what: str) -> None:
    if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
        raise NotAllowed.of("The %(what)s must be an amount of money", what=what)
    if cents > MAX_AMOUNT:
        raise NotAllowed.of("The %(what)s is more than the table records at once", what=what)


def buy_in(place: str, cash: int, *, bet: int = 0, colour: str = "", wheel_chips: int = 0,
           chip_value: int = 0, laid_out: bool) -> CashBuyIn:
    """The record of a cash buy-in: chips to the value of the cash, less what the player
    asked to bet at once (rule 2.1). Refused until the cash is laid out for verification."""
    if not laid_out:
        raise NotAllowed.of("Lay the cash out on the table for verification first", "2.1")
    _amount(cash, "cash")
    _amount(bet, "bet")
    if cash == 0:
        raise NotAllowed.of("Enter the cash the player tendered", "2.1")
    if bet > cash:
        raise NotAllowed.of("The bet is more than the cash tendered", "2.1")
    chips = cash - bet
    if colour:
        if wheel_chips < 1 or chip_value < 1 or wheel_chips * chip_value != chips:
            raise NotAllowed.of("%(n)s wheel chips of %(value)s do not make the cash's value",
                                "2.1", n=wheel_chips, value=chip_value)
    elif wheel_chips or chip_value:
        raise NotAllowed.of("Say the wheel chips' colour")
    return CashBuyIn(place.strip(), cash, chips, bet, colour, wheel_chips, chip_value,
                     laid_out)


def exchange(what: Exchange, place: str, taken: int, given: int, *, colour: str = "",
             wheel_chips: int = 0, laid_out: bool) -> ChipExchange:
    """The record of a chip change or colour-up: the chips taken and given laid out for
    verification, equal in value (rule 2.1)."""
    if not laid_out:
        raise NotAllowed.of("Lay the chips out on the table for verification first", "2.1")
    _amount(taken, "chips taken")
    _amount(given, "chips given")
    if taken == 0:
        raise NotAllowed.of("Enter the value of the chips taken", "2.1")
    if taken != given:
        raise NotAllowed.of("The chips given must be worth the chips taken", "2.1")
    if wheel_chips and not colour:
        raise NotAllowed.of("Say the wheel chips' colour")
    return ChipExchange(what, place.strip(), taken, given, colour, wheel_chips, laid_out)


def _chips(chips: Mapping[int, int], what: str) -> dict[int, int]:
    """Chips {value: count} checked: values and counts whole and above nought."""
    out: dict[int, int] = {}
    for value, count in chips.items():
        for n in (value, count):
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise NotAllowed.of("The %(what)s must be chips of a value, counted", what=what)
        out[value] = out.get(value, 0) + count
    _amount(chips_value(out), what)
    return dict(sorted(out.items(), reverse=True))


def exchange_chips(what: Exchange, place: str, taken: Mapping[int, int],
                   given: Mapping[int, int], *, colour: str = "", wheel_chips: int = 0,
                   laid_out: bool, currency: str = "R") -> ChipExchange:
    """The record of a chip change or colour-up broken down by chip: the chips taken and the
    chips given, {value: count} each, laid out for verification and equal in value (rule
    2.1); refused, with both totals, when they differ."""
    if not laid_out:
        raise NotAllowed.of("Lay the chips out on the table for verification first", "2.1")
    took, gave = _chips(taken, "chips taken"), _chips(given, "chips given")
    if not took:
        raise NotAllowed.of("Enter the chips taken", "2.1")
    if chips_value(took) != chips_value(gave):
        raise NotAllowed.of("The chips given (%(given)s) must be worth the chips taken "
                            "(%(taken)s)", "2.1", given=Amount(chips_value(gave), currency),
                            taken=Amount(chips_value(took), currency))
    if wheel_chips and not colour:
        raise NotAllowed.of("Say the wheel chips' colour")
    return ChipExchange(what, place.strip(), chips_value(took), chips_value(gave), colour,
                        wheel_chips, laid_out, took, gave)
