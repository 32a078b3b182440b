"""The rulebook's worked examples, replayed with scripted dice."""

from __future__ import annotations

from engine.geometry.square import chebyshev, line_of_sight, parse_cell
from tests.escape_helpers import arena, state


def test_ashton_attacks_mamushi_three_times():
    # Ashton (Cbt 3) next to Mamushi (Cbt 2, life 6). Dice: attack 2 vs dodge 3; attack 4 vs dodge 2; attack 3.
    game = arena({"ashton": "e5", "mamushi": "f5"}, dice=[2, 3, 4, 2, 3])
    st = state(game)
    game.apply("resistance", "attack ashton mamushi")
    assert game.awaiting()[0].seats == {"isc"}
    events = game.apply("isc", "dodge")
    texts = " ".join(e.text for e in events)
    assert "2+3 vs 3+2" in texts and "no damage" in texts
    assert st.units["mamushi"].damage == 0

    game.apply("resistance", "attack ashton mamushi")
    events = game.apply("isc", "dodge")
    assert "4+3 vs 2+2" in " ".join(e.text for e in events)
    assert st.units["mamushi"].damage == 3

    # Mamushi has used both Combat actions: the third attack cannot be dodged and no question is asked.
    events = game.apply("resistance", "attack ashton mamushi")
    texts = " ".join(e.text for e in events)
    assert "3+3 vs 2 → 4 damage" in texts
    assert "Mamushi is taken out" in texts
    assert st.units["mamushi"].status == "out"


def test_jimmy_hacks_a_difficulty_seven_door_with_a_five():
    # The locked door between j7 and j8 (the Central room's north door) has difficulty 7.
    game = arena({"jimmy": "j7"}, dice=[5])
    st = state(game)
    events = game.apply("resistance", "hack jimmy j7|j8")
    assert "5+2=7 vs difficulty 7 → success" in " ".join(e.text for e in events)
    door = st.doors[(parse_cell("j7", 20, 20), parse_cell("j8", 20, 20))]
    assert door.open


def test_jimmy_hack_fails_with_a_four():
    game = arena({"jimmy": "j7"}, dice=[4])
    st = state(game)
    game.apply("resistance", "hack jimmy j7|j8")
    assert not st.doors[(parse_cell("j7", 20, 20), parse_cell("j8", 20, 20))].open


def test_distance_counts_the_target_square_not_the_start():
    a, b = parse_cell("c3", 20, 20), parse_cell("c6", 20, 20)
    assert chebyshev(a, b) == 3
    assert chebyshev(a, parse_cell("d4", 20, 20)) == 1  # the periphery is at distance 1
    assert chebyshev(a, a) == 0


def test_diagonal_line_of_sight_between_two_squares_needs_one_of_them_free():
    a, b = (0, 0), (1, 1)
    no_walls = lambda x, y: False  # noqa: E731
    assert line_of_sight(a, b, no_walls, lambda c: c == (1, 0))
    assert line_of_sight(a, b, no_walls, lambda c: c == (0, 1))
    assert not line_of_sight(a, b, no_walls, lambda c: c in {(1, 0), (0, 1)})


def test_line_of_sight_is_blocked_by_a_character_in_between_and_by_walls():
    no_walls = lambda x, y: False  # noqa: E731
    assert not line_of_sight((0, 0), (4, 0), no_walls, lambda c: c == (2, 0))
    assert line_of_sight((0, 0), (4, 0), no_walls, lambda c: c == (2, 1))
    wall = lambda x, y: {x, y} == {(1, 0), (2, 0)}  # noqa: E731
    assert not line_of_sight((0, 0), (4, 0), wall, lambda c: False)
