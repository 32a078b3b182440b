"""Skirm board geometry: heights, walls, doors, adjacency, movement costs, reach, sight and cover.

Heights are whole squares. Two squares are adjacent when they touch (8 directions), differ by at most one
in height, and no high wall or closed door separates them (for a diagonal, one way round the corner must
be open). Movement costs follow the rulebook: leaving difficult terrain costs 2, crossing a low wall costs
2, climbing costs the height plus 1 (down: the height), stairs and slopes count as flat.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from engine.geometry.corners import (
    ALL_LINES,
    Point,
    blocked_by_cell,
    blocked_lines,
    corners,
    near_box,
    scaled_side,
    two_lines,
)
from engine.geometry.square import KING, ORTHOGONAL, Cell, EdgeKey, chebyshev, edge_key
from engine.rulesets.skirm.content import SIZE, BattleMap, Mission, maps, missions, unit_type
from engine.rulesets.skirm.state import DOWNED, OUT, RESERVE, STANDING, SkirmState, Unit


def mission(st: SkirmState) -> Mission:
    """The mission being played."""
    return missions()[st.mission]


def bmap(st: SkirmState) -> BattleMap:
    """The battle map being played on."""
    return missions()[st.mission].map


def on_board(c: Cell) -> bool:
    """Whether the square lies on the 12x12 map."""
    return 0 <= c[0] < SIZE and 0 <= c[1] < SIZE


def height(st: SkirmState, c: Cell) -> int:
    """A square's height in squares."""
    return bmap(st).height[c]


def solid(st: SkirmState, c: Cell) -> bool:
    """Whether the square is solid (impassable, blocks sight) or off the map."""
    return not on_board(c) or bmap(st).terrain[c] == "X"


def difficult(st: SkirmState, c: Cell) -> bool:
    """Whether the square is difficult terrain."""
    return bmap(st).terrain[c] == "~"


def stairs(st: SkirmState, c: Cell) -> bool:
    """Whether the square holds stairs or a slope."""
    return bmap(st).terrain[c] == "/"


def hard_edge(st: SkirmState, a: Cell, b: Cell) -> bool:
    """Whether a high wall or a closed door stands between two side-adjacent squares."""
    k = edge_key(a, b)
    if k in st.doors:
        return not st.doors[k]
    return k in bmap(st).high


def low_wall(st: SkirmState, a: Cell, b: Cell) -> bool:
    """Whether a low (1 square high) wall stands between two side-adjacent squares."""
    return edge_key(a, b) in bmap(st).low


def adjacent(st: SkirmState, a: Cell, b: Cell) -> bool:
    """Skirm adjacency: touching squares, at most 1 apart in height, not separated by a high wall/closed door."""
    routes = adjacency_table(bmap(st).id).get(a, {}).get(b)
    if routes is None:
        return False
    return () in routes or any(all(st.doors[d] for d in route) for route in routes)


def adjacent_cells(st: SkirmState, c: Cell) -> tuple[Cell, ...]:
    """The squares adjacent to ``c`` under Skirm adjacency (height, high walls, doors as they stand)."""
    fixed, by_doors = adjacency_rows(bmap(st).id)
    row = fixed.get(c)
    if row is not None:
        return row
    doors = st.doors
    return tuple(
        n
        for n, routes in by_doors.get(c, ())
        if routes is None or any(all(doors[d] for d in route) for route in routes)
    )


