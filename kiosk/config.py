"""The table's configuration file (TOML), read and checked before anything starts.

Money is written in whole currency units (`50`) or as a decimal string (`"12.50"`), never as a
TOML float, and becomes an int of cents. A file that is not valid is refused with its line and
the reason; the kiosk never starts on a half-understood configuration.
"""

from __future__ import annotations

import copy
import difflib
import os
import re
import ssl
import tempfile
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn

from hardware.gpio.errors import PinMapError
from hardware.gpio.pinmap import PinMap
from hardware.protocols import roles
from kiosk import i18n
from kiosk.floor_care import SignCare, parse_night
from kiosk.host import HostConfig, read_host
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.money import ChipRule, RoundingFavour
from kiosk.rules.registry import GAMES, GameSpec, HouseSettings, UnknownGame, games
from kiosk.table.hours import WEEKDAYS, HoursError, OpeningHours
from kiosk.table.limits import LimitBounds, read_bounds
from kiosk.table.roles import NO_LIST, People, read_people

MAX_AMOUNT = 1_000_000_000
"""The largest amount any setting may name, in cents (R10,000,000): the most the dealer
screen and the signs are proved to show whole (tests/ui/test_layout_signs.py)."""
MAX_SMALLEST_CHIP = 1_000_000
"""The largest `[chips] smallest`, in cents (R10,000)."""
BAUDRATES = (50, 4_000_000)
"""The baud rates a serial port can be set to (Linux, the Pi's UARTs and USB adapters)."""


def _whole(n: int) -> str:
    """A range's end as the example writes it: 1440, 4_000_000."""
    return f"{n:_}" if abs(n) >= 10_000 else str(n)


def units(cents: int) -> str:
    """An amount of cents in the units the file writes, as TOML reads it back:
    1_000_000_000 -> "10_000_000", 5 -> "0.05"."""
    whole, rest = divmod(cents, 100)
    return _whole(whole) + (f".{rest:02d}" if rest else "")


_HEAD = """\
# Tableside table configuration. Money: whole units (50) or a string ("12.50").
[table]
id = "{id}"
name = "{name}"
game = "{game}"
currency = "R"
journal = "data/{id}.db"

"""

_TAIL = """
[chips]
smallest = 5                # the smallest chip on the table: 0.01 to {SMALLEST_MAX}
rounding = "house"          # house | player | nearest (docs/money.md)
values = [5, 10, 25, 50, 100]   # the chip buttons (1 to 6): each 5 to 10_000_000, whole chips

{DEVICES}
{GPIO}
# [hours]                   # approved opening hours (rule 2.4), local time; none: always open
# daily = "18:00-02:00"     # a span over midnight belongs to the day it starts; or "closed"
# sun = "closed"            # a weekday's own hours (mon .. sun) over daily
# timezone = "Africa/Johannesburg"

# [limits_bounds]           # rule 2.2: the inspector may change a bet's limits at the table
# minimum = 10              # within these (the lowest minimum, the highest maximum); none:
# maximum = 100000          # the limits change at the pit only

[display]
width = 800                 # the dealer touchscreen: 800 to 1920 wide (the Pi display: 800x480)
height = 480                # 480 to 1080, landscape, 16:10 to 16:9
fullscreen = true
signage = true              # start the player signage on the second display
signage_width = 1920        # 800 to 1920 (a portrait sign: 1080x1920)
signage_height = 1080       # 480 to 1920, 16:10 to 16:9 either way up
# dealer_screen = "HDMI-2"  # the dealer's screen, if not a DSI panel or the first connected
languages = ["en"]          # the sign's languages in turn: {LANGUAGES} (assets/locale)
dealer_language = "en"      # the dealer screen's language, one of the same
language_seconds = 20       # how long the sign stays in each language: {SECONDS} seconds
money_style = "R1,000,000"  # R1,000,000 | R 1 000 000 | locale (as each language writes it)
odds_style = "19:20"        # how the sign words payouts: 19:20 | 0.95 to 1
burn_in_shift = true        # the sign's picture moves a pixel a minute (within 4) all day
idle_minutes = 10           # the sign's idle screen after 0 to 1440 minutes with no round; 0: never
night = "none"              # night hours when the sign dims, like "22:00-06:00"; "none"
night_brightness = 60       # how bright the sign is at night: 20 to 100 percent
"""

SECTIONS = ("table", "chips", "devices", "display", "gpio", "sync", "hours")
"""The sections every table has; each game adds its own (`GameSpec.config.section`)."""

DEVICE_ROLES = roles()
"""The device roles a table can have, each with the dialects its protocols speak
(hardware/protocols.py: the shoe's two, the shuffler's line protocol)."""


def _ids(spec: GameSpec) -> tuple[str, str]:
    """The example's table id and name for a game."""
    prefix = spec.table_prefix or spec.name[:2].upper()
    return f"{prefix}-01", " ".join(w.capitalize() for w in spec.title.split()) + " 1"


