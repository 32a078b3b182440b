"""The heist policy plans for the whole crew: one character per place the job needs (by each one's own plan
once under way), every planning token placed, a tunnel where it shortens the way in, the way past a keycard
door found and the keycard carried to it, no start behind such a door, the Side Channel's guide kept for the
USB key, a Plasma Torch bought when the safe needs one; and it paces the heist: no noise made for nothing or
for ideas alone, nobody turning back near the end who can still get out, and any chance taken in the escape
for loot the job needs."""

from __future__ import annotations

from engine import Game, new_game
from engine.ai.levels import level_budget
from engine.ai.search import Searcher
from engine.core import Command
from engine.rulesets.heist import campaign as K
from engine.rulesets.heist import policy as P
from engine.rulesets.heist import rounds as RD
from engine.rulesets.heist import rules as R
from engine.rulesets.heist import search as S
from engine.rulesets.heist.state import HeistState
from tests.heist_helpers import SEATS4, game_for, indoor_path, put, skip_planning, started, state


def test_each_server_on_the_way_in_gets_a_character_of_its_own() -> None:
    # The Dark Horse Job: the documents (i1) sit behind remote lock Y, whose server (f4) sits behind
    # remote lock X (server f1). Dealt out by seat number, the fourth character followed the first to f1.
    st = state(game_for("the_dark_horse_job", SEATS4))
    goals = P.crew_goals(st)
    assert set(goals) == set(SEATS4)
    # The one left over (more hands than places) waits outside to hand its ideas on (Old Friend), rather
    # than follow another to a server or the documents.
    outside = [seat for seat, g in goals.items() if g == R.exits(st)]
    assert len(outside) == 1
    heading = sorted(next(iter(g)) for seat, g in goals.items() if seat not in outside)
    assert all(len(goals[seat]) == 1 for seat in goals if seat not in outside)
    assert heading == ["f1", "f4", "i1"]


def test_the_nearest_character_takes_each_place() -> None:
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, {"p1": "i7", "p2": "c7", "p3": "b1", "p4": "b1"})
    goals = P.crew_goals(state(game))
    assert goals["p3"] == {"f1"} or goals["p4"] == {"f1"}  # server X from the entrance beside it
    assert goals["p2"] == {"f4"}  # server Y from the entrance beside it
    assert goals["p1"] == {"i1"}


def planned_by_the_policy(heist: str, played: list[str] | None = None, seed: int = 1) -> Game:
    """A heist for a crew of four (every seat the game's) whose planning the easy policy has played;
    ``played`` gains the planning commands."""
    game = game_for(heist, dict.fromkeys(SEATS4), seed=seed)
    while state(game).phase == "plan":
        seat = game.next_bot_seat()
        assert seat is not None
        command = game.bot_command(seat)
        if played is not None:
            played.append(command.text)
        game.apply(seat, command)
    return game


def plan_with_the_policy(heist: str) -> tuple[list[str], dict[str, str]]:
    """The planning commands the easy policy plays for a crew of four, and where each character starts."""
    played: list[str] = []
    game = planned_by_the_policy(heist, played)
    return played, {s: p.pos or "" for s, p in state(game).players.items()}


def test_the_side_channel_crew_lays_its_own_entrance_and_goes_in_by_it() -> None:
    # The printed entrance (h8) leads only to a keycard door (g7), with the keycard inside.
    played, starts = plan_with_the_policy("the_side_channel")
    tunnels = [t for t in played if t.startswith("tunnel ")]
    assert len(tunnels) == 1
    assert played[0] == tunnels[0]  # the way in first, so that everyone may start by it
    st = state(planned_by_the_policy("the_side_channel"))
    going_in = {s: p.pos for s, p in st.players.items() if p.plans}  # one may wait outside (Old Friend)
    assert len(going_in) >= 3
    assert "h8" not in going_in.values()
    printed = R.exits(state(game_for("the_side_channel", SEATS4)))
    assert any(start not in printed for start in going_in.values())  # a new entrance


def test_the_black_box_crew_opens_a_tunnel() -> None:
    # The Black Box's one printed entrance (f8) leads through a keycard door (e8) with no keycard near.
    played, starts = plan_with_the_policy("the_black_box")
    opened = [t.split()[1] for t in played if t.startswith("tunnel ")]
    assert played[0].startswith("tunnel ")
    assert opened and set(opened) & set(starts.values())


def test_among_tunnels_that_save_as_much_the_crew_opens_the_hub() -> None:
    # The Side Channel: tunnels at c5, d2, d6 and e2 each bring the USB key (c7), the keycard (d3) and the
    # documents (g2) 13 steps from a way in. d6 leaves none of them more than six off (c5: the documents
    # seven, d2 and e2: the USB key seven); the scripted win in tests/test_heist_winnable.py opens it too.
    st = state(game_for("the_side_channel", SEATS4))
    assert P.best_tunnel(st, ["c5", "d2", "d6", "e2"]) == "d6"
    assert P.best_tunnel(st, ["c5", "d2", "e2"]) in ("c5", "e2")  # c5 and e2 tie again: 3² + 3² + 7²
    played, _starts = plan_with_the_policy("the_side_channel")
    assert "tunnel d6" in played


def test_no_tunnel_where_the_printed_entrances_serve_as_well() -> None:
    st = state(game_for("the_black_box", SEATS4))
    printed = sorted(R.board(st).tunnels)
    assert P.best_tunnel(st, printed) is not None
    assert P.best_tunnel(st, []) is None
    played, _starts = plan_with_the_policy("the_dark_horse_job")  # no tunnels on this map
    assert not any(t.startswith("tunnel") for t in played)


def test_a_place_behind_a_keycard_door_with_no_keycard_about_sends_the_crew_to_look_for_one() -> None:
    # The Hospitality Job: the hostage (i4) sits in a dead end (its other neighbour, j4, leads nowhere)
    # behind the keycard door h4; no keycard lies on the board, one is in the security bag.
    st = state(game_for("the_hospitality_job", SEATS4))
    assert "keycard" in st.bag
    levels = P.opener_steps(st, {"i4"})
    unknown = {n for n, t in st.tiles.items() if t.unknown and R.alive(st, n)}
    assert levels and levels[0] == unknown
    st.tiles["e5"].loot.append("keycard")  # once one turns up, that is where to go
    assert P.opener_steps(st, {"i4"})[0] == {"e5"}


