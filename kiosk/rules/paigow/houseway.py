"""The house way: how the dealer sets the House's hands (rule 13.1.2, confirmed by the game
supervisor under 13.1.5) and the co-bank's (13.3.4). The rules leave the way to the house;
this is the default, and `[paigow] house_way` and `split_pairs` in table.toml change it.

1. **A pair is kept together** as the high hand (two pairs: the stronger high), unless the
   house sets `split_pairs = true`: then pairs are weighed like any other tiles (step 2).
2. **Otherwise the strongest low hand** (`house_way = "low-first"`), the stronger high hand
   breaking a tie; or, when the house says `house_way = "high-first"`, the strongest high hand,
   the stronger low breaking a tie.

Each setting says why (`Decision.why`), in the words `tableside paigow houseway` prints.

>>> from kiosk.rules.paigow.tiles import parse_tiles
>>> d = house_way(parse_tiles("66 45 55 16"))
>>> d.setting.codes, str(d.why)
('66 16 | 55 45', 'no pair: the strongest low hand, 9 (mooy), with high nine')
>>> house_way(parse_tiles("11 11 45 23")).setting.codes
'11 11 | 45 23'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules.errors import Said
from kiosk.rules.paigow.hands import Kind, Setting, splits
from kiosk.rules.paigow.tiles import Tile


class Way(StrEnum):
    LOW_FIRST = "low-first"
    HIGH_FIRST = "high-first"


@dataclass(frozen=True, slots=True)
class HouseWay:
    """The house's way of setting its hands (the default: pairs kept, the strongest low)."""

    way: Way = Way.LOW_FIRST
    split_pairs: bool = False


@dataclass(frozen=True, slots=True)
class Decision:
    setting: Setting
    why: Said


def _order(way: Way, s: Setting) -> tuple[int, int]:
    return (s.low.key, s.high.key) if way is Way.LOW_FIRST else (s.high.key, s.low.key)


def house_way(tiles: Sequence[Tile], rules: HouseWay | None = None) -> Decision:
    """The setting of four tiles by the house way, and why."""
    rules = rules or HouseWay()
    options = splits(tiles)
    if not rules.split_pairs:
        paired = [s for s in options if s.high.kind is Kind.PAIR]
        if paired:
            best = max(paired, key=lambda s: (s.high.key, s.low.key))
            return Decision(best, Said.words(
                "a pair is kept together: %(high)s high, %(low)s low", high=best.high.said,
                low=best.low.said))
    best = max(options, key=lambda s: _order(rules.way, s))
    if rules.way is Way.LOW_FIRST:
        why = Said.words("the strongest low hand, %(low)s, with %(high)s",
                         low=best.low.said, high=best.high.said)
    else:
        why = Said.words("the strongest high hand, %(high)s, with %(low)s",
                         high=best.high.said, low=best.low.said)
    if any(s.high.kind is Kind.PAIR for s in options):
        return Decision(best, Said.words("pairs weighed like other tiles: %(why)s", why=why))
    return Decision(best, Said.words("no pair: %(why)s", why=why))
