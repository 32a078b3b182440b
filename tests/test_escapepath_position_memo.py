"""Escape Path keeps its listings and weighings by position (``PathState.position_key``) for the search,
which meets the same positions over and over. In every position of real games the kept answers must be
the ones worked out afresh: a key that left out something the rules or the policy read (a figure's
action points, which a missed shot changes and nothing else does; a blast; an objective taken) would
hand a later position an earlier one's answer."""

from __future__ import annotations

import pytest

from engine.ai.random_policy import Picker
from engine.core import Command
from engine.game import new_game
from engine.ruleset import RULESETS, Ruleset
from engine.rulesets.escapepath import actions as A
from engine.rulesets.escapepath.content import scenarios
from engine.rulesets.escapepath.state import SWARM, TEAM, PathState


def _fresh_weighed(
    rs: Ruleset, st: PathState, seat: str, options: list[Command]
) -> tuple[list[Command], list[int] | None]:
    kept = rs.worthwhile(st, seat, options) or options
    return kept, rs.bot_weights(st, seat, kept)


def _variants(st: PathState) -> list[PathState]:
    """Copies of ``st`` that each differ from it in one thing the listing or the weighing reads."""
    out = []
    on_board = [f for f in st.figures.values() if f.status == "board" and f.pos is not None]
    for f in on_board:
        for ap in {0, 1, 2} - {f.ap}:
            v = st.copy()
            v.figures[f.id].ap = ap
            out.append(v)
    movers = [f for f in on_board if f.side == st.side]
    if movers:
        f = movers[0]
        assert f.pos is not None
        v = st.copy()  # a blast square next to it
        v.closed.append((f.pos[0] + 1, f.pos[1]))
        out.append(v)
        v = st.copy()  # finished for this side turn
        v.done.append(f.id)
        out.append(v)
        v = st.copy()
        v.figures[f.id].facing = (f.facing + 2) % 8
        out.append(v)
    for f in on_board:
        if f.side == TEAM:
            v = st.copy()  # its panic shot taken
            v.panicked.append(f.id)
            out.append(v)
            v = st.copy()
            v.figures[f.id].bombs = 0 if f.bombs else 1
            out.append(v)
        elif st.side == SWARM:
            v = st.copy()  # caught in a blast: must leave it first
            v.trapped.append(f.id)
            out.append(v)
    v = st.copy()
    v.policies["panic"] = "never" if v.policies.get("panic") != "never" else "always"
    out.append(v)
    s = scenarios()[st.scenario]
    for c in s.objectives:
        if c not in st.objectives:
            v = st.copy()  # an objective already taken
            v.objectives.append(c)
            out.append(v)
    return out


def _check(rs: Ruleset, st: PathState) -> None:
    for seat in rs.seats:
        kept = rs.legal_commands(st, seat)
        fresh = A.legal(st, seat)
        assert [(c.text, c.label) for c in kept] == [(c.text, c.label) for c in fresh]
        options = [c for c in kept if c.verb != "react"]
        if options:
            assert rs.weighed_options(st, seat, options) == _fresh_weighed(rs, st, seat, options)


@pytest.mark.parametrize("scenario", sorted(scenarios()))
def test_kept_listings_and_weighings_match_fresh_ones_all_through_a_game(scenario: str) -> None:
    rs = RULESETS["escapepath"]
    game = new_game("escapepath", scenario=scenario, seed=3, seats={s: None for s in rs.seats})
    picker = Picker(3)
    checked = 0
    for _ in range(300):
        if game.outcome is not None:
            break
        # The position first, then copies differing in one thing each: a key that left that thing out
        # would hand the copy the position's kept answer.
        for st in [game.state, *_variants(game.state)]:
            _check(rs, st)
        checked += 1
        seat = game.next_bot_seat()
        if seat is None:
            break
        # Half the moves by the game's own player, half at random, so that both sides' positions vary.
        options = [c for c in game.legal_commands(seat) if c.verb != "react"]
        command = (
            game.bot_command(seat, level="easy") if picker.below(2) else options[picker.below(len(options))]
        )
        game.apply(seat, command)
    assert checked > 30


def test_a_kept_answer_is_not_changed_by_what_a_caller_does_with_it() -> None:
    rs = RULESETS["escapepath"]
    game = new_game("escapepath", seed=5, seats={s: None for s in rs.seats})
    seat = game.next_bot_seat()
    assert seat is not None
    first = rs.legal_commands(game.state, seat)
    options, weights = rs.weighed_options(game.state, seat, first)
    first.clear()
    options.clear()
    assert weights is not None
    weights.clear()
    again = rs.legal_commands(game.state, seat)
    assert again and [c.text for c in again] == [c.text for c in A.legal(game.state, seat)]
    options, weights = rs.weighed_options(game.state, seat, again)
    assert options and weights and len(options) == len(weights)
