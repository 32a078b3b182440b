"""Whole games played by the engine against itself, as fast as it allows (benchmarks, self-play tests).

This module sits above :mod:`engine.game` (it builds games); nothing in ``engine.game`` imports it.
"""

from __future__ import annotations

from engine.ai.random_policy import Picker
from engine.dice import Rng
from engine.game import Game, LogEntry, new_game
from engine.ruleset import Chooser, Ruleset, find_ruleset


def fast_random_game(
    ruleset: str, seed: int, *, max_commands: int = 20_000, use_sampler: bool = True
) -> Game:
    """Play a whole game with every seat a bot, as fast as the engine allows; returns the finished game.

    Each command is a uniform pick among the awaited seat's legal commands (the seed decides), standing
    answer changes skipped. With ``use_sampler`` a ruleset's :meth:`~engine.ruleset.Ruleset.sample_command`
    finds it without listing every command, and it is executed without being parsed again (the sampler
    checks it with the rules' own checks); rulesets without one, or ``use_sampler=False``, list
    ``legal_commands`` and apply the pick as typed text would be. Used by benchmarks and self-play tests.
    """

    rs = find_ruleset(ruleset)
    game = new_game(rs.id, seed=seed, seats={s: None for s in rs.seats})
    # Rulesets without a sampler keep the original picks (and so the same games) in either mode.
    use_sampler = use_sampler and type(rs).sample_command is not Ruleset.sample_command
    picker: Chooser = Picker(seed) if use_sampler else Rng(seed=seed)
    state = game.state
    # Bound once: this loop runs for every command of every self-play game.
    outcome, next_seat, sample, execute = rs.outcome, rs.next_seat, rs.sample_command, rs.execute
    log = game.log
    for _ in range(max_commands):
        if outcome(state) is not None:
            break
        if use_sampler:
            seat = next_seat(state)
            if seat is None:
                raise AssertionError("a running game has no seat to act")
            command = sample(state, seat, picker)
            if command is not None:
                execute(state, seat, command)
                log.append(LogEntry(seat, command.text))
                continue
        else:
            seat = min(game.awaiting()[0].seats)
        options = [c for c in game.legal_commands(seat) if c.verb != "react"]
        game.apply(seat, options[picker.below(len(options))])
    return game
