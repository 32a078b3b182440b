"""ESCAPE's walking distances (the policy's priors and the search's evaluation share them, memoised):
doors never stop a walk, walls do until drilled through, and a drilled wall shows at once."""

from __future__ import annotations

from engine.geometry.square import ORTHOGONAL, edge_key
from engine.rulesets.escape import rules as R
from engine.rulesets.escape.policy import path_distances
from engine.rulesets.escape.state import EscapeState
from tests.escape_helpers import arena, sq, state


def _a_wall(st: EscapeState) -> tuple[tuple[int, int], tuple[int, int]]:
    b = R.board(st)
    for x in range(2, b.width - 2):
        for y in range(2, b.height - 2):
            for dx, dy in ORTHOGONAL:
                n = (x + dx, y + dy)
                if edge_key((x, y), n) not in st.doors and R.edge_blocks(st, (x, y), n):
                    return (x, y), n
    raise AssertionError("no wall on the board")


def test_a_drilled_wall_shortens_the_walk_through_it_at_once() -> None:
    st = state(arena({"kenji": "c3", "oni": "t20"}, scenario="evasion"))
    a, b = _a_wall(st)
    before = path_distances(st, [a], "resistance")
    assert before[b] > 1  # round the wall
    st.destroyed.append(edge_key(a, b))  # as a drill that breaks through does
    after = path_distances(st, [a], "resistance")
    assert after[b] == 1
    assert after is not before
    st.destroyed.pop()
    assert path_distances(st, [a], "resistance") == before


def test_doors_open_or_closed_never_stop_a_walk() -> None:
    st = state(arena({"kenji": "c3", "oni": "t20"}, scenario="evasion"))
    (a, b), door = next(iter(st.doors.items()))
    walk = path_distances(st, [a], "resistance")
    assert walk[b] == 1
    door.open = not door.open
    assert path_distances(st, [a], "resistance")[b] == 1
    assert path_distances(st, [sq("c3"), a], "resistance")[b] == 1  # several goals: the nearest counts
