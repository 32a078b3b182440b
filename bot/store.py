"""Persistence: games, the append-only command log and scheduled notifications.

:class:`Store` is the small repository interface the rest of the bot uses; :class:`SqliteStore` implements
it with aiosqlite (WAL, numbered migrations in ``bot/migrations``). ``bot/store_pg.py`` implements the same
interface on PostgreSQL (asyncpg), and ``bot/database.py`` picks one from ``ESCAPADE_DATABASE``; nothing
SQLite-specific leaks out of this module.

A game's stored snapshot is its engine JSON without the command log (``"log": []``): the log is the
``commands`` table, so a command writes its own row and a snapshot of constant size, never the whole
history again. :func:`full_snapshot` puts the two back together (what ``Game.to_json`` gives); snapshots
written before this (with their log inside) are read as they are.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.config import Shards
from engine import canonical
from engine.game import Game

LIVE = ("lobby", "playing")
CLAIM_LEASE = 600.0  # seconds after which a claimed, unsent timeout or expiry may be claimed again


class ChannelBusy(Exception):
    """A running game (lobby or playing) already exists in that channel."""


class StoreError(Exception):
    """The store cannot be used as configured (bad location, damaged or newer database).

    The message is one paragraph for the person running the bot: what is wrong and what to do.
    """


SUPPORTED = (
    "a SQLite file path such as ./data/escapade.db (the default), sqlite:///absolute/path.db, "
    ":memory: for a throwaway store, or a PostgreSQL URL postgresql://user:password@host:5432/database"
)


def sqlite_path(database: str) -> str:
    """The SQLite file ``database`` names (a path, ``sqlite:///path`` or ``:memory:``).

    Raises StoreError for anything else, such as a URL of a database this version does not support.
    """
    value = database.strip()
    if not value:
        raise StoreError(f"ESCAPADE_DATABASE is empty. Set it to {SUPPORTED}.")
    if value.startswith("sqlite:///"):
        value = value.removeprefix("sqlite://")
    elif value.startswith("sqlite://"):
        raise StoreError(
            f"ESCAPADE_DATABASE={database!r} has no file path: write sqlite:///path/to/file.db "
            "(three slashes, then the path)."
        )
    if "://" in value:
        scheme = value.split("://", 1)[0]
        raise StoreError(
            f"ESCAPADE_DATABASE={redact(database)!r} names a {scheme} database, which this version of "
            f"Escapade does not support. Supported: {SUPPORTED}."
        )
    return value


def redact(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in credentials else url


@dataclass
class GameRow:
    """One game as stored: its channel, seats, status, version and latest snapshot."""

    id: int
    guild_id: str | None
    channel_id: str
    ruleset: str
    scenario: str | None
    creator_id: str
    seats: dict[str, str | None]  # seat -> member id, "bot", or None (empty)
    status: str
    version: int
    snapshot: str | None
    settings: dict[str, Any]
    result: dict[str, Any] | None
    created_at: float
    updated_at: float

    @property
    def live(self) -> bool:
        """True while the game is in its lobby or being played."""
        return self.status in LIVE


@dataclass
class LoggedCommand:
    """One accepted command for the log."""

    seat: str
    user_id: str | None
    text: str
    events: list[dict[str, Any]]
    interaction_id: str | None = None


@dataclass
class LogLine:
    """One row of the command log, as read back."""

    seq: int
    seat: str
    user_id: str | None
    text: str
    events: list[dict[str, Any]]
    created_at: float
    interaction_id: str | None = None


@dataclass
class Notification:
    """A scheduled message: a reminder, a reaction timeout or an expiry."""

    id: int
    game_id: int
    kind: str
    due_at: float
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass
class CampaignRecord:
    """A campaign record as stored: whose it is (member id, or "*" for the server) and its data."""

    guild_id: str
    ruleset: str
    scope_key: str
    record: dict[str, Any]
    game_id: int | None
    updated_at: float


@dataclass
class StoredMessage:
    """A channel's living message as stored: a turn message or a lobby message (see ``bot.replies``)."""

    kind: str  # "turn" or "lobby"
    game_id: int
    message_id: int
    lines: list[str] = field(default_factory=list)  # a turn message's narration
    image: bool = False  # whether it holds the board image


MESSAGE_KINDS = ("turn", "lobby")


@dataclass
class Schedule:
    """Notifications to replace after a change: ``cancel`` kinds are dropped, ``add`` ones inserted."""

    cancel: tuple[str, ...] = ()
    add: list[tuple[str, float, dict[str, Any]]] = field(default_factory=list)


class Store(ABC):
    """The repository interface the bot uses. Every method is one transaction."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date."""

    @abstractmethod
    async def close(self) -> None:
        """Disconnect."""

    @abstractmethod
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
        """Open a lobby. Raises ChannelBusy when the channel already has a running game."""

    @abstractmethod
    async def live_game(self, channel_id: str) -> GameRow | None:
        """The running game (lobby or playing) in a channel, if any."""

    @abstractmethod
    async def latest_game(self, channel_id: str) -> GameRow | None:
        """The most recent game in a channel, running or not."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id."""

    @abstractmethod
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
        """Change a game in one transaction if its version is still ``expected_version``.

        ``commands`` are appended to the log and advance the version by their number; ``campaign``
        records (scope key to record) are written for the game's server and ruleset in the same
        transaction. Returns the new row, or None when the version moved on or an interaction id was
        already used (nothing changed).
        """

    @abstractmethod
    async def campaign_records(
        self, guild_id: str | None, ruleset: str, scope_keys: list[str] | None = None
    ) -> dict[str, CampaignRecord]:
        """A server's campaign records of a ruleset by scope key (only ``scope_keys`` when given)."""

    @abstractmethod
    async def interaction_used(self, interaction_id: str) -> bool:
        """True when a command with this interaction id is in the log."""

    @abstractmethod
    async def command_log(self, game_id: int, last: int | None = None) -> list[LogLine]:
        """The game's command log, oldest first (only the ``last`` lines when given)."""

    @abstractmethod
    async def due_notifications(self, now: float) -> list[Notification]:
        """Unsent notifications due at ``now`` or earlier, oldest first."""

    @abstractmethod
    async def claim_notifications(
        self, now: float, owner: str, shards: Shards | None = None, limit: int = 100
    ) -> list[Notification]:
        """Claim up to ``limit`` unsent notifications due by ``now`` for ``owner`` (one process), oldest
        first, only of games on ``shards`` (every game when None), in one transaction.

        A notification is claimed by one owner only, however many processes ask at once. A claim whose
        owner did not mark it sent within :data:`CLAIM_LEASE` seconds (the process died) may be taken
        over for a timeout or an expiry, which the game's version guards against playing twice; never
        for a reminder, which might then be sent twice.
        """

    @abstractmethod
    async def mark_sent(self, notification_id: int, now: float) -> None:
        """Mark a notification as handled."""

    @abstractmethod
    async def pending_notifications(self, game_id: int) -> list[Notification]:
        """Unsent notifications of a game (for status and tests)."""

    # -- living messages: not game state, each write its own small transaction --------------------------
    @abstractmethod
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
        """Remember the channel's living message of ``kind`` ("turn" or "lobby"), replacing the one
        remembered before. Raises ValueError for another kind."""

    @abstractmethod
    async def load_messages(self, channel_id: str) -> dict[str, StoredMessage]:
        """The channel's remembered living messages by kind (empty when none)."""

    @abstractmethod
    async def drop_message(self, channel_id: str, kind: str) -> None:
        """Forget the channel's living message of ``kind`` (nothing happens when none is remembered)."""

    async def full_snapshot(self, row: GameRow) -> str | None:
        """The game's whole engine JSON (what ``Game.to_json`` gives): its snapshot with the logged
        commands put back in. None for a lobby."""
        if row.snapshot is None:
            return None
        return full_snapshot(row.snapshot, row.version, await self.command_log(row.id))


def message_kind(kind: str) -> str:
    """``kind`` when it is a living message's kind; raises ValueError otherwise."""
    if kind not in MESSAGE_KINDS:
        raise ValueError(f"a living message is a turn or a lobby message, not {kind!r}")
    return kind


def state_snapshot(game: Game) -> str:
    """The snapshot to store for ``game``: its engine JSON without the command log (the log is stored
    command by command, so the snapshot stays the same size however long the game runs)."""
    data = game.to_data()
    data["log"] = []
    data["log_start"] = game.plies  # the position knows how many commands led to it
    if not data["log_start"]:
        del data["log_start"]
    return canonical.dumps(data)


def full_snapshot(snapshot: str, version: int, log: list[LogLine]) -> str:
    """``snapshot`` with the first ``version`` commands of ``log`` as its log (a snapshot that already
    holds its log, as written before logs were left out, comes back unchanged).

    Raises ValueError when the log is shorter than the snapshot's version (a damaged store).
    """
    data = canonical.loads(snapshot)
    held = len(data.get("log") or [])
    if held < version:
        missing = [[line.seat, line.text] for line in log if held < line.seq <= version]
        if len(missing) != version - held:
            raise ValueError(f"the command log has {held + len(missing)} of {version} commands")
        data["log"] = [*(data.get("log") or []), *missing]
    data.pop("log_start", None)
    return canonical.dumps(data)


def claimable_sql(placeholder: str = "?") -> str:
    """The condition (on ``notifications n``) for a notification that may be claimed at ``now``: unsent,
    due, and unclaimed or (not a reminder) claimed longer than the lease ago. Takes ``now`` twice."""
    p = placeholder
    return (
        f"n.sent_at IS NULL AND n.due_at <= {p} AND (n.claimed_at IS NULL OR "
        f"(n.kind <> 'reminder' AND n.claimed_at < {p} - {CLAIM_LEASE}))"
    )


def migrations(dialect: str = "") -> list[tuple[int, str]]:
    """The numbered migrations (version, SQL) in order: SQLite's in ``bot/migrations``, another
    dialect's in ``bot/migrations/<dialect>`` (kept in step: the same numbers, the same schema)."""
    folder = resources.files("bot") / "migrations"
    if dialect:
        folder = folder / dialect
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), entry.read_text(encoding="utf-8")))
    return sorted(found)


