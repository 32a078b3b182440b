"""Skirm property tests: random legal play keeps every invariant, JSON round-trips, replays, refuses garbage."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.rulesets.skirm  # noqa: F401  (registers the ruleset)
from engine import RuleError, load_game, new_game
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.state import DOWNED, OUT, RESERVE, STANDING, SkirmState
from tests.random_play import assert_refused_text_changes_nothing, play_random_game

SQUADS = ["shock", "coven", "stonekin", "ankh", "swarm"]


def skirm_invariants(game) -> None:
    s: SkirmState = game.state
    cells = [u.pos for u in s.units.values() if u.state in (STANDING, DOWNED)]
    assert len(cells) == len(set(cells)), "two units on one square"
    for u in s.units.values():
        if u.state in (OUT, RESERVE):
            assert u.pos is None, f"{u.id} is {u.state} but on the map"
        else:
            assert u.pos is not None and not R.B.solid(s, u.pos)
        assert 0 <= u.act_used <= max(u.act, 0) or u.act_used == 0
        assert u.act_used <= R.ut(u).act
        if u.carrying:
            assert s.markers[u.carrying]["carrier"] == u.id
    for seat in R.SEATS:
        assert s.orders.get(seat, 0) >= 0
    if s.active:
        assert s.units[s.active].seat == s.next_side
    assert 0 <= s.turn <= R.TURNS


@pytest.mark.parametrize("scenario", ["seize", "heist", "sabotage"])
@pytest.mark.parametrize("seed", range(3))
def test_random_legal_play_keeps_every_invariant(scenario, seed):
    squads = {"player1": SQUADS[seed % 5], "player2": SQUADS[(seed + 2 + len(scenario)) % 5]}
    game = play_random_game(
        "skirm", seed, scenario=scenario, options={"squad": squads}, check=skirm_invariants, max_commands=4000
    )
    assert game.outcome is not None


@pytest.mark.parametrize("pair", [("shock", "swarm"), ("ankh", "stonekin"), ("coven", "coven")])
def test_every_faction_plays_a_whole_game(pair):
    game = play_random_game("skirm", 11, options={"squad": {"player1": pair[0], "player2": pair[1]}},
                            check=skirm_invariants, max_commands=4000)  # fmt: skip
    assert game.outcome is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=40), seed=st.integers(0, 3))
def test_garbage_text_is_refused_with_a_rule_error_and_changes_nothing(text, seed):
    game = new_game("skirm", seed=seed, seats={"player1": "1", "player2": "2"})
    assert_refused_text_changes_nothing(game, text)


def test_every_listed_command_applies_from_many_positions():
    game = new_game("skirm", seed=9, seats={"player1": "1", "player2": "2"})
    for step in range(300):
        if game.outcome:
            break
        seat = min(game.seats_to_act())
        legal = game.legal_commands(seat)
        snapshot = game.to_json()
        for cmd in legal[:: max(1, len(legal) // 12)]:
            trial = load_game(snapshot)
            trial.apply(seat, cmd.text)
        game.apply(seat, legal[(step * 7) % len(legal)].text)


def test_legal_commands_are_exactly_what_parse_accepts():
    from engine.geometry.square import cell_name

    cells = [cell_name((x, y)) for x in range(12) for y in range(12)]
    checked = 0
    for seed in (1, 2):
        game = new_game(
            "skirm",
            seed=seed,
            seats={"player1": "1", "player2": "2"},
            scenario=("seize", "sabotage")[seed - 1],
        )
        for step in range(400):
            if game.outcome:
                break
            seat = min(game.seats_to_act())
            legal = game.legal_commands(seat)
            st = game.state
            if st.active and step % 7 == 0 and not st.stack:
                u = st.units[st.ordered or st.active]
                candidates = [f"{v} {u.id} {c}" for v in ("move", "dash", "crawl", "leap") for c in cells]
                candidates += [f"{v} {u.id} {w} {t}" for v in ("shoot", "fight") for w in u.weapons
                               for t in [*st.units, *cells]]  # fmt: skip
                accepted = set()
                for text in candidates:
                    with contextlib.suppress(RuleError):
                        accepted.add(game.parse(seat, text).text)
                listed = {
                    c.text for c in legal if c.verb in ("move", "dash", "crawl", "leap", "shoot", "fight")
                }
                assert accepted == listed
                checked += 1
            game.apply(seat, legal[(step * 5) % len(legal)].text)
    assert checked > 5
