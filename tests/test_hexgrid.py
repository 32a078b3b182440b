"""Hex geometry on the heist maps' odd-r offset grid."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalCommand
from engine.geometry import hexgrid as H

cells = st.tuples(st.integers(0, 25), st.integers(0, 40))


@given(cells)
@settings(max_examples=200)
def test_offset_axial_cube_round_trip(cell: H.Cell) -> None:
    assert H.from_axial(H.to_axial(cell)) == cell
    x, y, z = H.to_cube(cell)
    assert x + y + z == 0
    assert H.from_cube((x, y, z)) == cell


def test_axial_q_is_col_minus_half_row() -> None:
    assert H.to_axial((3, 0)) == (3, 0)
    assert H.to_axial((3, 1)) == (3, 1)
    assert H.to_axial((3, 2)) == (2, 2)
    assert H.to_axial((3, 5)) == (1, 5)
    with pytest.raises(ValueError):
        H.from_cube((1, 1, 1))


def test_neighbours_of_an_even_row_cell() -> None:
    # Even rows are not shifted, so the row above and below reach one column left.
    assert H.neighbours((2, 2)) == ((2, 1), (3, 2), (2, 3), (1, 3), (1, 2), (1, 1))


def test_neighbours_of_an_odd_row_cell() -> None:
    # Odd rows are shifted half a hex right, so the rows above and below reach one column right.
    assert H.neighbours((2, 3)) == ((3, 2), (3, 3), (3, 4), (2, 4), (1, 3), (2, 2))


@given(cells)
@settings(max_examples=200)
def test_neighbourhood_is_symmetric_and_at_distance_one(cell: H.Cell) -> None:
    nbs = H.neighbours(cell)
    assert len(set(nbs)) == 6 and cell not in nbs
    for d, nb in zip(H.DIRECTIONS, nbs, strict=True):
        assert H.distance(cell, nb) == 1
        assert H.is_adjacent(nb, cell)
        assert H.step(nb, H.OPPOSITE[d]) == cell
        assert H.direction_to(cell, nb) == d


def test_distance_examples() -> None:
    assert H.distance((0, 0), (0, 0)) == 0
    assert H.distance((0, 0), (3, 0)) == 3  # along a row
    assert H.distance((0, 0), (0, 4)) == 4  # zig-zag straight down the odd-r columns
    assert H.distance((0, 0), (2, 4)) == 4
    assert H.distance((0, 0), (3, 4)) == 5
    assert not H.is_adjacent((1, 1), (1, 1))


@given(cells, cells)
@settings(max_examples=200)
def test_distance_is_a_metric_matching_breadth_first_steps(a: H.Cell, b: H.Cell) -> None:
    d = H.distance(a, b)
    assert d == H.distance(b, a)
    assert (d == 0) == (a == b)
    path = H.shortest_path(a, b, lambda c: True)
    assert path is not None and len(path) == d + 1


def test_ring_and_within_counts() -> None:
    assert H.ring((4, 4), 0) == ((4, 4),)
    for r in (1, 2, 3):
        ring = H.ring((4, 4), r)
        assert len(ring) == len(set(ring)) == 6 * r
        assert all(H.distance((4, 4), c) == r for c in ring)
    assert len(H.within((4, 4), 2)) == 19
    assert set(H.ring((5, 5), 1)) == set(H.neighbours((5, 5)))
    with pytest.raises(ValueError):
        H.ring((0, 0), -1)


def test_straight_lines_and_rays() -> None:
    assert H.straight_line((2, 2), "e", 3) == ((3, 2), (4, 2), (5, 2))
    line = H.straight_line((2, 2), "se", 3)
    assert line == ((2, 3), (3, 4), (3, 5))
    assert all(H.direction_to((2, 2), c) == "se" for c in line)
    assert H.direction_to((2, 2), (4, 3)) is None  # not on any of the six lines
    assert H.direction_to((2, 2), (2, 2)) is None
    inside = {(3, 2), (4, 2), (6, 2)}
    assert tuple(H.ray((2, 2), "e", lambda c: c in inside)) == ((3, 2), (4, 2))


def test_direction_numbers_match_entrance_codes() -> None:
    assert [H.direction_number(d) for d in H.DIRECTIONS] == [1, 2, 3, 4, 5, 6]
    assert H.direction_from_number(5) == "w"
    with pytest.raises(ValueError):
        H.direction_from_number(7)


def test_cell_names_like_the_square_grid() -> None:
    assert H.cell_name((0, 0)) == "a1"
    assert H.cell_name((2, 3)) == "c4"
    assert H.parse_cell(" C4 ", 9, 9) == (2, 3)
    assert H.parse_cell("k11", 11, 11) == (10, 10)
    with pytest.raises(ValueError):
        H.cell_name((-1, 0))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("4c", "column letter"), ("c", "column letter"), ("j1", "a-i"), ("a10", "rows 1-9")],
)
def test_parse_cell_errors_name_the_rule(text: str, fragment: str) -> None:
    with pytest.raises(IllegalCommand, match=fragment):
        H.parse_cell(text, 9, 9)


def test_reachable_and_shortest_path_respect_passable() -> None:
    # A wall of blocked cells in column 3 with a single hole at row 4.
    open_cells = {(c, r) for c in range(7) for r in range(7)} - {(3, r) for r in range(7) if r != 4}

    def passable(c: H.Cell) -> bool:
        return c in open_cells

    path = H.shortest_path((1, 1), (5, 1), passable)
    assert path is not None and path[0] == (1, 1) and path[-1] == (5, 1)
    assert (3, 4) in path
    assert all(H.is_adjacent(a, b) for a, b in zip(path, path[1:], strict=False))
    dist = H.reachable((1, 1), passable)
    assert dist[(5, 1)] == len(path) - 1 > H.distance((1, 1), (5, 1))
    assert (3, 0) not in dist
    assert H.reachable((1, 1), passable, max_steps=1) == {(1, 1): 0, **{n: 1 for n in H.neighbours((1, 1))}}
    assert H.shortest_path((1, 1), (3, 0), passable) is None
    assert H.shortest_path_to_any((1, 1), [], passable) is None
    assert H.shortest_path_to_any((1, 1), [(1, 1)], passable) == ((1, 1),)
    near = H.shortest_path_to_any((0, 0), [(6, 6), (2, 0)], passable)
    assert near is not None and near[-1] == (2, 0)


def test_cheapest_costs_charge_for_leaving_a_guarded_cell() -> None:
    guarded = {(2, 0)}
    board = {(c, 0) for c in range(5)}

    def cost(a: H.Cell, b: H.Cell) -> int | None:
        if b not in board:
            return None
        return 1 + (1 if a in guarded else 0)

    costs = H.cheapest_costs((0, 0), cost)
    assert costs == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (3, 0): 4, (4, 0): 5}
    with pytest.raises(ValueError):
        H.cheapest_costs((0, 0), lambda a, b: -1)