def _device_example(role: str) -> str:
    """The `[devices.<role>]` section of the example, with the role's dialects."""
    dialects = DEVICE_ROLES.get(role, ("line",))
    lines = [f"[devices.{role}]",
             'port = "simulated"          # a pyserial URL: /dev/ttyUSB0, socket://host:port; '
             "or simulated"]
    if len(dialects) > 1:
        lines.append(f'dialect = "{dialects[0]}"            # {" | ".join(dialects)}')
    if role == "shuffler":
        lines.append("deals = true                # it deals the cards, in the shoe's place")
    lines.append(f"baudrate = 9600             # {BAUDRATES[0]} to {BAUDRATES[1]:_}")
    return "\n".join(lines) + "\n"


def example(game: str = "") -> str:
    """A commented configuration for `game` (the first registered game by default): its
    own section and a `[devices.<role>]` for each device it needs."""
    spec = GAMES.get(game) if game else games()[0]
    table_id, name = _ids(spec)
    head = _HEAD.format(id=table_id, name=name, game=spec.name)
    devices = "\n".join(_device_example(role) for role in spec.devices)
    return head + spec.config.example + _TAIL.replace("{GPIO}", PinMap.as_toml_example()
                                                      ).replace("{DEVICES}", devices
                                                      ).replace("{LANGUAGES}",
                                                                ", ".join(i18n.available())
                                                      ).replace("{SMALLEST_MAX}",
                                                                units(MAX_SMALLEST_CHIP)
                                                      ).replace("{SECONDS}",
                                                                f"{i18n.MIN_SECONDS} to "
                                                                f"{i18n.MAX_SECONDS}")


EXAMPLE = example()
"""The example for the first game listed (`tableside config example`)."""


class ConfigError(UnreadableInput):
    """The configuration file is not valid; the message names the line and the reason."""


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    """One `[devices.<role>]` section: where the device is (a pyserial URL, or "simulated"
    for the simulator on a pseudo-terminal) and the protocol it speaks."""

    role: str = "shoe"
    port: str = "simulated"
    dialect: str = "line"  # the shoe's dialect (spec: line or plain)
    baudrate: int = 9600
    deals: bool = False  # a shuffler that deals the cards, in the shoe's place (`deals = true`)

    @property
    def protocol(self) -> str:
        """The registered protocol's name (hardware/protocols): role and dialect."""
        return f"{self.role}-{self.dialect}"


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    width: int = 800
    height: int = 480
    fullscreen: bool = True
    signage: bool = True
    signage_width: int = 1920
    signage_height: int = 1080
    dealer_screen: str = ""
    """The dealer's output on the table's display device (xrandr's name, like HDMI-2), when it
    is not the one `kiosk.screens.arrange` picks: a DSI panel, else the first connected."""
    languages: tuple[str, ...] = (i18n.SOURCE,)
    """The players' sign's languages, shown in turn (the first at start); catalogue codes."""
    dealer_language: str = i18n.SOURCE
    """The dealer screen's language (a catalogue's code), set when the dealer app starts."""
    language_seconds: int = 20
    money_style: i18n.MoneyStyle = i18n.MoneyStyle.COMMAS
    odds_style: i18n.OddsStyle = i18n.OddsStyle.RATIO
    care: SignCare = field(default_factory=SignCare)
    """The burn-in shift, the idle screen and the night hours of the sign."""

    def sign_languages(self) -> i18n.SignLanguages:
        """What the sign is given (`SignageApp(languages=...)`)."""
        return i18n.SignLanguages(self.languages, self.language_seconds, self.money_style,
                                  self.odds_style)


@dataclass(frozen=True, slots=True)
class SyncConfig:
    """`[sync]`: the pit server this table sends its journal to (none: the table keeps its
    journal to itself). The credential comes from enrolment (`tableside pit enroll`) and
    lives in its own file, readable by the kiosk user only."""

    pit: str = ""
    credential_file: Path | None = None
    pit_key: str = ""  # the pit's Ed25519 public key (hex), from enrolment
    ca_file: Path | None = None
    """The CA certificate(s) (PEM) the pit's HTTPS certificate is checked against; none: the
    system's CAs."""

    @property
    def enabled(self) -> bool:
        return bool(self.pit)

    def tls(self) -> ssl.SSLContext | bool:
        """What the sync's HTTP client checks the pit's certificate with (httpx `verify=`):
        a context trusting `ca_file` only, or True (the system's CAs)."""
        if self.ca_file is None:
            return True
        return ssl.create_default_context(cafile=str(self.ca_file))

    def credential(self) -> str:
        """The table's credential, read when the sync starts."""
        if self.credential_file is None:
            raise ConfigError("[sync] names no credential_file")
        try:
            return self.credential_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(f"{self.credential_file}: cannot read the table's pit "
                              f"credential: {exc.strerror}") from exc


