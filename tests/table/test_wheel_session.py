"""The wheel's reports reaching the table: the SS2 bytes through the driver into a roulette
session, and what is journaled and shown for each of the maker's exceptions."""

from __future__ import annotations

from pathlib import Path

from hardware.simulators.wheel import WheelSimulator
from hardware.wheel.ss2 import SS2Parser
from kiosk.replay import load_entries, replay
from kiosk.rules.roulette import engine as rl
from kiosk.rules.roulette.bets import BetKind
from kiosk.store.journal import Journal
from kiosk.table.session import Severity, TableSession
from tests.table.helpers import open_session


def roulette(path: Path) -> TableSession[rl.RouletteState]:
    s: TableSession[rl.RouletteState] = TableSession(
        rl.Roulette(), Journal.open(path, "RL-01"), rl.RouletteRules(), "RL-01")
    s.perform(lambda st: rl.chip_change(st, "pink", 50, 500))
    s.perform(lambda st: rl.place_bet(st, "pink", BetKind.STRAIGHT, 2, ("17",)))
    return s


def feed(session: TableSession[rl.RouletteState], data: bytes, parser: SS2Parser) -> None:
    for event in parser.feed(data):
        session.on_device_event(event)


def rows(session: TableSession[rl.RouletteState], after: int = 3) -> list[tuple[str, dict]]:
    return [(e.kind, e.payload) for e in session.journal.entries()][after:]


def test_a_wheel_game_is_the_spin_on_record(tmp_path: Path) -> None:
    s = roulette(tmp_path / "t.db")
    feed(s, b"".join(WheelSimulator().game("17")), SS2Parser())
    assert rows(s) == [
        ("roulette.ball_spun", {"spin": 1, "direction": "anticlockwise", "source": "wheel",
                                "same_direction": False}),
        ("roulette.betting_closed", {}),
        ("roulette.number_called", {"spin": 1, "number": "17", "source": "wheel"}),
    ]
    s.perform(rl.confirm_payouts)
    assert s.state.stack("pink").chips == 48 + 2 + 70
    report = replay(load_entries(str(tmp_path / "t.db")), "t")
    assert report.ok and report.rounds[0].result == {"number": "17"}
    assert report.rounds[0].reason == ""  # from the wheel: nothing to say


def test_a_miss_spin_is_a_no_spin_and_the_rebet_spin_settles(tmp_path: Path) -> None:
    s = roulette(tmp_path / "t.db")
    sim, parser = WheelSimulator(), SS2Parser()
    feed(s, b"".join(sim.game("4", faults=("miss_spin",))), parser)
    assert [k for k, _ in rows(s)] == ["roulette.ball_spun", "roulette.no_spin"]
    assert rows(s)[-1][1]["reason"] == "miss-spin: the ball hit something"
    assert s.alerts[-1].message == "The wheel voided the spin (a miss-spin)"
    assert s.state.staked("pink") == 2  # the bets stay locked on the layout
    sim.spin -= 1
    feed(s, b"".join(sim.game("9")), parser)
    assert s.state.number == "9" and s.state.no_spins == 1


def test_no_ball_launch_failure_fault_and_a_stopped_wheel_are_alerts_on_record(
        tmp_path: Path) -> None:
    s = roulette(tmp_path / "t.db")
    sim, parser = WheelSimulator(), SS2Parser()
    feed(s, b"".join(sim.game("4", faults=("no_ball", "launch_fail"))), parser)
    reports = {p["event"]: p for k, p in rows(s) if k == "device_report"}
    assert reports["no_ball"]["detail"] == "no ball seen for 10 reports"
    assert reports["launch_failed"]["detail"] == "ball launch failed for 7 reports"
    assert any(a.severity is Severity.STOP and "5 seconds" in a.message for a in s.alerts)
    s.perform(rl.confirm_payouts)
    feed(s, b"".join(sim.game("4", faults=("component_fault", "drop_to_6"))), parser)
    events = [p["event"] for k, p in rows(s) if k == "device_report"]
    assert events[-2:] == ["fault", "stopped"]
    assert s.alerts[-1].message == "The wheel stopped in the middle of a game"


def test_a_game_that_spins_no_wheel_refuses_its_results(tmp_path: Path) -> None:
    s = open_session(tmp_path / "pb.db")
    for event in SS2Parser().feed(b"".join(WheelSimulator().game("17"))):
        s.on_device_event(event)
    refused = [e.payload for e in s.journal.entries() if e.kind == "device_report"]
    assert refused[0]["event"] == "result_refused" and len(refused) == 1  # coalesced
    assert s.alerts[-1].severity is Severity.STOP
