"""Skirm core rules with scripted dice: dice, actions and costs, Tactical Orders, the game cycle,
movement, combat, missions, squad building and progression."""

from __future__ import annotations

from typing import Any

import pytest

import engine.rulesets.skirm  # noqa: F401  (registers the ruleset)
from engine import AmbiguousCommand, Game, IllegalCommand, NotYourTurn, RuleError, SetupError, new_game
from engine.geometry.square import parse_cell
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.content import factions, ready_squads, unit_type, weapon
from engine.rulesets.skirm.squads import check_squad, squad_cost
from engine.rulesets.skirm.state import DOWNED, OUT, STANDING, SkirmState


def sq(name: str) -> tuple[int, int]:
    return parse_cell(name, 12, 12)


def arena(
    units: dict[str, str],
    *,
    squads: tuple[Any, Any] = ("shock", "swarm"),
    scenario: str = "seize",
    dice: list[int] | None = None,
    orders: tuple[int, int] = (0, 0),
    side: str = "player1",
    event: int = 1,
    states: dict[str, str] | None = None,
) -> Game:
    """A game in turn 1's activation step with only ``units`` (id -> square) on the map.

    Every other unit is Out. ``dice`` are served next. Event 1 (no effect) unless told.
    """
    game = new_game("skirm", scenario=scenario, seats={"player1": "a", "player2": "b"}, seed=1,
                    options={"squad": {"player1": squads[0], "player2": squads[1]}})  # fmt: skip
    st = state(game)
    st.stack.clear()
    st.phase = "activation"
    st.turn = 1
    st.event = event
    st.zones = dict(zip(B.mission(st).zones, R.SEATS, strict=True))
    st.zones = {s: z for z, s in st.zones.items()}
    st.initiative = st.next_side = side
    st.active = ""
    st.orders = {"player1": orders[0], "player2": orders[1]}
    for u in st.units.values():
        if u.id in units:
            u.state, u.pos = STANDING, sq(units[u.id])
        else:
            u.state, u.pos = OUT, None
    for uid, s in (states or {}).items():
        st.units[uid].state = s
    st.rng.script = list(dice or [])
    return game


def state(game: Game) -> SkirmState:
    st: SkirmState = game.state  # type: ignore[assignment]
    return st


def text(events: list[Any]) -> str:
    return " | ".join(e.text for e in events)


# -- dice ------------------------------------------------------------------------------------------------


def test_dice_succeed_at_or_under_the_stat_one_always_six_never():
    assert R.success(3, 3) and not R.success(4, 3)
    assert R.success(1, 0)  # a 1 succeeds even against a stat lowered below 1
    assert not R.success(6, 7)  # a 6 fails even against a stat raised above 6
    assert R.success(5, 7)


def test_roll_off_lowest_wins_and_ties_are_rolled_again():
    game = new_game("skirm", seed=3, dice=[4, 4, 5, 2])
    st = state(game)
    assert st.placer == "player2"
    first, second = st.squads["player1"]["name"], st.squads["player2"]["name"]
    assert f"(lowest wins) {first} 4, {second} 4, a tie; then 5 v 2: {second} picks a zone" in st.intro
    assert game.awaiting()[0].kind == "setup"


# -- deployment ------------------------------------------------------------------------------------------


def test_deployment_alternates_inside_the_chosen_zones():
    game = new_game("skirm", seed=3, dice=[2, 5], seats={"player1": "a", "player2": "b"})
    with pytest.raises(NotYourTurn):
        game.apply("player2", "zone north")
    game.apply("player1", "zone south")
    st = state(game)
    assert st.zones == {"player1": "south", "player2": "north"}
    with pytest.raises(IllegalCommand, match="deployment zone"):
        game.apply("player1", "deploy trooper e5")
    game.apply("player1", "deploy trooper e11")
    assert game.awaiting()[0].seats == {"player2"}
    with pytest.raises(IllegalCommand):
        game.apply("player2", "deploy witch e11")  # wrong zone
    game.apply("player2", "deploy witch e2")
    with pytest.raises(IllegalCommand, match="occupied|not one"):
        game.apply("player1", "deploy captain e11")
    # Deploy everything; turn 1 starts by itself.
    while state(game).phase == "deploy":
        seat = next(iter(game.awaiting()[0].seats))
        game.apply(seat, game.legal_commands(seat)[0])
    assert state(game).turn == 1 and state(game).phase == "activation"


# -- actions, costs, orders ------------------------------------------------------------------------------


