"""Escape Path rules with scripted dice, on an open test map (tests/escapepath_helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import IllegalCommand, NotYourTurn, RuleError
from engine.geometry.square import parse_cell
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath import policy as P
from tests.escapepath_helpers import (
    NE,
    SE,
    E,
    N,
    S,
    dice,
    game,
    place,
    scenario_on,
    st_of,
    swarm_turn,
)


@pytest.fixture(autouse=True)
def _open_map() -> Iterator[None]:
    with scenario_on():
        yield


# -- facing and movement -----------------------------------------------------------------------------
def test_step_costs_by_direction() -> None:
    assert [G.step_cost(N, d) for d in range(8)] == [1, 1, 1, 2, 2, 2, 1, 1]
    assert [G.step_cost(NE, d) for d in range(8)] == [1, 1, 1, 1, 2, 2, 2, 1]
    assert G.move_cost(N, N, E) == 1  # a forward step allows 90 degrees
    assert G.move_cost(N, N, SE) == 2  # 135 degrees: only as turn-then-step, which is then a backward step
    assert G.move_cost(N, S, S) == 2  # a backward step allows up to 180
    assert G.move_cost(N, E, E) == 1  # sideways, turning to face the way (turn first: then it is forward)
    assert G.turn_cost(N, E) == 1 and G.turn_cost(N, S) == 2 and G.turn_cost(N, NE) == 1


def test_moves_spend_action_points_and_turn() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    g.apply("team", "move ann e4 e")  # forward + 90 degrees: 1 AP
    f = st_of(g).figures["ann"]
    assert (f.pos, f.facing, f.ap) == ((4, 3), E, 2)
    g.apply("team", "move ann d4")  # now a backward step: 2 AP
    assert (f.pos, f.ap) == ((3, 3), 0)
    with pytest.raises(IllegalCommand, match="finished"):
        g.apply("team", "turn ann s")


def test_a_backward_step_cannot_be_afforded_with_one_ap() -> None:
    g = game()
    place(g, "ann", "e5", "n", ap=1)
    before = g.to_json()
    with pytest.raises(IllegalCommand):
        g.apply("team", "move ann e6")
    assert g.to_json() == before


def test_extra_words_after_a_move_are_named_as_such_not_as_a_step_it_cannot_afford() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    before = g.to_json()
    with pytest.raises(IllegalCommand) as refused:
        g.apply("team", "move ann e4 e and then some")
    assert "Too many words" in str(refused.value) and "AP" not in str(refused.value)
    assert "at most 3 words" in str(refused.value)
    assert g.to_json() == before


def test_figures_finish_before_the_next_starts() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    g.apply("team", "move ann e4")
    g.apply("team", "move bob b8")
    with pytest.raises(IllegalCommand, match="rule 2.3"):
        g.apply("team", "move ann e3")


def test_diagonal_between_two_blockers_is_shut() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "al1", "e4", "s")
    place(g, "al2", "f5", "w")
    texts = {c.text for c in g.legal_commands("team")}
    assert not any(t.startswith("move ann f4") for t in texts)
    place(g, "al2", None)
    assert "move ann f4" in {c.text for c in g.legal_commands("team")}


# -- sight and fire --------------------------------------------------------------------------------
def test_sight_is_180_and_arc_is_90_degrees() -> None:
    pos = (4, 4)
    assert G.in_sight_arc(pos, N, (0, 4)) and G.in_sight_arc(pos, N, (9, 0))
    assert not G.in_sight_arc(pos, N, (4, 5))
    assert (
        G.in_fire_arc(pos, N, (4, 0)) and G.in_fire_arc(pos, N, (1, 1)) and not G.in_fire_arc(pos, N, (0, 2))
    )
    assert (
        G.in_fire_arc(pos, NE, (8, 4 - 1))
        and G.in_fire_arc(pos, NE, (4, 0))
        and not G.in_fire_arc(pos, NE, (3, 0))
    )


def test_no_shot_at_the_square_in_front_and_figures_block_fire() -> None:
    g = game()
    place(g, "ann", "e6", "n")
    place(g, "al1", "e5", "s")
    place(g, "al2", "e3", "s")
    texts = {c.text for c in g.legal_commands("team")}
    assert "shoot ann al1" not in texts  # directly in front
    assert "shoot ann al2" not in texts  # behind al1
    assert "attack ann" in texts


# -- shooting ------------------------------------------------------------------------------------------
def test_a_roll_equal_to_the_range_hits() -> None:
    """Ruling: 3d6 equal to the range hits (the rulebook's example and its bomb rule)."""
    g = game()
    place(g, "ann", "e8", "n")
    place(g, "al1", "e2", "s")  # range 6
    dice(g, 2, 2, 2, 4)  # 6 = range: a hit; save 4 fails (fast bogies need 5)
    g.apply("team", "shoot ann al1")
    assert st_of(g).figures["al1"].status == "pool" and st_of(g).kills == 1


def test_a_roll_below_the_range_misses() -> None:
    g = game()
    place(g, "ann", "e8", "n")
    place(g, "al1", "e2", "s")
    dice(g, 1, 2, 2)
    g.apply("team", "shoot ann al1")
    assert st_of(g).figures["al1"].status == "board"


@pytest.mark.parametrize(("kind", "option", "die", "survives"),
                         [("alien", "off", 5, True), ("alien", "off", 4, False), ("zombie", "off", 4, True),
                          ("zombie", "off", 3, False), ("zombie", "on", 3, True), ("alien", "on", 4, False)])  # fmt: skip
def test_saves_fast_slow_and_the_new_bogie_save_rule(
    kind: str, option: str, die: int, survives: bool
) -> None:
    with scenario_on(kind=kind):
        g = game(new_save=option)
        bogie = "al1" if kind == "alien" else "zo1"
        place(g, "ann", "e8", "n")
        place(g, bogie, "e2", "s")
        dice(g, 6, 6, 6, die)
        g.apply("team", f"shoot ann {bogie}")
        assert (st_of(g).figures[bogie].status == "board") is survives


def test_free_turn_with_a_shot_only_onto_a_target_in_sight() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "al1", "h5", "w")  # to the side: seen, not in the arc
    place(g, "al2", "e8", "n")  # behind: not seen
    texts = {c.text for c in g.legal_commands("team")}
    assert "shoot ann al1 e" in texts and "shoot ann al1" not in texts
    assert not any(t.startswith("shoot ann al2") for t in texts)
    dice(g, 6, 6, 6, 1)
    g.apply("team", "shoot ann al1 e")
    f = st_of(g).figures["ann"]
    assert f.facing == E and f.ap == 2 and st_of(g).figures["al1"].status == "pool"


