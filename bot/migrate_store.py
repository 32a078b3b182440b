"""``escapade migrate-store --from ./data/escapade.db --to postgresql://...``: move a SQLite store into an
empty PostgreSQL one.

Every game, command, notification, campaign record and living message is copied with its id, in one PostgreSQL
transaction; before it commits, every game is rebuilt from its copied snapshot and command log and
replayed from the start, and the copy is kept only if each replay gives the stored position again (so a
damaged source leaves the target untouched). Snapshots are written in the compact form (without the
log, which is the commands table).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.store import LogLine, SqliteStore, StoreError, full_snapshot, sqlite_path, state_snapshot
from bot.store_pg import PostgresStore, is_postgres_url
from engine import load_game

TABLES: dict[str, tuple[str, ...]] = {
    "games": (
        "id",
        "guild_id",
        "channel_id",
        "ruleset",
        "scenario",
        "creator_id",
        "seats",
        "status",
        "version",
        "snapshot",
        "settings",
        "result",
        "created_at",
        "updated_at",
    ),
    "commands": ("game_id", "seq", "seat", "user_id", "text", "events", "interaction_id", "created_at"),
    "notifications": ("id", "game_id", "kind", "due_at", "payload", "sent_at", "claimed_by", "claimed_at"),
    "campaigns": ("guild_id", "ruleset", "scope_key", "record", "game_id", "updated_at"),
    "living_messages": ("channel_id", "kind", "game_id", "message_id", "lines", "image", "updated_at"),
}


@dataclass
class Copied:
    """What was copied: rows per table, and the games whose replay was checked."""

    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0


class MigrationFailed(StoreError):
    """The copy was refused or did not check out; the target was left unchanged."""


def check_game(game_id: int, snapshot: str, version: int, log: list[LogLine]) -> str:
    """The compact snapshot of a copied game, after checking that replaying its log from the start gives
    its stored position and that a log kept inside the snapshot agrees with the command log.

    Raises MigrationFailed naming the game otherwise.
    """
    full = full_snapshot(snapshot, version, log)
    game = load_game(full)
    logged = [(line.seat, line.text) for line in log[:version]]
    if [(e.seat, e.text) for e in game.log] != logged:
        raise MigrationFailed(f"Game #{game_id}: its snapshot's log differs from its command log.")
    if game.replay().to_json() != game.to_json():
        raise MigrationFailed(
            f"Game #{game_id}: replaying its {version} commands does not give its position."
        )
    return state_snapshot(game)


async def migrate(source: str, target: str) -> Copied:
    """Copy the SQLite store ``source`` into the empty PostgreSQL store ``target`` and check every game.

    Raises StoreError (MigrationFailed) when either cannot be used, the target already holds games, or
    a game does not replay; the target is then unchanged.
    """
    if not is_postgres_url(target):
        raise MigrationFailed("--to must be a PostgreSQL URL (postgresql://user:password@host/database).")
    src = SqliteStore(sqlite_path(source))
    dst = PostgresStore(target)
    await src.open()
    try:
        await dst.open()
        try:
            return await _copy(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: SqliteStore, dst: PostgresStore) -> Copied:
    copied = Copied()
    rows: dict[str, list[tuple[Any, ...]]] = {}
    for table, columns in TABLES.items():
        async with src.db.execute(f"SELECT {', '.join(columns)} FROM {table}") as cur:
            rows[table] = [tuple(r) for r in await cur.fetchall()]
    image_at = TABLES["living_messages"].index("image")  # SQLite's 0/1, PostgreSQL's boolean
    rows["living_messages"] = [
        (*m[:image_at], bool(m[image_at]), *m[image_at + 1 :]) for m in rows["living_messages"]
    ]
    logs: dict[int, list[LogLine]] = {}
    for game_id, seq, seat, user, text, _events, iid, at in sorted(
        rows["commands"], key=lambda r: (r[0], r[1])
    ):
        logs.setdefault(game_id, []).append(LogLine(seq, seat, user, text, [], at, iid))
    # Check every game before writing anything (in threads: a replay is CPU work).
    compact: dict[int, str] = {}
    for game in rows["games"]:
        game_id, version, snapshot = game[0], game[8], game[9]
        if snapshot is not None:
            compact[game_id] = await asyncio.to_thread(
                check_game, game_id, snapshot, version, logs.get(game_id, [])
            )
            copied.replayed += 1
    snapshot_at = TABLES["games"].index("snapshot")
    rows["games"] = [
        (*g[:snapshot_at], compact.get(g[0], g[snapshot_at]), *g[snapshot_at + 1 :]) for g in rows["games"]
    ]
    async with dst.pool.acquire() as con, con.transaction():
        present = await con.fetchval("SELECT count(*) FROM games")
        if present:
            raise MigrationFailed(
                f"The target {dst.location} already holds {present} games: migrate-store copies into an "
                "empty database only. Nothing was copied."
            )
        for table, columns in TABLES.items():
            await con.copy_records_to_table(table, records=rows[table], columns=list(columns))
            copied.rows[table] = len(rows[table])
        for table in ("games", "notifications"):
            await con.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false)"
                f" FROM {table}"
            )
    return copied
