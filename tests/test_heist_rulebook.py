"""Rule tests from the rulebook audit of ordinary play (the third rule audit, 2026-12-02).

Each test plays one rule of the heist rulebook through the game's commands on a quiet board (see
``tests/heist_helpers.py``) and checks what the book says happens; the readings chosen where the book is
open are numbered in docs/rulings/heist.md (rulings 45 on).
"""

from __future__ import annotations

import pytest

from engine import IllegalCommand
from engine.rulesets.heist import events as E
from engine.rulesets.heist import rounds as RD
from engine.rulesets.heist import rules as R
from tests.heist_helpers import indoor_path, put, started

# --- auto-reveal: every character, the NPCs too, sees the tiles next to it -----------------------------------


def test_a_freed_prisoner_reveals_the_unknown_tiles_next_to_her() -> None:
    """The book: "when a character is adjacent to an unknown Security tile ... the chit is auto-revealed", and an
    NPC is "just a character": the freed prisoner at e2 must not stand next to (and crawl onto) an unknown d2."""
    game, st = started("the_greedy_prisoner", pos={"p1": "a9", "p2": "a9", "p3": "i9"})
    prisoner = st.npcs[0]
    st.tiles["d2"].unknown = True
    st.bag = ["lock"]
    game.apply("p1", "act walk")  # nothing holds her on the quiet board: she is freed at once
    assert prisoner.active and prisoner.pos == "e2"
    assert not st.tiles["d2"].unknown and R.chits(st, "d2", "lock")
    assert "npc move d2" not in [
        c.text for c in game.legal_commands("p1") if c.verb == "npc" and len(c.args) > 1
    ]


def test_an_active_npc_reveals_its_neighbours_at_the_start_of_each_round() -> None:
    game, st = started("the_greedy_prisoner", pos={"p1": "a9", "p2": "a9", "p3": "i9"}, dice=[3] * 8)
    prisoner = st.npcs[0]
    game.apply("p1", "act walk")
    assert prisoner.active
    st.tiles["f2"].unknown = True  # say a chit still hides next to her
    st.bag = ["camera"]
    game.apply("p1", "done")
    for seat in ("p2", "p3"):
        game.apply(seat, "act walk")
        game.apply(seat, "done")
    assert st.round == 2 and not st.tiles["f2"].unknown and R.chits(st, "f2", "camera")


def test_vent_crawl_reveals_the_tile_across_the_gap_before_anyone_steps_on_it() -> None:
    """Vent crawl makes the tile across one gap adjacent; a tile adjacent to a character is auto-revealed, so
    the Grease Man finds the lock at f6 before stepping onto it (locked tiles cannot be entered)."""
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"})
    p = st.players["p1"]
    p.character, p.pos, p.plans = "grease_man", "e4", ["f6"]
    assert "f6" in R.board(st).gap_across["e4"]
    st.tiles["f6"].unknown = True
    st.bag = ["lock"]
    game.apply("p1", "act walk")
    game.apply("p1", "vent")
    assert not st.tiles["f6"].unknown and R.chits(st, "f6", "lock")
    with pytest.raises(IllegalCommand, match="locked"):
        game.apply("p1", "move f6")


def test_vent_crawl_makes_the_tile_across_the_gap_adjacent_for_every_sub_action() -> None:
    """The card: a tile directly across one gap "counts as adjacent". So in the action of the crawl the Grease
    Man unlocks the locked f6 across the gap from e4 and steps onto it; before the crawl, and once the action
    is over, f6 is not next to him (a punch at its guard is refused)."""
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i3"}, dice=[1, 1, 1, 1])
    p = st.players["p1"]
    p.character, p.pos, p.plans = "grease_man", "e4", ["f6"]
    put(st, "f6", "lock")
    assert "f6" not in R.nbrs(st, "e4")
    game.apply("p1", "act bump")  # 🔓🔓🔊🔊➜
    assert "unlock f6" not in [c.text for c in game.legal_commands("p1")]
    game.apply("p1", "vent")
    game.apply("p1", "unlock f6")
    assert not R.chits(st, "f6", "lock")
    game.apply("p1", "move f6")
    assert p.pos == "f6"
    game.apply("p1", "done")
    for seat in ("p2", "p3"):
        game.apply(seat, "act walk")
        game.apply(seat, "done")
    st = game.state
    p = st.players["p1"]
    put(st, "e4", "guard")
    game.apply("p1", "act punch")  # 👊🔊🔊➜, without a crawl this time
    with pytest.raises(IllegalCommand):
        game.apply("p1", "subdue e4")


# --- non-player characters -----------------------------------------------------------------------------------


