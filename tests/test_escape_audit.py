"""ESCAPE points independent reads of the rulebook found (issue 10, items 1-9; then a second audit at the
end of the file: the Radio, Firewall with Burrowing, extra actions that lapse, Interference; then a third: the Radio
under Interference, Combat drugs and the Drill), with scripted dice.

Each test names the rulings entry (docs/rulings/escape.md) that records the reading it checks.
"""

from __future__ import annotations

import pytest

from engine import Game, new_game
from engine.errors import IllegalCommand
from engine.rulesets.escape.rules import left
from engine.rulesets.escape.state import CBT, DEFAULT_POLICIES, INT
from tests.escape_helpers import arena, edge, equip, finish_turn, lay, said, sq, state


def texts(game: Game, seat: str) -> set[str]:
    """The text of every legal command for a seat."""
    return {c.text for c in game.legal_commands(seat)}


def next_turn(game: Game, init: tuple[int, int] = (6, 1), event: tuple[int, int] = (3, 4)) -> str:
    """Finish the turn; the next turn's initiative and event dice are scripted. Returns the narration."""
    state(game).rng.script = [*init, *event]
    return said(finish_turn(game))


# -- 1. Black-out and grenades -----------------------------------------------------------------------------


def test_a_grenade_blast_does_not_reach_characters_in_the_blacked_out_room():
    # Ruling 18: the Hangar is dark. Ashton (corridor g4) throws at g2, in front of the open Hangar door:
    # Oni (g1, corridor) is caught, Mamushi (h2, inside the Hangar) is not.
    game = arena({"ashton": "g4", "oni": "g1", "mamushi": "h2"}, dice=[1])
    st = state(game)
    st.doors[edge("g2", "h2")].open = True
    st.event, st.event_room = 10, "H"
    equip(game, "ashton", "em")
    text = said(game.apply("resistance", "grenade ashton g2"))
    assert "Oni in the blast" in text and "Mamushi" not in text
    game.apply("isc", "no-dodge")  # Oni: 1+3+1 vs 3 = 2, 1 after Armor
    assert st.units["oni"].damage == 1 and st.units["mamushi"].damage == 0


# -- 2. Grenades and walls --------------------------------------------------------------------------------


def test_a_grenade_blast_stops_at_walls_and_closed_doors():
    # Ruling 21: Ashton (n5) throws at n2 in the corridor east of the Hangar. Mamushi (m2) and Ubume (o2)
    # stand on the far side of walls, Kitsune (m1) round a corner walled on both ways: only Oni (n1) is hit.
    game = arena({"ashton": "n5", "oni": "n1", "mamushi": "m2", "ubume": "o2", "kitsune": "m1"}, dice=[1])
    st = state(game)
    equip(game, "ashton", "em")
    text = said(game.apply("resistance", "grenade ashton n2"))
    assert "throws the EM grenade at n2: Oni in the blast" in text
    game.apply("isc", "no-dodge")
    assert st.units["oni"].damage == 1
    assert all(st.units[u].damage == 0 for u in ("mamushi", "ubume", "kitsune"))


def test_a_grenade_blast_passes_an_open_door():
    # The locked door m3|n3, once open, lets the blast at n3 reach Mamushi on m3 (and m2/m4 round its corners).
    game = arena({"ashton": "n6", "mamushi": "m3", "ubume": "m4"}, dice=[1])
    st = state(game)
    st.doors[edge("m3", "n3")].open = True
    equip(game, "ashton", "em")
    text = said(game.apply("resistance", "grenade ashton n3"))
    assert "Mamushi, Ubume in the blast" in text


# -- 3. Attraction's difficulty -------------------------------------------------------------------------


def test_attraction_is_a_hack_against_the_target_s_int():
    # Kitsune's Int is down to 0 (a penalty): 1+0 = 1 against Jimmy's Int 2 fails.
    game = arena({"kitsune": "h2", "jimmy": "j2"}, side="isc", dice=[1])
    st = state(game)
    st.units["kitsune"].mods[INT] = -2
    st.units["kitsune"].bonus[INT] = 1  # an extra action (a Datadisk's) to hack with
    st.units["jimmy"].used[INT] = 2  # no counter-measure
    text = said(game.apply("isc", "hack kitsune jimmy"))
    assert "1+0 vs Int 2 → failure" in text
    assert st.units["jimmy"].pos == sq("j2") and game.awaiting()[0].kind == "activation"


