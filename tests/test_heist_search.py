"""The heist search player's evaluation: it values the steps toward the objective, the way in (servers and
keycards), the event deck kept, and the crew kept out of jail; the easy policy heads for the servers too."""

from __future__ import annotations

import pytest

from engine import Game, new_game
from engine.ai.levels import level_budget
from engine.ai.search import Searcher, searched_commands
from engine.core import Outcome
from engine.rulesets.heist import campaign
from engine.rulesets.heist import policy as P
from engine.rulesets.heist import rules as R
from engine.rulesets.heist import search as S
from engine.rulesets.heist.state import Chit, HeistState, copy_state
from tests.heist_helpers import SEATS4, game_for, planned_by_the_game, put, skip_planning, started, state

# The Dark Horse Job: the documents lie on i1 behind remote lock Y; server Y (f4) lies behind remote lock X
# (e4), whose server is f1. Exits b1, c7, i7.
START = {"p1": "i7", "p2": "i7", "p3": "b1", "p4": "b1"}
ROUTE = ["h6", "h5", "h4", "i3", "h2", "i1"]  # i7 up to the documents


def dark_horse(plans: list[str] | None = None) -> HeistState:
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, START, {"p1": ROUTE if plans is None else plans})
    return state(game)


def test_the_way_to_locked_documents_goes_by_both_servers() -> None:
    st = dark_horse()
    assert P.opener_steps(st, {"i1"}) == [{"f4"}, {"f1"}]
    p = st.players["p1"]
    st.tiles["i1"].marks.remove("remote_lock_y")  # once server Y has opened it, only the documents remain
    assert P.goals_for(st, p) == {"i1"}


def test_documents_behind_a_keycard_door_send_someone_for_the_keycard_first() -> None:
    # The Startup Job: the documents (c1) are reached only through the keycard door b2; the keycard is on f2.
    st = state(game_for("the_startup_job", SEATS4))
    assert P.opener_steps(st, {"c1"}) == [{"f2"}]
    st.players["p1"].loot.append("keycard")  # carried by someone inside: the door is no obstacle
    assert P.opener_steps(st, {"c1"}) == []


def test_goals_include_the_servers_of_remote_locked_loot() -> None:
    st = dark_horse()
    goals = set().union(*(P.goals_for(st, p) for p in st.players.values()))
    assert {"f1", "f4", "i1"} <= goals


def last_round(st: HeistState) -> None:
    """Leave one event card: this round's Event phase is the last before the alarm, no round to think in."""
    st.deck = [next(c for c in st.deck if not R.is_crisis(c))]


def test_walking_toward_the_documents_and_out_with_them_raises_the_score() -> None:
    st = dark_horse()
    st.tiles["i1"].marks.remove("remote_lock_y")
    last_round(st)
    far = S.crew_score(st)
    st.players["p1"].pos = "h2"  # next to the documents
    near = S.crew_score(st)
    assert near > far
    st.players["p1"].pos = "i1"
    st.tiles["i1"].loot.remove("docs")
    st.players["p1"].loot.append("docs")
    carrying = S.crew_score(st)
    assert carrying > near
    st.players["p1"].pos = "h6"  # carried next to exit i7
    assert S.crew_score(st) > carrying


def test_ideas_in_hand_pay_for_the_run_out_with_the_documents() -> None:
    # The escape's run goes anywhere and its moves are paid by the runner's ideas, then the last-ditch die
    # (always at least one): a carrier with ideas need not walk the documents out step by noisy step.
    st = dark_horse()
    st.tiles["i1"].marks.remove("remote_lock_y")
    st.tiles["i1"].loot.remove("docs")
    last_round(st)
    p = st.players["p1"]
    p.pos, p.loot, p.ideas = "i1", ["docs"], 0
    walked = S.job_steps(st)[0]
    run = R.escape_need(st, p)
    assert run is not None and run - 1 < walked  # the run from i1 is shorter than the planned walk back
    assert S.job_steps(st, escape_ideas=True)[0] == run - 1
    low = S.crew_score(st)
    p.ideas = 2
    assert S.job_steps(st)[0] == walked  # the bench's measure of progress counts walking steps only
    assert S.job_steps(st, escape_ideas=True)[0] == run - 3
    assert S.crew_score(st) > low
    p.ideas = run - 1  # the die's sure 1 does the rest: the documents are as good as out
    assert S.job_steps(st, escape_ideas=True)[0] == 0


