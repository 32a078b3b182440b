"""Show moves: hints are exactly what the legal commands allow, drawn distinctly, plus turn labels.

For random mid-game positions of each ruleset, an independent walk through the public Game API (legal
commands applied to copies of the game) finds every square the active unit can end on; the hints must
equal it, and every hinted target must be the target of a legal attack (or chit) command.
"""

from __future__ import annotations

import copy as copying
import json
import random
from collections.abc import Callable

import pytest

import engine
from engine import Game
from engine.core import Command
from engine.scene import Cell
from renderer import layout, render
from renderer import theme as T

SEATS4: dict[str, str | None] = {s: None for s in ("p1", "p2", "p3", "p4")}


def copy(game: Game) -> Game:
    """An independent copy of ``game`` (its state reloaded from JSON)."""
    twin = engine.new_game(game.ruleset.id, scenario=game.scenario, seats=dict(game.seats), seed=0)
    twin.state = game.ruleset.load_state(copying.deepcopy(game.state.to_data()))
    return twin


def walk(game: Game, seat: str, dest: Callable[[Game, Command], Cell | None], start: Cell) -> set[Cell]:
    """Every cell reachable by chains of ``seat``'s legal move commands (``dest`` names their ends),
    trying every chain through the public Game API; positions equal but for the path drawn are merged."""

    def key(g: Game) -> str:
        data = {k: v for k, v in g.state.to_data().items() if k not in ("trail", "attacks")}
        return json.dumps(data, sort_keys=True, default=str)

    cells: set[Cell] = set()
    seen = {key(game)}
    todo = [game]
    while todo:
        g = todo.pop()
        for c in g.legal_commands(seat):
            cell = dest(g, c)
            if cell is None:
                continue
            cells.add(cell)
            nxt = copy(g)
            nxt.apply(seat, c.text)
            if key(nxt) not in seen:
                seen.add(key(nxt))
                todo.append(nxt)
    return cells - {start}


def positions(ruleset: str, n: int, **kw: object) -> list[tuple[Game, str]]:
    """Up to ``n`` random positions where a seat to act has a unit with somewhere to go (hints to check).

    Random games are walked from several seeds; a position is taken where a seat to act has a legal move
    command, and the walk then goes on from a copy so positions are spread over the game.
    """
    moves = ("move", "dash", "crawl", "leap")
    out: list[tuple[Game, str]] = []
    for seed in range(40):
        g = engine.new_game(ruleset, seed=seed, **kw)  # type: ignore[arg-type]
        rnd = random.Random(seed)
        skip = rnd.randrange(10, 60)
        for step in range(400):
            seats = sorted(g.seats_to_act())
            if g.outcome is not None or not seats:
                break
            if step >= skip:
                mover = next((s for s in seats if any(c.verb in moves for c in g.legal_commands(s))), None)
                if mover is not None and g.hints(mover).reach:
                    out.append((copy(g), mover))
                    break
            cmds = g.legal_commands(seats[0])
            busy = [c for c in cmds if not c.text.startswith(("end", "done"))]
            g.apply(seats[0], rnd.choice(busy if busy and rnd.random() < 0.8 else cmds).text)
        if len(out) >= n:
            break
    return out


def test_escape_hints_equal_legal_move_chains_and_attack_targets() -> None:
    from engine.geometry.square import parse_cell

    found = positions("escape", 3)
    assert found
    for g, seat in found:
        h = g.hints(seat)
        unit = g.state.units[g.state.active]

        def dest(_g: Game, c: Command, uid: str = unit.id) -> Cell | None:
            return parse_cell(c.args[1], 20, 20) if c.verb == "move" and c.args[0] == uid else None

        assert set(h.reach) == walk(g, seat, dest, unit.pos)
        assert len(h.reach) == len(set(h.reach))
        hit = set()
        for c in g.legal_commands(seat):
            if c.verb in ("attack", "shoot", "throw") and c.args[0] == unit.id:
                hit.add(g.state.units[c.args[1]].pos)
            if c.verb == "grenade":
                hit.add(parse_cell(c.args[1], 20, 20))
        assert set(h.targets) == hit


def test_skirm_hints_equal_legal_move_chains_and_attack_targets() -> None:
    from engine.geometry.square import parse_cell

    found = positions("skirm", 3)
    assert found
    for g, seat in found:
        before = copying.deepcopy(g.state.to_data())
        h = g.hints(seat)
        assert g.state.to_data() == before  # looking changes nothing
        assert g.hints(seat) == h
        unit = g.state.units[g.state.active]

        def dest(_g: Game, c: Command, uid: str = unit.id) -> Cell | None:
            moves = ("move", "dash", "crawl", "leap")
            return parse_cell(c.args[1], 12, 12) if c.verb in moves and c.args[0] == uid else None

        first = {dest(g, c) for c in g.legal_commands(seat)} - {None, unit.pos}
        assert set(h.reach) == first  # one move action: where its legal moves, dashes and leaps end
        hit = set()
        for c in g.legal_commands(seat):
            if c.verb in ("shoot", "fight") and c.args[0] == unit.id:
                t = g.state.units.get(c.args[-1])
                hit.add(t.pos if t else parse_cell(c.args[-1], 12, 12))
        assert set(h.targets) == hit


