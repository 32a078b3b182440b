"""Rule tests for the third audit of the heist ruleset against the rulebook and the River City booklet.

The audit looked first at what decides whether a heist can be won at all (the seven heists the game's own
crews had never won). Each test plays the rule with scripted dice on a quiet board (see
``tests/heist_helpers.py``); the readings chosen where the book is open are in docs/rulings/heist.md.
"""

from __future__ import annotations

from engine.rulesets.heist import rounds as RD
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.search import job_steps
from engine.rulesets.heist.state import Chit, HeistState
from tests.heist_helpers import SEATS4, put, started

# --- The Final Score Part 1: the hideouts are the only way out once the alarm sounds --------------------------


def final_score(pos: dict[str, str]) -> HeistState:
    """The Final Score Part 1 on a quiet board, the characters where ``pos`` says, the safe already open."""
    _, st = started("the_final_score_part_1", seats=SEATS4, pos=pos)
    st.flags.append("safe_open")
    for p in st.players.values():
        p.ideas = 5
    return st


def test_final_score_part_1_runners_hide_in_a_hideout_not_out_of_an_exit() -> None:
    """Booklet, The Final Score: "Once the alarm sounds ..., your only escape locations are the hideouts"."""
    st = final_score({"p1": "f3", "p2": "f5", "p3": "f5", "p4": "f5"})
    p1 = st.players["p1"]
    p1.cash = 5
    RD.start_escape(st, [])
    assert st.players["p2"].status == "escaped"  # already outside when the alarm sounded
    route = R.escape_route(st, p1)
    assert route is not None and route[-1] == ("f2", 1)  # the hideout next door, not the loading dock
    RD.run(st, p1, "", [])
    assert p1.status == "escaped" and p1.pos == "f2"
    assert st.hauled.get("cash") == 5  # the cash hidden with its carrier is stolen


def test_final_score_part_1_a_hideout_holds_two_runners() -> None:
    st = final_score({"p1": "f2", "p2": "f2", "p3": "f3", "p4": "f5"})
    RD.start_escape(st, [])
    assert st.players["p1"].status == st.players["p2"].status == "escaped"  # hidden where they stood
    p3 = st.players["p3"]
    RD.run(st, p3, "", [])
    assert p3.status == "escaped" and p3.pos == "c2"  # f2 is full: on to the other hideout


def test_final_score_part_1_documents_taken_out_of_an_exit_are_not_hidden() -> None:
    """The objective is the safe's documents with a character in a hideout, not out of the building."""
    st = final_score({"p1": "e5", "p2": "f5", "p3": "f5", "p4": "f5"})
    p1 = st.players["p1"]
    p1.loot, p1.cash = ["docs"], 5
    st.hauled["cash"] = 0
    p1.pos = "f5"
    R.bank(st, p1, [])
    assert st.hauled == {"cash": 5, "docs": 1}
    RD.start_escape(st, [])
    assert st.phase == "over" and st.result is not None and not st.result.winners


def test_final_score_part_1_documents_hidden_in_a_hideout_win_with_the_cash() -> None:
    st = final_score({"p1": "f3", "p2": "f5", "p3": "f5", "p4": "f5"})
    p1 = st.players["p1"]
    p1.loot, p1.cash = ["docs"], 5
    RD.start_escape(st, [])
    RD.run(st, p1, "", [])
    assert p1.pos == "f2" and "docs_hidden" in st.flags
    assert st.phase == "over" and st.result is not None and st.result.winners


def test_final_score_part_1_the_search_weighs_the_documents_walk_to_a_hideout() -> None:
    """The search's evaluation counts the documents' carrier's walk to a hideout (f2 is one step from f3),
    not to the loading dock's exit (f5, next to e5)."""
    work = {}
    for where in ("f3", "e5"):
        st = final_score({"p1": where, "p2": "f5", "p3": "f5", "p4": "f5"})
        p1 = st.players["p1"]
        p1.loot, p1.plans = ["docs"], list(st.tiles)
        work[where] = job_steps(st)[0]
    assert work["f3"] < work["e5"]


# --- non-player characters are "just a character" -----------------------------------------------------------


def test_an_npc_holding_the_keycard_runs_through_a_keycard_door() -> None:
    """A character with the keycard may take a keycard door in the escape (one more move); so may an NPC."""
    game, st = started(
        "the_hospitality_job", seats=SEATS4, pos={"p1": "b8", "p2": "a8", "p3": "a8", "p4": "a8"}
    )
    npc = st.npcs[0]
    npc.pos, npc.active, npc.ideas, npc.loot = "h8", True, 6, ["keycard"]
    st.tiles["h9"].marks.append("keycard_door")  # the only way to the exit h10 ...
    for n in ("g8", "h7"):
        st.tiles[n].chits.append(Chit("lock"))  # ... and no other way out
    RD.start_escape(st, [])
    assert R.route_from(st, npc.pos, better=False, keycard=True) == [("h9", 2), ("h10", 3)]
    game.apply("p1", "npc run")
    assert npc.status == "escaped"