def test_a_carrier_counts_the_ideas_it_can_still_think_of_before_the_alarm() -> None:
    # The documents' carrier with rounds to spare need not walk them out: each Action phase left before the
    # deck runs out gives it the ideas of its best thinking action (on average over its die) for the run.
    # Noise that throws an event card away takes a round, and those ideas, from it.
    st = dark_horse()
    st.tiles["i1"].marks.remove("remote_lock_y")
    st.tiles["i1"].loot.remove("docs")
    p = st.players["p1"]
    p.pos, p.loot, p.ideas = "i1", ["docs"], 0
    run = R.escape_need(st, p)
    assert run is not None and run >= 4
    events = [c for c in st.deck if not R.is_crisis(c)]
    st.deck = events[:3]  # this round's card and two more: two Action phases to think in
    assert S.rounds_left(st) == 2
    rate = R.ideas_a_round(p)
    assert 0 < rate < (run - 1) / 2
    assert S.job_steps(st, escape_ideas=True)[0] == pytest.approx(run - 1 - 2 * rate)
    thinking = S.crew_score(st)
    p.noise_due = 1
    st.noise = next(a for a in R.track(st)[0] if a > st.noise) - 1  # the next 🔊 lands on an alert space
    assert S.rounds_left(st) == 1
    assert S.job_steps(st, escape_ideas=True)[0] == pytest.approx(run - 1 - rate)
    assert S.crew_score(st) < thinking
    st.escape_called = True  # once the alarm is called there is no round left to think in
    p.noise_due = 0
    assert S.job_steps(st, escape_ideas=True)[0] == run - 1


def test_a_round_of_thinking_is_worth_the_best_idea_action_a_character_can_turn_its_die_to() -> None:
    # Johnny Swagger (Angry Locksmith, Steal and Bypass) has no Pause of his own: Steal's Recon (💡💡) on face
    # 3 gives 💡💡 on a 3 and 💡 net on a 4 (one 💡 turns the die), Bypass's Pause (face 2) 💡 on a 2, nothing
    # further off. The Burglar's own Pause gives 💡 on any roll, and Extract's Recon (face 2) 💡💡 on a 2.
    p = dark_horse().players["p1"]
    p.character, p.skills, p.items = "angry_locksmith", ["steal", "bypass"], []
    assert R.ideas_a_round(p) == pytest.approx(4 / 6)
    p.skills = []
    assert R.ideas_a_round(p) == 0
    p.character, p.skills = "burglar", ["extract", "wing_it"]
    assert R.ideas_a_round(p) == pytest.approx(7 / 6)


def test_a_character_only_reaches_the_tiles_it_planned() -> None:
    planned, unplanned = dark_horse(), dark_horse(plans=ROUTE[:-1])
    for st in (planned, unplanned):
        st.tiles["i1"].marks.remove("remote_lock_y")
        st.players["p1"].pos = "h2"
    assert S.job_steps(planned)[0] < S.job_steps(unplanned)[0]


def test_opening_the_remote_locks_counts_as_progress() -> None:
    st = dark_horse()
    locked = S.job_steps(st)[0]
    st.tiles["e4"].marks.remove("remote_lock_x")
    st.tiles["i1"].marks.remove("remote_lock_y")
    assert S.job_steps(st)[0] < locked


def test_noise_still_owed_by_an_unfinished_action_costs_event_cards() -> None:
    st = dark_horse()
    quiet = S.crew_score(st)
    st.players["p1"].noise_due = 8  # past two alert spaces (4 and 7) on the 4-player track
    assert S.alerts_due(st) == 2
    assert S.crew_score(st) < quiet


def test_a_busted_character_lowers_the_score() -> None:
    st = dark_horse()
    before = S.crew_score(st)
    st.players["p3"].status = "busted"
    assert S.crew_score(st) < before


def test_evaluate_is_shared_by_the_crew_and_exact_on_a_finished_heist() -> None:
    st = dark_horse()
    assert len({S.evaluate(st, seat) for seat in st.seats}) == 1
    assert 0.0 < S.evaluate(st, "p1") < 1.0
    st.result = Outcome(frozenset(st.seats), "the job is done")
    assert {S.evaluate(st, seat) for seat in st.seats} == {1.0}


def test_the_search_never_takes_an_action_back() -> None:
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, START, {"p1": ROUTE})
    seat = "p1"
    act = next(c for c in game.legal_commands(seat) if c.verb == "act")
    game.apply(seat, act)
    options = game.legal_commands(seat)
    assert any(c.verb == "undo" for c in options)
    budget = level_budget("hard", "heist", 30)
    assert budget is not None
    for seed in range(3):
        result = Searcher(game.ruleset, budget).choose(game.state, seat, seed=seed, options=options)
        assert result.command.verb != "undo"
        assert "undo" not in result.visits


def test_the_search_never_takes_a_planning_token_back() -> None:
    game = game_for("the_black_box", SEATS4)
    seat = "p1"
    game.apply(seat, next(c for c in game.legal_commands(seat) if c.verb == "start"))
    game.apply(seat, next(c for c in game.legal_commands(seat) if c.verb == "plan"))
    options = game.legal_commands(seat)
    assert any(c.verb == "unplan" for c in options)
    budget = level_budget("hard", "heist", 30)
    assert budget is not None
    result = Searcher(game.ruleset, budget).choose(game.state, seat, seed=1, options=options)
    assert result.command.verb != "unplan"
    assert not any(text.startswith("unplan") for text in result.visits)


