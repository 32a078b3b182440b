"""ESCAPE hooks for the search player: a fast state copy, determinization and a position evaluation.

Hidden in ESCAPE: what face-down tokens hold (their kind is public: placing one is narrated) and the
order of the equipment and objective pools, plus the future dice. The evaluation reads only public facts.
"""

from __future__ import annotations

from engine.ai.copying import flat, plain, rng_copy
from engine.dice import Rng
from engine.geometry.square import Cell, EdgeKey
from engine.rulesets.escape import rules as R
from engine.rulesets.escape.policy import path_distances
from engine.rulesets.escape.state import Door, EscapeState, Token, Unit


def copy_state(st: EscapeState) -> EscapeState:
    """An independent deep copy of ``st`` (about ten times cheaper than a JSON round trip)."""
    new = flat(st)
    new.rng = rng_copy(st.rng)
    new.lineups = {k: list(v) for k, v in st.lineups.items()}
    units = {}
    for k, u in st.units.items():
        c: Unit = flat(u)
        c.used, c.bonus, c.mods = list(u.used), list(u.bonus), list(u.mods)
        units[k] = c
    new.units = units
    new.doors = {k: Door(d.open, d.locked, d.difficulty) for k, d in st.doors.items()}
    new.tokens = {k: flat(t) for k, t in st.tokens.items()}
    new.destroyed = list(st.destroyed)
    new.equipment_pool = list(st.equipment_pool)
    new.objective_pool = list(st.objective_pool)
    new.policies = {k: dict(v) for k, v in st.policies.items()}
    new.stack = plain(st.stack)
    new.trail = list(st.trail)
    new.attacks = list(st.attacks)
    return new


def determinize(st: EscapeState, seat: str, rng: Rng) -> EscapeState:
    """A copy with every face-down token's contents dealt anew, with the undrawn pool, from ``rng``.

    Both sides see the same in ESCAPE, so the seat does not matter. The contents are gathered in sorted
    order before the deal, so the result depends only on public facts and ``rng``.
    """
    new = copy_state(st)
    hidden: list[Token] = sorted(
        (t for t in new.tokens.values() if not t.face_up and t.kind in ("equipment", "objective")),
        key=lambda t: t.id,
    )
    if hidden or new.equipment_pool or new.objective_pool:
        items = sorted([t.item for t in hidden if t.kind == "equipment"] + new.equipment_pool)
        values = sorted([t.value for t in hidden if t.kind == "objective"] + new.objective_pool)
        rng.shuffle(items)
        rng.shuffle(values)
        for t in hidden:
            if t.kind == "equipment":
                t.item = items.pop()
            else:
                t.value = values.pop()
        new.equipment_pool, new.objective_pool = items, values
    new.rng = Rng(seed=rng.below(2**62))
    return new


_DISTANCES: dict[tuple[str, tuple[Cell, ...], tuple[EdgeKey, ...]], dict[Cell, int]] = {}


def _distances(st: EscapeState, goals: tuple[Cell, ...]) -> dict[Cell, int]:
    # Walking distances depend on the map, the doors (any door is passable) and destroyed walls only.
    key = (st.scenario, goals, tuple(st.destroyed))
    found = _DISTANCES.get(key)
    if found is None:
        if len(_DISTANCES) > 512:
            _DISTANCES.clear()
        found = _DISTANCES[key] = path_distances(st, list(goals), "resistance")
    return found


def _goal_cells(st: EscapeState) -> tuple[Cell, ...]:
    s = R.scen(st)
    v = s.victory["resistance"]
    b = R.board(st)
    if v["type"] == "hold_room":
        return tuple(sorted(b.room_cells(v["room"])))
    return tuple(sorted(c for n in s.exits for c in b.airlocks[n]))


def resistance_score(st: EscapeState) -> float:
    """How well the Resistance stands, 0..1: progress to its goal against the I.S.C.'s take-outs, life
    left on each side, and how far its characters are from where they must go."""
    s = R.scen(st)
    vr, vi = s.victory["resistance"], s.victory["isc"]
    res = [u for u in st.units.values() if u.seat == "resistance"]
    isc = [u for u in st.units.values() if u.seat == "isc"]
    outs = sum(u.status == "out" for u in res)
    threat = outs / max(1, int(vi.get("count", len(res))))
    kind = vr["type"]
    goals = _goal_cells(st)
    dist = _distances(st, goals) if goals else {}
    on_board = [u for u in res if u.status == "board" and u.pos is not None]
    if kind == "escaped":
        progress = sum(u.status == "escaped" for u in res) / max(1, int(vr["count"]))
        walkers = on_board
    elif kind == "carried_points":
        need = max(1, int(vr["points"]))
        carried = sum(st.tokens[u.carrying].value for u in on_board
                      if u.carrying and st.tokens[u.carrying].kind == "objective")  # fmt: skip
        progress = min(1.0, (st.carried_points + 0.5 * carried) / need)
        walkers = [u for u in on_board if u.carrying] or on_board
    else:  # hold_room
        room = vr["room"]
        b = R.board(st)
        inside = [
            u for u in st.units.values() if u.status == "board" and u.pos and b.cell_room[u.pos] == room
        ]
        r = sum(u.seat == "resistance" for u in inside)
        i = sum(u.seat == "isc" for u in inside)
        progress = min(1.0, r / max(1, int(vr["min"]))) * (1.0 if r > i else 0.6)
        walkers = on_board
    # Walking distance of the characters the goal needs (as many as it counts) to where they must go.
    need = int(vr.get("min", vr.get("count", 2)))
    near = 0.0
    if walkers and dist:
        steps = sorted(dist.get(u.pos, 40) for u in walkers if u.pos is not None)[: max(1, need)]
        near = sum(1.0 / (1.0 + d / 3.0) for d in steps) / max(1, need)
    life = [
        max(0, R.prof(u).life - u.damage) / R.prof(u).life for u in res if u.status in ("board", "reserve")
    ]
    foe = [
        max(0, R.prof(u).life - u.damage) / R.prof(u).life for u in isc if u.status in ("board", "reserve")
    ]
    material = sum(life) / max(1, len(res)) - sum(foe) / max(1, len(isc))
    score = 0.45 + 0.3 * progress - 0.3 * threat + 0.2 * near + 0.12 * material
    return min(0.98, max(0.02, score))


def evaluate(st: EscapeState, seat: str) -> float:
    """The position for ``seat`` in 0..1: the result once the game is over, else :func:`resistance_score`."""
    if st.result is not None:
        if not st.result.winners:
            return 0.5
        return 1.0 if seat in st.result.winners else 0.0
    r = resistance_score(st)
    return r if seat == "resistance" else 1.0 - r
