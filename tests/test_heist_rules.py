"""Rule tests for heists: planning, sub-actions, chits, the noise track, events, modules, escape, campaign."""

from __future__ import annotations

import pytest

from engine import IllegalCommand, RuleError, SetupError, find_ruleset
from engine.rulesets.heist import campaign as K
from engine.rulesets.heist import events as E
from engine.rulesets.heist import rounds as RD
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.present import pawn_tags
from engine.rulesets.heist.state import Chit
from tests.heist_helpers import SEATS3, SEATS4, clear_board, game_for, indoor_path, put, skip_planning, state


def started(
    heist: str = "the_inclusion_job", dice: list[int] | None = None, seats=SEATS3, plans=None, pos=None
):  # type: ignore[no-untyped-def]
    game = game_for(heist, seats, dice=dice or [3, 3, 3, 3])
    st = state(game)
    clear_board(st)
    outs = sorted(R.exits(st))
    positions = pos or {s: outs[i % len(outs)] for i, s in enumerate(st.seats)}
    skip_planning(game, positions, plans)
    return game, st


# --- planning ------------------------------------------------------------------------------------------


def test_planning_tokens_are_limited_by_planning_memory() -> None:
    game = game_for("the_inclusion_job")
    st = state(game)
    p = st.players["p1"]
    limit = R.character(p).planning_memory
    tiles = [c.args[0] for c in game.legal_commands("p1") if c.verb == "plan"]
    for n in tiles[:limit]:
        game.apply("p1", f"plan {n}")
    assert not [c for c in game.legal_commands("p1") if c.verb == "plan"]
    with pytest.raises(IllegalCommand, match="planning memory"):
        game.apply("p1", f"plan {tiles[limit]}")


def test_at_most_two_characters_start_on_an_entrance() -> None:
    game = game_for("the_inclusion_job")
    game.apply("p1", "start i3")
    game.apply("p2", "start i3")
    with pytest.raises(IllegalCommand, match="At most 2"):
        game.apply("p3", "start i3")


def test_ready_needs_a_start_and_everyone_ready_starts_round_one_with_dice() -> None:
    game = game_for("the_inclusion_job", dice=[6, 5, 4])
    with pytest.raises(IllegalCommand, match="starting entrance"):
        game.apply("p1", "ready")
    for seat, e in (("p1", "i3"), ("p2", "i5"), ("p3", "f9")):
        game.apply(seat, f"start {e}")
    game.apply("p1", "ready")
    game.apply("p2", "ready")
    events = game.apply("p3", "ready")
    roll = next(e for e in events if e.kind == "roll")
    assert roll.dice == (6, 5, 4) and roll.board
    st = state(game)
    assert st.phase == "action" and st.round == 1
    assert game.awaiting()[0].kind == "simultaneous" and game.awaiting()[0].seats == {"p1", "p2", "p3"}


def test_no_auto_reveal_during_planning() -> None:
    game = game_for("the_inclusion_job")
    st = state(game)
    unknown = sum(t.unknown for t in st.tiles.values())
    game.apply("p1", "start i3")
    assert sum(t.unknown for t in st.tiles.values()) == unknown


def test_shop_buy_and_sell_at_half_price() -> None:
    game = game_for("the_inclusion_job")
    st = state(game)
    st.team_cash = 10
    game.apply("p1", "buy radio")
    assert st.team_cash == 8 and "radio" in st.players["p1"].items
    game.apply("p1", "sell radio")
    assert st.team_cash == 9


def test_first_heist_team_has_no_cash_for_the_shop() -> None:
    game = game_for("the_inclusion_job")
    assert not [c for c in game.legal_commands("p1") if c.verb == "buy"]


# --- sub-actions ---------------------------------------------------------------------------------------


def test_move_must_land_on_a_planned_hex() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    t1 = indoor_path(st, "i5", 1)[0]
    game.apply("p1", "act walk")
    with pytest.raises(IllegalCommand, match="not on .* plan"):
        game.apply("p1", f"move {t1}")
    st.players["p1"].plans.append(t1)
    game.apply("p1", f"move {t1}")
    assert st.players["p1"].pos == t1


def test_locked_tiles_cannot_be_entered_and_guards_hold_you() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    t1, t2 = indoor_path(st, "i5", 2)
    st.players["p1"].plans = [t1, t2]
    put(st, t1, "lock")
    game.apply("p1", "act walk")
    with pytest.raises(IllegalCommand, match="locked"):
        game.apply("p1", f"move {t1}")
    st.tiles[t1].chits.clear()
    put(st, t1, "guard")
    game.apply("p1", f"move {t1}")  # you may move onto a guard
    game.apply("p1", "done")
    st.players["p1"].left = "M"
    st.players["p1"].done = False
    with pytest.raises(IllegalCommand, match="holds"):
        game.apply("p1", f"move {t2}")


def test_noise_and_alert_are_required_and_charged_when_done() -> None:
    game, st = started()
    game.apply("p1", "act walk")
    assert st.noise == 0
    game.apply("p1", "done")
    assert st.noise == 1


def test_no_passing_an_action_must_be_chosen() -> None:
    game, st = started()
    with pytest.raises(IllegalCommand, match="no passing"):
        game.apply("p1", "done")


def test_entering_a_live_camera_raises_an_alert() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    t1 = indoor_path(st, "i5", 1)[0]
    st.players["p1"].plans = [t1]
    put(st, t1, "camera")
    top = st.deck[0]
    game.apply("p1", "act walk")
    game.apply("p1", f"move {t1}")
    assert st.discard == [top]


def test_subdue_disable_unlock_reach() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"}, dice=[1, 1, 1])
    t1 = indoor_path(st, "i5", 1)[0]
    put(st, t1, "guard")
    p2 = st.players["p2"]  # Tiny Mike the Thug: Punch by default, Adrenaline
    ideas = p2.ideas
    game.apply("p2", "act punch")
    game.apply("p2", f"subdue {t1}")
    assert not R.guards(st, t1) and p2.ideas == ideas + 1


