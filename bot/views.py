"""Buttons and menus. Every component is a :class:`discord.ui.DynamicItem` whose state lives in its
``custom_id``, so it keeps working after a restart, and one made for an earlier position is refused as
stale (the game version is part of it).

- ``esc:r:<game>:<version>:<command>`` answers a reaction decision with ``command``;
- ``esc:p:<game>:<version>:<seat>:<page>:<path>`` is a tap-to-play menu of ``seat``'s legal commands
  under ``path`` (see :mod:`bot.tap`); ``esc:c:<game>:<version>:<seat>:<command>`` plays a one-word
  command (End activation, Done); ``esc:auto:<game>:<version>:<seat>`` plays what the game's own player
  would ("Place for me"); ``esc:hint:<game>:<seat>`` shows the seat's moves privately;
- ``esc:ok:<game>:<action>:<seat>`` confirms an irreversible request (abort, concede, a command);
- ``esc:join:<game>:<seat>`` takes a seat in a lobby; ``esc:start:<game>`` starts it;
- ``esc:opt:<game>:<seat>:<key>`` is a select menu making a lobby choice (``seat`` empty for a game-wide
  one), shown when the lobby's choices fit in the message; ``esc:bots:<game>`` is the lobby's "Empty
  seats" menu (wait for players, or the game plays them at a level).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import choices, present, tap
from bot.app import App
from bot.deadline import in_time
from bot.errors import Refusal, Stale, report
from bot.games import BOT, WAIT, Played
from bot.store import GameRow
from engine import Command, OptionSpec, find_ruleset
from engine.ai.levels import LEVEL_LABELS, LEVELS

MAX_CUSTOM_ID = 100


def _bot(interaction: discord.Interaction) -> App:
    return interaction.client  # type: ignore[return-value]


async def _check_game(interaction: discord.Interaction, game_id: int) -> str:
    """The channel id, after checking the button belongs to the channel's running game."""
    channel_id = str(interaction.channel_id)
    row = await _bot(interaction).games.live(channel_id)
    if row is None or row.id != game_id:
        raise Stale("This button belongs to a game that is over. Nothing was changed.")
    return channel_id


def _picked(menu: discord.ui.Select[Any]) -> str:
    """The value picked in a select menu. Raises Stale when the interaction carries none."""
    if not menu.values:
        raise Stale("Nothing was picked; nothing was changed.")
    return str(menu.values[0])


async def _show_lobby(interaction: discord.Interaction, row: GameRow) -> None:
    """Answer a lobby component by redrawing the lobby message in place."""
    await interaction.response.edit_message(embed=lobby_embed_for(row), view=lobby_view(row))


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
            played = await in_time(
                interaction,
                bot.games.play(
                    channel_id,
                    str(interaction.user.id),
                    self.command,
                    interaction_id=str(interaction.id),
                    expected_version=self.version,
                ),
            )
            await bot.reply_played(interaction, played)
        except Exception as exc:
            await report(interaction, exc)


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
            await _show_lobby(interaction, row)
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
            played = await in_time(interaction, bot.games.start(channel_id, str(interaction.user.id)))
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
            picked = _picked(self.item)
            row, _said = await bot.games.choose(
                channel_id, str(interaction.user.id), self.key, picked, self.seat or None
            )
            await _show_lobby(interaction, row)
        except Exception as exc:
            await report(interaction, exc)


class EmptySeatsSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"esc:bots:(?P<game>[0-9]+)"):  # fmt: skip
    """The lobby's "Empty seats" menu: wait for players, or let the game play them at a level."""

    def __init__(self, game_id: int, current: str = WAIT) -> None:
        options = [
            discord.SelectOption(label="Empty seats: wait for players", value=WAIT, default=current == WAIT)
        ]
        options += [
            discord.SelectOption(
                label=f"Empty seats: the game plays them ({level})",
                value=level,
                description=LEVEL_LABELS[level][:100],
                default=current == level,
            )
            for level in LEVELS
        ]
        super().__init__(
            discord.ui.Select(custom_id=f"esc:bots:{game_id}", placeholder="Empty seats", options=options)
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EmptySeatsSelect:
        """Rebuild the menu from its custom_id (the picked value comes back with the interaction)."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Record what Start does with empty seats and refresh the lobby message."""
        bot = _bot(interaction)
        try:
            channel_id = await _check_game(interaction, self.game_id)
            picked = _picked(self.item)
            row = await bot.games.set_empty_seats(channel_id, str(interaction.user.id), picked)
            await _show_lobby(interaction, row)
        except Exception as exc:
            await report(interaction, exc)


async def _play_component(
    interaction: discord.Interaction, game_id: int, version: int, seat: str, text: str | None
) -> None:
    """Play ``text`` (None: the game's own choice) for ``seat`` from a component, then reply."""
    bot = _bot(interaction)
    channel_id = await _check_game(interaction, game_id)
    played = await in_time(
        interaction,
        bot.games.play(
            channel_id,
            str(interaction.user.id),
            text,
            seat=seat or None,
            interaction_id=str(interaction.id),
            expected_version=version,
        ),
    )
    await bot.reply_played(interaction, played)


async def _seat_commands(interaction: discord.Interaction, game_id: int, version: int, seat: str) -> list[Command]:  # fmt: skip
    """``seat``'s legal commands at ``version``, after checking the clicking member holds the seat."""
    bot = _bot(interaction)
    channel_id = await _check_game(interaction, game_id)
    row = await bot.games.require_live(channel_id, playing=True)
    holder = row.seats.get(seat)
    if holder != str(interaction.user.id):
        raise Refusal(f"These controls are for {seat}'s player; yours are on the message that names you.")
    if row.version != version:
        raise Stale("This menu is out of date: the game has moved on. Use the latest message. Nothing was changed.")  # fmt: skip
    return bot.games.load(row).legal_commands(seat)


class PlaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"esc:p:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<seat>[^:]+):(?P<page>[0-9]+):(?P<path>.*)"):  # fmt: skip
    """A tap-to-play menu: ``seat``'s legal commands under ``path``, grouped (:mod:`bot.tap`)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        seat: str,
        page: int = 0,
        path: str = "",
        items: list[tap.Entry] | None = None,
    ) -> None:
        options = [
            discord.SelectOption(label=e.label[:100] or "?", value=e.value[:100]) for e in (items or [])
        ] or [discord.SelectOption(label="-", value="-")]
        where = f" › {path.partition('|')[0].lstrip('@')}" if path else ""
        super().__init__(
            discord.ui.Select(
                custom_id=f"esc:p:{game_id}:{version}:{seat}:{page}:{path}"[:MAX_CUSTOM_ID],
                placeholder=f"{seat}: choose what to do{where}"[:150],
                options=options,
            )
        )
        self.game_id = game_id
        self.version = version
        self.seat = seat
        self.page = page
        self.path = path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlaySelect:
        """Rebuild the menu from its custom_id (the options come back with the interaction)."""
        return cls(
            int(match["game"]), int(match["version"]), match["seat"], int(match["page"]), match["path"]
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the picked command, or show the narrower menu (privately) for a group or the next page."""
        try:
            values = self.item.values
            if not values or values[0] == "-":
                raise Stale("Nothing was picked; nothing was changed.")
            picked = values[0]
            legal = await _seat_commands(interaction, self.game_id, self.version, self.seat)
            if picked.startswith("="):
                text = picked[1:]
                row = await _bot(interaction).games.require_live(str(interaction.channel_id))
                chosen = next((c for c in legal if c.text == text), None)
                if chosen is not None and needs_confirm(row, chosen):
                    arg = f"{self.version}:{self.seat}:{text}"
                    await interaction.response.send_message(
                        f"**{chosen.label or text}** cannot be taken back. Sure?",
                        view=confirm_view(self.game_id, "cmd", arg, chosen.label or text),
                        ephemeral=True,
                    )
                    return
                await _play_component(interaction, self.game_id, self.version, self.seat, text)
                return
            path, number = (self.path, int(picked[1:])) if picked.startswith("#") else (picked[1:], 0)
            view = menu_view(self.game_id, self.version, self.seat, legal, path, number)
            text = f"{self.seat}: pick one ({len(tap.matching(legal, path))} commands)."
            if interaction.message is not None and interaction.message.flags.ephemeral:
                await interaction.response.edit_message(content=text, view=view)
            else:
                await interaction.response.send_message(text, view=view, ephemeral=True)
        except Exception as exc:
            await report(interaction, exc)


class CommandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"esc:c:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<seat>[^:]+):(?P<command>.+)"):  # fmt: skip
    """A one-word command for ``seat`` (End activation, Done, Ready), valid at its game version."""

    def __init__(self, game_id: int, version: int, seat: str, command: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or command)[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"esc:c:{game_id}:{version}:{seat}:{command}"[:MAX_CUSTOM_ID],
            )
        )
        self.game_id = game_id
        self.version = version
        self.seat = seat
        self.command = command

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CommandButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["version"]), match["seat"], match["command"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the command for the seat."""
        try:
            await _play_component(interaction, self.game_id, self.version, self.seat, self.command)
        except Exception as exc:
            await report(interaction, exc)


class AutoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"esc:auto:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<seat>[^:]+)"):  # fmt: skip
    """ "Place for me": the game's own player chooses ``seat``'s next command (a setup placement)."""

    def __init__(self, game_id: int, version: int, seat: str, label: str = "Place for me") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"esc:auto:{game_id}:{version}:{seat}"[:MAX_CUSTOM_ID],
            )
        )
        self.game_id = game_id
        self.version = version
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AutoButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["version"]), match["seat"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the game's choice for the seat (the member asked for it, so it is theirs in the log)."""
        try:
            await _play_component(interaction, self.game_id, self.version, self.seat, None)
        except Exception as exc:
            await report(interaction, exc)


class HintButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"esc:hint:(?P<game>[0-9]+):(?P<seat>[^:]+)"):  # fmt: skip
    """ "Show moves": the board with the seat's reachable squares and targets, privately."""

    def __init__(self, game_id: int, seat: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Show moves",
                emoji="🔍",
                style=discord.ButtonStyle.secondary,
                custom_id=f"esc:hint:{game_id}:{seat}"[:MAX_CUSTOM_ID],
            )
        )
        self.game_id = game_id
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HintButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), match["seat"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Send the highlighted board privately."""
        try:
            await _check_game(interaction, self.game_id)
            await _bot(interaction).show_moves(interaction, self.seat)
        except Exception as exc:
            await report(interaction, exc)


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"esc:ok:(?P<game>[0-9]+):(?P<action>[a-z]+):(?P<arg>.*)"):  # fmt: skip
    """Confirms an irreversible request: ``abort``, ``concede`` (arg: a seat or empty) or ``cmd``
    (arg: ``version:seat:command``)."""

    def __init__(self, game_id: int, action: str, arg: str = "", label: str = "Confirm") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.danger,
                custom_id=f"esc:ok:{game_id}:{action}:{arg}"[:MAX_CUSTOM_ID],
            )
        )
        self.game_id = game_id
        self.action = action
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), match["action"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Do what was confirmed."""
        try:
            await _check_game(interaction, self.game_id)
            if self.action == "cmd":
                version, seat, command = self.arg.split(":", 2)
                await _play_component(interaction, self.game_id, int(version), seat, command)
            else:
                await _bot(interaction).confirmed(interaction, self.action, self.arg)
        except Exception as exc:
            await report(interaction, exc)


class CancelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"esc:no:(?P<game>[0-9]+)"):
    """Cancels a confirmation: nothing happens."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Cancel", style=discord.ButtonStyle.secondary, custom_id=f"esc:no:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CancelButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Say nothing was done and take the buttons away."""
        try:
            await interaction.response.edit_message(content="Cancelled: nothing was changed.", view=None)
        except Exception as exc:
            await report(interaction, exc)


