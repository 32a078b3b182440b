"""The ESCAPE evaluation the search player scores positions with: progress to each scenario's goal."""

from __future__ import annotations

import json
from dataclasses import replace

from engine import Game, new_game
from engine.ai.levels import level_budget
from engine.ai.search import Searcher
from engine.rulesets.escape.search import evaluate, resistance_score
from tests.escape_helpers import arena, equip, lay, state


def _score(units: dict[str, str], scenario: str, *, turn: int = 1) -> float:
    game = arena(units, scenario=scenario)
    state(game).turn = turn
    return resistance_score(state(game))


def test_evasion_a_character_nearer_the_exit_airlock_scores_higher_for_the_resistance() -> None:
    # Airlock 2 is on the east edge (t10, t11); the I.S.C. stands far off in the Central room.
    far = _score({"jimmy": "c3", "oni": "k12"}, "evasion")
    nearer = _score({"jimmy": "p8", "oni": "k12"}, "evasion")
    at_exit = _score({"jimmy": "t11", "oni": "k12"}, "evasion")
    assert far < nearer < at_exit
    game = arena({"jimmy": "p8", "oni": "k12"}, scenario="evasion")
    st = state(game)
    assert evaluate(st, "isc") == 1.0 - evaluate(st, "resistance")


def test_evasion_every_step_towards_the_exit_counts_even_from_far_away() -> None:
    # The old evaluation's 1/(1+d) credit was flat this far out; a step must still show.
    a = _score({"jimmy": "a1", "oni": "k12"}, "evasion")
    b = _score({"jimmy": "b1", "oni": "k12"}, "evasion")
    assert b - a > 0.002


def test_turns_running_out_lower_the_resistance_s_chances_far_from_its_goal() -> None:
    early = _score({"jimmy": "c3", "mira": "d3", "kenji": "e3", "oni": "k12"}, "evasion", turn=1)
    late = _score({"jimmy": "c3", "mira": "d3", "kenji": "e3", "oni": "k12"}, "evasion", turn=7)
    assert late < early - 0.05


def test_wounds_lower_the_resistance_s_score() -> None:
    game = arena({"jimmy": "p8", "oni": "k12"}, scenario="evasion")
    st = state(game)
    healthy = resistance_score(st)
    st.units["jimmy"].damage = 3
    assert resistance_score(st) < healthy - 0.02


def test_data_theft_a_carried_core_counts_and_more_so_nearer_the_exit() -> None:
    # Airlock 4 is on the west edge (a10, a11).
    def theft(where: str, carrying: bool) -> float:
        game = arena({"jimmy": where, "oni": "k12"}, scenario="datatheft")
        lay(game, "objective", "s18", value=1)
        if carrying:
            equip(game, "jimmy", "", kind="objective", value=2)
        return resistance_score(state(game))

    assert theft("h3", carrying=False) < theft("h3", carrying=True)
    assert theft("h3", carrying=True) < theft("c10", carrying=True)


def test_infiltration_standing_in_the_server_room_outnumbering_the_isc_scores_higher() -> None:
    outside = _score({"jimmy": "j2", "mira": "k2", "oni": "a20"}, "infiltration")
    one_in = _score({"jimmy": "s18", "mira": "k2", "oni": "a20"}, "infiltration")
    both_in = _score({"jimmy": "s18", "mira": "s17", "oni": "a20"}, "infiltration")
    assert outside < one_in < both_in
    # Two defenders in the room mean a third character must come in to outnumber them.
    defended = _score({"jimmy": "s18", "mira": "s17", "oni": "r18", "ubume": "q18"}, "infiltration")
    assert defended < both_in


def test_standing_within_reach_of_isc_fighters_scores_lower_for_the_resistance() -> None:
    alone = _score({"jimmy": "p8", "oni": "b18"}, "evasion")
    hunted = _score({"jimmy": "p8", "oni": "p10"}, "evasion")
    assert hunted < alone - 0.01


def test_a_fragile_character_a_short_walk_from_a_fighter_counts_as_nearly_taken_out() -> None:
    # Jimmy (Cbt 1, life 4) within Mamushi's walk (Mvt 5) is very likely taken out in Mamushi's next
    # activation (two strikes of d6+1): the evaluation must weigh that like most of a take-out, far more
    # than a few steps of progress toward the exit.
    safe = _score({"jimmy": "p8", "mamushi": "b18"}, "evasion")
    hunted = _score({"jimmy": "p8", "mamushi": "p12"}, "evasion")
    assert hunted < safe - 0.05


