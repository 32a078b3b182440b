"""ESCAPE rule sections, one behaviour test (or a few) each, with scripted dice.

Every test compares the engine with the rulebook: setup, the turn sequence, the random events, the
actions, passive defence, tokens, taken out, the two faction rules, the end of turn and the result.
"""

from __future__ import annotations

import json

import pytest

from engine import Game, new_game
from engine.errors import ContentError, IllegalCommand, NotYourTurn, RuleError
from engine.rulesets.escape import content
from engine.rulesets.escape.content import next_scenario
from tests.escape_helpers import arena, edge, equip, finish_turn, lay, said, sq, state

SETUP_PHASES = ("crates", "objectives", "equipment", "deploy")


def texts(game: Game, seat: str) -> set[str]:
    """The text of every legal command for a seat."""
    return {c.text for c in game.legal_commands(seat)}


def next_turn(game: Game, init: tuple[int, int] = (6, 1), event: tuple[int, int] = (3, 4)) -> str:
    """Finish the turn; the next turn's initiative and event dice are scripted. Returns the narration."""
    state(game).rng.script = [*init, *event]
    return said(finish_turn(game))


def play_setup(game: Game, until: str | None = None) -> None:
    """Play the first legal command of whoever places until turn 1 begins (or the phase ``until``)."""
    st = state(game)
    while st.phase in SETUP_PHASES and st.phase != until:
        seat = next(iter(game.awaiting()[0].seats))
        game.apply(seat, game.legal_commands(seat)[0])


def st_room(game: Game, cell: tuple[int, int] | None) -> str:
    from engine.rulesets.escape.rules import board

    assert cell is not None
    return board(state(game)).cell_room[cell]


# -- V. Setup -----------------------------------------------------------------------------------------


def test_setup_initiative_adds_the_int_totals_8_and_7():
    # Resistance 3+8=11, I.S.C. 5+7=12: the I.S.C. places first.
    game = new_game("escape", seats={"resistance": "r", "isc": "i"}, dice=[3, 5])
    assert state(game).setup_winner == "isc"
    assert game.awaiting()[0].seats == {"isc"}
    # Resistance 5+8=13, I.S.C. 5+7=12.
    game = new_game("escape", seats={"resistance": "r", "isc": "i"}, dice=[5, 5])
    assert state(game).setup_winner == "resistance"


def test_setup_initiative_tie_goes_to_the_resistance():
    game = new_game("escape", seats={"resistance": "r", "isc": "i"}, dice=[3, 4])  # 11 vs 11
    assert state(game).setup_winner == "resistance"
    assert game.awaiting()[0].seats == {"resistance"}


def test_crates_are_placed_in_turn_at_most_one_per_room():
    game = new_game("escape", seats={"resistance": "r", "isc": "i"}, dice=[6, 1])
    st = state(game)
    game.apply("resistance", "crate b2")  # Quarters
    assert game.awaiting()[0].seats == {"isc"}
    with pytest.raises(IllegalCommand, match="already holds 1 crate"):
        game.apply("isc", "crate e5")  # Quarters again
    assert not any(c.startswith("crate") and c[6] in "abcdef" and int(c[7:]) <= 6 for c in texts(game, "isc"))
    with pytest.raises(IllegalCommand, match="corridor"):
        game.apply("isc", "crate g7")
    game.apply("isc", "crate i3")  # Hangar
    assert game.awaiting()[0].seats == {"resistance"}
    game.apply("resistance", "crate p3")
    game.apply("isc", "crate j10")
    crates = [t for t in st.tokens.values() if t.kind == "crate"]
    assert len(crates) == 4 and st.phase == "equipment"


def test_equipment_is_drawn_at_random_face_down_at_most_two_per_room():
    game = new_game("escape", seats={"resistance": "r", "isc": "i"}, dice=[6, 1])
    st = state(game)
    for seat, where in [("resistance", "b2"), ("isc", "i3"), ("resistance", "p3"), ("isc", "j10")]:
        game.apply(seat, f"crate {where}")
    pool_before = sorted(st.equipment_pool)
    game.apply("resistance", "equipment a1")
    game.apply("isc", "equipment b1")
    with pytest.raises(IllegalCommand, match="already holds 2 equipment"):
        game.apply("resistance", "equipment c1")
    game.apply("resistance", "equipment h1")
    eq = [t for t in st.tokens.values() if t.kind == "equipment"]
    assert len(eq) == 3 and not any(t.face_up for t in eq)
    drawn = sorted([t.item for t in eq] + st.equipment_pool)
    assert drawn == pool_before  # each token was drawn from the pool
    # Nobody sees what a face-down token holds.
    shown = [t for t in game.view("isc")["tokens"] if t["kind"] != "crate"]
    assert len(shown) == 3 and all(t["kind"] == "face-down" and "item" not in t for t in shown)


def test_objective_tokens_are_placed_like_crates_with_values_1_or_2():
    game = new_game("escape", scenario="datatheft", seats={"resistance": "r", "isc": "i"}, dice=[6, 1])
    st = state(game)
    while st.phase == "crates":
        seat = next(iter(game.awaiting()[0].seats))
        game.apply(seat, game.legal_commands(seat)[0])
    assert st.phase == "objectives"
    game.apply(st.placer, "objective b2")
    with pytest.raises(IllegalCommand, match="already holds 1 objective"):
        game.apply(st.placer, "objective e5")
    play_setup(game)
    objs = [t for t in st.tokens.values() if t.kind == "objective"]
    assert sorted(t.value for t in objs) == [1, 1, 2, 2, 2]  # the scenario's set (two 1s, three 2s)
    rooms = [st_room(game, t.pos) for t in objs]
    assert len(set(rooms)) == len(rooms) and not any(t.face_up for t in objs)


def test_position_deployment_alternates_on_free_squares_of_the_given_room():
    # Evasion: the Resistance deploys in the Quarters, the I.S.C. in the Central room.
    game = new_game("escape", scenario="evasion", seats={"resistance": "r", "isc": "i"}, dice=[6, 1])
    st = state(game)
    play_setup(game, until="deploy")
    assert game.awaiting()[0].seats == {"resistance"}  # the setup initiative winner places first
    with pytest.raises(IllegalCommand, match="deploys in the Quarters"):
        game.apply("resistance", "deploy ashton j10")
    game.apply("resistance", "deploy ashton b2")
    assert game.awaiting()[0].seats == {"isc"}
    with pytest.raises(IllegalCommand, match="Central room"):
        game.apply("isc", "deploy mamushi b3")
    game.apply("isc", "deploy mamushi j10")
    with pytest.raises(IllegalCommand, match="occupied"):
        game.apply("resistance", "deploy jimmy b2")
    play_setup(game)
    assert st.phase not in SETUP_PHASES and st.turn == 1
    for u in st.units.values():
        assert st_room(game, u.pos) == ("Q" if u.seat == "resistance" else "C")


