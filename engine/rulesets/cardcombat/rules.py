"""Dark Realms rules: board, stats, statuses, the combat chapter's attack resolution, enemies, rounds.

Everything here works on a :class:`CCState`; nothing parses text (that is :mod:`actions`). Attacks that
need a hero's choice (which ranged die is range, whether to re-roll a miss) suspend in ``st.pending``
and resume from :func:`resume_attack`.
"""

from __future__ import annotations

import heapq
import threading
from collections import deque
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from engine.core import Event, Outcome
from engine.geometry.square import Cell, cell_name, chebyshev, line_of_sight, parse_cell
from engine.grammar import joined
from engine.memo import Memo
from engine.rulesets.cardcombat.content import (
    CHESTS,
    LEVEL_XP,
    SUMMONS,
    Action,
    cards,
    classes,
    enemies,
    items,
    parse_actions,
    races,
)
from engine.rulesets.cardcombat.state import CCState

SEATS = ("hero1", "hero2", "hero3", "hero4")
KING = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
FACE = {2: -2, 3: -1, 4: 0, 5: 1, 6: 2}  # the combat chapter's damage table
TRAP_DAMAGE = 2
TRAP_DETOUR = 20  # an enemy walks up to this many extra squares to go around a trap rather than through it
DOOR, OPEN_DOOR = "D", "/"  # map letters: a closed door (blocks like a wall) and one a hero has opened
SOLID = "#" + DOOR  # the map letters nothing walks onto or sees through


# -- board ------------------------------------------------------------------------------------------------
def size(st: CCState) -> tuple[int, int]:
    """Width and height of the map."""
    rows = st.scenario["rows"]
    return len(rows[0]), len(rows)


def char(st: CCState, c: Cell) -> str:
    """The map letter at a cell ('#' off the map)."""
    w, h = size(st)
    if not (0 <= c[0] < w and 0 <= c[1] < h):
        return "#"
    ch: str = st.scenario["rows"][c[1]][c[0]]
    return ch


def is_wall(st: CCState, c: Cell) -> bool:
    """True for walls, closed doors and off-map cells (a closed door blocks movement and sight alike)."""
    return char(st, c) in SOLID


def is_door(st: CCState, c: Cell) -> bool:
    """True on a closed door."""
    return char(st, c) == DOOR


def closed_doors(st: CCState) -> list[Cell]:
    """Every closed door on the map, in reading order."""
    return list(geometry(st).doors)


def open_door(st: CCState, hero: dict[str, Any], c: Cell, events: list[Event]) -> None:
    """A hero opens the closed door on ``c``: it becomes floor for good. Under The Blood Price the hero who
    opens the last closed door loses half its current health, rounded down (no defence: it is no attack).

    The door's state lives in the map rows; they are replaced, never edited in place, so a copy of the
    state that shares the scenario with this one keeps its own doors."""
    rows = list(st.scenario["rows"])
    rows[c[1]] = rows[c[1]][: c[0]] + OPEN_DOOR + rows[c[1]][c[0] + 1 :]
    st.scenario = {**st.scenario, "rows": rows}
    events.append(Event(f"{hero['name']} opens the door on {cell_name(c)}.", board=True))
    if "the_blood_price" in st.scenario["rules"] and not closed_doors(st):
        price = int(hero["hp"]) // 2
        events.append(Event(f"The Blood Price: {hero['name']} opened the last door and pays {price} health."))
        hurt(st, hero, price, events)


def is_trap(st: CCState, c: Cell) -> bool:
    """True on a trap square."""
    return char(st, c) == "^"


def pos(f: dict[str, Any]) -> Cell:
    """A figure's cell."""
    return (f["pos"][0], f["pos"][1])


def alive(st: CCState) -> list[dict[str, Any]]:
    """Figures on the board, in id order."""
    return [f for f in st.figures.values() if f["hp"] > 0 and not f.get("out")]


def occupant(st: CCState, c: Cell) -> dict[str, Any] | None:
    """The figure standing on ``c`` (None: empty)."""
    x, y = c
    for f in st.figures.values():
        p = f["pos"]
        if p[0] == x and p[1] == y and f["hp"] > 0 and not f.get("out"):
            return f
    return None


def initiative_text(st: CCState, sep: str) -> str:
    """The round's initiative order as players read it: each hero, summon or enemy type by name with its
    speed, joined by ``sep``."""
    parts = []
    for kind, ident, speed in st.order:
        if kind == "enemy":
            name = enemies()[ident].name
        else:
            f = st.figures.get(ident)
            name = f["name"] if f else ident
        parts.append(f"{name} {speed}")
    return sep.join(parts)


def side(f: dict[str, Any]) -> str:
    """'party' for heroes and summons, 'enemy' for enemies."""
    return "enemy" if f["kind"] == "enemy" else "party"


def foes(st: CCState, f: dict[str, Any]) -> list[dict[str, Any]]:
    """Figures on the other side (a captive prisoner is nobody's foe until freed)."""
    enemy = f["kind"] == "enemy"
    return [
        g
        for g in st.figures.values()
        if (g["kind"] == "enemy") != enemy and g["hp"] > 0 and not g.get("out") and not g.get("captive")
    ]


def friends(st: CCState, f: dict[str, Any]) -> list[dict[str, Any]]:
    """Figures on the same side, ``f`` included."""
    return [g for g in alive(st) if side(g) == side(f)]


def step_ok(st: CCState, a: Cell, b: Cell, flying: bool = False) -> bool:
    """Whether a step from a to b (8 directions) is open: b is no wall; a diagonal slips past a corner
    unless both side squares are walls (flying figures ignore ground obstacles but not walls)."""
    if is_wall(st, b):
        return False
    if a[0] != b[0] and a[1] != b[1]:
        return not (is_wall(st, (b[0], a[1])) and is_wall(st, (a[0], b[1])))
    return True


def sees(st: CCState, a: Cell, b: Cell, hero: bool = False) -> bool:
    """Line of sight, centre to centre; walls block, figures do not. Fog of War caps heroes at 4 squares."""
    if hero and "fog_of_war" in st.scenario["rules"] and chebyshev(a, b) > 4:
        return False
    return geometry(st).sees(a, b)


