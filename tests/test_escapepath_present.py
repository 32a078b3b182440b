"""Escape Path on the board image and in text: facing pointers on every token, the active character's
arc shaded, the view, hints and the text board."""

from __future__ import annotations

import io

from PIL import Image

from engine import new_game
from engine.rulesets.escapepath.present import FLOOR
from renderer import layout, render
from renderer.facing import POINTER, SHADE
from renderer.paint import blend, rgb


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_facing_pointer_and_shaded_arc_are_drawn() -> None:
    game = new_game("escapepath", scenario="deck-nine", seed=1)
    game.apply("team", "move vance d3")  # Vance now active at d3, facing east
    scene = game.scene()
    im, lay = png(render(scene)), layout(scene)
    shaded_empty = next(c for c in scene.shaded if c not in {t.cell for t in scene.tokens})
    assert im.getpixel(lay.cell_centre(shaded_empty)) == blend(rgb(SHADE), rgb(FLOOR), 0.3)
    unshaded = (1, 7)  # b8, behind everyone
    assert unshaded not in scene.shaded and im.getpixel(lay.cell_centre(unshaded)) == rgb(FLOOR)
    spots = lay.token_spots()
    i = next(k for k, t in enumerate(scene.tokens) if t.cell == (3, 2))
    spot = spots[i]
    # The pointer sits on the token's east rim (Vance faces east), not on its west rim.
    assert im.getpixel((round(spot.x + spot.d * 0.55), spot.y)) == rgb(POINTER)
    assert im.getpixel((round(spot.x - spot.d * 0.55), spot.y)) != rgb(POINTER)


def test_view_hints_and_text_board() -> None:
    game = new_game("escapepath", scenario="brocks-bad-day", seed=1)
    view = game.view(None)
    assert view["target"] == 2 and view["side"] == "team" and "rng" not in view
    assert {u["facing"] for u in view["units"] if u["side"] == "team"} == {"e"}
    assert game.hints("team").unit == ""  # nobody active yet
    game.apply("team", "move brock b2")
    hints = game.hints("team")
    assert hints.unit == "brock" and (2, 1) in hints.reach
    board = game.text_board()
    assert "~~" in board and "B>" in board
    assert game.turn_label() == "turn 1/14"
    assert set(game.ruleset.seat_colours(game.state)) == {"team", "swarm"}


def test_help_has_a_topic_per_scenario_within_discord_limits() -> None:
    game = new_game("escapepath", scenario="deck-nine", seed=1)
    topics = game.ruleset.help_topics()
    assert "brocks-bad-day" in topics and "gully" in topics["brocks-bad-day"]
    assert len(topics) <= 25 and all(len(text) <= 2000 for text in topics.values())
