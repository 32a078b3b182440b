"""Dark Realms rounds, enemies, items, loot, rifts, summons, levels and the campaign."""

from __future__ import annotations

from typing import Any

import pytest

from engine import SetupError, new_game
from engine.core import Event
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.content import cards
from engine.rulesets.cardcombat.state import CCState


def two_heroes(seed: int = 4, **options: Any) -> Any:
    return new_game(
        "cardcombat", scenario="crypt", seats={"hero1": None, "hero2": None}, seed=seed, options=options
    )


def test_commit_budget_and_reveal_in_speed_order() -> None:
    game = two_heroes()
    st: CCState = game.state
    war = st.figures["warrior"]
    for c in game.legal_commands("hero1"):
        if c.args[1] != "rest":
            assert sum(cards()[x].cost for x in c.args[1:]) <= war["stamina"]
    game.apply("hero1", "commit warrior rally")  # speed 2
    assert st.phase == "commit" and game.seats_to_act() == {"hero2"}
    game.apply("hero2", "commit mage firebolt frost_lance")  # speed 5
    heroes = [o[1] for o in st.order if o[0] == "hero"]
    assert heroes == ["mage", "warrior"]
    assert all(st.order[i][2] >= st.order[i + 1][2] for i in range(len(st.order) - 1))


def test_initiative_tie_goes_to_heroes() -> None:
    game = two_heroes(seed=6)
    st: CCState = game.state
    st.decks = {t: {"draw": [0], "discard": []} for t in ("skeleton", "shadow")}
    # skeleton card 0 has speed 3, shadow card 0 speed 8
    game.apply("hero1", "commit warrior cleave")  # 3
    game.apply("hero2", "commit mage rest")
    kinds = [(o[0], o[2]) for o in st.order]
    assert kinds.index(("hero", 3)) < kinds.index(("enemy", 3))


def test_the_initiative_line_names_heroes_and_enemy_types_as_players_read_them() -> None:
    game = two_heroes(seed=6)
    st: CCState = game.state
    st.decks = {t: {"draw": [0], "discard": []} for t in ("skeleton", "shadow")}
    game.apply("hero1", "commit warrior cleave")  # speed 3
    text = "\n".join(e.text for e in game.apply("hero2", "commit mage rest"))
    line = next(t for t in text.splitlines() if t.startswith("Initiative:"))
    # Shadow's card 0 has speed 8, the skeleton's 3; a hero wins the tie.
    assert line.startswith("Initiative: Shadow 8, ") and "Human Warrior 3, Skeleton 3" in line
    assert "warrior" not in line and "skeleton 3" not in line


def test_spent_cards_cool_down_and_discards_are_gone() -> None:
    game = two_heroes()
    st: CCState = game.state
    game.apply("hero1", "commit warrior shield_bash")  # cooldown 2
    game.apply("hero2", "commit mage inferno")  # discard
    while st.phase != "commit" and game.outcome is None:
        seat = sorted(game.seats_to_act())[0]
        game.apply(seat, game.bot_command(seat))
    if game.outcome is None:
        assert st.figures["warrior"]["cooldown"] == {"shield_bash": 2}
        assert "inferno" in st.figures["mage"]["discard"]
        texts = {c.text for c in game.legal_commands("hero1")}
        assert not any("shield_bash" in t for t in texts)


def test_enemy_stops_as_soon_as_in_range_and_avoids_traps() -> None:
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=1)
    st: CCState = game.state
    hero = R.hero_of(st, "hero1")
    assert hero is not None
    st.figures = {hero["id"]: hero}
    hero.update(pos=[1, 5], hp=30, max_hp=30)
    orc = R.make_enemy(st, "orc", False, (8, 5), "orc1")  # f6 (5,5) is... the crypt's trap is on h6 (7,5)
    orc["move"] = 9
    st.figures["orc1"] = orc
    st.rng.script = [1]  # its attack misses
    events: list[Event] = []
    R.enemy_turn(st, orc, 0, events)  # orc card 0: melee
    assert R.chebyshev(R.pos(orc), R.pos(hero)) == 1  # stopped adjacent, not beyond
    assert all(not R.is_trap(st, (c[0], c[1])) for c in st.trail)


