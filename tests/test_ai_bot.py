"""The bot's search levels: /game join bot:True level:..., /game start level:..., thinking in workers."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.thinking import Thinker, think
from engine import new_game
from tests.harness import ALICE, Harness


async def test_join_bot_with_a_level_plays_that_level(harness: Harness) -> None:
    h = harness
    h.bot.games.thinker = Thinker(seconds=0.2, executor=ThreadPoolExecutor(1))
    await h.slash("game new", user=ALICE, ruleset="skirm")
    joined = await h.slash("game join", user=ALICE, seat="player2", bot=True, level="normal")
    assert "The game plays player2 (normal)" in joined.content
    refused = await h.slash("game join", user=ALICE, seat="player2", level="hard")
    assert refused.ephemeral and "bot:True" in refused.content
    started = await h.slash("game start", user=ALICE)
    assert not started.ephemeral
    row = await h.row()
    game = h.bot.games.load(row)
    assert game.bot_level("player2") == "normal" and game.bot_level("player1") == "easy"


async def test_start_with_a_level_gives_it_to_the_empty_seats(harness: Harness) -> None:
    h = harness
    h.bot.games.thinker = Thinker(seconds=0.2, executor=ThreadPoolExecutor(1))
    await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion")
    started = await h.slash("game start", user=ALICE, bot=True, level="hard")
    assert not started.ephemeral
    game = h.bot.games.load(await h.row())
    assert game.bot_level("isc") == "hard" and game.bot_level("resistance") == "easy"
    h.bot.games.thinker.close()


def test_think_in_a_worker_returns_a_legal_command_text() -> None:
    game = new_game(
        "escape", seed=2, seats={"resistance": None, "isc": None}, options={"bot_level": "normal"}
    )
    seat = game.next_bot_seat()
    assert seat is not None
    text = think(game.to_json(), seat, "normal", 0.3)
    assert text in {c.text for c in game.legal_commands(seat)}


def test_a_process_pool_thinker_answers_off_the_loop() -> None:
    game = new_game(
        "skirm", seed=3, seats={"player1": None, "player2": None}, options={"bot_level": "normal"}
    )
    seat = game.next_bot_seat()
    assert seat is not None
    thinker = Thinker(workers=1, seconds=0.2)
    try:
        command = asyncio.run(thinker.command(game, seat))
    finally:
        thinker.close()
    assert command.text in {c.text for c in game.legal_commands(seat)}


class _BrokenPool(ThreadPoolExecutor):
    def submit(self, *args: object, **kwargs: object):  # type: ignore[no-untyped-def, override]
        raise BrokenProcessPool("a worker died")


def test_a_broken_pool_falls_back_to_the_easy_level() -> None:
    game = new_game("escape", seed=2, seats={"resistance": None, "isc": None}, options={"bot_level": "hard"})
    seat = game.next_bot_seat()
    assert seat is not None
    thinker = Thinker(executor=_BrokenPool(1))
    command = asyncio.run(thinker.command(game, seat))
    assert command == game.bot_command(seat, level="easy")