def test_a_fighter_behind_walls_threatens_only_along_the_walk_round_them() -> None:
    # Kitsune's Needle gun (Range 5) plus Mvt 4 covers 9 squares: Kenji in the Quarters is within 9 of
    # the Central room as the crow flies but far more by any walk, so he is not threatened there.
    kenji_alone = _score({"kenji": "c3", "oni": "t20"}, "evasion")
    with_kitsune = _score({"kenji": "c3", "oni": "t20", "kitsune": "h9"}, "evasion")
    assert abs(kenji_alone - with_kitsune) < 0.02
    open_ground = _score({"kenji": "g7", "oni": "t20"}, "evasion")
    in_sight = _score({"kenji": "g7", "oni": "t20", "kitsune": "k7"}, "evasion")
    assert in_sight < open_ground - 0.05


def test_an_armoured_robot_is_not_threatened_by_a_weak_striker() -> None:
    # Golem (Cbt 3, life 8, Armor 1) cannot be taken out by Tengu (Cbt 1) in one activation.
    alone = _score({"golem": "p8", "oni": "b18"}, "evasion")
    beside = _score({"golem": "p8", "oni": "b18", "tengu": "p9"}, "evasion")
    assert abs(alone - beside) < 0.02


def test_the_search_tries_more_than_its_first_placement_when_every_line_looks_good() -> None:
    # Deploying in Evasion the Resistance stands well above 0.5 whatever it does: with the old first-play
    # value (0.5) the first command tried took every playout; with ESCAPE's it compares placements.
    game = new_game("escape", scenario="evasion", seed=10_001, seats={"resistance": None, "isc": None})
    while state(game).phase != "deploy" or game.next_bot_seat() != "resistance":
        seat = game.next_bot_seat()
        assert seat is not None
        game.apply(seat, game.bot_command(seat, level="easy"))
    budget = level_budget("hard", "escape", 60)
    assert budget is not None
    result = Searcher(game.ruleset, budget).choose(game.state, "resistance", seed=1)
    assert sum(1 for v in result.visits.values() if v) > 10
    legacy = Searcher(game.ruleset, replace(budget, fpu_reduction=None)).choose(
        game.state, "resistance", seed=1
    )
    assert sum(1 for v in legacy.visits.values() if v) < sum(1 for v in result.visits.values() if v)


def test_data_theft_after_one_core_is_out_the_walk_to_the_next_still_counts() -> None:
    # One point of two is out; the cores left lie in the Quarters, three characters far off in the Laboratory.
    # Each step Jimmy takes towards a core must still raise the Resistance's score (summing every seeker's
    # chances used to cap the goal at "done": 0.95 wherever he stood).
    def theft(jimmy: str) -> float:
        units = {"jimmy": jimmy, "mira": "s2", "ashton": "t3", "golem": "s5", "oni": "t20"}
        game = arena(units, scenario="datatheft")
        for square in ("b2", "c5", "e2", "f5"):
            lay(game, "objective", square, value=2)
        st = state(game)
        st.carried_points = 1
        return resistance_score(st)

    far, nearer, nearest = theft("q18"), theft("k18"), theft("c10")
    assert far + 0.002 < nearer < nearest - 0.005


def test_evasion_a_second_runner_s_walk_counts_for_more_than_a_reserve() -> None:
    # Any one runner getting out wins Evasion, so Mira's walk behind Jimmy's must count for more than half of
    # what the same walk was worth to the leader (a reserve's quarter left the other characters idling).
    def score(jimmy: str, mira: str) -> float:
        return _score({"jimmy": jimmy, "mira": mira, "oni": "k20"}, "evasion")

    lead = score("k8", "c4") - score("c3", "c4")
    second = score("k8", "k9") - score("k8", "c4")
    assert second > 0.5 * lead > 0


def test_evasion_a_long_walk_is_a_long_exposure_even_with_turns_to_spare() -> None:
    # Turn 1 of 10: the clock does not press, but every turn on the way is a turn the I.S.C. may catch the
    # runner, so one near the airlock is worth far more than one still at the start.
    # s10 is a step from Airlock 2; m2, in the Hangar, is far from every exit (Airlocks 2, 3 and 4).
    near = _score({"jimmy": "s10", "oni": "k20"}, "evasion")
    far = _score({"jimmy": "m2", "oni": "k20"}, "evasion")
    assert near - far > 0.17


