"""Pointy-topped odd-r hex rendering, checked on the real River City heist maps."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

from engine.geometry import hexgrid as H
from engine.rulesets.heist.content import HexMap, load_content
from engine.scene import Edge, Panel, Scene, Tile, Token
from renderer import layout, render, render_image
from renderer.paint import glyphs, rgb, spell
from renderer.theme import WALL

# Three fills such that no two neighbouring hexes share one: (q + 2r) mod 3 differs across every side.
FILLS = ("#3b4252", "#4f4a3b", "#3e4a3f")
HEISTS = load_content().heists


def three_colour(cell: H.Cell) -> str:
    q, r = H.to_axial(cell)
    return FILLS[(q + 2 * r) % 3]


def map_scene(
    m: HexMap,
    key: str,
    tokens: tuple[Token, ...] = (),
    edges: tuple[Edge, ...] = (),
    highlights: tuple[H.Cell, ...] = (),
) -> Scene:
    tiles = tuple(Tile(c, three_colour(c), "E" if t.kind == "entrance" else "") for c, t in m.tiles.items())
    return Scene(
        "hex", m.width, m.height, key, tiles, edges=edges, tokens=tokens, highlights=highlights,
        panel=Panel(m.name), hex_layout="odd-r",
    )  # fmt: skip


def largest_map() -> HexMap:
    return max((h.map for h in HEISTS.values()), key=lambda m: m.width * m.height)


def test_three_colouring_really_separates_neighbours() -> None:
    for c in ((2, 2), (3, 3), (0, 5)):
        assert all(three_colour(n) != three_colour(c) for n in H.neighbours(c))


def test_odd_r_geometry_is_pointy_and_shifts_odd_rows_right() -> None:
    scene = map_scene(HEISTS["the_inclusion_job"].map, "hex-r-geom")
    lay = layout(scene)
    assert lay.pointy and lay.hex_h % 2 == 0 and lay.cell % 2 == 0
    (x00, y00), (x10, _), (x01, y01) = (lay.cell_centre(c) for c in ((0, 0), (1, 0), (0, 1)))
    assert x10 - x00 == lay.hex_h  # neighbours in a row sit one flat-to-flat width apart
    assert x01 - x00 == lay.hex_h // 2  # odd rows are shifted half a tile right
    assert y01 - y00 == 3 * lay.cell // 2
    top = lay.cell_polygon((0, 0))[0]
    assert top == (x00, y00 - lay.cell)  # the first corner is the top point
    # Flat-topped default is untouched: odd columns shift down instead.
    flat = layout(Scene("hex", 9, 9, "hex-q-geom", scene.tiles, panel=Panel("q")))
    assert not flat.pointy
    assert flat.cell_centre((1, 0))[1] - flat.cell_centre((0, 0))[1] == flat.hex_h // 2


@pytest.mark.parametrize("heist_id", ["the_inclusion_job", "the_final_score_part_1"])
def test_neighbouring_tiles_share_a_side_and_do_not_overlap(heist_id: str) -> None:
    m = HEISTS[heist_id].map
    scene = map_scene(m, f"hex-r-{heist_id}")
    lay = layout(scene)
    for c in m.tiles:
        for n in H.neighbours(c):
            if n in m.tiles:
                p, q = lay.edge_segment(c, n)  # raises unless the polygons share exactly one side
                assert abs(math.dist(p, q) - lay.cell) <= 1.5
                assert abs(math.dist(lay.cell_centre(c), lay.cell_centre(n)) - lay.hex_h) <= 1.5
    im = render_image(scene).convert("RGB")
    # Every tile's own colour fills it near each of its side corners and its bottom corner: a neighbour
    # drawn over it would show its different colour there.
    for c in m.tiles:
        x, y = lay.cell_centre(c)
        want = rgb(three_colour(c))
        for px, py in lay.cell_polygon(c)[1:]:
            sx, sy = round(x + (px - x) * 0.78), round(y + (py - y) * 0.78)
            assert im.getpixel((sx, sy)) == want, (H.cell_name(c), (sx, sy))
    # Gaps stay background.
    bg = rgb(scene.background)
    gaps = [(c, r) for r in range(m.height) for c in range(m.width) if (c, r) not in m.tiles]
    for g in gaps[:20]:
        assert im.getpixel(lay.cell_centre(g)) == bg


def test_largest_heist_map_renders_a_valid_wide_png_within_budget() -> None:
    m = largest_map()
    assert (m.width, m.height) == (11, 11)
    colours = ("#e8833a", "#3aa6e8", "#5ac85a", "#d65ad6")
    cells = list(m.indoor_cells())
    tokens = tuple(
        Token(cells[i * 5], f"P{i + 1}", colours[i], ring="#ffffff" if i == 0 else None) for i in range(4)
    )
    tokens += tuple(Token(c, "G", "#c0392b", "circle", small=True) for c in cells[1:12:3])
    scene = map_scene(m, "hex-r-largest", tokens=tokens, highlights=(cells[3],))
    png = render(scene)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(png))
    lay = layout(scene)
    assert im.size == (lay.width, lay.height) and im.width > im.height
    assert len(png) <= 40_000
    # Every tile fits inside the board area.
    for c in m.tiles:
        x0, y0, x1, y1 = lay.cell_box(c)
        assert lay.board_x <= x0 and x1 <= lay.board_x + lay.board_w
        assert lay.board_y <= y0 and y1 <= lay.board_y + lay.board_h
    # Tokens sharing a hex stay inside it and apart.
    spots = lay.token_spots()
    for t, s in zip(scene.tokens, spots, strict=True):
        x, y = lay.cell_centre(t.cell)
        assert math.dist((s.x, s.y), (x, y)) + s.d / 2 <= lay.cell


def test_token_colour_lands_on_its_hex_and_walls_follow_pointy_sides() -> None:
    m = HEISTS["the_inclusion_job"].map
    a, b = (2, 4), (3, 4)  # east-west neighbours: their shared side is vertical
    scene = map_scene(m, "hex-r-token", tokens=(Token(a, "", "#ff00ff"),), edges=(Edge(a, b, "wall"),))
    lay = layout(scene)
    (p, q) = lay.edge_segment(a, b)
    assert p[0] == q[0]
    im = render_image(scene).convert("RGB")
    spot = lay.token_spots()[0]
    assert im.getpixel((spot.x, spot.y)) == rgb("#ff00ff")
    assert im.getpixel(lay.edge_midpoint(a, b)) == rgb(WALL)


def test_unknown_hex_layout_is_refused() -> None:
    scene = Scene("hex", 3, 3, "bad-layout", (), hex_layout="odd-z")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="hex layout"):
        render(scene)


def test_static_layers_of_the_two_layouts_do_not_collide_in_the_cache() -> None:
    m = HEISTS["the_inclusion_job"].map
    tiles = tuple(Tile(c, three_colour(c)) for c in m.tiles)
    r_scene = Scene("hex", 9, 9, "same-key", tiles, hex_layout="odd-r")
    q_scene = Scene("hex", 9, 9, "same-key", tiles)
    assert render(r_scene) != render(q_scene)
    assert layout(r_scene).pointy and not layout(q_scene).pointy


def test_game_symbols_the_font_lacks_are_spelled_out() -> None:
    assert spell("next ⚠ at 10") == "next alert at 10"
    assert spell("Punch 👊🔊🔊➜") == "Punch subdue noise noise move"
    assert spell("safe 🧩2") == "safe crack 2"
    assert spell("plain text · $3k") == "plain text · $3k"
    assert glyphs("noise 🔊", 16).advance == glyphs("noise noise", 16).advance
    # A panel line with symbols draws the same pixels as the spelled line.
    a = Scene("hex", 3, 3, "spell-a", (), panel=Panel("x", ("Next ⚠ at 10",)), hex_layout="odd-r")
    b = Scene("hex", 3, 3, "spell-b", (), panel=Panel("x", ("Next alert at 10",)), hex_layout="odd-r")
    assert render_image(a).tobytes() == render_image(b).tobytes()


def test_tile_marks_sit_at_the_bottom_clear_of_tokens() -> None:
    m = HEISTS["the_inclusion_job"].map
    exit_cell = m.entrances[0]
    scene = map_scene(
        m, "hex-r-mark", tokens=(Token(exit_cell, "1", "#ff00ff"), Token(exit_cell, "2", "#00ffff"))
    )
    lay = layout(scene)
    x, y = lay.cell_centre(exit_cell)
    for s in lay.token_spots():
        assert s.y + s.d / 2 <= y + 0.42 * lay.cell
    im = render_image(scene).convert("RGB")
    assert rgb(three_colour(exit_cell)) in {im.getpixel((x, y + lay.cell // 2))}
    band = []
    for py in range(y + lay.cell // 2, y + 3 * lay.cell // 4):
        half = int(lay.hex_h / 2 * (lay.cell - (py - y)) / (lay.cell / 2)) - 2  # the hex narrows to its point
        band += [(px, py) for px in range(x - half, x + half + 1)]
    colours = {im.getpixel(p) for p in band}
    assert len(colours) > 1  # the mark is drawn there...
    assert rgb(scene.background) not in colours  # ...inside the tile
    one = map_scene(m, "hex-r-one", tokens=(Token(exit_cell, "1", "#ff00ff"), Token((3, 2), "1", "#ff00ff")))
    on_mark, plain = layout(one).token_spots()
    assert plain.d > on_mark.d  # a tile without a mark gives its tokens more room
