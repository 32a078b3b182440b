"""The PostgreSQL store: the :class:`bot.store.Store` interface on asyncpg, for several bot processes
sharing one database (``ESCAPADE_DATABASE=postgresql://user:password@host:5432/database``).

Every guarantee of the SQLite store holds: each method is one transaction (a command is one statement:
the version-checked UPDATE and the inserts that depend on it); ``UPDATE ... WHERE version =``
is the version check (PostgreSQL re-reads the row after waiting for a concurrent writer, so of two
writers holding the same version one changes nothing); ``commands.interaction_id`` is UNIQUE; the log is
only appended to. Migrations (``bot/migrations/pg``, numbered as SQLite's) run in one transaction under an
advisory lock, so processes starting together apply each once. Notifications are claimed with
``FOR UPDATE SKIP LOCKED``: two processes asking at once never get the same one. The URL's password is
never put in a message, a log line or a repr.
"""

from __future__ import annotations

import json
import os
from typing import Any

import asyncpg

from bot.config import Shards
from bot.store import (
    CampaignRecord,
    ChannelBusy,
    GameRow,
    LoggedCommand,
    LogLine,
    Notification,
    Schedule,
    Store,
    StoredMessage,
    StoreError,
    claimable_sql,
    message_kind,
    migrations,
    redact,
)

MIGRATION_LOCK = 0x45534341  # pg_advisory_xact_lock key for migrations ("ESCA")
POOL_SIZE = int(os.environ.get("ESCAPADE_PG_POOL", "8"))  # connections per process


def is_postgres_url(database: str) -> bool:
    """True for a ``postgresql://`` or ``postgres://`` URL."""
    return database.strip().lower().startswith(("postgresql://", "postgres://"))


