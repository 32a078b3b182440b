"""The bot: a :class:`commands.Bot` with the store, the game service, the cogs, persistent buttons and the
scheduled-notifications loop (reminders, reaction timeouts, expiry)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import discord
from discord.ext import commands

from bot import errors
from bot.config import Config
from bot.games import GameService, Played
from bot.store import Notification, SqliteStore, Store

log = logging.getLogger("escapade")

COGS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.rules", "bot.cogs.campaign")


class EscapadeBot(commands.Bot):
    """Escapade's Discord client. Build it with :func:`bot.create_bot`."""

    def __init__(
        self, config: Config, *, store: Store | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread cache; no privileged intent
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.config = config
        self.clock = clock
        self.store: Store = store or SqliteStore(config.database)
        self.games = GameService(self.store, config, clock)
        self.sync_commands = True
        self._notify_task: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        """Open the store, load the cogs, register the buttons, send what fell due while we were down."""
        await self.store.open()
        errors.install(self)
        for name in COGS:
            await self.load_extension(name)
        from bot.views import DYNAMIC_ITEMS

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
        self.games.thinker.close()
        await super().close()
        await self.store.close()

    # -- replies -----------------------------------------------------------------------------------
    async def reply_played(self, interaction: discord.Interaction, played: Played, note: str = "") -> None:
        """Answer an interaction with narration, board and buttons, pinging whoever must act next."""
        from bot.present import send_played

        await send_played(interaction, played, self.games.to_ping(played), note=note)

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
        """Send every notification due by ``now``; returns how many were handled."""
        now = self.clock() if now is None else now
        due = await self.store.due_notifications(now)
        for n in due:
            try:
                await self._notify(n)
            except Exception:
                log.exception("Notification %s (%s) for game %s failed", n.id, n.kind, n.game_id)
            await self.store.mark_sent(n.id, now)
        return len(due)

    async def _notify(self, n: Notification) -> None:
        from bot.present import mentions, post_played

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
                content, allowed = mentions(members)
                await channel.send(f"⏰ Reminder: {content}", allowed_mentions=allowed)
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
                await post_played(channel, played, self.games.to_ping(played))
        elif n.kind == "expire":
            ended = await self.games.expire(row.channel_id, row.id, row.version)
            if ended is not None and ended.result:
                await channel.send(f"⌛ Game #{ended.id}: {ended.result['reason']}")