@dataclass(frozen=True, slots=True)
class TableConfig:
    table_id: str
    name: str
    game: str
    rules: Any  # the game's rules object (`GameSpec.config.parse`)
    journal: Path
    devices: tuple[DeviceConfig, ...] = (DeviceConfig(),)  # one per [devices.<role>]
    source: Path | None = None
    chip_values: tuple[int, ...] = ()  # cents; empty: the dealer screen's defaults
    display: DisplayConfig = field(default_factory=DisplayConfig)
    gpio: PinMap = field(default_factory=PinMap)
    sync: SyncConfig = field(default_factory=SyncConfig)
    hours: OpeningHours | None = None
    """The approved opening hours (`[hours]`, rule 2.4); None: the clock never closes it."""
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The file as read (the pit's versions go over it: `with_pit`)."""
    people: People = NO_LIST
    """Who may do what at the table, with their PINs hashed (`[people]`,
    kiosk/table/roles.py); the pit signs it with the limits."""
    limits_bounds: LimitBounds | None = None
    """The bounds within which the inspector may change a bet's limits at the table
    (`[limits_bounds]`, rule 2.2, kiosk/table/limits.py); None: at the pit only."""
    host: HostConfig = field(default_factory=HostConfig)
    """The table's computer: network, technicians' keys, device names (kiosk/host.py)."""

    def device(self, role: str) -> DeviceConfig | None:
        """The `[devices.<role>]` configured, or None."""
        return next((d for d in self.devices if d.role == role), None)

    @property
    def shoe(self) -> DeviceConfig:
        """The card shoe (a simulated one when none is configured)."""
        return self.device("shoe") or DeviceConfig()

    @property
    def dealer(self) -> DeviceConfig:
        """The device that deals the cards: a shuffler whose section says `deals = true`,
        else the card shoe (a simulated one when none is configured)."""
        shuffler = self.device("shuffler")
        return shuffler if shuffler is not None and shuffler.deals else self.shoe


@dataclass(frozen=True, slots=True)
class PortTried:
    """`try_devices`: a configured device's port, and why it did not open ("" if it did)."""

    device: DeviceConfig
    problem: str

    def line(self) -> str:
        """In words, for `tableside config check`: "devices.shoe: /dev/ttyUSB0: opens"."""
        where = f"devices.{self.device.role}: {self.device.port}"
        if not self.problem:
            return f"{where}: opens"
        return (f"warning: {where}: {self.problem}; the table runs without it, by hand, "
                f"until it opens")


def try_devices(cfg: TableConfig, timeout: float = 0.5) -> list[PortTried]:
    """Open each configured device's port that is not "simulated" and close it at once
    (no byte is sent): whether it exists and opens, and if not why."""
    from hardware.ports import try_open

    return [PortTried(d, try_open(d.port, d.baudrate, timeout) or "")
            for d in cfg.devices if d.port != "simulated"]


def load(path: str | Path) -> TableConfig:
    """The table's configuration file, read and checked, and its journal's place tried: a
    journal the table could not write is refused here, with the line, not when it opens."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the configuration file: {exc.strerror}") from exc
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: the configuration file is not UTF-8 text") from None
    cfg = parse(text, p)
    why = journal_refusal(cfg.journal)
    if why:
        _Reader(cfg.data, text, str(p)).fail("table", "journal", why)
    return cfg


def journal_refusal(journal: Path) -> str:
    """Why the table could not keep its journal at `journal`, "" when it can: a file on a
    writable mount, or a folder it can be made in (a folder is made in the nearest one
    there and removed at once, so a place like /proc that takes none shows now). Another
    user's folder is not refused: the table's own user may write there."""
    if journal.is_dir():
        return f"{journal} is a folder; name the journal's file, like data/PB-07.db"
    folder = journal
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if folder != journal and not folder.is_dir():
        return f"{journal}: {folder} is not a folder"
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            where = journal.parent if folder == journal else folder
            return f"{journal} cannot be written: {where} is on a read-only mount"
        if folder != journal:
            os.rmdir(tempfile.mkdtemp(prefix=".tableside-", dir=folder))
    except PermissionError:
        return ""
    except OSError as exc:
        return (f"{journal} cannot be made: {folder} does not take a new file or folder "
                f"({exc.strerror})")
    return ""


def parse(text: str, path: Path | None = None) -> TableConfig:
    name = str(path) if path else "config"
    return _build(_toml(text, name), text, name, path)


_TOML_STRING_OR_COMMENT = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')
MAX_NESTING = 64
"""Arrays and inline tables nested deeper are refused before TOML's reader sees them: it
reads them by recursion, and a RecursionError inside it can leave the interpreter unable to
parse anything else in the process (a fault of Python 3.11's)."""


def _nesting(text: str) -> int:
    """How deep arrays and inline tables nest, strings and comments left out."""
    depth = deepest = 0
    for char in _TOML_STRING_OR_COMMENT.sub("", text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
    return deepest


def _toml(text: str, name: str) -> dict[str, Any]:
    if _nesting(text) > MAX_NESTING:
        raise ConfigError(f"{name}: arrays or inline tables are nested too deep to read")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise ConfigError(f"{name}: arrays or inline tables are nested too deep to "
                          f"read") from None


PIT_TABLE_KEYS = ("game", "name", "currency")
"""What the pit may set in [table]; the id, the journal, the devices, the display, the panel
and the sync stay the table's own."""


def with_pit(cfg: TableConfig, body: str, name: str = "the pit's configuration"
             ) -> TableConfig:
    """The table's configuration with a version from the pit over it: each section the pit's
    body names replaces the table's own (in [table] only the game, name and currency), and
    the whole is checked as table.toml is. `ConfigError` names the body's line."""
    pit = _toml(body, name)
    governed = {"table", "chips", "hours", "people", "limits_bounds",
                 *(g.config.section for g in games())}
    for section, value in pit.items():
        if section not in governed or not isinstance(value, dict):
            raise ConfigError(f"{name}: [{section}]: the pit sets [table] "
                              f"{', '.join(PIT_TABLE_KEYS)}, [chips], [hours], [people], "
                              "[limits_bounds] and a "
                              "game's section, nothing else")
    for key in pit.get("table", {}):
        if key not in PIT_TABLE_KEYS:
            raise ConfigError(f"{name}: table.{key}: the pit may not set it (only "
                              f"{', '.join(PIT_TABLE_KEYS)}); it is the table's own")
    merged = copy.deepcopy(cfg.data)
    for section, value in pit.items():
        merged[section] = {**merged.get("table", {}), **value} if section == "table" else value
    return _build(merged, body, name, cfg.source)


def _build(data: dict[str, Any], text: str, name: str, path: Path | None) -> TableConfig:
    """The configuration read from `data`; every mistake a `ConfigError` of one line (a
    value a rules object refuses without naming its key still says which file)."""
    try:
        return _read(data, text, name, path)
    except ConfigError:
        raise
    except (ValueError, ArithmeticError) as exc:
        raise ConfigError(f"{name}: {exc}") from exc


def _read(data: dict[str, Any], text: str, name: str, path: Path | None) -> TableConfig:
    reader = _Reader(data, text, name)
    table = reader.section("table")
    table_id = reader.text(table, "table", "id")
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,32}", table_id):
        reader.fail("table", "id", "use 1-32 letters, digits, '-', '_' or '.'")
    try:
        spec = GAMES.get(reader.text(table, "table", "game", games()[0].name))
    except UnknownGame as exc:
        reader.fail("table", "game", str(exc))
    currency = reader.text(table, "table", "currency", "R")
    chips = reader.section("chips", required=False)
    smallest = reader.money(chips, "chips", "smallest", 100, hi=MAX_SMALLEST_CHIP)
    favour = reader.choice(chips, "chips", "rounding", [f.value for f in RoundingFavour],
                           "house")
    house = HouseSettings(ChipRule(smallest, RoundingFavour(favour)), currency)
    rules = spec.config.parse(reader, house)
    device_cfgs = _devices(reader, spec)
    chip_values = _chip_values(reader, chips, smallest)
    shown = reader.section("display", required=False)
    display = DisplayConfig(
        width=reader.integer(shown, "display", "width", 800, lo=200, hi=7680),
        height=reader.integer(shown, "display", "height", 480, lo=200, hi=7680),
        fullscreen=reader.boolean(shown, "display", "fullscreen", True),
        signage=reader.boolean(shown, "display", "signage", True),
        signage_width=reader.integer(shown, "display", "signage_width", 1920, lo=200, hi=7680),
        signage_height=reader.integer(shown, "display", "signage_height", 1080, lo=200, hi=7680),
        dealer_screen=(reader.text(shown, "display", "dealer_screen")
                       if "dealer_screen" in shown else ""),
        **_languages(reader, shown),
    )
    _check_screens(reader, display)
    try:
        gpio = PinMap.from_mapping(reader.section("gpio", required=False))
    except PinMapError as exc:
        reader.fail("gpio", exc.key, exc.reason)
    reader.known("gpio", "*")  # the pin map checks its own keys
    name = reader.text(table, "table", "name", table_id)
    if len(name) > MAX_NAME:
        reader.fail("table", "name", f"at most {MAX_NAME} characters ({len(name)} given): "
                                     "the signs show it in full")
    journal = Path(reader.text(table, "table", "journal", f"data/{table_id}.db"))
    if path is not None and not journal.is_absolute():
        journal = path.parent / journal
    config = TableConfig(table_id=table_id, name=name,
                         game=spec.name, rules=rules, journal=journal, devices=device_cfgs,
                         source=path, chip_values=chip_values, display=display, gpio=gpio,
                         sync=_sync(reader, table_id, path), hours=_hours(reader), data=data,
                         host=read_host(reader), people=_people(reader),
                         limits_bounds=_limits_bounds(reader))
    reader.check_unknown(spec)
    if reader.missing:
        raise ConfigError(reader.missing[0])
    return config


def _people(reader: _Reader) -> People:
    """The `[people]` section (kiosk/table/roles.py); a file without one checks no PIN."""
    if "people" not in reader.data:
        return NO_LIST
    section = reader.section("people")
    reader.known("people", "*")  # read_people checks its own keys
    return read_people(section, reader.fail)


def _limits_bounds(reader: _Reader) -> LimitBounds | None:
    """`[limits_bounds]` (kiosk/table/limits.py): None when the file has none."""
    if "limits_bounds" not in reader.data:
        reader.known("", "limits_bounds")
        return None
    section = reader.section("limits_bounds")
    return read_bounds(section, lambda key, default: reader.money(section, "limits_bounds",
                                                                  key, default),
                       reader.fail)


def with_section(cfg: TableConfig, section: str, data: dict[str, Any],
                 name: str = "the limit change at the table") -> TableConfig:
    """The configuration with its section `section` replaced by `data` (a game's section
    after a limit change at the table), checked as table.toml is."""
    merged = copy.deepcopy(cfg.data)
    merged[section] = copy.deepcopy(data)
    return _build(merged, "", name, cfg.source)


MAX_NAME = 32
"""The longest table name: the signs and the dealer's header show it whole at every size."""
SMALLEST = (800, 480)
"""The smallest screen the layouts serve, long side by short: the official 7" panel."""
LARGEST = (1920, 1080)
"""The largest: full HD. A 4K screen set to 1920x1080 shows the same layout full screen."""
ASPECTS = (1.6, 1.78)
"""The shapes the layouts serve, long side over short: 16:10 (1280x800) to 16:9 (1920x1080,
854x480). The layout tests (tests/ui/test_layout_*.py) prove these shapes and sizes only."""
PORTRAIT_SIGN = 1080
"""A portrait sign is a full HD screen stood on its side: at least 1080 pixels wide."""


def screen_refusal(width: int, height: int, *, sign: bool) -> str:
    """Why the layouts cannot serve a `width`x`height` dealer screen (or sign), "" when they
    can: within the sizes and shapes the layout tests lay every screen out at."""
    size = f"{width}x{height}"
    if not sign and width < height:
        return f"{size} is portrait: the dealer screen is laid out for a landscape touchscreen"
    long, short = max(width, height), min(width, height)
    if long < SMALLEST[0] or short < SMALLEST[1]:
        return (f"{size} is smaller than {SMALLEST[0]}x{SMALLEST[1]}, the smallest screen the "
                "layouts keep every button 9 mm and every text whole on"
                + (", and limits players can read" if sign else ""))
    if long > LARGEST[0] or short > LARGEST[1]:
        return (f"{size} is larger than {LARGEST[0]}x{LARGEST[1]}, the largest screen the "
                "layouts are proved at: set the screen to 1920x1080 (a 4K screen shows it "
                "full screen)")
    if not ASPECTS[0] <= long / short <= ASPECTS[1]:
        return (f"{size} is {long / short:.2f}:1; the layouts serve 16:10 to 16:9 "
                f"({ASPECTS[0]}:1 to {ASPECTS[1]}:1)" + (", either way up for a sign"
                                                         if sign else ""))
    if sign and width < height and width < PORTRAIT_SIGN:
        return (f"{size}: a portrait sign is laid out for a full HD screen on its side, at "
                f"least {PORTRAIT_SIGN} pixels wide")
    return ""


def _check_screens(reader: _Reader, d: DisplayConfig) -> None:
    """Refuse screens the layouts cannot serve, with the reason: the dealer's
    touchscreen is landscape, from the official 7" panel's 800x480 to 1920x1080; a sign may
    stand either way, the same sizes, and on its side at full HD (`screen_refusal`)."""
    why = screen_refusal(d.width, d.height, sign=False)
    if why:
        # the dealer's screen is landscape: its height is the short side, whatever was given
        reader.fail("display", "height" if not SMALLEST[1] <= d.height <= LARGEST[1]
                    else "width", why)
    why = screen_refusal(d.signage_width, d.signage_height, sign=True)
    if why:
        reader.fail("display", _culprit(d.signage_width, d.signage_height, "signage_width",
                                        "signage_height"), why)


def _culprit(width: int, height: int, width_key: str, height_key: str) -> str:
    """Which of a screen's two settings a refusal names: the one outside the sizes the
    layouts serve (`SMALLEST`, `LARGEST`), else the width (a shape)."""
    wide = width >= height
    if not SMALLEST[0] <= max(width, height) <= LARGEST[0]:
        return width_key if wide else height_key
    if not SMALLEST[1] <= min(width, height) <= LARGEST[1]:
        return height_key if wide else width_key
    return width_key


def _languages(reader: _Reader, shown: dict[str, Any]) -> dict[str, Any]:
    """`[display] languages`, `language_seconds` and `money_style`: the sign's languages in
    turn and how it writes amounts (the dealer screen's too); `dealer_language`, the dealer
    screen's (docs/dealer-screen.md, "Languages")."""
    codes = shown.get("languages", [i18n.SOURCE])
    reader.known("display", "languages")
    if not isinstance(codes, list) or not codes or not all(isinstance(c, str) for c in codes):
        reader.fail("display", "languages", f"must be a list of languages like [\"en\", "
                                            f"\"af\"], not {codes!r}")
    for code in codes:
        if code not in i18n.available():
            reader.fail("display", "languages", f"no catalogue for {code!r}: the languages "
                                                f"are {', '.join(i18n.available())}")
    if len(set(codes)) != len(codes):
        reader.fail("display", "languages", "a language is listed twice")
    dealer = reader.text(shown, "display", "dealer_language", i18n.SOURCE)
    if dealer not in i18n.available():
        reader.fail("display", "dealer_language", f"no catalogue for {dealer!r}: the "
                                                  f"languages are {', '.join(i18n.available())}")
    seconds = reader.integer(shown, "display", "language_seconds", 20, lo=i18n.MIN_SECONDS,
                             hi=i18n.MAX_SECONDS, why="seconds: shorter, and players cannot "
                                                      "read the limits before the language "
                                                      "changes")
    style = reader.choice(shown, "display", "money_style", [m.value for m in i18n.MoneyStyle],
                          i18n.MoneyStyle.COMMAS.value)
    odds = reader.choice(shown, "display", "odds_style", [o.value for o in i18n.OddsStyle],
                         i18n.OddsStyle.RATIO.value)
    return {"languages": tuple(codes), "dealer_language": dealer, "language_seconds": seconds,
            "money_style": i18n.MoneyStyle(style), "odds_style": i18n.OddsStyle(odds),
            "care": _care(reader, shown)}


def _care(reader: _Reader, shown: dict[str, Any]) -> SignCare:
    """`[display]` burn_in_shift, idle_minutes, night and night_brightness (a
    sign left on 18 hours a day)."""
    idle = reader.integer(shown, "display", "idle_minutes", 10, lo=0, hi=24 * 60,
                          why="minutes with no round before the idle screen (0: never)")
    hours = reader.text(shown, "display", "night", "none")
    level = reader.integer(shown, "display", "night_brightness", 60, lo=20, hi=100,
                           why="percent: how bright the sign is at night")
    night = None
    if hours != "none":
        try:
            night = parse_night(hours, level / 100)
        except ValueError as exc:
            reader.fail("display", "night", str(exc))
    return SignCare(reader.boolean(shown, "display", "burn_in_shift", True), idle, night)


def _hours(reader: _Reader) -> OpeningHours | None:
    """`[hours]`: the approved opening hours (rule 2.4), or None when the file has none."""
    if "hours" not in reader.data:
        reader.known("", "hours")
        return None
    section = reader.section("hours")
    for key in ("daily", "timezone", *WEEKDAYS):
        reader.known("hours", key)
    try:
        return OpeningHours.from_mapping(section)
    except HoursError as exc:
        reader.fail("hours", exc.key, str(exc))


def _sync(reader: _Reader, table_id: str, path: Path | None) -> SyncConfig:
    sec = reader.section("sync", required=False)
    reader.known("sync", "pit")
    reader.known("sync", "pit_key")
    reader.known("sync", "ca_file")
    pit = reader.text(sec, "sync", "pit") if "pit" in sec else ""
    if pit and not re.fullmatch(r"https?://[^\s/]+(/\S*)?", pit):
        reader.fail("sync", "pit", "the pit server's address, like https://pit.casino.lan:8600")
    credential = Path(reader.text(sec, "sync", "credential_file",
                                  f"data/{table_id}.credential"))
    if path is not None and not credential.is_absolute():
        credential = path.parent / credential
    key = reader.text(sec, "sync", "pit_key") if "pit_key" in sec else ""
    if key and not re.fullmatch(r"[0-9a-f]{64}", key):
        reader.fail("sync", "pit_key", "the pit's public key: 64 hex digits, from enrolment")
    ca_file = None
    if "ca_file" in sec:
        ca_file = Path(reader.text(sec, "sync", "ca_file"))
        if path is not None and not ca_file.is_absolute():
            ca_file = path.parent / ca_file
        if not pit.startswith("https://"):
            reader.fail("sync", "ca_file", "a CA to check the pit's certificate needs an "
                                           "https:// [sync] pit")
        try:
            ssl.create_default_context(cafile=str(ca_file))
        except ssl.SSLError:  # before OSError: it is one
            reader.fail("sync", "ca_file", f"{ca_file}: not a PEM certificate (the CA that "
                                           "signed the pit's certificate)")
        except OSError as exc:
            reader.fail("sync", "ca_file", f"{ca_file}: cannot read it ({exc.strerror})")
    return SyncConfig(pit, credential, key, ca_file)


def _devices(reader: _Reader, spec: GameSpec) -> tuple[DeviceConfig, ...]:
    """`[devices.<role>]`: each device the table has. A role the game needs must say where
    its device is: a real table never runs on a simulator by accident, so a missing section
    or port is a mistake in the file (the simulator only when it says `port = "simulated"`,
    as `tableside demo`'s configuration does)."""
    devices = reader.section("devices", required=False)
    out = []
    # A shuffler that deals (`deals = true`) takes the card shoe's place: no shoe is needed.
    # It deals by default for a game that needs a shuffler and no shoe.
    deals_default = "shuffler" in spec.devices and "shoe" not in spec.devices
    shuffler_deals = reader.table(devices, "devices", "shuffler").get(
        "deals", deals_default) is True
    for role, dialects in DEVICE_ROLES.items():
        sec = reader.table(devices, "devices", role)
        needed = role in spec.devices and not (role == "shoe" and shuffler_deals)
        if not sec and not needed:
            continue
        where = f"devices.{role}"
        if "port" not in sec:
            example = f'port = "/dev/tableside-{role}", or port = "simulated" for the simulator'
            if not sec:
                reader.missing.append(f"{reader.name}: [{where}] is missing: {spec.title} "
                                      f"needs its {role}; say where it is ({example})")
            else:
                header = re.compile(rf"\s*\[\s*devices\s*\.\s*{re.escape(role)}\s*\]")
                line = next((i + 1 for i, text in enumerate(reader.lines)
                             if header.match(text)), None)
                at = f"{reader.name}, line {line}" if line else reader.name
                reader.missing.append(f"{at}: {where}: port is missing: say where the {role} "
                                      f"is ({example})")
        out.append(DeviceConfig(
            role=role,
            port=reader.text(sec, where, "port") if "port" in sec else "",
            dialect=reader.choice(sec, where, "dialect", list(dialects), dialects[0]),
            baudrate=reader.integer(sec, where, "baudrate", 9600, lo=BAUDRATES[0],
                                    hi=BAUDRATES[1]),
            deals=(reader.boolean(sec, where, "deals", deals_default) if role == "shuffler"
                   else False),
        ))
    return tuple(out)


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
        self.read: dict[str, set[str]] = {}  # section path -> the keys looked up there
        self.missing: list[str] = []  # what the file must say and does not (a device's port),
        # refused after the keys it has are checked: a misspelt one is the likelier mistake

    def known(self, where: str, key: str) -> None:
        self.read.setdefault(where, set()).add(key)

    def check_unknown(self, spec: GameSpec) -> None:
        """Refuse a key or section nobody reads (a misspelt one would otherwise leave a
        setting silently at its default), naming its line and the nearest known name.
        Another registered game's section is allowed (and not read): the file can keep
        both while the table changes game."""
        for other in games():
            if other.config.section != spec.config.section:
                self.known("", other.config.section)
                self.known(other.config.section, "*")
        self._check("", self.data)

    def _check(self, where: str, mapping: dict[str, Any]) -> None:
        known = self.read.get(where, set())
        if "*" in known:
            return
        for key, value in mapping.items():
            path = f"{where}.{key}" if where else key
            if key not in known:
                near = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
                hint = (f"did you mean {near[0]}?" if near
                        else f"known here: {', '.join(sorted(known))}")
                if where:
                    self.fail(where, key, f"unknown key ({hint})")
                self.fail(key, "", f"unknown section [{key}] ({hint})")
            if isinstance(value, dict) and path in self.read:
                self._check(path, value)

    def line_of(self, section: str, key: str) -> int | None:
        """The line where `key` is set, looked for after the section's header."""
        start, found = self._header(section)
        pattern = re.compile(rf"\s*{re.escape(key)}\s*=|.*[{{,]\s*{re.escape(key)}\s*=")
        for i in range(start, len(self.lines)):
            if key and pattern.match(self.lines[i]):
                return i + 1
        return start + 1 if found else None

    def _header(self, section: str) -> tuple[int, bool]:
        """Where `section` begins: its own `[header]`, or the line naming it as a table
        inside the nearest header above it (`banker = { ... }` under
        `[punto_banco.limits]`), else its first part's header; and whether one was found."""
        parts = section.split(".") if section else []
        for n in range(len(parts), 0, -1):
            head = re.compile(rf"\s*\[\s*{re.escape('.'.join(parts[:n]))}\s*\]")
            at = next((i for i, line in enumerate(self.lines) if head.match(line)), None)
            if at is None:
                continue
            for part in parts[n:]:
                inner = re.compile(rf"\s*{re.escape(part)}\s*=")
                at = next((i for i in range(at, len(self.lines))
                           if inner.match(self.lines[i])), at)
            return at, True
        first = parts[0] if parts else ""
        for i, line in enumerate(self.lines):
            if re.match(rf"\s*\[{re.escape(first)}(\.|\])", line):
                return i, True
        return 0, False

    def fail(self, section: str, key: str, reason: str) -> NoReturn:
        line = self.line_of(section, key)
        where = f"{self.name}, line {line}" if line else self.name
        what = f"{section}.{key}" if key else section
        raise ConfigError(f"{where}: {what}: {reason}")

    def section(self, name: str, required: bool = True) -> dict[str, Any]:
        self.known("", name)
        value = self.data.get(name)
        if value is None:
            if required:
                raise ConfigError(f"{self.name}: the [{name}] section is missing")
            return {}
        if not isinstance(value, dict):
            self.fail(name, "", "must be a section like [" + name + "]")
        self.read.setdefault(name, set())
        return value

    def table(self, sec: dict[str, Any], where: str, key: str) -> dict[str, Any]:
        """A table inside a section (`[devices.shoe]`, `banker = { minimum = 50 }`)."""
        self.known(where, key)
        value = sec.get(key, {})
        if not isinstance(value, dict):
            self.fail(where, key, f"must be a table, like [{where}.{key}] or "
                                  f"{key} = {{ minimum = 50, maximum = 50000 }}")
        self.read.setdefault(f"{where}.{key}", set())
        return value

    def text(self, sec: dict[str, Any], where: str, key: str, default: str | None = None
             ) -> str:
        self.known(where, key)
        value = sec.get(key, default)
        if value is None:
            self.fail(where, key, "is required")
        if not isinstance(value, str) or not value.strip():
            self.fail(where, key, f"must be text in quotes, not {value!r}")
        return str(value)

    def integer(self, sec: dict[str, Any], where: str, key: str, default: int, *, lo: int,
                hi: int, why: str = "") -> int:
        """A whole number from `lo` to `hi` (every numeric setting has its range, and the
        example says it); `why` words the range ("seconds: ...") when it is out of it."""
        self.known(where, key)
        value = sec.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, key, f"must be a whole number from {_whole(lo)} to "
                                  f"{_whole(hi)}, not {value!r}")
        if not lo <= value <= hi:
            span = f"{_whole(lo)} to {_whole(hi)}"
            self.fail(where, key, f"{span} {why} ({_short(value)} given)" if why
                      else f"must be a whole number from {span}, not {_short(value)}")
        return int(value)

    def boolean(self, sec: dict[str, Any], where: str, key: str, default: bool) -> bool:
        self.known(where, key)
        value = sec.get(key, default)
        if not isinstance(value, bool):
            self.fail(where, key, f"must be true or false, not {value!r}")
        return bool(value)

    def choice(self, sec: dict[str, Any], where: str, key: str, options: list[str],
               default: str) -> str:
        self.known(where, key)
        value = sec.get(key, default)
        if value not in options:
            self.fail(where, key, f"must be one of {', '.join(options)}, not {value!r}")
        return str(value)

    def money(self, sec: dict[str, Any], where: str, key: str, default_cents: int, *,
              lo: int = 1, hi: int = MAX_AMOUNT) -> int:
        """An amount in cents from `lo` to `hi` (by default: positive, at most
        `MAX_AMOUNT`), written in whole units (50) or as a string ("12.50")."""
        self.known(where, key)
        if key not in sec:
            return default_cents
        value = sec[key]
        if isinstance(value, float):
            self.fail(where, key, f"write money as a whole number or a string like "
                                  f"\"{value:.2f}\", not a decimal number")
        if isinstance(value, bool) or not isinstance(value, int | str):
            self.fail(where, key, f"must be an amount like 50 or \"12.50\", not {value!r}")
        try:
            cents = Decimal(str(value).strip().replace("_", "")) * 100
        except ArithmeticError:  # InvalidOperation, and Overflow for "1e9999999999"
            return int(self.fail(where, key, f"{_short(value)!r} is not an amount"))
        span = f"an amount from {units(lo)} to {units(hi)}"
        if not cents.is_finite():
            self.fail(where, key, f"must be {span}, not {_short(value)!r}")
        if cents <= 0 < lo:
            self.fail(where, key, f"must be positive, {span}, not {_short(value)}")
        if cents != cents.to_integral_value():
            self.fail(where, key, f"{_short(value)!r} is not a whole number of cents")
        if not lo <= cents <= hi:
            self.fail(where, key, f"must be {span}, not {_short(value)}")
        return int(cents)


def _short(value: object) -> str:
    """A value as a message shows it: a number of a hundred digits is cut short."""
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"