# -- 4. Revolution tokens -----------------------------------------------------------------------------------


def test_the_standing_re_roll_answer_is_ask_by_default():
    game = new_game("escape", seats={"resistance": "r", "isc": "i"}, seed=1)
    assert state(game).policies["resistance"]["reroll"] == "ask" == DEFAULT_POLICIES["reroll"]
    # Ruling 6: with the default a token is never spent unasked. Ashton's 1 (1+3-2 = 2 damage) may be
    # re-rolled for more damage: the Resistance is asked.
    game = arena(
        {"ashton": "i3", "mamushi": "j3"},
        dice=[1],
        policies={s: dict(DEFAULT_POLICIES) for s in ("resistance", "isc")},
    )
    st = state(game)
    st.revolution = 1
    game.apply("resistance", "attack ashton mamushi")
    game.apply("isc", "no-dodge")
    d = game.awaiting()[0]
    assert d.kind == "reaction" and d.seats == {"resistance"}
    assert "rolled a 1 for Ashton's attack: re-roll it with a Revolution token?" in d.prompt
    game.apply("resistance", "keep")
    assert st.revolution == 1 and st.units["mamushi"].damage == 2


def test_auto_never_spends_a_token_on_an_attack_no_re_roll_can_turn():
    # Jimmy (Cbt 1) attacks Oni (Cbt 3), who dodges with a 6: even a re-rolled 6 gives 6+1 vs 6+3.
    game = arena({"jimmy": "i3", "oni": "j3"}, dice=[1, 6])
    st = state(game)
    st.revolution = 1
    game.apply("resistance", "react reroll auto")
    game.apply("resistance", "attack jimmy oni")
    text = said(game.apply("isc", "dodge"))
    assert "re-rolls" not in text and st.revolution == 1
    assert game.awaiting()[0].kind == "activation"


def test_auto_spends_a_token_on_an_attack_a_re_roll_can_turn():
    # Ashton's 1 against Mamushi's dodge 4 (1+3 vs 4+2) loses; a re-roll can win: the token is spent.
    game = arena({"ashton": "i3", "mamushi": "j3"}, dice=[1, 4, 6])
    st = state(game)
    st.revolution = 1
    game.apply("resistance", "react reroll auto")
    game.apply("resistance", "attack ashton mamushi")
    text = said(game.apply("isc", "dodge"))
    assert "re-rolls a 1: 6" in text and st.revolution == 0 and st.units["mamushi"].damage == 3


def test_a_hopeless_initiative_die_is_neither_re_rolled_by_auto_nor_asked_about():
    # Turn 2: Ashton alone (Int 1) against Ubume and Kitsune (Int 4). 1+1 vs 4+4: a 6 makes 7, still short.
    game = arena({"ashton": "b2", "ubume": "h2", "kitsune": "h4"})
    st = state(game)
    st.revolution = 1
    game.apply("resistance", "react reroll auto")
    text = next_turn(game, init=(1, 4))
    assert "Initiative: Resistance 1+1=2, I.S.C. 4+4=8" in text and "re-rolls" not in text
    assert st.revolution == 1
    game = arena({"ashton": "b2", "ubume": "h2", "kitsune": "h4"})  # the same with 'ask'
    st = state(game)
    st.revolution = 1
    next_turn(game, init=(1, 4), event=(3, 4))
    # The initiative die was not offered; the random event die (no face better than another) is.
    d = game.awaiting()[0]
    assert st.initiative == "isc" and d.kind == "reaction" and "rolled a 3 for the random event" in d.prompt
    assert st.stack[-2]["t"] == "event"


def test_auto_re_rolls_an_initiative_die_that_can_still_win():
    # 1+1 vs 2+4: a re-rolled 5 or 6 wins, so 'auto' spends the token (a 6: 6+1 = 7 against 6).
    game = arena({"ashton": "b2", "ubume": "h2", "kitsune": "h4"})
    st = state(game)
    st.revolution = 1
    game.apply("resistance", "react reroll auto")
    state(game).rng.script = [1, 2, 6, 3, 4]
    text = said(finish_turn(game))
    assert "re-rolls a 1: 6" in text and st.revolution == 0 and st.initiative == "resistance"


# -- 5. Disconnection and card weapons -----------------------------------------------------------------------