def test_the_search_never_drops_what_it_picked_up_nor_changes_its_start() -> None:
    # A hard crew on The Startup Job took and dropped the keycard in turn for hundreds of commands.
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, START, {"p1": ROUTE})
    st = state(game)
    st.tiles["i7"].loot.append("keycard")
    game.apply("p1", "take keycard")
    options = game.legal_commands("p1")
    assert "drop keycard" in {c.text for c in options}  # a player may still drop it
    assert "drop keycard" not in {c.text for c in searched_commands(game.ruleset, st, "p1")}
    budget = level_budget("hard", "heist", 30)
    assert budget is not None
    result = Searcher(game.ruleset, budget).choose(st, "p1", seed=1, options=options)
    assert result.command.text != "drop keycard" and "drop keycard" not in result.visits
    planning = game_for("the_dark_horse_job", SEATS4)
    planning.apply("p1", "start b1")
    assert any(c.verb == "start" for c in planning.legal_commands("p1"))
    assert not any(c.verb == "start" for c in searched_commands(planning.ruleset, planning.state, "p1"))


def test_the_search_never_has_an_npc_drop_what_it_holds() -> None:
    # A normal crew searching without rollouts had The Side Channel's guide take and drop the USB key in turn
    # for over 500 commands (seed 20064): each pair leads back to the position it left.
    game, st = started("the_side_channel", seats=SEATS4, pos={"p1": "h8", "p2": "h8", "p3": "h8", "p4": "h8"})
    guide = st.npcs[0]
    st.tiles[guide.pos].loot.append("usb")
    game.apply("p1", "npc take usb")
    assert guide.loot == ["usb"]
    options = game.legal_commands("p1")
    assert "npc drop usb" in {c.text for c in options}  # a player may still have the guide drop it
    assert "npc drop usb" not in {c.text for c in searched_commands(game.ruleset, st, "p1")}
    budget = level_budget("hard", "heist", 30)
    assert budget is not None
    result = Searcher(game.ruleset, budget).choose(st, "p1", seed=1, options=options)
    assert result.command.text != "npc drop usb" and "npc drop usb" not in result.visits


def open_route(st: HeistState) -> None:
    """Nothing on the route's tiles: no unknown chits, locks, guards or cameras."""
    for n in ROUTE[:-1]:
        st.tiles[n].unknown = False
        st.tiles[n].chits.clear()


def weigh(st: HeistState, subs: str, cost: int = 0) -> tuple[tuple[float, int], int]:
    """An action with these sub-actions, for p1 heading up the route: its progress and the policy's weight."""
    p = st.players["p1"]
    d = P.plan_distances(st, p, {"i1"})
    option = R.Option("test", "Test", subs, "test", cost)
    return P.progress(st, p, subs, d), P.act_weight(st, p, option, d)


def test_a_quiet_step_is_weighed_above_a_loud_one_that_gets_no_further() -> None:
    st = dark_horse()
    open_route(st)
    crawl, walk, sprint = weigh(st, "M"), weigh(st, "NM"), weigh(st, "NNMMM")
    assert crawl[0] == walk[0] == (1.0, 0) and sprint[0] == (3.0, 0)
    assert crawl[1] > walk[1]
    assert sprint[1] > walk[1]  # three steps for two 🔊 beat one step for one


def test_moves_count_only_once_the_way_ahead_is_cleared() -> None:
    st = dark_horse()
    open_route(st)
    st.tiles["h6"].chits.append(Chit("lock"))
    assert weigh(st, "NNMM")[0] == (0.0, 0)  # the lock stops every move
    assert weigh(st, "UUNNM")[0] == (1.5, 0)  # unlocked (half a step), then one step in
    st.tiles["h6"].chits.clear()
    st.tiles["h5"].chits.append(Chit("camera"))
    assert weigh(st, "NNMM")[0] == (2.0, 1)  # walking onto the live camera raises ⚠
    assert weigh(st, "DNMM")[0] == (2.0, 0)  # unless a disable deals with it first
    assert weigh(st, "DNMM")[1] > weigh(st, "NNMM")[1]


def test_a_character_held_by_two_guards_needs_two_subdues_to_move_on() -> None:
    st = dark_horse()
    open_route(st)
    st.tiles["i7"].chits.extend([Chit("dog"), Chit("dog")])
    assert weigh(st, "SNNM")[0] == (0.5, 0)  # one dog subdued, the other still holds
    assert weigh(st, "SSNNM")[0] == (2.0, 0)


def test_each_noise_costs_more_as_the_track_fills_and_a_whole_card_at_its_end() -> None:
    st = dark_horse()
    early = P.noise_price(st)
    st.noise = 33
    late = P.noise_price(st)
    st.noise = 40
    assert 0 < early < late < 1 == P.noise_price(st)


def test_calling_the_escape_before_the_way_in_is_open_counts_as_giving_the_job_up() -> None:
    # A hard crew on The Proving Grounds called the escape in round 3: running may go anywhere, so walks
    # looked shorter, though nothing can be opened or cracked any more.
    game = game_for("the_dark_horse_job", SEATS4)
    to_the_servers = {"p3": ["b2", "c2", "d2", "e2", "f1"], "p4": ["b2", "c2", "d3", "d4", "e4", "f4"]}
    skip_planning(game, START, {"p1": ROUTE, **to_the_servers})
    st = state(game)
    working, score = S.job_steps(st)[0], S.crew_score(st)
    st.escape_called = True
    assert S.job_steps(st)[0] >= working + 10  # both servers now out of reach
    assert S.crew_score(st) < score
    st.escape_called = False
    st.tiles["e4"].marks.remove("remote_lock_x")
    st.tiles["i1"].marks.remove("remote_lock_y")
    st.players["p1"].pos = "h2"  # the documents lie open next to p1: running by way of them still works
    working = S.job_steps(st)[0]
    st.escape_called = True
    assert S.job_steps(st)[0] <= working


