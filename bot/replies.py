"""Posting what happened: one living turn message per activation, edited as commands come in.

A request that keeps the decision with the same members (another move of the same activation, another
answer in a heist round) edits the channel's turn message: its narration grows, its menus are rebuilt for
the new position; the request itself gets a short private acknowledgement. A new public message is
posted only when the decision passes to someone else (they are pinged, once), when the board image is
posted (an activation or round ended, the game started or ended), or when there is no turn message yet;
the message it replaces loses its components. Edits go through the channel's :class:`~bot.edits.EditQueue`.

The turn and lobby messages are remembered in the store as well as in memory (``Store.save_message``): after
a restart the first request in a channel reads them back, so the bot goes on editing the same messages and
takes the components off the ones it supersedes, as it would have without the restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import discord

from bot import present, render
from bot.app import App
from bot.deadline import acknowledge, drop_placeholder, holds_placeholder, posted_after_placeholder
from bot.errors import Refusal, ReplyFailed
from bot.games import Played
from bot.views import lobby_view, turn_view

log = logging.getLogger("escapade.replies")
T = TypeVar("T")


def transient(exc: BaseException) -> bool:
    """True for a failure worth trying again: Discord's 5xx, a rate limit, a dropped connection."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, aiohttp.ClientError | asyncio.TimeoutError | ConnectionError)


async def with_retries(call: Callable[[], Awaitable[T]], pauses: Sequence[float]) -> T:
    """``call()``, tried again after each pause while it fails transiently; raises its last failure."""
    for pause in pauses:
        try:
            return await call()
        except Exception as exc:
            if not transient(exc):
                raise
            log.warning("A reply failed (%s); trying again in %.1f s", exc, pause)
            await asyncio.sleep(pause)
    return await call()


@dataclass
class Living:
    """A channel's current turn message: its id, the narration it shows and whether it holds the board."""

    game_id: int
    message_id: int
    lines: list[str] = field(default_factory=list)
    image: bool = False
    seats: frozenset[str] = frozenset()  # the seats its menus were for


@dataclass
class Messages:
    """The living messages of every channel: turn messages and lobbies (a copy in memory of what the
    store remembers; ``loaded`` holds the channels whose stored messages were read since the start)."""

    turns: dict[str, Living] = field(default_factory=dict)
    lobbies: dict[str, tuple[int, int]] = field(default_factory=dict)  # channel -> (game id, message id)
    loaded: set[str] = field(default_factory=set)


def jump_link(guild_id: str | None, channel_id: str, message_id: int) -> str:
    """A link that opens a message (Discord's jump URL)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def content_for(played: Played, pings: list[str], note: str = "") -> tuple[str, discord.AllowedMentions]:
    """A new turn message's content: who is pinged and what is asked of them (shown in the notification)."""
    content, allowed = present.mentions(pings)
    if played.outcome is not None and content:
        content = content.replace("— your move.", "— the game is over.")
    elif content:
        mine = [d for d in played.decisions if any(played.row.seats.get(s) in pings for s in d.seats)]
        asked = " / ".join(dict.fromkeys(d.prompt for d in mine if d.prompt))
        if asked:
            content = content.replace("your move.", asked)[:1900]
    if note:
        content = f"{note}\n{content}".strip()
    return content, allowed


def embeds_for(played: Played, lines: list[str], image: bool) -> list[discord.Embed]:
    """The turn message's embeds: narration (with the board when it holds one) and, in a round, the seats."""
    embed = present.narration(played, lines)
    if image:
        embed.set_image(url="attachment://board.png")
    embeds = [embed]
    if played.round_options and played.outcome is None:
        embeds.append(present.round_embed(played))
    return embeds