def test_disconnection_silences_the_needle_gun_but_not_the_slingshot():
    # Ruling 35: a weapon printed on a card is one of the card's skills, so Disconnection (event 12) stops it.
    game = arena({"kitsune": "h2", "rook": "h5"}, side="isc", event=12)
    assert not any(c.startswith("shoot") for c in texts(game, "isc"))
    with pytest.raises(IllegalCommand, match="Disconnection"):
        game.apply("isc", "shoot kitsune rook")
    game = arena({"kitsune": "h2", "rook": "h5"}, event=12, dice=[6])
    assert "shoot rook kitsune" in texts(game, "resistance")


# -- 6. Powergrid overload, Short circuit and the airlocks ----------------------------------------------------


def test_powergrid_overload_jolts_a_resistance_character_by_an_airlock_door():
    # Ruling 19: j1 is an access square of Airlock 1 (a secured airlock door), and no other door is near.
    game = arena({"ashton": "j1", "jimmy": "b2", "mamushi": "s18"})
    st = state(game)
    next_turn(game, event=(1, 3))
    assert st.event == 4
    assert st.units["ashton"].damage == 2 and st.units["jimmy"].damage == 0


def test_short_circuit_cannot_switch_an_airlock():
    # Ruling 36: airlocks have no open or closed state, so a Short circuit has nothing to flip there.
    game = arena({"ashton": "b2", "mamushi": "h2"})
    next_turn(game, event=(4, 5))
    assert all("|" in c.args[0] for c in game.legal_commands("resistance"))
    with pytest.raises(IllegalCommand, match="airlock"):
        game.apply("resistance", "switch airlock-1")
    with pytest.raises(IllegalCommand, match="airlock"):
        game.apply("resistance", "switch j1")


# -- 7. Data theft -----------------------------------------------------------------------------------------


def test_data_theft_lets_a_character_leave_only_with_an_objective_token():
    # Ruling 37: Airlock 4 is the entry too, so leaving without a data core would score nothing.
    game = arena({"ashton": "a10", "jimmy": "a11", "mamushi": "s18"}, scenario="datatheft")
    st = state(game)
    with pytest.raises(IllegalCommand, match="objective"):
        game.apply("resistance", "leave ashton")
    assert "leave ashton" not in texts(game, "resistance")
    equip(game, "jimmy", "", kind="objective", value=2)
    game.apply("resistance", "leave jimmy")
    assert st.units["jimmy"].status == "escaped" and st.carried_points == 2


def test_evasion_still_lets_anyone_leave():
    game = arena({"rook": "t10", "mamushi": "b2"}, scenario="evasion")
    game.apply("resistance", "leave rook")
    assert state(game).units["rook"].status == "escaped"


# -- 8. Decision kinds -------------------------------------------------------------------------------------


def test_turn_time_choices_are_turn_decisions_not_setup():
    game = arena({"ashton": "b2", "mamushi": "h2"})
    next_turn(game, event=(4, 5))  # Short circuit: the Resistance picks a door
    assert state(game).phase == "event_choice" and game.awaiting()[0].kind == "turn"
    game.apply("resistance", "switch g2|h2")
    assert state(game).phase == "first" and game.awaiting()[0].kind == "turn"
    fresh = new_game("escape", seats={"resistance": "r", "isc": "i"}, seed=1)
    assert fresh.awaiting()[0].kind == "setup"


# -- 9. Text board, setup narration, victory help ------------------------------------------------------------


def test_text_board_keeps_airlock_marks_and_names_tokens():
    game = arena({"ashton": "b2", "mamushi": "h4"})
    st = state(game)
    crate = lay(game, "crate", "j1")
    hidden = lay(game, "equipment", "c3", item="medkit")
    st.revolution = 2
    board = game.text_board()
    rows = {line[:3].strip(): line for line in board.splitlines() if line[:3].strip().isdigit()}
    cell = lambda row, col: rows[row][4 + 3 * (ord(col) - 97) : 6 + 3 * (ord(col) - 97)]  # noqa: E731
    assert cell("1", "j") == "1x"  # Airlock 1's mark, with the crate on it
    assert cell("1", "k") == "1 "
    assert cell("10", "a") == "4 " and cell("11", "t") == "2 "
    assert cell("3", "c") == "q?" and cell("2", "b") == "AS" and cell("4", "h") == "ma"
    assert f"{crate} j1 crate" in board and f"{hidden} c3 face-down" in board
    assert "medkit" not in board.lower()  # a face-down token stays hidden
    assert "Turn 1/8" in board and "Event 7" in board and "initiative Resistance" in board
    assert "Revolution tokens: 2" in board and "Legend" in board


