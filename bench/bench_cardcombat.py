"""Dark Realms balance and speed: the party's win rate per ready-made scenario with the game's players.

Players: ``greedy`` (the hero policy's best-weighted command each time), ``policy`` (the game's own
weighted-random pick, the easy level bot seats play) and ``normal`` / ``hard`` (the search player,
``engine.ai.levels``; ``--playouts N`` replaces the level's playout count, the rollout depth stays the
level's). Enemies are always played by the engine. Prints, per scenario: games, party wins, win rate, mean
rounds, and commands per second, and the budget used.

Usage: python bench/bench_cardcombat.py [--games 40] [--heroes 2] [--player greedy|policy|normal|hard]
       [--playouts N] [--scenario ID] [--seed0 S]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import new_game  # noqa: E402
from engine.ai.levels import level_budget, search_seed  # noqa: E402
from engine.ai.search import Budget, Searcher  # noqa: E402
from engine.rulesets.cardcombat.content import scenarios  # noqa: E402
from engine.rulesets.cardcombat.policy import best_command  # noqa: E402


def play(
    scenario: str, seed: int, heroes: int, player: str, budget: Budget | None = None
) -> tuple[bool, int, int]:
    """One game; returns (party won, rounds played, commands). ``budget``: the heroes' search budget
    (used when ``player`` is a search level)."""
    game = new_game(
        "cardcombat", scenario=scenario, seats={f"hero{i + 1}": None for i in range(heroes)}, seed=seed
    )
    searcher = Searcher(game.ruleset, budget) if budget is not None else None
    n = 0
    while game.outcome is None and n < 5000:
        seat = sorted(game.seats_to_act())[0]
        if searcher is not None:
            seed_n = search_seed(game.seed, len(game.log), seat)
            cmd = searcher.choose(game.state, seat, seed=seed_n, options=game.legal_commands(seat)).command
        elif player == "greedy":
            cmd = best_command(game.state, seat)
        else:
            cmd = game.bot_command(seat, level="easy")
        game.apply(seat, cmd)
        n += 1
    out = game.outcome
    return bool(out and out.winners), int(game.state.round), n  # type: ignore[attr-defined]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--heroes", type=int, default=2)
    ap.add_argument("--player", choices=("greedy", "policy", "normal", "hard"), default="greedy")
    ap.add_argument("--playouts", type=int, default=0, help="search playouts per decision (0: the level's)")
    ap.add_argument("--scenario", default="")
    ap.add_argument("--progress", action="store_true", help="a running tally on stderr after each game")
    ap.add_argument("--seed0", type=int, default=0, help="first seed")
    args = ap.parse_args()
    ids = [args.scenario] if args.scenario else list(scenarios())
    budget = None
    if args.player in ("normal", "hard"):
        budget = level_budget(args.player, "cardcombat", args.playouts or None)
    label = f", {budget.playouts} playouts, depth {budget.depth}" if budget else ""
    seeds = f"seeds {args.seed0}-{args.seed0 + args.games - 1}"
    print(f"{args.heroes} heroes, player {args.player}{label}, {args.games} games per scenario, {seeds}")
    print(f"{'scenario':<14} {'wins':>5} {'rate':>6} {'rounds':>7} {'cmd/s':>7}")
    for sid in ids:
        wins = rounds = cmds = 0
        t = time.perf_counter()
        for seed in range(args.seed0, args.seed0 + args.games):
            won, r, n = play(sid, seed, args.heroes, args.player, budget)
            wins += won
            rounds += r
            cmds += n
            if args.progress:
                k = seed - args.seed0 + 1
                tally = f"wins {wins}/{k}, mean rounds {rounds / k:.1f}"
                print(f"  {sid} game {k}: {tally}", file=sys.stderr, flush=True)
        dt = time.perf_counter() - t
        print(f"{sid:<14} {wins:>5} {wins / args.games:>6.0%} {rounds / args.games:>7.1f} {cmds / dt:>7.0f}")


if __name__ == "__main__":
    main()