class PostgresStore(Store):
    """The PostgreSQL store: a small asyncpg pool; every method takes one connection for one transaction."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE) -> None:
        self._url = url.strip()
        self.location = redact(self._url)  # for messages: never the password
        self.pool_size = max(2, pool_size)
        self._pool: asyncpg.Pool | None = None

    def __repr__(self) -> str:
        return f"PostgresStore({self.location!r})"

    @property
    def pool(self) -> asyncpg.Pool:
        """The open connection pool."""
        if self._pool is None:
            raise RuntimeError("The store is not open.")
        return self._pool

    def _hide(self, text: str) -> str:
        """``text`` with the URL's password (if any) replaced."""
        password = url_password(self._url)
        return text.replace(password, "***") if password else text

    async def open(self) -> None:
        """Connect and apply the missing migrations under an advisory lock, in one transaction.

        Raises StoreError, with what to do, when the server cannot be reached, refuses the login, has no
        such database, or holds a schema from a newer version of Escapade (left untouched).
        """
        try:
            self._pool = await asyncpg.create_pool(
                self._url, min_size=1, max_size=self.pool_size, timeout=10, command_timeout=60
            )
            await self._migrate()
        except StoreError:
            await self.close()
            raise
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError, ValueError) as exc:
            await self.close()
            raise StoreError(self._explain(exc)) from None

    def _explain(self, exc: BaseException) -> str:
        said = self._hide(str(exc)) or type(exc).__name__
        where = self.location
        if isinstance(exc, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError):
            return (
                f"PostgreSQL refused the login in ESCAPADE_DATABASE={where!r} ({said}). Check the user "
                "name and password in the URL."
            )
        if isinstance(exc, asyncpg.InvalidCatalogNameError):
            return (
                f"The PostgreSQL server has no database named in ESCAPADE_DATABASE={where!r} ({said}). "
                "Create it (createdb NAME) or fix the URL."
            )
        if isinstance(exc, OSError | TimeoutError):
            return (
                f"Cannot reach the PostgreSQL server of ESCAPADE_DATABASE={where!r} ({said}). Check that "
                "it is running and that this machine may connect to its host and port."
            )
        return f"The PostgreSQL database {where!r} cannot be used: {said}. Check ESCAPADE_DATABASE."

    async def _migrate(self) -> None:
        known = migrations("pg")
        newest = known[-1][0] if known else 0
        async with self.pool.acquire() as con, con.transaction():
            await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await con.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
            done = {r[0] for r in await con.fetch("SELECT version FROM schema_migrations")}
            unknown = sorted(v for v in done if v > newest)
            if unknown:
                raise StoreError(
                    f"The database {self.location} was written by a newer version of Escapade (schema "
                    f"{unknown[-1]}; this version knows up to {newest}). Upgrade Escapade, or point "
                    "ESCAPADE_DATABASE at another database. The database was not changed."
                )
            for version, sql in known:
                if version not in done:
                    await con.execute(sql)
                    await con.execute("INSERT INTO schema_migrations (version) VALUES ($1)", version)

    async def close(self) -> None:
        """Close the pool."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    # -- games -------------------------------------------------------------------------------------
    @staticmethod
    def _row(r: asyncpg.Record | None) -> GameRow | None:
        if r is None:
            return None
        return GameRow(
            id=r["id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            ruleset=r["ruleset"],
            scenario=r["scenario"],
            creator_id=r["creator_id"],
            seats=json.loads(r["seats"]),
            status=r["status"],
            version=r["version"],
            snapshot=r["snapshot"],
            settings=json.loads(r["settings"]),
            result=json.loads(r["result"]) if r["result"] else None,
            created_at=r["created_at"],
            updated_at=r["updated_at"],
        )

    async def _one(self, sql: str, *args: Any) -> GameRow | None:
        return self._row(await self.pool.fetchrow(sql, *args))

    async def create_game(
        self,
        *,
        guild_id: str | None,
        channel_id: str,
        ruleset: str,
        scenario: str | None,
        creator_id: str,
        seats: dict[str, str | None],
        now: float,
        schedule: Schedule | None = None,
    ) -> GameRow:
        """Open a lobby (one statement: the game and its notifications). Raises ChannelBusy when the
        channel already has a running game."""
        args: list[Any] = [guild_id, channel_id, ruleset, scenario, creator_id, json.dumps(seats), now]
        sql = (
            "WITH g AS (INSERT INTO games (guild_id, channel_id, ruleset, scenario, creator_id, seats, status,"
            " version, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'lobby', 0, $7, $7) RETURNING *)"
        )
        sql += _schedule_ctes(args, schedule, cancel=False)
        try:
            r = await self.pool.fetchrow(sql + " SELECT * FROM g", *args)
        except asyncpg.UniqueViolationError as exc:
            raise ChannelBusy(channel_id) from exc
        row = self._row(r)
        assert row is not None
        return row

    async def live_game(self, channel_id: str) -> GameRow | None:
        """The running game in a channel, if any."""
        return await self._one(
            "SELECT * FROM games WHERE channel_id = $1 AND status IN ('lobby', 'playing')", channel_id
        )

    async def latest_game(self, channel_id: str) -> GameRow | None:
        """The most recent game in a channel."""
        return await self._one(
            "SELECT * FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", channel_id
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id."""
        return await self._one("SELECT * FROM games WHERE id = $1", game_id)

    async def update_game(
        self,
        game_id: int,
        *,
        expected_version: int,
        now: float,
        seats: dict[str, str | None] | None = None,
        status: str | None = None,
        snapshot: str | None = None,
        settings: dict[str, Any] | None = None,
        result: dict[str, Any] | None = None,
        commands: list[LoggedCommand] | None = None,
        schedule: Schedule | None = None,
        campaign: dict[str, dict[str, Any]] | None = None,
    ) -> GameRow | None:
        """Change a game if its version is still ``expected_version``: one statement (so one round trip
        and one transaction), the version-checked UPDATE first and every insert conditional on it."""
        commands = commands or []
        args: list[Any] = [game_id, expected_version, now, expected_version + len(commands)]
        sets = ["updated_at = $3", "version = $4"]
        for column, value in (
            ("seats", seats),
            ("status", status),
            ("snapshot", snapshot),
            ("settings", settings),
            ("result", result),
        ):
            if value is not None:
                args.append(value if isinstance(value, str) else json.dumps(value))
                sets.append(f"{column} = ${len(args)}")
        sql = f"WITH g AS (UPDATE games SET {', '.join(sets)} WHERE id = $1 AND version = $2 RETURNING *)"
        if commands:
            first = len(args)
            args += [
                [expected_version + i + 1 for i in range(len(commands))],
                [c.seat for c in commands],
                [c.user_id for c in commands],
                [c.text for c in commands],
                [json.dumps(c.events, separators=(",", ":")) for c in commands],
                [c.interaction_id for c in commands],
            ]
            a = [f"${first + i + 1}" for i in range(6)]
            sql += (
                ", c AS (INSERT INTO commands (game_id, seq, seat, user_id, text, events, interaction_id,"
                " created_at) SELECT g.id, x.seq, x.seat, x.user_id, x.text, x.events, x.iid, $3 FROM g,"
                f" unnest({a[0]}::int[], {a[1]}::text[], {a[2]}::text[], {a[3]}::text[], {a[4]}::text[],"
                f" {a[5]}::text[]) AS x(seq, seat, user_id, text, events, iid))"
            )
        sql += _schedule_ctes(args, schedule, cancel=True)
        if campaign:
            args += [list(campaign), [json.dumps(r, separators=(",", ":")) for r in campaign.values()]]
            sql += (
                ", k AS (INSERT INTO campaigns (guild_id, ruleset, scope_key, record, game_id, updated_at)"
                f" SELECT coalesce(g.guild_id, ''), g.ruleset, x.key, x.record, g.id, $3 FROM g,"
                f" unnest(${len(args) - 1}::text[], ${len(args)}::text[]) AS x(key, record)"
                " ON CONFLICT (guild_id, ruleset, scope_key) DO UPDATE SET record = excluded.record,"
                " game_id = excluded.game_id, updated_at = excluded.updated_at)"
            )
        try:
            r = await self.pool.fetchrow(sql + " SELECT * FROM g", *args)
        except asyncpg.UniqueViolationError:
            return None  # an interaction id already used: the statement changed nothing
        return self._row(r)  # None when the version moved on

    # -- campaigns ---------------------------------------------------------------------------------
    async def campaign_records(
        self, guild_id: str | None, ruleset: str, scope_keys: list[str] | None = None
    ) -> dict[str, CampaignRecord]:
        """A server's campaign records of a ruleset by scope key (only ``scope_keys`` when given)."""
        if scope_keys is not None and not scope_keys:
            return {}
        sql = "SELECT * FROM campaigns WHERE guild_id = $1 AND ruleset = $2"
        args: list[Any] = [guild_id or "", ruleset]
        if scope_keys is not None:
            sql += " AND scope_key = ANY($3::text[])"
            args.append(list(scope_keys))
        rows = await self.pool.fetch(sql, *args)
        return {
            r["scope_key"]: CampaignRecord(
                r["guild_id"],
                r["ruleset"],
                r["scope_key"],
                json.loads(r["record"]),
                r["game_id"],
                r["updated_at"],
            )
            for r in rows
        }

    # -- log ---------------------------------------------------------------------------------------
    async def interaction_used(self, interaction_id: str) -> bool:
        """True when a command with this interaction id is in the log."""
        return (
            await self.pool.fetchval("SELECT 1 FROM commands WHERE interaction_id = $1", interaction_id)
            is not None
        )

    async def command_log(self, game_id: int, last: int | None = None) -> list[LogLine]:
        """The command log, oldest first."""
        rows = await self.pool.fetch(
            "SELECT * FROM commands WHERE game_id = $1 ORDER BY seq DESC LIMIT $2", game_id, last
        )
        return [
            LogLine(
                r["seq"],
                r["seat"],
                r["user_id"],
                r["text"],
                json.loads(r["events"]),
                r["created_at"],
                r["interaction_id"],
            )
            for r in reversed(rows)
        ]

    # -- notifications -----------------------------------------------------------------------------
    @staticmethod
    def _notification(r: asyncpg.Record) -> Notification:
        return Notification(r["id"], r["game_id"], r["kind"], r["due_at"], json.loads(r["payload"]))

    async def due_notifications(self, now: float) -> list[Notification]:
        """Unsent notifications due by ``now``."""
        rows = await self.pool.fetch(
            "SELECT * FROM notifications WHERE sent_at IS NULL AND due_at <= $1 ORDER BY due_at, id", now
        )
        return [self._notification(r) for r in rows]

    async def claim_notifications(
        self, now: float, owner: str, shards: Shards | None = None, limit: int = 100
    ) -> list[Notification]:
        """Claim due notifications for ``owner`` (see :meth:`Store.claim_notifications`): rows another
        process is claiming at this moment are skipped, not waited for, and never returned twice."""
        shard_sql = ""
        args: list[Any] = [now, owner, limit]
        if shards is not None:
            shard_sql = " AND (coalesce(g.guild_id, '0')::bigint >> 22) % $4 = ANY($5::int[])"
            args += [shards.count, list(shards.ids)]
        rows = await self.pool.fetch(
            "UPDATE notifications SET claimed_by = $2, claimed_at = $1 WHERE id IN ("
            " SELECT n.id FROM notifications n JOIN games g ON g.id = n.game_id"
            f" WHERE {claimable_sql('$1')}{shard_sql}"
            " ORDER BY n.due_at, n.id LIMIT $3 FOR UPDATE OF n SKIP LOCKED)"
            " RETURNING *",
            *args,
        )
        return sorted((self._notification(r) for r in rows), key=lambda n: (n.due_at, n.id))

    async def pending_notifications(self, game_id: int) -> list[Notification]:
        """Unsent notifications of a game."""
        rows = await self.pool.fetch(
            "SELECT * FROM notifications WHERE sent_at IS NULL AND game_id = $1 ORDER BY due_at, id", game_id
        )
        return [self._notification(r) for r in rows]

    async def mark_sent(self, notification_id: int, now: float) -> None:
        """Mark a notification as handled."""
        await self.pool.execute("UPDATE notifications SET sent_at = $1 WHERE id = $2", now, notification_id)

    # -- living messages ---------------------------------------------------------------------------
    async def save_message(
        self,
        channel_id: str,
        kind: str,
        game_id: int,
        message_id: int,
        lines: list[str],
        image: bool,
        *,
        now: float,
    ) -> None:
        """Remember the channel's living message of ``kind`` (see :meth:`Store.save_message`)."""
        await self.pool.execute(
            "INSERT INTO living_messages (channel_id, kind, game_id, message_id, lines, image, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (channel_id, kind) DO UPDATE SET"
            " game_id = excluded.game_id, message_id = excluded.message_id, lines = excluded.lines,"
            " image = excluded.image, updated_at = excluded.updated_at",
            channel_id,
            message_kind(kind),
            game_id,
            str(message_id),
            json.dumps(lines),
            image,
            now,
        )

    async def load_messages(self, channel_id: str) -> dict[str, StoredMessage]:
        """The channel's remembered living messages by kind."""
        rows = await self.pool.fetch("SELECT * FROM living_messages WHERE channel_id = $1", channel_id)
        return {
            r["kind"]: StoredMessage(
                r["kind"], r["game_id"], int(r["message_id"]), json.loads(r["lines"]), bool(r["image"])
            )
            for r in rows
        }

    async def drop_message(self, channel_id: str, kind: str) -> None:
        """Forget the channel's living message of ``kind``."""
        await self.pool.execute(
            "DELETE FROM living_messages WHERE channel_id = $1 AND kind = $2", channel_id, kind
        )


