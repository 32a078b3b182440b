"""Dark Realms combat chapter with scripted dice: every damage type, defence, status and re-roll."""

from __future__ import annotations

from typing import Any

import pytest

from engine import new_game
from engine.core import Event
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.content import parse_action
from engine.rulesets.cardcombat.state import CCState


def arena(dice: list[int]) -> tuple[CCState, dict[str, Any], dict[str, Any]]:
    """A crypt game reduced to the warrior hero (b2) and one orc (c2), with scripted dice."""
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=1)
    st: CCState = game.state  # type: ignore[assignment]
    hero = R.hero_of(st, "hero1")
    assert hero is not None
    st.figures = {hero["id"]: hero}
    st.scenario["rules"] = []  # no scenario rule (not the crypt's own) in these worked examples
    hero["pos"] = [1, 1]
    hero.update(melee=4, ranged=4, hp=20, max_hp=20)
    orc = R.make_enemy(st, "orc", False, (2, 1), "orc1")
    orc.update(melee=4, ranged=4, hp=20, max_hp=20, defence=0)
    st.figures["orc1"] = orc
    st.phase = "turns"
    st.turn = {"fig": hero["id"], "queue": [], "pool": 3, "mods": {}, "allow": -1}
    st.rng.script = list(dice)
    return st, hero, orc


def hit(st: CCState, atk: dict[str, Any], tgt: dict[str, Any], text: str) -> list[Event]:
    events: list[Event] = []
    R.start_attack(st, atk, [tgt["id"]], parse_action(text, "test"), {}, events)
    return events


@pytest.mark.parametrize(("die", "damage"), [(1, 0), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)])
def test_stat_damage_follows_the_table(die: int, damage: int) -> None:
    st, hero, orc = arena([die])
    hit(st, orc, hero, "melee")  # a normal orc has no re-roll
    assert hero["hp"] == 20 - damage


def test_six_pierces_the_defence_roll_and_fixed_defence() -> None:
    st, hero, orc = arena([6])
    orc["defence_dice"], orc["defence"] = True, 2
    hit(st, hero, orc, "melee")
    st.turn["pool"] = 0
    assert orc["hp"] == 20 - 6
    assert st.rng.script == []


def test_defence_dice_faces() -> None:
    for roll, blocked in ((1, 0), (3, 3), (5, 5), (6, 5)):
        st, hero, orc = arena([5, roll])
        orc["defence_dice"] = True
        hit(st, hero, orc, "melee")  # die 5: 4 + 1 = 5 damage
        assert orc["hp"] == 20 - (5 - blocked), roll


def test_fixed_defence() -> None:
    st, hero, orc = arena([4])
    orc["defence"] = 2
    hit(st, hero, orc, "melee")
    assert orc["hp"] == 20 - 2


def test_fixed_damage_rolls_only_for_miss_and_pierce() -> None:
    st, hero, orc = arena([2])
    orc["defence"] = 1
    hit(st, hero, orc, "melee =3")
    assert orc["hp"] == 20 - 2
    st, hero, orc = arena([6])
    orc["defence"] = 1
    hit(st, hero, orc, "melee =3")
    assert orc["hp"] == 17  # pierced
    st, hero, orc = arena([1])
    st.turn["pool"] = 0
    hit(st, hero, orc, "melee =3")
    assert orc["hp"] == 20


def test_plus_damage_is_added_after_a_non_miss_only() -> None:
    st, hero, orc = arena([3])
    hit(st, hero, orc, "melee +2")
    assert orc["hp"] == 20 - (4 - 1 + 2)
    st, hero, orc = arena([1])
    st.turn["pool"] = 0
    hit(st, hero, orc, "melee +2")
    assert orc["hp"] == 20


def test_roll_only_damage_never_misses_nor_pierces() -> None:
    st, hero, orc = arena([1])
    hit(st, hero, orc, "melee d")
    assert orc["hp"] == 19
    st, hero, orc = arena([6, 3])
    orc["defence_dice"] = True
    hit(st, hero, orc, "melee d")
    assert orc["hp"] == 20 - 3  # 6 damage, defence die 3 still rolled


def test_wound_adds_one_unless_a_miss() -> None:
    st, hero, orc = arena([4])
    orc["st"]["wound"] = "heal"
    hit(st, hero, orc, "melee")
    assert orc["hp"] == 15
    st, hero, orc = arena([1])
    st.turn["pool"] = 0
    orc["st"]["wound"] = "heal"
    hit(st, hero, orc, "melee")
    assert orc["hp"] == 20


@pytest.mark.parametrize("status", ["stunned", "confused"])
def test_stunned_or_confused_target_rolls_twice_keeps_better(status: str) -> None:
    st, hero, orc = arena([1, 5])
    orc["st"][status] = "turn"
    said = " ".join(e.text for e in hit(st, hero, orc, "melee"))
    assert orc["hp"] == 15
    # The narration says why two dice were rolled for one (their icons show both).
    assert f"die 5 (the better of two dice: Orc is {status})" in said


def test_strengthened_target_and_confused_attacker_miss_on_two() -> None:
    st, hero, orc = arena([2])
    st.turn["pool"] = 0
    orc["st"]["strengthened"] = "round"
    hit(st, hero, orc, "melee")
    assert orc["hp"] == 20
    st, hero, orc = arena([2])
    orc["st"]["confused"] = "turn*"
    hit(st, orc, hero, "melee")
    assert hero["hp"] == 20


def test_card_miss_on_one_to_three() -> None:
    st, hero, orc = arena([3])
    st.turn["pool"] = 0
    hit(st, hero, orc, "melee +2 miss3")
    assert orc["hp"] == 20


