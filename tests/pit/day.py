"""A day of play at a punto banco table, journaled: real coups through the engine (bets, no
more bets, cards from a seeded shoe, settlement), one durable transaction per coup."""

from __future__ import annotations

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.operations import Operation
from kiosk.shoe import SeededShoe
from kiosk.store.journal import Journal


class Day:
    """Plays coups onto `journal` from where the last call left off."""

    def __init__(self, journal: Journal, seed: int = 1) -> None:
        self.journal = journal
        self.rules = pb.PuntoBancoRules()
        self.state = pb.initial_state(self.rules, journal.table_id)
        self.seed = seed
        self.shoe = SeededShoe(8, seed)
        self.rounds = 0
        self.journal.append_many([self._do(pb.open_table(self.rules, journal.table_id))])

    def _do(self, op: Operation) -> tuple[str, dict[str, object]]:
        self.state = pb.apply(self.state, op)
        return op.kind, op.to_payload()

    def play(self, coups: int) -> int:
        """Play `coups` coups; the journal's head after them."""
        for _ in range(coups):
            rows = []
            if self.state.shoe is None or self.shoe.remaining < 6:
                self.seed += 1
                self.shoe = SeededShoe(8, self.seed)
                rows.append(self._do(pb.shuffle(self.state, "shuffler")))
            rows.append(self._do(pb.place_bet(self.state, "1", pb.BetKind.BANKER, 10_000)))
            rows.append(self._do(pb.place_bet(self.state, "2", pb.BetKind.PLAYER, 5_000)))
            rows.append(self._do(pb.close_betting(self.state)))
            while self.state.phase is pb.Phase.DEALING:
                rows.append(self._do(pb.shoe_card(self.state, self.shoe.deal())))
            rows.append(self._do(pb.confirm_payouts(self.state)))
            self.journal.append_many(rows)
            self.rounds += 1
        return self.journal.count()
