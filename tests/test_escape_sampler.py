"""The ESCAPE self-play fast path: the lazy command sampler, the seat hook and fast_random_game."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine import new_game
from engine.ai.random_policy import Picker
from engine.ai.selfplay import fast_random_game
from engine.dice import Rng
from engine.game import Game, LogEntry
from engine.ruleset import Ruleset

# Between them these line-ups field every character, so every skill meets the sampler.
LINEUPS: list[dict[str, Any]] = [
    {},
    {"resistance": ["vesna", "rook", "ashton", "jimmy", "golem"], "isc": ["jorogumo", "kappa", "mamushi", "kitsune", "oni"]},
    {"resistance": ["mira", "kenji", "golem", "rook", "vesna"], "isc": ["ubume", "tengu", "kappa", "jorogumo", "kitsune"]},
]  # fmt: skip


def play_sampled(scenario: str, seed: int, options: dict[str, Any]) -> Game:
    """Play with the sampler, checking every sampled command against legal_commands and parse."""
    game = new_game(
        "escape", scenario=scenario, seed=seed, seats={"resistance": None, "isc": None}, options=options
    )
    rs, st = game.ruleset, game.state
    picker = Picker(seed)
    while game.outcome is None and len(game.log) < 3000:
        seat = rs.next_seat(st)
        assert seat == min(game.awaiting()[0].seats)
        legal = game.legal_commands(seat)
        command = rs.sample_command(st, seat, picker)
        if command is None:
            assert legal == []
            break
        assert command in legal
        assert game.parse(seat, command.text) == command
        rs.execute(st, seat, command)
        game.log.append(LogEntry(seat, command.text))
    return game


@pytest.mark.parametrize("scenario", ["infiltration", "evasion", "datatheft"])
@pytest.mark.parametrize("lineup", range(len(LINEUPS)))
def test_every_sampled_command_is_legal_and_parses_to_itself(scenario: str, lineup: int) -> None:
    game = play_sampled(scenario, 40 + lineup, LINEUPS[lineup])
    assert len(game.log) > 100
    # Executing sampled commands directly gives the same game as applying their text.
    assert game.replay().to_json() == game.to_json()


def an_activation_choice(min_options: int) -> tuple[Game, str]:
    """A game stopped where a seat chooses which character to activate, with several options."""
    game = new_game("escape", seed=9, seats={"resistance": None, "isc": None})
    picker = Picker(9)
    rs = game.ruleset
    while game.outcome is None:
        seat = rs.next_seat(game.state)
        assert seat is not None
        decision = game.awaiting()[0]
        if (
            decision.kind == "activation"
            and not game.state.active
            and len(game.legal_commands(seat)) >= min_options
        ):
            return game, seat
        command = rs.sample_command(game.state, seat, picker)
        assert command is not None
        game.apply(seat, command)
    raise AssertionError("no activation choice found")


def test_sampler_is_uniform_over_the_legal_commands_and_changes_nothing() -> None:
    game, seat = an_activation_choice(8)
    before = game.to_json()
    legal = game.legal_commands(seat)
    picker = Picker(1)
    draws = 300 * len(legal)
    counts = Counter(game.ruleset.sample_command(game.state, seat, picker) for _ in range(draws))
    assert game.to_json() == before
    assert set(counts) == set(legal)
    for command in legal:
        assert 0.7 * 300 < counts[command] < 1.3 * 300, command


def test_sampler_answers_only_the_awaited_seat() -> None:
    game, seat = an_activation_choice(2)
    other = "isc" if seat == "resistance" else "resistance"
    assert game.ruleset.sample_command(game.state, other, Picker(2)) is None
    assert game.legal_commands(other) == []


def test_default_hooks_agree_with_escape_overrides() -> None:
    game, seat = an_activation_choice(2)
    rs = game.ruleset
    assert Ruleset.next_seat(rs, game.state) == rs.next_seat(game.state) == seat
    assert Ruleset.sample_command(rs, game.state, seat, Picker(3)) is None


def test_fast_random_game_with_the_sampler_finishes_and_replays() -> None:
    game = fast_random_game("escape", 21)
    assert game.outcome is not None
    assert game.replay().to_json() == game.to_json()
    assert fast_random_game("escape", 21).to_json() == game.to_json()


def test_fast_random_game_without_the_sampler_picks_from_legal_commands() -> None:
    game = fast_random_game("escape", 22, use_sampler=False)
    expected = new_game("escape", seed=22, seats={"resistance": None, "isc": None})
    picker = Rng(seed=22)
    while expected.outcome is None:
        seat = min(expected.awaiting()[0].seats)
        options = [c for c in expected.legal_commands(seat) if c.verb != "react"]
        expected.apply(seat, options[picker.below(len(options))])
    assert expected.outcome is not None
    assert expected.to_json() == game.to_json()


def test_picker_is_seeded_and_in_range() -> None:
    a, b = Picker(5), Picker(5)
    draws = [a.below(7) for _ in range(200)]
    assert draws == [b.below(7) for _ in range(200)]
    assert set(draws) == set(range(7))
    c, d = Picker(6), Picker(5)
    assert [c.below(1000) for _ in range(5)] != [d.below(1000) for _ in range(5)]
    with pytest.raises(ValueError):
        a.below(0)
