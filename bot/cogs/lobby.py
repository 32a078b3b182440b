"""``/game``: open a lobby, join, leave, start, and the lifecycle commands (status, board, log, concede,
abort, settings). Thin: every decision is the game service's or the engine's."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import present
from bot.choices import find_spec, specs
from bot.deadline import acknowledge, in_time
from bot.errors import Refusal
from bot.games import BOT
from bot.render import board_png
from bot.replies import jump_link, lobby_kwargs
from bot.store import GameRow
from bot.views import confirm_view, lobby_view
from engine import RULESETS, OptionSpec, find_ruleset
from engine.ai.levels import DEFAULT_LEVEL, LEVEL_LABELS

LEVEL_CHOICES = [app_commands.Choice(name=label, value=level) for level, label in LEVEL_LABELS.items()]

if TYPE_CHECKING:
    from bot.client import EscapadeBot


def channel_key(interaction: discord.Interaction) -> str:
    """The id of the channel or thread the interaction came from (one game each)."""
    if interaction.channel_id is None:
        raise Refusal("Use this command in a server channel.")
    return str(interaction.channel_id)


async def reply_with_lobby(bot: EscapadeBot, interaction: discord.Interaction, text: str, row: GameRow) -> None:  # fmt: skip
    """Show a lobby change: the lobby message is edited in place and the caller told privately; when
    that message is not known (a restart), a new public one is posted (mentions silenced)."""
    channel_id = channel_key(interaction)
    known = await bot.replier.lobby_message(channel_id, row.id)
    if known is not None:
        bot.replier.edit(channel_id, known, **lobby_kwargs(row))
        link = jump_link(row.guild_id, channel_id, known)
        await interaction.response.send_message(f"{text} The lobby shows it: {link}", ephemeral=True)
        return
    response = await interaction.response.send_message(
        text, **lobby_kwargs(row), allowed_mentions=discord.AllowedMentions.none()
    )
    await bot.replier.remember_lobby(channel_id, row.id, response.message_id)


def choices(items: list[tuple[str, str]], typed: str) -> list[app_commands.Choice[str]]:
    """Up to 25 (name, value) choices whose name or value contains ``typed``."""
    needle = typed.strip().lower()
    out = []
    for name, value in items:
        if needle in name.lower() or needle in value.lower():
            out.append(app_commands.Choice(name=name[:100] or value[:100], value=value[:100]))
            if len(out) == 25:
                break
    return out


class Lobby(commands.Cog):
    """Games per channel: lobby and lifecycle."""

    game = app_commands.Group(name="game", description="The game in this channel", guild_only=True)

    def __init__(self, bot: EscapadeBot) -> None:
        self.bot = bot

    async def open_lobby(self, interaction: discord.Interaction) -> GameRow | None:
        """The channel's game while it is still a lobby (None otherwise), for autocompletes."""
        row = await self.bot.games.live(channel_key(interaction))
        return row if row is not None and row.status == "lobby" else None

    async def cog_load(self) -> None:
        """Offer every registered ruleset as a choice of /game new."""
        new = self.game.get_command("new")
        assert isinstance(new, app_commands.Command)
        new._params["ruleset"].choices = [
            app_commands.Choice(name=rs.name, value=rs.id) for rs in list(RULESETS.values())[:25]
        ]

    # -- lobby -------------------------------------------------------------------------------------
    @game.command(name="new", description="Open a game here (or in a new thread) and wait for players")
    @app_commands.describe(
        ruleset="Which game",
        scenario="Scenario (default: the first)",
        opponent="Seat this member opposite you",
        thread="Open the game in a new thread of this channel",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        scenario: str | None = None,
        opponent: discord.Member | None = None,
        thread: bool = False,
    ) -> None:
        """Open a lobby with the caller in the first seat."""
        rs = find_ruleset(ruleset)
        rs.scenario(scenario)  # refuse an unknown scenario before creating a thread
        user = str(interaction.user.id)
        opp = str(opponent.id) if opponent is not None else None
        if opponent is not None and opponent.bot:
            raise Refusal("Bots cannot take a seat; use /game start bot:True to let the game play it.")
        target_id = channel_key(interaction)
        target: discord.abc.Messageable | None = None
        if thread:
            parent = interaction.channel
            if not isinstance(parent, discord.TextChannel):
                raise Refusal("A thread can only be opened from a text channel.")
            created = await parent.create_thread(
                name=f"{rs.name} — {interaction.user.display_name}"[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
            target, target_id = created, str(created.id)
        row = await self.bot.games.open_lobby(
            guild_id=str(interaction.guild_id) if interaction.guild_id else None,
            channel_id=target_id,
            ruleset_id=rs.id,
            scenario=scenario,
            creator_id=user,
            opponent_id=opp,
        )
        pinged = [m for m in (user, opp) if m]
        invited = [m for m in pinged if m != user]
        content = " ".join(f"<@{m}>" for m in invited) + " — you are invited to play." if invited else ""
        allowed = discord.AllowedMentions(users=[discord.Object(int(m)) for m in invited])
        embed, view = present.lobby_embed(row), lobby_view(row)
        if target is None:
            response = await interaction.response.send_message(
                content=content or None, embed=embed, view=view, allowed_mentions=allowed
            )
            await self.bot.replier.remember_lobby(target_id, row.id, response.message_id)
        else:
            everyone = " ".join(f"<@{m}>" for m in pinged)
            sent = await target.send(
                content=everyone, embed=embed, view=view, allowed_mentions=discord.AllowedMentions(users=True)
            )
            await self.bot.replier.remember_lobby(target_id, row.id, sent.id)
            await interaction.response.send_message(f"Game #{row.id} is open in <#{target_id}>.")

    @new.autocomplete("scenario")
    async def new_scenario(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Scenarios of the chosen ruleset."""
        chosen = getattr(interaction.namespace, "ruleset", None) or next(iter(RULESETS), "")
        try:
            rs = find_ruleset(str(chosen))
        except Exception:
            return []
        return choices([(f"{i.name} — {i.summary}", i.id) for i in rs.scenarios()], current)

    @game.command(name="join", description="Take a seat in this channel's lobby (or give one to the game)")
    @app_commands.describe(
        seat="Which seat (default: the first empty one); you may hold several",
        bot="Give this seat to the game's own player instead of taking it",
        level="How well the game's own player plays that seat (with bot:True; default easy)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def join(
        self,
        interaction: discord.Interaction,
        seat: str | None = None,
        bot: bool = False,
        level: str | None = None,
    ) -> None:
        """Seat the caller, or the game's own player (at ``level``)."""
        if level is not None and not bot:
            raise Refusal("level: is for a seat the game plays; add bot:True.")
        row, taken = await self.bot.games.join(
            channel_key(interaction), str(interaction.user.id), seat, for_bot=bot, level=level
        )
        said = (
            f"🤖 The game plays {taken} ({row.settings.get('bot_level', {}).get(taken, DEFAULT_LEVEL)})."
            if bot
            else f"<@{interaction.user.id}> takes {taken}."
        )
        await reply_with_lobby(self.bot, interaction, said, row)

    @join.autocomplete("seat")
    async def join_seat(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The lobby's free seats."""
        row = await self.open_lobby(interaction)
        if row is None:
            return []
        return choices([(s, s) for s, who in row.seats.items() if who in (None, BOT)], current)

    @game.command(name="leave", description="Give up your seats in the lobby (or one seat)")
    @app_commands.describe(seat="Only this seat (one of yours, or one the game holds)")
    async def leave(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        """Free the caller's seats."""
        row = await self.bot.games.leave(channel_key(interaction), str(interaction.user.id), seat)
        await reply_with_lobby(self.bot, interaction, f"<@{interaction.user.id}> leaves the lobby.", row)

    @leave.autocomplete("seat")
    async def leave_seat(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's seats and the game's."""
        row = await self.open_lobby(interaction)
        if row is None:
            return []
        user = str(interaction.user.id)
        return choices([(s, s) for s, who in row.seats.items() if who in (user, BOT)], current)

    @game.command(name="choose", description="Make a lobby choice (a squad, a character, ...)")
    @app_commands.describe(
        option="Which choice", value="What you choose", seat="Which of your seats (if you hold several)"
    )
    async def choose(
        self, interaction: discord.Interaction, option: str, value: str, seat: str | None = None
    ) -> None:
        """Record a choice for the game about to start; the lobby message shows every choice."""
        row, said = await self.bot.games.choose(
            channel_key(interaction), str(interaction.user.id), option, value, seat
        )
        await reply_with_lobby(self.bot, interaction, f"<@{interaction.user.id}> chooses {said}.", row)

    @choose.autocomplete("option")
    async def choose_option(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The lobby's choices (per seat or for the whole game)."""
        row = await self.open_lobby(interaction)
        if row is None:
            return []
        offered = option_specs(row.ruleset, row.scenario)
        return choices([(f"{s.label}{' (per seat)' if s.per_seat else ''}", s.key) for s in offered], current)

    @choose.autocomplete("value")
    async def choose_value(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen option's values (name: label, value: the value)."""
        row = await self.open_lobby(interaction)
        if row is None:
            return []
        spec = find_spec(find_ruleset(row.ruleset), row.scenario, str(interaction.namespace.option or ""))
        if spec is None:
            return []
        return choices([(label, value) for value, label in spec.choices], current)

    @choose.autocomplete("seat")
    async def choose_seat(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's seats."""
        row = await self.bot.games.live(channel_key(interaction))
        if row is None:
            return []
        return choices([(s, s) for s in self.bot.games.seats_of(row, str(interaction.user.id))], current)

    @game.command(name="start", description="Start the lobby's game")
    @app_commands.describe(
        bot="Let the game itself play the empty seats",
        level="How well the game plays those seats (default easy)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def start(
        self, interaction: discord.Interaction, bot: bool = False, level: str | None = None
    ) -> None:
        """Start the game and post the first board."""
        played = await in_time(
            interaction,
            self.bot.games.start(
                channel_key(interaction), str(interaction.user.id), bot_seats=bot, level=level
            ),
        )
        await self.bot.reply_played(interaction, played)

    # -- lifecycle ---------------------------------------------------------------------------------
    @game.command(name="status", description="Seats, whose move it is, the result")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the channel's game (or the last one)."""
        key = channel_key(interaction)
        row = await self.bot.games.live(key) or await self.bot.store.latest_game(key)
        if row is None:
            raise Refusal("No game has been played here yet. Start one with /game new.")
        game = self.bot.games.load(row) if row.snapshot else None
        await interaction.response.send_message(embed=present.status_embed(row, game), ephemeral=True)

    @game.command(name="board", description="Post the current board image")
    async def board(self, interaction: discord.Interaction) -> None:
        """Re-post the board."""
        key = channel_key(interaction)
        row = await self.bot.games.live(key) or await self.bot.store.latest_game(key)
        if row is None or row.snapshot is None:
            raise Refusal("There is no board to show here yet.")
        game = self.bot.games.load(row)
        await acknowledge(interaction)  # drawing may take a moment; an error then still answers privately
        png = await board_png(game)
        embed = present.status_embed(row, game)
        if png is None:
            await interaction.followup.send(f"```\n{game.text_board()[:1900]}\n```", embed=embed)
            return
        embed.set_image(url="attachment://board.png")
        await interaction.followup.send(embed=embed, file=present.board_file(png))

    @game.command(name="log", description="The last commands played")
    @app_commands.describe(last="How many (default 10)", events="Show what happened too")
    async def log(
        self,
        interaction: discord.Interaction,
        last: app_commands.Range[int, 1, 200] = 10,
        events: bool = False,
    ) -> None:
        """Show the command log."""
        key = channel_key(interaction)
        row = await self.bot.games.live(key) or await self.bot.store.latest_game(key)
        if row is None:
            raise Refusal("No game has been played here yet.")
        lines = await self.bot.store.command_log(row.id, last)
        await interaction.response.send_message(present.log_text(row, lines, events=events), ephemeral=True)

    @game.command(name="concede", description="Give up the game (or one of your seats)")
    @app_commands.describe(seat="Only this seat (default: all of yours)")
    async def concede(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        """Ask privately for a confirm; then the caller's seats lose (in a game of more than two seats
        the game's player takes them over)."""
        row = await self.bot.games.require_live(channel_key(interaction), playing=True)
        mine = self.bot.games.seats_of(row, str(interaction.user.id))
        if not mine:
            raise Refusal("You are not playing in this game.")
        which = seat.strip().lower() if seat else ""
        if which and which not in mine:
            raise Refusal(f"You do not hold the seat '{which}' (yours: {', '.join(mine)}).")
        await interaction.response.send_message(
            f"Concede {which or ', '.join(mine)} in game #{row.id}? This cannot be taken back.",
            view=confirm_view(row.id, "concede", which, "Concede"),
            ephemeral=True,
        )

    @concede.autocomplete("seat")
    async def concede_seat(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's seats."""
        row = await self.bot.games.live(channel_key(interaction))
        if row is None:
            return []
        return choices([(s, s) for s in self.bot.games.seats_of(row, str(interaction.user.id))], current)

    @game.command(name="abort", description="Stop the game without a result (creator or Manage Channels)")
    async def abort(self, interaction: discord.Interaction) -> None:
        """Ask privately for a confirm; then end the game here without a result."""
        row = await self.bot.games.require_live(channel_key(interaction))
        perms = interaction.permissions
        if str(interaction.user.id) != row.creator_id and not (perms and perms.manage_channels):
            raise Refusal("Only the game's creator or a member with Manage Channels can abort it.")
        await interaction.response.send_message(
            f"Abort game #{row.id} without a result? This cannot be taken back.",
            view=confirm_view(row.id, "abort", "", "Abort the game"),
            ephemeral=True,
        )

    @game.command(name="settings", description="Reminders and standing answers to reactions")
    @app_commands.describe(
        reminders="Ping players whose move it is after a while",
        hours="Hours before a reminder",
        reaction="A standing answer, e.g. 'react dodge always' (an engine command)",
        seat="Which of your seats the standing answer is for",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        reminders: bool | None = None,
        hours: app_commands.Range[float, 0.05, 336.0] | None = None,
        reaction: str | None = None,
        seat: str | None = None,
    ) -> None:
        """Change reminders (stored with the game) and reaction policies (played as engine commands)."""
        key = channel_key(interaction)
        user = str(interaction.user.id)
        if reaction:
            played = await in_time(
                interaction,
                self.bot.games.play(key, user, reaction, seat=seat, interaction_id=str(interaction.id)),
            )
            await self.bot.reply_played(interaction, played)
            if reminders is None and hours is None:
                return
        if reminders is None and hours is None:
            row = await self.bot.games.require_live(key)
            on = "on" if row.settings.get("reminders") else "off"
            delay = row.settings.get("reminder_hours") or self.bot.config.reminder_hours
            await interaction.response.send_message(
                f"Reminders are {on} (after {delay:g} h).", ephemeral=True
            )
            return
        row = await self.bot.games.settings(key, user, reminders=reminders, hours=hours)
        on = "on" if row.settings.get("reminders") else "off"
        delay = row.settings.get("reminder_hours") or self.bot.config.reminder_hours
        text = f"Reminders are now {on} (after {delay:g} h)."
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    @settings.autocomplete("reaction")
    async def settings_reaction(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Standing-answer commands the ruleset's help describes (``react KIND a|b|c``), checked by the engine."""
        row = await self.bot.games.live(channel_key(interaction))
        if row is None or row.status != "playing":
            return []
        game = self.bot.games.load(row)
        candidates = policy_commands(" ".join(game.ruleset.help_topics().values()))
        mine = self.bot.games.seats_of(row, str(interaction.user.id))
        ok = []
        for text in candidates:
            try:
                if mine:
                    game.parse(mine[0], text)
            except Exception:
                continue
            ok.append((text, text))
        if current and not any(current == v for _n, v in ok):
            ok.insert(0, (current, current))
        return choices(ok, current if current not in {v for _n, v in ok} else "")

    @settings.autocomplete("seat")
    async def settings_seat(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's seats."""
        row = await self.bot.games.live(channel_key(interaction))
        if row is None:
            return []
        return choices([(s, s) for s in self.bot.games.seats_of(row, str(interaction.user.id))], current)


def option_specs(ruleset_id: str, scenario: str | None) -> list[OptionSpec]:
    """The lobby choices of a stored game's ruleset and scenario (none if the ruleset is gone)."""
    try:
        return specs(find_ruleset(ruleset_id), scenario)
    except Exception:
        return []


def policy_commands(help_text: str) -> list[str]:
    """Expand ``react KIND a|b|c`` patterns found in help text into single commands."""
    out: list[str] = []
    for kind, alts in re.findall(r"'?(react [a-z-]+) ([a-z-]+(?:\|[a-z-]+)+)'?", help_text):
        for alt in alts.split("|"):
            text = f"{kind} {alt}"
            if text not in out:
                out.append(text)
    return out


async def setup(bot: EscapadeBot) -> None:
    """Load the cog."""
    await bot.add_cog(Lobby(bot))
