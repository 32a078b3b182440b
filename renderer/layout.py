"""Where things go on the image: cell centres, edges, token spots, the panel. Pure arithmetic."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.scene import Cell, Scene, Token

LETTERS = "abcdefghijklmnopqrstuvwxyz"

# Panel proportions at scale 1.0 (pixels).
PANEL_W = 330
PAD = 12
TITLE_H = 30
LINE_H = 21
CARD_H = 42
LEGEND_H = 20
GAP = 8
MIN_ASPECT = 1.2  # the natural image is at least this much wider than tall
MIN_SIZE, MAX_SIZE = 200, 4000


def column_name(col: int) -> str:
    """The letter(s) of a 0-based column: ``a`` .. ``z``, then ``aa``, ``ab`` .. Never raises for col >= 0."""
    name = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        name = LETTERS[rem] + name
    return name


def cell_name(cell: Cell) -> str:
    """The typed name of a cell: column letter(s) then 1-based row (``(2, 3)`` is ``c4``). Never raises."""
    return f"{column_name(cell[0])}{cell[1] + 1}"


@dataclass(frozen=True)
class TokenSpot:
    """Where one token is drawn: centre ``(x, y)``, diameter ``d`` and its life bar's box (or None)."""

    x: int
    y: int
    d: int
    bar: tuple[int, int, int, int] | None


