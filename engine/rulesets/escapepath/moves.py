"""What one figure can do now, as canonical commands: steps with their facing, jumps across voids, turns,
shots (with the free turn), retreat shots, bombs, close combat, escapes, entries and exits of bogies.

Options are listed raw first (:data:`Option` tuples) and worded as commands only when asked, so the
self-play sampler can count them (steps by table) and word just the one it picks."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core import Command
from engine.geometry.square import Cell, cell_name, chebyshev
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath.board import blocker, can_fire, clear, name, occupancy, scen
from engine.rulesets.escapepath.content import DIRS, VECTORS, Scenario
from engine.rulesets.escapepath.state import SWARM, TEAM, Figure, PathState

TRAPPED_VERBS = frozenset({"move", "jump", "leave"})


def _open(st: PathState, c: Cell, occ: dict[Cell, Figure]) -> bool:
    s = scen(st)
    return s.on_board(c) and c not in s.walls and c not in s.voids and c not in occ and c not in st.closed


def _steps(st: PathState, f: Figure, occ: dict[Cell, Figure]) -> Iterator[tuple[Cell, int]]:
    """(square, direction) for every neighbouring square ``f`` may step onto, ignoring its points."""
    s = scen(st)
    walls, voids, closed, width, height = s.walls, s.voids, st.closed, s.width, s.height
    assert f.pos is not None
    x, y = f.pos
    for d, (dx, dy) in enumerate(VECTORS):
        nx, ny = x + dx, y + dy
        n = (nx, ny)
        if not (0 <= nx < width and 0 <= ny < height) or n in walls or n in voids or n in occ or n in closed:
            continue
        if dx and dy:
            a, b = (nx, y), (x, ny)
            if (a in walls or a in occ) and (b in walls or b in occ):
                continue  # the diagonal between two blockers
        yield n, d


def step_options(
    st: PathState, f: Figure, occ: dict[Cell, Figure] | None = None
) -> Iterator[tuple[Cell, int, int]]:
    """(square, final facing, AP) for every one-square step ``f`` can afford, turning on the way (``occ``:
    the board's occupancy, when the caller has it)."""
    if f.pos is None:
        return
    options = G.MOVE_OPTIONS[f.facing]
    ap = f.ap
    for n, d in _steps(st, f, occupancy(st) if occ is None else occ):
        for g, cost in options[d]:
            if cost <= ap:
                yield n, g, cost


def jump_options(
    st: PathState, f: Figure, occ: dict[Cell, Figure] | None = None
) -> Iterator[tuple[Cell, int]]:
    """(landing square, AP) for straight jumps across voids (voids rule): AP as if walking, no turning."""
    s = scen(st)
    if f.pos is None or "voids" not in s.rules:
        return
    if occ is None:
        occ = occupancy(st)
    for d in (0, 2, 4, 6):
        dx, dy = VECTORS[d]
        c, n = (f.pos[0] + dx, f.pos[1] + dy), 1
        if c not in s.voids:
            continue
        while c in s.voids:
            c, n = (c[0] + dx, c[1] + dy), n + 1
        cost = n * G.STEP_COST[f.facing][d]
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


# A raw option, before it is worded: (verb, square, facing (-1: none), AP or range, target figure id).
Option = tuple[str, Cell | None, int, int, str]


def figure_options(
    st: PathState, f: Figure, occ: dict[Cell, Figure], shots: list[Option] | None = None
) -> list[Option]:
    """Every option for figure ``f`` that the rules allow now, assuming it may act, in the order of
    :func:`figure_commands` (``occ``: the board's occupancy; ``shots``: a character's shooting options,
    when :func:`count_options` has listed them already)."""
    s = scen(st)
    if f.status == "pool":
        return [("enter", c, g, 1, "") for c in entry_points(st, occ) for g in entry_facings(s, c)]
    assert f.pos is not None
    steps = list(_steps(st, f, occ))
    moves, ap = G.MOVE_OPTIONS[f.facing], f.ap
    out: list[Option] = [("move", n, g, cost, "") for n, d in steps for g, cost in moves[d] if cost <= ap]
    if "voids" in s.rules:
        out += [("jump", dest, -1, cost, "") for dest, cost in jump_options(st, f, occ)]
    if f.side == SWARM and f.pos in s.entries and f.ap >= 1:
        out.append(("leave", None, -1, 1, ""))
    if f.id in st.trapped:
        return out
    costs = G.TURN_COST[f.facing]
    for g in range(8):
        if g != f.facing and costs[g] <= f.ap:
            out.append(("turn", None, g, costs[g], ""))
    foe = occ.get(G.ahead(f.pos, f.facing))
    if foe is not None and foe.side != f.side and f.facing % 2 == 0 and f.ap >= 1:
        out.append(("attack", None, -1, 1, foe.id))
    if f.side == TEAM:
        if f.pos in s.escapes and f.ap >= 1:
            out.append(("escape", None, -1, 1, ""))
        out += _ranged(st, f, occ, steps) if shots is None else shots
    return out


def count_options(st: PathState, f: Figure, occ: dict[Cell, Figure]) -> tuple[int, list[Option] | None]:
    """``len(figure_options(st, f, occ))``, counted without listing the steps one by one; with a
    character's shooting options (listed to be counted: pass them back to :func:`figure_options`)."""
    s = scen(st)
    if f.status == "pool":
        return sum(len(entry_facings(s, c)) for c in entry_points(st, occ)), None
    assert f.pos is not None
    ap = min(f.ap, 2)  # no step costs more than 2
    counts = G.MOVE_COUNT[f.facing]
    steps = list(_steps(st, f, occ))
    n = sum(counts[d][ap] for _c, d in steps)
    if "voids" in s.rules:
        n += sum(1 for _ in jump_options(st, f, occ))
    if f.side == SWARM and f.pos in s.entries and f.ap >= 1:
        n += 1
    if f.id in st.trapped:
        return n, None
    n += G.TURNS_WITHIN[f.facing][min(f.ap, 2)]
    foe = occ.get(G.ahead(f.pos, f.facing))
    if foe is not None and foe.side != f.side and f.facing % 2 == 0 and f.ap >= 1:
        n += 1
    if f.side != TEAM:
        return n, None
    if f.pos in s.escapes and f.ap >= 1:
        n += 1
    shots = _ranged(st, f, occ, steps)
    return n + len(shots), shots


# Worded commands by everything their wording depends on (commands are immutable, so they are shared):
# the search lists the same options over and over. Cleared when full, to bound the memory it takes.
_WORDED: dict[tuple[Option, str, int, str, str], Command] = {}
_WORDED_MAX = 50_000


def option_command(st: PathState, f: Figure, nm: str, o: Option) -> Command:
    """The command for raw option ``o`` of figure ``f`` (named ``nm``), worded for the menus."""
    if o[0] == "attack":  # worded with the foe's name: rare, not kept
        return _word(st, f, nm, o)
    key = (o, f.id, f.facing, nm, scen(st).bomb if o[0] == "bomb" else "")
    command = _WORDED.get(key)
    if command is None:
        if len(_WORDED) >= _WORDED_MAX:
            _WORDED.clear()
        command = _WORDED[key] = _word(st, f, nm, o)
    return command


def _word(st: PathState, f: Figure, nm: str, o: Option) -> Command:
    verb, c, g, cost, target = o
    if verb == "move":
        assert c is not None
        args = (f.id, cell_name(c)) if g == f.facing else (f.id, cell_name(c), DIRS[g])
        turning = f", turning {DIRS[g]}" if g != f.facing else ""
        return Command("move", args, f"{nm} to {cell_name(c)}{turning} ({cost} AP)")
    if verb == "turn":
        return Command("turn", (f.id, DIRS[g]), f"{nm} turns {DIRS[g]} ({cost} AP)")
    if verb in ("shoot", "bomb"):
        extra = (DIRS[g],) if g >= 0 else ()
        turn = f", turning {DIRS[g]}" if g >= 0 else ""
        if verb == "shoot":
            return Command(
                "shoot", (f.id, target, *extra), f"{nm} shoots {target}, range {cost}{turn} (1 AP)"
            )
        what = scen(st).bomb
        return Command(
            "bomb", (f.id, target, *extra), f"{nm} throws a {what} at {target}, range {cost}{turn} (2 AP)"
        )
    if verb == "enter":
        assert c is not None
        if g < 0:
            return Command("enter", (f.id, cell_name(c)), f"{nm} enters at {cell_name(c)} (1 AP)")
        return Command(
            "enter", (f.id, cell_name(c), DIRS[g]), f"{nm} enters at {cell_name(c)}, turning {DIRS[g]} (1 AP)"
        )
    if verb == "jump":
        assert c is not None
        return Command("jump", (f.id, cell_name(c)), f"{nm} jumps to {cell_name(c)} ({cost} AP)")
    if verb == "retreat":
        assert c is not None
        return Command(
            "retreat",
            (f.id, cell_name(c), target),
            f"{nm} backs to {cell_name(c)} and shoots {target} (2 AP)",
        )
    if verb == "attack":
        foe = st.figures[target]
        foe_name = name(st, foe) if foe.side == TEAM else foe.id
        return Command("attack", (f.id,), f"{nm} attacks {foe_name} (1 AP)")
    if verb == "escape":
        return Command("escape", (f.id,), f"{nm} escapes (1 AP)")
    return Command("leave", (f.id,), f"{nm} leaves the map (1 AP)")


def figure_commands(
    st: PathState, f: Figure, nm: str, occ: dict[Cell, Figure] | None = None
) -> list[Command]:
    """Every command for figure ``f`` (named ``nm``) that the rules allow now, assuming it may act."""
    options = figure_options(st, f, occupancy(st) if occ is None else occ)
    return [option_command(st, f, nm, o) for o in options]


def entry_facings(s: Scenario, c: Cell) -> tuple[int, ...]:
    """The facings a bogie coming on at ``c`` may end with, in option order: -1 for straight in
    (:meth:`Scenario.entry_facing`), then each facing the entry's 1 AP of movement turns to (rule 3.2: up to
    90 degrees either way)."""
    return (-1, *G.FREE_TURNS[s.entry_facing(c)])


def entry_points(st: PathState, occ: dict[Cell, Figure] | None = None) -> list[Cell]:
    """Entry points a new bogie may use now (empty when the scenario's cap of bogies in play is reached)."""
    s = scen(st)
    if occ is None:
        occ = occupancy(st)
    if sum(1 for f in st.figures.values() if f.side == SWARM and f.status == "board") >= s.cap:
        return []
    return [c for c in s.entries if c not in occ and c not in st.closed]


def shot_facings(st: PathState, f: Figure, target: Cell, occ: dict[Cell, Figure]) -> list[int | None]:
    """The ways ``f`` may shoot or throw at ``target``: None (no turn) if it is in the arc now, and each
    facing reached by the free 90 degree turn before or after the shot (only onto a target already seen)."""
    pos, facing = f.pos, f.facing
    assert pos is not None
    # can_fire and can_see, with the line of fire worked out once: it is the same line whatever the facing,
    # and the arc of fire lies inside the arc of sight.
    now = target != G.ahead(pos, facing) and G.in_fire_arc(pos, facing, target)
    if not (now or G.in_sight_arc(pos, facing, target)) or not clear(st, pos, target, occ):
        return []
    out: list[int | None] = [None] if now else []
    for g in G.FREE_TURNS[facing]:
        if now or (target != G.ahead(pos, g) and G.in_fire_arc(pos, g, target)):
            out.append(g)
    return out


def _ranged(st: PathState, f: Figure, occ: dict[Cell, Figure], steps: list[tuple[Cell, int]]) -> list[Option]:
    assert f.pos is not None
    out: list[Option] = []
    bogies = [b for b in st.figures.values() if b.side == SWARM and b.status == "board" and b.pos]
    for b in bogies:
        assert b.pos is not None
        rng = chebyshev(f.pos, b.pos)
        for g in shot_facings(st, f, b.pos, occ):
            facing = -1 if g is None else g
            if f.ap >= 1:
                out.append(("shoot", None, facing, rng, b.id))
            if f.ap >= 2 and f.bombs > 0:
                out.append(("bomb", None, facing, rng, b.id))
    if f.ap >= 2:
        costs = G.STEP_COST[f.facing]
        for dest, d in steps:
            # a retreat: a step costing 2 without turning (backward or diagonally backward)
            if costs[d] != 2 or G.MOVE_COST[f.facing][d][f.facing] != 2:
                continue
            for b in bogies:
                assert b.pos is not None
                if can_fire(st, f, b.pos, occ, at=dest):
                    out.append(("retreat", dest, -1, 2, b.id))
    return out
