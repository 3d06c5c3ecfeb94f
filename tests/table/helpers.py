"""Shared set-up for table tests: a punto banco session on a real journal file."""

from __future__ import annotations

from pathlib import Path

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession

RULES = pb.PuntoBancoRules(chips=ChipRule(500))
Session = TableSession[pb.PuntoBancoState]


def open_session(path: Path, rules: pb.PuntoBancoRules = RULES) -> Session:
    return TableSession(pb.PuntoBanco(), Journal.open(path, "PB-01"), rules, "PB-01")


def cards(*codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes]


def kinds(session: Session) -> list[str]:
    return [e.kind for e in session.journal.entries()]