def test_elite_guard_needs_two_subdues_in_one_round() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"}, dice=[1, 1, 1])
    t1 = indoor_path(st, "i5", 1)[0]
    st.tiles[t1].chits.append(Chit("guard", True, True))
    game.apply("p2", "act punch")
    game.apply("p2", f"subdue {t1}")
    assert R.guards(st, t1) == 1
    st.players["p1"].skills = ["smash_n_grab", "bypass"]
    game.apply("p1", "act punch")
    game.apply("p1", f"subdue {t1}")
    assert R.guards(st, t1) == 0


def test_ideas_turn_the_die_with_wraparound() -> None:
    game, st = started(dice=[6, 3, 3])
    p = st.players["p1"]  # Johnny Swagger: Smash 'n' Grab (1 = Punch) and Bypass
    p.ideas = 1
    punch = next(o for o in R.options(st, p) if o.key == "punch")
    assert punch.cost == 1 and punch.face == 1  # 6 -> 1 for one idea


def test_auto_reveal_draws_from_the_bag_hidden_until_drawn() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    t1, t2 = indoor_path(st, "i5", 2)
    st.tiles[t2].unknown = True
    st.bag[:] = ["camera"]
    v = game.view("p1")
    assert v["tiles"][t2] == {"unknown": True, "chits": [], "cash": 0, "loot": [], "marks": []}
    assert "camera" not in str(v["tiles"]) and v["bag_size"] == 1
    st.players["p1"].plans = [t1]
    game.apply("p1", "act walk")
    events = game.apply("p1", f"move {t1}")
    assert any(e.kind == "reveal" for e in events)
    assert R.chits(st, t2, "camera") and not st.tiles[t2].unknown and st.bag == []


def test_reveal_anywhere_and_empty_bag_leaves_a_blank() -> None:
    game, st = started(dice=[1, 1, 1])
    far = indoor_path(st, "f9", 4)[-1]
    st.tiles[far].unknown = True
    p3 = st.players["p3"]  # Iceheart: Wing It 1 = Discover 🔍🔍🔊
    game.apply("p3", "act discover")
    game.apply("p3", f"reveal {far}")
    assert not st.tiles[far].unknown and st.tiles[far].chits == []
    assert p3.left == "R"


def test_loot_pickup_and_insta_transfer_and_banking_outdoors() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    t1 = indoor_path(st, "i5", 1)[0]
    st.tiles[t1].loot.append("jewel")
    st.players["p1"].plans = [t1]
    st.players["p2"].plans = [t1]
    game.apply("p1", "act walk")
    game.apply("p1", f"move {t1}")
    game.apply("p1", "take jewel")
    game.apply("p2", "act walk")
    game.apply("p2", f"move {t1}")
    game.apply("p1", "give jewel p2")
    assert st.players["p2"].loot == ["jewel"]
    st.players["p2"].left = "M"
    game.apply("p2", "move i5")
    assert st.hauled == {"jewel": 1} and st.players["p2"].loot == []


# --- noise track and deck ------------------------------------------------------------------------------


def test_noise_track_alert_spaces_and_final_slot() -> None:
    game, st = started(seats=SEATS4)
    spaces, final = R.track(st)
    assert spaces[:4] == (4, 7, 10, 13) and final == 40
    n = len(st.deck)
    R.make_noise(st, 3, [])
    assert len(st.deck) == n
    R.make_noise(st, 1, [])
    assert len(st.deck) == n - 1 and st.noise == 4
    st.noise = final - 1
    before = len(st.deck) + len(st.crises)
    R.make_noise(st, 1, [])
    assert st.noise == final and len(st.deck) + len(st.crises) == before  # reaching the final slot
    R.make_noise(st, 2, [])
    assert st.noise == final and len(st.deck) + len(st.crises) == before - 2  # every noise after it


def test_three_player_track_is_shorter() -> None:
    game, st = started()
    spaces, final = R.track(st)
    assert final == 30 and spaces[0] == 3 and len(spaces) < len(R.TRACK_4)


def test_a_crisis_on_top_is_queued_at_once_and_final_crisis_starts_the_escape() -> None:
    game, st = started()
    st.deck[:] = ["1", "Z1"]
    R.alert(st, [], "test")
    assert st.deck == [] and st.crises == ["Z1"]
    for seat in st.seats:
        game.apply(
            seat,
            "act walk"
            if "walk" in [o.key for o in R.options(st, st.players[seat])]
            else f"act {R.options(st, st.players[seat])[0].key}",
        )
        game.apply(seat, "done")
    assert st.phase in ("escape", "over")


def test_escape_called_by_anyone_happens_after_the_event_phase() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    game.apply("p2", "escape")
    assert st.phase == "action"
    for seat in st.seats:
        key = R.options(st, st.players[seat])[0].key
        game.apply(seat, f"act {key}")
        game.apply(seat, "done")
    assert st.phase == "over"  # everyone was outdoors: all escape at once
    assert st.discard, "the Event phase still happened"


# --- events and modules --------------------------------------------------------------------------------


def test_event_hidden_cameras_adds_to_the_bag() -> None:
    game, st = started()
    E.resolve(st, "1", [])
    assert st.bag.count("camera") == 3


def test_lockdown_gate_removes_the_tile_and_busts_who_is_on_it() -> None:
    game, st = started("the_inclusion_job")
    gate = E.next_gate(st)
    assert gate == "g3"  # gate A
    st.players["p1"].pos = gate
    st.players["p2"].plans = [gate]
    E.resolve(st, "G1", [])
    assert gate in st.removed and not R.alive(st, gate)
    assert st.players["p1"].status == "busted"
    assert st.players["p2"].spare == 1 and gate not in st.players["p2"].plans
    assert E.next_gate(st) == "e4"  # gate B next


def test_guard_dog_chases_onto_an_adjacent_character() -> None:
    game, st = started("the_dark_horse_job", pos={"p1": "i7", "p2": "i7", "p3": "b1"})
    t1, t2 = indoor_path(st, "i7", 2)
    st.players["p1"].pos = t1
    put(st, t2, "dog")
    R.dogs_chase(st, [])
    assert R.guards(st, t1) == 1 and R.guards(st, t2) == 0


def test_server_opens_its_remote_lock() -> None:
    game, st = started("the_dark_horse_job", pos={"p1": "i7", "p2": "i7", "p3": "b1"})
    st.tiles["e4"].marks.append("remote_lock_x")
    st.tiles["f1"].marks.append("server_x")
    assert R.locked(st, "e4")
    st.players["p1"].pos = "f1"
    R.lift_remote_locks(st, "f1", [])
    assert not R.locked(st, "e4")


