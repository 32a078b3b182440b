"""Test helpers for Escape Path: an open test map registered as a scenario, and figure placement."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine import Game, new_game
from engine.geometry.square import parse_cell
from engine.rulesets.escapepath.board import max_ap
from engine.rulesets.escapepath.content import DIRS, scenario_from_data, scenarios
from engine.rulesets.escapepath.state import PathState

OPEN = [
    "E.........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "1234.....X",
]


@contextmanager
def scenario_on(rows: list[str] | None = None, **extra: Any) -> Iterator[str]:
    """Register a test scenario ``test`` (an open 10x9 map unless ``rows``) for the duration."""
    d: dict[str, Any] = {
        "id": "test", "name": "Test", "summary": "", "description": "", "map": rows or OPEN, "first": "team",
        "turns": 12, "rules": [], "gun": "gun", "bomb": "bomb",
        "team": [{"id": n, "name": n.title(), "start": str(i + 1), "facing": "n", "bombs": 2}
                 for i, n in enumerate(("ann", "bob", "cat", "dan"))],
        "swarm": {"kind": "alien", "pool": 6, "cap": 4},
        "scoring": {"escape": 1, "kill": 1, "objective": 0, "survivor": 0, "target": 50}, "goal": "",
    }  # fmt: skip
    for k, v in extra.items():
        if k in ("kind", "cap", "pool"):
            d["swarm"][k] = v
        else:
            d[k] = v
    registry = scenarios()
    before = registry.get("test")
    registry["test"] = scenario_from_data(d)
    try:
        yield "test"
    finally:
        if before is None:
            del registry["test"]
        else:
            registry["test"] = before


def game(dice: list[int] | None = None, seed: int = 1, **options: str) -> Game:
    """A new game on the registered test scenario."""
    return new_game("escapepath", scenario="test", seed=seed, dice=dice, options=dict(options))


def place(g: Game, fid: str, square: str | None, facing: str = "n", ap: int | None = None) -> None:
    """Put figure ``fid`` on ``square`` facing ``facing`` (None: back to the pool / off the map)."""
    st: PathState = g.state  # type: ignore[assignment]
    f = st.figures[fid]
    if square is None:
        f.status, f.pos = ("pool" if f.side == "swarm" else "dead"), None
        return
    f.status, f.pos, f.facing = "board", parse_cell(square, 26, 26), DIRS.index(facing)
    f.ap = max_ap(f) if ap is None else ap


def dice(g: Game, *values: int) -> None:
    """Script the next dice."""
    g.state.rng.script.extend(values)


def swarm_turn(g: Game) -> None:
    """Hand the turn to the swarm (as the team's 'end' would), keeping placements."""
    g.apply("team", "end")


N, NE, E, SE, S, SW, W, NW = range(8)  # facings, clockwise from north


def st_of(g: Game) -> PathState:
    """The game's Escape Path state."""
    state: PathState = g.state  # type: ignore[assignment]
    return state


def texts(g: Game, seat: str = "team") -> set[str]:
    """The texts of ``seat``'s legal commands."""
    return {c.text for c in g.legal_commands(seat)}
