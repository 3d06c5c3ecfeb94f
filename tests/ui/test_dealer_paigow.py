"""The dealer's pai gow tiles screen (the Mpumalanga table game rules, section 13), drawn for
real and driven by synthetic touches: a whole round with the House banking, from the wash to
the confirmed payouts, each area's tiles keyed and set, the House hand set the house way and
confirmed by the supervisor (13.1.5), the settlement in the order of 13.1; a player/banker
whose wager falls short (13.2.8); every greyed control saying why; and the layout at every
dealer size with the busiest content, in every language at the smallest."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.rules.money import ChipRule
from kiosk.rules.paigow import engine as pg
from kiosk.rules.paigow.tiles import parse_tiles
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.ui.conftest import UI, start_app
from tests.ui.layout import LANDSCAPE
from tests.ui.paigow_game import registered
from tests.ui.test_layout_dealers import check, laid_out
from tests.ui.test_layout_signs import LONGEST_NAME, TEN_MILLION

RULES = pg.PaiGowRules(minimum=1_000, maximum=50_000, areas=7, chips=ChipRule(500))
Session = TableSession[pg.PaiGowState]


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with registered():
        yield


def open_session(path: Path, rules: pg.PaiGowRules = RULES) -> Session:
    return TableSession(pg.PaiGow(), Journal.open(path, "PG-01"), rules, "PG-01")


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = open_session(tmp_path / "t.db")
    yield s
    s.journal.close()


@pytest.fixture
def dealer(ui: UI, session: Session) -> Any:
    from kiosk.ui.dealer.paigow_app import PaiGowDealerApp

    return start_app(ui, PaiGowDealerApp(session, table_name="Pai Gow 1")).screen


def kinds(session: Session) -> list[str]:
    return [e.kind.removeprefix("paigow.") for e in session.journal.entries()]


def chip(dealer: Any, value: int) -> Any:
    return next(c for c in dealer.ids.chips.children if int(c.value) == value)


def modal(ui: UI, name: str) -> Any:
    found = [w for w in ui.window.children if type(w).__name__ == name]
    assert found, f"no {name} open"
    return found[0]


def key_hand(ui: UI, pad: Any, codes: str, high: str) -> None:
    """Tap the four tiles, then the setting whose high hand is `high` (its words)."""
    for tile in parse_tiles(codes):
        ui.tap(next(k for k in pad.ids.tile_keys.children if k.tile is tile))
    ui.tap(next(b for b in pad.ids.settings.children
                if b.text.splitlines()[0] == f"High: {high}"))
    ui.tap(pad.ids.done)


def test_a_whole_round_with_the_house_banking(ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.capture import grab, save_png
    from tests.ui.conftest import SHOTS

    assert dealer.step == "Wash the tiles and stack the woodpile"
    assert dealer.shoe_status == "The House banks" and dealer.card(1).chung
    ui.tap(dealer.ids.wash)
    ui.tap(dealer.card(2))
    ui.tap(chip(dealer, 10_000))
    ui.tap(dealer.card(3))
    ui.tap(chip(dealer, 5_000))
    ui.tap(chip(dealer, 5_000))
    assert session.state.bets == ((2, 10_000), (3, 10_000))
    assert dealer.card(3).detail == "R100"
    ui.screenshot("paigow-dealer-betting-800x480")
    ui.tap(dealer.ids.primary)  # no more bets
    assert session.state.phase is pg.Phase.SETTING
    assert dealer.step == "Area 2: key in the tiles as the player set them, high then low"
    assert dealer.card(2).turn and dealer.ids.primary.text == "Key in tiles"
    ui.tap(dealer.ids.primary)
    pad = modal(ui, "TileKeypad")
    assert pad.title == "Area 2: key in the tiles and how the player set them"
    key_hand(ui, pad, "66 45 55 16", "wong")  # wong / 7, as the player set them
    ui.pump(frames=2)
    assert dealer.card(2).tiles == ["66", "45", "55", "16"]
    ui.tap(dealer.card(3))  # the next area's tiles: a tap on it opens the pad
    pad = modal(ui, "TileKeypad")
    key_hand(ui, pad, "11 13 46 55", "6 (day)")
    ui.pump(frames=2)
    assert dealer.step == "Key in the House tiles: they are set the house way (rule 13.1.2)"
    ui.tap(dealer.ids.primary)
    pad = modal(ui, "TileKeypad")
    assert pad.title == "The House tiles: set the house way"
    for tile in parse_tiles("56 15 34 26"):
        ui.tap(next(k for k in pad.ids.tile_keys.children if k.tile is tile))
    # Only the house way's setting can be chosen (13.1.2); the others say why.
    ways = list(reversed(pad.ids.settings.children))
    assert [b.disabled for b in ways].count(False) == 1
    ui.screenshot("paigow-dealer-house-tiles-800x480")
    ui.tap(next(b for b in ways if not b.disabled))
    ui.tap(pad.ids.done)
    ui.pump(frames=2)
    assert session.state.phase is pg.Phase.CONFIRM
    assert dealer.step == ("The game supervisor confirms the House hand is set the house way "
                           "(rule 13.1.5)")
    assert dealer.bank_tiles == ["56", "15", "26", "34"]
    # Rule 13.1.4: the House's high hand lies down before the dealer, its low hand stands.
    lying = [t for t in dealer.ids.bank_tiles.children if getattr(t, "code", "")]
    assert sorted(t.code for t in lying) == ["15", "56"]
    assert all(t.horizontal and t.tile_box()[2] == 2 * t.tile_box()[3] for t in lying)
    assert dealer.bank_why == "7 (foo)\n5 (chop bot)"
    assert dealer.step_detail == ("House way: no pair: the strongest low hand, 5 (chop bot), "
                                  "with 7 (foo)")
    ui.screenshot("paigow-dealer-supervisor-800x480")
    ui.tap(dealer.ids.primary)
    pad = modal(ui, "BadgePad")
    for k in ("4", "2", "OK"):
        ui.tap(next(b for b in pad.ids.pad.children if b.key == k))
    ui.pump(0.2)
    assert session.state.confirmed_by == "supervisor 42"
    assert session.state.phase is pg.Phase.REVEAL
    sheet = modal(ui, "PayoutSheet")
    assert sheet.title == "Round 1: pay and take in this order (1 of 2)"
    # Each hand and its result, then every movement of chips in the order of 13.1: the
    # losing wager to the float (13.1.7) before the winner is paid (13.1.8).
    blocks = [(p.title, p.lines()) for p in sheet.panels]
    ui.tap(sheet.ids.next)
    ui.pump(0.2)
    blocks += [(p.title, p.lines()) for p in sheet.panels]
    assert blocks == [
        ("The hands", [("The bank's hands: 7 (foo) / 5 (chop bot)", ""),
                       ("Area 2: wong / 7 (mooy)", "PAY R95"),
                       ("Area 3: 6 (day) / 0", "TAKE R100")]),
        ("In order (1/2)", [("Expose the bank's hands (rule 13.1.3)", ""),
                            ("Area 3 loses: to the float (rule 13.1.7)", "TAKE R100"),
                            ("Area 2 wins: from the float (rule 13.1.8)", "PAY R100")]),
        ("In order (2/2)", [("Area 2: commission (rule 14.1)", "TAKE R5")])]
    assert dealer.card(2).detail == "R100\nPAY R95" and dealer.card(3).detail == "R100\nTAKE R100"
    save_png(grab(), SHOTS / "paigow-dealer-payouts-800x480.png")
    ui.tap(sheet.ids.confirm)
    ui.pump(frames=2)
    assert session.state.round == 2
    assert kinds(session) == ["table_opened", "washed", "bet_placed", "bet_placed",
                              "bet_placed", "betting_closed", "hand_set", "hand_set",
                              "bank_hand_set", "house_way_confirmed", "settled"]


# --- the layout, with the busiest content -----------------------------------------------------

BIG = pg.PaiGowRules(minimum=1_000_000, maximum=TEN_MILLION, areas=8, chips=ChipRule(500))


def busy(path: Path, bank: pg.Bank, until: pg.Phase) -> Session:
    """Eight areas (the most), every player at the table maximum of R10,000,000, all 32 tiles
    in play: the longest words and amounts."""
    from kiosk.rules.paigow.hands import splits
    from kiosk.rules.paigow.tiles import SET

    session = open_session(path, BIG)
    session.perform(pg.shuffle)
    chung = 1 if bank is pg.Bank.HOUSE else 8
    if bank is not pg.Bank.HOUSE:
        session.perform(lambda s: pg.take_bank(s, bank, chung, 7 * TEN_MILLION // 2))
    for area in range(1, 9):
        if area != chung:
            session.perform(lambda s, a=area: pg.place_bet(s, a, TEN_MILLION))
    session.perform(pg.close_betting)
    tiles = list(SET)
    while session.state.to_set is not None:
        area = session.state.to_set
        four, tiles = tiles[:4], tiles[4:]
        way = splits(four)[-1]
        session.perform(lambda s, a=area, w=way: pg.set_hand(s, a, w.high.tiles, w.low.tiles))
    session.perform(lambda s: pg.set_bank(s, tiles))
    if until is pg.Phase.REVEAL and session.state.phase is pg.Phase.CONFIRM:
        session.perform(lambda s: pg.confirm_house_way(s, "supervisor 12345678"))
    assert session.state.phase is until
    return session


SIZES_AND_LANGUAGES = [*((size, "en") for size in LANDSCAPE),
                       *(((800, 480), code) for code in ("af", "pt", "zu"))]


def _case(case: tuple[tuple[int, int], str]) -> str:
    (w, h), code = case
    return f"{w}x{h}" + ("" if code == "en" else f"-{code}")


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    code: str = request.param
    with i18n.using(code):
        yield code


def tiles_laid_out(screen: Any) -> None:
    """Every tile drawn whole on the screen, at least CARD_MM tall (a tile is read by its
    pips, as a card by its rank), none over a text."""
    from tests.ui.test_layout_dealers import CARD_MM, _px_per_mm
    from tests.ui.test_signage_paigow import _tiles, tile_problems

    assert tile_problems(screen) == []
    px = CARD_MM * _px_per_mm(screen.size)
    short = [t.code for t in _tiles(screen) if t.code and t.tile_height < px - 0.5]
    assert short == [], f"tiles under {CARD_MM} mm: {short}"


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_paigow_dealer_screen_fits_at_the_supervisors_check(
        ui: UI, tmp_path: Path, size: tuple[int, int], language: str) -> None:
    """The House hand waits for the supervisor (13.1.5): eight areas' tiles, the bank's
    tiles and the house way's reason, an alert shown."""
    from kiosk.ui.dealer.paigow_app import PaiGowDealerApp
    from tests.ui.test_refusals import tap_greyed

    session = busy(tmp_path / "c.db", pg.Bank.HOUSE, pg.Phase.CONFIRM)
    app = start_app(ui, PaiGowDealerApp(session, table_name=LONGEST_NAME))
    screen = app.screen
    ui.resize_window(*size)
    ui.pump(0.2)
    tap_greyed(ui, screen.ids.bank)
    assert screen.alert_shown
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-paigow-confirm-{_case((size, language))}")
    laid_out(ui, screen, size, frame=ui.shot)
    tiles_laid_out(screen)
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_paigow_dealer_screen_fits_at_the_settlement(
        ui: UI, tmp_path: Path, size: tuple[int, int], language: str) -> None:
    """A co-bank on area 8 (13.3): every area's result, then the settlement sheet."""
    from kiosk.ui.dealer.paigow_app import PaiGowDealerApp

    session = busy(tmp_path / "r.db", pg.Bank.COBANK, pg.Phase.REVEAL)
    app = start_app(ui, PaiGowDealerApp(session, table_name=LONGEST_NAME))
    screen = app.screen
    ui.pump(0.2)
    sheets = [w for w in ui.window.children if type(w).__name__ == "PayoutSheet"]
    assert len(sheets) == 1, "the reveal: the settlement opens by itself"
    sheets[0].dismiss()
    ui.resize_window(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-paigow-reveal-{_case((size, language))}")
    laid_out(ui, screen, size, frame=ui.shot)
    tiles_laid_out(screen)
    sheet = screen.open_payouts()
    ui.pump(0.3)
    ui.screenshot(f"layout-dealer-paigow-payouts-{_case((size, language))}")
    check(ui, sheet, size)
    for _ in range(sheet.pages - 1):
        ui.tap(sheet.ids.next)
        ui.pump(0.2)
        check(ui, sheet, size)
    sheet.dismiss()
    session.journal.close()


# --- every greyed control says why ------------------------------------------------------------


def _washed(s: Session) -> None:
    s.perform(pg.shuffle)


def _under(s: Session) -> None:
    _washed(s)
    s.perform(lambda st: pg.place_bet(st, 3, 500))  # under the R10 minimum (rule 2.2)


def _setting(s: Session) -> None:
    _washed(s)
    s.perform(lambda st: pg.place_bet(st, 2, 10_000))
    s.perform(pg.close_betting)


def _confirm(s: Session) -> None:
    _setting(s)
    s.perform(lambda st: pg.set_hand(st, 2, parse_tiles("66 45"), parse_tiles("55 16")))
    s.perform(lambda st: pg.set_bank(st, parse_tiles("56 15 34 26")))


def _reveal(s: Session) -> None:
    _confirm(s)
    s.perform(lambda st: pg.confirm_house_way(st, "supervisor 7"))


STATES = {"not washed": lambda s: None, "a wager under the minimum": _under,
          "hands to set": _setting, "the supervisor's check": _confirm, "reveal": _reveal}

WORDS = {
    "not washed": {
        "TableButton('No more bets')": "Wash the tiles before the round is dealt",
        "TableButton('Void round')": "No round to void: no bet is on the layout",
        "TableButton('Correct hand')": "A hand is corrected only before the bank's hands are "
        "set",
        "TableButton('Undo')": "Nothing to take back: Undo takes back a wager placed in this "
        "round"},
    "a wager under the minimum": {
        "TableButton('No more bets')": "Area 3: the wager of R5 is under the table minimum "
        "of R10 (rule 2.2)",
        "TableButton('Wash tiles')": "The tiles were washed for this round already"},
    "hands to set": {
        "ChipButton('5')": "No more bets: the tiles are in play",
        "TableButton('Wash tiles')": "The tiles are in play: wash them after the round",
        "TableButton('Who banks')": "No more bets: the tiles are in play",
        "TableButton('Correct hand')": "Area 2 has no hands set to correct"},
    "the supervisor's check": {},
    "reveal": {},
}
"""Some of each state's reasons, word for word."""


@pytest.mark.parametrize("state", list(STATES))
def test_every_greyed_control_says_why(ui: UI, session: Session, state: str) -> None:
    from kiosk.ui.dealer.paigow_app import PaiGowDealerApp
    from tests.ui.test_refusals import every_greyed_says_why, screen_says

    STATES[state](session)
    dealer = start_app(ui, PaiGowDealerApp(session, table_name="Pai Gow 1")).screen
    ui.pump(0.1)
    if dealer.sheet is not None:  # the settlement, over the screen
        dealer.sheet.dismiss()
        ui.pump(0.2)
    said = every_greyed_says_why(ui, dealer, screen_says, session.journal)
    for control, words in WORDS[state].items():
        assert said[control] == words, control


def test_a_hand_keyed_wrong_is_corrected_by_touch(ui: UI, session: Session,
                                                  dealer: Any) -> None:
    """The house's procedure: an area's hands keyed wrong are taken off and keyed again,
    until the bank's hands are set; then the control greys and says why."""
    from tests.ui.test_refusals import screen_says

    _washed(session)
    session.perform(lambda st: pg.place_bet(st, 2, 10_000))
    session.perform(lambda st: pg.place_bet(st, 3, 10_000))
    session.perform(pg.close_betting)
    session.perform(lambda st: pg.set_hand(st, 2, parse_tiles("66 45"), parse_tiles("55 16")))
    ui.pump(frames=2)
    ui.tap(dealer.card(2))  # a set area: selected, nothing opens
    ui.pump(frames=2)
    assert dealer.selected_area == 2 and not dealer.ids.correct.disabled
    ui.tap(dealer.ids.correct)
    ui.pump(frames=2)
    assert session.state.hand_of(2) is None
    assert dealer.card(2).tiles == ["", "", "", ""] and dealer.card(2).turn
    pad = modal(ui, "TileKeypad")  # opened at once: area 2 is keyed first again
    assert pad.title == "Area 2: key in the tiles and how the player set them"
    key_hand(ui, pad, "66 45 55 16", "high nine")
    ui.pump(frames=2)
    assert dealer.card(2).tiles == ["66", "16", "55", "45"]
    assert kinds(session)[-3:] == ["hand_set", "hand_unset", "hand_set"]
    session.perform(lambda st: pg.set_hand(st, 3, parse_tiles("11 13"), parse_tiles("46 55")))
    session.perform(lambda st: pg.set_bank(st, parse_tiles("56 15 34 26")))
    ui.pump(frames=2)
    assert dealer.ids.correct.disabled
    assert screen_says(ui, dealer, dealer.ids.correct) == (
        "A hand is corrected only before the bank's hands are set")
    assert kinds(session)[-1] == "bank_hand_set"


def test_a_house_setting_not_the_house_way_is_grey_and_says_why(
        ui: UI, session: Session, dealer: Any) -> None:
    """13.1.2: the House hand is set the house way; the keypad offers no other."""
    from tests.ui.test_refusals import dialog_says

    _setting(session)
    session.perform(lambda st: pg.set_hand(st, 2, parse_tiles("66 45"), parse_tiles("55 16")))
    ui.pump(frames=2)
    ui.tap(dealer.ids.primary)
    pad = modal(ui, "TileKeypad")
    for tile in parse_tiles("56 15 34 26"):
        ui.tap(next(k for k in pad.ids.tile_keys.children if k.tile is tile))
    grey = [b for b in pad.ids.settings.children if b.disabled]
    assert len(grey) == 2
    said = dialog_says(ui, pad, grey[0])
    assert said == ("The House hand is set the house way: 56 15 | 26 34 (rule 13.1.5)")
    pad.dismiss()


def test_a_refusal_in_afrikaans_is_recorded_in_english(ui: UI, session: Session) -> None:
    from kiosk.table.session import Severity
    from kiosk.ui.dealer.paigow_app import PaiGowDealerApp
    from tests.ui.test_refusals import tap_greyed

    _setting(session)
    with i18n.using("af"):
        dealer = start_app(ui, PaiGowDealerApp(session, table_name="Pai Gow 1")).screen
        ui.pump(frames=2)
        assert dealer.ids.wash.text == "Was stene" and dealer.shoe_status == (
            "Die Huis is die bank")
        tap_greyed(ui, dealer.ids.wash)
        assert dealer.alert_text != "The tiles are in play: wash them after the round"
        alert = session.alerts[-1]
        assert (alert.severity, alert.message) == (
            Severity.WARNING, "The tiles are in play: wash them after the round")
        ui.screenshot("paigow-dealer-refusal-af-800x480")


# --- the headless demo ----------------------------------------------------------------------


@pytest.mark.slow
def test_the_headless_demo_plays_a_round_by_touch(tmp_path: Path) -> None:
    """`tableside demo --game paigow --headless`: the touch script plays a round from the wash
    to the confirmed payouts and saves the screenshots."""
    import os
    import subprocess
    import sys

    from kiosk.store.source import load_entries

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env.update({"SDL_VIDEODRIVER": "offscreen", "GPIOZERO_PIN_FACTORY": "mock"})
    out = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--game", "paigow", "--headless",
         "--no-signage", "--fresh", "--journal", str(tmp_path / "demo.db"), "--out",
         str(tmp_path / "shots")],
        cwd=root, env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr[-3000:]
    assert "round settled: round 1" in out.stdout, out.stdout
    assert "Area 4 loses: to the float (rule 13.1.7) TAKE R50" in out.stdout, out.stdout
    assert "signage screenshot signage-800x480.png: exit 0" in out.stdout, out.stdout
    for name in ("dealer-betting-800x480", "dealer-tile-keypad-800x480",
                 "dealer-supervisor-800x480", "dealer-payouts-800x480", "dealer-800x480"):
        assert (tmp_path / "shots" / f"{name}.png").stat().st_size > 1000, name
    entries = load_entries(tmp_path / "demo.db")
    kinds = [e.kind.removeprefix("paigow.") for e in entries]
    assert kinds[-6:] == ["hand_set", "hand_set", "hand_set", "bank_hand_set",
                          "house_way_confirmed", "settled"]
    assert [a["area"] for a in entries[-1].payload["areas"]] == [2, 4, 6]


