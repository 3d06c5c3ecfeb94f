"""Print every one of the 35,960 ways to take 4 of the 32 tiles, set by the default house way:
`python -m tests.rules.paigow.house_way_golden | gzip -n > tests/golden/paigow_house_way.txt.gz`
(written once; tests/rules/paigow/test_house_way.py holds the engine to it).

Each line: the four tiles' places in the set (kiosk.rules.paigow.tiles.SET, 0 to 31), the
tiles, then the setting, high | low, and the hands' words."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from itertools import combinations

from kiosk.rules.paigow.houseway import HouseWay, house_way
from kiosk.rules.paigow.tiles import SET, Tile


def lines(rules: HouseWay | None = None) -> Iterator[str]:
    cache: dict[tuple[Tile, ...], str] = {}
    for places in combinations(range(len(SET)), 4):
        tiles = tuple(SET[i] for i in places)
        key = tuple(sorted(tiles))
        setting = cache.get(key)
        if setting is None:
            s = house_way(tiles, rules).setting
            setting = cache[key] = f"{s.codes}  {s.words}"
        yield f"{' '.join(map(str, places))}: {' '.join(t.code for t in tiles)} -> {setting}"


if __name__ == "__main__":
    for line in lines():
        sys.stdout.write(line + "\n")