def test_free_retreat_shot() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "al1", "e2", "s")
    dice(g, 6, 6, 6, 1)
    g.apply("team", "retreat ann e6 al1")
    f = st_of(g).figures["ann"]
    assert f.pos == (4, 5) and f.facing == N and f.ap == 1
    assert st_of(g).figures["al1"].status == "pool"


# -- bombs ---------------------------------------------------------------------------------------------
def test_bomb_falls_short_and_kills_a_friend_next_to_where_it_lands() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "bob", "d6", "n")
    place(g, "al1", "e2", "s")  # range 7
    dice(g, 1, 2)  # 3: lands on e6, next to Bob
    g.apply("team", "bomb ann al1")
    st = st_of(g)
    assert st.figures["bob"].status == "dead" and st.figures["al1"].status == "board"
    assert (4, 5) in st.closed and (3, 4) in st.closed and len(st.closed) == 9
    assert st.figures["ann"].bombs == 1
    g.apply("team", "move cat c8")
    with pytest.raises(IllegalCommand, match="closed"):
        g.apply("team", "move cat d7")


def test_bomb_direct_hit_and_adjacent_bogies_save_as_against_a_gun() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "al1", "e4", "s")
    place(g, "al2", "f4", "s")
    place(g, "al3", "d4", "s")
    dice(g, 6, 6, 5, 1)  # 12 reaches; al2 saves on 5, al3 fails on 1 (order: squares around)
    g.apply("team", "bomb ann al1")
    st = st_of(g)
    assert st.figures["al1"].status == "pool"
    assert {st.figures["al2"].status, st.figures["al3"].status} == {"board", "pool"}


def test_bogies_in_a_blast_must_move_out_first_or_die() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "al1", "e4", "s")
    place(g, "al2", "f3", "s")
    place(g, "al3", "a1", "s")
    dice(g, 6, 6, 6)  # direct hit on al1; al2 saves (6)
    g.apply("team", "bomb ann al1")
    swarm_turn(g)
    st = st_of(g)
    assert st.trapped == ["al2"]
    with pytest.raises(IllegalCommand, match="blast"):
        g.apply("swarm", "move al3 a2")
    with pytest.raises(IllegalCommand, match="blast"):
        g.apply("swarm", "turn al2 n")
    with pytest.raises(IllegalCommand, match="closed"):
        g.apply("swarm", "move al2 e4")
    g.apply("swarm", "move al2 f2 n")
    assert st.trapped == []


