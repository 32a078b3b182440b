"""The living messages survive a restart (on SQLite and on PostgreSQL): a second bot on the same store
edits the turn and lobby messages the first one posted, and takes the components off the ones it
supersedes, exactly as the first would have."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from engine import load_game
from tests.harness import ALICE, BOB, CHANNEL, Harness, open_escape, play_turns


def move_awaited(game: object) -> bool:
    """True when an awaited seat may play a ``move`` command (a move keeps the activation going)."""
    return any(
        c.verb == "move"
        for seat in game.seats_to_act()  # type: ignore[attr-defined]
        for c in game.legal_commands(seat)  # type: ignore[attr-defined]
    )


@asynccontextmanager
async def restarted(h: Harness) -> AsyncIterator[Harness]:
    """A new bot on ``h``'s store, nothing in memory, seeing the same Discord messages as ``h``. The first
    bot is not shut down first (as if its process were killed): everything it stored is committed."""
    h2 = Harness(h.database)
    h2.messages = h.messages  # one Discord: the new bot edits what the old one posted
    h2._ids = h._ids
    await h2.start()
    try:
        assert not h2.bot.replier.messages.turns and not h2.bot.replier.messages.lobbies
        yield h2
    finally:
        await h2.close()


async def test_after_a_restart_the_turn_message_is_edited_and_a_hand_over_retires_it(database: str) -> None:
    async with Harness(database) as h:
        last = await open_escape(h)
        await play_turns(h, last, limit=200, until=move_awaited)
        turn = h.shown().message_id
        assert h.messages[turn]["components"]  # the living turn message offers its menus
        async with restarted(h) as h2:
            row = await h2.row()
            game = load_game(row.snapshot)
            seat = sorted(game.seats_to_act())[0]
            user = ALICE if row.seats[seat] == str(ALICE) else BOB
            move = next(c for c in game.legal_commands(seat) if c.verb == "move")
            r = await h2.slash("do", user=user, command=move.text)
            # The move keeps the decision: the same turn message is edited, no new public message.
            assert r.ephemeral and r.text.endswith(f"/{turn}"), r.text
            assert h2.public_messages() == []
            assert h2.shown().message_id == turn and h2.narrates(game, seat, move.text)
            assert any(x.kind == "edit_message" and x.message_id == turn for x in h2.replies)
            assert (await h2.row()).version == row.version + 1
            # Ending the activation posts a new message; the remembered one loses its components.
            end = await h2.slash("end", user=user)
            assert not end.ephemeral and end.message_id != turn
            assert h.messages[turn]["components"] == []
            assert h2.shown().message_id == end.message_id
            stored = await h2.bot.store.load_messages(str(CHANNEL))
            assert stored["turn"].message_id == end.message_id


async def test_after_a_restart_the_lobby_is_edited_in_place_and_loses_its_buttons(database: str) -> None:
    async with Harness(database) as h:
        lobby = await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion")
        assert "esc:join:1:isc" in lobby.custom_ids
        async with restarted(h) as h2:
            joined = await h2.slash("game join", user=BOB, seat="isc")
            assert joined.ephemeral and joined.text.endswith(f"/{lobby.message_id}"), joined.text
            assert h2.public_messages() == []  # edited in place, not posted again
            assert f"<@{BOB}>" in str(h.messages[lobby.message_id]["embeds"])
            assert "esc:join:1:isc" not in str(h.messages[lobby.message_id]["components"])
            started = await h2.slash("game start", user=BOB)
            assert not started.ephemeral
            assert h.messages[lobby.message_id]["components"] == []  # the superseded lobby
            assert "lobby" not in await h2.bot.store.load_messages(str(CHANNEL))


async def test_an_abort_after_a_restart_takes_the_components_off(database: str) -> None:
    async with Harness(database) as h:
        await open_escape(h)
        turn = h.shown().message_id
        async with restarted(h) as h2:
            asked = await h2.slash("game abort", user=ALICE)
            await h2.confirm(asked, user=ALICE)
            assert h.messages[turn]["components"] == []
            assert await h2.bot.store.load_messages(str(CHANNEL)) == {}