def test_keycard_opens_a_keycard_door() -> None:
    game, st = started("the_melee_job", pos={"p1": "b1", "p2": "b1", "p3": "g1"})
    st.tiles["b6"].marks.append("keycard_door")
    door_nb = R.nbrs(st, "b6")[0]
    p = st.players["p1"]
    p.pos = door_nb
    assert "open b6" not in [c.text for c in game.legal_commands("p1")]
    p.loot.append("keycard")
    game.apply("p1", "open b6")
    assert not R.locked(st, "b6")


def test_safecracking_with_tools_counts_up_and_opens_the_safe() -> None:
    game, st = started("the_melee_job", pos={"p1": "b1", "p2": "b1", "p3": "g1"}, dice=[2, 2, 2])
    p = st.players["p1"]  # Angry Locksmith: Pick 🔓🔊
    p.pos = "b8"
    st.tiles["b8"].marks.append("safe")
    p.items.append("safecracking_tools")
    st.safe = 3
    game.apply("p1", "act pick")
    events = game.apply("p1", "crack")
    assert st.safe == 4 and "safe_open" in st.flags
    assert "jewel" in st.tiles["b8"].loot and any("swings open" in e.text for e in events)
    game.apply("p1", "done")
    assert st.noise == 0  # Suspenseful silence: a round of nothing but safecracking makes no noise


def test_watchtower_sweep_places_guards_in_line() -> None:
    game, st = started("the_startup_job", pos={"p1": "e9", "p2": "e9", "p3": "g8"})
    tower = "f5"
    line = next(line for line in R.board(st).lines[tower] if len(line) >= 2)
    st.players["p1"].pos = line[1]
    E.resolve(st, "C2", [])
    assert R.guards(st, line[1]) == 1


def test_reinforcements_wake_neighbours_and_leave_two_guards() -> None:
    game, st = started("the_inclusion_job")
    spot = "g5"
    nb = R.nbrs(st, spot)
    put(st, nb[0], "guard", active=False)
    E.resolve(st, "C1", [])
    assert R.guards(st, spot) == 2
    assert R.guards(st, nb[0]) == 1


def test_lucky_penny_takes_an_idea_loss() -> None:
    game, st = started()
    p = st.players["p1"]
    p.items.append("lucky_penny")
    ideas = p.ideas
    E.lose_idea(st, p, [], "test")
    assert p.ideas == ideas and "lucky_penny" not in p.items


def test_hostage_is_taken_then_acts_with_its_own_die() -> None:
    game, st = started("the_hospitality_job", pos={"p1": "a8", "p2": "a8", "p3": "e1"}, dice=[3, 3, 3, 4])
    npc = st.npcs[0]
    assert npc.kind == "hostage" and not npc.active
    assert not [c for c in game.legal_commands("p1") if c.verb == "npc"], "a hostage does nothing until taken"
    p = st.players["p1"]
    p.pos = npc.pos
    events = game.apply("p1", "escort")
    assert npc.active and npc.escort == "p1" and npc.ideas == 3
    assert any(e.dice == (4,) for e in events)
    keys = {c.args[1] for c in game.legal_commands("p2") if c.verb == "npc" and c.args[0] == "act"}
    assert {"crawl", "handle", "pause"} <= keys  # Pause is its 6-action: 💡💡 turn a 4 into a 6
    game.apply("p2", "npc act crawl")
    nxt = next(c.args[1] for c in game.legal_commands("p2") if c.verb == "npc" and c.args[0] == "move")
    game.apply("p3", f"npc move {nxt}")
    assert npc.pos == nxt
    game.apply("p3", "npc done")
    assert st.noise == 0  # Crawl makes no noise


def test_npc_reaching_an_exit_is_out_and_meets_the_objective() -> None:
    game, st = started("the_hospitality_job", pos={"p1": "a8", "p2": "a8", "p3": "e1"}, dice=[3, 3, 3, 1])
    npc = st.npcs[0]
    t1 = indoor_path(st, "a8", 1)[0]
    npc.pos = t1
    st.players["p1"].pos = t1
    game.apply("p1", "escort")
    game.apply("p1", "npc act crawl")
    game.apply("p1", "npc move a8")
    assert npc.status == "escaped"
    st.players["p1"].pos = "a8"
    RD.start_escape(st, [])
    assert st.phase == "over" and game.outcome is not None and game.outcome.winners


def test_prisoner_is_freed_when_its_remote_lock_opens() -> None:
    game, st = started("the_greedy_prisoner", pos={"p1": "i7", "p2": "i7", "p3": "i7"}, dice=[2, 2, 2, 5])
    npc = st.npcs[0]
    assert npc.kind == "prisoner" and not npc.active
    st.tiles[npc.pos].marks.append("remote_lock_x")  # put back after clearing the board
    server = next(n for n, t in st.tiles.items() if "server_x" in t.marks)
    p = st.players["p1"]
    p.pos = R.nbrs(st, server)[0]
    p.plans = [server]
    game.apply("p1", "act walk")
    events = game.apply("p1", f"move {server}")
    assert npc.active and any("is free" in e.text for e in events)
    verbs = {c.args[0] for c in game.legal_commands("p2") if c.verb == "npc"}
    assert verbs == {"act"}
    acts = {c.args[1] for c in game.legal_commands("p2") if c.verb == "npc"}
    assert "crawl" in acts and "pause" in acts


def test_an_active_npc_left_inside_runs_last_on_its_own() -> None:
    game, st = started("the_hospitality_job", pos={"p1": "a8", "p2": "a8", "p3": "e1"}, dice=[3, 3, 3, 1])
    npc = st.npcs[0]
    t1 = indoor_path(st, "a8", 1)[0]
    npc.pos = t1
    st.players["p1"].pos = t1
    game.apply("p1", "escort")
    st.players["p1"].pos = "a8"
    npc.ideas = 1
    RD.start_escape(st, [])
    assert npc.status == "escaped" and st.phase == "over"


# --- escape --------------------------------------------------------------------------------------------