def test_a_trapped_bogie_with_no_way_out_dies() -> None:
    with scenario_on(pool=8, cap=8):
        g = game()
        place(g, "ann", "e9", "n")
        place(g, "al1", "e4", "s")
        place(g, "al2", "d3", "s")
        for sq, b in (("c2", "al3"), ("c3", "al4"), ("c4", "al5"), ("d2", "al6"), ("e2", "al7")):
            place(g, b, sq, "e")
        dice(g, 6, 6, 6)  # direct hit on al1; al2 (d3) saves on 6
        g.apply("team", "bomb ann al1")
        assert st_of(g).figures["al2"].status == "board"
        swarm_turn(g)  # every square around d3 outside the blast is taken: al2 cannot get out
        st = st_of(g)
        assert "al2" not in st.trapped and st.figures["al2"].status == "pool"


# -- close combat: the five outcomes -----------------------------------------------------------------
def _duel(attacker_facing: str = "n", defender_facing: str = "s"):  # type: ignore[no-untyped-def]
    g = game()
    place(g, "ann", "e6", attacker_facing)
    place(g, "al1", "e5", defender_facing)
    return g


def test_melee_attacker_wins_and_is_carried_forward() -> None:
    g = _duel()
    dice(g, 5, 2)
    g.apply("team", "attack ann")
    st = st_of(g)
    assert (
        st.figures["al1"].status == "pool"
        and st.figures["ann"].pos == (4, 4)
        and st.figures["ann"].facing == N
    )


def test_melee_defender_facing_wins() -> None:
    g = _duel()
    dice(g, 2, 5)
    g.apply("team", "attack ann")
    assert st_of(g).figures["ann"].status == "dead" and st_of(g).figures["al1"].pos == (4, 4)


def test_melee_defender_not_facing_turns_and_attacks() -> None:
    g = _duel(defender_facing="e")
    dice(g, 2, 5, 6, 1)  # al1 higher but not facing: turns, attacks; then al1 6 vs Ann 1 wins
    g.apply("team", "attack ann")
    st = st_of(g)
    assert (
        st.figures["ann"].status == "dead"
        and st.figures["al1"].pos == (4, 5)
        and st.figures["al1"].facing == S
    )


def test_melee_tie_with_defender_facing_rerolls() -> None:
    g = _duel()
    dice(g, 3, 3, 4, 1)
    g.apply("team", "attack ann")
    assert st_of(g).figures["al1"].status == "pool"


def test_melee_tie_with_defender_not_facing_swaps_roles() -> None:
    g = _duel(defender_facing="w")
    dice(g, 3, 3, 2, 5)  # tie: al1 turns and attacks; then Ann (facing it) 5 beats al1 2: al1 is removed
    g.apply("team", "attack ann")
    st = st_of(g)
    assert st.figures["al1"].status == "pool" and st.figures["ann"].pos == (4, 5)


def test_no_diagonal_attack() -> None:
    g = game()
    place(g, "ann", "e6", "ne")
    place(g, "al1", "f5", "sw")
    assert "attack ann" not in {c.text for c in g.legal_commands("team")}


# -- panic shots ---------------------------------------------------------------------------------------
def _charge(policy: str = "ask"):  # type: ignore[no-untyped-def]
    g = game()
    g.apply("team", f"react panic {policy}")
    place(g, "ann", "e8", "n")
    place(g, "al1", "e4", "s")
    swarm_turn(g)
    g.apply("swarm", "move al1 e5")
    g.apply("swarm", "move al1 e6")
    g.apply("swarm", "move al1 e7")
    return g


def test_panic_shot_is_a_team_reaction() -> None:
    g = _charge()
    g.apply("swarm", "attack al1")
    d = g.awaiting()[0]
    assert d.kind == "reaction" and d.seats == {"team"} and [c.text for c in d.options] == ["panic", "hold"]
    with pytest.raises(NotYourTurn):
        g.apply("swarm", "end")
    dice(g, 4, 1)  # panic shot hits (4), save fails (1)
    g.apply("team", "panic")
    assert st_of(g).figures["al1"].status == "pool" and st_of(g).figures["ann"].status == "board"


