"""The game seam, proven by a toy (docs/adding-a-game.md): high card lives entirely in
tests/toy_game/ and is registered by one line. It uses every file and hook the doc lists, and
goes through everything the suite asks of a built-in game: the contract checked when it
registers, the same verbs, its golden journal replayed exactly and shown at the pit, its
steps in every language, its dealer screen and sign laid out at every size, the console, the
odds and integrity commands, the headless demo and the signage process; with no edit to the
kiosk's own files."""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import re
import subprocess
import sys
import types
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk import i18n
from kiosk.config import example, parse
from kiosk.replay import load_entries, replay
from kiosk.rules.cards import Card
from kiosk.rules.errors import Said
from kiosk.rules.registry import EXTRA_GAMES, GAMES, IncompleteGame, game
from kiosk.store.journal import Journal
from kiosk.sync.client import to_wire
from kiosk.table.fold import Folded, fold
from kiosk.table.session import TableSession
from pit.db import Database
from pit.ingest import WireRow
from pit.rounds import Rounds
from pit.store import PitStore
from tests.rules.test_same_verbs import COMMON, SHOE
from tests.ui import conftest as ui_conftest
from tests.ui.conftest import UI, start_app
from tests.ui.layout import LANDSCAPE, SIZES, contrast_problems, problems, smallest_text

ROOT = Path(__file__).resolve().parents[1]
TOY = "tests.toy_game.spec"
GOLDEN = ROOT / "tests" / "toy_game" / "golden.jsonl"
TRANSLATED = tuple(c for c in i18n.available() if c != i18n.SOURCE)
kivy_window, ui = ui_conftest.kivy_window, ui_conftest.ui  # the UI tests' fixtures, here too


@pytest.fixture
def toy() -> Iterator[object]:
    from tests.toy_game import spec

    ours = "high-card" not in GAMES.names()  # importing the spec registers it already
    if ours:
        GAMES.register(spec.SPEC)
    yield spec.SPEC
    if ours:  # the registry as it was: tests parametrized by the games at collection see it
        GAMES.unregister("high-card")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env[EXTRA_GAMES] = TOY
    env.pop("DISPLAY", None)
    env["SDL_VIDEODRIVER"] = "offscreen"
    env["GPIOZERO_PIN_FACTORY"] = "mock"
    env.setdefault("KIVY_HOME", str(ROOT / ".kivy"))
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG"):
        env.setdefault(name, "1")
    return env


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli", *args], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


def _played(path: Path, toy: object) -> Path:
    """One round by shoe events: R50 on the player, the player's king beats the dealer's 7."""
    from tests.toy_game import rules as hc

    cfg = parse(example("high-card").replace('journal = "data/HC-01.db"',
                                             f'journal = "{path}"'))
    session = TableSession(game(cfg.game), Journal.open(path, cfg.table_id), cfg.rules,
                           cfg.table_id)
    session.perform(hc.shuffle)
    session.perform(lambda s: hc.place_bet(s, hc.Side.PLAYER, 5_000))
    session.perform(hc.close_betting)
    for n, code in enumerate(("KD", "7C"), start=1):
        session.on_device_event(ev.CardRead(device="SHOE", seq=n, card=Card.parse(code)))
    assert session.next_step() == "Player: pay and confirm"
    session.perform(hc.settlement)
    session.journal.close()
    return path


def test_the_toy_is_one_registry_line_and_the_cli_lists_it() -> None:
    text = (ROOT / "tests/toy_game/spec.py").read_text()
    assert text.count("register(") == 1  # the one line (and its import)
    out = _cli("games")
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("high-card "))
    assert line.split(maxsplit=1)[1] == ("High card (also highcard): rules none (a test "
                                         "game); [high_card], devices: shoe")


def test_its_config_example_checks_and_misspelt_keys_are_refused(toy: object,
                                                                 tmp_path: Path) -> None:
    out = _cli("config", "example", "--game", "high-card")
    assert out.returncode == 0, out.stderr
    assert out.stdout == example("high-card")
    cfg = parse(out.stdout)
    assert cfg.game == "high-card" and cfg.rules.minimum == 1_000  # R10 in cents
    path = tmp_path / "table.toml"
    path.write_text(out.stdout.replace("maximum = 1000", "maximun = 1000"))
    bad = _cli("config", "check", str(path))
    assert bad.returncode == 2
    assert "high_card.maximun: unknown key (did you mean maximum?)" in bad.stderr


