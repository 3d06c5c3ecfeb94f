"""The table's configuration file (TOML), read and checked before anything starts.

Money is written in whole currency units (`50`) or as a decimal string (`"12.50"`), never as a
TOML float, and becomes an int of cents. A file that is not valid is refused with its line and
the reason; the kiosk never starts on a half-understood configuration.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any

from hardware.gpio.errors import PinMapError
from hardware.gpio.pinmap import PinMap
from kiosk.rules.blackjack.house import (
    BlackjackRules,
    DealerBlackjackTakes,
    SplitMatch,
)
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.money import ChipRule, RoundingFavour
from kiosk.rules.punto_banco import (
    BetKind,
    CommissionMode,
    Limit,
    PuntoBancoRules,
)

EXAMPLE = """\
# Tableside table configuration. Money: whole units (50) or a string ("12.50").
[table]
id = "PB-01"
name = "Punto Banco 1"
game = "punto-banco"
currency = "R"
journal = "data/PB-01.db"

[punto_banco]
decks = 8                   # rule 5.4
areas = 7                   # rule 5.2: 7 to 14 numbered areas
standing_area = true        # rule 5.2
commission_mode = "net"     # rule 5.7: "net" pays 19:20; "commission" pays 1:1, 5% owed

[punto_banco.limits]        # rule 2.2
banker = { minimum = 50, maximum = 50000 }
player = { minimum = 50, maximum = 50000 }
tie = { minimum = 10, maximum = 5000 }

[chips]
smallest = 5                # the smallest chip on the table
rounding = "house"          # house | player | nearest (docs/money.md)
values = [5, 10, 25, 50, 100]   # the dealer screen's chip buttons, whole chips of `smallest`

[devices.shoe]
port = "simulated"          # a pyserial URL: /dev/ttyUSB0, socket://host:port; or simulated
dialect = "line"            # line | plain
baudrate = 9600

