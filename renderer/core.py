"""Scene -> PNG: a cached static layer per map, a dynamic layer per render, a palette PNG out."""

from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.scene import Arrow, Cell, Edge, Scene, Token
from renderer import theme as T
from renderer.facing import draw_facings, draw_shaded
from renderer.layout import Layout, TokenSpot, cell_name, column_name, layout
from renderer.paint import (
    LEVELS,
    RGB,
    Bands,
    Glyphs,
    Palette,
    blend,
    draw_text,
    glyphs,
    hex_bands,
    pointy_hex_bands,
    put_bands,
    rgb,
    shape_bands,
    text_width,
)
from renderer.panel import PanelBar, PanelSwatch, PanelText

CACHE_SIZE = 32
SPRITE_CACHE_SIZE = 4096
PNG_COMPRESS_LEVEL = 3


class CacheInfo(NamedTuple):
    """Static-layer cache statistics."""

    hits: int
    misses: int
    size: int


@dataclass(frozen=True)
class _Static:
    image: Image.Image
    palette: Palette
    under: dict[Cell, RGB]  # tile fill per cell, for blending antialiased edges


_cache: OrderedDict[tuple[object, ...], _Static] = OrderedDict()
_lock = threading.Lock()
_stats = [0, 0]
# A token sprite: palette-index image, coverage mask, offset of its top-left from the token's box.
Sprite = tuple[Image.Image, Image.Image, tuple[int, int]]
_sprites: OrderedDict[tuple[object, ...], Sprite] = OrderedDict()


def cache_info() -> CacheInfo:
    """Hits, misses and current size of the static-layer cache. Never raises."""
    with _lock:
        return CacheInfo(_stats[0], _stats[1], len(_cache))


def clear_cache() -> None:
    """Empty the static-layer cache and reset its statistics. Never raises."""
    with _lock:
        _cache.clear()
        _sprites.clear()
        _stats[0] = _stats[1] = 0


# -- static layer ------------------------------------------------------------------------------------
def _static(scene: Scene, lay: Layout) -> _Static:
    key = (
        scene.static_key,
        scene.grid,
        scene.hex_layout,
        lay.cols,
        lay.rows,
        lay.cell,
        lay.gutter,
        lay.font,
        scene.background,
    )
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            _stats[0] += 1
            return hit
        _stats[1] += 1
    built = _build_static(scene, lay)
    with _lock:
        _cache[key] = built
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return built


