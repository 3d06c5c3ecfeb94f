"""[mini_baccarat] in table.toml: the house's choices within rules 5.1-5.7 on a mini baccarat
table (seven or nine seats, the cards from a shuffling device or a shoe)."""

from __future__ import annotations

from kiosk.rules.baccarat.config import read_limits
from kiosk.rules.baccarat.house import BetKind, CommissionMode
from kiosk.rules.mini_baccarat.house import Device, MiniBaccaratRules
from kiosk.rules.registry import HouseSettings, SectionReader

SECTION = "mini_baccarat"

EXAMPLE = """\
[mini_baccarat]
decks = 8                   # rule 5.4: 1 to 16 (eight, or as the house has approved)
seats = 7                   # 7 to 9: seven or nine seats, never eight (one dealer)
dealt_from = "shuffler"     # "shuffler" (rules 12.1-12.5 if it fails) or "shoe"
commission_mode = "net"     # rule 5.7: "net" pays 19:20; "commission" pays 1:1, 5% owed

[mini_baccarat.limits]      # rule 2.2; each amount 5 to 10_000_000 in whole smallest chips
banker = { minimum = 25, maximum = 10000 }  # 5 to 10_000_000
player = { minimum = 25, maximum = 10000 }  # 5 to 10_000_000
tie = { minimum = 5, maximum = 1000 }       # 5 to 10_000_000
"""

_DEFAULT_LIMITS = {BetKind.BANKER: (2_500, 1_000_000), BetKind.PLAYER: (2_500, 1_000_000),
                   BetKind.TIE: (500, 100_000)}


def parse(reader: SectionReader, house: HouseSettings) -> MiniBaccaratRules:
    smallest = house.chips.smallest_chip
    sec = reader.section(SECTION, required=False)
    limits = read_limits(reader, SECTION, sec, _DEFAULT_LIMITS, whole_chips=smallest)
    seats = reader.integer(sec, SECTION, "seats", 7, lo=7, hi=9,
                           why="seats at a mini baccarat table: 7 or 9")
    if seats not in (7, 9):
        reader.fail(SECTION, "seats", f"a mini baccarat table has 7 or 9 seats, not {seats}")
    try:
        return MiniBaccaratRules(
            decks=reader.integer(sec, SECTION, "decks", 8, lo=1, hi=16,
                                 why="decks: what a shoe holds"),
            areas=seats,
            limits=tuple(limits),
            commission_mode=CommissionMode(reader.choice(
                sec, SECTION, "commission_mode", [m.value for m in CommissionMode], "net")),
            dealt_from=Device(reader.choice(sec, SECTION, "dealt_from",
                                            [d.value for d in Device], "shuffler")),
            chips=house.chips,
            currency=house.currency,
        )
    except ValueError as exc:
        reader.fail(SECTION, "decks" if "deck" in str(exc) else "seats", str(exc))
