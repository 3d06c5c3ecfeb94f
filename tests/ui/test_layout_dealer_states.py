"""The dealer screens in the states a round passes through, at every landscape size from
800x480 to 1920x1080, with the worst content: betting, dealing, a blackjack insurance and
the shuffle and cut, each held to the layout check (nothing cut off, overlapping or off the
screen, no text under 1.75 mm, every text 4.5:1 against its background)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.ui.conftest import UI, start_app
from tests.ui.layout import LANDSCAPE, contrast_problems, problems, smallest_text
from tests.ui.test_layout_dealers import (
    PB_RULES,
    SMALLEST_MM,
    _bj_cut,
    _px_per_mm,
    _rl_betting,
    _shoe_card,
)
from tests.ui.test_layout_signs import LONGEST_NAME, TEN_MILLION
from tests.ui.test_signage_feed import deal

SIZES = LANDSCAPE  # 800x480, 1024x600, 1280x800, 1920x1080


def _check(ui: UI, screen: Any, size: tuple[int, int], name: str) -> None:
    ui.screenshot(f"layout-dealer-{name}-{size[0]}x{size[1]}")
    found = problems(screen) + contrast_problems(ui.shot, screen)  # the frame just saved
    assert found == [], "\n".join(found)
    mm, text = smallest_text(screen, px_per_mm=_px_per_mm(size))
    assert mm >= SMALLEST_MM, f"{text!r} is {mm:.2f} mm tall"


def _pb(path: Path) -> Any:
    session = TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01"), PB_RULES, "PB-01")
    session.perform(pb.shuffle)
    for area in range(1, 15):
        session.perform(lambda s, a=area: pb.place_bet(s, str(a), pb.BetKind.BANKER,
                                                         TEN_MILLION))
        session.perform(lambda s, a=area: pb.place_bet(s, str(a), pb.BetKind.TIE,
                                                         TEN_MILLION))
    return session


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_punto_banco_while_betting_and_dealing(ui: UI, tmp_path: Path,
                                               size: tuple[int, int]) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _pb(tmp_path / "t.db")
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize(*size)
    ui.pump(0.2)
    screen = app.screen
    assert screen.panel_shown and screen.ids.panel.lines() == [
        ("Banker bet", "R10,000,000"), ("Tie bet", "R10,000,000")]
    _check(ui, screen, size, "punto-banco-betting")
    session.perform(pb.close_betting)
    deal(session, ["4H", "3C", "KD"])
    ui.pump(0.2)
    assert not screen.panel_shown  # the hands while the cards come
    _check(ui, screen, size, "punto-banco-dealing")
    session.journal.close()


def _bj(path: Path) -> Any:
    from kiosk.rules.cards import Card

    rules = BlackjackRules(chips=ChipRule(500), minimum=100_000, maximum=TEN_MILLION)
    session = TableSession(bj.Blackjack(), Journal.open(path, "BJ-01"), rules, "BJ-01")
    return session, Card


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_blackjack_from_the_cut_to_the_insurance(ui: UI, tmp_path: Path,
                                                 size: tuple[int, int]) -> None:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    session, card_of = _bj(tmp_path / "t.db")
    app = start_app(ui, BlackjackDealerApp(session, table_name=LONGEST_NAME))
    ui.resize(*size)
    ui.pump(0.2)
    screen = app.screen
    _check(ui, screen, size, "blackjack-shuffle")
    session.perform(bj.shuffle)
    ui.pump(0.2)
    _check(ui, screen, size, "blackjack-cut")
    session.perform(lambda s: bj.cut_cards(s, 1, 156, 78))
    session.perform(lambda s: bj.shoe_card(s, card_of.parse("2D")))  # the burn
    for box in range(1, 8):
        session.perform(lambda s, b=box: bj.place_bet(s, b, 4_000_000, "A"))
        for player in ("B", "C", "D"):
            session.perform(lambda s, b=box, p=player: bj.place_bet(s, b, 2_000_000, p))
    ui.pump(0.2)
    _check(ui, screen, size, "blackjack-betting")
    session.perform(bj.close_betting)
    for code in ["TS", "9S", "8S", "7S", "6S", "5S", "4S", "AH",
                 "TH", "TD", "TC", "JH", "JD", "QH", "KH"]:
        session.perform(lambda s, c=code: bj.shoe_card(s, card_of.parse(c)))
    ui.pump(0.2)
    assert session.state.phase is bj.Phase.INSURANCE  # the dealer shows an ace (rule 4.7)
    _check(ui, screen, size, "blackjack-insurance")
    session.journal.close()


def _bj_mid_play(path: Path) -> Any:
    """Seven boxes at the largest bets, three players behind each, every box split to four
    hands (rule 4.2 item 4e), box 1's first hand bust at 27, and the last box's last hand
    waiting for its decision: the most a blackjack screen shows while the boxes play."""
    from kiosk.rules.blackjack.operations import Follow

    session = _bj_cut(path, surrender=True)

    def card(code: str) -> None:
        _shoe_card(session, code)

    card("2D")  # the burn
    for b in range(1, 8):
        for player in "ABCD":
            session.perform(lambda s, b=b, p=player: bj.place_bet(s, b, TEN_MILLION, p))
    session.perform(bj.close_betting)
    for _ in range(7):
        card("T")
    card("6D")
    for _ in range(7):
        card("T")
    bust = False
    while True:
        state = session.state
        hand = state.current
        assert hand is not None and state.phase is bj.Phase.PLAYING
        on_box = [h for h in state.hands if h.box == hand.box]
        if hand.box == 7 and len(on_box) == 4 and on_box[3] is hand and len(hand.cards) == 2:
            break  # the last hand of all: its decision waits
        if len(hand.cards) < 2:
            card("T" if len(on_box) < 4 else ("7" if not bust else "9"))
        elif "split" in bj.legal_actions(state) and len(on_box) < 4:
            session.perform(lambda s: bj.split(s, {p: Follow.BOTH for p in "BCD"}))
        elif not bust:
            card("T")  # 10 + 7 + 10: bust (27)
            bust = True
        else:
            session.perform(bj.stand)
    assert len(session.state.hands) == 28
    assert session.state.hands[0].total.best == 27
    return session


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_blackjack_while_seven_boxes_play_four_hands_each(ui: UI, tmp_path: Path,
                                                          size: tuple[int, int]) -> None:
    """The decision row over a split hand with three players behind, 28 hands on the table,
    one of them "bust (27)": every card at least CARD_MM tall, its rank readable."""
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp
    from tests.ui.test_layout_dealers import laid_out

    session = _bj_mid_play(tmp_path / "t.db")
    app = start_app(ui, BlackjackDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    ui.pump(0.2)
    screen = app.screen
    shown = [w.text for w in screen.walk(restrict=True) if hasattr(w, "text")]
    assert any("bust (27)" in t for t in shown), "box 1's first hand shows its bust"
    ui.screenshot(f"layout-dealer-blackjack-playing-{size[0]}x{size[1]}")
    laid_out(ui, screen, size, cards=True, frame=ui.shot)
    session.journal.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_roulette_while_betting_and_spinning(ui: UI, tmp_path: Path,
                                             size: tuple[int, int]) -> None:
    from kiosk.config import parse
    from kiosk.rules.roulette import engine as rl
    from kiosk.ui.games.roulette import dealer_app

    session = _rl_betting(tmp_path / "t.db")
    cfg = parse(f'[table]\nid = "RL-01"\nname = "{LONGEST_NAME}"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    ui.resize_window(*size)
    ui.pump(0.2)
    screen = app.screen
    _check(ui, screen, size, "roulette-betting")
    session.perform(lambda s: rl.spin_ball(s, rl.Direction.CLOCKWISE))
    ui.pump(0.2)
    _check(ui, screen, size, "roulette-spinning")
    session.perform(rl.close_betting)
    ui.pump(0.2)
    _check(ui, screen, size, "roulette-no-more-bets")
    session.journal.close()