@pytest.mark.parametrize(
    ("scenario", "old_post", "room", "letter"),
    [
        # Ruling 39: posted in the Server room, the Infiltration garrison won about 80 % of games.
        ("infiltration", "s18", "Cryo bay", "Y"),
        # Ruling 39: posted in the Central room, the hard Data theft garrison won every decided hard game.
        ("datatheft", "j10", "Loading dock", "K"),
    ],
)
def test_the_garrison_deploys_in_its_scenario_s_room_not_where_it_used_to(
    scenario: str, old_post: str, room: str, letter: str
) -> None:
    game = new_game("escape", scenario=scenario, seats={"resistance": "r", "isc": "i"}, dice=[1, 6])
    st = state(game)
    play_setup(game, until="deploy")
    with pytest.raises(IllegalCommand, match=room):
        game.apply("isc", f"deploy mamushi {old_post}")
    play_setup(game)
    assert {st_room(game, u.pos) for u in st.units.values() if u.seat == "isc"} == {letter}
    assert all(u.status == "reserve" for u in st.units.values() if u.seat == "resistance")


def test_entry_deployment_begins_the_activation_with_a_movement_action_on_an_airlock_square():
    # Infiltration: the Resistance enters by Airlock 1 (j1, k1); turn 1 initiative counts everyone's Int.
    game = new_game("escape", seats={"resistance": "r", "isc": "i"}, dice=[6, 1, 4, 4, 3, 4])
    st = state(game)
    play_setup(game)
    assert all(u.status == "reserve" for u in st.units.values() if u.seat == "resistance")
    assert st.initiative == "resistance"  # 4+8 vs 4+7, although no Resistance character is on the board
    game.apply("resistance", "first resistance")
    with pytest.raises(IllegalCommand, match="must first enter"):
        game.apply("resistance", "move jimmy j2")
    with pytest.raises(IllegalCommand, match="j1, k1"):
        game.apply("resistance", "enter jimmy a10")
    game.apply("resistance", "enter jimmy j1")
    jimmy = st.units["jimmy"]
    assert jimmy.status == "board" and jimmy.pos == sq("j1") and jimmy.used[0] == 1
    game.apply("resistance", "move jimmy j2")
    game.apply("resistance", "end")
    # The I.S.C. (Position mode) activates next, then the next Resistance character enters on k1.
    isc = next(u.id for u in st.units.values() if u.seat == "isc")
    game.apply("isc", f"activate {isc}")
    game.apply("isc", "end")
    assert "enter ashton k1" in texts(game, "resistance")
    assert "enter ashton j1" in texts(game, "resistance")


# -- VI. Turn sequence ---------------------------------------------------------------------------------


def test_turn_initiative_highest_total_wins_and_the_winner_chooses_who_activates_first():
    game = arena({"ashton": "b2", "mamushi": "h2"})
    text = next_turn(game, init=(2, 5), event=(3, 4))  # 2+1 vs 5+1
    st = state(game)
    assert st.turn == 2 and st.initiative == "isc"
    assert "Initiative: Resistance 2+1=3, I.S.C. 5+1=6" in text
    assert game.awaiting()[0].seats == {"isc"}
    assert texts(game, "isc") == {"first resistance", "first isc"}
    with pytest.raises(NotYourTurn):
        game.apply("resistance", "first resistance")
    game.apply("isc", "first resistance")
    assert game.awaiting()[0].seats == {"resistance"} and game.awaiting()[0].kind == "activation"


def test_turn_initiative_tie_goes_to_the_higher_int_total_on_the_board():
    # Ashton (Int 1) + Jimmy (Int 2) against Ubume (Int 2): 4+3 = 5+2.
    game = arena({"ashton": "b2", "jimmy": "b4", "ubume": "h2"})
    text = next_turn(game, init=(4, 5))
    assert state(game).initiative == "resistance"
    assert "tie: the higher Int total wins" in text


def test_turn_initiative_full_tie_is_rolled_again():
    game = arena({"ashton": "b2", "mamushi": "h2"})  # Int 1 each
    state(game).rng.script = [3, 3, 2, 5, 3, 4]
    text = said(finish_turn(game))
    assert "a full tie, roll again" in text
    assert state(game).initiative == "isc"


def test_turn_initiative_counts_only_characters_on_the_board_after_turn_one():
    # A taken-out I.S.C. character (waiting for the Internal factory) does not count.
    game = arena({"ashton": "b2", "mamushi": "h2", "ubume": "h4"})
    state(game).units["ubume"].status, state(game).units["ubume"].pos = "out", None
    state(game).units["ubume"].out_turn = 1
    text = next_turn(game, init=(3, 3))
    assert "I.S.C. 3+1=4" in text  # Mamushi's Int only, not Ubume's


def test_activations_alternate_and_each_character_activates_once():
    game = arena({"ashton": "b2", "jimmy": "b4", "mamushi": "h2", "ubume": "h4"})
    game.apply("resistance", "move ashton b3")
    with pytest.raises(IllegalCommand, match="Ashton is the active character"):
        game.apply("resistance", "move jimmy b5")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"isc"}
    with pytest.raises(NotYourTurn):
        game.apply("resistance", "activate jimmy")
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    with pytest.raises(IllegalCommand, match="already been activated"):
        game.apply("resistance", "activate ashton")
    game.apply("resistance", "activate jimmy")
    game.apply("resistance", "end")
    game.apply("isc", "activate ubume")
    text = said(game.apply("isc", "end"))
    assert "Turn 1 ends" in text and state(game).turn == 2


def test_when_one_side_has_activated_everyone_the_other_side_goes_on():
    game = arena({"ashton": "b2", "mamushi": "h2", "ubume": "h4", "oni": "h6"})
    game.apply("resistance", "activate ashton")
    game.apply("resistance", "end")
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    assert game.awaiting()[0].seats == {"isc"}  # the Resistance has nobody left to activate
    game.apply("isc", "activate ubume")
    game.apply("isc", "end")
    assert game.awaiting()[0].seats == {"isc"}


# -- 6.b Random events ---------------------------------------------------------------------------------


def test_event_2_supreme_ai_makes_isc_characters_mvt7_cbt3_int3_for_the_turn():
    from engine.rulesets.escape.rules import stat

    game = arena({"ashton": "b2", "tengu": "h2"})
    next_turn(game, event=(1, 1))
    st = state(game)
    assert st.event == 2
    tengu = st.units["tengu"]
    assert [stat(st, tengu, k) for k in (0, 1, 2)] == [7, 3, 3]
    assert [stat(st, st.units["ashton"], k) for k in (0, 1, 2)] == [4, 3, 1]
    next_turn(game, event=(3, 4))
    assert [stat(st, tengu, k) for k in (0, 1, 2)] == [5, 1, 1]