def test_ranged_enemy_stops_at_its_range() -> None:
    game = new_game("cardcombat", scenario="orc_camp", seats={"hero1": None}, seed=1)
    st: CCState = game.state
    hero = R.hero_of(st, "hero1")
    assert hero is not None
    st.figures = {hero["id"]: hero}
    hero.update(pos=[1, 6], hp=30, max_hp=30)
    ranger = R.make_enemy(st, "orc_ranger", False, (11, 6), "orr1")
    ranger["move"] = 10  # 7 steps with the card: more than it needs
    st.figures["orr1"] = ranger
    st.rng.script = [1]
    R.enemy_turn(st, ranger, 0, [])  # card 0: move -3, ranged r4
    assert R.chebyshev(R.pos(ranger), R.pos(hero)) == 4


def test_loot_follows_the_scenario_table_and_melee_kills_take_it() -> None:
    game = new_game("cardcombat", scenario="orc_camp", seats={"hero1": None}, seed=1)
    st: CCState = game.state
    hero = R.hero_of(st, "hero1")
    assert hero is not None
    st.figures = {hero["id"]: hero}
    hero["pos"], hero["melee"] = [1, 1], 5
    orc = R.make_enemy(st, "orc", False, (2, 1), "orc1")
    orc["hp"] = 4
    st.figures["orc1"] = orc
    st.rng.script = [4]
    R.start_attack(st, hero, ["orc1"], cards()["charge"].actions[1], {}, [])
    assert hero["gold"] == 4 + 4 - 3  # the orc camp is level 4; 4 HP before the blow
    far = R.make_enemy(st, "orc", False, (4, 1), "orc2")
    far["hp"] = 2
    st.figures["orc2"] = far
    st.rng.script = [5]
    R.start_attack(st, hero, ["orc2"], cards()["lucky_stone"].actions[0], {}, [])
    assert st.loot == [[4, 1, "gold:3"]]  # 4 + 2 - 3, dropped where the ranged kill fell


def test_rift_gate_uses_a_rift_in_reach_or_fails() -> None:
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=1)
    st: CCState = game.state
    hero = R.hero_of(st, "hero1")
    assert hero is not None
    events: list[Event] = []
    assert not R.use_rift(st, hero, "fire", events)
    st.rifts = [[hero["pos"][0] + 1, hero["pos"][1], "fire"]]
    assert R.use_rift(st, hero, "fire", events) and st.rifts == []
    st.rifts = [[hero["pos"][0] + 4, hero["pos"][1], "fire"]]  # 4 away, reach 1: needs 3+
    st.rng.script = [2]
    assert not R.use_rift(st, hero, "fire", events)
    st.rng.script = [3]
    assert R.use_rift(st, hero, "fire", events)


def test_campaign_record_keeps_level_items_gold_and_advances_the_adventure() -> None:
    game = new_game("cardcombat", scenario="adventure", seats={"hero1": None}, seed=2,
                    options={"campaign": {"hero1": {"race": "elf", "class": "ranger", "xp": 45, "gold": 90,
                                                    "items": ["longbow"], "chapter": 1}}})  # fmt: skip
    st: CCState = game.state
    assert st.scenario["id"] == "orc_camp"
    hero = st.figures["ranger"]
    assert hero["level"] == 2 and "aimed_shot2" in hero["hand"] and "aimed_shot" not in hero["hand"]
    assert [i["id"] for i in hero["items"]] == ["longbow"]
    for f in list(st.figures.values()):
        if f["kind"] == "enemy":
            f["hp"] = 0
            f["out"] = True
    R.check_outcome(st, [])
    rec = game.ruleset.campaign_update(st)["hero1"]
    assert rec["chapter"] == 2 and rec["xp"] == 55 and rec["gold"] == 90 and rec["items"] == ["longbow"]
    assert "level 3" in game.ruleset.describe_campaign(rec)