def sql_statements(script: str) -> list[str]:
    """A migration script split into its statements, in order (comments stay with their statement)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines():
        pending += line + "\n"
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    leftover = [ln for ln in pending.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise ValueError(f"unterminated SQL statement in a migration: {leftover[0][:80]}")
    return statements


class SqliteStore(Store):
    """The SQLite store: one aiosqlite connection in WAL mode, writes serialised by a lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._db is None:
            raise RuntimeError("The store is not open.")
        return self._db

    async def open(self) -> None:
        """Connect, set WAL and apply the migrations not applied yet, in one write transaction.

        Raises StoreError, with what to do, when the file cannot be opened or created, is not a SQLite
        database, or was written by a newer version of Escapade (it is left untouched in each case).
        """
        try:
            await self._connect()
            await self._migrate()
        except StoreError:
            await self.close()
            raise
        except (OSError, sqlite3.Error) as exc:
            await self.close()
            raise StoreError(self._explain(exc)) from exc

    async def _connect(self) -> None:
        if self.path != ":memory:":
            target = Path(self.path)
            if target.is_dir():
                raise StoreError(
                    f"The database path {self.path} is a folder. Set ESCAPADE_DATABASE to a file inside "
                    f"it, for example {target / 'escapade.db'}."
                )
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError) as exc:
                raise StoreError(
                    f"Cannot create the folder for the database {self.path}: a part of that path is a "
                    "file, not a folder. Choose another ESCAPADE_DATABASE, or move that file away."
                ) from exc
            except PermissionError as exc:
                raise StoreError(
                    f"Cannot create the folder {target.parent} for the database: permission denied. "
                    "Choose an ESCAPADE_DATABASE in a folder this user may write to."
                ) from exc
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        # The busy timeout first: another process may be creating the same database right now.
        await self._db.execute("PRAGMA busy_timeout=10000")
        await self._set_wal()
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")

    async def _set_wal(self) -> None:
        """Switch to WAL (on a new file another process may be switching at the same moment)."""
        await self._unlocked("PRAGMA journal_mode=WAL")

    async def _begin(self) -> None:
        """Open a write transaction. SQLite waits for another process's writer (the busy timeout)."""
        await self._unlocked("BEGIN IMMEDIATE")

    async def _unlocked(self, sql: str) -> None:
        """Run ``sql``. In a few WAL cases (two processes switching a new file to WAL, some BEGIN
        IMMEDIATEs) SQLite answers "locked" at once instead of waiting: try again for up to 10 s then."""
        for attempt in range(200):
            try:
                async with self.db.execute(sql) as cur:
                    await cur.fetchall()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 199:
                    raise
                await asyncio.sleep(0.05)

    async def _migrate(self) -> None:
        """Apply the missing migrations inside one write transaction, so two processes starting on a new
        database at once never both apply one; refuse a database from a newer version."""
        db = self.db
        known = migrations()
        newest = known[-1][0] if known else 0
        await self._begin()
        try:
            await db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
            async with db.execute("SELECT version FROM schema_migrations") as cur:
                done = {r[0] for r in await cur.fetchall()}
            unknown = sorted(v for v in done if v > newest)
            if unknown:
                raise StoreError(
                    f"The database {self.path} was written by a newer version of Escapade (schema "
                    f"{unknown[-1]}; this version knows up to {newest}). Upgrade Escapade, or point "
                    "ESCAPADE_DATABASE at another file. The database was not changed."
                )
            for version, sql in known:
                if version in done:
                    continue
                for statement in sql_statements(sql):
                    await db.execute(statement)
                await db.execute("INSERT INTO schema_migrations (version) VALUES (?)", (version,))
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    def _explain(self, exc: BaseException) -> str:
        """One paragraph for a failure to open the database."""
        text = str(exc).lower()
        if isinstance(exc, sqlite3.DatabaseError) and (
            "not a database" in text or "malformed" in text or "corrupt" in text
        ):
            return (
                f"The file {self.path} is not a readable Escapade database (SQLite says: {exc}). It was "
                "left untouched. Restore it from a backup, or move it aside and start with a new "
                "ESCAPADE_DATABASE file."
            )
        if "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
            return (
                f"The database {self.path} cannot be written (permission denied or a read-only "
                "folder). Give this user write access to the file and its folder (SQLite also writes "
                "-wal and -shm files beside it), or choose another ESCAPADE_DATABASE."
            )
        if "unable to open" in text:
            return (
                f"SQLite cannot open or create {self.path}. Check that its folder exists and that this "
                "user may write there, or choose another ESCAPADE_DATABASE."
            )
        if "locked" in text or "busy" in text:
            return (
                f"The database {self.path} is locked by another process. Stop the other Escapade "
                "process using it, or wait a moment and start again."
            )
        return f"The database {self.path} cannot be used: {exc}. Check ESCAPADE_DATABASE."

    async def close(self) -> None:
        """Close the connection."""
        if self._db is not None:
            await self._db.close()
            self._db = None

    # -- games -------------------------------------------------------------------------------------
    @staticmethod
    def _row(r: sqlite3.Row | None) -> GameRow | None:
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

    async def _one(self, sql: str, args: tuple[Any, ...]) -> GameRow | None:
        async with self.db.execute(sql, args) as cur:
            return self._row(await cur.fetchone())

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
        """Open a lobby. Raises ChannelBusy when the channel already has a running game."""
        async with self._lock:
            await self._begin()
            try:
                cur = await self.db.execute(
                    "INSERT INTO games (guild_id, channel_id, ruleset, scenario, creator_id, seats, status,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?)",
                    (guild_id, channel_id, ruleset, scenario, creator_id, json.dumps(seats), now, now),
                )
                game_id = cur.lastrowid
                assert game_id is not None
                await self._schedule(game_id, schedule)
                await self.db.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                await self.db.execute("ROLLBACK")
                raise ChannelBusy(channel_id) from exc
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        assert row is not None
        return row

    async def live_game(self, channel_id: str) -> GameRow | None:
        """The running game in a channel, if any."""
        return await self._one(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,)
        )

    async def latest_game(self, channel_id: str) -> GameRow | None:
        """The most recent game in a channel."""
        return await self._one(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game by id."""
        return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

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
        """Change a game in one transaction if its version is still ``expected_version``."""
        sets = ["updated_at = ?", "version = ?"]
        new_version = expected_version + len(commands or [])
        args: list[Any] = [now, new_version]
        for column, value in (
            ("seats", seats),
            ("status", status),
            ("snapshot", snapshot),
            ("settings", settings),
            ("result", result),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                args.append(value if isinstance(value, str) else json.dumps(value))
        async with self._lock:
            await self._begin()
            try:
                cur = await self.db.execute(
                    f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                    (*args, game_id, expected_version),
                )
                if cur.rowcount != 1:
                    await self.db.execute("ROLLBACK")
                    return None
                for i, c in enumerate(commands or []):
                    await self.db.execute(
                        "INSERT INTO commands (game_id, seq, seat, user_id, text, events, interaction_id,"
                        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            game_id,
                            expected_version + i + 1,
                            c.seat,
                            c.user_id,
                            c.text,
                            json.dumps(c.events, separators=(",", ":")),
                            c.interaction_id,
                            now,
                        ),
                    )
                await self._schedule(game_id, schedule)
                if campaign:
                    await self._save_campaign(game_id, campaign, now)
                await self.db.execute("COMMIT")
            except sqlite3.IntegrityError:
                await self.db.execute("ROLLBACK")
                return None
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

    async def _schedule(self, game_id: int, schedule: Schedule | None) -> None:
        if schedule is None:
            return
        for kind in schedule.cancel:
            await self.db.execute(
                "DELETE FROM notifications WHERE game_id = ? AND kind = ? AND sent_at IS NULL",
                (game_id, kind),
            )
        for kind, due, payload in schedule.add:
            await self.db.execute(
                "INSERT INTO notifications (game_id, kind, due_at, payload) VALUES (?, ?, ?, ?)",
                (game_id, kind, due, json.dumps(payload)),
            )

    # -- campaigns ---------------------------------------------------------------------------------
    async def _save_campaign(self, game_id: int, campaign: dict[str, dict[str, Any]], now: float) -> None:
        await self.db.execute(
            "INSERT INTO campaigns (guild_id, ruleset, scope_key, record, game_id, updated_at)"
            " SELECT coalesce(g.guild_id, ''), g.ruleset, j.key, j.value, g.id, ?"
            " FROM games g, json_each(?) j WHERE g.id = ?"
            " ON CONFLICT (guild_id, ruleset, scope_key) DO UPDATE SET"
            " record = excluded.record, game_id = excluded.game_id, updated_at = excluded.updated_at",
            (now, json.dumps(campaign, separators=(",", ":")), game_id),
        )

    async def campaign_records(
        self, guild_id: str | None, ruleset: str, scope_keys: list[str] | None = None
    ) -> dict[str, CampaignRecord]:
        """A server's campaign records of a ruleset by scope key (only ``scope_keys`` when given)."""
        sql = "SELECT * FROM campaigns WHERE guild_id = ? AND ruleset = ?"
        args: list[Any] = [guild_id or "", ruleset]
        if scope_keys is not None:
            if not scope_keys:
                return {}
            sql += f" AND scope_key IN ({', '.join('?' for _ in scope_keys)})"
            args += scope_keys
        async with self.db.execute(sql, args) as cur:
            rows = await cur.fetchall()
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
        async with self.db.execute(
            "SELECT 1 FROM commands WHERE interaction_id = ?", (interaction_id,)
        ) as cur:
            return await cur.fetchone() is not None

    async def command_log(self, game_id: int, last: int | None = None) -> list[LogLine]:
        """The command log, oldest first."""
        sql = "SELECT * FROM commands WHERE game_id = ? ORDER BY seq DESC"
        args: tuple[Any, ...] = (game_id,)
        if last is not None:
            sql += " LIMIT ?"
            args = (game_id, last)
        async with self.db.execute(sql, args) as cur:
            rows = await cur.fetchall()
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
            for r in reversed(list(rows))
        ]

    # -- notifications -----------------------------------------------------------------------------
    async def due_notifications(self, now: float) -> list[Notification]:
        """Unsent notifications due by ``now``."""
        async with self.db.execute(
            "SELECT * FROM notifications WHERE sent_at IS NULL AND due_at <= ? ORDER BY due_at, id", (now,)
        ) as cur:
            rows = await cur.fetchall()
        return [
            Notification(r["id"], r["game_id"], r["kind"], r["due_at"], json.loads(r["payload"]))
            for r in rows
        ]

    async def pending_notifications(self, game_id: int) -> list[Notification]:
        """Unsent notifications of a game."""
        async with self.db.execute(
            "SELECT * FROM notifications WHERE sent_at IS NULL AND game_id = ? ORDER BY due_at, id",
            (game_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [
            Notification(r["id"], r["game_id"], r["kind"], r["due_at"], json.loads(r["payload"]))
            for r in rows
        ]

    async def claim_notifications(
        self, now: float, owner: str, shards: Shards | None = None, limit: int = 100
    ) -> list[Notification]:
        """Claim due notifications for ``owner`` (see :meth:`Store.claim_notifications`). One write
        transaction: SQLite lets one writer in at a time, so two claims never overlap."""
        sql = f"SELECT n.* FROM notifications n JOIN games g ON g.id = n.game_id WHERE {claimable_sql()}"
        args: list[Any] = [now, now]
        if shards is not None:
            sql += (
                " AND (CAST(coalesce(g.guild_id, '0') AS INTEGER) >> 22) % ?"
                f" IN ({', '.join('?' for _ in shards.ids)})"
            )
            args += [shards.count, *shards.ids]
        sql += " ORDER BY n.due_at, n.id LIMIT ?"
        args.append(limit)
        async with self._lock:
            await self._begin()
            try:
                async with self.db.execute(sql, args) as cur:
                    rows = list(await cur.fetchall())
                await self.db.executemany(
                    "UPDATE notifications SET claimed_by = ?, claimed_at = ? WHERE id = ?",
                    [(owner, now, r["id"]) for r in rows],
                )
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
        return [
            Notification(r["id"], r["game_id"], r["kind"], r["due_at"], json.loads(r["payload"]))
            for r in rows
        ]

    async def mark_sent(self, notification_id: int, now: float) -> None:
        """Mark a notification as handled."""
        async with self._lock:
            await self.db.execute("UPDATE notifications SET sent_at = ? WHERE id = ?", (now, notification_id))

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
        async with self._lock:
            await self.db.execute(
                "INSERT INTO living_messages (channel_id, kind, game_id, message_id, lines, image, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (channel_id, kind) DO UPDATE SET"
                " game_id = excluded.game_id, message_id = excluded.message_id, lines = excluded.lines,"
                " image = excluded.image, updated_at = excluded.updated_at",
                (
                    channel_id,
                    message_kind(kind),
                    game_id,
                    str(message_id),
                    json.dumps(lines),
                    int(image),
                    now,
                ),
            )

    async def load_messages(self, channel_id: str) -> dict[str, StoredMessage]:
        """The channel's remembered living messages by kind."""
        async with self.db.execute(
            "SELECT * FROM living_messages WHERE channel_id = ?", (channel_id,)
        ) as cur:
            rows = await cur.fetchall()
        return {
            r["kind"]: StoredMessage(
                r["kind"], r["game_id"], int(r["message_id"]), json.loads(r["lines"]), bool(r["image"])
            )
            for r in rows
        }

    async def drop_message(self, channel_id: str, kind: str) -> None:
        """Forget the channel's living message of ``kind``."""
        async with self._lock:
            await self.db.execute(
                "DELETE FROM living_messages WHERE channel_id = ? AND kind = ?", (channel_id, kind)
            )
