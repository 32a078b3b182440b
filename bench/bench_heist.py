"""Heist engine figures: median apply and legal_commands on a mid-heist state, self-play games per second.

The mid-heist state is a 4-player Inclusion Job played by the game's own policy into the Action phase of
round 3, with one player still to choose an action. Self-play is measured twice: uniform random legal
commands (``fast_random_game``) and the heist policy (``play_bots``).

Usage: python bench/bench_heist.py [--scenario ID] [--seconds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.rulesets.heist  # noqa: E402,F401
from engine import Game, load_game, new_game  # noqa: E402
from engine.ai.selfplay import fast_random_game  # noqa: E402

SEATS = {"p1": None, "p2": None, "p3": None, "p4": None}


def mid_heist(scenario: str, seed: int = 3) -> Game:
    """A heist played by the policy until round 3's Action phase (or as far as it gets)."""
    game = new_game("heist", scenario=scenario, seats=dict(SEATS), seed=seed)
    while game.outcome is None:
        st = game.state
        if (
            st.phase == "action"
            and st.round >= 3
            and any(not p.action for p in st.players.values() if p.status == "in")
        ):
            break
        seat = sorted(game.seats_to_act())[0]
        game.apply(seat, game.bot_command(seat))
    return game


def median_ms(fn, n: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", default="the_inclusion_job")
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    game = mid_heist(args.scenario)
    st = game.state
    seat = next(p.seat for p in st.players.values() if p.status == "in" and not p.action)
    legal = game.legal_commands(seat)
    legal_ms = median_ms(lambda: game.legal_commands(seat), 300)
    snapshot = game.to_json()
    apply_times = []
    for i in range(300):
        g = load_game(snapshot)
        cmd = legal[i % len(legal)]
        t = time.perf_counter()
        g.apply(seat, cmd.text)
        apply_times.append(time.perf_counter() - t)
    apply_ms = statistics.median(apply_times) * 1000
    # A sub-action in the middle of an action (a move or whatever the policy picks after committing).
    g = load_game(snapshot)
    g.apply(seat, game.bot_command(seat))
    sub_legal = g.legal_commands(seat)
    sub_ms = median_ms(lambda: g.legal_commands(seat), 300)
    print(
        f"heist/{args.scenario}: round {st.round}, noise {st.noise}, {len(legal)} legal commands for {seat}"
    )
    print(f"  legal_commands (choosing an action): median {legal_ms:.3f} ms")
    print(f"  legal_commands (mid-action, {len(sub_legal)} commands): median {sub_ms:.3f} ms")
    print(f"  apply (any legal command, incl. undo snapshot): median {apply_ms:.3f} ms")
    print(f"  JSON state size: {len(snapshot)} bytes")
    for label, play in (("random", lambda s: fast_random_game("heist", s)), ("policy", policy_game)):
        start = time.perf_counter()
        games = commands = 0
        while time.perf_counter() - start < args.seconds:
            played = play(1000 + games)
            games += 1
            commands += len(played.log)
        elapsed = time.perf_counter() - start
        print(f"  self-play ({label}): {games / elapsed:.1f} games/s, {commands / elapsed:.0f} commands/s, "
              f"{commands / max(1, games):.0f} commands/game")  # fmt: skip


def policy_game(seed: int) -> Game:
    game = new_game("heist", seed=seed, seats=dict(SEATS))
    game.play_bots(limit=5000)
    return game


if __name__ == "__main__":
    main()
