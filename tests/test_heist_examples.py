"""The rulebook's worked examples, replayed with scripted dice on cleared River City boards."""

from __future__ import annotations

from typing import Any

from engine.game import Game, load_game
from engine.rulesets.heist import rounds as RD
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState
from tests.heist_helpers import (
    SEATS3,
    SEATS4,
    clear_board,
    game_for,
    indoor_path,
    put,
    skip_planning,
    state,
)


def test_angry_locksmith_options_with_one_idea() -> None:
    # Phil plays the Angry Locksmith with Wing It and Smash 'n' Grab and rolled a 1.
    game = game_for("the_inclusion_job", dice=[1, 4, 4])
    st = state(game)
    phil = st.players["p1"]
    phil.skills = ["wing_it", "smash_n_grab"]
    skip_planning(game, {"p1": "i3", "p2": "i3", "p3": "i5"})
    assert phil.die == 1
    phil.ideas = 0
    free = {o.key for o in R.options(st, phil)}
    assert free == {"pick", "walk", "punch", "discover"}
    phil.ideas = 1
    opts = {o.key: o for o in R.options(st, phil)}
    assert set(opts) == {"pick", "walk", "punch", "discover", "smash", "grab", "strongarm", "scamper"}
    for key in ("smash", "grab", "strongarm", "scamper"):
        assert opts[key].cost == 1
    assert R.sym(opts["strongarm"].subs) == "🔓👊🔊🔊➜"
    # The choice is a command; the idea is spent and the die turned to the skill's face.
    game.apply("p1", "act scamper")
    assert phil.ideas == 0 and phil.die == 6 and phil.left == "MM" and phil.noise_due == 3


def test_interleaving_and_undoing() -> None:
    # Jacob (Null, Hurry) sprints; his first ➜ auto-reveals a Lock. Kelly the Angry Locksmith picks it with
    # Efficient picker (➜ then 🔓), and Jacob goes on. 🔊 rises by 4.
    chars = {"p1": "johnny_swagger", "p2": "null", "p3": "tiny_mike"}
    game = game_for("the_inclusion_job", characters=chars, dice=[3, 5, 2])
    st = state(game)
    clear_board(st)
    start = "i5"
    t1, t2, t3 = indoor_path(st, start, 3)
    st.tiles[t2].unknown = True
    st.bag[:] = ["lock"]
    skip_planning(game, {"p1": start, "p2": start, "p3": "i3"}, {"p1": [t1], "p2": [t1, t2, t3]})
    assert st.players["p2"].die == 5
    game.apply("p2", "act sprint")
    assert "undo" in [c.text for c in game.legal_commands("p2")]
    events = game.apply("p2", f"move {t1}")
    assert any("lock" in e.text for e in events)
    assert R.locked(st, t2)
    assert "undo" not in [c.text for c in game.legal_commands("p2")], "a reveal ends the right to undo"
    refused = [c.text for c in game.legal_commands("p2")]
    assert f"move {t2}" not in refused
    game.apply("p1", "act pick")
    game.apply("p1", "efficient")
    game.apply("p1", f"move {t1}")
    game.apply("p1", f"unlock {t2}")
    game.apply("p1", "done")
    game.apply("p2", f"move {t2}")
    game.apply("p2", f"move {t3}")
    game.apply("p2", "done")
    assert st.noise == 4
    assert st.players["p2"].pos == t3


def _one_step_planned() -> tuple[Game, HeistState, str, dict[str, Any]]:
    """The Inclusion Job on a quiet board, past planning, p1's plan one tile from the exit i5; with the
    state's data before anyone acts."""
    game = game_for("the_inclusion_job", dice=[3, 3, 3])
    st = state(game)
    clear_board(st)
    t1 = indoor_path(st, "i5", 1)[0]
    skip_planning(game, {"p1": "i5", "p2": "i5", "p3": "i3"}, {"p1": [t1]})
    return game, st, t1, st.to_data(with_undo=False)


def test_undo_takes_an_action_back_before_anything_is_revealed() -> None:
    game, st, t1, before = _one_step_planned()
    game.apply("p1", "act walk")
    game.apply("p1", f"move {t1}")
    game.apply("p1", "undo")
    assert st.to_data(with_undo=False) == before
    game.apply("p1", "act walk")
    game.apply("p2", "act walk")  # someone else acts: p1 can no longer take the action back
    assert "undo" not in [c.text for c in game.legal_commands("p1")]


def test_a_saved_and_reloaded_heist_still_takes_an_action_back_and_the_copy_does_not_share_it() -> None:
    # The take-back snapshot lives in the state: it must survive saving (the bot reloads a game for each
    # command) and belong to one game only (the search plays on copies).
    game, st, t1, before = _one_step_planned()
    game.apply("p1", "act walk")
    copy = game.copy()
    copy.apply("p1", f"move {t1}")
    copy.apply("p1", "undo")
    assert copy.state.to_data(with_undo=False) == before
    copy.apply("p1", "act walk")
    copy.apply("p1", f"move {t1}")
    game.apply("p1", f"move {t1}")
    reloaded = load_game(game.to_json())
    assert reloaded.to_json() == game.to_json()
    reloaded.apply("p1", "undo")
    assert reloaded.state.to_data(with_undo=False) == before
    assert st.players["p1"].pos == t1, "undoing the copy and the reloaded game left this one alone"