@cache
def adjacency_rows(
    map_id: str,
) -> tuple[
    dict[Cell, tuple[Cell, ...]], dict[Cell, tuple[tuple[Cell, tuple[tuple[EdgeKey, ...], ...] | None], ...]]
]:
    """:func:`adjacency_table` split for speed: squares whose adjacency no door affects (cell -> the
    adjacent squares), and the others (cell -> (square, ways needing doors, or None when one way needs
    none)), both in the table's order."""
    fixed: dict[Cell, tuple[Cell, ...]] = {}
    by_doors: dict[Cell, tuple[tuple[Cell, tuple[tuple[EdgeKey, ...], ...] | None], ...]] = {}
    for c, row in adjacency_table(map_id).items():
        entries = tuple((n, None if () in routes else routes) for n, routes in row.items())
        if all(routes is None for _, routes in entries):
            fixed[c] = tuple(n for n, _ in entries)
        else:
            by_doors[c] = entries
    return fixed, by_doors


@cache
def adjacent_index_rows(map_id: str) -> dict[int, tuple[int, ...]]:
    """:func:`adjacency_rows`' squares whose adjacency no door affects, by square index (``x * SIZE + y``),
    with their adjacent squares' indices."""
    fixed, _by_doors = adjacency_rows(map_id)
    return {c[0] * SIZE + c[1]: tuple([n[0] * SIZE + n[1] for n in row]) for c, row in fixed.items()}


@cache
def adjacency_table(map_id: str) -> dict[Cell, dict[Cell, tuple[tuple[EdgeKey, ...], ...]]]:
    """For each square, its adjacent squares with the ways round: each way lists the doors it needs open.

    Side neighbours have one way (through the shared side); corner neighbours have up to two (round either
    side square, which must not be solid and must cross no high wall).
    """
    m = maps()[map_id]

    def solid_(c: Cell) -> bool:
        return not on_board(c) or m.terrain[c] == "X"

    def way(x: Cell, y: Cell) -> tuple[EdgeKey, ...] | None:
        k = edge_key(x, y)
        if k in m.high:
            return None
        return (k,) if k in m.doors else ()

    out: dict[Cell, dict[Cell, tuple[tuple[EdgeKey, ...], ...]]] = {}
    for a in m.terrain:
        if solid_(a):
            continue
        row: dict[Cell, tuple[tuple[EdgeKey, ...], ...]] = {}
        for b in around(a):
            if solid_(b) or abs(m.height[a] - m.height[b]) > 1:
                continue
            if a[0] == b[0] or a[1] == b[1]:
                w = way(a, b)
                if w is not None:
                    row[b] = (w,)
                continue
            routes = []
            for side in ((b[0], a[1]), (a[0], b[1])):
                if solid_(side):
                    continue
                w1, w2 = way(a, side), way(side, b)
                if w1 is not None and w2 is not None:
                    routes.append(w1 + w2)
            if routes:
                row[b] = tuple(routes)
        out[a] = row
    return out


def around(c: Cell) -> Iterator[Cell]:
    """The on-board squares touching ``c`` (8 directions), heights ignored."""
    for dx, dy in KING:
        n = (c[0] + dx, c[1] + dy)
        if on_board(n):
            yield n


def on_map(u: Unit) -> bool:
    """Whether the unit is on the battle map (Standing or Downed)."""
    return u.state in (STANDING, DOWNED) and u.pos is not None


def occupancy(st: SkirmState) -> dict[Cell, Unit]:
    """Square -> unit for every unit on the map."""
    return {u.pos: u for u in st.units.values() if u.pos is not None and u.state in (STANDING, DOWNED)}


def standing_enemy_adjacent(st: SkirmState, seat: str, c: Cell, occ: dict[Cell, Unit] | None = None) -> bool:
    """Whether a Standing unit of the other squad is adjacent to ``c``."""
    occ = occupancy(st) if occ is None else occ
    for n in adjacent_cells(st, c):
        u = occ.get(n)
        if u is not None and u.seat != seat and u.state == STANDING:
            return True
    return False


def enemy_adjacent(st: SkirmState, seat: str, c: Cell, occ: dict[Cell, Unit] | None = None) -> bool:
    """Whether any unit (Standing or Downed) of the other squad is adjacent to ``c``."""
    occ = occupancy(st) if occ is None else occ
    return any((u := occ.get(n)) is not None and u.seat != seat for n in adjacent_cells(st, c))