def test_a_safe_the_objective_does_not_need_is_no_target() -> None:
    st = state(game_for("the_hospitality_job", SEATS4))  # a safe on j4; the job is the hostage
    assert R.heist(st).safe is not None and not R.heist(st).objective.safe
    targets, _ways_in = P.crew_targets(st)
    assert targets == {"i4"}


def test_the_side_channel_guide_waits_for_the_usb_key_instead_of_leaving() -> None:
    st = state(game_for("the_side_channel", SEATS4))
    usb = {n for n, t in st.tiles.items() if "usb" in t.loot}
    assert P.npc_goal(st, "guide") == usb
    keycard = {n for n, t in st.tiles.items() if "keycard" in t.loot}
    # the documents' remote lock Y opens by the key; the keycard opens the door (g7) to the only exit
    assert P.opener_steps(st, {"g2"}) == [usb | keycard]
    for t in st.tiles.values():
        if "remote_lock_y" in t.marks:
            t.marks.remove("remote_lock_y")
    assert P.npc_goal(st, "guide") == R.exits(st)  # once the lock is open, out like anyone


def test_the_side_channel_key_fetcher_plans_on_to_the_guide() -> None:
    # The key opens remote lock Y only in the guide's hands (h7, behind keycard door g7): whoever plans to
    # fetch it plans on to the guide, not straight back out.
    game = planned_by_the_policy("the_side_channel")
    st = state(game)
    usb = next(n for n, t in st.tiles.items() if "usb" in t.loot)
    guide = next(n.pos for n in st.npcs if n.kind == "guide")
    fetchers = [p for p in st.players.values() if usb in p.plans]
    assert fetchers and all(guide in p.plans[p.plans.index(usb) :] for p in fetchers)
    # someone plans to fetch the keycard and take it on to the door (g7) that shuts the guide in
    assert P.guide_doors(st) == {"g7"}
    assert {"f6", "f7"} <= P.door_sides(st)
    keycard = next(n for n, t in st.tiles.items() if "keycard" in t.loot)
    assert any(
        keycard in p.plans and {"f6", "f7"} & set(p.plans[p.plans.index(keycard) :])
        for p in st.players.values()
    )


def test_a_keycard_is_left_for_the_crewmate_whose_plan_takes_it_to_its_door() -> None:
    # The Side Channel: one character plans to fetch the keycard and take it on to g7; another passes the
    # keycard's tile on its way to the documents. Taking it there, it stood still off its plan with it.
    game = planned_by_the_policy("the_side_channel")
    st = state(game)
    keycard = next(n for n, t in st.tiles.items() if "keycard" in t.loot)
    sides = P.door_sides(st)
    runners = [
        p
        for p in st.players.values()
        if keycard in p.plans and sides & set(p.plans[p.plans.index(keycard) :])
    ]
    assert runners
    runner = runners[0]
    # the plans fan out from the tunnel at d6, so a crewmate headed for the documents is given the way by
    # the keycard's tile
    passer = next(p for p in st.players.values() if p is not runner and "g2" in p.plans)
    passer.plans.insert(0, keycard)
    runner.pos = passer.pos = keycard
    assert P.left_for_another(st, passer, "keycard")
    assert not P.left_for_another(st, runner, "keycard")
    take = Command("take", ("keycard",), "")
    assert P.bot_weights(st, runner.seat, [take])[0] > P.bot_weights(st, passer.seat, [take])[0]
    # and the keycard's place is dealt to the runner, even with the passer standing on it
    runner.pos = runner.plans[runner.plans.index(keycard) - 1]
    assert P.crew_goals(st)[runner.seat] == {keycard}
    assert P.crew_goals(st)[passer.seat] != {keycard}
    runner.pos = runner.plans[runner.plans.index(keycard) + 1]  # the runner walked past without it
    assert not P.left_for_another(st, passer, "keycard")


def test_the_side_channel_key_carrier_meets_the_guide_and_hands_the_key_over() -> None:
    game = game_for("the_side_channel", SEATS4)
    skip_planning(game, {"p1": "c6", "p2": "c5", "p3": "c4", "p4": "c5"})
    st = state(game)
    guide = next(n for n in st.npcs if n.kind == "guide")
    usb = next(n for n, t in st.tiles.items() if "usb" in t.loot)
    st.tiles[usb].loot.remove("usb")
    st.players["p1"].loot.append("usb")
    goals = P.crew_goals(st)
    assert goals["p1"] == {guide.pos}
    assert all(guide.pos not in g for seat, g in goals.items() if seat != "p1")  # nobody else goes there
    st.players["p1"].pos = guide.pos
    give, take = Command("give", ("usb", "npc"), ""), Command("done", (), "")
    assert P.bot_weights(st, "p1", [give, take]) == [60, 1]  # it hands the key over
    st.tiles["g2"].marks.remove("remote_lock_y")
    assert P.usb_meeting(st) == set()
    assert P.bot_weights(st, "p1", [give, take])[0] == 0  # with the lock gone, the key stays


def test_no_noise_for_an_action_that_gets_nothing_done() -> None:
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, {"p1": "i7", "p2": "c7", "p3": "b1", "p4": "b1"})  # nobody planned a tile
    st = state(game)
    p = st.players["p1"]
    d = P.plan_distances(st, p, P.goals_for(st, p))
    walk = R.Option("walk", "Walk", "NM", "test", 0)
    pause = R.Option("pause", "Pause", "I", "test", 0)
    assert P.act_weight(st, p, walk, d) == 0  # no planned tile to step onto: 🔊 for nothing
    assert P.act_weight(st, p, pause, d) > 0
    acts = [c for c in game.legal_commands("p1") if c.verb == "act"]
    weights = P.bot_weights(st, "p1", acts)
    assert any(weights)  # even when every action is noise for nothing, the quietest stays open


def test_a_character_rich_in_ideas_makes_no_noise_for_more() -> None:
    # The Black Box (seed 30001): a character stuck on an exit took Examine (💡💡💡🔊) five rounds running,
    # five 🔊 for ideas it had no use for; a silent Pause weighed the same.
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, {"p1": "i7", "p2": "c7", "p3": "b1", "p4": "b1"})
    st = state(game)
    p = st.players["p1"]
    d = P.plan_distances(st, p, P.goals_for(st, p))
    examine = R.Option("examine", "Examine", "IIIN", "test", 0)
    pause = R.Option("pause", "Pause", "I", "test", 0)
    p.ideas = 0
    poor = P.act_weight(st, p, examine, d)
    p.ideas = 6
    rich = P.act_weight(st, p, examine, d)
    assert rich < poor / 2
    assert rich < P.act_weight(st, p, pause, d) * 2


