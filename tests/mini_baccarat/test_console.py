"""Mini baccarat's typed console: the malfunction procedure by typed commands, each decision
with who made it, through the real table session (the console's `command`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware import events as ev
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui.games.mini_baccarat import CONSOLE_HELP, command, describe, status_text


def test_rule_12_3_typed_from_the_fault_to_the_coup_settled(tmp_path: Path) -> None:
    s: TableSession[mb.MiniBaccaratState] = TableSession(
        mb.MiniBaccarat(), Journal.open(tmp_path / "j.db", "MB-01"), mb.MiniBaccaratRules(),
        "MB-01")

    def typed(line: str) -> None:
        action = command(line)
        assert action is not None, line
        s.perform(action)

    for line in ("shuffle shuffler", "bet 1 banker 100", "bet 2 player 60",
                 "remove 2 player 10", "close"):
        typed(line)
    for n, code in enumerate(("4H", "2S", "3D"), start=1):
        s.on_device_event(ev.CardRead(device="SHOE", seq=n, card=Card.parse(code)))
    for line in ("fault jam at the exit", "fact damaged yes",
                 "fact disadvantaged no by inspector Thandi Mokoena 4411",
                 "fact spare yes by inspector Thandi Mokoena 4411",
                 "fact transferable yes", "remove QS 7H", "transfer",
                 "replace by inspector Thandi Mokoena 4411"):
        typed(line)
    assert "Facts: damaged yes, disadvantaged no, spare yes, transferable yes. Rule: 12.3" \
        in status_text(s)
    typed("continue")
    s.on_device_event(ev.CardRead(device="SHOE", seq=4, card=Card.parse("5C")))
    assert s.state.phase is mb.Phase.PAYING
    settled = s.perform(mb.confirm_payouts)
    assert describe(settled, s.state).splitlines()[0].startswith("Coup 1: Player 4H 3D (7)")
    rows = {e.kind: e.payload for e in s.journal.entries()}
    assert rows["mini_baccarat.damaged_cards_removed"]["cards"] == ["QS", "7H"]
    assert rows["mini_baccarat.damaged_cards_replaced"]["by"] == {
        "role": "inspector", "name": "Thandi Mokoena", "badge": "4411"}
    s.journal.close()


def test_a_mistyped_decision_says_why() -> None:
    with pytest.raises(NotAllowed, match="yes or no"):
        command("fact damaged maybe")
    with pytest.raises(NotAllowed, match="by inspector NAME BADGE"):
        command("transfer by inspector")
    assert "fault DETAIL" in CONSOLE_HELP and "status | help | quit" in CONSOLE_HELP


def test_the_odds_are_punto_bancos() -> None:
    from click.testing import CliRunner

    from kiosk.cli import main

    mini = CliRunner().invoke(main, ["odds", "mini-baccarat", "--decks", "1", "--json"])
    punto = CliRunner().invoke(main, ["odds", "punto-banco", "--decks", "1", "--json"])
    assert mini.exit_code == 0 and mini.output == punto.output
    assert '"house_edge"' in mini.output
