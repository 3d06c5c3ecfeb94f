"""The players' signs in the house's languages, drawn for real: each sign
in Afrikaans, Portuguese and isiZulu shows its words and amounts in them; a sign with more
than one language takes the next one on a timer, from the state it holds."""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.i18n import MoneyStyle, SignLanguages
from kiosk.ui.signage.link import Link
from tests.ui.conftest import UI, start_app
from tests.ui.test_signage_screen import _amount, _journal_with_history

NB = i18n.NBSP


def _sign(ui: UI, path: Path, languages: SignLanguages, size: tuple[int, int] = (1920, 1080)
          ) -> Any:
    from kiosk.ui.signage.app import SignageApp

    app = start_app(ui, SignageApp(path, "Salon Privé 7", languages=languages))
    ui.resize(*size)
    ui.pump(0.15)
    return app


def _texts(widget: Any) -> list[str]:
    from kiosk.ui.signage.kivy_app import shown_texts

    return shown_texts(widget)


PB_WORDS = {
    "af": ("PLAAS U WEDDENSKAPPE", "Bankier wen 7 teen 5", ("Bankier", "Speler", "Gelykop"),
           "BETAAL 19:20", ("MIN", "MAKS"), "Bankier · Speler · Gelykop", "WEN"),
    "pt": ("FAÇAM AS SUAS APOSTAS", "Banca ganha 7 a 5", ("Banca", "Jogador", "Empate"),
           "PAGA 19:20", ("MÍN", "MÁX"), "Banca · Jogador · Empate", "GANHA"),
    "zu": ("BHEJANI MANJE", "Ibhange liyawina 7–5", ("Ibhange", "Umdlali", "Ukulingana"),
           "INKOKHELO 19:20", ("MIN", "MAX"), "Ibhange · Umdlali · Ukulingana", "IYAWINA"),
}


@pytest.mark.parametrize("code", ["af", "pt", "zu"])
def test_the_punto_banco_sign_in_each_language(ui: UI, tmp_path: Path, code: str) -> None:
    path = tmp_path / "table.db"
    session = _journal_with_history(path)
    app = _sign(ui, path, SignLanguages((code,)))
    headline, result, names, pays, (low, high), detail, wins = PB_WORDS[code]
    screen, ids = app.screen, app.screen.ids
    assert ids.headline.text == headline and ids.detail.text == detail
    assert screen.hands_detail == result
    plaques = {p.name: p for p in ids.plaques.children}
    assert set(plaques) == set(names)
    banker = plaques[names[0]]
    assert banker.ids.pays.text == pays
    assert (banker.ids.min_row.caption, banker.ids.max_row.caption) == (low, high)
    assert (_amount(banker, "min"), _amount(banker, "max")) == ("R50", "R50,000")
    texts = _texts(app.frame)
    counts = {w: session.state.results.count(w) for w in set(session.state.results)}
    assert sum(counts.values()) == len(session.state.results)
    assert f"{names[0]} {screen.tally_banker}" in texts  # the tally above the roads
    assert names[0].upper() in texts and names[1].upper() in texts  # the hands' bands
    assert wins in texts  # beside the winning hand
    assert "Salon Privé 7" in texts and "PUNTO BANCO" in texts  # names stay names
    assert not {"PLACE YOUR BETS", "MAX", "PAYS 19:20", "Banker"} & set(texts) - {high}
    ui.screenshot(f"signage-punto-banco-{code}")
    session.journal.close()


