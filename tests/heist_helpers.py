"""Helpers for the heist tests: games past planning, cleared boards, straight paths."""

from __future__ import annotations

from collections import deque
from typing import Any

import engine.rulesets.heist  # noqa: F401  (registers the ruleset)
import engine.rulesets.heist.ruleset  # noqa: F401
from engine import Game, new_game
from engine.rulesets.heist import actions as A
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import Chit, HeistState

SEATS3 = {"p1": "u1", "p2": "u2", "p3": "u3"}
SEATS4 = {"p1": "u1", "p2": "u2", "p3": "u3", "p4": "u4"}


def state(game: Game) -> HeistState:
    st = game.state
    assert isinstance(st, HeistState)
    return st


def game_for(heist: str, seats: dict[str, str | None] | None = None, *, dice: list[int] | None = None,
             characters: dict[str, str] | None = None, seed: int = 1) -> Game:  # fmt: skip
    options: dict[str, Any] = {"character": characters} if characters else {}
    return new_game("heist", scenario=heist, seats=seats or SEATS3, seed=seed, dice=dice, options=options)


def clear_board(st: HeistState) -> None:
    """No unknown tiles and no chits or loot anywhere: a quiet building for a worked example."""
    for t in st.tiles.values():
        t.unknown = False
        t.chits.clear()
        t.loot.clear()
        t.cash = 0
        t.marks = [m for m in t.marks if m not in ("remote_lock_x", "remote_lock_y", "keycard_door")]
    st.bag.clear()


def skip_planning(
    game: Game, positions: dict[str, str], plans: dict[str, list[str]] | None = None
) -> list[Any]:
    """Place the characters and their plans directly, then start Part II with the scripted dice."""
    st = state(game)
    for seat, p in st.players.items():
        p.pos = positions[seat]
        p.plans = list((plans or {}).get(seat, []))
        p.ready = True
    ev: list[Any] = []
    A.begin_heist(st, ev)
    return ev


def indoor_path(st: HeistState, start: str, length: int) -> list[str]:
    """A shortest walk of ``length`` indoor tiles leading away from ``start`` (start excluded)."""
    outs = R.exits(st)
    dist = {start: 0}
    prev: dict[str, str] = {}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for m in R.nbrs(st, cur):
            if m not in dist and m not in outs:
                dist[m] = dist[cur] + 1
                prev[m] = cur
                queue.append(m)
    end = min((n for n, d in dist.items() if d == length), default=None)
    assert end is not None, f"no tile {length} steps from {start}"
    path = [end]
    while prev[path[-1]] != start:
        path.append(prev[path[-1]])
    return list(reversed(path))


def put(st: HeistState, tile: str, kind: str, active: bool = True) -> None:
    st.tiles[tile].chits.append(Chit(kind, active))


def started(heist: str = "the_inclusion_job", *, dice: list[int] | None = None,
            seats: dict[str, str | None] | None = None, pos: dict[str, str] | None = None,
            plans: dict[str, list[str]] | None = None) -> tuple[Game, HeistState]:  # fmt: skip
    """A heist past planning on a quiet board (see :func:`clear_board`), round 1 rolled with ``dice``."""
    game = game_for(heist, seats or SEATS3, dice=dice or [3, 3, 3, 3])
    st = state(game)
    clear_board(st)
    outs = sorted(R.exits(st))
    positions = pos or {s: outs[i % len(outs)] for i, s in enumerate(st.seats)}
    skip_planning(game, positions, plans)
    return game, st


def planned_by_the_game(heist: str, seed: int = 1) -> HeistState:
    """A heist for four game-played seats whose planning the easy policy has played: round 1's state."""
    game = new_game("heist", scenario=heist, seats=dict.fromkeys(SEATS4), seed=seed)
    while game.state.phase != "action":
        seat = game.next_bot_seat()
        assert seat is not None
        game.apply(seat, game.bot_command(seat, level="easy").text)
    return state(game)
