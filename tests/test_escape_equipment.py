"""ESCAPE equipment: one behaviour test (at least) per item of the equipment list, with scripted dice."""

from __future__ import annotations

import pytest

from engine.ai.random_policy import choose_command
from engine.errors import IllegalCommand
from engine.rulesets.escape.content import items
from engine.rulesets.escape.rules import left, stat
from tests.escape_helpers import arena, equip, finish_turn, lay, said, sq, state

MVT, CBT, INT = 0, 1, 2


def cmds(game, seat):
    return {c.text for c in game.legal_commands(seat)}


def no_dodges(game, seat):
    """Answer 'no-dodge' for every dodge question the seat gets now."""
    while game.awaiting() and game.awaiting()[0].kind == "reaction" and game.awaiting()[0].seats == {seat}:
        game.apply(seat, "no-dodge")


def test_the_equipment_list_holds_eight_token_kinds_besides_the_crate():
    assert set(items()) == {"shield", "datadisk", "drugs", "nitro", "em", "gas", "medkit", "radio"}


def test_item_improvised_shield_is_discarded_for_a_free_dodge():
    game = arena({"mamushi": "i3", "ashton": "j3"}, side="isc", dice=[4, 5])
    st = state(game)
    tid = equip(game, "ashton", "shield")
    game.apply("isc", "attack mamushi ashton")
    assert cmds(game, "resistance") == {"dodge", "dodge shield", "no-dodge"}
    text = said(game.apply("resistance", "dodge shield"))
    assert "4+2 vs 5+3" in text and st.units["ashton"].damage == 0
    assert st.units["ashton"].used[CBT] == 0  # free: no Combat action spent
    assert tid not in st.tokens and st.units["ashton"].carrying is None


def test_item_improvised_shield_works_with_no_combat_action_left():
    game = arena({"mamushi": "i3", "jimmy": "j3"}, side="isc", dice=[1, 6])
    st = state(game)
    st.units["jimmy"].used[CBT] = 1
    equip(game, "jimmy", "shield")
    game.apply("isc", "attack mamushi jimmy")
    assert cmds(game, "resistance") == {"dodge shield", "no-dodge"}
    game.apply("resistance", "dodge shield")
    assert st.units["jimmy"].damage == 0


def test_item_crate_hit_costs_the_target_two_movement_for_the_turn():
    game = arena({"ashton": "i3", "mamushi": "l3", "ubume": "b2"}, dice=[2])
    st = state(game)
    lay(game, "crate", "i3", face_up=True)
    game.apply("resistance", "throw ashton mamushi")  # Range 3, Power 0
    text = said(game.apply("isc", "no-dodge"))
    assert "2+3 vs 2" in text and st.units["mamushi"].damage == 3
    assert stat(st, st.units["mamushi"], MVT) == 3  # 5 - 2
    game.apply("resistance", "end")
    game.apply("isc", "activate mamushi")
    for where in ("l2", "l1", "k1"):
        game.apply("isc", f"move mamushi {where}")
    with pytest.raises(IllegalCommand, match="no Movement actions left"):
        game.apply("isc", "move mamushi j1")
    game.apply("isc", "end")
    st.rng.script = [6, 1, 3, 4]
    finish_turn(game)
    assert stat(st, st.units["mamushi"], MVT) == 5  # the penalty lasted until the end of the turn


def test_item_crate_miss_gives_no_penalty():
    game = arena({"jimmy": "i3", "mamushi": "l3"}, dice=[1])
    st = state(game)
    lay(game, "crate", "i3", face_up=True)
    game.apply("resistance", "throw jimmy mamushi")
    game.apply("isc", "no-dodge")  # 1+1 vs 2: no damage
    assert stat(st, st.units["mamushi"], MVT) == 5


def test_item_datadisk_gives_the_isc_one_extra_action_of_its_choice():
    game = arena({"mamushi": "i3", "ashton": "j3", "mira": "b2"}, side="isc", dice=[1, 1, 1])
    st = state(game)
    tid = equip(game, "mamushi", "datadisk")
    game.apply("isc", "datadisk mamushi cbt")
    assert tid not in st.tokens and left(st, st.units["mamushi"], CBT) == 3
    for _ in range(3):
        game.apply("isc", "attack mamushi ashton")
        no_dodges(game, "resistance")
    assert st.units["mamushi"].used[CBT] == 3


def test_item_datadisk_is_only_usable_by_the_isc():
    game = arena({"ashton": "i3", "mamushi": "l3"})
    equip(game, "ashton", "datadisk")
    with pytest.raises(IllegalCommand, match="only be used by the I.S.C."):
        game.apply("resistance", "datadisk ashton mvt")
    assert not any(c.startswith("datadisk") for c in cmds(game, "resistance"))


def test_item_combat_drugs_give_one_extra_combat_action():
    game = arena({"jimmy": "i3", "oni": "j3"}, dice=[1, 1])
    st = state(game)
    equip(game, "jimmy", "drugs")
    game.apply("resistance", "attack jimmy oni")
    no_dodges(game, "isc")
    assert "attack jimmy oni" not in cmds(game, "resistance")
    game.apply("resistance", "drugs jimmy")
    game.apply("resistance", "attack jimmy oni")
    no_dodges(game, "isc")
    assert st.units["jimmy"].used[CBT] == 2 and st.units["jimmy"].carrying is None


