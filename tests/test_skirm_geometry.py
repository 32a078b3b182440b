"""The corner-to-corner sight geometry Skirm uses (engine/geometry/corners.py)."""

from __future__ import annotations

from engine.geometry.corners import crosses_edge, in_sight, meets, meets_cell, sight_count


def test_open_ground_shows_all_four_corners():
    assert sight_count((0, 0), (5, 3), [], set()) == 4


def test_a_wall_across_the_row_hides_the_target():
    assert sight_count((0, 0), (4, 0), [((2, 0), (3, 0))], set()) == 0
    assert in_sight((0, 0), (4, 1), [((2, 0), (3, 0))], set())  # seen past the wall's end


def test_a_wall_on_the_targets_own_side_blocks_from_that_side_only():
    wall = [((3, 0), (4, 0))]  # the west side of (4, 0)
    assert not in_sight((0, 0), (4, 0), wall, set())
    assert in_sight((8, 0), (4, 0), wall, set())


def test_a_blocking_square_in_line_blocks_but_one_beside_the_line_does_not():
    assert not in_sight((0, 0), (4, 0), [], {(2, 0)})
    assert in_sight((0, 0), (4, 0), [], {(2, 1)})
    assert in_sight((0, 0), (4, 0), [], lambda c: c == (2, 2))


def test_two_lines_are_needed():
    # A gap lets through lines to only one corner from every attacker corner: not in sight.
    blockers = {(2, 0), (2, 2)}
    n = sight_count((0, 1), (4, 1), [], blockers)
    assert n >= 2  # straight down the corridor
    assert not in_sight((0, 0), (4, 4), [], {(1, 1), (2, 2), (3, 3)})


def test_exact_segment_tests():
    assert crosses_edge((0, 0), (2, 1), ((0, 0), (1, 0)))  # crosses x = 1 at y = 0.5
    assert not crosses_edge((0, 0), (0, 2), ((1, 0), (2, 0)))
    assert crosses_edge((0, 1), (2, 1), ((0, 0), (0, 1)))  # runs along the side (y = 1, x 0..1)
    assert crosses_edge((0, 0), (2, 2), ((1, 0), (1, 1)))  # touches its end point (1, 1) mid-line
    assert meets_cell((0, 0), (2, 2), (0, 0))
    assert not meets((0, 0), (1, 0), (2, 3, 0, 1))
    assert not meets((0, 0), (1, 1), (1, 2, 1, 2))  # only the end point q touches the box