def test_the_setup_initiative_roll_is_narrated():
    game = new_game("escape", seats={"resistance": "r", "isc": "i"}, dice=[3, 5])
    prompt = game.awaiting()[0].prompt
    assert "Setup initiative: Resistance 3+8=11, I.S.C. 5+7=12" in prompt
    assert "Setup initiative: Resistance 3+8=11" in game.text_board()
    seat = next(iter(game.awaiting()[0].seats))
    text = said(game.apply(seat, game.legal_commands(seat)[0]))
    assert text.startswith("Setup initiative: Resistance 3+8=11, I.S.C. 5+7=12") and "places first" in text
    text = said(game.apply("resistance", game.legal_commands("resistance")[0]))
    assert "Setup initiative" not in text  # told once


def test_victory_help_topic_lists_every_scenario_s_conditions():
    from engine.ruleset import find_ruleset
    from engine.rulesets.escape.content import scenarios

    topics = find_ruleset("escape").help_topics()
    text = topics["victory"]
    for s in scenarios().values():
        assert s.name in text
        for side in ("resistance", "isc"):
            assert s.victory[side]["text"] in text
    assert "objective" in text and "draw" in text.lower()


def test_the_game_s_own_player_re_rolls_only_a_die_it_can_turn():
    # Asked about Ashton's 1 against Mamushi's dodge 4 (1+3 vs 4+2, a 6 would win): re-roll. Asked about
    # a winning 1 with no dodge (1+3-2 = 2 damage): keep the token.
    game = arena({"ashton": "i3", "mamushi": "j3"}, dice=[1, 4])
    state(game).revolution = 1
    game.apply("resistance", "attack ashton mamushi")
    game.apply("isc", "dodge")
    assert game.bot_command("resistance").text == "reroll"
    game = arena({"ashton": "i3", "mamushi": "j3"}, dice=[1])
    state(game).revolution = 1
    game.apply("resistance", "attack ashton mamushi")
    game.apply("isc", "no-dodge")
    assert game.awaiting()[0].kind == "reaction"
    assert game.bot_command("resistance").text == "keep"


# -- Second audit against the rulebook (basic rules 1 vs 1) ---------------------------------------------------


def test_the_radio_cannot_end_an_activation_on_an_occupied_square_under_firewall():
    # Event 8: a Resistance character may pass through an occupied square but not end its activation there;
    # the Radio ends the activation, so it is refused until Ashton has stepped off Mamushi's square.
    game = arena({"ashton": "h3", "jimmy": "b2", "mamushi": "i3", "oni": "k3"}, event=8)
    st = state(game)
    equip(game, "ashton", "radio")
    game.apply("resistance", "move ashton i3")  # through Mamushi's square
    assert "radio ashton jimmy" not in texts(game, "resistance")
    with pytest.raises(IllegalCommand, match="occupied square"):
        game.apply("resistance", "radio ashton jimmy")
    assert st.active == "ashton" and st.units["ashton"].carrying is not None
    game.apply("resistance", "move ashton j3")
    game.apply("resistance", "radio ashton jimmy")
    assert st.units["ashton"].activated and st.forced_next == "jimmy"


def test_the_radio_calls_only_an_ally_on_the_board():
    # Radio: an allied character anywhere on the board. Jimmy, still to enter by Airlock 1, is not on it.
    game = arena({"ashton": "j1", "jimmy": "reserve", "mira": "b2", "mamushi": "m6"})
    equip(game, "ashton", "radio")
    assert "radio ashton jimmy" not in texts(game, "resistance") and "radio ashton mira" in texts(
        game, "resistance"
    )
    with pytest.raises(IllegalCommand, match="on the board"):
        game.apply("resistance", "radio ashton jimmy")
    # Nor an I.S.C. character taken out last turn, which the Internal factory could bring back.
    game = arena({"mamushi": "h3", "oni": "b2", "ubume": "h5", "ashton": "b12"}, side="isc")
    st = state(game)
    st.turn = 2
    st.units["oni"].status, st.units["oni"].pos, st.units["oni"].out_turn = "out", None, 1
    equip(game, "mamushi", "radio")
    assert "enter oni j1" in texts(game, "isc")  # the factory may bring Oni back this turn
    with pytest.raises(IllegalCommand, match="on the board"):
        game.apply("isc", "radio mamushi oni")
    game.apply("isc", "radio mamushi ubume")
    assert st.forced_next == "ubume"


