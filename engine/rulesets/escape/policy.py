"""Weights for the game's own ESCAPE player: head for the scenario's goal along real paths.

Uses only public information (positions, doors, the board, face-up tokens), never face-down tokens or dice.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from engine.core import Command
from engine.geometry.square import ORTHOGONAL, Cell, edge_key, parse_cell
from engine.memo import Memo
from engine.rulesets.escape import rules as R
from engine.rulesets.escape.state import MVT, EscapeState, Unit


def path_distances(st: EscapeState, goals: list[Cell], seat: str) -> dict[Cell, int]:
    """Steps from every square to the nearest goal, walking through doors (open, closed or locked alike).

    Only the map, the goals and the destroyed walls decide it, so it is memoised on them: the search asks
    again for the same goals in most of its playouts. The result is shared: callers must not change it.
    """
    ends = tuple(sorted(set(goals)))
    return _PATHS.get((st.scenario, ends, tuple(sorted(st.destroyed))), lambda: _walk(st, ends))


# About 20 kB an entry (the squares themselves are shared): a search's positions ask for a few hundred.
_PATHS: Memo[dict[Cell, int]] = Memo(1024)


def _walk(st: EscapeState, goals: tuple[Cell, ...]) -> dict[Cell, int]:
    b = R.board(st)
    squares = _squares(b.width, b.height)
    dist = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        c = queue.popleft()
        for dx, dy in ORTHOGONAL:
            x, y = c[0] + dx, c[1] + dy
            if not (0 <= x < b.width and 0 <= y < b.height):
                continue
            n = squares[x][y]
            if n in dist:
                continue
            if st.doors.get(edge_key(c, n)) is None and R.edge_blocks(st, c, n):
                continue
            dist[n] = dist[c] + 1
            queue.append(n)
    return dist


@cache
def _squares(width: int, height: int) -> tuple[tuple[Cell, ...], ...]:
    """One tuple per square, shared by every memoised walk."""
    return tuple(tuple((x, y) for y in range(height)) for x in range(width))


def goals_for(st: EscapeState, seat: str, carrying: bool) -> list[Cell]:
    """Where a character of ``seat`` wants to go now."""
    s = R.scen(st)
    b = R.board(st)
    enemies = [u.pos for u in st.units.values() if u.seat != seat and u.status == "board" and u.pos]
    if seat == "isc":
        return enemies or list(b.room_cells(s.deploy["isc"].get("room", "C")))
    v = s.victory["resistance"]
    exits = [c for n in s.exits for c in b.airlocks[n]]
    if v["type"] == "hold_room":
        return list(b.room_cells(v["room"]))
    if v["type"] == "carried_points":
        if carrying:
            return exits
        tokens = [
            t.pos for t in st.tokens.values() if t.pos and t.kind == "objective" or (t.pos and not t.face_up)
        ]
        return [p for p in tokens if p] or exits
    return exits or enemies


def foe_in_reach(st: EscapeState, u: Unit) -> bool:
    """Whether an enemy on the board is within ``u``'s reach this turn: a walk of its Movement left to a
    square next to it, plus its card weapon's range (walls and doors counted, as the crow does not fly)."""
    foes = [
        v.pos for v in st.units.values() if v.seat != u.seat and v.status == "board" and v.pos is not None
    ]
    if not foes or u.pos is None:
        return False
    weapon = R.card_weapon(st, u)
    reach = R.left(st, u, MVT) + 1 + (weapon.range if weapon is not None else 0)
    return path_distances(st, foes, u.seat).get(u.pos, reach + 1) <= reach


def bot_weights(st: EscapeState, seat: str, options: list[Command]) -> list[int]:
    """A weight per option: attacks first, then steps that shorten the path to the goal."""
    maps: dict[bool, dict[Cell, int]] = {}

    def dist(carrying: bool) -> dict[Cell, int]:
        if carrying not in maps:
            maps[carrying] = path_distances(st, goals_for(st, seat, carrying), seat)
        return maps[carrying]

    b = R.board(st)
    if st.stack and st.stack[-1]["t"] == "rolls":
        # A re-roll question: spend it only where some face turns a losing die into a win (as 'auto').
        f = st.stack[-1]
        hope = R.reroll_prospects(st, R.frame_parent(st), f["entries"][f["i"]])
        spend = hope is not None and hope.turn
        return [(10 if spend else 0) if c.verb == "reroll" else (0 if spend else 10) for c in options]
    weights = []
    for c in options:
        w = {"attack": 40, "shoot": 35, "throw": 25, "grenade": 20, "leave": 60, "enter": 30, "take": 20,
             "reveal": 6, "hack": 12, "drill": 3, "medkit": 15, "end": 1, "activate": 2, "react": 0,
             "pass": 0}.get(c.verb, 2)  # fmt: skip
        if c.verb == "move":
            u = st.units[c.args[0]]
            d = dist(bool(u.carrying and st.tokens[u.carrying].kind == "objective"))
            here, to = u.pos, parse_cell(c.args[1], b.width, b.height)
            big = 10_000
            if here is not None:
                w = 25 if d.get(to, big) < d.get(here, big) else 1
        elif c.verb == "leave":
            u = st.units[c.args[0]]
            carries = bool(u.carrying and st.tokens[u.carrying].kind == "objective")
            w = 60 if carries or R.scen(st).victory["resistance"]["type"] == "escaped" else 0
        elif c.verb == "open":
            w = 15
        elif c.verb == "drugs":
            w = 15 if foe_in_reach(st, st.units[c.args[0]]) else 0
        elif c.verb == "end" and st.active:
            u = st.units[st.active]
            w = 1 if R.can_spend(st, u, MVT) else 30
        weights.append(w)
    return weights
