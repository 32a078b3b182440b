"""The game's own Escape Path player: a one-ply evaluation of every legal command, from public facts only
(positions, facings, the map; never the dice to come).

The swarm closes in along real paths while keeping out of the characters' arcs of fire, prefers squares
beside or behind a character (flanking, which also denies panic shots), attacks when it can, brings new
bogies on at entry points the team is not covering, and never stands in a blast zone (the rules shut them).
The team heads for its escape point and objectives, shoots what it is likely to kill, throws bombs only
when a short throw cannot hurt a friend, and keeps its arcs on the nearest threat.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from functools import cache, lru_cache

from engine.core import Command
from engine.geometry.square import KING, Cell, chebyshev, parse_cell
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath import rules as R
from engine.rulesets.escapepath.board import clear, occupancy, save_target, scen
from engine.rulesets.escapepath.content import DIRS, Scenario
from engine.rulesets.escapepath.state import SWARM, TEAM, Figure, PathState

BIG = 999


@cache
def _dice_at_least(n: int, k: int) -> float:
    """P(sum of n d6 >= k)."""
    counts = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for s, c in counts.items():
            for d in range(1, 7):
                nxt[s + d] = nxt.get(s + d, 0) + c
        counts = nxt
    hits: int = sum(c for s, c in counts.items() if s >= k)
    cases: int = 6**n
    return hits / cases


def distances(s: Scenario, goals: list[Cell]) -> Mapping[Cell, int]:
    """Steps (king moves) from every open square to the nearest goal, ignoring figures (shared: read only)."""
    return _distances(s.width, s.height, s.walls, s.voids, tuple(goals))


@lru_cache(maxsize=512)  # a few kB each: the goals of recent positions
def _distances(
    width: int, height: int, walls: frozenset[Cell], voids: frozenset[Cell], goals: tuple[Cell, ...]
) -> dict[Cell, int]:
    dist = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        c = queue.popleft()
        for dx, dy in KING:
            n = (c[0] + dx, c[1] + dy)
            if n in dist or not (0 <= n[0] < width and 0 <= n[1] < height) or n in walls or n in voids:
                continue
            dist[n] = dist[c] + 1
            queue.append(n)
    return dist


# Facings of listed options by name (a table rather than a search of DIRS).
_FACING = {d: i for i, d in enumerate(DIRS)}
_NO_ARCS = (False,) * 8


def _cell(s: Scenario, text: str) -> Cell:
    return parse_cell(text, s.width, s.height)  # memoised in engine.geometry.square


def _exposure(
    st: PathState, c: Cell, chars: list[Figure], occ: dict[Cell, Figure], mover: Cell | None
) -> int:
    """How many characters could shoot square ``c`` (with the mover gone from where it stood)."""
    n = 0
    for ch in chars:
        assert ch.pos is not None
        if G.in_fire_arc(ch.pos, ch.facing, c) and clear(st, ch.pos, c, occ, ignore=mover):
            n += 1
    return n


def swarm_scores(st: PathState, options: list[Command]) -> list[float]:
    """A score per swarm option (higher is better)."""
    s = scen(st)
    occ = occupancy(st)
    chars = [f for f in st.figures.values() if f.side == TEAM and f.status == "board"]
    targets = [c.pos for c in chars if c.pos is not None]
    dist = distances(s, targets) if targets else {}
    exposure: dict[tuple[Cell, Cell | None], int] = {}  # (square, mover's square) -> characters covering it
    # (figure, verb, square reached) -> (score before the facing counts, steps to a character after, step
    # direction, whether the nearest character is in the arc by facing)
    reached: dict[tuple[str, str, Cell], tuple[float, int, int | None, tuple[bool, ...]]] = {}
    out: list[float] = []
    for cmd in options:
        v, a = cmd.verb, cmd.args
        if v == "end":
            out.append(-5.0)
            continue
        if v == "react":
            out.append(-BIG)
            continue
        f = st.figures[a[0]]
        if v == "attack":
            assert f.pos is not None
            foe = occ[G.ahead(f.pos, f.facing)]
            flank = 0 if R.faces(foe, f.pos) else 25
            panic = 15 if R.panic_due(st, f, foe) else 0
            out.append(100.0 + flank - panic)
            continue
        if v == "leave":
            out.append(-40.0)
            continue
        if v == "turn":
            assert f.pos is not None
            g = _FACING[a[1]]
            front = occ.get(G.ahead(f.pos, g))
            cost = G.turn_cost(f.facing, g)
            ready = front is not None and front.side == TEAM and g % 2 == 0 and f.ap - cost >= 1
            out.append(60.0 if ready else -10.0)
            continue
        # move, jump, enter: judge the square reached. Many options end on the same square (every facing):
        # what does not depend on the facing is worked out once per figure, verb and square.
        dest = _cell(s, a[1])
        g = (
            _FACING[a[2]]
            if v in ("move", "enter") and len(a) > 2  # a turned entry names its facing (ruling 29)
            else (s.entry_facing(dest) if v == "enter" else f.facing)
        )
        known = reached.get((f.id, v, dest))
        if known is None:
            before = dist.get(f.pos, BIG) if f.pos else dist.get(dest, BIG) + 1
            after = dist.get(dest, BIG)
            if (dest, f.pos) not in exposure:
                exposure[dest, f.pos] = _exposure(st, dest, chars, occ, f.pos)
            expo = exposure[dest, f.pos]
            # Judged against staying put: a bogie already in an arc gains by closing in, one hidden keeps
            # hidden.
            if f.pos and (f.pos, None) not in exposure:
                exposure[f.pos, None] = _exposure(st, f.pos, chars, occ, None)
            expo_before = exposure[f.pos, None] if f.pos else 0
            base = 15.0 * (before - after) - 0.5 * after - 20.0 * (expo - expo_before)
            if v == "enter":
                base += 10.0
            way = G.direction(f.pos, dest) if v == "move" and f.pos else None
            # face the nearest character so an attack is possible next
            near = min(targets, key=lambda t: chebyshev(t, dest), default=None)
            arcs = G.facings_covering(near[0] - dest[0], near[1] - dest[1]) if near is not None else _NO_ARCS
            known = reached[f.id, v, dest] = (base, after, way, arcs)
        score, after, way, arcs = known
        left = f.ap - 1 if v == "enter" else f.ap
        if v == "move":
            spent = G.MOVE_COST[f.facing][way][g] if way is not None else None
            left = f.ap - (spent or 0)
        elif v == "jump":
            left = f.ap - 2
        front = occ.get(G.ahead(dest, g))
        if front is not None and front.side == TEAM and g % 2 == 0:
            score += 50.0 if left >= 1 else 15.0
            if not R.faces(front, dest):
                score += 20.0
        elif after == 1 and left >= 2:
            score += 25.0  # next to a character with points left to face it and strike
        if arcs[g]:  # facing the nearest character
            score += 4.0
        out.append(score)
    # Bringing a bogie on finishes every bogie in play (rule 1.5): not while one of them has a good move.
    waiting = max(
        (
            x
            for c, x in zip(options, out, strict=True)
            if c.verb in ("move", "attack", "jump") and c.args[0] != st.active
        ),
        default=-BIG,
    )
    if waiting > 0:
        out = [x - 200.0 if c.verb == "enter" else x for c, x in zip(options, out, strict=True)]
    return out


def team_scores(st: PathState, options: list[Command], careful: bool = True) -> list[float]:
    """A score per team option. ``careful=False`` is the simple greedy team: it shoots whatever it can,
    throws bombs without looking at its friends, and otherwise walks to the goal."""
    s = scen(st)
    occ = occupancy(st)
    bogies = [f for f in st.figures.values() if f.side == SWARM and f.status == "board" and f.pos]
    goals = list(s.escapes) if s.scoring["escape"] else []
    goals += [c for c in s.objectives if c not in st.objectives]
    dist = distances(s, goals) if goals else {}
    # (figure, square reached as written) -> (score before the facing counts, the step's cost by final
    # facing, whether the nearest bogie is in the arc by final facing): many options differ only by facing.
    reached: dict[tuple[str, str], tuple[float, tuple[int | None, ...] | None, tuple[bool, ...]]] = {}
    turning: dict[str, tuple[bool, ...]] = {}  # figure -> the facings whose arc covers its nearest bogie
    out: list[float] = []
    for cmd in options:
        v, a = cmd.verb, cmd.args
        moving = v == "move"  # most options: they skip straight to the square reached
        if not moving:
            if v == "react":
                out.append(-BIG)
                continue
            if v in ("panic", "hold"):
                out.append(10.0 if v == "panic" else 0.0)
                continue
            if v == "end":
                out.append(-5.0)
                continue
        f = st.figures[a[0]]
        assert f.pos is not None
        if not moving:
            if v == "escape":
                out.append(1000.0)
                continue
            if v in ("shoot", "retreat"):
                b = st.figures[a[1] if v == "shoot" else a[2]]
                assert b.pos is not None
                at = f.pos if v == "shoot" else _cell(s, a[1])
                p = _dice_at_least(3, chebyshev(at, b.pos)) * (save_target(st, b) - 1) / 6
                threat = 10.0 / max(1, chebyshev(f.pos, b.pos))
                score = 100.0 * p + (threat if careful else 0.0)
                if v == "retreat":
                    score += 5.0
                out.append(score if careful else 100.0)
                continue
            if v == "bomb":
                b = st.figures[a[1]]
                assert b.pos is not None
                out.append(_bomb_value(st, f, b.pos, occ) if careful else 90.0)
                continue
            if v == "attack":
                out.append(35.0)
                continue
            if v == "turn":
                g = _FACING[a[1]]
                score = -8.0
                if careful and bogies:
                    arcs = turning.get(f.id)
                    if arcs is None:
                        near = min(bogies, key=lambda b: chebyshev(b.pos or (0, 0), f.pos or (0, 0)))
                        assert near.pos is not None
                        arcs = turning[f.id] = G.facings_covering(
                            near.pos[0] - f.pos[0], near.pos[1] - f.pos[1]
                        )
                    if not arcs[f.facing] and arcs[g]:
                        score = 20.0
                out.append(score)
                continue
        known = reached.get((a[0], a[1]))
        if known is None:
            dest = _cell(s, a[1])
            base = 30.0 * (dist.get(f.pos, BIG) - dist.get(dest, BIG)) if dist else 0.0
            if dest in s.objectives and dest not in st.objectives:
                base += 500.0
            near_pos: Cell | None = None
            adjacent = 0
            if careful and bogies:
                near = min(bogies, key=lambda b: chebyshev(b.pos or (0, 0), dest))
                near_pos = near.pos
                adjacent = sum(1 for b in bogies if b.pos and chebyshev(b.pos, dest) <= 1)
                base -= 6.0 * adjacent
            d = G.direction(f.pos, dest)
            arcs = (
                G.facings_covering(near_pos[0] - dest[0], near_pos[1] - dest[1])
                if near_pos is not None
                else _NO_ARCS
            )
            known = reached[a[0], a[1]] = (base, G.MOVE_COST[f.facing][d] if d is not None else None, arcs)
        score, costs, arcs = known
        g = _FACING[a[2]] if moving and len(a) > 2 else f.facing
        if careful:
            step = costs[g] if costs is not None else None
            score -= 4.0 * (step or 1)
            if arcs[g]:
                score += 8.0
        out.append(score)
    return out


def _bomb_value(st: PathState, f: Figure, target: Cell, occ: dict[Cell, Figure]) -> float:
    """Expected bogies killed minus (heavily) expected friends killed, over every 2d6 result."""
    assert f.pos is not None
    value = -25.0
    for p, spot, cells in _blasts(f.pos, target):
        for c in cells:
            o = occ.get(c)
            if o is None:
                continue
            if o.side == TEAM:
                value -= 400.0 * p
            else:
                value += 100.0 * p * (1.0 if c == spot else (save_target(st, o) - 1) / 6)
    return value


@lru_cache(maxsize=4096)
def _blasts(thrower: Cell, target: Cell) -> tuple[tuple[float, Cell, tuple[Cell, ...]], ...]:
    """For each 2d6 total of a throw from ``thrower`` at ``target``: its chance, where the bomb lands, and the
    squares its blast takes in (the landing square first)."""
    out = []
    for total in range(2, 13):
        spot = R.landing(thrower, target, total)
        cells = (spot, *((spot[0] + dx, spot[1] + dy) for dx, dy in KING))
        out.append(((6 - abs(total - 7)) / 36, spot, cells))
    return tuple(out)


def to_weights(scores: list[float]) -> list[int]:
    """Scores to pick weights: the best dominates, near-best options keep a small chance."""
    if not scores:
        return []
    best = max(scores)
    return [1000 if x >= best else 30 if x >= best - 3 else 1 if x > -BIG else 0 for x in scores]


def bot_weights(st: PathState, seat: str, options: list[Command]) -> list[int]:
    """Weights for the game's own player among ``options`` (legal commands of ``seat``)."""
    scores = swarm_scores(st, options) if seat == SWARM else team_scores(st, options)
    return to_weights(scores)


def evaluate(st: PathState, seat: str) -> float:
    """How good the position is for ``seat`` (0..1): the team's score so far plus what its standing
    characters are likely to add, against the target, with the turns left; the swarm gets the rest."""
    if st.result is not None:
        return 1.0 if seat in st.result.winners else 0.0
    s = scen(st)
    p = s.scoring
    goals = list(s.escapes) + [c for c in s.objectives if c not in st.objectives]
    dist = distances(s, goals) if goals else {}
    turns_left = max(0, s.turns - st.turn + 1)
    expect = float(R.score(st, False))
    bogies = [b for b in st.figures.values() if b.side == SWARM and b.status == "board" and b.pos]
    for ch in (f for f in st.figures.values() if f.side == TEAM and f.status == "board" and f.pos):
        assert ch.pos is not None
        danger = sum(1 for b in bogies if b.pos and chebyshev(b.pos, ch.pos) <= 2)
        alive = 0.85**danger
        reach = 1.0 if dist.get(ch.pos, BIG) <= 3 * turns_left else 0.3
        expect += alive * max(p["escape"] * reach, p["survivor"])
    team = max(0.0, min(1.0, expect / max(1, p["target"]) / 1.5))
    return team if seat == TEAM else 1.0 - team
