"""The board read on a phone: every ruleset's largest board, shown 400 px wide, keeps its squares, hexes
and text large enough; seat colours stay apart under colour-vision deficiencies; tags are unique; the
panel wraps between words; every mark drawn is in the legend."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

import engine
import renderer.core
import renderer.paint
from engine import Game
from engine.board_marks import SEAT_PALETTE
from engine.scene import Scene
from renderer import clear_cache, layout, render
from renderer.panel import PanelText

DISPLAY = 400
SEATS4: dict[str, str | None] = {s: None for s in ("p1", "p2", "p3", "p4")}


def played(game: Game, steps: int, seed: int = 1) -> Game:
    """``game`` after up to ``steps`` random legal commands (mostly not ending activations)."""
    rnd = random.Random(seed)
    for _ in range(steps):
        seats = sorted(game.seats_to_act())
        if game.outcome is not None or not seats:
            break
        cmds = game.legal_commands(seats[0])
        busy = [c for c in cmds if not c.text.startswith(("end", "done"))]
        game.apply(seats[0], rnd.choice(busy if busy and rnd.random() < 0.85 else cmds))
    return game


def largest_boards() -> Iterator[tuple[str, Scene]]:
    """A mid-game scene of every ruleset's largest board."""
    yield "escape", played(engine.new_game("escape", seed=3), 150).scene(None)
    mirror = {"squad": {"player1": "shock", "player2": "shock"}}
    yield "skirm", played(engine.new_game("skirm", seed=3, options=mirror), 120).scene(None)
    heist = engine.new_game("heist", scenario="the_final_score_part_1", seats=SEATS4, seed=3)
    for step in range(60):  # into the action phase, where pawns, rings and dealt-with chits show
        played(heist, 3, seed=step)
        if heist.state.phase == "action" and any(not p.done for p in heist.state.players.values()):
            break
    yield "heist", heist.scene(None)


BOARDS = dict(largest_boards())


def font_sizes_drawn(scene: Scene, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every text size the renderer draws for ``scene`` (a real, uncached render)."""
    sizes: list[int] = []
    real = renderer.paint.glyphs

    def spy(text: str, size: int) -> renderer.paint.Glyphs:
        sizes.append(size)
        return real(text, size)

    monkeypatch.setattr(renderer.paint, "glyphs", spy)
    monkeypatch.setattr(renderer.core, "glyphs", spy)
    clear_cache()
    render(scene)
    clear_cache()
    return sizes


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_largest_board_reads_at_400_px(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = BOARDS[name]
    lay = layout(scene)
    k = DISPLAY / lay.width
    assert lay.width != lay.height  # some clients crop exactly square images
    assert lay.board_w >= lay.width - 1 and lay.panel_y >= lay.board_h  # full width, panel under it
    if name == "escape":
        assert (scene.width, scene.height) == (20, 20)
        assert lay.cell * k >= 17
    if name == "heist":
        assert scene.width == 11
        assert lay.hex_h * k >= 30  # flat side to flat side, the smaller size across
    sizes = font_sizes_drawn(scene, monkeypatch)
    assert sizes and min(sizes) * k >= 9
    data = render(scene)
    assert len(data) <= 60_000


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_panel_text_is_wrapped_between_words(name: str) -> None:
    scene = BOARDS[name]
    texts = [i for i in layout(scene).panel.items if isinstance(i, PanelText)]
    for t in texts:
        assert renderer.paint.text_width(t.text, t.size) <= t.box, t.text
    flowing = " ".join(t.text for t in texts)
    p = scene.panel
    sources = [p.title, *p.lines, *(u.name for u in p.units), *(u.detail for u in p.units if u.detail)]
    sources += [meaning for _c, meaning in p.legend]
    for src in sources:
        assert " ".join(src.split()) in flowing, src


def test_wrap_never_cuts_a_word_that_fits_a_line() -> None:
    text = "Event 10: Black-out (Quarters) means the lights are out in one room"
    lines = renderer.paint.wrap(text, 18, 160)
    assert len(lines) > 1 and " ".join(lines) == text
    assert all(renderer.paint.text_width(line, 18) <= 160 for line in lines)


# Machado, Oliveira & Fernandes (2009) full-severity simulation matrices, on linear RGB.
CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}  # fmt: skip


def lab(colour: str, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, float, float]:
    """CIELAB of ``colour`` as seen through a colour-vision ``matrix``."""

    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    c = [lin(int(colour[i : i + 2], 16)) for i in (1, 3, 5)]
    r, g, b = (max(0.0, min(1.0, sum(m * v for m, v in zip(row, c, strict=True)))) for row in matrix)
    x, y, z = (
        0.4124 * r + 0.3576 * g + 0.1805 * b,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        0.0193 * r + 0.1192 * g + 0.9505 * b,
    )

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x / 0.95047), f(y), f(z / 1.08883)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def games() -> Iterator[Game]:
    yield engine.new_game("escape", seed=1)
    yield engine.new_game("skirm", seed=1, options={"squad": {"player1": "shock", "player2": "shock"}})
    yield engine.new_game("heist", seats=SEATS4, seed=1)


@pytest.mark.parametrize("game", list(games()), ids=lambda g: g.ruleset.id)
def test_seat_colours_stay_apart_under_colour_vision_deficiencies(game: Game) -> None:
    colours = game.ruleset.seat_colours(game.state)
    assert set(colours) == set(game.ruleset.seats) or set(colours) == set(game.state.seats)
    assert len(set(colours.values())) == len(colours)
    for vision, matrix in CVD.items():
        for a, b in itertools.combinations(colours.values(), 2):
            de = sum((p - q) ** 2 for p, q in zip(lab(a, matrix), lab(b, matrix), strict=True)) ** 0.5
            assert de >= 15, (vision, a, b, de)
    scene = game.scene()
    drawn = {t.fill for t in scene.tokens if not t.small} | {u.colour for u in scene.panel.units}
    assert set(colours.values()) >= drawn - {"#ffffff"}  # units are drawn in their seat's colour


def test_a_simulated_deficiency_really_merges_red_and_green() -> None:
    """The check above can fail: red and green collapse under deuteranopia."""
    m = CVD["deuteranopia"]
    de = sum((p - q) ** 2 for p, q in zip(lab("#d03030", m), lab("#30a030", m), strict=True)) ** 0.5
    assert de < 15 and len(SEAT_PALETTE) >= 4


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_unit_tags_are_unique_and_every_mark_is_in_the_legend(name: str) -> None:
    scene = BOARDS[name]
    units = [t.label for t in scene.tokens if not t.small and t.label]
    assert len(units) == len(set(units))
    legend = {c.lower() for c, _ in scene.panel.legend}
    for t in scene.tokens:
        assert t.fill.lower() in legend, (t.label, t.fill)
        assert t.ring is None or t.ring.lower() in legend, (t.label, t.ring)
    for a in scene.arrows:
        assert a.colour.lower() in legend


def test_escape_board_names_its_rooms() -> None:
    from engine.rulesets.escape import rules as R

    scene = BOARDS["escape"]
    board = R.board(engine.new_game("escape", seed=3).state)
    names = {lb.text for lb in scene.labels}
    assert names == {n for letter, n in board.room_names.items() if letter != "."}