def _build_static(scene: Scene, lay: Layout) -> _Static:
    bg = rgb(scene.background)
    theme = [
        T.PANEL_BG,
        T.TEXT,
        T.MUTED,
        T.PANEL_RULE,
        T.HIGHLIGHT,
        T.TARGET,
        T.BAR_BG,
        T.BAR_GOOD,
        T.BAR_MID,
        T.BAR_LOW,
    ]
    pal = Palette(
        [bg, *(rgb(c) for c in (*theme, *T.EDGE_COLOURS.values(), T.WALL, T.STRONG_WALL, T.LABEL_BG))]
    )
    # Board-local drawing: shift the layout so the board area starts at (0, 0).
    loc = _shifted(lay)
    im = Image.new("P", (lay.board_w, lay.board_h), pal.idx(bg))
    draw = ImageDraw.Draw(im)
    under: dict[Cell, RGB] = {}
    for t in scene.tiles:
        loc.check(t.cell, "tile")
        under[t.cell] = rgb(t.fill)
    mark_size = max(lay.font, round(lay.cell * 0.36))
    if lay.grid == "square":
        for t in scene.tiles:
            x0, y0, x1, y1 = loc.cell_box(t.cell)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=pal.idx(under[t.cell]))
            if t.mark:
                fill = under[t.cell]
                ink = blend(rgb(T.TEXT), fill, 0.6)
                draw_text(im, pal, (x0 + 3, y0 + 2), t.mark, mark_size, ink, fill)
    else:
        pointy = lay.pointy
        bands = pointy_hex_bands(lay.cell, lay.hex_h) if pointy else hex_bands(lay.cell, lay.hex_h)
        label_size = max(lay.font, round(lay.cell * (0.4 if pointy else 0.36)))
        mark_small = max(lay.font, round(lay.cell * 0.32))
        for t in scene.tiles:
            fill = under[t.cell]
            x0, y0, _, _ = loc.cell_box(t.cell)
            put_bands(im, pal, (x0, y0), bands, fill, bg)
            cx, cy = loc.cell_centre(t.cell)
            ink = blend(rgb(T.TEXT), fill, 0.42)
            # Pointy tiles narrow to a corner at the top, so their label sits a little lower.
            label_y = cy - lay.cell * 0.56 if pointy else y0 + 3 + label_size * 0.4
            draw_text(im, pal, (cx, label_y), cell_name(t.cell), label_size, ink, fill, "mm")
            if t.mark and pointy:
                draw_text(im, pal, (cx, cy + lay.cell * 0.6), t.mark, mark_small, ink, fill, "mm")
            elif t.mark:
                draw_text(im, pal, (cx - lay.cell * 0.75, cy), t.mark, label_size, ink, fill, "mm")
    for e in scene.edges:
        _draw_edge(im, draw, pal, loc, e, under, bg)
    for lb in scene.labels:
        loc.check(lb.cell, "label")
        fill = under.get(lb.cell, bg)
        x0, y0, _, _ = loc.cell_box(lb.cell)
        size = max(lay.font, round(lay.cell * 0.3))
        room = lb.span * (lay.cell if lay.grid == "square" else lay.hex_h) - 6
        text = lb.text if text_width(lb.text, size) <= room else lb.text.split()[0]
        draw_text(im, pal, (x0 + 4, y0 + 3), text, size, blend(rgb(T.TEXT), fill, 0.55), fill)
    if lay.grid == "square":
        ink, size = rgb(T.COORD), lay.font
        ox, oy = loc.origin()
        g, c = lay.gutter, lay.cell
        for col in range(lay.cols):
            x = ox + col * c + c / 2
            draw_text(im, pal, (x, g / 2), column_name(col), size, ink, bg, "mm")
            draw_text(im, pal, (x, oy + lay.rows * c + g / 2 + 1), column_name(col), size, ink, bg, "mm")
        for row in range(lay.rows):
            y = oy + row * c + c / 2
            draw_text(im, pal, (g / 2, y), str(row + 1), size, ink, bg, "mm")
            draw_text(im, pal, (ox + lay.cols * c + g / 2 + 1, y), str(row + 1), size, ink, bg, "mm")
    return _Static(im, pal, under)


def _shifted(lay: Layout) -> Layout:
    return replace(lay, board_x=0, board_y=0)


# -- edges -------------------------------------------------------------------------------------------
def _bar(
    draw: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float], w: float, ink: int
) -> None:
    """A straight bar of width ``w`` from p to q (axis-aligned bars are exact rectangles)."""
    (x0, y0), (x1, y1) = p, q
    if y0 == y1 or x0 == x1:
        h = w / 2
        lo = math.floor(h) if w % 2 == 0 else math.floor(h)
        xa, xb = sorted((x0, x1))
        ya, yb = sorted((y0, y1))
        draw.rectangle((xa - lo, ya - lo, xb + math.ceil(h) - 1, yb + math.ceil(h) - 1), fill=ink)
    else:
        draw.line((p, q), fill=ink, width=max(1, round(w)))


def _along(p: tuple[int, int], q: tuple[int, int], t: float) -> tuple[float, float]:
    return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t