def step_cost(st: SkirmState, a: Cell, b: Cell, ranger: bool) -> int | None:
    """Movement cost of one step from a to b (side or corner), occupancy aside; None if impossible.

    Leaving difficult ground +1 (not for Rangers), a low wall +1, climbing up h: h + 1, down h: h (only
    1-high faces or marked climbable faces), stairs count as flat, diagonals only on level open ground.
    """
    k = edge_key(a, b) if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 else None
    if k is not None and k in st.doors and not st.doors[k]:
        return None
    return _step(_MapOnly(bmap(st)), a, b, ranger)


@cache
def step_table(
    map_id: str, ranger: bool
) -> dict[Cell, tuple[tuple[Cell, int, EdgeKey | None, tuple[Cell, Cell] | None], ...]]:
    """Every possible step on a map with all doors open: cell -> ((to, cost, door crossed, the two side
    squares of a diagonal step or None), ...).

    Doors are the only edges that change in play, so a step through a door is kept with its door key
    and is usable only while that door is open.
    """
    m = maps()[map_id]
    fake = _MapOnly(m)
    out: dict[Cell, tuple[tuple[Cell, int, EdgeKey | None, tuple[Cell, Cell] | None], ...]] = {}
    for c in m.terrain:
        steps = []
        for n in around(c):
            cost = _step(fake, c, n, ranger)
            if cost is not None:
                door = edge_key(c, n) if edge_key(c, n) in m.doors else None
                sides = ((n[0], c[1]), (c[0], n[1])) if n[0] != c[0] and n[1] != c[1] else None
                steps.append((n, cost, door, sides))
        out[c] = tuple(steps)
    return out


class _MapOnly:
    """A stand-in for the state when building the static step table: every door counts as open."""

    def __init__(self, m: BattleMap) -> None:
        self.m = m


def _step(fm: _MapOnly, a: Cell, b: Cell, ranger: bool) -> int | None:
    m = fm.m

    def solid_(c: Cell) -> bool:
        return not on_board(c) or m.terrain[c] == "X"

    def any_edge_(x: Cell, y: Cell) -> bool:
        k = edge_key(x, y)
        return k in m.low or k in m.high or k in m.doors

    if solid_(b):
        return None
    leave = 1 if m.terrain[a] == "~" and not ranger else 0
    ha, hb = m.height[a], m.height[b]
    if a[0] != b[0] and a[1] != b[1]:
        for s in ((b[0], a[1]), (a[0], b[1])):
            if solid_(s) or m.height[s] != ha or any_edge_(a, s) or any_edge_(s, b):
                return None
        return None if hb != ha else 1 + leave
    k = edge_key(a, b)
    if k in m.high:
        return None
    dh = hb - ha
    if dh == 0 or ((m.terrain[a] == "/" or m.terrain[b] == "/") and abs(dh) <= 1):
        base = 1
    else:
        if not (abs(dh) == 1 or k in m.climb):
            return None
        base = dh + 1 if dh > 0 else -dh
    if k in m.low:
        base += 1
    return base + leave


def move_squares(
    st: SkirmState, u: Unit, budget: int, *, nimble: bool, ranger: bool, occ: dict[Cell, Unit] | None = None
) -> list[Cell]:
    """Squares the unit may end a move on with ``budget`` squares of movement, in square order (a shared
    list: do not change it). ``occ``: the occupancy, if known.

    One unit per square (friends may be passed through, not stopped on). Without Nimble a unit may not
    pass through a square occupied by an enemy or adjacent to a Standing enemy (it may stop there);
    a diagonal step needs both side squares free of units.
    """
    return move_squares_by_budget(st, u, (budget,), nimble=nimble, ranger=ranger, occ=occ)[0]


