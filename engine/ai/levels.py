"""The game's own player at three levels: easy (the weighted random policy), normal and hard (search).

A level is a playout budget, so a game with bot seats replays exactly whatever machine plays it. A caller
with a clock (the bot) may also cap the time per decision; the budgets are sized to stay within about a
second on the project's 2-core machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.ai.random_policy import choose_command
from engine.ai.search import Budget, Searcher
from engine.core import Command
from engine.errors import SetupError
from engine.ruleset import Ruleset

LEVELS: dict[str, Budget | None] = {
    "easy": None,
    "normal": Budget(playouts=150, depth=12),
    "hard": Budget(playouts=500, depth=16),
}
# Shorter rollouts where listing legal commands is dear (Skirm's line-of-sight checks): the evaluation
# takes over sooner and the playouts per second stay in the hundreds.
# ESCAPE: no rollout at all. Its evaluation (walks against the movement left, wounds, I.S.C. fighters in
# reach) is smooth, and random rollouts only blur a step's worth of progress in noise.
# The heist: no rollout either. Its evaluation walks the work left over the board as it stands; rollouts
# of the policy cost two thirds of a decision and left hard crews no nearer done (docs/ai.md).
# Escape Path: 6 commands weighted by the policy (below) are about one figure's activation.
ROLLOUT_DEPTH = {"skirm": 6, "escape": 0, "heist": 0, "escapepath": 6}
# First-play urgency per ruleset (see Budget.fpu_reduction; others keep 0.5). ESCAPE's evaluation sits
# well off 0.5 for most positions, which made the search settle on the first command it tried.
FIRST_PLAY_REDUCTION = {"escape": 0.0}
# The heist's evaluation moves in small steps (a step of walking, a fraction of an event card), so its
# exploration constant is smaller.
EXPLORE = {"heist": 0.2}
# In Escape Path, uniform rollouts walk bogies into the characters' arcs of fire and end turns at random,
# so a search swarm won hardly more often than the policy alone (docs/ai.md).
POLICY_ROLLOUTS = frozenset({"escapepath"})
LEVEL_LABELS = {
    "easy": "Easy: quick weighted random play",
    "normal": "Normal: a short search",
    "hard": "Hard: a longer search",
}
DEFAULT_LEVEL = "easy"
DEFAULT_SECONDS = 1.0  # time cap per decision where the caller gives a clock


def check_level(level: str) -> str:
    """The level's canonical name. Raises SetupError naming the levels for an unknown one."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise SetupError(f"There is no bot level '{level}'. Choose one of: {', '.join(LEVELS)}.")
    return key


def level_budget(level: str, ruleset_id: str, playouts: int | None = None) -> Budget | None:
    """The search budget of ``level`` for a ruleset (None: easy, no search); ``playouts`` overrides its
    playout count (benchmarks). Raises SetupError for an unknown level."""
    budget = LEVELS[check_level(level)]
    if budget is None:
        return None
    depth = ROLLOUT_DEPTH.get(ruleset_id, budget.depth)
    return replace(
        budget,
        depth=depth,
        playouts=playouts or budget.playouts,
        explore=EXPLORE.get(ruleset_id, budget.explore),
        policy_rollouts=budget.policy_rollouts or ruleset_id in POLICY_ROLLOUTS,
        fpu_reduction=FIRST_PLAY_REDUCTION.get(ruleset_id, budget.fpu_reduction),
    )


def search_seed(seed: int, ply: int, seat: str) -> int:
    """The search seed for a decision: a function of the game's seed, the commands so far and the seat."""
    digest = hashlib.sha256(f"search:{seed}:{ply}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose(
    ruleset: Ruleset,
    state: Any,
    seat: str,
    options: list[Command],
    *,
    level: str,
    seed: int,
    ply: int,
    clock: Callable[[], float] | None = None,
    seconds: float | None = None,
) -> Command:
    """The command the game's own player at ``level`` plays for ``seat`` among ``options``.

    ``seed`` is the game's seed and ``ply`` the number of commands played so far; ``clock`` and
    ``seconds`` (default :data:`DEFAULT_SECONDS` when a clock is given) cap the thinking time. Raises
    SetupError for an unknown level and NotYourTurn when ``options`` is empty.
    """
    budget = level_budget(level, ruleset.id)
    if budget is None:
        return choose_command(ruleset, state, seat, options, seed=seed, ply=ply)
    if clock is not None:
        budget = replace(budget, seconds=seconds or DEFAULT_SECONDS)
    searcher = Searcher(ruleset, budget)
    return searcher.choose(
        state, seat, seed=search_seed(seed, ply, seat), options=options, clock=clock
    ).command
