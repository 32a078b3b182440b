"""Skirm, heist and Escape Path self-play fast paths: next_seat agrees with awaiting, picks are legal and replay."""

from __future__ import annotations

import pytest

from engine import RULESETS, new_game
from engine.ai.random_policy import Picker
from engine.ai.selfplay import fast_random_game


@pytest.mark.parametrize("ruleset", ["skirm", "heist", "escapepath"])
@pytest.mark.parametrize("seed", [1, 2])
def test_sampled_games_agree_with_awaiting_and_parse(ruleset: str, seed: int) -> None:
    rs = RULESETS[ruleset]
    game = new_game(ruleset, seed=seed, seats={s: None for s in rs.seats})
    picker = Picker(seed)
    for _ in range(400):
        if game.outcome is not None:
            break
        decisions = rs.awaiting(game.state)
        seat = rs.next_seat(game.state)
        assert seat == min(decisions[0].seats)
        command = rs.sample_command(game.state, seat, picker)
        assert command is not None
        legal = {c.text for c in rs.legal_commands(game.state, seat)}
        assert command.text in legal
        assert rs.parse(game.state, seat, command.text).text == command.text
        game.apply(seat, command.text)


@pytest.mark.parametrize("ruleset", ["skirm", "heist", "escapepath"])
def test_fast_random_games_finish_and_replay_from_their_text(ruleset: str) -> None:
    game = fast_random_game(ruleset, 31)
    assert game.outcome is not None
    assert game.replay().to_json() == game.to_json()


# Dark Realms (kept apart from the lists above so each ruleset's fast path is added without touching them).
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cardcombat_sampled_games_agree_with_awaiting_and_parse(seed: int) -> None:
    test_sampled_games_agree_with_awaiting_and_parse("cardcombat", seed)


def test_cardcombat_fast_random_games_finish_and_replay_from_their_text() -> None:
    test_fast_random_games_finish_and_replay_from_their_text("cardcombat")
