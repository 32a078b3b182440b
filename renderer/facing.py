"""Facing marks and shaded arcs (Escape Path): a pointer on each token that faces somewhere, and a tint on
the cells of the active figure's arc of fire. Drawn on the palette image by :func:`renderer.core.render_image`."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from engine.scene import Cell, Token
from renderer.layout import Layout, TokenSpot
from renderer.paint import RGB, Palette, blend, rgb

SHADE = "#f0c040"
POINTER = "#ffffff"
OUTLINE = "#111111"
# Unit vectors of the 8 facings, 0 up then clockwise (as in Token.facing).
_UNIT = [(0.0, -1.0), (0.7071, -0.7071), (1.0, 0.0), (0.7071, 0.7071), (0.0, 1.0), (-0.7071, 0.7071),
         (-1.0, 0.0), (-0.7071, -0.7071)]  # fmt: skip


def draw_shaded(
    draw: ImageDraw.ImageDraw,
    pal: Palette,
    lay: Layout,
    cells: Sequence[Cell],
    under: dict[Cell, RGB],
    bg: RGB,
) -> None:
    """Tint each of ``cells`` (square grids) with the arc colour over the floor below it."""
    if lay.grid != "square":
        return
    tint = rgb(SHADE)
    for c in cells:
        lay.check(c, "shaded cell")
        x0, y0, x1, y1 = lay.cell_box(c)
        ink = pal.idx(blend(tint, under.get(c, bg), 0.3))
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=ink)


def draw_facings(
    draw: ImageDraw.ImageDraw, pal: Palette, tokens: Sequence[Token], spots: Sequence[TokenSpot]
) -> None:
    """A small pointer on the rim of every token that has a facing, pointing that way."""
    fill, edge = pal.idx(rgb(POINTER)), pal.idx(rgb(OUTLINE))
    for t, spot in zip(tokens, spots, strict=True):
        if t.facing is None:
            continue
        ux, uy = _UNIT[t.facing % 8]
        r = spot.d / 2
        tip = (spot.x + ux * (r + spot.d * 0.2), spot.y + uy * (r + spot.d * 0.2))
        base = (spot.x + ux * (r - spot.d * 0.08), spot.y + uy * (r - spot.d * 0.08))
        w = spot.d * 0.2
        left = (base[0] - uy * w, base[1] + ux * w)
        right = (base[0] + uy * w, base[1] - ux * w)
        draw.polygon([tip, left, right], fill=fill, outline=edge)