def test_heist_hints_are_legal_moves_and_chits_to_deal_with() -> None:
    from engine.rulesets.heist import rules as R

    found = positions("heist", 2, seats=SEATS4)
    assert found
    for g, seat in found:
        h = g.hints(seat)
        first = {R.cell_of(g.state, c.args[0]) for c in g.legal_commands(seat) if c.verb == "move"}
        assert first <= set(h.reach)  # every single legal step is shown
        assert set(h.reach) <= walk(g, seat, lambda gg, c: R.cell_of(gg.state, c.args[0]) if c.verb == "move" else None,
                                    R.cell_of(g.state, g.state.players[seat].pos))  # fmt: skip
        hit = {
            R.cell_of(g.state, c.args[0])
            for c in g.legal_commands(seat)
            if c.verb in ("unlock", "subdue", "disable")
        }
        assert set(h.targets) == hit


def test_nobody_to_act_gets_no_hints() -> None:
    g = engine.new_game("escape", seed=1)
    waiting = g.seats_to_act()
    for seat in set(g.ruleset.seats) - waiting:
        assert g.hints(seat).reach == ()


def test_reach_and_targets_are_drawn_distinctly_and_in_the_legend() -> None:
    import io

    from PIL import Image

    g, seat = positions("escape", 1)[0]
    h = g.hints(seat)
    base = g.scene()
    from dataclasses import replace

    scene = replace(base, highlights=h.reach, targets=h.targets or h.reach[:1])
    lay = layout(scene)
    im = Image.open(io.BytesIO(render(scene))).convert("RGB")
    legend = {c for c, _ in (*scene.panel.legend,)}
    assert T.HIGHLIGHT not in legend  # the renderer adds its own entries
    texts = " ".join(i.text for i in lay.panel.items if hasattr(i, "text"))
    assert "can move here" in texts and "can hit" in texts

    def colours_in(cell: Cell) -> set[tuple[int, int, int]]:
        x0, y0, x1, y1 = lay.cell_box(cell)
        return {c for _n, c in im.crop((x0, y0, x1, y1)).getcolors(10_000) or []}

    lime = tuple(int(T.HIGHLIGHT[i : i + 2], 16) for i in (1, 3, 5))
    magenta = tuple(int(T.TARGET[i : i + 2], 16) for i in (1, 3, 5))
    reach_only = [c for c in h.reach if c not in scene.targets]
    assert reach_only and all(lime in colours_in(c) for c in reach_only)
    assert all(magenta in colours_in(c) for c in scene.targets)


@pytest.mark.parametrize(
    ("ruleset", "kw", "pattern"),
    [("escape", {}, "turn 1/"), ("skirm", {}, "turn 1/4"), ("heist", {"seats": SEATS4}, "round 1 · ")],
)
def test_turn_label_says_the_turn(ruleset: str, kw: dict[str, object], pattern: str) -> None:
    g = engine.new_game(ruleset, seed=2, **kw)  # type: ignore[arg-type]
    assert g.turn_label() in ("setup", "deployment", "round 0 · plan")
    rnd = random.Random(2)
    for _ in range(400):
        seats = sorted(g.seats_to_act())
        if not seats or g.outcome is not None or pattern in g.turn_label():
            break
        g.apply(seats[0], rnd.choice(g.legal_commands(seats[0])).text)
    assert pattern in g.turn_label()


def test_show_moves_image_marks_reach_and_targets_off_the_event_loop() -> None:
    import asyncio
    import io

    from PIL import Image

    from bot.render import moves_png, moves_scene

    g, seat = positions("escape", 1)[0]
    scene, hints = moves_scene(g, seat)
    assert scene.highlights == hints.reach and scene.targets == hints.targets and hints.unit
    png, again = asyncio.run(moves_png(g, seat))
    assert again == hints and png is not None
    assert Image.open(io.BytesIO(png)).size == (layout(scene).width, layout(scene).height)


def test_a_character_still_to_enter_reaches_its_entry_squares_and_on() -> None:
    from engine.geometry.square import parse_cell

    for seed in range(30):
        g = engine.new_game("escape", seed=seed)
        rnd = random.Random(seed)
        for _ in range(300):
            seats = sorted(g.seats_to_act())
            if not seats or g.outcome is not None:
                break
            st = g.state
            if st.active and st.units[st.active].status == "reserve":
                h = g.hints(seats[0])
                entry = {
                    parse_cell(c.args[1], 20, 20) for c in g.legal_commands(seats[0]) if c.verb == "enter"
                }
                assert entry and entry <= set(h.reach) and len(h.reach) >= len(entry)
                return
            g.apply(seats[0], rnd.choice(g.legal_commands(seats[0])))
    raise AssertionError("no character waiting to enter was found")