def test_repeating_an_action_costs_one_more_and_orders_pay_the_rest():
    game = arena({"captain": "e5", "gaunt": "e9"}, orders=(1, 0), dice=[6, 6, 6, 6])
    game.apply("player1", "activate captain")
    st = state(game)
    assert st.units["captain"].act == 3
    # Both shots miss: attack [6 6] twice; the offered re-roll is declined each time.
    game.apply("player1", "shoot captain bolt_pistol gaunt")
    game.apply("player1", "keep")
    assert st.units["captain"].act_used == 1
    cmd = game.parse("player1", "shoot captain bolt_pistol gaunt")
    assert "(2 ACT)" in cmd.label
    game.apply("player1", cmd)
    game.apply("player1", "keep")
    assert st.units["captain"].act_used == 3 and st.orders["player1"] == 1
    # A third shot would cost 3: 0 ACT + 1 TO is not enough.
    with pytest.raises(IllegalCommand, match="needs 3 ACT"):
        game.apply("player1", "shoot captain bolt_pistol gaunt")
    # A first Move still costs 1, paid by the Tactical Order; then the activation ends by itself.
    game.apply("player1", "move captain e4")
    assert st.orders["player1"] == 0
    assert st.active == "" and st.units["captain"].activated


def test_tactical_orders_are_3d6_plus_standing_leader_dice_each_one_to_three_counts():
    game = arena({"captain": "e5", "tyrant": "e9", "gaunt": "a9"})
    st = state(game)
    # Roll-off 2 v 5 (player1), orders: player1 3+LD2 = 5 dice, player2 3+LD1 = 4 dice, event die.
    st.rng.script = [2, 5, 1, 2, 3, 4, 6, 4, 5, 6, 3, 1]
    ev: list[Any] = []
    st.turn = 1
    R.start_turn(st, ev)
    assert st.orders == {"player1": 3, "player2": 1}
    assert "5D6" in text(ev) and "4D6" in text(ev)
    # A Downed leader adds no dice.
    st.units["captain"].state = DOWNED
    st.rng.script = [2, 5, 1, 1, 1, 4, 4, 4, 4, 1]
    R.start_turn(st, ev)
    assert st.orders["player1"] == 3 and st.orders_rolled["player1"] == 3


def test_the_war_witch_leads_with_two_order_dice_and_the_hive_tyrant_with_one():
    # Content tuned in ruling 47: the Red Choir's War Witch is LD2; the Brood's Hive Tyrant stays LD1.
    game = arena({"witch": "e5", "tyrant": "e9"}, squads=("coven", "swarm"))
    st = state(game)
    st.rng.script = [2, 5, 1, 2, 3, 4, 6, 1, 1, 1, 1, 3]
    ev: list[Any] = []
    R.start_turn(st, ev)
    assert "5D6" in text(ev) and "4D6" in text(ev)
    assert st.orders == {"player1": 3, "player2": 4}


def test_the_skyborn_fights_with_melee_skill_5():
    # Content tuned after the third audit (ruling 47, variant F): diagonal Leaps now need both side squares
    # free (ruling 51), and the Red Choir fell to 0.39; its Skyborn's MSK 4 -> 5 brought it back to 0.42.
    assert unit_type("skyborn").msk == 5
    assert unit_type("sister").msk == 5 and unit_type("zealot").msk == 4  # the rest of the Choir as tuned


def test_the_war_witch_hex_bolt_throws_three_dice_and_the_court_brings_four_warriors():
    # Content tuned at hard's own 500 playouts (ruling 47, variant H): the Coven scored 0.38 and Ankh 0.37;
    # Hex Bolt ROA 2 -> 3 and a fourth Revenant Warrior (the Court had 11 EP unspent) brought both back.
    assert (weapon("hex_bolt").roa, weapon("hex_bolt").ep) == (3, 5)
    assert unit_type("zealot").arm == 3  # variant G's Zealot armour was not kept
    court = ready_squads()["ankh"]
    assert [u["type"] for u in court["units"]].count("warrior") == 4
    assert (len(court["units"]), squad_cost(court)) == (7, 99)


def test_revenant_warriors_shoot_with_ranged_skill_2():
    # Variant I (ruling 47): with four Warriors the Court scored 0.63; their RSK 3 -> 2 brought it to 0.57.
    warrior = unit_type("warrior")
    assert (warrior.rsk, warrior.msk, warrior.arm, warrior.ep) == (2, 3, 4, 10)


def test_unused_orders_are_lost_at_the_end_of_the_turn():
    game = arena({"captain": "a1", "gaunt": "l12"}, orders=(2, 2))
    st = state(game)
    st.rng.script = [2, 5] + [4] * 8 + [1]  # next turn: roll-off, no orders at all, a calm event
    game.apply("player1", "activate captain")
    game.apply("player1", "end")
    game.apply("player2", "activate gaunt")
    game.apply("player2", "end")
    assert st.turn == 2 and st.orders == {"player1": 0, "player2": 0}