def test_a_prisoner_behind_a_keycard_door_is_freed_only_when_it_opens() -> None:
    """The book: "A Prisoner is freed when they have no movement impediments (e.g. remote locks, keycard doors,
    guards)": the Black Box's Architect at a8 borders only b7, a keycard door; she stays a prisoner until it
    opens."""
    game, st = started("the_black_box", dice=[3] * 8)
    st.tiles["b7"].marks.append("keycard_door")  # put back after clearing the board
    architect = st.npcs[0]
    assert architect.pos == "a8" and R.nbrs(st, "a8") == ("b7",)
    p = st.players["p1"]
    p.pos, p.loot = "b6", ["keycard"]
    game.apply("p1", "act walk")
    assert not architect.active
    events = game.apply("p1", "open b7")
    assert architect.active and any("is free" in e.text for e in events)


def test_an_npc_holding_the_keycard_opens_a_keycard_door_next_to_it() -> None:
    """The book: "When a character who has the keycard is adjacent to the Keycard Door, they may remove" it, and
    an NPC is "just a character": the Melee Job's guide, keycard in hand, opens the door beside it."""
    game, st = started("the_melee_job", pos={"p1": "b1", "p2": "b1", "p3": "g1"}, dice=[3, 3, 3, 3])
    guide = st.npcs[0]
    door = R.nbrs(st, guide.pos)[0]
    st.tiles[door].marks.append("keycard_door")
    assert f"npc open {door}" not in [c.text for c in game.legal_commands("p1")]
    guide.loot.append("keycard")
    game.apply("p1", f"npc open {door}")
    assert "keycard_door" not in st.tiles[door].marks and guide.loot == ["keycard"]


# --- items and abilities ---------------------------------------------------------------------------------------


def test_a_flashbang_wakes_only_the_guards_it_knocked_out() -> None:
    """The Flashbang's guards "un-subdue at end of Event phase": a guard punched out before it stays down."""
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i5"})
    t1, t2 = indoor_path(st, "i5", 2)
    p = st.players["p1"]
    p.pos = t1
    p.items.append("flashbang")
    put(st, t2, "guard", active=False)  # subdued earlier by a punch
    put(st, t2, "guard")
    st.decoys = 20
    game.apply("p1", "act toss_flashbang")
    assert R.guards(st, t2) == 0
    game.apply("p1", "done")
    for seat in ("p2", "p3"):
        game.apply(seat, "act walk")
        game.apply(seat, "done")
    assert st.round == 2
    assert R.guards(st, t2) == 1  # the flashbanged guard is up again, the punched one is not


def test_a_lucky_penny_is_kept_when_there_is_no_idea_to_lose() -> None:
    """The Lucky Penny is discarded "when an Event would take your 💡": with none, nothing is taken."""
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i5"})
    p = st.players["p1"]
    p.pos = indoor_path(st, "i5", 1)[0]
    p.ideas = 0
    p.items.append("lucky_penny")
    put(st, p.pos, "guard")
    E.resolve(st, "20", [])  # Hurry Up!: a character sharing a tile with a guard loses 💡
    assert p.ideas == 0 and "lucky_penny" in p.items
    p.ideas = 1
    E.resolve(st, "20", [])
    assert p.ideas == 1 and "lucky_penny" not in p.items


def test_exploit_hits_twice_and_the_second_may_be_another_chit() -> None:
    """Exploit: another character performs 👊👊 (or 📷📷, 🔓🔓): two sub-actions, each with its own target."""
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i5"})
    t1, t2 = indoor_path(st, "i5", 2)
    st.players["p1"].pos = t1
    other = next(m for m in R.nbrs(st, t1) if m not in (t2, "i5") and m not in R.exits(st))
    put(st, t2, "guard")
    put(st, other, "guard")
    hat = st.players["p2"]
    hat.character, hat.ideas = "black_hat", 2
    game.apply("p2", "act exploit")
    game.apply("p2", f"hack p1 subdue {t2}")
    legal = [c.text for c in game.legal_commands("p2") if c.verb == "hack"]
    assert legal == [f"hack p1 subdue {other}"]  # the same character, the same sub-action, once more
    game.apply("p2", f"hack p1 subdue {other}")
    assert R.guards(st, t2) == 0 and R.guards(st, other) == 0
    assert not [c for c in game.legal_commands("p2") if c.verb == "hack"]


def test_loop_footage_also_blinds_a_camera_powered_back_on_under_a_character() -> None:
    """Loop Footage: every character ignores camera consequences this Action phase and Event phase, so a
    camera that Surveillance Reboot powers back on under a character raises no ⚠ then."""
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i5"})
    a, b = indoor_path(st, "i5", 2)
    put(st, a, "camera", active=False)
    put(st, b, "camera", active=False)
    st.players["p1"].pos = a
    top = st.deck[0]
    st.flags.append("loop_footage")
    E.resolve(st, "8", [])  # Surveillance Reboot: the two disabled cameras side by side come back on
    assert R.chits(st, a, "camera") and st.deck[0] == top
    st.flags.remove("loop_footage")
    for n in (a, b):
        R.chits(st, n, "camera")[0].active = False
    E.resolve(st, "8", [])
    assert st.deck[0] != top  # without the loop, the camera under p1 raises ⚠


