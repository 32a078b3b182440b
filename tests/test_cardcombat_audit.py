"""Dark Realms rule audit: scripted-dice checks of the points an audit against the rule pages found untested
or wrong (the audit list is in docs/rulings/cardcombat.md, "Audit")."""

from __future__ import annotations

from typing import Any

import pytest

from engine import new_game
from engine.core import Event
from engine.errors import ContentError, IllegalCommand
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.content import parse_action
from engine.rulesets.cardcombat.setup import campaign_records
from engine.rulesets.cardcombat.state import CCState

OPEN = [
    "##########",
    "#........#",
    "#........#",
    "#........#",
    "#........#",
    "##########",
]


def arena(
    dice: list[int], rows: list[str] | None = None, cls: str = "warrior"
) -> tuple[CCState, dict[str, Any]]:
    """One hero at b2 on an open map (or ``rows``), no enemies yet, no scenario rule, scripted dice; it is the
    hero's turn with 3 stamina to spare."""
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=1,
                    options={"class": {"hero1": cls}})  # fmt: skip
    st: CCState = game.state  # type: ignore[assignment]
    hero = R.hero_of(st, "hero1")
    assert hero is not None
    st.figures = {hero["id"]: hero}
    st.scenario["rules"] = []
    st.scenario["rows"] = list(rows or OPEN)
    hero.update(pos=[1, 1], melee=4, ranged=4, hp=20, max_hp=20)
    st.phase = "turns"
    st.turn = {"fig": hero["id"], "queue": [], "pool": 3, "mods": {}, "allow": -1}
    st.rng.script = list(dice)
    return st, hero


def foe(st: CCState, at: tuple[int, int], fid: str = "orc1", etype: str = "orc", **kw: Any) -> dict[str, Any]:
    """An enemy with 20 health, strength 4 and no defence at ``at``."""
    e = R.make_enemy(st, etype, False, at, fid)
    e.update(melee=4, ranged=4, hp=20, max_hp=20, defence=0, defence_dice=False)
    e.update(kw)
    st.figures[fid] = e
    return e


def attack(st: CCState, atk: dict[str, Any], tgts: list[dict[str, Any]], text: str) -> list[Event]:
    events: list[Event] = []
    R.start_attack(st, atk, [t["id"] for t in tgts], parse_action(text, "audit"), {}, events)
    return events


def play(st: CCState, text: str) -> list[Event]:
    return A.play(st, "hero1", A.check(st, "hero1", text))


# -- every die is narrated ---------------------------------------------------------------------------------
def test_a_suspended_attack_narrates_the_dice_it_waits_on() -> None:
    st, hero = arena([4, 2])
    orc = foe(st, (5, 1))
    events = attack(st, hero, [orc], "ranged")
    assert st.pending["stage"] == "split"
    assert any(e.dice == (4, 2) and "4 and 2" in e.text for e in events)
    st, hero = arena([1])
    orc = foe(st, (2, 1))
    events = attack(st, hero, [orc], "melee")
    assert st.pending["stage"] == "miss"
    assert any(e.dice == (1,) and "a miss" in e.text for e in events)


def test_a_captains_reroll_shows_both_dice_and_the_hit_shows_the_new_one() -> None:
    st, hero = arena([1, 5])
    cap = foe(st, (2, 1), captain=True)
    events = attack(st, cap, [hero], "melee")
    assert any(e.dice == (1, 5) for e in events)
    hit = [e for e in events if e.kind == "attack" and "damage" in e.text][-1]
    assert hit.dice == (5,) and hero["hp"] == 20 - (4 + 1 - 2)


# -- misses and re-rolls ------------------------------------------------------------------------------------
def test_a_range_die_that_falls_short_is_no_miss_to_reroll() -> None:
    st, hero = arena([5, 2])
    orc = foe(st, (5, 1))  # 4 away
    attack(st, hero, [orc], "ranged")
    play(st, f"split {hero['id']} 2 5")  # range 2 falls short: the attack cannot be made
    assert not st.pending and st.turn["pool"] == 3 and not hero.get("reroll_used") and orc["hp"] == 20


def test_a_hero_may_reroll_either_die_before_the_split() -> None:
    st, hero = arena([1, 4, 6])
    orc = foe(st, (5, 1))
    attack(st, hero, [orc], "ranged")
    play(st, f"reroll {hero['id']} 1 stamina")
    assert st.pending["dice"] == [6, 4] and st.turn["pool"] == 2
    play(st, f"split {hero['id']} 4 6")
    assert orc["hp"] == 20 - 6  # die 6: stat 4 + 2, pierce


