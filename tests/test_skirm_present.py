"""Skirm's views, board scene, text board, bot preferences and turn alternation."""

from __future__ import annotations

from engine import RULESETS, new_game
from engine.geometry.square import cell_name
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.state import DOWNED
from tests.test_skirm_rules import arena, sq, state


def test_views_hide_nothing_but_the_generator_and_agree_between_seats():
    game = arena({"captain": "e5", "gaunt": "e9"}, orders=(2, 1))
    v = game.view(None)
    assert v == game.view("player1") == game.view("player2")
    assert "rng" not in v and "seed" not in str(v.keys())
    units = {u["id"]: u for u in v["units"]}
    assert units["captain"]["pos"] == "e5" and units["captain"]["side"] == "player1"
    assert units["gaunt"]["state"] == "standing" and v["orders"] == {"player1": 2, "player2": 1}
    assert [o["pos"] for o in v["objectives"]] == ["f6", "g7", "d4", "i9"]
    from engine import canonical

    assert canonical.loads(canonical.dumps(v)) == v


def test_scene_shows_heights_walls_doors_units_with_state_rings_objectives_and_a_panel():
    game = arena({"captain": "e5", "gaunt": "e9", "gaunt2": "a1"}, states={"gaunt2": DOWNED}, orders=(2, 0))
    game.apply("player1", "activate captain")
    game.apply("player1", "move captain e6")
    sc = game.scene(None)
    assert sc.grid == "square" and (sc.width, sc.height) == (12, 12) and len(sc.tiles) == 144
    tiles = {t.cell: t for t in sc.tiles}
    assert (
        tiles[sq("i4")].mark.startswith("2") and tiles[sq("c3")].mark == "~" and tiles[sq("j6")].mark == "1/"
    )
    assert tiles[sq("i4")].fill != tiles[sq("h4")].fill
    styles = {e.style for e in sc.edges}
    assert {"wall", "strong_wall", "gate"} <= styles
    assert {e.style for e in sc.dynamic_edges} == {"door_closed"}
    tokens = {t.cell: t for t in sc.tokens if not t.small}
    assert tokens[sq("e6")].ring == "#ffe066"  # the active unit
    assert tokens[sq("a1")].ring == "#ff4d4d" and tokens[sq("e9")].ring == "#f0f0f0"
    assert sum(1 for t in sc.tokens if t.shape == "hex") == 4  # objectives
    assert any("TO left" in line and "MP" in line for line in sc.panel.lines)
    assert any("ACT 2/3" in u.detail for u in sc.panel.units)
    assert sc.arrows and sc.arrows[0].cells == (sq("e5"), sq("e6"))


def test_the_scene_renders():
    from renderer import render

    game = new_game("skirm", seed=4, seats={"player1": None, "player2": None})
    game.play_bots(limit=80)
    png = render(game.scene(None))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_text_board_shows_units_and_walls():
    game = arena({"captain": "e5", "gaunt": "e9"})
    board = game.text_board(None)
    assert "High walls:" in board and "Doors: b6|c6 closed" in board
    line5 = next(line for line in board.splitlines() if line.startswith(" 5"))
    assert R.unit_labels(state(game))["captain"] in line5


def test_turns_alternate_and_a_side_with_nobody_ready_passes():
    game = arena({"captain": "a1", "trooper": "b1", "gaunt": "l12"})
    game.apply("player1", "activate captain")
    game.apply("player1", "end")
    assert game.awaiting()[0].seats == {"player2"}
    game.apply("player2", "activate gaunt")
    game.apply("player2", "end")
    assert game.awaiting()[0].seats == {"player1"}  # player2 has nobody Ready: player1 goes on
    game.apply("player1", "activate trooper")
    assert game.awaiting()[0].default.text == "end"


def test_the_bot_heads_for_objectives_and_prefers_attacks():
    rs = RULESETS["skirm"]
    game = arena({"trooper": "d1", "gaunt": "l12"})
    game.apply("player1", "activate trooper")
    opts = game.legal_commands("player1")
    weights = rs.bot_weights(state(game), "player1", opts)
    by = {c.text: w for c, w in zip(opts, weights, strict=True)}
    assert by["move trooper d3"] > by["move trooper a1"]
    game = arena({"trooper": "e5", "gaunt": "e9"})
    game.apply("player1", "activate trooper")
    opts = game.legal_commands("player1")
    weights = rs.bot_weights(state(game), "player1", opts)
    best = max(zip(weights, [c.text for c in opts], strict=True))
    assert best[1].startswith("shoot")


def test_bot_games_finish_and_score():
    for seed in range(2):
        game = new_game("skirm", seed=seed, seats={"player1": None, "player2": None}, scenario="heist")
        game.play_bots()
        assert game.outcome is not None
        assert cell_name((0, 0)) == "a1"


def test_the_board_is_posted_once_both_squads_are_deployed():
    game = new_game("skirm", seed=1, seats={"player1": None, "player2": None})
    deploys = []
    while game.state.phase in ("zone", "deploy") and len(deploys) < 40:  # type: ignore[attr-defined]
        seat = game.next_bot_seat()
        assert seat is not None
        deploys += [e for e in game.apply(seat, game.bot_command(seat)) if e.kind == "deploy"]
    # Each placement edits the turn message; the last one, with every unit on the board, posts the board.
    assert len(deploys) == sum(1 for u in game.state.units.values() if u.pos)  # type: ignore[attr-defined]
    assert [e.board for e in deploys] == [False] * (len(deploys) - 1) + [True]
