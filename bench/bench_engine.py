"""Engine figures: median apply and legal_commands on a mid-game state, random self-play games per second.

Usage: python bench/bench_engine.py [ruleset ...]   (default: every registered ruleset)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import RULESETS, Game, load_game, new_game  # noqa: E402
from engine.ai.random_policy import fast_random_game  # noqa: E402


def mid_game(ruleset: str, seed: int = 3) -> Game:
    """A game played by the seeded policy until about half its usual length (or activation mid-turn)."""
    game = new_game(ruleset, seed=seed, seats={s: None for s in RULESETS[ruleset].seats})
    full = fast_random_game(ruleset, seed)
    for i, entry in enumerate(full.log):
        game.apply(entry.seat, entry.text)
        if (
            i >= len(full.log) // 2
            and any(d.kind == "activation" for d in game.awaiting())
            and len(game.legal_commands(sorted(game.seats_to_act())[0])) > 8
        ):
            break
    return game


def bench(ruleset: str) -> None:
    game = mid_game(ruleset)
    seat = sorted(game.seats_to_act())[0]
    legal = game.legal_commands(seat)
    times = []
    for _ in range(300):
        t = time.perf_counter()
        game.legal_commands(seat)
        times.append(time.perf_counter() - t)
    legal_ms = statistics.median(times) * 1000
    snapshot = game.to_json()
    apply_times = []
    for i in range(300):
        g = load_game(snapshot)
        cmd = legal[i % len(legal)]
        t = time.perf_counter()
        g.apply(seat, cmd.text)
        apply_times.append(time.perf_counter() - t)
    apply_ms = statistics.median(apply_times) * 1000
    start = time.perf_counter()
    games = commands = 0
    while time.perf_counter() - start < 5.0:
        g = fast_random_game(ruleset, 1000 + games)
        games += 1
        commands += len(g.log)
    elapsed = time.perf_counter() - start
    print(f"{ruleset}: mid-game state with {len(legal)} legal commands for {seat}")
    print(f"  apply           median {apply_ms:.3f} ms   (target <= 0.3 ms)")
    print(f"  legal_commands  median {legal_ms:.3f} ms   (target <= 3 ms)")
    print(f"  random self-play {games / elapsed:.1f} complete games/s, {commands / elapsed:.0f} commands/s, "
          f"{commands / games:.0f} commands/game   (target >= 100 games/s)")  # fmt: skip


if __name__ == "__main__":
    for rs in sys.argv[1:] or sorted(RULESETS):
        bench(rs)