def test_ranged_two_dice_player_chooses_range_and_damage() -> None:
    st, hero, orc = arena([4, 2])
    orc["pos"] = [5, 1]  # 4 away
    hit(st, hero, orc, "ranged")
    assert st.pending["stage"] == "split"
    texts = {c.text for c in A.legal(st, "hero1")}
    assert f"split {hero['id']} 4 2" in texts and f"split {hero['id']} 2 4" in texts
    A.play(st, "hero1", A.check(st, "hero1", f"split {hero['id']} 4 2"))
    assert orc["hp"] == 20 - 2  # range 4 reaches; damage die 2 is -2


def test_ranged_split_that_falls_short_has_no_effect() -> None:
    st, hero, orc = arena([4, 2])
    st.turn["pool"] = 0
    orc["pos"] = [5, 1]
    hit(st, hero, orc, "ranged wound")
    A.play(st, "hero1", A.check(st, "hero1", f"split {hero['id']} 2 4"))
    assert orc["hp"] == 20 and "wound" not in orc["st"]


def test_fixed_range_rolls_damage_only_and_range_bonus_ignores_it() -> None:
    st, hero, orc = arena([5])
    orc["pos"] = [4, 1]
    hit(st, hero, orc, "ranged r3")
    assert orc["hp"] == 15 and not st.pending
    st, hero, orc = arena([5])
    orc["pos"] = [5, 1]  # 4 away: a keen eye does not stretch a printed range
    events: list[Event] = []
    R.start_attack(st, hero, ["orc1"], parse_action("ranged r3", "t"), {"range": 2}, events)
    assert orc["hp"] == 20


def test_multi_target_each_resolved_alone() -> None:
    st, hero, orc = arena([4, 6])
    orc2 = R.make_enemy(st, "orc", False, (1, 2), "orc2")
    orc2.update(hp=20, max_hp=20, defence=1)
    st.figures["orc2"] = orc2
    orc["defence"] = 1
    events: list[Event] = []
    R.start_attack(st, hero, ["orc1", "orc2"], parse_action("melee t2", "t"), {}, events)
    assert orc["hp"] == 20 - 3 and orc2["hp"] == 20 - 6


def test_hero_stamina_reroll_once_per_round() -> None:
    st, hero, orc = arena([1, 4, 1])
    hit(st, hero, orc, "melee")
    assert st.pending["stage"] == "miss"
    A.play(st, "hero1", A.check(st, "hero1", f"reroll {hero['id']} stamina"))
    assert orc["hp"] == 16 and st.turn["pool"] == 2 and hero["reroll_used"]
    hit(st, hero, orc, "melee")  # a second miss this round: no stamina re-roll left, it just misses
    assert not st.pending and orc["hp"] == 16


def test_item_sells_a_reroll_for_stamina() -> None:
    st, hero, orc = arena([1, 5])
    hero["reroll_used"] = True
    hero["items"] = [{"id": "lucky_charm", "cd": 0, "active": False}]
    hit(st, hero, orc, "melee")
    A.play(st, "hero1", A.check(st, "hero1", f"reroll {hero['id']} lucky_charm"))
    assert orc["hp"] == 15 and hero["items"][0]["cd"] == 2 and st.turn["pool"] == 2


def test_captain_rerolls_a_miss_once_per_round_for_two_less() -> None:
    st, hero, orc = arena([1, 6, 1])
    orc["captain"] = True
    hit(st, orc, hero, "melee")
    assert hero["hp"] == 20 - (6 - 2)
    hit(st, orc, hero, "melee")
    assert hero["hp"] == 16  # already used this round


def test_poison_at_turn_start_and_heal_removes_it_for_two_points() -> None:
    st, hero, orc = arena([])
    hero["st"]["poison"] = "heal"
    events: list[Event] = []
    R.start_turn_statuses(st, hero, events)
    assert hero["hp"] == 19
    R.heal(st, hero, 3, events)
    assert "poison" not in hero["st"] and hero["hp"] == 20


def test_statuses_land_after_the_attack_even_without_damage() -> None:
    st, hero, orc = arena([2])
    orc["defence"] = 5
    hit(st, hero, orc, "melee paralyze")
    assert orc["hp"] == 20 and orc["st"]["paralyze"] == "turn"


def test_turn_statuses_last_to_the_end_of_the_next_turn() -> None:
    st, hero, orc = arena([])
    events: list[Event] = []
    R.give(st, orc, "disarm", events)
    R.start_turn_statuses(st, orc, events)
    assert R.has(orc, "disarm")
    R.end_turn_statuses(orc)
    assert not R.has(orc, "disarm")


def test_push_moves_the_target_away() -> None:
    st, hero, orc = arena([4])
    hit(st, hero, orc, "melee push2")
    assert R.pos(orc) == (4, 1)


def test_enemy_targets_marked_hero_first() -> None:
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None, "hero2": None}, seed=3)
    st: CCState = game.state  # type: ignore[assignment]
    orc = next(f for f in st.figures.values() if f["kind"] == "enemy")
    far = max(
        (f for f in st.figures.values() if f["kind"] == "hero"),
        key=lambda f: R.chebyshev(R.pos(f), R.pos(orc)),
    )
    far["st"]["mark"] = "round"
    dist = R.distance_map(st, orc, True)
    assert R.pick_targets(st, orc, 1, dist)[0] is far


def test_enemy_stats_match_the_observed_table() -> None:
    assert R.enemy_stats("orc", 2, False) == (2, 5, 4)
    assert R.enemy_stats("orc", 9, True) == (3, 13, 8)
    assert R.enemy_stats("ogre", 3, False) == (4, 6, 8)


def test_hero_stats_cap_attacks_at_five_at_level_one() -> None:
    s = R.hero_stats("dwarf", "warrior", 1)
    assert s == {"stamina": 7, "health": 12, "melee": 5, "ranged": 2}
