"""Dark Realms doors: closed doors block movement and sight, heroes open them (free, standing next to them),
enemies and summons never do, The Blood Price, the generator's doors, the board, and the game's own player."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as stx

from bot.tap import entries
from engine import Game, load_game, new_game
from engine.core import Event
from engine.dice import Rng
from engine.errors import ContentError, IllegalCommand
from engine.geometry.square import cell_name
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import content
from engine.rulesets.cardcombat import present as P
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.content import RULES, connected, doorway, parse_action, scenarios
from engine.rulesets.cardcombat.generator import HEIGHT, generate
from engine.rulesets.cardcombat.policy import best_command
from engine.rulesets.cardcombat.ruleset import CardCombat
from engine.rulesets.cardcombat.state import CCState
from tests.random_play import play_random_game
from tests.test_cardcombat_audit import arena, foe, play

DOORWAY = [
    "##########",
    "#...#....#",
    "#...D....#",
    "#...#....#",
    "##########",
]
SIDE_GAP = [
    "##########",
    "#...#....#",
    "#...D....#",
    "#...#....#",
    "#........#",
    "##########",
]
TWO_DOORS = [
    "##########",
    "#...#....#",
    "#...D....#",
    "#...#....#",
    "#...D....#",
    "##########",
]
E3, E5 = cell_name((4, 2)), cell_name((4, 4))


def opens(st: CCState) -> list[str]:
    return [c.text for c in A.legal(st, "hero1") if c.verb == "open"]


# -- what a closed door does --------------------------------------------------------------------------------
def test_a_closed_door_blocks_movement_and_sight_until_it_is_opened() -> None:
    st, hero = arena([], DOORWAY)
    hero["pos"] = [3, 2]
    orc = foe(st, (6, 2))
    assert not R.sees(st, (3, 2), (6, 2))
    assert not A.target_options(st, hero, parse_action("ranged t2", "doors"))
    assert all(c[0] < 4 for c in R.hero_routes(st, hero, 9, 0))  # nobody walks through or onto it
    R.open_door(st, hero, (4, 2), [])
    assert R.char(st, (4, 2)) == R.OPEN_DOOR and not R.is_wall(st, (4, 2))
    assert R.sees(st, (3, 2), (6, 2))
    assert [c.args[1:] for c in A.target_options(st, hero, parse_action("ranged t2", "doors"))] == [("orc1",)]
    assert (4, 2) in R.hero_routes(st, hero, 1, 0)  # an open door is floor: a figure may stand in it
    assert orc["hp"] == 20


def test_a_hero_next_to_a_door_opens_it_for_free_and_keeps_its_move() -> None:
    st, hero = arena([2], DOORWAY)
    hero["pos"] = [3, 1]  # diagonal to the door: diagonals count
    foe(st, (8, 3))  # someone to fight, so the game goes on
    st.turn["queue"] = [["card", "charge", 0]]  # move +1, rolled: 2 + 1 = 3 squares
    A.settle(st, [])
    assert st.turn["allow"] == 3
    assert opens(st) == [f"open warrior {E3}"]
    assert (4, 2) in CardCombat().hints(st, "hero1").targets  # the door is marked on the board
    events = play(st, f"open warrior {E3}")
    assert any("opens the door" in e.text for e in events)
    assert R.closed_doors(st) == [] and st.turn["pool"] == 3  # no stamina
    assert A.current(st) is not None and A.current(st).kind == "move"  # type: ignore[union-attr]
    assert st.turn["allow"] == 3  # the card's squares are still there
    play(st, f"move warrior {cell_name((5, 2))}")  # through the doorway
    assert R.pos(hero) == (5, 2)


def test_opening_a_door_is_a_tap_in_the_menus_built_from_the_legal_commands() -> None:
    st, hero = arena([], DOORWAY)
    hero["pos"] = [3, 2]
    foe(st, (8, 3))
    commands = A.legal(st, "hero1")
    assert "open" in {c.verb for c in commands}
    wanted, path, seen = f"=open warrior {E3}", "", []
    for _ in range(4):  # follow the menus down to the command, at most a few taps
        menu = entries(commands, path)
        seen = [e.value for e in menu]
        if wanted in seen:
            break
        path = next(e.value[1:] for e in menu if e.value.startswith(">") and "open" in e.value)
    assert wanted in seen


def test_a_hero_away_from_the_door_cannot_open_it_and_nothing_changes() -> None:
    st, hero = arena([], DOORWAY)
    hero["pos"] = [1, 2]
    assert opens(st) == []
    before = (list(st.scenario["rows"]), st.turn["pool"])
    with pytest.raises(IllegalCommand, match="next to it"):
        A.check(st, "hero1", f"open warrior {E3}")
    assert (list(st.scenario["rows"]), st.turn["pool"]) == before


def test_opening_a_door_leaves_a_copy_that_shares_the_scenario_alone() -> None:
    st, hero = arena([], DOORWAY)
    hero["pos"] = [3, 2]
    shared = st.scenario
    R.open_door(st, hero, (4, 2), [])
    assert shared["rows"] == DOORWAY and R.closed_doors(st) == []


# -- enemies, summons and doors -------------------------------------------------------------------------------
def test_an_enemy_shut_away_by_a_door_waits_and_never_opens_it() -> None:
    st, hero = arena([], DOORWAY)
    hero["pos"] = [1, 2]
    orc = foe(st, (7, 2), move=9)
    events: list[Event] = []
    R.enemy_turn(st, orc, 0, events)  # orc card 0: melee
    assert R.pos(orc) == (7, 2) and R.closed_doors(st) == [(4, 2)]
    assert hero["hp"] == 20 and any("no one in reach" in e.text for e in events)


def test_an_enemy_walks_around_a_closed_door_through_an_open_gap() -> None:
    st, hero = arena([1], SIDE_GAP)  # its attack misses
    hero["pos"] = [2, 2]
    orc = foe(st, (7, 2), move=9)
    R.enemy_turn(st, orc, 0, [])
    assert R.chebyshev(R.pos(orc), R.pos(hero)) == 1
    assert [4, 4] in st.trail and [4, 2] not in st.trail and R.closed_doors(st) == [(4, 2)]


def test_summons_do_not_open_doors() -> None:
    st, hero = arena([], DOORWAY)
    hero["pos"] = [1, 1]
    st.figures["wolf1"] = R.make_summon(hero, "wolf", (3, 2), "wolf1")
    st.turn = {"fig": "wolf1", "queue": [], "pool": 0, "mods": {}, "allow": -1}
    assert opens(st) == []


# -- The Blood Price ----------------------------------------------------------------------------------------
def blood_price(hp: int, rule: bool = True) -> tuple[CCState, dict[str, Any]]:
    st, hero = arena([], TWO_DOORS)
    st.scenario["rules"] = ["the_blood_price"] if rule else []
    hero.update(pos=[3, 3], hp=hp, defence=2, shield=3)
    foe(st, (8, 1))  # someone to fight, so the game goes on
    hero["st"]["wound"] = "heal"
    return st, hero


def test_the_blood_price_takes_half_the_current_health_from_whoever_opens_the_last_door() -> None:
    st, hero = blood_price(15)
    play(st, f"open warrior {E3}")
    assert hero["hp"] == 15  # not the last door
    last = next(c for c in A.legal(st, "hero1") if c.verb == "open")
    assert "Blood Price, 7 health" in last.label
    events = play(st, f"open warrior {E5}")
    # half of 15, rounded down: no defence, shield or wound counts (it is no attack)
    assert hero["hp"] == 8
    assert any("The Blood Price" in e.text and "7" in e.text for e in events)


def test_the_blood_price_never_kills_and_is_only_paid_under_the_rule() -> None:
    st, hero = blood_price(1)
    play(st, f"open warrior {E3}")
    play(st, f"open warrior {E5}")
    assert hero["hp"] == 1  # half of 1, rounded down, is nothing
    st, hero = blood_price(15, rule=False)
    play(st, f"open warrior {E3}")
    play(st, f"open warrior {E5}")
    assert hero["hp"] == 15


# -- the generator -------------------------------------------------------------------------------------------
def test_the_generator_walls_the_heroes_off_with_one_or_two_doorways() -> None:
    kinds = set()
    for seed in range(40):
        rows = generate(Rng(seed=seed), 2)["rows"]
        doors = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "D"]
        assert 1 <= len(doors) <= 2
        col = doors[0][0]
        assert 4 <= col <= 6 and all(x == col for x, _y in doors)
        openings = [y for y in range(1, HEIGHT - 1) if rows[y][col] != "#"]
        assert len(openings) == 2 and abs(openings[0] - openings[1]) >= 3
        assert all(doorway(rows, x, y) for x, y in doors)
        assert connected(rows)  # every square can be reached once the doors are open
        kinds.add(len(doors))
    assert kinds == {1, 2}


def test_the_blood_price_is_in_the_generators_pool_and_drawn() -> None:
    assert "the_blood_price" in RULES
    drawn = [s for s in range(60) if "the_blood_price" in generate(Rng(seed=s), 2)["rules"]]
    assert drawn
    game = new_game("cardcombat", scenario="random", seats={"hero1": None}, seed=0)
    st: CCState = game.state  # type: ignore[assignment]
    assert R.closed_doors(st) and "The Blood Price" in game.ruleset.help_topics()["doors"]


def test_a_chest_behind_a_closed_door_counts_as_far_not_out_of_reach() -> None:
    st, hero = arena([], DOORWAY)
    hero["pos"] = [1, 2]
    st.scenario["objective"] = "treasure"
    A.place_chest(st, [])
    assert [p[0] for p in st.loot] == [8]  # beyond the door, as far as the heroes can go


# -- the authored vault ------------------------------------------------------------------------------------------
def test_the_sealed_vault_keeps_its_ogre_behind_the_last_door_and_it_costs_blood() -> None:
    game = new_game("cardcombat", scenario="vault", seats={"hero1": None, "hero2": None}, seed=1)
    st: CCState = game.state  # type: ignore[assignment]
    assert st.scenario["rules"] == ["the_blood_price"] and R.closed_doors(st) == [(5, 3), (10, 4)]
    ogre = next(f for f in st.figures.values() if f.get("boss"))
    hero = st.figures["warrior"]
    assert R.walking_distance(st, R.pos(hero), R.pos(ogre)) == 999  # shut away
    assert R.walking_distance(st, R.pos(hero), R.pos(ogre), through_doors=True) < 999
    st.phase = "turns"
    st.turn = {"fig": "warrior", "queue": [], "pool": 0, "mods": {}, "allow": -1}
    hero["pos"] = [4, 3]
    play(st, f"open warrior {cell_name((5, 3))}")
    hero.update(pos=[9, 4], hp=13)
    play(st, f"open warrior {cell_name((10, 4))}")
    assert hero["hp"] == 7 and R.closed_doors(st) == []


def test_an_authored_door_must_stand_in_a_doorway(monkeypatch: pytest.MonkeyPatch) -> None:
    vault = scenarios()["vault"]
    assert all(doorway(vault.rows, x, y) for x, y in [(5, 3), (10, 4)])
    rows = list(vault.rows)
    rows[2] = rows[2][:2] + "D" + rows[2][3:]  # a door in the middle of the start room
    assert not doorway(rows, 2, 2)
    monkeypatch.setattr(
        content, "SCENARIOS", (*content.SCENARIOS, replace(vault, id="bad", rows=tuple(rows)))
    )
    scenarios.cache_clear()
    try:
        with pytest.raises(ContentError, match="doorway"):
            scenarios()
    finally:
        scenarios.cache_clear()


# -- the board, the text board, the view ---------------------------------------------------------------------
def test_doors_show_on_the_board_text_and_view() -> None:
    st, hero = arena([], DOORWAY)
    hero["pos"] = [3, 2]
    sc = P.scene(st, "hero1")
    tile = next(t for t in sc.tiles if t.cell == (4, 2))
    assert (tile.fill, tile.mark) == (P.DOOR, "D")
    assert any("door" in meaning for _c, meaning in sc.panel.legend)
    assert P.view(st, None)["doors"] == [E3]
    assert "D" in P.text_board(st, None).splitlines()[3]
    R.open_door(st, hero, (4, 2), [])
    after = P.scene(st, "hero1")
    tile = next(t for t in after.tiles if t.cell == (4, 2))
    assert (tile.fill, tile.mark) == (P.OPEN_DOOR, "/")
    assert after.static_key != sc.static_key  # the board's fixed layer is drawn again
    assert P.view(st, None)["doors"] == []


# -- whole games ---------------------------------------------------------------------------------------------
def sealed_seed() -> int:
    """A generated map where both openings are doors (the enemies are shut away from the heroes)."""
    return next(s for s in range(50) if sum(r.count("D") for r in generate(Rng(seed=s), 2)["rows"]) == 2)


def test_the_game_s_own_heroes_open_doors_and_finish_and_the_game_replays() -> None:
    game = new_game("cardcombat", scenario="random", seats={"hero1": None, "hero2": None}, seed=sealed_seed())
    st: CCState = game.state  # type: ignore[assignment]
    assert len(R.closed_doors(st)) == 2
    opened = 0
    while game.outcome is None and len(game.log) < 3000:
        seat = sorted(game.seats_to_act())[0]
        cmd = best_command(st, seat)
        opened += cmd.verb == "open"
        game.apply(seat, cmd)
    assert game.outcome is not None and opened >= 1
    assert len(R.closed_doors(st)) == 2 - opened
    assert load_game(game.to_json()).to_json() == game.to_json()
    assert game.replay().to_json() == game.to_json()


def door_invariants() -> Callable[[Game], None]:
    """A check for random play: no figure on a closed door, doors only ever open, only heroes next to a
    door are offered to open it."""
    seen: list[set[tuple[int, int]]] = []

    def check(game: Game) -> None:
        st: CCState = game.state  # type: ignore[assignment]
        doors = set(R.closed_doors(st))
        assert not doors & {R.pos(f) for f in R.alive(st)}, "a figure stands on a closed door"
        assert not seen or doors <= seen[-1], "a door closed again"
        seen.append(doors)
        for seat in game.seats_to_act():
            for c in game.legal_commands(seat):
                if c.verb == "open":
                    f = st.figures[c.args[0]]
                    assert f["kind"] == "hero"
                    assert R.chebyshev(R.pos(f), R.parse_cell_for(st, c.args[1])) == 1

    return check


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=stx.integers(0, 10_000), heroes=stx.integers(1, 3))
def test_random_play_on_generated_maps_with_doors(seed: int, heroes: int) -> None:
    seats: dict[str, str | None] = {f"hero{i + 1}": None for i in range(heroes)}
    game = play_random_game(
        "cardcombat", seed, scenario="random", seats=seats, check=door_invariants(), max_commands=500
    )
    assert game.outcome is not None or len(game.log) == 500


def test_a_map_square_no_rule_reads_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    crypt = scenarios()["crypt"]
    rows = list(crypt.rows)
    rows[1] = rows[1][:5] + "A" + rows[1][6:]  # 'A' is no square of ours: it would silently be floor
    monkeypatch.setattr(
        content, "SCENARIOS", (*content.SCENARIOS, replace(crypt, id="bad", rows=tuple(rows)))
    )
    scenarios.cache_clear()
    try:
        with pytest.raises(ContentError, match="no rule reads: A"):
            scenarios()
    finally:
        scenarios.cache_clear()
