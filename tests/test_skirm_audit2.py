"""Skirm rulebook audit, second pass: the discrepancies found and the readings recorded
(docs/rulings/skirm.md 48-49), with scripted dice."""

from __future__ import annotations

import dataclasses

import pytest

from engine import SetupError
from engine.rulesets.skirm.content import factions
from engine.rulesets.skirm.squads import check_squad
from engine.rulesets.skirm.state import DOWNED, STANDING
from tests.test_skirm_rules import arena, sq, state, text

# -- squad building --------------------------------------------------------------------------------------


def test_a_unit_whose_name_ends_with_an_asterisk_may_be_fielded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The book's asterisk rule covers every item of gear, units included ("when selecting units, weapons,
    # skills, and equipment"); no shipped unit has such a name, so one is renamed for the test.
    units = factions()["shock"].units
    starred = dataclasses.replace(units["trooper"], name="Shock Trooper*")
    monkeypatch.setitem(units, "trooper", starred)
    with pytest.raises(SetupError, match=r"Shock Trooper\* may appear only once"):
        check_squad({"faction": "shock", "units": [{"type": "trooper"}, {"type": "trooper"}]})
    check_squad({"faction": "shock", "units": [{"type": "trooper"}, {"type": "breacher"}]})
    assert starred.once and not units["breacher"].once and units["captain"].once  # the Captain: UNQ


# -- ruling 48: Tenacious goes with the unit that rolls ----------------------------------------------------


def test_tenacious_goes_with_the_unit_that_rolls_the_recover() -> None:
    # A Tenacious Revenant Warrior (ARM 4) helps the Downed Overlord: its failed 6 is re-rolled (TEN) -> 2.
    game = arena(
        {"warrior": "e5", "overlord": "e6", "witch": "l12"},
        squads=("coven", "ankh"),
        side="player2",
        states={"overlord": DOWNED},
        dice=[6, 2],
    )
    game.apply("player2", "activate warrior")
    events = game.apply("player2", "recover warrior overlord")
    assert "TEN re-roll → 2" in text(events) and state(game).units["overlord"].state == STANDING
    # The Overlord (no TEN) helps a Downed Tenacious Warrior: its 6 stands; the Warrior does not roll.
    game = arena(
        {"overlord": "e5", "warrior": "e6", "witch": "l12"},
        squads=("coven", "ankh"),
        side="player2",
        states={"warrior": DOWNED},
        dice=[6, 2],
    )
    game.apply("player2", "activate overlord")
    events = game.apply("player2", "recover overlord warrior")
    assert "TEN" not in text(events) and state(game).units["warrior"].state == DOWNED
    assert state(game).rng.script == [2]


# -- ruling 49: the Downed limit follows the unit's state during the activation ------------------------------


def test_a_unit_that_stands_up_in_its_activation_may_use_the_rest_of_its_act() -> None:
    # Shock Trooper (ACT 2, ARM 4), Downed: Recover 3 -> Standing, then a Move with the ACT left.
    game = arena({"trooper": "c11", "gaunt": "l1"}, states={"trooper": DOWNED}, dice=[3])
    game.apply("player1", "activate trooper")
    game.apply("player1", "recover trooper trooper")
    assert state(game).units["trooper"].state == STANDING
    verbs = {c.verb for c in game.legal_commands("player1")}
    assert {"move", "dash"} <= verbs and "crawl" not in verbs
    game.apply("player1", "move trooper f11")
    assert state(game).units["trooper"].pos == sq("f11")


def test_a_unit_downed_in_its_activation_may_only_recover_or_crawl_with_the_rest() -> None:
    # Gaunt claws [6] miss the Zealot, whose counter (glaive [1 1], saves [6 6 6 6]) Downs the Gaunt.
    game = arena(
        {"zealot": "e1", "gaunt": "f1"}, squads=("coven", "swarm"), side="player2", dice=[6, 1, 1, 6, 6, 6, 6]
    )
    game.apply("player2", "activate gaunt")
    game.apply("player2", "fight gaunt claws zealot")
    st = state(game)
    assert st.units["gaunt"].state == DOWNED and st.active == "gaunt"
    verbs = {c.verb for c in game.legal_commands("player2")}
    assert verbs <= {"end", "crawl", "recover"} and "recover" in verbs
