"""The mini baccarat sign says what the shuffler malfunction procedure is doing, in words and
in every language of the house: the fault while the inspector attends, the offers, the coup
terminated, the coup continuing from a dealing shoe."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.i18n import SignLanguages
from kiosk.rules.cards import Card
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.ui.conftest import UI, start_app

THANDI = mb.inspector("Thandi", "4411")
WORDS = {  # the sign's headline (upper case on the sign) and its line below
    "en": {"fault": ("SHUFFLER FAULT: THE INSPECTOR IS ATTENDING",
                     "Every wager stays as it is until the inspector decides"),
           "offer": ("SHUFFLER FAULT: THE INSPECTOR IS ATTENDING",
                     "Each player may take their wagers back"),
           "terminated": ("SHUFFLER FAULT: THE COUP IS TERMINATED", "Every wager is returned"),
           "shoe": ("COUP CONTINUES FROM A DEALING SHOE",
                    "For the players who kept their wagers in the coup")},
    "af": {"fault": ("SKOMMELAARFOUT: DIE INSPEKTEUR IS HIER",
                     "Elke weddenskap bly soos dit is totdat die inspekteur besluit"),
           "shoe": ("DIE SPEL GAAN VOORT UIT 'N DEELSKOEN",
                    "Vir die spelers wat hul weddenskappe in die spel gehou het")},
    "pt": {"fault": ("AVARIA DO BARALHADOR: O INSPETOR ESTÁ NA MESA",
                     "As apostas ficam como estão até o inspetor decidir"),
           "shoe": ("A JOGADA CONTINUA A PARTIR DE UM SABOT",
                    "Para os jogadores que mantiveram as apostas na jogada")},
    "zu": {"fault": ("IPHUTHA LOMSHINI: UMHLOLI UKHONA",
                     "Ukubheja kuhlala kunjalo kuze kunqume umhloli"),
           "shoe": ("UMDLALO UQHUBEKA EBHOKISINI LOKWABA",
                    "Kwabadlali abagcine ukubheja kwabo emdlalweni")},
}


def _journal(path: Path, stage: str) -> TableSession[mb.MiniBaccaratState]:
    s: TableSession[mb.MiniBaccaratState] = TableSession(
        mb.MiniBaccarat(), Journal.open(path, "MB-01"), mb.MiniBaccaratRules(), "MB-01")
    s.perform(lambda st: mb.shuffle(st, "shuffler"))
    s.perform(lambda st: mb.place_bet(st, "2", mb.BetKind.BANKER, 10_000))
    s.perform(lambda st: mb.place_bet(st, "4", mb.BetKind.PLAYER, 10_000))
    s.perform(mb.close_betting)
    for code in ("4H", "2S", "3D"):
        s.perform(lambda st, c=code: mb.shoe_card(st, Card.parse(c)))
    s.perform(lambda st: mb.shuffler_malfunction(st, "JAM", mb.SHUFFLER))
    if stage == "fault":
        return s
    s.perform(lambda st: mb.establish_fact(st, mb.Fact.DAMAGED, False, mb.DEALER))
    if stage == "terminated":
        s.perform(lambda st: mb.establish_fact(st, mb.Fact.DISADVANTAGED, True, THANDI))
        return s
    s.perform(lambda st: mb.establish_fact(st, mb.Fact.DISADVANTAGED, False, THANDI))
    s.perform(lambda st: mb.establish_fact(st, mb.Fact.SPARE, False, THANDI))
    if stage == "offer":
        return s
    s.perform(lambda st: mb.offer_wager_back(st, "2", True, mb.DEALER))
    s.perform(lambda st: mb.offer_wager_back(st, "4", False, mb.DEALER))
    s.perform(lambda st: mb.reshuffle_cards(st, mb.DEALER))
    s.perform(lambda st: mb.cut_cards(st, 4, 200, 60))
    s.perform(lambda st: mb.continue_coup(st, mb.DEALER))
    return s


CASES = [(code, stage) for code, stages in WORDS.items() for stage in stages]


@pytest.mark.parametrize(("code", "stage"), CASES)
def test_the_sign_says_the_procedure_in_each_language(ui: UI, tmp_path: Path, code: str,
                                                      stage: str) -> None:
    from kiosk.ui.signage.app import SignageApp

    session = _journal(tmp_path / "t.db", stage)
    app = start_app(ui, SignageApp(tmp_path / "t.db", "Mini Baccarat 1",
                                   languages=SignLanguages((code,))))
    ui.resize(1920, 1080)
    ui.pump(0.15)
    ids = app.screen.ids
    assert (ids.headline.text, ids.detail.text) == WORDS[code][stage]
    assert app.screen.game_name == "Mini Baccarat"
    ui.screenshot(f"signage-mini-baccarat-{stage}-{code}")
    session.journal.close()