def move_squares_by_budget(
    st: SkirmState,
    u: Unit,
    budgets: tuple[int, ...],
    *,
    nimble: bool,
    ranger: bool,
    occ: dict[Cell, Unit] | None = None,
) -> list[list[Cell]]:
    """:func:`move_squares` for each of several budgets (a Move and a Dash), from one exploration."""
    assert u.pos is not None
    occ = occupancy(st) if occ is None else occ
    found = _explore(st, u, occ, max(budgets), nimble=nimble, ranger=ranger)
    out = []
    for budget in budgets:
        squares = found.squares.get(budget)
        if squares is None:
            cost, cells = found.cost, CELLS
            if not found.squares:
                found.reached.sort()  # square order (the order found no longer matters once explored)
            squares = found.squares[budget] = [
                cells[i] for i in found.reached if cost[i] <= budget and cells[i] not in occ
            ]  # the unit's own square is in ``occ``
        out.append(squares)
    return out


def move_path(
    st: SkirmState, u: Unit, budget: int, dest: Cell, *, nimble: bool, ranger: bool
) -> list[Cell] | None:
    """The cheapest path (start to ``dest``) of a move with ``budget`` squares of movement, as
    :func:`move_squares` allows it; None when the unit cannot end a move on ``dest``."""
    occ = occupancy(st)
    found = _explore(st, u, occ, budget, nimble=nimble, ranger=ranger)
    i = dest[0] * SIZE + dest[1]
    if not on_board(dest) or found.cost[i] > budget or dest in occ or dest == u.pos:
        return None
    path = []
    while i >= 0:
        path.append(CELLS[i])
        i = found.prev[i]
    path.reverse()
    return path


CELLS = tuple((x, y) for x in range(SIZE) for y in range(SIZE))  # square of index x * SIZE + y
_FAR = 1 << 30  # the cost of a square not reached


class Explored:
    """Cheapest costs from a unit's square, by square index (``x * SIZE + y``): ``cost`` (``_FAR`` if not
    reached) and ``prev`` (the previous square, -1 for none) of every square, the squares ``reached`` (in
    the order found, then in square order once :func:`move_squares` was asked), and :func:`move_squares`'s
    answers by budget once asked."""

    __slots__ = ("budget", "cost", "prev", "reached", "squares")

    def __init__(self, budget: int, cost: list[int], prev: list[int], reached: list[int]) -> None:
        self.budget = budget
        self.cost = cost
        self.prev = prev
        self.reached = reached
        self.squares: dict[int, list[Cell]] = {}


def _explore(
    st: SkirmState, u: Unit, occ: dict[Cell, Unit], budget: int, *, nimble: bool, ranger: bool
) -> Explored:
    """The unit's :class:`Explored` costs: every square within ``budget`` is there (squares beyond it may
    be too: callers keep those within their budget).

    Memoised on everything the result depends on (map, unit's square and side, who stands where, which
    doors are closed, Nimble, Ranger) and kept for smaller budgets, which find the same costs and paths
    (cheaper squares are settled first): listing the moves and then playing one explores once.
    The result is shared: callers must not change it.
    """
    assert u.pos is not None
    seat = u.seat
    key = (
        bmap(st).id,
        u.pos,
        seat,
        nimble,
        ranger,
        tuple([(c, v.seat, v.state) for c, v in occ.items()]),  # in the units' order: cheaper than a set
        tuple([k for k, is_open in st.doors.items() if not is_open]),
    )
    found = _EXPLORED.get(key)
    if found is None or found.budget < budget:
        if len(_EXPLORED) >= _EXPLORED_MAX:
            _EXPLORED.clear()
        found = _EXPLORED[key] = Explored(
            budget, *_dijkstra(st, u, occ, budget, nimble=nimble, ranger=ranger)
        )
    return found