def test_a_captain_keeps_its_reroll_when_no_split_reaches() -> None:
    st, hero = arena([2, 3])
    cap = foe(st, (8, 1), captain=True)  # 7 away: neither die reaches
    attack(st, cap, [hero], "ranged")
    assert hero["hp"] == 20 and not cap["reroll_used"] and st.rng.script == []


def test_a_boss_rerolls_a_miss_once_a_round_for_two_less() -> None:
    st, hero = arena([1, 4, 1])
    boss = foe(st, (2, 1), "ogre1", "ogre")
    assert boss["boss"]
    attack(st, boss, [hero], "melee")
    assert hero["hp"] == 20 - (4 - 2)
    attack(st, boss, [hero], "melee")
    assert hero["hp"] == 18  # the second miss this round stands


def test_the_game_splits_an_enemys_dice_for_the_most_damage_that_reaches() -> None:
    st, hero = arena([2, 5])
    orc = foe(st, (5, 1))  # 4 away: only range 5 reaches, so the 2 is the damage die
    attack(st, orc, [hero], "ranged")
    assert hero["hp"] == 20 - (4 - 2)
    st, hero = arena([5, 2])
    orc = foe(st, (3, 1))  # 2 away: both reach, the 5 is the damage die
    attack(st, orc, [hero], "ranged")
    assert hero["hp"] == 20 - (4 + 1)


def test_a_stunned_target_gives_each_ranged_die_a_second_roll() -> None:
    st, hero = arena([1, 5, 3, 2])
    orc = foe(st, (5, 1))
    orc["st"]["stunned"] = "turn"
    attack(st, hero, [orc], "ranged")
    assert st.pending["dice"] == [5, 3]


# -- damage and defence -------------------------------------------------------------------------------------
def test_roll_only_damage_cannot_miss_even_against_strengthened() -> None:
    st, hero = arena([2])
    orc = foe(st, (2, 1))
    orc["st"]["strengthened"] = "round"
    attack(st, hero, [orc], "melee d")
    assert orc["hp"] == 18


def test_a_defence_six_stops_the_wound_point_too() -> None:
    st, hero = arena([5, 6])
    orc = foe(st, (2, 1), defence_dice=True)
    orc["st"]["wound"] = "heal"
    attack(st, hero, [orc], "melee")
    assert orc["hp"] == 20


def test_a_card_that_misses_on_one_to_three_keeps_three_against_strengthened() -> None:
    st, hero = arena([3])
    st.turn["pool"] = 0
    orc = foe(st, (2, 1))
    orc["st"]["strengthened"] = "round"
    attack(st, hero, [orc], "melee miss3")
    assert orc["hp"] == 20
    st, hero = arena([4])
    orc = foe(st, (2, 1))
    orc["st"]["strengthened"] = "round"
    attack(st, hero, [orc], "melee miss3")
    assert orc["hp"] == 16


def test_targets_out_of_sight_are_not_offered() -> None:
    rows = ["##########", "#...#....#", "#...#....#", "##########"]
    st, hero = arena([], rows)
    foe(st, (6, 1), "orc1")
    foe(st, (3, 2), "orc2")
    opts = A.target_options(st, hero, parse_action("ranged t2", "audit"))
    assert {c.args[1:] for c in opts} == {("orc2",)}


# -- enemy behaviour ----------------------------------------------------------------------------------------
TRAPPED = [
    "##########",
    "#........#",
    "#.######.#",
    "#...^....#",
    "##########",
]


@pytest.mark.parametrize(("steps", "around"), [(8, True), (6, False)])
def test_an_enemy_walks_around_a_trap_when_its_move_allows(steps: int, around: bool) -> None:
    st, hero = arena([1], TRAPPED)
    hero["pos"] = [8, 3]
    orc = foe(st, (1, 3), move=steps)  # orc card 0: melee, move +0
    R.enemy_turn(st, orc, 0, [])
    assert R.chebyshev(R.pos(orc), R.pos(hero)) == 1
    crossed = any(R.is_trap(st, (c[0], c[1])) for c in st.trail)
    assert crossed is not around
    assert orc["hp"] == (20 if around else 18)