def test_no_noise_for_ideas_alone_while_a_quiet_action_is_on_offer() -> None:
    # The Dark Horse Job (seed 30003): characters waiting for a server to open their way took Report or
    # Examine round after round, a 🔊 each time, where Pause (💡) was on offer.
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, {"p1": "i7", "p2": "c7", "p3": "b1", "p4": "b1"})  # nobody planned a tile
    st = state(game)
    p = st.players["p1"]
    p.die, p.ideas = 3, 1  # Observe (💡🔍🔊) on the die, Pause (💡) one 💡 away
    acts = [c for c in game.legal_commands("p1") if c.verb == "act"]
    weights = dict(zip([c.args[0] for c in acts], P.bot_weights(st, "p1", acts), strict=True))
    assert weights["pause"] > 0 and weights["observe"] == 0
    p.die, p.ideas = 3, 0  # nothing quiet within reach: Observe is the best there is
    acts = [c for c in game.legal_commands("p1") if c.verb == "act"]
    weights = dict(zip([c.args[0] for c in acts], P.bot_weights(st, "p1", acts), strict=True))
    assert "pause" not in weights and weights["observe"] > 0


def test_every_planning_token_goes_down_while_a_tile_next_to_the_plan_can_take_one() -> None:
    # The Melee Job: a character's walk to its place and out needs two to four tiles of its six to ten,
    # and a character may only ever walk where it planned. Before, the other tokens were never placed,
    # so a jewel turning up anywhere else was out of reach for the whole heist.
    st = state(planned_by_the_policy("the_melee_job"))
    for seat, p in st.players.items():
        assert len(p.plans) == R.character(p).planning_memory, (seat, p.plans)
        # Every token lies on a tile the character can walk to from its entrance over its own plan.
        reach, frontier = {p.pos}, [p.pos]
        while frontier:
            for m in R.nbrs(st, frontier.pop()):
                if m not in reach and (m in p.plans or m in R.exits(st)):
                    reach.add(m)
                    frontier.append(m)
        assert set(p.plans) <= reach, (seat, set(p.plans) - reach)


def test_a_spare_token_goes_first_where_the_job_may_need_it() -> None:
    game = game_for("the_melee_job", SEATS4)
    skip_planning(game, {"p1": "b1", "p2": "b1", "p3": "g1", "p4": "g1"}, {"p1": ["b2"]})
    st = state(game)
    p = st.players["p1"]
    unknown = {n for n, t in st.tiles.items() if t.unknown and R.alive(st, n)}
    near = {m for n in ("b1", "b2") for m in R.nbrs(st, n)} - R.exits(st) - {"b2"}
    assert near & unknown
    assert P.spare_plan(st, p, near) in near & unknown  # where a jewel may turn up: all are in the bag
    assert P.spare_plan(st, p, set()) is None
    far = {n for n in st.tiles if n not in near and n not in R.exits(st) and n != "b2"}
    assert P.spare_plan(st, p, far) is None  # only tiles joined to what the character can walk


def test_once_under_way_a_character_is_dealt_the_place_its_own_plan_reaches() -> None:
    # The Inclusion Job's jewels lie at c5, d3 and d7. From f4, d3 is the nearest over the board, but
    # p1 planned its way to c5 only; dealt by the board, places swapped between characters as they moved
    # and each walked to the tile of its plan nearest its new place and back.
    game = game_for("the_inclusion_job", SEATS4)
    skip_planning(
        game,
        {"p1": "i5", "p2": "f9", "p3": "i3", "p4": "i3"},
        {"p1": ["h5", "g4", "f4", "e4", "d4", "d5", "c5"], "p2": ["f8", "g7", "f6", "e6", "e7", "d7"]},
    )
    st = state(game)
    st.players["p1"].pos, st.players["p2"].pos = "f4", "f6"
    for seat in ("p3", "p4"):
        st.players[seat].status = "escaped"
    goals = P.crew_goals(st)
    assert goals == {"p1": {"c5"}, "p2": {"d7"}}


def test_with_the_deck_nearly_out_a_character_who_can_still_get_out_keeps_at_the_job() -> None:
    # The Inclusion Job (seed 30002): with five event cards left every character turned back, one of them
    # a step from the jewel at d3, though the escape's moves (a 💡 each, then the last-ditch die) would
    # have taken it out from there.
    game = game_for("the_inclusion_job", SEATS4)
    skip_planning(
        game, {"p1": "i3", "p2": "f9", "p3": "i3", "p4": "i5"}, {"p1": ["h3", "g2", "f2", "e2", "d3"]}
    )
    st = state(game)
    p = st.players["p1"]
    p.pos = "e2"
    st.deck = st.deck[-5:]
    p.ideas = 3
    assert P.goals_for(st, p) == {"d3"}
    p.pos, p.ideas = "b4", 0  # deep inside with no 💡: the die alone may not get it out
    assert R.escape_need(st, p) is not None and R.escape_need(st, p) > 3  # type: ignore[operator]
    assert P.goals_for(st, p) == R.exits(st)


def test_in_the_escape_a_runner_goes_for_loot_the_job_needs_on_any_chance_the_die_gives() -> None:
    game = game_for("the_inclusion_job", SEATS4)
    skip_planning(game, {"p1": "i5", "p2": "i5", "p3": "i3", "p4": "i3"})
    st = state(game)
    path = indoor_path(st, "i5", 5)
    p = st.players["p1"]
    p.pos, p.ideas = path[0], 0
    for t in st.tiles.values():
        t.loot = [x for x in t.loot if x != "jewel"]
    RD.start_escape(st, [])
    loot = next(n for n in path[1:] if 4 < (R.escape_need(st, p, n) or 0) <= 6)  # past an average roll
    st.tiles[loot].loot.append("jewel")
    runs = [c for c in game.legal_commands("p1") if c.verb == "run"]
    via = next(c for c in runs if c.args and c.args[1] == loot)
    weights = dict(zip([c.text for c in runs], P.bot_weights(st, "p1", runs), strict=True))
    assert weights[via.text] > 0