def test_event_3_celestial_order_moves_an_isc_character_to_any_free_square():
    game = arena({"ashton": "b2", "mamushi": "s18"})
    next_turn(game, event=(1, 2))
    assert game.awaiting()[0].seats == {"isc"}
    with pytest.raises(IllegalCommand, match="occupied"):
        game.apply("isc", "relocate mamushi b2")
    with pytest.raises(IllegalCommand, match="Random event 3"):
        game.apply("isc", "first isc")
    game.apply("isc", "relocate mamushi b3")  # across the board, through walls and doors
    st = state(game)
    assert st.units["mamushi"].pos == sq("b3") and st.units["mamushi"].used == [0, 0, 0]
    assert st.phase == "first"  # the turn goes on normally: who activates first


def test_event_4_powergrid_overload_jolts_resistance_characters_next_to_a_door():
    # g2|h2 is a closed door; c6|c7 another. Jimmy stands by one, Ashton by none, Ubume (I.S.C.) by one.
    game = arena({"jimmy": "g2", "ashton": "b2", "ubume": "c6"})
    next_turn(game, event=(1, 3))
    st = state(game)
    assert st.event == 4
    assert st.units["jimmy"].damage == 2
    assert st.units["ashton"].damage == 0
    assert st.units["ubume"].damage == 0


def test_event_5_fire_alarm_takes_one_from_everyone_s_mvt():
    from engine.rulesets.escape.rules import left

    game = arena({"ashton": "b2", "mamushi": "h2"})
    next_turn(game, event=(2, 3))
    st = state(game)
    assert st.event == 5
    assert left(st, st.units["ashton"], 0) == 3 and left(st, st.units["mamushi"], 0) == 4


def test_event_7_nothing_happens():
    game = arena({"ashton": "b2", "mamushi": "h2"})
    before = {u.id: (u.pos, u.damage) for u in state(game).units.values()}
    next_turn(game, event=(3, 4))
    st = state(game)
    assert st.event == 7 and st.phase == "first"
    assert {u.id: (u.pos, u.damage) for u in st.units.values()} == before


def test_event_8_firewall_lets_the_resistance_move_through_occupied_squares_but_not_stop():
    game = arena({"ashton": "h3", "mamushi": "i3", "oni": "k3"})
    next_turn(game, event=(4, 4))
    game.apply("resistance", "first resistance")
    game.apply("resistance", "move ashton i3")  # through Mamushi's square
    with pytest.raises(IllegalCommand, match="cannot end its activation on an occupied square"):
        game.apply("resistance", "end")
    game.apply("resistance", "move ashton j3")
    game.apply("resistance", "end")
    with pytest.raises(IllegalCommand, match="occupied"):
        game.apply("isc", "move oni j3")  # the I.S.C. gets no Firewall


def test_event_9_short_circuit_switches_a_door_of_the_resistance_s_choice():
    game = arena({"ashton": "b2", "mamushi": "h2"})
    next_turn(game, event=(4, 5))
    st = state(game)
    assert game.awaiting()[0].seats == {"resistance"}
    assert "switch g2|h2" in texts(game, "resistance")  # any door, locked ones included
    game.apply("resistance", "switch j7|j8")  # the locked door of difficulty 7
    assert st.doors[edge("j7", "j8")].open
    game.apply("resistance", "first resistance")
    next_turn(game, event=(4, 5))  # another Short circuit: the open door closes again
    game.apply("resistance", "switch j7|j8")
    assert not st.doors[edge("j7", "j8")].open


def test_event_10_black_out_forbids_combat_in_the_chosen_room():
    game = arena({"ashton": "i3", "mamushi": "j3", "jimmy": "i9", "ubume": "j9"})
    next_turn(game, event=(5, 5))
    game.apply("resistance", "blackout hangar")
    game.apply("resistance", "first resistance")
    with pytest.raises(IllegalCommand, match="Black-out"):
        game.apply("resistance", "attack ashton mamushi")
    state(game).rng.script = [1]
    game.apply("resistance", "attack jimmy ubume")  # the Central room is lit
    assert game.awaiting()[0].kind == "reaction"
    game.apply("isc", "no-dodge")
    game.apply("resistance", "end")
    next_turn(game, event=(3, 4))
    game.apply("resistance", "first resistance")
    assert state(game).event_room == ""
    assert "attack ashton mamushi" in texts(game, "resistance")  # the lights are back


def test_event_10_black_out_also_shields_characters_in_the_room_from_outside():
    # The Hangar is dark; Kitsune in the corridor cannot shoot Ashton inside it (ruling 18).
    game = arena({"kitsune": "n3", "ashton": "k3"}, side="isc")
    st = state(game)
    st.doors[edge("m3", "n3")].open = True
    st.event, st.event_room = 10, "H"
    with pytest.raises(IllegalCommand, match="Black-out"):
        game.apply("isc", "shoot kitsune ashton")
    st.event_room = "C"
    state(game).rng.script = [1]
    game.apply("isc", "shoot kitsune ashton")
    assert game.awaiting()[0].kind == "reaction"


def test_event_11_interference_also_when_the_resistance_lets_the_isc_go_first():
    game = arena({"ashton": "b2", "jimmy": "b4", "mamushi": "h2", "ubume": "h4"})
    next_turn(game, init=(1, 6), event=(5, 6))
    game.apply("resistance", "first isc")
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    game.apply("resistance", "activate ashton")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"resistance"}


def test_both_sides_meeting_their_victory_conditions_at_once_is_a_draw():
    # Infiltration's last turn: 2 Resistance characters hold the Server room while 4 others are out.
    units = {"ashton": "p16", "jimmy": "q16", "mira": "b2", "kenji": "b3", "golem": "b4", "vesna": "b5"}
    game = arena({**units, "mamushi": "h2"})
    st = state(game)
    st.turn = 8
    for u in ("mira", "kenji", "golem", "vesna"):
        st.units[u].status, st.units[u].pos = "out", None
    finish_turn(game)
    assert game.outcome is not None and game.outcome.draw
    assert game.outcome.reason == "Draw: both sides met their victory conditions at once."


def test_a_taken_out_carrier_drops_its_objective_token_on_its_square():
    game = arena({"oni": "i3", "jimmy": "j3", "ashton": "b2"}, scenario="datatheft", side="isc", dice=[6])
    st = state(game)
    tid = equip(game, "jimmy", "", kind="objective", value=2)
    game.apply("isc", "attack oni jimmy")
    game.apply("resistance", "no-dodge")
    assert st.units["jimmy"].status == "out"
    assert st.tokens[tid].pos == sq("j3") and st.tokens[tid].carrier is None


