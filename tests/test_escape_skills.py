"""ESCAPE character skills: one behaviour test (at least) per skill, with scripted dice."""

from __future__ import annotations

import pytest

from engine.errors import IllegalCommand
from engine.rulesets.escape.content import SKILLS, profiles
from engine.rulesets.escape.rules import left, stat
from tests.escape_helpers import arena, edge, equip, finish_turn, lay, said, sq, state

MVT, CBT, INT = 0, 1, 2


def cmds(game, seat):
    return {c.text for c in game.legal_commands(seat)}


def test_every_skill_is_on_some_card():
    on_cards = {s for p in profiles().values() for s in p.skills}
    assert on_cards == set(SKILLS)


def test_skill_seasoned_veteran_rerolls_a_combat_roll_once_per_turn():
    # Mira (Cbt 2) attacks Oni (Cbt 3, Armor 1): a 1 is re-rolled into a 5; the second attack's 1 stays.
    game = arena({"mira": "i3", "oni": "j3"}, dice=[1, 5, 1])
    st = state(game)
    game.apply("resistance", "attack mira oni")
    game.apply("isc", "no-dodge")
    assert game.awaiting()[0].seats == {"resistance"}
    text = said(game.apply("resistance", "reroll"))
    assert "Seasoned veteran, re-rolls a 1: 5" in text and st.units["oni"].damage == 3
    game.apply("resistance", "attack mira oni")
    text = said(game.apply("isc", "no-dodge"))  # no second re-roll this turn
    assert "1+2 vs 3" in text and st.units["oni"].damage == 3
    assert game.awaiting()[0].kind == "activation"


def test_skill_seasoned_veteran_sees_the_dodge_die_before_choosing_to_reroll():
    # Opposed roll: Mira's attack die (1) and Mamushi's dodge die (6) are both down before she is asked.
    game = arena({"mira": "i3", "mamushi": "j3"}, dice=[1, 3, 6])
    st = state(game)
    game.apply("resistance", "attack mira mamushi")
    game.apply("isc", "dodge")
    assert game.awaiting()[0].seats == {"resistance"} and st.rng.script == [6]
    assert "rolled a 1" in game.awaiting()[0].prompt  # 1+2 against the dodge's 3+2
    text = said(game.apply("resistance", "reroll"))
    assert "6+2 vs 3+2 (dodge) → 3 damage" in text


def test_skill_seasoned_veteran_is_not_offered_a_re_roll_that_cannot_change_anything():
    # Ruling 6: against a dodge of 6+2, even a re-rolled 6 (6+2) deals no damage: nobody is asked.
    game = arena({"mira": "i3", "mamushi": "j3"}, dice=[1, 6])
    st = state(game)
    game.apply("resistance", "attack mira mamushi")
    text = said(game.apply("isc", "dodge"))
    assert "1+2 vs 6+2 (dodge) → -5, no damage" in text and not st.units["mira"].veteran_used


def test_skill_seasoned_veteran_rerolls_a_dodge_but_not_a_hack():
    game = arena({"mira": "m3", "oni": "l3"}, side="isc", dice=[2, 1, 6])
    st = state(game)
    game.apply("isc", "attack oni mira")
    game.apply("resistance", "dodge")
    assert game.awaiting()[0].seats == {"resistance"}  # Mira may re-roll her dodge die (1)
    game.apply("resistance", "reroll")  # 2+3 vs 6+2: no damage
    assert st.units["mira"].damage == 0
    game.apply("isc", "end")
    st.rng.script = [1]
    text = said(game.apply("resistance", "hack mira m3|n3"))  # an Intellect roll: no re-roll offered
    assert "failure" in text and game.awaiting()[0].kind == "activation"


def test_skill_armor_reduces_each_damage_by_its_value():
    # Oni: Armor (1). Ashton hits for 6+3-3 = 6, Oni takes 5; Jimmy's 1-point hit is absorbed.
    game = arena({"ashton": "i3", "jimmy": "i4", "oni": "j3"}, dice=[6, 3])
    st = state(game)
    game.apply("resistance", "attack ashton oni")
    text = said(game.apply("isc", "no-dodge"))
    assert "5 damage (6 before Armor)" in text and st.units["oni"].damage == 5
    game.apply("resistance", "no-push")
    game.apply("resistance", "end")
    game.apply("isc", "activate oni")
    game.apply("isc", "end")
    game.apply("resistance", "attack jimmy oni")
    game.apply("isc", "no-dodge")  # 3+1-3 = 1, minus Armor: 0
    assert st.units["oni"].damage == 5