class Geometry:
    """What one map's letters fix for good, worked out once per map (the rules ask for it on every step):
    for every square the open steps from it, in :data:`KING` order, each with whether it lands on a trap,
    and the lines of sight asked for so far. Built through :func:`step_ok`, :func:`is_wall` and
    :func:`is_trap`, so it follows them exactly; a map whose letters change (an opened door) is another
    map with its own geometry."""

    __slots__ = ("doors", "floor", "key", "near", "sight", "steps", "walls")

    def __init__(self, st: CCState) -> None:
        self.key = tuple(st.scenario["rows"])
        w, h = size(st)
        cells = [(x, y) for y in range(h) for x in range(w)]
        self.walls = frozenset(c for c in cells if is_wall(st, c))
        self.floor = tuple(c for c in cells if c not in self.walls)  # in reading order
        rows = st.scenario["rows"]
        self.doors = tuple((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == DOOR)
        self.steps: dict[Cell, tuple[tuple[Cell, bool], ...]] = {}
        for c in cells:
            opens = ((c[0] + dx, c[1] + dy) for dx, dy in KING)
            self.steps[c] = tuple((n, is_trap(st, n)) for n in opens if step_ok(st, c, n))
        self.near = {c: tuple(n for n, _trap in steps) for c, steps in self.steps.items()}  # the same, bare
        self.sight: dict[tuple[Cell, Cell], bool] = {}

    def sees(self, a: Cell, b: Cell) -> bool:
        """Line of sight from a to b (walls and off-map squares block)."""
        key = (a, b)
        seen = self.sight.get(key)
        if seen is None:
            walls = self.walls
            seen = self.sight[key] = line_of_sight(
                a, b, lambda _x, _y: False, lambda c: c in walls or not self.on_map(c)
            )
        return seen

    def on_map(self, c: Cell) -> bool:
        """Whether ``c`` is a square of the map."""
        return c in self.steps


_GEOMETRIES: dict[tuple[str, ...], Geometry] = {}


def geometry(st: CCState) -> Geometry:
    """The cached :class:`Geometry` of the state's map (keyed by the map's letters)."""
    key = tuple(st.scenario["rows"])
    geo = _GEOMETRIES.get(key)
    if geo is None:
        if len(_GEOMETRIES) >= 64:
            _GEOMETRIES.clear()  # bounded; clearing (not evicting one) is atomic for threads
        geo = _GEOMETRIES[key] = Geometry(st)
    return geo


def open_steps(st: CCState, geo: Geometry, c: Cell) -> tuple[tuple[Cell, bool], ...]:
    """The open steps from ``c`` with their trap flags (off the map too, where no cache entry is kept)."""
    got = geo.steps.get(c)
    if got is None:
        got = tuple(
            ((c[0] + dx, c[1] + dy), is_trap(st, (c[0] + dx, c[1] + dy)))
            for dx, dy in KING
            if step_ok(st, c, (c[0] + dx, c[1] + dy))
        )
    return got


Walk = tuple[Cell, int]  # a cell reached and the traps crossed on the way there


def walks(st: CCState, f: dict[str, Any], limit: int) -> dict[Walk, tuple[int, Walk | None]]:
    """Every way ``f`` can walk within ``limit`` steps, kept per (cell, traps crossed): the fewest steps
    it takes and the step before. Figures of its own side may be passed through, foes may not (the end
    square must be empty: the caller checks); flying figures cross traps unhurt. The mapping is shared
    with later calls for the same walks: read it, never change it."""
    return _walk_table(st, f, limit)


def walk_cells(table: WalkTable, end: Walk) -> list[Cell]:
    """The cells walked, in order, to reach ``end`` (a state of ``table``), the starting square left out.
    Raises KeyError when ``end`` is not in the table."""
    cells = []
    state: Walk | None = end
    while state is not None:
        prev = table[state][1]
        if prev is not None:
            cells.append(state[0])
        state = prev
    cells.reverse()
    return cells


WalkTable = dict[Walk, tuple[int, Walk | None]]  # each way's fewest steps and the state it steps from


WalkKey = tuple[tuple[str, ...], Cell, frozenset[Cell], int, bool]


def _walk_key(st: CCState, f: dict[str, Any], limit: int) -> WalkKey:
    """Everything ``f``'s walks within ``limit`` steps depend on: the map, its square, its foes' squares,
    the limit and whether it flies."""
    return (geometry(st).key, pos(f), frozenset(pos(g) for g in foes(st, f)), limit, bool(f.get("flying")))


def _walk_table(st: CCState, f: dict[str, Any], limit: int, key: WalkKey | None = None) -> WalkTable:
    """:func:`walks` (shared, read-only). ``key``: the walks' :func:`_walk_key`, where the caller has it
    already."""
    key = key or _walk_key(st, f, limit)
    memo = _WALKS.get(key)
    if memo is not None:  # listing a hero's moves and then playing one asks twice for the same walks
        return memo
    # worked out from the state, not read from the key: a key missing something would show in the tests
    start, flying = pos(f), bool(f.get("flying"))
    blockers = frozenset(pos(g) for g in foes(st, f))
    geo = geometry(st)
    # breadth-first over (cell, traps crossed): the first visit of a state is its shortest walk, and a
    # walk reaching a cell later with no fewer traps than an earlier one is never better, so it is dropped
    seen: dict[Walk, tuple[int, Walk | None]] = {(start, 0): (0, None)}
    fewest: dict[Cell, int] = {start: 0}
    queue: deque[Walk] = deque([(start, 0)])
    steps_from = geo.steps.get
    while queue:
        state = queue.popleft()
        (c, t), steps = state, seen[state][0]
        if steps >= limit:
            continue
        for n, trap in steps_from(c) or open_steps(st, geo, c):
            if n in blockers:
                continue
            traps = t + 1 if trap and not flying else t
            if traps < fewest.get(n, 1 << 30):
                fewest[n] = traps
                nxt = (n, traps)
                seen[nxt] = (steps + 1, state)
                queue.append(nxt)
    if len(_WALKS) >= 256:
        _WALKS.clear()
    _WALKS[key] = seen
    return seen


# walks by (map, start, foes' squares, limit, flying): a pure function of its key, shared read-only
_WALKS: dict[WalkKey, WalkTable] = {}
# the routes picked from those walks, by the walks' key (and the free squares, for a hero)
_WARY_ROUTES: Memo[dict[Cell, tuple[int, int]]] = Memo(256)
_HERO_ROUTES: Memo[dict[Cell, tuple[int, int]]] = Memo(256)


def wary_routes(
    st: CCState, f: dict[str, Any], limit: int, key: WalkKey | None = None
) -> dict[Cell, tuple[int, int]]:
    """How an enemy walks (Enemy actions: around a trap if it can, through it if not): for every cell
    reachable within ``limit`` steps, the fewest traps any such walk crosses and, among those walks, the
    fewest steps (cell -> (traps, steps); shared, read only). The cells of such a walk:
    ``walk_cells(walks(st, f, limit), (cell, traps))``. ``key``: the walks' :func:`_walk_key`, where the
    caller has it already."""
    key = key or _walk_key(st, f, limit)

    def work_out() -> dict[Cell, tuple[int, int]]:
        seen = _walk_table(st, f, limit, key)
        out: dict[Cell, tuple[int, int]] = {}
        for (c, t), (steps, _prev) in sorted(seen.items(), key=lambda kv: (kv[0][1], kv[1][0])):
            if c not in out:
                out[c] = (t, steps)
        return out

    return _WARY_ROUTES.get(key, work_out)


def hero_routes(st: CCState, f: dict[str, Any], free: int, pool: int) -> dict[Cell, tuple[int, int]]:
    """How a hero (or summon) walks to each square it can reach with ``free`` card squares plus ``pool``
    stamina: the cheapest walk in stamina, and among those the one crossing the fewest traps, then the
    shortest (cell -> (stamina, traps)). A detour around a trap is taken when the card's free squares cover
    it, never paid for with stamina the player did not choose to spend. The cells of that walk:
    ``walk_cells(walks(st, f, free + pool), (cell, traps))``. The mapping is shared with later calls for
    the same routes: read it, never change it."""
    key = _walk_key(st, f, free + pool)

    def work_out() -> dict[Cell, tuple[int, int]]:
        seen = _walk_table(st, f, free + pool, key)
        out: dict[Cell, tuple[int, int]] = {}
        for (c, t), (steps, _prev) in sorted(
            seen.items(), key=lambda kv: (max(0, kv[1][0] - free), kv[0][1], kv[1][0])
        ):
            if c not in out:
                out[c] = (max(0, steps - free), t)
        return out

    return _HERO_ROUTES.get((key, free), work_out)


def distance_map(st: CCState, f: dict[str, Any], avoid_traps: bool) -> Mapping[Cell, int]:
    """Walking distance from ``f`` to every reachable cell (foes block, trap squares weigh 20 when avoided)."""
    start = pos(f)
    flying = bool(f.get("flying"))
    blockers = frozenset(pos(g) for g in foes(st, f))
    geo = geometry(st)
    if not avoid_traps or flying:  # every step weighs 1: breadth-first, as far as the caller looks
        if not st.scratch:
            return Distances(geo, start, blockers)
        # A search's playouts ask again and again from the same squares with the same foes: its copies keep
        # the walks, per thread (a Distances grows as it is asked). Keyed by the geometry's id: a kept
        # Distances holds its geometry, so that id is not reused while it is kept.
        memo: dict[DistanceKey, Distances] | None = getattr(_THREAD_DISTANCES, "memo", None)
        if memo is None:
            memo = _THREAD_DISTANCES.memo = {}
        key = (id(geo), start, blockers)
        found = memo.get(key)
        if found is None:
            if len(memo) >= 256:
                memo.clear()
            found = memo[key] = Distances(geo, start, blockers)
        return found
    dist = {start: 0}
    frontier = [(0, start)]
    while frontier:
        d, c = heapq.heappop(frontier)
        if d > dist.get(c, 1 << 30):
            continue
        for n, trap in open_steps(st, geo, c):
            if n in blockers:
                continue
            nd = d + (TRAP_DETOUR if trap else 1)
            if nd < dist.get(n, 1 << 30):
                dist[n] = nd
                heapq.heappush(frontier, (nd, n))
    return dist


_THREAD_DISTANCES = threading.local()
DistanceKey = tuple[int, Cell, frozenset[Cell]]


class Distances(Mapping[Cell, int]):
    """Walking distances from one square found breadth-first as they are asked for: looking a square up
    carries the search on until that square is reached or nothing is left, so every answer is the one the
    whole map would give (an enemy asks only about the squares next to its foes, mostly close by)."""

    def __init__(self, geo: Geometry, start: Cell, blockers: frozenset[Cell]) -> None:
        self._geo, self._blockers = geo, blockers
        self._found: dict[Cell, int] = {start: 0}
        self._queue: deque[Cell] = deque([start])

    def _reaches(self, c: Cell) -> bool:
        if c in self._found:
            return True
        geo = self._geo
        if c in self._blockers or c in geo.walls or not geo.on_map(c):
            return False  # never stepped on: no need to search the whole map to say so
        self._grow(c)
        return c in self._found

    def _grow(self, until: Cell | None) -> None:
        """Go on with the search until ``until`` is reached (None: to its end)."""
        found, queue, blockers, geo = self._found, self._queue, self._blockers, self._geo
        near = geo.near.get
        while queue:
            a = queue.popleft()
            nd = found[a] + 1
            for n in near(a, ()):  # every square of the map has its entry, and the walk never leaves it
                if n not in found and n not in blockers:
                    found[n] = nd
                    queue.append(n)
            if until in found:
                return

    def __contains__(self, c: object) -> bool:
        return isinstance(c, tuple) and self._reaches(c)

    def __getitem__(self, c: Cell) -> int:
        self._reaches(c)
        return self._found[c]

    def get(self, c: Cell, default: Any = None) -> Any:  # Mapping's own goes through a KeyError
        """The distance to ``c``, or ``default`` where no walk reaches it."""
        return self._found[c] if self._reaches(c) else default

    def __iter__(self) -> Iterator[Cell]:
        self._grow(None)
        return iter(self._found)

    def __len__(self) -> int:
        self._grow(None)
        return len(self._found)


# -- figures and stats --------------------------------------------------------------------------------------
def level_for(xp: int) -> int:
    """The level reached with ``xp`` experience."""
    return max(i + 1 for i, need in enumerate(LEVEL_XP) if xp >= need)


def hero_stats(race: str, cls: str, level: int) -> dict[str, int]:
    """A hero's stats: race + class, attack stats capped at 5 at level 1 (the cap rises by 1 every third
    level); every level adds 1 health, every second level 1 stamina, every third level 1 to both attacks."""
    r, c = races()[race], classes()[cls]
    cap = 5 + (level - 1) // 3
    bonus = (level - 1) // 3
    return {
        "stamina": r.stamina + c.stamina + (level - 1) // 2,
        "health": r.health + c.health + (level - 1),
        "melee": min(cap, r.melee + c.melee + bonus),
        "ranged": min(cap, r.ranged + c.ranged + bonus),
    }


def hand_for(race: str, cls: str, level: int) -> list[str]:
    """The hero's hand: every level-1 race and class card, each replaced by an unlocked higher card."""
    all_cards = cards()
    hand = [c.id for c in all_cards.values() if c.level == 1 and c.owner in (race, cls)]
    for c in sorted(all_cards.values(), key=lambda c: c.level):
        if 1 < c.level <= level and c.owner in (race, cls) and c.replaces in hand:
            hand[hand.index(c.replaces)] = c.id
    return hand


def enemy_stats(etype: str, level: int, captain: bool) -> tuple[int, int, int]:
    """(move, health, strength) of an enemy type at ``level``, from the observed table: exact on an
    observed level, interpolated between two, following the nearest slope beyond the ends (rounded,
    at least 1)."""
    table = enemies()[etype].table
    # six numbers are (normal, captain) pairs per stat; three are a boss's own
    pts = [(lv, vals if len(vals) == 3 else vals[1 if captain else 0 :: 2]) for lv, vals in table]
    out = []
    for k in range(3):
        xs = [(lv, v[k]) for lv, v in pts]
        if len(xs) == 1:
            out.append(xs[0][1])
            continue
        if level <= xs[0][0]:
            (l0, v0), (l1, v1) = xs[0], xs[1]
        elif level >= xs[-1][0]:
            (l0, v0), (l1, v1) = xs[-2], xs[-1]
        else:
            i = next(i for i in range(len(xs) - 1) if xs[i][0] <= level <= xs[i + 1][0])
            (l0, v0), (l1, v1) = xs[i], xs[i + 1]
        val = v0 + (v1 - v0) * (level - l0) / (l1 - l0)
        out.append(max(1, int(val + 0.5)))
    return out[0], out[1], out[2]


def item_ids(f: dict[str, Any]) -> list[str]:
    """Ids of the items a hero carries."""
    return [i["id"] for i in f.get("items", [])]


def ready_items(f: dict[str, Any]) -> list[dict[str, Any]]:
    """The items a hero can still use in this scenario (a discarded Long Fingers is lost until the next)."""
    return [it for it in f.get("items", []) if not it.get("gone")]


def item_bonus(f: dict[str, Any], effect: str) -> int:
    """The sum of a hero's passive or locked-in-play item values for ``effect``."""
    total = 0
    for it in f.get("items", []):
        card = items()[it["id"]]
        if card.effect == effect and (card.use == "passive" or (card.use == "lock" and it.get("active"))):
            total += card.value
    return total


def reach(st: CCState, f: dict[str, Any], attack: bool = False) -> int:
    """A figure's reach: 1, or 2 with a reach item (never more than 2). ``attack``: an attack's reach, which
    the Reaching Out rule ("every attack has reach 2") also makes 2; looting, rifts and status actions keep
    the figure's own."""
    r = 1 + item_bonus(f, "reach")
    if attack and "reaching_out" in st.scenario["rules"]:
        r = max(r, 2)
    return min(2, r)


def fixed_defence(f: dict[str, Any]) -> int:
    """Automatic defence points: the figure's own, shields this round and Iron Skin."""
    return int(f.get("defence", 0)) + int(f.get("shield", 0)) + item_bonus(f, "defence")


def has(f: dict[str, Any], status: str) -> bool:
    """True when the figure has the status."""
    return status in f["st"]


DURATION = {"poison": "heal", "wound": "heal", "mark": "round", "strengthened": "round", "adrenaline": "use",
            "paralyze": "turn", "disarm": "turn", "stunned": "turn", "confused": "turn"}  # fmt: skip


STATUS_WORDS = {"poison": "is poisoned", "wound": "is wounded", "mark": "is marked", "paralyze": "is paralyzed",
                "disarm": "is disarmed", "adrenaline": "gains Adrenaline"}  # fmt: skip


def give(st: CCState, f: dict[str, Any], status: str, events: list[Event]) -> None:
    """Put a status on a figure (refreshing its duration)."""
    f["st"][status] = DURATION[status]
    events.append(Event(f"{f['name']} {STATUS_WORDS.get(status, 'is ' + status)}."))


def heal(st: CCState, f: dict[str, Any], points: int, events: list[Event]) -> None:
    """Heal: each Poison or Wound takes 2 points to remove (Poison first); the rest restores health."""
    for status in ("poison", "wound"):
        if points >= 2 and has(f, status):
            del f["st"][status]
            points -= 2
            events.append(Event(f"{f['name']} is cured of {status}."))
    gain = min(points, f["max_hp"] - f["hp"])
    f["hp"] += gain
    events.append(Event(f"{f['name']} heals {gain} ({f['hp']}/{f['max_hp']})."))


# -- damage --------------------------------------------------------------------------------------------------
def hurt(
    st: CCState, f: dict[str, Any], amount: int, events: list[Event], by: dict[str, Any] | None = None
) -> None:
    """Take damage outside an attack (poison, traps, the roof) or the attack's final damage."""
    if amount <= 0:
        return
    hp_before = f["hp"]
    f["hp"] = max(0, f["hp"] - amount)
    if f["hp"] == 0:
        events.append(Event(f"{f['name']} falls!", "death"))
        on_death(st, f, hp_before, by, events)


def on_death(
    st: CCState, f: dict[str, Any], hp_before: int, by: dict[str, Any] | None, events: list[Event]
) -> None:
    """A figure is out: enemies drop loot (Loot page, scenario version); heroes and summons leave the map."""
    f["out"] = True
    if f["kind"] == "hero":
        others = [h for h in alive(st) if h["kind"] == "hero"]
        for g in alive(st):
            if g.get("owner") == f["id"]:
                if g["kind"] == "ally" and others:
                    g["owner"], g["seat"] = others[0]["id"], others[0]["seat"]  # follows another hero
                    events.append(Event(f"The Prisoner now follows {others[0]['name']}."))
                    continue
                g["out"] = True
                g["hp"] = 0
        return
    if f["kind"] != "enemy":
        return
    level = int(st.scenario["level"])
    if hp_before >= 7:
        pool = sorted(k for k, v in items().items() if v.level <= level)
        prize = f"item:{pool[st.rng.below(len(pool))]}"
    else:
        prize = f"gold:{max(1, level + hp_before - 3)}"
    killer = by if by is not None and by["kind"] == "hero" else None
    if killer is not None and st.flags.get("kill_melee"):
        take_loot(st, killer, prize, events)
    else:
        st.loot.append([f["pos"][0], f["pos"][1], prize])
        events.append(Event(f"{f['name']} drops {prize_text(prize)} on {cell_name(pos(f))}."))
    if by is not None and by["kind"] == "hero":
        by["xp"] = by.get("xp", 0) + 2


def carry_limit(stamina: int) -> int:
    """How many items a hero can carry: half its stamina stat, rounded down (the Item Cards page says stamina
    sets it and gives no formula)."""
    return stamina // 2


def prize_text(prize: str) -> str:
    """'3 gold' or an item's name."""
    kind, what = prize.split(":", 1)
    if kind == "chest":
        return f"a treasure chest ({what} gold)"
    return f"{what} gold" if kind == "gold" else items()[what].name


def take_loot(st: CCState, hero: dict[str, Any], prize: str, events: list[Event]) -> None:
    """A hero takes a loot prize: gold (doubled by Wealth of the Ancients) or an item (half its price in gold
    if the hero holds it already or carries as many items as half its stamina)."""
    kind, what = prize.split(":", 1)
    if (
        kind == "item"
        and what not in item_ids(hero)
        and len(hero["items"]) < carry_limit(int(hero["stamina"]))
    ):
        hero["items"].append({"id": what, "cd": 0, "active": False})
        events.append(Event(f"{hero['name']} takes {items()[what].name}."))
        return
    if kind == "chest":
        st.flags["chests_looted"] = int(st.flags.get("chests_looted", 0)) + 1
        events.append(Event(f"{hero['name']} opens a treasure chest!"))
    gold = int(what) if kind in ("gold", "chest") else items()[what].price // 2
    if st.scenario.get("reward") == "wealth_of_the_ancients":
        gold *= 2
    hero["gold"] = hero.get("gold", 0) + gold
    events.append(Event(f"{hero['name']} takes {gold} gold."))


def die(st: CCState, advantage: bool) -> tuple[int, list[int]]:
    """One attack die; with advantage (target stunned or confused) it is rolled again and the better kept."""
    a = st.rng.roll()
    if not advantage:
        return a, [a]
    b = st.rng.roll()
    return max(a, b), [a, b]


def miss_limit(st: CCState, atk: dict[str, Any], tgt: dict[str, Any], act: Action, close_ranged: bool) -> int:
    """The highest die that misses: the card's (1, or 1-2 / 1-3), at least 2 against a Strengthened target,
    for a Confused attacker (or the Cursed Ring's carrier), or for a ranged attack at a target within reach
    (the Attacks page treats it as Confused)."""
    m = act.miss
    if has(tgt, "strengthened") or has(atk, "confused") or close_ranged or cursed(st, atk):
        m = max(m, 2)
    return m


def damage_of(
    st: CCState, atk: dict[str, Any], tgt: dict[str, Any], act: Action, d: int, bonus: int
) -> tuple[int, bool]:
    """Damage before defence for a non-missing damage die ``d``, and whether it pierces.

    Stat and +X/-X damage use the table (2: -2 ... 6: +2 and pierce) around the stat, never below no damage
    (+X added after); fixed damage is X (a 6 still pierces); roll-only damage is the die itself and never
    pierces. Weapons, augmentations, Finishing Blows and the Cursed Ring change it after the roll (the attack
    never goes below no damage); then a wounded target adds its point, so every hit on it deals at least 1."""
    stat = int(atk["melee"] if act.kind == "melee" else atk["ranged"])
    if act.dmg == "roll":
        dmg, pierce = d, False
    elif act.dmg == "fixed":
        dmg, pierce = act.x, d == 6
    else:
        dmg = max(0, stat + faces(atk, act)[d]) + (act.x if act.dmg == "plus" else 0)
        pierce = d == 6
    dmg += bonus + item_bonus(atk, act.kind) - (2 if cursed(st, atk) else 0)
    if atk["kind"] == "hero" and "finishing_blows" in st.scenario["rules"] and tgt["hp"] < 5:
        dmg += 1
    dmg = max(0, dmg)
    if has(tgt, "wound"):
        dmg += 1
    return dmg, pierce


def faces(atk: dict[str, Any], act: Action) -> dict[int, int]:
    """The damage table this attacker uses for this action: the chapter's, with the faces the card
    (``fN=M``) or a passive item (effect ``faceN``) changes; where both change a face the better counts."""
    table = dict(FACE)
    changed: dict[int, list[int]] = {}
    for face, mod in act.faces:
        changed.setdefault(face, []).append(mod)
    for it in ready_items(atk):
        card = items()[it["id"]]
        if card.use == "passive" and card.effect.startswith("face") and card.effect[4:].isdigit():
            changed.setdefault(int(card.effect[4:]), []).append(card.value)
    for face, mods in changed.items():
        table[face] = max(mods)
    return table


def attack_reach(
    st: CCState, atk: dict[str, Any], act: Action, range_die: int | None, mods: dict[str, Any]
) -> int:
    """How far this attack reaches: melee reach; a fixed range; or a rolled range plus range bonuses
    (Keen Eye), which apply to rolled range only."""
    if act.kind == "melee":
        return reach(st, atk, attack=True)
    if act.range:
        return act.range
    return (range_die or 0) + int(mods.get("range", 0))


def can_target(st: CCState, atk: dict[str, Any], tgt: dict[str, Any], act: Action, max_range: int) -> bool:
    """Whether ``tgt`` is in sight and within ``max_range`` of ``atk``."""
    d = chebyshev(pos(atk), pos(tgt))
    return 0 < d <= max_range and sees(st, pos(atk), pos(tgt), atk["kind"] != "enemy")


def potential_range(st: CCState, atk: dict[str, Any], act: Action, mods: dict[str, Any] | None = None) -> int:
    """The farthest this attack could reach: the fixed range, or 6 + bonuses for a rolled range."""
    if act.kind == "melee":
        return reach(st, atk, attack=True)
    return act.range or 6 + int((mods or {}).get("range", 0))


def reroll_sources(st: CCState, hero: dict[str, Any]) -> list[str]:
    """How a hero may re-roll now: 'free' (Rabbit's Foot), 'stamina' (once a round, 1 stamina), item ids."""
    out = []
    if "rabbits_foot" in st.scenario["rules"] and not hero.get("free_reroll_used"):
        out.append("free")
    pool = int(st.turn.get("pool", 0)) if st.turn.get("fig") == hero["id"] else 0
    if not hero.get("reroll_used") and pool >= 1:
        out.append("stamina")
    for it in ready_items(hero):
        card = items()[it["id"]]
        if card.use == "reroll" and it["cd"] == 0 and pool >= card.stamina:
            out.append(it["id"])
    return out


def start_attack(
    st: CCState,
    atk: dict[str, Any],
    targets: list[str],
    act: Action,
    mods: dict[str, Any],
    events: list[Event],
) -> None:
    """Resolve an attack on each target in turn (each resolved alone). Suspends in ``st.pending`` when a
    hero must choose a ranged split or whether to re-roll a miss; :func:`resume_attack` goes on."""
    st.pending = {"atk": atk["id"], "targets": list(targets), "act": action_data(act), "mods": mods}
    next_target(st, events)


def action_data(act: Action) -> dict[str, Any]:
    """An action as JSON-ready data."""
    return {"text": act.text}


def action_from(data: dict[str, Any]) -> Action:
    """Inverse of :func:`action_data`."""
    return _action_of_text(str(data["text"]))


@lru_cache(maxsize=512)
def _action_of_text(text: str) -> Action:
    # A suspended attack is resumed several times a turn: its text is read once (actions are immutable).
    return parse_actions(text, "suspended attack")[0]


def next_target(st: CCState, events: list[Event]) -> None:
    """Roll against the next target of the suspended attack, or close it when none is left."""
    p = st.pending
    while p and p["targets"]:
        atk = st.figures[p["atk"]]
        tid = p["targets"][0]
        tgt = st.figures[tid]
        if atk["hp"] <= 0 or atk.get("out") or tgt["hp"] <= 0 or tgt.get("out"):
            p["targets"].pop(0)
            continue
        act = action_from(p["act"])
        adv = next((s for s in ("stunned", "confused") if has(tgt, s)), "")
        if adv:
            p["adv"] = adv
        else:  # a target skipped as out of reach leaves its keys behind
            p.pop("adv", None)
        st.attacks.append([*atk["pos"], *tgt["pos"]])
        if act.kind == "ranged" and not act.range:
            a, ra = die(st, bool(adv))
            b, rb = die(st, bool(adv))
            p["dice"] = [a, b]
            p["raw"] = ra + rb
            if atk["kind"] == "hero":
                p["stage"] = "split"
                d_away = chebyshev(pos(atk), pos(tgt))
                events.append(Event(f"{atk['name']} rolls {a} and {b}{advantage_note(p, tgt)} against {tgt['name']} "
                                    f"({d_away} away): choose the range die and the damage die.", "attack",
                                    tuple(ra + rb)))  # fmt: skip
                return
            r, d = enemy_split(st, atk, tgt, act, a, b)
            p["range_die"], p["dmg_die"] = r, d
        else:
            d, raw = die(st, bool(adv))
            p["dice"] = [d]
            p["raw"] = raw
            p["range_die"], p["dmg_die"] = None, d
        if check_miss(st, events):
            return
    close_attack(st)


def advantage_note(p: dict[str, Any], tgt: dict[str, Any]) -> str:
    """Why the attack's dice were rolled twice each, the better kept (the target is stunned or confused), as
    a note for the narration ("" when they were not)."""
    if not p.get("adv"):
        return ""
    which = "each the better of two dice" if len(p.get("dice", ())) > 1 else "the better of two dice"
    return f" ({which}: {tgt['name']} is {p['adv']})"


def enemy_split(
    st: CCState, atk: dict[str, Any], tgt: dict[str, Any], act: Action, a: int, b: int
) -> tuple[int, int]:
    """The game's choice of range and damage die: the reaching split with the higher damage die."""
    mods = st.pending.get("mods", {})
    best = (a, b)
    for r, d in ((a, b), (b, a)):
        if can_target(st, atk, tgt, act, attack_reach(st, atk, act, r, mods)) and d >= best[1]:
            best = (r, d)
    if not can_target(st, atk, tgt, act, attack_reach(st, atk, act, best[0], mods)):
        best = (max(a, b), min(a, b))
    return best


def check_miss(st: CCState, events: list[Event]) -> bool:
    """After the dice: a miss may be re-rolled (a hero's choice; a Boss or Captain once a round for -2
    damage). Returns True when the attack is suspended for the hero's answer."""
    p = st.pending
    atk, tgt = st.figures[p["atk"]], st.figures[p["targets"][0]]
    act = action_from(p["act"])
    # only a damage die that misses may be re-rolled; a range die that falls short was chosen in the split
    if reaches(st, atk, tgt, act) and missed(st, atk, tgt, act):
        if atk["kind"] == "hero" and reroll_sources(st, atk):
            p["stage"] = "miss"
            events.append(Event(f"{atk['name']} rolls {p['dmg_die']} against {tgt['name']}: a miss. Re-roll it "
                                "or accept it.", "attack", tuple(int(x) for x in p["raw"])))  # fmt: skip
            return True
        if atk["kind"] == "enemy" and (atk.get("captain") or atk.get("boss")) and not atk.get("reroll_used"):
            atk["reroll_used"] = True
            d, raw = die(st, bool(p.get("adv")))
            events.append(Event(f"{atk['name']} rolls {p['dmg_die']} against {tgt['name']}, a miss, and re-rolls "
                                f"it: {d}, for 2 less damage.", "attack",
                                tuple(int(x) for x in p["raw"]) + tuple(raw)))  # fmt: skip
            p["dmg_die"] = d
            p["raw"] = ([p["range_die"]] if p.get("range_die") else []) + raw
            p["penalty"] = 2
    finish_target(st, events)
    return False


def reaches(st: CCState, atk: dict[str, Any], tgt: dict[str, Any], act: Action) -> bool:
    """Whether the suspended attack's reach (melee reach, printed range, or the chosen range die plus
    bonuses) covers ``tgt`` in sight."""
    p = st.pending
    return can_target(st, atk, tgt, act, attack_reach(st, atk, act, p.get("range_die"), p["mods"]))


def missed(st: CCState, atk: dict[str, Any], tgt: dict[str, Any], act: Action) -> bool:
    """Whether the current roll fails: out of reach, or a miss on the damage die (roll-only never misses)."""
    p = st.pending
    if not can_target(st, atk, tgt, act, attack_reach(st, atk, act, p.get("range_die"), p["mods"])):
        return True
    if act.dmg == "roll":
        return False
    close = act.kind == "ranged" and chebyshev(pos(atk), pos(tgt)) <= reach(st, atk, attack=True)
    return int(p["dmg_die"]) <= miss_limit(st, atk, tgt, act, close)


def finish_target(st: CCState, events: list[Event]) -> None:
    """Resolve the current target: damage, defence (dice or fixed; pierce denies both), statuses, push/pull."""
    p = st.pending
    atk, tgt = st.figures[p["atk"]], st.figures[p["targets"][0]]
    act = action_from(p["act"])
    dice = tuple(int(x) for x in p.get("raw", p["dice"]))
    made = can_target(st, atk, tgt, act, attack_reach(st, atk, act, p.get("range_die"), p["mods"]))
    what = f"{atk['name']} attacks {tgt['name']} ({act.text})"
    if not made:
        events.append(
            Event(f"{what}: out of reach (range die {p.get('range_die')}), no effect.", "attack", dice)
        )
        p["targets"].pop(0)
        return
    if missed(st, atk, tgt, act):
        events.append(Event(f"{what}: die {p['dmg_die']}{advantage_note(p, tgt)}, a miss.", "attack", dice))
    else:
        dmg, pierce = damage_of(st, atk, tgt, act, int(p["dmg_die"]), int(p["mods"].get("damage", 0)))
        dmg = max(0, dmg - int(p.get("penalty", 0)))
        note = f"die {p['dmg_die']}" + (f" (range {p['range_die']})" if p.get("range_die") else "")
        note += advantage_note(p, tgt)
        blocked = 0
        defence_dice: tuple[int, ...] = ()
        if pierce:
            note += ", pierces"
        else:
            blocked = fixed_defence(tgt)
            if tgt.get("defence_dice"):
                roll = st.rng.roll()
                defence_dice = (roll,)
                blocked += 0 if roll == 1 else (dmg if roll == 6 else roll)
                note += f", defence die {roll}"
            if blocked:
                note += f", {min(blocked, dmg)} blocked"
        final = max(0, dmg - blocked)
        events.append(Event(f"{what}: {note} → {final} damage.", "attack", dice + defence_dice))
        st.flags["kill_melee"] = act.kind == "melee"
        hurt(st, tgt, final, events, atk)
        if final > 0 and "malevolent_retaliation" in item_ids(tgt):
            give(st, atk, "mark", events)
        if final > 4 and atk["kind"] == "enemy" and "war_cry" in st.scenario["rules"]:
            war_cry(st, atk, events)
    for s in act.statuses + tuple(p["mods"].get("statuses", [])):
        if tgt["hp"] > 0:
            give(st, tgt, s, events)
    if tgt["hp"] > 0 and (act.push or act.pull):
        shove(st, atk, tgt, act.push or act.pull, away=bool(act.push), events=events)
    p["targets"].pop(0)
    for k in ("dice", "raw", "range_die", "dmg_die", "penalty", "stage", "adv"):
        p.pop(k, None)


def resume_attack(st: CCState, events: list[Event]) -> None:
    """Go on with the suspended attack after a hero's choice."""
    if st.pending and st.pending.get("stage") is None:
        next_target(st, events)


def close_attack(st: CCState) -> None:
    """The attack is over."""
    st.pending = {}


def shove(
    st: CCState, atk: dict[str, Any], tgt: dict[str, Any], n: int, away: bool, events: list[Event]
) -> None:
    """Push (away) or pull (toward) a figure up to ``n`` squares, each step the open square that most
    increases (push) or decreases (pull) its distance to the actor; it stops when no step does."""
    moved = 0
    for _ in range(n):
        here = pos(tgt)
        d0 = chebyshev(here, pos(atk))
        best = None
        for dx, dy in KING:
            c = (here[0] + dx, here[1] + dy)
            if not step_ok(st, here, c) or occupant(st, c):
                continue
            d = chebyshev(c, pos(atk))
            if (away and d > d0) or (not away and 0 < d < d0):
                key = (-d if away else d, c[1], c[0])
                if best is None or key < best[0]:
                    best = (key, c)
        if best is None:
            break
        tgt["pos"] = [best[1][0], best[1][1]]
        moved += 1
        if is_trap(st, best[1]) and not tgt.get("flying"):
            events.append(Event(f"{tgt['name']} lands on a trap."))
            hurt(st, tgt, TRAP_DAMAGE, events)
            if tgt["hp"] <= 0:
                break
    if moved:
        events.append(Event(f"{tgt['name']} is {'pushed' if away else 'pulled'} to {cell_name(pos(tgt))}."))


def war_cry(st: CCState, atk: dict[str, Any], events: list[Event]) -> None:
    """War Cry: a Captain of that group appears next to it when the group has none left."""
    group = [g for g in alive(st) if g["kind"] == "enemy" and g["type"] == atk["type"]]
    if any(g.get("captain") for g in group) or atk.get("boss"):
        return
    spot = free_near(st, pos(atk))
    if spot is None:
        return
    fig = make_enemy(st, atk["type"], True, spot, f"{enemies()[atk['type']].short}w{st.round}")
    st.figures[fig["id"]] = fig
    events.append(Event(f"War Cry! A {fig['name']} joins the fight on {cell_name(spot)}."))


def free_near(st: CCState, c: Cell) -> Cell | None:
    """The nearest empty floor square to ``c`` (ties by row, column)."""
    taken = {pos(f) for f in alive(st)}
    cands = [q for q in geometry(st).floor if q not in taken]
    if not cands:
        return None
    return min(cands, key=lambda q: (chebyshev(q, c), q[1], q[0]))


def make_enemy(st: CCState, etype: str, captain: bool, at: Cell, fid: str) -> dict[str, Any]:
    """An enemy figure of ``etype`` at the scenario's level."""
    t = enemies()[etype]
    boss = t.rank == "boss"
    mv, hp, strength = enemy_stats(etype, int(st.scenario["level"]), captain)
    name = t.name + (" Captain" if captain else "")
    return {"id": fid, "kind": "enemy", "type": etype, "name": name, "pos": [at[0], at[1]], "hp": hp,
            "max_hp": hp, "melee": strength, "ranged": strength, "move": mv, "captain": captain and not boss,
            "boss": boss, "defence": t.defence_fixed, "defence_dice": t.defence_dice, "flying": t.flying,
            "st": {}, "reroll_used": False}  # fmt: skip


def make_prisoner(at: Cell) -> dict[str, Any]:
    """The captive of a rescue scenario: nobody's foe, going nowhere, until a hero frees it."""
    name, hp, melee, move, _acts = SUMMONS["prisoner"]
    return {"id": "prisoner", "kind": "ally", "captive": True, "name": "the Prisoner", "pos": [at[0], at[1]],
            "hp": hp, "max_hp": hp, "melee": melee, "ranged": 0, "move": move, "st": {}, "defence": 0}  # fmt: skip


def free_prisoner(st: CCState, hero: dict[str, Any], events: list[Event]) -> None:
    """A hero next to the captive frees it: from the next round it acts after that hero, who moves it. It
    stays an Ally (not a summon), so the enemies' priority list passes it by unless it is Marked."""
    p = st.figures.get("prisoner")
    if p is None or not p.get("captive") or p["hp"] <= 0 or chebyshev(pos(p), pos(hero)) > 1:
        return
    p.update(captive=False, summon="prisoner", owner=hero["id"], seat=hero["seat"])
    events.append(Event(f"{hero['name']} frees the Prisoner! Lead it to the exit."))


def make_summon(owner: dict[str, Any], kind: str, at: Cell, fid: str) -> dict[str, Any]:
    """A summon of ``kind`` for ``owner``."""
    name, hp, melee, move, _acts = SUMMONS[kind]
    return {"id": fid, "kind": "summon", "summon": kind, "owner": owner["id"], "seat": owner["seat"],
            "name": f"{owner['name']}'s {name}", "pos": [at[0], at[1]], "hp": hp, "max_hp": hp, "melee": melee,
            "ranged": 0, "move": move, "st": {}, "defence": 0}  # fmt: skip


# -- enemy behaviour --------------------------------------------------------------------------------------
def fastest_speed(st: CCState, f: dict[str, Any]) -> int:
    """A party figure's initiative this round for enemy targeting (summons use their owner's; the Ring of
    Cloak's carrier counts 10 less)."""
    for _kind, fid, speed in st.order:
        if fid == f["id"] or (f["kind"] == "summon" and fid == f.get("owner")):
            cloak = "ring_of_cloak" in st.scenario["rules"] and st.flags.get("ring_carrier") == f["id"]
            return int(speed) - (10 if cloak else 0)
    return 0


def cursed(st: CCState, f: dict[str, Any]) -> bool:
    """Whether ``f`` carries the Cursed Ring this round (its attacks count as Confused and deal 2 less)."""
    return "cursed_ring" in st.scenario["rules"] and st.flags.get("ring_carrier") == f["id"]


def pick_targets(
    st: CCState,
    e: dict[str, Any],
    n: int,
    dist: Mapping[Cell, int],
    among: list[dict[str, Any]] | None = None,
    events: list[Event] | None = None,
    prefer: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Up to ``n`` targets by the enemy priority: Mark, then summons, then the closest hero, then the
    fastest; a die roll breaks what is still tied. Each further target is picked by the same list.
    ``among`` limits the choice (the foes an attack can reach); ``prefer`` (the figure the enemy walked
    toward) wins a tie without a second roll."""
    pool = foes(st, e) if among is None else among
    cands = [g for g in pool if g["kind"] in ("hero", "summon") or has(g, "mark")]
    out = []
    for _ in range(n):
        if not cands:
            break

        def walk(g: dict[str, Any]) -> int:
            x, y = g["pos"]
            near = [d for dx, dy in KING if (d := dist.get((x + dx, y + dy))) is not None]
            return min(near) if near else 999

        keys = {g["id"]: (0 if has(g, "mark") else 1, 0 if g["kind"] == "summon" else 1, walk(g),
                          -fastest_speed(st, g)) for g in cands}  # fmt: skip
        top = min(keys.values())
        tied = [g for g in cands if keys[g["id"]] == top]
        if len(tied) == 1:
            choice = tied[0]
        elif prefer is not None and prefer in tied:
            choice = prefer
        else:
            roll = st.rng.roll()
            choice = tied[(roll - 1) % len(tied)]
            if events is not None:
                names = joined([g["name"] for g in tied])
                events.append(Event(f"{e['name']} rolls {roll} to choose between {names}: {choice['name']}.",
                                    dice=(roll,)))  # fmt: skip
        out.append(choice)
        cands.remove(choice)
    return out


def enemy_turn(st: CCState, e: dict[str, Any], card_index: int, events: list[Event]) -> None:
    """One enemy's turn with its type's drawn speed card: poison, then move toward its target by the
    priority list, stopping as soon as it is in range (around traps where it can), then its actions in order
    (a rift it opens goes as close to the heroes as it can; a rift-gated action needs a rift unless the
    scenario's Elemental Fury forbids enemies rifts)."""
    t = enemies()[e["type"]]
    card = t.deck[card_index]
    start_turn_statuses(st, e, events)
    if e["hp"] <= 0:
        return
    attacks = [a for a in card.actions if a.kind in ("melee", "ranged")]
    main = attacks[0] if attacks else card.actions[0]
    steps = max(0, int(e["move"]) + card.move + (1 if has(e, "adrenaline") else 0))
    e["st"].pop("adrenaline", None)
    rng_needed = (
        main.range
        if main.kind == "ranged" and main.range
        else (reach(st, e, attack=True) if main.kind == "melee" else 3)
    )
    dist = distance_map(st, e, avoid_traps=False)
    targets = pick_targets(st, e, 1, dist, events=events)
    if not targets:
        end_turn_statuses(e)
        return
    goal = targets[0]
    if not has(e, "paralyze") and not (
        chebyshev(pos(e), pos(goal)) <= rng_needed and sees(st, pos(e), pos(goal))
    ):
        enemy_move(st, e, goal, steps, rng_needed, events)
        if e["hp"] <= 0:
            return
        dist = distance_map(st, e, avoid_traps=False)  # "closest" now counts from where it stands
    for act in card.actions:
        if e["hp"] <= 0 or st.result is not None:
            return
        if act.needs:
            if "elemental_fury" in st.scenario["rules"]:
                events.append(Event(f"Elemental Fury: {e['name']} cannot use rifts; '{act.text}' fails."))
                continue
            if not use_rift(st, e, act.needs, events):
                events.append(Event(f"{e['name']} has no {act.needs} rift: '{act.text}' fails."))
                continue
        if act.kind == "rift":
            enemy_rift(st, e, act.what, events)
        elif act.kind in ("melee", "ranged"):
            if has(e, "disarm"):
                events.append(Event(f"{e['name']} is disarmed and cannot attack."))
                continue
            limit = potential_range(st, e, act)
            in_reach = [g for g in foes(st, e) if can_target(st, e, g, act, limit)]
            # the priority list picks among the foes this attack reaches (a Marked hero out of reach does
            # not shield the one standing next to the enemy)
            picked = pick_targets(st, e, act.targets, dist, in_reach, events, goal)
            if picked:
                start_attack(st, e, [g["id"] for g in picked], act, {}, events)
                st.pending = {}
            else:
                events.append(Event(f"{e['name']} has no one in reach."))
        elif act.kind == "shield":
            e["shield"] = int(e.get("shield", 0)) + act.x
        elif act.kind == "heal":
            heal(st, e, act.x, events)
    close_used_rifts(st, e)
    end_turn_statuses(e)


def enemy_move(
    st: CCState, e: dict[str, Any], goal: dict[str, Any], steps: int, rng_needed: int, events: list[Event]
) -> None:
    """Walk toward ``goal``: a square in range (and sight) if one is reachable, with the fewest traps and then
    the fewest steps; otherwise as far as it gets along its way to the goal, the way around traps where there
    is one (up to :data:`TRAP_DETOUR` squares longer) and through them where there is none. Traps on the way
    hurt. An enemy with no way to the goal (closed doors between them) stays where it is."""
    key = _walk_key(st, e, steps)
    best = wary_routes(st, e, steps, key)
    here, there = pos(e), pos(goal)
    tx, ty = there
    taken = {pos(f) for f in alive(st)}
    options = [c for c in best if c == here or c not in taken]
    rows = tuple(st.scenario["rows"])
    from_goal = _walk_from(rows, there)  # goal_distance for every square at once
    if from_goal.get(here, 999) >= 999:
        return  # enemies open no doors: one shut away from its target waits where it is
    # the way on from each square, a trap weighing TRAP_DETOUR squares (a flyer crosses traps unhurt)
    ahead = from_goal if e.get("flying") or not any("^" in r for r in rows) else _wary_from(rows, there)

    def score(c: Cell) -> tuple[int, int, int, int, int]:
        in_range = max(abs(c[0] - tx), abs(c[1] - ty)) <= rng_needed and sees(st, c, there)
        gd = from_goal.get(c, 999)
        traps, walk = best[c]
        if in_range:
            return (0, traps, walk, gd, c[1] * 100 + c[0])
        # out of range: the whole way from here to the goal through c, each trap on it (walked or still
        # ahead) weighing TRAP_DETOUR squares
        return (1, TRAP_DETOUR * traps + ahead.get(c, 1 << 20), gd, gd, c[1] * 100 + c[0])

    dest = min(options, key=score)
    if dest == here:
        return
    walked = walk_cells(_walk_table(st, e, steps, key), (dest, best[dest][0]))
    e["pos"] = [dest[0], dest[1]]
    st.trail = [[c[0], c[1]] for c in walked]
    events.append(Event(f"{e['name']} moves to {cell_name(dest)}."))
    for c in walked:
        if is_trap(st, c) and not e.get("flying"):
            events.append(Event(f"{e['name']} walks through a trap on {cell_name(c)}."))
            hurt(st, e, TRAP_DAMAGE, events)


def enemy_rift(st: CCState, e: dict[str, Any], element: str, events: list[Event]) -> None:
    """An enemy opens a rift on the empty square within its reach closest to a hero (none if no square)."""
    heroes = [pos(f) for f in alive(st) if f["kind"] == "hero"]
    here, rch = pos(e), reach(st, e)
    spots = [
        (x, y)
        for x in range(here[0] - rch, here[0] + rch + 1)
        for y in range(here[1] - rch, here[1] + rch + 1)
        if (x, y) != here
        and not is_wall(st, (x, y))
        and not occupant(st, (x, y))
        and not any((r[0], r[1]) == (x, y) for r in st.rifts)
    ]
    if not spots or not heroes:
        return
    spot = min(spots, key=lambda c: (min(chebyshev(c, h) for h in heroes), c[1], c[0]))
    st.rifts.append([spot[0], spot[1], element])
    events.append(Event(f"{e['name']} opens a {element} rift on {cell_name(spot)}."))


def goal_distance(st: CCState, goal: dict[str, Any], c: Cell) -> int:
    """Walking distance between a square and a target figure (squares, ignoring figures)."""
    return walking_distance(st, pos(goal), c)


def walking_distance(st: CCState, a: Cell, b: Cell, through_doors: bool = False) -> int:
    """Steps between two squares around walls and closed doors, ignoring figures (999: no way);
    ``through_doors``: as if every closed door were open (the way a hero can make)."""
    rows = tuple(st.scenario["rows"])
    if through_doors:
        rows = tuple(r.replace(DOOR, OPEN_DOOR) for r in rows)
    value: int = _walk_from(rows, a).get(b, 999)
    return value


@lru_cache(maxsize=512)
def _wary_from(rows: tuple[str, ...], start: Cell) -> dict[Cell, int]:
    """For every square, the length of the way from it to ``start`` around walls and closed doors (figures
    ignored), each trap stepped onto counting :data:`TRAP_DETOUR` squares (the square itself is not stepped
    onto): a way through one trap counts as long as a detour of that many squares."""
    w, h = len(rows[0]), len(rows)

    def wall(c: Cell) -> bool:
        return not (0 <= c[1] < h and 0 <= c[0] < w) or rows[c[1]][c[0]] in SOLID

    def weight(c: Cell) -> int:
        return TRAP_DETOUR if rows[c[1]][c[0]] == "^" else 1

    # cost[c]: entering every square from start's side to c, c included; the way on from c leaves c out
    cost = {start: 0}
    frontier = [(0, start)]
    while frontier:
        d, x = heapq.heappop(frontier)
        if d > cost[x]:
            continue
        for dx, dy in KING:
            n = (x[0] + dx, x[1] + dy)
            if wall(n) or (dx and dy and wall((n[0], x[1])) and wall((x[0], n[1]))):
                continue
            nd = d + weight(n)
            if nd < cost.get(n, 1 << 30):
                cost[n] = nd
                heapq.heappush(frontier, (nd, n))
    return {c: d - weight(c) if c != start else 0 for c, d in cost.items()}


@lru_cache(maxsize=512)
def _walk_from(rows: tuple[str, ...], start: Cell) -> dict[Cell, int]:
    def wall(c: Cell) -> bool:
        return not (0 <= c[1] < len(rows) and 0 <= c[0] < len(rows[0])) or rows[c[1]][c[0]] in SOLID

    dm = {start: 0}
    q: deque[Cell] = deque([start])
    while q:
        x = q.popleft()
        for dx, dy in KING:
            n = (x[0] + dx, x[1] + dy)
            if n in dm or wall(n) or (dx and dy and wall((n[0], x[1])) and wall((x[0], n[1]))):
                continue
            dm[n] = dm[x] + 1
            q.append(n)
    return dm


def use_rift(st: CCState, f: dict[str, Any], element: str, events: list[Event]) -> bool:
    """Use a rift of ``element``: one within reach is used freely; otherwise a die roll of at least the
    distance minus reach reaches the nearest. The used rift closes. Returns whether one was used."""
    mine = [r for r in st.rifts if r[2] == element]
    if not mine:
        return False
    here = pos(f)
    r = min(mine, key=lambda r: (chebyshev(here, (r[0], r[1])), r[1], r[0]))
    d = chebyshev(here, (r[0], r[1]))
    rch = reach(st, f)
    if d > rch:
        roll = st.rng.roll()
        if roll < d - rch:
            events.append(Event(f"{f['name']} reaches for the {element} rift {d} away: rolls {roll}, too short.",
                                dice=(roll,)))  # fmt: skip
            return False
        events.append(Event(f"{f['name']} reaches the {element} rift {d} away with a {roll}.", dice=(roll,)))
    if d == 0:
        # a rift on the actor's own square stays open until the end of its turn (close_used_rifts)
        st.flags.setdefault("rift_here", []).append([r[0], r[1], element])
    else:
        st.rifts.remove(r)
    events.append(Event(f"{f['name']} draws on the {element} rift."))
    return True


def close_used_rifts(st: CCState, f: dict[str, Any]) -> None:
    """At the end of ``f``'s turn, the rifts it drew on from its own square (open until then, Realm Rifts
    page) close."""
    for used in st.flags.pop("rift_here", []):
        # [col, row, element]; a bare element (a turn saved before squares were kept) is the actor's square
        spot = [*pos(f), used] if isinstance(used, str) else list(used)
        if spot in st.rifts:
            st.rifts.remove(spot)


# -- statuses at turn edges -------------------------------------------------------------------------------
def start_turn_statuses(st: CCState, f: dict[str, Any], events: list[Event]) -> None:
    """At the start of a figure's turn: Poison costs 1 health; turn-long statuses now run to its turn's end."""
    for k, v in list(f["st"].items()):
        if v == "turn":
            f["st"][k] = "turn*"
    if has(f, "poison"):
        events.append(Event(f"{f['name']} suffers 1 poison damage."))
        hurt(st, f, 1, events)


def end_turn_statuses(f: dict[str, Any]) -> None:
    """At the end of a figure's turn, statuses lasting until then end."""
    for k, v in list(f["st"].items()):
        if v == "turn*":
            del f["st"][k]


# -- outcome ------------------------------------------------------------------------------------------------
def check_outcome(st: CCState, events: list[Event]) -> bool:
    """Set the result when the objective is met or failed. Returns True once the game is over."""
    if st.result is not None:
        return True
    heroes: list[dict[str, Any]] = []
    foes_left: list[dict[str, Any]] = []
    for f in st.figures.values():  # alive(st), split by kind in one pass: this runs after every step
        if f["hp"] > 0 and not f.get("out"):
            if f["kind"] == "hero":
                heroes.append(f)
            elif f["kind"] == "enemy":
                foes_left.append(f)
    obj = st.scenario["objective"]
    win = ""
    if obj == "kill_boss":
        if not any(f.get("boss") for f in foes_left):
            win = "The boss is slain!"
    elif obj == "treasure":
        if int(st.flags.get("chests_looted", 0)) >= CHESTS:
            win = "Every chest is looted!"
    elif obj == "rescue":
        if st.flags.get("rescued"):
            win = "The Prisoner is out!"
        elif st.figures["prisoner"]["hp"] <= 0:
            st.result = Outcome(frozenset(), "The Prisoner has fallen. The rescue has failed.")
    elif obj == "escape":
        if (
            heroes
            and all(char(st, pos(f)) == "E" for f in heroes)
            or (st.flags.get("escaped") and not heroes)
        ):
            win = "The party escaped!"
    elif not foes_left:
        win = "Every enemy is dead!"
    if st.result is not None:
        pass
    elif win and (heroes or st.flags.get("escaped")):
        st.result = Outcome(frozenset(st.seats), f"{win} The heroes win {st.scenario['name']}.")
    elif not heroes:
        st.result = Outcome(frozenset(), "Every hero has fallen. The enemies win.")
    elif st.round > int(st.scenario["rounds"]):
        st.result = Outcome(
            frozenset(), f"Round {st.scenario['rounds']} is over and the objective is not met."
        )
    if st.result is not None:
        st.phase = "over"
        events.append(Event(st.result.reason, "end", board=True))
        return True
    return False


def hero_of(st: CCState, seat: str) -> dict[str, Any] | None:
    """The hero played from ``seat``."""
    for f in st.figures.values():
        if f["kind"] == "hero" and f["seat"] == seat:
            return f
    return None


def parse_cell_for(st: CCState, text: str) -> Cell:
    """A typed square on this map. Raises IllegalCommand when it is malformed or off the map."""
    w, h = size(st)
    return parse_cell(text, w, h)