def test_the_search_never_sells_what_the_team_owns() -> None:
    # The search weighs neither cash nor items: a Plasma Torch bought for the safe could be sold for nothing.
    seats = {s: None for s in SEATS4}
    game = new_game(
        "heist", scenario="the_marathon_job", seed=5, seats=seats, options={"campaign": {"*": {"cash": 10}}}
    )
    game.apply("p1", "buy plasma_torch")
    options = game.legal_commands("p1")
    assert "sell plasma_torch" in {c.text for c in options}  # a player may still sell it
    assert not any(c.verb == "sell" for c in searched_commands(game.ruleset, state(game), "p1"))


def test_each_missing_jewel_counts_the_walk_of_its_own_fetcher() -> None:
    # The Inclusion Job wants three jewels (d3, c5, d7). Counted as the one nearest fetch three times over, a
    # second character walking to its own jewel changed nothing; a hard crew (seed 20000) crept at two steps
    # a round and lost.
    game, st = started(seats=SEATS4, pos={"p1": "i3", "p2": "f9", "p3": "f9", "p4": "i5"})
    for jewel in ("d3", "c5", "d7"):
        st.tiles[jewel].loot.append("jewel")
    for p in st.players.values():
        p.plans = sorted(set(st.tiles) - R.exits(st))
    st.players["p1"].pos = "e3"  # one step from d3
    before = S.job_steps(st)[0]
    st.players["p2"].pos = "e7"  # another character one step from another jewel
    assert S.job_steps(st)[0] < before
    st.players["p1"].loot.append("jewel")  # a jewel in hand: only its walk out is left
    st.tiles["d3"].loot.remove("jewel")
    st.players["p1"].pos = "d3"
    assert S.job_steps(st)[0] < before


def test_a_guard_holding_a_character_counts_until_subdued() -> None:
    # A hard crew's locksmith on The Inclusion Job (seed 20000), held by a guard next to a jewel, punched a
    # guard on the next tile instead: to the evaluation its own guard cost nothing.
    game, st = started(seats=SEATS4, pos={"p1": "i3", "p2": "f9", "p3": "f9", "p4": "i5"})
    for p in st.players.values():
        p.plans = sorted(set(st.tiles) - R.exits(st))
    st.players["p1"].pos = "e6"
    st.players["p1"].loot.append("jewel")
    free = S.job_steps(st)[0]
    put(st, "e6", "guard")
    assert S.job_steps(st)[0] == pytest.approx(free + 1 / 3)  # one subdue before its third of the walks
    st.tiles["e6"].chits[-1].active = False
    assert S.job_steps(st)[0] == free
    st.players["p1"].loot.remove("jewel")  # the jewel on d7, next to p1: the walk to fetch it is held too
    st.tiles["d7"].loot.append("jewel")
    st.tiles["e6"].chits[-1].active = True
    held = S.job_steps(st)[0]
    st.players["p1"].flags.append("slip")  # one who may slip past the guard is not held
    assert held == pytest.approx(S.job_steps(st)[0] + 1 / 3)


def test_the_search_calls_the_escape_only_with_the_job_done_or_the_deck_nearly_out() -> None:
    # A hard crew on The Greedy Prisoner (seed 20011) called the escape in round 3 with nothing done: to the
    # evaluation a hopeless job was no worse for giving up, and the call ends the heist for every seat.
    game = game_for("the_dark_horse_job", SEATS4)
    skip_planning(game, START, {"p1": ROUTE})
    st = state(game)
    assert "escape" in {c.verb for c in game.legal_commands("p1")}  # a player may call it at any time

    def searched() -> set[str]:
        return {c.verb for c in searched_commands(game.ruleset, st, "p1")}

    assert "escape" not in searched()
    st.deck = st.deck[: P.LAST_CARDS]
    assert "escape" in searched()
    st.deck = list(R.heist(st).event_deck)
    st.tiles["i1"].loot.remove("docs")
    st.hauled["docs"] = 1  # the documents are out: the job is done
    assert P.job_done(st) and "escape" in searched()


def _acts(st: HeistState) -> set[str]:
    game_rs = new_game("heist", scenario=st.heist, seats=SEATS4).ruleset
    return {c.args[0] for c in searched_commands(game_rs, st, "p1") if c.verb == "act"}