def test_standing_answers_dodge_always_and_reroll_auto():
    # Ruling 7: 'react dodge always' answers for the player; ruling 6: 'auto' re-rolls a losing die.
    game = arena({"ashton": "i3", "mamushi": "j3"}, dice=[1, 4, 6])
    st = state(game)
    game.apply("isc", "react dodge always")
    st.revolution = 1
    game.apply("resistance", "react reroll auto")
    text = said(game.apply("resistance", "attack ashton mamushi"))
    # Attack 1 (1+3 vs 4+2 loses) is re-rolled with the token into a 6: 6+3 vs 4+2 = 3 damage.
    assert "Mamushi tries to dodge" in text and "re-rolls a 1: 6" in text
    assert st.units["mamushi"].damage == 3 and st.revolution == 0


def test_event_11_interference_gives_the_resistance_the_initiative_and_two_activations():
    game = arena({"ashton": "b2", "jimmy": "b4", "rook": "b6", "mamushi": "h2", "ubume": "h4"})
    next_turn(game, init=(1, 6), event=(5, 6))  # the I.S.C. won the test
    st = state(game)
    assert st.initiative == "resistance"
    game.apply("resistance", "first resistance")
    game.apply("resistance", "activate ashton")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"resistance"}  # a second character at once
    game.apply("resistance", "activate jimmy")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"isc"}


def test_event_12_disconnection_switches_off_isc_skills():
    game = arena({"ashton": "b2", "mamushi": "h2"})
    next_turn(game, event=(6, 6))
    game.apply("resistance", "first isc")
    with pytest.raises(IllegalCommand, match="sharing a side"):
        game.apply("isc", "move mamushi i3")  # no Anti-gravity field this turn
    game.apply("isc", "move mamushi h3")


def test_event_effects_last_only_for_the_turn():
    from engine.rulesets.escape.rules import left

    game = arena({"ashton": "b2", "mamushi": "h2"})
    next_turn(game, event=(2, 3))  # Fire alarm
    st = state(game)
    game.apply("resistance", "first resistance")
    next_turn(game, event=(3, 4))
    assert st.event == 7 and left(st, st.units["ashton"], 0) == 4


# -- Movement ---------------------------------------------------------------------------------------------


def test_movement_goes_to_adjacent_free_squares_up_to_the_mvt_value():
    game = arena({"ashton": "i3", "mamushi": "k3"})  # Ashton: Mvt 4
    with pytest.raises(IllegalCommand, match="sharing a side"):
        game.apply("resistance", "move ashton j4")  # diagonal
    with pytest.raises(IllegalCommand, match="sharing a side"):
        game.apply("resistance", "move ashton i5")  # two squares
    game.apply("resistance", "move ashton j3")
    with pytest.raises(IllegalCommand, match="occupied by Mamushi"):
        game.apply("resistance", "move ashton k3")
    for where in ("j4", "j5", "j6"):
        game.apply("resistance", f"move ashton {where}")
    with pytest.raises(IllegalCommand, match="no Movement actions left"):
        game.apply("resistance", "move ashton i6")
    assert state(game).units["ashton"].pos == sq("j6")


def test_walls_block_movement():
    game = arena({"ashton": "c2", "mamushi": "k3"})  # a wall stands between c2 and d2
    with pytest.raises(IllegalCommand, match="wall or a closed door"):
        game.apply("resistance", "move ashton d2")


def test_a_closed_door_is_opened_with_a_movement_action_and_stays_open():
    game = arena({"ashton": "g2", "mamushi": "k5"})  # closed door g2|h2
    st = state(game)
    with pytest.raises(IllegalCommand, match="wall or a closed door"):
        game.apply("resistance", "move ashton h2")
    game.apply("resistance", "open ashton g2|h2")
    assert st.doors[edge("g2", "h2")].open and st.units["ashton"].used[0] == 1
    game.apply("resistance", "move ashton h2")
    with pytest.raises(IllegalCommand, match="cannot be closed by a character"):
        game.apply("resistance", "close ashton g2|h2")


def test_a_locked_door_cannot_be_opened_by_the_resistance_with_a_movement_action():
    game = arena({"ashton": "m3", "mamushi": "k5"})  # m3|n3 is locked, difficulty 5
    with pytest.raises(IllegalCommand, match="locked \\(difficulty 5\\)"):
        game.apply("resistance", "open ashton m3|n3")
    with pytest.raises(IllegalCommand, match="wall or a closed door"):
        game.apply("resistance", "move ashton n3")


def test_equipment_is_dropped_on_a_free_periphery_square_in_sight_for_a_movement_action():
    game = arena({"ashton": "m2", "mamushi": "l3"})
    st = state(game)
    tid = equip(game, "ashton", "medkit")
    with pytest.raises(IllegalCommand, match="occupied"):
        game.apply("resistance", "drop ashton l3")
    with pytest.raises(IllegalCommand, match="behind a wall"):
        game.apply("resistance", "drop ashton n2")  # beyond the Hangar's east wall
    with pytest.raises(IllegalCommand, match="8 squares around"):
        game.apply("resistance", "drop ashton k2")
    game.apply("resistance", "drop ashton l1")
    assert st.tokens[tid].pos == sq("l1") and st.units["ashton"].carrying is None
    assert st.units["ashton"].used[0] == 1


def test_leaving_the_board_by_the_scenario_airlock_takes_a_movement_action():
    # Evasion: the Resistance leaves by Airlock 2 (t10, t11), 3 (j20, k20) or 4 (a10, a11).
    game = arena({"rook": "t12", "jimmy": "k20", "mamushi": "h2"}, scenario="evasion")
    st = state(game)
    with pytest.raises(IllegalCommand, match="access square of the exit airlock"):
        game.apply("resistance", "leave rook")
    game.apply("resistance", "move rook t11")
    game.apply("resistance", "leave rook")
    assert st.units["rook"].status == "escaped" and st.units["rook"].pos is None
    assert st.units["rook"].used[0] == 2
    game.apply("isc", "activate mamushi")
    with pytest.raises(IllegalCommand, match="does not let that side leave"):
        game.apply("isc", "leave mamushi")


def test_evasion_s_third_exit_is_airlock_4_west_next_to_the_quarters():
    # Ruling 39: Evasion's exits are Airlocks 2, 3 and 4 (a10, a11); the central airlock is not one.
    game = arena({"jimmy": "a12", "mira": "j11", "mamushi": "h2"}, scenario="evasion")
    st = state(game)
    game.apply("resistance", "move jimmy a11")
    game.apply("resistance", "leave jimmy")
    assert st.units["jimmy"].status == "escaped"
    other = arena({"mira": "j11", "mamushi": "h2"}, scenario="evasion")
    with pytest.raises(IllegalCommand, match="access square of the exit airlock"):
        other.apply("resistance", "leave mira")  # j11 is by the central airlock (j10, k10)


def test_no_exit_in_a_scenario_without_one():
    game = arena({"ashton": "j1", "mamushi": "h2"})  # Infiltration has no exit
    with pytest.raises(IllegalCommand, match="does not let that side leave"):
        game.apply("resistance", "leave ashton")


# -- Combat -----------------------------------------------------------------------------------------------


