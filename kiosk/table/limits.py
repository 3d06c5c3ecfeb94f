"""A limit change at the table by the inspector (the Mpumalanga table game rules, rule 2.2;
docs/roles.md).

The house sets the bounds (`[limits_bounds]` in table.toml, or the same section in the pit's
signed configuration): the lowest minimum and the highest maximum a bet's limits may be given
at the table. Between rounds the inspector, with a PIN and a reason, sets one bet's minimum
and maximum within them. A table with no bounds changes its limits at the pit only.

On record, in one transaction: the override (`OverrideApproved`, action `limit_change`),
`LimitsChanged` (the bet, the new limits, and the game's whole section after the change) and
the game's opening under the new rules, the same way a pit configuration version is applied
between rounds, so the engines judge every bet after it by the new limits. The table's start
reads the last `LimitsChanged` after the last pit version back over its configuration
(`kiosk.sync.offers.effective`); a newer pit version replaces it.

The kiosk (`kiosk.sync.offers.PitConfigs`) tells the screens what they need with `attach`:
the bounds, the game's section as the configuration in force has it, and how to read the
rules of a changed section; `desk(session)` is what a screen asks.
"""

from __future__ import annotations

import copy
import json
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.rules.errors import Amount, NotAllowed
from kiosk.rules.money import format_money
from kiosk.rules.operations import Operation
from kiosk.table.roles import (  # the record lives with the roles': every reader loads it
    ROLE_WORDS,
    LimitsChanged,
    Override,
    Role,
    RoleRefused,
    approval,
)


class LimitRefused(NotAllowed):
    """A limit change the table will not make; the message says why, for the dealer."""


@dataclass(frozen=True, slots=True)
class LimitBounds:
    """The house's bounds for a change at the table, in cents: every minimum set there is at
    least `minimum`, every maximum at most `maximum`."""

    minimum: int
    maximum: int


def read_bounds(section: Mapping[str, Any], money: Callable[[str, int], int],
                fail: Callable[[str, str, str], Any]) -> LimitBounds:
    """The `[limits_bounds]` section: `money(key, default)` reads an amount in cents the way
    the configuration reads money; `fail(section, key, reason)` raises with the line."""
    for key in section:
        if key not in ("minimum", "maximum"):
            fail("limits_bounds", key, "unknown key (known here: maximum, minimum)")
    for key in ("minimum", "maximum"):
        if key not in section:
            fail("limits_bounds", key, "is missing: the bounds need a minimum and a maximum")
    lo, hi = money("minimum", 0), money("maximum", 0)
    if lo > hi:
        fail("limits_bounds", "maximum", "must be at least the minimum")
    return LimitBounds(lo, hi)


@dataclass(frozen=True, slots=True)
class BetLimit:
    """One bet's limits as the rules in force have them ("" for the game's one pair)."""

    bet: str
    minimum: int
    maximum: int


def bet_limits(rules: Any) -> tuple[BetLimit, ...]:
    """The limits a change at the table may set: each bet's (punto banco's banker, player
    and tie), or the game's one pair (blackjack, Arizona Hold'em, pai gow); none for a game
    whose limits are of another shape (roulette's chip and maxima: at the pit only)."""
    limits = getattr(rules, "limits", None)
    if isinstance(limits, tuple) and all(hasattr(x, "kind") for x in limits):
        return tuple(BetLimit(str(x.kind), int(x.minimum), int(x.maximum)) for x in limits)
    lo, hi = getattr(rules, "minimum", None), getattr(rules, "maximum", None)
    if isinstance(lo, int) and isinstance(hi, int) and not isinstance(lo, bool):
        return (BetLimit("", lo, hi),)
    return ()


def _units(cents: int) -> str:
    whole, rest = divmod(cents, 100)
    return f"{whole}.{rest:02d}" if rest else str(whole)


def changed_section(data: Mapping[str, Any], bet: str, minimum: int, maximum: int
                    ) -> dict[str, Any]:
    """The game's section with `bet`'s limits set (amounts written as the file writes
    them: "12.50", "50")."""
    out = copy.deepcopy(dict(data))
    pair = {"minimum": _units(minimum), "maximum": _units(maximum)}
    if bet:
        limits = out.setdefault("limits", {})
        limits[bet] = {**limits.get(bet, {}), **pair}
    else:
        out.update(pair)
    return out


def limits_over(current: Mapping[str, Any], recorded: Mapping[str, Any], bet: str
                ) -> dict[str, Any]:
    """The game's section `current` (the configuration in force at a start) with the limits
    of a change on record (`recorded`, the section as it was then) over it: only the limits,
    so the file's other settings of that section, edited since, still count."""
    out = copy.deepcopy(dict(current))
    for key in (("limits",) if bet else ("minimum", "maximum")):
        if key in recorded:
            out[key] = copy.deepcopy(recorded[key])
    return out