def test_the_search_drops_an_action_another_beats_outright_on_the_way_to_the_goal() -> None:
    # Die 1 gives the Angry Locksmith Run (🔊🔊➜➜, 2💡) and Sprint (🔊🔊➜➜➜, 3💡). With a lock two steps
    # ahead both get exactly as far, so Sprint's third step is 💡 for nothing; with the way clear it is not.
    game, st = started("the_dark_horse_job", seats=SEATS4, pos=START, plans={"p1": ROUTE}, dice=[1] * 4)
    st.tiles["i1"].loot.append("docs")
    clear = _acts(st)
    assert {"run", "sprint", "walk"} <= clear
    put(st, "h4", "lock")
    blocked = _acts(st)
    assert "sprint" not in blocked
    assert {"run", "walk", "bump"} <= blocked, "what gets as far or further for less stays"


def test_nothing_is_dropped_where_the_character_stands_on_the_loot() -> None:
    # Extra steps carry the loot out from there: the walk toward the goal no longer measures them.
    game, st = started("the_dark_horse_job", seats=SEATS4, pos=START, plans={"p1": ROUTE}, dice=[1] * 4)
    st.tiles["i7"].loot.append("docs")
    put(st, "h4", "lock")
    assert P.wasteful_actions(st, st.players["p1"]) == set()


def test_the_weighted_policy_does_not_take_an_action_another_beats_outright() -> None:
    # The easy level (and the search's rollouts) leave Sprint alone where Run gets as far for less.
    game, st = started("the_dark_horse_job", seats=SEATS4, pos=START, plans={"p1": ROUTE}, dice=[1] * 4)
    st.tiles["i1"].loot.append("docs")
    put(st, "h4", "lock")
    options = game.legal_commands("p1")
    weights = dict(zip([c.text for c in options], P.bot_weights(st, "p1", options), strict=True))
    assert weights["act sprint"] == 0
    assert weights["act run"] > 0 and weights["act walk"] > 0


GAME: list[Game] = []


def side_channel(plans: dict[str, list[str]]) -> HeistState:
    """The Side Channel as dealt (remote lock Y on the documents at g2, the guide at h7 behind keycard door
    g7, the keycard on d3, the USB key on c7), everyone at exit h8 with ``plans``; the game in ``GAME[0]``."""
    game = game_for("the_side_channel", SEATS4)
    skip_planning(game, dict.fromkeys(SEATS4, "h8"), plans)
    GAME[:] = [game]
    return state(game)


def test_picking_up_the_keycard_for_the_guide_never_adds_work() -> None:
    # The Side Channel needs both: the keycard for door g7 and the USB key for the guide behind it (who then
    # opens remote lock Y on the documents). The evaluation once counted a walk to either of the two, so the
    # crewmate standing on the keycard made the way in look free, and picking the keycard up looked like
    # eight steps of work more: the search shied away from it.
    st = side_channel({"p2": ["d3"]})
    st.tiles["d3"].chits.clear()
    st.players["p2"].pos = "d3"
    before = S.job_steps(st)[0]
    GAME[0].apply("p2", "take keycard")
    assert st.players["p2"].loot == ["keycard"]
    assert S.job_steps(st)[0] <= before


def test_the_usb_key_counts_its_walk_on_to_the_guide() -> None:
    # Fetching the USB key is half the errand: it must reach the guide (h7). Carried one tile nearer the
    # guide, the work left falls.
    st = side_channel({"p1": ["c7", "c6", "d6", "e6", "f6", "g7", "h7"]})
    p = st.players["p1"]
    st.tiles["c7"].chits.clear()
    p.pos = "c7"
    GAME[0].apply("p1", "take usb")
    assert p.loot == ["usb"] and "remote_lock_y" in st.tiles["g2"].marks
    far = S.job_steps(st)[0]
    p.pos = "e6"
    assert S.job_steps(st)[0] < far


def test_progress_counts_on_jobs_longer_than_sixty_steps() -> None:
    # The Marathon Job starts some 85 steps of work away: every step toward it must still raise the score.
    st = planned_by_the_game("the_marathon_job")
    steps, _parts = S.job_steps(st)
    assert steps > 60
    base = S.crew_score(st)
    closer = []
    for p in st.players.values():
        here = p.pos
        for n in sorted(R.nbrs(st, here)):
            p.pos = n
            if S.job_steps(st)[0] < steps:
                closer.append(S.crew_score(st))
        p.pos = here
    assert closer and all(score > base for score in closer)


def test_the_guide_gone_out_without_the_usb_key_leaves_the_documents_out_of_reach() -> None:
    # Remote lock Y has no server in The Side Channel: only the guide, handed the USB key, opens it. A search
    # once walked him out in round 1 because the lock then seemed to need nothing at all (work 40 -> 2).
    st = side_channel({})
    before = S.job_steps(st)[0]
    guide = next(n for n in st.npcs if n.kind == "guide")
    guide.status = "escaped"
    assert S.job_steps(st)[0] >= max(before, S.NO_WAY)
    assert S.crew_score(st) < S.crew_score(side_channel({}))


def planned(tunnel: str, plans: dict[str, str]) -> HeistState:
    """The Side Channel planned through public commands by the bench's level-2 crew (Johnny Swagger, Tiny
    Mike, Showtime, Iceheart): a tunnel, then each seat's ``start hex plans...``."""
    record = campaign.levelled_crew(2)
    assert record is not None
    game = new_game(
        "heist", scenario="the_side_channel", seats=dict.fromkeys(SEATS4), options={"campaign": {"*": record}}
    )
    game.apply("p1", f"tunnel {tunnel}")
    return lay_plans(game, plans)


