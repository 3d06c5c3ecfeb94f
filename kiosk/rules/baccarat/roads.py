"""The five punto banco roads on the players' signage, derived only from the coup results.

The approved rules are silent on roads: they are a display convention. Winners come from
rule 5.7 (a tie, "egalitie", stands off banker and player bets). We follow the convention
used in casinos (bead plate, big road, big eye boy, small road, cockroach pig):

- Grids are 6 rows deep (`ROWS`) and grow to the right without limit; the signage decides how
  many columns it shows (usually the newest ones).
- "col"/"row" are always grid positions for drawing; "logical_col"/"logical_row" are the run a
  mark belongs to and its depth in that run, which is what the derived roads read.

Entry point: `Roads.from_results(results)`; `Roads.add(result)` and `Roads.predict(winner)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from kiosk.rules.baccarat.outcomes import CoupResult, Winner

ROWS: Final = 6
"""Rows in every road's grid."""


class Colour(StrEnum):
    """A derived-road mark: RED the big road repeats its earlier shape, BLUE it does not."""

    RED = "red"
    BLUE = "blue"


class DerivedRoadKind(StrEnum):
    """The three derived roads; each compares the big road with the column `offset` back."""

    BIG_EYE_BOY = "big_eye_boy"
    SMALL_ROAD = "small_road"
    COCKROACH_PIG = "cockroach_pig"

    @property
    def offset(self) -> int:
        """How many columns back this road looks: 1, 2 or 3."""
        return _OFFSETS[self]


_OFFSETS: Final = {
    DerivedRoadKind.BIG_EYE_BOY: 1,
    DerivedRoadKind.SMALL_ROAD: 2,
    DerivedRoadKind.COCKROACH_PIG: 3,
}


# --- placement ---------------------------------------------------------------------------------


def _place(run_lengths: Iterable[int]) -> list[list[tuple[int, int]]]:
    """Grid (col, row) of every mark, run by run, with the big road's dragon-tail rule.

    A run starts at row 0 of the first grid column after the previous run's start column whose
    row 0 is free, and goes down until row 5 or an occupied cell; then it turns right and stays
    on that row (the dragon tail), even where the rows below free up again.
    """
    occupied: set[tuple[int, int]] = set()
    placed: list[list[tuple[int, int]]] = []
    start = -1
    for length in run_lengths:
        start += 1
        # Only a run that turned right at row 0 (the step below was already taken) can fill
        # row 0 to the right of its start; the next run then begins after that tail.
        while (start, 0) in occupied:
            start += 1
        col, row, turned = start, 0, False
        cells = [(col, row)]
        for _ in range(length - 1):
            if not turned and row + 1 < ROWS and (col, row + 1) not in occupied:
                row += 1
            else:
                # The cell to the right is always free: start columns only grow and every
                # earlier tail on this row is contiguous from its own start, so reaching it
                # would have blocked this run's descent first.
                turned = True
                col += 1
            cells.append((col, row))
        occupied.update(cells)
        placed.append(cells)
    return placed


# --- bead plate --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BeadCell:
    """One coup on the bead plate (ties included): `coup` counts from 0 in the shoe."""

    coup: int
    col: int
    row: int
    result: CoupResult

    @property
    def winner(self) -> Winner:
        return self.result.winner


