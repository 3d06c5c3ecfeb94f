"""Every dealer screen at every landscape size with the worst content the configuration
allows: nothing cut off, nothing overlapping, nothing off the screen. The payout
and settlement text the dealer pays from is at least 4 mm tall on the 7" panel. Screenshots
of each are kept. Each screen is laid out in Afrikaans, isiZulu and Portuguese too
(`[display] dealer_language`) at 800x480, the smallest: a translation too long for its
button fails here, and is shortened (docs/dealer-screen.md, "Languages")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.ui.conftest import UI, start_app
from tests.ui.layout import (
    LANDSCAPE,
    card_ranks,
    contrast_problems,
    problems,
    smallest_text,
)
from tests.ui.test_layout_signs import LONGEST_NAME, TEN_MILLION
from tests.ui.test_signage_feed import BANKER_7_TO_5, deal

SMALLEST_MM = 1.75
"""No text on a dealer screen is smaller than this (capital letters) on the 7" panel."""
PAYOUT_MM = 4.0
"""The payout and settlement text the dealer pays from."""
CARD_MM = 5.8
"""No card on a dealer screen is drawn shorter than this, and no card dealt is hidden or has
its rank covered. The dealer reads a card by its rank, so the figure follows from the rank:
a rank at least SMALLEST_MM tall (capitals; about 12 minutes of arc at an arm's length of
50 cm), drawn at 0.45 of a small card's height (`card_face.COMPACT_RANK`; Atkinson
Hyperlegible's capitals are 0.668 of the font size), needs a card 1.75 / (0.45 * 0.668) =
5.8 mm tall: 30 px on the 7" panel (0.193 mm a pixel, 154.2 mm across 800 px). Below it the
rank is a smudge (the busiest screen's were 21 px, their ranks 0.8 mm: seen here)."""


def _px_per_mm(size: tuple[int, int]) -> float:
    from kiosk.ui import theme

    return theme.metrics_for(size[0]).px_per_mm


def laid_out(ui: UI, screen: Any, size: tuple[int, int], *, cards: bool = False,
             frame: Any = None) -> None:
    """Nothing cut off, overlapping or off the screen; every text readable against what is
    behind it; no text under SMALLEST_MM; with `cards`, every card dealt drawn at least
    CARD_MM tall and its rank at least SMALLEST_MM."""
    found = problems(screen, min_card_height=CARD_MM * _px_per_mm(size) if cards else 0.0)
    assert found == [], "\n".join(found)
    if cards:
        mm, code = card_ranks(screen, px_per_mm=_px_per_mm(size))
        assert mm >= SMALLEST_MM, f"the rank of {code} is {mm:.2f} mm tall"
    found = contrast_problems(frame or ui.frame(), screen)
    assert found == [], "\n".join(found)
    mm, text = smallest_text(screen, px_per_mm=_px_per_mm(size))
    assert mm >= SMALLEST_MM, f"{text!r} is {mm:.2f} mm tall"


def check(ui: UI, screen: Any, size: tuple[int, int]) -> None:
    """`laid_out`, and the payouts at least PAYOUT_MM."""
    from kiosk.ui.fonts import cap_height

    laid_out(ui, screen, size)
    payouts = [w for w in screen.walk() if getattr(w, "payout", False) and w.text
               and w.opacity > 0]
    assert payouts, "the screen shows what to pay"
    for w in payouts:
        tall = cap_height(w.font_size) / _px_per_mm(size)
        assert tall >= PAYOUT_MM, f"{w.text!r} is {tall:.2f} mm tall"


SIZES_AND_LANGUAGES = [*((size, "en") for size in LANDSCAPE),
                       *(((800, 480), code) for code in ("af", "pt", "zu"))]
"""Every size in English; the dealer's other languages at the smallest size, where a long
word has the least room."""


def _case(case: tuple[tuple[int, int], str]) -> str:
    (w, h), code = case
    return f"{w}x{h}" + ("" if code == "en" else f"-{code}")


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The dealer screen's language for one test (English again after it)."""
    code: str = request.param
    with i18n.using(code):
        yield code


PB_RULES = pb.PuntoBancoRules(
    chips=ChipRule(500), areas=14, commission_mode=pb.CommissionMode.COMMISSION,
    limits=(pb.Limit(pb.BetKind.BANKER, 1_000_000, TEN_MILLION),
            pb.Limit(pb.BetKind.PLAYER, 1_000_000, TEN_MILLION),
            pb.Limit(pb.BetKind.TIE, 100_000, TEN_MILLION)))