def lay_plans(game: Game, plans: dict[str, str]) -> HeistState:
    """Each seat's ``start hex plans...`` laid through public commands, then everyone ready: round 1."""
    for seat, words in plans.items():
        start, *tiles = words.split()
        for t in tiles:
            game.apply(seat, f"plan {t}")
        game.apply(seat, f"start {start}")
    for seat in plans:
        game.apply(seat, "ready")
    st = state(game)
    assert st.phase == "action"
    return st


def test_a_plan_whose_way_in_runs_through_its_own_locks_scores_below_one_that_works() -> None:
    # A hard crew once tunnelled into the documents' own tile (g2, under remote lock Y) for one character,
    # with the keycard (d3) and the USB key (c7) beyond it, and put the other three behind keycard door g7
    # (the guide's): nobody could reach either, and the crew paused all heist. Walking through shut tiles,
    # the evaluation had scored that plan (51 steps) above a working one (56).
    deadlock = planned("g2", {
        "p1": "h1 g2 f2 e2 d2 d1 d3 c2 b2",
        "p2": "h8 h7 g7 f6 e6 d6 c6 c7",
        "p3": "h8 h7 g7 f6 f5 f4 g3 g2 e4",
        "p4": "h8 h7 g7 f6 f5 f4 g3 g2 e5 d4",
    })  # fmt: skip
    working = planned("c5", {
        "p1": "b6 c5 c6 c7 d6 e6 f6 g7 h7",
        "p2": "b6 c5 c4 d3 d4 e4 f5 f6",
        "p3": "b6 c5 c4 d3 d2 e2 f2 g2 e3",
        "p4": "b6 c5 c4 d3 d2 e2 f2 g2 e3 d1",
    })  # fmt: skip
    assert S.job_steps(deadlock)[0] > S.job_steps(working)[0]
    assert S.crew_score(deadlock) < S.crew_score(working)


def test_the_walk_to_a_hostage_far_behind_a_keycard_door_counts_every_step() -> None:
    # The Hospitality Job: the hostage at i4, behind keycard door h4, the keycard still in the bag. The
    # count of the work was capped at 32 steps for an NPC, so at the start (40 steps by the walks) the score
    # stood still while the crew closed in, and hard crews ended their heists with 31-32 steps left. The
    # plans are those the planning policy laid then (its walks now take cheaper ways: 32 steps).
    game = new_game("heist", scenario="the_hospitality_job", seats=dict.fromkeys(SEATS4), seed=1)
    st = lay_plans(game, {
        "p1": "h10 h9 g8 g7 f6 g5 g4 h4 i4",
        "p2": "a8 b8 c8 d7 e7 e6 e5 e4",
        "p3": "a8 b8 c8 d7 e7 e6 e8 f6 g5 f4",
        "p4": "h10 h9 g8 h7 g7 f6 e6",
    })  # fmt: skip
    steps, _parts = S.job_steps(st)
    assert steps > 2 * S.FAR
    base = S.crew_score(st)
    walker = next(p for p in st.players.values() if "i4" in P.plan_reach(st, p))
    ahead = P.plan_distances(st, walker, {"i4"})
    step = min((n for n in R.nbrs(st, walker.pos) if n in ahead), key=lambda n: ahead[n])
    walker.pos = step
    assert S.job_steps(st)[0] < steps
    assert S.crew_score(st) > base


def test_one_who_knows_better_ways_is_held_for_an_idea_however_many_guards_hold_her() -> None:
    # Iceheart never subdues: an idea slips her past every guard and dog on her tile for the round. On The
    # Proving Grounds (seed 20097) she stood with the torch under a guard and dogs, no idea in hand, while
    # the evaluation counted subdues she could never make, and nobody handed her an idea.
    st = planned_by_the_game("the_proving_grounds")
    bearer = next(p for p in st.players.values() if "there_are_better_ways" in R.abilities(p))
    bearer.items.append("plasma_torch")
    st.tiles["d8"].loot.remove("item:plasma_torch")
    bearer.pos = "d6"
    bearer.ideas = 1
    free = S.job_steps(st)[0]
    for kind in ("guard", "dog", "dog"):
        put(st, "d6", kind)
    with_idea = S.job_steps(st)[0]
    bearer.ideas = 0
    without = S.job_steps(st)[0]
    assert with_idea > free and without == with_idea  # an idea a round, while dogs follow her
    # Anyone else with the torch there has the guard and both dogs to subdue.
    other = next(p for p in st.players.values() if p is not bearer)
    other.plans, other.pos, other.items = list(bearer.plans), "d6", ["plasma_torch"]
    bearer.pos, bearer.items = "c7", []
    held = S.job_steps(st)[0]
    for chit in st.tiles["d6"].chits:
        chit.active = False
    assert held - S.job_steps(st)[0] == pytest.approx(3 * (with_idea - free))


