"""The dealer's blackjack screen, rendered for real and driven by synthetic touches: a whole
standard round (rule 4.2) with a player behind, a split and a double; a Touch 21 round (rule
7.2) with the check and insurance / even money (rule 4.7); the shuffle and the cut (rules
4.1-4.7, shuffle and cut); a queried card; touch targets of at least 9 mm."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui import theme
from kiosk.ui.dealer.blackjack_words import box_blocks
from tests.ui.conftest import UI, start_app

# Six decks, R50 to R10,000 per box, surrender allowed (rule 4.2 item 4a, a house option).
RULES = BlackjackRules(chips=ChipRule(500), surrender=True)
TOUCH_21 = BlackjackRules.touch_21(chips=ChipRule(500))
Session = TableSession[bj.BlackjackState]


def shoe(session: Session, code: str) -> None:
    session.on_device_event(ev.CardRead(device="SHOE", seq=0, card=Card.parse(code)))


def entries(session: Session) -> list[Any]:
    return list(session.journal.entries())


def kinds(session: Session) -> list[str]:
    return [e.kind for e in session.journal.entries()]


def close(c: tuple[int, int, int], rgba: tuple[float, ...], tol: int = 8) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(c, rgba[:3], strict=False))


def open_session(tmp_path: Path, rules: BlackjackRules = RULES) -> Session:
    journal = Journal.open(tmp_path / "bj.db", "BJ-01")
    return TableSession(bj.Blackjack(), journal, rules, "BJ-01")


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    s = open_session(tmp_path)
    yield s
    s.journal.close()


def dealer_for(ui: UI, session: Session) -> Any:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    return start_app(ui, BlackjackDealerApp(session, table_name="Blackjack 3")).screen


@pytest.fixture
def dealer(ui: UI, session: Session) -> Any:
    return dealer_for(ui, session)


def chip(dealer: Any, value: int) -> Any:
    return next(c for c in dealer.ids.chips.children if int(c.value) == value)


def modal(ui: UI, cls: type) -> Any:
    found = [w for w in ui.window.children if isinstance(w, cls)]
    assert found, f"no {cls.__name__} open"
    return found[0]


def button(parent: Any, text: str) -> Any:
    return next(w for w in parent.walk() if getattr(w, "text", None) == text)


def on_screen(dealer: Any, widget: Any) -> bool:
    """Whether `widget` is part of the dealer screen now (rows off the screen have no
    window)."""
    return widget.get_root_window() is not None


def strip_texts(dealer: Any, box: int) -> list[tuple[str, str, list[str]]]:
    """(total, detail, card codes) of each hand shown on a box."""
    return [(s.total, s.detail, [f.code for f in s.ids.cards.faces])
            for s in dealer.tile(box).strips]


def bet(ui: UI, dealer: Any, box: int, *chips: int, behind: int = 0) -> None:
    ui.tap(dealer.tile(box))
    for _ in range(behind):
        ui.tap(dealer.ids.behind)
    for value in chips:
        ui.tap(chip(dealer, value))


def shuffle_cut_burn(ui: UI, session: Session, dealer: Any, cutter: int) -> None:
    """Rules 4.1-4.7 (shuffle and cut) by touch: shuffled, the first player cuts, the
    burn card is reported by the dealer as burned unread."""
    ui.tap(dealer.ids.shuffled)
    assert session.state.prep.stage is Stage.CUT
    ui.tap(dealer.tile(cutter))
    ui.tap(dealer.ids.box_cuts)
    assert session.state.prep.stage is Stage.BURN
    ui.tap(dealer.ids.burned)
    assert session.state.prep.stage is Stage.READY
    assert kinds(session)[-3:] == ["blackjack.shuffled", "blackjack.cut", "blackjack.burned"]


def both_sizes(ui: UI, name: str) -> Any:
    """Screenshots at the Pi's 800x480 and at 1920x1080; the 1920x1080 frame is returned."""
    ui.screenshot(f"{name}-800x480")
    ui.resize(1920, 1080)
    try:
        frame = ui.frame()
        assert not frame.is_blank()
        from kiosk.ui.capture import save_png
        from tests.ui.conftest import SHOTS

        save_png(frame, SHOTS / f"{name}-1920x1080.png")
        return frame
    finally:
        ui.resize(800, 480)


