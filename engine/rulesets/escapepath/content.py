"""Escape Path content: bogie kinds and scenarios (maps, team, swarm, weapons, scoring), read from
``content/scenarios.json`` and checked at load; a ContentError names the file and the scenario at fault.

Map letters: ``.`` floor, ``#`` wall or object (blocks movement, sight and fire), ``~`` void (cannot be
entered; seen and fired across; jumped under the voids rule), ``E`` a bogie entry point, ``X`` an escape
point, ``O`` an objective, ``1``-``9`` a character's starting square.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import ContentError
from engine.geometry.square import Cell, cell_name

FILE = "engine/rulesets/escapepath/content/scenarios.json"
DIRS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
VECTORS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
AP = {"character": 3, "fast": 4, "slow": 2}
SPEEDS = ("fast", "slow")
RULES = frozenset({"voids"})
SCORE_KEYS = ("escape", "kill", "objective", "survivor", "target")


@dataclass(frozen=True)
class BogieKind:
    """A kind of bogie: its name, speed (fast: 4 AP, saves on 5-6; slow: 2 AP, saves on 4-6) and id prefix."""

    id: str
    name: str
    speed: str
    prefix: str


@dataclass(frozen=True)
class Member:
    """A character of a scenario's team: where it starts, which way it faces, how many bombs it carries."""

    id: str
    name: str
    start: Cell
    facing: int
    bombs: int


@dataclass(frozen=True)
class Scenario:
    """One scenario: the map and everything the rulebook leaves to the scenario."""

    id: str
    name: str
    summary: str
    description: str
    width: int
    height: int
    walls: frozenset[Cell]
    voids: frozenset[Cell]
    entries: tuple[Cell, ...]
    escapes: tuple[Cell, ...]
    objectives: tuple[Cell, ...]
    first: str
    turns: int
    rules: frozenset[str]
    gun: str
    bomb: str
    team: tuple[Member, ...]
    kind: str
    pool: int
    cap: int
    scoring: dict[str, int]
    goal: str

    def on_board(self, c: Cell) -> bool:
        """True when ``c`` lies on the map."""
        return 0 <= c[0] < self.width and 0 <= c[1] < self.height

    def entry_facing(self, c: Cell) -> int:
        """The direction a bogie entering at ``c`` faces: straight in from an edge, else towards the centre."""
        x, y = c
        if y == 0:
            return 4
        if y == self.height - 1:
            return 0
        if x == 0:
            return 2
        if x == self.width - 1:
            return 6
        dx = (self.width - 1) / 2 - x
        dy = (self.height - 1) / 2 - y
        sx = 0 if abs(dx) < abs(dy) / 2 else (1 if dx > 0 else -1)
        sy = 0 if abs(dy) < abs(dx) / 2 else (1 if dy > 0 else -1)
        return VECTORS.index((sx, sy))


def team_reach(
    width: int, height: int, walls: frozenset[Cell], voids: frozenset[Cell], jumps: bool, starts: list[Cell]
) -> set[Cell]:
    """Every square a character could walk to from ``starts`` on an empty map: steps to the eight squares
    around (never into walls or voids, nor diagonally between two walls), and with ``jumps`` (the voids rule)
    straight jumps a character's points pay for."""
    seen = set(starts)
    todo = list(starts)
    while todo:
        x, y = todo.pop()
        for dx, dy in VECTORS:
            n = (x + dx, y + dy)
            if not (0 <= n[0] < width and 0 <= n[1] < height) or n in walls or n in voids or n in seen:
                continue
            if dx and dy and (x + dx, y) in walls and (x, y + dy) in walls:
                continue
            seen.add(n)
            todo.append(n)
        if not jumps:
            continue
        for dx, dy in VECTORS[::2]:  # straight across, at least one void square, 1 AP a square at best
            n, k = (x + dx, y + dy), 1
            while n in voids:
                n, k = (n[0] + dx, n[1] + dy), k + 1
            landing = 0 <= n[0] < width and 0 <= n[1] < height and n not in walls
            if 1 < k <= AP["character"] and landing and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _fail(where: str, why: str) -> ContentError:
    return ContentError(f"{FILE}: {where}: {why}")


