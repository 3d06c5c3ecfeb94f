"""Mini baccarat's dealer screen and sign at every size with the worst content its
configuration allows (nine seats, every one at the largest bets), in the paying screen and
in the shuffler malfunction procedure (rules 12.1-12.5): nothing cut off, overlapping or
off the screen, in English at every size and in Afrikaans, isiZulu and Portuguese at the
smallest (the sign: as tests/ui/test_layout_signs.py lays out every sign)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk import i18n
from kiosk.i18n import SignLanguages
from kiosk.rules.cards import Card
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.ui.conftest import UI, start_app
from tests.ui.layout import LANDSCAPE, problems
from tests.ui.test_layout_dealers import SIZES_AND_LANGUAGES, _case, check, laid_out
from tests.ui.test_layout_signs import CASE_IDS, CASES, LONGEST_NAME, TEN_MILLION, shortened
from tests.ui.test_signage_feed import BANKER_7_TO_5, deal


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The screens' language for one test (English again after it)."""
    code: str = request.param
    with i18n.using(code):
        yield code


RULES = mb.MiniBaccaratRules(
    chips=ChipRule(500), areas=9,
    limits=(mb.Limit(mb.BetKind.BANKER, 1_000_000, TEN_MILLION),
            mb.Limit(mb.BetKind.PLAYER, 1_000_000, TEN_MILLION),
            mb.Limit(mb.BetKind.TIE, 100_000, TEN_MILLION)))
INSPECTOR = mb.inspector("Nomvula", "4411")


def _coup(path: Path) -> Any:
    """Nine seats, each with a bet and a tie bet at the maximum, no more bets."""
    session = TableSession(mb.MiniBaccarat(), Journal.open(path, "MB-01"), RULES, "MB-01")
    session.perform(lambda s: mb.shuffle(s, "shuffler"))
    for seat in range(1, 10):
        kind = mb.BetKind.BANKER if seat % 2 else mb.BetKind.PLAYER
        session.perform(lambda s, a=seat, k=kind: mb.place_bet(s, str(a), k, TEN_MILLION))
        session.perform(lambda s, a=seat: mb.place_bet(s, str(a), mb.BetKind.TIE,
                                                         TEN_MILLION))
    session.perform(mb.close_betting)
    return session


def _stopped(path: Path, stage: str) -> Any:
    """The procedure at its busiest: the question to the inspector, the nine seats' wagers
    returned (rule 12.4), or the first seat's offer (rule 12.5.1)."""
    session = _coup(path)
    for code in ("4H", "2S", "3D"):
        session.perform(lambda s, c=code: mb.shoe_card(s, Card.parse(c)))
    session.perform(lambda s: mb.shuffler_malfunction(s, "JAM: card path blocked at the "
                                                      "exit rollers", mb.SHUFFLER))
    session.perform(lambda s: mb.establish_fact(s, mb.Fact.DAMAGED, True, mb.DEALER))
    if stage == "question":
        return session
    if stage == "terminate":
        session.perform(lambda s: mb.establish_fact(s, mb.Fact.DISADVANTAGED, True, INSPECTOR))
        return session
    session.perform(lambda s: mb.establish_fact(s, mb.Fact.DISADVANTAGED, False, INSPECTOR))
    session.perform(lambda s: mb.establish_fact(s, mb.Fact.SPARE, False, INSPECTOR))
    if stage == "offer":
        return session
    for seat in range(1, 10):
        session.perform(lambda s, a=seat: mb.offer_wager_back(s, str(a), a == 1, mb.DEALER))
    session.perform(lambda s: mb.remove_damaged_cards(s, (Card.parse("QS"),), mb.DEALER))
    session.perform(lambda s: mb.replace_damaged_cards(s, mb.DEALER))
    session.perform(lambda s: mb.reshuffle_cards(s, mb.DEALER))
    if stage == "cut":
        return session
    session.perform(lambda s: mb.cut_cards(s, 9, 208, 52))
    session.perform(lambda s: mb.continue_coup(s, mb.DEALER))
    return session


STAGES = ("question", "terminate", "offer", "cut", "shoe")


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_mini_baccarat_dealer_screen_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                              language: str) -> None:
    from kiosk.ui.dealer.mini_baccarat_app import MiniBaccaratDealerApp

    session = _coup(tmp_path / "t.db")
    deal(session, BANKER_7_TO_5)
    app = start_app(ui, MiniBaccaratDealerApp(session, table_name=LONGEST_NAME))
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-mini-baccarat-{_case((size, language))}")
    check(ui, app.screen, size)
    session.journal.close()


@pytest.mark.parametrize("stage", STAGES[:4])
@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_the_malfunction_procedure_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                        language: str, stage: str) -> None:
    from kiosk.ui.dealer.mini_baccarat_app import MiniBaccaratDealerApp

    session = _stopped(tmp_path / "t.db", stage)
    app = start_app(ui, MiniBaccaratDealerApp(session, table_name=LONGEST_NAME))
    screen = app.screen
    screen.inspector_badge = "44110099"
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-mini-baccarat-{stage}-{_case((size, language))}")
    assert screen.procedure_shown
    laid_out(ui, screen, size)
    if stage == "terminate":  # rule 12.4: every seat's wagers listed
        listed = screen.procedure.detail + "\n" + screen.procedure.detail_more
        assert [line.split(":")[0] for line in listed.split("\n")] == [
            str(n) for n in range(1, 10)]
    session.journal.close()


@pytest.mark.parametrize("stage", ("question", "shoe"))
@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_mini_baccarat_sign_fits(ui: UI, tmp_path: Path, size: tuple[int, int],
                                     language: str, stage: str) -> None:
    from kiosk.ui.signage.app import SignageApp

    session = _stopped(tmp_path / "t.db", stage)
    app = start_app(ui, SignageApp(tmp_path / "t.db", LONGEST_NAME,
                                   languages=SignLanguages((language,))))
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-sign-mini-baccarat-{stage}-{size[0]}x{size[1]}-{language}")
    assert problems(app.frame) == []
    assert shortened(app.frame) == []
    session.journal.close()


@pytest.mark.parametrize("stage", ("betting", "dealing", "terminate-alert", "offer-alert"))
@pytest.mark.parametrize("size", LANDSCAPE, ids=[f"{w}x{h}" for w, h in LANDSCAPE])
def test_mini_baccarat_while_betting_dealing_and_stopped_under_an_alert(
        ui: UI, tmp_path: Path, size: tuple[int, int], stage: str) -> None:
    """Betting and dealing at nine seats of the largest bets; the procedure under the alert
    of a card the broken shuffler pushed out (the alert banner takes its height)."""
    from kiosk.ui.dealer.mini_baccarat_app import MiniBaccaratDealerApp

    if stage in ("betting", "dealing"):
        session = _coup(tmp_path / "t.db")
        if stage == "dealing":
            deal(session, BANKER_7_TO_5[:3])
        else:
            session.perform(lambda s: mb.void_round(s, "a layout test", "dealer"))
            for seat in range(1, 10):
                session.perform(lambda s, a=seat: mb.place_bet(s, str(a), mb.BetKind.BANKER,
                                                                 TEN_MILLION))
    else:
        session = _stopped(tmp_path / "t.db", stage.split("-")[0])
        session.on_device_event(ev.CardRead(device="SHOE", seq=0, card=Card.parse("9C")))
        assert session.alerts
    app = start_app(ui, MiniBaccaratDealerApp(session, table_name=LONGEST_NAME))
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-dealer-mini-baccarat-{stage}-{size[0]}x{size[1]}")
    laid_out(ui, app.screen, size, cards=stage == "dealing")
    session.journal.close()
