"""[punto_banco] in table.toml: the house's choices within rules 5.1-5.7."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kiosk.rules.baccarat.engine import BetKind, CommissionMode, Limit, PuntoBancoRules
from kiosk.rules.registry import HouseSettings, SectionReader

SECTION = "punto_banco"

EXAMPLE = """\
[punto_banco]
decks = 8                   # rule 5.4: 1 to 16 (eight, or as the house has approved)
areas = 7                   # rule 5.2: 7 to 14 numbered areas
standing_area = true        # rule 5.2
commission_mode = "net"     # rule 5.7: "net" pays 19:20; "commission" pays 1:1, 5% owed

[punto_banco.limits]        # rule 2.2; each amount 5 to 10_000_000 in whole smallest chips
banker = { minimum = 50, maximum = 50000 }  # 5 to 10_000_000
player = { minimum = 50, maximum = 50000 }  # 5 to 10_000_000
tie = { minimum = 10, maximum = 5000 }      # 5 to 10_000_000
"""

_DEFAULT_LIMITS = {BetKind.BANKER: (5_000, 5_000_000), BetKind.PLAYER: (5_000, 5_000_000),
                   BetKind.TIE: (1_000, 500_000)}


def read_limits(reader: SectionReader, section: str, sec: dict[str, Any],
                defaults: dict[BetKind, tuple[int, int]], whole_chips: int | None = None
                ) -> tuple[Limit, ...]:
    """`[<section>.limits]`: each bet's minimum and maximum (rule 2.2), in whole chips of
    `whole_chips` when it is given (a variant of punto banco reads its limits here too)."""
    limits_section = reader.table(sec, section, "limits")
    limits: list[Limit] = []
    for kind in BetKind:
        lim = reader.table(limits_section, f"{section}.limits", kind.value)
        where = f"{section}.limits.{kind.value}"
        lo = reader.money(lim, where, "minimum", defaults[kind][0])
        hi = reader.money(lim, where, "maximum", defaults[kind][1])
        if not 0 < lo <= hi:
            reader.fail(f"{section}.limits", kind.value,
                        "the minimum must be above zero and at most the maximum")
        if whole_chips and (lo % whole_chips or hi % whole_chips):
            reader.fail(f"{section}.limits", kind.value,
                        f"limits must be whole chips of {Fraction(whole_chips, 100)}")
        limits.append(Limit(kind, lo, hi))
    return tuple(limits)


def parse(reader: SectionReader, house: HouseSettings) -> PuntoBancoRules:
    smallest = house.chips.smallest_chip
    sec = reader.section(SECTION, required=False)
    limits = read_limits(reader, SECTION, sec, _DEFAULT_LIMITS)
    try:
        rules = PuntoBancoRules(
            decks=reader.integer(sec, SECTION, "decks", 8, lo=1, hi=16,
                                 why="decks: what a shoe holds"),
            areas=reader.integer(sec, SECTION, "areas", 7, lo=7, hi=14,
                                 why="numbered betting areas (rule 5.2)"),
            standing_area=reader.boolean(sec, SECTION, "standing_area", True),
            limits=tuple(limits),
            commission_mode=CommissionMode(reader.choice(
                sec, SECTION, "commission_mode", [m.value for m in CommissionMode], "net")),
            chips=house.chips,
            currency=house.currency,
        )
    except ValueError as exc:
        key = "areas" if "area" in str(exc) else "decks" if "deck" in str(exc) else ""
        reader.fail(SECTION, key, str(exc))
    for limit in rules.limits:
        for amount in (limit.minimum, limit.maximum):
            if amount % smallest:
                reader.fail(f"{SECTION}.limits", limit.kind.value,
                            f"limits must be whole chips of {Fraction(smallest, 100)}")
    return rules
