"""The second rule-by-rule audit of Escape Path against its core rules (v1.0), with scripted dice.

Each test names the rule it checks (book section, or the ruling in docs/rulings/escapepath.md where the
book is open). The test map is the open 10x9 board of tests/escapepath_helpers.py: entry point a1, escape
point j9; the scenario tests use the authored maps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import ContentError, new_game
from engine.geometry.square import KING, Cell, cell_name
from engine.rulesets.escapepath.content import Scenario, bogie_kinds, scenario_from_data, scenarios
from engine.rulesets.escapepath.moves import reach
from tests.escapepath_helpers import E, N, dice, game, place, scenario_on, st_of, swarm_turn, texts

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture(autouse=True)
def _open_map() -> Iterator[None]:
    with scenario_on():
        yield


# -- 3.3 and 6.1 on the authored maps: the team can walk to every escape point and objective ----------------
def _walkable(s: Scenario) -> set[Cell]:
    """Squares a character reaches from the team's starts by single steps (rule 6.1: never into walls or
    voids, never diagonally between two walls), worked out here independently of the loader."""
    seen = {m.start for m in s.team}
    todo = list(seen)
    while todo:
        x, y = todo.pop()
        for dx, dy in KING:
            n = (x + dx, y + dy)
            if n in seen or not s.on_board(n) or n in s.walls or n in s.voids:
                continue
            if dx and dy and (x + dx, y) in s.walls and (x, y + dy) in s.walls:
                continue
            seen.add(n)
            todo.append(n)
    return seen


@pytest.mark.parametrize("scenario", ["deck-nine", "brocks-bad-day", "graveyard-shift", "tomb-of-sekhet"])
def test_3_3_every_escape_point_and_objective_can_be_walked_to(scenario: str) -> None:
    s = scenarios()[scenario]
    walkable = _walkable(s)
    shut = [cell_name(c) for c in (*s.escapes, *s.objectives) if c not in walkable]
    assert shut == [], f"{s.name}: {shut} walled in"


def test_3_3_a_warden_can_go_out_through_the_graveyard_gate() -> None:
    """Graveyard Shift scores wardens out through the gate at l10; it used to be reachable only diagonally
    between two walls (k10 and l9), which rule 6.1 shuts, so no warden could ever use it."""
    g = new_game("escapepath", scenario="graveyard-shift", seed=1)
    place(g, "hale", "k9", "se")
    assert (11, 9) in reach(st_of(g), st_of(g).figures["hale"])
    place(g, "hale", "l8", "s")
    g.apply("team", "move hale l9")
    g.apply("team", "move hale l10")
    g.apply("team", "escape hale")
    assert st_of(g).figures["hale"].status == "escaped" and st_of(g).escaped == 1


def test_3_3_a_map_whose_escape_point_is_walled_in_is_refused() -> None:
    d = {
        "id": "sealed", "name": "Sealed", "summary": "", "description": "",
        "map": ["E...", "1...", "..#.", "...#", "..#X"], "first": "team", "turns": 5, "rules": [],
        "gun": "gun", "bomb": "bomb",
        "team": [{"id": "ann", "name": "Ann", "start": "1", "facing": "n", "bombs": 0}],
        "swarm": {"kind": "alien", "pool": 2, "cap": 1},
        "scoring": {"escape": 1, "kill": 0, "objective": 0, "survivor": 0, "target": 1}, "goal": "",
    }  # fmt: skip
    with pytest.raises(ContentError, match="escape point d5 cannot be reached"):
        scenario_from_data(d)
    d["map"] = ["E...", "1...", "..#.", "....", "..#X"]  # d4 opened: the gate can be walked to
    assert scenario_from_data(d).escapes == ((3, 4),)


# -- 8.3 with 7.5: a thrower killed by its own bomb ------------------------------------------------------------
def test_8_3_a_thrower_killed_by_its_own_blast_does_not_turn_after_the_throw() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "al1", "f4", "s")  # diagonally ahead: the blast always takes in Ann too (ruling 12)
    assert "bomb ann al1 e" in texts(g)  # turn after the throw
    dice(g, 1, 1)
    events = g.apply("team", "bomb ann al1 e")
    st = st_of(g)
    assert st.figures["ann"].status == "dead" and st.figures["ann"].facing == N
    assert not any("turns" in e.text for e in events), [e.text for e in events]


# -- ruling 25: the free turn goes with a throw too ----------------------------------------------------------
def test_ruling_25_a_bomb_may_be_thrown_with_the_free_turn_onto_a_bogie_in_sight() -> None:
    g = game()
    place(g, "ann", "e5", "n")
    place(g, "al1", "i5", "w")  # level with Ann: seen, not in the arc
    place(g, "al2", "e9", "n")  # behind: not seen
    t = texts(g)
    assert "bomb ann al1 e" in t and "bomb ann al1" not in t
    assert not any(x.startswith("bomb ann al2") for x in t)
    dice(g, 6, 6)  # 12 reaches range 4: a direct hit
    g.apply("team", "bomb ann al1 e")
    st = st_of(g)
    assert st.figures["al1"].status == "pool" and st.figures["ann"].facing == E
    assert st.figures["ann"].ap == 1 and st.figures["ann"].bombs == 1


# -- ruling 26: carried forward onto an objective takes it -----------------------------------------------------
def test_ruling_26_a_character_carried_forward_onto_an_objective_takes_it() -> None:
    rows = ["E.........", "..........", "..........", "....O.....", "..........", "..........", "..........",
            "..........", "1234.....X"]  # fmt: skip
    scoring = {"escape": 1, "kill": 0, "objective": 2, "survivor": 0, "target": 5}
    with scenario_on(rows, scoring=scoring):
        g = game()
        place(g, "ann", "e5", "n")
        place(g, "al1", "e4", "s")  # on the objective
        dice(g, 6, 1)
        g.apply("team", "attack ann")
        st = st_of(g)
        assert st.figures["ann"].pos == (4, 3) and st.objectives == [(4, 3)]


# -- ruling 27: a figure on an entry point keeps bogies from coming on there -----------------------------------
def test_ruling_27_a_figure_standing_on_an_entry_point_blocks_it() -> None:
    g = game()
    place(g, "ann", "a1", "s")
    place(g, "al2", "j1", "s")  # something for the swarm to do, so its turn does not end by itself
    swarm_turn(g)
    assert not any(c.verb == "enter" for c in g.legal_commands("swarm"))
    g.apply("swarm", "end")
    g.apply("team", "move ann a2")
    g.apply("team", "end")
    assert "enter al1 a1" in texts(g, "swarm")


# -- the player guide agrees with the content ----------------------------------------------------------------
_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10}  # fmt: skip


def test_the_player_guide_gives_each_scenario_its_cap_and_turn_limit() -> None:
    guide = (DOCS / "escapepath.md").read_text("utf-8")
    for s in scenarios().values():
        if s.id == "test":  # the open test map this file registers
            continue
        row = next((line for line in guide.splitlines() if line.startswith(f"| {s.name} |")), None)
        assert row is not None, f"{s.name} is missing from the guide's table"
        cells = [c.strip() for c in row.strip("|").split("|")]
        swarm, goal = cells[1], cells[2]
        kind = bogie_kinds()[s.kind]
        assert kind.name[:4] in swarm and f"({kind.speed})" in swarm, row
        cap = re.search(r"(\w+) at a time", swarm)
        assert cap is not None and _COUNTS[cap.group(1)] == s.cap, f"{s.name}: cap {s.cap}, guide: {swarm!r}"
        assert str(s.turns) in goal, f"{s.name}: {s.turns} turns, guide: {goal!r}"
