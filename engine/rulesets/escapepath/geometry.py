"""Escape Path's geometry on the square grid: facing, the 180 degree sight and the 90 degree arc of fire,
movement costs by direction, and blocking (figures and objects block, the diagonal between two
blockers included). Pure functions over cells; the rules supply what blocks."""

from __future__ import annotations

from collections.abc import Callable

from engine.geometry.square import Cell, line_of_sight
from engine.rulesets.escapepath.content import DIRS, VECTORS

CellBlocks = Callable[[Cell], bool]


def _never(a: Cell, b: Cell) -> bool:
    return False


def direction(a: Cell, b: Cell) -> int | None:
    """The direction index (0 n .. 7 nw) of the one-square step from ``a`` to ``b``; None if not a step."""
    v = (b[0] - a[0], b[1] - a[1])
    return VECTORS.index(v) if v in VECTORS else None


def ahead(c: Cell, facing: int) -> Cell:
    """The square directly in front of ``c`` for a figure facing ``facing``."""
    return c[0] + VECTORS[facing][0], c[1] + VECTORS[facing][1]


def turn_steps(a: int, b: int) -> int:
    """How many 45 degree steps turn facing ``a`` into ``b`` the short way (0..4)."""
    d = (a - b) % 8
    return min(d, 8 - d)


def turn_cost(a: int, b: int) -> int:
    """AP to turn on the spot from ``a`` to ``b``: one per 90 degrees or part of it."""
    return (turn_steps(a, b) + 1) // 2


def step_cost(facing: int, step: int) -> int:
    """AP for one step in direction ``step``: forward, diagonally forward or sideways 1; backward or
    diagonally backward 2."""
    return 1 if turn_steps(facing, step) <= 2 else 2


def move_cost(facing: int, step: int, final: int) -> int | None:
    """AP for a step that ends facing ``final`` (None: impossible). A step allows 90 degrees of turn per AP
    it costs, before or after the step, whichever is cheaper."""
    turn = turn_steps(facing, final)
    costs = [c for c in (step_cost(facing, step), step_cost(final, step)) if turn <= 2 * c]
    return min(costs) if costs else None


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


def clear_line(a: Cell, b: Cell, blocks: CellBlocks) -> bool:
    """Whether nothing blocks the line from ``a`` to ``b`` (the end squares themselves do not count; a line
    through a corner is blocked only when both squares beside it block)."""
    return line_of_sight(a, b, _never, blocks)


def dir_name(d: int) -> str:
    """The typed name of a direction index (``n``, ``ne``...)."""
    return DIRS[d]