def test_hand_to_hand_needs_the_periphery_and_a_line_of_sight():
    game = arena({"ashton": "m2", "mamushi": "k4", "ubume": "n2"})
    with pytest.raises(IllegalCommand, match="8 squares around"):
        game.apply("resistance", "attack ashton mamushi")  # two squares away
    with pytest.raises(IllegalCommand, match="8 squares around"):
        game.apply("resistance", "attack ashton ubume")  # next to it, but a wall in between


def test_hand_to_hand_is_a_simple_roll_against_the_target_s_cbt():
    # Jimmy (Cbt 1) against Ubume (Cbt 2): a 1 gives an Attack total of 0, so no damage.
    game = arena({"jimmy": "i3", "ubume": "j4"}, dice=[1])
    st = state(game)
    game.apply("resistance", "attack jimmy ubume")
    text = said(game.apply("isc", "no-dodge"))
    assert "1+1 vs 2 → 0, no damage" in text and st.units["ubume"].damage == 0
    with pytest.raises(IllegalCommand, match="no Combat actions left"):
        game.apply("resistance", "attack jimmy ubume")
    game2 = arena({"ashton": "i3", "ubume": "j4"}, dice=[4])
    game2.apply("resistance", "attack ashton ubume")
    game2.apply("isc", "no-dodge")
    assert state(game2).units["ubume"].damage == 5  # 4+3-2


def test_ranged_attack_uses_range_and_adds_power():
    # Kitsune's Needle gun: Range 5, Power 1. Ashton (Cbt 3) five squares away in the Hangar.
    game = arena({"kitsune": "h2", "ashton": "m2", "jimmy": "m4"}, dice=[5], side="isc")
    st = state(game)
    game.apply("isc", "shoot kitsune ashton")
    text = said(game.apply("resistance", "no-dodge"))
    assert "5+2+1 vs 3" in text and st.units["ashton"].damage == 5
    st.units["jimmy"].pos = sq("m8")
    with pytest.raises(IllegalCommand):
        game.apply("isc", "shoot kitsune jimmy")
    game3 = arena({"ashton": "h2", "mamushi": "m2"})
    with pytest.raises(IllegalCommand, match="no ranged weapon"):
        game3.apply("resistance", "shoot ashton mamushi")


def test_ranged_attack_needs_a_line_of_sight_and_range():
    game = arena({"kitsune": "h2", "ashton": "m2", "oni": "j2", "jimmy": "h8"}, side="isc")
    with pytest.raises(IllegalCommand, match="no line of sight"):
        game.apply("isc", "shoot kitsune ashton")  # Oni stands in the way
    with pytest.raises(IllegalCommand, match="Range 5"):
        game.apply("isc", "shoot kitsune jimmy")  # six squares away


def test_a_crate_on_the_thrower_s_square_is_a_projectile_destroyed_whatever_the_result():
    game = arena({"jimmy": "i3", "mamushi": "l3"}, dice=[1])
    st = state(game)
    crate = lay(game, "crate", "i3", face_up=True)
    game.apply("resistance", "throw jimmy mamushi")  # 1+1+0 vs 2: a miss
    game.apply("isc", "no-dodge")
    assert crate not in st.tokens and st.units["mamushi"].damage == 0
    with pytest.raises(IllegalCommand, match="needs a crate on its own square"):
        game.apply("resistance", "throw jimmy mamushi")


def test_a_crate_has_range_3():
    game = arena({"ashton": "i3", "mamushi": "m3"})
    lay(game, "crate", "i3", face_up=True)
    with pytest.raises(IllegalCommand, match="Range 3"):
        game.apply("resistance", "throw ashton mamushi")


# -- Intellect ----------------------------------------------------------------------------------------


def test_hacking_a_locked_door_needs_the_difficulty_and_an_intellect_action():
    game = arena({"mira": "i3", "mamushi": "h6"}, dice=[2, 2])
    st = state(game)
    with pytest.raises(IllegalCommand, match="must stand next to the door"):
        game.apply("resistance", "hack mira m3|n3")
    with pytest.raises(IllegalCommand, match="Only a closed locked door"):
        game.apply("resistance", "hack mira g2|h2")  # closed, not locked
    st.units["mira"].pos = sq("m3")
    game.apply("resistance", "hack mira m3|n3")  # 2+2=4 vs 5
    assert not st.doors[edge("m3", "n3")].open
    game.apply("resistance", "hack mira m3|n3")
    with pytest.raises(IllegalCommand, match="no Intellect actions left"):
        game.apply("resistance", "hack mira m3|n3")
    assert st.units["mira"].used[2] == 2


def test_a_hacked_door_opens_and_can_be_walked_through():
    game = arena({"ashton": "m3", "mamushi": "h6"}, dice=[4])  # Ashton Int 1: 4+1=5 vs 5
    st = state(game)
    game.apply("resistance", "hack ashton m3|n3")
    assert st.doors[edge("m3", "n3")].open
    game.apply("resistance", "move ashton n3")
    assert st.units["ashton"].pos == sq("n3")


# -- Passive character: Dodge and Counter-measure ---------------------------------------------------------


def test_the_dodge_is_declared_before_the_attack_roll_and_costs_a_combat_action():
    game = arena({"ashton": "i3", "mamushi": "j3"}, dice=[4, 2])
    st = state(game)
    game.apply("resistance", "attack ashton mamushi")
    decision = game.awaiting()[0]
    assert decision.seats == {"isc"} and decision.kind == "reaction"
    assert st.rng.script == [4, 2]  # nothing rolled yet
    assert {c.text for c in game.legal_commands("isc")} == {"dodge", "no-dodge"}
    text = said(game.apply("isc", "dodge"))
    assert "4+3 vs 2+2" in text and st.units["mamushi"].damage == 3
    assert st.units["mamushi"].used[1] == 1 and st.units["ashton"].used[1] == 1


def test_a_passive_character_that_spent_its_combat_actions_cannot_dodge():
    # Mamushi attacks twice in its own activation; later in the turn it cannot dodge Ashton.
    game = arena({"ashton": "i3", "mamushi": "j3"}, side="isc", dice=[1, 1, 3])
    st = state(game)
    game.apply("isc", "attack mamushi ashton")
    game.apply("resistance", "no-dodge")
    game.apply("isc", "attack mamushi ashton")
    game.apply("resistance", "no-dodge")
    game.apply("isc", "end")
    text = said(game.apply("resistance", "attack ashton mamushi"))  # no question: straight to the roll
    assert "3+3 vs 2 → 4 damage" in text and st.units["mamushi"].damage == 4


def test_the_counter_measure_is_an_opposed_intellect_roll_paid_by_the_passive_character():
    # Kitsune (Int 2, Attraction) hacks Jimmy (Int 2) two squares away; margin 0 means the counter wins.
    game = arena({"kitsune": "h2", "jimmy": "j2"}, side="isc", dice=[3, 3])
    st = state(game)
    game.apply("isc", "hack kitsune jimmy")
    assert game.awaiting()[0].seats == {"resistance"} and st.rng.script == [3, 3]
    text = said(game.apply("resistance", "countermeasure"))
    assert "failure" in text and st.units["jimmy"].pos == sq("j2")
    assert st.units["jimmy"].used[2] == 1 and st.units["kitsune"].used[2] == 1