class Replier:
    """Answers requests with turn messages; one per bot."""

    def __init__(self, bot: App) -> None:
        self.bot = bot
        self.messages = Messages()

    # -- turn messages -----------------------------------------------------------------------------
    async def played(self, interaction: discord.Interaction | None, played: Played, note: str = "") -> None:
        """Show ``played``: edit the channel's turn message, or post a new one (see the module doc).

        ``interaction`` None: nobody asked (a timeout answer); a new message is posted in the channel.
        """
        if played.look:
            if interaction is not None:
                await with_retries(lambda: self._look(interaction, played), self.bot.reply_retry_pauses)
            return
        row = played.row
        channel_id = row.channel_id
        actor = str(interaction.user.id) if interaction is not None else None
        pings = self.bot.games.to_ping(played, actor)
        await self.recall(channel_id)
        living = self.messages.turns.get(channel_id)
        if living is not None and living.game_id != row.id:
            living = None
        fresh = bool(played.board or pings or note or living is None or played.outcome is not None)
        # An edit goes on under the narration the message shows (the lines are all it will show); a new
        # message starts its own.
        lines = present.step_lines(played, None if fresh or living is None else living.lines)
        mine = [s.text for s in played.steps if s.secret and actor and s.user_id == actor]
        pauses = self.bot.reply_retry_pauses
        said = next((s.text for s in played.steps if not s.secret), "your command")
        if not fresh and living is not None:
            living.lines = lines
            self._edit_turn(channel_id, living, played)
            await self._store_turn(channel_id)
            try:
                await with_retries(lambda: self._acknowledge(interaction, played, living, mine), pauses)
            except Exception as exc:
                if not transient(exc):
                    raise
                raise ReplyFailed(said, posted=True) from exc  # the turn message shows it
            return
        if living is not None:
            self._retire(channel_id, living, played)
        if played.started:
            await self.close_lobby(channel_id)
        failure: Exception | None = None
        try:
            message_id, image = await with_retries(
                lambda: self._post(interaction, played, pings, lines, note), pauses
            )
        except Exception as exc:
            # The command is stored: never "nothing was changed". Post in the channel instead, through
            # the bot's own REST path, and tell the player the truth afterwards.
            if not transient(exc) or interaction is None:
                raise
            failure = exc
            try:
                message_id, image = await self._post(None, played, pings, lines, note)
            except Exception:
                log.exception("Could not post game %s's result in its channel either", row.id)
                raise ReplyFailed(said, posted=False) from exc
        if played.outcome is not None:
            self.messages.turns.pop(channel_id, None)
        elif message_id is not None:
            self.messages.turns[channel_id] = Living(row.id, message_id, lines, image)
        await self._store_turn(channel_id)
        if failure is not None:
            raise ReplyFailed(said, posted=True) from failure
        if mine and interaction is not None:  # the public message hides a simultaneous choice
            try:
                await with_retries(
                    lambda: interaction.followup.send(
                        "Your hidden choice: " + ", ".join(f"`{t}`" for t in mine), ephemeral=True
                    ),
                    pauses,
                )
            except Exception as exc:
                if not transient(exc):
                    raise
                log.warning("Could not show a hidden choice privately (%s)", exc)

    async def _look(self, interaction: discord.Interaction, played: Played) -> None:
        """Show the asker, privately, what a look command showed (the turn message stays as it is)."""
        step = played.steps[0]
        lines = [present.event_line(e) for e in step.events] or ["Nothing to show."]
        embed = discord.Embed(title=f"`{step.text}` (only you see this)", description=present.clip(lines))
        if holds_placeholder(interaction):
            await drop_placeholder(interaction)
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    def _edit_turn(self, channel_id: str, living: Living, played: Played) -> None:
        embeds = embeds_for(played, living.lines, living.image)
        view = turn_view(played)
        self.edit(channel_id, living.message_id, embeds=embeds, view=view)

    def _retire(self, channel_id: str, living: Living, played: Played) -> None:
        """The previous turn message keeps its narration (the latest, should an edit still be waiting)
        and loses its components."""
        embed = present.narration(played, living.lines)
        embed.clear_fields()
        if living.image:
            embed.set_image(url="attachment://board.png")
        self.edit(channel_id, living.message_id, embeds=[embed], view=None)

    async def _acknowledge(
        self, interaction: discord.Interaction | None, played: Played, living: Living, mine: list[str]
    ) -> None:
        if interaction is None:
            return
        said = ", ".join(f"`{t}`" for t in mine) or ", ".join(
            f"`{s.text}`" for s in played.steps if s.user_id == str(interaction.user.id)
        )
        link = jump_link(played.row.guild_id, played.row.channel_id, living.message_id)
        text = f"✅ Played {said or 'your command'} — the turn message shows it: {link}"[:1900]
        message = interaction.message
        if interaction.type is not discord.InteractionType.component or message is None:
            message = None
        on_turn = message is not None and message.id == living.message_id
        private_menu = message is not None and not on_turn and message.flags.ephemeral
        if holds_placeholder(interaction):  # the game thought long enough for a public placeholder
            await drop_placeholder(interaction)
            if not on_turn:  # a press on the turn message needs no word: the message shows it
                await interaction.followup.send(text, ephemeral=True)
        elif interaction.response.is_done():
            return
        elif on_turn:
            await interaction.response.defer()  # the turn message itself is being edited
        elif private_menu:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _post(
        self,
        interaction: discord.Interaction | None,
        played: Played,
        pings: list[str],
        lines: list[str],
        note: str,
    ) -> tuple[int | None, bool]:
        """Post a new turn message; returns its id and whether it holds the board image."""
        content, allowed = content_for(played, pings, note)
        kwargs: dict[str, Any] = {"allowed_mentions": allowed}
        if content:
            kwargs["content"] = content
        image = False
        if played.scene is not None:
            if interaction is not None and not interaction.response.is_done():
                await acknowledge(interaction)  # drawing the board may take longer than Discord waits
            png = await render.scene_png(played.scene)
            if png is not None:
                kwargs["file"] = present.board_file(png)
                image = True
        embeds = embeds_for(played, lines, image)
        if played.scene is not None and not image:
            embeds[0].add_field(name="Board", value=f"```\n{played.text_board[:1000]}\n```", inline=False)
        kwargs["embeds"] = embeds
        view = turn_view(played)
        if view is not None:
            kwargs["view"] = view
        if interaction is None:
            sent = await self.bot.channel_for(played.row.channel_id).send(**kwargs)
            return sent.id, image
        if interaction.response.is_done():
            followup = await interaction.followup.send(wait=True, **kwargs)
            await posted_after_placeholder(interaction)
            return followup.id, image
        response = await interaction.response.send_message(**kwargs)
        return response.message_id, image

    # -- edits -------------------------------------------------------------------------------------
    def edit(self, channel_id: str, message_id: int, **kwargs: Any) -> None:
        """Edit a message through the channel's coalesced queue (the latest edit of a message wins)."""
        partial = self.bot.get_partial_messageable(int(channel_id)).get_partial_message(message_id)
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())

        async def send() -> None:
            await partial.edit(**kwargs)

        self.bot.edits.edit(channel_id, message_id, send)

    # -- remembered in the store -------------------------------------------------------------------
    async def recall(self, channel_id: str) -> None:
        """Read the channel's living messages back from the store, once per channel since the start
        (after a restart memory holds none). A store failure is logged: the bot then posts anew."""
        if channel_id in self.messages.loaded:
            return
        try:
            stored = await self.bot.store.load_messages(channel_id)
        except Exception:
            log.exception("Could not read channel %s's living messages", channel_id)
            return
        self.messages.loaded.add(channel_id)
        turn, lobby = stored.get("turn"), stored.get("lobby")
        if turn is not None:
            living = Living(turn.game_id, turn.message_id, list(turn.lines), turn.image)
            self.messages.turns.setdefault(channel_id, living)
        if lobby is not None:
            self.messages.lobbies.setdefault(channel_id, (lobby.game_id, lobby.message_id))

    async def _store_turn(self, channel_id: str) -> None:
        """Make the store remember the channel's turn message as memory holds it (or forget it)."""
        living = self.messages.turns.get(channel_id)
        await self._remember(
            channel_id,
            "turn",
            None if living is None else (living.game_id, living.message_id, living.lines, living.image),
        )

    async def _remember(
        self, channel_id: str, kind: str, message: tuple[int, int, list[str], bool] | None
    ) -> None:
        """Save (``message``: game id, message id, lines, image) or drop (None) a living message. A failure
        is logged, not raised: the command it shows is stored already, and only a restart would miss it."""
        store = self.bot.store
        try:
            if message is None:
                await store.drop_message(channel_id, kind)
            else:
                await store.save_message(channel_id, kind, *message, now=self.bot.games.clock())
        except Exception:
            log.exception("Could not remember channel %s's %s message", channel_id, kind)

    # -- lobbies -----------------------------------------------------------------------------------
    async def remember_lobby(self, channel_id: str, game_id: int, message_id: int | None) -> None:
        """The message showing a channel's lobby (edited in place by later lobby commands); a lobby
        message it replaces loses its buttons."""
        if message_id is None:
            return
        await self.recall(channel_id)
        old = self.messages.lobbies.get(channel_id)
        if old is not None and old[1] != message_id:
            self.edit(channel_id, old[1], view=None)
        self.messages.lobbies[channel_id] = (game_id, message_id)
        await self._remember(channel_id, "lobby", (game_id, message_id, [], False))

    async def lobby_message(self, channel_id: str, game_id: int) -> int | None:
        """The id of the message showing the lobby of ``game_id``, if known."""
        await self.recall(channel_id)
        found = self.messages.lobbies.get(channel_id)
        return found[1] if found is not None and found[0] == game_id else None

    async def close_lobby(self, channel_id: str) -> None:
        """The lobby started or ended: its message loses its buttons."""
        await self.recall(channel_id)
        found = self.messages.lobbies.pop(channel_id, None)
        if found is not None:
            self.edit(channel_id, found[1], view=None)
            await self._remember(channel_id, "lobby", None)

    async def end_turns(self, channel_id: str) -> None:
        """The game ended outside a command (abort, concession): the turn message loses its components."""
        await self.recall(channel_id)
        living = self.messages.turns.pop(channel_id, None)
        if living is not None:
            self.edit(channel_id, living.message_id, view=None)
            await self._store_turn(channel_id)

    async def turn_link(self, guild_id: str | None, channel_id: str, game_id: int) -> str:
        """A jump link to the channel's turn message of ``game_id`` ("" when unknown)."""
        await self.recall(channel_id)
        living = self.messages.turns.get(channel_id)
        if living is None or living.game_id != game_id:
            return ""
        return jump_link(guild_id, channel_id, living.message_id)

    async def show_moves(self, interaction: discord.Interaction, seat: str) -> None:
        """Privately, the board with ``seat``'s reachable squares and targets highlighted (drawn under the
        channel's lock: the hints play moves on copies of the position, which must not change meanwhile)."""
        channel_id = str(interaction.channel_id)
        row = await self.bot.games.require_live(channel_id, playing=True)
        if row.seats.get(seat) != str(interaction.user.id):
            raise Refusal(f"Show moves is for {seat}'s player.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.games.lock(channel_id):
            game = self.bot.games.load(row)
            png, hints = await render.moves_png(game, seat)
        what = (
            f"{hints.unit}: {len(hints.reach)} squares in reach, {len(hints.targets)} targets."
            if hints.unit
            else "Nothing to highlight right now; the board as it stands."
        )
        if png is None:
            text = f"{what}\n```\n{game.text_board(seat)[:1800]}\n```"
            await interaction.followup.send(text, ephemeral=True)
            return
        await interaction.followup.send(what, file=present.board_file(png), ephemeral=True)


def lobby_kwargs(row: Any) -> dict[str, Any]:
    """The lobby message's embed and components."""
    return {"embed": present.lobby_embed(row), "view": lobby_view(row)}
