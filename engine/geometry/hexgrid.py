"""Hex geometry for pointy-topped maps stored on an odd-r offset grid.

Cells are ``(col, row)`` with ``(0, 0)`` top-left; odd rows are shifted half a hex to the right. Players
type a cell as its column letter then its 1-based row, exactly like the square grid: ``(2, 3)`` is ``c4``
and ``a1`` is the top-left cell. Internally distances and directions use axial ``(q, r)`` coordinates
with ``q = col - floor(row / 2)`` and ``r = row`` (cube ``(q, r, -q - r)``).

The six directions are numbered 1-6 clockwise from the upper right, matching the heist maps' entrance
codes E1-E6: ``ne``, ``e``, ``se``, ``sw``, ``w``, ``nw``.

Path helpers take a ``passable`` predicate (or a step-cost function) so the rules decide what blocks:
locks, gaps and gates change during play. The plane is unbounded, so the predicate (or cost function)
must confine the search to a finite set of cells, normally the map's tiles.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Literal

from engine.errors import IllegalCommand

Cell = tuple[int, int]
Axial = tuple[int, int]
Cube = tuple[int, int, int]
Direction = Literal["ne", "e", "se", "sw", "w", "nw"]

DIRECTIONS: tuple[Direction, ...] = ("ne", "e", "se", "sw", "w", "nw")
DIRECTION_NAMES: dict[Direction, str] = {
    "ne": "upper right", "e": "right", "se": "lower right",
    "sw": "lower left", "w": "left", "nw": "upper left",
}  # fmt: skip
AXIAL_STEPS: dict[Direction, Axial] = {
    "ne": (1, -1), "e": (1, 0), "se": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (0, -1),
}  # fmt: skip
OPPOSITE: dict[Direction, Direction] = {"ne": "sw", "e": "w", "se": "nw", "sw": "ne", "w": "e", "nw": "se"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
_RING_WALK: tuple[Direction, ...] = ("e", "ne", "nw", "w", "sw", "se")

Passable = Callable[[Cell], bool]
StepCost = Callable[[Cell, Cell], int | None]


# --- coordinates -------------------------------------------------------------------------------------


def to_axial(cell: Cell) -> Axial:
    """The axial ``(q, r)`` of an offset ``(col, row)`` cell."""
    col, row = cell
    return col - (row >> 1), row


def from_axial(ax: Axial) -> Cell:
    """The offset ``(col, row)`` cell of an axial ``(q, r)``."""
    q, r = ax
    return q + (r >> 1), r


def to_cube(cell: Cell) -> Cube:
    """The cube ``(x, y, z)`` (x + y + z = 0) of an offset cell."""
    q, r = to_axial(cell)
    return q, r, -q - r


def from_cube(cube: Cube) -> Cell:
    """The offset cell of cube coordinates. Raises ValueError if they do not sum to zero."""
    x, y, z = cube
    if x + y + z != 0:
        raise ValueError(f"cube coordinates {cube} do not sum to 0")
    return from_axial((x, y))


def direction_number(direction: Direction) -> int:
    """The 1-6 number of a direction (``ne`` is 1, clockwise), as in entrance codes E1-E6."""
    return DIRECTIONS.index(direction) + 1


def direction_from_number(number: int) -> Direction:
    """The direction numbered 1-6 (1 = ``ne``, clockwise). Raises ValueError outside 1-6."""
    if not 1 <= number <= 6:
        raise ValueError(f"hex directions are numbered 1-6, not {number}")
    return DIRECTIONS[number - 1]


# --- names -------------------------------------------------------------------------------------------


@cache
def cell_name(cell: Cell) -> str:
    """The typed name of a cell: column letter then 1-based row (``(2, 3)`` is ``c4``).

    Raises ValueError for a cell that no map can hold (negative, or past column z).
    """
    if not (0 <= cell[0] < len(LETTERS) and cell[1] >= 0):
        raise ValueError(f"cell {cell} has no name")
    return f"{LETTERS[cell[0]]}{cell[1] + 1}"


def parse_cell(text: str, width: int, height: int) -> Cell:
    """Parse ``c4`` (any case, surrounding spaces allowed) into ``(2, 3)``.

    Raises IllegalCommand if the text is not a letter and a number, or names a cell off a
    ``width`` x ``height`` map.
    """
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in LETTERS or not t[1:].isdigit():
        raise IllegalCommand(
            f"'{text.strip()}' is not a hex: type a column letter and a row number, like c4."
        )
    col, row = LETTERS.index(t[0]), int(t[1:]) - 1
    if not (0 <= col < width and 0 <= row < height):
        raise IllegalCommand(f"{t} is off the map: columns run a-{LETTERS[width - 1]} and rows 1-{height}.")
    return col, row


def on_map(cell: Cell, width: int, height: int) -> bool:
    """True when the cell lies inside a width x height offset grid."""
    return 0 <= cell[0] < width and 0 <= cell[1] < height


# --- neighbourhoods ----------------------------------------------------------------------------------


def step(cell: Cell, direction: Direction, n: int = 1) -> Cell:
    """The cell ``n`` steps from ``cell`` in ``direction`` (unbounded: may lie off the map)."""
    q, r = to_axial(cell)
    dq, dr = AXIAL_STEPS[direction]
    return from_axial((q + dq * n, r + dr * n))


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six cells sharing a side with ``cell``, in direction order ne, e, se, sw, w, nw (unbounded)."""
    return _neighbours(cell)


