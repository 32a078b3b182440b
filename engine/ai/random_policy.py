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


_MASK64 = (1 << 64) - 1


class Picker:
    """A small seeded generator for self-play choices, much cheaper than a SHA-256 draw.

    A 64-bit linear congruential generator (Knuth's MMIX constants) whose top 32 bits make each pick.
    Only picks among legal commands come from it; game dice stay with the state's own generator.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = (seed * 0x9E3779B97F4A7C15 + 1) & _MASK64

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1``. Raises ValueError if n < 1.

        The modulo bias is below one in a million for the few hundred options a game lists.
        """
        if n < 1:
            raise ValueError("below() needs n >= 1")
        self._state = (self._state * 6364136223846793005 + 1442695040888963407) & _MASK64
        return (self._state >> 32) % n


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
    from engine.game import LogEntry, new_game
    from engine.ruleset import Chooser, Ruleset, find_ruleset

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
