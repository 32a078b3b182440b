"""Configuration from the environment and an optional ``.env`` file (no extra dependency).

Every setting has a default except ``DISCORD_TOKEN``; see ``.env.example``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any


def read_env_file(path: str | Path) -> dict[str, str]:
    """Parse a ``.env`` file: ``KEY=value`` lines, ``#`` comments, optional quotes and ``export``."""
    values: dict[str, str] = {}
    p = Path(path)
    if not p.is_file():
        return values
    for raw in p.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        values[key.strip()] = value
    return values


@dataclass(frozen=True)
class Shards:
    """The Discord shards one process serves: ``ids`` out of ``count``.

    A server belongs to shard ``(guild_id >> 22) % count`` (Discord's rule); a game outside a server
    (no guild id) to shard 0, where Discord delivers direct messages.
    """

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: str | None) -> bool:
        """True when the server ``guild_id`` is served by one of these shards."""
        return (int(guild_id or 0) >> 22) % self.count in self.ids


@dataclass(frozen=True)
class Config:
    """The bot's settings. Durations are in hours."""

    token: str = field(default="", repr=False)  # a secret: never in a repr or a log line
    database: str = "./data/escapade.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    reminder_hours: float = 24.0  # default delay for opt-in reminders (players switch them on per game)
    reaction_timeout_hours: float = 12.0  # an unanswered reaction gets its default answer after this
    lobby_expiry_hours: float = 72.0  # a lobby nobody starts is closed after this
    game_expiry_hours: float = 24.0 * 30  # a game without a move for this long is closed
    notify_interval: float = 60.0  # seconds between checks for due notifications (0: no loop)
    cache_size: int = 64  # games kept in memory (least recently played dropped first)
    shards: tuple[int, ...] = ()  # the Discord shards this process runs (empty: all of them)
    shard_count: int = 0  # how many shards in all (0: one process, Discord's recommended count)

    ENV = {
        "token": "DISCORD_TOKEN",
        "database": "ESCAPADE_DATABASE",
        "dev_guild_id": "DEV_GUILD_ID",
        "log_level": "LOG_LEVEL",
        "reminder_hours": "ESCAPADE_REMINDER_HOURS",
        "reaction_timeout_hours": "ESCAPADE_REACTION_TIMEOUT_HOURS",
        "lobby_expiry_hours": "ESCAPADE_LOBBY_EXPIRY_HOURS",
        "game_expiry_hours": "ESCAPADE_GAME_EXPIRY_HOURS",
        "notify_interval": "ESCAPADE_NOTIFY_INTERVAL",
        "cache_size": "ESCAPADE_CACHE_SIZE",
        "shards": "ESCAPADE_SHARDS",
        "shard_count": "ESCAPADE_SHARD_COUNT",
    }

    @classmethod
    def load(cls, env_file: str | Path | None = ".env", **overrides: Any) -> Config:
        """Settings from ``env_file`` then the process environment (which wins), then ``overrides``."""
        source = read_env_file(env_file) if env_file else {}
        source.update({k: v for k, v in os.environ.items() if k in cls.ENV.values()})
        config = cls()
        values: dict[str, Any] = {}
        for f in fields(cls):
            name = cls.ENV.get(f.name)
            if name and source.get(name, "").strip():
                values[f.name] = _convert(f.name, source[name].strip(), getattr(config, f.name))
        values.update(overrides)
        return replace(config, **values)

    def shard_set(self) -> Shards | None:
        """The shards this process serves, or None when it serves them all (no ESCAPADE_SHARDS).

        Raises ValueError when ESCAPADE_SHARDS is set without ESCAPADE_SHARD_COUNT, or names a shard
        outside ``0 .. count - 1``.
        """
        if not self.shards:
            return None
        if self.shard_count <= 0:
            raise ValueError(
                "ESCAPADE_SHARDS (--shards) needs ESCAPADE_SHARD_COUNT (--shard-count): how many shards "
                "all the processes run together."
            )
        outside = [s for s in self.shards if not 0 <= s < self.shard_count]
        if outside:
            raise ValueError(
                f"Shard {outside[0]} does not exist with {self.shard_count} shards (they are numbered 0 to "
                f"{self.shard_count - 1})."
            )
        return Shards(tuple(sorted(set(self.shards))), self.shard_count)


def _convert(name: str, text: str, default: Any) -> Any:
    if name == "dev_guild_id":
        return int(text)
    if name == "shards":
        return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    if isinstance(default, bool):
        return text.lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    return text
