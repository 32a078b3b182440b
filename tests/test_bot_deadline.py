"""Discord's 3-second deadline: a command that hands the turn to seats the game plays at a search level
waits for their thinking, so the bot acknowledges the interaction before the deadline and answers after.

The harness refuses a first answer that comes later than ``response_deadline`` after the interaction, as
Discord does (404, "Unknown interaction"), and gives the first message after a "thinking" placeholder
the placeholder's visibility, as Discord does. Thinking is slowed down here (each decision waits
``SLOW`` seconds in its worker) and the deadline shortened, so that the tests take a few seconds each.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from bot import deadline, render
from bot.errors import Refusal
from bot.thinking import Thinker
from engine import load_game
from tests.harness import ALICE, CAROL, Harness, Reply

SLOW = 1.0  # seconds each search decision takes
DEADLINE = 0.6  # the harness's deadline while a test's key interaction runs (Discord: 3 s); margin both ways
ISC_FIRST = 2  # a game seed whose setup roll has the I.S.C. place first


class SlowPool(ThreadPoolExecutor):
    """A thread pool whose every task first waits :data:`SLOW` seconds; counts the tasks."""

    def __init__(self) -> None:
        super().__init__(1)
        self.calls = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.calls += 1

        def slow() -> Any:
            time.sleep(SLOW)
            return fn(*args, **kwargs)

        return super().submit(slow)


def own(h: Harness, reply: Reply) -> list[Reply]:
    """Every captured call answering ``reply``'s interaction."""
    return [r for r in h.replies if r.interaction_id == reply.interaction_id]


async def hard_escape(h: Harness, pool: SlowPool) -> None:
    """Alice plays the Resistance against the game's hard I.S.C., which thinks slowly."""
    h.bot.games.thinker = Thinker(seconds=0.05, executor=pool)
    await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion")
    await h.slash("game start", user=ALICE, bot=True, level="hard")


async def play_until_the_bot_thinks(h: Harness, pool: SlowPool) -> Reply:
    """Alice plays her own player's choices with /do until one of them hands the turn to the I.S.C.;
    returns the answer to that command. The deadline is short only for these commands."""
    for _ in range(60):
        game = load_game((await h.row()).snapshot)
        text = game.bot_command("resistance", level="easy").text
        h.response_deadline = DEADLINE
        reply = await h.slash("do", user=ALICE, command=text)
        h.response_deadline = 3.0
        if pool.calls:
            return reply
    raise AssertionError("the I.S.C. never had to think")