def test_the_blackjack_sign_in_each_language(ui: UI) -> None:
    from kiosk.ui.signage.blackjack_view import BlackjackSignage
    from tests.ui.test_signage_blackjack import RULES, Play, _round

    state = _round(Play(RULES).ready()).state
    view = BlackjackSignage(table_name="Blackjack 2")
    ui.window.add_widget(view)
    ui.resize(1920, 1080)
    seen = {}
    for code in ("af", "pt", "zu"):
        i18n.use(code)
        view.show(RULES, state, Link.LIVE)
        ui.pump(0.05)
        ids = view.ids
        seen[code] = (ids.headline.text, ids.detail.text, ids.dealer_title.text,
                      ids.dealer_rule.text, [(r.name, r.pays) for r in
                                             reversed(ids.odds.children)],
                      ids.min_line.caption, ids.shoe_text.text)
        ui.screenshot(f"signage-blackjack-{code}")
    assert seen["af"] == (
        "PLAAS U WEDDENSKAPPE", "Weddenskappe R50 – R10,000 per vak",
        "KROEPIER   ·   VORIGE RONDTE", "Kroepier trek tot 16, staan op alle 17's",
        [("Blackjack", "3:2"), ("Versekering", "2:1"), ("Gelyke geld", "1:1")], "MIN",
        seen["af"][6])
    assert seen["af"][6] == "3% van die skoen uitgedeel · afneemkaart by 75%"
    assert seen["pt"][6] == "3% do sabot distribuído · carta de corte a 75%"
    assert seen["pt"][:4] == (
        "FAÇAM AS SUAS APOSTAS", "Apostas de R50 – R10,000 por posição",
        "CROUPIER   ·   RONDA ANTERIOR", "O croupier pede carta até 16 e fica com qualquer 17")
    assert seen["pt"][4][1] == ("Seguro", "2:1") and seen["pt"][5] == "MÍN"
    assert seen["zu"][:3] == ("BHEJANI MANJE", "Ukubheja: R50 – R10,000 ebhokisini ngalinye",
                              "UMABI   ·   UMZULISWANO ODLULE")
    assert "IMIKHAWULO YETAFULA EBHOKISINI NGALINYE" in view.texts()


def test_the_roulette_sign_in_portuguese_with_spaced_amounts(ui: UI) -> None:
    from kiosk.ui.signage.roulette_view import RouletteSignage
    from tests.ui.test_signage_roulette import RESULTS, state_with

    SignLanguages(("pt",), money_style=MoneyStyle.SPACES).apply()
    view = RouletteSignage(size=(1920, 1080), size_hint=(None, None), table_name="Roleta 3")
    ui.window.add_widget(view)
    view.show(state_with(RESULTS), Link.LIVE)
    ui.pump(0.1)
    captions = [(line.caption, line.ids.amount.text.replace(NB, " "))
                for line in reversed(view.ids.limits.children)]
    assert captions == [("FICHA MÍNIMA", "R 5"), ("PLENO", "R 500"),
                        ("EXTERIORES", "R 5 000"), ("MÁX. DA MESA", "R 20 000")]
    assert [(r.name, r.pays) for r in reversed(view.ids.payouts.children)][:3] == [
        ("Pleno", "35 para 1"), ("Cavalo", "17 para 1"), ("Transversal plena", "11 para 1")]
    assert view.headline == "FAÇAM AS SUAS APOSTAS"
    assert view.shares.text.splitlines()[:2] == [
        f"Últimos {len(RESULTS)} lançamentos", "Vermelho 42% · Preto 50%"]
    assert view.ids.hotcold.text.startswith("Quentes: ")
    assert {"LIMITES DA MESA", "PAGA"} <= {w.text for w in view.walk() if hasattr(w, "text")}
    ui.screenshot("signage-roulette-pt")


