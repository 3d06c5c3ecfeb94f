"""The result of a punto banco coup as the roads and the signage read it (rules 5.2, 5.7)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Winner(StrEnum):
    BANKER = "banker"
    PLAYER = "player"
    TIE = "tie"  # rule 5.7: "egalitie", a stand off for banker and player bets


@dataclass(frozen=True, slots=True)
class CoupResult:
    """One finished coup: who won, both totals, and whether either hand held a pair."""

    winner: Winner
    player_total: int
    banker_total: int
    player_pair: bool = False
    banker_pair: bool = False
    natural: bool = False
