"""A simple seeded policy: a weighted random pick among the legal commands.

It prefers attacks and progress over ending early, so bot opponents put up a game. Deterministic: the
pick depends only on the game's seed, the log length and the seat, never on hidden state.
"""

from __future__ import annotations

import hashlib

from engine.core import Command
from engine.dice import Rng
from engine.errors import NotYourTurn
from engine.game import Game

# Relative weights by verb; verbs not listed weigh 1.
VERB_WEIGHTS: dict[str, int] = {
    "attack": 12,
    "shoot": 10,
    "throw": 6,
    "hack": 8,
    "move": 6,
    "enter": 20,
    "leave": 30,
    "take": 10,
    "reveal": 4,
    "end": 2,
    "token": 1,
    "react": 0,
}


def choose_command(game: Game, seat: str) -> Command:
    """Pick a legal command for ``seat``. Raises NotYourTurn when ``seat`` has nothing to play."""
    options = game.legal_commands(seat)
    if not options:
        raise NotYourTurn(f"The {seat} seat has nothing to play now.")
    weights = [VERB_WEIGHTS.get(c.verb, 1) for c in options]
    total = sum(weights)
    if total == 0:
        weights = [1] * len(options)
        total = len(options)
    digest = hashlib.sha256(f"bot:{game.seed}:{len(game.log)}:{seat}".encode()).digest()
    pick = int.from_bytes(digest[:8], "big") % total
    for command, weight in zip(options, weights, strict=True):
        if pick < weight:
            return command
        pick -= weight
    return options[-1]


def fast_random_game(ruleset: str, seed: int, *, max_commands: int = 20_000) -> Game:
    """Play a whole game with every seat a bot, as fast as the engine allows; returns the finished game.

    Picks uniformly from ``legal_commands`` of the awaited seat (the seed decides), skipping standing-answer
    changes. Used by benchmarks and self-play tests.
    """
    from engine.game import new_game
    from engine.ruleset import find_ruleset

    rs = find_ruleset(ruleset)
    game = new_game(rs.id, seed=seed, seats={s: None for s in rs.seats})
    picker = Rng(seed=seed)
    for _ in range(max_commands):
        if game.outcome is not None:
            break
        decisions = game.awaiting()
        seat = min(decisions[0].seats)
        options = [c for c in game.legal_commands(seat) if c.verb != "react"]
        game.apply(seat, options[picker.below(len(options))])
    return game
