"""Square-grid geometry: chess-like coordinates, neighbourhoods, distances, line of sight.

Cells are ``(col, row)`` with ``(0, 0)`` top-left and typed as ``a1``. Walls and doors sit on the
edges between cells; rulesets say which edges block through callables, since doors change in play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, lru_cache

from engine.errors import IllegalCommand

Cell = tuple[int, int]
EdgeKey = tuple[Cell, Cell]
EdgeBlocks = Callable[[Cell, Cell], bool]
CellBlocks = Callable[[Cell], bool]

ORTHOGONAL: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL: tuple[Cell, ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))
KING: tuple[Cell, ...] = ORTHOGONAL + DIAGONAL
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@cache
def cell_name(cell: Cell) -> str:
    """The typed name of a cell: column letter then 1-based row (``(2, 3)`` is ``c4``)."""
    return f"{LETTERS[cell[0]]}{cell[1] + 1}"


def parse_cell(text: str, width: int, height: int) -> Cell:
    """Parse ``c4`` into ``(2, 3)``. Raises IllegalCommand if malformed or off a width x height board."""
    return _parse_cell(text, width, height)


@lru_cache(maxsize=8192)
def _parse_cell(text: str, width: int, height: int) -> Cell:
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in LETTERS or not t[1:].isdigit():
        raise IllegalCommand(f"'{text}' is not a square: type a column letter and a row number, like c4.")
    col, row = LETTERS.index(t[0]), int(t[1:]) - 1
    if not (0 <= col < width and 0 <= row < height):
        raise IllegalCommand(f"{t} is off the board: columns run a-{LETTERS[width - 1]} and rows 1-{height}.")
    return col, row


def edge_key(a: Cell, b: Cell) -> EdgeKey:
    """The order-independent key of the edge between two orthogonally adjacent cells."""
    return (a, b) if a <= b else (b, a)


def edge_name(a: Cell, b: Cell) -> str:
    """The typed name of an edge, ``c4|c5`` (lower cell first)."""
    k = edge_key(a, b)
    return f"{cell_name(k[0])}|{cell_name(k[1])}"


def parse_edge(text: str, width: int, height: int) -> EdgeKey:
    """Parse ``c4|c5`` into an edge key. Raises IllegalCommand unless the two squares share a side."""
    return _parse_edge(text, width, height)


@lru_cache(maxsize=4096)
def _parse_edge(text: str, width: int, height: int) -> EdgeKey:
    parts = text.replace("-", "|").split("|")
    if len(parts) != 2:
        raise IllegalCommand(f"'{text}' is not an edge: name the two squares on either side, like c4|c5.")
    a, b = parse_cell(parts[0], width, height), parse_cell(parts[1], width, height)
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise IllegalCommand(
            f"{cell_name(a)} and {cell_name(b)} do not share a side, so no wall or door lies between them."
        )
    return edge_key(a, b)


def on_board(cell: Cell, width: int, height: int) -> bool:
    """True when the cell lies on a width x height board."""
    return 0 <= cell[0] < width and 0 <= cell[1] < height


def neighbours(cell: Cell, steps: tuple[Cell, ...], width: int, height: int) -> Iterator[Cell]:
    """The on-board cells one step away from ``cell`` along ``steps`` (ORTHOGONAL, KING...)."""
    x, y = cell
    for dx, dy in steps:
        nx, ny = x + dx, y + dy
        if 0 <= nx < width and 0 <= ny < height:
            yield nx, ny


def is_adjacent(a: Cell, b: Cell) -> bool:
    """True when the two cells share a side (the 4-neighbourhood)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def in_periphery(a: Cell, b: Cell) -> bool:
    """True when ``b`` is one of the eight cells around ``a``."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def chebyshev(a: Cell, b: Cell) -> int:
    """Squares counted from a to b along straight and diagonal lines, b counted and a not."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Cell, b: Cell) -> int:
    """Orthogonal steps from a to b."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def corner_step_open(a: Cell, d: Cell, edge_blocks: EdgeBlocks, cell_blocks: CellBlocks) -> bool:
    """Whether a diagonal step (or sight line) from ``a`` through the shared corner to ``d`` gets by.

    It passes if at least one of the two routes around the corner (via either side square) crosses no
    blocking edge and its side square does not block.
    """
    for side in ((d[0], a[1]), (a[0], d[1])):
        if not (edge_blocks(a, side) or edge_blocks(side, d) or cell_blocks(side)):
            return True
    return False


def sight_line(a: Cell, b: Cell) -> list[tuple[Cell, Cell, bool]]:
    """The steps of the centre-to-centre line from a to b: (from, to, through_corner).

    An integer supercover walk: each step crosses one edge, or exactly one corner (diagonal step).
    """
    steps: list[tuple[Cell, Cell, bool]] = []
    dx, dy = b[0] - a[0], b[1] - a[1]
    nx, ny = abs(dx), abs(dy)
    sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
    x, y = a
    ix = iy = 0
    while ix < nx or iy < ny:
        # Compare where the line next crosses a vertical vs a horizontal grid line, in integers.
        d = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if d == 0:
            nxt = (x + sx, y + sy)
            steps.append(((x, y), nxt, True))
            ix += 1
            iy += 1
        elif d < 0:
            nxt = (x + sx, y)
            steps.append(((x, y), nxt, False))
            ix += 1
        else:
            nxt = (x, y + sy)
            steps.append(((x, y), nxt, False))
            iy += 1
        x, y = nxt
    return steps


def line_of_sight(a: Cell, b: Cell, edge_blocks: EdgeBlocks, cell_blocks: CellBlocks) -> bool:
    """Whether a sees b centre to centre.

    Blocked by any crossed edge that blocks or any blocking cell strictly between them; where the line
    passes exactly through a corner it is blocked only if both routes around that corner are
    (see :func:`corner_step_open`).
    """
    if a == b:
        return True
    for frm, to, corner in sight_line(a, b):
        if corner:
            if not corner_step_open(frm, to, edge_blocks, cell_blocks):
                return False
        elif edge_blocks(frm, to):
            return False
        if to != b and cell_blocks(to):
            return False
    return True