def test_event_phase_with_five_noise_in_a_four_player_game() -> None:
    game = game_for("the_inclusion_job", SEATS4, dice=[2, 2, 2, 2])
    st = state(game)
    skip_planning(game, {"p1": "i3", "p2": "i3", "p3": "i5", "p4": "f9"})
    st.deck[:] = ["1", "2", "3", "4", "C4", "5", "6", "Z1"]
    st.discard.clear()
    wanted = {"p1": 1, "p2": 2, "p3": 1, "p4": 1}
    for seat, noise in wanted.items():
        o = next(
            o
            for o in R.options(st, st.players[seat])
            if o.cost == 0 and o.subs.count("N") == noise and "A" not in o.subs
        )
        game.apply(seat, f"act {o.key}")
    for seat in ("p1", "p2", "p3"):
        game.apply(seat, "done")
    assert st.discard == ["1"] and st.noise == 4  # the first alert space of the 4-player track
    events = game.apply("p4", "done")
    texts = [e.text for e in events]
    assert st.noise == 5
    # One ⚠ from the noise discards event 1; event 2 (two at one entrance) deals ⚠⚠ (3 and 4); the crisis
    # surfacing after them is queued and done; all are discarded.
    assert st.discard == ["1", "3", "4", "2", "C4"]
    assert st.deck[0] == "5" and st.crises == []
    assert any("Event phase: 2" in t for t in texts) and any("Crisis C4" in t for t in texts)
    assert st.round == 2 and st.phase == "action"


def test_last_ditch_effort() -> None:
    # Mark the Mastermind (💡💡💡) needs 7 escape moves: 3 ideas, then a 3 on the die is one short. He is Busted
    # one step from the door with the documents; Sally the Script Kiddie (💡💡) runs by and takes them out.
    game = game_for("the_dark_horse_job", dice=[1, 1, 1])
    st = state(game)
    clear_board(st)
    mark, sally, third = st.players["p1"], st.players["p2"], st.players["p3"]
    mark.character, sally.character = "mastermind", "script_kiddie"
    skip_planning(game, {"p1": "i7", "p2": "i7", "p3": "i7"})
    exit_ = "i7"
    path = indoor_path(st, exit_, 7)
    side = next(n for n in R.nbrs(st, path[1]) if n not in path and n not in R.exits(st))
    for n in st.tiles:
        if n not in (*path, side) and n not in R.exits(st) and R.alive(st, n):
            put(st, n, "lock")  # one corridor to the exit
    mark.pos = path[-1]
    assert R.escape_need(st, mark) == 7
    sally.pos = side
    mark.ideas, sally.ideas = 3, 2
    mark.loot = ["docs"]
    ev: list = []
    RD.start_escape(st, ev)
    assert third.status == "escaped"
    st.rng.script[:] = [3]
    events = game.apply("p1", "run")
    assert events[0].dice == (3,)
    assert mark.status == "busted" and mark.ideas == 0
    caught = mark.pos
    assert "docs" in st.tiles[caught].loot
    assert any(e in R.exits(st) for e in R.nbrs(st, caught)), "Mark is caught at the door"
    assert caught == path[0]
    assert R.escape_need(st, sally, caught) == 2  # one step to Mark, one out
    game.apply("p2", f"run via {caught}")
    assert sally.status == "escaped" and sally.ideas == 0
    assert st.hauled.get("docs") == 1
    assert game.outcome is not None and game.outcome.winners == frozenset(SEATS3)


def escape_figure(roll: int):  # type: ignore[no-untyped-def]
    game = game_for("the_inclusion_job", dice=[1, 1, 1])
    st = state(game)
    clear_board(st)
    for t in st.tiles.values():  # no lockdown gates in the figure (they would shut when the escape starts)
        t.marks = [m for m in t.marks if not m.startswith("gate_")]
    skip_planning(game, {"p1": "i5", "p2": "i5", "p3": "i5"})
    exit_ = "i5"
    y, x, g, b = indoor_path(st, exit_, 4)
    keep = {y, x, g, b}
    for n in st.tiles:
        if n not in keep and n not in R.exits(st) and R.alive(st, n):
            put(st, n, "lock")
    put(st, g, "guard")
    blue, red, green = st.players["p1"], st.players["p2"], st.players["p3"]
    blue.pos, blue.ideas = b, 2
    locked_in = [n for n in sorted(st.tiles) if n not in keep and n not in R.exits(st) and R.alive(st, n)]
    red.pos, green.pos = locked_in[0], locked_in[-1]
    assert R.escape_need(st, blue) == 5  # 1 into the guard's hex, 2 out of it, 2 more to the exit
    RD.start_escape(st, [])
    st.rng.script[:] = [roll]
    game.apply("p1", "run")
    game.apply("p2", "run")
    game.apply("p3", "run")
    return st


def test_escape_moves_figure_blue_rolls_three() -> None:
    st = escape_figure(3)
    assert st.players["p1"].status == "escaped"
    assert st.players["p2"].status == "busted" and st.players["p3"].status == "busted"


def test_escape_moves_figure_blue_rolls_two() -> None:
    st = escape_figure(2)
    assert st.players["p1"].status == "busted"
    assert st.phase == "over"