{GPIO}
[display]
width = 800                 # the dealer touchscreen (the official Pi display is 800x480)
height = 480
fullscreen = true
signage = true              # start the player signage on the second display
signage_width = 1920
signage_height = 1080
""".replace("{GPIO}", PinMap.as_toml_example())


GAMES = ("punto-banco", "blackjack", "touch-21")

BLACKJACK_EXAMPLE = """\
[blackjack]                 # section 4 (game = "blackjack") or 7 (game = "touch-21")
decks = 6                   # rule 4.5: 4 to 8; rule 7.5: 1 or 2 for Touch 21
minimum = 50                # rule 2.2, per bet on a box
maximum = 10000
dealer_hits_soft_17 = false # rule 4.2: stands on all 17s; Touch 21 (7.2): true
surrender = false           # rule 4.2 item 4a (never in Touch 21, rule 7.2 item 8)
double_after_split = true   # rule 4.2 item 4e
max_hands = 4               # resplits up to this many hands per box
dealer_blackjack_takes = "all"  # all | original: what doubles and splits lose to it
shuffler = false            # rule 4.6 (shuffle and cut): a shuffling device, no cut
"""


def example(game: str = "punto-banco") -> str:
    """A commented configuration for `game`: EXAMPLE, or its blackjack/Touch 21 form."""
    if game == "punto-banco":
        return EXAMPLE
    head = EXAMPLE.split("[punto_banco]")[0]
    head = head.replace('id = "PB-01"', 'id = "BJ-01"').replace(
        'name = "Punto Banco 1"', f'name = "{"Touch 21" if game == "touch-21" else "Blackjack"} 1"'
    ).replace('game = "punto-banco"', f'game = "{game}"').replace("PB-01.db", "BJ-01.db")
    section = BLACKJACK_EXAMPLE
    if game == "touch-21":
        section = section.replace("decks = 6 ", "decks = 2 ").replace(
            "dealer_hits_soft_17 = false", "dealer_hits_soft_17 = true ")
    return head + section + "\n[chips]" + EXAMPLE.split("[chips]")[1]


class ConfigError(UnreadableInput):
    """The configuration file is not valid; the message names the line and the reason."""


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    port: str = "simulated"
    dialect: str = "line"
    baudrate: int = 9600


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    width: int = 800
    height: int = 480
    fullscreen: bool = True
    signage: bool = True
    signage_width: int = 1920
    signage_height: int = 1080


@dataclass(frozen=True, slots=True)
class TableConfig:
    table_id: str
    name: str
    game: str
    rules: PuntoBancoRules | BlackjackRules
    journal: Path
    shoe: DeviceConfig = field(default_factory=DeviceConfig)
    source: Path | None = None
    chip_values: tuple[int, ...] = ()  # cents; empty: the dealer screen's defaults
    display: DisplayConfig = field(default_factory=DisplayConfig)
    gpio: PinMap = field(default_factory=PinMap)


def load(path: str | Path) -> TableConfig:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the configuration file: {exc.strerror}") from exc
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: the configuration file is not UTF-8 text") from None
    return parse(text, p)


def parse(text: str, path: Path | None = None) -> TableConfig:
    name = str(path) if path else "config"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML: {exc}") from None
    reader = _Reader(data, text, name)
    table = reader.section("table")
    table_id = reader.text(table, "table", "id")
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,32}", table_id):
        reader.fail("table", "id", "use 1-32 letters, digits, '-', '_' or '.'")
    game = reader.text(table, "table", "game", "punto-banco")
    if game not in GAMES:
        reader.fail("table", "game", f"unknown game {game!r}: one of {', '.join(GAMES)}")
    currency = reader.text(table, "table", "currency", "R")
    chips = reader.section("chips", required=False)
    smallest = reader.money(chips, "chips", "smallest", 100)
    favour = reader.choice(chips, "chips", "rounding", [f.value for f in RoundingFavour],
                           "house")
    chip_rule = ChipRule(smallest, RoundingFavour(favour))
    rules: PuntoBancoRules | BlackjackRules
    if game == "punto-banco":
        rules = _punto_banco(reader, chip_rule, currency)
    else:
        rules = _blackjack(reader, game, chip_rule, currency)
    return _rest(reader, table, table_id, game, rules, chips, smallest, path)


def _punto_banco(reader: _Reader, chip_rule: ChipRule, currency: str) -> PuntoBancoRules:
    smallest = chip_rule.smallest_chip
    pb = reader.section("punto_banco", required=False)
    limits_section = pb.get("limits", {})
    limits: list[Limit] = []
    defaults = {BetKind.BANKER: (5_000, 5_000_000), BetKind.PLAYER: (5_000, 5_000_000),
                BetKind.TIE: (1_000, 500_000)}
    for kind in BetKind:
        lim = limits_section.get(kind.value, {})
        where = f"punto_banco.limits.{kind.value}"
        if not isinstance(lim, dict):
            reader.fail("punto_banco.limits", kind.value,
                        "write { minimum = 50, maximum = 50000 }")
        lo = reader.money(lim, where, "minimum", defaults[kind][0])
        hi = reader.money(lim, where, "maximum", defaults[kind][1])
        if not 0 < lo <= hi:
            reader.fail("punto_banco.limits", kind.value,
                        "the minimum must be above zero and at most the maximum")
        limits.append(Limit(kind, lo, hi))
    try:
        rules = PuntoBancoRules(
            decks=reader.integer(pb, "punto_banco", "decks", 8),
            areas=reader.integer(pb, "punto_banco", "areas", 7),
            standing_area=reader.boolean(pb, "punto_banco", "standing_area", True),
            limits=tuple(limits),
            commission_mode=CommissionMode(reader.choice(
                pb, "punto_banco", "commission_mode", [m.value for m in CommissionMode],
                "net")),
            chips=chip_rule,
            currency=currency,
        )
    except ValueError as exc:
        key = "areas" if "area" in str(exc) else "decks" if "deck" in str(exc) else ""
        reader.fail("punto_banco", key, str(exc))
    for lim in rules.limits:
        for amount in (lim.minimum, lim.maximum):
            if amount % smallest:
                reader.fail("punto_banco.limits", lim.kind.value,
                            f"limits must be whole chips of {Fraction(smallest, 100)}")
    return rules


def _blackjack(reader: _Reader, game: str, chip_rule: ChipRule, currency: str
               ) -> BlackjackRules:
    """[blackjack]: the house's choices for standard blackjack (section 4) or Touch 21
    (section 7); the defaults are the section's own rules."""
    sec = reader.section("blackjack", required=False)
    touch = game == "touch-21"
    base = BlackjackRules.touch_21() if touch else BlackjackRules()
    where = "blackjack"
    try:
        return BlackjackRules(
            variant=base.variant,
            decks=reader.integer(sec, where, "decks", base.decks),
            boxes=reader.integer(sec, where, "boxes", base.boxes),
            minimum=reader.money(sec, where, "minimum", base.minimum),
            maximum=reader.money(sec, where, "maximum", base.maximum),
            dealer_hits_soft_17=reader.boolean(sec, where, "dealer_hits_soft_17",
                                               base.dealer_hits_soft_17),
            surrender=reader.boolean(sec, where, "surrender", base.surrender),
            double_after_split=reader.boolean(sec, where, "double_after_split",
                                              base.double_after_split),
            max_hands=reader.integer(sec, where, "max_hands", base.max_hands),
            split_match=SplitMatch(reader.choice(sec, where, "split_match",
                                                 [m.value for m in SplitMatch], "value")),
            dealer_blackjack_takes=DealerBlackjackTakes(reader.choice(
                sec, where, "dealer_blackjack_takes", [m.value for m in DealerBlackjackTakes],
                "all")),
            even_money=reader.boolean(sec, where, "even_money", True),
            shuffler=reader.boolean(sec, where, "shuffler", False),
            chips=chip_rule,
            currency=currency,
        )
    except ValueError as exc:
        text = str(exc)
        key = next((k for k in ("deck", "box", "surrender", "limit", "hands") if k in text), "")
        keys = {"deck": "decks", "box": "boxes", "limit": "minimum", "hands": "max_hands"}
        return reader.fail(where, keys.get(key, key), text)  # type: ignore[no-any-return]


