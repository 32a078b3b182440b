"""The heist's memoised walks (the policy's and the search evaluation's) give what a fresh walk gives, in
every position of real games: a memo key that missed something a walk depends on (a guard subdued, a
camera disabled, a tile revealed or removed, a lock opened) would hand a later position an earlier one's
answer."""

from __future__ import annotations

import pytest

from engine.game import new_game
from engine.ruleset import RULESETS
from engine.rulesets.heist import policy as P
from engine.rulesets.heist import rules as R
from engine.rulesets.heist import search as S


@pytest.mark.parametrize(
    ("heist", "seed"), [("the_black_box", 3), ("the_inclusion_job", 5), ("county_jail_the_bricks", 7)]
)
def test_memoised_walks_agree_with_fresh_ones_all_through_a_heist(heist: str, seed: int) -> None:
    rs = RULESETS["heist"]
    game = new_game("heist", scenario=heist, seed=seed, seats={s: None for s in rs.seats[:4]})
    checked = changed = 0
    last_key = None
    for _ in range(600):
        seat = game.next_bot_seat()
        if seat is None or game.outcome is not None:
            break
        st = game.state
        key = (P.walk_key(st), S.walk_key(st), R.sealed_key(st))
        changed += key != last_key
        last_key = key
        outs = R.exits(st)
        places = sorted(n for n in st.tiles if R.alive(st, n))[::7]
        for n in places:
            assert P.distances(st, {n}) == P._spread(st, {n}, inward=True)
            assert P.distances(st, {n}, unsealed=True) == P._spread(st, {n}, inward=True, unsealed=True)
            assert P._shut(st, {n}) == P._shut_walk(st, {n})
        for p in R.in_play(st):
            if not p.pos:
                continue
            plan = set(p.plans) | outs
            assert P.walk_costs(st, {p.pos}) == P._spread(st, {p.pos}, inward=False)
            assert P.walk_costs(st, {p.pos}, plan) == P._spread(st, {p.pos}, inward=False, over=plan)
            card = "keycard" in p.loot
            assert S._walk(st, {p.pos}, plan, outward=True, start=1, keycard=card) == S._walk_now(
                st, {p.pos}, plan, outward=True, start=1, keycard=card, opened=frozenset()
            )
            shut = frozenset(R.sealed_key(st))  # walked through as if open, their opening paid apart
            assert S._walk(st, outs, None, outward=False, opened=shut) == S._walk_now(
                st, outs, None, outward=False, start=0, keycard=False, opened=shut
            )
        checked += 1
        game.apply(seat, game.bot_command(seat, level="easy"))
    assert checked > 80  # a heist's worth of positions (The Bricks, seed 7: 96)
    assert changed > 5  # the board and its hazards changed along the way, so stale answers would show


def test_opening_a_keycard_door_changes_what_the_memoised_walks_answer() -> None:
    # The Black Box's Architect waits behind keycard door b7: opened (the mark taken off, as the rules do),
    # the memoised answers must be the open board's, not the ones worked out while it was shut.
    rs = RULESETS["heist"]
    game = new_game("heist", scenario="the_black_box", seed=1, seats={s: None for s in rs.seats[:4]})
    st = game.state
    doors = [n for n, t in st.tiles.items() if "keycard_door" in t.marks]
    inside = {npc.pos for npc in st.npcs}
    shut_before = P._shut(st, inside)
    walk_before = P.distances(st, inside, unsealed=True)
    search_before = S._walk(st, inside, None, outward=False)  # the search's walks stop at a shut door
    assert set(doors) & shut_before
    for n in doors:
        st.tiles[n].marks.remove("keycard_door")
    assert P._shut(st, inside) == P._shut_walk(st, inside) != shut_before
    assert P.distances(st, inside, unsealed=True) == P._spread(st, inside, inward=True, unsealed=True)
    assert P.distances(st, inside, unsealed=True) != walk_before
    fresh = S._walk_now(st, inside, None, outward=False, start=0, keycard=False, opened=frozenset())
    assert S._walk(st, inside, None, outward=False) == fresh != search_before


@pytest.mark.parametrize(
    ("heist", "seed"),
    [
        ("the_side_channel", 2),
        ("the_proving_grounds", 5),
        ("the_hospitality_job", 6),
        ("the_black_box", 8),
    ],
)
def test_memoised_goals_and_plan_steps_agree_with_fresh_ones_from_planning_to_the_escape(
    heist: str, seed: int
) -> None:
    # The search asks each character's goal (crew_goals) and its steps along its plan (plan_distances) at
    # nearly every command of every rollout; both are memoised on what they read. A key that missed
    # something (loot picked up, a plan laid, a door opened, the deck running low) would hand a later
    # position an earlier one's goals, and the game's players would walk to places already emptied.
    rs = RULESETS["heist"]
    game = new_game("heist", scenario=heist, seed=seed, seats={s: None for s in rs.seats[:4]})
    checked = 0
    phases: set[str] = set()
    answers: set[str] = set()
    for _ in range(1500):
        seat = game.next_bot_seat()
        if seat is None or game.outcome is not None:
            break
        st = game.state
        fresh = P.deal_goals(st)
        assert P.crew_goals(st) == fresh
        answers.add(repr(sorted((k, sorted(v)) for k, v in fresh.items())))
        for p in R.in_play(st):
            if p.pos and (goal := fresh.get(p.seat)):
                assert P.plan_distances(st, p, goal) == P.plan_steps(st, p, goal)
        phases.add(st.phase)
        checked += 1
        game.apply(seat, game.bot_command(seat, level="easy"))
    assert checked > 100
    assert {"plan", "action"} <= phases
    assert len(answers) > 5  # the goals changed along the way, so stale answers would show
