"""Dark Realms second rule audit: scripted checks of what the first audit (test_cardcombat_audit.py) left
wrong or open (the list is in docs/rulings/cardcombat.md, "Second audit")."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.core import Event
from engine.errors import IllegalCommand
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.content import enemies
from engine.rulesets.cardcombat.state import CCState
from tests.test_cardcombat_audit import TRAPPED, arena, attack, foe, play

CORRIDOR = [
    "##############",
    "#...^........#",
    "##############",
]


def hero_moves(st: CCState) -> list[str]:
    """The squares the hero's ``move`` commands offer now."""
    return [c.args[1] for c in A.legal(st, "hero1") if c.verb == "move"]


# -- enemies walk through a trap they cannot go around, in range or not ----------------------------------------
def test_an_enemy_out_of_range_walks_through_a_trap_it_cannot_go_around() -> None:
    st, hero = arena([1, 1, 1], CORRIDOR)
    hero["pos"] = [12, 1]  # far beyond one turn's walk: the orc cannot get in range this turn
    orc = foe(st, (1, 1), move=3)  # orc card 0: melee, move +0
    R.enemy_turn(st, orc, 0, [])
    assert R.pos(orc) == (4, 1) and orc["hp"] == 18  # as far as it gets, onto the trap: no way around
    R.enemy_turn(st, orc, 0, [])
    assert R.pos(orc) == (7, 1)  # and on toward the hero (it used to wait before the trap for good)


def test_an_enemy_out_of_range_still_takes_the_way_around_a_trap() -> None:
    st, hero = arena([1, 1, 1], TRAPPED)
    hero["pos"] = [8, 3]
    orc = foe(st, (1, 3), move=3)
    walked: list[list[int]] = []
    for _ in range(3):
        R.enemy_turn(st, orc, 0, [])
        walked += st.trail
    assert R.chebyshev(R.pos(orc), R.pos(hero)) == 1 and orc["hp"] == 20
    assert not any(R.is_trap(st, (c[0], c[1])) for c in walked)


# -- initiative ties between enemy types ------------------------------------------------------------------------
def test_enemy_types_tied_on_speed_act_in_the_scenarios_order() -> None:
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=1)
    st: CCState = game.state  # type: ignore[assignment]
    # every type draws a speed-5 card
    st.decks = {
        t: {"draw": [next(i for i, c in enumerate(enemies()[t].deck) if c.speed == 5)], "discard": []}
        for t in ("skeleton", "shadow", "corrupted_elemental")
    }
    game.apply("hero1", "commit warrior rest")
    tied = [entry[1] for entry in st.order if entry[0] == "enemy"]
    # groups a and b (skeletons, shadows), then the boss: not the order the figures are stored in
    assert tied == ["skeleton", "shadow", "corrupted_elemental"]


# -- teleporting lands like a step ---------------------------------------------------------------------------------
EXIT_ROOM = [
    "##########",
    "#...E....#",
    "#..^.....#",
    "##########",
]


def teleport_ready(st: CCState) -> None:
    st.turn["queue"] = [["card", "fey_step", 0]]  # teleport 3


def test_teleporting_onto_the_exit_of_an_escape_gets_the_hero_out() -> None:
    st, hero = arena([], EXIT_ROOM)
    st.scenario["objective"] = "escape"
    foe(st, (8, 2), move=-9)
    teleport_ready(st)
    play(st, f"teleport {hero['id']} {R.cell_name((4, 1))}")
    assert hero.get("escaped") and hero.get("out")


def test_teleporting_onto_a_trap_hurts_and_onto_loot_takes_it() -> None:
    st, hero = arena([], EXIT_ROOM)
    foe(st, (8, 2), move=-9)
    teleport_ready(st)
    label = next(c.label for c in A.legal(st, "hero1") if c.args[1:] == (R.cell_name((3, 2)),))
    assert label.endswith("(onto a trap)")
    play(st, f"teleport {hero['id']} {R.cell_name((3, 2))}")
    assert hero["hp"] == 20 - R.TRAP_DAMAGE
    st, hero = arena([], EXIT_ROOM)
    foe(st, (8, 2), move=-9)
    st.loot = [[2, 2, "gold:3"]]
    gold = hero["gold"]
    teleport_ready(st)
    play(st, f"teleport {hero['id']} {R.cell_name((2, 2))}")
    assert hero["gold"] == gold + 3 and st.loot == []