def test_a_reroll_decision_goes_to_the_defender_during_the_attackers_activation():
    # Captain (RSK 4, bolt pistol ROA 2) shoots the gaunt (ARM 2): attack [1 6] -> 1 strike; save [5] fails.
    game = arena({"captain": "e5", "gaunt": "e9"}, orders=(0, 1), dice=[1, 6, 5, 2])
    game.apply("player1", "activate captain")
    game.apply("player1", "shoot captain bolt_pistol gaunt")
    d = game.awaiting()[0]
    assert d.kind == "reaction" and d.seats == {"player2"} and d.default.text == "keep"
    assert [c.text for c in d.options] == ["keep", "reroll 1"]
    with pytest.raises(NotYourTurn):
        game.apply("player1", "end")
    events = game.apply("player2", "reroll 1")
    assert "re-roll a 5 → 2" in text(events)
    st = state(game)
    assert st.units["gaunt"].state == STANDING and st.orders["player2"] == 0


def test_a_die_is_rerolled_at_most_once():
    # Attack dice [5 5] vs RSK 4: both fail; player1 has 2 orders.
    game = arena({"captain": "e5", "gaunt": "e9"}, orders=(2, 0), dice=[5, 5, 6])
    game.apply("player1", "activate captain")
    game.apply("player1", "shoot captain bolt_pistol gaunt")
    assert [c.text for c in game.legal_commands("player1")] == ["keep", "reroll 1", "reroll 2"]
    game.apply("player1", "reroll 1")  # -> 6, still a failure
    with pytest.raises(IllegalCommand, match="one re-roll per die"):
        game.apply("player1", "reroll 1")
    assert [c.text for c in game.legal_commands("player1")] == ["keep", "reroll 2"]


# -- movement --------------------------------------------------------------------------------------------


def dests(game: Game, seat: str, verb: str) -> set[str]:
    return {c.args[1] for c in game.legal_commands(seat) if c.verb == verb}


def test_leaving_difficult_ground_costs_two():
    game = arena({"trooper": "d3", "gaunt": "l12"})
    game.apply("player1", "activate trooper")
    assert "g3" not in dests(game, "player1", "move")  # d3 -> e3 costs 2, then f3: 3 squares in all
    assert "f3" in dests(game, "player1", "move")
    assert not dests(game, "player1", "dash") & {"e3", "e2", "e4"}  # a Dash of 1 cannot leave d3
    game2 = arena({"trooper": "e2", "gaunt": "l12"})
    game2.apply("player1", "activate trooper")
    assert "h2" in dests(game2, "player1", "move")


def test_a_low_wall_costs_two_to_cross_and_blocks_diagonals():
    game = arena({"trooper": "e4", "gaunt": "l12"})
    game.apply("player1", "activate trooper")
    assert "e3" in dests(game, "player1", "move") and "e3" not in dests(game, "player1", "dash")
    assert "d3" not in dests(game, "player1", "dash")  # the diagonal would clip the e3|e4 wall
    assert "d4" in dests(game, "player1", "dash")


def test_climbing_costs_height_plus_one_up_and_the_height_down():
    game = arena({"trooper": "h4", "gaunt": "l12"})
    game.apply("player1", "activate trooper")
    assert "i4" in dests(game, "player1", "move")  # ladder on h4|i4: 2 up + 1 = 3
    assert "j4" not in dests(game, "player1", "move")
    st = state(game)
    assert B.step_cost(st, sq("h4"), sq("i4"), False) == 3
    assert B.step_cost(st, sq("i4"), sq("h4"), False) == 2
    assert B.step_cost(st, sq("i3"), sq("i4"), False) is None  # a 2-high face without a ladder
    assert B.step_cost(st, sq("f5"), sq("f6"), False) == 2  # a 1-high step needs no ladder


def test_stairs_count_as_flat_ground():
    game = arena({"trooper": "j7", "gaunt": "a12"})
    st = state(game)
    assert B.step_cost(st, sq("j7"), sq("j6"), False) == 1 and B.step_cost(st, sq("j6"), sq("j5"), False) == 1
    game.apply("player1", "activate trooper")
    assert "j5" in dests(game, "player1", "move")


def test_no_passing_next_to_a_standing_enemy_but_stopping_there_is_fine():
    game = arena({"trooper": "c12", "gaunt": "e11"})
    game.apply("player1", "activate trooper")
    moves = dests(game, "player1", "move")
    assert "d12" in moves and "f12" not in moves
    with pytest.raises(IllegalCommand, match="cannot reach f12"):
        game.apply("player1", "move trooper f12")
    # A Downed enemy only blocks its own square.
    game2 = arena({"trooper": "c12", "gaunt": "e11"}, states={"gaunt": DOWNED})
    game2.apply("player1", "activate trooper")
    assert "f12" in dests(game2, "player1", "move") and "e11" not in dests(game2, "player1", "move")


