"""The pai gow tiles sign (the Mpumalanga table game rules, section 13): its words, and the
view drawn for real at every sign size and in every language with the worst content it can
hold (the longest table name, R10,000,000 limits, a co-bank on area 7, five rounds of
banker's hands); the tiles drawn with their pips, and never a player's tile."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kiosk import i18n
from kiosk.rules.paigow.operations import Bank
from kiosk.ui.signage.link import Link
from kiosk.ui.signage.paigow_words import (
    LastHand,
    PaiGowSign,
    banker_words,
    call_words,
    commission_words,
    hands_words,
    limits_words,
    outcome_words,
)
from tests.ui.conftest import UI, start_app
from tests.ui.layout import SIZES, box, contrast_problems, problems, shown
from tests.ui.test_layout_signs import CASE_IDS, CASES, LONGEST_NAME, TEN_MILLION, shortened


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    code = str(request.param)
    i18n.use(code)
    yield code
    i18n.use(i18n.SOURCE)


LAST = (  # (low, high, high's name, low's name, wins, losses, stand-offs), newest first
    (("16", "15"), ("66", "11"), "teen pair", "gong", 3, 3, 1),
    (("25", "56"), ("13", "13"), "gor pair", "high nine", 0, 7, 0),
    (("55", "46"), ("36", "45"), "9", "wong", 7, 0, 0),
    (("23", "14"), ("12", "24"), "gee joon pair", "0", 1, 5, 1),
    (("33", "22"), ("26", "35"), "8", "6", 2, 2, 3),
)


def worst(bank: Bank = Bank.COBANK, area: int = 7) -> PaiGowSign:
    """Everything at its longest: the words in the sign's language now."""
    call, detail = call_words("settling")
    banker, chung = banker_words(bank, area)
    limits, captions = limits_words(TEN_MILLION // 10, TEN_MILLION, "R")
    return PaiGowSign(
        headline=call, detail=detail, banker=banker, chung=chung, limits=limits,
        limit_captions=captions, commission=commission_words(5),
        last=tuple(LastHand(low, high, hands_words(hi, lo), outcome_words(w, lose, s))
                   for low, high, hi, lo, w, lose, s in LAST))


# --- the words -----------------------------------------------------------------------------


def test_who_banks_and_where_the_chung_is() -> None:
    assert banker_words(Bank.HOUSE, 1) == ("THE HOUSE BANKS", "Chung on area 1")  # 13.1.1
    assert banker_words(Bank.PLAYER, 4) == ("AREA 4 BANKS", "Chung on area 4")  # 13.2.1
    assert banker_words(Bank.COBANK, 6) == ("AREA 6 CO-BANKS WITH THE HOUSE",
                                             "Chung on area 6")  # 13.3
    with i18n.using("af"):
        assert banker_words(Bank.HOUSE, 1) == ("DIE HUIS IS DIE BANK", "Chung op area 1")


def test_the_limits_the_commission_and_the_last_hands() -> None:
    w = worst()
    assert w.limits == (("Minimum", "R1,000,000"), ("Maximum", "R10,000,000"))
    assert w.limit_captions == ("MIN", "MAX")
    assert w.commission == "5% of winning wagers"
    assert w.last[0] == LastHand(("16", "15"), ("66", "11"),
                                 "Banker: teen pair and gong", "3 win · 3 lose · 1 stand-off")
    assert outcome_words(0, 7, 0) == "7 lose"
    with i18n.using("pt"):
        assert commission_words(5) == "5% das apostas vencedoras"
        assert outcome_words(2, 1, 0) == "2 ganham · 1 perde"


# --- drawn ---------------------------------------------------------------------------------


def _tiles(view: Any) -> list[Any]:
    from kiosk.ui.tile_face import TileFace

    return [w for w in view.walk(restrict=True) if isinstance(w, TileFace) and shown(w)]


def tile_problems(view: Any) -> list[str]:
    """Every tile drawn whole on the screen, none over a text."""
    from kivy.uix.label import Label

    out = []
    sx, sy, sr, st = box(view)
    texts = [w for w in view.walk(restrict=True)
             if isinstance(w, Label) and w.text.strip() and shown(w)]
    for t in _tiles(view):
        x, y, tw, th = t.tile_box()
        x, y = t.to_window(x, y)
        if x < sx - 1 or y < sy - 1 or x + tw > sr + 1 or y + th > st + 1:
            out.append(f"tile {t.code} leaves the screen")
        for label in texts:
            lx, ly, lr, lt = box(label)
            if min(x + tw, lr) - max(x, lx) > 1 and min(y + th, lt) - max(y, ly) > 1:
                out.append(f"tile {t.code} covers {label.text!r}")
    return out


@pytest.mark.parametrize(("size", "language"), CASES, indirect=["language"], ids=CASE_IDS)
def test_the_paigow_sign_fits(ui: UI, size: tuple[int, int], language: str) -> None:
    from kiosk.ui.signage.paigow_view import PaiGowSignage

    view = PaiGowSignage(table_name=LONGEST_NAME)
    view.show_words(worst(), Link.RECONNECTING)
    ui.window.add_widget(view)
    ui.resize(*size)
    ui.pump(0.2)
    ui.screenshot(f"layout-sign-paigow-{size[0]}x{size[1]}-{language}")
    amounts = [line.ids.amount.text for line in reversed(view.ids.limits.children)]
    assert amounts == ["R1,000,000", "R10,000,000"]
    assert len(view.ids.last.children) == 5
    assert problems(view) == []
    assert shortened(view) == []
    assert tile_problems(view) == []
    assert contrast_problems(ui.frame(), view) == []
    # A tile as tall as the call's letters are wide: 8 sign units, readable from three metres.
    assert min(t.tile_height for t in _tiles(view)) >= 7.9 * view.unit


def test_the_tiles_are_drawn_with_their_pips(ui: UI) -> None:
    """Teen (66) has twelve dark pips; the 14 red pips on both halves; an empty place
    draws no face."""
    from kiosk.ui.theme import CARD_RED, INK, IVORY
    from kiosk.ui.tile_face import TileFace

    faces = {code: TileFace(code=code, size_hint=(None, None), size=(60, 120))
             for code in ("66", "14", "")}
    for i, face in enumerate(faces.values()):
        face.pos = (40 + i * 100, 100)
        ui.window.add_widget(face)
    ui.pump(0.1)
    frame = ui.frame()

    def colours(face: Any) -> dict[tuple[int, int, int], int]:
        x, y, w, h = face.tile_box()
        return frame.region_colours(x, y, w, h, step=1)  # type: ignore[no-any-return]

    def near(counts: dict[tuple[int, int, int], int], rgb: tuple[float, ...]) -> int:
        want = tuple(round(c * 255) for c in rgb[:3])
        return sum(n for c, n in counts.items()
                   if sum(abs(a - b) for a, b in zip(c, want, strict=True)) < 40)

    teen, five, empty = (colours(f) for f in faces.values())
    assert near(teen, INK) > 200 and near(teen, CARD_RED) == 0 and near(teen, IVORY) > 3000
    assert near(five, CARD_RED) > 200
    assert near(empty, IVORY) == 0
    for face in faces.values():
        ui.window.remove_widget(face)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_sign_before_a_table_is_opened_fits(ui: UI, size: tuple[int, int]) -> None:
    from kiosk.ui.signage.paigow_view import PaiGowSignage

    view = PaiGowSignage(table_name=LONGEST_NAME)
    view.show_words(None, Link.WAITING)
    ui.window.add_widget(view)
    ui.resize(*size)
    ui.pump(0.1)
    assert view.headline == "PAI GOW" and view.ids.last.children == []
    view.interrupt("Inspector attending", "Play resumes when the inspector is done")
    ui.pump(0.1)
    assert view.headline == "INSPECTOR ATTENDING"
    assert problems(view) == []


# --- from the engine's state ----------------------------------------------------------------


class Table:
    """A table whose every record goes through the engine, as the session's do."""

    def __init__(self) -> None:
        from kiosk.rules.paigow import engine as pg

        self.pg = pg
        self.rules = pg.PaiGowRules(minimum=1_000, maximum=50_000, areas=7)
        self.state = pg.initial_state(self.rules, "PG-1")
        self.do(pg.open_table(self.rules, "PG-1"))

    def do(self, op: Any) -> Any:
        self.state = self.pg.apply(self.state, op)
        return op

    def round(self, player: str, bank: str, *, settle: bool = True) -> None:
        """Area 2 wagers R10 with `player` set strongest high; the House's `bank` tiles."""
        from kiosk.rules.paigow.hands import splits
        from kiosk.rules.paigow.tiles import parse_tiles

        pg = self.pg
        self.do(pg.shuffle(self.state))
        self.do(pg.place_bet(self.state, 2, 1_000))
        self.do(pg.close_betting(self.state))
        way = splits(parse_tiles(player))[0]
        self.do(pg.set_hand(self.state, 2, way.high.tiles, way.low.tiles))
        self.do(pg.set_bank(self.state, parse_tiles(bank)))
        self.do(pg.confirm_house_way(self.state, "supervisor 7"))
        if settle:
            self.do(pg.confirm_payouts(self.state))


def test_the_sign_follows_the_round_and_keeps_the_players_tiles_hidden() -> None:
    from kiosk.ui.signage.paigow_words import sign_words

    t = Table()
    w = sign_words(t.state)
    assert (w.headline, w.banker, w.chung) == ("PLACE YOUR BETS", "THE HOUSE BANKS",
                                               "Chung on area 1")
    assert w.limits == (("Minimum", "R10"), ("Maximum", "R500"))
    assert w.commission == "5% of winning wagers" and w.last == ()
    t.round("66 45 55 16", "56 15 34 26")
    t.round("11 13 46 55", "56 15 34 26", settle=False)
    w = sign_words(t.state)
    assert (w.headline, w.detail) == ("HANDS MATCHED", "Each area in turn, counter clockwise "
                                      "from the chung")
    # The bank's hands exposed (13.1.3), its tiles drawn, how the area fared; then the
    # rounds settled before, the same: their tiles and counts are kept in the state.
    assert w.last == (
        LastHand(("26", "34"), ("56", "15"), "Banker: 7 (foo) and 5 (chop bot)", "1 lose"),
        LastHand(("26", "34"), ("56", "15"), "Banker: 7 (foo) and 5 (chop bot)", "1 win"))
    codes = {c for h in w.last for c in (*h.low, *h.high)}
    assert codes.isdisjoint({"11", "13", "46", "55"})  # area 2's tiles: never on the sign
    with i18n.using("af"):
        assert sign_words(t.state).last[0].outcome == "1 verloor"


def test_a_pair_is_named_in_the_signs_language() -> None:
    from kiosk.ui.signage.paigow_words import hand_name

    assert hand_name("teen pair") == "teen pair" and hand_name("wong") == "wong"
    with i18n.using("pt"):
        assert (hand_name("teen pair"), hand_name("high nine"), hand_name("7 (gor)")) == (
            "par teen", "nove alto", "7 (gor)")


@pytest.mark.parametrize("code", ["af", "pt", "zu"])
def test_the_paigow_sign_in_each_language(ui: UI, code: str) -> None:
    from kiosk.ui.signage.paigow_view import PaiGowSignage

    want = {"af": ("DIE BANK", "KOMMISSIE", "AREA 7 IS MEDEBANK MET DIE HUIS"),
            "pt": ("A BANCA", "COMISSÃO", "A ÁREA 7 FAZ A BANCA COM A CASA"),
            "zu": ("IBHANGE", "IKHOMISHANI", "INDAWO 7 IYIBHANGE NENDLU")}[code]
    with i18n.using(code):
        view = PaiGowSignage(table_name=LONGEST_NAME)
        view.show_words(worst(), Link.LIVE)
        ui.window.add_widget(view)
        ui.resize(1920, 1080)
        ui.pump(0.1)
        texts = view.texts()
        assert want[0] in texts and want[1] in texts and view.banker == want[2]
        assert "THE BANK" not in texts and "COMMISSION" not in texts
        ui.window.remove_widget(view)


def test_the_signage_app_shows_a_paigow_table_from_its_journal(ui: UI, tmp_path: Any) -> None:
    """The sign's own process reads the table's journal: the pai gow view, the bank's hands of
    the round settled."""
    from kiosk.rules.paigow import engine as pg
    from kiosk.rules.paigow.tiles import parse_tiles
    from kiosk.store.journal import Journal
    from kiosk.table.session import TableSession
    from kiosk.ui.signage.app import SignageApp

    path = tmp_path / "t.db"
    rules = pg.PaiGowRules(minimum=1_000, maximum=50_000)
    session = TableSession(pg.PaiGow(), Journal.open(path, "PG-01"), rules, "PG-01")
    session.perform(pg.shuffle)
    session.perform(lambda s: pg.place_bet(s, 2, 1_000))
    session.perform(pg.close_betting)
    session.perform(lambda s: pg.set_hand(s, 2, parse_tiles("66 45"), parse_tiles("55 16")))
    session.perform(lambda s: pg.set_bank(s, parse_tiles("56 15 34 26")))
    session.perform(lambda s: pg.confirm_house_way(s, "supervisor 7"))
    app = start_app(ui, SignageApp(path, "Pai Gow 1"))
    ui.resize(1920, 1080)
    ui.pump(0.3)
    view = app.screen
    assert type(view).__name__ == "PaiGowSignage"
    assert view.headline == "HANDS MATCHED" and view.banker == "THE HOUSE BANKS"
    assert view.words.last[0].words == "Banker: 7 (foo) and 5 (chop bot)"
    assert view.words.last[0].outcome == "1 win"
    ui.screenshot("paigow-sign-reveal-1920x1080")
    session.perform(pg.confirm_payouts)
    t = 0
    while view.headline != "PLACE YOUR BETS" and t < 60:
        ui.pump(0.05)
        t += 1
    assert view.headline == "PLACE YOUR BETS"
    assert view.words.last == (LastHand(("26", "34"), ("56", "15"),
                                        "Banker: 7 (foo) and 5 (chop bot)", "1 win"),)
    row = view.ids.last.children[0]  # the settled round drawn: its tiles and its count
    assert (row.low, row.high, row.outcome) == (["26", "34"], ["56", "15"], "1 win")
    session.journal.close()
