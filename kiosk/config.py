"""The table's configuration file (TOML), read and checked before anything starts.

Money is written in whole currency units (`50`) or as a decimal string (`"12.50"`), never as a
TOML float, and becomes an int of cents. A file that is not valid is refused with its line and
the reason; the kiosk never starts on a half-understood configuration.
"""

from __future__ import annotations

import copy
import difflib
import re
import ssl
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, NoReturn

from hardware.gpio.errors import PinMapError
from hardware.gpio.pinmap import PinMap
from hardware.protocols import roles
from kiosk import i18n
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.money import ChipRule, RoundingFavour
from kiosk.rules.registry import GAMES, GameSpec, HouseSettings, UnknownGame, games
from kiosk.ui.signage.floor_care import SignCare, parse_night

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
smallest = 5                # the smallest chip on the table
rounding = "house"          # house | player | nearest (docs/money.md)
values = [5, 10, 25, 50, 100]   # the dealer screen's chip buttons, whole chips of `smallest`

{DEVICES}
{GPIO}
[display]
width = 800                 # the dealer touchscreen (the official Pi display is 800x480)
height = 480
fullscreen = true
signage = true              # start the player signage on the second display
signage_width = 1920
signage_height = 1080
# dealer_screen = "HDMI-2"  # the dealer's screen, if not a DSI panel or the first connected
languages = ["en"]          # the sign's languages in turn: {LANGUAGES} (assets/locale)
dealer_language = "en"      # the dealer screen's language, one of the same
language_seconds = 20       # how long the sign stays in each language
money_style = "R1,000,000"  # R1,000,000 | R 1 000 000 | locale (as each language writes it)
odds_style = "19:20"        # how the sign words payouts: 19:20 | 0.95 to 1
burn_in_shift = true        # the sign's picture moves a pixel a minute (within 4) all day
idle_minutes = 10           # the sign's idle screen after this long with no round; 0: never
night = "none"              # night hours when the sign dims, like "22:00-06:00"; "none"
night_brightness = 60       # how bright the sign is at night, percent (20 to 100)
"""

SECTIONS = ("table", "chips", "devices", "display", "gpio", "sync")
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
    lines.append("baudrate = 9600")
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
                                                                ", ".join(i18n.available()))


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
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The file as read (the pit's versions go over it: `with_pit`)."""

    def device(self, role: str) -> DeviceConfig | None:
        """The `[devices.<role>]` configured, or None."""
        return next((d for d in self.devices if d.role == role), None)

    @property
    def shoe(self) -> DeviceConfig:
        """The card shoe (a simulated one when none is configured)."""
        return self.device("shoe") or DeviceConfig()


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
    return _build(_toml(text, name), text, name, path)