def test_diagonal_steps_need_both_side_squares_free():
    game = arena({"trooper": "a1", "trooper2": "b1", "gaunt": "l12"})
    game.apply("player1", "activate trooper")
    assert "b2" not in dests(game, "player1", "dash")
    assert "b2" in dests(game, "player1", "move")  # round through the friend's square (cost 2)
    assert "b1" not in dests(game, "player1", "move")  # one unit per square


def test_height_difference_over_one_is_not_adjacent():
    game = arena({"breacher": "i4", "gaunt": "h3"})
    st = state(game)
    assert not B.adjacent(st, sq("i4"), sq("i3")) and B.adjacent(st, sq("f6"), sq("f5"))
    game.apply("player1", "activate breacher")
    with pytest.raises(IllegalCommand, match="not in an adjacent square"):
        game.apply("player1", "fight breacher shotgun gaunt")


def test_distance_is_horizontal():
    game = arena({"captain": "i5", "gaunt": "c5"})  # captain on a 2-high roof
    game.apply("player1", "activate captain")
    assert (
        game.parse("player1", "shoot captain bolt_pistol gaunt").verb == "shoot"
    )  # 6 squares, height ignored


# -- sight, cover, combat ---------------------------------------------------------------------------------


def test_line_of_sight_blocked_by_high_walls_closed_doors_and_standing_units():
    game = arena({"captain": "e6", "gaunt": "b6", "trooper": "h2", "gaunt2": "h10"}, orders=(0, 0))
    st = state(game)
    assert not B.sees(st, sq("e6"), sq("b6"))  # the store's door b6|c6 is shut
    st.doors[(sq("b6"), sq("c6"))] = True
    assert B.sees(st, sq("e6"), sq("b6"))
    assert B.sees(st, sq("h2"), sq("h10"))
    st.units["trooper2"].state, st.units["trooper2"].pos = STANDING, sq("h6")
    assert not B.sees(st, sq("h2"), sq("h10"))  # no shooting through a Standing unit
    st.units["trooper2"].state = DOWNED
    assert B.sees(st, sq("h2"), sq("h10"))  # Downed units do not block


def test_cover_from_a_low_wall_on_the_targets_facing_side_is_one_automatic_save():
    # Captain at e1 shoots the gaunt at e4 (low wall e3|e4 on its north side): attack [1 1] = 2 strikes,
    # cover saves one, the gaunt rolls a single save [1].
    game = arena({"captain": "e1", "gaunt": "e4"}, dice=[1, 1, 1])
    game.apply("player1", "activate captain")
    events = game.apply("player1", "shoot captain bolt_pistol gaunt")
    assert "1 automatic save (cover)" in text(events) and "rolls 1 save " in text(events)
    st = state(game)
    assert B.in_cover(st, sq("e1"), sq("e4")) and not B.in_cover(st, sq("e9"), sq("e4"))


def test_ranged_needs_a_non_adjacent_target_in_range_and_no_standing_enemy_adjacent():
    game = arena({"captain": "e5", "gaunt": "e6", "gaunt2": "e12"})
    game.apply("player1", "activate captain")
    with pytest.raises(IllegalCommand, match="Standing enemy adjacent"):
        game.apply("player1", "shoot captain bolt_pistol gaunt2")
    st = state(game)
    st.units["gaunt"].pos = sq("a1")
    with pytest.raises(IllegalCommand, match="reaches 6"):
        game.apply("player1", "shoot captain bolt_pistol gaunt2")  # 7 squares away
    st.units["gaunt"].pos = sq("e6")
    st.units["gaunt"].state = DOWNED  # a Downed enemy does not stop shooting... but is too close itself
    with pytest.raises(IllegalCommand, match="must not be adjacent"):
        game.apply("player1", "shoot captain bolt_pistol gaunt")


def test_high_ground_gives_plus_one_skill():
    st = state(arena({"trooper": "f6", "gaunt": "f5", "captain": "i5", "gaunt2": "e5"}))
    t, g, c, g2 = (st.units[k] for k in ("trooper", "gaunt", "captain", "gaunt2"))
    knife, pistol = R.wp("combat_knife"), R.wp("bolt_pistol")
    assert R.attack_skill(st, t, knife, g, True) == 3 + 1  # 1 square higher in melee
    assert R.attack_skill(st, c, pistol, g2, False) == 4 + 1  # 2 squares higher at range
    assert R.attack_skill(st, g, R.wp("claws"), t, True) == 3


