"""What one figure can do now, as canonical commands: steps with their facing, jumps across voids, turns,
shots (with the free turn), retreat shots, bombs, close combat, escapes, entries and exits of bogies."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core import Command
from engine.geometry.square import Cell, cell_name, chebyshev
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath.board import blocker, can_fire, can_see, name, occupancy, scen
from engine.rulesets.escapepath.content import DIRS, VECTORS
from engine.rulesets.escapepath.state import SWARM, TEAM, Figure, PathState

TRAPPED_VERBS = frozenset({"move", "jump", "leave"})


def _open(st: PathState, c: Cell, occ: dict[Cell, Figure]) -> bool:
    s = scen(st)
    return s.on_board(c) and c not in s.walls and c not in s.voids and c not in occ and c not in st.closed


def step_options(st: PathState, f: Figure) -> Iterator[tuple[Cell, int, int]]:
    """(square, final facing, AP) for every one-square step ``f`` can afford, turning on the way."""
    if f.pos is None:
        return
    occ = occupancy(st)
    blocks = blocker(st, occ)
    x, y = f.pos
    for d, (dx, dy) in enumerate(VECTORS):
        n = (x + dx, y + dy)
        if not _open(st, n, occ):
            continue
        if dx and dy and blocks((x + dx, y)) and blocks((x, y + dy)):
            continue  # the diagonal between two blockers
        for g in range(8):
            cost = G.move_cost(f.facing, d, g)
            if cost is not None and cost <= f.ap:
                yield n, g, cost


def jump_options(st: PathState, f: Figure) -> Iterator[tuple[Cell, int]]:
    """(landing square, AP) for straight jumps across voids (voids rule): AP as if walking, no turning."""
    s = scen(st)
    if f.pos is None or "voids" not in s.rules:
        return
    occ = occupancy(st)
    for d in (0, 2, 4, 6):
        dx, dy = VECTORS[d]
        c, n = (f.pos[0] + dx, f.pos[1] + dy), 1
        if c not in s.voids:
            continue
        while c in s.voids:
            c, n = (c[0] + dx, c[1] + dy), n + 1
        cost = n * G.step_cost(f.facing, d)
        if _open(st, c, occ) and cost <= f.ap:
            yield c, cost


def reach(st: PathState, f: Figure) -> set[Cell]:
    """Every square ``f`` can get to this turn with the points it has left (steps, turns, jumps)."""
    if f.pos is None:
        return set()
    s = scen(st)
    occ = {c: o for c, o in occupancy(st).items() if o is not f}
    blocks = blocker(st, occ)
    best: dict[tuple[Cell, int], int] = {(f.pos, f.facing): f.ap}
    todo = [(f.pos, f.facing)]
    while todo:
        pos, facing = todo.pop()
        ap = best[(pos, facing)]
        nexts: list[tuple[Cell, int, int]] = [
            (pos, g, G.turn_cost(facing, g)) for g in range(8) if g != facing
        ]
        for d, (dx, dy) in enumerate(VECTORS):
            n = (pos[0] + dx, pos[1] + dy)
            if _open(st, n, occ) and not (
                dx and dy and blocks((pos[0] + dx, pos[1])) and blocks((pos[0], pos[1] + dy))
            ):
                nexts += [(n, g, c) for g in range(8) if (c := G.move_cost(facing, d, g)) is not None]
            if "voids" in s.rules and d % 2 == 0 and n in s.voids:
                far, k = n, 1
                while far in s.voids:
                    far, k = (far[0] + dx, far[1] + dy), k + 1
                if _open(st, far, occ):
                    nexts.append((far, facing, k * G.step_cost(facing, d)))
        for n, g, cost in nexts:
            if cost <= ap and best.get((n, g), -1) < ap - cost:
                best[(n, g)] = ap - cost
                todo.append((n, g))
    return {pos for pos, _g in best} - {f.pos}


def _turning(f: Figure, g: int) -> str:
    return f", turning {DIRS[g]}" if g != f.facing else ""


def figure_commands(st: PathState, f: Figure, nm: str) -> list[Command]:
    """Every command for figure ``f`` (named ``nm``) that the rules allow now, assuming it may act."""
    s = scen(st)
    out: list[Command] = []
    trapped = f.id in st.trapped
    if f.status == "pool":
        return [
            Command("enter", (f.id, cell_name(c)), f"{nm} enters at {cell_name(c)} (1 AP)")
            for c in entry_points(st)
        ]
    assert f.pos is not None
    for dest, g, cost in step_options(st, f):
        args = (f.id, cell_name(dest)) if g == f.facing else (f.id, cell_name(dest), DIRS[g])
        out.append(Command("move", args, f"{nm} to {cell_name(dest)}{_turning(f, g)} ({cost} AP)"))
    for dest, cost in jump_options(st, f):
        out.append(Command("jump", (f.id, cell_name(dest)), f"{nm} jumps to {cell_name(dest)} ({cost} AP)"))
    if f.side == SWARM and f.pos in s.entries and f.ap >= 1:
        out.append(Command("leave", (f.id,), f"{nm} leaves the map (1 AP)"))
    if trapped:
        return out
    for g in range(8):
        cost = G.turn_cost(f.facing, g)
        if g != f.facing and cost <= f.ap:
            out.append(Command("turn", (f.id, DIRS[g]), f"{nm} turns {DIRS[g]} ({cost} AP)"))
    occ = occupancy(st)
    front = G.ahead(f.pos, f.facing)
    foe = occ.get(front)
    if foe is not None and foe.side != f.side and f.facing % 2 == 0 and f.ap >= 1:
        foe_name = name(st, foe) if foe.side == TEAM else foe.id
        out.append(Command("attack", (f.id,), f"{nm} attacks {foe_name} (1 AP)"))
    if f.side == TEAM:
        if f.pos in s.escapes and f.ap >= 1:
            out.append(Command("escape", (f.id,), f"{nm} escapes (1 AP)"))
        out += _ranged(st, f, nm, occ)
    return out


def entry_points(st: PathState) -> list[Cell]:
    """Entry points a new bogie may use now (empty when the scenario's cap of bogies in play is reached)."""
    s = scen(st)
    occ = occupancy(st)
    if sum(1 for f in st.figures.values() if f.side == SWARM and f.status == "board") >= s.cap:
        return []
    return [c for c in s.entries if c not in occ and c not in st.closed]


def shot_facings(st: PathState, f: Figure, target: Cell, occ: dict[Cell, Figure]) -> list[int | None]:
    """The ways ``f`` may shoot or throw at ``target``: None (no turn) if it is in the arc now, and each
    facing reached by the free 90 degree turn before or after the shot (only onto a target already seen)."""
    out: list[int | None] = []
    now = can_fire(st, f, target, occ)
    seen = now or can_see(st, f, target, occ)
    if now:
        out.append(None)
    if not seen:
        return out
    for g in range(8):
        if 1 <= G.turn_steps(f.facing, g) <= 2 and (now or can_fire(st, f, target, occ, facing=g)):
            out.append(g)
    return out


def _ranged(st: PathState, f: Figure, nm: str, occ: dict[Cell, Figure]) -> list[Command]:
    assert f.pos is not None
    s = scen(st)
    out: list[Command] = []
    bogies = [b for b in st.figures.values() if b.side == SWARM and b.status == "board" and b.pos]
    for b in bogies:
        assert b.pos is not None
        rng = chebyshev(f.pos, b.pos)
        for g in shot_facings(st, f, b.pos, occ):
            extra = (DIRS[g],) if g is not None else ()
            turn = f", turning {DIRS[g]}" if g is not None else ""
            if f.ap >= 1:
                out.append(
                    Command("shoot", (f.id, b.id, *extra), f"{nm} shoots {b.id}, range {rng}{turn} (1 AP)")
                )
            if f.ap >= 2 and f.bombs > 0:
                out.append(
                    Command(
                        "bomb",
                        (f.id, b.id, *extra),
                        f"{nm} throws a {s.bomb} at {b.id}, range {rng}{turn} (2 AP)",
                    )
                )
    if f.ap >= 2:
        for dest, g, cost in step_options(st, f):
            d = G.direction(f.pos, dest)
            if g != f.facing or cost != 2 or d is None or G.step_cost(f.facing, d) != 2:
                continue
            for b in bogies:
                assert b.pos is not None
                if can_fire(st, f, b.pos, occ, at=dest):
                    out.append(
                        Command(
                            "retreat",
                            (f.id, cell_name(dest), b.id),
                            f"{nm} backs to {cell_name(dest)} and shoots {b.id} (2 AP)",
                        )  # fmt: skip
                    )
    return out