def test_escape_reveals_every_chit_and_outdoor_characters_are_out() -> None:
    game, st = started()
    far = indoor_path(st, "f9", 3)[-1]
    st.tiles[far].unknown = True
    st.bag[:] = ["guard"]
    RD.start_escape(st, [])
    assert not st.tiles[far].unknown and R.guards(st, far) == 1
    assert st.phase == "over"  # everyone stood on an exit


def test_keycard_door_costs_an_extra_escape_move() -> None:
    game, st = started("the_melee_job", pos={"p1": "b1", "p2": "b1", "p3": "g1"})
    p = st.players["p1"]
    path = indoor_path(st, "b1", 2)
    p.pos = path[-1]
    base = R.escape_need(st, p)
    for n in st.tiles:
        if n not in path and n not in R.exits(st):
            put(st, n, "lock")
    st.tiles[path[0]].marks.append("keycard_door")
    assert R.escape_need(st, p) is None
    p.loot.append("keycard")
    assert R.escape_need(st, p) == (base or 0) + 1


# --- setup and campaign --------------------------------------------------------------------------------


def test_one_character_class_per_heist() -> None:
    with pytest.raises(SetupError, match="character class"):
        game_for("the_inclusion_job", characters={"p1": "johnny_swagger", "p2": "karma", "p3": "auto"})


def test_skill_card_copies_are_limited() -> None:
    with pytest.raises(SetupError, match="copies"):
        game_for("the_inclusion_job", characters={"p1": "johnny_swagger", "p2": "tiny_mike", "p3": "phobia"})


def test_three_seats_at_least() -> None:
    with pytest.raises(RuleError, match="at least 3"):
        game_for("the_inclusion_job", {"p1": "u1", "p2": "u2"})


def test_option_specs_offer_prebuilt_crew_per_seat() -> None:
    rs = find_ruleset("heist")
    spec = rs.option_specs("the_inclusion_job")[0]
    assert spec.per_seat and spec.choices[0][0] == "auto"
    assert ("johnny swagger", "Johnny Swagger: Angry Locksmith, Smash 'n' Grab + Bypass") in spec.choices
    assert len(rs.scenarios()) == 17


def test_campaign_record_after_a_won_heist() -> None:
    game, st = started("the_inclusion_job")
    st.hauled = {"jewel": 3, "cash": 4}
    st.players["p2"].status = "busted"
    RD.start_escape(st, [])
    assert game.outcome is not None and game.outcome.winners == frozenset(SEATS3)
    rs = find_ruleset("heist")
    rec = rs.campaign_update(st)["*"]
    assert rec["cash"] == 4
    assert "pawn_shop_owner" in rec["fixers"] and "the_inclusion_job" in rec["won"]
    johnny = rec["characters"]["johnny_swagger"]
    assert johnny["level"] == 2 and johnny["skills"][0] != "smash_n_grab"
    assert rec["characters"]["tiny_mike"]["status"] == "jailed"
    assert rec["players"] == {"u1": 2, "u2": 2, "u3": 2}
    text = rs.describe_campaign(rec)
    assert "Team cash: $4k" in text and "Johnny Swagger (level 2" in text
    # The next heist starts from this record: a jailed character cannot play, levels carry over.
    with pytest.raises(SetupError, match="jail"):
        game_for_record(rec, {"p1": "tiny_mike"})
    g2 = game_for_record(rec, {"p1": "johnny_swagger"})
    assert state(g2).players["p1"].skills == johnny["skills"] and state(g2).team_cash == 4


def game_for_record(rec, chars):  # type: ignore[no-untyped-def]
    from engine import new_game

    return new_game("heist", scenario="the_inclusion_job", seats=SEATS3, seed=2,
                    options={"campaign": {"*": rec}, "character": chars})  # fmt: skip


def test_level_up_path_two_three_four() -> None:
    m = K.prebuilt()["johnny_swagger"]
    m2 = K.level_up(m)
    m3 = K.level_up(m2)
    m4 = K.level_up(m3)
    assert m2["skills"][0] != m["skills"][0] and m2["character"] == m["character"]
    assert m3["character"] != m["character"]
    assert m4["skills"][1] != m["skills"][1] and m4["level"] == 4
    assert K.level_up(m4) == m4


def test_character_above_player_level_is_refused() -> None:
    rec = K.normalise(None)
    rec["characters"]["pro"] = dict(
        K.prebuilt()["johnny_swagger"], nickname="Pro", level=3, character="safecracker"
    )
    with pytest.raises(SetupError, match="above this player's level"):
        game_for_record(rec, {"p1": "pro"})


def test_scene_and_text_board_build() -> None:
    game, st = started()
    sc = game.scene("p1")
    assert sc.grid == "hex" and sc.tiles and sc.panel.lines[1].startswith("Noise")
    assert "Noise" in game.text_board()


# --- fixers, items in planning, modules ----------------------------------------------------------------


def test_building_schematics_scout_during_planning_then_discarded() -> None:
    game = game_for("the_inclusion_job")
    st = state(game)
    p = st.players["p1"]
    p.items.append("building_schematics")
    target = next(n for n, t in sorted(st.tiles.items()) if t.unknown)
    st.bag[:] = ["lock"]
    st.fixers.append("the_machinist")
    ideas = p.ideas
    game.apply("p1", f"scout {target}")
    assert R.chits(st, target, "lock") and "building_schematics" not in p.items
    assert p.ideas == ideas + 1  # The Machinist: a lock found by scouting gives 💡


def test_beat_cop_and_diversion_and_retired_mastermind() -> None:
    game = game_for("the_inclusion_job")
    st = state(game)
    st.team_cash = 20
    st.fixers += ["beat_cop", "diversion_specialist", "retired_mastermind"]
    guards = st.bag.count("guard")
    game.apply("p1", "bribe")
    game.apply("p1", "bribe")
    assert st.bag.count("guard") == guards - 2 and st.bag.count("blank") == 2 and st.team_cash == 17
    game.apply("p2", "decoy")
    assert st.decoys == 1 and st.team_cash == 16
    game.apply("p3", "insert m2 1")
    assert st.deck[0] == "M2" and st.team_cash == 13
    spaces, _ = R.track(st)
    st.noise = spaces[0] - 1
    top = st.deck[0]
    R.make_noise(st, 1, [])
    assert st.decoys == 0 and st.deck[0] == top and st.noise == spaces[0] - 1