def test_skill_attraction_hacks_an_enemy_within_2_squares_and_pulls_it_next_to_the_user():
    game = arena({"kitsune": "h2", "ashton": "j2", "jimmy": "k5"}, side="isc", dice=[1])
    st = state(game)
    with pytest.raises(IllegalCommand, match="within 2 squares"):
        game.apply("isc", "hack kitsune jimmy")
    game.apply("isc", "hack kitsune ashton")  # Ashton (Int 1) has his Intellect action: asked first
    game.apply("resistance", "no-countermeasure")  # 1+2 = 3 vs Ashton's Int 1
    assert cmds(game, "isc") == {"pull i1", "pull i2", "pull i3"}
    with pytest.raises(IllegalCommand, match="free square next to the puller"):
        game.apply("isc", "pull j3")
    game.apply("isc", "pull i2")
    ashton = st.units["ashton"]
    assert ashton.pos == sq("i2") and ashton.used == [0, 0, 0]  # his Movement actions are untouched


def test_skill_attraction_fails_below_the_target_s_int_and_needs_a_line_of_sight():
    game = arena({"kitsune": "h2", "jimmy": "j2", "mira": "i2"}, side="isc", dice=[1])
    st = state(game)
    with pytest.raises(IllegalCommand, match="line of sight"):
        game.apply("isc", "hack kitsune jimmy")  # Mira stands in between
    st.units["mira"].pos = sq("i4")
    st.units["jimmy"].used[INT] = 2  # no counter-measure possible
    st.rng.script = [1]
    text = said(game.apply("isc", "hack kitsune jimmy"))  # 1+2 = 3 vs Int 2: success
    assert "success" in text
    # The hack's difficulty is the target's Int: with Kitsune's Int cut to 0 (a penalty; one extra action
    # left to hack with), a 1 falls short of Jimmy's 2 and nobody moves.
    game = arena({"kitsune": "h2", "jimmy": "j2"}, side="isc", dice=[1])
    st = state(game)
    st.units["jimmy"].used[INT] = 2
    st.units["kitsune"].mods[INT] = -2
    st.units["kitsune"].bonus[INT] = 1
    text = said(game.apply("isc", "hack kitsune jimmy"))
    assert "1+0 vs Int 2 → failure" in text and st.units["jimmy"].pos == sq("j2")


def test_skill_attraction_has_no_effect_when_no_periphery_square_can_be_reached():
    # Jimmy already stands next to Kitsune; the two squares next to both are taken.
    game = arena({"kitsune": "h1", "jimmy": "i1", "mamushi": "h2", "ubume": "i2"}, side="isc", dice=[6])
    st = state(game)
    st.units["jimmy"].used[INT] = 2
    text = said(game.apply("isc", "hack kitsune jimmy"))
    assert "Attraction has no effect" in text and st.units["jimmy"].pos == sq("i1")
    assert game.awaiting()[0].kind == "activation"


def test_skill_digging_arm_pushes_the_target_to_one_of_the_three_squares_behind_it():
    game = arena({"ashton": "i3", "ubume": "j3", "mamushi": "k3"}, dice=[2])
    st = state(game)
    game.apply("resistance", "attack ashton ubume")
    game.apply("isc", "no-dodge")  # 2+3-2 = 3
    assert cmds(game, "resistance") == {"push k2", "push k4", "no-push"}  # k3 is occupied
    with pytest.raises(IllegalCommand, match="far side"):
        game.apply("resistance", "push i4")
    game.apply("resistance", "push k4")
    assert st.units["ubume"].pos == sq("k4") and st.units["ubume"].used[MVT] == 0


def test_skill_digging_arm_push_is_optional_and_blocked_by_walls():
    game = arena({"ashton": "i3", "ubume": "j3"}, dice=[2])
    game.apply("resistance", "attack ashton ubume")
    game.apply("isc", "no-dodge")
    game.apply("resistance", "no-push")
    assert state(game).units["ubume"].pos == sq("j3")
    # Against the Hangar's east wall and its locked door, nowhere to go: no question asked.
    game = arena({"ashton": "l3", "ubume": "m3"}, dice=[2])
    game.apply("resistance", "attack ashton ubume")
    game.apply("isc", "no-dodge")
    assert game.awaiting()[0].kind == "activation"