def test_support_adds_one_attack_die_in_melee():
    st = state(arena({"trooper": "e5", "trooper2": "f6", "gaunt": "e6"}))
    t, g = st.units["trooper"], st.units["gaunt"]
    assert R.attack_dice(st, t, R.wp("combat_knife"), g, True, False) == 2
    st.units["trooper2"].state = DOWNED
    assert R.attack_dice(st, t, R.wp("combat_knife"), g, True, False) == 1


def test_downed_units_may_only_recover_or_crawl_and_recover_rolls_armour():
    game = arena({"trooper": "e5", "gaunt": "l12"}, states={"trooper": DOWNED}, dice=[5, 3])
    game.apply("player1", "activate trooper")
    verbs = {c.verb for c in game.legal_commands("player1")}
    assert verbs <= {"end", "crawl", "recover"} and {"crawl", "recover"} <= verbs
    with pytest.raises(IllegalCommand, match="Downed"):
        game.apply("player1", "move trooper e7")
    events = game.apply("player1", "recover trooper trooper")  # 5 vs ARM 4: fails
    assert "stays Downed" in text(events)
    with pytest.raises(IllegalCommand, match="needs 2 ACT"):
        game.apply("player1", "recover trooper trooper")  # the repeat costs 2; 1 ACT is left
    events = game.apply("player1", "crawl trooper e6")
    assert state(game).units["trooper"].pos == sq("e6")


def test_a_standing_squadmate_can_help_an_adjacent_downed_unit_recover():
    game = arena({"trooper": "e5", "trooper2": "e6", "gaunt": "l12"}, states={"trooper2": DOWNED}, dice=[4])
    game.apply("player1", "activate trooper")
    events = game.apply("player1", "recover trooper trooper2")
    assert "Standing again" in text(events) and state(game).units["trooper2"].state == STANDING


def test_doors_open_and_close_from_a_side_of_the_units_square():
    game = arena({"trooper": "c6", "gaunt": "l12"}, orders=(1, 0))
    game.apply("player1", "activate trooper")
    with pytest.raises(IllegalCommand, match="no door"):
        game.apply("player1", "open trooper j7|k7")
    game.apply("player1", "open trooper b6|c6")
    st = state(game)
    assert st.doors[(sq("b6"), sq("c6"))]
    assert "b6" in dests(game, "player1", "dash")
    game.apply("player1", "close trooper b6|c6")  # the repeat costs 2: 1 ACT + 1 TO
    assert not st.doors[(sq("b6"), sq("c6"))] and st.orders["player1"] == 0


# -- missions, events, scoring ----------------------------------------------------------------------------


def end_everything(game: Game) -> list[Any]:
    events: list[Any] = []
    while not game.outcome and state(game).turn == state(game).turn:
        d = game.awaiting()[0]
        seat = next(iter(d.seats))
        opts = [c for c in game.legal_commands(seat) if c.verb in ("activate", "end", "keep")]
        before = state(game).turn
        events += game.apply(seat, opts[0])
        if state(game).turn != before or game.outcome:
            break
    return events


def test_objectives_score_when_held_with_no_enemy_adjacent_and_turn_four_ends_the_game():
    game = arena(
        {"trooper": "d4", "captain": "f6", "gaunt": "f5", "gaunt2": "i9"}, dice=[2, 5] + [4] * 9 + [1]
    )
    st = state(game)
    assert R.controller(st, sq("d4")) == "player1" and R.controller(st, sq("f6")) == ""
    end_everything(game)
    assert st.points == {"player1": 1, "player2": 1} and st.turn == 2
    st.turn = 4
    st.rng.script = []
    end_everything(game)
    assert game.outcome is not None and game.outcome.draw and "2 all" in game.outcome.reason


def test_planting_a_banner_keeps_an_empty_objective_scoring():
    game = arena({"trooper": "d4", "gaunt": "l12"}, dice=[2, 5] + [4] * 7 + [1])
    game.apply("player1", "activate trooper")
    events = game.apply("player1", "plant trooper")
    assert "banner" in text(events)
    st = state(game)
    st.units["trooper"].pos = sq("a1")
    end_everything(game)
    assert st.points["player1"] == 1
    with pytest.raises(RuleError):
        game.apply("player1", "upload trooper")  # not a mission action of Seize Ground


