"""The games this table can run, listed once (docs/architecture.md: one registry of games).

Each game is a package under `kiosk/rules/` that builds one `GameSpec`: its names, its rules
engine, its configuration section, its journal records, its replay audit, the devices it
needs and its simulated dealer. Its screens, typed console and odds command are in the
module `GameSpec.screens` names (the UI side, so the rules never import Kivy). Everything
outside a game's package (the CLI, the config file, the console, replay, the session, the
signage feed, the panel) asks this registry and never names a game.

Adding a game is one package plus one line in `_BUILT_IN` (docs/adding-a-game.md). A game is
checked when it registers: its engine has every method of `Game`, its simulated dealer every
function of `DemoPlay`, and its screens module (once the UI side is loaded, which adds its
check with `Registry.require`) every name of `kiosk.ui.games.ScreensModule`; the error names
the missing piece.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields
from types import ModuleType
from typing import Any, NoReturn, Protocol

from kiosk.rules.errors import TablesideError, UnreadableInput
from kiosk.rules.game import Game
from kiosk.rules.money import ChipRule
from kiosk.rules.operations import Operation, TableOpening


class SectionReader(Protocol):
    """Typed look-ups in the configuration file that fail with its line and the reason
    (`kiosk.config` provides it); every key a game reads is known to the file's check for
    misspelt keys."""

    def section(self, name: str, required: bool = True) -> dict[str, Any]: ...

    def table(self, sec: dict[str, Any], where: str, key: str) -> dict[str, Any]: ...

    def text(self, sec: dict[str, Any], where: str, key: str, default: str | None = None
             ) -> str: ...

    def integer(self, sec: dict[str, Any], where: str, key: str, default: int, *, lo: int,
                hi: int, why: str = "") -> int: ...

    def boolean(self, sec: dict[str, Any], where: str, key: str, default: bool) -> bool: ...

    def choice(self, sec: dict[str, Any], where: str, key: str, options: list[str],
               default: str) -> str: ...

    def money(self, sec: dict[str, Any], where: str, key: str, default_cents: int, *,
              lo: int = ..., hi: int = ...) -> int: ...

    def fail(self, section: str, key: str, reason: str) -> NoReturn: ...


@dataclass(frozen=True, slots=True)
class HouseSettings:
    """What every table's configuration says whatever the game: the chips and currency."""

    chips: ChipRule
    currency: str


@dataclass(frozen=True, slots=True)
class ConfigSection:
    """A game's part of table.toml: `section` is its [name]; `parse` reads the house's
    choices into the game's rules object (refusing what the rules forbid, with the clause);
    `example` is the commented section `tableside config example` prints."""

    section: str
    parse: Callable[[SectionReader, HouseSettings], Any]
    example: str


@dataclass(frozen=True, slots=True)
class Places:
    """How the table's betting places are counted and named, for `config check` and the
    screens: `count(rules)` places called `word` ("areas", "boxes")."""

    word: str
    count: Callable[[Any], int]


@dataclass(frozen=True)
class GameSpec:
    """One game, as the rest of the kiosk knows it."""

    name: str  # what table.toml and the CLI say: game = "punto-banco"
    title: str  # in words, for the dealer: "Punto banco"
    rule_sections: str  # the approved rules it implements: "5.1-5.7"
    engine: Game[Any]  # the pure rules (kiosk/rules/game.py)
    records: tuple[type[Operation], ...]  # its journal records (a family shares them)
    config: ConfigSection
    places: Places
    aliases: tuple[str, ...] = ()
    family: str = ""  # games sharing an engine and records (Touch 21 is blackjack's)
    devices: tuple[str, ...] = ("shoe",)  # device roles it needs ([devices.<role>])
    audit: Any = None  # replay audit (kiosk/rules/audit.py `Audit`), None: none yet
    demo: str = ""  # module with the simulated dealer's play (kiosk/rules/demo.py)
    screens: str = ""  # module with its dealer screen and sign (kiosk/ui/games/)
    default_rules: Callable[[], Any] | None = None  # the rules with every house default
    table_prefix: str = ""  # the example configuration's table id: "PB" -> PB-01
    round_word: str = "round"  # what the rules call one round ("coup" in punto banco)
    alerts: Callable[[Operation], tuple[str, str] | None] | None = None
    """Which of the game's records an inspector must see as an alert at the pit, beyond those
    every game's shared records raise (a void, a late bet, a device's fault, the inspector
    called, a refused configuration): given one of its records, (the alert's kind, what
    happened in words, citing the rule), or None. None (the default): none of its own."""
    screen_rules: Callable[[Any], Any] | None = None
    """The part of the rules the game's dealer screen and sign are built from (`rules_but`):
    a change of it from the pit needs the screens made again (the kiosk restarts between
    rounds); a change of the rest (the limits) they show live. None: all of the rules."""

    def __post_init__(self) -> None:
        if not self.family:
            object.__setattr__(self, "family", self.name)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    def screens_built_from(self, rules: Any) -> Any:
        """What of `rules` the running screens were built from (`screen_rules`)."""
        return rules if self.screen_rules is None else self.screen_rules(rules)

    def rules(self) -> Any:
        """The game's rules with the house's defaults (its config section left empty)."""
        if self.default_rules is not None:
            return self.default_rules()
        raise NotImplementedError(f"{self.name} has no default rules")


