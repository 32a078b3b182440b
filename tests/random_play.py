"""Shared property checks for any ruleset: random legal play, JSON round-trips, replay equality.

Use :func:`play_random_game` from a ruleset's tests with its own invariant checker.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from typing import Any

from engine import Game, RuleError, load_game, new_game

GARBAGE = [
    "",
    "   ",
    "xyzzy",
    "move",
    "attack nobody nothing",
    "end end end",
    "💥",
    "a1 a1 a1",
    "hack door:z99",
]


def pick(seed: int, n: int, salt: str) -> int:
    """A deterministic index in 0..n-1 for test choices."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{salt}".encode()).digest()[:8], "big") % n


def play_random_game(
    ruleset: str,
    seed: int,
    *,
    scenario: str | None = None,
    seats: dict[str, str | None] | None = None,
    options: dict[str, Any] | None = None,
    max_commands: int = 3000,
    check: Callable[[Game], None] | None = None,
    garbage_every: int = 25,
    roundtrip_every: int = 40,
) -> Game:
    """Play random legal commands until the game ends (or ``max_commands``), checking as it goes.

    Checks: only RuleError escapes for garbage text and garbage changes nothing; every chosen legal
    command applies; ``check(game)`` holds after each command; JSON round-trips; and at the end a replay
    of the log gives identical JSON. Returns the finished game.
    """
    game = new_game(ruleset, scenario=scenario, seats=seats, seed=seed, options=options)
    for step in range(max_commands):
        if game.outcome is not None:
            break
        decisions = game.awaiting()
        assert decisions, "a running game must have an open decision"
        seats_now = sorted({s for d in decisions for s in d.seats})
        seat = seats_now[pick(seed, len(seats_now), f"seat{step}")]
        legal = game.legal_commands(seat)
        assert legal, f"{seat} is awaited but has no legal command"
        if step % garbage_every == 0:
            before = game.to_json()
            text = GARBAGE[pick(seed, len(GARBAGE), f"g{step}")]
            try:
                game.apply(seat, text)
            except RuleError:
                pass
            else:
                raise AssertionError(f"garbage {text!r} was accepted")
            assert game.to_json() == before, "a refused command changed the game"
        command = legal[pick(seed, len(legal), f"c{step}")]
        game.apply(seat, command.text)
        if check is not None:
            check(game)
        if step % roundtrip_every == 0:
            assert load_game(game.to_json()).to_json() == game.to_json()
    assert load_game(game.to_json()).to_json() == game.to_json()
    assert game.replay().to_json() == game.to_json(), "replaying the log gave a different state"
    return game


def assert_refused_text_changes_nothing(game: Game, text: str) -> None:
    """For every seat: ``text`` either is a legal command or is refused with a RuleError, changing nothing."""
    before = game.to_json()
    for seat in game.seats:
        if " ".join(text.lower().split()) in {c.text for c in game.legal_commands(seat)}:
            continue
        with contextlib.suppress(RuleError):
            game.apply(seat, text)
        assert game.to_json() == before, f"{text!r} for {seat} changed the game"