def _pb_paying(path: Path) -> Any:
    """Fourteen areas, each with two bets at the maximum, the coup dealt: the payouts."""
    session = TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01"), PB_RULES, "PB-01")
    session.perform(pb.shuffle)
    for area in range(1, 15):
        kind = pb.BetKind.BANKER if area % 2 else pb.BetKind.PLAYER
        session.perform(lambda s, a=area, k=kind: pb.place_bet(s, str(a), k, TEN_MILLION))
        session.perform(lambda s, a=area: pb.place_bet(s, str(a), pb.BetKind.TIE,
                                                         TEN_MILLION))
    session.perform(pb.close_betting)
    deal(session, BANKER_7_TO_5)
    return session


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_punto_banco_dealer_screen_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                            language: str) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _pb_paying(tmp_path / "t.db")
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-punto-banco-{_case((size, language))}")
    check(ui, app.screen, size)
    assert app.screen.ids.primary.text == PB_CONFIRM[language]
    session.journal.close()


PB_CONFIRM = {"en": "Confirm payouts", "af": "Bevestig uitbetalings",
              "pt": "Confirmar pagamentos", "zu": "Qinisekisa izinkokhelo"}


def _bj_cut(path: Path, surrender: bool = False) -> Any:
    """A blackjack table of eight decks at limits up to R10,000,000, shuffled and cut."""
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.blackjack.house import BlackjackRules

    rules = BlackjackRules(chips=ChipRule(500), minimum=100_000, maximum=TEN_MILLION,
                           decks=8, surrender=surrender)
    session = TableSession(bj.Blackjack(), Journal.open(path, "BJ-01"), rules, "BJ-01")
    session.perform(bj.shuffle)
    session.perform(lambda s: bj.cut_cards(s, 1, 208, 78))
    return session


def _shoe_card(session: Any, code: str) -> None:
    """The shoe reads `code` ("TS"), or a rank alone ("T", "9") for any card of that count
    the shoe still holds."""
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.cards import Card

    if len(code) == 1:
        left = session.state.shoe.cards_left()
        code = next(c.code for c in left if c.code[0] in ("TJQK" if code == "T" else code))
    session.perform(lambda s: bj.shoe_card(s, Card.parse(code)))


def _bj_worst(path: Path, settle_to: str = "paying") -> Any:
    """Seven boxes, each with three players behind, each box split to four hands (rule 4.2
    item 4e: resplits to four), the limits up to R10,000,000: the dealer's busiest screen."""
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.blackjack.operations import Follow

    session = _bj_cut(path)

    def card(code: str) -> None:
        _shoe_card(session, code)

    card("2D")  # the burn (rule 4.7, shuffle and cut)
    for box in range(1, 8):
        session.perform(lambda s, b=box: bj.place_bet(s, b, 4_000_000, "A"))
        for player in ("B", "C", "D"):
            session.perform(lambda s, b=box, p=player: bj.place_bet(s, b, 2_000_000, p))
    session.perform(bj.close_betting)
    for _ in range(7):
        card("T")
    card("6D")  # the dealer's first card
    for _ in range(7):
        card("T")
    while session.state.phase is bj.Phase.PLAYING:
        state = session.state
        hand = state.hands[state.turn]
        on_box = sum(1 for h in state.hands if h.box == hand.box)
        if len(hand.cards) < 2:
            card("T" if on_box < 4 else "9")
        elif "split" in bj.legal_actions(state) and on_box < 4:
            session.perform(lambda s: bj.split(s, {p: Follow.BOTH for p in "BCD"}))
        else:
            session.perform(bj.stand)
    while session.state.phase is bj.Phase.DEALER:
        card("T")  # 6 + 10, then 26: the dealer busts, every hand is paid
    assert session.state.phase is bj.Phase.PAYING
    assert len(session.state.hands) == 28
    return session


BJ_SHEET = {
    "en": ("Box 4: pay and take (1 of 2)", ("Hand 1: 19", "Hand 2: 19", "Hand 3: 19"),
           ("A bet R40,000 wins 1:1", "PAY R40,000")),
    "af": ("Vak 4: betaal en neem (1 van 2)", ("Hand 1: 19", "Hand 2: 19", "Hand 3: 19"),
           ("A inset R40,000 wen 1:1", "BETAAL R40,000")),
    "pt": ("Posição 4: pagar e tirar (1 de 2)", ("Mão 1: 19", "Mão 2: 19", "Mão 3: 19"),
           ("A aposta R40,000 ganha 1:1", "PAGAR R40,000")),
    "zu": ("Ibhokisi 4: nika futhi susa (1/2)",
           ("Isandla 1: 19", "Isandla 2: 19", "Isandla 3: 19"),
           ("A ubheje R40,000 iyawina 1:1", "NIKA R40,000")),
}
"""The payout sheet of box 4 in each language: its title, its hands' titles, a line."""


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_blackjack_dealer_screen_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                          language: str) -> None:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    session = _bj_worst(tmp_path / "t.db")
    app = start_app(ui, BlackjackDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)  # the window itself, so the sheet that opens over it follows
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-blackjack-{_case((size, language))}")
    screen = app.screen
    laid_out(ui, screen, size, cards=True, frame=ui.shot)
    # A box's payouts, in large type, over the screen: four hands, four players on each.
    ui.tap(screen.tile(4))
    ui.pump(0.3)
    sheet = next(w for w in ui.window.children if type(w).__name__ == "PayoutSheet")
    ui.screenshot(f"layout-dealer-blackjack-box-{_case((size, language))}")
    title, hands, line = BJ_SHEET[language]
    assert sheet.title == title
    assert [p.title for p in sheet.panels] == list(hands[:2])
    assert sheet.panels[0].lines()[0] == line
    if language == "en":
        assert sheet.panels[0].lines() == [("A bet R40,000 wins 1:1", "PAY R40,000"),
                                           ("B bet R20,000 wins 1:1", "PAY R20,000"),
                                           ("C bet R20,000 wins 1:1", "PAY R20,000"),
                                           ("D bet R20,000 wins 1:1", "PAY R20,000")]
    check(ui, sheet, size)
    ui.tap(sheet.ids.next)
    ui.pump(0.2)
    assert sheet.panels[0].title == hands[2]
    check(ui, sheet, size)
    ui.tap(sheet.ids.done)
    session.journal.close()


