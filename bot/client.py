"""The bot: a :class:`commands.Bot` with the store, the game service, the cogs, persistent buttons and the
scheduled-notifications loop (reminders, reaction timeouts, expiry)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot import errors, present
from bot.config import Config, Shards
from bot.database import open_store
from bot.deadline import in_time
from bot.edits import EditQueue
from bot.games import GameService, Played
from bot.replies import Replier
from bot.store import Notification, Store
from bot.views import DYNAMIC_ITEMS

log = logging.getLogger("escapade")

CLAIM_BATCH = 100  # notifications claimed at a time

COGS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.rules", "bot.cogs.campaign")


class EscapadeBot(commands.Bot):
    """Escapade's Discord client. Build it with :func:`create_bot`."""

    def __init__(
        self,
        config: Config,
        *,
        store: Store | None = None,
        clock: Callable[[], float] = time.time,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread cache; no privileged intent
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.config = config
        self.clock = clock
        self.store: Store = store or open_store(config.database)
        self.games = GameService(self.store, config, clock)
        self.edits = EditQueue()  # message edits, coalesced per channel within the rate limit
        self.replier = Replier(self)
        self.shards_served: Shards | None = config.shard_set()
        # Who claims notifications in a shared store: this process, unique across machines and restarts.
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        # Commands are registered with Discord once, by the process running shard 0 (or all shards).
        self.sync_commands = self.shards_served is None or 0 in self.shards_served.ids
        self._notify_task: asyncio.Task[None] | None = None
        self.reply_retry_pauses: tuple[float, ...] = (1.0, 3.0)  # seconds before each new try of a reply

    async def setup_hook(self) -> None:
        """Open the store, load the cogs, register the buttons, send what fell due while we were down."""
        await self.store.open()
        errors.install(self)
        for name in COGS:
            await self.load_extension(name)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.sync_commands and self.config.token:
            if self.config.dev_guild_id:
                guild = discord.Object(self.config.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        await self.run_due_notifications()
        if self.config.notify_interval > 0:
            self._notify_task = asyncio.create_task(self._notify_loop(), name="escapade-notifications")

    async def close(self) -> None:
        """Stop the loop, close the store, then disconnect."""
        if self._notify_task is not None:
            self._notify_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._notify_task
        self.edits.cancel()
        self.games.thinker.close()
        await super().close()
        await self.store.close()

    # -- replies -----------------------------------------------------------------------------------
    async def reply_played(self, interaction: discord.Interaction, played: Played, note: str = "") -> None:
        """Answer an interaction: the turn message is edited, or a new one posted pinging whoever the
        decision passed to (see :mod:`bot.replies`)."""
        await self.replier.played(interaction, played, note=note)

    async def show_moves(self, interaction: discord.Interaction, seat: str) -> None:
        """Privately, the board with ``seat``'s reachable squares and targets highlighted."""
        await self.replier.show_moves(interaction, seat)

    async def confirmed(self, interaction: discord.Interaction, action: str, arg: str) -> None:
        """Carry out a confirmed ``abort`` or ``concede`` (``arg``: the seat, or empty for all)."""
        channel_id = str(interaction.channel_id)
        user = str(interaction.user.id)
        if action == "abort":
            perms = interaction.permissions
            row = await self.games.abort(channel_id, user, manager=bool(perms and perms.manage_channels))
            await self.replier.end_turns(channel_id)
            await self.replier.close_lobby(channel_id)
            await interaction.response.send_message(f"Game #{row.id} was aborted by <@{user}>.")
            return
        if action == "concede":
            row, played = await in_time(interaction, self.games.concede(channel_id, user, arg or None))
            if played is not None:
                note = f"<@{user}> concedes: 🤖 the game plays their seats now."
                await self.reply_played(interaction, played, note=note)
                return
            assert row.result is not None
            await self.replier.end_turns(channel_id)
            players = self.games.members_of(row, set(row.seats))
            content, allowed = present.mentions(players)
            send = (
                interaction.followup.send
                if interaction.response.is_done()
                else interaction.response.send_message
            )
            await send(
                f"Game #{row.id} is over. {present.result_text(row, row.result)}\n"
                + content.replace("— your move.", "").strip(),
                allowed_mentions=allowed,
            )
            return
        raise errors.Refusal(f"Nothing to confirm for '{action}'.")

    def channel_for(self, channel_id: str) -> discord.abc.Messageable:
        """A channel to post in, cached or not (only its id is needed to send)."""
        channel = self.get_channel(int(channel_id))
        if isinstance(channel, discord.abc.Messageable):
            return channel
        return self.get_partial_messageable(int(channel_id))

    # -- notifications -----------------------------------------------------------------------------
    async def _notify_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.notify_interval)
            try:
                await self.run_due_notifications()
            except Exception:
                log.exception("Notification loop failed; trying again later")

    async def run_due_notifications(self, now: float | None = None) -> int:
        """Send every notification due by ``now`` for this process's servers; returns how many were
        handled. Each is claimed first, so processes sharing the store never send one twice."""
        now = self.clock() if now is None else now
        handled = 0
        while True:
            due = await self.store.claim_notifications(now, self.owner, self.shards_served, CLAIM_BATCH)
            for n in due:
                try:
                    await self._notify(n)
                except Exception:
                    log.exception("Notification %s (%s) for game %s failed", n.id, n.kind, n.game_id)
                await self.store.mark_sent(n.id, now)
            handled += len(due)
            if len(due) < CLAIM_BATCH:
                return handled

    async def _notify(self, n: Notification) -> None:
        row = await self.store.get_game(n.game_id)
        if row is None or not row.live or row.version != n.payload.get("version"):
            return  # the game moved on: nothing to say
        channel = self.channel_for(row.channel_id)
        if n.kind == "reminder":
            members = [
                m
                for m in self.games.awaited_members(row, self.games.load(row).awaiting())
                if any(row.seats.get(s) == m for s in n.payload.get("seats", []))
            ]
            if members:
                game = self.games.load(row)
                content, allowed = present.mentions(members)
                asked = "; ".join(dict.fromkeys(d.prompt.rstrip(".") for d in game.awaiting() if d.prompt))
                link = await self.replier.turn_link(row.guild_id, row.channel_id, row.id)
                text = (
                    f"⏰ Reminder — {game.ruleset.name} game #{row.id}"
                    + (f" ({game.turn_label()})" if game.turn_label() else "")
                    + f": {content.replace(' — your move.', '')}, the game waits for you: {asked or 'your move'}."
                    + (f" {link}" if link else "")
                )
                await channel.send(text[:1900], allowed_mentions=allowed)
        elif n.kind == "timeout":
            version = row.version
            for seat in n.payload.get("seats") or [n.payload["seat"]]:
                try:  # each answer only if nothing else was played since the previous one
                    played = await self.games.play(
                        row.channel_id,
                        None,
                        n.payload["command"],
                        seat=seat,
                        expected_version=version,
                        auto="timeout",
                    )
                except (errors.Refusal, ValueError):  # moved on, or the engine refuses (a RuleError)
                    return
                version = played.row.version
                await self.replier.played(None, played)
        elif n.kind == "expire":
            ended = await self.games.expire(row.channel_id, row.id, row.version)
            if ended is not None:
                await self.replier.end_turns(row.channel_id)
                await self.replier.close_lobby(row.channel_id)
            if ended is not None and ended.result:
                await channel.send(f"⌛ Game #{ended.id}: {ended.result['reason']}")


class ShardedEscapadeBot(EscapadeBot, commands.AutoShardedBot):
    """Escapade's client for some of the shards (``shard_ids`` out of ``shard_count``), one of several
    processes sharing a PostgreSQL store. Build it with :func:`create_bot` and ESCAPADE_SHARDS."""


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
    of ``shard_count``; raises ValueError when they do not fit together. Call ``await bot.start(token)``
    to run it, or drive it offline with ``tests/harness.py``.
    """
    if database is not None:
        config["database"] = str(database)
    cfg = Config.load(env_file, **config)
    shards = cfg.shard_set()
    if shards is not None:  # several processes: this one runs only these shards
        return ShardedEscapadeBot(
            cfg, clock=clock or time.time, shard_ids=list(shards.ids), shard_count=shards.count
        )
    return EscapadeBot(cfg, clock=clock or time.time)
