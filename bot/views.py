"""Buttons. Every button is a :class:`discord.ui.DynamicItem` whose state lives in its ``custom_id``, so
buttons keep working after a restart, and a button made for an earlier position is refused as stale.

- ``esc:r:<game>:<version>:<command>`` answers a reaction decision with ``command``;
- ``esc:join:<game>:<seat>`` takes a seat in a lobby; ``esc:start:<game>`` starts it;
- ``esc:opt:<game>:<seat>:<key>`` is a select menu making a lobby choice (``seat`` empty for a game-wide
  one), shown when the lobby's choices fit in the message.
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import Stale, report
from bot.games import BOT, Played
from bot.store import GameRow
from engine import OptionSpec

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


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"esc:opt:(?P<game>[0-9]+):(?P<seat>[^:]*):(?P<key>[^:]+)"):  # fmt: skip
    """A lobby choice (an OptionSpec) for one seat, or for the whole game when ``seat`` is empty."""

    def __init__(
        self, game_id: int, seat: str, key: str, spec: OptionSpec | None = None, current: str = ""
    ) -> None:
        options = [
            discord.SelectOption(label=label[:100], value=value[:100], default=value == current)
            for value, label in (spec.choices if spec else ())[:25]
        ] or [discord.SelectOption(label="-", value="-")]
        label = spec.label if spec else key
        super().__init__(
            discord.ui.Select(
                custom_id=f"esc:opt:{game_id}:{seat}:{key}",
                placeholder=(f"{seat}: {label}" if seat else label)[:150],
                options=options,
            )
        )
        self.game_id = game_id
        self.seat = seat
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChoiceSelect:
        """Rebuild the menu from its custom_id (the options come back with the interaction)."""
        return cls(int(match["game"]), match["seat"], match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Record the picked value for the clicking member and refresh the lobby message."""
        bot = _bot(interaction)
        try:
            channel_id = await _check_game(interaction, self.game_id)
            values = self.item.values
            if not values:
                raise Stale("Nothing was picked; nothing was changed.")
            row, _said = await bot.games.choose(
                channel_id, str(interaction.user.id), self.key, values[0], self.seat or None
            )
            await interaction.response.edit_message(embed=lobby_embed_for(row), view=lobby_view(row))
        except Exception as exc:
            await report(interaction, exc)


DYNAMIC_ITEMS = (ReactionButton, JoinButton, StartButton, ChoiceSelect)


def lobby_embed_for(row: GameRow) -> discord.Embed:
    """The lobby embed (imported lazily to keep this module light)."""
    from bot.present import lobby_embed

    return lobby_embed(row)


def lobby_view(row: GameRow) -> discord.ui.View:
    """Join buttons for the empty (or bot) seats, Start, and select menus for the lobby's choices: whole
    choices (every held seat's menu of it, or its one game-wide menu), in the ruleset's order, as many
    as fit in the message's five rows; the others are made with /game choose."""
    view = discord.ui.View(timeout=None)
    for seat, holder in row.seats.items():
        if holder in (None, BOT) and len(view.children) < 20:
            view.add_item(JoinButton(row.id, seat))
    view.add_item(StartButton(row.id))
    room = 5 - (len(view.children) + 4) // 5
    for menus in choice_menus(row):
        if len(menus) > room:
            break
        for menu in menus:
            view.add_item(menu)
        room -= len(menus)
    return view


def choice_menus(row: GameRow) -> list[list[ChoiceSelect]]:
    """For each lobby choice offering 25 values or fewer, its menus: one per held seat, or one."""
    from bot import choices
    from engine import find_ruleset

    try:
        specs = choices.specs(find_ruleset(row.ruleset), row.scenario)
    except Exception:
        return []
    stored = dict(row.settings.get("options") or {})
    out = []
    for spec in specs:
        if not spec.choices or len(spec.choices) > 25:
            continue  # too many values for a menu: /game choose with autocomplete does it
        default = spec.choices[0][0]
        if spec.per_seat:
            per = stored.get(spec.key) or {}
            out.append(
                [
                    ChoiceSelect(row.id, seat, spec.key, spec, per.get(seat, default))
                    for seat, holder in row.seats.items()
                    if holder is not None
                ]
            )
        else:
            out.append([ChoiceSelect(row.id, "", spec.key, spec, stored.get(spec.key, default))])
    return out


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