def test_connoisseur_adds_cash_to_loot_hexes() -> None:
    from engine import new_game

    rec = {"fixers": ["old_friend", "the_connoiseur"]}
    plain = state(game_for("the_inclusion_job"))
    rich = state(
        new_game("heist", scenario="the_inclusion_job", seats=SEATS3, options={"campaign": {"*": rec}})
    )
    assert sum(t.cash for t in rich.tiles.values()) > sum(t.cash for t in plain.tiles.values())


def test_imprisoned_under_a_remote_lock_may_only_think_loot_and_reveal() -> None:
    game, st = started("the_dark_horse_job", pos={"p1": "i7", "p2": "i7", "p3": "b1"}, dice=[1, 1, 1])
    p = st.players["p3"]
    cell = indoor_path(st, "b1", 1)[0]
    p.pos = cell
    st.tiles[cell].marks.append("remote_lock_x")
    put(st, R.nbrs(st, cell)[0], "guard")
    game.apply("p3", "act discover")
    verbs = {c.verb for c in game.legal_commands("p3")}
    assert "move" not in verbs and "subdue" not in verbs


def test_upgrade_choice_picks_the_skill_and_the_pro_card() -> None:
    m = K.prebuilt()["johnny_swagger"]
    from engine.rulesets.heist.content import load_content

    c = load_content()
    two_b = K.level_up(m, "2b")
    assert two_b["skills"][1] == c.skills[m["skills"][1]].upgrades[1]
    assert two_b["skills"][0] == m["skills"][0]


def test_breakout_heist_lets_jailed_characters_start_inside() -> None:
    from engine import new_game

    rec = K.normalise(None)
    rec["characters"]["johnny_swagger"] = dict(K.prebuilt()["johnny_swagger"], status="jailed")
    game = new_game("heist", scenario="county_jail_the_river", seats=SEATS3,
                    options={"campaign": {"*": rec}, "character": {"p1": "johnny_swagger"}})  # fmt: skip
    st = state(game)
    p = st.players["p1"]
    assert p.pos and p.pos not in R.exits(st)
    assert not [c for c in game.legal_commands("p1") if c.verb == "start"]


def test_architect_idea_token_goes_to_whoever_draws_it() -> None:
    game = game_for("the_inclusion_job")
    st = state(game)
    st.team_cash = 5
    st.fixers.append("the_architect")
    game.apply("p1", "floorplan")
    assert "idea2" in st.bag and st.team_cash == 3
    game2, st2 = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    t1, t2 = indoor_path(st2, "i5", 2)
    st2.tiles[t2].unknown = True
    st2.bag[:] = ["idea2"]
    p = st2.players["p1"]
    p.plans = [t1]
    ideas = p.ideas
    game2.apply("p1", "act walk")
    game2.apply("p1", f"move {t1}")
    assert p.ideas == ideas + 2


def test_bookie_pays_double_when_everyone_gets_out_and_the_job_is_done() -> None:
    game, st = started("the_inclusion_job")
    st.bought.append("bet:3")
    st.hauled = {"jewel": 3}
    RD.start_escape(st, [])
    rec = find_ruleset("heist").campaign_update(st)["*"]
    assert rec["cash"] == st.team_cash + 6


def test_there_are_better_dogs() -> None:
    game, st = started("the_dark_horse_job", pos={"p1": "i7", "p2": "i7", "p3": "b1"}, dice=[3, 3, 3])
    urchin = st.players["p3"]  # Iceheart, a Street Urchin: there are better ways
    t0, t1, t2 = indoor_path(st, "i7", 3)
    urchin.pos = t0
    urchin.plans = [t1, t2]
    put(st, t0, "dog")
    game.apply("p3", "slip")
    urchin.action, urchin.left, urchin.noise_due = "run", "MM", 2  # a Run 🔊🔊➜➜ taken
    game.apply("p3", f"move {t1}")
    game.apply("p3", f"move {t2}")
    game.apply("p3", "done")
    assert R.guards(st, t0) == 1 and R.guards(st, t2) == 0, "the dog stays when left a tile behind"


def test_building_a_new_named_character_and_no_evil_twins() -> None:
    from engine import new_game

    opts = {"build": {"p1": "thug"}, "skill_1": {"p1": "hurry"}, "skill_2": {"p1": "linger"}}
    game = new_game("heist", scenario="the_inclusion_job", seats=SEATS3, options=opts)
    p = state(game).players["p1"]
    assert p.character == "thug" and p.skills == ["hurry", "linger"] and p.nickname == "Thug (Hurry + Linger)"
    twin = {
        "build": {"p1": "angry_locksmith"},
        "skill_1": {"p1": "bypass"},
        "skill_2": {"p1": "smash_n_grab"},
    }
    with pytest.raises(SetupError, match="evil twins.*Johnny Swagger"):
        new_game("heist", scenario="the_inclusion_job", seats=SEATS3, options=twin)
    pro = {"build": {"p1": "thug"}, "skill_1": {"p1": "ninja"}, "skill_2": {"p1": "linger"}}
    with pytest.raises(SetupError, match="level 2"):
        new_game("heist", scenario="the_inclusion_job", seats=SEATS3, options=pro)
    keys = [s.key for s in find_ruleset("heist").option_specs("the_inclusion_job")]
    assert keys == ["character", "upgrade", "build", "skill_1", "skill_2"]


# --- scenario rules ------------------------------------------------------------------------------------


def test_safehouse_ambush_fails_when_not_every_guard_goes_down_in_one_round() -> None:
    game = game_for("the_safehouse_rescue", dice=[1, 1, 1])
    st = state(game)
    skip_planning(game, {"p1": "e1", "p2": "e1", "p3": "j1"})
    for c in st.tiles["d4"].chits:
        c.active = False  # two of the four guards subdued this round
    RD.ambush(st, [])
    assert "ambush" in st.flags and R.guards(st, "h5") == 2  # reinforcements came at once


