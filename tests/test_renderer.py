"""Renderer properties: valid wide PNGs, the right colour where the scene says, caching, hex, size, GIF."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

import renderer
from engine.scene import Arrow, Edge, GridKind, Panel, PanelUnit, Scene, Tile, Token
from renderer import EDGE_COLOURS, layout, render, render_gif
from renderer import theme as T

FLOOR = "#3b4252"
ROOM = "#4a3f4f"
BG = "#1e1f24"


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


def square_scene(w: int = 8, h: int = 6, key: str = "sq", **kw: object) -> Scene:
    tiles = tuple(
        Tile((c, r), ROOM if c >= w // 2 else FLOOR, "1" if (c, r) == (0, 0) else "")
        for c in range(w)
        for r in range(h)
    )
    panel = Panel(
        "Test game",
        ("Turn 1/8", "To act: Red"),
        (
            PanelUnit("Alpha", "#e8833a", (3, 5), "Mvt 2 Cbt 1"),
            PanelUnit("Beta", "#3aa6e8", (5, 5), "done", dim=True),
        ),
        (("#e8833a", "Red"), ("#3aa6e8", "Blue"), ("#d9a400", "locked door")),
    )
    args: dict[str, object] = {"panel": panel}
    args.update(kw)
    return Scene("square", w, h, key, tiles, **args)  # type: ignore[arg-type]


def hex_scene(key: str = "hex", **kw: object) -> Scene:
    tiles = tuple(Tile((c, r), FLOOR if (c + r) % 3 else ROOM) for c in range(7) for r in range(5))
    return Scene("hex", 7, 5, key, tiles, panel=Panel("Hex"), **kw)  # type: ignore[arg-type]


def test_valid_palette_png_never_square_board_across_the_full_width() -> None:
    data = render(square_scene())
    raw = Image.open(io.BytesIO(data))
    assert raw.format == "PNG" and raw.mode == "P"
    assert raw.width != raw.height
    lay = layout(square_scene())
    assert lay.board_y == 0 and lay.panel_y == lay.board_h and lay.height > lay.board_h
    assert (raw.width, raw.height) == (layout(square_scene()).width, layout(square_scene()).height)


def test_largest_board_fills_the_width_and_is_small() -> None:
    names = [f"Unit{i}" for i in range(10)]
    panel = Panel("Big", ("a", "b", "c", "d"), tuple(PanelUnit(n, "#e8833a", (3, 6), "Mvt 1 Cbt 0 Int 0") for n in names),
                  tuple(("#ffffff", f"thing {i}") for i in range(8)))  # fmt: skip
    tokens = tuple(Token((i, i), "Ab", "#e8833a", bar=(2, 4)) for i in range(12))
    scene = square_scene(20, 20, "big", tokens=tokens)
    scene = Scene(scene.grid, 20, 20, "big", scene.tiles, tokens=tokens, panel=panel)
    data = render(scene)
    im = png(data)
    lay = layout(scene)
    assert im.width != im.height and lay.board_w == lay.width
    assert len(data) <= 60_000
    assert lay.cell * 400 / lay.width >= 17


def test_many_units_grow_the_panel_under_the_board() -> None:
    panel = Panel("Crowd", units=tuple(PanelUnit(f"U{i}", "#e8833a", (1, 2)) for i in range(30)))
    scene = Scene("square", 4, 4, "tiny", square_scene(4, 4).tiles, panel=panel)
    im, lay = png(render(scene)), layout(scene)
    assert im.height > lay.board_h + 15 * lay.font and im.width != im.height


def test_empty_cell_shows_tile_fill_and_background_where_no_tile() -> None:
    tiles = tuple(t for t in square_scene().tiles if t.cell != (5, 5))
    scene = Scene("square", 8, 6, "holes", tiles)
    im, lay = png(render(scene)), layout(scene)
    assert im.getpixel(lay.cell_centre((1, 2))) == rgb(FLOOR)
    assert im.getpixel(lay.cell_centre((6, 2))) == rgb(ROOM)
    assert im.getpixel(lay.cell_centre((5, 5))) == rgb(BG)


def test_token_fill_where_a_token_stands() -> None:
    tokens = (Token((2, 3), "", "#c03030"), Token((6, 1), "Ab", "#30c060", "square", bar=(1, 3)))
    scene = square_scene(tokens=tokens)
    im, lay = png(render(scene)), layout(scene)
    assert im.getpixel(lay.cell_centre((2, 3))) == rgb("#c03030")  # no label: the centre is fill
    spot = lay.token_spots()[1]
    assert im.getpixel((spot.x, spot.y - spot.d // 3)) == rgb("#30c060")  # above the label
    assert im.getpixel(lay.cell_centre((2, 2))) == rgb(FLOOR)  # the cell above is untouched


@pytest.mark.parametrize("shape", ["circle", "square", "diamond", "hex"])
def test_every_shape_draws_its_fill(shape: str) -> None:
    scene = square_scene(tokens=(Token((3, 3), "", "#aa22cc", shape, ring="#ffffff"),))  # type: ignore[arg-type]
    im, lay = png(render(scene)), layout(scene)
    assert im.getpixel(lay.cell_centre((3, 3))) == rgb("#aa22cc")


def test_tokens_sharing_a_cell_do_not_hide_each_other() -> None:
    fills = ["#ff0000", "#00ff00", "#0000ff", "#ffff00", "#00ffff"]
    for n in range(2, 6):
        tokens = tuple(
            Token((4, 4), "", fills[i], small=i % 2 == 1, bar=(1, 2) if i == 0 else None) for i in range(n)
        )
        scene = square_scene(tokens=tokens)
        im, lay = png(render(scene)), layout(scene)
        spots = lay.token_spots()
        for i, a in enumerate(spots):
            assert im.getpixel((a.x, a.y)) == rgb(fills[i])
            x0, y0, x1, y1 = lay.cell_box((4, 4))
            assert x0 <= a.x - a.d / 2 and a.x + a.d / 2 <= x1 and y0 <= a.y - a.d / 2 and a.y + a.d / 2 <= y1
            for j, b in enumerate(spots[i + 1 :], i + 1):
                if tokens[i].small == tokens[j].small:  # small ones may sit over a unit's lower edge
                    assert math.dist((a.x, a.y), (b.x, b.y)) >= (a.d + b.d) / 2


@pytest.mark.parametrize("style", ["wall", "strong_wall", "door_closed", "door_open", "door_locked", "gate"])
def test_edge_shows_its_colour_between_two_cells(style: str) -> None:
    edges = (Edge((2, 2), (3, 2), style), Edge((5, 3), (5, 4), style))  # type: ignore[arg-type]
    for scene in (
        square_scene(key=f"edges-{style}", edges=edges),
        square_scene(key="dyn", dynamic_edges=edges),
    ):
        im, lay = png(render(scene)), layout(scene)
        for e in edges:
            assert im.getpixel(lay.edge_midpoint(e.a, e.b)) == rgb(EDGE_COLOURS[e.style])
        assert im.getpixel(lay.cell_centre((2, 2))) == rgb(FLOOR)


def test_edge_colours_are_distinct() -> None:
    assert len(set(EDGE_COLOURS.values())) == len(EDGE_COLOURS)


def test_locked_door_label_is_drawn() -> None:
    plain = square_scene(key="d", dynamic_edges=(Edge((2, 2), (3, 2), "door_locked"),))
    labelled = square_scene(key="d", dynamic_edges=(Edge((2, 2), (3, 2), "door_locked", "6"),))
    lay = layout(plain)
    x, y = lay.edge_midpoint((2, 2), (3, 2))
    box = (x - 8, y - 8, x + 9, y + 9)
    a, b = png(render(plain)).crop(box), png(render(labelled)).crop(box)
    assert a.tobytes() != b.tobytes()
    assert rgb(T.LABEL_BG) in {c for _, c in b.getcolors(1000) or []}


def test_edge_between_non_adjacent_cells_is_refused() -> None:
    with pytest.raises(ValueError, match="share a side"):
        render(square_scene(key="bad", edges=(Edge((0, 0), (2, 0), "wall"),)))


def test_off_board_things_are_refused() -> None:
    with pytest.raises(ValueError, match="off the"):
        render(square_scene(tokens=(Token((8, 0), "X", "#ffffff"),)))
    with pytest.raises(ValueError, match="off the"):
        render(square_scene(), highlights=[(0, 9)])
    with pytest.raises(ValueError):
        render(square_scene(), size=10)
    with pytest.raises(ValueError):
        render(square_scene(tokens=(Token((1, 1), "X", "not a colour"),)))


def test_highlights_outline_cells() -> None:
    scene = square_scene(highlights=((1, 1),))
    im, lay = png(render(scene, highlights=[(6, 4)])), layout(scene)
    for cell in ((1, 1), (6, 4)):
        x0, y0, x1, y1 = lay.cell_box(cell)
        assert im.getpixel((x0 + 2, (y0 + y1) // 2)) == rgb(T.HIGHLIGHT)
        assert im.getpixel(lay.cell_centre(cell)) != rgb(T.HIGHLIGHT)
    x0, y0, _, y1 = lay.cell_box((3, 3))
    assert im.getpixel((x0 + 2, (y0 + y1) // 2)) != rgb(T.HIGHLIGHT)


def test_path_and_attack_are_drawn_over_cell_centres() -> None:
    arrows = (
        Arrow(((0, 1), (1, 1), (2, 1), (2, 2)), "#ffe066", "path"),
        Arrow(((5, 4), (7, 4)), "#ff4d4d", "attack"),
    )
    scene = square_scene(
        arrows=arrows, tokens=(Token((2, 2), "Ab", "#e8833a"), Token((7, 4), "Cd", "#3aa6e8"))
    )
    im, lay = png(render(scene)), layout(scene)
    assert im.getpixel(lay.cell_centre((1, 1))) == rgb("#ffe066")
    (ax, ay), (bx, _) = lay.cell_centre((5, 4)), lay.cell_centre((7, 4))
    assert im.getpixel(((ax + bx) // 2, ay)) == rgb("#ff4d4d")
    spot = lay.token_spots()[1]
    assert im.getpixel((spot.x, spot.y - spot.d // 3)) == rgb("#3aa6e8")  # the target stays visible


def test_coordinates_on_the_edges() -> None:
    scene = square_scene()
    im, lay = png(render(scene)), layout(scene)
    x0, y0, x1, _ = lay.cell_box((0, 0))
    top_gutter = im.crop((x0, lay.board_y, x1, y0))
    assert len(top_gutter.getcolors(1000) or []) > 1  # the letter "a" is there
    left_gutter = im.crop((lay.board_x, y0, x0, y0 + lay.cell))
    assert len(left_gutter.getcolors(1000) or []) > 1  # the number "1" is there


def test_static_layer_is_cached_per_key() -> None:
    renderer.clear_cache()
    scene = square_scene(key="cache-me")
    first = render(scene)
    info = renderer.cache_info()
    assert (info.hits, info.misses, info.size) == (0, 1, 1)
    moved = square_scene(key="cache-me", tokens=(Token((1, 1), "A", "#e8833a"),))
    assert render(moved) != first
    assert render(scene) == first  # pure: same scene, same bytes
    info = renderer.cache_info()
    assert (info.hits, info.misses, info.size) == (2, 1, 1)
    render(square_scene(key="other"))
    assert renderer.cache_info().misses == 2


def test_static_cache_is_bounded() -> None:
    renderer.clear_cache()
    for i in range(40):
        render(square_scene(3, 3, key=f"k{i}"))
    assert renderer.cache_info().size <= 32


def test_hex_layout_is_odd_q_flat_topped() -> None:
    scene = hex_scene()
    lay = layout(scene)
    (x0, y0), (x1, y1), (x2, y2) = (lay.cell_centre(c) for c in ((0, 0), (1, 0), (2, 0)))
    assert y1 - y0 == lay.hex_h // 2 and y2 == y0  # odd columns half a tile down
    assert x1 - x0 == x2 - x1 == 3 * lay.cell // 2
    assert lay.cell_centre((0, 1))[1] - y0 == lay.hex_h
    poly = lay.cell_polygon((0, 0))
    assert poly[1][1] == poly[2][1]  # a flat top


def test_hex_scene_tiles_and_tokens_in_place() -> None:
    tokens = (Token((1, 2), "", "#ff00aa"), Token((4, 1), "Ab", "#00aaff", bar=(2, 3)))
    scene = hex_scene("hex-walls", tokens=tokens, edges=(Edge((2, 2), (3, 2), "wall"),), highlights=((5, 3),))
    im, lay = png(render(scene)), layout(scene)
    assert im.width > im.height
    assert im.getpixel(lay.cell_centre((1, 2))) == rgb("#ff00aa")
    spot = lay.token_spots()[1]
    assert im.getpixel((spot.x, spot.y - spot.d // 3)) == rgb("#00aaff")
    empty = lay.cell_centre((6, 4))
    assert im.getpixel((empty[0], empty[1] + lay.hex_h // 4)) == rgb(scene.tiles[6 * 5 + 4].fill)
    assert im.getpixel(lay.edge_midpoint((2, 2), (3, 2))) == rgb(EDGE_COLOURS["wall"])


def test_hex_tile_labels_are_drawn() -> None:
    scene = hex_scene()
    im, lay = png(render(scene)), layout(scene)
    x, y = lay.cell_centre((3, 2))
    band = im.crop((x - lay.cell // 2, y - lay.hex_h // 2 + 1, x + lay.cell // 2, y - lay.hex_h // 4))
    assert len(band.getcolors(1000) or []) > 2  # "d3" in small type on its fill


def test_size_scales_width() -> None:
    scene = square_scene(tokens=(Token((2, 3), "", "#c03030"),))
    natural = png(render(scene))
    for size in (500, 1400):
        im = png(render(scene, size=size))
        assert im.width == size and im.width != im.height
        assert abs(im.height / im.width - natural.height / natural.width) < 0.05
        lay = layout(scene, size)
        assert im.getpixel(lay.cell_centre((2, 3))) == rgb("#c03030")
        assert im.getpixel(lay.cell_centre((1, 1))) == rgb(FLOOR)


def test_gif_has_one_frame_per_scene() -> None:
    scenes = [square_scene(tokens=(Token((i, 1), "A", "#e8833a"),)) for i in range(4)]
    data = render_gif(scenes, frame_ms=300)
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF" and getattr(im, "n_frames", 1) == 4
    assert im.info.get("duration") == 300
    with pytest.raises(ValueError):
        render_gif([])


def test_gif_pads_frames_of_different_sizes() -> None:
    small = square_scene()
    tall = Scene(
        "square",
        8,
        6,
        "sq",
        small.tiles,
        panel=Panel("x", units=tuple(PanelUnit(str(i), "#fff000") for i in range(20))),
    )
    im = Image.open(io.BytesIO(render_gif([small, tall])))
    assert getattr(im, "n_frames", 1) == 2
    assert im.size == (
        max(layout(small).width, layout(tall).width),
        max(layout(small).height, layout(tall).height),
    )


def test_panel_dims_done_units() -> None:
    lit = square_scene(key="p")
    dim = Scene("square", 8, 6, "p", lit.tiles, panel=Panel("Test game", lit.panel.lines, tuple(
        PanelUnit(u.name, u.colour, u.life, u.detail, dim=True) for u in lit.panel.units), lit.panel.legend))  # fmt: skip
    a, b = png(render(lit)), png(render(dim))
    lay = layout(lit)
    panel = (0, lay.panel_y, lay.width, lay.height)
    assert a.crop(panel).tobytes() != b.crop(panel).tobytes()
    assert (
        a.crop((0, 0, lay.width, lay.panel_y)).tobytes() == b.crop((0, 0, lay.width, lay.panel_y)).tobytes()
    )


def test_more_colours_than_a_palette_holds_still_render() -> None:
    tiles = tuple(
        Tile((c, r), f"#{c * 12:02x}{r * 12:02x}{(c * r) % 256:02x}") for c in range(20) for r in range(20)
    )
    im = png(render(Scene("square", 20, 20, "rainbow", tiles)))
    assert im.width != im.height


@pytest.mark.parametrize(
    ("grid", "w", "h"), [("square", 1, 1), ("hex", 1, 1), ("square", 30, 4), ("hex", 2, 9)]
)
def test_odd_board_shapes_render(grid: GridKind, w: int, h: int) -> None:
    tiles = tuple(Tile((c, r), FLOOR) for c in range(w) for r in range(h))
    scene = Scene(
        grid, w, h, f"odd-{grid}-{w}x{h}", tiles, tokens=(Token((0, 0), "abc", "#e8833a", bar=(0, 0)),)
    )
    im = png(render(scene))
    assert im.width != im.height
    assert renderer.cell_name((27, 0)) == "ab1"
