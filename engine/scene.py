"""The renderer's input: a plain description of what an image shows, built by a ruleset from a view.

A Scene carries no rules and no hidden information. Colours are ``#rrggbb`` strings. Square grids use
``(col, row)`` cells with ``(0, 0)`` top-left; hex grids use ``(col, row)`` on an offset layout chosen by
``Scene.hex_layout``: ``odd-q`` (flat-topped, odd columns shifted half a tile down; the default) or
``odd-r`` (pointy-topped, odd rows shifted half a tile right), labelled the same way players type them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Cell = tuple[int, int]
GridKind = Literal["square", "hex"]
HexLayout = Literal["odd-q", "odd-r"]
EdgeStyle = Literal["wall", "strong_wall", "door_closed", "door_open", "door_locked", "gate"]
TokenShape = Literal["circle", "square", "diamond", "hex"]


@dataclass(frozen=True)
class Tile:
    """One board cell's floor: its fill colour and an optional short mark (room letter, airlock number)."""

    cell: Cell
    fill: str
    mark: str = ""


@dataclass(frozen=True)
class Edge:
    """A wall or door on the border between two adjacent cells (square grids)."""

    a: Cell
    b: Cell
    style: EdgeStyle
    label: str = ""  # e.g. a locked door's difficulty


@dataclass(frozen=True)
class Token:
    """Something standing on a cell: a unit, a crate, a chit. ``label`` is 1-3 characters drawn on it.

    ``bar`` is (current, maximum) for a life bar, or None. ``ring`` is an outline colour used to mark
    state (active unit, downed). Several tokens on one cell are drawn side by side.
    """

    cell: Cell
    label: str
    fill: str
    shape: TokenShape = "circle"
    text_fill: str = "#ffffff"
    ring: str | None = None
    bar: tuple[int, int] | None = None
    small: bool = False  # items and markers are drawn smaller than units
    facing: int | None = None  # a direction the figure faces: 0 up (n), then clockwise in 45 degree steps


@dataclass(frozen=True)
class Label:
    """A name written on the board (a room's name), left-aligned from the top-left of ``cell``.

    ``span`` is how many cells to the right the text may use; it is part of the map's static layer.
    """

    cell: Cell
    text: str
    span: int = 1


@dataclass(frozen=True)
class Arrow:
    """A path (movement) or an attack line over cell centres."""

    cells: tuple[Cell, ...]
    colour: str
    kind: Literal["path", "attack"] = "path"


@dataclass(frozen=True)
class PanelUnit:
    """A unit card in the side panel: name, side colour, life and what it has left this turn."""

    name: str
    colour: str
    life: tuple[int, int] | None = None
    detail: str = ""  # e.g. "Mvt 2/4  Cbt 1/3  Int 0/1"
    dim: bool = False  # already activated, out, or otherwise done


@dataclass(frozen=True)
class Panel:
    """The side panel: a title, a few status lines, unit cards and a legend of (colour, meaning)."""

    title: str
    lines: tuple[str, ...] = ()
    units: tuple[PanelUnit, ...] = ()
    legend: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Scene:
    """Everything one board image shows.

    ``static_key`` names the map's static layer (floor, walls, labels) so a renderer may cache it; two
    scenes with the same key must have identical ``tiles``, ``edges`` (static ones), ``labels`` and
    ``width``/``height``. ``highlights`` (reach) and ``targets`` are drawn distinctly, and the renderer
    adds their legend entries itself.
    """

    grid: GridKind
    width: int
    height: int
    static_key: str
    tiles: tuple[Tile, ...]
    edges: tuple[Edge, ...] = ()
    dynamic_edges: tuple[Edge, ...] = ()  # doors and walls that change during play
    tokens: tuple[Token, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    highlights: tuple[Cell, ...] = ()  # squares the active unit can reach ("Show moves")
    targets: tuple[Cell, ...] = ()  # cells holding something the active unit can hit or act on
    labels: tuple[Label, ...] = ()  # names on the board (static: same for the same ``static_key``)
    shaded: tuple[Cell, ...] = ()  # cells tinted as the active unit's arc of fire (Escape Path)
    panel: Panel = field(default_factory=lambda: Panel(title=""))
    background: str = "#1e1f24"
    hex_layout: HexLayout = "odd-q"  # hex grids only: flat-topped odd-q or pointy-topped odd-r