_EXPLORED: dict[object, Explored] = {}
# A few entries catch nearly every reuse (listing a unit's moves, then playing one; the listing after an
# action that moved nobody). A large memo kept tens of thousands of lists alive long enough for the
# garbage collector to scan them again and again: at 2,048 entries Skirm's self-play ran 15% slower.
_EXPLORED_MAX = 8


def _dijkstra(
    st: SkirmState, u: Unit, occ: dict[Cell, Unit], budget: int, *, nimble: bool, ranger: bool
) -> tuple[list[int], list[int], list[int]]:
    """Dijkstra by cost buckets (every step costs at least 1) over square indices; within a bucket squares
    are taken in square order, so ties between equally cheap paths always fall the same way."""
    assert u.pos is not None
    table = step_index_table(bmap(st).id, ranger)
    seat = u.seat
    doors = st.doors
    n_cells = SIZE * SIZE
    occupied = [False] * n_cells
    foe = [False] * n_cells  # may not enter (without Nimble)
    stop = [False] * n_cells  # may stop there, not pass through: enemies and their zone (without Nimble)
    fixed_rows = adjacent_index_rows(bmap(st).id)
    for sq, v in occ.items():
        i = sq[0] * SIZE + sq[1]
        occupied[i] = True
        if v.seat != seat and not nimble:
            foe[i] = stop[i] = True
            if v.state == STANDING:
                row = fixed_rows.get(i)
                if row is None:  # a square whose adjacency a door decides
                    row = tuple([x * SIZE + y for x, y in adjacent_cells(st, sq)])
                for j in row:
                    stop[j] = True
    start = u.pos[0] * SIZE + u.pos[1]
    cost = [_FAR] * n_cells
    prev = [-1] * n_cells
    cost[start] = 0
    reached = [start]
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    for k in range(budget):  # squares at the full budget lead nowhere (every step costs 1 or more)
        bucket = buckets[k]
        if len(bucket) > 1:
            bucket.sort()
        for c in bucket:
            if cost[c] != k or (stop[c] and c != start):
                continue
            for n, step, door, s1, s2 in table[c]:
                nc = k + step
                # Cheapest test first: most neighbours of a settled square are already as cheap.
                old = cost[n]
                if nc >= old or nc > budget or foe[n] or (door is not None and not doors[door]):
                    continue
                if s1 >= 0 and (occupied[s1] or occupied[s2]):
                    continue
                if old == _FAR:
                    reached.append(n)
                cost[n] = nc
                prev[n] = c
                buckets[nc].append(n)
    return cost, prev, reached


@cache
def step_index_table(
    map_id: str, ranger: bool
) -> tuple[tuple[tuple[int, int, EdgeKey | None, int, int], ...], ...]:
    """:func:`step_table` by square index: for each index, (to, cost, door crossed, side squares of a
    diagonal step or -1, -1)."""
    out: list[tuple[tuple[int, int, EdgeKey | None, int, int], ...]] = [()] * (SIZE * SIZE)
    for c, steps in step_table(map_id, ranger).items():
        out[c[0] * SIZE + c[1]] = tuple(
            (
                n[0] * SIZE + n[1],
                cost,
                door,
                -1 if sides is None else sides[0][0] * SIZE + sides[0][1],
                -1 if sides is None else sides[1][0] * SIZE + sides[1][1],
            )
            for n, cost, door, sides in steps
        )
    return tuple(out)


def leap_cells(st: SkirmState, u: Unit, reach_len: int, *, nimble: bool) -> list[tuple[Cell, list[Cell]]]:
    """Where a Leap (LPx) may land: straight lines of up to x squares, heights, low walls and difficult
    ground ignored; high walls, closed doors, solid squares and units block; a diagonal step needs both
    side squares free (:func:`leap_corner_open`); squares next to a Standing enemy may not be passed
    (Nimble aside). Returns (landing square, path) pairs.
    """
    assert u.pos is not None
    occ = occupancy(st)
    out: list[tuple[Cell, list[Cell]]] = []
    for dx, dy in KING:
        path = [u.pos]
        c = u.pos
        for _ in range(reach_len):
            n = (c[0] + dx, c[1] + dy)
            if solid(st, n) or n in occ:
                break
            passable = leap_corner_open(st, c, n, occ) if dx and dy else not hard_edge(st, c, n)
            if not passable:
                break
            if c != u.pos and not nimble and standing_enemy_adjacent(st, u.seat, c, occ):
                break
            path = [*path, n]
            out.append((n, path))
            c = n
    return out