def test_a_round_by_shoe_events_replays_and_a_forged_payout_is_found(toy: object,
                                                                      tmp_path: Path) -> None:
    path = _played(tmp_path / "hc.db", toy)
    report = replay(load_entries(path))
    assert report.ok and report.table_id == "HC-01"
    (round_,) = report.rounds
    assert round_.hands == {"player": ["KD"], "dealer": ["7C"]}
    assert round_.settlements == [{"side": "player", "paid": 5_000}]
    entries = load_entries(path)
    entries[-1].payload["paid"] = [["player", 10_000]]
    forged = replay(entries)
    assert not forged.ok and not forged.chain_ok  # the chain breaks at the edited row
    assert forged.rounds[0].differences == [
        "recorded player [('player', 10000)], recomputed player [('player', 5000)]"]


@pytest.mark.slow
def test_the_headless_demo_plays_a_round_of_it(toy: object, tmp_path: Path) -> None:
    out = _cli("demo", "--game", "high-card", "--headless", "--no-signage", "--fresh",
               "--journal", str(tmp_path / "demo.db"), "--out", str(tmp_path / "shots"),
               timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "round settled: round 1" in out.stdout
    assert (tmp_path / "shots" / "dealer-800x480.png").stat().st_size > 1000
    report = replay(load_entries(tmp_path / "demo.db"))
    assert report.ok and [c.status for c in report.rounds] == ["settled"]
    assert report.rounds[0].settlements[0]["side"] == "player"  # the one bet, tapped


@pytest.mark.slow
def test_its_sign_follows_the_journal_in_the_signage_process(toy: object,
                                                            tmp_path: Path) -> None:
    path = _played(tmp_path / "hc.db", toy)
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk.ui.signage", "--journal", str(path), "--trace",
         "--size", "800x480", "--screenshot", str(tmp_path / "sign.png"), "--after", "1.0"],
        cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    last = lines[-1]
    assert (last["game"], last["round"], last["table_id"]) == ("high-card", 2, "HC-01")
    assert "HIGH CARD  round 2  last: PLAYER\nMIN R10  MAX R1,000" in last["shown"]
    assert (tmp_path / "sign.png").stat().st_size > 1000


# --- The contract, checked when a game registers ----------------------------------------------


def _without(module: types.ModuleType, name: str, as_name: str) -> types.ModuleType:
    """A copy of `module` without `name`, importable as `as_name`."""
    copy = types.ModuleType(as_name)
    copy.__dict__.update({k: v for k, v in vars(module).items() if k != name})
    sys.modules[as_name] = copy
    return copy


@pytest.mark.parametrize("name", ["show_sign", "DONE", "console", "headless_play"])
def test_a_screens_module_without_a_piece_is_refused_naming_it(toy: Any, name: str) -> None:
    import kiosk.ui.games  # noqa: F401 (adds the screens' check to the registry)
    from tests.toy_game import screens

    broken = "tests.toy_game.broken_screens"
    _without(screens, name, broken)
    spec = dataclasses.replace(toy, name="broken", aliases=(), screens=broken)
    try:
        with pytest.raises(IncompleteGame) as err:
            GAMES.register(spec)
    finally:
        sys.modules.pop(broken)
    assert str(err.value) == (f"game 'broken': its screens module {broken} has no {name} (the "
                              f"ScreensModule every game provides: docs/adding-a-game.md)")
    assert "broken" not in GAMES.names()  # nothing half-registered


def test_a_headless_play_that_is_not_async_is_refused(toy: Any) -> None:
    import kiosk.ui.games  # noqa: F401
    from tests.toy_game import screens

    broken = "tests.toy_game.broken_screens"
    module = _without(screens, "headless_play", broken)
    module.headless_play = lambda *args: None  # type: ignore[attr-defined]
    try:
        with pytest.raises(IncompleteGame, match=r"has no headless_play \(not an async def\)"):
            GAMES.register(dataclasses.replace(toy, name="broken", aliases=(), screens=broken))
    finally:
        sys.modules.pop(broken)