async def test_a_slow_bot_answer_is_acknowledged_in_time_then_told_privately_beside_the_edited_turn(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    monkeypatch.setattr(deadline, "DEFER_AFTER", 0.02)
    pool = SlowPool()
    await hard_escape(h, pool)
    reply = await play_until_the_bot_thinks(h, pool)
    calls = own(h, reply)
    # Alice is not pinged (it is her move again, and she just acted): the turn message is edited, so the
    # public placeholder goes and the private acknowledgement takes its place.
    assert [(r.kind, r.type) for r in calls] == [
        ("callback", 5),
        ("delete_original", None),
        ("followup", None),
    ]
    assert reply.ephemeral and reply.content.startswith("✅ Played `")
    log = load_game((await h.row()).snapshot).log
    run = max(i for i, e in enumerate(log) if e.seat == "resistance") + 1  # the I.S.C.'s answer begins
    assert log[-1].seat == "isc" and f"🤖 isc** `{log[run].text}`" in h.shown().text
    pool.shutdown()


async def test_without_the_acknowledgement_the_harness_refuses_the_late_answer_as_discord_would(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    monkeypatch.setattr(deadline, "DEFER_AFTER", 60.0)  # never acknowledge early
    pool = SlowPool()
    await hard_escape(h, pool)
    reply = await play_until_the_bot_thinks(h, pool)
    calls = own(h, reply)
    assert calls and calls[0].kind == "refused", calls  # Discord: 404 Unknown interaction
    assert not [r for r in calls if r.kind in ("callback", "followup")]
    pool.shutdown()


@pytest.mark.parametrize("tapped", [False, True], ids=["typed", "tapped"])
async def test_a_slow_start_shows_the_placeholder_then_the_first_board_in_its_place(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, tapped: bool
) -> None:
    h = harness
    monkeypatch.setattr(deadline, "DEFER_AFTER", 0.02)
    pool = SlowPool()
    h.bot.games.thinker = Thinker(seconds=0.05, executor=pool)
    await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion")
    gid = (await h.row()).id
    if tapped:
        await h.select(f"esc:bots:{gid}", ["hard"], user=ALICE)
    h.bot.games.new_seed = itertools.count(ISC_FIRST).__next__
    h.response_deadline = DEADLINE
    if tapped:  # the lobby's Start button
        started = await h.click(f"esc:start:{gid}", user=ALICE)
    else:
        started = await h.slash("game start", user=ALICE, bot=True, level="hard")
    assert pool.calls, "the I.S.C. had nothing to think about at the start"
    calls = own(h, started)
    assert [(r.kind, r.type) for r in calls] == [("callback", 5), ("followup", None)]
    assert started.kind == "followup" and not started.ephemeral and started.files  # the first board
    assert started.message_id == calls[0].message_id  # the placeholder became the turn message
    assert h.shown().message_id == started.message_id
    pool.shutdown()


async def test_a_refusal_after_the_placeholder_is_private(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    monkeypatch.setattr(deadline, "DEFER_AFTER", 0.02)
    await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion")
    await h.slash("game start", user=ALICE, bot=True)

    async def slow_refusal(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.1)
        raise Refusal("The channel's game moved on while you were choosing; nothing was changed.")

    monkeypatch.setattr(h.bot.games, "play", slow_refusal)
    row = await h.row()
    text = load_game(row.snapshot).bot_command("resistance", level="easy").text  # passes the rules' check
    h.response_deadline = DEADLINE
    reply = await h.slash("do", user=ALICE, command=text)
    calls = own(h, reply)
    assert [r.kind for r in calls] == ["callback", "delete_original", "followup"], calls
    assert reply.ephemeral and "moved on" in reply.content  # private, not in the public placeholder's place
    assert (await h.row()).version == row.version


async def test_a_slow_press_on_the_turn_message_leaves_only_the_edited_turn_message(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    monkeypatch.setattr(deadline, "DEFER_AFTER", 0.02)
    pool = SlowPool()
    await hard_escape(h, pool)  # the Resistance places first: "Place for me" is on the turn message
    turn = h.shown()
    auto = next(c for c in turn.custom_ids if c.startswith("esc:auto:"))
    h.response_deadline = DEADLINE
    pressed = await h.click(auto, user=ALICE)
    assert pool.calls, "the I.S.C. had nothing to think about"
    calls = own(h, pressed)
    assert [(r.kind, r.type) for r in calls] == [("callback", 5), ("delete_original", None)], calls
    assert h.shown().message_id == turn.message_id  # the same turn message, edited
    log = load_game((await h.row()).snapshot).log
    assert [e.seat for e in log[-2:]] == ["resistance", "isc"] and f"`{log[-1].text}`" in h.shown().text
    pool.shutdown()


async def test_a_board_that_fails_to_draw_after_its_placeholder_says_so_privately(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion")
    await h.slash("game start", user=ALICE, bot=True)

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("the renderer broke")

    monkeypatch.setattr(render, "_renderer", broken)
    reply = await h.slash("game board", user=CAROL)
    calls = own(h, reply)
    assert [(r.kind, r.type) for r in calls] == [
        ("callback", 5),
        ("delete_original", None),
        ("followup", None),
    ]
    assert reply.ephemeral and "Something went wrong" in reply.content


async def test_a_long_run_of_bot_decisions_shows_its_progress_then_leaves_one_new_message(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    monkeypatch.setattr(deadline, "DEFER_AFTER", 0.02)
    monkeypatch.setattr(deadline, "PROGRESS_EVERY", 0.0)  # every decision after the placeholder edits it
    pool = SlowPool()
    await hard_escape(h, pool)
    for _ in range(60):  # until one command of Alice's hands the I.S.C. a run of three decisions or more
        before, shown = pool.calls, len(h.public_messages())
        reply = await play_until_the_bot_thinks(h, pool)
        if pool.calls - before >= 3:
            break
    else:
        raise AssertionError("the I.S.C. never thought three times in a row")
    calls = own(h, reply)
    kinds = [(r.kind, r.type) for r in calls]
    edits = [r for r in calls if r.kind == "edit_original"]
    # The first decision starts before the placeholder stands, the second sees it new (Discord's own
    # "thinking…" shows), and every later one edits it.
    assert kinds[0] == ("callback", 5) and len(edits) == pool.calls - before - 2, kinds
    log = load_game((await h.row()).snapshot).log
    isc = [e.text for e in log[-(pool.calls - before) :]]
    assert edits[0].content.endswith("⏳ 🤖 isc (hard) is thinking…")
    assert f"• 🤖 isc: `{isc[0]}`" in edits[0].content  # what was played before it was asked
    assert f"• 🤖 isc: `{isc[1]}`" in edits[0].content
    # The progress message was a message of its own once edited: it is deleted after the turn message is
    # posted anew, so the channel gains one message for the request and loses no narration.
    assert kinds[-1] == ("delete_original", None)
    assert edits[0].message_id not in h.messages
    assert all(len(r.content) <= 2000 for r in edits)
    assert len(h.public_messages()) - shown <= 1
    assert f"`{isc[-1]}`" in h.shown().text
    pool.shutdown()


def test_progress_lists_the_latest_moves_and_who_thinks_now() -> None:
    done = [f"🤖 p2, Lola: `move {n}`" for n in range(7)] + ["🤖 p3 made a hidden choice"]
    text = deadline.progress_text("🤖 p4, Jimmy (hard)", done)
    assert text.splitlines() == [
        "• … 4 earlier",
        "• 🤖 p2, Lola: `move 4`",
        "• 🤖 p2, Lola: `move 5`",
        "• 🤖 p2, Lola: `move 6`",
        "• 🤖 p3 made a hidden choice",
        "⏳ 🤖 p4, Jimmy (hard) is thinking…",
    ]
    assert deadline.progress_text("🤖 isc (hard)", []) == "⏳ 🤖 isc (hard) is thinking…"