def test_a_whole_standard_round_with_a_player_behind_a_split_and_a_double(
        ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.blackjack_dialogs import BehindChooser

    assert dealer.dealer_rule == "Dealer draws to 16, stands on all 17s"  # rule 4.2
    shuffle_cut_burn(ui, session, dealer, cutter=2)
    # Bets (rule 4.2 item 2): box 2 is called by A (R100) with B behind (R50); box 4 and 6.
    bet(ui, dealer, 2, 10000)
    ui.tap(dealer.ids.behind)
    assert dealer.player == "B" and dealer.player_text == "Player B behind"
    ui.tap(chip(dealer, 2500))  # R25 is under the R50 minimum (rule 2.2)
    assert dealer.ids.primary.disabled
    assert "B: R25 is under the table minimum of R50" in dealer.step_detail
    ui.tap(chip(dealer, 2500))
    ui.tap(chip(dealer, 1000))
    ui.tap(dealer.ids.undo)  # the last chip comes back
    bet(ui, dealer, 4, 5000)
    assert dealer.player == "A"  # a new box starts with its caller
    bet(ui, dealer, 6, 5000)
    assert session.state.stakes_on(2) == (bj.Stake(2, "A", 10000), bj.Stake(2, "B", 5000))
    assert dealer.tile(2).detail.splitlines() == ["A R100", "B R50", "A calls"]
    assert dealer.step == "Place your bets"
    both_sizes(ui, "bj-dealer-betting")

    ui.tap(dealer.ids.primary)  # no more bets (rule 4.2 item 3)
    assert session.state.phase is bj.Phase.DEALING and dealer.primary_text == "Dealing…"
    # One card to each box, one to the dealer, a second to each box (item 3).
    for code in ("8H", "AS", "TS", "6D", "8C", "6H", "3H"):
        shoe(session, code)
    ui.pump(frames=2)
    assert strip_texts(dealer, 4)[0][0] == "soft 17 / 7"  # soft and hard totals
    assert strip_texts(dealer, 2)[0][2] == ["8H", "8C"]
    assert dealer.dealer_total == "6"
    assert dealer.step == "Box 2: 16 against 6: draw, stand, double, split, surrender?"
    # The decisions the rules allow now, and only those (rule 4.2 item 4).
    assert dealer.draw_hint == "Draw: deal a card"
    for name in ("stand", "double", "split", "surrender"):
        assert not dealer.ids[name].disabled, name
    assert dealer.ids.pay_blackjack.disabled
    assert on_screen(dealer, dealer.ids.decision_row)
    assert not on_screen(dealer, dealer.ids.bet_row)
    frame = ui.frame()
    # The box in turn is outlined; its cards are drawn in ivory and ink on the felt.
    strip = dealer.tile(2).strips[0]
    face = strip.ids.cards.faces[0]
    colours = frame.region_colours(*face.to_window(face.x, face.y), face.width, face.height)
    assert any(close(c, theme.IVORY) for c in colours)
    assert any(close(c, theme.CARD_RED) for c in colours)
    assert close(frame.pixel(dealer.width / 2, dealer.ids.boxes.y - 2), theme.FELT)
    big = both_sizes(ui, "bj-dealer-decision")
    ui.resize(1920, 1080)  # the same widgets, laid out at 1920x1080: cards are bigger
    big_face = face.width
    ui.resize(800, 480)
    assert big_face > 2 * face.width
    assert big.width == 1920

    # Split: B behind follows the second hand only (rule 4.2 item 4e).
    ui.tap(dealer.ids.split)
    chooser = modal(ui, BehindChooser)
    assert "Split on box 2" in chooser.title
    assert chooser.ids.confirm.disabled  # B has to say which hand
    ui.tap(button(chooser.rows["B"].ids.options, "Second"))
    ui.screenshot("bj-dealer-split-chooser-800x480")
    ui.tap(chooser.ids.confirm)
    last = entries(session)[-1]
    assert last.kind == "blackjack.split"
    assert last.payload["follow"] == [["A", "both"], ["B", "second"]]
    shoe(session, "2S")  # hand 1: 8 2 = 10
    ui.pump(frames=2)
    assert dealer.step.startswith("Box 2, hand 1: 10 against 6")
    ui.tap(dealer.ids.double)  # nobody behind on hand 1: no chooser
    last = entries(session)[-1]
    assert (last.kind, last.payload["players"]) == ("blackjack.doubled", ["A"])
    shoe(session, "9D")  # one card only on a double (item 4d): 19
    shoe(session, "TD")  # hand 2: 8 10 = 18
    ui.pump(frames=2)
    assert dealer.step.startswith("Box 2, hand 2: 18 against 6")
    ui.tap(dealer.ids.stand)
    assert dealer.step.startswith("Box 4: soft 17 / 7 against 6")
    ui.tap(dealer.ids.stand)
    ui.tap(dealer.ids.surrender)  # box 6: 13 against 6, half back (item 4a)
    assert kinds(session)[-1] == "blackjack.surrendered"
    assert session.state.phase is bj.Phase.DEALER
    assert dealer.step == "Dealer's second card"
    shoe(session, "TC")  # 16: draws (rule 4.2)
    shoe(session, "8S")  # 24: bust
    ui.pump(frames=2)
    assert session.state.phase is bj.Phase.PAYING
    assert dealer.step == "Round complete: Dealer bust (24). Pay and confirm"
    hands = strip_texts(dealer, 2)
    assert [x[:2] for x in hands] == [("19", "pay"), ("18", "pay 2")]  # the tile, in words
    # What to pay, in large type, in the box's sheet.
    blocks = box_blocks(session.state, 2)
    assert [b.title for b in blocks] == ["Hand 1: 19", "Hand 2: 18"]
    assert [r.amount for r in blocks[0].rows] == ["PAY R200"]  # the doubled R100
    assert [r.amount for r in blocks[1].rows] == ["PAY R100", "PAY R50"]  # split, behind
    assert [r.amount for r in box_blocks(session.state, 4)[0].rows] == ["PAY R50"]
    surrendered = box_blocks(session.state, 6)[0].rows[0]
    assert surrendered.amount == "BACK R25" and "surrendered" in surrendered.caption
    sheet = dealer.open_box(2)
    ui.pump(0.1)
    assert sheet.panels[1].lines() == [("A bet R100 wins 1:1", "PAY R100"),
                                       ("B bet R50 wins 1:1", "PAY R50")]
    ui.screenshot("bj-dealer-box-sheet-800x480")
    sheet.dismiss()
    ui.pump(0.1)
    assert dealer.primary_text == "Confirm payouts" and not dealer.ids.primary.disabled
    frame = ui.frame()
    step = dealer.ids.step
    assert close(frame.pixel(*step.to_window(step.x + 3, step.center_y)), theme.GOLD)
    big = both_sizes(ui, "bj-dealer-paying")
    ui.resize(1920, 1080)
    x, y = step.to_window(step.x + 3, step.center_y)
    ui.resize(800, 480)
    assert close(big.pixel(x, y), theme.GOLD)

    ui.tap(dealer.ids.primary)
    last = entries(session)[-1]
    assert last.kind == "blackjack.round_settled"
    settled = session.state.last_settled
    assert settled is not None
    nets = {(x.box, x.hand, x.player): x.net
            for x in (*settled.settlements, *settled.paid_earlier)}
    assert nets == {(2, 1, "A"): 20000, (2, 2, "A"): 10000, (2, 2, "B"): 5000,
                    (4, 1, "A"): 5000, (6, 1, "A"): -2500}
    assert session.state.round == 2 and dealer.step == "Place your bets"
    assert dealer.tile(2).strips == [] and dealer.dealer_total == ""


def test_touch_21_check_insurance_and_even_money_against_a_dealer_ace(
        ui: UI, tmp_path: Path) -> None:
    session = open_session(tmp_path, TOUCH_21)
    dealer = dealer_for(ui, session)
    # Rule 7.2: the dealer draws to soft 17; no surrender (item 8).
    assert dealer.dealer_rule == "Dealer draws to soft 17, stands on hard 17"
    shuffle_cut_burn(ui, session, dealer, cutter=1)
    bet(ui, dealer, 1, 10000)
    bet(ui, dealer, 3, 10000)
    ui.tap(dealer.ids.behind)
    ui.tap(chip(dealer, 5000))
    ui.tap(dealer.ids.primary)
    for code in ("AS", "9H", "AD", "KH", "7C"):  # box 1 blackjack; box 3 16; dealer ace
        shoe(session, code)
    ui.pump(frames=2)
    # Rule 7.2 items 4-5: the players check their cards before anything else.
    assert session.state.phase is bj.Phase.CHECK
    assert dealer.primary_text == "Blackjacks checked" and not dealer.ids.primary.disabled
    assert "check their cards" in dealer.step
    assert strip_texts(dealer, 1)[0][0] == "Blackjack"
    frame = ui.frame()
    step = dealer.ids.step
    assert close(frame.pixel(*step.to_window(step.x + 3, step.center_y)), theme.INFO)
    ui.screenshot("bj-dealer-touch21-check-800x480")
    ui.tap(dealer.ids.primary)
    assert kinds(session)[-1] == "blackjack.blackjacks_checked"
    # Rule 4.7 / 7.2 item 6: insurance up to half the bet; even money for the blackjack.
    assert session.state.phase is bj.Phase.INSURANCE
    assert on_screen(dealer, dealer.ids.insurance_row)
    def shown() -> dict[str, Any]:
        return {b.text: b for b in dealer.ids.insurance_buttons.children if not b.less}

    # One box's players at a time, box 1 first and highlighted; the step button goes on.
    assert set(shown()) == {"Box 1 A\neven money"}
    assert dealer.tile(1).selected and not dealer.tile(3).selected
    assert dealer.ids.next_insurance_box.text == "Box 1:\nnext box"
    ui.screenshot("bj-dealer-touch21-insurance-800x480")
    ui.tap(shown()["Box 1 A\neven money"])
    assert kinds(session)[-1] == "blackjack.even_money"
    assert set(shown()) == {"Box 1 A\neven money paid"}
    ui.tap(dealer.ids.next_insurance_box)
    assert set(shown()) == {"Box 3 A\ninsure R50", "Box 3 B\ninsure R25"}
    assert dealer.tile(3).selected and not dealer.tile(1).selected
    # Each insurance has a "Less" beside it; even money is the whole bet or nothing.
    assert sorted((b.box, b.player) for b in dealer.ids.insurance_buttons.children
                  if b.less) == [(3, "A"), (3, "B")]
    ui.tap(shown()["Box 3 A\ninsure R50"])
    last = entries(session)[-1]
    assert (last.kind, last.payload["amount"]) == ("blackjack.insurance_taken", 5000)
    assert "Box 3 A\ninsured R50" in shown()
    ui.tap(dealer.ids.next_insurance_box)  # round to the first box again
    assert set(shown()) == {"Box 1 A\neven money paid"}
    ui.tap(dealer.tile(3))  # tapping a box shows its players
    assert "Box 3 A\ninsured R50" in shown()
    assert dealer.primary_text == "Close insurance"
    ui.tap(dealer.ids.primary)
    assert kinds(session)[-1] == "blackjack.insurance_closed"
    assert session.state.phase is bj.Phase.PLAYING
    assert dealer.ids.surrender.disabled  # rule 7.2 item 8
    ui.tap(dealer.ids.stand)  # box 3 stands on 16
    shoe(session, "KD")  # the dealer's blackjack
    ui.pump(frames=2)
    assert session.state.phase is bj.Phase.PAYING
    assert dealer.dealer_total == "Blackjack"
    assert dealer.tile(3).detail == "A insurance pay"
    assert [r.amount for r in box_blocks(session.state, 3)[-1].rows] == ["PAY R100"]
    assert strip_texts(dealer, 3)[0][1] == "take 2"
    assert [r.amount for r in box_blocks(session.state, 3)[0].rows] == ["TAKE R100",
                                                                        "TAKE R50"]
    even = box_blocks(session.state, 1)[0].rows[0]
    assert even.amount == "PAY R100" and "even money" in even.caption
    ui.screenshot("bj-dealer-touch21-paying-800x480")
    ui.tap(dealer.ids.primary)
    settled = session.state.last_settled
    assert settled is not None
    nets = {(x.box, x.hand, x.player, x.kind.value): x.net
            for x in (*settled.settlements, *settled.paid_earlier)}
    assert nets == {(1, 1, "A", "hand"): 10000, (3, 1, "A", "hand"): -10000,
                    (3, 1, "B", "hand"): -5000, (3, 0, "A", "insurance"): 10000}
    session.journal.close()


def test_shuffle_and_cut_panel_refusals_and_the_rules_in_words(
        ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.choices import BadgePad

    # Before play (rule 4.1.1): shuffle; players already at boxes 2 and 5 are seated.
    assert dealer.step.startswith("Shuffle: before play starts (rule 4.1.1")
    assert on_screen(dealer, dealer.ids.shuffle_row) and on_screen(dealer, dealer.ids.bet_row)
    assert dealer.ids.primary.disabled  # no cards, no round
    bet(ui, dealer, 2, 5000)
    bet(ui, dealer, 5, 5000)
    assert "The cards are not ready" not in dealer.step_detail  # shown only when ready
    ui.tap(dealer.ids.shuffled)
    assert on_screen(dealer, dealer.ids.cut_row) and not on_screen(dealer,
                                                                   dealer.ids.shuffle_row)
    # Rule 4.2.1: the first player to the table; the dealer names the box.
    assert dealer.step == "Offer the cut to the first player at the table (rule 4.2.1)"
    ui.tap(dealer.tile(2))
    assert dealer.ids.box_refused.text == "Box 2 refused"
    ui.tap(dealer.ids.box_refused)
    # Rule 4.3: the cut passes clockwise to the next player.
    assert dealer.step == "Offer the cut to box 5, next clockwise (rule 4.3)"
    assert dealer.ids.box_cuts.text == "Box 5 cuts" and not dealer.ids.box_cuts.disabled
    assert dealer.ids.supervisor_cuts.disabled
    # Rule 4.4: at least one deck in from either end; ½ deck is refused in the rule's words.
    assert dealer.cut_words == "3 decks"
    for _ in range(5):
        ui.tap(dealer.ids.cut_less)
    assert dealer.cut_words == "½ deck" and dealer.cut_at == 26
    assert dealer.ids.box_cuts.disabled
    assert "at least one deck in from either end" in dealer.step_detail
    assert "4.4 (shuffle and cut)" in dealer.step_detail
    ui.screenshot("bj-dealer-cut-refused-800x480")
    before = kinds(session)
    dealer.box_cuts()  # sent anyway: the engine refuses it and nothing is recorded
    ui.pump(frames=2)
    assert kinds(session) == before
    assert dealer.alert_shown and "at least one deck in from either end" in dealer.alert_text
    ui.tap(dealer.ids.alert_ok)
    ui.tap(dealer.ids.cut_more)
    assert dealer.cut_words == "1 deck" and not dealer.ids.box_cuts.disabled
    # Rule 4.5: the cutting card at most half way in from the back.
    for _ in range(4):
        ui.tap(dealer.ids.back_more)
    assert dealer.back_words == "3½ decks" and dealer.ids.box_cuts.disabled
    assert "half way in from the back" in dealer.step_detail and "4.5" in dealer.step_detail
    ui.tap(dealer.ids.back_less)
    assert dealer.back_words == "3 decks" and dealer.step_detail == ""
    # Box 5 refuses too: no player accepted, a game supervisor cuts (rule 4.3).
    ui.tap(dealer.ids.box_refused)
    assert dealer.step == "No player accepted the cut: a game supervisor cuts (rule 4.3)"
    assert dealer.ids.box_refused.disabled and dealer.ids.box_cuts.disabled
    ui.tap(dealer.ids.supervisor_cuts)
    pad = modal(ui, BadgePad)
    for key in ("3", "0", "7"):
        ui.tap(button(pad.ids.pad, key))
    ui.tap(button(pad.ids.pad, "OK"))
    last = entries(session)[-1]
    assert last.kind == "blackjack.cut"
    assert (last.payload["box"], last.payload["supervisor"], last.payload["cut_at"],
            last.payload["cutting_card_from_back"]) == (0, "supervisor 307", 52, 156)
    # Rule 4.7: the first card is burned unseen; bets may still be placed meanwhile.
    assert "Burn the first card face down" in dealer.step
    assert not on_screen(dealer, dealer.ids.cut_row)
    assert not dealer.ids.burned.disabled
    session.on_device_event(ev.CardBurned(device="SHOE", seq=0, card=Card.parse("QD")))
    ui.pump(frames=2)
    assert session.state.prep.stage is Stage.READY and dealer.ids.burned.disabled
    assert dealer.step == "Place your bets"
    texts = [getattr(w, "text", "") for w in dealer.walk()]
    texts += [f.code for f in dealer.walk() if hasattr(f, "face_down")]
    assert not any("QD" in t or "queen of diamonds" in t.lower() for t in texts)
    assert dealer.shoe_status == "311 cards left · 0% dealt"


def test_a_table_with_a_shuffler_is_not_cut(ui: UI, tmp_path: Path) -> None:
    session = open_session(tmp_path, BlackjackRules(chips=ChipRule(500), shuffler=True))
    dealer = dealer_for(ui, session)
    assert on_screen(dealer, dealer.ids.shuffler_row)
    assert "Shuffle the new decks by hand" in dealer.step  # rule 4.6.1 (shuffle and cut)
    assert dealer.ids.into_shuffler.disabled  # new decks go in by hand first
    ui.tap(dealer.ids.hand_shuffle)
    assert session.state.prep.stage is Stage.HAND_SHUFFLE
    assert dealer.ids.hand_shuffle.disabled
    ui.tap(dealer.ids.into_shuffler)
    assert session.state.prep.stage is Stage.BURN  # rule 4.6.3: no cut
    assert not on_screen(dealer, dealer.ids.cut_row)
    session.journal.close()


def test_a_queried_card_after_the_dealer_stands_is_set_aside(
        ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.card_keypad import CardKeypad

    session.perform(lambda s: bj.shuffle(s))
    session.perform(lambda s: bj.cut_cards(s, 1, 104, 78))
    shoe(session, "9S")  # burned
    session.perform(lambda s: bj.place_bet(s, 1, 5000, "A"))
    session.perform(bj.close_betting)
    # No shoe answering: the first card is keyed in on the card pad.
    ui.pump(frames=2)
    ui.tap(dealer.ids.key_card)
    pad = modal(ui, CardKeypad)
    assert pad.title == "Key in the card for box 1"
    ui.tap(button(pad.ids.ranks, "10"))
    ui.tap(button(pad.ids.suits, "Spades"))
    ui.tap(pad.ids.deal)
    last = entries(session)[-1]
    assert (last.kind, last.payload["card"], last.payload["source"]) == \
        ("blackjack.card_dealt", "TS", "keyed")
    for code in ("TD", "9C"):
        shoe(session, code)
    ui.pump(frames=2)
    ui.tap(dealer.ids.stand)  # box 1 stands on 19
    shoe(session, "7H")  # the dealer: hard 17, stands (rule 4.2)
    ui.pump(frames=2)
    assert session.state.phase is bj.Phase.PAYING
    shoe(session, "5C")  # one card too many
    ui.pump(frames=2)
    assert kinds(session)[-1] == "blackjack.card_queried"
    assert dealer.step == ("Card not allowed: The dealer has hard 17 and stands on all 17s "
                           "(rule 4.2). Set it aside or void the round")
    assert on_screen(dealer, dealer.ids.query_row)
    assert dealer.query_code == "5C"
    assert dealer.query_text.startswith("Five of clubs: The dealer has hard 17")
    assert not dealer.ids.set_aside.disabled and dealer.ids.accept.disabled
    assert dealer.ids.primary.disabled  # no payouts while a card waits
    frame = ui.frame()
    step = dealer.ids.step
    assert close(frame.pixel(*step.to_window(step.x + 3, step.center_y)), theme.WARNING)
    card = dealer.ids.query_card
    colours = frame.region_colours(*card.to_window(card.x, card.y), card.width, card.height)
    assert any(close(c, theme.WARNING) for c in colours)  # outlined in amber
    ui.screenshot("bj-dealer-queried-card-800x480")
    ui.tap(dealer.ids.set_aside)
    assert kinds(session)[-1] == "blackjack.card_set_aside"
    assert not on_screen(dealer, dealer.ids.query_row)
    assert dealer.primary_text == "Confirm payouts" and not dealer.ids.primary.disabled
    ui.tap(dealer.ids.primary)
    settled = session.state.last_settled
    assert settled is not None and [x.net for x in settled.settlements] == [5000]


def test_a_round_can_be_voided_with_a_reason(ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.choices import ReasonPicker

    shuffle_cut_burn(ui, session, dealer, cutter=1)
    assert dealer.ids.void.disabled  # nothing in play
    bet(ui, dealer, 1, 5000)
    ui.tap(dealer.ids.primary)
    shoe(session, "TS")
    ui.pump(frames=2)
    ui.tap(dealer.ids.void)
    picker = modal(ui, ReasonPicker)
    ui.tap(button(picker.ids.reasons, "Card exposed or dropped"))
    last = entries(session)[-1]
    assert (last.kind, last.payload["reason"]) == ("blackjack.round_voided",
                                                   "Card exposed or dropped")
    assert session.state.round == 2 and dealer.step == "Place your bets"


def _walk_targets(dealer: Any, min_px: float) -> int:
    seen = 0
    for widget in dealer.buttons():
        if widget.height <= 0 or widget.get_root_window() is None:
            continue
        seen += 1
        assert min(widget.width, widget.height) >= min_px, (
            getattr(widget, "text", type(widget).__name__), tuple(widget.size))
    return seen


def test_touch_targets_are_at_least_9_mm(ui: UI, session: Session, dealer: Any) -> None:
    from kiosk.ui.dealer.blackjack_dialogs import BehindChooser

    min_px = theme.TOUCH_MIN_MM * theme.PI_TOUCHSCREEN_PX_PER_MM
    seen = _walk_targets(dealer, min_px)  # shuffle row and bets
    session.perform(lambda s: bj.place_bet(s, 2, 10000, "A"))
    session.perform(lambda s: bj.place_bet(s, 2, 5000, "B"))
    session.perform(lambda s: bj.place_bet(s, 3, 5000, "A"))
    session.perform(lambda s: bj.shuffle(s))
    ui.pump(frames=2)
    assert dealer.rows == ["cut_row", "cutter_row", "bet_row"]  # the fullest screen
    seen += _walk_targets(dealer, min_px)
    session.perform(lambda s: bj.cut_cards(s, 2, 104, 78))
    shoe(session, "9S")
    session.perform(bj.close_betting)
    for code in ("8H", "AC", "AD", "8C", "KS"):
        shoe(session, code)
    ui.pump(frames=2)
    assert dealer.rows == ["insurance_row"]
    seen += _walk_targets(dealer, min_px)
    session.perform(bj.close_insurance)
    ui.pump(frames=2)
    assert dealer.rows == ["decision_row"]
    seen += _walk_targets(dealer, min_px)
    ui.tap(dealer.ids.split)
    chooser = modal(ui, BehindChooser)
    for w in chooser.walk():
        if hasattr(w, "tone") and w.height > 0:
            assert min(w.width, w.height) >= min_px, (w.text, tuple(w.size))
            seen += 1
    ui.tap(chooser.ids.cancel)
    assert kinds(session)[-1] == "blackjack.insurance_closed"  # cancelled: nothing sent
    assert seen >= 60


def test_a_blackjack_against_a_six_is_paid_at_once(ui: UI, session: Session,
                                                   dealer: Any) -> None:
    session.perform(lambda s: bj.shuffle(s))
    session.perform(lambda s: bj.cut_cards(s, 1, 104, 78))
    session.perform(lambda s: bj.burn(s, None))
    session.perform(lambda s: bj.place_bet(s, 1, 10000, "A"))
    session.perform(lambda s: bj.place_bet(s, 1, 5000, "B"))
    session.perform(bj.close_betting)
    for code in ("AH", "6S", "QC"):
        shoe(session, code)
    ui.pump(frames=2)
    # Rule 4.2 item 5: paid 3:2 straight away when the dealer shows 2 to 9; no decision.
    assert dealer.step == "Pay the blackjack on box 1: 3:2"
    assert not dealer.ids.pay_blackjack.disabled and dealer.draw_hint == "Blackjack pays 3:2"
    for name in ("stand", "double", "split", "surrender"):
        assert dealer.ids[name].disabled, name
    ui.tap(dealer.ids.pay_blackjack)
    last = entries(session)[-1]
    assert last.kind == "blackjack.blackjack_paid"
    assert [(x["player"], x["paid"]) for x in last.payload["settlements"]] == \
        [("A", 15000), ("B", 7500)]
    assert strip_texts(dealer, 1)[0][1] == "pay 2"
    rows = box_blocks(session.state, 1)[0].rows
    assert [(r.amount, "blackjack 3:2" in r.caption) for r in rows] == [
        ("PAY R150", True), ("PAY R75", True)]


def test_the_dealer_names_the_bet_nearest_the_dealer_as_the_caller(
        ui: UI, session: Session, dealer: Any) -> None:
    """Rule 4.2 item 2: with several bets on a box, the bet nearest the dealer calls it."""
    shuffle_cut_burn(ui, session, dealer, cutter=3)
    bet(ui, dealer, 3, 5000)
    assert dealer.ids.caller.disabled  # A is the only bet, and already calls the box
    ui.tap(dealer.ids.behind)
    ui.tap(chip(dealer, 10000))
    assert dealer.player == "B" and not dealer.ids.caller.disabled
    ui.tap(dealer.ids.caller)
    assert [s.player for s in session.state.stakes_on(3)] == ["B", "A"]
    assert kinds(session)[-1] == "blackjack.caller_set"
    assert dealer.ids.caller.disabled  # B calls now
    ui.pump()
    assert "B R100" in dealer.tile(3).detail


def test_once_the_dealers_hand_has_begun_only_an_inspector_voids_the_round(
        ui: UI, session: Session, dealer: Any) -> None:
    """Rule 2.7: a void after the result is known hands back bets that won, so the screen
    asks for the inspector's badge and the journal names them."""
    from kiosk.ui.dealer.choices import BadgePad, ReasonPicker

    shuffle_cut_burn(ui, session, dealer, cutter=1)
    bet(ui, dealer, 1, 5000)
    ui.tap(dealer.ids.primary)
    for code in ("TS", "6D", "9C"):
        shoe(session, code)
    ui.pump(frames=2)
    ui.tap(dealer.ids.stand)
    shoe(session, "TD")
    shoe(session, "9H")  # the dealer busts: box 1 has won
    ui.pump(frames=2)
    assert session.state.phase is bj.Phase.PAYING
    ui.tap(dealer.ids.void)
    ui.tap(button(modal(ui, ReasonPicker).ids.reasons, "Card exposed or dropped"))
    assert session.state.phase is bj.Phase.PAYING  # not yet: the inspector decides
    pad = modal(ui, BadgePad)
    for key in "77":
        ui.tap(button(pad.ids.pad, key))
    ui.tap(button(pad.ids.pad, "OK"))
    last = entries(session)[-1]
    assert last.kind == "blackjack.round_voided" and last.payload["inspector"] == "inspector 77"


def test_a_finished_hand_shows_one_total() -> None:
    from kiosk.ui.dealer.blackjack_words import hand_total_words

    a, eight, seven = Card.parse("AS"), Card.parse("8C"), Card.parse("7D")
    playing = bj.PlayerHand(3, 1, (bj.HandBet("A", 5000),), (a, eight), (1, 8))
    assert hand_total_words(playing) == "soft 19 / 9"  # still deciding: both totals
    stood = bj.PlayerHand(3, 1, (bj.HandBet("A", 5000),), (a, eight), (1, 8), stood=True)
    assert hand_total_words(stood) == "19"
    bust = bj.PlayerHand(3, 1, (bj.HandBet("A", 5000),), (eight, seven, eight), (8, 7, 8))
    assert hand_total_words(bust) == "bust (23)"


def test_a_card_held_at_a_restart_is_told_on_the_new_screen(ui: UI, tmp_path: Path) -> None:
    """A shoe card held while insurance was open (rule 4.7) survives a kiosk restart, and
    the dealer screen that opens says so: the alert from opening the table is shown."""
    s = open_session(tmp_path)
    s.perform(bj.shuffle)
    s.perform(lambda st: bj.cut_cards(st, 1, 156, 78))
    shoe(s, "QH")  # the burn (rule 4.7 shuffle and cut)
    s.perform(lambda st: bj.place_bet(st, 3, 10000))
    s.perform(bj.close_betting)
    for code in ("TS", "AD", "6H", "4C"):  # the dealer's ace opens insurance: the 4C waits
        shoe(s, code)
    assert [c.code for c in s.held_cards] == ["4C"]
    s.journal.close()
    again = open_session(tmp_path)  # the kiosk restarts
    dealer = dealer_for(ui, again)
    ui.pump(frames=3)
    assert dealer.alert_shown
    assert "1 shoe card(s) held before the restart: 4C" in dealer.alert_text
    assert [c.code for c in again.held_cards] == ["4C"]
    again.perform(bj.close_insurance)  # released: box 3's draw
    assert [c.code for c in again.state.hand(3, 1).cards] == ["TS", "6H", "4C"]
    again.journal.close()