def test_data_theft_the_resistance_counts_a_long_walk_with_a_core_as_a_long_exposure() -> None:
    # Turn 1 of 10, so the clock does not press. In the Resistance's own view every turn a carrier still walks
    # is a turn the I.S.C. may catch it, so a core one step from Airlock 4 is worth far more than the same core
    # across the lab (the plain walk gave 0.055 between them, and the carrier dawdled). The I.S.C. keeps the
    # plain walk: with the discount on its side too, it stopped chasing far carriers.
    def seen_by(seat: str, where: str) -> float:
        game = arena({"jimmy": where, "mira": "s2", "oni": "k20"}, scenario="datatheft")
        lay(game, "objective", "s18", value=1)
        equip(game, "jimmy", "", kind="objective", value=2)
        value = evaluate(state(game), seat)
        return value if seat == "resistance" else 1.0 - value

    own = seen_by("resistance", "b10") - seen_by("resistance", "q3")
    theirs = seen_by("isc", "b10") - seen_by("isc", "q3")
    assert own > 0.09
    assert 0 < theirs < own - 0.04


def test_data_theft_characters_crowding_one_core_do_not_count_it_many_times_and_picking_it_up_pays() -> None:
    # Four characters stand round one face-up 1-point core in the Quarters, a 2-point one lies across the
    # lab. One core is one core whoever walks to it: counting every character's walk to the nearest core
    # read the goal as nearly done (0.84), so picking the core up lowered the score (to 0.62) and in a traced
    # game nobody did for ten turns.
    def theft(carrying: bool) -> tuple[float, float]:
        game = arena(
            {"jimmy": "b2", "mira": "c2", "ashton": "b3", "kenji": "c3", "oni": "t20"}, scenario="datatheft"
        )
        if carrying:
            equip(game, "jimmy", "", kind="objective", value=1)
        else:
            lay(game, "objective", "b2", value=1, face_up=True)
        lay(game, "objective", "q18", value=2)
        st = state(game)
        return resistance_score(st), evaluate(st, "resistance")

    lying, carried = theft(carrying=False), theft(carrying=True)
    assert lying[0] < 0.7
    assert carried[0] > lying[0]
    assert carried[1] > lying[1]


def _golem_steps(game: Game) -> list[str]:
    return [c.text for c in game.legal_commands("resistance") if c.verb == "move" and c.args[0] == "golem"]


def test_the_search_never_steps_a_character_straight_back_but_a_player_still_may() -> None:
    # The hard Golem used to spend Kenji's Movement stepping b11, a11, b11...: a step straight back to the
    # square just left, with nothing come of the step, only spends a Movement action.
    game = arena({"golem": "p8", "kenji": "p9", "oni": "b18"}, scenario="evasion")
    step = next(t for t in _golem_steps(game) if t != "move golem p8")
    game.apply("resistance", step)
    back = "move golem p8"
    assert back in _golem_steps(game)  # the rules allow it
    budget = level_budget("hard", "escape", 60)
    assert budget is not None
    for st in (game.state, game.ruleset.load_state(json.loads(json.dumps(game.state.to_data())))):
        result = Searcher(game.ruleset, budget).choose(st, "resistance", seed=1)
        assert back not in result.visits and result.command.text != back
        assert len(result.visits) > 3  # the other steps, and ending, are still weighed


def test_a_step_back_is_still_weighed_once_the_character_did_something_else() -> None:
    # Step, drill the wall beside, step back: the way back is a choice again (a hit-and-run, say).
    game = arena({"golem": "p8", "kenji": "p9", "oni": "b18"}, scenario="evasion")
    game.apply("resistance", "move golem q8")
    worthwhile = game.ruleset.worthwhile
    texts = [c.text for c in worthwhile(game.state, "resistance", game.legal_commands("resistance"))]
    assert "move golem p8" not in texts
    game.apply("resistance", "drill golem q7|q8")
    texts = [c.text for c in worthwhile(game.state, "resistance", game.legal_commands("resistance"))]
    assert "move golem p8" in texts
