"""Escape Path random play (hypothesis): only RuleError for garbage, invariants after every command, JSON
round-trips, replay equality; plus the content loads and the policy picks only legal commands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from engine import Game, new_game
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath.content import scenarios
from engine.rulesets.escapepath.state import PathState
from tests.random_play import assert_refused_text_changes_nothing, play_random_game

SCENARIOS = list(scenarios())


def invariants(game: Game) -> None:
    st: PathState = game.state  # type: ignore[assignment]
    s = scenarios()[st.scenario]
    squares = [f.pos for f in st.figures.values() if f.status == "board"]
    assert all(p is not None for p in squares) and len(set(squares)) == len(squares), "one figure per square"
    for f in st.figures.values():
        if f.status == "board":
            assert f.pos not in s.walls and f.pos not in s.voids and s.on_board(f.pos)  # type: ignore[arg-type]
            assert 0 <= f.facing < 8
        else:
            assert f.pos is None
        assert f.bombs >= 0 and f.ap >= 0
    on_map = sum(1 for f in st.figures.values() if f.side == "swarm" and f.status == "board")
    assert on_map <= s.cap, "the cap of bogies in play holds"
    assert st.turn <= s.turns + 1
    if st.pending is not None:
        assert [d.kind for d in game.awaiting()] == ["reaction"]


@settings(max_examples=8, deadline=None)
@given(
    seed=hs.integers(0, 10**6), scenario=hs.sampled_from(SCENARIOS), new_save=hs.sampled_from(["off", "on"])
)
def test_random_games_keep_the_rules(seed: int, scenario: str, new_save: str) -> None:
    game = play_random_game(
        "escapepath",
        seed,
        scenario=scenario,
        options={"new_save": new_save},
        check=invariants,
        max_commands=400,
    )
    assert game.outcome is not None or len(game.log) == 400


@settings(max_examples=10, deadline=None)
@given(seed=hs.integers(0, 10**6), text=hs.text(max_size=30))
def test_garbage_text_is_refused_and_changes_nothing(seed: int, text: str) -> None:
    game = new_game("escapepath", seed=seed)
    assert_refused_text_changes_nothing(game, text)


def test_the_bot_plays_whole_games_with_legal_commands_only() -> None:
    for scenario in SCENARIOS:
        game = new_game("escapepath", scenario=scenario, seed=5, seats={"team": None, "swarm": None})
        game.play_bots(limit=3000)
        assert game.outcome is not None
        assert game.replay().to_json() == game.to_json()


def test_evaluate_is_between_zero_and_one_and_sums_to_one() -> None:
    game = new_game("escapepath", seed=3)
    rs = game.ruleset
    for _ in range(60):
        if game.outcome is not None:
            break
        seat = sorted(game.seats_to_act())[0]
        game.apply(seat, game.bot_command(seat))
        a, b = rs.evaluate(game.state, "team"), rs.evaluate(game.state, "swarm")
        assert 0.0 <= a <= 1.0 and abs(a + b - 1.0) < 1e-9


def test_scene_has_facing_on_every_token_and_shades_the_active_arc() -> None:
    game = new_game("escapepath", seed=2)
    game.apply("team", "move vance d3")
    scene = game.scene()
    assert scene.tokens and all(t.facing is not None for t in scene.tokens)
    assert scene.shaded and (4, 2) not in scene.shaded  # never the square straight in front
    assert all(G.in_fire_arc((3, 2), 2, c) for c in scene.shaded)  # Vance at d3 facing east
