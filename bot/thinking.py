"""The game's own player thinks off the event loop: search levels run in a separate process.

A search decision takes up to about a second of CPU. Run on the event loop (or in a thread, holding the
interpreter lock) it would stall every other channel; so the game goes, as JSON, to a small process pool
whose workers run at a lower scheduling priority, and only the chosen command text comes back. The easy
level (a weighted pick, well under a millisecond) is played inline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from contextvars import ContextVar

from engine import Command, Game, load_game
from engine.ai.levels import DEFAULT_LEVEL, DEFAULT_SECONDS, LEVELS

log = logging.getLogger("escapade.thinking")

WORKER_NICENESS = 5  # workers yield the CPU to the bot's own process when both want it

# Who watches the game's own players think through a run of decisions, if anyone: called before each
# search-level decision with the seat about to think (worded, e.g. "🤖 p3, Jimmy (hard)") and what the
# game's own players played so far in this request (worded, hidden choices hidden). The reply layer sets it
# for the request it answers (:func:`bot.deadline.in_time`), so a long run shows its progress.
ProgressHook = Callable[[str, Sequence[str]], Awaitable[None]]
watcher: ContextVar[ProgressHook | None] = ContextVar("escapade_thinking_watcher", default=None)


def _lower_priority() -> None:
    with contextlib.suppress(OSError):  # not permitted here: run at the same priority
        os.nice(WORKER_NICENESS)


def think(game_json: str, seat: str, level: str, seconds: float) -> str:
    """In a worker: the command text the game's own player at ``level`` picks for ``seat``.

    Raises what :meth:`engine.Game.bot_command` raises (NotYourTurn, SetupError).
    """
    game = load_game(game_json)
    return game.bot_command(seat, level=level, clock=time.perf_counter, seconds=seconds).text


def default_workers() -> int:
    """One worker per core but one (at least one), so a core stays free for the event loop."""
    return max(1, (os.cpu_count() or 2) - 1)


class Thinker:
    """Chooses bot commands: inline for the easy level, in a process pool for the search levels."""

    def __init__(
        self, workers: int | None = None, seconds: float = DEFAULT_SECONDS, executor: Executor | None = None
    ) -> None:
        self.workers = workers or default_workers()
        self.seconds = seconds
        self._pool: Executor | None = executor  # None: a process pool, started on first use

    def _executor(self) -> Executor:
        if self._pool is None:
            # "spawn": a fresh interpreter, never a fork of the running event loop and its threads.
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        return self._pool

    async def command(self, game: Game, seat: str) -> Command:
        """The command the game's own player plays for ``seat`` now (awaits a worker for search levels).

        Raises NotYourTurn when ``seat`` has nothing to play, SetupError for an unknown level.
        """
        level = game.bot_level(seat)
        if LEVELS.get(level) is None:
            return game.bot_command(seat)
        loop = asyncio.get_running_loop()
        try:
            text = await loop.run_in_executor(
                self._executor(), think, game.to_json(), seat, level, self.seconds
            )
        except (BrokenExecutor, OSError):
            # A worker died (killed, out of memory): start a new pool next time, play the easy level now.
            log.exception("bot thinking failed for seat %s; playing the easy level instead", seat)
            self.close()
            return game.bot_command(seat, level=DEFAULT_LEVEL)
        return game.parse(seat, text)

    def close(self) -> None:
        """Stop the workers (idempotent)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