DYNAMIC_ITEMS = (
    ReactionButton,
    JoinButton,
    StartButton,
    ChoiceSelect,
    EmptySeatsSelect,
    PlaySelect,
    CommandButton,
    AutoButton,
    HintButton,
    ConfirmButton,
    CancelButton,
)


def confirm_view(game_id: int, action: str, arg: str = "", label: str = "Confirm") -> discord.ui.View:
    """Confirm / Cancel buttons for an irreversible request."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(game_id, action, arg, label))
    view.add_item(CancelButton(game_id))
    return view


def menu_view(
    game_id: int, version: int, seat: str, legal: list[Command], path: str = "", number: int = 0
) -> discord.ui.View:
    """A private narrower menu: the commands under ``path``, page ``number``."""
    view = discord.ui.View(timeout=None)
    items, _more = tap.page(tap.entries(legal, path), number)
    view.add_item(PlaySelect(game_id, version, seat, number, path, items))
    return view


def needs_confirm(row: GameRow, command: Command) -> bool:
    """True for a command the ruleset marks irreversible (``confirm_verbs``), asked privately first."""
    try:
        verbs = getattr(find_ruleset(row.ruleset), "confirm_verbs", ())
    except Exception:
        return False
    return command.verb in verbs


def lobby_embed_for(row: GameRow) -> discord.Embed:
    """The lobby embed."""
    return present.lobby_embed(row)


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
    preset = row.settings.get("empty_seats", WAIT)
    if any(holder is None for holder in row.seats.values()) or preset != WAIT:
        view.add_item(EmptySeatsSelect(row.id, preset))
        room -= 1
    for menus in choice_menus(row):
        if len(menus) > room:
            break
        for menu in menus:
            view.add_item(menu)
        room -= len(menus)
    return view


def choice_menus(row: GameRow) -> list[list[ChoiceSelect]]:
    """For each lobby choice offering 25 values or fewer, its menus: one per held seat, or one."""
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


def turn_view(played: Played) -> discord.ui.View | None:
    """The components of a turn message, for whoever must act now.

    A reaction: one button per option. Any other decision of a member's seat: a menu of that seat's
    legal commands grouped to fit (one menu per seat, four seats at most), and for a single seat its
    one-word commands as buttons (End activation, Done), "Place for me" in a setup phase and "Show moves".
    """
    row = played.row
    view = discord.ui.View(timeout=None)
    member = [d for d in played.decisions if any(row.seats.get(s) not in (None, BOT) for s in d.seats)]
    for d in member:
        if d.kind != "reaction":
            continue
        for i, option in enumerate(d.options):
            custom_id = f"esc:r:{row.id}:{row.version}:{option.text}"
            if len(custom_id) > MAX_CUSTOM_ID or len(view.children) >= 20:
                continue
            view.add_item(
                ReactionButton(row.id, row.version, option.text, option.label or option.text, i == 0)
            )
    if view.children:
        return view
    seats = [
        s
        for d in member
        for s in sorted(d.seats)
        if row.seats.get(s) not in (None, BOT) and played.legal.get(s)
    ]
    seats = list(dict.fromkeys(seats))[:4]
    kinds = {s: d.kind for d in member for s in d.seats}
    for seat in seats:
        items, _more = tap.page(tap.entries(played.legal[seat], ""), 0)
        view.add_item(PlaySelect(row.id, row.version, seat, 0, "", items))
    if len(seats) == 1:
        seat = seats[0]
        for c in [c for c in played.legal[seat] if tap.is_short(c)][:3]:
            if needs_confirm(row, c):
                continue
            view.add_item(CommandButton(row.id, row.version, seat, c.text, c.label or c.text))
        if kinds.get(seat) == "setup":
            view.add_item(AutoButton(row.id, row.version, seat))
        view.add_item(HintButton(row.id, seat))
    return view if view.children else None
