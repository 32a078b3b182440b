"""``Game.copy`` is independent for every ruleset: playing on the copy never changes the original
(the bot relies on it: readers keep the stored position while a move is applied to a copy)."""

from __future__ import annotations

import pytest

from engine import RULESETS, Game, SetupError, load_game, new_game
from engine.dice import Rng


def seated(ruleset_id: str, seed: int) -> Game:
    rs = RULESETS[ruleset_id]
    seats = {s: f"u{i}" for i, s in enumerate(rs.seats)}
    return new_game(ruleset_id, seats=seats, seed=seed)


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_playing_on_a_copy_leaves_the_original_alone(ruleset_id: str) -> None:
    game = seated(ruleset_id, seed=11)
    pick = Rng(seed=5)
    for _ in range(60):
        decisions = game.awaiting()
        if not decisions:
            break
        seat = sorted(decisions[0].seats)[0]
        options = game.legal_commands(seat)
        if not options:
            break
        before = game.to_json()
        copy = game.copy()
        command = options[pick.below(len(options))]
        copy.apply(seat, command.text)
        assert game.to_json() == before, f"{ruleset_id}: '{command.text}' on a copy changed the original"
        game = copy


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_a_game_reloaded_before_every_move_replays_the_same(ruleset_id: str) -> None:
    """The bot reloads a game from its snapshot whenever it is not in memory (a restart, the cache):
    play must go on exactly as in a game that never left memory, so the log replays to the same state."""
    pick = Rng(seed=9)
    for seed in (1, 2):
        game = seated(ruleset_id, seed=seed)
        for _ in range(150):
            decisions = game.awaiting()
            if not decisions:
                break
            seat = sorted(decisions[0].seats)[0]
            options = game.legal_commands(seat)
            if not options:
                break
            game = load_game(game.to_json())
            game.apply(seat, options[pick.below(len(options))].text)
        assert game.replay().to_json() == game.to_json()


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_a_game_stored_without_its_log_knows_how_far_it_went(ruleset_id: str) -> None:
    """The store keeps the log apart from the snapshot: a game loaded from the snapshot alone still counts
    its commands, so the game's own player decides the same whether or not the game stayed in memory."""
    from bot.store import LogLine, full_snapshot, state_snapshot

    game = new_game(ruleset_id, seats=dict.fromkeys(RULESETS[ruleset_id].seats), seed=4)  # all bot seats
    game.play_bots(limit=25)
    stored = load_game(state_snapshot(game))
    assert stored.plies == game.plies == len(game.log) and not stored.log
    seat = game.next_bot_seat()
    if seat is not None:
        assert stored.bot_command(seat) == game.bot_command(seat)
    with pytest.raises(SetupError):
        stored.replay()
    lines = [LogLine(i + 1, e.seat, None, e.text, [], 0.0) for i, e in enumerate(game.log)]
    whole = load_game(full_snapshot(state_snapshot(game), game.plies, lines))
    assert whole.to_json() == game.to_json() and whole.replay().to_json() == game.to_json()