def rules_but(*live: str) -> Callable[[Any], tuple[tuple[str, Any], ...]]:
    """A `screen_rules` for a rules dataclass: every field but the `live` ones (those the
    screens read afresh on every refresh, such as the limits)."""

    def built_from(rules: Any) -> tuple[tuple[str, Any], ...]:
        return tuple((f.name, getattr(rules, f.name)) for f in fields(rules)
                     if f.name not in live)

    return built_from


def records_in(*modules: ModuleType) -> tuple[type[Operation], ...]:
    """Every journal record class defined in `modules` (a game's records)."""
    out: list[type[Operation]] = []
    for module in modules:
        for _name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, Operation) and obj.kind
                    and obj.__module__ == module.__name__):
                out.append(obj)
    return tuple(out)


class UnknownGame(UnreadableInput):
    """A game name the registry does not know; the message lists the ones it does."""


class IncompleteGame(TablesideError):
    """A game registered without a piece the kiosk looks up (a method of its engine, a
    function of its simulated dealer, a name of its screens module); the message names it."""


class DemoPlay(Protocol):
    """The module `GameSpec.demo` names: how the simulated dealer plays the game, for the
    demo's simulated shoe (kiosk/ui/launcher.py, kiosk/console.py)."""

    def card_due(self, state: Any) -> bool:
        """A card is due from the shoe now (the simulated shoe deals it)."""
        ...

    def new_shoe_wanted(self, state: Any) -> bool:
        """The simulated shoe should start a new shoe when the table shuffles."""
        ...

    def void_for_restart(self, state: Any) -> Callable[[Any], Operation] | None:
        """The action voiding the round in play when the simulator restarts (it cannot
        resume a half-dealt shoe), or None when no round is in play."""
        ...

    def reshuffle(self, state: Any) -> Callable[[Any], Operation] | None:
        """The action shuffling again after such a restart, or None when it cannot now."""
        ...


def missing(thing: object, contract: type) -> list[str]:
    """The names of the Protocol `contract` that `thing` (a module, an object) lacks: an
    attribute not there, a method not callable, an `async def` that is not one."""
    out: list[str] = []
    names: dict[str, Any] = {}
    for klass in reversed(contract.__mro__):
        if klass is object or klass.__name__ in ("Protocol", "Generic"):
            continue
        names.update({n: None for n in getattr(klass, "__annotations__", {})})
        names.update({n: v for n, v in vars(klass).items() if not n.startswith("_")})
    for name, declared in names.items():
        if not hasattr(thing, name):
            out.append(name)
        elif inspect.isfunction(declared):
            value = getattr(thing, name)
            if not callable(value):
                out.append(f"{name} (not callable)")
            elif inspect.iscoroutinefunction(declared) and not inspect.iscoroutinefunction(value):
                out.append(f"{name} (not an async def)")
    return out


def check_contract(spec: GameSpec, piece: str, thing: object, contract: type) -> None:
    """Raise `IncompleteGame` naming what `thing` (the game's `piece`) lacks of `contract`."""
    lacks = missing(thing, contract)
    if lacks:
        raise IncompleteGame(f"game {spec.name!r}: its {piece} has no {', '.join(lacks)} "
                             f"(the {contract.__name__} every game provides: "
                             f"docs/adding-a-game.md)")


