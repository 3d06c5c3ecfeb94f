"""Mini baccarat coups played through the real table session: bets by the dealer's acts, the
cards and the shuffler's fault as the devices' events (`hardware.events`), each branch of the
malfunction procedure (rules 12.2-12.5) by the decisions of the dealer and the inspector.
`python -m tests.mini_baccarat.play OUT_DIR` writes the golden journals (tests/golden_journals/
mb_*.jsonl) this way."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

from hardware import events as ev
from kiosk.rules.cards import Card
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.rules.registry import game
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession

THANDI = mb.inspector("Thandi Mokoena", "4411")
BRANCHES = ("transfer", "replace", "terminate", "shoe")
_seq = itertools.count(1)


def open_session(path: Path, rules: mb.MiniBaccaratRules | None = None) -> TableSession[Any]:
    return TableSession(game("mini-baccarat"), Journal.open(path, "MB-01"),
                        rules or mb.MiniBaccaratRules(), "MB-01")


def card(session: TableSession[Any], code: str) -> None:
    session.on_device_event(ev.CardRead(device="SHOE", seq=next(_seq), card=Card.parse(code)))


def fault(session: TableSession[Any], text: str = "card path blocked") -> None:
    session.on_device_event(ev.ShufflerFault(device="SHUFFLER", seq=next(_seq),
                                             code=ev.FaultCode.JAM, text=text))


def bets(session: TableSession[Any]) -> None:
    session.perform(lambda s: mb.place_bet(s, "1", mb.BetKind.BANKER, 10_000))
    session.perform(lambda s: mb.place_bet(s, "3", mb.BetKind.PLAYER, 5_000))
    session.perform(lambda s: mb.place_bet(s, "3", mb.BetKind.TIE, 1_000))
    session.perform(lambda s: mb.place_bet(s, "6", mb.BetKind.BANKER, 2_500 * 3 + 500))
    session.perform(mb.close_betting)


def deal_out(session: TableSession[Any], codes: str) -> None:
    """Cards from the device until the drawing table is done (rule 5.2)."""
    for code in codes.split():
        if session.state.phase is not mb.Phase.DEALING:
            break
        card(session, code)
    assert session.state.phase is mb.Phase.PAYING, session.next_step()


def plain_coup(session: TableSession[Any], codes: str) -> None:
    bets(session)
    deal_out(session, codes)
    session.perform(mb.confirm_payouts)


def act(session: TableSession[Any], fn: Any, *args: Any) -> None:
    session.perform(lambda s: fn(s, *args))


def malfunction(session: TableSession[Any], branch: str) -> None:
    """A coup the shuffler stops after three cards; the procedure as `branch` has it."""
    bets(session)
    for code in ["4H", "2S", "3D"]:
        card(session, code)
    fault(session)
    assert session.state.stopped, session.next_step()
    damaged = branch == "replace" or branch == "shoe"
    act(session, mb.establish_fact, mb.Fact.DAMAGED, damaged, mb.DEALER)
    act(session, mb.establish_fact, mb.Fact.DISADVANTAGED, branch == "terminate", THANDI)
    if branch == "terminate":
        act(session, mb.terminate_coup, THANDI)
        return
    act(session, mb.establish_fact, mb.Fact.SPARE, True, THANDI)
    act(session, mb.establish_fact, mb.Fact.TRANSFERABLE, branch != "shoe", mb.DEALER)
    if branch == "transfer":  # rule 12.2
        act(session, mb.transfer_cards, mb.DEALER)
    elif branch == "replace":  # rule 12.3
        act(session, mb.remove_damaged_cards, (Card.parse("QS"), Card.parse("7H")), mb.DEALER)
        act(session, mb.transfer_cards, mb.DEALER)
        act(session, mb.replace_damaged_cards, THANDI)
    else:  # rule 12.5
        act(session, mb.offer_wager_back, "1", True, mb.DEALER)
        act(session, mb.offer_wager_back, "3", False, mb.DEALER)
        act(session, mb.offer_wager_back, "6", False, mb.DEALER)
        act(session, mb.remove_damaged_cards, (Card.parse("9C"),), THANDI)
        act(session, mb.replace_damaged_cards, THANDI)
        act(session, mb.reshuffle_cards, mb.DEALER)
        act(session, mb.refuse_cut, 6)
        act(session, mb.cut_cards, 3, 200, 60)
    act(session, mb.continue_coup, mb.DEALER)
    deal_out(session, "8C 5D KH 2H")
    session.perform(mb.confirm_payouts)


def play(path: Path, branch: str) -> Path:
    """Three coups: one plain, one the shuffler stops (`branch`), one plain after it."""
    session = open_session(path)
    session.perform(lambda s: mb.shuffle(s, "shuffler"))
    plain_coup(session, "9H 5S KD 2C")
    malfunction(session, branch)
    plain_coup(session, "6D 7C 3S 4C 5H TD")
    session.journal.close()
    return path


def main(out: Path) -> None:
    for branch in BRANCHES:
        db = out / f"mb_{branch}.db"
        db.unlink(missing_ok=True)
        play(db, branch)
        name = Path("tests/golden_journals") / f"mb_{branch}"
        tableside = str(Path(sys.executable).with_name("tableside"))
        subprocess.run([tableside, "journal", "export", str(db), "-o", f"{name}.jsonl"],
                       check=True)
        with open(f"{name}.replay.json", "w") as fh:
            subprocess.run([tableside, "replay", f"{name}.jsonl", "--json"], check=True,
                           stdout=fh)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
