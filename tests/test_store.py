"""The store's contract, on SQLite and on PostgreSQL: migrations, the version check, interaction ids
applied once, the append-only log, notifications and their claims, campaign records."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.config import Shards
from bot.database import open_store
from bot.store import ChannelBusy, LoggedCommand, Schedule, SqliteStore, Store, migrations
from bot.store_pg import PostgresStore
from tests.pg_server import PostgresServer

NEWEST = [v for v, _sql in migrations()]


async def make(tmp_path: Path) -> SqliteStore:
    store = SqliteStore(tmp_path / "s.db")
    await store.open()
    return store


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    """An open, empty store of each backend in turn."""
    opened = open_store(database)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


async def raw(store: Store, sql: str, *args: Any) -> None:
    """Run SQL behind the interface's back (``?`` placeholders), as a bug or an operator might."""
    if isinstance(store, PostgresStore):
        parts = sql.split("?")
        sql = "".join(p + (f"${i + 1}" if i < len(parts) - 1 else "") for i, p in enumerate(parts))
        await store.pool.execute(sql, *args)
    else:
        assert isinstance(store, SqliteStore)
        await store.db.execute(sql, args)


async def test_migrations_wal_and_reopen(tmp_path: Path) -> None:
    store = await make(tmp_path)
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await store.close()
    again = await make(tmp_path)  # applying migrations twice is harmless
    async with again.db.execute("SELECT version FROM schema_migrations") as cur:
        assert [r[0] for r in await cur.fetchall()] == NEWEST
    await again.close()


async def test_postgres_migrations_reopen_and_newer_schema(postgres_server: PostgresServer) -> None:
    database = postgres_server.new_database()
    first = open_store(database)
    await first.open()
    await first.close()
    again = open_store(database)
    await again.open()  # applying migrations twice is harmless
    assert isinstance(again, PostgresStore)
    assert [
        r[0] for r in await again.pool.fetch("SELECT version FROM schema_migrations ORDER BY 1")
    ] == NEWEST
    await again.pool.execute("INSERT INTO schema_migrations (version) VALUES (99)")
    await again.close()
    newer = open_store(database)
    with pytest.raises(Exception, match="newer version of Escapade") as caught:
        await newer.open()
    assert "schema 99" in str(caught.value)


async def test_one_live_game_per_channel(store: Store) -> None:
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


async def test_version_check_and_interaction_once(store: Store) -> None:
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
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await raw(
            store,
            "INSERT INTO commands (game_id, seq, seat, text, events, created_at) VALUES (?, 1, 'a', 'x', '[]', 0)",
            row.id,
        )


async def test_notifications_replace_and_due(store: Store) -> None:
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


async def test_campaign_records_written_with_the_last_command(store: Store) -> None:
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


async def new_game_row(store: Store, channel: str, guild: str | None, due: float) -> int:
    row = await store.create_game(
        guild_id=guild,
        channel_id=channel,
        ruleset="escape",
        scenario=None,
        creator_id="u",
        seats={"a": "u"},
        now=0.0,
        schedule=Schedule(add=[("reminder", due, {}), ("timeout", due, {})]),
    )
    return row.id


async def test_claims_are_exclusive_and_per_shard(store: Store) -> None:
    guild_on_0 = str(4 << 22)  # (4 << 22 >> 22) % 4 == 0
    guild_on_1 = str(5 << 22)
    on_0 = await new_game_row(store, "c0", guild_on_0, 10.0)
    on_1 = await new_game_row(store, "c1", guild_on_1, 10.0)
    dm = await new_game_row(store, "c2", None, 10.0)  # no server: shard 0, as Discord's DMs
    later = await new_game_row(store, "c3", guild_on_1, 99.0)
    assert Shards((1,), 4).owns(guild_on_1) and not Shards((1,), 4).owns(guild_on_0)
    first = await store.claim_notifications(20.0, "p1", Shards((1,), 4))
    assert {n.game_id for n in first} == {on_1}
    # Another process on the same shard (a duplicate, or a rolling restart) gets none of them.
    assert await store.claim_notifications(20.0, "p2", Shards((1,), 4)) == []
    # Shard 0's process gets its server's and the direct-message game's, never another shard's.
    zero = await store.claim_notifications(20.0, "p3", Shards((0,), 4), limit=3)
    assert len(zero) == 3 and {n.game_id for n in zero} <= {on_0, dm}
    rest = await store.claim_notifications(20.0, "p3", Shards((0,), 4))
    assert len(rest) == 1 and {n.game_id for n in zero + rest} == {on_0, dm}
    # Not yet due: nobody claims it.
    assert await store.claim_notifications(20.0, "p4") == []
    late = await store.claim_notifications(100.0, "p4")
    assert {n.game_id for n in late} == {later}
    # A claim whose process died: after the lease, a timeout may be taken over (the game's version
    # guards it), a reminder never (it could be sent twice).
    taken = await store.claim_notifications(20.0 + 601.0, "p5", Shards((1,), 4))
    assert [(n.game_id, n.kind) for n in taken] == [(on_1, "timeout")]
    for n in first + zero + rest + late + taken:
        await store.mark_sent(n.id, 21.0)
    assert await store.claim_notifications(10_000.0, "p6") == []


