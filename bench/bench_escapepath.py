"""Escape Path balance: the swarm's win rate with the game's own swarm player against three teams.

    python bench/bench_escapepath.py [--games 200] [--scenario ID] [--new-save]

    python bench/bench_escapepath.py --swarm normal --playouts 60 --teams careful --games 40

Teams: ``random`` (a uniform pick among legal commands), ``greedy`` (shoots whatever it can, throws bombs
blindly, otherwise walks to the goal) and ``careful`` (the game's own team player). The swarm is played by
``--swarm policy`` (the one-step policy, ``P.bot_weights``, the default) or the search player at
``--swarm normal|hard`` (``engine.ai.levels``; ``--playouts N`` replaces the level's playout count, the
rollout depth stays the level's). Prints, per scenario: games, swarm wins, the team's win rate, the mean
length in commands, games per second and the swarm's budget.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import RULESETS, new_game  # noqa: E402
from engine.ai.levels import level_budget, search_seed  # noqa: E402
from engine.ai.random_policy import Picker  # noqa: E402
from engine.ai.search import Budget, Searcher  # noqa: E402
from engine.core import Command  # noqa: E402
from engine.rulesets.escapepath import policy as P  # noqa: E402
from engine.rulesets.escapepath.content import scenarios  # noqa: E402
from engine.rulesets.escapepath.state import PathState  # noqa: E402


def _pick(picker: Picker, options: list[Command], weights: list[int] | None) -> Command:
    if weights is None or sum(weights) == 0:
        return options[picker.below(len(options))]
    n = picker.below(sum(weights))
    for c, w in zip(options, weights, strict=True):
        if n < w:
            return c
        n -= w
    return options[-1]


def play(
    scenario: str, seed: int, team: str, new_save: bool, budget: Budget | None = None
) -> tuple[str, int]:
    """One game; returns (winner, commands played). ``budget``: the swarm's search budget (None: the
    one-step policy)."""
    rs = RULESETS["escapepath"]
    game = new_game(
        "escapepath", scenario=scenario, seed=seed, options={"new_save": "on" if new_save else "off"}
    )
    st: PathState = game.state  # type: ignore[assignment]
    picker = Picker(seed)
    searcher = Searcher(rs, budget) if budget is not None else None
    n = 0
    while st.result is None and n < 5000:
        seat = rs.next_seat(st)
        assert seat is not None
        options = [c for c in rs.legal_commands(st, seat) if c.verb != "react"]
        if seat == "swarm" and searcher is not None:
            pick = searcher.choose(st, seat, seed=search_seed(seed, n, seat), options=options).command
            rs.execute(st, seat, pick)
            n += 1
            continue
        if seat == "swarm":
            weights: list[int] | None = P.bot_weights(st, seat, options)
        elif team == "random":
            weights = None
        else:
            weights = P.to_weights(P.team_scores(st, options, careful=team == "careful"))
        rs.execute(st, seat, _pick(picker, options, weights))
        n += 1
    assert st.result is not None
    return min(st.result.winners), n


def main() -> None:
    """Print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--teams", default="random,greedy,careful")
    ap.add_argument("--new-save", action="store_true")
    ap.add_argument("--swarm", choices=("policy", "normal", "hard"), default="policy")
    ap.add_argument("--playouts", type=int, default=0, help="search playouts per decision (0: the level's)")
    ap.add_argument("--progress", action="store_true", help="a running tally on stderr after each game")
    ap.add_argument("--seed0", type=int, default=0, help="first seed")
    args = ap.parse_args()
    ids = [args.scenario] if args.scenario else list(scenarios())
    budget = None if args.swarm == "policy" else level_budget(args.swarm, "escapepath", args.playouts or None)
    label = (
        "one-step policy"
        if budget is None
        else f"{args.swarm}: {budget.playouts} playouts, depth {budget.depth}"
    )
    print(f"swarm player: {label}; seeds {args.seed0}-{args.seed0 + args.games - 1}")
    print(f"{'scenario':<18} {'team':<8} swarm wins   team win %  avg commands  games/s")
    for sid in ids:
        for team in args.teams.split(","):
            t0 = time.perf_counter()
            wins = lengths = 0
            for seed in range(args.seed0, args.seed0 + args.games):
                winner, n = play(sid, seed, team, args.new_save, budget)
                wins += winner == "swarm"
                lengths += n
                if args.progress:
                    k = seed - args.seed0 + 1
                    tally = f"team wins {k - wins}/{k}, mean length {lengths / k:.0f}"
                    print(f"  {sid} {team} game {k}: {tally}", file=sys.stderr, flush=True)
            dt = time.perf_counter() - t0
            g = args.games
            print(
                f"{sid:<18} {team:<8} {wins:>4}/{g:<6} {100 * (g - wins) / g:>9.1f}%  {lengths / g:>12.0f}  {g / dt:>7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