def test_data_caches_are_picked_up_carried_dropped_when_downed_and_uploaded_at_home():
    game = arena({"trooper": "c5", "gaunt": "l12", "captain": "e2"}, scenario="heist", orders=(1, 0))
    game.apply("player1", "activate trooper")
    game.apply("player1", "pickup trooper")
    st = state(game)
    assert st.units["trooper"].carrying == "d1" and st.markers["d1"]["pos"] is None
    with pytest.raises(IllegalCommand, match="deployment zone"):
        game.apply("player1", "upload trooper")
    game.apply("player1", "drop trooper")  # 2 ACT for the repeat: 1 ACT + 1 TO
    assert st.markers["d1"]["pos"] == [2, 4]
    # Carried data falls when its carrier is Downed; uploads score 2 at home.
    st.units["captain"].carrying = "d2"
    st.markers["d2"] = {"pos": None, "carrier": "captain"}
    st.active = ""
    st.next_side = "player1"
    game.apply("player1", "activate captain")
    events = game.apply("player1", "upload captain")
    assert st.points["player1"] == 2 and "d2" not in st.markers and "+2" in text(events)
    R.degrade(st, st.units["trooper"], "player2", [])
    st.units["trooper"].carrying = ""


def test_sabotage_rolls_ranged_skill_for_two_points_and_destroys_the_objective():
    game = arena({"trooper": "f4", "gaunt": "l12"}, scenario="sabotage", dice=[3])
    game.apply("player1", "activate trooper")
    events = game.apply("player1", "sabotage trooper")
    st = state(game)
    assert "3 vs RSK 4" in text(events) and st.points["player1"] == 2
    assert st.objectives[0]["gone"]


def test_events_fog_mud_lockdown_and_supplies():
    game = arena({"captain": "e2", "gaunt": "e8"}, event=2)  # Smoke: ranged reach 4
    game.apply("player1", "activate captain")
    with pytest.raises(IllegalCommand, match="reaches 4"):
        game.apply("player1", "shoot captain bolt_pistol gaunt")
    game = arena({"trooper": "e2", "gaunt": "l12"}, event=3)  # Flooded streets: Move covers 2
    game.apply("player1", "activate trooper")
    assert "h2" not in dests(game, "player1", "move") and "g2" in dests(game, "player1", "move")
    game = arena({"trooper": "c6", "gaunt": "l12"})
    st = state(game)
    st.doors[(sq("b6"), sq("c6"))] = True
    st.rng.script = [2, 5, 4, 4, 4, 4, 4, 4, 5]  # roll-off, 3+3 order dice, event 5: curfew, doors shut
    R.start_turn(st, [])
    assert not st.doors[(sq("b6"), sq("c6"))]
    st.rng.script = [2, 5, 4, 4, 4, 4, 4, 4, 4]  # event 4: the initiative winner gains an order
    R.start_turn(st, [])
    assert st.orders == {"player1": 1, "player2": 0}


def test_bounty_turns_score_double():
    game = arena({"trooper": "d4", "gaunt": "l12"}, event=6, dice=[2, 5] + [4] * 7 + [1])
    end_everything(game)
    assert state(game).points["player1"] == 2


# -- squads and progression --------------------------------------------------------------------------------


def test_ready_made_squads_are_valid_and_within_100_ep():
    assert len(ready_squads()) == 5
    for sid, squad in ready_squads().items():
        assert squad_cost(squad) <= 100, sid
        assert check_squad(squad)[1] == squad["faction"]
        assert 5 <= len(squad["units"]) <= 7, sid
    for f in factions().values():
        assert len(f.units) >= 4


@pytest.mark.parametrize(
    ("units", "error"),
    [
        ([{"type": "trooper"}] * 8, "costs 112 EP"),
        ([{"type": "captain"}, {"type": "captain"}], "only once"),
        ([{"type": "gunner"}, {"type": "gunner"}], "Rotary Cannon may appear only once"),
        ([{"type": "trooper", "weapons": ["rotary_cannon"]}], "cannot carry"),
        ([{"type": "trooper", "skills": ["stim_pack"]}], "cannot learn"),
        ([{"type": "general"}], "no unit 'general'"),
        ([], "no units"),
    ],
)
def test_squad_building_errors_are_clear(units, error):
    with pytest.raises(SetupError, match=error):
        check_squad({"faction": "shock", "name": "Test", "units": units})


def test_once_per_squad_skills_and_no_equipment_units():
    with pytest.raises(SetupError, match=r"Runic Ward\* may appear only once"):
        check_squad({"faction": "stonekin", "units": [{"type": "thane", "skills": ["runic_ward"]},
                                                       {"type": "engineer", "skills": ["runic_ward"]}]})  # fmt: skip
    with pytest.raises(SetupError, match="NEQ"):
        check_squad({"faction": "ankh", "units": [{"type": "warrior", "weapons": ["synaptic_rifle"]}]})
    with pytest.raises(SetupError, match="no Skirm faction"):
        check_squad({"faction": "elves", "units": [{"type": "x"}]})


