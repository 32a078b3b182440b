"""Answering an interaction before Discord gives up on it.

Discord drops an interaction whose first answer comes more than 3 seconds after it was made: the player sees
"The application did not respond" and every later answer fails. Playing a command usually takes a few
milliseconds, but the seats the game plays at a search level think for up to a second a decision, and one
command of a player can hand the turn to several of them (a heist round with three hard crewmates: up to
25 s). :func:`in_time` waits a little for the work, then acknowledges the interaction if the work is not done
yet, with Discord's public "Escapade is thinking..." placeholder: everyone in the channel sees the game is
at work, and the new turn message then replaces it. Whatever answers after a placeholder must either replace
it with a public message or remove it first (:func:`drop_placeholder`), since Discord shows the first
message after it with the placeholder's visibility whatever that message asks for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

import discord

log = logging.getLogger("escapade.deadline")

T = TypeVar("T")

DEFER_AFTER = 1.5  # seconds; Discord's limit is 3, and the event reaches the bot some time after it was made
_PLACEHOLDER = "escapade_placeholder"  # key in ``Interaction.extras``: a public thinking message stands


async def in_time(interaction: discord.Interaction, work: Awaitable[T], after: float | None = None) -> T:
    """``await work``, acknowledging ``interaction`` first should the work take longer than ``after``
    seconds (:data:`DEFER_AFTER` by default). Raises whatever the work raises; a failed acknowledgement is
    logged, not raised (the work goes on and is kept)."""
    task = asyncio.ensure_future(work)
    try:
        await asyncio.wait({task}, timeout=DEFER_AFTER if after is None else after)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not task.done() and not interaction.response.is_done():
        try:
            await acknowledge(interaction)
        except discord.HTTPException as exc:
            log.warning("Could not acknowledge interaction %s in time (%s)", interaction.id, exc)
    return await task


async def acknowledge(interaction: discord.Interaction) -> None:
    """Answer ``interaction`` for now with a public "thinking" placeholder (remembered, see
    :func:`holds_placeholder`). Raises discord.HTTPException on failure."""
    await interaction.response.defer(thinking=True)
    interaction.extras[_PLACEHOLDER] = True


def holds_placeholder(interaction: discord.Interaction) -> bool:
    """True while a public "thinking" placeholder of ours answers ``interaction``, not yet replaced."""
    return bool(interaction.extras.get(_PLACEHOLDER))


def placeholder_replaced(interaction: discord.Interaction) -> None:
    """Note that a public message replaced the placeholder (the first followup does)."""
    interaction.extras.pop(_PLACEHOLDER, None)


async def drop_placeholder(interaction: discord.Interaction) -> None:
    """Delete the public placeholder, if one stands, so that a private message can follow. A failure to
    delete it is logged, not raised."""
    if interaction.extras.pop(_PLACEHOLDER, False):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as exc:
            log.warning("Could not remove the placeholder of interaction %s (%s)", interaction.id, exc)
