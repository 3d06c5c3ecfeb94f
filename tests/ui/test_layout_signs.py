"""Every sign at every size with the worst content the configuration allows: nothing cut off,
nothing overlapping, nothing off the screen, in every language the signs are
translated into (longer words must fit too). Screenshots of each are kept."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.i18n import SignLanguages
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.played import played_once
from tests.ui.conftest import UI, start_app
from tests.ui.layout import SIZES, contrast_problems, problems
from tests.ui.test_signage_feed import BANKER_7_TO_5, deal

LONGEST_NAME = "Salon Privé High Limit Table 007"  # 32 characters, the most the config allows
TEN_MILLION = 1_000_000_000  # R10,000,000 in cents
LANGUAGES = i18n.available()
EVERY_LANGUAGE_AT = ((800, 480), (1920, 1080), (1080, 1920))
"""Where each sign is laid out in every language: the smallest screen, full HD and the
portrait sign, where a longer word runs out of room first; English at every size. (Every
language at every size doubled these tests' time, past the suite's 15 minutes, and 1024x600
and 1280x800 sit between sizes already proven in every language.)"""
CASES = [(size, code) for size in SIZES for code in LANGUAGES
         if code == i18n.SOURCE or size in EVERY_LANGUAGE_AT]
CASE_IDS = [f"{w}x{h}-{code}" for (w, h), code in CASES]


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The sign's words in the language of the test's parameter, English again after."""
    code = str(request.param)
    i18n.use(code)
    yield code
    i18n.use(i18n.SOURCE)


def shortened(root: Any) -> list[str]:
    """Texts Kivy itself would cut short ("UKULINGA..."): a label that shortens puts its text
    on one line and cuts it when it is wider than its text_size less the padding and 2 px
    (kivy.core.text's `shorten`), a whole pixel rounded down."""
    from kivy.uix.label import Label

    from kiosk.ui.fit import extent
    from tests.ui.layout import shown

    out = []
    for w in root.walk(restrict=True):
        if not (isinstance(w, Label) and w.shorten and w.text.strip() and shown(w)
                and w.text_size and w.text_size[0]):
            continue
        pad = list(w.padding) if len(w.padding) == 4 else [w.padding[0], 0, w.padding[0], 0]
        room = int(w.text_size[0] - pad[0] - pad[2] - 2)
        width = extent(w.text.replace("\n", " "), w.font_size, w.font_name, bool(w.bold),
                       bool(w.italic))[0]
        if width > room:
            out.append(f"{w.text!r} is {width:.0f} px, Kivy cuts it short at {room} px")
    return out