def test_i_know_a_way_turns_each_reveal_into_an_idea_once_the_bag_is_empty() -> None:
    """I know a way: "when the security bag is empty, each 🔍 you make gives 💡". The bags hold at least as many
    chits as the map has unknown tiles, so the bag runs dry only when nothing is left to reveal; the Lookout's
    🔍 must still be playable then, or the ability never works."""
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i5"})
    lookout = st.players["p1"]
    lookout.character, lookout.ideas = "lookout", 0
    assert not st.bag and not any(t.unknown for t in st.tiles.values())
    game.apply("p1", "act discover")  # 🔍🔍🔊
    game.apply("p1", "reveal")
    game.apply("p1", "reveal")
    assert lookout.ideas == 2
    assert "reveal" not in [c.verb for c in game.legal_commands("p1")]
    urchin = st.players["p2"]
    urchin.character = "street_urchin"
    game.apply("p2", "act report")  # 💡🔍🔊
    assert "reveal" not in [c.verb for c in game.legal_commands("p2")]  # he knows no such way


def test_autopwn_cannot_make_a_character_who_never_subdues_punch() -> None:
    """There are better ways: the Street Urchin cannot 👊, so Autopwn cannot make him (it may still make him
    📷 or 🔓)."""
    game, st = started(pos={"p1": "i5", "p2": "i5", "p3": "i5"})
    t1, t2 = indoor_path(st, "i5", 2)
    urchin = st.players["p1"]
    urchin.character, urchin.pos = "street_urchin", t1
    put(st, t2, "guard")
    put(st, t2, "camera")
    kid = st.players["p2"]
    kid.character, kid.ideas = "script_kiddie", 2
    game.apply("p2", "act autopwn")
    hacks = [c.text for c in game.legal_commands("p2") if c.verb == "hack"]
    assert f"hack p1 disable {t2}" in hacks and f"hack p1 subdue {t2}" not in hacks


# --- the escape -------------------------------------------------------------------------------------------------


def test_every_lockdown_gate_left_shuts_when_the_escape_starts() -> None:
    """The book: "Lockdown Gates are always removed in order: the A tile will be removed first" — removing a gate
    is removing its tile — and "All Lockdown Gates are removed at the start of the Escape phase": the gates
    still standing shut when the alarm sounds, busting whoever stands on one, and the runners go round."""
    game, st = started("the_inclusion_job")
    gates = [n for g in R.GATES for n in sorted(st.tiles) if g in st.tiles[n].marks]
    assert gates[:2] == ["g3", "e4"]
    E.close_gate(st, [])  # gate A shut in play
    p1, p2 = st.players["p1"], st.players["p2"]
    p1.pos, p1.loot = "e4", ["jewel"]  # on gate B
    p2.pos = "f4"
    RD.start_escape(st, [])
    assert all(n in st.removed and not R.alive(st, n) for n in gates)
    assert p1.status == "busted" and "jewel" not in st.tiles["e4"].loot
    route = R.escape_route(st, p2)
    assert route is not None and not set(gates) & {n for n, _ in route}


def test_a_breach_on_a_gate_tile_gets_its_maker_out_before_the_gates_shut() -> None:
    """Breach makes the character's external tile an exit and starts the escape: the character is outdoors,
    so the gate shutting under that tile at the escape's start does not bust it."""
    game, st = started("the_blind_justice_job")
    gate = E.next_gate(st)
    assert gate is not None and gate in R.board(st).external
    demo = st.players["p1"]
    demo.character, demo.ideas, demo.pos = "demolitions_guy", 4, gate
    game.apply("p1", "act breach")
    assert demo.status == "escaped" and gate in st.removed


def test_a_character_under_a_remote_lock_cannot_run_out_in_the_escape() -> None:
    """A character "locked within a remote lock tile" may not ➜, and "locked tiles are impassable by Escape
    Moves": shut in when the alarm sounds, it has no way out; once a server opens the lock, it may run."""
    game, st = started("the_dark_horse_job")
    p = st.players["p1"]
    p.pos, p.ideas = "e4", 9
    st.tiles["e4"].marks.append("remote_lock_x")
    assert R.escape_route(st, p) is None
    st.tiles["e4"].marks.remove("remote_lock_x")
    assert R.escape_route(st, p) is not None
    st.tiles["e4"].marks.append("remote_lock_x")
    RD.start_escape(st, [])
    game.apply("p1", "run")
    assert p.status == "busted"