def test_buying_an_item_in_the_lobby() -> None:
    camp = {"hero1": {"race": "elf", "class": "ranger", "xp": 0, "gold": 90, "items": []}}
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=2,
                    options={"campaign": camp, "buy": {"hero1": "longbow"}})  # fmt: skip
    hero = game.state.figures["ranger"]
    assert hero["gold"] == 10 and hero["items"][0]["id"] == "longbow"
    with pytest.raises(SetupError):
        new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=2,
                 options={"campaign": camp, "buy": {"hero1": "war_axe"}})  # fmt: skip


def test_each_race_and_class_only_once() -> None:
    with pytest.raises(SetupError):
        two_heroes(race={"hero1": "elf", "hero2": "elf"})
    game = two_heroes(race={"hero1": "elf"}, **{"class": {"hero2": "warrior"}})
    heroes = [f for f in game.state.figures.values() if f["kind"] == "hero"]
    assert len({h["race"] for h in heroes}) == 2 and len({h["cls"] for h in heroes}) == 2


def test_being_hasty_adds_speed_and_cools_down() -> None:
    camp = {"hero1": {"race": "human", "class": "warrior", "xp": 0, "gold": 0, "items": ["being_hasty"]}}
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=2, options={"campaign": camp})
    game.apply("hero1", "use warrior being_hasty")
    game.apply("hero1", "commit warrior rally")
    st: CCState = game.state
    assert ["hero", "warrior", 4] in st.order
    assert st.figures["warrior"]["items"][0]["cd"] == 4


def test_summoned_wolf_is_played_by_its_summoner() -> None:
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=2,
                    options={"class": {"hero1": "druid"}})  # fmt: skip
    game.apply("hero1", "commit druid call_wolf")
    st: CCState = game.state
    while st.turn.get("fig") != "druid" and game.outcome is None:
        seat = sorted(game.seats_to_act())[0]
        game.apply(seat, game.bot_command(seat))
    if game.outcome is None:
        opt = next(c for c in game.legal_commands("hero1") if c.verb == "summon")
        game.apply("hero1", opt)
        assert st.figures["wolf1"]["owner"] == "druid"


def test_hints_and_turn_label() -> None:
    game = two_heroes()
    assert game.turn_label() == "round 1/10, commit"
    game.apply("hero1", "commit warrior rally")
    game.apply("hero2", "commit mage firebolt")
    seat = sorted(game.seats_to_act())[0]
    if game.state.turn.get("fig"):
        assert game.hints(seat).unit == game.state.turn["fig"]
    assert set(game.ruleset.seat_colours(game.state)) == {"hero1", "hero2"}


def hero_turn(
    scenario: str = "crypt", seed: int = 2, card: str = "rally"
) -> tuple[Any, CCState, dict[str, Any]]:
    """A one-hero game at the start of the warrior's turn with ``card`` committed (enemies moved away)."""
    game = new_game("cardcombat", scenario=scenario, seats={"hero1": None}, seed=seed)
    st: CCState = game.state
    for f in st.figures.values():
        if f["kind"] == "enemy":
            f["move"] = 0
    st.decks = {}
    for t in ("skeleton", "shadow", "wraith_knight"):
        st.decks[t] = {"draw": [1], "discard": []}  # slow cards: speed 5/6/5 - the hero at 2 goes last
    game.apply("hero1", f"commit warrior {card}")
    while st.turn.get("fig") != "warrior" and game.outcome is None:
        seat = sorted(game.seats_to_act())[0]
        game.apply(seat, game.bot_command(seat))
    return game, st, st.figures["warrior"]


def test_extra_squares_cost_stamina_and_one_stamina_move_a_round() -> None:
    game, st, war = hero_turn()
    pool = st.turn["pool"]
    far = [c for c in game.legal_commands("hero1") if c.verb == "move" and "stamina" in c.label]
    assert far, "squares beyond the card's 3 can be bought with stamina"
    game.apply("hero1", far[0])
    assert st.turn["pool"] < pool
    game.apply("hero1", "skip warrior")  # the melee
    moves = [c for c in game.legal_commands("hero1") if c.verb == "move"]
    if st.turn["pool"] > 0:
        game.apply("hero1", moves[0])
        assert war["moved_free"]
        assert not [c for c in game.legal_commands("hero1") if c.verb == "move"]