def test_safehouse_ambush_succeeds_when_all_four_go_down() -> None:
    game = game_for("the_safehouse_rescue", dice=[1, 1, 1])
    st = state(game)
    skip_planning(game, {"p1": "e1", "p2": "e1", "p3": "j1"})
    for n in ("d4", "c6"):
        for c in st.tiles[n].chits:
            c.active = False
    events: list = []
    RD.ambush(st, events)
    assert "reinforcements" in st.tiles["h5"].marks and any("Ambush!" in e.text for e in events)


def test_breakout_needs_a_different_exit_for_each_character() -> None:
    game, st = started("county_jail_the_river", pos={"p1": "c1", "p2": "c9", "p3": "i2"})
    a, b = st.players["p1"], st.players["p2"]
    t = R.nbrs(st, "c1")[0]
    a.pos = t
    b.pos = t
    first = R.escape_route(st, a)
    assert first is not None
    RD.escaped(st, a, "", [])
    second = R.escape_route(st, b)
    assert second is not None and second[-1][0] != a.pos


def test_hideout_holds_two_and_whispers_share_ideas() -> None:
    game, st = started("the_final_score_part_2", pos={"p1": "a1", "p2": "a1", "p3": "c1"})
    hideout = "c7"
    p1, p2 = st.players["p1"], st.players["p2"]
    p1.pos = p2.pos = hideout
    p1.ideas, p2.ideas = 2, 0
    game.apply("p1", "whisper p2")
    assert p1.ideas == 1 and p2.ideas == 1
    assert "whisper p2" not in [c.text for c in game.legal_commands("p3")]
    # Final Score Part 1 limits its hideouts to two characters; there the third cannot step in.
    game2, st2 = started("the_final_score_part_1", pos={"p1": "e1", "p2": "e1", "p3": "e1"})
    story = next(n for n, t in sorted(st2.tiles.items()) if "story" in t.marks)
    st2.players["p1"].pos = st2.players["p2"].pos = story
    q = st2.players["p3"]
    q.pos = next(m for m in R.nbrs(st2, story) if m not in R.exits(st2))
    q.plans = [story]
    from engine.rulesets.heist import actions as A

    assert story not in A.move_targets(st2, q)


def test_usb_key_to_the_guide_opens_remote_lock_y() -> None:
    game, st = started("the_side_channel", pos={"p1": "h8", "p2": "h8", "p3": "h8"})
    st.tiles["g2"].marks.append("remote_lock_y")
    guide = st.npcs[0]
    p = st.players["p1"]
    p.pos = guide.pos
    p.loot.append("usb")
    game.apply("p1", "give usb npc")
    assert not R.locked(st, "g2") and "usb" not in p.loot


# --- more event cards ----------------------------------------------------------------------------------


def near_entrance(heist: str = "the_inclusion_job", door: str = "i5"):  # type: ignore[no-untyped-def]
    """A started heist with p1 one step inside from ``door``, and that tile's inner neighbour."""
    game, st = started(heist, pos={"p1": door, "p2": door, "p3": door})
    t1, t2 = indoor_path(st, door, 2)
    st.players["p1"].pos = t1
    return game, st, t1, t2


def test_event_guard_locks_himself_in_and_door_rattles() -> None:
    game, st, t1, t2 = near_entrance()
    put(st, t2, "guard")
    E.resolve(st, "5", [])
    assert R.chits(st, t2, "lock")
    E.resolve(st, "14", [])
    assert R.guards(st, t2) == 2


def test_event_double_camera_and_hey_you() -> None:
    game, st, t1, t2 = near_entrance()
    put(st, t2, "camera")
    E.resolve(st, "9", [])
    assert len(R.chits(st, t2, "camera")) == 2
    E.resolve(st, "19", [])
    assert R.guards(st, t1) == 1  # a guard comes for p1, next to a live camera


def test_event_oops_relocked_and_surveillance_reboot() -> None:
    game, st, t1, t2 = near_entrance()
    put(st, t2, "lock", active=False)
    E.resolve(st, "11", [])
    assert R.chits(st, t2, "lock")
    a, b = indoor_path(st, "f9", 2)
    put(st, a, "camera", active=False)
    put(st, b, "camera", active=False)
    E.resolve(st, "8", [])
    assert R.chits(st, a, "camera") and R.chits(st, b, "camera")


def test_event_idea_losses() -> None:
    game, st, t1, t2 = near_entrance()
    p1 = st.players["p1"]
    p1.ideas = 3
    put(st, t2, "guard")
    put(st, t2, "camera")
    E.resolve(st, "13", [])  # two unhandled chits next to p1
    assert p1.ideas == 2
    p1.pos = "i5"
    st.players["p2"].pos = st.players["p3"].pos = "i3"
    E.resolve(st, "18", [])  # nobody on or next to p1 at i5: a moment of doubt
    assert p1.ideas == 1
    st.tiles[t2].unknown = True
    p1.plans = [t2]
    before = p1.ideas
    E.resolve(st, "21", [])
    assert p1.ideas == before - 1


def test_event_fumble_the_loot_keeps_what_the_objective_needs() -> None:
    game, st, t1, t2 = near_entrance()
    p1 = st.players["p1"]
    p1.cash, p1.loot = 3, ["jewel"]
    E.resolve(st, "22", [])
    assert p1.loot == ["jewel"] and p1.cash == 0  # jewels are the Inclusion Job's objective
    assert sum(st.tiles[m].cash for m in R.nbrs(st, t1)) == 3


def test_event_lock_the_goods_and_dogs_from_the_kennel() -> None:
    game, st, t1, t2 = near_entrance("the_proving_grounds", "h4")
    st.tiles[t2].loot.append("jewel")
    E.resolve(st, "C4", [])
    assert R.chits(st, t2, "lock")
    assert E.kennels(st)
    events: list = []
    E.resolve(st, "D1", events)
    dogs = [n for n, t in st.tiles.items() for c in t.chits if c.kind == "dog"]
    assert len(dogs) == 1 and any("guard dog" in e.text for e in events)


def test_crisis_release_the_hounds_puts_dogs_next_to_exits() -> None:
    game, st, t1, t2 = near_entrance()
    E.resolve(st, "C6", [])
    dogs = sum(1 for t in st.tiles.values() for c in t.chits if c.kind == "dog")
    assert dogs == len({m for e in R.exits(st) for m in R.nbrs(st, e) if m not in R.exits(st)})