def test_a_reveal_counts_as_progress_while_the_crew_looks_for_something_in_the_bag() -> None:
    assert P.searching(state(game_for("the_melee_job", SEATS4)))  # the jewels are all in the bag
    assert P.searching(state(game_for("the_hospitality_job", SEATS4)))  # the keycard to the hostage too
    assert not P.searching(state(game_for("the_inclusion_job", SEATS4)))  # the jewels lie on the map
    st = state(game_for("the_melee_job", SEATS4))
    for t in st.tiles.values():
        t.unknown = False
    assert not P.searching(st)  # nothing left to reveal


def test_the_keycard_goes_to_the_door_that_shuts_the_crew_s_place() -> None:
    # The Black Box: the Architect (a8) sits behind the keycard door b7; the keycards lie at c1 and i6.
    # The character sent for a keycard plans on to the door, and carries it there once it has it; before,
    # it planned straight back out and stood on the keycard for the rest of the heist.
    st = state(game_for("the_black_box", SEATS4))
    assert P.door_sides(st) == {"a6", "b6"}
    st = state(planned_by_the_policy("the_black_box"))
    fetchers = [p for p in st.players.values() if {"c1", "i6"} & set(p.plans) and {"a6", "b6"} & set(p.plans)]
    assert fetchers
    p = fetchers[0]
    p.pos = "c1" if "c1" in p.plans else "i6"
    st.tiles[p.pos].loot.remove("keycard")
    p.loot.append("keycard")
    assert P.goals_for(st, p) == {"a6", "b6"}


def test_only_a_camera_on_the_way_ahead_is_worth_a_noisy_disable() -> None:
    game = game_for("the_startup_job", SEATS4)
    skip_planning(game, {"p1": "e9", "p2": "e9", "p3": "g8", "p4": "g8"}, {"p1": ["d8", "d7", "c6", "c5"]})
    st = state(game)
    p = st.players["p1"]
    p.pos = "d7"  # on its way to the vault: c6 lies ahead, d8 behind
    d = P.plan_distances(st, p, P.goals_for(st, p))
    assert d["c6"] < d["d7"] < d["d8"]
    shatter = R.Option("shatter", "Shatter", "DDNN", "test", 0)  # no move: only the cameras count
    put(st, "d8", "camera")
    assert P.act_weight(st, p, shatter, d) == 0  # the camera behind sees nobody going on
    put(st, "c6", "camera")
    assert P.act_weight(st, p, shatter, d) > 0


def test_nobody_starts_behind_a_door_only_a_keycard_opens() -> None:
    # The Hospitality Job's entrance e1 leads only to keycard door e2 (the keycard is in the security bag).
    # Nearest over the board to the tiles to search, two characters started there and stood outside all
    # heist.
    st = state(game_for("the_hospitality_job", SEATS4))
    assert R.nbrs(st, "e1") == ("e2",) and R.sealed(st, "e2")
    _played, starts = plan_with_the_policy("the_hospitality_job")
    assert "e1" not in starts.values()


def test_nobody_starts_where_every_way_on_is_a_keycard_door_while_another_entrance_has_room() -> None:
    # The Black Box, a crew levelled to the heist's difficulty (Pro: level 3). The Architect waits behind
    # keycard door b7, so no entrance reaches it without a keycard; the printed entrance f8 leads only to
    # keycard door e8. Nearest over the board, the fourth character started on f8 and stood there all heist
    # while tunnel e3 had room.
    record = K.levelled_crew(3)
    game = new_game(
        "heist",
        scenario="the_black_box",
        seed=2,
        seats=dict.fromkeys(SEATS4),
        options={"campaign": {"*": record}},
    )
    st = state(game)
    assert R.nbrs(st, "f8") == ("e8",) and R.sealed(st, "e8")
    while st.phase == "plan":
        seat = game.next_bot_seat()
        assert seat is not None
        game.apply(seat, game.bot_command(seat))
        st = state(game)
    # (one waiting outside to hand its ideas on, with no plan, may stand anywhere outside)
    starts = {s: p.pos for s, p in st.players.items() if p.plans}
    assert len(starts) >= 3, starts
    for s, pos in starts.items():
        # a way on that is no keycard door: next to the entrance, or (for the Grease Man, who crawls through
        # the vents) across a gap from it; from f8 only he has one, to g6 or e6
        p = st.players[s]
        ways_on = {*R.nbrs(st, pos), *(R.vent_table(st).get(pos, ()) if P.vents(p) else ())}
        assert any(not R.sealed(st, m) for m in ways_on & set(p.plans)), (s, pos, p.plans)
        assert pos != "f8" or p.character == "grease_man", (s, pos)


def test_a_crew_that_must_crack_a_safe_with_no_tools_about_buys_a_plasma_torch() -> None:
    # The Marathon Job asks for its safe (e2) and lays no Safecracking Tools or Plasma Torch on the map;
    # the safe opens to nothing else. Before, the policy never bought anything.
    seats = dict.fromkeys(SEATS4)
    game = new_game(
        "heist", scenario="the_marathon_job", seed=5, seats=seats, options={"campaign": {"*": {"cash": 10}}}
    )
    st = state(game)
    assert P.tools_needed(st)
    seat = game.next_bot_seat()
    assert seat is not None
    assert game.bot_command(seat).text == "buy plasma_torch"
    played = []
    while state(game).phase == "plan":
        seat = game.next_bot_seat()
        assert seat is not None
        command = game.bot_command(seat)
        played.append(command.text)
        game.apply(seat, command)
    assert played.count("buy plasma_torch") == 1 and not P.tools_needed(st)
    holder = next(p for p in st.players.values() if "plasma_torch" in p.items)
    assert P.crew_goals(st)[holder.seat] == {"e2"}  # the torch goes to the safe
    broke = state(new_game("heist", scenario="the_marathon_job", seed=5, seats=seats))  # a new crew: $0
    assert P.tools_needed(broke) and broke.team_cash == 0