def test_a_trap_hurts_the_hero_who_steps_on_it() -> None:
    game, st, war = hero_turn()
    hp = war["hp"]
    events: list[Event] = []
    trap = next((x, y) for y, r in enumerate(st.scenario["rows"]) for x, ch in enumerate(r) if ch == "^")
    from engine.rulesets.cardcombat.actions import walk

    walk(st, war, [trap], events)
    assert war["hp"] == hp - R.TRAP_DAMAGE


def test_reaching_out_and_fog_of_war() -> None:
    game, st, war = hero_turn()
    assert R.reach(st, war) == 1
    st.scenario["rules"] = ["reaching_out", "fog_of_war"]
    assert R.reach(st, war, attack=True) == 2 and R.reach(st, war) == 1  # "every attack has reach 2"
    here = R.pos(war)
    assert not R.sees(st, here, (here[0] + 5, here[1]), hero=True)


def test_round_timeout_answer_rests_the_hero() -> None:
    game = two_heroes()
    decision = game.awaiting()[0]
    assert decision.default is not None
    game.apply("hero1", decision.default.text)
    assert game.log[-1].text == "commit warrior rest"


def test_carry_limit_is_half_the_stamina() -> None:
    full = ["longbow", "short_sword", "lucky_charm", "keen_eye"]  # elf ranger: stamina 8, limit 4
    camp = {"hero1": {"race": "elf", "class": "ranger", "xp": 0, "gold": 500, "items": full}}
    with pytest.raises(SetupError):
        new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=2,
                 options={"campaign": camp, "buy": {"hero1": "rush_of_energy"}})  # fmt: skip
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=2, options={"campaign": camp})
    hero = game.state.figures["ranger"]
    R.take_loot(game.state, hero, "item:rush_of_energy", [])
    assert len(hero["items"]) == 4 and hero["gold"] == 500 + 25


def test_printed_xp_is_earned_only_when_the_action_is_performed() -> None:
    from engine.rulesets.cardcombat.actions import pop_action

    game, st, war = hero_turn()
    xp = war["xp"]
    st.turn["queue"] = [["card", "inferno", 0], ["card", "inferno", 0]]  # 'fire: ranged ... xp2'
    pop_action(st, performed=False)
    assert war["xp"] == xp
    pop_action(st, performed=True)
    assert war["xp"] == xp + 2


def test_enemy_opens_a_rift_toward_the_heroes_and_uses_it_unless_elemental_fury() -> None:
    for fury in (False, True):
        game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=1)
        st: CCState = game.state
        hero = R.hero_of(st, "hero1")
        assert hero is not None
        st.figures = {hero["id"]: hero}
        hero.update(pos=[1, 5], hp=30, max_hp=30)
        ele = R.make_enemy(st, "corrupted_elemental", False, (4, 5), "ele")
        ele["move"] = 2  # card 0: move -2, so it stays put (3 away: in its range 3)
        st.figures["ele"] = ele
        st.scenario["rules"] = ["elemental_fury"] if fury else []
        st.rng.script = [4]
        events: list[Event] = []
        R.enemy_turn(st, ele, 0, events)  # 'rift fire; fire: ranged r3 +2'
        text = " ".join(e.text for e in events)
        if fury:
            (x, y, element) = st.rifts[0]
            assert element == "fire" and R.chebyshev((x, y), (1, 5)) == 2 and R.chebyshev((x, y), (4, 5)) == 1
            assert hero["hp"] == 30 and "Elemental Fury" in text
        else:
            assert st.rifts == [] and hero["hp"] == 30 - (ele["ranged"] + 2)


