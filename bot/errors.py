"""The bot's error handling, in one place.

A :class:`engine.RuleError` or a :class:`Refusal` is the player's mistake: they get the message, privately.
Anything else is ours: the player gets "Something went wrong; nothing was changed." and the log gets the
traceback with the game id.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.deadline import drop_placeholder
from engine import RuleError

log = logging.getLogger("escapade.errors")

OOPS = "Something went wrong; nothing was changed."


class Refusal(Exception):
    """A request the bot refuses (not your game, no game here, a stale button). The message is shown."""


class Stale(Refusal):
    """A button or request made for an earlier position of the game."""


class ReplyFailed(Exception):
    """A command was accepted and stored, but Discord kept failing to show the result.

    Never "nothing was changed": the message tells the player the move stands.
    """

    def __init__(self, command: str, posted: bool) -> None:
        self.command = command
        self.posted = posted
        where = "The result is shown in the channel." if posted else "Use /game board to see the position."
        super().__init__(
            f"Your command `{command}` was played and saved, but Discord failed to show the result. {where}"
        )


def user_message(error: BaseException) -> str | None:
    """The message to show for a refusal, or None when the error is a bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(error, Refusal | RuleError | ReplyFailed):
        return str(error)
    if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
        return str(error) or "You cannot use this command here."
    return None


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already answered or deferred."""
    text = text[:1900]
    if interaction.response.is_done():
        await drop_placeholder(interaction)  # else Discord would show this in the public placeholder's place
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user about ``error``: the rule for a refusal, a generic line (and a log entry) for a bug."""
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    message = user_message(cause)
    if interaction.type is discord.InteractionType.autocomplete:
        if message is None:  # an autocomplete cannot show a message: log bugs, ignore refusals
            log.error(
                "Error in autocomplete %s", interaction.id, exc_info=(type(cause), cause, cause.__traceback__)
            )
        return
    if message is None:
        bot = interaction.client
        game_id = None
        if hasattr(bot, "games") and interaction.channel_id is not None:
            game_id = bot.games.known_game_id(str(interaction.channel_id))
        log.error(
            "Error in interaction %s (channel %s, game %s)",
            interaction.id,
            interaction.channel_id,
            game_id,
            exc_info=(type(cause), cause, cause.__traceback__),
        )
        message = OOPS
    try:
        await tell(interaction, message)
    except discord.HTTPException:
        log.warning("Could not deliver an error message for interaction %s", interaction.id)


def install(bot: commands.Bot) -> None:
    """Route every application-command error through :func:`report`."""

    async def on_app_command_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)

    bot.tree.on_error = on_app_command_error  # type: ignore[method-assign]
