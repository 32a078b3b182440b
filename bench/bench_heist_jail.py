"""County Jail figures: how often uniform random play wins a jail heist, and how often in round 1.

A jail heist is meant to be a breakout; before the audit fix a crew could win it in round 1 by stepping
one hex in, back out and calling the escape. Each game is a 3-player crew of the game's pre-built
characters (nobody jailed) playing uniformly random legal commands, then the same with the heist policy
(the game's own players).

Usage: python bench/bench_heist_jail.py [--games 60] [--bot-games 10] [--max-commands 4000]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.rulesets.heist  # noqa: E402,F401
from engine import new_game  # noqa: E402

JAILS = ("county_jail_the_bricks", "county_jail_the_river", "county_jail_the_hole")
SEATS = {"p1": None, "p2": None, "p3": None}


def play(scenario: str, seed: int, max_commands: int, bots: bool) -> tuple[bool, int]:
    """One game, random or the heist policy: (won, the round it ended in); (False, 0) if unfinished."""
    game = new_game("heist", scenario=scenario, seats=dict(SEATS), seed=seed)
    pick = random.Random(seed)
    for _ in range(max_commands):
        if game.outcome is not None:
            return bool(game.outcome.winners), int(game.state.round)
        seat = pick.choice(sorted(game.seats_to_act()))
        game.apply(seat, game.bot_command(seat) if bots else pick.choice(game.legal_commands(seat)))
    return False, 0


def main() -> None:
    """Print wins and round-1 wins per jail heist."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--max-commands", type=int, default=4000)
    ap.add_argument("--bot-games", type=int, default=10, help="games played by the heist policy")
    args = ap.parse_args()
    for label, bots, games in (("random", False, args.games), ("policy", True, args.bot_games)):
        for scenario in JAILS:
            results = [play(scenario, seed, args.max_commands, bots) for seed in range(games)]
            won = sum(w for w, _ in results)
            first = sum(w and r == 1 for w, r in results)
            print(f"{label} {scenario}: {won}/{len(results)} won, {first} of them in round 1")


if __name__ == "__main__":
    main()