def test_item_combat_drugs_work_for_the_isc_too():
    game = arena({"tengu": "i3", "ashton": "b2"}, side="isc")
    st = state(game)
    equip(game, "tengu", "drugs")
    game.apply("isc", "drugs tengu")
    assert left(st, st.units["tengu"], CBT) == 2


def test_item_nitro_vial_explodes_when_its_carrier_is_taken_out():
    game = arena(
        {"oni": "i3", "jimmy": "j3", "ashton": "k3", "ubume": "j4", "mira": "l3"}, side="isc", dice=[6]
    )
    st = state(game)
    tid = equip(game, "jimmy", "nitro")
    game.apply("isc", "attack oni jimmy")
    text = said(game.apply("resistance", "no-dodge"))  # 6+3-1 = 8: Jimmy (life 4) is out
    assert "Nitro vial explodes" in text
    assert st.units["ashton"].damage == 2 and st.units["ubume"].damage == 2
    assert st.units["oni"].damage == 1  # Armor (1)
    assert st.units["mira"].damage == 0  # two squares away
    assert tid not in st.tokens


def test_item_nitro_vial_does_nothing_while_its_carrier_stands():
    game = arena({"oni": "i3", "jimmy": "j3", "ashton": "k3"}, side="isc", dice=[1])
    st = state(game)
    tid = equip(game, "jimmy", "nitro")
    game.apply("isc", "attack oni jimmy")
    game.apply("resistance", "no-dodge")  # 1+3-1 = 3 of Jimmy's 4
    assert st.units["jimmy"].status == "board" and st.units["ashton"].damage == 0
    assert st.units["jimmy"].carrying == tid


def test_item_em_grenade_hits_everyone_around_a_free_square_and_costs_them_one_cbt():
    # Ashton (Cbt 3) throws at k3: Mamushi (k4) and Ubume (l3) are caught; 1+3+1 vs 2 = 3 damage each.
    game = arena({"ashton": "i3", "mamushi": "k4", "ubume": "l3", "oni": "m6"}, dice=[1])
    st = state(game)
    tid = equip(game, "ashton", "em")
    game.apply("resistance", "grenade ashton k3")
    no_dodges(game, "isc")
    assert st.units["mamushi"].damage == 3 and st.units["ubume"].damage == 3
    assert st.units["oni"].damage == 0
    assert stat(st, st.units["mamushi"], CBT) == 1 and stat(st, st.units["ubume"], CBT) == 1
    assert tid not in st.tokens and st.units["ashton"].used[CBT] == 1


def test_item_em_grenade_may_also_be_thrown_at_an_opposing_character():
    # Aimed at Mamushi (k3): Mamushi and Ubume next to him are caught; an ally's square is refused.
    game = arena({"ashton": "i3", "jimmy": "i5", "mamushi": "k3", "ubume": "l3"}, dice=[1])
    st = state(game)
    equip(game, "ashton", "em")
    assert "grenade ashton k3" in cmds(game, "resistance")
    with pytest.raises(IllegalCommand, match="is an ally"):
        game.apply("resistance", "grenade ashton i5")
    text = said(game.apply("resistance", "grenade ashton k3"))
    assert "Mamushi, Ubume in the blast" in text
    no_dodges(game, "isc")
    assert st.units["mamushi"].damage == 3 and st.units["ubume"].damage == 3


def test_item_em_grenade_cannot_be_aimed_at_a_scrambler_protected_character():
    game = arena({"ashton": "i3", "mamushi": "k3", "tengu": "k4"})
    equip(game, "ashton", "em")
    with pytest.raises(IllegalCommand, match="allied Scrambler"):
        game.apply("resistance", "grenade ashton k3")


def test_item_em_grenade_thrower_caught_in_its_own_blast_does_not_weaken_it_for_the_others():
    # Jimmy (Cbt 1) throws at j3, next to himself and Mamushi: 6+1+1 against each of them.
    game = arena({"jimmy": "i3", "mamushi": "j4", "ubume": "b2"}, dice=[6])
    st = state(game)
    equip(game, "jimmy", "em")
    game.apply("resistance", "grenade jimmy j3")
    assert game.awaiting()[0].seats == {"isc"}  # Mamushi may dodge; the active thrower may not
    text = said(game.apply("isc", "no-dodge"))
    assert "catches Mamushi: 6+1+1 vs 2 → 6 damage" in text
    assert "catches Jimmy: 6+1+1 vs 1 → 7 damage" in text
    assert st.units["jimmy"].status == "out" and st.units["mamushi"].status == "out"