def _draw_edge(
    im: Image.Image,
    draw: ImageDraw.ImageDraw,
    pal: Palette,
    lay: Layout,
    e: Edge,
    under: dict[Cell, RGB],
    bg: RGB,
) -> None:
    p, q = lay.edge_segment(e.a, e.b)
    base = lay.cell if lay.grid == "square" else lay.hex_h
    w = max(3, round(base * 0.14))
    length = math.dist(p, q)
    ext = w / 2 / length  # extend walls by half their width so corners close
    style = e.style
    if style == "wall":
        _bar(draw, _along(p, q, -ext if lay.grid == "hex" else 0), _along(p, q, 1), w, pal.idx(rgb(T.WALL)))
        return
    if style == "strong_wall":
        ws = w + max(2, round(w * 0.6))
        _bar(draw, p, q, ws, pal.idx(rgb(T.STRONG_WALL)))
        _bar(draw, _along(p, q, 0.02), _along(p, q, 0.98), max(2, ws - 4), pal.idx(rgb(T.STRONG_WALL_CORE)))
        return
    stub = 0.16
    wall = pal.idx(rgb(T.WALL))
    if style != "gate":
        _bar(draw, p, _along(p, q, stub), w, wall)
        _bar(draw, _along(p, q, 1 - stub), q, w, wall)
    if style in ("door_closed", "door_locked"):
        colour = rgb(T.DOOR_CLOSED if style == "door_closed" else T.DOOR_LOCKED)
        _bar(draw, _along(p, q, stub + 0.04), _along(p, q, 1 - stub - 0.04), w + 2, pal.idx(colour))
        if style == "door_locked" and e.label:
            size = max(lay.font, round(base * 0.36))
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            tw = text_width(e.label, size)
            bx, by = max(tw, size * 0.6) / 2 + 2, size * 0.55 + 1
            draw.rectangle(
                (mx - bx, my - by, mx + bx, my + by), fill=pal.idx(rgb(T.LABEL_BG)), outline=pal.idx(colour)
            )
            draw_text(im, pal, (mx, my), e.label, size, colour, rgb(T.LABEL_BG), "mm")
    elif style == "door_open":
        _bar(draw, _along(p, q, stub), _along(p, q, 1 - stub), max(2, w - 1), pal.idx(rgb(T.DOOR_OPEN)))
    elif style == "gate":
        gate = pal.idx(rgb(T.GATE))
        _bar(draw, p, q, max(2, w // 2 + 1), gate)
        n = max(3, round(length / 6))
        nx, ny = -(q[1] - p[1]) / length, (q[0] - p[0]) / length
        for k in range(n + 1):
            x, y = _along(p, q, k / n)
            draw.line(((x - nx * w, y - ny * w), (x + nx * w, y + ny * w)), fill=gate, width=2)


# -- tokens ------------------------------------------------------------------------------------------
def _draw_token(
    im: Image.Image,
    pal: Palette,
    t: Token,
    spot: TokenSpot,
    below: RGB,
    memo: dict[tuple[object, ...], Sprite],
    text_size: int,
) -> None:
    d = spot.d
    # Within one render the palette only grows, so a token drawn alike earlier reuses its sprite as is.
    seen = (t.shape, d, t.ring, t.fill, t.text_fill, t.label, below, text_size)
    sprite = memo.get(seen)
    if sprite is None:
        sprite = memo[seen] = _sprite_for(pal, t, d, below, text_size)
    image, mask, (dx, dy) = sprite
    im.paste(image, (spot.x - d // 2 + dx, spot.y - d // 2 + dy), mask)


def _sprite_for(pal: Palette, t: Token, d: int, below: RGB, size: int) -> Sprite:
    """The sprite of token ``t`` at diameter ``d`` over colour ``below``, from the shared cache if drawn before."""
    fill = rgb(t.fill)
    edge = rgb(t.ring) if t.ring else blend((0, 0, 0), fill, 0.55)
    rw = max(2, round(d * 0.11)) if t.ring else max(1, round(d / 20))
    ink = rgb(t.text_fill)
    outer, inner = shape_bands(t.shape, d, 0.0), shape_bands(t.shape, d, float(rw))
    g = glyphs(t.label, size) if t.label else None
    # The sprite is keyed by the palette indices it uses, so a cached one is exact for this palette;
    # only bands that exist take a palette slot, as when drawing straight onto the image.
    idx = (
        _band_idx(pal, outer, edge, below),
        _band_idx(pal, inner, fill, edge),
        _band_idx(pal, g.bands, ink, fill) if g else (),
    )
    key = (t.shape, d, rw, t.label, size, idx)
    with _lock:
        sprite = _sprites.get(key)
        if sprite is not None:
            _sprites.move_to_end(key)
    if sprite is None:
        sprite = _token_sprite(outer, inner, g, d, idx)
        with _lock:
            _sprites[key] = sprite
            while len(_sprites) > SPRITE_CACHE_SIZE:
                _sprites.popitem(last=False)
    return sprite


def _band_idx(pal: Palette, bands: Bands, fg: RGB, bg: RGB) -> tuple[int, ...]:
    return tuple(-1 if b is None else pal.blend_idx(fg, bg, lv) for lv, b in zip(LEVELS, bands, strict=True))


def _token_sprite(
    outer: Bands, inner: Bands, g: Glyphs | None, d: int, idx: tuple[tuple[int, ...], ...]
) -> Sprite:
    """A token drawn once into its own palette-index image and coverage mask, with its offset."""
    edge_idx, fill_idx, text_idx = idx
    # The label may overhang a small token: grow the canvas to hold it.
    lx, ly = (round(d / 2 - g.w / 2), round(d / 2 - g.h / 2)) if g else (0, 0)
    x0, y0 = min(0, lx), min(0, ly)
    x1, y1 = max(d, lx + g.w if g else d), max(d, ly + g.h if g else d)
    image = Image.new("P", (x1 - x0, y1 - y0), 0)
    mask = Image.new("1", image.size, 0)
    layers = [(outer, edge_idx, (-x0, -y0)), (inner, fill_idx, (-x0, -y0))]
    if g:
        layers.append((g.bands, text_idx, (lx - x0, ly - y0)))
    for bands, colours, at in layers:
        for band, colour in zip(bands, colours, strict=True):
            if band is not None:
                image.paste(colour, at, band)
                mask.paste(1, at, band)
    return image, mask, (x0, y0)


def _life_colour(cur: int, mx: int) -> str:
    frac = cur / mx if mx > 0 else 0.0
    return T.BAR_GOOD if frac > 0.5 else T.BAR_MID if frac > 0.25 else T.BAR_LOW


def _draw_bar(
    draw: ImageDraw.ImageDraw,
    pal: Palette,
    box: tuple[int, int, int, int],
    life: tuple[int, int],
    dim: float = 1.0,
    bg: RGB = (0, 0, 0),
) -> None:
    x0, y0, x1, y1 = box
    cur, mx = life
    cur = max(0, min(cur, mx))
    back = rgb(T.BAR_BG) if dim >= 1 else blend(rgb(T.BAR_BG), bg, dim)
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=pal.idx(back))
    inner = x1 - x0 - 2
    filled = round(inner * cur / mx) if mx > 0 else 0
    if filled > 0:
        colour = rgb(_life_colour(cur, mx))
        if dim < 1:
            colour = blend(colour, bg, dim)
        draw.rectangle((x0 + 1, y0 + 1, x0 + filled, y1 - 2), fill=pal.idx(colour))


# -- arrows & highlights -----------------------------------------------------------------------------
def _head(
    draw: ImageDraw.ImageDraw, tip: tuple[float, float], ux: float, uy: float, lw: int, ink: int
) -> None:
    ln, hw = lw * 3.2, lw * 2.0
    bx, by = tip[0] - ux * ln, tip[1] - uy * ln
    draw.polygon([tip, (bx - uy * hw, by + ux * hw), (bx + uy * hw, by - ux * hw)], fill=ink)


def _trim(
    a: tuple[float, float], b: tuple[float, float], r: float
) -> tuple[tuple[float, float], float, float]:
    """The point ``r`` px before ``b`` on a->b, and the unit direction."""
    dist = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / dist, (b[1] - a[1]) / dist
    r = min(r, dist * 0.45)
    return (b[0] - ux * r, b[1] - uy * r), ux, uy


def _draw_arrow(draw: ImageDraw.ImageDraw, pal: Palette, lay: Layout, a: Arrow, occupied: set[Cell]) -> None:
    for c in a.cells:
        lay.check(c, f"{a.kind} arrow cell")
    ink = pal.idx(rgb(a.colour))
    base = lay.cell if lay.grid == "square" else lay.hex_h
    lw = max(2, round(base * 0.1))
    pts: list[tuple[float, float]] = [lay.cell_centre(c) for c in a.cells]
    r_tok = base * 0.4
    if a.kind == "attack":
        if len(pts) >= 2:
            start, _, _ = _trim(pts[-1], pts[0], r_tok)
            end, ux, uy = _trim(pts[0], pts[-1], r_tok)
            draw.line((start, end), fill=ink, width=lw)
            _head(draw, end, ux, uy, lw, ink)
        x, y = pts[-1]
        rr = base * 0.47
        draw.ellipse((x - rr, y - rr, x + rr, y + rr), outline=ink, width=max(2, lw - 1))
        return
    if len(pts) < 2:
        return
    end, ux, uy = _trim(pts[-2], pts[-1], r_tok if a.cells[-1] in occupied else lw)
    line = [*pts[:-1], end]
    draw.line(line, fill=ink, width=lw, joint="curve")
    for x, y in pts[1:-1]:
        draw.ellipse((x - lw, y - lw, x + lw, y + lw), fill=ink)
    x, y = pts[0]
    r0 = base * 0.16
    draw.ellipse((x - r0, y - r0, x + r0, y + r0), outline=ink, width=max(2, lw - 1))
    _head(draw, end, ux, uy, lw, ink)


def _draw_highlight(draw: ImageDraw.ImageDraw, pal: Palette, lay: Layout, cell: Cell) -> None:
    """A reachable cell: a lime outline inset in the cell."""
    lay.check(cell, "highlight")
    ink = pal.idx(rgb(T.HIGHLIGHT))
    w = max(2, round(lay.base * 0.08))
    if lay.grid == "square":
        x0, y0, x1, y1 = lay.cell_box(cell)
        draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=ink, width=w)
    else:
        x, y = lay.cell_centre(cell)
        pts = [(x + (px - x) * 0.88, y + (py - y) * 0.88) for px, py in lay.cell_polygon(cell)]
        draw.polygon(pts, outline=ink, width=w)


def _draw_target(draw: ImageDraw.ImageDraw, pal: Palette, lay: Layout, cell: Cell) -> None:
    """A legal target: a magenta ring with four cross-hair ticks, unlike a reach outline in shape too."""
    lay.check(cell, "target")
    ink = pal.idx(rgb(T.TARGET))
    x, y = lay.cell_centre(cell)
    w = max(2, round(lay.base * 0.08))
    r = lay.base * 0.46
    draw.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=w)
    t = lay.base * 0.16
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        draw.line(((x + dx * (r - t), y + dy * (r - t)), (x + dx * (r + t * 0.6), y + dy * (r + t * 0.6))),
                  fill=ink, width=w)  # fmt: skip


# -- panel -------------------------------------------------------------------------------------------
def _draw_panel(im: Image.Image, draw: ImageDraw.ImageDraw, pal: Palette, lay: Layout) -> None:
    if not lay.panel.items:
        return
    bg = rgb(T.PANEL_BG)
    draw.rectangle((0, lay.panel_y, lay.width - 1, lay.height - 1), fill=pal.idx(bg))
    rule = max(1, round(lay.font / 9))
    draw.rectangle((0, lay.panel_y, lay.width - 1, lay.panel_y + rule - 1), fill=pal.idx(rgb(T.PANEL_RULE)))
    inks = {"title": rgb(T.TEXT), "line": rgb("#d3d7df"), "name": rgb(T.TEXT), "detail": rgb(T.MUTED),
            "legend": rgb(T.MUTED)}  # fmt: skip
    for item in lay.panel.items:
        fade = 0.42 if item.dim else 1.0
        if isinstance(item, PanelText):
            ink = blend(inks[item.role], bg, fade)
            draw_text(im, pal, (item.x, item.y), item.text, item.size, ink, bg, item.anchor)
        elif isinstance(item, PanelSwatch):
            colour = blend(rgb(item.colour), bg, fade)
            if item.shape == "circle":
                put_bands(im, pal, (item.x, item.y), shape_bands("circle", item.d, 0.0), colour, bg)
            else:
                draw.rectangle(
                    (item.x, item.y, item.x + item.d - 1, item.y + item.d - 1), fill=pal.idx(colour)
                )
        elif isinstance(item, PanelBar):
            _draw_bar(draw, pal, item.box, item.life, fade, bg)


# -- entry points ------------------------------------------------------------------------------------
def _prime(pal: Palette, scene: Scene) -> None:
    """Give the scene's own colours palette slots before any blend takes one."""
    names: list[str] = [T.PANEL_BG, T.TEXT, T.MUTED, T.PANEL_RULE, T.HIGHLIGHT, T.BAR_BG, T.BAR_GOOD]
    names += [T.BAR_MID, T.BAR_LOW, *T.EDGE_COLOURS.values(), T.WALL, T.STRONG_WALL, T.LABEL_BG]
    for t in scene.tokens:
        names += [t.fill, t.text_fill] + ([t.ring] if t.ring else [])
    names += [a.colour for a in scene.arrows]
    names += [u.colour for u in scene.panel.units]
    names += [c for c, _ in scene.panel.legend]
    names += [T.TARGET]
    for n in names:
        pal.idx(rgb(n))


def render_image(scene: Scene, *, highlights: Iterable[Cell] = (), size: int | None = None) -> Image.Image:
    """The board image of ``scene`` as a Pillow "P" image (see :func:`render` for arguments and errors)."""
    lay = layout(scene, size)
    static = _static(scene, lay)
    pal = static.palette.copy()
    _prime(pal, scene)
    bg = rgb(scene.background)
    im = Image.new("P", (lay.width, lay.height), pal.idx(bg))
    im.paste(static.image, (lay.board_x, lay.board_y))
    draw = ImageDraw.Draw(im)
    under = static.under
    for e in scene.dynamic_edges:
        _draw_edge(im, draw, pal, lay, e, under, bg)
    draw_shaded(draw, pal, lay, scene.shaded, under, bg)
    for c in (*scene.highlights, *highlights):
        _draw_highlight(draw, pal, lay, c)
    occupied = {t.cell for t in scene.tokens}
    for a in scene.arrows:
        if a.kind == "path":
            _draw_arrow(draw, pal, lay, a, occupied)
    spots = lay.token_spots()
    memo: dict[tuple[object, ...], Sprite] = {}
    # Units first, then the small items and markers that may sit over their lower edge.
    order = sorted(range(len(scene.tokens)), key=lambda i: scene.tokens[i].small)
    for i in order:
        t, spot = scene.tokens[i], spots[i]
        _draw_token(im, pal, t, spot, under.get(t.cell, bg), memo, lay.label_size(t, spot.d))
        if t.bar is not None and spot.bar is not None:
            _draw_bar(draw, pal, spot.bar, t.bar)
    for c in scene.targets:
        _draw_target(draw, pal, lay, c)
    draw_facings(draw, pal, scene.tokens, spots)
    for a in scene.arrows:
        if a.kind == "attack":
            _draw_arrow(draw, pal, lay, a, occupied)
    _draw_panel(im, draw, pal, lay)
    im.putpalette(pal.flat())
    return im


def render(scene: Scene, *, highlights: Iterable[Cell] = (), size: int | None = None) -> bytes:
    """Draw ``scene`` as a palette PNG and return its bytes.

    ``highlights`` are extra cells outlined on top of ``scene.highlights``; ``size`` is the target width
    in pixels (None: the natural size, about 800 px, the board across the full width and the panel under
    it; never exactly square). The static layer is cached per ``scene.static_key``.

    Raises ValueError if the scene is malformed (unknown grid, a cell off the board, an edge between
    cells that do not share a side, an unreadable colour) or ``size`` is outside 200..4000 px.
    """
    im = render_image(scene, highlights=highlights, size=size)
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def render_gif(scenes: Sequence[Scene], *, frame_ms: int = 700, size: int | None = None) -> bytes:
    """A looping GIF replay with one frame per scene (``frame_ms`` ms each) and return its bytes.

    Frames are the same images :func:`render` draws, padded to the largest frame; an identical
    consecutive frame is merged into the previous one (its time added). Raises ValueError if
    ``scenes`` is empty, ``frame_ms`` is not positive, or a scene is malformed (see :func:`render`).
    """
    if not scenes:
        raise ValueError("a replay needs at least one scene")
    if frame_ms <= 0:
        raise ValueError(f"frame_ms must be positive, not {frame_ms}")
    frames = [render_image(s, size=size) for s in scenes]
    w = max(f.width for f in frames)
    h = max(f.height for f in frames)
    padded = []
    for f, s in zip(frames, scenes, strict=True):
        if f.size != (w, h):
            pal = f.getpalette() or []
            bg = rgb(s.background)
            colours = [tuple(pal[i : i + 3]) for i in range(0, len(pal), 3)]
            canvas = Image.new("P", (w, h), colours.index(bg) if bg in colours else 0)
            canvas.putpalette(pal)
            canvas.paste(f, (0, 0))
            f = canvas
        padded.append(f)
    buf = io.BytesIO()
    padded[0].save(buf, "GIF", save_all=True, append_images=padded[1:], duration=frame_ms, loop=0)
    return buf.getvalue()
