"""Dark Realms random play: only RuleError for garbage, invariants, JSON round-trips, replay equality."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as stx

from engine import Game, new_game
from engine.rulesets.cardcombat import rules as R
from tests.random_play import assert_refused_text_changes_nothing, play_random_game


def invariants(game: Game) -> None:
    st = game.state
    seen = set()
    for f in R.alive(st):  # type: ignore[arg-type]
        assert 0 < f["hp"] <= f["max_hp"]
        assert not R.is_wall(st, R.pos(f))  # type: ignore[arg-type]
        assert R.pos(f) not in seen, "two figures share a square"
        seen.add(R.pos(f))
    if st.phase == "turns" and st.turn.get("fig"):  # type: ignore[attr-defined]
        assert st.turn["pool"] >= 0  # type: ignore[attr-defined]
    for seat in game.seats_to_act():
        for c in game.legal_commands(seat):
            assert len(c.text) <= 100 and 0 < len(c.label) <= 100, c  # Discord choice limits
    view = game.view(None)
    if st.phase == "commit":  # type: ignore[attr-defined]
        assert all("my_commit" not in f for f in view["figures"]), "a spectator saw a commitment"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=stx.integers(0, 10_000), scenario=stx.sampled_from(["crypt", "orc_camp", "golem_forge", "ogre_den", "prisoner", "vault", "random"]),
       heroes=stx.integers(1, 4))  # fmt: skip
def test_random_play_keeps_invariants(seed: int, scenario: str, heroes: int) -> None:
    seats: dict[str, str | None] = {f"hero{i + 1}": None for i in range(heroes)}
    game = play_random_game(
        "cardcombat", seed, scenario=scenario, seats=seats, check=invariants, max_commands=800
    )
    assert game.outcome is not None or len(game.log) == 800


@pytest.mark.parametrize("text", ["commit", "commit warrior cleave cleave cleave", "move warrior z99", "attack x",
                                  "split warrior 9 9", "reroll", "end nobody", "loot loot"])  # fmt: skip
def test_garbage_is_refused_and_changes_nothing(text: str) -> None:
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None, "hero2": None}, seed=5)
    assert_refused_text_changes_nothing(game, text)
    while game.outcome is None and not game.state.turn.get("fig"):  # type: ignore[attr-defined]
        seat = sorted(game.seats_to_act())[0]
        game.apply(seat, game.bot_command(seat))
    assert_refused_text_changes_nothing(game, text)


def test_hidden_commitments_and_determinize() -> None:
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None, "hero2": None}, seed=2)
    first = game.legal_commands("hero1")[1]
    game.apply("hero1", first)
    v2 = game.view("hero2")
    assert all("my_commit" not in f for f in v2["figures"])
    assert any("my_commit" in f for f in game.view("hero1")["figures"])
    from engine.dice import Rng

    d = game.ruleset.determinize(game.state, "hero2", Rng(seed=9))
    assert d.rng.seed != game.state.rng.seed  # type: ignore[attr-defined]
    assert 0.0 <= game.ruleset.evaluate(game.state, "hero1") <= 1.0


def test_generator_is_seeded_and_complete() -> None:
    seats: dict[str, str | None] = {"hero1": None, "hero2": None}
    a = new_game("cardcombat", scenario="random", seats=seats, seed=11)
    b = new_game("cardcombat", scenario="random", seats=seats, seed=11)
    assert a.state.scenario == b.state.scenario  # type: ignore[attr-defined]
    s = a.state.scenario  # type: ignore[attr-defined]
    assert len(s["groups"]) == 3 and s["boss"] and s["reward"] and 1 <= len(s["rules"]) <= 3
    solo = new_game("cardcombat", scenario="random", seats={"hero1": None}, seed=11).state.scenario  # type: ignore[attr-defined]
    assert len(solo["groups"]) == 1 and solo["boss"]  # a lone hero meets one group and the big enemy


@pytest.mark.parametrize(
    "scenario", ["crypt", "orc_camp", "golem_forge", "ogre_den", "prisoner", "vault", "random", "adventure"]
)
def test_setup_places_every_figure_on_its_own_floor_square(scenario: str) -> None:
    for heroes in (1, 2, 3, 4):
        for seed in range(6):
            seats: dict[str, str | None] = {f"hero{i + 1}": None for i in range(heroes)}
            game = new_game("cardcombat", scenario=scenario, seats=seats, seed=seed)
            invariants(game)
            enemies = [f for f in game.state.figures.values() if f["kind"] == "enemy"]  # type: ignore[attr-defined]
            scen = game.state.scenario  # type: ignore[attr-defined]
            normals = int(max(0, heroes - scen.get("free_heroes", 0)) * scen.get("per_hero", 1.0))
            assert len(enemies) == len(scen["groups"]) * (1 + normals) + (1 if scen.get("boss") else 0)
