"""The bot end to end on both stores (SQLite and PostgreSQL): a whole ESCAPE game, a restart mid-game, an
interaction applied once, two processes racing on one game, notifications claimed once across several
processes and shards; the two schemas agree; snapshots stay the same size; migrate-store."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot import cli
from bot.client import ShardedEscapadeBot, create_bot
from bot.migrate_store import MigrationFailed, migrate
from bot.store import SqliteStore, state_snapshot
from bot.store_pg import PostgresStore
from engine import load_game, new_game
from tests.harness import ALICE, BOB, CAROL, CHANNEL, GUILD, Harness, open_escape, play_turns
from tests.pg_server import PostgresServer

SHARD_COUNT = 4
GUILD_SHARD = (GUILD >> 22) % SHARD_COUNT


async def test_whole_escape_game(any_harness: Harness) -> None:
    h = any_harness
    start = await open_escape(h, scenario="infiltration")
    last, played, clicks = await play_turns(h, start, limit=5000)
    row = await h.row()
    assert row.status == "finished" and clicks > 0
    game = load_game(row.snapshot)
    assert game.outcome is not None and row.result == game.outcome.to_data()
    assert "Result" in last.text
    log = await h.bot.store.command_log(row.id)
    assert [x.seq for x in log] == list(range(1, row.version + 1))
    assert [(x.seat, x.text) for x in log] == [(e.seat, e.text) for e in game.log]
    assert game.replay().to_json() == game.to_json()
    stored = await h.bot.store.get_game(row.id)
    assert stored is not None and '"log":[]' in (stored.snapshot or "")  # history only in the log


async def test_restart_mid_game_resumes(database: str) -> None:
    async with Harness(database) as h:
        start = await open_escape(h)
        await play_turns(h, start, limit=12)
        before = await h.row()
        turn = h.bot.replier.messages.turns[str(CHANNEL)].message_id
    async with Harness(database) as h2:  # a new process: nothing in memory, the game from the store
        status = await h2.slash("game status", user=CAROL)
        assert f"#{before.id}" in status.text
        game = load_game((await h2.row()).snapshot)
        seat = sorted(game.seats_to_act())[0]
        text = game.bot_command(seat).text
        user = ALICE if before.seats[seat] == str(ALICE) else BOB
        reply = await h2.slash("do", user=user, command=text)
        # Either the decision passed on (a new public message) or the remembered turn message shows it.
        assert not reply.ephemeral or reply.text.endswith(f"/{turn}"), reply.text
        after = await h2.row()
        assert after.version > before.version
        assert load_game(after.snapshot).replay().to_json() == after.snapshot


async def first_move(h: Harness) -> tuple[int, str]:
    row = await h.row()
    game = load_game(row.snapshot)
    seat = sorted(game.seats_to_act())[0]
    return (ALICE if row.seats[seat] == str(ALICE) else BOB), game.legal_commands(seat)[0].text


async def test_interaction_applied_once(any_harness: Harness) -> None:
    h = any_harness
    await open_escape(h)
    user, text = await first_move(h)
    version = (await h.row()).version
    payload = h.slash_payload("do", user=user, command=text)
    await asyncio.gather(h.feed(payload), h.feed(payload))
    await h.feed(payload)  # and once more, later
    row = await h.row()
    assert row.version == version + 1
    log = await h.bot.store.command_log(row.id)
    assert sum(1 for x in log if x.interaction_id == payload["id"]) == 1


async def test_two_processes_race_on_one_game(database: str) -> None:
    """Two bot processes share the store; both receive a move for the same position at once: the
    version check lets exactly one through, the other changes nothing and says so."""
    async with Harness(database) as a, Harness(database) as b:
        await open_escape(a)
        user, text = await first_move(a)
        version = (await a.row()).version
        replies = await asyncio.gather(
            a.feed(a.slash_payload("do", user=user, command=text)),
            b.feed(b.slash_payload("do", user=user, command=text)),
        )
        row = await a.row()
        assert row.version == version + 1
        said = [r for rs in replies for r in rs]
        # The loser either saw the position move under it (stale) or read the new position and was
        # refused by the rules (the move is no longer the seat's to make): privately, changing nothing.
        refused = [
            r
            for r in said
            if any(w in r.text.lower() for w in ("nothing was changed", "already", "not your turn"))
        ]
        assert refused and all(r.ephemeral for r in refused), [r.text for r in said]


async def test_notifications_claimed_once_across_processes_and_shards(database: str) -> None:
    """Three processes: two serve the games' shard (a duplicate, as in a rolling restart), one serves the
    other shards. Every due reminder is sent exactly once, and only by a process serving its shard."""
    mine = (GUILD_SHARD,)
    others = tuple(s for s in range(SHARD_COUNT) if s != GUILD_SHARD)
    async with (
        Harness(database, shards=mine, shard_count=SHARD_COUNT) as a,
        Harness(database, shards=mine, shard_count=SHARD_COUNT) as twin,
        Harness(database, shards=others, shard_count=SHARD_COUNT) as elsewhere,
    ):
        channels = [a.new_channel() for _ in range(6)]
        for channel in channels:
            await open_escape(a, channel=channel)
            await a.slash("game settings", user=ALICE, channel=channel, reminders=True, hours=0.05)
        later = a.bot.clock() + 3600
        starts = [len(h.replies) for h in (a, twin, elsewhere)]
        await asyncio.gather(*(h.run_due(later) for h in (a, twin, elsewhere, a, twin)))
        sent = [
            [r for r in h.replies[start:] if r.kind == "channel" and "Reminder" in r.content]
            for h, start in zip((a, twin, elsewhere), starts, strict=True)
        ]
        assert sent[2] == []  # not its shard
        by_channel = sorted(r.channel_id for r in sent[0] + sent[1])
        assert by_channel == sorted(channels)  # each exactly once
        assert all(n.kind != "reminder" for n in await a.bot.store.due_notifications(later))


async def test_the_two_schemas_agree(postgres_server: PostgresServer, tmp_path: Path) -> None:
    lite = SqliteStore(tmp_path / "schema.db")
    await lite.open()
    pg = PostgresStore(postgres_server.new_database())
    await pg.open()
    try:
        tables = [
            r[0]
            for r in await (
                await lite.db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
                )
            ).fetchall()
        ]
        lite_columns = {
            t: {r[1] for r in await (await lite.db.execute(f"PRAGMA table_info({t})")).fetchall()}
            for t in tables
        }
        lite_unique: set[tuple[str, frozenset[str]]] = set()
        for t in tables:
            for index in await (await lite.db.execute(f"PRAGMA index_list({t})")).fetchall():
                if index[2]:  # unique
                    cols = await (await lite.db.execute(f"PRAGMA index_info({index[1]})")).fetchall()
                    lite_unique.add((t, frozenset(c[2] for c in cols)))
            pk = [r[1] for r in await (await lite.db.execute(f"PRAGMA table_info({t})")).fetchall() if r[5]]
            if pk:
                lite_unique.add((t, frozenset(pk)))
        rows = await pg.pool.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
        )
        pg_columns: dict[str, set[str]] = {}
        for r in rows:
            pg_columns.setdefault(r["table_name"], set()).add(r["column_name"])
        unique = await pg.pool.fetch(
            "SELECT t.relname AS table_name, array_agg(a.attname::text) AS columns FROM pg_index i"
            " JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
            " JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY(i.indkey)"
            " WHERE i.indisunique AND n.nspname = 'public' GROUP BY i.indexrelid, t.relname"
        )
        pg_unique = {(r["table_name"], frozenset(r["columns"])) for r in unique}
        assert pg_columns == lite_columns
        assert pg_unique == lite_unique
        assert ("commands", frozenset({"interaction_id"})) in pg_unique
        assert ("games", frozenset({"channel_id"})) in pg_unique  # one live game per channel
    finally:
        await lite.close()
        await pg.close()


async def test_bytes_per_command_stay_flat(database: str) -> None:
    """The row a command writes (snapshot plus its log line) is no bigger at command 80 than at 10."""
    from bot.database import open_store
    from bot.store import LoggedCommand

    store = open_store(database)
    await store.open()
    try:
        game = new_game("escape", seed=3)
        row = await store.create_game(
            guild_id="1", channel_id="c", ruleset="escape", scenario=None, creator_id="u", seats={}, now=0.0
        )
        written: dict[int, int] = {}
        version = 0
        while version < 80 and game.outcome is None:
            seat = sorted(game.seats_to_act())[0]
            events = game.apply(seat, game.bot_command(seat))
            cmd = LoggedCommand(seat, None, game.log[-1].text, [{"text": e.text} for e in events])
            snapshot = state_snapshot(game)
            new = await store.update_game(
                row.id, expected_version=version, now=1.0, snapshot=snapshot, commands=[cmd]
            )
            assert new is not None
            version = new.version
            written[version] = len(snapshot) + len(cmd.text) + sum(len(e["text"]) for e in cmd.events)
        assert version == 80
        assert written[80] < written[10] * 1.25  # the old full snapshot grew by ~26 bytes a command
        stored = await store.get_game(row.id)
        assert stored is not None
        assert await store.full_snapshot(stored) == game.to_json()
    finally:
        await store.close()


async def test_migrate_store_copies_and_checks_every_game(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "old.db"
    async with Harness(source) as h:
        start = await open_escape(h)
        await play_turns(h, start, limit=8)
        await h.slash(
            "game new", user=ALICE, channel=h.new_channel(), ruleset="escape", opponent=BOB
        )  # a lobby
        await h.slash("game settings", user=ALICE, reminders=True, hours=1.0)
        row = await h.row()
        turn = h.bot.replier.messages.turns[str(CHANNEL)].message_id
    # A snapshot written by an older version: the whole log inside it.
    with sqlite3.connect(source) as con:
        con.execute("UPDATE games SET snapshot = ? WHERE id = ?", (row.snapshot, row.id))
    target = postgres_server.new_database()
    code = await asyncio.to_thread(cli.main, ["migrate-store", "--from", str(source), "--to", target])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "2 games" in out.out and "1 games replayed" in out.out
    async with Harness(target) as pg:
        moved = await pg.row()
        assert (moved.id, moved.version, moved.snapshot) == (row.id, row.version, row.snapshot)
        assert len(await pg.bot.store.pending_notifications(row.id)) >= 2  # reminder and expiry came along
        living = await pg.bot.store.load_messages(str(CHANNEL))
        assert (living["turn"].game_id, living["turn"].message_id) == (row.id, turn)  # and the turn message
        user, text = await first_move(pg)
        reply = await pg.slash("do", user=user, command=text)
        assert not reply.ephemeral or reply.text.endswith(f"/{turn}"), reply.text
        channel = pg.new_channel()
        await pg.slash("game new", user=CAROL, channel=channel, ruleset="escape")
        assert (await pg.row(channel)).id == 3  # ids continue after the copied ones
    # A second copy into the same database is refused, and changes nothing.
    with pytest.raises(MigrationFailed, match="already holds"):
        await migrate(str(source), target)


async def test_migrate_store_refuses_a_game_that_does_not_replay(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    source = tmp_path / "bad.db"
    async with Harness(source) as h:
        start = await open_escape(h)
        await play_turns(h, start, limit=4)
        row = await h.row()
    damaged = load_game(row.snapshot)
    damaged.seed += 1  # its log no longer leads to its position
    with sqlite3.connect(source) as con:
        con.execute("UPDATE games SET snapshot = ? WHERE id = ?", (state_snapshot(damaged), row.id))
    target = postgres_server.new_database()
    with pytest.raises(MigrationFailed, match=f"Game #{row.id}"):
        await migrate(str(source), target)
    con2 = await asyncpg.connect(target)
    try:
        assert await con2.fetchval("SELECT count(*) FROM games") == 0
    finally:
        await con2.close()


def test_shard_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = tmp_path / "s.env"
    env.write_text(f"DISCORD_TOKEN=x\nESCAPADE_DATABASE={tmp_path / 'x.db'}\n", encoding="utf-8")
    for args, said in (
        (["--shards", "4", "--shard-count", "4"], "Shard 4 does not exist"),
        (["--shards", "0,1"], "needs ESCAPADE_SHARD_COUNT"),
    ):
        assert cli.main(["run", "--env", str(env), *args]) == 2
        err = capsys.readouterr().err
        assert err.startswith("Escapade cannot start:") and said in err
    bot = create_bot(tmp_path / "x.db", shards=(1, 0), shard_count=4)
    assert isinstance(bot, ShardedEscapadeBot)
    assert (bot.shard_ids, bot.shard_count) == ([0, 1], 4) and bot.sync_commands
    other = create_bot(tmp_path / "x.db", shards=(3,), shard_count=4)
    assert not other.sync_commands  # only shard 0's process registers the commands


async def test_a_snapshot_with_its_log_inside_still_plays(database: str) -> None:
    """A game saved by an older version (its whole log inside the snapshot) loads and plays on; the next
    write stores the compact snapshot, and the game still rebuilds from its log."""
    async with Harness(database) as h:
        start = await open_escape(h)
        await play_turns(h, start, limit=5)
        row = await h.row()  # the full snapshot, as an older version stored it
        store = h.bot.store
        if isinstance(store, PostgresStore):
            await store.pool.execute("UPDATE games SET snapshot = $1 WHERE id = $2", row.snapshot, row.id)
        else:
            assert isinstance(store, SqliteStore)
            await store.db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (row.snapshot, row.id))
        h.bot.games.forget(row.id)
        user, text = await first_move(h)
        reply = await h.slash("do", user=user, command=text)
        assert not reply.ephemeral, reply.text
        stored = await store.get_game(row.id)
        assert stored is not None and stored.version == row.version + 1
        assert '"log":[]' in (stored.snapshot or "")
        full = await store.full_snapshot(stored)
        assert full is not None and load_game(full).replay().to_json() == full
