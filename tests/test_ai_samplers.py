"""ESCAPE, Skirm, heist and Escape Path self-play fast paths: next_seat agrees with awaiting, picks are legal and replay."""

from __future__ import annotations

import pytest

from engine import RULESETS, new_game
from engine.ai.random_policy import Picker
from engine.ai.selfplay import fast_random_game


@pytest.mark.parametrize("ruleset", ["escape", "skirm", "heist", "escapepath"])
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


@pytest.mark.parametrize("ruleset", ["escape", "skirm", "heist", "escapepath"])
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


class _Fixed:
    """A chooser that always answers ``k`` (and checks it was asked for a list that holds ``k``)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.asked: list[int] = []

    def below(self, n: int) -> int:
        self.asked.append(n)
        assert 0 <= self.k < n
        return self.k


@pytest.mark.parametrize("heist", ["the_startup_job", "the_side_channel", "county_jail_the_bricks"])
def test_heist_planning_sampler_picks_what_the_legal_list_holds_at_that_index(heist: str) -> None:
    # The planning fast path never builds the whole list; each draw must still land on the command the
    # legal list holds at that index, so random games stay uniform and the same as listing them.
    rs = RULESETS["heist"]
    game = new_game("heist", scenario=heist, seed=4, seats={s: None for s in rs.seats[:4]})
    picker = Picker(4)
    checked = 0
    while game.state.phase == "plan" and game.outcome is None:
        seat = rs.next_seat(game.state)
        assert seat is not None
        legal = rs.legal_commands(game.state, seat)
        for k in sorted({0, len(legal) // 2, len(legal) - 2, len(legal) - 1}):
            fixed = _Fixed(k)
            assert rs.sample_command(game.state, seat, fixed) == legal[k]
            assert fixed.asked == [len(legal)]
            checked += 1
        game.apply(seat, rs.sample_command(game.state, seat, picker) or legal[0])
    assert checked > 40


@pytest.mark.parametrize("seed", [1, 2])
def test_cardcombat_sampler_picks_what_the_legal_list_holds_at_that_index(seed: int) -> None:
    # Dark Realms' sampler builds only the move it picks; each draw must land on the command the legal
    # list holds at that index (moves are most of a hero's list, between the card's other options).
    rs = RULESETS["cardcombat"]
    game = new_game("cardcombat", seed=seed, seats={s: None for s in rs.seats[:3]})
    picker = Picker(seed)
    checked = moves = 0
    while game.outcome is None and len(game.log) < 300:
        seat = rs.next_seat(game.state)
        assert seat is not None
        legal = rs.legal_commands(game.state, seat)
        for k in sorted({0, len(legal) // 3, len(legal) // 2, len(legal) - 2, len(legal) - 1} - {-1}):
            fixed = _Fixed(k)
            picked = rs.sample_command(game.state, seat, fixed)
            assert picked == legal[k]
            assert fixed.asked == [len(legal)]
            moves += picked is not None and picked.verb == "move"
            checked += 1
        game.apply(seat, rs.sample_command(game.state, seat, picker) or legal[0])
    assert checked > 50
    assert moves > 10