def test_the_sign_alternates_languages_on_a_timer(ui: UI, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every `language_seconds` the same sign in the next language, round and round."""
    # A quarter of a second each, for the test's sake. Kivy's clock calls an interval at most
    # once a frame and the loop below reads the sign after every frame: however slowly the
    # machine draws, no turn is missed.
    monkeypatch.setattr(i18n, "MIN_SECONDS", 0)
    path = tmp_path / "table.db"
    session = _journal_with_history(path)
    app = _sign(ui, path, SignLanguages(("en", "af", "pt"), 0.25),  # type: ignore[arg-type]
                size=(1280, 800))
    ids = app.screen.ids
    seen = [ids.headline.text]
    start = time.monotonic()
    while len(seen) < 5 and time.monotonic() - start < 30:  # a loaded machine draws slowly
        ui.pump(frames=1)
        if ids.headline.text != seen[-1]:
            seen.append(ids.headline.text)
    # Round and round in the house's order (on a loaded machine the sign may have turned
    # once or twice before the test first reads it: where it starts is not asserted here).
    cycle = ["PLACE YOUR BETS", "PLAAS U WEDDENSKAPPE", "FAÇAM AS SUAS APOSTAS"]
    first = cycle.index(seen[0])
    assert seen == [cycle[(first + k) % 3] for k in range(5)]
    assert app.feed.seq == session.journal.count()
    session.journal.close()


def test_the_switch_shows_the_state_held_without_reading_the_journal(
        ui: UI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "table.db"
    session = _journal_with_history(path)
    # The timer's switch is ten minutes away: on a loaded machine the set-up alone can take longer
    # than 20 s, and the sign would have switched before the test read it.
    app = _sign(ui, path, SignLanguages(("en", "zu"), 600))
    app.feed.stop()  # only the switch below may change the words

    def not_now(*_args: Any) -> Any:
        raise AssertionError("the journal was read for a change of language")

    for name in ("poll", "row", "_read", "_poll"):
        monkeypatch.setattr(app.feed, name, not_now)
    ids = app.screen.ids
    before = (ids.headline.text, app.screen.hands_detail, app.feed.seq)
    app.next_language()
    ui.pump(0.05)
    after = (ids.headline.text, app.screen.hands_detail, app.feed.seq)
    assert before == ("PLACE YOUR BETS", "Banker wins 7 to 5", session.journal.count())
    assert after == ("BHEJANI MANJE", "Ibhange liyawina 7–5", session.journal.count())
    app.next_language()
    ui.pump(0.05)
    assert ids.headline.text == "PLACE YOUR BETS" and i18n.current() == "en"
    session.journal.close()


def test_the_paused_table_and_the_link_are_said_in_the_language_shown(
        ui: UI, tmp_path: Path) -> None:
    """The interruption replaces the call in the language of the moment, and goes on doing
    so at the next switch."""
    path = tmp_path / "table.db"
    session = _journal_with_history(path)
    app = _sign(ui, path, SignLanguages(("af", "pt"), 600))
    app.feed.stop()
    app.feed._set_link(Link.PAUSED, "test")
    app._show()
    ids = app.screen.ids
    assert (ids.headline.text, ids.link_label.text) == ("TAFEL ONDERBREEK", "Tafel onderbreek")
    app.next_language()
    assert (ids.headline.text, ids.detail.text, ids.link_label.text) == (
        "MESA EM PAUSA", "Aguarde, por favor: o jogo continua em breve", "Mesa em pausa")
    session.journal.close()


def test_switching_all_day_keeps_no_old_widgets(ui: UI, tmp_path: Path) -> None:
    """Rows made again in each language go when they are replaced: kv's bindings to the
    language do not keep them alive (a sign switches some 4,000 times a day)."""
    from kiosk.ui.language import tr

    path = tmp_path / "table.db"
    session = _journal_with_history(path)
    # 800x480: the bindings kept or let go are the same at every size, drawn at a fifth of the cost
    app = _sign(ui, path, SignLanguages(("en", "af", "zu"), 20), size=(800, 480))
    for _ in range(6):
        app.next_language()
    ui.pump(frames=2)
    gc.collect()
    bound = len(tr.get_property_observers("_"))
    for _ in range(9):  # three rounds of the three languages: a leak grows at every switch
        app.next_language()
    ui.pump(frames=2)
    gc.collect()
    assert len(tr.get_property_observers("_")) == bound
    session.journal.close()