async def test_snapshot_without_log_is_completed_from_the_log(store: Store) -> None:
    from bot.store import full_snapshot, state_snapshot
    from engine import load_game, new_game

    game = new_game("escape", seed=5)
    row = await store.create_game(
        guild_id="g", channel_id="c", ruleset="escape", scenario=None, creator_id="u", seats={}, now=0.0
    )
    version = 0
    for _ in range(6):
        seat = sorted(game.seats_to_act())[0]
        events = game.apply(seat, game.bot_command(seat))
        cmd = LoggedCommand(seat, None, game.log[-1].text, [{"text": e.text} for e in events])
        new = await store.update_game(
            row.id, expected_version=version, now=1.0, snapshot=state_snapshot(game), commands=[cmd]
        )
        assert new is not None
        version = new.version
        assert '"log":[]' in (new.snapshot or "")  # the stored snapshot never holds the history
    stored = await store.get_game(row.id)
    assert stored is not None
    full = await store.full_snapshot(stored)
    assert full == game.to_json()
    assert load_game(full).replay().to_json() == full  # rebuilt from the log alone
    # A snapshot written before logs were left out (with its log inside) comes back as it was.
    assert full_snapshot(game.to_json(), version, []) == game.to_json()
    with pytest.raises(ValueError, match="log"):
        full_snapshot(state_snapshot(game), version, [])


async def test_postgres_processes_starting_together_migrate_once(postgres_server: PostgresServer) -> None:
    """Several processes opening a new PostgreSQL database at the same moment: the advisory lock lets one
    apply the migrations; the others wait, then find them applied."""
    for _ in range(3):
        database = postgres_server.new_database()
        stores = [PostgresStore(database, pool_size=2) for _ in range(4)]
        await asyncio.gather(*(s.open() for s in stores))
        versions = [
            r[0] for r in await stores[0].pool.fetch("SELECT version FROM schema_migrations ORDER BY 1")
        ]
        assert versions == NEWEST
        await asyncio.gather(*(s.close() for s in stores))


async def test_living_messages_are_saved_replaced_and_dropped(store: Store) -> None:
    row = await store.create_game(
        guild_id="1", channel_id="c", ruleset="escape", scenario=None, creator_id="u", seats={}, now=1.0
    )
    assert await store.load_messages("c") == {}
    await store.save_message("c", "lobby", row.id, 111, [], False, now=2.0)
    await store.save_message("c", "turn", row.id, 222, ["a1 to b2"], True, now=2.0)
    await store.save_message("c", "turn", row.id, 333, ["a1 to b2", "end"], False, now=3.0)  # replaces
    await store.save_message("other", "turn", row.id, 444, [], False, now=3.0)
    found = await store.load_messages("c")
    assert {k: (m.game_id, m.message_id, m.lines, m.image) for k, m in found.items()} == {
        "lobby": (row.id, 111, [], False),
        "turn": (row.id, 333, ["a1 to b2", "end"], False),
    }
    big = 2**63 - 1  # Discord ids are 64-bit: they come back whole
    await store.save_message("c", "lobby", row.id, big, [], True, now=4.0)
    await store.drop_message("c", "turn")
    await store.drop_message("c", "turn")  # forgetting twice is harmless
    again = await store.load_messages("c")
    assert list(again) == ["lobby"] and again["lobby"].message_id == big and again["lobby"].image
    assert (await store.load_messages("other"))["turn"].message_id == 444
    with pytest.raises(ValueError):
        await store.save_message("c", "board", row.id, 1, [], False, now=5.0)