@dataclass(frozen=True, slots=True)
class BeadPlate:
    """Every coup, one cell each, top to bottom in columns of 6, then left to right."""

    cells: tuple[BeadCell, ...]

    @classmethod
    def from_results(cls, results: Sequence[CoupResult]) -> BeadPlate:
        return cls(
            tuple(BeadCell(i, i // ROWS, i % ROWS, result) for i, result in enumerate(results))
        )

    @property
    def columns(self) -> tuple[tuple[BeadCell, ...], ...]:
        """The cells grouped by grid column (the last may hold fewer than 6)."""
        return tuple(self.cells[i : i + ROWS] for i in range(0, len(self.cells), ROWS))


# --- big road ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    """A banker or player win on the big road, with the ties drawn across it.

    `ties` are the tie coups marked on this cell: those that followed it before the next
    banker/player win, and, on the very first cell only, the leading ties of the shoe before it.
    Pair and natural flags are this cell's own coup; pairs in tie coups are in `ties`.
    """

    result: CoupResult
    ties: tuple[CoupResult, ...]
    logical_col: int
    logical_row: int
    col: int
    row: int

    @property
    def winner(self) -> Winner:
        return self.result.winner

    @property
    def tie_count(self) -> int:
        return len(self.ties)

    @property
    def player_pair(self) -> bool:
        return self.result.player_pair

    @property
    def banker_pair(self) -> bool:
        return self.result.banker_pair

    @property
    def natural(self) -> bool:
        return self.result.natural


@dataclass(frozen=True, slots=True)
class BigRoadColumn:
    """One logical column: a run of wins by the same side, however it is folded on the grid."""

    winner: Winner
    cells: tuple[BigRoadCell, ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def tie_count(self) -> int:
        return sum(cell.tie_count for cell in self.cells)


@dataclass(frozen=True, slots=True)
class BigRoad:
    """Banker (red) and player (blue) wins; a new column each time the winner changes.

    Ties take no cell: each is counted on the cell before it. Ties before the first banker or
    player win are kept in `leading_ties` and drawn on the first cell once there is one (until
    then the signage can show them alone). Long runs fold into dragon tails (see `_place`).
    """

    columns: tuple[BigRoadColumn, ...]
    leading_ties: tuple[CoupResult, ...]

    @classmethod
    def from_results(cls, results: Sequence[CoupResult]) -> BigRoad:
        wins: list[CoupResult] = []
        ties: list[list[CoupResult]] = []  # ties[i]: the ties drawn on wins[i]
        leading: list[CoupResult] = []
        for result in results:
            if result.winner is not Winner.TIE:
                wins.append(result)
                ties.append([])
            elif ties:
                ties[-1].append(result)
            else:
                leading.append(result)
        if ties:
            ties[0][:0] = leading

        runs: list[list[int]] = []  # indices into wins, grouped by run
        for i, result in enumerate(wins):
            if runs and wins[runs[-1][0]].winner is result.winner:
                runs[-1].append(i)
            else:
                runs.append([i])

        placed = _place(len(run) for run in runs)
        columns = tuple(
            BigRoadColumn(
                wins[run[0]].winner,
                tuple(
                    BigRoadCell(wins[i], tuple(ties[i]), c, r, col, row)
                    for r, (i, (col, row)) in enumerate(zip(run, cells, strict=True))
                ),
            )
            for c, (run, cells) in enumerate(zip(runs, placed, strict=True))
        )
        return cls(columns, tuple(leading))

    @property
    def cells(self) -> tuple[BigRoadCell, ...]:
        """Every cell in the order the coups came."""
        return tuple(cell for column in self.columns for cell in column.cells)

    @property
    def lengths(self) -> tuple[int, ...]:
        """Length of each logical column: all the derived roads need."""
        return tuple(column.length for column in self.columns)

    @property
    def tie_count(self) -> int:
        """All ties in the shoe so far, leading ones included."""
        if not self.columns:
            return len(self.leading_ties)
        return sum(column.tie_count for column in self.columns)


# --- derived roads -----------------------------------------------------------------------------


def derived_colour(lengths: Sequence[int], col: int, row: int, offset: int) -> Colour | None:
    """The mark a big road entry at logical (col, row) adds to the road looking `offset` back.

    None before that road starts: it starts at (offset, 1), or at (offset + 1, 0) when column
    `offset` holds one entry; earlier entries have nothing far enough back to compare with.
    A new column (row 0) compares the two columns `offset` apart just before it: equal lengths
    are RED. Deeper in a column, look at column col - offset: a cell at this row is RED, its
    column having ended exactly one row above is BLUE, and having ended earlier still is RED
    (that break was already marked BLUE when this column passed its end).
    Only finished columns are read, so `lengths` may be the current ones: a mark never changes.
    """
    if col < offset or (col == offset and row == 0):
        return None
    if row == 0:
        return Colour.RED if lengths[col - 1] == lengths[col - 1 - offset] else Colour.BLUE
    return Colour.BLUE if lengths[col - offset] == row else Colour.RED


@dataclass(frozen=True, slots=True)
class DerivedCell:
    """One mark on a derived road, and the big road entry (logical position) that made it."""

    colour: Colour
    source_col: int
    source_row: int
    logical_col: int
    logical_row: int
    col: int
    row: int


@dataclass(frozen=True, slots=True)
class DerivedColumn:
    """A run of marks of one colour: one logical column of a derived road."""

    colour: Colour
    cells: tuple[DerivedCell, ...]

    @property
    def length(self) -> int:
        return len(self.cells)


@dataclass(frozen=True, slots=True)
class DerivedRoad:
    """Big eye boy, small road or cockroach pig (see `derived_colour`).

    Built from the big road's logical columns, not its folded grid, then placed on its own
    6-row grid with the big road's rule: a new column on each change of colour, dragon tails.
    Drawn as hollow circles, filled dots and slashes respectively.
    """

    kind: DerivedRoadKind
    columns: tuple[DerivedColumn, ...]

    @classmethod
    def from_big_road(cls, big_road: BigRoad, kind: DerivedRoadKind) -> DerivedRoad:
        lengths = big_road.lengths
        marks: list[tuple[Colour, int, int]] = []
        for cell in big_road.cells:
            colour = derived_colour(lengths, cell.logical_col, cell.logical_row, kind.offset)
            if colour is not None:
                marks.append((colour, cell.logical_col, cell.logical_row))

        runs: list[list[tuple[Colour, int, int]]] = []
        for mark in marks:
            if runs and runs[-1][0][0] is mark[0]:
                runs[-1].append(mark)
            else:
                runs.append([mark])

        placed = _place(len(run) for run in runs)
        columns = tuple(
            DerivedColumn(
                run[0][0],
                tuple(
                    DerivedCell(colour, src_col, src_row, c, r, col, row)
                    for r, ((colour, src_col, src_row), (col, row)) in enumerate(
                        zip(run, cells, strict=True)
                    )
                ),
            )
            for c, (run, cells) in enumerate(zip(runs, placed, strict=True))
        )
        return cls(kind, columns)

    @property
    def cells(self) -> tuple[DerivedCell, ...]:
        """Every mark in the order it was made."""
        return tuple(cell for column in self.columns for cell in column.cells)

    @property
    def colours(self) -> tuple[Colour, ...]:
        return tuple(cell.colour for cell in self.cells)


# --- all five ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prediction:
    """What one more win by `winner` would add to each derived road (None: nothing yet).

    The signage shows this beside "banker" and "player" so players can read ahead.
    """

    winner: Winner
    big_eye_boy: Colour | None
    small_road: Colour | None
    cockroach_pig: Colour | None


@dataclass(frozen=True, slots=True)
class Roads:
    """The five roads for one shoe, derived purely from its coup results in order."""

    results: tuple[CoupResult, ...]
    bead_plate: BeadPlate
    big_road: BigRoad
    big_eye_boy: DerivedRoad
    small_road: DerivedRoad
    cockroach_pig: DerivedRoad

    @classmethod
    def from_results(cls, results: Iterable[CoupResult]) -> Roads:
        results = tuple(results)
        big_road = BigRoad.from_results(results)
        return cls(
            results,
            BeadPlate.from_results(results),
            big_road,
            DerivedRoad.from_big_road(big_road, DerivedRoadKind.BIG_EYE_BOY),
            DerivedRoad.from_big_road(big_road, DerivedRoadKind.SMALL_ROAD),
            DerivedRoad.from_big_road(big_road, DerivedRoadKind.COCKROACH_PIG),
        )

    def add(self, result: CoupResult) -> Roads:
        """The roads after one more coup.

        Recomputed from all results: a shoe holds about 80 coups, so this costs well under a
        millisecond and cannot drift from `from_results`.
        """
        return Roads.from_results((*self.results, result))

    def predict(self, winner: Winner) -> Prediction:
        """The derived marks the next coup would add if `winner` won it (none for a tie)."""
        if winner is Winner.TIE:
            return Prediction(winner, None, None, None)
        lengths = self.big_road.lengths
        columns = self.big_road.columns
        if columns and columns[-1].winner is winner:
            col, row = len(columns) - 1, lengths[-1]
        else:
            col, row = len(columns), 0
        # Only columns before `col` are read, so the current lengths serve as they are.
        return Prediction(
            winner,
            derived_colour(lengths, col, row, DerivedRoadKind.BIG_EYE_BOY.offset),
            derived_colour(lengths, col, row, DerivedRoadKind.SMALL_ROAD.offset),
            derived_colour(lengths, col, row, DerivedRoadKind.COCKROACH_PIG.offset),
        )