def test_a_successful_hack_beats_the_counter_measure_with_a_positive_margin():
    game = arena({"kitsune": "h2", "jimmy": "j2"}, side="isc", dice=[4, 3])
    st = state(game)
    game.apply("isc", "hack kitsune jimmy")
    game.apply("resistance", "countermeasure")
    assert game.awaiting()[0].seats == {"isc"}  # where to pull Jimmy
    game.apply("isc", "pull i2")
    assert st.units["jimmy"].pos == sq("i2")


def test_no_counter_measure_without_an_intellect_action_left():
    game = arena({"kitsune": "h2", "ashton": "j2"}, side="isc", dice=[1])  # Ashton Int 1, used up
    st = state(game)
    st.units["ashton"].used[2] = 1
    text = said(game.apply("isc", "hack kitsune ashton"))  # 1+2=3 vs Int 1: success, no question
    assert "success" in text and game.awaiting()[0].seats == {"isc"}


# -- Objective tokens ------------------------------------------------------------------------------------


def test_objective_token_is_turned_over_from_the_periphery_with_a_line_of_sight():
    game = arena({"jimmy": "i3", "mamushi": "h6"}, scenario="datatheft")
    st = state(game)
    near = lay(game, "objective", "j4", value=2)
    far = lay(game, "objective", "k5", value=1)
    walled = lay(game, "objective", "m1", value=1)
    st.units["jimmy"].pos = sq("i3")
    game.apply("resistance", "reveal jimmy " + near)
    assert st.tokens[near].face_up and st.units["jimmy"].used == [0, 0, 0]
    with pytest.raises(IllegalCommand, match="8 squares around"):
        game.apply("resistance", "reveal jimmy " + far)
    st.units["jimmy"].pos = sq("n2")  # corridor, the Hangar wall between it and m1
    with pytest.raises(IllegalCommand, match="line of sight"):
        game.apply("resistance", "reveal jimmy " + walled)


def test_objective_token_is_picked_up_on_its_square_one_at_a_time_and_not_with_equipment():
    game = arena({"jimmy": "i3", "mamushi": "h6"}, scenario="datatheft")
    st = state(game)
    a = lay(game, "objective", "i3", value=2)
    b = lay(game, "objective", "i3", value=1)
    c = lay(game, "equipment", "i3", item="medkit")
    game.apply("resistance", f"take jimmy {a}")
    assert st.units["jimmy"].carrying == a and st.tokens[a].carrier == "jimmy"
    assert st.units["jimmy"].used == [0, 0, 0]
    with pytest.raises(IllegalCommand, match="already carries a token"):
        game.apply("resistance", f"take jimmy {b}")
    with pytest.raises(IllegalCommand, match="already carries a token"):
        game.apply("resistance", f"take jimmy {c}")


def test_objective_token_is_handed_to_an_ally_in_the_periphery_for_a_movement_action():
    game = arena({"jimmy": "i3", "ashton": "j4", "mira": "l3", "mamushi": "h6"}, scenario="datatheft")
    st = state(game)
    tid = equip(game, "jimmy", "", kind="objective", value=2)
    with pytest.raises(IllegalCommand, match="8 squares around"):
        game.apply("resistance", "give jimmy mira")
    game.apply("resistance", "give jimmy ashton")
    assert st.units["ashton"].carrying == tid and st.units["jimmy"].carrying is None
    assert st.units["jimmy"].used[0] == 1


def test_objective_points_count_when_carried_off_the_board():
    # Data theft: carry objective tokens worth 3 out through Airlock 4 (a10, a11) or 1.
    game = arena({"jimmy": "a10", "ashton": "a11", "mamushi": "s18", "ubume": "s16"}, scenario="datatheft")
    st = state(game)
    equip(game, "jimmy", "", kind="objective", value=1)
    equip(game, "ashton", "", kind="objective", value=2)
    game.apply("resistance", "leave jimmy")  # leaving ends the activation
    assert st.carried_points == 1
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    game.apply("resistance", "leave ashton")
    assert st.carried_points == 3 and game.outcome is None  # victory is checked at the end of the turn
    game.apply("isc", "activate ubume")
    game.apply("isc", "end")
    assert game.outcome is not None and game.outcome.winners == {"resistance"}


def test_two_points_carried_off_are_not_yet_a_data_theft_victory():
    game = arena({"jimmy": "a10", "ashton": "c12", "mamushi": "s18", "ubume": "s16"}, scenario="datatheft")
    st = state(game)
    equip(game, "jimmy", "", kind="objective", value=2)
    game.apply("resistance", "leave jimmy")
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    game.apply("resistance", "activate ashton")
    game.apply("resistance", "end")
    game.apply("isc", "activate ubume")
    game.apply("isc", "end")
    assert st.carried_points == 2 and game.outcome is None and st.turn == 2


# -- Equipment tokens ------------------------------------------------------------------------------------


def test_equipment_is_revealed_from_the_periphery_and_picked_up_on_its_square():
    game = arena({"ashton": "i3", "mamushi": "h6"})
    st = state(game)
    tid = lay(game, "equipment", "j3", item="drugs")
    assert not st.tokens[tid].face_up
    with pytest.raises(IllegalCommand, match="must stand on the token's square"):
        game.apply("resistance", f"take ashton {tid}")
    game.apply("resistance", f"reveal ashton {tid}")
    assert st.tokens[tid].face_up
    game.apply("resistance", "move ashton j3")
    game.apply("resistance", f"take ashton {tid}")
    assert st.units["ashton"].carrying == tid and st.units["ashton"].used[0] == 1


def test_equipment_is_handed_over_with_a_line_of_sight_for_a_movement_action():
    game = arena({"ashton": "i3", "jimmy": "j4", "mira": "i4", "mamushi": "h6"})
    st = state(game)
    tid = equip(game, "ashton", "drugs")
    equip(game, "mira", "medkit")
    with pytest.raises(IllegalCommand, match="already carries a token"):
        game.apply("resistance", "give ashton mira")
    game.apply("resistance", "give ashton jimmy")
    assert st.units["jimmy"].carrying == tid and st.units["ashton"].used[0] == 1


def test_equipment_handover_needs_a_line_of_sight():
    # Diagonal handover between two occupied squares: both side squares taken blocks the sight line.
    game = arena({"ashton": "i3", "jimmy": "j4", "mira": "j3", "kenji": "i4", "mamushi": "h6"})
    equip(game, "ashton", "drugs")
    with pytest.raises(IllegalCommand, match="line of sight"):
        game.apply("resistance", "give ashton jimmy")


