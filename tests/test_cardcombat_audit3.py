"""Dark Realms third rule audit: scripted checks of what the first two audits (test_cardcombat_audit.py,
test_cardcombat_audit2.py) left wrong or open (the list is in docs/rulings/cardcombat.md, "Third audit")."""

from __future__ import annotations

from typing import Any

from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.content import cards
from engine.rulesets.cardcombat.state import CCState
from tests.test_cardcombat_audit import arena, foe, play


# -- the damage table never gives less than no damage ---------------------------------------------------------------
def test_a_plus_attack_adds_its_points_to_a_table_result_that_cannot_go_below_zero() -> None:
    # "+X": the attack is resolved as a normal one, then X points are added. A stat of 1 and a 2 give no
    # damage (not -1), so Bloodrage's +1 makes it 1.
    st, hero = arena([2])
    hero["melee"] = 1
    orc = foe(st, (2, 1))
    st.turn["queue"] = [["card", "bloodrage", 1]]  # melee +1
    play(st, f"attack {hero['id']} orc1")
    assert orc["hp"] == 20 - 1


def test_a_hit_on_a_wounded_target_deals_at_least_the_wound_point() -> None:
    # "add one damage point to the attack, unless it is a miss": a 2 with a stat of 1 is a hit, for none
    st, hero = arena([2])
    hero["melee"] = 1
    orc = foe(st, (2, 1))
    orc["st"]["wound"] = "heal"
    st.turn["queue"] = [["card", "poisoned_blade", 0]]  # melee poison
    play(st, f"attack {hero['id']} orc1")
    assert orc["hp"] == 20 - 1
    # the Cursed Ring's 2 less takes the attack down to none, not below: the wound point still lands
    st, hero = arena([3])
    hero["melee"] = 3
    st.scenario["rules"] = ["cursed_ring"]
    st.flags["ring_carrier"] = hero["id"]
    orc = foe(st, (2, 1))
    orc["st"]["wound"] = "heal"
    st.turn["queue"] = [["card", "poisoned_blade", 0]]
    play(st, f"attack {hero['id']} orc1")  # 3 - 1 = 2, less 2 = 0, wound + 1
    assert orc["hp"] == 20 - 1


# -- a rift-gated line is drawn on when it is played, so the hero may walk to the rift first --------------------------
def inferno_turn(dice: list[int]) -> tuple[CCState, dict[str, Any]]:
    """A Human Mage (b2) whose turn begins with Inferno ('fire: ranged r4 t3 +1 xp2; ranged r3 t2'), a fire
    rift 5 squares away (a die of 4+ would reach it) and an orc 4 away; 5 stamina to spare."""
    st, hero = arena(dice, cls="mage")
    hero["ranged"] = 4
    foe(st, (5, 3))  # 4 away: within the line's range 4
    st.rifts = [[6, 1, "fire"]]
    hero["committed"] = ["inferno"]
    hero["round_budget"] = 9
    A.start_turn(st, hero, [])
    return st, hero


def test_a_hero_may_walk_to_a_rift_before_the_card_that_needs_it() -> None:
    st, hero = inferno_turn([5])
    # nothing is rolled for the rift as the card comes up: the stamina move before the card is still open
    assert st.rifts == [[6, 1, "fire"]] and st.rng.script == [5]
    assert A.current(st) == cards()["inferno"].actions[0]
    play(st, f"move {hero['id']} {R.cell_name((5, 1))}")  # the round's stamina move, next to the rift
    assert st.rifts == [[6, 1, "fire"]]  # not drawn on by walking up to it
    events = play(st, f"attack {hero['id']} orc1")
    assert st.rifts == [] and not any("reaches for" in e.text for e in events)  # within reach: no die
    assert st.figures["orc1"]["hp"] == 20 - (4 + 1 + 1) and hero["xp"] == 2


def test_a_rift_gated_line_that_is_skipped_leaves_the_rift_open() -> None:
    st, hero = inferno_turn([6])  # a 6 would reach the rift, were it rolled for as the card comes up
    play(st, f"skip {hero['id']}")
    assert st.rifts == [[6, 1, "fire"]]


def test_a_rift_gated_line_fails_when_the_die_cannot_reach_the_rift() -> None:
    st, hero = inferno_turn([3])
    events = play(st, f"attack {hero['id']} orc1")  # 5 away, reach 1: a 3 falls short
    assert st.figures["orc1"]["hp"] == 20 and st.rifts == [[6, 1, "fire"]]
    assert any("too short" in e.text for e in events) and any("fails" in e.text for e in events)
    assert A.current(st) == cards()["inferno"].actions[1]  # on to the card's next line


def test_a_rift_gated_line_with_no_such_rift_on_the_map_fails_at_once() -> None:
    st, hero = inferno_turn([])
    st.rifts = []
    A.settle(st, [])
    assert A.current(st) is None or A.current(st) == cards()["inferno"].actions[1]


# -- a rift drawn on from the actor's own square stays open to the end of that turn, then closes ------------------------
def test_a_rift_used_on_the_heros_own_square_closes_at_the_end_of_its_turn() -> None:
    st, hero = inferno_turn([5, 5])
    st.rifts = [[1, 1, "fire"], [6, 4, "water"]]  # a fire rift under the mage
    play(st, f"attack {hero['id']} orc1")
    assert [1, 1, "fire"] in st.rifts  # still open: it may serve the turn's other fire lines
    play(st, f"skip {hero['id']}")
    play(st, f"end {hero['id']}")
    assert st.rifts == [[6, 4, "water"]]


def test_a_rift_an_enemy_uses_under_itself_closes_at_the_end_of_its_turn() -> None:
    st, hero = arena([6, 6])
    hero["pos"] = [4, 1]
    ele = foe(st, (2, 1), "ele1", "corrupted_elemental")  # card 0: 'rift fire; fire: ranged r3 +2'
    ele["st"] = {}
    st.scenario["rules"] = []
    st.rifts = [[2, 1, "fire"]]
    st.figures = {hero["id"]: hero, "ele1": ele}
    R.enemy_turn(st, ele, 0, [])
    assert [2, 1, "fire"] not in st.rifts


def test_an_augmentation_on_a_rift_gated_line_is_not_spent_when_the_rift_is_out_of_reach() -> None:
    st, hero = inferno_turn([3])
    hero["items"] = [{"id": "rush_of_energy", "cd": 0, "active": False}]
    pool = st.turn["pool"]
    events = play(st, f"boost {hero['id']} rush_of_energy")  # commits to the line: the rift is reached for
    assert any("too short" in e.text for e in events)
    assert hero["items"][0]["cd"] == 0 and st.turn["pool"] == pool  # the item waits for a line it can serve