def test_combat_drugs_left_unspent_do_not_pay_for_a_dodge_later():
    # The drugs give the *active* character an extra hand-to-hand or ranged attack. Jimmy (Cbt 1) takes
    # them and attacks no one: when Oni attacks him twice afterwards he can dodge once, not twice.
    game = arena({"jimmy": "i3", "oni": "j3"}, dice=[1, 6, 1])
    st = state(game)
    jimmy = st.units["jimmy"]
    equip(game, "jimmy", "drugs")
    game.apply("resistance", "drugs jimmy")
    assert left(st, jimmy, CBT) == 2
    game.apply("resistance", "end")
    assert left(st, jimmy, CBT) == 1
    game.apply("isc", "attack oni jimmy")
    game.apply("resistance", "dodge")  # 1+3 vs 6+1: no damage
    assert jimmy.damage == 0
    game.apply("isc", "attack oni jimmy")  # no Combat action left: no dodge question, 1+3-1 = 3 damage
    assert game.awaiting()[0].kind == "activation" and jimmy.damage == 3


def test_an_attack_made_in_the_activation_counts_as_the_drugs_extra_one():
    # Ruling 40: whichever came first, Jimmy's one attack is the drugs' extra one; his own Cbt 1 stays.
    game = arena({"jimmy": "i3", "oni": "j3"}, dice=[1])
    st = state(game)
    equip(game, "jimmy", "drugs")
    game.apply("resistance", "attack jimmy oni")
    game.apply("isc", "no-dodge")  # 1+1-3: no damage
    game.apply("resistance", "drugs jimmy")
    game.apply("resistance", "end")
    assert left(st, st.units["jimmy"], CBT) == 1


def test_a_datadisk_intellect_action_left_unspent_lapses_with_the_activation():
    # Kitsune (Int 2) buys an extra Intellect action and does not use it: two counter-measures later, not 3.
    game = arena({"kitsune": "h2", "ashton": "b2"}, side="isc")
    st = state(game)
    equip(game, "kitsune", "datadisk")
    game.apply("isc", "datadisk kitsune int")
    assert left(st, st.units["kitsune"], INT) == 3
    game.apply("isc", "end")
    assert left(st, st.units["kitsune"], INT) == 2


def test_a_revolution_token_s_combat_action_may_still_be_a_dodge():
    # Unlike the drugs, the token buys a Combat action 'including a dodge': it does not lapse.
    game = arena({"jimmy": "i3", "oni": "j3"})
    st = state(game)
    st.revolution = 1
    game.apply("resistance", "token combat jimmy")
    game.apply("resistance", "end")
    assert left(st, st.units["jimmy"], CBT) == 2


def test_firewall_lets_a_burrowing_character_step_off_through_a_wall():
    # Vesna passes through Ashton's square (g2), then Mamushi's (g3): g3's only free neighbours lie behind
    # walls, which Burrowing ignores, so she has a way off and the step is legal.
    game = arena({"vesna": "g1", "ashton": "g2", "mamushi": "g3", "oni": "g4"}, event=8)
    st = state(game)
    game.apply("resistance", "move vesna g2")
    game.apply("resistance", "move vesna g3")
    game.apply("resistance", "move vesna h3")  # through the wall into the Hangar
    game.apply("resistance", "end")
    assert st.units["vesna"].pos == sq("h3")


def test_interference_s_second_activation_may_be_declined():
    # Event 11: the Resistance *can* activate a second character at once; it may let the I.S.C. go instead.
    game = arena({"ashton": "b2", "jimmy": "b4", "mamushi": "h2", "ubume": "h4"})
    next_turn(game, init=(1, 6), event=(5, 6))
    game.apply("resistance", "first resistance")
    assert "pass" not in texts(game, "resistance")
    game.apply("resistance", "activate ashton")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"resistance"} and "pass" in texts(game, "resistance")
    game.apply("resistance", "pass")
    assert game.awaiting()[0].seats == {"isc"}
    game.apply("isc", "activate mamushi")
    game.apply("isc", "end")
    assert "pass" not in texts(game, "resistance")
    with pytest.raises(IllegalCommand, match="Interference"):
        game.apply("resistance", "pass")
    game.apply("resistance", "activate jimmy")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"isc"}