def test_a_way_out_over_a_lockdown_gate_counts_as_gone_before_the_escape() -> None:
    # The Proving Grounds: every gate still standing shuts as the escape starts (ruling 47), d7 with it, and
    # c7 beyond it is then out of reach. Reckoned over the board as it stood, the documents at d6 were two
    # escape moves from c7, and the search (which counts the run with the documents as such) and the
    # policy's idea-giving weighed a run no runner could make.
    st = planned_by_the_game("the_proving_grounds")
    carrier = next(iter(st.players.values()))
    carrier.pos, carrier.loot = "d6", ["docs"]
    assert R.standing_gates(st) == ["f3", "c4", "f5", "d7"]
    need = R.escape_need(st, carrier)
    route = R.escape_route(st, carrier)
    assert need is not None and route is not None and need > 2
    assert not {n for n, _moves in route} & set(R.standing_gates(st))
    st.removed += R.standing_gates(st)  # the same once they have shut
    assert R.escape_need(st, carrier) == need


def test_the_safe_counts_its_tools_fetched_then_carried_to_it() -> None:
    # The Proving Grounds: only the Plasma Torch (d8) cracks the safe (e1). The count of the work walked the
    # nearest character to the safe, torch or none, so picking the torch up scored nothing.
    st = planned_by_the_game("the_proving_grounds")
    fetcher = next(p for p in st.players.values() if "d8" in p.plans)
    before = S.job_steps(st)[0]
    fetcher.pos = "d8"  # at the torch: nearer the job only by the steps there
    at_torch = S.job_steps(st)[0]
    assert at_torch < before
    st.tiles["d8"].loot.remove("item:plasma_torch")
    fetcher.items.append("plasma_torch")
    assert S.job_steps(st)[0] <= at_torch  # picking it up is no more work
    fetcher.items.remove("plasma_torch")  # the torch lost: the safe is out of reach
    assert S.job_steps(st)[0] >= S.NO_WAY


def test_crewmates_walking_to_the_torch_bearers_side_at_the_safe_count_as_progress() -> None:
    # The Proving Grounds: a torch-bearer on the safe turns the 🔓 of characters beside it into 🧩 too.
    # Only the torch's walk and five 🧩 counted, so the crewmates' walks to the safe were worth nothing and
    # they stood outside thinking while gate A shut on their short way.
    st = planned_by_the_game("the_proving_grounds")
    bearer = next(p for p in st.players.values() if "d8" in p.plans)
    bearer.items.append("plasma_torch")
    st.tiles["d8"].loot.remove("item:plasma_torch")
    bearer.pos = "e1"
    helper = next(p for p in st.players.values() if p is not bearer and p.pos and "d2" in p.plans)
    others = [p for p in st.players.values() if p not in (bearer, helper)]
    for p in others:
        p.pos = "h4"
        p.plans = []  # outside, planning nothing: no help at the safe
    way = helper.plans[: helper.plans.index("d2")]
    helper.pos = way[0]
    far = S.job_steps(st)[0]
    helper.pos = "d2"  # beside the safe
    beside = S.job_steps(st)[0]
    assert beside < far
    alone = S.CRACK_STEPS * 5
    helper.pos = "h4"
    helper.plans = []
    assert S.job_steps(st)[0] - beside == pytest.approx(alone / 2)  # two crack at once: half the time
    helper.plans, helper.pos = [*way, "d2"], way[0]
    st.safe = 4  # one 🧩 left: not worth a helper's walk (the documents, still in the safe, count FAR)
    assert S.job_steps(st)[0] == pytest.approx(S.FAR + S.CRACK_STEPS)


def test_a_gate_the_next_cards_shut_is_walked_round_and_not_stood_on() -> None:
    # The Proving Grounds: gate A (f3) is on the short way from e4 up to the safe's corridor (e2). Its
    # crisis, Shut the Gate!! (C3), is the deck's eighth card; three cards ahead it counts as shut already.
    st = planned_by_the_game("the_proving_grounds")
    assert st.deck.index("C3") >= S.GATE_NOTICE and S.gates_shutting(st) == ()
    p = next(iter(st.players.values()))
    p.plans = [*p.plans, "e4", "f3", "e2", "d2", "c3", "b4", "c4", "e5"]
    p.pos = "e4"
    far_off = S._Walks(st).reach({"e2"})
    p.pos = "f3"
    on_gate_far_off = S.crew_score(st)
    st.deck.remove("C3")
    st.deck.insert(1, "C3")
    assert S.gates_shutting(st) == ("f3",)
    assert S.crew_score(st) < on_gate_far_off  # standing on it now is as good as busted
    p.pos = "e4"
    assert S._Walks(st).reach({"e2"}) > far_off  # the way round, by gate B


def test_a_prisoner_freed_by_its_server_needs_nobody_at_its_side() -> None:
    # The Greedy Prisoner: standing on server X (c2 or i2) opens remote lock X over the prisoner at e2, who
    # then goes free and walks out on her own. The count added a character's walk to her (16 steps), so the
    # search was paid for walking crewmates over to a tile nobody needs to reach.
    st = planned_by_the_game("the_greedy_prisoner")
    st.hauled["jewel"] = 2  # the jewels out: only the prisoner is left to the job
    prisoner = st.npcs[0]
    assert prisoner.kind == "prisoner" and prisoner.pos == "e2" and not prisoner.active
    w = S._Walks(st)
    opening, opened = w.open_way({"e2"})
    assert opening > 0 and "e2" in opened
    assert S.job_steps(st)[0] == opening + w.with_opened(opened).npc_out("e2")


