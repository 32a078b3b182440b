"""The search player does not pick a command that may take out one of its own figures when another would not."""

from __future__ import annotations

from typing import Any

import pytest

from engine import RULESETS, Game, new_game
from engine.ai.search import Budget, Searcher
from engine.core import Command
from engine.rulesets.escape.state import Unit as EscapeUnit
from engine.rulesets.skirm.state import Unit as SkirmUnit


def _activation(ruleset: str, seed: int) -> tuple[Game, str]:
    """A position where a seat activates with at least four commands to choose from."""
    game = new_game(ruleset, seed=seed, seats={s: None for s in RULESETS[ruleset].seats})
    for _ in range(400):
        seat = game.next_bot_seat()
        assert seat is not None and game.outcome is None
        acting = any(d.kind == "activation" and seat in d.seats for d in game.awaiting())
        if acting and len([c for c in game.legal_commands(seat) if c.verb not in ("react", "undo")]) >= 4:
            return game, seat
        game.apply(seat, game.bot_command(seat))
    raise AssertionError("no activation with choices")


def _harming(base: type, spared: str) -> Any:
    """The ruleset, except that every command but ``spared`` takes out one of the mover's own figures."""

    class Harming(base):  # type: ignore[misc, valid-type]
        def execute(self, state: Any, seat: str, command: Command) -> Any:
            out = super().execute(state, seat, command)
            if command.text != spared:
                state.hurt = getattr(state, "hurt", 0) + 1
            return out

        def own_losses(self, state: Any, seat: str) -> int | None:
            return int(getattr(state, "hurt", 0))

    return Harming()


@pytest.mark.parametrize("ruleset", ["skirm", "escape"])
def test_the_only_command_that_spares_the_own_side_is_chosen(ruleset: str) -> None:
    game, seat = _activation(ruleset, seed=4)
    options = [c for c in game.legal_commands(seat) if c.verb not in ("react", "undo")]
    spared = options[-1].text  # not the first the priors would try
    rs = _harming(type(game.ruleset), spared)
    for seed in range(3):
        picked = Searcher(rs, Budget(playouts=40, depth=4)).choose(
            game.state, seat, seed=seed, options=options
        )
        assert picked.command.text == spared


def test_when_every_command_harms_the_search_still_plays_one() -> None:
    game, seat = _activation("skirm", seed=4)
    options = [c for c in game.legal_commands(seat) if c.verb not in ("react", "undo")]
    rs = _harming(type(game.ruleset), spared="(none)")
    picked = Searcher(rs, Budget(playouts=30, depth=4)).choose(game.state, seat, seed=1, options=options)
    assert picked.command.text in {c.text for c in options}


def test_own_losses_count_the_seat_s_figures_out() -> None:
    game, seat = _activation("skirm", seed=4)
    rs = game.ruleset
    before = rs.own_losses(game.state, seat)
    unit: SkirmUnit = next(u for u in game.state.units.values() if u.seat == seat and u.state != "out")
    unit.state = "out"
    assert rs.own_losses(game.state, seat) == (before or 0) + 1
    egame, eseat = _activation("escape", seed=4)
    ebefore = egame.ruleset.own_losses(egame.state, eseat)
    eunit: EscapeUnit = next(u for u in egame.state.units.values() if u.seat == eseat and u.status != "out")
    eunit.status = "out"
    assert egame.ruleset.own_losses(egame.state, eseat) == (ebefore or 0) + 1