def test_a_custom_squad_plays_and_the_cap_comes_from_the_campaign_record():
    squad = {"name": "Gunline", "faction": "shock", "units": [{"type": "gunner"}] + [{"type": "trooper"}] * 6}
    with pytest.raises(SetupError, match="costs 104 EP"):
        new_game("skirm", options={"squad": {"player1": squad}})
    record = {"squad": squad, "ep": 106, "missions": 3, "wins": 1, "last": {}}
    game = new_game("skirm", options={"squad": {"player1": "saved"}, "campaign": {"player1": record}})
    assert state(game).squads["player1"]["name"] == "Gunline" and state(game).squads["player1"]["cap"] == 106
    # "saved" without a record: the seat's ready-made default (player2: The Red Choir).
    fresh = new_game("skirm", options={"squad": {"player1": "saved", "player2": "saved"}})
    assert state(fresh).squads["player1"]["faction"] == "shock"
    assert state(fresh).squads["player2"]["faction"] == "coven"
    with pytest.raises(SetupError, match="at most 80 EP"):
        new_game("skirm", options={"squad": {"player1": "shock"}, "cap": 80})
    game = new_game("skirm", options={"squad": {"player1": squad}, "cap": 110})
    assert state(game).squads["player1"]["cost"] == 104
    with pytest.raises(SetupError, match="no ready-made"):
        new_game("skirm", options={"squad": {"player2": "orks"}})


def test_lobby_offers_the_saved_squad_first_then_one_squad_per_faction():
    from engine import RULESETS

    rs = RULESETS["skirm"]
    (spec,) = rs.option_specs("seize")
    assert spec.key == "squad" and spec.per_seat
    assert [v for v, _ in spec.choices] == ["saved", "shock", "coven", "stonekin", "ankh", "swarm"]
    assert rs.campaign_scope == "player"


def test_progression_after_a_mission():
    from engine import RULESETS

    rs = RULESETS["skirm"]
    game = arena({"trooper": "d4", "captain": "a1", "gaunt": "l12"}, dice=[2, 5] + [4] * 8 + [1])
    st = state(game)
    st.units["captain"].state = DOWNED
    st.turn = 4
    assert rs.campaign_update(st) == {}
    end_everything(game)
    assert game.outcome is not None and game.outcome.winners == {"player1"}
    rec = rs.campaign_update(st)
    p1, p2 = rec["player1"], rec["player2"]
    # player1: +2 finished, +2 victory, +5 enemies out (Brood Kharn's six but the gaunt), +1 standing (the
    # trooper).
    assert p1["last"]["gained"] == {"finished": 2, "victory": 2, "enemies_out": 5, "standing": 1}
    assert p1["ep"] == 110 and p1["missions"] == 1 and p1["wins"] == 1
    # player2: +2 finished, +3 enemies out (breacher, marksman, trooper2), +1 standing (the gaunt).
    assert p2["ep"] == 106 and p2["wins"] == 0
    assert "110 EP available" in rs.describe_campaign(p1)
    # The record comes back as the saved squad with its bigger cap.
    again = new_game("skirm", options={"campaign": {"player1": p1}})
    assert state(again).squads["player1"]["cap"] == 110


def test_a_standing_answer_stops_reroll_questions_and_is_allowed_any_time():
    game = arena({"captain": "e5", "gaunt": "e9"}, orders=(0, 1), dice=[1, 6, 5])
    game.apply("player2", "react reroll never")  # not player2's turn, still accepted
    game.apply("player1", "activate captain")
    game.apply("player1", "shoot captain bolt_pistol gaunt")
    st = state(game)
    assert not st.stack and st.units["gaunt"].state == DOWNED and st.orders["player2"] == 1
    with pytest.raises(IllegalCommand, match="react reroll ask"):
        game.apply("player2", "react dodge always")


def test_content_uses_every_special_rule_and_maps_have_every_terrain():
    from engine.rulesets.skirm.content import UNIT_RULES, WEAPON_RULES, missions

    units = [u for f in factions().values() for u in f.units.values()]
    weapons = [w for f in factions().values() for w in f.weapons.values()]
    used_unit = set().union(*(u.rules for u in units))
    assert used_unit >= UNIT_RULES
    assert any(u.leader for u in units) and any(u.leap for u in units)
    assert set().union(*(w.rules for w in weapons)) >= WEAPON_RULES
    assert any(w.range for w in weapons) and any(w.skill for w in weapons)
    assert len(missions()) >= 3
    for m in missions().values():
        bm = m.map
        assert bm.low and bm.high and bm.doors and bm.climb, m.id
        assert {"~", "/"} <= set(bm.terrain.values()) and max(bm.height.values()) >= 2, m.id
        assert len(m.zones) == 2 and m.objectives and m.actions and len(m.events) == 6