def test_skill_scrambler_protects_side_adjacent_allies_from_combat_actions():
    game = arena({"ashton": "i3", "mamushi": "j3", "tengu": "k3", "ubume": "j4"}, dice=[3])
    st = state(game)
    st.units["ubume"].pos = sq("k4")  # diagonal to Tengu: not protected
    with pytest.raises(IllegalCommand, match="allied Scrambler"):
        game.apply("resistance", "attack ashton mamushi")
    assert "attack ashton mamushi" not in cmds(game, "resistance")
    st.units["ashton"].pos = sq("l4")
    game.apply("resistance", "attack ashton tengu")  # the Scrambler itself can be attacked
    game.apply("isc", "no-dodge")
    assert st.units["tengu"].damage == 5


def test_skill_anti_gravity_field_moves_to_any_periphery_square():
    game = arena({"mamushi": "i3", "ashton": "b2"}, side="isc")
    game.apply("isc", "move mamushi j4")  # diagonal
    assert state(game).units["mamushi"].pos == sq("j4")
    game2 = arena({"ubume": "i3", "ashton": "b2"}, side="isc")
    with pytest.raises(IllegalCommand, match="sharing a side"):
        game2.apply("isc", "move ubume j4")


def test_skill_anti_gravity_field_diagonal_cannot_slip_through_a_wall_corner():
    # From m5 to n6 both ways round the corner cross the Hangar east wall (m5|n5 and m6|n6).
    game = arena({"mamushi": "m5", "ashton": "b2"}, side="isc")
    with pytest.raises(IllegalCommand, match="wall or a closed door"):
        game.apply("isc", "move mamushi n6")


def test_skill_leadership_lends_the_leader_s_int_to_allies_in_its_periphery():
    # Ashton (Int 1) hacks the difficulty-5 door with a 3: 3+1 fails alone, 3+2 succeeds beside Mira.
    game = arena({"ashton": "m3", "mira": "l4", "mamushi": "h6"}, dice=[3])
    game.apply("resistance", "hack ashton m3|n3")
    assert state(game).doors[edge("m3", "n3")].open
    game = arena({"ashton": "m3", "mira": "k5", "mamushi": "h6"}, dice=[3])
    game.apply("resistance", "hack ashton m3|n3")
    assert not state(game).doors[edge("m3", "n3")].open


def test_skill_robot_draws_on_the_pilot_s_actions_during_its_activation():
    # Golem (Mvt 3) moves a 4th and 5th square with Kenji's Movement actions.
    game = arena({"golem": "h1", "kenji": "b2", "mamushi": "s18"})
    st = state(game)
    for where in ("h2", "h3", "h4", "h5", "h6"):
        game.apply("resistance", f"move golem {where}")
    assert st.units["golem"].used[MVT] == 3 and st.units["kenji"].used[MVT] == 2
    assert st.units["golem"].pos == sq("h6")


def test_skill_robot_without_its_pilot_on_the_board_has_only_its_own_actions():
    game = arena({"golem": "h1", "mamushi": "s18"})
    for where in ("h2", "h3", "h4"):
        game.apply("resistance", f"move golem {where}")
    with pytest.raises(IllegalCommand, match="no Movement actions left"):
        game.apply("resistance", "move golem h5")


def test_skill_pilot_loses_the_actions_its_robot_used():
    game = arena({"golem": "h1", "kenji": "b2", "mamushi": "s18"})
    st = state(game)
    for where in ("h2", "h3", "h4", "h5", "h6", "i6"):  # 3 of Golem's, all 3 of Kenji's
        game.apply("resistance", f"move golem {where}")
    game.apply("resistance", "end")
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    kenji = st.units["kenji"]
    assert left(st, kenji, MVT) == 0
    with pytest.raises(IllegalCommand, match="no Movement actions left"):
        game.apply("resistance", "move kenji b3")


