"""The signage's journal feed at a blackjack or Touch 21 table: a journal whose table was opened
with `bj_table_opened` is folded by the blackjack engine into the dealer app's very state, kept
through a missing or restarted journal, folded afresh when replaced, and a table reconfigured
for the other game switches game in the same journal.

Also holds the helpers the other blackjack signage tests share (a dealer session on a real
journal file, the shuffle and cut, a round with chosen cards)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule
from kiosk.rules.operations import operation_from_record
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui.signage.feed import JournalFeed, Link
from tests.table.helpers import open_session
from tests.ui.test_signage_feed import BANKER_7_TO_5, coup

BJ_RULES = BlackjackRules(chips=ChipRule(500), minimum=5_000, maximum=1_000_000)
TOUCH_RULES = BlackjackRules.touch_21(chips=ChipRule(500), minimum=2_500, maximum=500_000)
BURNED = "QD"  # the card every helper burns (rule 4.7 shuffle and cut): never on screen
# Box 1 TS+8C = 18, box 3 9H+7H = 16, the dealer 6D; both stand; the dealer draws TC (16,
# rule 4.2 draws) then 4S: 20.
ROUND_CARDS = ("TS 9H 6D 8C 7H", "TC 4S")
# Touch 21: box 1 TS+8S = 18 against 6D; the dealer's AC makes soft 17, which Touch 21 draws
# to (rule 7.2; standard blackjack would stand), and 2D makes 19.
TOUCH_CARDS = ("TS 6D 8S", "AC 2D")

BjSession = TableSession[bj.BlackjackState]


class Game(StrEnum):
    """The families of games a feed can show (the registry's `GameSpec.family`)."""

    PUNTO_BANCO = "punto-banco"
    BLACKJACK = "blackjack"


def open_bj(path: Path, rules: BlackjackRules = BJ_RULES, table_id: str = "BJ-01"
            ) -> BjSession:
    """The dealer app's session on the journal at `path` (opens the table on a new file)."""
    return TableSession(bj.Blackjack(), Journal.open(path, table_id), rules, table_id)


def cards(session: BjSession, codes: str) -> None:
    """Cards read by the shoe, in order."""
    for code in codes.split():
        card = Card.parse(code)
        session.perform(lambda s: bj.shoe_card(s, card))  # noqa: B023


def get_ready(session: BjSession, burn: str = BURNED) -> None:
    """Shuffled by hand, cut half way by box 1, the cutting card placed, the first card burned
    (rules 4.1-4.7 shuffle and cut)."""
    half = 26 * session.state.rules.decks
    session.perform(bj.shuffle)
    session.perform(lambda s: bj.cut_cards(s, 1, half, min(78, half)))
    cards(session, burn)
    assert session.state.prep.stage is bj.Stage.READY


def play_round(session: BjSession, *, settle: bool = True) -> None:
    """Standard blackjack with `ROUND_CARDS`: the dealer ends on 6D TC 4S, 20."""
    session.perform(lambda s: bj.place_bet(s, 1, 10_000))
    session.perform(lambda s: bj.place_bet(s, 3, 5_000))
    session.perform(bj.close_betting)
    cards(session, ROUND_CARDS[0])
    session.perform(bj.stand)
    session.perform(bj.stand)
    cards(session, ROUND_CARDS[1])
    assert session.state.phase is bj.Phase.PAYING
    if settle:
        session.perform(bj.confirm_payouts)


def play_touch_round(session: BjSession) -> None:
    """Touch 21 with `TOUCH_CARDS`: the dealer draws to soft 17 and ends on 6D AC 2D, 19."""
    session.perform(lambda s: bj.place_bet(s, 1, 10_000))
    session.perform(bj.close_betting)
    cards(session, TOUCH_CARDS[0])
    session.perform(bj.check_blackjacks)  # rule 7.2 items 4-5
    session.perform(bj.stand)
    cards(session, TOUCH_CARDS[1])
    assert session.state.phase is bj.Phase.PAYING
    session.perform(bj.confirm_payouts)


def replace_journal(new: Path, path: Path) -> None:
    """Put the journal `new` where `path` is, without the old file's WAL beside it (SQLite
    would read that into the new file)."""
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    os.replace(new, path)


def bj_fold(path: Path, table_id: str) -> bj.BlackjackState:
    """The blackjack engine's own fold of the journal (read-only), as a cross-check."""
    state = bj.initial_state(BJ_RULES, "")
    with Journal.open(path, table_id, read_only=True) as j:
        for e in j.entries():
            state = bj.apply(state, operation_from_record(e.kind, e.payload))
    return state


def link(feed: JournalFeed) -> Link:
    return feed.link


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


@pytest.fixture
def feed(journal_path: Path) -> Iterator[JournalFeed]:
    f = JournalFeed(journal_path)
    yield f
    f.close()


def test_a_blackjack_journal_is_folded_by_the_blackjack_engine(
        feed: JournalFeed, journal_path: Path) -> None:
    feed.poll()
    assert feed.state is None and feed.game is None
    session = open_bj(journal_path)
    change = feed.poll()
    assert change.applied == 1 and link(feed) is Link.LIVE
    assert isinstance(feed.state, bj.BlackjackState) and feed.game.family == Game.BLACKJACK
    assert feed.state == session.state and feed.table_id == "BJ-01"
    assert feed.state.rules == BJ_RULES  # rule 2.2: the table's own limits
    get_ready(session)
    play_round(session)
    change = feed.poll()
    assert change.applied == session.journal.count() - 1 and not change.refolded
    assert feed.state == session.state  # the very same fold as the dealer app's
    last = feed.state.last_settled
    assert last is not None and [c.code for c in last.dealer_cards] == ["6D", "TC", "4S"]
    # Row by row, as a busy table is polled: still the same state.
    play_round(session, settle=False)
    assert feed.poll().applied > 0 and feed.state == session.state
    assert feed.state.phase is bj.Phase.PAYING
    assert not feed.poll().state_changed  # nothing new: nothing read


def test_touch_21_keeps_its_rules_and_the_dealer_draws_soft_17(
        feed: JournalFeed, journal_path: Path) -> None:
    session = open_bj(journal_path, TOUCH_RULES, "BJ-02")
    get_ready(session)
    play_touch_round(session)
    feed.poll()
    assert feed.state == session.state and feed.game.family == Game.BLACKJACK
    assert isinstance(feed.state, bj.BlackjackState)
    assert feed.state.rules.game_name == "Touch 21" and feed.state.rules.dealer_hits_soft_17
    last = feed.state.last_settled
    assert last is not None and [c.code for c in last.dealer_cards] == ["6D", "AC", "2D"]


def test_keeps_the_last_blackjack_state_through_a_missing_file_and_a_restart(
        feed: JournalFeed, journal_path: Path, tmp_path: Path) -> None:
    session = open_bj(journal_path)
    get_ready(session)
    play_round(session, settle=False)
    feed.poll()
    shown = feed.state
    session.journal.close()  # the dealer app stops and the file is gone for a moment
    away = tmp_path / "away"
    away.mkdir()
    for f in tmp_path.glob("table.db*"):
        shutil.move(f, away / f.name)
    change = feed.poll()
    assert link(feed) is Link.RECONNECTING and change.link_changed
    assert feed.state is shown, "the players keep seeing the last good state"
    for f in away.iterdir():
        shutil.copy(f, tmp_path / f.name)
    change = feed.poll()
    assert link(feed) is Link.LIVE and not change.refolded and feed.state is shown
    session = open_bj(journal_path)  # the dealer app is back: the same round, the same step
    assert session.replayed > 0 and session.state == shown
    session.perform(bj.confirm_payouts)
    change = feed.poll()
    assert change.applied == 1 and not change.refolded and feed.state == session.state


def test_a_replaced_journal_is_folded_afresh_in_its_own_game(
        feed: JournalFeed, journal_path: Path, tmp_path: Path) -> None:
    first = open_bj(journal_path)
    get_ready(first)
    play_round(first)
    feed.poll()
    first.journal.close()
    # A Touch 21 table's journal in its place: its own table id, its own rules.
    other = tmp_path / "touch.db"
    touch = open_bj(other, TOUCH_RULES, "BJ-02")
    get_ready(touch)
    touch.journal.close()
    replace_journal(other, journal_path)
    change = feed.poll()
    assert change.refolded and feed.table_id == "BJ-02" and feed.seq == 4
    assert feed.state == bj_fold(journal_path, "BJ-02")
    assert isinstance(feed.state, bj.BlackjackState)
    assert feed.state.rules == TOUCH_RULES and feed.state.last_settled is None
    # A punto banco table's journal in its place: punto banco again.
    pb_path = tmp_path / "pb.db"
    pb_session = open_session(pb_path)
    pb_session.perform(pb.shuffle)
    coup(pb_session, BANKER_7_TO_5)
    pb_session.journal.close()
    replace_journal(pb_path, journal_path)
    change = feed.poll()
    assert change.refolded and feed.game.family == Game.PUNTO_BANCO and feed.table_id == "PB-01"
    assert feed.state == pb_session.state


def test_a_table_reconfigured_for_the_other_game_switches_game_in_the_same_journal(
        feed: JournalFeed, journal_path: Path) -> None:
    session = open_session(journal_path)  # punto banco
    session.perform(pb.shuffle)
    coup(session, BANKER_7_TO_5)
    feed.poll()
    assert feed.game.family == Game.PUNTO_BANCO
    journal = session.journal
    # The table is opened for blackjack in its journal, and blackjack is played there.
    journal.append("blackjack.table_opened", bj.open_table(BJ_RULES, "PB-01").to_payload())
    change = feed.poll()
    assert change.applied == 1 and not change.refolded
    assert feed.game.family == Game.BLACKJACK and feed.other_game is None
    assert feed.state == bj.initial_state(BJ_RULES, "PB-01"), "a fresh blackjack table"
    state = feed.state
    assert isinstance(state, bj.BlackjackState)
    for action in (bj.shuffle, lambda s: bj.cut_cards(s, 1, 156, 78),
                   lambda s: bj.shoe_card(s, Card.parse(BURNED)),
                   lambda s: bj.place_bet(s, 2, 5_000)):
        op = action(state)
        state = bj.apply(state, op)
        journal.append(op.kind, op.to_payload())
    feed.poll()
    assert feed.state == state and feed.state.stakes_on(2)
    # Folded from scratch (another signage starting now) it lands in the same place.
    fresh = JournalFeed(journal_path)
    try:
        fresh.poll()
        assert fresh.state == state and fresh.game.family == Game.BLACKJACK
    finally:
        fresh.close()
    # And back to punto banco: a fresh punto banco table (its rules, no roads of before).
    opening = pb.open_table(pb.PuntoBancoRules(), "PB-01")
    journal.append(opening.kind, opening.to_payload())
    feed.poll()
    assert feed.game.family == Game.PUNTO_BANCO
    assert feed.state == pb.initial_state(pb.PuntoBancoRules(), "PB-01")
    journal.close()


def test_the_other_games_operations_with_no_opening_are_not_folded(
        feed: JournalFeed, journal_path: Path) -> None:
    session = open_session(journal_path)
    session.perform(pb.shuffle)
    coup(session, BANKER_7_TO_5)
    feed.poll()
    kept = feed.state
    session.journal.append("blackjack.shuffled", {"method": "hand", "new_cards": False})
    change = feed.poll()
    assert change.state_changed and change.applied == 1 and link(feed) is Link.LIVE
    assert feed.other_game == Game.BLACKJACK and feed.game.family == Game.PUNTO_BANCO
    assert feed.state == kept, "never folded into punto banco's state"
    # The table's own game goes on being folded; the flag stays until a table is opened.
    coup(session, BANKER_7_TO_5)
    feed.poll()
    assert feed.state == session.state and feed.other_game == Game.BLACKJACK
    session.perform(lambda _s: pb.open_table(pb.PuntoBancoRules(), "PB-01"))
    feed.poll()
    assert feed.other_game is None and feed.state == session.state