def test_the_guard_holding_the_character_is_punched_before_one_beside_it() -> None:
    # The Inclusion Job (seed 20000): a locksmith held by a guard on d4, a jewel on d3, punched the guard on
    # e5 instead, and the punch's step went nowhere.
    game = game_for("the_inclusion_job", SEATS4)
    skip_planning(
        game, {"p1": "i3", "p2": "f9", "p3": "f9", "p4": "i5"}, {"p1": ["h3", "g3", "f4", "e4", "d4", "d3"]}
    )
    st = state(game)
    p = st.players["p1"]
    p.pos = "d4"
    for tile in ("d4", "e5", "c4", "d3"):
        st.tiles[tile].chits.clear()
        st.tiles[tile].unknown = False
    put(st, "d4", "guard")
    put(st, "e5", "guard")
    p.action, p.left = "punch", "SM"
    options = [c for c in game.legal_commands("p1") if c.verb == "subdue"]
    assert {c.args[0] for c in options} == {"d4", "e5"}
    weight = dict(zip((c.args[0] for c in options), P.bot_weights(st, "p1", options), strict=True))
    assert weight["d4"] > weight["e5"] > 0


def test_loot_is_handed_on_to_a_crewmate_who_can_still_carry_it_nearer_an_exit_this_round() -> None:
    # The Dark Horse Job: p1 has brought the documents back down to h4; p2, on h4 too, planned the way on
    # to exit i7 and has yet to act. Handing them over lets them travel p2's moves as well this round.
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, {"p1": "i7", "p2": "i7", "p3": "b1", "p4": "b1"},
                  {"p1": ["h6", "h5", "h4", "i3", "h2", "i1"], "p2": ["h6", "h5", "h4"]})  # fmt: skip
    st = state(game)
    p1, p2 = st.players["p1"], st.players["p2"]
    p1.pos = p2.pos = "h4"
    p1.plans = ["i3", "h2", "i1", "h4"]  # p1's plan no longer leads out from here
    for tile in ("i1", "h4"):
        st.tiles[tile].loot = [x for x in st.tiles[tile].loot if x != "docs"]
    p1.loot.append("docs")
    give = [c for c in game.legal_commands("p1") if c.verb == "give" and c.args == ("docs", "p2")]
    assert give and P.bot_weights(st, "p1", give)[0] > 0
    p2.action = "walk"  # p2 has acted this round: it cannot carry them any further now
    assert P.bot_weights(st, "p1", give)[0] == 0
    p2.action = ""
    p1.loot.remove("docs")
    p2.loot.append("docs")
    back = [c for c in game.legal_commands("p2") if c.verb == "give" and c.args == ("docs", "p1")]
    assert back and P.bot_weights(st, "p2", back)[0] == 0  # never back to the one further from the way out


def test_the_loot_goes_to_the_crewmate_who_will_run_it_out_better_in_the_escape() -> None:
    # The Proving Grounds, late: Johnny Swagger holds the documents on d2 beside Iceheart. Every gate shuts when
    # the escape starts, so the run from d2 is long. He thinks up about 💡 two rounds in three, she nearly
    # 💡💡 a round and guards do not slow her: with three rounds to come she is the one to run them out, though
    # she has acted this round (she carries them no further now; she thinks). Never back to him.
    game = game_for("the_proving_grounds", SEATS4)
    skip_planning(game, {"p1": "c7", "p2": "c7", "p3": "g8", "p4": "c7"})
    st = state(game)
    johnny, iceheart = st.players["p1"], st.players["p4"]
    johnny.character, johnny.skills, johnny.items = "angry_locksmith", ["steal", "bypass"], []
    iceheart.character, iceheart.skills, iceheart.items = "street_urchin", ["concoct", "yank_wires"], []
    johnny.pos = iceheart.pos = "d2"
    johnny.ideas = iceheart.ideas = 0
    johnny.loot.append("docs")
    iceheart.action = "walk"

    def weight(giver: str, to: str) -> int:
        give = [c for c in game.legal_commands(giver) if c.verb == "give" and c.args == ("docs", to)]
        assert give
        return P.bot_weights(st, giver, give)[0]

    st.deck = ["21", "D3", "23", "24", "Z2"]  # seed 20178's round 9: three Action phases after this one
    assert P.escape_burden(st, iceheart) + 1 <= P.escape_burden(st, johnny)
    assert weight("p1", "p4") > 0
    johnny.loot.remove("docs")
    iceheart.loot.append("docs")
    assert weight("p4", "p1") == 0


def test_a_shut_in_prisoner_makes_no_noise_for_nothing() -> None:
    # The Black Box: the freed Architect (a8) is shut in again when a lock appears on b7, her only way out
    # (a guard locking himself in there, say). It dashed (🔊➜➜) round after round: noise, and so event
    # cards, for no step, where Crawl or Pause were quiet.
    game, st = started("the_black_box", pos={"p1": "f8", "p2": "f8", "p3": "f8"}, dice=[2, 2, 2, 2])
    game.apply("p1", "act walk")  # any command lets the free Architect join in (b7's door is open)
    npc = st.npcs[0]
    put(st, "b7", "lock")
    assert npc.active and npc.pos == "a8" and R.locked(st, "b7")
    npc.ideas = 3  # enough to turn its die to the 6, where Dash is

    def weights() -> dict[str, int]:
        acts = [c for c in game.legal_commands("p1") if c.verb == "npc" and c.args[0] == "act"]
        return dict(zip((c.args[1] for c in acts), P.bot_weights(st, "p1", acts), strict=True))

    shut = weights()
    assert set(shut) == {"crawl", "pause", "dash"}
    assert shut["dash"] == 0 and shut["pause"] > 0  # a 💡 for its die at least
    st.tiles["b7"].chits.clear()
    way_out = weights()
    assert way_out["dash"] > 0 and way_out["crawl"] > way_out["pause"]


def inclusion_near_the_alarm() -> tuple[Game, HeistState]:
    """The Inclusion Job (gates A g3, B e4, C e2, D c4), everyone in at i3 with e4 and its neighbours
    planned, and the event deck down to its last two cards (the alarm is at hand)."""
    game = game_for("the_inclusion_job", SEATS4)
    skip_planning(game, dict.fromkeys(SEATS4, "i3"), {s: ["h3", "g3", "f4", "e4", "f3"] for s in SEATS4})
    st = state(game)
    del st.deck[2:]
    return game, st