def smallest_chip(rules: Any) -> int:
    """The table's smallest chip in cents, from a game's rules (0: they name none)."""
    return int(getattr(getattr(rules, "chips", None), "smallest_chip", 0) or 0)


def check_change(bounds: LimitBounds | None, known: tuple[BetLimit, ...], bet: str,
                 minimum: int, maximum: int, currency: str, chip: int = 0) -> None:
    """`LimitRefused` unless `bet`'s new limits may be set at the table: the house set bounds,
    the bet is one of the game's, 0 < minimum <= maximum, both are within the bounds and
    both are whole chips of `chip` (the smallest; 0: not checked here). Each refusal is a
    template, said in the dealer's language."""
    if bounds is None:
        raise LimitRefused.of("The house set no bounds for a limit change at the table: "
                              "the limits are changed at the pit")
    if not any(b.bet == bet for b in known):
        raise LimitRefused.of("%(bet)s has no limits to change at the table", bet=bet or "?")
    if not 0 < minimum <= maximum:
        raise LimitRefused.of("The minimum must be above zero and at most the maximum",
                              clause="2.2")
    if minimum < bounds.minimum or maximum > bounds.maximum:
        raise LimitRefused.of("%(lo)s to %(hi)s is outside the bounds the house set: "
                              "%(min)s to %(max)s", clause="2.2",
                              lo=format_money(minimum, currency),
                              hi=format_money(maximum, currency),
                              min=format_money(bounds.minimum, currency),
                              max=format_money(bounds.maximum, currency))
    if chip and (minimum % chip or maximum % chip):
        raise LimitRefused.of("%(lo)s to %(hi)s is not whole chips: each limit must be a "
                              "whole number of the table's smallest chip, %(chip)s",
                              clause="2.2", lo=Amount(minimum, currency),
                              hi=Amount(maximum, currency), chip=Amount(chip, currency))


@dataclass
class TableLimits:
    """What a limit change at the table needs from the kiosk (`attach`): the bounds (None:
    none set), the game's section name and its data in force, `rebuild(data)` the rules for
    a changed section (raising a ValueError with the reason), and `changed(data)` called
    once the change is on record."""

    bounds: LimitBounds | None
    section: str
    data: dict[str, Any]
    rebuild: Callable[[dict[str, Any]], Any]
    changed: Callable[[dict[str, Any]], None]


_DESKS: weakref.WeakKeyDictionary[Any, TableLimits] = weakref.WeakKeyDictionary()


def attach(session: Any, limits: TableLimits) -> None:
    """Tell the screens of `session` how its limits may be changed at the table."""
    _DESKS[session] = limits


def desk(session: Any) -> TableLimits | None:
    """What `attach` said for `session` (None: this table changes no limit at the table)."""
    return _DESKS.get(session)


def change_limits(session: Any, limits: TableLimits, person_id: str, pin: str, reason: str,
                  bet: str, minimum: int, maximum: int) -> Operation:
    """The inspector sets `bet`'s limits at the table (module text): `LimitRefused` or
    `RoleRefused`, and nothing on record, unless the table checks PINs, no round is in play,
    the new limits are within the bounds and the rules take them, and the PIN is an
    inspector's with a reason."""
    if not session.people.checked:
        raise RoleRefused.of("This table has no people list: nobody can give the "
                             "%(role)s's PIN", role=ROLE_WORDS[Role.INSPECTOR])
    game, state = session.game, session.state
    if not game.between_rounds(state):
        raise LimitRefused.of("The limits change between rounds: finish this %(round)s first",
                              clause="2.2", round=session.spec.round_word)
    rules = game.rules_of(state)
    currency = str(getattr(rules, "currency", "R"))
    check_change(limits.bounds, bet_limits(rules), bet, minimum, maximum, currency,
                 smallest_chip(rules))
    if not " ".join(reason.split()):
        raise RoleRefused.of("Give a reason for the override")
    data = changed_section(limits.data, bet, minimum, maximum)
    try:
        new_rules = limits.rebuild(data)
    except ValueError as exc:  # the rules refuse it (limits of whole chips): in their words
        raise LimitRefused(str(exc)) from exc
    person = session.check_pin(person_id, pin)
    words = f"{bet or 'bet'} {format_money(minimum, currency)} to " \
            f"{format_money(maximum, currency)}"
    record = approval(person, Override.LIMIT_CHANGE, reason, words)
    change = LimitsChanged(bet, minimum, maximum, limits.section,
                           json.dumps(data, sort_keys=True))
    opening = game.open_table(new_rules, session.table_id)
    op: Operation = session.perform(lambda _s: opening, before=[record, change])
    limits.data = data
    limits.changed(data)
    return op