def leap_corner_open(st: SkirmState, c: Cell, n: Cell, occ: dict[Cell, Unit]) -> bool:
    """Whether a Leap may take the diagonal step from ``c`` to ``n``: as for any diagonal movement, both
    side squares are free of units and not solid, and no high wall or closed door stands on the four sides
    the step passes (heights and low walls do not matter to a Leap)."""
    for side in ((n[0], c[1]), (c[0], n[1])):
        if solid(st, side) or side in occ or hard_edge(st, c, side) or hard_edge(st, side, n):
            return False
    return True


# -- sight and cover --------------------------------------------------------------------------------------


def sees(st: SkirmState, a: Cell, b: Cell, *, ignore: tuple[str, ...] = ()) -> bool:
    """Two-lines sight from square a to square b.

    Blocked by high walls, closed doors, solid squares, terrain rising 2 or more squares above the higher
    end (a square, or a low wall standing on a square 1 higher), and squares of Standing units (other than
    those in ``ignore``). Terrain only 1 above the higher end hides a target partly: it gives cover (see
    :func:`in_cover`) but does not block, like a low wall on level ground.
    """
    clear = static_clear_lines(bmap(st).id, a, b)
    if not two_lines(clear):
        return False
    for k, is_open in st.doors.items():
        if not is_open:
            box = door_box(k)
            if near_box(a, b, box):
                clear &= ~blocked_lines(a, b, box)
    ax, ay = a
    bx, by = b
    lo_x, hi_x = (ax - 1, bx + 1) if ax <= bx else (bx - 1, ax + 1)
    lo_y, hi_y = (ay - 1, by + 1) if ay <= by else (by - 1, ay + 1)
    for u in st.units.values():
        p = u.pos
        if (
            p is not None
            and lo_x <= p[0] <= hi_x
            and lo_y <= p[1] <= hi_y
            and u.state == STANDING
            and p != a
            and p != b
            and u.id not in ignore
        ):
            clear &= ~blocked_by_cell(a, b, p)
            if not two_lines(clear):
                return False
    return two_lines(clear)


@cache
def door_box(edge: EdgeKey) -> tuple[int, int, int, int]:
    """A side's scaled box (:func:`~engine.geometry.corners.scaled_side`), memoised: sight checks ask for
    every closed door's box, and cover for the high walls and doors around the target."""
    return scaled_side(edge)


@cache
def static_clear_lines(map_id: str, a: Cell, b: Cell) -> int:
    """The corner lines from a to b (a mask, see :func:`engine.geometry.corners.blocked_lines`) that the
    map's fixed sight blockers leave clear: high walls, low walls whose top rises 2+ above the higher end,
    solid squares and squares 2+ higher than it (:func:`static_sight_walls`, :func:`tall_cells`). The maps
    never change, so this is memoised per map and pair of squares."""
    m = maps()[map_id]
    top = max(m.height[a], m.height[b])
    lo_x, hi_x = 4 * min(a[0], b[0]), 4 * max(a[0], b[0]) + 4
    lo_y, hi_y = 4 * min(a[1], b[1]), 4 * max(a[1], b[1]) + 4
    clear = ALL_LINES
    for box in static_sight_walls(map_id, top):
        if box[1] >= lo_x and box[0] <= hi_x and box[3] >= lo_y and box[2] <= hi_y:  # others meet no line
            clear &= ~blocked_lines(a, b, box)
    lo_x, hi_x, lo_y, hi_y = lo_x // 4 - 1, hi_x // 4, lo_y // 4 - 1, hi_y // 4  # squares touching that area
    for c in sorted_tall_cells(map_id, top):
        if lo_x <= c[0] <= hi_x and lo_y <= c[1] <= hi_y:
            clear &= ~blocked_by_cell(a, b, c)
    return clear


