"""Skirm's Linear (LNR) weapons: the firer draws one of the 16 corner-to-corner lines (ruling 22).

The Flame Acolyte (Coven of War) carries the Flame Projector (LNR, RG4, SK4, ROA 3, DAM 1); its squadmates
here are the Zealots, the enemies Revenant Warriors. Dice are scripted (``arena``'s ``dice``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from engine import IllegalCommand
from engine.ai.random_policy import Picker
from engine.rulesets.skirm import actions as A
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm import sampler
from engine.rulesets.skirm.state import DOWNED, STANDING
from tests.test_skirm_rules import arena, sq, state, text

CA = ("coven", "ankh")


def shots(game, target: str = "warrior") -> list:
    return [c for c in game.legal_commands("player1") if c.verb == "shoot" and c.args[2] == target]


def acolyte_game(units: dict[str, str], *, dice: list[int] | None = None, downed: tuple[str, ...] = ()):
    game = arena({"acolyte": "a1", **units}, squads=CA, dice=dice, states=dict.fromkeys(downed, DOWNED))
    game.apply("player1", "activate acolyte")
    return game


def brute_crossed(p: tuple[int, int], q: tuple[int, int]) -> set[tuple[int, int]]:
    """Squares whose open inside the segment p-q meets, by clipping with fractions."""
    out = set()
    xs = range(min(p[0], q[0]) - 1, max(p[0], q[0]) + 1)
    ys = range(min(p[1], q[1]) - 1, max(p[1], q[1]) + 1)
    for x, y in product(xs, ys):
        lo, hi, inside = Fraction(0), Fraction(1), True
        for p0, d, b0 in ((p[0], q[0] - p[0], x), (p[1], q[1] - p[1], y)):
            if d == 0:
                inside = inside and b0 < p0 < b0 + 1
                continue
            a, b = sorted((Fraction(b0 - p0, d), Fraction(b0 + 1 - p0, d)))
            lo, hi = max(lo, a), min(hi, b)
        if inside and lo < hi:
            out.add((x, y))
    return out


def test_crossed_squares_are_exact_and_leave_out_corners_and_sides():
    for p in product(range(-3, 4), repeat=2):
        for q in product(range(-3, 4), repeat=2):
            assert set(B.crossed_squares(p, q)) == brute_crossed(p, q), (p, q)
    # Through the grid point (2, 1): squares (2, 0) and (1, 1) are only touched at a corner.
    assert B.crossed_squares((1, 0), (3, 2)) == ((1, 0), (2, 1))
    assert B.crossed_squares((0, 0), (3, 0)) == ()  # along a side: crosses nothing
    assert B.crossed_squares((0, 0), (4, 1)) == ((0, 0), (1, 0), (2, 0), (3, 0))  # in order from p


def test_two_lines_hitting_different_units_are_both_offered():
    # Target e2, squadmate Zealot 1 Standing on c1: some corner lines cross c1, others pass above it.
    game = acolyte_game({"warrior": "e2", "zealot": "c1"})
    offered = shots(game)
    assert [c.text for c in offered] == [
        "shoot acolyte flame_projector warrior line:none",
        "shoot acolyte flame_projector warrior line:zealot",
    ]
    assert offered[0].label.endswith("(1 ACT) (line hits no one else)")
    assert offered[1].label.endswith("(1 ACT) (line also hits Zealot 1)")
    # An enemy (Downed, so it blocks no sight) next to the line: each distinct set of units is one choice,
    # best first for the firer (fewest squadmates, then most enemies).
    game = acolyte_game({"warrior": "e2", "zealot": "c1", "warrior2": "c2"}, downed=("warrior2",))
    assert [c.args[3] for c in shots(game)] == [
        "line:warrior2",
        "line:none",
        "line:warrior2+zealot",
        "line:zealot",
    ]
    assert shots(game)[2].label.endswith("(line also hits Zealot 1 and Revenant Warrior 2)")  # in line order


@pytest.mark.parametrize(("line", "zealot_hit"), [("line:zealot", True), ("line:none", False)])
def test_the_chosen_line_is_the_one_rolled_against(line: str, zealot_hit: bool):
    # Warrior [6 6 6]: missed. On the zealot's line, Zealot 1 [2 6 6]: one strike; its save [6] fails.
    dice = [6, 6, 6, 2, 6, 6, 6]
    game = acolyte_game({"warrior": "e2", "zealot": "c1"}, dice=dice)
    events = game.apply("player1", f"shoot acolyte flame_projector warrior {line}")
    attacks = [e.text for e in events if e.kind == "attack"]
    assert len(attacks) == (2 if zealot_hit else 1)
    assert "attacks Revenant Warrior 1" in attacks[0]
    assert ("Zealot 1" in text(events)) == zealot_hit
    zealot = state(game).units["zealot"]
    assert zealot.state == (DOWNED if zealot_hit else STANDING)
    assert len(state(game).rng.script) == (0 if zealot_hit else 4)  # the other dice were never rolled


def test_a_line_touching_only_a_corner_of_a_square_does_not_hit_its_unit():
    # a1 to c3: the only lines near c1 run from a1's corner (1, 0) to c3's corner (3, 2), through c1's
    # corner point (2, 1); none enters c1, so the enemy there is never rolled against and no choice is asked.
    game = acolyte_game({"warrior": "c3", "warrior2": "c1"}, downed=("warrior2",), dice=[6, 6, 6])
    assert [c.text for c in shots(game)] == ["shoot acolyte flame_projector warrior"]
    assert "line" not in shots(game)[0].label
    assert all(sq("c1") not in cells for cells in B.linear_lines(2, 2))
    events = game.apply("player1", "shoot acolyte flame_projector warrior")
    assert "Revenant Warrior 2" not in text(events)
    # Along a row: a line running on the squares' sides crosses none of them, another passes through c1.
    st = state(acolyte_game({"warrior": "d1", "warrior2": "c1"}, downed=("warrior2",)))
    choices = R.line_choices(st, st.units["acolyte"], sq("d1"))
    assert choices == [("warrior2",), ()]


def test_a_shot_typed_without_a_line_takes_the_default_line_and_says_so():
    # Fewest squadmates first: the zealot is spared.
    game = acolyte_game({"warrior": "e2", "zealot": "c1"}, dice=[6, 6, 6])
    typed = game.parse("player1", "shoot acolyte warrior")
    assert typed.text == "shoot acolyte flame_projector warrior line:none"
    assert typed.label.endswith("(line hits no one else)")
    events = game.apply("player1", "shoot acolyte warrior")
    assert "Zealot 1" not in text(events) and "(line hits no one else)" in text(events)
    # Then most enemies: the Downed warrior on c2 is caught too.
    game = acolyte_game({"warrior": "e2", "zealot": "c1", "warrior2": "c2"}, downed=("warrior2",))
    assert game.parse("player1", "shoot acolyte warrior").args[3] == "line:warrior2"
    # A named line is taken whatever order or id starts are typed; the canonical text sorts the ids.
    named = game.parse("player1", "shoot acolyte warrior line:zealot+warrior2")
    assert named.text == "shoot acolyte flame_projector warrior line:warrior2+zealot"


def test_a_line_no_corner_line_draws_and_a_line_on_another_weapon_are_refused():
    game = acolyte_game({"warrior": "e2", "zealot": "c1", "warrior3": "e4"})
    with pytest.raises(IllegalCommand, match="hits exactly those units"):
        game.parse("player1", "shoot acolyte warrior line:warrior3")
    trooper = arena({"trooper": "e1", "gaunt": "e5"})
    trooper.apply("player1", "activate trooper")
    with pytest.raises(IllegalCommand, match="Only a Linear"):
        trooper.parse("player1", "shoot trooper assault_rifle gaunt line:none")


def test_the_game_s_own_players_spare_squadmates_and_the_listings_agree():
    game = acolyte_game({"warrior": "e2", "zealot": "c1"})
    st = state(game)
    spare, harm = shots(game)
    rs = game.ruleset
    assert not rs.endangers_own(st, "player1", spare) and rs.endangers_own(st, "player1", harm)
    w_spare, w_harm = rs.bot_weights(st, "player1", [spare, harm])
    assert w_spare > w_harm
    assert rs.hints(st, "player1").targets == (sq("e2"),)
    # The sampler's unchecked candidates hold one entry per line choice, checked as the full list is.
    legal = [c.text for c in A.legal(st, "player1")]
    assert [c.text for g in A.listing(st, "player1", unchecked=True) for c in g] == legal
    groups = A.listing(st, "player1")
    assert [A.pick(groups, i).text for i in range(len(legal))] == legal


def test_the_sampler_draws_each_line_choice_as_often_as_any_other_legal_command():
    game = acolyte_game({"warrior": "e2", "zealot": "c1", "warrior2": "c2"}, downed=("warrior2",))
    st = state(game)
    legal = [c.text for c in A.legal(st, "player1")]
    assert sum(t.startswith("shoot acolyte flame_projector warrior ") for t in legal) == 4
    picker = Picker(3)
    counts = Counter(
        c.text for c in (sampler.sample(st, "player1", picker) for _ in range(200 * len(legal))) if c
    )
    assert set(counts) == set(legal)
    assert all(0.7 * 200 < counts[t] < 1.3 * 200 for t in legal), counts