def _toml(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML: {exc}") from None


PIT_TABLE_KEYS = ("game", "name", "currency")
"""What the pit may set in [table]; the id, the journal, the devices, the display, the panel
and the sync stay the table's own."""


def with_pit(cfg: TableConfig, body: str, name: str = "the pit's configuration"
             ) -> TableConfig:
    """The table's configuration with a version from the pit over it: each section the pit's
    body names replaces the table's own (in [table] only the game, name and currency), and
    the whole is checked as table.toml is. `ConfigError` names the body's line."""
    pit = _toml(body, name)
    governed = {"table", "chips", *(g.config.section for g in games())}
    for section, value in pit.items():
        if section not in governed or not isinstance(value, dict):
            raise ConfigError(f"{name}: [{section}]: the pit sets [table] "
                              f"{', '.join(PIT_TABLE_KEYS)}, [chips] and a game's section, "
                              "nothing else")
    for key in pit.get("table", {}):
        if key not in PIT_TABLE_KEYS:
            raise ConfigError(f"{name}: table.{key}: the pit may not set it (only "
                              f"{', '.join(PIT_TABLE_KEYS)}); it is the table's own")
    merged = copy.deepcopy(cfg.data)
    for section, value in pit.items():
        merged[section] = {**merged.get("table", {}), **value} if section == "table" else value
    return _build(merged, body, name, cfg.source)


def _build(data: dict[str, Any], text: str, name: str, path: Path | None) -> TableConfig:
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
    smallest = reader.money(chips, "chips", "smallest", 100)
    favour = reader.choice(chips, "chips", "rounding", [f.value for f in RoundingFavour],
                           "house")
    house = HouseSettings(ChipRule(smallest, RoundingFavour(favour)), currency)
    rules = spec.config.parse(reader, house)
    device_cfgs = _devices(reader, spec)
    chip_values = _chip_values(reader, chips, smallest)
    shown = reader.section("display", required=False)
    display = DisplayConfig(
        width=reader.integer(shown, "display", "width", 800),
        height=reader.integer(shown, "display", "height", 480),
        fullscreen=reader.boolean(shown, "display", "fullscreen", True),
        signage=reader.boolean(shown, "display", "signage", True),
        signage_width=reader.integer(shown, "display", "signage_width", 1920),
        signage_height=reader.integer(shown, "display", "signage_height", 1080),
        dealer_screen=(reader.text(shown, "display", "dealer_screen")
                       if "dealer_screen" in shown else ""),
        **_languages(reader, shown),
    )
    for key in ("width", "height", "signage_width", "signage_height"):
        if not 200 <= getattr(display, key) <= 7680:
            reader.fail("display", key, "must be a screen size in pixels (200 to 7680)")
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
                         sync=_sync(reader, table_id, path), data=data)
    reader.check_unknown(spec)
    return config


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
        reader.fail("display", "width", why)
    why = screen_refusal(d.signage_width, d.signage_height, sign=True)
    if why:
        reader.fail("display", "signage_width", why)


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
    seconds = reader.integer(shown, "display", "language_seconds", 20)
    if not i18n.MIN_SECONDS <= seconds <= i18n.MAX_SECONDS:
        reader.fail("display", "language_seconds",
                    f"{i18n.MIN_SECONDS} to {i18n.MAX_SECONDS} seconds: shorter, and players "
                    "cannot read the limits before the language changes")
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
    idle = reader.integer(shown, "display", "idle_minutes", 10)
    if not 0 <= idle <= 24 * 60:
        reader.fail("display", "idle_minutes", "minutes with no round before the idle "
                                               "screen: 0 (never) to 1440")
    hours = reader.text(shown, "display", "night", "none")
    level = reader.integer(shown, "display", "night_brightness", 60)
    if not 20 <= level <= 100:
        reader.fail("display", "night_brightness", f"{level} is not a brightness from 20 to "
                                                   "100 percent")
    night = None
    if hours != "none":
        try:
            night = parse_night(hours, level / 100)
        except ValueError as exc:
            reader.fail("display", "night", str(exc))
    return SignCare(reader.boolean(shown, "display", "burn_in_shift", True), idle, night)


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
    """`[devices.<role>]`: each device the table has; a role the game needs and the file does
    not name is the simulator."""
    devices = reader.section("devices", required=False)
    out = []
    for role, dialects in DEVICE_ROLES.items():
        sec = reader.table(devices, "devices", role)
        if not sec and role not in spec.devices:
            continue
        where = f"devices.{role}"
        out.append(DeviceConfig(
            role=role,
            port=reader.text(sec, where, "port", "simulated"),
            dialect=reader.choice(sec, where, "dialect", list(dialects), dialects[0]),
            baudrate=reader.integer(sec, where, "baudrate", 9600),
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

    def integer(self, sec: dict[str, Any], where: str, key: str, default: int) -> int:
        self.known(where, key)
        value = sec.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, key, f"must be a whole number, not {value!r}")
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

    def money(self, sec: dict[str, Any], where: str, key: str, default_cents: int) -> int:
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
            cents = Decimal(str(value).strip()) * 100
        except InvalidOperation:
            return int(self.fail(where, key, f"{value!r} is not an amount"))
        if cents != cents.to_integral_value() or cents < 0:
            self.fail(where, key, f"{value!r} is not a whole number of cents")
        return int(cents)
