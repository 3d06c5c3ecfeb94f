"""A small driver for blackjack tests: every step goes through the engine's own actions and
`apply`, and every Operation is kept, so a test can also replay and compare."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card
from kiosk.rules.operations import Operation, operation_from_record


@dataclass
class Table:
    rules: BlackjackRules = field(default_factory=BlackjackRules)
    state: bj.BlackjackState = field(init=False)
    ops: list[Operation] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = bj.initial_state(self.rules, "BJ-T")
        self.do(lambda s: bj.open_table(self.rules, "BJ-T"))

    def do(self, action: Callable[[bj.BlackjackState], Operation]) -> Operation:
        op = action(self.state)
        # Every Operation must survive the journal's round trip unchanged.
        again = operation_from_record(op.kind, op.to_payload())
        assert again == op, (again, op)
        self.state = bj.apply(self.state, op)
        self.ops.append(op)
        return op

    def ready(self, cut_at: int = 0, from_back: int = 0, burn: str = "9S") -> Table:
        """Shuffle by hand, the first player cuts half way with the cutting card a quarter
        from the back (unless given), the first card burned (rules 4.1-4.7)."""
        size = 52 * self.rules.decks
        cut_at = cut_at or size // 2
        from_back = from_back or size // 4
        self.do(bj.shuffle)
        if not self.rules.shuffler:
            self.do(lambda s: bj.cut_cards(s, 1, cut_at, from_back))
        self.do(lambda s: bj.shoe_card(s, Card.parse(burn)))
        return self

    def bet(self, box: int, amount: int, player: str = "A") -> Table:
        self.do(lambda s: bj.place_bet(s, box, amount, player))
        return self

    def close(self) -> Table:
        self.do(bj.close_betting)
        return self

    def cards(self, codes: str) -> Table:
        """Cards from the shoe, in order ("TS 6H AD"); each must be dealt, not queried."""
        for code in codes.split():
            op = self.do(lambda s, c=code: bj.shoe_card(s, Card.parse(c)))
            assert isinstance(op, bj.CardDealt | bj.CardBurned), op
        return self

    def card(self, code: str) -> Operation:
        return self.do(lambda s: bj.shoe_card(s, Card.parse(code)))

    def stand(self) -> Table:
        self.do(bj.stand)
        return self

    def act(self, fn: Callable[..., Operation], *args: Any, **kwargs: Any) -> Operation:
        return self.do(lambda s: fn(s, *args, **kwargs))

    def settle(self) -> bj.RoundSettled:
        op = self.do(bj.confirm_payouts)
        assert isinstance(op, bj.RoundSettled)
        return op

    def replayed(self) -> bj.BlackjackState:
        state = bj.initial_state(self.rules, "BJ-T")
        for op in self.ops:
            state = bj.apply(state, operation_from_record(op.kind, op.to_payload()))
        return state


def nets(settled: bj.RoundSettled, earlier: bool = True) -> dict[tuple[int, int, str, str], int]:
    """(box, hand, player, kind) -> net win (+) or loss (-) in cents."""
    out: dict[tuple[int, int, str, str], int] = {}
    rows = (*settled.settlements, *(settled.paid_earlier if earlier else ()))
    for s in rows:
        key = (s.box, s.hand, s.player, s.kind.value)
        out[key] = out.get(key, 0) + s.net
    return out
