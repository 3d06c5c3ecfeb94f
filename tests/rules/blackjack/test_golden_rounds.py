"""Golden blackjack rounds (tests/rules/golden/blackjack/): every clause of sections 4 and 7
that moves money, stepped through the engine and checked against hand-worked results."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.rules.blackjack.golden import golden_names, load, money, run


@pytest.mark.parametrize("name", golden_names())
def test_golden_round(name: str) -> None:
    golden = load(name)
    table, settled = run(golden)
    assert settled, "the round must be settled"
    got = {k: Decimal(v) for k, v in money(settled).items()}
    want = {k: Decimal(v) for k, v in golden["expect"].items()}
    assert got == want
    # Replaying the journal lands in the same state (docs/architecture.md: state is a fold).
    assert table.replayed() == table.state


def test_every_golden_file_names_its_clauses() -> None:
    names = golden_names()
    assert len(names) >= 15
    for name in names:
        assert load(name)["clauses"], name
