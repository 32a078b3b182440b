"""Buttons. Every button is a :class:`discord.ui.DynamicItem` whose state lives in its ``custom_id``, so
buttons keep working after a restart, and a button made for an earlier position is refused as stale.

- ``esc:r:<game>:<version>:<command>`` answers a reaction decision with ``command``;
- ``esc:join:<game>:<seat>`` takes a seat in a lobby; ``esc:start:<game>`` starts it.
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import Stale, report
from bot.games import BOT, Played
from bot.store import GameRow

if TYPE_CHECKING:
    from bot.client import EscapadeBot

MAX_CUSTOM_ID = 100


def _bot(interaction: discord.Interaction) -> EscapadeBot:
    return interaction.client  # type: ignore[return-value]


async def _check_game(interaction: discord.Interaction, game_id: int) -> str:
    """The channel id, after checking the button belongs to the channel's running game."""
    channel_id = str(interaction.channel_id)
    row = await _bot(interaction).games.live(channel_id)
    if row is None or row.id != game_id:
        raise Stale("This button belongs to a game that is over. Nothing was changed.")
    return channel_id


class ReactionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"esc:r:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<command>.+)"):  # fmt: skip
    """One answer to a reaction decision, valid only for the game version it was posted at."""

    def __init__(
        self, game_id: int, version: int, command: str, label: str = "", primary: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or command)[:80],
                style=discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary,
                custom_id=f"esc:r:{game_id}:{version}:{command}",
            )
        )
        self.game_id = game_id
        self.version = version
        self.command = command

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReactionButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["version"]), match["command"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the answer for the clicking member, if the game is still where the button was posted."""
        bot = _bot(interaction)
        try:
            channel_id = await _check_game(interaction, self.game_id)
            played = await bot.games.play(
                channel_id,
                str(interaction.user.id),
                self.command,
                interaction_id=str(interaction.id),
                expected_version=self.version,
            )
            await bot.reply_played(interaction, played)
        except Exception as exc:
            await report(interaction, exc)
            return
        if interaction.message is not None:  # the question is answered: take its buttons away
            with contextlib.suppress(discord.HTTPException):
                await interaction.message.edit(view=None)


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"esc:join:(?P<game>[0-9]+):(?P<seat>[^:]+)"):  # fmt: skip
    """Take a seat in a lobby."""

    def __init__(self, game_id: int, seat: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Join as {seat}"[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"esc:join:{game_id}:{seat}",
            )
        )
        self.game_id = game_id
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), match["seat"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Seat the clicking member and refresh the lobby message."""
        bot = _bot(interaction)
        try:
            channel_id = await _check_game(interaction, self.game_id)
            row, seat = await bot.games.join(channel_id, str(interaction.user.id), self.seat)
            await interaction.response.edit_message(embed=lobby_embed_for(row), view=lobby_view(row))
        except Exception as exc:
            await report(interaction, exc)


class StartButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"esc:start:(?P<game>[0-9]+)"):
    """Start a lobby's game (empty seats must be filled or given to the game with /game start bot:True)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Start", style=discord.ButtonStyle.success, custom_id=f"esc:start:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StartButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Start the game and post its first board."""
        bot = _bot(interaction)
        try:
            channel_id = await _check_game(interaction, self.game_id)
            played = await bot.games.start(channel_id, str(interaction.user.id))
            await bot.reply_played(interaction, played)
        except Exception as exc:
            await report(interaction, exc)


DYNAMIC_ITEMS = (ReactionButton, JoinButton, StartButton)


def lobby_embed_for(row: GameRow) -> discord.Embed:
    """The lobby embed (imported lazily to keep this module light)."""
    from bot.present import lobby_embed

    return lobby_embed(row)


def lobby_view(row: GameRow) -> discord.ui.View:
    """Join buttons for the empty (or bot) seats, and Start."""
    view = discord.ui.View(timeout=None)
    for seat, holder in row.seats.items():
        if holder in (None, BOT) and len(view.children) < 20:
            view.add_item(JoinButton(row.id, seat))
    view.add_item(StartButton(row.id))
    return view


def decision_view(played: Played) -> discord.ui.View | None:
    """Buttons for each open reaction decision a member must answer (one button per option)."""
    row = played.row
    view = discord.ui.View(timeout=None)
    for d in played.decisions:
        if d.kind != "reaction" or not any(row.seats.get(s) not in (None, BOT) for s in d.seats):
            continue
        for i, option in enumerate(d.options):
            custom_id = f"esc:r:{row.id}:{row.version}:{option.text}"
            if len(custom_id) > MAX_CUSTOM_ID or len(view.children) >= 25:
                continue
            view.add_item(
                ReactionButton(row.id, row.version, option.text, option.label or option.text, i == 0)
            )
    return view if view.children else None
