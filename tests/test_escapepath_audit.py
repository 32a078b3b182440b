"""A rule-by-rule audit of Escape Path against its core rules (v1.0), with scripted dice.

Each test names the rule it checks (book section, or the ruling in docs/rulings/escapepath.md where the
book is open); tests/test_escapepath_rules.py holds the first set, this file the items the audit added.
The test map is the open 10x9 board of tests/escapepath_helpers.py: entry point a1, escape point j9.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import IllegalCommand
from tests.escapepath_helpers import (
    E,
    N,
    S,
    dice,
    game,
    place,
    scenario_on,
    st_of,
    swarm_turn,
    texts,
)


@pytest.fixture(autouse=True)
def _open_map() -> Iterator[None]:
    with scenario_on():
        yield


# -- 1.2, 2.2: turns by side, action points ------------------------------------------------------------
def test_1_2_the_team_moves_first_then_the_swarm() -> None:
    g = game()
    assert [d.seats for d in g.awaiting()] == [{"team"}]
    g.apply("team", "end")
    assert st_of(g).side == "swarm" and st_of(g).turn == 1
    g.apply("swarm", "end")
    assert st_of(g).side == "team" and st_of(g).turn == 2


@pytest.mark.parametrize(("kind", "bogie", "left"), [("alien", "al1", 3), ("zombie", "zo1", 1)])
def test_2_2_and_3_3_fast_bogies_have_4_ap_slow_2_and_entering_costs_1(
    kind: str, bogie: str, left: int
) -> None:
    with scenario_on(kind=kind):
        g = game()
        assert st_of(g).figures["ann"].ap == 3
        swarm_turn(g)
        g.apply("swarm", f"enter {bogie} a1")
        f = st_of(g).figures[bogie]
        assert f.pos == (0, 0) and f.ap == left


def test_2_2_unused_points_are_lost() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    g.apply("team", "move ann e4")
    g.apply("team", "end")
    g.apply("swarm", "end")
    assert st_of(g).figures["ann"].ap == 3  # 2 left over were not carried: a fresh 3


# -- 3.2: turning while moving ---------------------------------------------------------------------------
def test_3_2_a_retreat_may_turn_180_but_a_sideways_step_only_90() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    t = texts(g)
    assert "move ann e6 s" in t  # backward, 2 AP, turning 180
    assert "move ann f5 e" in t  # sideways, 1 AP, turning 90
    assert "move ann f5 s" not in t  # sideways allows only 90 degrees (1 AP spent)
    g.apply("team", "move ann e6 s")
    f = st_of(g).figures["ann"]
    assert (f.pos, f.facing, f.ap) == ((4, 5), S, 1)


def test_3_2_turn_then_move_is_charged_as_the_step_after_the_turn() -> None:
    """Turning 90 degrees first makes a diagonal-backward step a diagonal-forward one: 1 AP (rule 3.2)."""
    g = game()
    place(g, "ann", "e5", "n")
    g.apply("team", "move ann f6 e")
    f = st_of(g).figures["ann"]
    assert (f.pos, f.facing, f.ap) == ((5, 5), E, 2)


# -- 3.3: entering, leaving, escaping ------------------------------------------------------------------
def test_3_3_bogies_leave_only_from_an_entry_point() -> None:
    g = game()
    place(g, "al1", "c3", "s")
    swarm_turn(g)
    with pytest.raises(IllegalCommand, match="rule 3.3"):
        g.apply("swarm", "leave al1")
    g.apply("swarm", "move al1 b2 nw")
    g.apply("swarm", "move al1 a1")
    g.apply("swarm", "leave al1")
    st = st_of(g)
    assert st.figures["al1"].status == "pool" and st.kills == 0


def test_3_3_characters_escape_only_from_the_escape_point() -> None:
    g = game()
    place(g, "ann", "i9", "e")
    with pytest.raises(IllegalCommand, match="escape point"):
        g.apply("team", "escape ann")
    g.apply("team", "move ann j9")
    g.apply("team", "escape ann")
    assert st_of(g).figures["ann"].status == "escaped" and st_of(g).escaped == 1


def test_1_5_a_bogie_killed_in_the_team_turn_may_re_enter_next_swarm_turn() -> None:
    g = game()
    place(g, "ann", "e8", "n")
    place(g, "al1", "e2", "s")
    dice(g, 6, 6, 6, 1)
    g.apply("team", "shoot ann al1")
    assert st_of(g).figures["al1"].status == "pool"
    swarm_turn(g)
    assert "enter al1 a1" in texts(g, "swarm")


def test_1_5_killed_characters_are_removed_for_good() -> None:
    g = game()
    place(g, "ann", "e6", "n")
    place(g, "al1", "e5", "s")
    dice(g, 1, 6)
    g.apply("team", "attack ann")
    assert st_of(g).figures["ann"].status == "dead"
    g.apply("team", "end")
    g.apply("swarm", "end")
    assert not any(t.split()[1:2] == ["ann"] for t in texts(g))


# -- 6.1: obstructions ---------------------------------------------------------------------------------
def test_6_1_one_blocker_beside_a_diagonal_does_not_shut_it_two_do() -> None:
    """Character 1 of the diagram: a single blocker (or the map edge) beside a diagonal leaves it open."""
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "bob", "f5", "n")  # a friend to the right
    assert "move ann f4" in texts(g)
    place(g, "cat", "e4", "n")  # and now one in front: the diagonal between them is shut
    assert not any(t.startswith("move ann f4") for t in texts(g))


def test_6_1_sight_and_fire_through_a_corner_between_two_blockers_are_shut() -> None:
    g = game()
    place(g, "ann", "e5", "ne")
    place(g, "al1", "g3", "sw")  # on ann's diagonal, two squares off: in her arc, through the corner e4/f5
    assert "shoot ann al1" in texts(g)
    place(g, "bob", "e4", "n")
    assert "shoot ann al1" in texts(g)  # one blocker beside the corner: still open
    place(g, "cat", "f5", "n")
    assert not any(t.startswith("shoot ann al1") for t in texts(g))  # both: shut


def test_6_1_figures_block_movement() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "al1", "e4", "s")
    with pytest.raises(IllegalCommand, match="occupied"):
        g.apply("team", "move ann e4")


# -- 7.1, 8.3: costs and limited bombs -----------------------------------------------------------------
def test_7_1_a_gun_costs_1_ap_a_bomb_2_and_bombs_run_out() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "al1", "e2", "s")
    dice(g, 1, 1, 1)  # a miss
    g.apply("team", "shoot ann al1")
    assert st_of(g).figures["ann"].ap == 2
    dice(g, 1, 1)  # 2: falls short on e7, nobody near
    g.apply("team", "bomb ann al1")
    assert st_of(g).figures["ann"].ap == 0 and st_of(g).figures["ann"].bombs == 1
    st_of(g).figures["bob"].bombs = 0
    place(g, "bob", "b9", "n")
    place(g, "al2", "b3", "s")
    with pytest.raises(IllegalCommand, match="limited"):
        g.apply("team", "bomb bob al2")


# -- 7.4: the free retreat shot ------------------------------------------------------------------------
def test_7_4_the_retreat_shot_fires_from_the_new_square_without_turning_and_only_with_the_gun() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "al1", "e1", "s")  # range 4 from e5, 5 from e6
    t = texts(g)
    assert "retreat ann e6 al1" in t
    with pytest.raises(IllegalCommand):
        g.apply("team", "retreat ann e6 al1 e")  # no turning with a free retreat shot
    with pytest.raises(IllegalCommand):
        g.apply("team", "retreat ann f5 al1")  # a sideways step is not a retreat
    dice(g, 1, 2, 1)  # 4: enough from e5, not from e6 (range 5)
    g.apply("team", "retreat ann e6 al1")
    st = st_of(g)
    assert st.figures["al1"].status == "board" and st.figures["ann"].pos == (4, 5)
    assert st.figures["ann"].facing == N and st.figures["ann"].ap == 1


# -- 7.5: the free turn with a shot ---------------------------------------------------------------------
def test_7_5_turn_after_the_shot_and_never_more_than_90_degrees() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "al1", "e2", "s")
    t = texts(g)
    assert {"shoot ann al1 e", "shoot ann al1 w", "shoot ann al1 ne"} <= t  # in the arc: turn after
    assert "shoot ann al1 se" not in t and "shoot ann al1 s" not in t  # over 90 degrees
    dice(g, 1, 1, 1)
    g.apply("team", "shoot ann al1 e")
    f = st_of(g).figures["ann"]
    assert f.facing == E and f.ap == 2


def test_7_5_no_turning_onto_a_target_hidden_behind_a_figure() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "bob", "f5", "n")
    place(g, "al1", "h5", "w")  # to the side, behind Bob: not in sight
    assert not any(t.startswith("shoot ann al1") for t in texts(g))
    place(g, "bob", "f6", "n")
    assert "shoot ann al1 e" in texts(g)


# -- 8.3: bombs ------------------------------------------------------------------------------------------
def test_8_3_blast_squares_open_again_after_the_next_swarm_turn() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "al1", "e4", "s")
    dice(g, 6, 6)
    g.apply("team", "bomb ann al1")
    assert (4, 3) in st_of(g).closed
    swarm_turn(g)
    assert (4, 3) in st_of(g).closed  # closed to bogies during the next swarm turn
    g.apply("swarm", "end")
    assert st_of(g).closed == []


def test_8_3_a_bogie_left_inside_when_the_swarm_ends_dies() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "al1", "e4", "s")
    place(g, "al2", "f3", "s")
    dice(g, 6, 6, 6)  # direct hit on al1; al2 saves on 6
    g.apply("team", "bomb ann al1")
    swarm_turn(g)
    assert st_of(g).trapped == ["al2"]
    g.apply("swarm", "end")
    st = st_of(g)
    assert st.figures["al2"].status == "pool" and st.kills == 2


def test_8_3_bogies_may_not_enter_at_a_closed_entry_point() -> None:
    g = game()
    place(g, "ann", "a9", "n")
    place(g, "al1", "a2", "s")
    dice(g, 6, 1)  # 7 = range: a direct hit on a2; the blast closes a1 (the entry point) too
    g.apply("team", "bomb ann al1")
    assert (0, 0) in st_of(g).closed
    swarm_turn(g)
    assert not any(c.verb == "enter" for c in g.legal_commands("swarm"))


def test_8_3_new_bogie_save_rule_also_covers_a_blast() -> None:
    with scenario_on(kind="zombie"):
        g = game(new_save="on")
        place(g, "ann", "e9", "n")
        place(g, "zo1", "e4", "s")
        place(g, "zo2", "f4", "s")
        dice(g, 6, 6, 3)  # zo1 hit directly; zo2 saves on 3 with the new rule
        g.apply("team", "bomb ann zo1")
        assert st_of(g).figures["zo2"].status == "board"


def test_8_3_a_bomb_at_a_bogie_next_to_the_thrower_kills_the_thrower_too() -> None:
    """Rule 8.3 as written: characters next to the blast die, the thrower included (2d6 always reaches 1)."""
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "al1", "f4", "s")  # diagonally ahead: in the arc, not the square in front
    assert "bomb ann al1" in texts(g)
    dice(g, 1, 1)
    g.apply("team", "bomb ann al1")
    st = st_of(g)
    assert st.figures["al1"].status == "pool" and st.figures["ann"].status == "dead"


def test_ruling_18_a_bogie_that_left_stays_off_until_the_next_swarm_turn() -> None:
    with scenario_on(pool=2, cap=2):
        g = game()
        place(g, "al1", "a1", "s")
        swarm_turn(g)
        g.apply("swarm", "leave al1")
        assert {c.args[:2] for c in g.legal_commands("swarm") if c.verb == "enter"} == {("al2", "a1")}
        with pytest.raises(IllegalCommand, match="finished"):
            g.apply("swarm", "enter al1 a1")


# -- 9.1: close combat -----------------------------------------------------------------------------------
def test_9_1_an_attack_costs_1_ap_and_the_winner_may_go_on() -> None:
    g = game()
    place(g, "ann", "e6", "n")
    place(g, "al1", "e5", "s")
    dice(g, 6, 1)
    g.apply("team", "attack ann")
    f = st_of(g).figures["ann"]
    assert f.pos == (4, 4) and f.ap == 2 and st_of(g).active == "ann"


def test_9_3_a_bogie_winning_after_the_roles_swap_is_carried_forward() -> None:
    g = game()
    place(g, "ann", "e6", "n")
    place(g, "al1", "e5", "w")  # not facing Ann
    dice(g, 2, 2, 5, 1)  # tie: al1 turns and attacks; al1 5 beats Ann 1 and moves onto e6
    g.apply("team", "attack ann")
    st = st_of(g)
    assert st.figures["ann"].status == "dead" and st.figures["al1"].pos == (4, 5)
    assert st.figures["al1"].facing == S


# -- panic shots -----------------------------------------------------------------------------------------
def test_panic_iii_no_shot_for_a_bogie_that_only_advances() -> None:
    g = game()
    place(g, "ann", "e8", "n")
    place(g, "al1", "e4", "s")
    swarm_turn(g)
    g.apply("swarm", "move al1 e5")
    g.apply("swarm", "move al1 e6")
    g.apply("swarm", "move al1 e7")
    g.apply("swarm", "end")
    st = st_of(g)
    assert st.pending is None and st.figures["ann"].status == "board"


def test_panic_ii_a_bogie_that_starts_in_the_arc_and_circles_round_still_draws_the_shot() -> None:
    """Ruling 19: the square a bogie starts its advance from counts as part of the advance."""
    g = game()
    place(g, "ann", "e8", "n")
    place(g, "al1", "c6", "e")  # in Ann's arc (on its edge), two squares off
    swarm_turn(g)
    g.apply("swarm", "move al1 c7 e")  # out of the arc
    g.apply("swarm", "move al1 d8 e")  # beside Ann
    g.apply("swarm", "attack al1")
    assert st_of(g).pending == {"bogie": "al1", "char": "ann"}


def test_panic_iv_one_shot_however_far_the_charge() -> None:
    g = game()
    g.apply("team", "react panic always")
    place(g, "ann", "e8", "n")
    place(g, "al1", "e4", "s")
    swarm_turn(g)
    for sq in ("e5", "e6", "e7"):
        g.apply("swarm", f"move al1 {sq}")
    dice(g, 3, 6, 1)  # one panic die (3, a miss), then close combat: al1 6 vs Ann 1
    g.apply("swarm", "attack al1")
    st = st_of(g)
    assert st.figures["ann"].status == "dead" and st.rng.script == []


def test_panic_vi_a_hit_bogie_still_saves() -> None:
    g = game()
    g.apply("team", "react panic always")
    place(g, "ann", "e8", "n")
    place(g, "al1", "e5", "s")
    swarm_turn(g)
    g.apply("swarm", "move al1 e6")
    g.apply("swarm", "move al1 e7")
    dice(g, 5, 6, 2, 6)  # hit (5), saved (6); close combat: al1 2 vs Ann 6 (facing it): al1 removed
    g.apply("swarm", "attack al1")
    st = st_of(g)
    assert st.figures["al1"].status == "pool" and st.figures["ann"].pos == (4, 7)


def test_panic_i_a_bogie_entering_next_to_a_character_was_not_adjacent_at_the_start() -> None:
    g = game()
    g.apply("team", "react panic always")
    place(g, "ann", "a2", "n")
    swarm_turn(g)
    g.apply("swarm", "enter al1 a1")  # straight into the square in front of Ann, facing her
    dice(g, 6, 1)  # panic shot hits, save fails
    g.apply("swarm", "attack al1")
    assert st_of(g).figures["al1"].status == "pool" and st_of(g).figures["ann"].status == "board"


# -- voids -----------------------------------------------------------------------------------------------
VOIDS = ["E.........", "..........", "....~~~...", "..........", "..........", "..........", "..........",
         "..........", "1234.....X"]  # fmt: skip


def test_voids_are_seen_and_fired_across_but_never_entered() -> None:
    with scenario_on(VOIDS, rules=["voids"]):
        g = game()
        place(g, "ann", "e5", "n")
        place(g, "al1", "e2", "s")  # across the void at e3
        t = texts(g)
        assert "shoot ann al1" in t
        place(g, "ann", "e4", "n")
        with pytest.raises(IllegalCommand, match="void"):
            g.apply("team", "move ann e3")


def test_voids_no_diagonal_jump_and_no_turning_while_jumping() -> None:
    with scenario_on(VOIDS, rules=["voids"]):
        g = game()
        place(g, "ann", "d4", "ne")
        t = texts(g)
        assert not any(x.startswith("jump ann") for x in t)  # the void e3 lies diagonally ahead
        place(g, "ann", "e4", "n")
        assert "jump ann e2" in texts(g)
        with pytest.raises(IllegalCommand):
            g.apply("team", "jump ann e2 e")
        g.apply("team", "jump ann e2")
        assert st_of(g).figures["ann"].facing == N


# -- the public face: refusals name the rule, narration reads as sentences, labels fit Discord ----------------
@pytest.mark.parametrize(
    ("text", "rule"),
    [("move ann e7", "rule 3.1"), ("move ann e6", "rule 6.1"), ("escape ann", "rule 3.3"),
     ("attack ann", "rule 9.1"), ("shoot ann al9", "rule 7.1"), ("shoot ann al2", "rule 7.5"),
     ("turn ann n", "already faces n")],
)  # fmt: skip
def test_refusals_name_the_rule(text: str, rule: str) -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "bob", "e6", "n")
    place(g, "al2", "e8", "n")  # behind Ann: not in sight
    before = g.to_json()
    with pytest.raises(IllegalCommand, match=rule):
        g.apply("team", text)
    assert g.to_json() == before


def test_naming_the_current_facing_is_the_same_command() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    g.apply("team", "move ann e4 n")
    assert st_of(g).figures["ann"].ap == 2 and g.log[-1].text == "move ann e4"


def test_narration_lines_start_with_a_capital() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    place(g, "al1", "e3", "s")
    swarm_turn(g)
    events = g.apply("swarm", "move al1 e4")
    assert events[0].text.startswith("Space alien al1 moves to e4")


def test_every_label_fits_a_discord_choice() -> None:
    g = game()
    place(g, "ann", "e9", "n")
    for b, sq in (("al1", "e2"), ("al2", "b4"), ("al3", "h4")):
        place(g, b, sq, "s")
    assert all(0 < len(c.label) <= 100 and len(c.text) <= 100 for c in g.legal_commands("team"))


def test_refusals_start_with_a_capital_and_say_why_no_bogie_may_enter() -> None:
    with scenario_on(cap=1):
        g = game()
        swarm_turn(g)
        g.apply("swarm", "enter al1 a1")
        g.apply("swarm", "move al1 b2 se")
        with pytest.raises(IllegalCommand, match=r"^No new bogie can enter now: 1 is in play.*rule 1\.5"):
            g.apply("swarm", "enter al2 a1")
        g.apply("swarm", "move al1 c3")
        g.apply("swarm", "end")
        g.apply("team", "end")
        g.apply("swarm", "move al1 c4")
        with pytest.raises(IllegalCommand, match=r"^Space alien al2 is not on the map"):
            g.apply("swarm", "move al2 a2")
