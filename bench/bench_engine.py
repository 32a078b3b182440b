"""Engine figures: median apply and legal_commands on a mid-game state, random self-play games per second.

Self-play is measured two ways, each for ``seconds`` (default 5):
- generic: ``legal_commands`` listed, one picked uniformly, ``apply`` (parse + execute), as any caller would;
- sampler: the ruleset's ``sample_command`` (a uniform pick among the same legal commands, checked lazily)
  executed without parsing again, as ``fast_random_game`` does; only for rulesets that offer one.
Games/s is given by wall clock and by this process's CPU time (the machine's cores may be shared). The
sampler also plays the same 40 games five times and gives its best and median pass (:func:`fixed_passes`).

Usage: python bench/bench_engine.py [ruleset ...] [--seconds N]   (default: every registered ruleset, 5 s)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import RULESETS, Game, load_game, new_game  # noqa: E402
from engine.ai.random_policy import Picker  # noqa: E402
from engine.ai.selfplay import fast_random_game  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402


def mid_game(ruleset: str, seed: int = 3) -> Game:
    """A random game replayed to its second half, at an activation with more than 8 legal commands.

    Without such a state it stops one command before the end, so a seat still has a decision.
    """
    game = new_game(ruleset, seed=seed, seats={s: None for s in RULESETS[ruleset].seats})
    full = fast_random_game(ruleset, seed, use_sampler=False)
    for i, entry in enumerate(full.log[:-1]):
        game.apply(entry.seat, entry.text)
        if (
            i >= len(full.log) // 2
            and any(d.kind == "activation" for d in game.awaiting())
            and len(game.legal_commands(sorted(game.seats_to_act())[0])) > 8
        ):
            break
    return game


def has_sampler(ruleset: str) -> bool:
    """Whether the ruleset overrides :meth:`Ruleset.sample_command`."""
    return type(RULESETS[ruleset]).sample_command is not Ruleset.sample_command


def self_play(ruleset: str, *, use_sampler: bool, seconds: float) -> str:
    """Complete random games for ``seconds``: a line with games/s (wall and CPU) and commands per game."""
    start, cpu = time.perf_counter(), time.process_time()
    games = commands = 0
    while time.perf_counter() - start < seconds:
        g = fast_random_game(ruleset, 1000 + games, use_sampler=use_sampler)
        games += 1
        commands += len(g.log)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return (
        f"{games / wall:6.1f} games/s wall, {games / cpu:6.1f} games/s CPU, "
        f"{commands / wall:6.0f} commands/s, {commands / games:.0f} commands/game"
    )


def fixed_passes(ruleset: str, *, games: int = 40, passes: int = 5) -> str:
    """The same ``games`` sampler games (seeds 1000 on) played ``passes`` times: games/s of the best and the
    median pass by CPU time. The machine's speed swings by up to 2x from minute to minute (shared cores):
    the best pass, as ``timeit`` takes the best, is the figure least disturbed by other work."""
    rates = []
    for _ in range(passes):
        cpu = time.process_time()
        for n in range(games):
            fast_random_game(ruleset, 1000 + n)
        rates.append(games / (time.process_time() - cpu))
    return f"best pass {max(rates):6.1f} games/s CPU, median pass {statistics.median(rates):6.1f}"


def median_legal_and_apply_ms(game: Game, seat: str) -> tuple[float, float]:
    """Median ``legal_commands`` time for ``seat`` on ``game``, and median ``apply`` of its commands."""
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
    return legal_ms, statistics.median(apply_times) * 1000


def bench(ruleset: str, seconds: float) -> None:
    game = mid_game(ruleset)
    seat = sorted(game.seats_to_act())[0]
    legal = game.legal_commands(seat)
    legal_ms, apply_ms = median_legal_and_apply_ms(game, seat)
    print(f"{ruleset}: mid-game state with {len(legal)} legal commands for {seat}")
    print(f"  apply           median {apply_ms:.3f} ms   (target <= 0.3 ms)")
    print(f"  legal_commands  median {legal_ms:.3f} ms   (target <= 3 ms)")
    if has_sampler(ruleset):
        picker = Picker(1)
        sample_times = []
        for _ in range(300):
            t = time.perf_counter()
            game.ruleset.sample_command(game.state, seat, picker)
            sample_times.append(time.perf_counter() - t)
        print(f"  sample_command  median {statistics.median(sample_times) * 1000:.3f} ms")
    print("  random self-play (target >= 100 complete games/s):")
    print(
        f"    generic (legal_commands + apply):    {self_play(ruleset, use_sampler=False, seconds=seconds)}"
    )
    if has_sampler(ruleset):
        print(
            f"    sampler (sample_command + execute):  {self_play(ruleset, use_sampler=True, seconds=seconds)}"
        )
        print(f"    sampler, the same 40 games 5 times:  {fixed_passes(ruleset)}")


if __name__ == "__main__":
    args = sys.argv[1:]
    secs = 5.0
    if "--seconds" in args:
        i = args.index("--seconds")
        secs = float(args[i + 1])
        del args[i : i + 2]
    for rs in args or sorted(RULESETS):
        bench(rs, secs)
