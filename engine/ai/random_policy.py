"""A simple seeded policy: a weighted random pick among the legal commands.

It prefers attacks and progress over ending early, and moves that close in on the nearest enemy it can see
in its own view, so bot opponents put up a game. Deterministic: the pick depends only on the game's seed,
the log length, the seat and the seat's view, never on hidden state or future dice. It works on a ruleset
and a state (not a Game), so ``engine.game`` can use it without an import cycle.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.core import Command
from engine.errors import NotYourTurn
from engine.geometry.square import LETTERS
from engine.ruleset import Ruleset

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


def weights_for(ruleset: Ruleset, state: Any, seat: str, options: list[Command]) -> list[int]:
    """Weights for each option: by verb, with moves towards the nearest seen enemy weighted up.

    The ruleset's own :meth:`~engine.ruleset.Ruleset.bot_weights` win where it gives them.
    """
    specific = ruleset.bot_weights(state, seat, options)
    if specific is not None:
        return specific
    weights = [VERB_WEIGHTS.get(c.verb, 1) for c in options]
    if not any(c.verb == "move" for c in options):
        return weights
    view = ruleset.view(state, seat)
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


def choose_command(
    ruleset: Ruleset, state: Any, seat: str, options: list[Command], *, seed: int, ply: int
) -> Command:
    """Pick one of ``options`` (``seat``'s legal commands) by the weights; the pick depends on ``seed``
    (the game's), ``ply`` (commands played so far) and the seat only. A command that would catch its own
    side in a blast (``Ruleset.endangers_own``) is never picked while a safe one is left. Raises NotYourTurn
    when empty."""
    if not options:
        raise NotYourTurn(f"The {seat} seat has nothing to play now.")
    safe = [not ruleset.endangers_own(state, seat, c) for c in options]
    if not any(safe):
        safe = [True] * len(options)
    weights = [w if ok else 0 for w, ok in zip(weights_for(ruleset, state, seat, options), safe, strict=True)]
    total = sum(weights)
    if total <= 0:
        weights = [1 if ok else 0 for ok in safe]
        total = sum(weights)
    digest = hashlib.sha256(f"bot:{seed}:{ply}:{seat}".encode()).digest()
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