BIG_PB = pb.PuntoBancoRules(
    chips=ChipRule(500),
    limits=(pb.Limit(pb.BetKind.BANKER, 1_000_000, TEN_MILLION),
            pb.Limit(pb.BetKind.PLAYER, 1_000_000, TEN_MILLION),
            pb.Limit(pb.BetKind.TIE, 100_000, TEN_MILLION // 10)),
    areas=14)


def _pb_coup(session: Any, cards: list[str] | None = None) -> None:
    """A coup with the largest bets the limits allow in every area."""
    for area in range(1, 15):
        session.perform(lambda s, a=area: pb.place_bet(s, str(a), pb.BetKind.BANKER,
                                                         TEN_MILLION))
        session.perform(lambda s, a=area: pb.place_bet(s, str(a), pb.BetKind.TIE,
                                                         TEN_MILLION // 10))
    session.perform(pb.close_betting)
    if cards is not None:
        deal(session, cards)
        return
    left = list(session.state.shoe.cards_left())
    random.Random(len(left)).shuffle(left)
    while session.state.phase is pb.Phase.DEALING:
        deal(session, [left.pop().code])
    session.perform(pb.confirm_payouts)


def _pb_play(path: Path) -> Any:
    session = TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01"), BIG_PB, "PB-01")
    session.perform(pb.shuffle)
    for _ in range(12):
        _pb_coup(session)
    _pb_coup(session, list(BANKER_7_TO_5))
    return session


def _pb_journal(path: Path) -> Any:
    """Thirteen coups at the largest bets in fourteen areas, the last a banker win 7 to 5:
    played once a process (some 500 durable rows) and copied to `path`, the session resumed
    from it."""
    played_once(path, _pb_play)
    return TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01"), BIG_PB, "PB-01")


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_punto_banco_sign_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                   language: str) -> None:
    from kiosk.ui.signage.app import SignageApp

    session = _pb_journal(tmp_path / "t.db")
    app = start_app(ui, SignageApp(tmp_path / "t.db", LONGEST_NAME,
                                   languages=SignLanguages((language,))))
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-sign-punto-banco-{size[0]}x{size[1]}-{language}")
    assert problems(app.frame) == []
    assert shortened(app.frame) == []
    session.journal.close()


def _bj_rules() -> Any:
    """The largest limits, and the house options that make the sign's odds longest:
    surrender offered, and a dealer blackjack taking only the original bet (its sentence is
    longer than 'all')."""
    from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes

    return BlackjackRules(chips=ChipRule(500), minimum=TEN_MILLION // 10,
                          maximum=TEN_MILLION, surrender=True,
                          dealer_blackjack_takes=DealerBlackjackTakes.ORIGINAL)


def _bj_state() -> Any:
    """A blackjack round at the largest limits: the dealer draws five cards to 21."""
    from kiosk.rules.blackjack import engine as bj
    from tests.ui.test_signage_blackjack import Play

    rules = _bj_rules()
    play = Play(rules).ready()
    for box in range(1, 8):
        play.do(lambda s, b=box: bj.place_bet(s, b, TEN_MILLION))
    play.do(bj.close_betting)
    play.cards("TS TH TD TC 9S 9H 9D 2C")  # seven boxes' first cards, the dealer's 2
    play.cards("8S 8H 8D 8C 7S 7H 7D")
    for _ in range(7):
        play.do(bj.stand)
    play.cards("2D 2H 3C 3D AS")  # 2+2+2+3+3+A = 13? the dealer draws on
    while play.state.phase is bj.Phase.DEALER:
        play.cards("4S")
    return rules, play.state


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_blackjack_sign_fits(ui: UI, size: tuple[int, int], language: str) -> None:
    from kiosk.ui.signage.blackjack_view import BlackjackSignage

    rules, state = _bj_state()
    view = BlackjackSignage(table_name=LONGEST_NAME)
    view.show(rules, state)
    ui.window.add_widget(view)
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-sign-blackjack-{size[0]}x{size[1]}-{language}")
    assert view.ids.max_line.ids.amount.text == "R10,000,000"
    assert problems(view) == []
    assert shortened(view) == []
    assert contrast_problems(ui.frame(), view) == []


def _rl_state() -> Any:
    from kiosk.rules.roulette import engine as rl

    rules = rl.RouletteRules(limits=rl.Limits(minimum_chip=100_000,
                                              straight_up_maximum=TEN_MILLION // 10,
                                              outside_maximum=TEN_MILLION,
                                              table_maximum=TEN_MILLION))
    results = tuple(str((n * 7) % 37) for n in range(120))
    return rl.RouletteState(rules, "RL-01", results=results, phase=rl.Phase.RESULT,
                            number="32")


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_roulette_sign_fits(ui: UI, size: tuple[int, int], language: str) -> None:
    from kiosk.ui.signage.link import Link
    from kiosk.ui.signage.roulette_view import RouletteSignage

    view = RouletteSignage(table_name=LONGEST_NAME)
    view.show(_rl_state(), Link.LIVE)
    ui.window.add_widget(view)
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-sign-roulette-{size[0]}x{size[1]}-{language}")
    amounts = [line.ids.amount.text for line in reversed(view.ids.limits.children)]
    assert amounts == ["R1,000", "R1,000,000", "R10,000,000", "R10,000,000"]
    assert problems(view) == []
    assert shortened(view) == []
    assert contrast_problems(ui.frame(), view) == []


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920), (800, 480)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_sign_text_stands_out_from_what_is_behind_it(ui: UI, tmp_path: Path,
                                                           size: tuple[int, int]) -> None:
    from kiosk.ui.signage.app import SignageApp

    session = _pb_journal(tmp_path / "t.db")
    app = start_app(ui, SignageApp(tmp_path / "t.db", LONGEST_NAME))
    ui.resize(*size)
    ui.pump(0.2)
    assert contrast_problems(ui.frame(), app.frame) == []
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_words_that_replace_the_call_fit(ui: UI, tmp_path: Path, size: tuple[int, int],
                                             language: str) -> None:
    """The table paused, reconnecting, closed, the inspector attending: the banner's words
    and the link's, the longest on the signs, in every language on every sign."""
    from kiosk.ui.signage.blackjack_view import BlackjackSignage
    from kiosk.ui.signage.interruptions import CLOSED, INSPECTOR, PAUSED, RECONNECTING
    from kiosk.ui.signage.link import Link
    from kiosk.ui.signage.paigow_view import PaiGowSignage
    from kiosk.ui.signage.punto_banco_view import PuntoBancoSignage
    from kiosk.ui.signage.roulette_view import RouletteSignage
    from tests.ui.test_signage_paigow import worst

    session = _pb_journal(tmp_path / "t.db")
    rules, bj_state = _bj_state()
    signs = (
        (PuntoBancoSignage(table_name=LONGEST_NAME), lambda v, link: v.show(session.state,
                                                                            link)),
        (BlackjackSignage(table_name=LONGEST_NAME), lambda v, link: v.show(rules, bj_state,
                                                                           link)),
        (RouletteSignage(table_name=LONGEST_NAME), lambda v, link: v.show(_rl_state(), link)),
        (PaiGowSignage(table_name=LONGEST_NAME), lambda v, link: v.show_words(worst(), link)),
    )
    for view, show in signs:
        ui.window.add_widget(view)
        ui.resize(*size)
        for link, words in ((Link.PAUSED, PAUSED), (Link.RECONNECTING, RECONNECTING),
                            (Link.CLOSED, CLOSED), (Link.LIVE, INSPECTOR)):
            show(view, link)
            view.interrupt(*words.words())
            ui.pump(0.05)
            assert view.ids.headline.text.upper() == words.words()[0].upper()
            assert problems(view) == [], (type(view).__name__, link)
            assert shortened(view) == [], (type(view).__name__, link)
        ui.screenshot(f"layout-sign-reconnecting-{type(view).__name__}-{size[0]}x{size[1]}-"
                      f"{language}")
        ui.window.remove_widget(view)
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_sign_before_the_first_coup_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                             language: str) -> None:
    """The welcome while the sign waits for the table (no journal yet), then the shuffle
    once the dealer app opens it: the words that stand alone on a sign."""
    import time

    from kiosk.ui.signage.app import SignageApp
    from tests.table.helpers import open_session

    path = tmp_path / "t.db"
    app = start_app(ui, SignageApp(path, LONGEST_NAME, languages=SignLanguages((language,))))
    ui.resize(*size)
    ui.pump(0.1)
    ui.screenshot(f"layout-sign-welcome-{size[0]}x{size[1]}-{language}")
    assert problems(app.frame) == [] and shortened(app.frame) == []
    welcome = app.screen.ids.headline.text
    session = open_session(path, BIG_PB)
    t0 = time.monotonic()
    while app.screen.ids.headline.text == welcome and time.monotonic() - t0 < 3:
        ui.pump(frames=1)
    assert app.screen.ids.headline.text != welcome  # the shuffle
    ui.pump(0.1)
    ui.screenshot(f"layout-sign-shuffling-{size[0]}x{size[1]}-{language}")
    assert problems(app.frame) == [] and shortened(app.frame) == []
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_blackjacks_shuffle_and_cut_and_the_idle_screen_fit(ui: UI, size: tuple[int, int],
                                                            language: str) -> None:
    """Blackjack's sign while the shoe is shuffled and cut (rule 4.4), and the idle screen
    with the longest table name, game and limits."""
    from kiosk.i18n import _, money
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.registry import games
    from kiosk.ui.signage.blackjack_view import BlackjackSignage
    from kiosk.ui.signage.kivy_app import IdleView
    from tests.ui.test_signage_blackjack import Play

    rules = _bj_rules()
    play = Play(rules)
    view = BlackjackSignage(table_name=LONGEST_NAME)
    ui.window.add_widget(view)
    for stage in ("shuffling", "cutting"):
        view.show(rules, play.state)
        ui.resize(*size)
        ui.pump(0.05)
        ui.screenshot(f"layout-sign-blackjack-{stage}-{size[0]}x{size[1]}-{language}")
        assert problems(view) == [] and shortened(view) == [], stage
        play.do(bj.shuffle)
    ui.window.remove_widget(view)
    idle = IdleView()
    title = max((_(spec.title) for spec in games()), key=len)
    idle.show(LONGEST_NAME, title, _("Bets from %(min)s to %(max)s") % {
        "min": money(100_000, "R"), "max": money(TEN_MILLION, "R")})
    ui.window.add_widget(idle)
    ui.resize(*size)
    ui.pump(0.05)
    ui.screenshot(f"layout-sign-idle-{size[0]}x{size[1]}-{language}")
    assert problems(idle) == [] and shortened(idle) == []
    assert contrast_problems(ui.shot, idle) == []