def test_panic_shot_miss_then_close_combat() -> None:
    g = _charge()
    g.apply("swarm", "attack al1")
    dice(g, 3, 6, 1)  # miss (3); al1 6 vs Ann 1
    g.apply("team", "panic")
    assert st_of(g).figures["ann"].status == "dead"


def test_standing_answer_always_and_never() -> None:
    g = _charge("always")
    dice(g, 6, 1)
    g.apply("swarm", "attack al1")
    assert st_of(g).pending is None and st_of(g).figures["al1"].status == "pool"
    g = _charge("never")
    dice(g, 1, 6)  # straight to close combat: Ann (facing al1) 6 beats al1 1
    g.apply("swarm", "attack al1")
    assert st_of(g).figures["al1"].status == "pool" and st_of(g).figures["ann"].pos == (4, 7)


def test_no_panic_shot_when_already_adjacent_or_charging_from_behind() -> None:
    g = game()
    g.apply("team", "react panic always")
    place(g, "ann", "e8", "n")
    place(g, "al1", "e7", "s")  # i: adjacent at the start
    place(g, "al2", "h9", "w")  # ii: comes in along the back row, outside the arc
    place(g, "bob", "a9", "n")
    swarm_turn(g)
    dice(g, 6, 1)
    g.apply("swarm", "attack al1")  # no panic die: al1 6 vs Ann 1 -> Ann dies
    assert st_of(g).figures["ann"].status == "dead"


def test_only_one_panic_shot_per_character_per_turn() -> None:
    g = game()
    place(g, "ann", "e8", "n")
    place(g, "al1", "e5", "s")
    place(g, "al2", "c5", "s")
    swarm_turn(g)
    g.apply("swarm", "move al1 e6")
    g.apply("swarm", "move al1 e7")
    g.apply("swarm", "attack al1")
    dice(g, 1, 1, 6)  # panic misses; al1 1 vs Ann 6 (facing): al1 removed
    g.apply("team", "panic")
    assert st_of(g).figures["al1"].status == "pool"
    g.apply("swarm", "move al2 d6 se")
    g.apply("swarm", "move al2 e7 s")
    dice(g, 1, 6)
    g.apply("swarm", "attack al2")
    assert st_of(g).pending is None  # v: Ann already had hers


# -- voids ----------------------------------------------------------------------------------------------
VOIDS = ["E.........", "..........", "....~~~...", "..........", "....~.....", "..........", "..........",
         "..........", "1234.....X"]  # fmt: skip


def test_jumps_cost_what_walking_would_and_go_straight() -> None:
    with scenario_on(VOIDS, rules=["voids"]):
        g = game()
        place(g, "ann", "e6", "n")
        texts = {c.text for c in g.legal_commands("team")}
        assert "jump ann e4" in texts  # one void: 2 squares, 2 AP
        assert not any(t.startswith("move ann e5") for t in texts)
        g.apply("team", "jump ann e4")
        f = st_of(g).figures["ann"]
        assert f.pos == (4, 3) and f.ap == 1 and f.facing == N


def test_three_wide_gully_only_fast_bogies_jump() -> None:
    """Ruling: core AP (fast 4, slow 2) stand; a 3-square void needs 4 AP."""
    rows = ["E.........", "..........", "..........", "..........", ".~~~......", "..........", "..........",
            "..........", "1234.....X"]  # fmt: skip
    for kind, bogie, can in (("alien", "al1", True), ("zombie", "zo1", False)):
        with scenario_on(rows, rules=["voids"], kind=kind):
            g = game()
            place(g, bogie, "a5", "e")
            swarm_turn(g)
            assert ("jump " + bogie + " e5" in {c.text for c in g.legal_commands("swarm")}) is can
    with scenario_on(rows, rules=["voids"]):
        g = game()
        place(g, "ann", "a5", "e")
        assert "jump ann e5" not in {c.text for c in g.legal_commands("team")}  # characters have 3


# -- entries, cap, escapes, scoring ----------------------------------------------------------------------
def test_entries_only_after_bogies_in_play_finish_and_within_the_cap() -> None:
    with scenario_on(cap=2):
        g = game()
        place(g, "al1", "e3", "s")
        swarm_turn(g)
        g.apply("swarm", "enter al2 a1")
        with pytest.raises(IllegalCommand, match="rule 1.5"):
            g.apply("swarm", "move al1 e4")
        assert not any(c.verb == "enter" for c in g.legal_commands("swarm"))  # cap of 2 reached
        g.apply("swarm", "leave al2")
        assert st_of(g).figures["al2"].status == "pool"


