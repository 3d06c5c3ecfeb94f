"""A shuffler that deals: its CARD frames feed punto banco as a shoe's do, every record in the
shuffler's name (SHUF), and its faults at every point of a coup (before the first card, after
1, 3 and 5 cards) go on record, are shown, and are told to a game that weighs them, with no
card read lost without a trace. Real bytes from the shuffler simulator on a pseudo-terminal,
read by the shuffler's own protocol through `SerialLink`."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import os
import tty
from pathlib import Path
from typing import Any

import pytest

from hardware.link import SerialLink
from hardware.protocols import protocol
from hardware.simulators.shoe import write_all
from hardware.simulators.shuffler import ShufflerFaults, ShufflerSimulator
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.operations import Operation
from kiosk.rules.registry import GAMES
from kiosk.store.journal import Journal
from kiosk.table.session import Severity, TableSession
from tests.table.helpers import RULES

DECKS = RULES.decks


class Weighing(pb.PuntoBanco):
    """Punto banco that weighs the shuffler's reports (as mini baccarat does): it says what
    it was told, and answers nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[tuple[str, str]] = []

    def shuffler_report(self, state: Any, event: str, detail: str) -> Operation | None:
        self.told.append((event, detail))
        return None


def _session(path: Path) -> tuple[TableSession[Any], Weighing]:
    game = Weighing()
    spec = dataclasses.replace(GAMES.get("punto-banco"), engine=game)
    clock = itertools.count(0, 100)  # every report its own row: none coalesced
    s: TableSession[Any] = TableSession(spec, Journal.open(path, "PB-01"), RULES, "PB-01",
                                        clock=lambda: float(next(clock)))
    s.dealing_device = "SHUF"
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000))
    s.perform(pb.close_betting)
    return s, game


async def _until(test: Any, what: str) -> None:
    for _ in range(3000):  # generous: a busy machine; never a timed assertion
        if test():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def _deal(session: TableSession[Any], sim: ShufflerSimulator, cards: int) -> None:
    """The shuffler says hello, shuffles, counts and deals up to `cards` cards (a fault may
    stop it sooner); a power loss is silence until the link says the shuffler is offline,
    then its restart."""
    master, slave = os.openpty()
    os.set_blocking(master, False)
    tty.setraw(slave)
    link = SerialLink(os.ttyname(slave), protocol("shuffler-line"), session.on_device_event,
                      heartbeat_timeout=0.5)
    task = asyncio.create_task(link.run())
    try:
        assert await link.wait_connected(5)
        write_all(master, sim.opening())
        for _ in range(cards):
            data = sim.step()
            if data is None:
                break
            write_all(master, data)
        if sim.power_lost:
            await _until(lambda: session.device_online.get("SHUF") is False, "offline")
            write_all(master, sim.power_on())
        write_all(master, sim.heartbeat())
        sent = sim.next_seq  # every frame sent has been read: the heartbeat's seq is last
        await _until(lambda: link.parser.last_seq("SHUF") == sent - 1, "all frames read")
    finally:
        link.stop()
        await asyncio.gather(task, return_exceptions=True)
        os.close(master)
        os.close(slave)


def _reports(s: TableSession[Any]) -> list[tuple[str, str, str]]:
    return [(e.payload["device"], e.payload["event"], e.payload["detail"])
            for e in s.journal.entries() if e.kind == "device_report"]


def _dealt(s: TableSession[Any]) -> list[dict[str, Any]]:
    return [e.payload for e in s.journal.entries() if e.kind == "punto_banco.card_dealt"]


def _accounted(s: TableSession[Any]) -> list[str]:
    """Every card the journal shows out of the shuffler: dealt, held or refused, in order."""
    out = []
    for e in s.journal.entries():
        if e.kind == "punto_banco.card_dealt":
            out.append(e.payload["card"])
        elif e.kind == "device_report" and e.payload["event"] in ("card_held",
                                                                  "card_refused"):
            out.append(str(e.payload["detail"]).split(":")[0])
    return out


def test_a_shuffler_deals_a_coup_of_punto_banco(tmp_path: Path) -> None:
    s, game = _session(tmp_path / "j.db")
    sim = ShufflerSimulator(decks=DECKS, seed=3)
    asyncio.run(_deal(s, sim, 6))
    dealt = _dealt(s)
    coup = len(dealt)
    assert 4 <= coup <= 6
    # The cards the journal holds are the shuffler's, in its order; a real device's.
    assert [d["card"] for d in dealt] == [c.code for c in sim.read_cards[:coup]]
    assert {d["source"] for d in dealt} == {"shoe"}
    assert _accounted(s) == [c.code for c in sim.read_cards]  # none lost
    reports = _reports(s)
    assert reports[:5] == [
        ("SHUF", "hello", "TABLESIDE-SHUF-SIM firmware 1.0 serial SIMSHUF01"),
        ("SHUF", "state", "SHUFFLING"), ("SHUF", "count", f"{52 * DECKS} cards counted"),
        ("SHUF", "state", "READY"), ("SHUF", "state", "DEALING")]
    # A card after the coup's last waits for the next coup, held in the shuffler's name.
    assert all(r[0] == "SHUF" for r in reports)
    assert game.told == [("state", "SHUFFLING"), ("count", f"{52 * DECKS} cards counted"),
                         ("state", "READY"), ("state", "DEALING")]
    assert not [a for a in s.alerts if a.severity is Severity.STOP]