def test_rings_rotate_and_bite() -> None:
    game = two_heroes()
    st: CCState = game.state
    st.scenario["rules"] = ["cursed_ring", "ring_of_cloak"]
    A.begin_round(st, [])
    assert st.flags["ring_carrier"] == "warrior"
    st.round = 2
    A.begin_round(st, [])
    assert st.flags["ring_carrier"] == "mage"
    mage, war = st.figures["mage"], st.figures["warrior"]
    act = cards()["charge"].actions[1]
    assert R.miss_limit(st, mage, war, act, False) == 2 and R.miss_limit(st, war, mage, act, False) == 1
    st.order = [["hero", "mage", 5], ["hero", "warrior", 3]]
    assert R.fastest_speed(st, mage) == -5


def test_resolve_recollects_one_card_per_scenario() -> None:
    game = two_heroes()
    st: CCState = game.state
    st.scenario["rules"] = ["resolve"]
    war = st.figures["warrior"]
    war["discard"] = ["last_stand"]
    war["cooldown"] = {"cleave": 1}
    texts = {c.text for c in game.legal_commands("hero1")}
    assert "recollect warrior last_stand" in texts and "recollect warrior cleave" in texts
    game.apply("hero1", "recollect warrior last_stand")
    assert "last_stand" in A.available_cards(war)
    assert not [c for c in game.legal_commands("hero1") if c.verb == "recollect"]


def test_round_start_scenario_rules() -> None:
    game = two_heroes()
    st: CCState = game.state
    war = st.figures["warrior"]
    enemy = next(f for f in st.figures.values() if f["kind"] == "enemy")
    st.scenario["rules"] = ["keep_up_the_speed", "aided_by_darkness", "reinforcements"]
    hp, ehp = war["hp"], enemy["hp"]
    enemy["hp"] = ehp - 3
    st.round = 10
    A.begin_round(st, [])
    assert war["hp"] == hp - 2 and enemy["hp"] == ehp - 3 - 2 + 1
    for f in st.figures.values():
        if f["kind"] == "enemy" and (f.get("captain") or f.get("boss")):
            f["hp"], f["out"] = 0, True
    st.round = 11
    A.begin_round(st, [])
    assert "elereinf" in st.figures


def test_health_rules_at_setup_and_finishing_blows() -> None:
    seen = set()
    for seed in range(60):
        g = new_game("cardcombat", scenario="random", seats={"hero1": None}, seed=seed)
        hero = R.hero_of(g.state, "hero1")
        assert hero is not None
        base = R.hero_stats(hero["race"], hero["cls"], 1)["health"]
        rules = set(g.state.scenario["rules"]) & {"fragile_alliance", "rejuvenating_elixir"}
        want_max = base + (2 if "rejuvenating_elixir" in rules else 0)
        assert hero["max_hp"] == want_max
        assert hero["hp"] == want_max - (3 if "fragile_alliance" in rules else 0)
        seen |= rules
    assert seen == {"fragile_alliance", "rejuvenating_elixir"}
    game = two_heroes()
    st: CCState = game.state
    st.scenario["rules"] = ["finishing_blows"]
    orc = next(f for f in st.figures.values() if f["kind"] == "enemy")
    orc["hp"] = 4
    act = cards()["charge"].actions[1]
    assert R.damage_of(st, st.figures["warrior"], orc, act, 4, 0)[0] == st.figures["warrior"]["melee"] + 1


def test_war_cry_summons_a_captain_for_a_leaderless_group() -> None:
    game = two_heroes()
    st: CCState = game.state
    st.scenario["rules"] = ["war_cry"]
    cap = next(f for f in st.figures.values() if f.get("captain"))
    cap["hp"], cap["out"] = 0, True
    grunt = next(
        f for f in R.alive(st) if f["kind"] == "enemy" and f["type"] == cap["type"] and not f.get("captain")
    )
    R.war_cry(st, grunt, [])
    assert any(f.get("captain") for f in R.alive(st) if f.get("type") == cap["type"])


def test_do_not_linger_bites_after_two_rounds_in_place() -> None:
    game = two_heroes()
    st: CCState = game.state
    st.scenario["rules"] = ["do_not_linger"]
    war = st.figures["warrior"]
    hp = war["hp"]
    for _ in range(3):
        st.phase, st.order, st.drawn = "turns", [], {}
        A.end_round(st, [])
    assert war["hp"] == hp - 2


