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

While the game's own players think through a long run, the placeholder shows who is thinking and what they
played so far (:class:`Progress`, edited at most every :data:`PROGRESS_EVERY` seconds). Once edited, it is
no longer a placeholder Discord replaces: the turn message is then posted anew and the progress message
deleted (:func:`posted_after_placeholder`), so the channel keeps one message per request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import discord

from bot.thinking import watcher

log = logging.getLogger("escapade.deadline")

T = TypeVar("T")

DEFER_AFTER = 1.5  # seconds; Discord's limit is 3, and the event reaches the bot some time after it was made
PROGRESS_EVERY = 2.0  # seconds between two edits of a placeholder showing progress
PROGRESS_TIMEOUT = 3.0  # seconds a progress edit may take before the game goes on without it
PROGRESS_LINES = 4  # the latest moves a progress message lists
_PLACEHOLDER = "escapade_placeholder"  # key in ``Interaction.extras``: a public thinking message stands
_PROGRESS = "escapade_progress"  # key in ``Interaction.extras``: the placeholder was edited to show progress


class Progress:
    """Shows, in an interaction's public placeholder, the game's own players at work (a
    :data:`bot.thinking.ProgressHook`): nothing before the placeholder has stood :data:`PROGRESS_EVERY`
    seconds (a short wait shows Discord's own "thinking…" only), then at most one edit per that many
    seconds. A failed edit is logged and the game goes on."""

    def __init__(self, interaction: discord.Interaction, clock: Callable[[], float] = time.monotonic) -> None:
        self.interaction = interaction
        self.clock = clock
        self.shown_at: float | None = None

    async def __call__(self, thinking: str, done: Sequence[str]) -> None:
        """Edit the placeholder to say that ``thinking`` is thinking, under the latest of ``done``."""
        if not holds_placeholder(self.interaction):
            return
        now = self.clock()
        if self.shown_at is None:  # the placeholder is new: Discord's own "thinking…" is enough for now
            self.shown_at = now
            return
        if now - self.shown_at < PROGRESS_EVERY:
            return
        self.shown_at = now
        try:
            await asyncio.wait_for(
                self.interaction.edit_original_response(content=progress_text(thinking, done)),
                PROGRESS_TIMEOUT,
            )
        except (TimeoutError, discord.HTTPException) as exc:
            log.warning("Could not show progress for interaction %s (%s)", self.interaction.id, exc)
            return
        self.interaction.extras[_PROGRESS] = True


def progress_text(thinking: str, done: Sequence[str]) -> str:
    """A progress message: the moves played so far (the latest few) and who thinks now."""
    lines = [f"• {line}" for line in done[-PROGRESS_LINES:]]
    if len(done) > PROGRESS_LINES:
        lines.insert(0, f"• … {len(done) - PROGRESS_LINES} earlier")
    lines.append(f"⏳ {thinking} is thinking…")
    return "\n".join(lines)[:1900]


async def in_time(interaction: discord.Interaction, work: Awaitable[T], after: float | None = None) -> T:
    """``await work``, acknowledging ``interaction`` first should the work take longer than ``after``
    seconds (:data:`DEFER_AFTER` by default). Raises whatever the work raises; a failed acknowledgement is
    logged, not raised (the work goes on and is kept)."""
    token = watcher.set(Progress(interaction))
    try:
        task = asyncio.ensure_future(work)  # the task runs in a copy of this context: it sees the watcher
    finally:
        watcher.reset(token)
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


async def posted_after_placeholder(interaction: discord.Interaction) -> None:
    """A public followup was just posted. It replaced the placeholder, unless the placeholder was edited to
    show progress: that message is deleted now (a failure is logged, not raised)."""
    if interaction.extras.pop(_PROGRESS, False):
        await drop_placeholder(interaction)
    interaction.extras.pop(_PLACEHOLDER, None)


async def drop_placeholder(interaction: discord.Interaction) -> None:
    """Delete the public placeholder, if one stands, so that a private message can follow. A failure to
    delete it is logged, not raised."""
    interaction.extras.pop(_PROGRESS, None)
    if interaction.extras.pop(_PLACEHOLDER, False):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as exc:
            log.warning("Could not remove the placeholder of interaction %s (%s)", interaction.id, exc)
