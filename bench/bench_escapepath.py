"""Escape Path balance: the swarm's win rate with the game's own swarm player against three teams.

    python bench/bench_escapepath.py [--games 200] [--scenario ID] [--new-save]

Teams: ``random`` (a uniform pick among legal commands), ``greedy`` (shoots whatever it can, throws bombs
blindly, otherwise walks to the goal) and ``careful`` (the game's own team player). Prints, per scenario,
the swarm's wins out of the games played, the average game length, and games per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import RULESETS, new_game  # noqa: E402
from engine.ai.random_policy import Picker  # noqa: E402
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


def play(scenario: str, seed: int, team: str, new_save: bool) -> tuple[str, int]:
    """One game; returns (winner, commands played)."""
    rs = RULESETS["escapepath"]
    game = new_game(
        "escapepath", scenario=scenario, seed=seed, options={"new_save": "on" if new_save else "off"}
    )
    st: PathState = game.state  # type: ignore[assignment]
    picker = Picker(seed)
    n = 0
    while st.result is None and n < 5000:
        seat = rs.next_seat(st)
        assert seat is not None
        options = [c for c in rs.legal_commands(st, seat) if c.verb != "react"]
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
    args = ap.parse_args()
    ids = [args.scenario] if args.scenario else list(scenarios())
    print(f"{'scenario':<18} {'team':<8} swarm wins   team win %  avg commands  games/s")
    for sid in ids:
        for team in args.teams.split(","):
            t0 = time.perf_counter()
            wins = lengths = 0
            for seed in range(args.games):
                winner, n = play(sid, seed, team, args.new_save)
                wins += winner == "swarm"
                lengths += n
            dt = time.perf_counter() - t0
            g = args.games
            print(
                f"{sid:<18} {team:<8} {wins:>4}/{g:<6} {100 * (g - wins) / g:>9.1f}%  {lengths / g:>12.0f}  {g / dt:>7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
