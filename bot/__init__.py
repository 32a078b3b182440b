"""Escapade's Discord adapter. :func:`create_bot` builds the configured bot without logging in."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.client import EscapadeBot


def create_bot(
    database: str | Path | None = None,
    *,
    env_file: str | Path | None = None,
    clock: Callable[[], float] | None = None,
    **config: Any,
) -> EscapadeBot:
    """The configured bot, not logged in. ``config`` overrides :class:`bot.config.Config` fields.

    Settings come from ``env_file`` (none by default) and the environment, then ``database`` and
    ``config``. With ``shards`` (ESCAPADE_SHARDS) it is an auto-sharded bot running only those shards
    of ``shard_count``; raises ValueError when they do not fit together. Call ``await bot.start(token)`` to run it, or drive it offline with ``tests/harness.py``.
    """
    import time

    from bot.client import EscapadeBot, ShardedEscapadeBot
    from bot.config import Config

    if database is not None:
        config["database"] = str(database)
    cfg = Config.load(env_file, **config)
    shards = cfg.shard_set()
    if shards is not None:  # several processes: this one runs only these shards
        return ShardedEscapadeBot(
            cfg, clock=clock or time.time, shard_ids=list(shards.ids), shard_count=shards.count
        )
    return EscapadeBot(cfg, clock=clock or time.time)


__all__ = ["create_bot"]