def test_a_keycard_counts_the_walk_over_the_plans_that_carry_it_to_its_door() -> None:
    # The Startup Job: the keycard (f2) goes to the vault door (b2) only over planned tiles, handed on where
    # the fetcher's plan meets a crewmate's. Over the board as it stands, the count saw a way the plans did
    # not allow, and a crew whose plans could never open the vault scored as if they could.
    game = new_game("heist", scenario="the_startup_job", seats=dict.fromkeys(SEATS4), seed=20064)
    relayed = lay_plans(game, {
        "p1": "g8 g7 f6 f5 f4 g3 f2 f3 e3",  # the fetcher: its memory (8) ends at e3
        "p2": "g8 g7 f6 f5 e4 e3 d3 c3",  # meets it at e3 and takes it on to c3, beside the door
        "p3": "e9 d8 d7 c6 c5 b4 b3 b2 c1",  # the documents
        "p4": "e9",
    })  # fmt: skip
    walks = S._Walks(relayed)
    with_relay = walks.bring({"f2"}, {"b2"})
    alone = copy_state(relayed)
    alone.players["p2"].plans = ["g7"]  # nobody meets the fetcher: the keycard never reaches the door
    assert S._Walks(alone).bring({"f2"}, {"b2"}) >= with_relay + S.FAR // 2
    assert S.job_steps(alone)[0] > S.job_steps(relayed)[0]
    assert S.crew_score(alone) < S.crew_score(relayed)
    # the relay's walk to the meeting tile counts: a step toward it is a step of work done
    relayed.players["p2"].pos = "g7"
    assert S._Walks(relayed).bring({"f2"}, {"b2"}) < with_relay
    # met at e3, the fetcher hands it on before its action ends: held by the one who takes it on, it is
    # nearer the door than held by one that can go no further
    relayed.players["p1"].pos = relayed.players["p2"].pos = "e3"
    relayed.tiles["f2"].loot.remove("keycard")
    relayed.players["p1"].loot.append("keycard")
    held = S.crew_score(relayed)
    relayed.players["p1"].loot.remove("keycard")
    relayed.players["p2"].loot.append("keycard")
    assert S.crew_score(relayed) > held


def final_score_planned() -> HeistState:
    """The Final Score Part 1 for a level-3 crew (Showtime a Grease Man), planned by the game's own player:
    tunnel i8, the Grease Man and the Safecracker's tools there, his plan j6 (a gap from i8), the safe k5."""
    game = new_game("heist", scenario="the_final_score_part_1", seed=20007, seats=dict.fromkeys(SEATS4),
                    options={"campaign": {"*": campaign.levelled_crew(3)}})  # fmt: skip
    while state(game).phase == "plan":
        seat = game.next_bot_seat()
        assert seat is not None
        game.apply(seat, game.bot_command(seat))
    return state(game)


def test_the_grease_man_crawls_to_a_safe_no_walk_reaches_without_its_keycard() -> None:
    # k5 lies behind keycard door i4 and the keycard far off at a5; the Grease Man at i8 crawls to j6 and steps
    # onto the safe. Walking only, the safe counted the keycard's fetch, 100 steps of work in all.
    st = final_score_planned()
    greaser = next(p for p in st.players.values() if P.vents(p))
    carrier = next(p for p in st.players.values() if set(R.SAFE_TOOLS) & set(p.items))
    assert greaser.pos == carrier.pos == "i8"
    walks = S._Walks(st)
    handed = walks.crack({"k5"})
    assert handed <= S.HANDOVER + 2 + P.VENT_COST + 2  # the tools handed over, then i8 -(vent)- j6 - k5
    steps, _parts = S.job_steps(st)
    assert steps < 60
    # with the tools in his hands the hand-over is no longer counted
    carrier.items.remove("safecracking_tools")
    greaser.items.append("safecracking_tools")
    assert S._Walks(st).crack({"k5"}) == handed - S.HANDOVER
    # one who cannot crawl counts the keycard's fetch and the door
    greaser.character = carrier.character
    assert not P.vents(greaser)
    assert S._Walks(st).crack({"k5"}) >= handed + S.FAR


def test_the_grease_man_counts_the_documents_out_of_the_safe_round_the_keycard_door() -> None:
    st = final_score_planned()
    greaser = next(p for p in st.players.values() if P.vents(p))
    st.flags.append("safe_open")
    st.tiles["k5"].loot.append("docs")
    greaser.pos = "k5"
    # out by j5 -(vent)- h5, g4, g3 to the hideout f2: about a dozen steps, no keycard fetched for them
    assert S._Walks(st, R.hideouts(st)).fetch_each({"k5": 1}, 1) < S.FAR
    greaser.character = "safecracker"
    assert S._Walks(st, R.hideouts(st)).fetch_each({"k5": 1}, 1) >= S.FAR
