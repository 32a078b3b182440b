"""Corner-to-corner sight lines on a square grid (Skirm's two-lines rule).

Cell ``(x, y)`` spans ``[x, x+1] x [y, y+1]``. A sight line runs from a corner of one cell to a corner of
another; each corner is taken a quarter square inside its cell, so that a wall standing on a unit's own
side blocks the lines that would pass it and a line never slips exactly along a wall's end. A line is
interrupted by an edge feature (wall, closed door) or a blocking cell (a solid block, a standing model)
when it touches that side or square at all. Coordinates are scaled by 4, so all arithmetic is integer
and exact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from engine.geometry.square import Cell, EdgeKey

Point = tuple[int, int]
Box = tuple[int, int, int, int]  # x0, x1, y0, y1 (closed; a side has x0 == x1 or y0 == y1)


def corners(cell: Cell) -> tuple[Point, Point, Point, Point]:
    """The four corner points of a cell."""
    x, y = cell
    return (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)


def inset_corners(cell: Cell) -> tuple[Point, Point, Point, Point]:
    """A cell's corners a quarter square inside it, in coordinates scaled by 4."""
    x, y = 4 * cell[0], 4 * cell[1]
    return (x + 1, y + 1), (x + 3, y + 1), (x + 1, y + 3), (x + 3, y + 3)


def _scaled(b: Box) -> Box:
    return 4 * b[0], 4 * b[1], 4 * b[2], 4 * b[3]


def side_box(edge: EdgeKey) -> Box:
    """The closed segment of the side shared by the cells of ``edge``. Raises ValueError if none."""
    (ax, ay), (bx, by) = edge
    if ay == by and abs(ax - bx) == 1:
        x = max(ax, bx)
        return x, x, ay, ay + 1
    if ax == bx and abs(ay - by) == 1:
        y = max(ay, by)
        return ax, ax + 1, y, y
    raise ValueError(f"{edge} is not a pair of side-adjacent cells")


def cell_box(cell: Cell) -> Box:
    """The closed square of a cell."""
    return cell[0], cell[0] + 1, cell[1], cell[1] + 1


def meets(p: Point, q: Point, box: Box) -> bool:
    """Whether segment p-q meets the closed box anywhere but at p or q (exact, by clipping).

    The segment is t in [0, 1] from p to q; the box limits t to an interval; it is met when that
    interval is not empty and is more than the single end point t = 0 or t = 1.
    """
    x0, x1, y0, y1 = box
    # Bounds on t as fractions (num, den) with den > 0; start from [0, 1].
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    for p0, d, b0, b1 in ((p[0], q[0] - p[0], x0, x1), (p[1], q[1] - p[1], y0, y1)):
        if d == 0:
            if not b0 <= p0 <= b1:
                return False
            continue
        if d > 0:
            a_n, b_n, den = b0 - p0, b1 - p0, d
        else:
            a_n, b_n, den = p0 - b1, p0 - b0, -d
        if a_n * lo_d > lo_n * den:
            lo_n, lo_d = a_n, den
        if b_n * hi_d < hi_n * den:
            hi_n, hi_d = b_n, den
    if lo_n * hi_d > hi_n * lo_d:
        return False
    if hi_n == 0:  # only p itself
        return False
    return lo_n != lo_d  # lo == 1: only q itself


def crosses_edge(p: Point, q: Point, edge: EdgeKey) -> bool:
    """Whether segment p-q meets the side between the cells of ``edge`` anywhere but at p or q."""
    return meets(p, q, side_box(edge))


def meets_cell(p: Point, q: Point, cell: Cell) -> bool:
    """Whether segment p-q meets the closed square of ``cell`` anywhere but at p or q."""
    return meets(p, q, cell_box(cell))


def clear_line(p: Point, q: Point, boxes: Iterable[Box]) -> bool:
    """Whether segment p-q meets none of the boxes (sides and squares) except at its ends."""
    lo_x, hi_x = min(p[0], q[0]), max(p[0], q[0])
    lo_y, hi_y = min(p[1], q[1]), max(p[1], q[1])
    for b in boxes:
        if b[1] < lo_x or b[0] > hi_x or b[3] < lo_y or b[2] > hi_y:
            continue
        if meets(p, q, b):
            return False
    return True


def sight_count(
    a: Cell,
    b: Cell,
    edges: Iterable[EdgeKey],
    cell_blocks: Callable[[Cell], bool] | Iterable[Cell],
) -> int:
    """The most corners of ``b`` that one corner of ``a`` sees along clear lines (0-4).

    Under the two-lines rule, ``b`` is in sight when this is at least 2. ``cell_blocks`` is a set of
    blocking cells or a predicate; ``a`` and ``b`` themselves never block.
    """
    lo_x, hi_x = min(a[0], b[0]), max(a[0], b[0]) + 1
    lo_y, hi_y = min(a[1], b[1]), max(a[1], b[1]) + 1
    boxes: list[Box] = []
    for e in edges:
        s = side_box(e)
        if s[1] >= lo_x and s[0] <= hi_x and s[3] >= lo_y and s[2] <= hi_y:
            boxes.append(_scaled(s))
    area = [
        (x, y) for x in range(lo_x - 1, hi_x + 1) for y in range(lo_y - 1, hi_y + 1) if (x, y) not in (a, b)
    ]
    if callable(cell_blocks):
        boxes += [_scaled(cell_box(c)) for c in area if cell_blocks(c)]
    else:
        given = set(cell_blocks)
        boxes += [_scaled(cell_box(c)) for c in area if c in given]
    best = 0
    for p in inset_corners(a):
        seen = 0
        for q in inset_corners(b):
            if clear_line(p, q, boxes):
                seen += 1
        best = max(best, seen)
        if best == 4:
            break
    return best


