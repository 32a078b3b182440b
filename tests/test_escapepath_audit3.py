"""The third rule-by-rule audit of Escape Path against its core rules (v1.0), with scripted dice.

Each test names the rule it checks (book section, or the ruling in docs/rulings/escapepath.md where the
book is open). The test map is the open 10x9 board of tests/escapepath_helpers.py: entry point a1, escape
point j9.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import IllegalCommand
from tests.escapepath_helpers import SE, E, S, game, place, scenario_on, st_of, swarm_turn, texts


@pytest.fixture(autouse=True)
def _open_map() -> Iterator[None]:
    with scenario_on():
        yield


# -- 3.2 with 3.3: coming on is a move, and a move allows 90 degrees of turn per AP ----------------------------
def test_3_2_a_bogie_coming_on_may_turn_up_to_90_degrees_as_part_of_the_entry() -> None:
    g = game()
    place(g, "al2", "j1", "s")  # something else for the swarm to do, so its turn does not end by itself
    swarm_turn(g)
    enters = {t for t in texts(g, "swarm") if t.startswith("enter al")}
    # a1 is on the top edge: straight in is south; the 1 AP of the entry pays for up to 90 degrees either way
    assert enters == {
        "enter al1 a1",
        "enter al1 a1 se",
        "enter al1 a1 e",
        "enter al1 a1 sw",
        "enter al1 a1 w",
    }
    with pytest.raises(IllegalCommand, match=r"rules 3\.2, 3\.3"):
        g.apply("swarm", "enter al1 a1 n")  # 180 degrees: more than the entry's 1 AP allows
    g.apply("swarm", "enter al1 a1 e")
    f = st_of(g).figures["al1"]
    assert (f.pos, f.facing, f.ap) == ((0, 0), E, 3)  # the turn was part of the 1 AP entry
    g.apply("swarm", "move al1 b1")  # straight ahead now: 1 AP
    assert st_of(g).figures["al1"].ap == 2


def test_3_2_naming_the_straight_in_facing_is_the_plain_entry() -> None:
    g = game()
    swarm_turn(g)
    g.apply("swarm", "enter al1 a1 s")
    assert g.log[-1].text == "enter al1 a1" and st_of(g).figures["al1"].facing == S


def test_3_2_a_slow_bogie_may_come_on_turned_and_still_step() -> None:
    with scenario_on(kind="zombie"):
        g = game()
        swarm_turn(g)
        g.apply("swarm", "enter zo1 a1 se")
        assert st_of(g).figures["zo1"].facing == SE and st_of(g).figures["zo1"].ap == 1
        g.apply("swarm", "move zo1 b2 e")  # diagonally forward from se, ending facing e: its last point
        f = st_of(g).figures["zo1"]
        assert (f.pos, f.facing, f.ap) == ((1, 1), E, 0)