def test_equipment_is_single_use():
    game = arena({"ashton": "i3", "mamushi": "h6"})
    st = state(game)
    tid = equip(game, "ashton", "drugs")
    game.apply("resistance", "drugs ashton")
    assert tid not in st.tokens and st.units["ashton"].carrying is None
    with pytest.raises(IllegalCommand, match="does not carry"):
        game.apply("resistance", "drugs ashton")


def test_a_taken_out_carrier_leaves_its_equipment_on_its_square():
    game = arena({"oni": "i3", "jimmy": "j3"}, side="isc", dice=[6])
    st = state(game)
    tid = equip(game, "jimmy", "medkit")
    game.apply("isc", "attack oni jimmy")
    game.apply("resistance", "no-dodge")  # 6+3-1 = 8 damage, life 4
    assert st.units["jimmy"].status == "out" and st.units["jimmy"].pos is None
    assert st.tokens[tid].pos == sq("j3") and st.tokens[tid].carrier is None


# -- Taken out, faction rules --------------------------------------------------------------------------


def test_taken_out_when_damage_reaches_the_life_gauge_and_the_resistance_gains_a_revolution_token():
    game = arena({"oni": "i3", "jimmy": "j3", "ashton": "b2"}, side="isc", dice=[2])
    st = state(game)
    st.units["jimmy"].damage = 1
    game.apply("isc", "attack oni jimmy")
    text = said(game.apply("resistance", "no-dodge"))  # 2+3-1 = 4 damage: 5 of 4 life
    assert "Jimmy is taken out" in text and st.units["jimmy"].status == "out"
    assert st.revolution == 1
    assert all(c.split()[1] != "jimmy" for c in texts(game, "isc") if c.startswith("attack"))


def test_encrypted_key_opens_locked_doors_like_closed_ones_and_closes_open_doors():
    game = arena({"mamushi": "m3", "ashton": "b2"}, side="isc")
    st = state(game)
    game.apply("isc", "open mamushi m3|n3")  # locked, difficulty 5
    assert st.doors[edge("m3", "n3")].open and st.units["mamushi"].used[0] == 1
    game.apply("isc", "close mamushi m3|n3")
    assert not st.doors[edge("m3", "n3")].open and st.doors[edge("m3", "n3")].locked
    assert st.units["mamushi"].used[0] == 2


def test_internal_factory_brings_a_taken_out_isc_character_back_the_next_turn():
    game = arena({"ashton": "i11", "tengu": "j11", "mamushi": "s18"}, dice=[6])
    st = state(game)
    game.apply("resistance", "attack ashton tengu")
    game.apply("isc", "no-dodge")  # 6+3-1 = 8: Tengu (life 4) is out
    assert st.units["tengu"].status == "out"
    game.apply("resistance", "end")
    with pytest.raises(IllegalCommand, match="re-enter next turn"):
        game.apply("isc", "activate tengu")
    next_turn(game, init=(6, 1), event=(3, 4))
    game.apply("resistance", "first isc")
    cmds = texts(game, "isc")
    for cell in ("j1", "k1", "t10", "t11", "j20", "k20", "a10", "a11"):  # all four edge airlocks
        assert f"enter tengu {cell}" in cmds
    assert "enter tengu j10" not in cmds and "enter tengu k10" not in cmds  # not the central one
    game.apply("isc", "enter tengu a10")
    tengu = st.units["tengu"]
    assert tengu.status == "board" and tengu.damage == 0 and tengu.used[0] == 1


def test_internal_factory_airlock_is_closed_with_a_resistance_character_within_3_squares():
    game = arena({"ashton": "d10", "tengu": "j3"})  # d10 is 3 squares from a10 (Airlock 4)
    st = state(game)
    st.units["tengu"].status, st.units["tengu"].pos, st.units["tengu"].out_turn = "out", None, 1
    next_turn(game)
    game.apply("resistance", "first isc")
    cmds = texts(game, "isc")
    assert "enter tengu a10" not in cmds and "enter tengu a11" not in cmds
    assert "enter tengu t10" in cmds
    with pytest.raises(IllegalCommand, match="free access square"):
        game.apply("isc", "enter tengu a11")
    st.units["ashton"].pos = sq("e10")  # four squares away: Airlock 4 opens again
    assert "enter tengu a10" in texts(game, "isc")


def test_event_6_high_security_airlock_opens_the_central_airlock_to_the_internal_factory():
    game = arena({"ashton": "b2", "tengu": "j3"})
    st = state(game)
    st.units["tengu"].status, st.units["tengu"].pos, st.units["tengu"].out_turn = "out", None, 1
    next_turn(game, event=(3, 3))
    assert st.event == 6
    game.apply("resistance", "first isc")
    assert {"enter tengu j10", "enter tengu k10"} <= texts(game, "isc")
    game.apply("isc", "enter tengu k10")
    assert st.units["tengu"].pos == sq("k10")


# -- Hymn to the revolution ------------------------------------------------------------------------------


def test_a_revolution_token_re_rolls_a_resistance_die():
    game = arena({"ashton": "i3", "mamushi": "j3"}, dice=[1, 6])
    st = state(game)
    st.revolution = 1
    game.apply("resistance", "attack ashton mamushi")
    game.apply("isc", "no-dodge")
    assert game.awaiting()[0].seats == {"resistance"}  # re-roll the 1?
    text = said(game.apply("resistance", "reroll"))
    assert "re-rolls a 1: 6" in text and st.revolution == 0
    assert st.units["mamushi"].status == "out"  # 6+3-2 = 7 damage, life 6


def test_a_revolution_token_buys_an_extra_movement_action():
    game = arena({"jimmy": "h1", "mamushi": "s18"})
    st = state(game)
    st.revolution = 1
    for where in ("h2", "h3", "h4", "h5", "h6"):
        game.apply("resistance", f"move jimmy {where}")  # Jimmy: Mvt 5
    with pytest.raises(IllegalCommand, match="no Movement actions left"):
        game.apply("resistance", "move jimmy i6")
    game.apply("resistance", "token move jimmy")
    game.apply("resistance", "move jimmy i6")
    assert st.revolution == 0 and st.units["jimmy"].pos == sq("i6")


def test_a_revolution_token_buys_an_extra_combat_action():
    game = arena({"jimmy": "i3", "oni": "j3"}, dice=[6, 6])
    st = state(game)
    st.revolution = 1
    st.policies["resistance"]["reroll"] = "never"
    game.apply("resistance", "attack jimmy oni")
    game.apply("isc", "no-dodge")
    with pytest.raises(IllegalCommand, match="no Combat actions left"):
        game.apply("resistance", "attack jimmy oni")
    game.apply("resistance", "token combat jimmy")
    game.apply("resistance", "attack jimmy oni")
    assert st.revolution == 0 and st.units["jimmy"].used[1] == 2


