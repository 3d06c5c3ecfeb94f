"""Replay for disputes (rule 2.8): recompute each coup and report differences."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

from click.testing import CliRunner

from kiosk.cli import main
from kiosk.replay import load_entries, replay
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.operations import operation_from_record
from kiosk.store.canonical import canonical_json, chain_hash
from kiosk.store.export import export_jsonl, read_jsonl
from kiosk.store.journal import Entry
from tests.table.helpers import cards, open_session


def _journal(path: Path) -> Path:
    s = open_session(path)
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 5_500))
    s.perform(lambda st: pb.place_bet(st, "2", pb.BetKind.PLAYER, 5_000))
    s.perform(pb.close_betting)
    for c in cards("4H", "3C", "KD", "4S", "2C"):
        s.perform(lambda st, c=c: pb.shoe_card(st, c))
    s.perform(pb.confirm_payouts)
    s.journal.close()
    return path


def _rechain(entries: list[Entry]) -> list[Entry]:
    """Re-hash a chain after an edit, as a forger who knows the format would."""
    out: list[Entry] = []
    prev = "0" * 64
    for e in entries:
        h = chain_hash(prev, e.table_id, e.seq, e.wall_time, e.kind, canonical_json(e.payload))
        out.append(Entry(e.seq, e.table_id, e.wall_time, e.kind, e.payload, prev, h))
        prev = h
    return out


def test_replay_recomputes_every_settlement(tmp_path: Path) -> None:
    report = replay(load_entries(_journal(tmp_path / "j.db")))
    assert report.ok and report.chain_ok
    (coup,) = report.rounds
    assert coup.player_cards == ["4H", "KD", "2C"] and coup.banker_cards == ["3C", "4S"]
    assert coup.result == {"winner": "banker", "player_total": 6, "banker_total": 7,
                           "player_pair": False, "banker_pair": False, "natural": False}
    bank = coup.settlements[0]
    # rule 5.7: 19:20 of R55 is R52.25; the house chip rule (R5, house) pays R50.
    assert (bank["exact_win"], bank["paid"], bank["rounding"], bank["returned"]) == (
        "5225/1", 5000, "225/1", 10_500)


def test_replay_of_export_matches_database(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.db")
    buf = io.StringIO()
    export_jsonl(path, buf)
    jsonl = tmp_path / "j.jsonl"
    jsonl.write_text(buf.getvalue())
    assert replay(load_entries(jsonl)).as_json()["rounds"] == replay(
        load_entries(path)).as_json()["rounds"]


def test_forged_payout_is_reported_even_with_a_rehashed_chain(tmp_path: Path) -> None:
    entries = load_entries(_journal(tmp_path / "j.db"))
    last = entries[-1]
    assert last.kind == "punto_banco.coup_settled"
    last.payload["settlements"][0]["paid"] = 5225  # someone "fixes" the payout
    forged = _rechain(entries)
    report = replay(forged)
    assert report.chain_ok  # the chain alone cannot see a consistent forgery
    assert not report.ok
    (diff,) = report.rounds[0].differences
    assert diff.startswith("area 1 banker: paid recorded 5225, recomputed 5000")


def test_edited_export_breaks_the_chain_and_cli_exits_1(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.db")
    buf = io.StringIO()
    export_jsonl(path, buf)
    lines = buf.getvalue().splitlines()
    row = json.loads(lines[4])
    row["payload"]["amount"] = 500_000  # a bet made larger after the fact
    lines[4] = json.dumps(row)
    jsonl = tmp_path / "edited.jsonl"
    jsonl.write_text("\n".join(lines) + "\n")
    assert list(read_jsonl(jsonl.read_text().splitlines()))[4].payload["amount"] == 500_000
    result = CliRunner().invoke(main, ["replay", str(jsonl), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["chain"]["ok"] is False and "5" in data["chain"]["reason"]


def _blackjack_journal(path: Path) -> Path:
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.blackjack.house import BlackjackRules
    from kiosk.store.journal import Journal
    from kiosk.table.session import TableSession

    journal = Journal.open(path, "BJ-1")
    s = TableSession(bj.Blackjack(), journal, BlackjackRules(), "BJ-1")
    s.perform(bj.shuffle)
    s.perform(lambda st: bj.cut_cards(st, 1, 150, 78))
    s.perform(lambda st: bj.shoe_card(st, cards("2C")[0]))  # the burn (rule 4.7)
    s.perform(lambda st: bj.place_bet(st, 1, 5_500))
    s.perform(lambda st: bj.place_bet(st, 2, 10_000))
    s.perform(bj.close_betting)
    for c in cards("AS", "TH", "7D", "KD", "9C"):  # box 1 blackjack against a 7
        s.perform(lambda st, c=c: bj.shoe_card(st, c))
    s.perform(bj.pay_blackjack)  # rule 4.2 item 5: 3:2 of R55 = R82.50, paid R82
    s.perform(bj.stand)
    s.perform(lambda st: bj.shoe_card(st, cards("TS")[0]))
    s.perform(bj.confirm_payouts)
    journal.close()
    return path


def test_blackjack_rounds_are_recomputed_and_a_forged_blackjack_payout_is_found(
        tmp_path: Path) -> None:
    entries = load_entries(_blackjack_journal(tmp_path / "bj.db"))
    report = replay(entries)
    assert report.ok, report.as_json()
    (rnd,) = report.rounds
    assert rnd.hands == {"dealer": ["7D", "TS"], "box 1/1": ["AS", "KD"],
                         "box 2/1": ["TH", "9C"]}
    assert "2C" not in json.dumps(report.as_json())  # the burn card is never shown
    paid = next(e for e in entries if e.kind == "blackjack.blackjack_paid")
    paid.payload["settlements"][0]["paid"] = 8250  # someone "fixes" the rounding
    forged = replay(_rechain(entries))
    assert forged.chain_ok and not forged.ok
    assert forged.problems[0].startswith(f"row {paid.seq}: blackjack.blackjack_paid recorded")


def test_a_void_lists_the_bets_it_returned_and_a_forged_return_is_found(
        tmp_path: Path) -> None:
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.blackjack.house import BlackjackRules
    from kiosk.store.journal import Journal

    path = _blackjack_journal(tmp_path / "bj.db")  # one round settled, then a bet on box 3
    journal = Journal.open(path, "BJ-1")
    state = bj.initial_state(BlackjackRules(), "BJ-1")
    for e in journal.entries():
        state = bj.apply(state, operation_from_record(e.kind, e.payload))
    bet = bj.place_bet(state, 3, 20_000)
    journal.append(bet.kind, bet.to_payload())
    void = bj.void_round(bj.apply(state, bet), "the dealer dropped the shoe", "dealer")
    journal.append(void.kind, void.to_payload())
    journal.close()
    entries = load_entries(path)
    report = replay(entries)
    assert report.ok, report.as_json()
    voided = report.rounds[-1]
    assert voided.status == "voided" and voided.reason == "the dealer dropped the shoe"
    assert [(s["box"], s["stake"], s["outcome"], s["returned"]) for s in voided.settlements] == [
        (3, 20_000, "returned", 20_000)]
    row = entries[-1]
    row.payload["returned"][0]["returned"] = 10_000  # half of it "handed back"
    forged = replay(_rechain(entries))
    assert forged.chain_ok and not forged.ok
    assert forged.rounds[-1].differences[0].startswith("returned [")
    row.payload["returned"] = []  # nothing handed back at all
    assert not replay(_rechain(entries)).ok
    del row.payload["returned"]  # a row from before the list was recorded: nothing to check
    assert replay(_rechain(entries)).ok


def _blackjack_journal_with_a_row_that_does_not_fit(path: Path) -> None:
    """A chained journal whose second row the rules cannot fold: the check for blackjacks
    (rule 7.2 items 4-5) before any card was dealt. Only a bug or a forger writes it."""
    from kiosk.rules.blackjack import engine as bj
    from kiosk.rules.blackjack.house import BlackjackRules
    from kiosk.store.journal import Journal

    journal = Journal.open(path, "BJ-01")
    opened = bj.open_table(BlackjackRules.touch_21(), "BJ-01")
    journal.append(opened.kind, opened.to_payload())
    journal.append(bj.BlackjacksChecked.kind, {"round": 1})
    journal.close()


def test_a_row_the_rules_cannot_fold_is_reported_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "bj.db"
    _blackjack_journal_with_a_row_that_does_not_fit(path)
    report = replay(load_entries(path))
    assert report.chain_ok and not report.ok
    assert report.problems == [
        "row 2: blackjack.blackjacks_checked cannot follow: IndexError tuple index out of range"]
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1 and "row 2: blackjack.blackjacks_checked cannot follow" in (
        result.output)


def test_the_table_does_not_start_on_a_journal_it_cannot_follow(tmp_path: Path) -> None:
    """The kiosk names the row and says what to do, instead of a traceback."""
    from kiosk.assembly import open_session as open_table
    from kiosk.config import example, parse
    from kiosk.store.journal import JournalError

    path = tmp_path / "bj.db"
    _blackjack_journal_with_a_row_that_does_not_fit(path)
    cfg = dataclasses.replace(parse(example("touch-21")), journal=path, table_id="BJ-01")
    try:
        open_table(cfg, quiet=True)
    except JournalError as exc:
        message = str(exc)
    else:
        raise AssertionError("the table started on a journal it cannot follow")
    assert message.startswith("Row 2 of the journal (blackjack.blackjacks_checked) cannot be "
                              "replayed: IndexError(")
    assert "call a technician" in message and "tableside replay" in message
