"""What views and replies need of the running bot, as a Protocol.

``bot.client.EscapadeBot`` satisfies it. Views and replies name this type instead of the client class, so
the client can import them without an import circle.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.edits import EditQueue
from bot.games import GameService, Played
from bot.store import Store


class App(Protocol):
    """The bot as seen by its views and replies."""

    games: GameService
    store: Store
    edits: EditQueue
    reply_retry_pauses: tuple[float, ...]

    def channel_for(self, channel_id: str) -> discord.abc.Messageable:
        """A channel to post in, cached or not."""
        ...

    def get_partial_messageable(self, id: int, **kwargs: Any) -> discord.PartialMessageable:
        """A channel known only by its id (discord.py's ``Client.get_partial_messageable``)."""
        ...

    async def reply_played(self, interaction: discord.Interaction, played: Played, note: str = "") -> None:
        """Answer an interaction with what a command did."""
        ...

    async def show_moves(self, interaction: discord.Interaction, seat: str) -> None:
        """Privately, the board with ``seat``'s reachable squares and targets highlighted."""
        ...

    async def confirmed(self, interaction: discord.Interaction, action: str, arg: str) -> None:
        """Carry out a confirmed irreversible action (abort, concede)."""
        ...
