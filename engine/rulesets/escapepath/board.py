"""The board as the rules see it: the scenario, figures' speeds and names, what blocks, sight and fire."""

from __future__ import annotations

from engine.geometry.square import Cell
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath.content import AP, Scenario, bogie_kinds, scenarios
from engine.rulesets.escapepath.state import TEAM, Figure, PathState


def scen(st: PathState) -> Scenario:
    """The scenario being played."""
    return scenarios()[st.scenario]


def speed(f: Figure) -> str:
    """``character``, ``fast`` or ``slow``."""
    return "character" if f.side == TEAM else bogie_kinds()[f.kind].speed


def max_ap(f: Figure) -> int:
    """Action points per turn: characters 3, fast bogies 4, slow bogies 2."""
    return AP[speed(f)]


def name(st: PathState, f: Figure) -> str:
    """A figure's name for narration (``Vance``, ``alien al3``)."""
    if f.side == TEAM:
        return next(m.name for m in scen(st).team if m.id == f.id)
    return f"{bogie_kinds()[f.kind].name} {f.id}"


def save_target(st: PathState, f: Figure) -> int:
    """The lowest d6 that saves a bogie hit by a gun or caught next to a blast: fast 5, slow 4 (3 with the
    new bogie save rule)."""
    if speed(f) == "fast":
        return 5
    return 3 if st.new_save else 4


def occupancy(st: PathState) -> dict[Cell, Figure]:
    """Square to the figure standing on it."""
    return {f.pos: f for f in st.figures.values() if f.status == "board" and f.pos is not None}


def blocker(st: PathState, occ: dict[Cell, Figure], ignore: Cell | None = None) -> G.CellBlocks:
    """What blocks movement, sight and fire: walls/objects and figures (``ignore`` excepted)."""
    walls = scen(st).walls

    def blocks(c: Cell) -> bool:
        return c != ignore and (c in walls or c in occ)

    return blocks


# Per set of walls (a map's), the sight lines the walls leave open: (a, b) -> (open squares between,
# corners as (side, side is a wall, other side, other side is a wall)), or None when walls alone block it.
_Corner = tuple[Cell, bool, Cell, bool]
_LINES: dict[
    frozenset[Cell], dict[tuple[Cell, Cell], tuple[tuple[Cell, ...], tuple[_Corner, ...]] | None]
] = {}


def _wall_line(
    walls: frozenset[Cell], a: Cell, b: Cell
) -> tuple[tuple[Cell, ...], tuple[_Corner, ...]] | None:
    cells, corners = G.line_squares(a, b)
    if any(c in walls for c in cells):
        return None
    marked = [(p, p in walls, q, q in walls) for p, q in corners]
    if any(pw and qw for _p, pw, _q, qw in marked):
        return None
    return cells, tuple(marked)


def clear(st: PathState, a: Cell, b: Cell, occ: dict[Cell, Figure], ignore: Cell | None = None) -> bool:
    """``G.clear_line(a, b, blocker(st, occ, ignore))``, with what the walls do to the line worked out once per
    scenario and kept. ``ignore`` must not be a wall (it is a figure's square)."""
    walls = scen(st).walls
    lines = _LINES.get(walls)
    if lines is None:
        lines = _LINES[walls] = {}
    key = (a, b)
    if key in lines:
        line = lines[key]
    else:
        if len(lines) >= 65536:  # a bound for maps larger than any authored one (140 squares: 19,600 lines)
            lines.clear()
        line = lines[key] = _wall_line(walls, a, b)
    if line is None:
        return False
    cells, corners = line
    for c in cells:
        if c in occ and c != ignore:
            return False
    for p, pw, q, qw in corners:
        if (pw or (p in occ and p != ignore)) and (qw or (q in occ and q != ignore)):
            return False
    return True


def can_see(st: PathState, f: Figure, c: Cell, occ: dict[Cell, Figure], facing: int | None = None) -> bool:
    """Whether ``f`` (facing ``facing``, default its own) sees square ``c``: in its 180 degree sight, line clear."""
    assert f.pos is not None
    fc = f.facing if facing is None else facing
    return G.in_sight_arc(f.pos, fc, c) and clear(st, f.pos, c, occ)


def can_fire(
    st: PathState,
    f: Figure,
    c: Cell,
    occ: dict[Cell, Figure],
    facing: int | None = None,
    at: Cell | None = None,
) -> bool:
    """Whether ``f`` (from ``at``, facing ``facing``) may shoot or throw at ``c``: in its 90 degree arc, not the
    square directly in front, line clear."""
    pos = f.pos if at is None else at
    assert pos is not None
    fc = f.facing if facing is None else facing
    if c == G.ahead(pos, fc) or not G.in_fire_arc(pos, fc, c):
        return False
    return clear(st, pos, c, occ, ignore=f.pos if at is not None else None)


def fire_arc_cells(st: PathState, f: Figure) -> list[Cell]:
    """The squares ``f`` could shoot at now (for the shaded arc)."""
    s, occ = scen(st), occupancy(st)
    return [
        (x, y)
        for y in range(s.height)
        for x in range(s.width)
        if (x, y) not in s.walls and f.pos is not None and can_fire(st, f, (x, y), occ)
    ]


def roll(st: PathState, n: int) -> tuple[int, ...]:
    """``n`` six-sided dice from the state's generator."""
    return tuple(st.rng.roll(6) for _ in range(n))