def test_near_the_alarm_a_character_on_a_lockdown_gate_steps_off_it() -> None:
    # Every gate left shuts when the escape starts (ruling 47): whoever stands on one is Busted. (With more
    # cards left, a gate tile on the way to the job is fine: test_with_the_deck_nearly_out_...)
    _game, st = inclusion_near_the_alarm()
    p = st.players["p1"]
    p.pos = "e4"
    assert R.on_gate(st, "e4")
    assert P.goals_for(st, p) == R.escape_goals(st)
    p.pos = "f4"  # beside the gate, with the job to do: its share of the job, not the way out
    assert P.goals_for(st, p) != R.escape_goals(st)


def test_the_escape_is_not_called_while_a_crewmate_stands_on_a_lockdown_gate() -> None:
    game, st = inclusion_near_the_alarm()
    del st.deck[1:]  # the last card: calling the escape is otherwise the policy's choice
    seat = "p2"
    options = game.legal_commands(seat)
    escape = next(i for i, c in enumerate(options) if c.verb == "escape")
    st.players["p1"].pos = "f4"
    assert P.bot_weights(st, seat, options)[escape] > 0
    st.players["p1"].pos = "e4"  # on gate B
    assert P.bot_weights(st, seat, options)[escape] == 0


def test_the_search_counts_a_crewmate_left_on_a_gate_once_the_escape_is_called_as_lost() -> None:
    _game, st = inclusion_near_the_alarm()
    st.escape_called = True
    st.players["p1"].pos = "f4"
    safe = S.crew_score(st)
    st.players["p1"].pos = "e4"
    assert S.crew_score(st) < safe


def test_someone_plans_the_way_to_the_objective_however_near_the_ways_in_are() -> None:
    # The Hospitality Job: the hostage waits at i4 behind keycard door h4, and the keycard is in the security
    # bag. Dealt nearest first, the search for it (the unknown tiles near the entrances) took all four
    # characters, nobody's plan reached the hostage, and no crew could ever take it out.
    for seed in (1, 2, 3):
        game = planned_by_the_policy("the_hospitality_job", [], seed=seed)
        st = state(game)
        hostage = st.npcs[0]
        assert hostage.kind == "hostage" and hostage.pos == "i4"
        planners = [p.nickname for p in st.players.values() if "i4" in P.plan_reach(st, p)]
        assert planners, seed
        assert any("h4" in p.plans for p in st.players.values())  # the door on the way


def test_the_tools_a_safe_needs_are_fetched_and_planned_on_to_the_safe() -> None:
    # The Proving Grounds: the documents are in the safe at e1, which only 🧩 cracks, and the Plasma Torch
    # lies at d8. Every character was dealt the safe and nobody's plan went by the torch: no crew could crack
    # it.
    for seed in (1, 2, 3):
        st = state(planned_by_the_policy("the_proving_grounds", [], seed=seed))
        assert "item:plasma_torch" in st.tiles["d8"].loot
        fetchers = [p for p in st.players.values() if "d8" in p.plans]
        assert fetchers, seed
        p = fetchers[0]
        assert "e1" in p.plans[p.plans.index("d8") :], p.plans  # on to the safe with it


def test_each_character_is_dealt_a_place_its_planning_memory_reaches() -> None:
    # The Greedy Prisoner, the bench's level-2 crew: jewels at d4, f2 and f5, server c2 frees the prisoner.
    # Dealt from whichever entrance suited them, the characters still to plan took d4, the one place Tiny
    # Mike's 7 tokens reach from a9; he was dealt server c2, 8 tiles in, and his plan stopped a tile short.
    # Each was dealt a jewel then, and a fourth went in for the third jewel, which the job does not need.
    record = K.levelled_crew(2)
    for seed in (30000, 30001):
        game = new_game("heist", scenario="the_greedy_prisoner", seed=seed, seats=dict.fromkeys(SEATS4),
                        options={"campaign": {"*": record}})  # fmt: skip
        while state(game).phase == "plan":
            seat = game.next_bot_seat()
            assert seat is not None
            game.apply(seat, game.bot_command(seat))
        st = state(game)
        reached = {n for p in st.players.values() for n in P.plan_reach(st, p)}
        # Two of the three jewels (all the objective needs) and a server X; the fourth waits outside.
        assert len({"d4", "f2", "f5"} & reached) >= 2 and {"c2", "i2"} & reached, seed
        assert sum(not p.plans for p in st.players.values()) == 1, seed


def test_the_torch_is_planned_round_the_gate_that_shuts_too_soon_by_the_one_whose_memory_reaches() -> None:
    # The Proving Grounds, the bench's level-2 crew: the short way from the Plasma Torch (d8) to the safe (e1)
    # crosses gate A (f3), which Shut the Gate!! (the deck's eighth card) removes in round 2 or 3, before a
    # carrier could be past it. The way by gate B (c4, the thirteenth card) takes nine tokens from c7, and
    # only Iceheart remembers nine: every plan went by f3, and no crew could bring the torch to the safe.
    record = K.levelled_crew(2)
    for seed in (30000, 30001):
        game = new_game("heist", scenario="the_proving_grounds", seed=seed, seats=dict.fromkeys(SEATS4),
                        options={"campaign": {"*": record}})  # fmt: skip
        while state(game).phase == "plan":
            seat = game.next_bot_seat()
            assert seat is not None
            game.apply(seat, game.bot_command(seat))
        st = state(game)
        assert st.deck.index("C3") == 7 and st.deck.index("G1") == 12
        carriers = [p for p in st.players.values() if "d8" in p.plans]
        assert [p.nickname for p in carriers] == ["Iceheart"], seed
        torch = carriers[0]
        assert torch.pos == "c7"  # the one entrance her memory reaches the safe from, kept for her
        on = torch.plans[torch.plans.index("d8") :]
        assert "c4" in on and "e1" in on and "f3" not in torch.plans, torch.plans


def test_a_gate_is_planned_round_only_where_the_deck_shuts_it_before_the_walk_is_through() -> None:
    st = state(game_for("the_proving_grounds", SEATS4))
    assert P.late_gates(st, "h4", 0) == []  # f3 is three tiles in from h4: through before the eighth card
    assert P.late_gates(st, "c7", 0) == ["f3"]  # five tiles in from c7
    assert P.late_gates(st, "d8", 2) == ["f3"]  # c4 (gate B, the thirteenth card) is still in time
    assert P.late_gates(st, "d8", 6)[:2] == ["f3", "c4"]  # (and gate C, f5, the seventeenth)
    st.deck.remove("C3")  # without the eighth card, gate A shuts at Shut the Gate! (G1), now the twelfth
    assert P.late_gates(st, "c7", 0) == []