def test_a_player_banker_whose_losing_wager_area_is_short(ui: UI, session: Session,
                                                          dealer: Any) -> None:
    """Rule 13.2 by touch: area 5's player banks R200 (the wager keyed on a pad), covering
    the R200 declared (13.2.2); both players win, the losing wager area is empty, and each
    is paid from the banker's wager (13.2.8)."""
    ui.tap(dealer.ids.wash)
    ui.tap(dealer.card(5))
    ui.tap(dealer.ids.bank)
    picker = modal(ui, "ReasonPicker")
    ui.tap(next(b for b in picker.ids.reasons.children if b.text == "The player/banker banks"))
    ui.pump(0.1)
    pad = modal(ui, "AmountPad")
    assert pad.title == "Area 5: the player/banker's wager in R"
    from tests.ui.test_refusals import dialog_says

    assert dialog_says(ui, pad, pad.ok) == "Key in the wager first"
    for k in ("2", "0", "0", "OK"):
        ui.tap(next(b for b in pad.ids.pad.children if b.key == k))
    ui.pump(frames=2)
    assert (session.state.bank, session.state.chung, session.state.banker_wager) == (
        pg.Bank.PLAYER, 5, 20_000)
    assert dealer.shoe_status == "Area 5 banks R200" and dealer.card(5).chung
    assert dealer.card(5).detail == "CHUNG\nR200"
    for area in (2, 3):
        ui.tap(dealer.card(area))
        ui.tap(chip(dealer, 10_000))
    ui.tap(dealer.ids.primary)
    assert session.state.phase is pg.Phase.SETTING
    for codes, high in (("66 45 11 36", "chop gow pair"), ("44 44 13 13", "yun pair")):
        ui.tap(dealer.ids.primary)
        key_hand(ui, modal(ui, "TileKeypad"), codes, high)
        ui.pump(frames=2)
    assert dealer.step == "The player/banker at area 5 sets the banker's hands (rule 13.2.3)"
    ui.tap(dealer.ids.primary)
    pad = modal(ui, "TileKeypad")
    assert pad.title == "Area 5, the player/banker: key in the tiles as set"
    key_hand(ui, pad, "23 14 12 25", "chop ng pair")  # as the player/banker sets them
    ui.pump(0.2)
    assert session.state.phase is pg.Phase.REVEAL  # no supervisor: the House does not bank
    sheet = modal(ui, "PayoutSheet")
    lines = []
    for _ in range(sheet.pages):
        lines += [line for p in sheet.panels for line in p.lines()]
        if not sheet.ids.next.disabled:
            ui.tap(sheet.ids.next)
    assert lines[-5:] == [
        ("Expose the bank's hands (rule 13.2.4)", ""),
        ("Area 2: short, from the banker's wager (rule 13.2.8)", "PAY R100"),
        ("Area 2: commission (rule 14.1)", "TAKE R5"),
        ("Area 3: short, from the banker's wager (rule 13.2.8)", "PAY R100"),
        ("Area 3: commission (rule 14.1)", "TAKE R5")]
    assert lines[-6] == ("The player/banker's wager (rule 13.2.2)", "R200")
    ui.screenshot("paigow-dealer-player-banker-payouts-800x480")
    ui.tap(sheet.ids.confirm)
    assert session.state.round == 2