def test_enemies_pick_summons_before_the_closest_hero_and_the_closest_before_the_fastest() -> None:
    st, hero = arena([])
    orc = foe(st, (8, 4))
    wolf = R.make_summon(hero, "wolf", (2, 1), "wolf1")
    st.figures["wolf1"] = wolf
    other = dict(hero, id="mage", seat="hero2", name="Mage", pos=[7, 4], st={})
    st.figures["mage"] = other
    st.order = [["hero", hero["id"], 9], ["hero", "mage", 1]]
    dist = R.distance_map(st, orc, False)
    assert [g["id"] for g in R.pick_targets(st, orc, 3, dist)] == ["wolf1", "mage", hero["id"]]
    other["pos"] = [8, 1]  # now both heroes stand 3 steps away: the faster one comes first
    hero["pos"] = [5, 2]
    del st.figures["wolf1"]
    assert R.pick_targets(st, orc, 1, R.distance_map(st, orc, False))[0] is hero


# -- statuses, movement, push/pull/teleport -------------------------------------------------------------------
def test_move_plus_two_on_a_one_gives_three_spaces() -> None:
    st, hero = arena([1], cls="warrior")
    st.turn["queue"] = [["card", "slip_past", 0]]  # halfling card: move +2
    A.settle(st, [])
    assert st.turn["allow"] == 3


def test_paralyzed_heroes_cannot_move_and_disarmed_heroes_cannot_attack() -> None:
    st, hero = arena([])
    foe(st, (2, 1))
    hero["st"]["disarm"] = "turn*"
    st.turn["queue"] = [["card", "charge", 1]]  # melee
    assert not [c for c in A.legal(st, "hero1") if c.verb == "attack"]
    hero["st"] = {"paralyze": "turn*"}
    st.turn["queue"] = [["card", "charge", 0]]  # move +1
    A.settle(st, [])
    assert st.turn["queue"] == [] and not [c for c in A.legal(st, "hero1") if c.verb == "move"]


def test_pull_brings_the_target_closer() -> None:
    st, hero = arena([4])
    orc = foe(st, (4, 1))
    attack(st, hero, [orc], "ranged r3 =1 pull2")
    assert R.pos(orc) == (2, 1)


def test_heal_removes_a_status_for_two_points_and_one_point_only_heals() -> None:
    st, hero = arena([])
    hero.update(hp=10)
    hero["st"] = {"poison": "heal", "wound": "heal"}
    R.heal(st, hero, 1, [])
    assert hero["hp"] == 11 and R.has(hero, "poison")
    R.heal(st, hero, 5, [])
    assert not hero["st"] and hero["hp"] == 12


# -- rounds, stamina, items ---------------------------------------------------------------------------------
def quiet_game(**options: Any) -> tuple[Any, CCState, dict[str, Any]]:
    """A crypt game with one hero and one far, rooted enemy that never reaches it."""
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=2, options=options)
    st: CCState = game.state
    hero = R.hero_of(st, "hero1")
    assert hero is not None
    enemies = [f for f in st.figures.values() if f["kind"] == "enemy"]
    keep = max(enemies, key=lambda f: R.chebyshev(R.pos(f), R.pos(hero)))
    keep.update(move=-9, hp=99, max_hp=99)
    st.figures = {hero["id"]: hero, keep["id"]: keep}
    st.scenario["rules"] = []
    st.scenario["rounds"] = 20
    return game, st, hero


def finish_round(game: Any, st: CCState) -> None:
    start = st.round
    while st.round == start and game.outcome is None:
        seat = sorted(game.seats_to_act())[0]
        cmds = game.legal_commands(seat)
        game.apply(seat, next((c for c in cmds if c.verb == "end"), cmds[0]))


def test_adrenaline_stamina_is_spent_on_the_turn_too() -> None:
    game, st, hero = quiet_game()
    hero["st"]["adrenaline"] = "use"
    game.apply("hero1", "commit warrior rally")  # 2 stamina of stamina + 2
    assert st.turn.get("fig") == hero["id"]
    assert st.turn["pool"] == hero["stamina"] + 2 - 2


def test_an_item_waits_its_whole_cooldown_after_the_round_of_use() -> None:
    camp = {"hero1": {"race": "human", "class": "warrior", "xp": 0, "gold": 0, "items": ["being_hasty"]}}
    game, st, hero = quiet_game(campaign=camp)
    game.apply("hero1", "use warrior being_hasty")
    game.apply("hero1", "commit warrior rest")
    ready = []
    for _ in range(5):
        finish_round(game, st)
        ready.append(any(c.verb == "use" for c in game.legal_commands("hero1")))
        game.apply("hero1", "commit warrior rest")
    assert ready == [False, False, False, False, True]  # used in round 1: waits rounds 2-5 (cooldown 4)


