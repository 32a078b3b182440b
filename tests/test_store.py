"""The SQLite store: migrations, the version check, interaction ids applied once, notifications."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import ChannelBusy, LoggedCommand, Schedule, SqliteStore


async def make(tmp_path: Path) -> SqliteStore:
    store = SqliteStore(tmp_path / "s.db")
    await store.open()
    return store


async def test_migrations_wal_and_reopen(tmp_path: Path) -> None:
    store = await make(tmp_path)
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await store.close()
    again = await make(tmp_path)  # applying migrations twice is harmless
    async with again.db.execute("SELECT version FROM schema_migrations") as cur:
        assert [r[0] for r in await cur.fetchall()] == [1, 2]
    await again.close()


async def test_one_live_game_per_channel(tmp_path: Path) -> None:
    store = await make(tmp_path)
    args = dict(
        guild_id="g", channel_id="c", ruleset="escape", scenario=None, creator_id="u", seats={"a": "u"}
    )
    row = await store.create_game(now=1.0, **args)  # type: ignore[arg-type]
    with pytest.raises(ChannelBusy):
        await store.create_game(now=2.0, **args)  # type: ignore[arg-type]
    await store.update_game(row.id, expected_version=0, now=3.0, status="aborted")
    second = await store.create_game(now=4.0, **args)  # type: ignore[arg-type]
    assert second.id != row.id and (await store.live_game("c")).id == second.id  # type: ignore[union-attr]
    assert (await store.latest_game("c")).id == second.id  # type: ignore[union-attr]
    await store.close()


async def test_version_check_and_interaction_once(tmp_path: Path) -> None:
    store = await make(tmp_path)
    row = await store.create_game(
        guild_id=None,
        channel_id="c",
        ruleset="escape",
        scenario=None,
        creator_id="u",
        seats={"a": "u"},
        now=0.0,
    )
    cmd = [LoggedCommand("a", "u", "end", [{"text": "x", "dice": [3]}], "i1")]
    new = await store.update_game(row.id, expected_version=0, now=1.0, snapshot="{}", commands=cmd)
    assert new is not None and new.version == 1
    # Same expected version again: refused, nothing written.
    assert await store.update_game(row.id, expected_version=0, now=2.0, snapshot="{}", commands=cmd) is None
    # Right version but the interaction id was used: refused, nothing written.
    assert await store.update_game(row.id, expected_version=1, now=2.0, snapshot="{}", commands=cmd) is None
    assert (await store.get_game(row.id)).version == 1  # type: ignore[union-attr]
    assert await store.interaction_used("i1") and not await store.interaction_used("i2")
    log = await store.command_log(row.id)
    assert [(x.seq, x.text, x.events) for x in log] == [(1, "end", [{"text": "x", "dice": [3]}])]
    # The log is append-only in practice: a duplicate seq is impossible.
    with pytest.raises(sqlite3.IntegrityError):
        await store.db.execute(
            "INSERT INTO commands (game_id, seq, seat, text, events, created_at) VALUES (?, 1, 'a', 'x', '[]', 0)",
            (row.id,),
        )
    await store.close()


async def test_notifications_replace_and_due(tmp_path: Path) -> None:
    store = await make(tmp_path)
    row = await store.create_game(
        guild_id=None,
        channel_id="c",
        ruleset="escape",
        scenario=None,
        creator_id="u",
        seats={"a": "u"},
        now=0.0,
        schedule=Schedule(add=[("expire", 100.0, {"version": 0})]),
    )
    sched = Schedule(cancel=("expire",), add=[("expire", 50.0, {"version": 0}), ("reminder", 10.0, {})])
    await store.update_game(row.id, expected_version=0, now=1.0, schedule=sched)
    pending = await store.pending_notifications(row.id)
    assert sorted((n.kind, n.due_at) for n in pending) == [("expire", 50.0), ("reminder", 10.0)]
    due = await store.due_notifications(20.0)
    assert [n.kind for n in due] == ["reminder"]
    await store.mark_sent(due[0].id, 20.0)
    assert await store.due_notifications(20.0) == []
    await store.close()


async def test_campaign_records_written_with_the_last_command(tmp_path: Path) -> None:
    store = await make(tmp_path)
    row = await store.create_game(
        guild_id="g1", channel_id="c", ruleset="duo", scenario=None, creator_id="u", seats={"a": "u"}, now=0.0
    )
    assert await store.campaign_records("g1", "duo") == {}
    cmd = [LoggedCommand("a", "u", "win", [], "i1")]
    await store.update_game(row.id, expected_version=0, now=5.0, commands=cmd, campaign={"u": {"wins": 1}})
    got = await store.campaign_records("g1", "duo", ["u", "v"])
    assert list(got) == ["u"] and got["u"].record == {"wins": 1} and got["u"].game_id == row.id
    assert got["u"].updated_at == 5.0
    # Another server, another ruleset: separate records.
    assert await store.campaign_records("g2", "duo") == {}
    assert await store.campaign_records("g1", "other") == {}
    # A refused update (stale version) writes no campaign either; a later one replaces the record.
    stale = await store.update_game(row.id, expected_version=0, now=6.0, campaign={"u": {"wins": 9}})
    assert stale is None
    assert (await store.campaign_records("g1", "duo"))["u"].record == {"wins": 1}
    await store.update_game(row.id, expected_version=1, now=7.0, campaign={"u": {"wins": 2}, "*": {"n": 1}})
    both = await store.campaign_records("g1", "duo")
    assert {k: r.record for k, r in both.items()} == {"u": {"wins": 2}, "*": {"n": 1}}
    assert await store.campaign_records("g1", "duo", []) == {}
    # A game outside a server keeps its records under the empty guild id.
    dm = await store.create_game(
        guild_id=None, channel_id="d", ruleset="duo", scenario=None, creator_id="u", seats={"a": "u"}, now=0.0
    )
    await store.update_game(dm.id, expected_version=0, now=1.0, campaign={"*": {"n": 3}})
    assert (await store.campaign_records(None, "duo"))["*"].record == {"n": 3}
    await store.close()