def check_core(spec: GameSpec) -> None:
    """The rules side of the contract: the engine is a `Game`, the demo a `DemoPlay`."""
    check_contract(spec, "engine", spec.engine, Game)
    if spec.demo:
        check_contract(spec, f"simulated dealer {spec.demo}", importlib.import_module(spec.demo),
                       DemoPlay)


class Registry:
    """The games, by name and alias, and the family each journal record belongs to."""

    def __init__(self) -> None:
        self._games: dict[str, GameSpec] = {}
        self._by_name: dict[str, GameSpec] = {}
        self._family_of: dict[type[Operation], str] = {}
        self._checks: list[Callable[[GameSpec], None]] = [check_core]

    def require(self, check: Callable[[GameSpec], None]) -> None:
        """Hold every game to `check` (raising `IncompleteGame`): those registered already,
        now, and each one that registers later. The UI side adds its check of the screens
        modules this way, so the rules never import the screens."""
        for spec in self:
            check(spec)
        self._checks.append(check)

    def register(self, spec: GameSpec) -> GameSpec:
        for check in self._checks:
            check(spec)
        for name in spec.names:
            known = self._by_name.get(name)
            if known is not None and known.name != spec.name:
                raise ValueError(f"two games are called {name!r}: {known.name}, {spec.name}")
        for cls in spec.records:
            family = self._family_of.get(cls)
            if family is not None and family != spec.family:
                raise ValueError(f"record {cls.kind!r} belongs to {family}, not {spec.family}")
            self._family_of[cls] = spec.family
        self._games[spec.name] = spec
        for name in spec.names:
            self._by_name[name] = spec
        return spec

    def unregister(self, name: str) -> None:
        """Take a game out again (tests that register a toy game)."""
        spec = self._games.pop(name)
        for n in spec.names:
            self._by_name.pop(n, None)
        if not any(g.family == spec.family for g in self._games.values()):
            for cls in spec.records:
                self._family_of.pop(cls, None)

    def __iter__(self) -> Iterator[GameSpec]:
        return iter(list(self._games.values()))

    def names(self) -> tuple[str, ...]:
        return tuple(self._games)

    def get(self, name: str) -> GameSpec:
        spec = self._by_name.get(name)
        if spec is None:
            near = difflib.get_close_matches(name, list(self._by_name), n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise UnknownGame(f"unknown game {name!r}{hint}: one of {', '.join(self._games)}")
        return spec

    def family_of(self, op: Operation) -> str | None:
        """The family whose record `op` is; None for the table's own records."""
        return self._family_of.get(type(op))

    def opened(self, op: TableOpening) -> GameSpec:
        """The game a table opening names (its `game`, else its record's family)."""
        spec = self._by_name.get(op.game)
        if spec is not None:
            return spec
        family = self.family_of(op)
        for spec in self:
            if spec.family == family:
                return spec
        raise UnknownGame(f"a table opened for {op.game!r}, a game this build does not know")

    def in_family(self, family: str) -> Iterable[GameSpec]:
        return [g for g in self if g.family == family]


GAMES = Registry()

_BUILT_IN = (  # one line a game: the module whose SPEC (or SPECS) registers it
    "kiosk.rules.baccarat.spec",
    "kiosk.rules.blackjack.spec",
    "kiosk.rules.roulette.spec",
    "kiosk.rules.arizona.spec",
    "kiosk.rules.paigow.spec",
    "kiosk.rules.mini_baccarat.spec",
)


def _load_built_in() -> None:
    for path in _BUILT_IN:
        module = importlib.import_module(path)
        for spec in getattr(module, "SPECS", ()) or (module.SPEC,):
            GAMES.register(spec)


EXTRA_GAMES = "TABLESIDE_GAMES"
"""The environment variable the kiosk's entry points read for games outside this package:
module paths, comma-separated, each registering its game when imported (tests, a game in
development). A built-in game is a line in `_BUILT_IN` instead."""


def load_games(modules: str) -> None:
    """Import each module named in `modules` (comma-separated): each registers its game."""
    for path in (m.strip() for m in modules.split(",")):
        if path:
            importlib.import_module(path)


def register(spec: GameSpec) -> GameSpec:
    """Register a game (a built-in one is listed in `_BUILT_IN` instead)."""
    return GAMES.register(spec)


def game(name: str) -> GameSpec:
    return GAMES.get(name)


def games() -> list[GameSpec]:
    return list(GAMES)


_load_built_in()