def test_bag_upgrade_events_make_elite_chits() -> None:
    game, st = started()
    st.bag[:] = ["guard", "camera", "lock"]
    for card in ("B1", "B2", "B3"):
        E.resolve(st, card, [])
    assert sorted(st.bag) == ["camera2x", "guard2x", "lock2x"]


# --- team choices in the Event phase --------------------------------------------------------------------


def end_round(game, st) -> list:  # type: ignore[no-untyped-def]
    """Every character takes its quietest action and finishes (diversions keep the deck as it is)."""
    st.decoys = 20
    events: list = []
    for seat in st.seats:
        o = min(R.options(st, st.players[seat]), key=lambda o: (o.cost, o.subs.count("N")))
        game.apply(seat, f"act {o.key}")
        events = game.apply(seat, "done")
    return events


def test_guard_starts_blabbing_is_a_team_choice() -> None:
    game, st, t1, t2 = near_entrance()
    put(st, t1, "guard", active=False)
    st.deck[:] = ["12", "1", "2", "Z1"]
    end_round(game, st)
    assert st.phase == "event" and game.awaiting()[0].seats == set(st.seats)
    p1 = st.players["p1"]
    assert "blab" in [c.text for c in game.legal_commands("p1")]
    assert "blab" not in [c.text for c in game.legal_commands("p2")]
    st.decoys = 0
    ideas, noise = p1.ideas, st.noise
    game.apply("p1", "blab")  # the last choice: the phase goes on by itself
    assert p1.ideas == ideas + 1 and st.noise == noise + 1
    assert st.phase == "action" and st.discard[-1] == "12" and st.round == 2


def test_stage_whisper_and_continue() -> None:
    game, st, t1, t2 = near_entrance()
    st.players["p2"].pos = t1
    st.players["p1"].ideas, st.players["p2"].ideas = 2, 0
    st.deck[:] = ["17", "1", "2", "Z1"]
    end_round(game, st)
    assert st.phase == "event"
    game.apply("p1", "share p2")
    assert st.players["p2"].ideas >= 1 and st.phase == "event"
    with pytest.raises(IllegalCommand, match="Event phase waits"):
        game.apply("p1", "act walk")
    game.apply("p3", "continue")
    assert st.phase == "action" and st.round == 2


def test_the_mayor_puts_a_character_in_place_of_a_known_guard() -> None:
    game = game_for("the_safehouse_rescue")
    st = state(game)
    st.fixers.append("the_mayor")
    game.apply("p1", "inside d4")
    assert st.players["p1"].pos == "d4" and R.guards(st, "d4") == 1  # one of its two guards is gone
    assert not [c for c in game.legal_commands("p1") if c.verb in ("start", "inside")]


def test_security_consultant_swaps_a_drawn_chit_for_a_blank() -> None:
    game = game_for("the_inclusion_job", dice=[3, 3, 3])
    st = state(game)
    st.fixers.append("security_consultant")
    st.team_cash = 0
    game.apply("p1", "consult")  # the first blank is free
    assert st.bought.count("blank") == 1
    clear_board(st)
    skip_planning(game, {"p1": "i5", "p2": "i5", "p3": "i3"})
    t1, t2 = indoor_path(st, "i5", 2)
    st.tiles[t2].unknown = True
    st.bag[:] = ["guard"]
    p = st.players["p1"]
    p.plans = [t1]
    game.apply("p1", "act walk")
    game.apply("p1", f"move {t1}")
    assert R.guards(st, t2) == 1
    ideas, noise = p.ideas, st.noise
    game.apply("p1", f"swap {t2}")
    assert R.guards(st, t2) == 0 and "blank" not in st.bought
    assert p.ideas == ideas - 1 and st.noise == noise + 1


def test_a_member_holding_several_seats_levels_up_once() -> None:
    from engine import new_game

    game = new_game("heist", scenario="the_inclusion_job", seats={"p1": "u1", "p2": "u1", "p3": "u2"})
    st = state(game)
    st.hauled = {"jewel": 3}
    skip_planning(game, {"p1": "i3", "p2": "i3", "p3": "i5"})
    RD.start_escape(st, [])
    rec = find_ruleset("heist").campaign_update(st)["*"]
    assert rec["players"] == {"u1": 2, "u2": 2}
    assert "Player levels: <@u1> 2, <@u2> 2" in find_ruleset("heist").describe_campaign(rec)


def test_safehouse_prisoner_and_her_guards_head_for_the_van() -> None:
    game = game_for("the_safehouse_rescue", dice=[1, 1, 1])
    st = state(game)
    skip_planning(game, {"p1": "e1", "p2": "e1", "p3": "j1"})
    van = next(n for n, t in st.tiles.items() if "story" in t.marks)
    npc = st.npcs[0]

    def steps(a: str) -> int:
        return R.steps_to(st, {van})[a]

    before_npc = steps(npc.pos)
    before_guards = sorted(steps(f.split(":", 1)[1]) for f in st.flags if f.startswith("ambush_at:"))
    E.end_of_event_phase(st, [])
    assert steps(npc.pos) == before_npc - 1
    after = sorted(steps(f.split(":", 1)[1]) for f in st.flags if f.startswith("ambush_at:"))
    assert after == [d - 1 for d in before_guards]


def test_handing_the_documents_to_the_architect() -> None:
    game, st = started("the_black_box", pos={"p1": "f8", "p2": "f8", "p3": "f8"}, dice=[2, 2, 2, 2])
    npc = st.npcs[0]
    assert npc.kind == "prisoner"
    game.apply("p1", "act walk")  # any command lets the free Architect join in
    assert npc.active
    p = st.players["p2"]
    p.pos = npc.pos
    p.loot.append("docs")
    ideas = [q.ideas for q in st.players.values()]
    game.apply("p2", "give docs npc")
    assert npc.loot == ["docs"] and [q.ideas for q in st.players.values()] == [i + 2 for i in ideas]