def test_skill_burrowing_ignores_walls_and_doors_when_moving():
    game = arena({"vesna": "c2", "mamushi": "s18"})
    st = state(game)
    game.apply("resistance", "move vesna d2")  # through the wall c2|d2
    assert st.units["vesna"].pos == sq("d2")
    st.units["vesna"].pos = sq("g2")
    game.apply("resistance", "move vesna h2")  # through the closed door g2|h2
    assert st.units["vesna"].pos == sq("h2") and not st.doors[edge("g2", "h2")].open
    game2 = arena({"ashton": "c2", "mamushi": "s18"})
    with pytest.raises(IllegalCommand, match="wall"):
        game2.apply("resistance", "move ashton d2")


def test_skill_elusive_decides_to_dodge_after_seeing_the_attack_roll():
    # Rook (Cbt 2, Elusive) is attacked by Oni: no question before the roll; the die is not re-rolled.
    game = arena({"oni": "i3", "rook": "j3"}, side="isc", dice=[5, 6])
    st = state(game)
    game.apply("isc", "attack oni rook")
    assert st.rng.script == [6]  # the attack die (5) is already rolled
    assert game.awaiting()[0].seats == {"resistance"}
    assert "already rolled 5" in game.awaiting()[0].prompt
    text = said(game.apply("resistance", "dodge"))
    assert "5+3 vs 6+2" in text and st.units["rook"].damage == 0 and st.units["rook"].used[CBT] == 1


def test_skill_drill_destroys_an_adjacent_wall_on_4_to_6_once_per_turn():
    game = arena({"golem": "c2", "mamushi": "s18"}, dice=[4])
    st = state(game)
    text = said(game.apply("resistance", "drill golem c2|d2"))
    assert "the wall is destroyed" in text and st.units["golem"].used[CBT] == 1
    game.apply("resistance", "move golem d2")
    assert st.units["golem"].pos == sq("d2")
    with pytest.raises(IllegalCommand, match="one wall per turn"):
        game.apply("resistance", "drill golem c3|d3")


def test_skill_drill_breaks_on_a_1_and_does_nothing_on_2_or_3():
    game = arena({"kappa": "c2", "ashton": "s18"}, side="isc", dice=[2, 1])
    st = state(game)
    game.apply("isc", "drill kappa c2|d2")
    assert edge("c2", "d2") not in st.destroyed
    text = said(game.apply("isc", "drill kappa c2|d2"))
    assert "breaks down" in text and st.units["kappa"].drill_broken
    game.apply("isc", "end")
    st.rng.script = [1, 6, 3, 4]  # next turn: the I.S.C. wins the initiative, nothing happens
    finish_turn(game)
    game.apply("isc", "first isc")
    with pytest.raises(IllegalCommand, match="drill is broken"):
        game.apply("isc", "drill kappa c2|d2")


def test_skill_drill_cannot_break_an_indestructible_wall_or_thin_air():
    # The Central room's west wall (g9|h9) is marked indestructible on the map.
    game = arena({"golem": "h9", "mamushi": "s18"}, dice=[6])
    with pytest.raises(IllegalCommand, match="indestructible"):
        game.apply("resistance", "drill golem g9|h9")
    with pytest.raises(IllegalCommand, match="no wall"):
        game.apply("resistance", "drill golem h9|i9")


def test_skill_hypnosis_makes_the_dodge_use_int_instead_of_cbt():
    # Ubume attacks Ashton (Cbt 3, Int 1) who dodges: 4+2 vs 3+1 (Int) gives 2 damage.
    game = arena({"ubume": "i3", "ashton": "j3"}, side="isc", dice=[4, 3])
    st = state(game)
    game.apply("isc", "attack ubume ashton")
    text = said(game.apply("resistance", "dodge"))
    assert "Int under Hypnosis" in text and st.units["ashton"].damage == 2


def test_skill_hypnosis_is_not_forced_on_a_target_whose_int_is_higher():
    # Jimmy (Cbt 1, Int 2): forcing Int would help him, so his dodge stays on Cbt: 4+2 vs 3+1.
    game = arena({"ubume": "i3", "jimmy": "j3"}, side="isc", dice=[4, 3])
    st = state(game)
    game.apply("isc", "attack ubume jimmy")
    assert "Hypnosis" not in game.awaiting()[0].prompt
    text = said(game.apply("resistance", "dodge"))
    assert "4+2 vs 3+1 (dodge)" in text and st.units["jimmy"].damage == 2