def test_npc_run_via_a_hex_picks_up_what_lies_there() -> None:
    game, st = started(
        "the_greedy_prisoner", seats=SEATS4, pos={"p1": "a8", "p2": "a9", "p3": "i9", "p4": "i9"}
    )
    npc = st.npcs[0]
    npc.pos, npc.active, npc.ideas = "h7", True, 6
    st.tiles["h8"].loot.append("jewel")
    st.tiles["h8"].cash = 2
    RD.start_escape(st, [])
    game.apply("p1", "npc run via h8")
    assert npc.status == "escaped"
    assert st.hauled.get("jewel") == 1 and st.hauled.get("cash") == 2 and not st.tiles["h8"].loot


def test_a_caught_npc_leaves_what_it_carries_where_it_is_caught() -> None:
    game, st = started(
        "the_greedy_prisoner",
        seats=SEATS4,
        pos={"p1": "a8", "p2": "a9", "p3": "i9", "p4": "i9"},
        dice=[3, 3, 3, 3, 1],
    )
    npc = st.npcs[0]
    npc.pos, npc.active, npc.ideas, npc.loot = "h5", True, 0, ["jewel"]
    RD.start_escape(st, [])
    game.apply("p1", "npc run")  # h5 -> h6 -> h7 -> h8 -> i9: four moves, rolls 1
    assert npc.status == "busted" and npc.pos == "h6"
    assert st.tiles["h6"].loot == ["jewel"]


def test_an_npc_picks_up_loot_on_its_hex_and_carries_it_out() -> None:
    """The Greedy Prisoner: the freed prisoner may pick up a jewel itself, as any character may."""
    game, st = started(
        "the_greedy_prisoner", seats=SEATS4, pos={"p1": "a8", "p2": "a9", "p3": "i9", "p4": "i9"}
    )
    npc = st.npcs[0]
    npc.pos, npc.active, npc.die = "h8", True, 3
    st.tiles["h8"].loot.append("jewel")
    game.apply("p2", "npc take jewel")
    assert npc.loot == ["jewel"] and not st.tiles["h8"].loot
    game.apply("p2", "npc act crawl")
    game.apply("p2", "npc move i9")
    assert npc.status == "escaped" and st.hauled.get("jewel") == 1


def test_the_side_channel_guide_picking_up_the_usb_key_opens_remote_lock_y() -> None:
    """ "Immediately when Shell has possession of the USB key, they open up the Y gate" (booklet)."""
    game, st = started("the_side_channel", seats=SEATS4, pos={"p1": "h8", "p2": "h8", "p3": "h8", "p4": "h8"})
    st.tiles["g2"].marks.append("remote_lock_y")
    guide = st.npcs[0]
    st.tiles[guide.pos].loot.append("usb")
    game.apply("p1", "npc take usb")
    assert "remote_lock_y" not in st.tiles["g2"].marks


def test_loot_changes_hands_with_the_npc_during_the_escape_too() -> None:
    """ "You MAY pick up or drop off loot during the Escape Phase": hand-overs with the NPC included."""
    game, st = started(
        "the_greedy_prisoner", seats=SEATS4, pos={"p1": "h8", "p2": "a9", "p3": "i9", "p4": "i9"}
    )
    npc = st.npcs[0]
    npc.pos, npc.active, npc.loot = "h8", True, ["cash", "cash", "jewel"]
    RD.start_escape(st, [])
    game.apply("p1", "take cash npc")  # cash is one piece of loot: all of it changes hands
    assert st.players["p1"].cash == 2 and npc.loot == ["jewel"]
    game.apply("p1", "take jewel npc")
    game.apply("p1", "give jewel npc")
    assert npc.loot == ["jewel"]


# --- crises always happen -------------------------------------------------------------------------------------


def test_a_crisis_under_the_active_event_is_queued_not_discarded_by_its_alert() -> None:
    """A crisis that comes to the top when the active event is taken is queued at once; an alert the event
    raises then discards the next event, never the crisis (every crisis happens)."""
    game, st = started("the_inclusion_job", pos={"p1": "d5", "p2": "d5", "p3": "d5"})
    n = next(m for m in R.nbrs(st, "d5") if m not in R.exits(st))
    put(st, n, "camera")  # Caught in a Reflection: ⚠ for a character next to a live camera
    st.deck[:3] = ["3", "C2", "4"]
    ev: list = []
    RD.event_phase(st, ev)
    text = " | ".join(e.text for e in ev)
    assert "Crisis C2 Watchtower Sweep." in text and "C2 Watchtower Sweep is discarded" not in text
    assert "event 4 Suspicious Guards is discarded" in text  # the alert takes the next event instead