def test_a_hard_crew_lays_the_planning_policy_s_plans_so_the_torch_reaches_the_safe() -> None:
    # Plans are fixed once the heist starts, and the search's evaluation counts a plan that stops a tile
    # short of the safe as a few steps more: a hard crew that searched its plans (the bench's seed 20016)
    # left the Plasma Torch to Johnny Swagger, whose eight tokens end at d2, beside the safe, and nobody
    # planned onto it. The search now weighs only the planning policy's picks.
    record = K.levelled_crew(2)
    game = new_game("heist", scenario="the_proving_grounds", seed=20016, seats=dict.fromkeys(SEATS4),
                    options={"campaign": {"*": record}})  # fmt: skip
    budget = level_budget("hard", "heist", 200)
    assert budget is not None
    searcher = Searcher(game.ruleset, budget)
    while state(game).phase == "plan":
        seat = game.next_bot_seat()
        assert seat is not None
        options = [c for c in game.legal_commands(seat) if c.verb != "react"]
        game.apply(seat, searcher.choose(game.state, seat, seed=len(game.log), options=options).command)
    carriers = [p for p in state(game).players.values() if "d8" in p.plans]
    assert carriers
    assert all("e1" in p.plans[p.plans.index("d8") :] for p in carriers), [p.plans for p in carriers]


def test_the_one_left_over_waits_outside_and_hands_its_ideas_to_the_documents_carrier() -> None:
    # The Dark Horse Job has three places (servers f1 and f4, the documents i1) for four characters: the
    # fourth plans nothing and stays on its entrance, where Old Friend lets it pay 💡💡 for a 💡 to anyone.
    game = planned_by_the_policy("the_dark_horse_job")
    st = state(game)
    outside = [p for p in st.players.values() if not p.plans]
    assert len(outside) == 1 and R.outdoors(st, outside[0])
    giver = outside[0]
    inside = [p for p in st.players.values() if p.plans]
    carrier, other = inside[0], inside[1]
    giver.ideas = 4
    st.tiles["i1"].marks.remove("remote_lock_y")  # both servers stood on
    carrier.pos = "i1"  # picked up the documents there
    carrier.loot.append("docs")
    st.tiles["i1"].loot.remove("docs")
    carrier.ideas, other.ideas = 0, 5
    need = R.escape_need(st, carrier)
    assert need is not None and need > 1  # its run out would fall short
    options = [c for c in game.legal_commands(giver.seat) if c.verb == "teamwork"]
    weights = dict(zip((c.args[0] for c in options), P.bot_weights(st, giver.seat, options), strict=True))
    assert weights[carrier.seat] > 0 and weights[other.seat] == 0  # one with ideas enough gets none
    assert weights[carrier.seat] == max(weights.values())


def test_a_planned_walk_takes_the_cheaper_of_two_equally_long_ways() -> None:
    # The Startup Job: from f4 the keycard at f2 is two steps away through f3 (a guard and a lock) or g3
    # (two locks). Both lie one step from f2, and the walk went on to the first by name: f3, with its guard.
    st = state(game_for("the_startup_job", SEATS4))
    assert P.hazard(st, "f3") > P.hazard(st, "g3") > 0
    assert P.walk_legs(st, "f4", [{"f2"}]) == ["g3", "f2"]
    planned = planned_by_the_policy("the_startup_job", seed=20064)
    plans = [p.plans for p in state(planned).players.values() if "f2" in p.plans]
    assert plans and all("g3" in plan[: plan.index("f2")] for plan in plans), plans


def test_a_keycard_no_single_plan_can_bring_to_its_door_is_relayed() -> None:
    # The Startup Job: the vault door b2 is ten tiles from the g8 entrance by way of the keycard at f2, and
    # the longest planning memory is nine. The fetcher's plan stopped short of the door, and nobody's plan
    # met it: no crew could open the vault. A crewmate with no place of its own now plans to meet the
    # keycard on the fetcher's plan and carry it on to the door.
    for seed in (20064, 20065):
        st = state(planned_by_the_policy("the_startup_job", seed=seed))
        sides = P.door_sides(st)
        fetcher = next(p for p in st.players.values() if "f2" in p.plans)
        onward = fetcher.plans[fetcher.plans.index("f2") :]
        assert not sides & set(onward)  # its memory runs out before the door
        relays = [
            p
            for p in st.players.values()
            if p is not fetcher and any(P.carries_on(p, m, sides) for m in onward)
        ]
        assert relays, [p.plans for p in st.players.values()]
        # and the documents' own runner goes through the door once it is open
        assert any("c1" in p.plans for p in st.players.values())
        assert P.keycard_relay(st) == set()  # planning is over: no relay asked for


def levelled_and_planned(heist: str, level: int, seed: int) -> Game:
    """A heist for a crew of four of ``level`` (every seat the game's) whose planning the easy policy has
    played."""
    game = new_game("heist", scenario=heist, seed=seed, seats=dict.fromkeys(SEATS4),
                    options={"campaign": {"*": K.levelled_crew(level)}})  # fmt: skip
    while state(game).phase == "plan":
        seat = game.next_bot_seat()
        assert seat is not None
        game.apply(seat, game.bot_command(seat))
    return game


def test_one_held_who_knows_better_ways_gets_the_idea_that_slips_her_free() -> None:
    # The Proving Grounds (seed 20097): Iceheart, who never subdues, stood with the torch under a guard and a
    # dog and no idea for a round while the crewmate outside kept its ideas for itself.
    game = levelled_and_planned("the_proving_grounds", 2, 20097)
    st = state(game)
    giver = next(p for p in st.players.values() if not p.plans)
    iceheart = next(p for p in st.players.values() if "there_are_better_ways" in R.abilities(p))
    others = [p for p in st.players.values() if p not in (giver, iceheart)]
    giver.ideas = 4
    for p in others:
        p.ideas = 1  # each would take an idea to turn its die
        p.pos = next(n for n in p.plans if not st.tiles[n].chits)
    iceheart.pos, iceheart.ideas = "c3", 0
    put(st, "c3", "guard")
    put(st, "c3", "dog")

    def weights() -> dict[str, int]:
        options = [c for c in game.legal_commands(giver.seat) if c.verb == "teamwork"]
        return dict(zip((c.args[0] for c in options), P.bot_weights(st, giver.seat, options), strict=True))

    held = weights()
    assert held[iceheart.seat] > max(held[p.seat] for p in others) > 0
    iceheart.ideas = 1  # one idea in hand slips her free: she is like the others now
    assert weights()[iceheart.seat] == max(held[p.seat] for p in others)