def test_skill_hypnosis_dodge_is_not_a_combat_roll_for_a_seasoned_veteran():
    # Mira (Cbt 2, Int 2, Seasoned veteran) dodges Ubume on Int: no re-roll is offered for that die.
    game = arena({"ubume": "i3", "mira": "j3"}, side="isc", dice=[6, 1])
    st = state(game)
    game.apply("isc", "attack ubume mira")
    assert "Hypnosis: a dodge uses Int 2" in game.awaiting()[0].prompt
    text = said(game.apply("resistance", "dodge"))
    assert "6+2 vs 1+2 (dodge, Int under Hypnosis)" in text and st.units["mira"].damage == 5


def test_skill_electric_bludgeon_takes_one_from_every_stat_until_the_end_of_the_turn():
    game = arena({"oni": "i3", "mira": "j3", "ashton": "b2"}, side="isc", dice=[2])
    st = state(game)
    game.apply("isc", "attack oni mira")
    game.apply("resistance", "no-dodge")  # 2+3-2 = 3 damage
    mira = st.units["mira"]
    assert [stat(st, mira, k) for k in (MVT, CBT, INT)] == [3, 1, 1]
    game.apply("isc", "end")
    st.rng.script = [6, 1, 3, 4]
    finish_turn(game)
    assert [stat(st, mira, k) for k in (MVT, CBT, INT)] == [4, 2, 2]


def test_skill_otaku_hacks_a_locked_door_of_its_room_from_afar_and_unlocks_it():
    # Jimmy in the Hangar, far from its locked door m3|n3 (difficulty 5).
    game = arena({"jimmy": "i5", "mamushi": "s18"}, dice=[3])
    st = state(game)
    game.apply("resistance", "hack jimmy m3|n3")  # 3+2 = 5
    door = st.doors[edge("m3", "n3")]
    assert door.open and not door.locked
    # A door of another room is out of reach.
    with pytest.raises(IllegalCommand, match="must stand next to the door"):
        game.apply("resistance", "hack jimmy n5|o5")


def test_skill_otaku_next_to_the_door_unlocks_it_too_while_others_only_open_it():
    game = arena({"jimmy": "m3", "mamushi": "s18"}, dice=[3])
    game.apply("resistance", "hack jimmy m3|n3")
    door = state(game).doors[edge("m3", "n3")]
    assert door.open and not door.locked
    game = arena({"mira": "m3", "mamushi": "s18"}, dice=[3])
    game.apply("resistance", "hack mira m3|n3")
    door = state(game).doors[edge("m3", "n3")]
    assert door.open and door.locked  # the I.S.C.'s Encrypted key may lock it again


def test_skill_armless_cannot_pick_up_receive_throw_or_use_equipment():
    game = arena({"golem": "i3", "ashton": "j3", "mamushi": "l3"})
    st = state(game)
    tid = lay(game, "equipment", "i3", item="drugs", face_up=True)
    lay(game, "crate", "i3", face_up=True)
    with pytest.raises(IllegalCommand, match="Armless"):
        game.apply("resistance", f"take golem {tid}")
    with pytest.raises(IllegalCommand, match="Armless"):
        game.apply("resistance", "throw golem mamushi")
    obj = lay(game, "objective", "i3", value=2)
    game.apply("resistance", f"take golem {obj}")  # objective tokens are fine
    assert st.units["golem"].carrying == obj
    game.apply("resistance", "end")
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    equip(game, "ashton", "drugs")
    with pytest.raises(IllegalCommand, match="already carries|Armless"):
        game.apply("resistance", "give ashton golem")
    st.units["golem"].carrying = None
    with pytest.raises(IllegalCommand, match="Armless"):
        game.apply("resistance", "give ashton golem")


def test_skill_armless_cannot_use_carried_equipment():
    game = arena({"golem": "i3", "mamushi": "l3"})
    equip(game, "golem", "drugs")
    with pytest.raises(IllegalCommand, match="Armless"):
        game.apply("resistance", "drugs golem")


def test_skills_are_switched_off_for_the_isc_by_disconnection_only():
    from engine.rulesets.escape.rules import has

    game = arena({"oni": "i3", "golem": "j3"})
    st = state(game)
    st.event = 12
    assert not has(st, st.units["oni"], "armor") and has(st, st.units["golem"], "armor")