def _rest(reader: _Reader, table: dict[str, Any], table_id: str, game: str,
          rules: PuntoBancoRules | BlackjackRules, chips: dict[str, Any], smallest: int,
          path: Path | None) -> TableConfig:
    devices = reader.section("devices", required=False)
    shoe = devices.get("shoe", {})
    if not isinstance(shoe, dict):
        reader.fail("devices", "shoe", "must be a table like [devices.shoe]")
    shoe_cfg = DeviceConfig(
        port=reader.text(shoe, "devices.shoe", "port", "simulated"),
        dialect=reader.choice(shoe, "devices.shoe", "dialect", ["line", "plain"], "line"),
        baudrate=reader.integer(shoe, "devices.shoe", "baudrate", 9600),
    )
    chip_values = _chip_values(reader, chips, smallest)
    shown = reader.section("display", required=False)
    display = DisplayConfig(
        width=reader.integer(shown, "display", "width", 800),
        height=reader.integer(shown, "display", "height", 480),
        fullscreen=reader.boolean(shown, "display", "fullscreen", True),
        signage=reader.boolean(shown, "display", "signage", True),
        signage_width=reader.integer(shown, "display", "signage_width", 1920),
        signage_height=reader.integer(shown, "display", "signage_height", 1080),
    )
    for key in ("width", "height", "signage_width", "signage_height"):
        if not 200 <= getattr(display, key) <= 7680:
            reader.fail("display", key, "must be a screen size in pixels (200 to 7680)")
    try:
        gpio = PinMap.from_mapping(reader.section("gpio", required=False))
    except PinMapError as exc:
        reader.fail("gpio", exc.key, exc.reason)
    journal = Path(reader.text(table, "table", "journal", f"data/{table_id}.db"))
    if path is not None and not journal.is_absolute():
        journal = path.parent / journal
    return TableConfig(table_id=table_id, name=reader.text(table, "table", "name", table_id),
                       game=game, rules=rules, journal=journal, shoe=shoe_cfg, source=path,
                       chip_values=chip_values, display=display, gpio=gpio)