@cache
def static_sight_walls(map_id: str, top: int) -> tuple[tuple[int, int, int, int], ...]:
    """The walls that block sight between squares whose higher one is at ``top`` (high walls, low walls
    whose top rises 2+ above ``top``), as scaled boxes."""
    m = maps()[map_id]
    walls = sorted(m.high) + sorted(k for k in m.low if max(m.height[k[0]], m.height[k[1]]) + 1 >= top + 2)
    return tuple(scaled_side(k) for k in walls)


@cache
def sorted_tall_cells(map_id: str, top: int) -> tuple[Cell, ...]:
    """:func:`tall_cells` in square order."""
    return tuple(sorted(tall_cells(map_id, top)))


@cache
def tall_cells(map_id: str, top: int) -> frozenset[Cell]:
    """Squares that block sight between two squares whose higher one stands at ``top``: solid squares and
    squares at least 2 higher than ``top`` (1 higher hides a model only in part, like a low wall)."""
    m = maps()[map_id]
    return frozenset(c for c, t in m.terrain.items() if t == "X" or m.height[c] >= top + 2)


def in_cover(st: SkirmState, attacker: Cell, target: Cell) -> bool:
    """Whether terrain on a side of the target's square hides the target in part (the attack being possible).

    Low terrain: a low wall on a side facing the attacker, or a raised square beyond such a side, whose top
    rises above the target's square and is not below the attacker's square (a shooter standing higher than
    the obstacle's top sees over it). Tall terrain (:func:`tall_side_hides`): a high wall or closed door on
    a side of the target's square, or a solid square beside it, that cuts the view of the whole target
    from every corner of the attacker's square."""
    tx, ty = target
    ax, ay = attacker
    sides = []
    if ax < tx:
        sides.append((tx - 1, ty))
    if ax > tx:
        sides.append((tx + 1, ty))
    if ay < ty:
        sides.append((tx, ty - 1))
    if ay > ty:
        sides.append((tx, ty + 1))
    ht, ha = height(st, target), height(st, attacker)
    for s in sides:
        if not on_board(s):
            continue
        hs = height(st, s)
        tops = ([max(ht, hs) + 1] if low_wall(st, target, s) else []) + ([hs] if not solid(st, s) else [])
        if any(top > ht and top >= ha for top in tops):
            return True
    return tall_side_hides(st, attacker, target)


def tall_side_hides(st: SkirmState, attacker: Cell, target: Cell) -> bool:
    """Whether sight-blocking terrain on the target's sides hides part of it from the attacker: high walls
    and closed doors on its four sides and solid squares sharing a side with it together cut at least one
    of the four corner lines from each corner of the attacker's square (from nowhere in its square does the
    attacker see the whole target past them)."""
    cut = 0
    for dx, dy in ORTHOGONAL:
        s = (target[0] + dx, target[1] + dy)
        if not on_board(s):
            continue
        if hard_edge(st, target, s):
            cut |= blocked_lines(attacker, target, door_box(edge_key(target, s)))
        elif solid(st, s):
            cut |= blocked_by_cell(attacker, target, s)
    return all(cut >> shift & 15 for shift in (0, 4, 8, 12))


# -- Linear (LNR) lines ---------------------------------------------------------------------------------------


