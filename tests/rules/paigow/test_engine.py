"""The pai gow engine's acts, refusals and next steps (section 13), and replay's audit of a
settlement altered on the journal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiosk.i18n import say
from kiosk.rules.audit import ReplayReport
from kiosk.rules.errors import NotAllowed, Said
from kiosk.rules.paigow import engine as pg
from kiosk.rules.paigow.audit import audit
from tests.rules.paigow.rounds import Table, play

B = pg.Bank
tiles = pg.parse_tiles


def betting() -> Table:
    t = Table()
    t.do(pg.shuffle(t.state))
    return t


@pytest.mark.parametrize(("act", "words"), [
    (lambda s: pg.take_bank(s, B.HOUSE, 2, 0), "chung is on area one"),
    (lambda s: pg.take_bank(s, B.PLAYER, 9, 1_000), "There is no area 9"),
    (lambda s: pg.take_bank(s, B.PLAYER, 3, 0), "must place a wager (rule 13.2.2)"),
    (lambda s: pg.take_bank(s, B.PLAYER, 3, 150), "cannot be made of chips"),
    (lambda s: pg.place_bet(s, 1, 1_000),
     "Area 1 has the chung: the bank's tiles are dealt there (rule 13.1.1)"),
    (lambda s: pg.place_bet(s, 2, 200_000), "over the table maximum"),
    (lambda s: pg.place_bet(s, 0, 1_000), "There is no area 0"),
    (lambda s: pg.remove_bet(s, 2), "Area 2 has no wager to take back"),
    (lambda s: pg.close_betting(s), "No wager on the layout yet"),
    (lambda s: pg.set_hand(s, 2, tiles("66 66"), tiles("11 11")), "Hands are set after"),
    (lambda s: pg.confirm_house_way(s, "Thandi"), "No House hand waits"),
    (lambda s: pg.confirm_payouts(s), "Nothing to pay yet"),
    (lambda s: pg.void_round(s, "x"), "No round to void"),
])
def test_refusals_while_betting(act: object, words: str) -> None:
    t = betting()
    with pytest.raises(NotAllowed) as exc:
        act(t.state)  # type: ignore[operator]
    assert words in str(exc.value)


def test_the_banker_cannot_wager_on_their_own_area_and_a_wager_under_the_minimum() -> None:
    t = betting()
    t.do(pg.place_bet(t.state, 3, 500))
    with pytest.raises(NotAllowed, match="Area 3 has a wager: take it back before the chung "
                                         "goes there"):
        pg.take_bank(t.state, B.PLAYER, 3, 5_000)
    with pytest.raises(NotAllowed, match="under the table minimum of R10 \\(rule 2.2\\)"):
        pg.close_betting(t.state)
    t.do(pg.take_bank(t.state, B.PLAYER, 4, 5_000))
    t.do(pg.place_bet(t.state, 1, 1_000))  # the House's area is free while a player banks
    with pytest.raises(NotAllowed, match="Area 1 has a wager"):
        pg.take_bank(t.state, B.HOUSE, 1, 0)
    with pytest.raises(NotAllowed, match="Area 4 has the chung: the bank's tiles are dealt "
                                         "there \\(rule 13.2.1\\)"):
        pg.place_bet(t.state, 4, 1_000)
    unwashed = Table()
    unwashed.do(pg.place_bet(unwashed.state, 2, 1_000))
    with pytest.raises(NotAllowed, match="Wash the tiles"):
        pg.close_betting(unwashed.state)
    assert str(pg.next_step(unwashed.state)) == "Wash the tiles and stack the woodpile"


def test_the_hands_in_order_from_the_chung_each_once_from_the_set() -> None:
    t = betting()
    t.do(pg.take_bank(t.state, B.PLAYER, 5, 10_000))
    for area in (2, 6, 7):
        t.do(pg.place_bet(t.state, area, 1_000))
    t.do(pg.close_betting(t.state))
    assert t.state.in_order() == (6, 7, 2) and t.state.to_set == 6
    assert str(pg.next_step(t.state)) == ("Area 6: key in the tiles as the player set them, "
                                          "high then low")
    with pytest.raises(NotAllowed, match="Area 3 has no wager"):
        pg.set_hand(t.state, 3, tiles("66 66"), tiles("11 11"))
    with pytest.raises(NotAllowed, match="may not outrank"):
        pg.set_hand(t.state, 6, tiles("11 45"), tiles("66 66"))
    t.do(pg.set_hand(t.state, 6, tiles("66 66"), tiles("11 45")))
    with pytest.raises(NotAllowed, match="Area 6 has set its hands"):
        pg.set_hand(t.state, 6, tiles("13 13"), tiles("55 55"))
    with pytest.raises(NotAllowed, match="only 2 of 66, and it is in play already"):
        pg.set_hand(t.state, 7, tiles("13 13"), tiles("66 11"))
    with pytest.raises(NotAllowed, match="Area 7 sets its hands first: the bank's come last "
                                         "\\(rule 13.2.3\\)"):
        pg.set_bank(t.state, tiles("55 55 13 13"))
    t.do(pg.set_hand(t.state, 7, tiles("13 13"), tiles("55 55")))
    t.do(pg.set_hand(t.state, 2, tiles("44 44"), tiles("22 22")))
    assert str(pg.next_step(t.state)) == ("The player/banker at area 5 sets the banker's hands "
                                          "(rule 13.2.3)")
    # the player/banker sets as they please (13.2.3), not necessarily the house way
    op = pg.set_bank(t.state, tiles("56 56 15 15"), tiles("56 15"))
    assert (op.house_way, op.why) == (False, "set by the player/banker")
    t.do(op)
    assert t.state.phase is pg.Phase.REVEAL and pg.legal_actions(t.state) == {
        "confirm_payouts", "void_round"}


def test_the_house_hand_is_set_the_house_way_and_confirmed_13_1_5() -> None:
    t = betting()
    t.do(pg.place_bet(t.state, 2, 1_000))
    t.do(pg.close_betting(t.state))
    t.do(pg.set_hand(t.state, 2, tiles("66 66"), tiles("11 45")))
    assert str(pg.next_step(t.state)) == ("Key in the House tiles: they are set the house way "
                                          "(rule 13.1.2)")
    with pytest.raises(NotAllowed, match="The House hand is set the house way: 56 15 \\| 26 34 "
                                         "\\(rule 13.1.5\\)"):
        pg.set_bank(t.state, tiles("56 15 34 26"), tiles("56 34"))
    t.do(pg.set_bank(t.state, tiles("56 15 34 26"), tiles("56 15")))
    assert str(pg.next_step(t.state)) == ("The game supervisor confirms the House hand is set "
                                          "the house way (rule 13.1.5)")
    with pytest.raises(NotAllowed, match="The supervisor confirms the House hand first"):
        pg.confirm_payouts(t.state)
    with pytest.raises(NotAllowed, match="Name the supervisor"):
        pg.confirm_house_way(t.state, " ")
    t.do(pg.confirm_house_way(t.state, "Thandi"))
    assert t.state.confirmed_by == "Thandi"
    assert str(pg.next_step(t.state)) == ("Expose the House hands, match each area from area "
                                          "one, and confirm payouts (rule 13.1.6)")


def test_a_void_hands_every_wager_back_and_starts_the_next_round() -> None:
    t = betting()
    t.do(pg.place_bet(t.state, 2, 1_000))
    t.do(pg.close_betting(t.state))
    with pytest.raises(NotAllowed, match="Say why"):
        pg.void_round(t.state, "")
    t.do(pg.void_round(t.state, "tiles dropped"))
    assert (t.state.round, t.state.bets, t.state.phase) == (2, (), pg.Phase.BETTING)


def test_replay_finds_a_settlement_altered_on_the_journal() -> None:
    t = Table()
    play(t, bets=[(2, 1_000), (3, 2_000)], bank_tiles="56 15 34 26",
         hands={2: ("66 45", "55 16"), 3: ("33 35", "22 25")})
    settled = t.journal[-1]
    assert isinstance(settled, pg.Settled)
    before = Table()
    for op in t.journal[1:-1]:
        before.do(op)

    class Row:
        seq, wall_time, kind, payload = 9, "2026-01-01T00:00:00Z", settled.kind, {}

    report = ReplayReport("test", True, "", 0)
    audit(before.state, settled, Row(), report)
    assert report.rounds[0].differences == []
    assert report.rounds[0].outcome == ("house area 1 7 (foo) / 5 (chop bot): area 2 win +R9; "
                                       "area 3 lose -R20")
    paid_more = replace(settled, steps=tuple(
        replace(s, amount=2_000) if s.move is pg.Move.PAY else s for s in settled.steps))
    report = ReplayReport("test", True, "", 0)
    audit(before.state, paid_more, Row(), report)
    assert report.rounds[0].differences == [
        "step 3: recorded {'clause': '13.1.8', 'move': 'pay', 'area': 2, 'amount': 2000, "
        "'source': 'float', 'to': 'player'}, recomputed {'clause': '13.1.8', 'move': 'pay', "
        "'area': 2, 'amount': 1000, 'source': 'float', 'to': 'player'}"]


# --- a hand keyed wrong, corrected before the bank's is set (the house's procedure) --------


def _setting() -> Table:
    t = betting()
    t.do(pg.place_bet(t.state, 2, 1_000))
    t.do(pg.place_bet(t.state, 3, 2_000))
    t.do(pg.close_betting(t.state))
    return t


def test_a_hand_keyed_wrong_is_taken_off_and_keyed_again() -> None:
    t = _setting()
    t.do(pg.set_hand(t.state, 2, tiles("66 45"), tiles("55 16")))
    assert pg.legal_actions(t.state) >= {"set_hand", "unset_hand"}
    with pytest.raises(NotAllowed, match="Area 3 has no hands set to correct"):
        pg.unset_hand(t.state, 3)
    record = pg.unset_hand(t.state, 2)
    assert record.kind == "paigow.hand_unset"
    assert record.area == 2
    t.do(record)
    assert t.state.hand_of(2) is None
    assert t.state.to_set == 2
    assert t.state.tiles_in_play == ()  # the four tiles are free to key again
    assert str(pg.next_step(t.state)).startswith("Area 2: key in the tiles")
    t.do(pg.set_hand(t.state, 2, tiles("66 16"), tiles("55 45")))
    t.do(pg.set_hand(t.state, 3, tiles("33 35"), tiles("22 25")))
    # Every hand is set: the last one can still be corrected, until the bank's is set.
    assert pg.can_unset_hand(t.state, 3)
    t.do(pg.unset_hand(t.state, 3))
    assert t.state.to_set == 3
    t.do(pg.set_hand(t.state, 3, tiles("33 35"), tiles("22 25")))
    t.do(pg.set_bank(t.state, tiles("56 15 34 26")))
    assert "unset_hand" not in pg.legal_actions(t.state)
    with pytest.raises(NotAllowed, match="corrected only before the bank's hands are set"):
        pg.unset_hand(t.state, 2)
    t.do(pg.confirm_house_way(t.state, "Thandi"))
    settled = pg.confirm_payouts(t.state)
    assert [(a.area, a.high, a.low) for a in settled.areas] == [
        (2, tiles("66 16"), tiles("55 45")), (3, tiles("33 35"), tiles("22 25"))]


def test_no_hand_is_corrected_while_betting() -> None:
    t = betting()
    with pytest.raises(NotAllowed, match="corrected only before the bank's hands are set"):
        pg.unset_hand(t.state, 2)
    assert not pg.can_unset_hand(t.state, 2)


# --- the sign's history, and the house way's reason in words ---------------------------------


def test_each_settled_round_keeps_the_bank_tiles_and_the_results() -> None:
    t = _setting()
    t.do(pg.set_hand(t.state, 2, tiles("66 16"), tiles("55 45")))
    t.do(pg.set_hand(t.state, 3, tiles("33 35"), tiles("22 25")))
    t.do(pg.set_bank(t.state, tiles("56 15 34 26")))
    why = t.state.bank_why
    assert isinstance(why, Said)
    assert why == "no pair: the strongest low hand, 5 (chop bot), with 7 (foo)"
    assert why.sentence is not None and why.sentence.template == "no pair: %(why)s"
    assert say(why, code="pt").startswith("sem par: ")
    t.do(pg.confirm_house_way(t.state, "Thandi"))
    t.do(pg.confirm_payouts(t.state))
    (last,) = t.state.history
    assert (last.high, last.low) == (tiles("56 15"), tiles("26 34"))
    assert (last.wins, last.losses, last.stand_offs) == (1, 1, 0)
    t.do(pg.shuffle(t.state))
    t.do(pg.place_bet(t.state, 2, 1_000))
    t.do(pg.close_betting(t.state))
    t.do(pg.void_round(t.state, "a tile fell"))
    assert t.state.history == (last,)  # a void round is not a settled one


def test_the_player_bankers_own_setting_is_said_in_words() -> None:
    t = betting()
    t.do(pg.take_bank(t.state, B.PLAYER, 3, 5_000))
    t.do(pg.place_bet(t.state, 2, 1_000))
    t.do(pg.close_betting(t.state))
    t.do(pg.set_hand(t.state, 2, tiles("66 16"), tiles("55 45")))
    record = pg.set_bank(t.state, tiles("56 15 34 26"), tiles("56 26"))
    assert record.why == "set by the player/banker"
    t.do(record)
    assert isinstance(t.state.bank_why, Said)
    assert say(t.state.bank_why, code="af") == "gestel deur die speler/bankier"
