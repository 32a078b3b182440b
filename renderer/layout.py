"""Where things go on the image: cell centres, edges, token spots, the panel. Pure arithmetic."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.scene import Cell, Scene, Token
from renderer.paint import text_width
from renderer.panel import PanelPlan, legend_entries, plan_panel

LETTERS = "abcdefghijklmnopqrstuvwxyz"

# The image is designed to be shown about DISPLAY px wide (a phone): its natural width is about twice
# that, and no text is drawn smaller than MIN_DISPLAY_FONT px at that display width.
DISPLAY = 400
NATURAL_W = 800
MIN_DISPLAY_FONT = 9
MIN_W = 480  # narrow boards are centred on at least this width, so the panel under them stays readable
MAX_CELL = 64
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
    ``board_h``, using the image's full width; the panel spans ``panel_y`` .. ``height`` under it.
    ``font`` is the smallest text size drawn (``MIN_DISPLAY_FONT`` px once shown ``DISPLAY`` px wide).
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
    panel_y: int
    width: int
    height: int
    font: int
    hex_layout: str = "odd-q"
    panel: PanelPlan = field(default=PanelPlan(0, ()), repr=False)
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
            w = round(self.hex_h * 0.4)
            bottom = y + round(self.cell * (0.44 if cell in self.marked else 0.62))
            return x - w, y - round(self.cell * 0.4), x + w, bottom
        w = round(self.cell * 0.62)
        return x - w, y - round(self.hex_h * 0.24), x + w, y1 - 1

    # -- tokens ----------------------------------------------------------------------------------
    def token_spots(self) -> tuple[TokenSpot, ...]:
        """Where each of the scene's tokens is drawn, in ``scene.tokens`` order.

        Tokens sharing a cell are laid out side by side (2 across, then a 2x2 or larger grid) so none
        hides another; where units share a cell with small tokens (items, markers), the units stay large
        and the small ones sit in rows along the cell's bottom (drawn over them). A labelled token is
        never smaller than its label at :attr:`font`. Raises ValueError if a token is off the board.
        """
        groups: dict[Cell, list[int]] = {}
        for i, t in enumerate(self.tokens):
            self.check(t.cell, f"token {t.label!r}")
            groups.setdefault(t.cell, []).append(i)
        spots: dict[int, TokenSpot] = {}
        for cell, members in groups.items():
            x0, y0, x1, y1 = self.slot_area(cell)
            big = [i for i in members if not self.tokens[i].small]
            small = [i for i in members if self.tokens[i].small]
            if big and small:
                # Units stay large; items and markers sit in rows along the bottom, drawn over them.
                sd = max(self.min_token(small), round(self.base * 0.4))
                across = max(1, int((x1 - x0) // sd))
                strip = min(y1 - y0, math.ceil(len(small) / across) * sd)
                self._place(big, (x0, y0, x1, max(y0 + sd, y1 - round(strip * 0.6))), spots)
                self._place(small, (x0, y1 - strip, x1, y1), spots)
            else:
                self._place(members, (x0, y0, x1, y1), spots)
        return tuple(spots[i] for i in range(len(self.tokens)))

    @property
    def base(self) -> int:
        """A cell's size across: a square's side, a hex's flat-to-flat size."""
        return self.cell if self.grid == "square" else self.hex_h

    def label_size(self, token: Token, d: int) -> int:
        """The text size of ``token``'s label on a ``d`` px token (never under :attr:`font`)."""
        k = {1: 0.62, 2: 0.5}.get(len(token.label), 0.38)
        if token.shape in ("diamond", "hex"):
            k *= 0.85
        return max(self.font, round(d * k))

    def min_token(self, members: list[int]) -> int:
        """The smallest diameter at which the labels of these tokens fit inside them."""
        need = 6
        for i in members:
            t = self.tokens[i]
            if t.label:
                inner = 0.72 if t.shape in ("diamond", "hex") else 0.86
                need = max(need, math.ceil(text_width(t.label, self.label_size(t, 0)) / inner) + 2)
        return need

    def _place(
        self, members: list[int], area: tuple[int, int, int, int], spots: dict[int, TokenSpot]
    ) -> None:
        """Lay ``members`` out side by side in ``area`` (2 across, then a 2x2 or larger grid)."""
        rx0, ry0, rx1, ry1 = area
        base = self.base
        bar_h = max(4, round(base * 0.15))
        n = len(members)
        across = 1 if n == 1 else 2 if n <= 4 else math.ceil(math.sqrt(n))
        if all(self.tokens[i].small for i in members):
            across = max(across, min(n, int((rx1 - rx0) // max(1, self.min_token(members)))))
        down = math.ceil(n / across)
        sw, sh = (rx1 - rx0) / across, (ry1 - ry0) / down
        for k, i in enumerate(members):
            t = self.tokens[i]
            sx, sy = rx0 + (k % across) * sw, ry0 + (k // across) * sh
            small_k = 0.6 if self.grid == "square" else 0.42
            natural = base * (small_k if t.small else 0.8) * (1.15 if t.shape == "diamond" else 1.0)
            room = bar_h - 2 if t.bar else 0
            d = max(6, int(min(natural, sw - 2, sh - room - 2)))
            if self.grid == "hex" and n == 1 and not t.small:
                d = max(
                    d, int(min(natural, self.cell * 0.9))
                )  # a lone unit may overlap the hex's labels a little
            if t.label:
                d = max(d, min(self.min_token([i]), int(base * 0.9)))
            cx = round(sx + sw / 2)
            cy = round(sy + (sh - room) / 2)
            bar = None
            if t.bar:
                bw = max(d, min(int(sw) - 2, d + 4))
                top = cy + (d + 1) // 2 - 2
                bar = (cx - bw // 2, top, cx - bw // 2 + bw, top + bar_h)
            spots[i] = TokenSpot(cx, cy, d, bar)


def font_size(width: int) -> int:
    """The smallest text size (px) on an image ``width`` px wide: ``MIN_DISPLAY_FONT`` px once shown
    ``DISPLAY`` px wide, and never under that on an image narrower than ``DISPLAY``."""
    return max(MIN_DISPLAY_FONT if width <= DISPLAY else 0, math.ceil(MIN_DISPLAY_FONT * width / DISPLAY))


def _gutter(scene: Scene, font: int) -> int:
    """Square grids carry coordinates in a gutter wide enough for a two-digit row at ``font``."""
    if scene.grid == "square":
        return math.ceil(max(text_width(str(scene.height), font), font) * 1.3) + 2
    return max(4, round(font * 0.6))


def natural_cell(scene: Scene) -> int:
    """The cell size (square side or hex corner radius) at natural size: the board fills ``NATURAL_W``."""
    room = NATURAL_W - 2 * _gutter(scene, font_size(NATURAL_W)) - 1
    if scene.grid == "square":
        return max(16, min(MAX_CELL, room // scene.width))
    if scene.hex_layout == "odd-r":
        across = room / (scene.width + (0.5 if scene.height > 1 else 0))
        return max(8, min(MAX_CELL, int(across / math.sqrt(3)) // 2 * 2))
    return max(8, min(MAX_CELL, int(room / (1.5 * scene.width + 0.5)) // 2 * 2))


def _build(scene: Scene, f: float, width: int | None) -> Layout:
    if scene.grid not in ("square", "hex"):
        raise ValueError(f"unknown grid kind {scene.grid!r}")
    if scene.hex_layout not in ("odd-q", "odd-r"):
        raise ValueError(f"unknown hex layout {scene.hex_layout!r}")
    if not (1 <= scene.width <= 100 and 1 <= scene.height <= 100):
        raise ValueError(f"board size {scene.width}x{scene.height} is not between 1x1 and 100x100")
    cols, rows = scene.width, scene.height
    nat = natural_cell(scene)
    gutter = max(4, round(_gutter(scene, font_size(NATURAL_W)) * f))
    if scene.grid == "square":
        cell = max(8, int(nat * f))  # rounded down, so a scaled board never outgrows the width asked for
        hex_h = cell
        bw, bh = cols * cell + 2 * gutter + 1, rows * cell + 2 * gutter + 1
    elif scene.hex_layout == "odd-r":
        cell = max(8, int(nat * f / 2) * 2)
        hex_h = max(6, round(math.sqrt(3) * cell / 2) * 2)
        bw = cols * hex_h + (hex_h // 2 if rows > 1 else 0) + 2 * gutter + 1
        bh = 2 * cell + (rows - 1) * (3 * cell // 2) + 2 * gutter + 1
    else:
        cell = max(8, int(nat * f / 2) * 2)
        hex_h = max(6, round(math.sqrt(3) * cell / 2) * 2)
        bw = 2 * cell + (cols - 1) * (3 * cell // 2) + 2 * gutter + 1
        bh = rows * hex_h + (hex_h // 2 if cols > 1 else 0) + 2 * gutter + 1
    if width is None:
        width = max(bw, MIN_W)
    font = font_size(width)
    legend = legend_entries(scene.panel, bool(scene.highlights), bool(scene.targets))
    panel = plan_panel(scene.panel, width, bh, font, legend)
    height = bh + panel.height
    if height == width:  # never exactly square: some clients crop square images
        height += 1
    return Layout(
        grid=scene.grid, cols=cols, rows=rows, scale=f, cell=cell, hex_h=hex_h, gutter=gutter,
        board_x=max(0, (width - bw) // 2), board_y=0, board_w=bw, board_h=bh, panel_y=bh,
        width=width, height=height, font=font, hex_layout=scene.hex_layout, panel=panel, tokens=scene.tokens,
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