@cache
def _neighbours(cell: Cell) -> tuple[Cell, ...]:
    return tuple(step(cell, d) for d in DIRECTIONS)


def is_adjacent(a: Cell, b: Cell) -> bool:
    """True when the two cells share a side (a cell is not adjacent to itself)."""
    return distance(a, b) == 1


def direction_to(a: Cell, b: Cell) -> Direction | None:
    """The direction of the straight line from a to b, or None if b is a itself or not on one of a's six lines."""
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = bq - aq, br - ar
    n = max(abs(dq), abs(dr), abs(dq + dr))
    if n == 0:
        return None
    for d in DIRECTIONS:
        sq, sr = AXIAL_STEPS[d]
        if (sq * n, sr * n) == (dq, dr):
            return d
    return None


def distance(a: Cell, b: Cell) -> int:
    """The number of hex steps from a to b, ignoring what lies between."""
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def ring(center: Cell, radius: int) -> tuple[Cell, ...]:
    """The cells exactly ``radius`` steps from ``center`` (unbounded); radius 0 is the centre alone.

    Raises ValueError for a negative radius.
    """
    if radius < 0:
        raise ValueError("a ring's radius cannot be negative")
    if radius == 0:
        return (center,)
    out: list[Cell] = []
    cur = step(center, "sw", radius)  # walk the six sides anticlockwise from the lower-left corner
    for d in _RING_WALK:
        for _ in range(radius):
            out.append(cur)
            cur = step(cur, d)
    return tuple(out)


def within(center: Cell, radius: int) -> tuple[Cell, ...]:
    """Every cell at most ``radius`` steps from ``center``, nearest first (unbounded).

    Raises ValueError for a negative radius.
    """
    out: list[Cell] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return tuple(out)


def straight_line(start: Cell, direction: Direction, length: int) -> tuple[Cell, ...]:
    """The ``length`` cells after ``start`` along ``direction``, nearest first (start excluded, unbounded)."""
    return tuple(step(start, direction, k) for k in range(1, length + 1))


def ray(start: Cell, direction: Direction, inside: Passable) -> Iterator[Cell]:
    """The cells after ``start`` along ``direction`` for as long as ``inside(cell)`` holds."""
    cur = step(start, direction)
    while inside(cur):
        yield cur
        cur = step(cur, direction)


# --- paths -------------------------------------------------------------------------------------------


def reachable(start: Cell, passable: Passable, max_steps: int | None = None) -> dict[Cell, int]:
    """Breadth-first steps from ``start`` to every cell reachable through passable cells.

    ``start`` itself is always included at 0, whether or not it is passable; a cell is entered only if
    ``passable(cell)``. With ``max_steps`` the search stops at that depth.
    """
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        d = dist[cur]
        if max_steps is not None and d >= max_steps:
            continue
        for nb in _neighbours(cur):
            if nb not in dist and passable(nb):
                dist[nb] = d + 1
                queue.append(nb)
    return dist


def shortest_path(start: Cell, goal: Cell, passable: Passable) -> tuple[Cell, ...] | None:
    """The fewest-steps path from ``start`` to ``goal``, both ends included; None if unreachable.

    Ties are broken by direction order, so the result is deterministic. ``start`` need not be
    passable; every other cell on the path (goal included) must be.
    """
    return shortest_path_to_any(start, (goal,), passable)


def shortest_path_to_any(start: Cell, goals: Iterable[Cell], passable: Passable) -> tuple[Cell, ...] | None:
    """The fewest-steps path from ``start`` to the nearest of ``goals``, both ends included.

    Returns None when no goal can be reached (or ``goals`` is empty). Deterministic like
    :func:`shortest_path`.
    """
    goals = set(goals)
    if start in goals:
        return (start,)
    prev: dict[Cell, Cell] = {}
    seen = {start}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for nb in _neighbours(cur):
            if nb in seen or not passable(nb):
                continue
            seen.add(nb)
            prev[nb] = cur
            if nb in goals:
                path = [nb]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return tuple(reversed(path))
            queue.append(nb)
    return None


def cheapest_costs(start: Cell, cost: StepCost) -> dict[Cell, int]:
    """The least total cost from ``start`` to every reachable cell (Dijkstra).

    ``cost(a, b)`` is the price of stepping from a to its neighbour b, or None if that step is
    impossible; negative costs raise ValueError. Useful for escape moves, where leaving a guarded tile
    costs extra.
    """
    best = {start: 0}
    heap: list[tuple[int, Cell]] = [(0, start)]
    while heap:
        d, cur = heapq.heappop(heap)
        if d > best[cur]:
            continue
        for nb in _neighbours(cur):
            c = cost(cur, nb)
            if c is None:
                continue
            if c < 0:
                raise ValueError(f"step cost from {cell_name(cur)} to {cell_name(nb)} is negative")
            nd = d + c
            if nd < best.get(nb, nd + 1):
                best[nb] = nd
                heapq.heappush(heap, (nd, nb))
    return best
