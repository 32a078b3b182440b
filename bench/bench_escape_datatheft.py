"""ESCAPE Data theft under self-play: escapes, objective points carried out and results per game.

Two players: uniformly random legal commands (the engine's sampler), and the game's own bot (its weights).
Usage: PYTHONPATH=. python bench/bench_escape_datatheft.py [games] [scenario]
"""

from __future__ import annotations

import sys
from collections import Counter

from engine import new_game
from engine.ai.random_policy import Picker
from engine.game import Game, LogEntry


def random_game(scenario: str, seed: int, limit: int = 20_000) -> Game:
    """A whole game of uniformly random legal commands for both seats."""
    game = new_game("escape", scenario=scenario, seed=seed, seats={"resistance": None, "isc": None})
    rs, st, picker = game.ruleset, game.state, Picker(seed)
    for _ in range(limit):
        if rs.outcome(st) is not None:
            break
        seat = rs.next_seat(st)
        assert seat is not None
        command = rs.sample_command(st, seat, picker)
        assert command is not None
        rs.execute(st, seat, command)
        game.log.append(LogEntry(seat, command.text))
    return game


def bot_game(scenario: str, seed: int) -> Game:
    """A whole game played by the game's own bot on both seats."""
    game = new_game("escape", scenario=scenario, seed=seed, seats={"resistance": None, "isc": None})
    game.play_bots()
    return game


def report(label: str, games: list[Game]) -> None:
    """Print escapes, points and results per game."""
    n = len(games)
    escapes = sum(sum(u.status == "escaped" for u in g.state.units.values()) for g in games)
    points = sum(g.state.carried_points for g in games)
    results = Counter(
        ("draw" if g.outcome is None or not g.outcome.winners else next(iter(g.outcome.winners)))
        for g in games
    )
    empty = sum(
        sum(u.status == "escaped" for u in g.state.units.values()) > 0 and g.state.carried_points == 0
        for g in games
    )
    print(
        f"{label:<8} {n} games: escapes/game {escapes / n:.2f}, points/game {points / n:.2f}, "
        f"games with escapes but no points {empty}, results {dict(sorted(results.items()))}"
    )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    scenario = sys.argv[2] if len(sys.argv) > 2 else "datatheft"
    report("random", [random_game(scenario, seed) for seed in range(n)])
    report("own bot", [bot_game(scenario, seed) for seed in range(n)])


if __name__ == "__main__":
    main()
