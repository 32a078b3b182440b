"""A mistyped verb or argument gets "did you mean …?" built from the legal commands (engine/game.py)."""

from __future__ import annotations

import pytest

from engine import IllegalCommand, UnknownCommand, new_game


def test_mistyped_verb_and_argument_get_a_suggestion() -> None:
    game = new_game("escape", seats={"resistance": None, "isc": None}, seed=1)
    with pytest.raises(UnknownCommand) as verb:
        game.parse("resistance", "crat a1")
    assert "Did you mean 'crate a1'?" in str(verb.value) and "Commands:" not in str(verb.value)
    with pytest.raises(IllegalCommand) as square:
        game.parse("resistance", "crate a1x")
    assert "Did you mean 'crate a1'?" in str(square.value)
    with pytest.raises(UnknownCommand) as garbage:  # nothing close: the rule's own message, unchanged
        game.parse("resistance", "xyzzy")
    assert "Did you mean" not in str(garbage.value) and "Commands:" in str(garbage.value)


def test_no_suggestion_the_rules_would_refuse_in_turn() -> None:
    game = new_game("escape", seats={"resistance": None, "isc": None}, seed=1)
    assert game.seats_to_act() == {"resistance"}
    # 'activate' is close enough to 'crate' for the spelling, but 'crate zz' is no command either.
    with pytest.raises(IllegalCommand) as refused:
        game.parse("resistance", "activate zz")
    assert "Did you mean" not in str(refused.value) and "crate <square>" in str(refused.value)


def test_pasted_text_far_longer_than_any_command_is_refused_without_being_echoed() -> None:
    game = new_game("escape", seats={"resistance": None, "isc": None}, seed=1)
    pasted = "é" * 300
    with pytest.raises(UnknownCommand) as long:
        game.parse("resistance", pasted)
    said = str(long.value)
    assert "é" not in said and "300 characters" in said and "like 'crate " in said and len(said) < 150
    with pytest.raises(IllegalCommand):  # a long tail after a real command still gets the rule's own answer
        game.parse("resistance", "crate a1 " + "x" * 80)