def test_a_revolution_token_pays_for_a_dodge_when_no_combat_action_is_left():
    game = arena({"jimmy": "i3", "oni": "j3"}, side="isc", dice=[1, 6])
    st = state(game)
    st.revolution = 1
    st.units["jimmy"].used[1] = 1  # Jimmy (Cbt 1) already used his action
    game.apply("isc", "attack oni jimmy")
    assert {c.text for c in game.legal_commands("resistance")} == {"dodge token", "no-dodge"}
    text = said(game.apply("resistance", "dodge token"))
    assert "1+3 vs 6+1" in text and st.units["jimmy"].damage == 0 and st.revolution == 0


# -- End of turn and the game result ---------------------------------------------------------------------


def test_the_last_turn_ending_without_a_victory_is_a_draw():
    game = arena({"ashton": "b2", "mamushi": "s18"})
    state(game).turn = 8  # Infiltration lasts 8 turns
    finish_turn(game)
    assert game.outcome is not None and game.outcome.draw
    assert game.outcome.reason == "Draw: the last turn ended with neither side's victory condition met."
    assert game.awaiting() == [] and game.legal_commands("resistance") == []


def test_a_victory_condition_met_at_the_end_of_a_turn_wins():
    # Infiltration's I.S.C.: 4 Resistance characters taken out, checked when the turn ends.
    game = arena(
        {"ashton": "p16", "jimmy": "q16", "mira": "b2", "kenji": "b3", "golem": "b4", "mamushi": "r18"}
    )
    st = state(game)
    for u in ("jimmy", "mira", "kenji", "golem"):
        st.units[u].status, st.units[u].pos = "out", None
    game.apply("resistance", "activate ashton")
    game.apply("resistance", "end")
    assert game.outcome is None  # only checked when the turn ends
    finish_turn(game)
    assert game.outcome is not None and game.outcome.winners == {"isc"} and st.turn == 1


def test_infiltration_s_server_room_counts_only_when_the_last_turn_ends():
    # Ruling 39: held at the end of turn 1 the room wins nothing yet; held when turn 8 ends, it wins.
    game = arena({"ashton": "p16", "jimmy": "q16", "mamushi": "r18", "ubume": "b2"})
    finish_turn(game)
    assert game.outcome is None and state(game).turn == 2
    state(game).turn = 8
    finish_turn(game)
    assert game.outcome is not None and game.outcome.winners == {"resistance"}
    assert "last turn" in game.outcome.reason


def test_a_victory_timing_the_rules_do_not_know_is_refused_when_content_loads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = content._read("scenarios.json")
    bad = json.loads(json.dumps(data))
    bad["scenarios"][0]["victory"]["resistance"]["when"] = "second_turn"
    monkeypatch.setattr(content, "_read", lambda name: bad)
    content.scenarios.cache_clear()
    try:
        with pytest.raises(ContentError, match="unknown when 'second_turn'"):
            content.scenarios()
    finally:
        monkeypatch.undo()
        content.scenarios.cache_clear()


def test_a_victory_condition_not_met_lets_the_game_go_on():
    game = arena({"ashton": "p16", "jimmy": "q16", "mamushi": "r18", "ubume": "s18"})  # 2 against 2
    finish_turn(game)
    assert game.outcome is None and state(game).turn == 2


def _wipe_out(scenario: str, lineup: list[str]) -> Game:
    """Every Resistance character but Jimmy already out; Oni takes Jimmy out with a 6."""
    squares = {"jimmy": "j3", "oni": "i3"}
    game = arena(
        {**{u: ("b2" if u != "jimmy" else "j3") for u in lineup}, **squares},
        scenario=scenario,
        side="isc",
        dice=[6],
    )
    st = state(game)
    for u in lineup:
        if u != "jimmy":
            st.units[u].status, st.units[u].pos = "out", None
    game.apply("isc", "attack oni jimmy")
    game.apply("resistance", "no-dodge")
    assert game.outcome is None  # the turn is not over yet
    game.apply("isc", "end")
    return game


def test_all_resistance_characters_taken_out_ends_the_game_with_the_isc_victory_if_met():
    # Evasion: the I.S.C. wins with 4 Resistance characters taken out.
    game = _wipe_out("evasion", ["ashton", "mira", "kenji", "jimmy"])
    assert game.outcome is not None and game.outcome.winners == {"isc"}


def test_all_resistance_characters_taken_out_without_a_victory_condition_is_a_draw():
    game = _wipe_out("evasion", ["ashton", "mira", "jimmy"])  # only 3 taken out, 4 needed
    assert game.outcome is not None and game.outcome.draw
    assert game.outcome.reason == (
        "Draw: every Resistance character is out of play, and the I.S.C. has not met its victory condition."
    )


def test_campaign_next_scenario_follows_the_result_of_the_game():
    # The campaign begins with Infiltration; an I.S.C. win there leads to Evasion.
    assert new_game("escape").scenario == "infiltration"
    game = _wipe_out("infiltration", ["ashton", "mira", "kenji", "jimmy"])
    assert game.outcome is not None and game.outcome.winners == {"isc"}
    assert next_scenario(game.scenario, game.outcome.winners) == "evasion"
    won = arena({"ashton": "p16", "jimmy": "q16", "mamushi": "b2"})
    state(won).turn = 8
    finish_turn(won)
    assert won.outcome is not None
    assert next_scenario(won.scenario, won.outcome.winners) == "datatheft"
    assert next_scenario("infiltration", frozenset()) == "evasion"


def test_refused_commands_change_nothing():
    game = arena({"ashton": "i3", "mamushi": "j3"})
    before = game.to_json()
    for text in ("move ashton z9", "attack ashton ashton", "hack ashton mamushi", "open ashton a1|a2"):
        with pytest.raises(RuleError):
            game.apply("resistance", text)
    assert game.to_json() == before


def test_rank_points_cap_the_line_ups_when_agreed():
    from engine.errors import SetupError

    ok = new_game(
        "escape", options={"points": 6, "resistance": ["ashton", "jimmy", "kenji"], "isc": ["oni", "tengu"]}
    )
    assert state(ok).lineups["resistance"] == ["ashton", "jimmy", "kenji"]
    with pytest.raises(SetupError, match="rank points"):
        new_game("escape", options={"points": 4, "resistance": ["ashton", "golem"], "isc": ["tengu"]})


@pytest.mark.parametrize(
    ("scenario", "line"),
    [
        ("infiltration", None),
        ("evasion", "Resistance exits: airlock 2, 3 or 4"),
        ("datatheft", "Resistance exits carrying an objective: airlock 1 or 4"),
    ],
)
def test_the_board_s_panel_names_the_exit_airlocks(scenario: str, line: str | None) -> None:
    game = new_game("escape", scenario=scenario, seed=3, seats={"resistance": None, "isc": None})
    lines = game.scene(None).panel.lines
    exits = [x for x in lines if "exits" in x]
    assert exits == ([line] if line else [])
