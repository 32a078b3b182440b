"""Dark Realms balance and speed: the party's win rate per ready-made scenario with the game's players.

Players: ``greedy`` (the hero policy's best-weighted command each time, the best player the project has for
heroes until a search player exists) and ``policy`` (the game's own weighted-random pick, as bot seats play).
Enemies are always played by the engine. Prints, per scenario: games, party wins, win rate, mean rounds,
and commands per second.

Usage: python bench/bench_cardcombat.py [--games 40] [--heroes 2] [--player greedy] [--scenario ID]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import new_game  # noqa: E402
from engine.rulesets.cardcombat.content import scenarios  # noqa: E402
from engine.rulesets.cardcombat.policy import best_command  # noqa: E402


def play(scenario: str, seed: int, heroes: int, player: str) -> tuple[bool, int, int]:
    """One game; returns (party won, rounds played, commands)."""
    game = new_game(
        "cardcombat", scenario=scenario, seats={f"hero{i + 1}": None for i in range(heroes)}, seed=seed
    )
    n = 0
    while game.outcome is None and n < 5000:
        seat = sorted(game.seats_to_act())[0]
        cmd = best_command(game.state, seat) if player == "greedy" else game.bot_command(seat)
        game.apply(seat, cmd)
        n += 1
    out = game.outcome
    return bool(out and out.winners), int(game.state.round), n  # type: ignore[attr-defined]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--heroes", type=int, default=2)
    ap.add_argument("--player", choices=("greedy", "policy"), default="greedy")
    ap.add_argument("--scenario", default="")
    args = ap.parse_args()
    ids = [args.scenario] if args.scenario else list(scenarios())
    print(f"{args.heroes} heroes, player {args.player}, {args.games} games per scenario")
    print(f"{'scenario':<14} {'wins':>5} {'rate':>6} {'rounds':>7} {'cmd/s':>7}")
    for sid in ids:
        wins = rounds = cmds = 0
        t = time.perf_counter()
        for seed in range(args.games):
            won, r, n = play(sid, seed, args.heroes, args.player)
            wins += won
            rounds += r
            cmds += n
        dt = time.perf_counter() - t
        print(f"{sid:<14} {wins:>5} {wins / args.games:>6.0%} {rounds / args.games:>7.1f} {cmds / dt:>7.0f}")


if __name__ == "__main__":
    main()