def _scenario(d: dict[str, Any], kinds: dict[str, BogieKind]) -> Scenario:
    sid = str(d.get("id", "?"))
    where = f"scenario '{sid}'"
    rows: list[str] = d["map"]
    width, height = len(rows[0]), len(rows)
    walls, voids, entries, escapes, objectives = set(), set(), [], [], []
    starts: dict[str, Cell] = {}
    for y, row in enumerate(rows):
        if len(row) != width:
            raise _fail(where, f"map row {y + 1} is {len(row)} squares wide, not {width}")
        for x, ch in enumerate(row):
            c = (x, y)
            if ch == "#":
                walls.add(c)
            elif ch == "~":
                voids.add(c)
            elif ch == "E":
                entries.append(c)
            elif ch == "X":
                escapes.append(c)
            elif ch == "O":
                objectives.append(c)
            elif ch.isdigit():
                starts[ch] = c
            elif ch != ".":
                raise _fail(where, f"map row {y + 1} has an unknown letter '{ch}'")
    team = []
    for m in d["team"]:
        if str(m["start"]) not in starts:
            raise _fail(where, f"team member '{m['id']}' starts on '{m['start']}', which the map lacks")
        if m["facing"] not in DIRS:
            raise _fail(where, f"team member '{m['id']}' faces '{m['facing']}', not one of {DIRS}")
        team.append(
            Member(m["id"], m["name"], starts[str(m["start"])], DIRS.index(m["facing"]), int(m["bombs"]))
        )
    swarm = d["swarm"]
    if swarm["kind"] not in kinds:
        raise _fail(where, f"unknown bogie kind '{swarm['kind']}'")
    rules = frozenset(d.get("rules", []))
    if rules - RULES:
        raise _fail(where, f"unknown rules {sorted(rules - RULES)}")
    if voids and "voids" not in rules:
        raise _fail(where, "the map has voids but the scenario does not use the voids rule")
    scoring = {k: int(d["scoring"][k]) for k in SCORE_KEYS}
    if d["first"] not in ("team", "swarm"):
        raise _fail(where, "'first' must be team or swarm")
    if not entries or not team or int(swarm["cap"]) < 1 or int(swarm["pool"]) < int(swarm["cap"]):
        raise _fail(where, "needs entry points, a team, and a swarm pool at least as large as its cap")
    if scoring["escape"] and not escapes:
        raise _fail(where, "scores escapes but has no escape point")
    reachable = team_reach(
        width, height, frozenset(walls), frozenset(voids), "voids" in rules, list(starts.values())
    )
    for what, cells in (("escape point", escapes), ("objective", objectives)):
        for c in cells:
            if c not in reachable:
                raise _fail(
                    where,
                    f"the {what} {cell_name(c)} cannot be reached from the team's starting squares (walls shut "
                    "it in; two walls meeting at a corner shut the diagonal between them)",
                )
    return Scenario(
        id=sid, name=d["name"], summary=d["summary"], description=d["description"], width=width,
        height=height, walls=frozenset(walls), voids=frozenset(voids), entries=tuple(entries),
        escapes=tuple(escapes), objectives=tuple(objectives), first=d["first"], turns=int(d["turns"]),
        rules=rules, gun=d["gun"], bomb=d["bomb"], team=tuple(team), kind=swarm["kind"],
        pool=int(swarm["pool"]), cap=int(swarm["cap"]), scoring=scoring, goal=d["goal"],
    )  # fmt: skip


@cache
def _load() -> tuple[dict[str, BogieKind], dict[str, Scenario]]:
    text = resources.files("engine.rulesets.escapepath").joinpath("content/scenarios.json").read_text("utf-8")
    data = json.loads(text)
    kinds = {}
    for kid, k in data["bogies"].items():
        if k["speed"] not in SPEEDS:
            raise _fail(f"bogie kind '{kid}'", f"speed must be fast or slow, not '{k['speed']}'")
        kinds[kid] = BogieKind(kid, k["name"], k["speed"], k["prefix"])
    out = {}
    for d in data["scenarios"]:
        try:
            s = _scenario(d, kinds)
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            raise _fail(f"scenario '{d.get('id', '?')}'", f"malformed ({exc!r})") from exc
        out[s.id] = s
    return kinds, out


def scenario_from_data(d: dict[str, Any]) -> Scenario:
    """A scenario from its JSON-ready data (as in the content file). Raises ContentError if malformed."""
    try:
        return _scenario(d, bogie_kinds())
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise _fail(f"scenario '{d.get('id', '?')}'", f"malformed ({exc!r})") from exc


def bogie_kinds() -> dict[str, BogieKind]:
    """Every bogie kind by id. Raises ContentError if the content file is malformed."""
    return _load()[0]


def scenarios() -> dict[str, Scenario]:
    """Every scenario by id, the default first. Raises ContentError if the content file is malformed."""
    return _load()[1]
