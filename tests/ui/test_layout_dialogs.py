"""Every dialog a dealer opens over the screen, at every landscape size and in every dealer
language at 800x480, with the worst content: the players behind a split, the card keypad,
the void's reasons, the badge pad, the insurance amount and roulette's chip change:
nothing cut off, overlapping or off the window, no text under 1.75 mm, every text 4.5:1
against what is behind it. The window itself is told its size (`UI.resize_window`), so a
dialog sizes itself from it as it does on a real screen. Screenshots of each are kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.ui.conftest import UI, start_app
from tests.ui.layout import box, contrast_problems, problems, smallest_text
from tests.ui.test_layout_dealers import (
    SIZES_AND_LANGUAGES,
    SMALLEST_MM,
    _case,
    _px_per_mm,
    language,
)
from tests.ui.test_layout_signs import LONGEST_NAME, TEN_MILLION

__all__ = ["language"]  # the fixture, used by name


def dialogs(ui: UI) -> list[Any]:
    from kivy.uix.modalview import ModalView

    return [w for w in ui.window.children if isinstance(w, ModalView)]


def the_dialog(ui: UI, kind: str) -> Any:
    ui.pump(0.3)
    found = dialogs(ui)
    assert [type(d).__name__ for d in found] == [kind]
    return found[0]


def dialog_fits(ui: UI, dialog: Any, case: tuple[tuple[int, int], str], name: str) -> None:
    """The dialog inside the window; its texts whole, apart, readable; then it closes."""
    size = case[0]
    ui.screenshot(f"layout-dialog-{name}-{_case(case)}")
    x, y, right, top = box(dialog)
    assert x >= 0 and y >= 0 and right <= size[0] and top <= size[1], (
        f"{type(dialog).__name__} at {(x, y, right, top)} leaves the {size} window")
    found = problems(dialog) + contrast_problems(ui.shot, dialog)  # the frame just saved
    assert found == [], "\n".join(found)
    mm, text = smallest_text(dialog, px_per_mm=_px_per_mm(size))
    assert mm >= SMALLEST_MM, f"{text!r} is {mm:.2f} mm tall"
    dialog.dismiss(animation=False)
    ui.pump(0.1)
    assert dialogs(ui) == []


def _bj_insurance(path: Path) -> Any:
    """Seven boxes at the largest bets, three players behind each; the dealer shows an ace:
    insurance is open. Box 1 holds a pair of tens, to split once insurance closes."""
    from kiosk.rules.cards import Card

    rules = BlackjackRules(chips=ChipRule(500), minimum=100_000, maximum=TEN_MILLION,
                           surrender=True)
    session = TableSession(bj.Blackjack(), Journal.open(path, "BJ-01"), rules, "BJ-01")
    session.perform(bj.shuffle)
    session.perform(lambda s: bj.cut_cards(s, 1, 156, 78))
    session.perform(lambda s: bj.shoe_card(s, Card.parse("2D")))  # the burn
    for b in range(1, 8):
        for player in "ABCD":
            session.perform(lambda s, b=b, p=player: bj.place_bet(s, b, TEN_MILLION, p))
    session.perform(bj.close_betting)
    for code in ["TS", "9S", "8S", "7S", "6S", "5S", "4S", "AH",
                 "TH", "TD", "TC", "JH", "JD", "QH", "KH"]:
        session.perform(lambda s, c=code: bj.shoe_card(s, Card.parse(c)))
    assert session.state.phase is bj.Phase.INSURANCE
    return session


def _keypad_and_void_fit(ui: UI, screen: Any, case: tuple[tuple[int, int], str], game: str) -> None:
    """The card keypad (a rank chosen) and the void reasons fit: every card game has both."""
    screen.open_keypad()
    keypad = the_dialog(ui, "CardKeypad")
    keypad.choose_rank("Q")
    ui.pump(0.1)
    dialog_fits(ui, keypad, case, f"{game}-card-keypad")
    screen.open_void()
    dialog_fits(ui, the_dialog(ui, "ReasonPicker"), case, f"{game}-void-reasons")


def _badge_fits(ui: UI, case: tuple[tuple[int, int], str], name: str) -> None:
    """The badge pad just opened fits with a badge's eight digits typed."""
    badge = the_dialog(ui, "BadgePad")
    for key in "88888888":
        badge.press(key)
    dialog_fits(ui, badge, case, name)


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_blackjack_dialogs_fit(ui: UI, tmp_path: Path, size: tuple[int, int],
                                   language: str) -> None:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    session = _bj_insurance(tmp_path / "t.db")
    app = start_app(ui, BlackjackDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    screen, case = app.screen, (size, language)
    screen.open_insurance_amount(7, "D")
    insurance = the_dialog(ui, "InsuranceAmount")
    assert "R5,000,000" in insurance.title  # up to half of R10,000,000 (rule 4.7)
    dialog_fits(ui, insurance, case, "blackjack-insurance-amount")
    session.perform(bj.close_insurance)
    ui.pump(0.2)
    assert session.state.phase is bj.Phase.PLAYING
    # Box 1's pair of tens: the split asks the three players behind which hand they follow.
    screen.split()
    chooser = the_dialog(ui, "BehindChooser")
    assert list(chooser.rows) == ["B", "C", "D"]
    dialog_fits(ui, chooser, case, "blackjack-split-behind")
    screen.surrender()
    dialog_fits(ui, the_dialog(ui, "BehindChooser"), case, "blackjack-surrender-behind")
    # (Double's chooser is the same dialog with a shorter title.)
    _keypad_and_void_fit(ui, screen, case, "blackjack")
    screen.open_accept()
    _badge_fits(ui, case, "blackjack-badge")
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_punto_banco_dialogs_fit(ui: UI, tmp_path: Path, size: tuple[int, int],
                                     language: str) -> None:
    from kiosk.rules.baccarat import engine as pb
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp
    from tests.ui.test_layout_dealer_states import _pb

    session = _pb(tmp_path / "t.db")
    session.perform(pb.close_betting)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    screen, case = app.screen, (size, language)
    _keypad_and_void_fit(ui, screen, case, "punto-banco")
    screen.inspector_button()  # calls the inspector; the second tap takes their badge
    screen.inspector_button()
    _badge_fits(ui, case, "punto-banco-inspector-badge")
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_roulettes_chip_change_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                    language: str) -> None:
    from kiosk.config import parse
    from kiosk.rules.roulette import engine as rl
    from kiosk.ui.games.roulette import dealer_app
    from tests.ui.test_layout_dealers import _rl_table

    session = _rl_table(tmp_path / "t.db")
    cfg = parse(f'[table]\nid = "RL-01"\nname = "{LONGEST_NAME}"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    ui.resize_window(*size)
    screen, case = app.screen, (size, language)
    screen.colour = rl.COLOURS[6]
    screen.open_chip_change()
    pad = the_dialog(ui, "ChipChangePad")
    for n in list(pad.count_buttons)[::-1]:
        pad.add(n)
    ui.pump(0.1)
    dialog_fits(ui, pad, case, "roulette-chip-change")
    session.journal.close()