def test_an_engine_or_a_demo_without_a_piece_is_refused_naming_it(toy: Any) -> None:
    from tests.toy_game import demo

    class NoRounds:
        name = "broken"

        def __getattr__(self, name: str) -> Any:
            if name == "round_number":
                raise AttributeError(name)
            return getattr(toy.engine, name)

    with pytest.raises(IncompleteGame, match=r"^game 'broken': its engine has no round_number "
                                             r"\(the Game every game provides"):
        GAMES.register(dataclasses.replace(toy, name="broken", aliases=(), engine=NoRounds()))
    broken = "tests.toy_game.broken_demo"
    _without(demo, "reshuffle", broken)
    try:
        with pytest.raises(IncompleteGame, match=r"its simulated dealer tests.toy_game."
                                                 r"broken_demo has no reshuffle \(the DemoPlay"):
            GAMES.register(dataclasses.replace(toy, name="broken", aliases=(), demo=broken))
    finally:
        sys.modules.pop(broken)
    assert "broken" not in GAMES.names()


def test_every_game_registered_meets_the_contract(toy: Any) -> None:
    from kiosk.rules.game import Game
    from kiosk.rules.registry import DemoPlay, missing
    from kiosk.ui.games import ScreensModule, screens

    for spec in GAMES:
        assert missing(spec.engine, Game) == [], spec.name
        assert missing(__import__(spec.demo, fromlist=["_"]), DemoPlay) == [], spec.name
        assert missing(screens(spec), ScreensModule) == [], spec.name
    # The toy leaves none of the optional names at None: it shows each of them.
    front = screens(toy)
    assert None not in (front.console, front.odds_command, front.integrity_report)


# --- The same verbs ---------------------------------------------------------------------------


def test_its_verbs_are_the_shared_ones_and_each_can_takes_its_verifys_arguments(toy: Any
                                                                                ) -> None:
    from tests.toy_game import rules as hc

    cans = [n for n, fn in vars(hc).items() if n.startswith("can_") and inspect.isfunction(fn)]
    assert len(cans) >= 5
    for name in cans:
        verify = getattr(hc, "verify_" + name[4:])
        assert list(inspect.signature(getattr(hc, name)).parameters) == list(
            inspect.signature(verify).parameters), name
    acts: set[str] = set()

    def before(folded: Folded, _op: object, _row: object) -> None:
        if folded.game is not None:
            acts.update(hc.legal_actions(folded.state))

    fold(load_entries(GOLDEN), before=before)
    assert acts == {"shuffle", "place_bet", "close_betting", "shoe_card", "confirm_payouts",
                    "void_round"}
    assert acts <= {*COMMON, *SHOE}  # each act has the name every game gives it
    assert all(callable(getattr(hc, a)) for a in acts)


# --- Its golden journal: replay, the pit, the steps in every language -------------------------


def test_its_golden_journal_replays_exactly_as_it_did(toy: Any) -> None:
    before = json.loads(GOLDEN.with_suffix(".replay.json").read_text())
    after = json.loads(json.dumps(replay(load_entries(GOLDEN),
                                         "tests/toy_game/golden.jsonl").as_json()))
    assert after == before
    assert after["ok"] and [c["status"] for c in after["rounds"]] == [
        "settled", "settled", "settled", "settled", "voided", "settled"]
    # Round 4: R1,000 on the dealer loses to the player's ace; round 3 a push, nothing won.
    assert after["rounds"][3]["settlements"] == [{"side": "dealer", "paid": 0}]
    assert after["rounds"][2]["result"] == {"winner": "push"}


def test_the_pit_shows_each_of_its_rounds_outcome(toy: Any, tmp_path: Path) -> None:
    from pit.dashboard import _rounds_html

    entries = load_entries(GOLDEN)
    table_id = entries[0].table_id
    store = PitStore(Database(str(tmp_path / "pit.db")))
    store.enroll(table_id)
    store.ingest(table_id, [WireRow(**to_wire(e)) for e in entries])
    view = Rounds(store).between(table_id, "", "")
    assert [c.outcome for c in view.rounds] == [
        "player KD against 7C", "dealer 4H against JS", "push 9S against 9D",
        "player AH against 2C", "void: card dropped on the floor", "dealer 3D against TC"]

    class Pit:
        rounds = Rounds(store)

    html = _rounds_html(Pit(), table_id, "2000-01-01T00:00:00.000Z", "")  # type: ignore[arg-type]
    for coup in view.rounds:
        assert f"<td>{escape(coup.outcome)}</td>" in html
    store.db.close()
    # The pit names no game, the toy's included.
    for path in (ROOT / "pit").glob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        assert not re.search(r"\bhigh[- ]card\b", text), path.name