# -- Third audit against the rulebook (basic rules 1 vs 1) ----------------------------------------------------


def interference_with_a_radio(holder: str) -> Game:
    """Three Resistance characters (Ashton b2, Jimmy b4, Mira b6) against two, ``holder`` carrying the Radio,
    on a turn whose event is Interference and whose initiative the Resistance won and used to go first."""
    game = arena({"ashton": "b2", "jimmy": "b4", "mira": "b6", "mamushi": "h2", "ubume": "h4"})
    next_turn(game, init=(1, 6), event=(5, 6))
    equip(game, holder, "radio")
    game.apply("resistance", "first resistance")
    return game


def test_a_radio_call_in_interference_s_first_activation_is_its_second_activation():
    # Ruling 41: Interference lets the Resistance activate a second character right after its first. Ashton
    # (first) radios Jimmy, who activates at once: Jimmy is that second character, so the I.S.C. goes next.
    game = interference_with_a_radio("ashton")
    game.apply("resistance", "radio ashton jimmy")
    game.apply("resistance", "activate jimmy")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"isc"}
    assert "pass" not in texts(game, "resistance")


def test_a_radio_call_in_interference_s_second_activation_still_calls_a_third():
    # The Radio's own call is not Interference's: used in the second activation it still brings a third.
    game = interference_with_a_radio("jimmy")
    game.apply("resistance", "activate ashton")
    game.apply("resistance", "end")
    game.apply("resistance", "radio jimmy mira")
    assert game.awaiting()[0].seats == {"resistance"} and state(game).forced_next == "mira"
    game.apply("resistance", "activate mira")
    game.apply("resistance", "end")
    assert game.awaiting()[0].seats == {"isc"}


def test_combat_drugs_pay_for_an_attack_but_not_for_drilling_a_wall():
    # The drugs give an extra hand-to-hand or ranged attack. Kappa (Cbt 2) takes them, drills twice (2, 3:
    # the wall holds) with her own actions: the action left is the drugs' one, an attack but no third drill.
    game = arena({"kappa": "c2", "ashton": "c3"}, side="isc", dice=[2, 3])
    st = state(game)
    equip(game, "kappa", "drugs")
    game.apply("isc", "drugs kappa")
    game.apply("isc", "drill kappa c2|d2")
    game.apply("isc", "drill kappa c2|d2")
    assert left(st, st.units["kappa"], CBT) == 1
    assert "drill kappa c2|d2" not in texts(game, "isc") and "attack kappa ashton" in texts(game, "isc")
    with pytest.raises(IllegalCommand, match="Combat drugs"):
        game.apply("isc", "drill kappa c2|d2")


def test_attacks_made_before_the_drugs_count_as_their_extra_one_so_a_drill_may_follow():
    # Ruling 40's order: Kappa attacks twice, then takes the drugs; one of the two attacks was the drugs'
    # extra, so one of her own Combat actions is left, and it may drill.
    game = arena({"kappa": "c2", "ashton": "c3"}, side="isc", dice=[1, 1, 5])
    st = state(game)
    equip(game, "kappa", "drugs")
    for _ in range(2):
        game.apply("isc", "attack kappa ashton")
        game.apply("resistance", "no-dodge")  # 1+2 vs 3: no damage
    game.apply("isc", "drugs kappa")
    assert "drill kappa c2|d2" in texts(game, "isc")
    game.apply("isc", "drill kappa c2|d2")
    assert edge("c2", "d2") in st.destroyed


def test_the_initiative_winner_choosing_itself_is_told_plainly():
    # Narration: a winner that goes first itself "activates first"; one that lets the other go says so.
    game = arena({"ashton": "b2", "mamushi": "h2"})
    assert "The Resistance activates first." in next_turn(game, init=(6, 1)) + said(
        game.apply("resistance", "first resistance")
    )
    text = next_turn(game, init=(6, 1)) + said(game.apply("resistance", "first isc"))
    assert "The Resistance lets the I.S.C. activate first." in text
