"""A simple seeded policy: a weighted random pick among the legal commands.

It prefers attacks and progress over ending early, and moves that close in on the nearest enemy it can see
in its own view, so bot opponents put up a game. Deterministic: the pick depends only on the game's seed,
the log length, the seat and the seat's view, never on hidden state or future dice.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.core import Command
from engine.dice import Rng
from engine.errors import NotYourTurn
from engine.game import Game
from engine.geometry.square import LETTERS

# Relative weights by verb; verbs not listed weigh 1.
VERB_WEIGHTS: dict[str, int] = {
    "attack": 14, "shoot": 12, "throw": 8, "grenade": 8, "hack": 8, "move": 4, "enter": 20, "leave": 30,
    "take": 10, "reveal": 4, "end": 2, "token": 1, "react": 0, "activate": 1,
}  # fmt: skip


def _cell(text: str) -> tuple[int, int] | None:
    t = text.lower()
    if len(t) >= 2 and t[0] in LETTERS and t[1:].isdigit():
        return LETTERS.index(t[0]), int(t[1:]) - 1
    return None


def _enemy_cells(view: dict[str, Any], seat: str) -> list[tuple[int, int]]:
    cells = []
    for u in view.get("units", []):
        if isinstance(u, dict) and u.get("side") not in (None, seat) and isinstance(u.get("pos"), str):
            c = _cell(u["pos"])
            if c:
                cells.append(c)
    return cells


def _own_cells(view: dict[str, Any], seat: str) -> dict[str, tuple[int, int]]:
    out = {}
    for u in view.get("units", []):
        if isinstance(u, dict) and u.get("side") == seat and isinstance(u.get("pos"), str):
            c = _cell(u["pos"])
            if c:
                out[str(u.get("id"))] = c
    return out


def weights_for(game: Game, seat: str, options: list[Command]) -> list[int]:
    """Weights for each option: by verb, with moves towards the nearest seen enemy weighted up."""
    specific = game.ruleset.bot_weights(game.state, seat, options)
    if specific is not None:
        return specific
    weights = [VERB_WEIGHTS.get(c.verb, 1) for c in options]
    if not any(c.verb == "move" for c in options):
        return weights
    view = game.view(seat)
    enemies = _enemy_cells(view, seat)
    own = _own_cells(view, seat)
    if not enemies:
        return weights
    for i, c in enumerate(options):
        if c.verb == "move" and len(c.args) >= 2 and c.args[0] in own:
            to = _cell(c.args[-1])
            if to is None:
                continue
            here = own[c.args[0]]
            before = min(max(abs(here[0] - e[0]), abs(here[1] - e[1])) for e in enemies)
            after = min(max(abs(to[0] - e[0]), abs(to[1] - e[1])) for e in enemies)
            weights[i] = 12 if after < before else 1
    return weights


def choose_command(game: Game, seat: str) -> Command:
    """Pick a legal command for ``seat``. Raises NotYourTurn when ``seat`` has nothing to play."""
    options = game.legal_commands(seat)
    if not options:
        raise NotYourTurn(f"The {seat} seat has nothing to play now.")
    weights = weights_for(game, seat, options)
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