def test_a_banker_who_does_not_cover_the_wagers_falls_to_a_co_bank(
        ui: UI, session: Session, dealer: Any) -> None:
    """Rule 13.2.2: area 5's player/banker puts up R100 against R150 declared; at no more
    bets the round is conducted as per 13.3 (at least 50% covered, 13.3.1), the header says
    so, and the co-banking hands are keyed to be set the house way (13.3.4)."""
    session.perform(pg.shuffle)
    session.perform(lambda s: pg.take_bank(s, pg.Bank.PLAYER, 5, 10_000))
    for area, amount in ((2, 10_000), (3, 5_000)):
        session.perform(lambda s, a=area, m=amount: pg.place_bet(s, a, m))
    ui.pump(frames=2)
    assert dealer.shoe_status == "Area 5 banks R100"
    ui.tap(dealer.ids.primary)
    assert session.state.bank is pg.Bank.COBANK and session.state.fell_to_cobank
    assert dealer.shoe_status == "Area 5 and the House co-bank R100 each"
    session.perform(lambda s: pg.set_hand(s, 2, parse_tiles("66 45"), parse_tiles("55 16")))
    session.perform(lambda s: pg.set_hand(s, 3, parse_tiles("11 36"), parse_tiles("13 46")))
    ui.pump(frames=2)
    ui.tap(dealer.ids.primary)
    pad = modal(ui, "TileKeypad")
    assert pad.title == "The co-bank's tiles: set the house way"
    for tile in parse_tiles("56 15 34 26"):
        ui.tap(next(k for k in pad.ids.tile_keys.children if k.tile is tile))
    assert [b.disabled for b in pad.ids.settings.children].count(False) == 1  # 13.3.4
    ui.screenshot("paigow-dealer-co-bank-tiles-800x480")
    pad.dismiss()


