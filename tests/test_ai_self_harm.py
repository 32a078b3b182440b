"""The search player does not pick a command that may take out one of its own figures when another would not."""

from __future__ import annotations

from typing import Any

import pytest

from engine import RULESETS, Game, new_game
from engine.ai.random_policy import choose_command
from engine.ai.search import Budget, Searcher
from engine.core import Command
from engine.dice import Rng
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


# Squads with blast weapons for Skirm; ESCAPE's lineups carry grenades once picked up.
_SETUPS: dict[str, dict[str, Any] | None] = {
    "skirm": {"squad": {"player1": "swarm", "player2": "stonekin"}},
    "escape": None,
}


def _endangering(ruleset: str, seed: int, scenario: str | None = None) -> tuple[Game, str, Command]:
    """A position, reached by the easy player, where a legal command (a blast) endangers the mover's own
    side by the ruleset's account."""
    rs = RULESETS[ruleset]
    seats = {s: None for s in rs.seats}
    game = new_game(ruleset, scenario=scenario, seed=seed, seats=seats, options=_SETUPS[ruleset])
    for _ in range(1500):
        seat = game.next_bot_seat()
        if seat is None or game.outcome is not None:
            break
        risky = [c for c in game.legal_commands(seat) if rs.endangers_own(game.state, seat, c)]
        if risky:
            return game, seat, risky[0]
        game.apply(seat, game.bot_command(seat, level="easy"))
    raise AssertionError(f"{ruleset} seed {seed}: no endangering command came up")


def _own_side_hurt(game: Game, seat: str, command: Command) -> bool:
    """Whether playing ``command`` (to the end of what it sets off, others answering as the easy player)
    left one of ``seat``'s figures worse off: damaged, Downed, Stunned or Out."""

    def hurt(g: Game) -> dict[str, tuple[object, ...]]:
        units = [u for u in g.state.units.values() if u.seat == seat]
        if g.ruleset.id == "skirm":
            return {u.id: (u.state in ("downed", "out"), u.stun > 0) for u in units}
        return {u.id: (u.status == "out", u.damage) for u in units}

    before = hurt(game)
    game.apply(seat, command.text)
    for _ in range(30):  # re-rolls and reactions the attack asks for
        if game.outcome is not None or any(d.kind == "activation" for d in game.awaiting()):
            break
        who = game.next_bot_seat()
        assert who is not None
        game.apply(who, game.bot_command(who, level="easy"))
    after = hurt(game)
    return any(after[k] != before[k] and after[k] > before[k] for k in before)  # type: ignore[operator]


def _names(game: Game, seat: str, but: str) -> list[str]:
    """The names of ``seat``'s Skirm units on the map, all but ``but``."""
    return [u.name for u in game.state.units.values() if u.seat == seat and u.id != but and u.pos is not None]


@pytest.mark.parametrize(
    ("ruleset", "scenario", "seed"),
    [
        ("skirm", None, 0),
        ("skirm", None, 1),
        ("skirm", None, 2),
        ("escape", "evasion", 1),
        ("escape", "datatheft", 2),
    ],
)
def test_a_blast_that_takes_in_its_own_side_is_avoided_while_a_safe_command_exists(
    ruleset: str, scenario: str | None, seed: int
) -> None:
    game, seat, risky = _endangering(ruleset, seed, scenario)
    # The flag is true to the rules. In Skirm, whatever the dice, the blast rolls against a squadmate and
    # the narration names it; in ESCAPE, the grenade damages one of the thrower's side with some dice.
    if ruleset == "skirm":
        own = _names(game, seat, but=risky.args[0])
        for k in range(5):
            copy = game.copy()
            copy.state.rng = Rng(seed=k)
            told = " ".join(e.text for e in copy.apply(seat, risky.text))
            assert any(name in told for name in own), told
    else:
        hurt = []
        for k in range(10):
            copy = game.copy()
            copy.state.rng = Rng(seed=k)
            hurt.append(_own_side_hurt(copy, seat, risky))  # the ally's dodge answered first
        assert any(hurt)
    safe = next(
        c
        for c in game.legal_commands(seat)
        if c.verb not in ("react", "undo") and c.args[:1] != risky.args[:1]
        and not game.ruleset.endangers_own(game.state, seat, c)
    )  # fmt: skip
    for search_seed in range(3):
        picked = Searcher(game.ruleset, Budget(playouts=40, depth=4)).choose(
            game.state, seat, seed=search_seed, options=[risky, safe]
        )
        assert picked.command.text == safe.text


def test_a_shot_with_no_squadmate_in_its_blast_or_line_is_not_flagged() -> None:
    game, seat, risky = _endangering("skirm", 0)
    rs = game.ruleset
    shots = [c for c in game.legal_commands(seat) if c.verb == "shoot"]
    for c in shots:
        if not rs.endangers_own(game.state, seat, c):
            for k in range(10):
                copy = game.copy()
                copy.state.rng = Rng(seed=k)
                assert not _own_side_hurt(copy, seat, c), c.text
    assert not any(
        rs.endangers_own(game.state, seat, c) for c in game.legal_commands(seat) if c.verb == "move"
    )


@pytest.mark.parametrize(("ruleset", "scenario", "seed"), [("skirm", None, 0), ("escape", "evasion", 1)])
def test_the_easy_player_never_picks_a_blast_on_its_own_side_while_a_safe_command_exists(
    ruleset: str, scenario: str | None, seed: int
) -> None:
    game, seat, risky = _endangering(ruleset, seed, scenario)
    options = game.legal_commands(seat)
    assert risky in options
    picks = [
        choose_command(game.ruleset, game.state, seat, options, seed=k, ply=game.plies) for k in range(60)
    ]
    assert risky.text not in {c.text for c in picks}
    assert not any(game.ruleset.endangers_own(game.state, seat, c) for c in picks)
    # With nothing safe left, it still plays (the risky command is all there is).
    assert choose_command(game.ruleset, game.state, seat, [risky], seed=0, ply=game.plies) == risky
