"""Escape Path's fast paths: the sampler picks exactly what a uniform pick from the legal list would (same
draw, same command, label included) in every scenario, and sight lines cached per map agree with the plain
line-of-sight walk whatever stands on the board."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from engine import RULESETS, new_game
from engine.ai.random_policy import Picker
from engine.geometry.square import Cell
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath.board import blocker, clear
from engine.rulesets.escapepath.content import scenarios
from engine.rulesets.escapepath.state import Figure, PathState
from tests.escapepath_helpers import game as helper_game
from tests.escapepath_helpers import scenario_on

SCENARIOS = list(scenarios())


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_sampler_picks_what_the_legal_list_would(scenario: str) -> None:
    rs = RULESETS["escapepath"]
    for seed in (3, 4):
        game = new_game("escapepath", scenario=scenario, seed=seed, seats={s: None for s in rs.seats})
        fast, slow = Picker(seed), Picker(seed)
        for _ in range(3000):
            if game.outcome is not None:
                break
            seat = rs.next_seat(game.state)
            assert seat is not None
            picked = rs.sample_command(game.state, seat, fast)
            options = [c for c in rs.legal_commands(game.state, seat) if c.verb != "react"]
            assert picked == options[slow.below(len(options))]
            game.apply(seat, picked.text)
        assert game.outcome is not None


@settings(max_examples=40, deadline=None)
@given(
    scenario=hs.sampled_from(SCENARIOS),
    data=hs.data(),
)
def test_cached_sight_lines_agree_with_the_plain_walk(scenario: str, data: hs.DataObject) -> None:
    s = scenarios()[scenario]
    squares = [(x, y) for y in range(s.height) for x in range(s.width) if (x, y) not in s.walls]
    st = new_game("escapepath", scenario=scenario, seed=1).state
    assert isinstance(st, PathState)
    taken = data.draw(hs.lists(hs.sampled_from(squares), min_size=5, max_size=40, unique=True))
    occ: dict[Cell, Figure] = {c: Figure(f"x{i}", "swarm", "alien", "board", c) for i, c in enumerate(taken)}
    for _ in range(30):
        a = data.draw(hs.sampled_from(squares))
        # half the lines run diagonally, through corners, where the sides of each corner decide
        k, sx, sy = (
            data.draw(hs.integers(1, 8)),
            data.draw(hs.sampled_from([-1, 1])),
            data.draw(hs.sampled_from([-1, 1])),
        )
        diagonal = (a[0] + sx * k, a[1] + sy * k)
        b = (
            diagonal
            if diagonal in squares and data.draw(hs.booleans())
            else data.draw(hs.sampled_from(squares))
        )
        ignore = data.draw(hs.one_of(hs.none(), hs.sampled_from(taken or squares)))
        assert clear(st, a, b, occ, ignore) == G.clear_line(a, b, blocker(st, occ, ignore))


def test_a_corner_shuts_a_line_only_when_both_sides_block_and_the_ignored_square_never_blocks() -> None:
    with scenario_on():
        st = helper_game().state
        assert isinstance(st, PathState)
        a, b = (2, 2), (5, 5)
        sides = {c: Figure(f"x{i}", "swarm", "alien", "board", c) for i, c in enumerate([(3, 2), (2, 3)])}
        one_side = {(3, 2): sides[(3, 2)]}
        for occ, ignore, seen in [
            (one_side, None, True),
            (sides, None, False),
            (sides, (3, 2), True),
            (sides, (2, 3), True),
            ({(4, 4): sides[(3, 2)]}, None, False),
            ({(4, 4): sides[(3, 2)]}, (4, 4), True),
        ]:
            assert clear(st, a, b, occ, ignore) is seen
            assert G.clear_line(a, b, blocker(st, occ, ignore)) is seen