def _chip_values(reader: _Reader, chips: dict[str, Any], smallest: int) -> tuple[int, ...]:
    """The chip buttons on the dealer screen: 1 to 6 values, each whole chips of the smallest."""
    raw = chips.get("values")
    if raw is None:
        return ()
    if not isinstance(raw, list) or not 1 <= len(raw) <= 6:
        reader.fail("chips", "values", "must be a list of 1 to 6 amounts, like [5, 25, 100]")
    values = []
    for item in raw:
        cents = reader.money({"values": item}, "chips", "values", 0)
        if cents <= 0 or cents % smallest:
            reader.fail("chips", "values",
                        f"{item!r} is not a whole number of the smallest chip")
        values.append(cents)
    if len(set(values)) != len(values):
        reader.fail("chips", "values", "a chip value is listed twice")
    return tuple(sorted(values))


class _Reader:
    """Typed look-ups that fail with the file, the line and the reason."""

    def __init__(self, data: dict[str, Any], text: str, name: str) -> None:
        self.data, self.lines, self.name = data, text.splitlines(), name

    def line_of(self, section: str, key: str) -> int | None:
        """The line where `key` is set, looked for after the section's header."""
        start = 0
        head = section.split(".")[0]
        for i, line in enumerate(self.lines):
            if re.match(rf"\s*\[{re.escape(head)}(\.|\])", line):
                start = i
                break
        pattern = re.compile(rf"\s*{re.escape(key)}\s*=|.*[{{,]\s*{re.escape(key)}\s*=")
        for i in range(start, len(self.lines)):
            if key and pattern.match(self.lines[i]):
                return i + 1
        return start + 1 if start else None

    def fail(self, section: str, key: str, reason: str) -> Any:
        line = self.line_of(section, key)
        where = f"{self.name}, line {line}" if line else self.name
        what = f"{section}.{key}" if key else section
        raise ConfigError(f"{where}: {what}: {reason}")

    def section(self, name: str, required: bool = True) -> dict[str, Any]:
        value = self.data.get(name)
        if value is None:
            if required:
                raise ConfigError(f"{self.name}: the [{name}] section is missing")
            return {}
        if not isinstance(value, dict):
            self.fail(name, "", "must be a section like [" + name + "]")
        return value

    def text(self, sec: dict[str, Any], where: str, key: str, default: str | None = None
             ) -> str:
        value = sec.get(key, default)
        if value is None:
            self.fail(where, key, "is required")
        if not isinstance(value, str) or not value.strip():
            self.fail(where, key, f"must be text in quotes, not {value!r}")
        return str(value)

    def integer(self, sec: dict[str, Any], where: str, key: str, default: int) -> int:
        value = sec.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, key, f"must be a whole number, not {value!r}")
        return int(value)

    def boolean(self, sec: dict[str, Any], where: str, key: str, default: bool) -> bool:
        value = sec.get(key, default)
        if not isinstance(value, bool):
            self.fail(where, key, f"must be true or false, not {value!r}")
        return bool(value)

    def choice(self, sec: dict[str, Any], where: str, key: str, options: list[str],
               default: str) -> str:
        value = sec.get(key, default)
        if value not in options:
            self.fail(where, key, f"must be one of {', '.join(options)}, not {value!r}")
        return str(value)

    def money(self, sec: dict[str, Any], where: str, key: str, default_cents: int) -> int:
        if key not in sec:
            return default_cents
        value = sec[key]
        if isinstance(value, float):
            self.fail(where, key, f"write money as a whole number or a string like "
                                  f"\"{value:.2f}\", not a decimal number")
        if isinstance(value, bool) or not isinstance(value, int | str):
            self.fail(where, key, f"must be an amount like 50 or \"12.50\", not {value!r}")
        try:
            cents = Decimal(str(value).strip()) * 100
        except InvalidOperation:
            return int(self.fail(where, key, f"{value!r} is not an amount"))
        if cents != cents.to_integral_value() or cents < 0:
            self.fail(where, key, f"{value!r} is not a whole number of cents")
        return int(cents)
