"""Escape Path's geometry on the square grid: facing, the 180 degree sight and the 90 degree arc of fire,
movement costs by direction, and blocking (figures and objects block, the diagonal between two
blockers included). Pure functions over cells; the rules supply what blocks."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from engine.geometry.square import Cell, line_of_sight, sight_line
from engine.rulesets.escapepath.content import DIRS, VECTORS

CellBlocks = Callable[[Cell], bool]


def _never(a: Cell, b: Cell) -> bool:
    return False


_DIRECTION = {v: d for d, v in enumerate(VECTORS)}


def direction(a: Cell, b: Cell) -> int | None:
    """The direction index (0 n .. 7 nw) of the one-square step from ``a`` to ``b``; None if not a step."""
    return _DIRECTION.get((b[0] - a[0], b[1] - a[1]))


def ahead(c: Cell, facing: int) -> Cell:
    """The square directly in front of ``c`` for a figure facing ``facing``."""
    return c[0] + VECTORS[facing][0], c[1] + VECTORS[facing][1]


def _turn_steps(a: int, b: int) -> int:
    d = (a - b) % 8
    return min(d, 8 - d)


def _step_cost(facing: int, step: int) -> int:
    return 1 if _turn_steps(facing, step) <= 2 else 2


def _move_cost(facing: int, step: int, final: int) -> int | None:
    turn = _turn_steps(facing, final)
    costs = [c for c in (_step_cost(facing, step), _step_cost(final, step)) if turn <= 2 * c]
    return min(costs) if costs else None


# The costs depend only on three directions: tabulated once, looked up in the hot loops.
TURN_STEPS = tuple(tuple(_turn_steps(a, b) for b in range(8)) for a in range(8))
TURN_COST = tuple(tuple((TURN_STEPS[a][b] + 1) // 2 for b in range(8)) for a in range(8))
# The facings the free turn of a shot reaches from each facing (90 degrees or less, not none), in order.
FREE_TURNS = tuple(tuple(b for b in range(8) if 1 <= TURN_STEPS[a][b] <= 2) for a in range(8))
STEP_COST = tuple(tuple(_step_cost(f, d) for d in range(8)) for f in range(8))
MOVE_COST = tuple(tuple(tuple(_move_cost(f, d, g) for g in range(8)) for d in range(8)) for f in range(8))
# MOVE_OPTIONS[facing][step]: every (final facing, AP) a step allows, by final facing.
MOVE_OPTIONS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple((g, c) for g, c in enumerate(MOVE_COST[f][d]) if c is not None) for d in range(8))
    for f in range(8)
)
# MOVE_COUNT[facing][step][ap]: how many of those a figure with ``ap`` points (0..4) can afford.
MOVE_COUNT = tuple(
    tuple(tuple(sum(1 for _g, c in MOVE_OPTIONS[f][d] if c <= ap) for ap in range(5)) for d in range(8))
    for f in range(8)
)

# TURNS_WITHIN[facing][ap]: how many turns on the spot a figure with ``ap`` points (0..2) can afford.
TURNS_WITHIN = tuple(
    tuple(sum(1 for g in range(8) if g != f and TURN_COST[f][g] <= ap) for ap in range(3)) for f in range(8)
)


def turn_steps(a: int, b: int) -> int:
    """How many 45 degree steps turn facing ``a`` into ``b`` the short way (0..4)."""
    return TURN_STEPS[a][b]


def turn_cost(a: int, b: int) -> int:
    """AP to turn on the spot from ``a`` to ``b``: one per 90 degrees or part of it."""
    return TURN_COST[a][b]


def step_cost(facing: int, step: int) -> int:
    """AP for one step in direction ``step``: forward, diagonally forward or sideways 1; backward or
    diagonally backward 2."""
    return STEP_COST[facing][step]


def move_cost(facing: int, step: int, final: int) -> int | None:
    """AP for a step that ends facing ``final`` (None: impossible). A step allows 90 degrees of turn per AP
    it costs, before or after the step, whichever is cheaper."""
    return MOVE_COST[facing][step][final]


def in_sight_arc(pos: Cell, facing: int, c: Cell) -> bool:
    """Whether ``c`` lies in the 180 degree half-plane in front of a figure (its own square excluded)."""
    vx, vy = c[0] - pos[0], c[1] - pos[1]
    dx, dy = VECTORS[facing]
    return (vx, vy) != (0, 0) and vx * dx + vy * dy >= 0


def in_fire_arc(pos: Cell, facing: int, c: Cell) -> bool:
    """Whether ``c`` lies in the 90 degree arc of fire (within 45 degrees of the facing)."""
    vx, vy = c[0] - pos[0], c[1] - pos[1]
    dx, dy = VECTORS[facing]
    dot = vx * dx + vy * dy
    if dot <= 0:
        return False
    if dx == 0 or dy == 0:
        return dot * dot * 2 >= vx * vx + vy * vy
    return vx * dx >= 0 and vy * dy >= 0


@lru_cache(maxsize=4096)
def facings_covering(vx: int, vy: int) -> tuple[bool, ...]:
    """For each facing (0 n .. 7 nw), whether a square ``(vx, vy)`` away lies in its arc of fire
    (:func:`in_fire_arc`, worked out once per offset)."""
    return tuple(in_fire_arc((0, 0), facing, (vx, vy)) for facing in range(8))


def clear_line(a: Cell, b: Cell, blocks: CellBlocks) -> bool:
    """Whether nothing blocks the line from ``a`` to ``b`` (the end squares themselves do not count; a line
    through a corner is blocked only when both squares beside it block)."""
    return line_of_sight(a, b, _never, blocks)


@lru_cache(maxsize=65536)
def line_squares(a: Cell, b: Cell) -> tuple[tuple[Cell, ...], tuple[tuple[Cell, Cell], ...]]:
    """What :func:`clear_line` looks at between ``a`` and ``b``: the squares strictly between them, and the
    two side squares of each corner the line passes exactly through (cached: it depends on nothing else)."""
    cells: list[Cell] = []
    corners: list[tuple[Cell, Cell]] = []
    if a != b:
        for frm, to, corner in sight_line(a, b):
            if corner:
                corners.append(((to[0], frm[1]), (frm[0], to[1])))
            if to != b:
                cells.append(to)
    return tuple(cells), tuple(corners)


def dir_name(d: int) -> str:
    """The typed name of a direction index (``n``, ``ne``...)."""
    return DIRS[d]