def test_a_simulated_shufflers_cards_say_so_and_a_refused_card_names_the_shuffler(
        tmp_path: Path) -> None:
    s, _game = _session(tmp_path / "j.db")
    s.simulated.add("shuffler")
    sim = ShufflerSimulator(decks=DECKS, seed=3)
    asyncio.run(_deal(s, sim, 2))
    assert {d["source"] for d in _dealt(s)} == {"simulated"}
    s.perform(lambda st: pb.void_round(st, "test", "dealer"))
    from hardware import events as ev

    s.on_device_event(ev.CardRead(device="SHUF", seq=40, card=sim.read_cards[0]))
    refused = [r for r in _reports(s) if r[1] == "card_refused"]
    assert len(refused) == 1 and refused[0][0] == "SHUF"
    assert any(a.message.startswith("The shuffler dealt the") for a in s.alerts)


POINTS = [0, 1, 3, 5]


@pytest.mark.parametrize("after", POINTS)
def test_a_jam_mid_coup(tmp_path: Path, after: int) -> None:
    s, game = _session(tmp_path / "j.db")
    sim = ShufflerSimulator(decks=DECKS, seed=3, stops=ShufflerFaults(jam_after=after))
    asyncio.run(_deal(s, sim, 6))
    assert len(sim.dealt) == after and sim.stopped == "jam"
    assert _accounted(s) == [c.code for c in sim.read_cards]  # every card read is on record
    reports = _reports(s)
    assert reports[-2:] == [("SHUF", "fault", "JAM: card jam"), ("SHUF", "state", "IDLE")]
    assert game.told[-2:] == [("fault", "JAM: card jam"), ("state", "IDLE")]
    assert (("state", "DEALING") in game.told) == (after > 0)
    stop = [a.message for a in s.alerts if a.severity is Severity.STOP]
    assert stop == ["The shuffler reports a fault: JAM: card jam"]


@pytest.mark.parametrize("after", POINTS)
def test_a_damaged_card_mid_coup(tmp_path: Path, after: int) -> None:
    s, game = _session(tmp_path / "j.db")
    sim = ShufflerSimulator(decks=DECKS, seed=3, stops=ShufflerFaults(damaged_after=after))
    asyncio.run(_deal(s, sim, 6))
    assert len(sim.dealt) == after and sim.stopped == "damaged"
    assert _accounted(s) == [c.code for c in sim.read_cards]
    assert _reports(s)[-3:] == [("SHUF", "damaged", "1 damaged card(s)"),
                                ("SHUF", "fault", "DAMAGE: damaged card"),
                                ("SHUF", "state", "IDLE")]
    assert game.told[-3:] == [("damaged", "1 damaged card(s)"),
                              ("fault", "DAMAGE: damaged card"), ("state", "IDLE")]
    damaged = [a for a in s.alerts if a.message == "The shuffler found 1 damaged card(s)"]
    assert [a.way_forward for a in damaged] == [
        "Take the damaged cards out of play and replace them with cards from a new deck"]


@pytest.mark.parametrize("after", POINTS)
def test_a_power_loss_mid_coup(tmp_path: Path, after: int) -> None:
    s, game = _session(tmp_path / "j.db")
    sim = ShufflerSimulator(decks=DECKS, seed=3, stops=ShufflerFaults(power_loss_after=after))
    asyncio.run(_deal(s, sim, 6))
    assert len(sim.dealt) == after and sim.stopped == "power loss"
    assert _accounted(s) == [c.code for c in sim.read_cards]
    events = [(r[1], r[2]) for r in _reports(s)]
    offline = [i for i, e in enumerate(events) if e[0] == "offline"]
    assert len(offline) == 1  # silent: the link said so, once
    assert events[offline[0] + 1:] == [
        ("online", ""),
        ("restarted", "TABLESIDE-SHUF-SIM firmware 1.0 serial SIMSHUF01"),
        ("state", "IDLE")]
    assert game.told[-2:] == [
        ("restarted", "TABLESIDE-SHUF-SIM firmware 1.0 serial SIMSHUF01"), ("state", "IDLE")]
    warned = [a.message for a in s.alerts if a.severity is Severity.WARNING]
    assert "The shuffler is not answering" in warned and "The shuffler restarted" in warned


