"""The ESCAPE board: rooms, walls and doors on square edges, airlocks; parsed from a text map.

Map format (see ``content/lab03.map``): between ``grid`` and ``end``, lines alternate between edge rows
(``+--+  +DD+L7+##+``) and cell rows (``|Q  Q1 D. 6C |``). A cell is two characters: a room letter
('.' corridor) and an airlock access number or blank. Edges: ``--``/``|`` wall, ``##``/``#``
indestructible, ``DD``/``D`` closed door, ``L<d>``/digit locked door of difficulty d, ``oo``/``o`` open door,
blank open. After ``end``: ``room <letter> <name>``, ``corridor <letter>``, ``airlock <n> <name>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib import resources

from engine.errors import ContentError
from engine.geometry.square import Cell, EdgeKey, edge_key


class EdgeKind(Enum):
    """What stands on an edge at the start of a game."""

    WALL = "wall"
    STRONG_WALL = "strong"  # indestructible: the Drill cannot break it
    DOOR = "door"


@dataclass(frozen=True)
class EdgeSpec:
    """A wall or door as printed: doors may start open or locked (with a hacking difficulty)."""

    kind: EdgeKind
    locked: bool = False
    difficulty: int = 0
    open: bool = False


@dataclass(frozen=True, eq=False)
class Board:
    """A parsed map. ``rooms`` maps each cell to its room letter (corridors included)."""

    name: str
    key: str
    width: int
    height: int
    cell_room: dict[Cell, str]
    room_names: dict[str, str]
    corridors: frozenset[str]
    edges: dict[EdgeKey, EdgeSpec]
    airlocks: dict[int, tuple[Cell, ...]]
    airlock_names: dict[int, str]

    def room_of(self, cell: Cell) -> str | None:
        """The room letter of ``cell``, or None for a corridor."""
        letter = self.cell_room.get(cell)
        return None if letter is None or letter in self.corridors else letter

    def room_cells(self, letter: str) -> tuple[Cell, ...]:
        """Every cell of a room, in reading order."""
        return _room_cells(self, letter)

    @property
    def rooms(self) -> list[str]:
        """Room letters (corridors excluded), in legend order."""
        return [k for k in self.room_names if k not in self.corridors]


@lru_cache(maxsize=256)
def _room_cells(board: Board, letter: str) -> tuple[Cell, ...]:
    return tuple(sorted((c for c, r in board.cell_room.items() if r == letter), key=lambda c: (c[1], c[0])))


def _parse_edge(text: str, where: str) -> EdgeSpec | None:
    t = text.strip()
    if not t:
        return None
    if t in ("--", "|", "-"):
        return EdgeSpec(EdgeKind.WALL)
    if t in ("##", "#"):
        return EdgeSpec(EdgeKind.STRONG_WALL)
    if t in ("DD", "D"):
        return EdgeSpec(EdgeKind.DOOR)
    if t in ("oo", "o"):
        return EdgeSpec(EdgeKind.DOOR, open=True)
    digits = t.lstrip("L")
    if digits.isdigit():
        return EdgeSpec(EdgeKind.DOOR, locked=True, difficulty=int(digits))
    raise ContentError(f"{where}: unknown edge mark {text!r}")


def parse_board(text: str, source: str) -> Board:
    """Parse a map text. Raises ContentError naming ``source`` and the line for anything malformed."""
    lines = text.splitlines()
    name = source
    grid: list[tuple[int, str]] = []
    legend: list[tuple[int, str]] = []
    mode = "head"
    for no, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line or line.startswith("#") and mode != "grid":
            continue
        if mode == "head":
            if line.startswith("name "):
                name = line[5:].strip()
            elif line == "grid":
                mode = "grid"
            else:
                raise ContentError(f"{source}:{no}: expected 'name ...' or 'grid', got {line!r}")
        elif mode == "grid":
            if line == "end":
                mode = "legend"
            else:
                grid.append((no, line))
        else:
            legend.append((no, line))
    if mode != "legend":
        raise ContentError(f"{source}: the grid has no 'end' line")
    if len(grid) < 3 or len(grid) % 2 == 0:
        raise ContentError(
            f"{source}: the grid must alternate edge and cell rows, starting and ending with edges"
        )
    width = (len(grid[0][1]) - 1) // 3
    height = (len(grid) - 1) // 2
    cell_room: dict[Cell, str] = {}
    marks: dict[Cell, str] = {}
    edges: dict[EdgeKey, EdgeSpec] = {}
    for idx, (no, line) in enumerate(grid):
        where = f"{source}:{no}"
        if len(line) < 3 * width + 1:
            line = line.ljust(3 * width + 1)
        if idx % 2 == 0:
            y = idx // 2  # the boundary above row y
            for x in range(width):
                seg = line[3 * x + 1 : 3 * x + 3]
                if y in (0, height):
                    continue  # the hull
                spec = _parse_edge(seg, where)
                if spec is not None:
                    edges[edge_key((x, y - 1), (x, y))] = spec
        else:
            y = idx // 2
            for x in range(width):
                c = line[3 * x + 1 : 3 * x + 3]
                if c[0] == " ":
                    raise ContentError(f"{where}: cell {x + 1} of row {y + 1} has no room letter")
                cell_room[(x, y)] = c[0]
                if c[1] != " ":
                    marks[(x, y)] = c[1]
                if x < width - 1:
                    spec = _parse_edge(line[3 * x + 3], where)
                    if spec is not None:
                        edges[edge_key((x, y), (x + 1, y))] = spec
    room_names: dict[str, str] = {}
    corridors: set[str] = set()
    airlock_names: dict[int, str] = {}
    for no, line in legend:
        parts = line.split(None, 2)
        if parts[0] == "room" and len(parts) == 3:
            room_names[parts[1]] = parts[2]
        elif parts[0] == "corridor" and len(parts) == 2:
            corridors.add(parts[1])
            room_names[parts[1]] = "Corridor"
        elif parts[0] == "airlock" and len(parts) == 3 and parts[1].isdigit():
            airlock_names[int(parts[1])] = parts[2]
        else:
            raise ContentError(f"{source}:{no}: unknown legend line {line!r}")
    for cell, letter in cell_room.items():
        if letter not in room_names:
            raise ContentError(f"{source}: room letter {letter!r} at {cell} is not in the legend")
    airlocks: dict[int, list[Cell]] = {}
    for cell, m in sorted(marks.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if not m.isdigit() or int(m) not in airlock_names:
            raise ContentError(f"{source}: mark {m!r} at {cell} is not a known airlock")
        airlocks.setdefault(int(m), []).append(cell)
    for n, cells in airlocks.items():
        if len(cells) != 2:
            raise ContentError(f"{source}: airlock {n} must have two access squares, has {len(cells)}")
    return Board(
        name=name,
        key=source,
        width=width,
        height=height,
        cell_room=cell_room,
        room_names=room_names,
        corridors=frozenset(corridors),
        edges=edges,
        airlocks={n: tuple(c) for n, c in airlocks.items()},
        airlock_names=airlock_names,
    )


def load_board(filename: str) -> Board:
    """Load a map shipped in ``engine/rulesets/escape/content``. Raises ContentError if malformed."""
    text = resources.files("engine.rulesets.escape").joinpath("content", filename).read_text("utf-8")
    return parse_board(text, filename)