def test_escape_scores_and_the_team_wins_at_its_target() -> None:
    with scenario_on(scoring={"escape": 1, "kill": 0, "objective": 0, "survivor": 0, "target": 1}):
        g = game()
        place(g, "ann", "j8", "s")
        g.apply("team", "move ann j9")
        g.apply("team", "escape ann")
        assert g.outcome is not None and g.outcome.winners == {"team"}
        assert st_of(g).figures["ann"].status == "escaped"


def test_refused_text_changes_nothing() -> None:
    g = game()
    before = g.to_json()
    for seat, text in [("swarm", "end"), ("team", "move ann z99"), ("team", "shoot ann"), ("team", "panic"),
                       ("team", "xyzzy"), ("team", "enter al1 a1"), ("team", "move al1 a2"),
                       ("swarm", "react panic always")]:  # fmt: skip
        with pytest.raises(RuleError):
            g.apply(seat, text)
    assert g.to_json() == before


def test_no_panic_shot_for_a_charge_from_behind() -> None:
    g = game()
    g.apply("team", "react panic always")
    place(g, "ann", "e5", "n")
    place(g, "al1", "e8", "n")
    swarm_turn(g)
    g.apply("swarm", "move al1 e7")
    g.apply("swarm", "move al1 e6")
    dice(g, 6, 1)  # no panic die is rolled: al1 6 vs Ann 1, and Ann (not facing it) loses outright
    g.apply("swarm", "attack al1")
    assert st_of(g).figures["ann"].status == "dead" and st_of(g).figures["al1"].pos == (4, 4)


# -- the game's own player -------------------------------------------------------------------------------
def _best(g, seat: str) -> str:  # type: ignore[no-untyped-def]
    options = g.legal_commands(seat)
    weights = P.bot_weights(g.state, seat, options)
    return str(options[weights.index(max(weights))].text)


def test_swarm_attacks_when_it_can_and_closes_in_outside_the_arc() -> None:
    g = game()
    place(g, "ann", "e8", "n")
    place(g, "al1", "e7", "s")
    swarm_turn(g)
    st_of(g).figures["al1"].ap = 1  # no point left to slip round to Ann's side first
    assert _best(g, "swarm") == "attack al1"
    st_of(g).figures["al1"].ap = 4  # with points to spare it flanks her: she does not face it there
    assert _best(g, "swarm") in ("move al1 d8 e", "move al1 f8 w")
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "al1", "a6", "e")  # beside Ann's arc, not in it
    swarm_turn(g)
    first = _best(g, "swarm")
    assert first.startswith("move al1"), first
    dest = first.split()[2]
    assert not G.in_fire_arc((4, 8), N, parse_cell(dest, 10, 9)), first  # it keeps out of Ann's arc


def test_team_does_not_bomb_when_a_short_throw_could_kill_a_friend() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "bob", "d7", "n")
    place(g, "al1", "e2", "s")
    options = [c for c in g.legal_commands("team") if c.text in ("bomb ann al1", "shoot ann al1")]
    scores = dict(zip([c.text for c in options], P.team_scores(g.state, options), strict=True))
    assert scores["shoot ann al1"] > scores["bomb ann al1"]


def test_hints_reach_every_square_the_points_left_allow() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    g.apply("team", "move ann e4")  # 2 AP left, facing n
    reach = set(g.hints("team").reach)
    assert (4, 1) in reach and (3, 1) in reach  # two steps forward / forward-diagonal
    assert (4, 0) not in reach  # three steps away
    assert (4, 4) in reach  # straight back: 2 AP
    assert (4, 5) in reach  # turning 90 degrees on the first step makes both steps sideways: 1 AP each
    assert (4, 6) not in reach


def test_a_scenario_may_let_the_swarm_move_first() -> None:
    with scenario_on(first="swarm"):
        g = game()
        assert [d.seats for d in g.awaiting()] == [{"swarm"}]
        g.apply("swarm", "end")
        assert st_of(g).side == "team" and st_of(g).turn == 1
        g.apply("team", "end")
        assert st_of(g).side == "swarm" and st_of(g).turn == 2


def test_escaped_characters_never_return() -> None:
    g = game()
    place(g, "ann", "j9", "n")
    g.apply("team", "escape ann")
    assert st_of(g).figures["ann"].status == "escaped" and st_of(g).escaped == 1
    with pytest.raises(IllegalCommand, match="escaped characters never return"):
        g.apply("team", "move ann j8")