@pytest.mark.parametrize("cards", POINTS)
def test_a_wrong_count_takes_the_shufflers_cards_out_of_play(tmp_path: Path,
                                                             cards: int) -> None:
    s, game = _session(tmp_path / "j.db")
    wrong = 52 * DECKS - 1
    sim = ShufflerSimulator(decks=DECKS, seed=3, stops=ShufflerFaults(count=wrong))
    asyncio.run(_deal(s, sim, cards))
    detail = f"{wrong} cards counted, {52 * DECKS} in {DECKS} decks"
    assert ("SHUF", "count_wrong", detail) in _reports(s)
    assert ("count_wrong", detail) in game.told
    # Not one card of the shuffler's went to the coup; each is on record, refused.
    assert _dealt(s) == []
    refused = [r for r in _reports(s) if r[1] == "card_refused"]
    assert [r[2] for r in refused] == [f"{c.code}: {detail}" for c in sim.read_cards]
    assert _accounted(s) == [c.code for c in sim.read_cards]
    count = [a for a in s.alerts if a.message.startswith("The shuffler counted")]
    assert [(a.severity, a.message) for a in count] == [
        (Severity.STOP, f"The shuffler counted {wrong} cards; {DECKS} decks are "
                        f"{52 * DECKS}")]
    assert count[0].way_forward.startswith("Its cards are out of play")
    # Counted right after the cards were put right: in play again, and the coup is dealt.
    from hardware import events as ev

    s.on_device_event(ev.ShuffleCount(device="SHUF", seq=900, cards=52 * DECKS))
    assert "SHUF" not in s.out_of_play
    s.on_device_event(ev.CardRead(device="SHUF", seq=901, card=sim.shoe.deal()))
    assert len(_dealt(s)) == 1


EXPECTED_WORDS = {
    "af": ("Die skommeltoestel het 415 kaarte getel; 8 dekke is 416",
           "Sy kaarte is uit die spel: haal hulle almal uit"),
    "pt": ("O baralhador contou 415 cartas; 8 baralhos são 416",
           "As suas cartas estão fora de jogo: retire-as todas"),
    "zu": ("Umshini wokushova ubale amakhadi angu-415; amadekhi angu-8 angu-416",
           "Amakhadi awo akhishiwe emdlalweni: wakhiphe wonke"),
}


@pytest.mark.parametrize("code", sorted(EXPECTED_WORDS))
def test_the_wrong_counts_step_is_said_in_the_dealers_language(tmp_path: Path,
                                                               code: str) -> None:
    """What the dealer's screen shows for a wrong count (kiosk/ui/dealer/base.py says the
    alert's sentence and its way forward in the dealer's language)."""
    from hardware import events as ev
    from kiosk.i18n import said, say

    s, _game = _session(tmp_path / "j.db")
    s.on_device_event(ev.ShuffleCount(device="SHUF", seq=1, cards=52 * DECKS - 1))
    alert = s.alerts[-1]
    message, step = EXPECTED_WORDS[code]
    assert said(alert.sentence, alert.message, code=code) == message
    assert say(alert.way_forward, code=code).startswith(step)


def test_cards_out_of_play_stay_out_after_a_restart(tmp_path: Path) -> None:
    """The wrong count is on record: the table started again still refuses the shuffler's
    cards, until it counts right (folded from the journal, a snapshot's facts included)."""
    from hardware import events as ev
    from kiosk.rules.cards import Card
    from kiosk.table.snapshot import fold_journal, restore, take

    s, _game = _session(tmp_path / "j.db")
    s.on_device_event(ev.ShuffleCount(device="SHUF", seq=1, cards=52 * DECKS + 2))
    why = f"{52 * DECKS + 2} cards counted, {52 * DECKS} in {DECKS} decks"
    assert s.out_of_play == {"SHUF": why}
    s.journal.close()
    again, _game = _session_again(tmp_path / "j.db")
    assert again.out_of_play == {"SHUF": why}
    assert restore(take(fold_journal(again.journal))).facts.out_of_play == (("SHUF", why),)
    again.on_device_event(ev.CardRead(device="SHUF", seq=2, card=Card.parse("9H")))
    assert _dealt(again) == [] and _reports(again)[-1] == ("SHUF", "card_refused",
                                                           f"9H: {why}")
    again.on_device_event(ev.ShuffleCount(device="SHUF", seq=3, cards=52 * DECKS))
    assert again.out_of_play == {}
    again.on_device_event(ev.CardRead(device="SHUF", seq=4, card=Card.parse("9H")))
    assert [d["card"] for d in _dealt(again)] == ["9H"]


def _session_again(path: Path) -> tuple[TableSession[Any], Weighing]:
    game = Weighing()
    spec = dataclasses.replace(GAMES.get("punto-banco"), engine=game)
    return TableSession(spec, Journal.open(path, "PB-01"), RULES, "PB-01"), game