@dataclass(frozen=True)
class Layout:
    """The geometry of one image. Obtain it with :func:`layout`; all coordinates are image pixels.

    ``cell`` is a square's side (square grids) or a hex's corner radius (hex grids). ``hex_h`` is a
    hex's size across its flat sides: its height when flat-topped (``hex_layout`` ``odd-q``), its width
    when pointy-topped (``odd-r``); both are even so neighbouring tiles share exact corners.
    The board area (with its coordinate gutters) is at ``board_x, board_y`` and is ``board_w`` x
    ``board_h``; the side panel spans ``panel_x`` .. ``width``.
    """

    grid: str
    cols: int
    rows: int
    scale: float
    cell: int
    hex_h: int
    gutter: int
    board_x: int
    board_y: int
    board_w: int
    board_h: int
    panel_x: int
    width: int
    height: int
    hex_layout: str = "odd-q"
    tokens: tuple[Token, ...] = field(default=(), repr=False)
    marked: frozenset[Cell] = field(default=frozenset(), repr=False)  # tiles carrying a mark

    @property
    def pointy(self) -> bool:
        """True for pointy-topped hexes (``odd-r``)."""
        return self.grid == "hex" and self.hex_layout == "odd-r"

    # -- cells -----------------------------------------------------------------------------------
    def on_board(self, cell: Cell) -> bool:
        """Whether ``cell`` is on the board."""
        return 0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows

    def check(self, cell: Cell, what: str) -> None:
        """Raise ValueError naming ``what`` unless ``cell`` is on the board."""
        if not self.on_board(cell):
            raise ValueError(f"{what} at {cell} is off the {self.cols}x{self.rows} board")

    def origin(self) -> tuple[int, int]:
        """The pixel of the board's top-left corner (cell ``(0, 0)``'s box corner)."""
        return self.board_x + self.gutter, self.board_y + self.gutter

    def cell_centre(self, cell: Cell) -> tuple[int, int]:
        """The pixel at the centre of ``cell`` (inside its fill). Raises ValueError if off the board."""
        self.check(cell, "cell")
        ox, oy = self.origin()
        c, r = cell
        if self.grid == "square":
            return ox + c * self.cell + self.cell // 2, oy + r * self.cell + self.cell // 2
        s, h = self.cell, self.hex_h
        if self.pointy:
            return ox + h // 2 + c * h + (h // 2 if r % 2 else 0), oy + s + r * (3 * s // 2)
        return ox + s + c * (3 * s // 2), oy + h // 2 + r * h + (h // 2 if c % 2 else 0)

    def cell_box(self, cell: Cell) -> tuple[int, int, int, int]:
        """The bounding box ``(x0, y0, x1, y1)`` (exclusive end) of ``cell``."""
        x, y = self.cell_centre(cell)
        if self.grid == "square":
            half = self.cell // 2
            return x - half, y - half, x - half + self.cell, y - half + self.cell
        if self.pointy:
            return x - self.hex_h // 2, y - self.cell, x + self.hex_h // 2, y + self.cell
        return x - self.cell, y - self.hex_h // 2, x + self.cell, y + self.hex_h // 2

    def cell_polygon(self, cell: Cell) -> list[tuple[int, int]]:
        """The corners of ``cell`` clockwise from its left (flat hex), top (pointy hex) or top-left (square)."""
        x0, y0, x1, y1 = self.cell_box(cell)
        if self.grid == "square":
            return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        x, y = (x0 + x1) // 2, (y0 + y1) // 2
        q = self.cell // 2
        if self.pointy:
            return [(x, y0), (x1, y - q), (x1, y + q), (x, y1), (x0, y + q), (x0, y - q)]
        return [(x0, y), (x - q, y0), (x + q, y0), (x1, y), (x + q, y1), (x - q, y1)]

    def edge_segment(self, a: Cell, b: Cell) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two end points of the border between adjacent cells ``a`` and ``b``.

        Raises ValueError if either cell is off the board or they do not share a side.
        """
        self.check(a, "edge cell")
        self.check(b, "edge cell")
        shared = sorted(set(self.cell_polygon(a)) & set(self.cell_polygon(b)))
        if len(shared) != 2:
            raise ValueError(f"edge between {a} and {b}: the cells do not share a side")
        return shared[0], shared[1]

    def edge_midpoint(self, a: Cell, b: Cell) -> tuple[int, int]:
        """The pixel in the middle of the border between ``a`` and ``b`` (see :meth:`edge_segment`)."""
        (x0, y0), (x1, y1) = self.edge_segment(a, b)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def slot_area(self, cell: Cell) -> tuple[int, int, int, int]:
        """The box inside ``cell`` where its tokens are laid out (clear of a hex's tile label)."""
        x0, y0, x1, y1 = self.cell_box(cell)
        if self.grid == "square":
            return x0 + 1, y0 + 1, x1, y1
        x, y = (x0 + x1) // 2, (y0 + y1) // 2
        if self.pointy:
            # Pointy tiles keep their name at the top and their mark (if any) at the bottom.
            w = round(self.hex_h * 0.38)
            bottom = y + round(self.cell * (0.4 if cell in self.marked else 0.62))
            return x - w, y - round(self.cell * 0.32), x + w, bottom
        w = round(self.cell * 0.62)
        return x - w, y - round(self.hex_h * 0.24), x + w, y1 - 1

    # -- tokens ----------------------------------------------------------------------------------
    def token_spots(self) -> tuple[TokenSpot, ...]:
        """Where each of the scene's tokens is drawn, in ``scene.tokens`` order.

        Tokens sharing a cell are laid out side by side (2 across, then a 2x2 or larger grid) so none
        hides another. Raises ValueError if a token is off the board.
        """
        groups: dict[Cell, list[int]] = {}
        for i, t in enumerate(self.tokens):
            self.check(t.cell, f"token {t.label!r}")
            groups.setdefault(t.cell, []).append(i)
        spots: list[TokenSpot | None] = [None] * len(self.tokens)
        base = self.cell if self.grid == "square" else self.hex_h
        bar_h = max(4, round(base * 0.15))
        for cell, members in groups.items():
            rx0, ry0, rx1, ry1 = self.slot_area(cell)
            n = len(members)
            across = 1 if n == 1 else 2 if n <= 4 else math.ceil(math.sqrt(n))
            down = math.ceil(n / across)
            sw, sh = (rx1 - rx0) / across, (ry1 - ry0) / down
            for k, i in enumerate(members):
                t = self.tokens[i]
                sx, sy = rx0 + (k % across) * sw, ry0 + (k // across) * sh
                natural = base * (0.5 if t.small else 0.78)
                room = bar_h - 2 if t.bar else 0
                d = max(6, int(min(natural, sw - 2, sh - room - 2)))
                cx = round(sx + sw / 2)
                cy = round(sy + (sh - room) / 2)
                bar = None
                if t.bar:
                    bw = max(d, min(int(sw) - 2, d + 4))
                    top = cy + (d + 1) // 2 - 2
                    bar = (cx - bw // 2, top, cx - bw // 2 + bw, top + bar_h)
                spots[i] = TokenSpot(cx, cy, d, bar)
        return tuple(s for s in spots if s is not None)


def _panel_height(scene: Scene, f: float) -> int:
    p = scene.panel
    h = PAD * 2 + TITLE_H + LINE_H * len(p.lines)
    if p.units:
        h += GAP + CARD_H * len(p.units)
    if p.legend:
        h += GAP + LEGEND_H * math.ceil(len(p.legend) / 2)
    return round(h * f)


def natural_cell(scene: Scene) -> int:
    """The cell size (square side or hex radius) used at natural size for this board."""
    if scene.grid == "square":
        return max(24, min(48, round(600 / max(scene.width, scene.height))))
    if scene.hex_layout == "odd-r":
        return max(14, min(40, int(620 / (math.sqrt(3) * (scene.width + 0.5))) // 2 * 2))
    return max(14, min(40, int(620 / (1.5 * scene.width + 0.5)) // 2 * 2))


def _build(scene: Scene, f: float, width: int | None) -> Layout:
    if scene.grid not in ("square", "hex"):
        raise ValueError(f"unknown grid kind {scene.grid!r}")
    if scene.hex_layout not in ("odd-q", "odd-r"):
        raise ValueError(f"unknown hex layout {scene.hex_layout!r}")
    if not (1 <= scene.width <= 100 and 1 <= scene.height <= 100):
        raise ValueError(f"board size {scene.width}x{scene.height} is not between 1x1 and 100x100")
    cols, rows = scene.width, scene.height
    nat = natural_cell(scene)
    if scene.grid == "square":
        cell = max(8, round(nat * f))
        hex_h = cell
        gutter = max(10, round(20 * f))
        bw, bh = cols * cell + 2 * gutter + 1, rows * cell + 2 * gutter + 1
    elif scene.hex_layout == "odd-r":
        cell = max(8, round(nat * f / 2) * 2)
        hex_h = max(6, round(math.sqrt(3) * cell / 2) * 2)
        gutter = max(4, round(10 * f))
        bw = cols * hex_h + (hex_h // 2 if rows > 1 else 0) + 2 * gutter + 1
        bh = 2 * cell + (rows - 1) * (3 * cell // 2) + 2 * gutter + 1
    else:
        cell = max(8, round(nat * f / 2) * 2)
        hex_h = max(6, round(math.sqrt(3) * cell / 2) * 2)
        gutter = max(4, round(10 * f))
        bw = 2 * cell + (cols - 1) * (3 * cell // 2) + 2 * gutter + 1
        bh = rows * hex_h + (hex_h // 2 if cols > 1 else 0) + 2 * gutter + 1
    height = max(bh, _panel_height(scene, f))
    if width is None:
        width = max(bw + round(PANEL_W * f), math.ceil(height * MIN_ASPECT))
    return Layout(
        grid=scene.grid, cols=cols, rows=rows, scale=f, cell=cell, hex_h=hex_h, gutter=gutter,
        board_x=0, board_y=(height - bh) // 2, board_w=bw, board_h=bh, panel_x=bw,
        width=width, height=height, hex_layout=scene.hex_layout, tokens=scene.tokens,
        marked=frozenset(t.cell for t in scene.tiles if t.mark),
    )  # fmt: skip


def layout(scene: Scene, size: int | None = None) -> Layout:
    """The geometry :func:`renderer.render` uses for ``scene`` at ``size`` (target width, None: natural).

    Raises ValueError for an unknown grid kind, a board outside 1x1..100x100 or a size outside
    200..4000 px.
    """
    nat = _build(scene, 1.0, None)
    if size is None or size == nat.width:
        return nat
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size {size} is not between {MIN_SIZE} and {MAX_SIZE} px")
    return _build(scene, size / nat.width, size)