def test_one_who_knows_better_ways_slips_off_a_guarded_tile_only_to_move_on() -> None:
    # The Proving Grounds (seed 20097): Iceheart took the torch at d8, two dogs followed her there, and with a
    # move left she ended her action held, the idea that would have slipped her free weighed like any other.
    game = levelled_and_planned("the_proving_grounds", 2, 20097)
    st = state(game)
    iceheart = next(p for p in st.players.values() if "there_are_better_ways" in R.abilities(p))
    iceheart.pos, iceheart.ideas = "d8", 1
    iceheart.action, iceheart.left = "sprint", "M"
    st.tiles["d8"].loot.remove("item:plasma_torch")
    iceheart.items.append("plasma_torch")  # taken: now for the safe
    for _ in range(2):
        put(st, "d8", "dog")

    def weights() -> dict[str, int]:
        options = game.legal_commands(iceheart.seat)
        return dict(zip((c.text for c in options), P.bot_weights(st, iceheart.seat, options), strict=True))

    held = weights()
    assert held["slip"] > held["done"]
    nearer = [m for m in R.nbrs(st, "d8") if m in iceheart.plans and m != "d8"]
    for m in nearer:
        put(st, m, "lock")  # the way on locked: the idea would buy nothing
    assert weights().get("slip", 0) == 0
    for m in nearer:
        st.tiles[m].chits.clear()
    assert weights()["slip"] == held["slip"]
    iceheart.left = "R"  # nothing left to move with
    assert weights().get("slip", 0) == 0


# --- The Grease Man's vents ----------------------------------------------------------------------------------


def test_the_grease_man_is_dealt_a_safe_only_his_vents_reach_and_starts_with_the_tools_carrier() -> None:
    # The Final Score Part 1 (Pro: level 3, Showtime a Grease Man): the safe k5 lies behind keycard door i4, the
    # keycard at a5 across the building; tunnel i8 lies a gap from j6, beside the safe. Walking only, the crew
    # laid tunnel d8, dealt the safe to the Safecracker and planned through the shut door: no crew came within
    # 90 steps of the job.
    game = levelled_and_planned("the_final_score_part_1", 3, 20007)
    st = state(game)
    assert "i8" in st.exits
    greaser = next(p for p in st.players.values() if P.vents(p))
    carrier = next(p for p in st.players.values() if set(R.SAFE_TOOLS) & set(p.items))
    assert greaser.pos == carrier.pos == "i8"
    assert "j6" in R.vent_table(st)["i8"] and "j6" not in R.nbrs(st, "i8")
    assert greaser.plans[:2] == ["j6", "k5"]
    assert "i4" not in greaser.plans  # out by the vents (j5 to h5), not through the keycard door
    assert {"j5", "h5"} <= set(greaser.plans) and set(greaser.plans) & R.hideouts(st)
    # Round 1: the carrier hands the tools on before anything else.
    options = game.legal_commands(carrier.seat)
    weights = P.bot_weights(st, carrier.seat, options)
    best = max(zip(weights, [c.text for c in options], strict=True))
    assert best == (60, "give item:safecracking_tools " + greaser.seat), best


def test_a_vent_is_weighed_when_the_tile_across_the_gap_is_nearer_on_the_plan() -> None:
    game = levelled_and_planned("the_final_score_part_1", 3, 20007)
    st = state(game)
    greaser = next(p for p in st.players.values() if P.vents(p))
    carrier = next(p for p in st.players.values() if set(R.SAFE_TOOLS) & set(p.items))
    game.apply(carrier.seat, f"give item:safecracking_tools {greaser.seat}")
    st = state(game)
    moving = next(o.key for o in R.options(st, st.players[greaser.seat]) if o.subs.count("M") >= 2)
    game.apply(greaser.seat, f"act {moving}")
    st = state(game)
    options = game.legal_commands(greaser.seat)
    assert [c.text for c in options if c.verb == "move"] == []  # nothing next to i8 is on his plan
    weights = dict(zip([c.text for c in options], P.bot_weights(st, greaser.seat, options), strict=True))
    assert weights["vent"] == 45
    game.apply(greaser.seat, "vent")
    st = state(game)
    options = game.legal_commands(greaser.seat)
    weights = dict(zip([c.text for c in options], P.bot_weights(st, greaser.seat, options), strict=True))
    assert weights["move j6"] >= 12 and "vent" not in weights
    # Off the gap's edge (j6, beside the safe) a vent buys nothing: the next step is a plain one.
    greaser = state(game).players[greaser.seat]
    game.apply(greaser.seat, "move j6")
    st = state(game)
    d = P.plan_of(st, st.players[greaser.seat])
    assert P.vent_weight(st, st.players[greaser.seat], d, d[st.players[greaser.seat].pos]) == 0


def test_a_vent_toward_a_lock_across_the_gap_is_weighed_only_with_a_pick_left_to_open_it() -> None:
    # The Final Score Part 1, seed 20007: the Grease Man stood three rounds at j5 with the documents while h5,
    # a gap away on his way to the hideout f2, held a lock: the vent was weighed 0 for the locked tile, though
    # once he crawls it counts as adjacent and his 🔓 opens it.
    game = levelled_and_planned("the_final_score_part_1", 3, 20007)
    st = state(game)
    greaser = next(p for p in st.players.values() if P.vents(p))
    assert "h5" in R.vent_table(st)["j5"] and {"j5", "h5"} <= set(greaser.plans)
    greaser.pos, greaser.loot = "j5", ["docs"]
    st.tiles["h5"].chits = []
    put(st, "h5", "lock")
    d = P.plan_of(st, greaser)
    assert d["h5"] < d["j5"]
    greaser.action, greaser.left = "strongarm", "UMS"
    assert P.vent_weight(st, greaser, d, d["j5"]) == 45
    greaser.left = "MS"
    assert P.vent_weight(st, greaser, d, d["j5"]) == 0
