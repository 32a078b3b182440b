"""Skirm readings from the rulebook audit (issue 10, items 10-18), each with scripted dice."""

from __future__ import annotations

import pytest

from engine import IllegalCommand
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm.state import DOWNED
from tests.test_skirm_rules import arena, sq, state, text


def test_a_target_one_square_away_but_two_higher_is_not_adjacent_so_it_may_be_shot():
    # The trooper on the street at i3 and the gaunt on the 2-high roof at i4 are not adjacent: no melee,
    # but the ranged rule only asks that the target is "not adjacent".
    game = arena({"trooper": "i3", "gaunt": "i4"}, dice=[6, 6, 6])
    st = state(game)
    assert not B.adjacent(st, sq("i3"), sq("i4"))
    game.apply("player1", "activate trooper")
    with pytest.raises(IllegalCommand, match="not in an adjacent square"):
        game.apply("player1", "fight trooper combat_knife gaunt")
    assert "shoot trooper assault_rifle gaunt" in {c.text for c in game.legal_commands("player1")}
    events = game.apply("player1", "shoot trooper assault_rifle gaunt")
    assert "attacks Gaunt" in text(events)


def test_an_adjacent_target_is_refused_with_a_message_naming_adjacency():
    game = arena({"captain": "e5", "gaunt": "e6"}, states={"gaunt": DOWNED})
    game.apply("player1", "activate captain")
    with pytest.raises(IllegalCommand, match="adjacent.*'fight'"):
        game.apply("player1", "shoot captain bolt_pistol gaunt")