def _rl_table(path: Path) -> Any:
    """A roulette table at the largest limits (R10,000,000), no chips out yet."""
    from kiosk.rules.roulette import engine as rl

    rules = rl.RouletteRules(limits=rl.Limits(minimum_chip=100_000,
                                              straight_up_maximum=TEN_MILLION // 10,
                                              outside_maximum=TEN_MILLION,
                                              table_maximum=TEN_MILLION))
    return TableSession(rl.Roulette(), Journal.open(path, "RL-01"), rules, "RL-01")


def _rl_betting(path: Path) -> Any:
    """Seven colours with bets on many places at the largest limits."""
    from kiosk.rules.roulette import engine as rl
    from kiosk.rules.roulette.bets import BetKind

    session = _rl_table(path)
    for i, colour in enumerate(rl.COLOURS[:7]):
        session.perform(lambda s, c=colour: rl.chip_change(s, c, 500, 1_000_000))
        for n in range(1 + i * 5, 6 + i * 5):
            session.perform(lambda s, c=colour, n=n: rl.place_bet(
                s, c, BetKind.STRAIGHT, 1, (str(n),)))
        session.perform(lambda s, c=colour: rl.place_bet(s, c, BetKind.RED, 5))
    return session


def _rl_paying(path: Path) -> Any:
    """Seven colours, each with bets on many places at the largest limits, the number
    called: every colour's payout."""
    from kiosk.rules.roulette import engine as rl

    session = _rl_betting(path)
    session.perform(lambda s: rl.spin_ball(s, rl.Direction.CLOCKWISE))
    session.perform(rl.close_betting)
    session.perform(lambda s: rl.call_number(s, "32"))
    return session


RL_SHEET = {
    "en": ("32 red: pay and take (1 of 2)", "Pink",
           [("5 chips won, 5 stay on the layout", "PAY 5 CHIPS"),
            ("5 chips on losing bets", "TAKE 5 CHIPS")]),
    "af": ("32 rooi: betaal en neem (1 van 2)", "Pienk",
           [("5 skyfies gewen, 5 bly op die tafel", "BETAAL 5 SKYFIES"),
            ("5 skyfies op verloorweddenskappe", "NEEM 5 SKYFIES")]),
    "pt": ("32 vermelho: pagar e tirar (1 de 2)", "Rosa",
           [("5 fichas ganhas, 5 ficam na mesa", "PAGAR 5 FICHAS"),
            ("5 fichas em apostas perdedoras", "TIRAR 5 FICHAS")]),
    "zu": ("32 ebomvu: nika futhi susa (1/2)", "Pinki",
           [("ama-chip angu-5 awinile, angu-5 ahlala etafuleni", "NIKA AMA-CHIP 5"),
            ("ama-chip angu-5 ekubhejeni okuhluliwe", "SUSA AMA-CHIP 5")]),
}
"""The spin's payout sheet in each language: its title, the first colour, its lines."""


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_roulette_dealer_screen_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                         language: str) -> None:
    from kiosk.config import parse
    from kiosk.ui.games.roulette import dealer_app

    session = _rl_paying(tmp_path / "t.db")
    cfg = parse(f'[table]\nid = "RL-01"\nname = "{LONGEST_NAME}"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    ui.pump(0.3)
    sheets = [w for w in ui.window.children if type(w).__name__ == "PayoutSheet"]
    assert len(sheets) == 1, "the number is called: the payouts open by themselves"
    sheets[0].dismiss()
    ui.resize_window(*size)  # the window itself, so the sheet that opens over it follows
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-roulette-{_case((size, language))}")
    screen = app.screen
    laid_out(ui, screen, size, frame=ui.shot)
    sheet = screen.open_payouts()
    ui.pump(0.3)
    title, pink, lines = RL_SHEET[language]
    assert sheet.title == title
    # Pink: straights on 1-5 lose, red (5 chips) wins 1:1 (rule 3.5).
    assert sheet.panels[0].title == pink
    assert sheet.panels[0].lines() == lines
    ui.screenshot(f"layout-dealer-roulette-payouts-{_case((size, language))}")
    check(ui, sheet, size)
    sheet.dismiss()
