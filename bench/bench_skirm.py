"""Skirm figures: median apply and legal_commands on a mid-game state, random self-play games per second,
and whole games played by the game's own policy (both seats bots).

Usage: python bench/bench_skirm.py [seconds]   (default 5 s of self-play)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_engine import median_legal_and_apply_ms  # noqa: E402  (this folder is on sys.path)

from engine import Game, new_game  # noqa: E402
from engine.ai.selfplay import fast_random_game  # noqa: E402


def mid_game(seed: int = 3) -> Game:
    """A game replayed from a random self-play log up to an activation in turn 2 or 3 with many options."""
    full = fast_random_game("skirm", seed)
    game = new_game("skirm", seed=seed, seats={"player1": None, "player2": None})
    for i, entry in enumerate(full.log):
        game.apply(entry.seat, entry.text)
        st = game.state
        if (
            i >= len(full.log) // 2
            and st.active  # type: ignore[attr-defined]
            and any(d.kind == "activation" for d in game.awaiting())
            and len(game.legal_commands(sorted(game.seats_to_act())[0])) > 15
        ):
            break
    return game


def main(seconds: float = 5.0) -> None:
    game = mid_game()
    seat = sorted(game.seats_to_act())[0]
    legal = game.legal_commands(seat)
    legal_ms, apply_ms = median_legal_and_apply_ms(game, seat)
    start = time.perf_counter()
    games = commands = 0
    while time.perf_counter() - start < seconds:
        g = fast_random_game("skirm", 1000 + games)
        games += 1
        commands += len(g.log)
    elapsed = time.perf_counter() - start
    start = time.perf_counter()
    bot_games = 0
    while time.perf_counter() - start < seconds / 2:
        g = new_game("skirm", seed=2000 + bot_games, seats={"player1": None, "player2": None})
        g.play_bots()
        bot_games += 1
    bot_elapsed = time.perf_counter() - start
    print(f"skirm: mid-game state (turn {game.state.turn}) with {len(legal)} legal commands for {seat}")  # type: ignore[attr-defined]
    print(f"  apply             median {apply_ms:.3f} ms")
    print(f"  legal_commands    median {legal_ms:.3f} ms")
    print(f"  random self-play  {games / elapsed:.1f} complete games/s, {commands / elapsed:.0f} commands/s, "
          f"{commands / games:.0f} commands/game")  # fmt: skip
    print(
        f"  policy self-play  {bot_games / bot_elapsed:.1f} complete games/s (both seats played by the bot)"
    )


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)