def test_item_em_grenade_range_line_of_sight_and_faction():
    game = arena({"ashton": "i3", "mamushi": "m6"})
    equip(game, "ashton", "em")
    with pytest.raises(IllegalCommand, match="Range 3"):
        game.apply("resistance", "grenade ashton m3")
    with pytest.raises(IllegalCommand, match="line of sight"):
        game.apply("resistance", "grenade ashton g3")
    game2 = arena({"mamushi": "i3", "ashton": "m6"}, side="isc")
    equip(game2, "mamushi", "em")
    with pytest.raises(IllegalCommand, match="only be used by the Resistance"):
        game2.apply("isc", "grenade mamushi k3")


def test_item_gas_grenade_hits_everyone_around_a_free_square_and_costs_them_one_mvt():
    # Ubume (Cbt 2) throws at k3: Ashton (k4) takes 1+2+1-3 = 1, Jimmy (l3) takes 1+2+1-1 = 3.
    game = arena({"ubume": "i3", "ashton": "k4", "jimmy": "l3"}, side="isc", dice=[1])
    st = state(game)
    equip(game, "ubume", "gas")
    game.apply("isc", "grenade ubume k3")
    no_dodges(game, "resistance")
    assert st.units["ashton"].damage == 1 and st.units["jimmy"].damage == 3
    assert stat(st, st.units["ashton"], MVT) == 3 and stat(st, st.units["jimmy"], MVT) == 4
    assert stat(st, st.units["ashton"], CBT) == 3  # Mvt only


def test_item_gas_grenade_is_only_usable_by_the_isc():
    game = arena({"ashton": "i3", "mamushi": "m6"})
    equip(game, "ashton", "gas")
    with pytest.raises(IllegalCommand, match="only be used by the I.S.C."):
        game.apply("resistance", "grenade ashton k3")


def test_item_medkit_discards_two_damage_points():
    game = arena({"ashton": "i3", "mamushi": "m6"})
    st = state(game)
    st.units["ashton"].damage = 3
    tid = equip(game, "ashton", "medkit")
    game.apply("resistance", "medkit ashton")
    assert st.units["ashton"].damage == 1 and tid not in st.tokens
    st.units["ashton"].damage = 1
    equip(game, "ashton", "medkit")
    game.apply("resistance", "medkit ashton")
    assert st.units["ashton"].damage == 0  # never below 0


def test_item_medkit_is_only_usable_by_the_resistance():
    game = arena({"mamushi": "i3", "ashton": "m6"}, side="isc")
    st = state(game)
    st.units["mamushi"].damage = 3
    equip(game, "mamushi", "medkit")
    with pytest.raises(IllegalCommand, match="only be used by the Resistance"):
        game.apply("isc", "medkit mamushi")


def test_item_radio_activates_an_ally_at_once_at_the_end_of_the_activation():
    game = arena({"ashton": "i3", "jimmy": "b2", "mira": "b4", "mamushi": "m6"})
    st = state(game)
    equip(game, "ashton", "radio")
    game.apply("resistance", "move ashton i4")
    game.apply("resistance", "radio ashton jimmy")
    assert st.units["ashton"].activated and st.active == ""
    assert game.awaiting()[0].seats == {"resistance"}  # not the I.S.C.'s turn
    with pytest.raises(IllegalCommand, match="Radio calls Jimmy"):
        game.apply("resistance", "activate mira")
    game.apply("resistance", "move jimmy b3")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"isc"}  # alternation goes on


def test_item_radio_cannot_call_an_ally_already_activated():
    game = arena({"ashton": "i3", "jimmy": "b2", "mamushi": "m6"})
    st = state(game)
    game.apply("resistance", "activate jimmy")
    game.apply("resistance", "end")
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    equip(game, "ashton", "radio")
    with pytest.raises(IllegalCommand, match="has not activated yet"):
        game.apply("resistance", "radio ashton jimmy")
    assert st.units["ashton"].carrying is not None


def test_an_item_carried_by_the_other_faction_cannot_be_used_but_can_be_carried():
    game = arena({"ashton": "i3", "mamushi": "m6"})
    st = state(game)
    tid = lay(game, "equipment", "i3", item="datadisk")
    game.apply("resistance", f"take ashton {tid}")
    assert st.units["ashton"].carrying == tid and st.tokens[tid].face_up
    assert sq("i3") == st.units["ashton"].pos


def test_the_easy_player_takes_combat_drugs_only_with_an_enemy_in_reach():
    # Far from every I.S.C. character, the drugs would be wasted: the easy player never takes them.
    far = arena({"jimmy": "c3", "oni": "k20"})
    equip(far, "jimmy", "drugs")
    far.apply("resistance", "activate jimmy")
    options = far.legal_commands("resistance")
    assert "drugs jimmy" in {c.text for c in options}
    picks = {
        choose_command(far.ruleset, far.state, "resistance", options, seed=k, ply=0).text for k in range(80)
    }
    assert "drugs jimmy" not in picks
    # Next to Oni, they are one more attack: now it does take them sometimes.
    near = arena({"jimmy": "i3", "oni": "j3"})
    equip(near, "jimmy", "drugs")
    near.apply("resistance", "activate jimmy")
    options = near.legal_commands("resistance")
    picks = {
        choose_command(near.ruleset, near.state, "resistance", options, seed=k, ply=0).text for k in range(80)
    }
    assert "drugs jimmy" in picks
