"""The five punto banco roads: hand-worked shoes and properties (kiosk/rules/baccarat/roads.py).

Results are written as letters: B banker, P player, T tie (rule 5.7, "egalitie").
Positions are (col, row) on the grid, or (logical col, row in the run) where so named.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings, strategies as st

from kiosk.rules.baccarat.outcomes import CoupResult, Winner
from kiosk.rules.baccarat.roads import (
    ROWS,
    BigRoad,
    Colour,
    DerivedRoad,
    DerivedRoadKind,
    Prediction,
    Roads,
)

R, U = Colour.RED, Colour.BLUE  # U for blUe: B already means banker here
_TOTALS = {Winner.BANKER: (4, 7), Winner.PLAYER: (7, 4), Winner.TIE: (6, 6)}
_LETTERS = {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}


def coup(letter: str, *, player_pair: bool = False, banker_pair: bool = False) -> CoupResult:
    winner = _LETTERS[letter]
    player_total, banker_total = _TOTALS[winner]
    return CoupResult(winner, player_total, banker_total, player_pair, banker_pair)


def coups(letters: str) -> list[CoupResult]:
    return [coup(letter) for letter in letters.replace(" ", "")]


def roads(letters: str) -> Roads:
    return Roads.from_results(coups(letters))


def colours(marks: str) -> tuple[Colour, ...]:
    return tuple(R if m == "R" else U for m in marks.replace(" ", ""))


def grid(road: BigRoad | DerivedRoad) -> list[list[tuple[int, int]]]:
    return [[(cell.col, cell.row) for cell in column.cells] for column in road.columns]


def down(col: int, rows: range) -> list[tuple[int, int]]:
    return [(col, row) for row in rows]


def right(row: int, cols: range) -> list[tuple[int, int]]:
    return [(col, row) for col in cols]


# --- bead plate --------------------------------------------------------------------------------


def test_bead_plate_fills_columns_of_six_top_to_bottom_ties_included() -> None:
    results = coups("BPTBB PTP")
    results[4] = coup("B", banker_pair=True)
    shoe = Roads.from_results([])
    for result in results:  # one coup at a time, as the signage receives them
        shoe = shoe.add(result)
    cells = shoe.bead_plate.cells
    assert [(c.coup, c.col, c.row) for c in cells] == [
        (0, 0, 0), (1, 0, 1), (2, 0, 2), (3, 0, 3), (4, 0, 4), (5, 0, 5),
        (6, 1, 0), (7, 1, 1),
    ]
    assert [c.result for c in cells] == results
    assert cells[2].winner is Winner.TIE
    assert cells[4].result.banker_pair
    assert [len(column) for column in shoe.bead_plate.columns] == [6, 2]


# --- big road: ties ----------------------------------------------------------------------------


def test_ties_mark_the_cell_before_and_leading_ties_go_on_the_first_cell() -> None:
    # T T | B T T T | P | P T | B
    # Two leading ties wait for the first win and are drawn on it with the three after it.
    road = roads("TT BTTT P PT B").big_road
    assert len(road.leading_ties) == 2
    assert grid(road) == [[(0, 0)], [(1, 0), (1, 1)], [(2, 0)]]
    assert [[cell.tie_count for cell in column.cells] for column in road.columns] == [
        [5], [0, 1], [0],
    ]
    assert [column.tie_count for column in road.columns] == [5, 1, 0]
    assert road.tie_count == 6


def test_ties_alone_make_no_cell_but_are_counted() -> None:
    result = roads("TTT")
    assert result.big_road.columns == ()
    assert len(result.big_road.leading_ties) == 3
    assert result.big_road.tie_count == 3
    assert len(result.bead_plate.cells) == 3
    assert result.big_eye_boy.cells == result.small_road.cells == result.cockroach_pig.cells == ()


def test_a_tie_does_not_break_a_run() -> None:
    road = roads("B T B TT B").big_road
    assert road.lengths == (3,)
    assert [cell.tie_count for cell in road.cells] == [1, 2, 0]


def test_pairs_and_naturals_stay_with_their_own_coup() -> None:
    tie_with_pair = coup("T", player_pair=True)
    road = Roads.from_results(
        [coup("B", banker_pair=True), tie_with_pair, coup("P", player_pair=True)]
    ).big_road
    first, second = road.cells
    assert first.banker_pair and not first.player_pair
    assert first.ties == (tie_with_pair,)  # its pair is kept for the signage to draw
    assert second.player_pair and not second.banker_pair
    assert second.winner is Winner.PLAYER


# --- big road: dragon tails --------------------------------------------------------------------


def test_dragon_turns_right_at_the_bottom_and_blocks_the_next_run() -> None:
    # 8 banker: down column 0 to row 5, then a tail along row 5 into columns 1 and 2.
    # 7 player: starts at column 1, stops at row 4 above the tail, tail along row 4 to col 3.
    # 2 banker: column 2 from row 0 (rows 0-1 are free above both tails).
    # 1 player: column 3.  5 banker: column 4, rows 0-4, nothing in the way.
    road = roads("BBBBBBBB PPPPPPP BB P BBBBB").big_road
    assert road.lengths == (8, 7, 2, 1, 5)
    assert grid(road) == [
        down(0, range(6)) + right(5, range(1, 3)),
        down(1, range(5)) + right(4, range(2, 4)),
        down(2, range(2)),
        [(3, 0)],
        down(4, range(5)),
    ]
    assert [(c.logical_col, c.logical_row) for c in road.columns[0].cells] == [
        (0, r) for r in range(8)
    ]


def test_staircase_of_dragons_pushes_a_run_past_a_tail_on_row_zero() -> None:
    # Runs of 7, 6, 5, 4, 3, 2, 1: each stops one row higher on the tail before it.
    # The run of 2 starts at (5, 0) with (5, 1) taken, so its tail lies on row 0 at (6, 0);
    # the last run cannot start there and begins at column 7.
    road = roads("BBBBBBB PPPPPP BBBBB PPPP BBB PP B").big_road
    assert grid(road) == [
        [*down(0, range(6)), (1, 5)],
        [*down(1, range(5)), (2, 4)],
        [*down(2, range(4)), (3, 3)],
        [*down(3, range(3)), (4, 2)],
        [*down(4, range(2)), (5, 1)],
        [(5, 0), (6, 0)],
        [(7, 0)],
    ]


def test_tail_stays_on_its_row_after_the_blocking_tail_ends() -> None:
    # 7 banker: (0,0..5), tail (1,5).  9 player: column 1 rows 0-4, then right along row 4
    # through columns 2-5 although (2,5) onwards are free again.
    road = roads("BBBBBBB PPPPPPPPP").big_road
    assert grid(road)[1] == down(1, range(5)) + right(4, range(2, 6))


# --- derived roads: where each starts ----------------------------------------------------------


@pytest.mark.parametrize(
    ("letters", "kind", "first_source", "first_colour"),
    [
        # Column 1 has two entries: big eye boy starts at (1, 1); column 0 ended at row 1: BLUE.
        ("B PP", DerivedRoadKind.BIG_EYE_BOY, (1, 1), U),
        # Column 1 has one entry: starts at (2, 0); columns 1 and 0 are both 1 long: RED.
        ("B P B", DerivedRoadKind.BIG_EYE_BOY, (2, 0), R),
        # Column 2 has two entries: small road starts at (2, 1); column 0 ended at row 1: BLUE.
        ("B P BB", DerivedRoadKind.SMALL_ROAD, (2, 1), U),
        # Column 2 has one entry: starts at (3, 0); columns 2 and 0 both 1 long: RED.
        ("B P B P", DerivedRoadKind.SMALL_ROAD, (3, 0), R),
        # Column 3 has two entries: cockroach pig starts at (3, 1); column 0 has a row 1: RED.
        ("BB P B PP", DerivedRoadKind.COCKROACH_PIG, (3, 1), R),
        # Column 3 has one entry: starts at (4, 0); columns 3 (1 long) and 0 (2 long): BLUE.
        ("BB P B P B", DerivedRoadKind.COCKROACH_PIG, (4, 0), U),
    ],
)
def test_each_derived_road_starts_where_the_convention_says(
    letters: str, kind: DerivedRoadKind, first_source: tuple[int, int], first_colour: Colour
) -> None:
    full = roads(letters)
    road = DerivedRoad.from_big_road(full.big_road, kind)
    first = road.cells[0]
    assert (first.source_col, first.source_row) == first_source
    assert first.colour is first_colour
    assert (first.col, first.row) == (0, 0)
    # One result fewer and the road is still empty.
    assert DerivedRoad.from_big_road(roads(letters[:-1]).big_road, kind).cells == ()


def test_roads_not_started_while_big_road_is_short() -> None:
    result = roads("BBBBBB P")  # one long column and one of length 1
    assert result.big_eye_boy.cells == ()
    assert result.small_road.cells == ()
    assert result.cockroach_pig.cells == ()


# --- a whole shoe worked by hand ---------------------------------------------------------------

# Coups 1-22: B B P T B B B P P B P P P P T T B B P B B P
# Big road logical columns (ties drawn on coups 3 and 14):
#   col:    0  1  2  3  4  5  6  7  8  9
#   winner: B  P  B  P  B  P  B  P  B  P
#   length: 2  1  3  2  1  4  2  1  2  1
# Entries in order: (0,0) (0,1) (1,0) (2,0) (2,1) (2,2) (3,0) (3,1) (4,0) (5,0) (5,1) (5,2)
#                   (5,3) (6,0) (6,1) (7,0) (8,0) (8,1) (9,0)                   19 entries
#
# Big eye boy (k=1): column 1 has one entry, so it starts at (2,0).
#   (2,0) len c1=1 vs c0=2 differ      U     (2,1) c1 len 1 == row 1      U
#   (2,2) c1 len 1 < 2                 R     (3,0) c2=3 vs c1=1           U
#   (3,1) c2 len 3 > 1                 R     (4,0) c3=2 vs c2=3           U
#   (5,0) c4=1 vs c3=2                 U     (5,1) c4 len 1 == 1          U
#   (5,2) c4 len 1 < 2                 R     (5,3) c4 len 1 < 3           R
#   (6,0) c5=4 vs c4=1                 U     (6,1) c5 len 4 > 1           R
#   (7,0) c6=2 vs c5=4                 U     (8,0) c7=1 vs c6=2           U
#   (8,1) c7 len 1 == 1                U     (9,0) c8=2 vs c7=1           U
#   16 marks = 19 - 3 entries before (2,0).
#
# Small road (k=2): column 2 has three entries, so it starts at (2,1).
#   (2,1) c0 len 2 > 1                 R     (2,2) c0 len 2 == 2          U
#   (3,0) c2=3 vs c0=2                 U     (3,1) c1 len 1 == 1          U
#   (4,0) c3=2 vs c1=1                 U     (5,0) c4=1 vs c2=3           U
#   (5,1) c3 len 2 > 1                 R     (5,2) c3 len 2 == 2          U
#   (5,3) c3 len 2 < 3                 R     (6,0) c5=4 vs c3=2           U
#   (6,1) c4 len 1 == 1                U     (7,0) c6=2 vs c4=1           U
#   (8,0) c7=1 vs c5=4                 U     (8,1) c6 len 2 > 1           R
#   (9,0) c8=2 vs c6=2                 R
#   15 marks = 19 - 4.
#
# Cockroach pig (k=3): column 3 has two entries, so it starts at (3,1).
#   (3,1) c0 len 2 > 1                 R     (4,0) c3=2 vs c0=2           R
#   (5,0) c4=1 vs c1=1                 R     (5,1) c2 len 3 > 1           R
#   (5,2) c2 len 3 > 2                 R     (5,3) c2 len 3 == 3          U
#   (6,0) c5=4 vs c2=3                 U     (6,1) c3 len 2 > 1           R
#   (7,0) c6=2 vs c3=2                 R     (8,0) c7=1 vs c4=1           R
#   (8,1) c5 len 4 > 1                 R     (9,0) c8=2 vs c5=4           U
#   12 marks = 19 - 7.
#
# Next banker would open column 10: c9=1 vs c8=2 U, vs c7=1 R, vs c6=2 U.
# Next player would be (9,1): c8 len 2 > 1 R, c7 len 1 == 1 U, c6 len 2 > 1 R.
SHOE = "BBPT BBBPP BPPPPTT BBPBBP"


def test_whole_shoe_big_road() -> None:
    road = roads(SHOE).big_road
    assert road.lengths == (2, 1, 3, 2, 1, 4, 2, 1, 2, 1)
    assert [c.winner for c in road.columns] == [Winner.BANKER, Winner.PLAYER] * 5
    assert [(c.logical_col, c.logical_row) for c in road.cells if c.tie_count] == [(1, 0), (5, 3)]
    assert road.columns[5].cells[3].tie_count == 2
    assert road.leading_ties == ()


def test_whole_shoe_big_eye_boy() -> None:
    road = roads(SHOE).big_eye_boy
    assert road.colours == colours("UURURUUURRURUUUU")
    assert [(c.source_col, c.source_row) for c in road.cells][:3] == [(2, 0), (2, 1), (2, 2)]
    # Runs UU R U R UUU RR U R UUUU, one grid column each, none deeper than 6.
    assert grid(road) == [
        down(0, range(2)), [(1, 0)], [(2, 0)], [(3, 0)], down(4, range(3)),
        down(5, range(2)), [(6, 0)], [(7, 0)], down(8, range(4)),
    ]
    assert [(c.logical_col, c.logical_row) for c in road.columns[4].cells] == [
        (4, 0), (4, 1), (4, 2),
    ]


def test_whole_shoe_small_road() -> None:
    road = roads(SHOE).small_road
    assert road.colours == colours("RUUUUURURUUUURR")
    # Runs R UUUUU R U R UUUU RR.
    assert grid(road) == [
        [(0, 0)], down(1, range(5)), [(2, 0)], [(3, 0)], [(4, 0)], down(5, range(4)),
        down(6, range(2)),
    ]


def test_whole_shoe_cockroach_pig() -> None:
    road = roads(SHOE).cockroach_pig
    assert road.colours == colours("RRRRRUURRRRU")
    # Runs RRRRR UU RRRR U.
    assert grid(road) == [down(0, range(5)), down(1, range(2)), down(2, range(4)), [(3, 0)]]


def test_whole_shoe_predictions() -> None:
    shoe = roads(SHOE)
    assert shoe.predict(Winner.BANKER) == Prediction(Winner.BANKER, U, R, U)
    assert shoe.predict(Winner.PLAYER) == Prediction(Winner.PLAYER, R, U, R)
    assert shoe.predict(Winner.TIE) == Prediction(Winner.TIE, None, None, None)


def test_derived_road_folds_a_long_run_into_a_dragon_tail() -> None:
    # B P B P B P B P B: columns all 1 long; from (2,0) each new column compares equal
    # lengths: 7 reds, one run of 7 -> (0,0..5) then (1,5).
    road = roads("BPBPBPBPB").big_eye_boy
    assert road.colours == (R,) * 7
    assert grid(road) == [[*down(0, range(6)), (1, 5)]]


# --- readings players rely on ------------------------------------------------------------------


@pytest.mark.parametrize("letters", ["BPBPBPBPBPBPBP", "BBPPBBPPBBPPBBPP", "BBBPPPBBBPPPBBB"])
def test_a_repeating_shoe_is_all_red(letters: str) -> None:
    # A perfect chop, or runs of equal length, repeat their shape: every road is red.
    result = roads(letters)
    for road in (result.big_eye_boy, result.small_road, result.cockroach_pig):
        assert road.cells
        assert set(road.colours) == {R}


def test_runs_growing_by_one_on_the_big_eye_boy() -> None:
    # Runs of 1, 2, 3, 4 (B PP BBB PPPP); column 1 has two entries, so it starts at (1,1).
    # (1,1) c0 len 1 == 1 U   (2,0) c1=2 vs c0=1 U   (2,1) c1 len 2 > 1 R   (2,2) c1 len 2 == 2 U
    # (3,0) c2=3 vs c1=2 U    (3,1) c2 len 3 > 1 R   (3,2) c2 len 3 > 2 R   (3,3) c2 len 3 == 3 U
    # Blue exactly where each column breaks the shape of the one before it.
    road = roads("B PP BBB PPPP").big_eye_boy
    assert road.colours == colours("UURUURRU")
    assert grid(road) == [
        down(0, range(2)), [(1, 0)], down(2, range(2)), down(3, range(2)), [(4, 0)],
    ]


def test_predict_on_an_empty_shoe() -> None:
    assert Roads.from_results([]).predict(Winner.BANKER) == Prediction(
        Winner.BANKER, None, None, None
    )


# --- properties --------------------------------------------------------------------------------

results_strategy = st.lists(
    st.builds(
        coup,
        st.sampled_from("BPT"),
        player_pair=st.booleans(),
        banker_pair=st.booleans(),
    ),
    max_size=120,
)
# Long one-sided runs hit dragon tails, tails on row 0 and derived-road folds more often.
streaky_strategy = st.lists(
    st.tuples(st.sampled_from("BPT"), st.integers(1, 9)), max_size=25
).map(lambda runs: [coup(letter) for letter, n in runs for _ in range(n)])
any_results = st.one_of(results_strategy, streaky_strategy)


def _derived(result: Roads) -> tuple[DerivedRoad, ...]:
    return (result.big_eye_boy, result.small_road, result.cockroach_pig)


def _start_index(big_road: BigRoad, offset: int) -> int | None:
    """Index in big_road.cells of the entry a derived road starts with, found independently."""
    columns = big_road.columns
    if len(columns) <= offset:
        return None
    start = (offset, 1) if columns[offset].length >= 2 else (offset + 1, 0)
    for i, cell in enumerate(big_road.cells):
        if (cell.logical_col, cell.logical_row) == start:
            return i
    return None


@settings(max_examples=150, deadline=None)
@given(any_results)
def test_big_road_has_a_cell_per_win_and_conserves_ties(results: Sequence[CoupResult]) -> None:
    road = Roads.from_results(results).big_road
    wins = [r for r in results if r.winner is not Winner.TIE]
    assert [cell.result for cell in road.cells] == wins
    assert road.tie_count == len(results) - len(wins)
    assert sum(c.tie_count for c in road.cells) == (road.tie_count if wins else 0)
    for before, after in pairwise(road.columns):
        assert before.winner is not after.winner


@settings(max_examples=150, deadline=None)
@given(any_results)
def test_derived_roads_mark_every_entry_from_their_start(results: Sequence[CoupResult]) -> None:
    result = Roads.from_results(results)
    cells = result.big_road.cells
    for road in _derived(result):
        start = _start_index(result.big_road, road.kind.offset)
        expected = [] if start is None else [
            (c.logical_col, c.logical_row) for c in cells[start:]
        ]
        assert [(c.source_col, c.source_row) for c in road.cells] == expected


@settings(max_examples=150, deadline=None)
@given(any_results)
def test_placed_cells_never_overlap_and_stay_in_six_rows(results: Sequence[CoupResult]) -> None:
    result = Roads.from_results(results)
    bead = [(c.col, c.row) for c in result.bead_plate.cells]
    assert len(set(bead)) == len(bead)
    assert all(0 <= row < ROWS for _, row in bead)
    roads_on_grids: tuple[BigRoad | DerivedRoad, ...] = (result.big_road, *_derived(result))
    for road in roads_on_grids:
        placed = grid(road)
        flat = [pos for column in placed for pos in column]
        assert len(set(flat)) == len(flat)
        assert all(col >= 0 and 0 <= row < ROWS for col, row in flat)
        starts = [column[0] for column in placed]
        assert all(row == 0 for _, row in starts)
        assert [col for col, _ in starts] == sorted({col for col, _ in starts})
        for column in placed:
            # Down, then right along one row, never back down.
            steps = [(c2 - c1, r2 - r1) for (c1, r1), (c2, r2) in pairwise(column)]
            assert all(step in {(0, 1), (1, 0)} for step in steps)
            turned = [i for i, step in enumerate(steps) if step == (1, 0)]
            assert not turned or all(step == (1, 0) for step in steps[turned[0]:])


@settings(max_examples=100, deadline=None)
@given(any_results, st.sampled_from(list(Winner)))
def test_add_and_predict_agree_with_a_fresh_build(
    results: Sequence[CoupResult], winner: Winner
) -> None:
    before = Roads.from_results(results)
    after = before.add(coup(winner.name[0]))
    assert after == Roads.from_results([*results, coup(winner.name[0])])
    prediction = before.predict(winner)
    for kind, road_before, road_after in zip(
        DerivedRoadKind, _derived(before), _derived(after), strict=True
    ):
        added = road_after.colours[len(road_before.cells):]
        assert added == (() if getattr(prediction, kind) is None else (getattr(prediction, kind),))


@settings(max_examples=100, deadline=None)
@given(any_results)
def test_banker_and_player_predictions_are_opposite(results: Sequence[CoupResult]) -> None:
    result = Roads.from_results(results)
    banker, player = result.predict(Winner.BANKER), result.predict(Winner.PLAYER)
    for kind in DerivedRoadKind:
        b, p = getattr(banker, kind), getattr(player, kind)
        if b is not None and p is not None:
            assert b is not p