def crossed_squares(p: Point, q: Point) -> tuple[Cell, ...]:
    """The squares whose inside the segment from grid point ``p`` to grid point ``q`` passes through, in
    order from ``p``. Grid points are square corners (square ``(x, y)`` spans ``[x, x+1] x [y, y+1]``).

    A square is crossed only when the segment enters its inside: touching one of its corners or running
    along one of its sides does not cross it (so a segment along a grid line crosses nothing). Exact: the
    segment is cut into the unit-wide columns it spans, and in each column the rows it passes are found
    with whole numbers scaled by the column count (no floating point).
    """
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    if dx == 0 or dy == 0:
        return ()
    n, sx = abs(dx), (1 if dx > 0 else -1)
    out: list[Cell] = []
    for k in range(n):
        col = px + sx * k if sx > 0 else px - k - 1
        # The segment's heights at the column's two sides, times n; it passes rows j with j < hi and
        # j + 1 > lo (open intervals: rows it only touches at a grid line are left out).
        y0, y1 = py * n + dy * k, py * n + dy * (k + 1)
        lo, hi = min(y0, y1), max(y0, y1)
        first, last = lo // n, -(-hi // n) - 1
        rows = range(first, last + 1) if dy > 0 else range(last, first - 1, -1)
        out += [(col, j) for j in rows]
    return tuple(out)


@cache
def linear_lines(dx: int, dy: int) -> tuple[tuple[Cell, ...], ...]:
    """The distinct sets of squares crossed by the 16 lines from a corner of square ``(0, 0)`` to a corner
    of square ``(dx, dy)``: each as the squares in order along its first line (the two end squares left
    out), in corner order, duplicates dropped. Relative to the attacker's square; memoised (the grid is the
    same everywhere)."""
    ends = {(0, 0), (dx, dy)}
    seen: set[frozenset[Cell]] = set()
    out: list[tuple[Cell, ...]] = []
    for p in corners((0, 0)):
        for q in corners((dx, dy)):
            cells = tuple([c for c in crossed_squares(p, q) if c not in ends])
            key = frozenset(cells)
            if key not in seen:
                seen.add(key)
                out.append(cells)
    return tuple(out)


def in_zone(st: SkirmState, seat: str, c: Cell) -> bool:
    """Whether ``c`` lies in the deployment zone the seat chose."""
    zone = st.zones.get(seat)
    return zone is not None and c in mission(st).zones[zone]


@cache
def open_zone_cells(mission_id: str, zone: str) -> tuple[Cell, ...]:
    """The squares of a mission's deployment zone that are not solid, in the zone's own order (the maps
    never change, so this is memoised)."""
    m = missions()[mission_id]
    terrain = m.map.terrain
    return tuple(c for c in m.zones[zone] if on_board(c) and terrain[c] != "X")


def deploy_cells(st: SkirmState, u: Unit) -> list[Cell]:
    """Free squares where the unit may be deployed: its zone, or for Infiltrators (INF) any square more
    than 4 squares from every enemy unit already on the map and from the enemy's deployment zone."""
    occ = occupancy(st)
    enemies = [
        v.pos for v in st.units.values() if v.seat != u.seat and v.pos is not None and v.state != RESERVE
    ]
    zone_name = st.zones.get(u.seat)
    zone = mission(st).zones[zone_name] if zone_name else frozenset()
    cells = [c for c in open_zone_cells(st.mission, zone_name) if c not in occ] if zone_name else []
    if unit_type(u.type).has("INF"):
        foe_zone = st.zones.get("player2" if u.seat == "player1" else "player1")
        if foe_zone:  # the enemy's deployment zone counts as enemy ground, placed or not
            enemies += list(mission(st).zones[foe_zone])
        extra = [
            c for c in bmap(st).terrain
            if not solid(st, c) and c not in occ and c not in zone
            and all(chebyshev(c, e) > 4 for e in enemies if e is not None)
        ]  # fmt: skip
        cells = sorted(set(cells) | set(extra))
    return sorted(cells)


def out(u: Unit) -> bool:
    """Whether the unit has been taken out."""
    return u.state == OUT
