"""The heist's ``weighed_options`` (the search's one call for a step's options and their weights) answers
exactly what ``worthwhile`` and ``bot_weights`` answer apart, in every position of real games: it works
the character's plan and outdone actions out once for both, and must not change either."""

from __future__ import annotations

import pytest

from engine.game import new_game
from engine.ruleset import RULESETS, Ruleset


@pytest.mark.parametrize(("heist", "seed"), [("the_startup_job", 3), ("the_melee_job", 5)])
def test_weighed_options_equal_worthwhile_then_bot_weights(heist: str, seed: int) -> None:
    rs = RULESETS["heist"]
    assert type(rs).weighed_options is not Ruleset.weighed_options  # the heist does its own
    game = new_game("heist", scenario=heist, seed=seed, seats={s: None for s in rs.seats[:4]})
    choices = dropped = 0
    for _ in range(500):
        seat = game.next_bot_seat()
        if seat is None or game.outcome is not None:
            break
        st = game.state
        legal = [c for c in rs.legal_commands(st, seat) if c.verb not in ("react", "undo", "unplan")]
        kept = rs.worthwhile(st, seat, legal) or legal
        assert rs.weighed_options(st, seat, legal) == (kept, rs.bot_weights(st, seat, kept))
        if sum(c.verb == "act" for c in legal) > 1:
            choices += 1
            dropped += len(kept) < len(legal)
        game.apply(seat, game.bot_command(seat, level="easy"))
    assert choices > 20  # action choices, where the shared work is done
    assert dropped > 0  # and some where outdone actions were left out