def _steps() -> list[Said]:
    steps: list[Said] = []

    def before(folded: Folded, _op: object, _row: object) -> None:
        if folded.game is not None:
            steps.append(folded.game.engine.next_step(folded.state))

    fold(load_entries(GOLDEN), before=before)
    return steps


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_step_is_said_in_every_language(toy: Any, code: str) -> None:
    steps = {str(s): s for s in _steps()}
    assert set(steps) == {"Shuffle and load a new shoe", "Place your bets",
                          "Player's first card", "Dealer's card", "Player: pay and confirm",
                          "Dealer's hand: pay and confirm", "Tie: pay and confirm"}
    for step in steps.values():
        assert isinstance(step, Said) and step.sentence is not None
        assert i18n.say(step, code="en") == str(step)
        words = i18n.say(step, code=code)
        assert words != str(step) and "%(" not in words, (code, str(step), words)


# --- Its screens at every size ----------------------------------------------------------------


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    code: str = request.param
    with i18n.using(code):
        yield code


DEALER_CASES = [*((size, "en") for size in LANDSCAPE),
                *(((800, 480), code) for code in TRANSLATED)]
SIGN_CASES = [*((size, "en") for size in SIZES), *(((800, 480), code) for code in TRANSLATED)]


def _px_per_mm(size: tuple[int, int]) -> float:
    from kiosk.ui import theme

    return theme.metrics_for(size[0]).px_per_mm


def _paying(path: Path) -> TableSession:
    from tests.toy_game import rules as hc

    cfg = parse(example("high-card"))
    session = TableSession(game("high-card"), Journal.open(path, "HC-01"), cfg.rules, "HC-01")
    session.perform(hc.shuffle)
    session.perform(lambda s: hc.place_bet(s, hc.Side.DEALER, 100_000))
    session.perform(hc.close_betting)
    for n, code in enumerate(("4H", "JS"), start=1):
        session.on_device_event(ev.CardRead(device="SHOE", seq=n, card=Card.parse(code)))
    return session


@pytest.mark.parametrize(("size", "language"), DEALER_CASES, indirect=["language"],
                         ids=[f"{w}x{h}-{c}" for (w, h), c in DEALER_CASES])
def test_its_dealer_screen_fits_at_every_size(toy: Any, ui: UI, tmp_path: Path,
                                               size: tuple[int, int], language: str) -> None:
    from tests.toy_game.screens import dealer_app

    session = _paying(tmp_path / "hc.db")
    cfg = parse(example("high-card"))
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-high-card-{size[0]}x{size[1]}-{language}")
    screen = app.screen
    assert screen.step.text == i18n.say(session.next_step())
    assert (language != "en") == (screen.step.text != "Dealer's hand: pay and confirm")
    assert problems(screen) == []
    assert contrast_problems(ui.shot, screen) == []
    mm, text = smallest_text(screen, px_per_mm=_px_per_mm(size))
    assert mm >= 1.75, f"{text!r} is {mm:.2f} mm tall"
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIGN_CASES, indirect=["language"],
                         ids=[f"{w}x{h}-{c}" for (w, h), c in SIGN_CASES])
def test_its_sign_fits_at_every_size(toy: Any, ui: UI, tmp_path: Path, size: tuple[int, int],
                                     language: str) -> None:
    from kiosk.ui.signage.link import Link
    from tests.toy_game.screens import show_sign, sign

    session = _paying(tmp_path / "hc.db")
    view = sign()
    ui.window.add_widget(view)
    ui.resize(*size)
    show_sign(view, session.state, Link.LIVE)
    ui.pump(0.2)
    ui.screenshot(f"layout-sign-high-card-{size[0]}x{size[1]}-{language}")
    assert view.text.startswith("HIGH CARD  round 1  last: -\n")
    assert problems(view) == []
    assert contrast_problems(ui.shot, view) == []
    session.journal.close()


# --- Its console, odds and integrity ----------------------------------------------------------