def test_a_discarded_long_fingers_is_lost_for_the_scenario_only() -> None:
    camp = {"hero1": {"race": "human", "class": "warrior", "xp": 0, "gold": 0, "items": ["long_fingers"]}}
    game, st, hero = quiet_game(campaign=camp)
    game.apply("hero1", "commit warrior rest")
    game.apply("hero1", "use warrior long_fingers")
    assert R.reach(st, hero) == 2
    game.apply("hero1", "use warrior long_fingers")  # discard it: the stamina is free again
    assert R.reach(st, hero) == 1 and A.budget(hero) == hero["stamina"]
    assert not any(c.verb == "use" for c in game.legal_commands("hero1"))
    assert campaign_records(st)["hero1"]["items"] == ["long_fingers"]


def test_an_empty_speed_deck_is_reshuffled() -> None:
    game, st, hero = quiet_game()
    etype = next(f["type"] for f in st.figures.values() if f["kind"] == "enemy")
    st.decks = {etype: {"draw": [], "discard": [0, 1]}}
    game.apply("hero1", "commit warrior rest")
    deck = st.decks[etype]
    assert deck["discard"] == [] and len(deck["draw"]) == len(R.enemies()[etype].deck) - 1


def test_an_enemy_hits_the_hero_it_reaches_when_the_marked_one_is_out_of_reach() -> None:
    st, hero = arena([4])
    orc = foe(st, (2, 1))
    marked = dict(hero, id="mage", seat="hero2", name="Mage", pos=[8, 4], st={"mark": "round"}, hp=20)
    st.figures["mage"] = marked
    orc["move"] = -9  # rooted: it cannot walk toward the Marked hero
    R.enemy_turn(st, orc, 0, [])  # orc card 0: melee
    assert hero["hp"] == 16 and marked["hp"] == 20


def test_several_targets_are_resolved_in_the_order_named() -> None:
    st, hero = arena([6, 1])
    st.turn["pool"] = 0
    a = foe(st, (2, 1), "orc1")
    b = foe(st, (1, 2), "orc2")
    st.turn["queue"] = [["card", "cleave", 1]]  # melee t2
    events = play(st, f"attack {hero['id']} orc2 orc1")
    assert b["hp"] == 20 - 6 and a["hp"] == 20  # the 6 went to orc2, named first
    assert [e.text.split(" attacks ")[1].split(" (")[0] for e in events if " attacks " in e.text][0] == b[
        "name"
    ]


def test_a_targeting_tie_is_broken_by_a_die_that_is_shown() -> None:
    st, hero = arena([2, 1])
    hero["pos"] = [1, 3]
    other = dict(hero, id="mage", seat="hero2", name="Mage", pos=[3, 3], st={}, hp=20)
    st.figures["mage"] = other
    orc = foe(st, (2, 3), move=-9)  # both heroes adjacent, same speed
    st.order = [["hero", hero["id"], 2], ["hero", "mage", 2]]
    events: list[Event] = []
    R.enemy_turn(st, orc, 0, events)  # die 2 picks the second of the tied heroes; its attack die 1 misses
    assert any(e.dice == (2,) and "to choose between" in e.text for e in events)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("commit warrior rally charge cleave", "at most two action cards"),
        ("commit warrior firebolt", "not a card in"),
        ("commit warrior rally rally", "once a round"),
        ("commit mage firebolt", "You play"),
    ],
)
def test_commit_refusals_name_the_rule(text: str, rule: str) -> None:
    game, st, hero = quiet_game()
    with pytest.raises(IllegalCommand, match=rule):
        game.apply("hero1", text)
    assert st.commits == {}


def test_commit_refusals_for_cooling_and_costly_cards() -> None:
    game, st, hero = quiet_game()
    hero["cooldown"] = {"shield_bash": 2}
    with pytest.raises(IllegalCommand, match="cooling down for 2"):
        game.apply("hero1", "commit warrior shield_bash")
    hero["stamina"] = 4
    with pytest.raises(IllegalCommand, match="cost 5 stamina"):
        game.apply("hero1", "commit warrior cleave charge")


def test_a_command_naming_another_figure_names_whose_turn_it_is() -> None:
    st, hero = arena([])
    st.turn["queue"] = [["card", "charge", 0]]
    A.settle(st, [])
    with pytest.raises(IllegalCommand, match=f"It is {hero['name']}'s turn"):
        A.check(st, "hero1", "move mage c3")


# -- cards and items that change the damage faces ------------------------------------------------------------
def test_a_card_can_change_a_damage_face() -> None:
    st, hero = arena([2])
    orc = foe(st, (2, 1))
    attack(st, hero, [orc], "melee f2=-1")
    assert orc["hp"] == 20 - 3  # a 2 counts as -1 on this card
    st, hero = arena([3])
    orc = foe(st, (2, 1))
    attack(st, hero, [orc], "melee f2=-1")
    assert orc["hp"] == 20 - 3  # other faces keep the table