def test_items_on_a_turn_long_fingers_boost_draught_and_retaliation() -> None:
    camp = {"hero1": {"race": "human", "class": "warrior", "xp": 0, "gold": 0,
                      "items": ["long_fingers", "rush_of_energy", "healing_draught", "malevolent_retaliation"]}}  # fmt: skip
    game = new_game("cardcombat", scenario="crypt", seats={"hero1": None}, seed=2, options={"campaign": camp})
    st: CCState = game.state
    for f in st.figures.values():
        if f["kind"] == "enemy":
            f["move"] = 0
    game.apply("hero1", "commit warrior charge")
    while st.turn.get("fig") != "warrior" and game.outcome is None:
        seat = sorted(game.seats_to_act())[0]
        game.apply(seat, game.bot_command(seat))
    war = st.figures["warrior"]
    pool = st.turn["pool"]
    game.apply("hero1", "use warrior long_fingers")
    assert R.reach(st, war) == 2 and st.turn["pool"] == pool - 2 and A.budget(war) == war["stamina"] - 2
    war["hp"] -= 5
    game.apply("hero1", "use warrior healing_draught")
    assert "healing_draught" not in R.item_ids(war)
    game.apply("hero1", next(c for c in game.legal_commands("hero1") if c.verb == "move"))
    game.apply("hero1", "boost warrior rush_of_energy")
    assert st.turn["mods"]["damage"] == 1
    orc = next(f for f in R.alive(st) if f["kind"] == "enemy")
    spot = R.free_near(st, R.pos(war))
    assert spot is not None
    orc["pos"] = list(spot)
    st.rng.script = [4]
    R.start_attack(st, orc, [war["id"]], cards()["charge"].actions[1], {}, [])
    assert R.has(orc, "mark")


def test_rescue_free_the_prisoner_lead_it_out() -> None:
    game = new_game("cardcombat", scenario="prisoner", seats={"hero1": None, "hero2": None}, seed=3)
    st: CCState = game.state
    pr = st.figures["prisoner"]
    war = st.figures["warrior"]
    assert pr["captive"]
    orc = next(f for f in st.figures.values() if f["kind"] == "enemy")
    assert all(g["id"] != "prisoner" for g in R.foes(st, orc))
    war["pos"] = [pr["pos"][0] - 1, pr["pos"][1]]
    st.turn = {"fig": "warrior", "queue": [], "pool": 0, "mods": {}, "allow": -1}
    st.phase = "turns"
    A.after_action(st, [])
    assert not pr["captive"] and pr["owner"] == "warrior" and pr["seat"] == "hero1"
    assert R.pick_targets(st, orc, 3, R.distance_map(st, orc, False)) == [
        g for g in R.pick_targets(st, orc, 3, R.distance_map(st, orc, False)) if g["kind"] == "hero"
    ]
    R.hurt(st, war, 99, [])
    assert pr["owner"] == "mage" and pr["hp"] > 0  # it follows the other hero
    exit_sq = next((x, y) for y, r in enumerate(st.scenario["rows"]) for x, ch in enumerate(r) if ch == "E")
    A.walk(st, pr, [exit_sq], [])
    assert R.check_outcome(st, []) and st.result is not None and st.result.winners


def test_treasure_horde_places_three_chests_far_away_and_is_won_by_looting_them() -> None:
    game = new_game("cardcombat", scenario="random", seats={"hero1": None}, seed=5)
    st: CCState = game.state
    st.scenario["objective"] = "treasure"
    st.scenario["rules"] = []
    hero = st.figures[R.hero_of(st, "hero1")["id"]]  # type: ignore[index]
    for rnd in range(2, 9):
        st.round = rnd
        A.begin_round(st, [])
    chests = [p for p in st.loot if p[2].startswith("chest:")]
    assert len(chests) == 3
    here = R.pos(hero)
    far = max(R.walking_distance(st, here, (p[0], p[1])) for p in chests)
    assert far >= 8
    for p in list(chests):
        st.loot.remove(p)
        R.take_loot(st, hero, p[2], [])
    assert R.check_outcome(st, []) and st.result is not None and st.result.winners