def test_its_odds_are_exact(toy: Any) -> None:
    out = _cli("odds", "high-card", "--json")
    assert out.returncode == 0, out.stderr
    # One deck: a push is 3 of the 51 cards left after the player's: 1/17.
    assert json.loads(out.stdout) == {"player": "8/17", "dealer": "8/17", "push": "1/17"}


def test_its_integrity_figures_count_its_journal(toy: Any) -> None:
    out = _cli("integrity", str(GOLDEN), "--json")
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert figures["rounds"] == 5
    assert figures["won"] == {"player": 2, "dealer": 2, "push": 1}


@pytest.mark.slow
def test_its_typed_console_plays_rounds(toy: Any, tmp_path: Path) -> None:
    out = _cli("demo", "--game", "high-card", "--console", "--rounds", "3", "--no-pit",
               "--pace", "0.05",
               "--fresh", "--journal", str(tmp_path / "console.db"), timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    report = replay(load_entries(tmp_path / "console.db"))
    assert report.ok and len(report.rounds) == 3
    assert out.stdout.count(": pay and confirm") >= len(
        [c for c in report.rounds if c.status == "settled"])


# --- The doc lists every hook, and the toy uses each ------------------------------------------


def _hooks() -> dict[str, list[str]]:
    from kiosk.rules.game import Game
    from kiosk.rules.registry import DemoPlay, GameSpec
    from kiosk.ui.games import ScreensModule

    def members(protocol: type) -> list[str]:
        names = set(getattr(protocol, "__annotations__", {}))
        names |= {n for n in vars(protocol) if not n.startswith("_")}
        return sorted(names)

    return {"GameSpec": [f.name for f in dataclasses.fields(GameSpec)],
            "Game": members(Game), "DemoPlay": members(DemoPlay),
            "ScreensModule": members(ScreensModule)}


def test_the_doc_names_every_hook() -> None:
    doc = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    hooks = _hooks()
    assert len(hooks["ScreensModule"]) == 10 and "round_word" in hooks["GameSpec"]
    missing = [f"{kind}.{name}" for kind, names in hooks.items() for name in names
               if f"`{name}" not in doc]
    assert missing == []


def test_the_toy_sets_every_field_of_its_spec() -> None:
    text = (ROOT / "tests" / "toy_game" / "spec.py").read_text(encoding="utf-8")
    unset = [name for name in _hooks()["GameSpec"] if f"    {name}=" not in text]
    assert unset == []


def test_tableside_games_names_the_missing_piece_of_a_game(tmp_path: Path) -> None:
    """A game in development whose screens module lacks `show_sign`: `tableside games`
    says so in one line, naming it, instead of failing later on the players' screen."""
    (tmp_path / "brokentoy_screens.py").write_text(
        "from tests.toy_game.screens import *  # noqa\n"
        "del show_sign  # noqa\n")
    (tmp_path / "brokentoy.py").write_text(
        "import dataclasses\n"
        "from kiosk.rules.registry import register\n"
        "from tests.toy_game import spec\n"
        "register(dataclasses.replace(spec.SPEC, name='broken', aliases=(),"
        " screens='brokentoy_screens'))\n")
    env = _env()
    env[EXTRA_GAMES] = "brokentoy"
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "games"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and out.stdout == ""
    assert out.stderr == ("tableside: game 'broken': its screens module brokentoy_screens has "
                          "no show_sign (the ScreensModule every game provides: "
                          "docs/adding-a-game.md)\n")


def test_every_games_sign_is_a_sign_view(toy: Any, ui: UI, tmp_path: Path) -> None:
    """The signage process sets `table_name` and calls `interrupt` on any game's sign: each
    one has them, and the toy's shows the words in place of the round."""
    from kiosk.rules.registry import missing
    from kiosk.ui.games import SignView, screens
    from kiosk.ui.signage.interruptions import PAUSED
    from kiosk.ui.signage.link import Link

    for spec in GAMES:
        assert missing(screens(spec).sign(), SignView) == [], spec.name
    from tests.toy_game.screens import show_sign, sign

    session = _paying(tmp_path / "hc.db")
    view = sign()
    show_sign(view, session.state, Link.PAUSED)
    view.interrupt(*PAUSED.words())
    assert view.text == "Table paused\nPlease wait: the game goes on shortly"
    session.journal.close()
