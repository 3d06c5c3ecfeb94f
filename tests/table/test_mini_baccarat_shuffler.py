"""Mini baccarat dealt by a shuffler over a real pseudo-terminal (the shuffler simulator's
bytes read by its own protocol through `SerialLink`): its jam or a damaged card at every
point of a coup (before the first card, after 1, 3 and 5 cards) stops the coup the rules'
way (rule 12.1.2), and the procedure takes it on; a card it still pushes out is refused on
record, never dealt."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import pytest

from hardware.simulators.shuffler import ShufflerFaults, ShufflerSimulator
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.table.test_shuffler_deals import POINTS, _deal

RULES = mb.MiniBaccaratRules()


def _session(path: Path) -> TableSession[Any]:
    clock = itertools.count(0, 100)  # every report its own row: none coalesced
    s: TableSession[Any] = TableSession(mb.MiniBaccarat(), Journal.open(path, "MB-01"), RULES,
                                        "MB-01", clock=lambda: float(next(clock)))
    s.dealing_device = "SHUF"
    s.perform(lambda st: mb.shuffle(st, "shuffler"))
    s.perform(lambda st: mb.place_bet(st, "1", mb.BetKind.BANKER, 10_000))
    s.perform(lambda st: mb.place_bet(st, "5", mb.BetKind.PLAYER, 5_000))
    s.perform(mb.close_betting)
    return s


def _stops(s: TableSession[Any]) -> list[dict[str, Any]]:
    return [e.payload for e in s.journal.entries()
            if e.kind == "mini_baccarat.shuffler_malfunctioned"]


@pytest.mark.parametrize("fault", ["jam", "damaged"])
@pytest.mark.parametrize("after", POINTS)
def test_a_shuffler_fault_at_every_point_of_a_coup(tmp_path: Path, after: int,
                                                   fault: str) -> None:
    s = _session(tmp_path / "j.db")
    stops = (ShufflerFaults(jam_after=after) if fault == "jam"
             else ShufflerFaults(damaged_after=after))
    sim = ShufflerSimulator(decks=RULES.decks, seed=3, stops=stops)
    asyncio.run(_deal(s, sim, 6))
    state = s.state
    dealt = len(state.player_cards) + len(state.banker_cards)
    assert dealt == min(after, len(sim.dealt))
    records = _stops(s)
    assert state.phase is mb.Phase.DEALING  # seed 3: five cards do not complete the coup
    # Rule 12.1.2: the coup stops where it was; the shuffler's own report says who saw it.
    assert len(records) == 1, records
    (stop,) = records
    assert stop["cards_dealt"] == dealt == after
    assert stop["by"] == {"role": "device", "name": "shuffler", "badge": ""}
    assert stop["detail"] == ("JAM: card jam" if fault == "jam" else "1 damaged card(s)")
    assert state.stopped
    if after == 0:  # no card dealt: no procedure, another device (rule 12.1.2)
        assert mb.where(state) == mb.Where(mb.Step.CONTINUE)
        assert "rule 12.1.2" in s.next_step()
    else:
        assert s.next_step() == ("Shuffler malfunction: are any cards in it damaged? "
                                 "(rule 12.3)")
    # The bets stay on the layout until the procedure decides (rules 12.2-12.5).
    assert [(b.area, b.amount) for b in state.bets] == [("1", 10_000), ("5", 5_000)]
    s.journal.close()


def test_a_card_pushed_out_while_the_procedure_holds_the_coup_offers_no_void(
        tmp_path: Path) -> None:
    """The coup the malfunction procedure holds ends only by it (rule 12.4): the alert for a
    card the broken shuffler still pushes out says only what the game allows."""
    from hardware import events as ev
    from kiosk.rules.cards import Card

    s = _session(tmp_path / "j.db")
    sim = ShufflerSimulator(decks=RULES.decks, seed=3, stops=ShufflerFaults(jam_after=3))
    asyncio.run(_deal(s, sim, 6))
    assert s.state.stopped and not mb.can_void_round(s.state, "jammed")
    before = s.alerts_raised
    s.on_device_event(ev.CardRead(device="SHUF", seq=10_000, card=Card.parse("9C")))
    assert s.alerts_raised == before + 1
    alert = s.alerts[-1]
    assert alert.message.startswith("The shuffler dealt the nine of clubs but ")
    assert alert.way_forward == "Put the card aside and call the inspector"
    assert [e.payload["detail"] for e in s.journal.entries()
            if e.kind == "device_report" and e.payload["event"] == "card_refused"] == [
        "9C: The shuffler malfunction stops the coup (rule 12.1)"]
    s.journal.close()