def test_an_item_changes_a_face_on_every_table_attack_but_not_fixed_or_roll_damage() -> None:
    st, hero = arena([2, 2, 2])
    hero["items"] = [{"id": "balanced_grip", "cd": 0, "active": False}]
    orc = foe(st, (2, 1))
    attack(st, hero, [orc], "melee +1")
    assert orc["hp"] == 20 - (4 - 1 + 1)
    attack(st, hero, [orc], "melee =3")
    attack(st, hero, [orc], "melee d")
    assert orc["hp"] == 16 - 3 - 2


def test_a_malformed_face_is_a_content_error() -> None:
    with pytest.raises(ContentError):
        parse_action("melee f7=1", "audit")
    with pytest.raises(ContentError):
        parse_action("heal 2 f2=0", "audit")


def test_a_ranged_attack_at_a_target_within_reach_misses_on_two() -> None:
    st, hero = arena([2])
    st.turn["pool"] = 0
    orc = foe(st, (2, 1))
    attack(st, hero, [orc], "ranged r3")
    assert orc["hp"] == 20
    st, hero = arena([2])
    orc = foe(st, (3, 1))  # two away: beyond reach, a 2 is -2
    attack(st, hero, [orc], "ranged r3")
    assert orc["hp"] == 18


def test_rabbits_foot_gives_a_free_reroll_each_round() -> None:
    st, hero = arena([1, 5])
    st.scenario["rules"] = ["rabbits_foot"]
    st.turn["pool"] = 0
    orc = foe(st, (2, 1))
    attack(st, hero, [orc], "melee")
    assert {c.text for c in A.legal(st, "hero1")} == {f"accept {hero['id']}", f"reroll {hero['id']} free"}
    play(st, f"reroll {hero['id']} free")
    assert orc["hp"] == 15 and hero["free_reroll_used"]


def test_a_summons_move_is_not_extended_with_stamina() -> None:
    st, hero = arena([])
    wolf = R.make_summon(hero, "wolf", (2, 2), "wolf1")
    st.figures["wolf1"] = wolf
    st.turn = {"fig": "wolf1", "queue": [["summon", "wolf", 0]], "pool": 5, "mods": {}, "allow": -1}
    A.settle(st, [])
    moves = [c for c in A.legal(st, "hero1") if c.verb == "move"]
    assert moves and all("stamina" not in c.label for c in moves)
    assert max(R.chebyshev(R.pos(wolf), R.parse_cell_for(st, c.args[1])) for c in moves) == 3


def test_a_turn_command_in_the_commit_phase_says_cards_come_first() -> None:
    game, st, hero = quiet_game()
    with pytest.raises(IllegalCommand, match="first commits"):
        game.apply("hero1", "move warrior c3")


def test_an_enemy_attacks_the_hero_it_walked_to_when_the_list_ties() -> None:
    st, hero = arena([1, 4])  # die 1 picks the first tied hero to walk to; 4 is the attack
    hero["pos"] = [1, 2]
    other = dict(hero, id="mage", seat="hero2", name="Mage", pos=[3, 2], st={}, hp=20)
    st.figures["mage"] = other
    orc = foe(st, (2, 4), move=2)
    st.order = [["hero", hero["id"], 2], ["hero", "mage", 2]]
    events: list[Event] = []
    R.enemy_turn(st, orc, 0, events)
    assert sum(1 for e in events if "to choose between" in e.text) == 1
    assert hero["hp"] + other["hp"] == 40 - 4 and st.rng.script == []
    said: list[Event] = []
    R.give(st, hero, "poison", said)
    assert said[0].text.endswith("is poisoned.")


CORRIDOR = [
    "#########",
    "#.......#",
    "#.#####.#",
    "#...^...#",
    "#########",
]


@pytest.mark.parametrize(("free", "hurt"), [(8, False), (6, True)])
def test_a_hero_walks_around_a_trap_when_the_cards_squares_cover_it(free: int, hurt: bool) -> None:
    st, hero = arena([], CORRIDOR)
    hero["pos"] = [1, 3]
    foe(st, (7, 1), move=-9)
    st.turn.update(queue=[["card", "rally", 0]], allow=free, pool=3)
    opt = next(c for c in A.legal(st, "hero1") if c.verb == "move" and c.args[1] == R.cell_name((7, 3)))
    assert ("via a trap" in opt.label) is hurt and "stamina" not in opt.label
    play(st, opt.text)
    assert R.pos(hero) == (7, 3) and st.turn["pool"] == 3
    assert hero["hp"] == (18 if hurt else 20)