def test_melee_guide_starts_at_an_entrance_and_flicks_the_keycard() -> None:
    game, st = started("the_melee_job", pos={"p1": "b1", "p2": "b1", "p3": "g1"}, dice=[3, 3, 3, 3])
    guide = st.npcs[0]
    assert guide.kind == "guide" and guide.active and guide.ideas == 3 and guide.pos in R.exits(st)
    acts = {c.args[1] for c in game.legal_commands("p1") if c.verb == "npc"}
    assert "flick" not in acts  # nothing to throw yet
    guide.loot.append("keycard")
    game.apply("p1", "npc act flick")
    target = next(c.args[1] for c in game.legal_commands("p1") if c.verb == "npc" and c.args[0] == "flick")
    game.apply("p1", f"npc flick {target}")
    assert "keycard" in st.tiles[target].loot and guide.loot == []


def test_side_channel_entrance_on_any_external_side() -> None:
    game = game_for("the_side_channel", dice=[2, 2, 2])
    st = state(game)
    offered = [c.args[0] for c in game.legal_commands("p1") if c.verb == "tunnel"]
    assert "e7" in offered
    game.apply("p1", "tunnel e7")
    gap = next(iter(st.doors))
    assert st.doors[gap] == "e7" and gap in R.exits(st) and R.nbrs(st, gap) == ("e7",)
    assert not [c for c in game.legal_commands("p2") if c.verb == "tunnel"]  # one such entrance
    game.apply("p1", f"start {gap}")
    sc = game.scene(None)
    assert any(t.mark == "EXIT" and t.cell == R.cell_of(st, gap) for t in sc.tiles)
    pawn = pawn_tags(st)["p1"]
    assert any(tok.cell == R.cell_of(st, gap) and tok.label == pawn for tok in sc.tokens)


def test_swindler_slips_loot_onto_a_neighbouring_tile() -> None:
    game, st, t1, t2 = near_entrance()
    p = st.players["p1"]
    p.character = "con_artist"
    p.ideas = 2
    p.loot.append("jewel")
    assert f"drop jewel {t2}" not in [c.text for c in game.legal_commands("p1")]
    game.apply("p1", "larceny")
    game.apply("p1", f"drop jewel {t2}")
    assert st.tiles[t2].loot == ["jewel"] and p.loot == [] and p.ideas == 1


# --- character abilities ------------------------------------------------------------------------------------


def test_autopwn_makes_another_character_subdue() -> None:
    game, st, t1, t2 = near_entrance()
    kid = st.players["p2"]
    kid.character, kid.ideas = "script_kiddie", 2
    put(st, t2, "guard")
    game.apply("p2", "act autopwn")
    assert kid.ideas == 1
    game.apply("p2", f"hack p1 subdue {t2}")  # p1 stands next to t2
    assert R.guards(st, t2) == 0


def test_breach_opens_an_exit_and_starts_the_escape() -> None:
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    p = st.players["p1"]
    p.character, p.ideas = "demolitions_guy", 4
    p.pos = next(n for n in sorted(R.board(st).external) if n not in R.exits(st))
    game.apply("p1", "act breach")
    assert st.phase == "over" and p.status == "escaped"  # everyone was outside or on the new exit


def test_loop_footage_blinds_the_cameras_until_the_event_phase_ends() -> None:
    game, st, t1, t2 = near_entrance()
    tech = st.players["p2"]
    tech.character, tech.ideas = "technician", 2
    put(st, t2, "camera")
    game.apply("p2", "act loop_footage")
    st.players["p1"].plans = [t2]
    top = st.deck[0]
    game.apply("p1", "act walk")
    game.apply("p1", f"move {t2}")
    assert st.deck[0] == top and "loop_footage" in st.flags


def test_change_of_plans_moves_tokens_anywhere() -> None:
    game, st, t1, t2 = near_entrance()
    u = st.players["p3"]  # Iceheart, a Street Urchin
    u.plans = [t1]
    u.ideas = 2
    game.apply("p3", "newplan")
    far = indoor_path(st, "f9", 3)[-1]
    game.apply("p3", f"replan {t1} {far}")
    assert u.plans == [far] and u.ideas == 0


# --- items ---------------------------------------------------------------------------------------------------


def test_cheap_picks_break_on_a_low_die() -> None:
    game, st = started(dice=[2, 3, 3])
    p = st.players["p1"]
    p.items.append("cheap_picks")
    game.apply("p1", "act rake")
    game.apply("p1", "done")
    assert "cheap_picks" not in p.items


def test_flashbang_stuns_guards_until_the_event_phase_ends() -> None:
    game, st, t1, t2 = near_entrance()
    p = st.players["p1"]
    p.items.append("flashbang")
    put(st, t2, "guard")
    st.decoys = 20
    game.apply("p1", "act toss_flashbang")
    assert R.guards(st, t2) == 0 and "flashbang" not in p.items
    game.apply("p1", "done")
    for seat in ("p2", "p3"):
        o = min(R.options(st, st.players[seat]), key=lambda o: o.subs.count("N"))
        game.apply(seat, f"act {o.key}")
        game.apply(seat, "done")
    assert st.round == 2 and R.guards(st, t2) == 1  # awake again after the Event phase


def test_laser_burst_clears_one_line_once_per_heist() -> None:
    game, st, t1, t2 = near_entrance()
    p = st.players["p1"]
    p.items.append("laser_burst")
    put(st, t2, "camera")
    keys = [o.key for o in R.options(st, p) if o.key.startswith("kill_pixels")]
    assert len(keys) == 1
    game.apply("p1", f"act {keys[0]}")
    assert not R.chits(st, t2, "camera") and st.noise == 1
    assert not [o for o in R.options(st, p) if o.key.startswith("kill_pixels")]


def test_master_plan_copy_adds_tokens_and_brings_everyone_down() -> None:
    game = game_for("the_inclusion_job")
    st = state(game)
    p = st.players["p1"]
    p.items.append("master_plan_copy")
    from engine.rulesets.heist import actions as A

    assert A.plan_limit(st, p) == R.character(p).planning_memory + 2
    clear_board(st)
    skip_planning(game, {"p1": "i5", "p2": "i5", "p3": "i3"})
    p.pos = indoor_path(st, "i5", 1)[0]
    st.players["p2"].pos = p.pos
    R.busted(st, p, [])
    assert st.players["p2"].status == "busted" and "plan_lost" in st.flags and not R.objective_met(st)