def _schedule_ctes(args: list[Any], schedule: Schedule | None, *, cancel: bool) -> str:
    """CTEs (on the game ``g``) replacing its notifications as ``schedule`` says; appends their
    arguments to ``args``. The DELETE does not see the rows the INSERT adds: one statement, one snapshot."""
    if schedule is None:
        return ""
    sql = ""
    if cancel and schedule.cancel:
        args.append(list(schedule.cancel))
        sql += (
            ", d AS (DELETE FROM notifications n USING g WHERE n.game_id = g.id"
            f" AND n.kind = ANY(${len(args)}::text[]) AND n.sent_at IS NULL)"
        )
    if schedule.add:
        args += [
            [kind for kind, _due, _p in schedule.add],
            [float(due) for _k, due, _p in schedule.add],
            [json.dumps(payload) for _k, _due, payload in schedule.add],
        ]
        n = len(args)
        sql += (
            ", n AS (INSERT INTO notifications (game_id, kind, due_at, payload) SELECT g.id, x.kind, x.due,"
            f" x.payload FROM g, unnest(${n - 2}::text[], ${n - 1}::float8[], ${n}::text[])"
            " AS x(kind, due, payload))"
        )
    return sql


def url_password(url: str) -> str:
    """The password in a database URL ("" when it has none)."""
    rest = url.partition("://")[2]
    credentials = rest.rpartition("@")[0] if "@" in rest else ""
    return credentials.partition(":")[2] if ":" in credentials else ""