def test_the_weapon_may_be_left_out_when_only_one_fits():
    game = arena({"captain": "e5", "gaunt": "e9", "gaunt2": "f6"}, states={"gaunt2": DOWNED})
    game.apply("player1", "activate captain")
    assert game.parse("player1", "shoot captain gaunt").text == "shoot captain bolt_pistol gaunt"
    with pytest.raises(AmbiguousCommand, match="power_sword"):
        game.parse("player1", "fight captain gaunt2")  # the sword, or the pistol at close range (MCR)
    game2 = arena({"trooper": "e5", "gaunt": "e6"})
    game2.apply("player1", "activate trooper")
    assert game2.parse("player1", "fight trooper gaunt").text == "fight trooper combat_knife gaunt"
    with pytest.raises(IllegalCommand, match="not in an adjacent square"):
        game2.parse("player1", "fight trooper gaunt2")


def test_malformed_content_names_the_file_and_entry(monkeypatch):
    import copy

    from engine import ContentError
    from engine.rulesets.skirm import content as C

    real = C._read

    def broken(name: str):
        data = copy.deepcopy(real(name))
        if name == "maps.json":
            data["maps"][0]["rows"][3] = "0. 0. 0. 9?"
        return data

    monkeypatch.setattr(C, "_read", broken)
    C.maps.cache_clear()
    try:
        with pytest.raises(ContentError, match=r"maps.json: map crossroads: row 4"):
            C.maps()
    finally:
        monkeypatch.setattr(C, "_read", real)
        C.maps.cache_clear()
    assert "crossroads" in C.maps()


def test_a_whole_short_mission_through_the_public_face_with_scripted_dice():
    from engine import RULESETS, load_game

    one = {"name": "Pointman", "faction": "shock", "units": [{"type": "trooper"}]}
    bug = {"name": "Lone Gaunt", "faction": "swarm", "units": [{"type": "gaunt"}]}
    turn = [1, 2, 4, 4, 4, 4, 4, 4, 1]  # initiative 1 v 2, no orders (3D6 of 4s each), a calm event
    game = new_game("skirm", scenario="seize", seats={"player1": "a", "player2": "b"}, seed=7,
                    dice=[1, 2] + turn * 4, options={"squad": {"player1": one, "player2": bug}})  # fmt: skip
    plays = [
        ("player1", "zone north"), ("player1", "deploy trooper d2"), ("player2", "deploy gaunt i11"),
        ("player1", "activate trooper"), ("player1", "move trooper d4"), ("player1", "end"),
        ("player2", "activate gaunt"), ("player2", "move gaunt i9"), ("player2", "end"),
        ("player1", "activate trooper"), ("player1", "end"), ("player2", "activate gaunt"), ("player2", "end"),
        ("player1", "activate trooper"), ("player1", "end"),
        ("player2", "activate gaunt"), ("player2", "move gaunt i8"), ("player2", "end"),
        ("player1", "activate trooper"), ("player1", "end"), ("player2", "activate gaunt"), ("player2", "end"),
    ]  # fmt: skip
    for seat, cmd in plays:
        assert game.outcome is None
        game.apply(seat, cmd)
    assert game.outcome is not None and game.outcome.winners == {"player1"}
    assert "4 to 2" in game.outcome.reason
    assert game.replay().to_json() == game.to_json() == load_game(game.to_json()).to_json()
    rec = RULESETS["skirm"].campaign_update(game.state)
    assert rec["player1"]["ep"] == 100 + 2 + 2 + 0 + 1 and rec["player2"]["ep"] == 100 + 2 + 0 + 1


def test_a_failed_save_takes_a_downed_unit_out_and_off_the_map():
    # Bolt pistol [1 6]: one strike; save [6]: the Downed gaunt is taken Out.
    game = arena({"captain": "e5", "gaunt": "e9"}, states={"gaunt": DOWNED}, dice=[1, 6, 6])
    game.apply("player1", "activate captain")
    events = game.apply("player1", "shoot captain bolt_pistol gaunt")
    g = state(game).units["gaunt"]
    assert "taken Out" in text(events) and g.state == OUT and g.pos is None and g.out_by == "player1"


def test_the_initiative_winner_rolls_the_mission_event():
    game = arena({"captain": "e5", "gaunt": "e9"})
    st = state(game)
    ev: list[Any] = []
    st.rng.script = [5, 2, 4, 4, 4, 4, 4, 4, 4, 4, 2]  # player2 wins initiative; event 2 (smoke)
    R.start_turn(st, ev)
    assert st.initiative == "player2" and st.next_side == "player2"
    assert "Brood Kharn rolls the mission event: 2, Smoke from the ruins" in text(ev)