LANGUAGES_AT_800 = [((800, 480), code) for code in ("en", "af", "pt", "zu")]


@pytest.mark.parametrize(("size", "language"), LANGUAGES_AT_800, indirect=["language"],
                         ids=[_case(c) for c in LANGUAGES_AT_800])
def test_the_bank_chooser_its_pad_and_the_longest_refusal_fit(
        ui: UI, tmp_path: Path, size: tuple[int, int], language: str) -> None:
    """The longest of the screen's refusals (a player/banker under 50% of the wagers, rule
    13.3.1, at R10,000,000 amounts) in the alert over eight areas; the bank chooser and the
    banker's wager pad over the screen."""
    from kiosk.ui.dealer.paigow_app import PaiGowDealerApp
    from tests.ui.layout import problems
    from tests.ui.test_refusals import tap_greyed

    session = open_session(tmp_path / "b.db", BIG)
    session.perform(pg.shuffle)
    session.perform(lambda s: pg.take_bank(s, pg.Bank.COBANK, 8, 1_000_000))
    for area in range(1, 8):
        session.perform(lambda s, a=area: pg.place_bet(s, a, TEN_MILLION))
    app = start_app(ui, PaiGowDealerApp(session, table_name=LONGEST_NAME))
    screen = app.screen
    ui.pump(0.2)
    tap_greyed(ui, screen.ids.primary)
    assert "13.3.1" in screen.alert_text
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-paigow-refusal-{_case((size, language))}")
    laid_out(ui, screen, size, frame=ui.shot)
    ui.tap(screen.card(4))
    ui.tap(screen.ids.bank)
    picker = modal(ui, "ReasonPicker")
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-paigow-bank-chooser-{_case((size, language))}")
    assert problems(picker) == []
    ui.tap(next(b for b in picker.ids.reasons.children if b.reason == pg_bank_words()[2]))
    ui.pump(0.2)
    pad = modal(ui, "AmountPad")
    assert problems(pad) == []
    pad.dismiss()
    session.journal.close()


def pg_bank_words() -> tuple[str, ...]:
    from kiosk.ui.dealer.paigow import BANKS

    return BANKS