# -- Long Fingers: discarding frees the locked stamina ---------------------------------------------------------------
def test_discarding_long_fingers_frees_its_stamina_to_spend_at_once() -> None:
    st, hero = arena([])
    foe(st, (8, 4), move=-9)
    hero["items"] = [{"id": "long_fingers", "cd": 0, "active": True}]  # in play: 2 stamina locked this round
    play(st, f"use {hero['id']} long_fingers")
    assert st.turn["pool"] == 3 + 2 and R.reach(st, hero) == 1


# -- the round's stamina move: before, between or after the cards ---------------------------------------------------
def test_the_stamina_move_comes_between_cards_not_inside_one() -> None:
    st, hero = arena([])
    foe(st, (8, 4), move=-9)
    st.turn["queue"] = [["card", "flurry", 1], ["card", "flurry", 2], ["card", "poisoned_blade", 0]]
    assert hero_moves(st) == []  # inside Flurry: between its two melee lines
    with pytest.raises(IllegalCommand, match="before, between or after your cards"):
        play(st, f"move {hero['id']} {R.cell_name((2, 2))}")
    play(st, f"skip {hero['id']}")
    assert hero_moves(st) == []
    play(st, f"skip {hero['id']}")
    assert hero_moves(st)  # Flurry is done, Poisoned Blade not begun: between the cards
    play(st, f"skip {hero['id']}")
    assert hero_moves(st)  # after the cards


# -- push and pull land like the statuses, even on a miss ------------------------------------------------------------
def test_a_push_lands_even_on_a_miss_but_not_out_of_reach() -> None:
    st, hero = arena([1])
    st.turn["pool"] = 0
    orc = foe(st, (2, 1))
    attack(st, hero, [orc], "melee push2")
    assert orc["hp"] == 20 and R.pos(orc) == (4, 1)
    st, hero = arena([4, 2])
    st.turn["pool"] = 0
    orc = foe(st, (6, 1))  # 5 away
    attack(st, hero, [orc], "ranged push2")
    play(st, f"split {hero['id']} 2 4")  # range 2 falls short: the attack is not made
    assert R.pos(orc) == (6, 1)


# -- an augmentation changes the whole action -----------------------------------------------------------------------
def test_an_augmentation_serves_every_target_of_the_action() -> None:
    st, hero = arena([4, 4])
    hero["items"] = [{"id": "rush_of_energy", "cd": 0, "active": False}]
    a = foe(st, (2, 1), "orc1")
    b = foe(st, (1, 2), "orc2")
    st.turn["queue"] = [["card", "cleave", 1]]  # melee t2
    play(st, f"boost {hero['id']} rush_of_energy")
    play(st, f"attack {hero['id']} orc1 orc2")
    assert a["hp"] == b["hp"] == 20 - (4 + 1)


# -- the big enemies' numbers --------------------------------------------------------------------------------------
def test_the_ogre_and_giant_bosses_keep_to_their_own_rows() -> None:
    # The pages also show six numbers for an Ogre (levels 5, 11) and a Giant (9, 14): a group of them, a
    # normal one and a Captain. No scenario fields such a group; the boss follows its own three numbers.
    ogre = R.enemy_stats("ogre", 5, False)
    assert ogre == (4, 8, 10)
    assert (4, 7, 9) <= ogre <= (5, 10, 10)  # between that level's normal Ogre and Ogre Captain
    assert R.enemy_stats("giant", 9, False) == (4, 12, 10)


# -- Reaching Out: every attack has reach 2, nothing else -------------------------------------------------------------
def test_reaching_out_lengthens_attacks_only_not_looting_or_rifts() -> None:
    st, hero = arena([2])
    st.scenario["rules"] = ["reaching_out"]
    foe(st, (3, 1))  # 2 away
    st.turn["queue"] = [["card", "poisoned_blade", 0]]  # melee poison
    assert [c.args[1:] for c in A.legal(st, "hero1") if c.verb == "attack"] == [("orc1",)]
    st.loot = [[1, 3, "gold:3"]]  # 2 away
    assert not [c for c in A.legal(st, "hero1") if c.verb == "loot"]
    st.rifts = [[3, 3, "fire"]]  # 2 away: not within reach, a die must reach it (the 2 does)
    events: list[Event] = []
    assert R.use_rift(st, hero, "fire", events)
    assert any(e.dice == (2,) for e in events)