def scaled_side(edge: EdgeKey) -> Box:
    """A side's box in the scaled (x4) coordinates :func:`sight_count_boxes` works in."""
    return _scaled(side_box(edge))


def scaled_cell(cell: Cell) -> Box:
    """A cell's box in the scaled (x4) coordinates :func:`sight_count_boxes` works in."""
    return _scaled(cell_box(cell))


def sight_count_boxes(a: Cell, b: Cell, boxes: Iterable[Box]) -> int:
    """:func:`sight_count` with the obstacles already given as scaled boxes (walls and squares alike).

    Boxes of ``a`` and ``b`` themselves must not be among them.
    """
    lo_x, hi_x = 4 * min(a[0], b[0]), 4 * max(a[0], b[0]) + 4
    lo_y, hi_y = 4 * min(a[1], b[1]), 4 * max(a[1], b[1]) + 4
    near = [x for x in boxes if x[1] >= lo_x and x[0] <= hi_x and x[3] >= lo_y and x[2] <= hi_y]
    best = 0
    for p in inset_corners(a):
        seen = 0
        for q in inset_corners(b):
            if clear_line(p, q, near):
                seen += 1
        best = max(best, seen)
        if best == 4:
            break
    return best


def in_sight(
    a: Cell, b: Cell, edges: Iterable[EdgeKey], cell_blocks: Callable[[Cell], bool] | Iterable[Cell]
) -> bool:
    """Two-lines rule: two clear lines from one corner of ``a`` to two corners of ``b``."""
    return sight_count(a, b, edges, cell_blocks) >= 2


# -- sight lines as bit masks (fast path) -------------------------------------------------------------------
# The 16 lines from the inset corners of ``a`` to those of ``b`` are numbered 4 * i + j (corner i of a,
# corner j of b, in :func:`inset_corners` order). A mask has bit 4 * i + j set for each such line.

ALL_LINES = 0xFFFF
_TWO_OR_MORE = tuple(bin(r).count("1") >= 2 for r in range(16))


def blocked_lines(a: Cell, b: Cell, box: Box) -> int:
    """The mask of the 16 corner lines from ``a`` to ``b`` that meet the scaled ``box`` (not at their ends).

    Exact (the same test as :func:`clear_line`); memoised on the positions relative to ``a``, since the
    geometry does not change under whole-square shifts.
    """
    ox, oy = 4 * a[0], 4 * a[1]
    return _blocked_rel(b[0] - a[0], b[1] - a[1], (box[0] - ox, box[1] - ox, box[2] - oy, box[3] - oy))


@cache
def _blocked_rel(dx: int, dy: int, box: Box) -> int:
    # Mirror and transpose into dx >= dy >= 0 (exact in these integer coordinates; the cell of a spans
    # 0..4, so x -> 4 - x keeps it and swaps its corners), compute there, and map the corners back.
    x0, x1, y0, y1 = box
    flip = 0
    if dx < 0:
        dx, x0, x1, flip = -dx, 4 - x1, 4 - x0, flip | 1
    if dy < 0:
        dy, y0, y1, flip = -dy, 4 - y1, 4 - y0, flip | 2
    swap = dy > dx
    mask = (
        _blocked_canonical(dy, dx, (y0, y1, x0, x1)) if swap else _blocked_canonical(dx, dy, (x0, x1, y0, y1))
    )
    if not flip and not swap:
        return mask
    out = 0
    for i in range(4):
        ti = i ^ flip
        ti = ((ti & 1) << 1 | ti >> 1) if swap else ti
        for j in range(4):
            tj = j ^ flip
            tj = ((tj & 1) << 1 | tj >> 1) if swap else tj
            if mask >> (4 * ti + tj) & 1:
                out |= 1 << (4 * i + j)
    return out


@cache
def _blocked_canonical(dx: int, dy: int, box: Box) -> int:
    mask = 0
    for i, p in enumerate(inset_corners((0, 0))):
        for j, q in enumerate(inset_corners((dx, dy))):
            if meets(p, q, box):
                mask |= 1 << (4 * i + j)
    return mask


def blocked_by_cell(a: Cell, b: Cell, c: Cell) -> int:
    """:func:`blocked_lines` for the square ``c`` (a standing model, a solid block)."""
    return _cell_rel(b[0] - a[0], b[1] - a[1], c[0] - a[0], c[1] - a[1])


@cache
def _cell_rel(dx: int, dy: int, cx: int, cy: int) -> int:
    return _blocked_rel(dx, dy, (4 * cx, 4 * cx + 4, 4 * cy, 4 * cy + 4))


def near_box(a: Cell, b: Cell, box: Box) -> bool:
    """Whether a scaled box lies within the scaled area spanned by ``a`` and ``b`` (others meet no line)."""
    return (
        box[1] >= 4 * min(a[0], b[0])
        and box[0] <= 4 * max(a[0], b[0]) + 4
        and box[3] >= 4 * min(a[1], b[1])
        and box[2] <= 4 * max(a[1], b[1]) + 4
    )


def two_lines(clear: int) -> bool:
    """Two-lines rule on a mask of clear lines: some corner of ``a`` has two clear lines to ``b``."""
    two = _TWO_OR_MORE
    return two[clear & 15] or two[(clear >> 4) & 15] or two[(clear >> 8) & 15] or two[clear >> 12]
