"""Command line: ``escapade run`` starts the bot; ``escapade play ...`` plays in the terminal.

``escapade migrate-store --from FILE --to URL`` moves a SQLite store into PostgreSQL. Also ``python -m
bot.cli run`` (what ``./dev run`` calls).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord

from bot.client import create_bot
from bot.config import Config
from bot.database import open_store
from bot.migrate_store import migrate
from bot.store import StoreError, redact

NO_TOKEN = """\
Escapade needs a Discord bot token to run, and none was found (DISCORD_TOKEN in .env or the environment).
To get one: open https://discord.com/developers/applications, click "New Application", then on the Bot
page click "Reset Token" and copy it (no privileged gateway intent is needed: leave Presence, Server Members
and Message Content off). Put it in a file named .env next to this project as DISCORD_TOKEN=your-token (see
.env.example; ESCAPADE_DATABASE sets where games are stored, default ./data/escapade.db, and DEV_GUILD_ID=your
server id makes slash commands appear there instantly while you develop). Invite the bot with OAuth2 > URL
Generator: scopes "bot" and "applications.commands", permissions Send Messages, Send Messages in Threads,
Create Public Threads, Embed Links, Attach Files and Read Message History. Then run ./dev run again."""


NO_NETWORK = """\
Escapade cannot reach Discord ({error}). Check that this machine is online and can open HTTPS and
WebSocket connections to discord.com (a proxy or firewall may block them), then run ./dev run again.
Nothing was changed in the database."""


def run(argv: Sequence[str]) -> int:
    """Start the bot until interrupted; returns an exit status."""
    parser = argparse.ArgumentParser(prog="escapade run", description="Run the Escapade Discord bot.")
    parser.add_argument("--env", default=".env", help="settings file (default: .env)")
    parser.add_argument(
        "--shards", default=None, help="run only these shards, e.g. 0,1 (ESCAPADE_SHARDS; default: all)"
    )
    parser.add_argument(
        "--shard-count", type=int, default=None, help="shards across all processes (ESCAPADE_SHARD_COUNT)"
    )
    args = parser.parse_args(list(argv))

    overrides: dict[str, Any] = {}
    try:
        if args.shards is not None:
            overrides["shards"] = tuple(int(p) for p in args.shards.replace(" ", "").split(",") if p)
        if args.shard_count is not None:
            overrides["shard_count"] = args.shard_count
        config = Config.load(args.env, **overrides)
        config.shard_set()
    except ValueError as exc:
        print(f"Escapade cannot start: {exc}", file=sys.stderr)
        return 2
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    try:  # the store first: a bad database is reported before anything touches the network
        asyncio.run(check_store(config.database))
    except StoreError as exc:
        print(f"Escapade cannot start: {exc}", file=sys.stderr)
        return 2

    discord.utils.setup_logging(level=getattr(logging, config.log_level.upper(), logging.INFO))
    bot = create_bot(env_file=args.env, **overrides)

    async def main() -> None:
        async with bot:
            await bot.start(config.token)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN: reset it on the Bot page and update .env.",
            file=sys.stderr,
        )
        return 2
    except StoreError as exc:
        print(f"Escapade cannot start: {exc}", file=sys.stderr)
        return 2
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound, discord.ConnectionClosed) as exc:
        print(NO_NETWORK.format(error=exc), file=sys.stderr)
        return 2
    return 0


async def check_store(database: str) -> None:
    """Open and close the configured store once. Raises StoreError with what to do when it cannot."""
    store = open_store(database)
    await store.open()
    await store.close()


def migrate_store(argv: Sequence[str]) -> int:
    """Copy a SQLite store into an empty PostgreSQL one, checking every game; returns an exit status."""
    parser = argparse.ArgumentParser(
        prog="escapade migrate-store",
        description="Copy every game of a SQLite store into an empty PostgreSQL database, replaying each "
        "game's log to check it. Nothing is written unless every game checks out.",
    )
    parser.add_argument(
        "--from", dest="source", required=True, help="the SQLite file, e.g. ./data/escapade.db"
    )
    parser.add_argument("--to", dest="target", required=True, help="postgresql://user:password@host/database")
    args = parser.parse_args(list(argv))
    try:
        copied = asyncio.run(migrate(args.source, args.target))
    except StoreError as exc:
        print(f"escapade migrate-store: {exc}", file=sys.stderr)
        return 2
    counts = ", ".join(f"{n} {table}" for table, n in copied.rows.items())
    print(f"Copied {counts} into {redact(args.target)}; {copied.replayed} games replayed and checked.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``escapade`` script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(
            "usage: escapade run [--env FILE] [--shards 0,1 --shard-count 4]"
            " | escapade play RULESET [--scenario ID] [--bot SEAT] [--level easy|normal|hard]"
            " | escapade migrate-store --from SQLITE_FILE --to POSTGRESQL_URL"
        )
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command == "run":
        return run(rest)
    if command == "migrate-store":
        return migrate_store(rest)
    if command == "play":
        from bot import terminal  # the terminal player is imported only when asked for

        return int(terminal.main(rest) or 0)
    print(f"escapade: unknown command {command!r} (run, play, migrate-store)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
