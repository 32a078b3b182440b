"""Skirm rulebook audit, third pass: the discrepancies found and the readings recorded
(docs/rulings/skirm.md 50 on), played through the public commands with scripted dice."""

from __future__ import annotations

from engine.rulesets.skirm import board as B
from tests.test_skirm_rules import arena, sq, state, text

# -- ruling 50: tall terrain beside the target that hides part of it gives cover ----------------------------


def test_an_obelisk_or_high_wall_hiding_part_of_the_target_gives_cover():
    # Necropolis: the solid obelisk f6 stands on the north side of f7. From c4 it hides part of the gaunt
    # on f7 from every corner of c4, yet two lines still reach it: the gaunt is only partly visible.
    game = arena({"trooper": "c4", "gaunt": "f7"}, scenario="sabotage", dice=[1, 1, 6, 1])
    st = state(game)
    assert B.sees(st, sq("c4"), sq("f7")) and B.in_cover(st, sq("c4"), sq("f7"))
    # From a5 the obelisk clips only two of the sixteen corner lines: one corner of a5 sees the whole gaunt.
    assert B.sees(st, sq("a5"), sq("f7")) and not B.in_cover(st, sq("a5"), sq("f7"))
    # Assault rifle [1 1 6]: 2 strikes; cover saves one; the gaunt rolls a single save [1].
    game.apply("player1", "activate trooper")
    events = game.apply("player1", "shoot trooper assault_rifle gaunt")
    assert "1 automatic save (cover)" in text(events) and "rolls 1 save " in text(events)
    # Refinery: the high wall f5|g5 on the gaunt's west side hides part of it from c1, not from f3.
    st = state(arena({"captain": "c1", "gaunt": "g5"}, scenario="heist"))
    assert B.sees(st, sq("c1"), sq("g5")) and B.in_cover(st, sq("c1"), sq("g5"))
    assert B.sees(st, sq("f3"), sq("g5")) and not B.in_cover(st, sq("f3"), sq("g5"))


# -- ruling 51: a diagonal Leap squeezes between units no more than a diagonal step does -------------------


def leaps(game, seat: str) -> set[str]:
    return {c.args[1] for c in game.legal_commands(seat) if c.verb == "leap"}


def test_a_diagonal_leap_needs_both_side_squares_free_like_a_diagonal_step():
    # Skyborn (LP3) on c11; squadmates on c10 and d11 stand on both sides of the diagonal to d10.
    game = arena(
        {"skyborn": "c11", "zealot": "c10", "zealot2": "d11", "warrior": "l1"}, squads=("coven", "ankh")
    )
    game.apply("player1", "activate skyborn")
    assert "e9" not in leaps(game, "player1") and "d10" not in leaps(game, "player1")
    # One unit beside the diagonal is enough to stop it (the rulebook wants both side squares unoccupied).
    state(game).units["zealot2"].pos = sq("a12")
    assert "e9" not in leaps(game, "player1")
    # With both side squares free the unit leaps the diagonal, up to 3 squares.
    state(game).units["zealot"].pos = sq("a10")
    assert {"d10", "e9", "f8"} <= leaps(game, "player1")
    game.apply("player1", "leap skyborn f8")
    assert state(game).units["skyborn"].pos == sq("f8")
