"""Playing: ``/do command:`` (any command, autocompleted from the engine's legal commands), ``/act verb:
details:`` (the same, picked by verb then details, for any ruleset) and the convenience verbs ``/move``,
``/attack`` and ``/end`` that build the same command text."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import tap
from bot.cogs.lobby import channel_key, choices
from bot.deadline import in_time
from bot.views import confirm_view, needs_confirm
from engine import Command

if TYPE_CHECKING:
    from bot.client import EscapadeBot


class Play(commands.Cog):
    """Commands that act in the channel's game."""

    def __init__(self, bot: EscapadeBot) -> None:
        self.bot = bot

    async def _play(self, interaction: discord.Interaction, text: str, seat: str | None) -> None:
        row, acting, command = await self.bot.games.check(
            channel_key(interaction), str(interaction.user.id), text, seat or None, str(interaction.id)
        )
        if needs_confirm(row, command):  # typed or picked, an irreversible command is asked about first
            arg = f"{row.version}:{acting}:{command.text}"
            await interaction.response.send_message(
                f"**{command.label or command.text}** cannot be taken back. Sure?",
                view=confirm_view(row.id, "cmd", arg, command.label or command.text),
                ephemeral=True,
            )
            return
        played = await in_time(
            interaction,
            self.bot.games.play(
                channel_key(interaction),
                str(interaction.user.id),
                text,
                seat=seat or None,
                interaction_id=str(interaction.id),
            ),
        )
        await self.bot.reply_played(interaction, played)

    # -- /do ---------------------------------------------------------------------------------------
    @app_commands.command(name="do", description="Play a command in this channel's game")
    @app_commands.describe(
        command="What to do (pick from the list or type it)", seat="Which of your seats acts"
    )
    @app_commands.guild_only()
    async def do(self, interaction: discord.Interaction, command: str, seat: str | None = None) -> None:
        """Play ``command`` for the caller's awaited seat."""
        await self._play(interaction, command, seat)

    @do.autocomplete("command")
    async def do_command(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal commands now (value: command text, name: its label), filtered by what is typed."""
        pairs = await self.bot.games.legal(
            channel_key(interaction), str(interaction.user.id), getattr(interaction.namespace, "seat", None)
        )
        if not pairs:
            return await self._why_nothing(interaction)
        by_seat: dict[str, list[Command]] = {}
        for seat, c in pairs:
            by_seat.setdefault(seat, []).append(c)
        if len(by_seat) == 1:
            entries = tap.autocomplete(next(iter(by_seat.values())), current)
            return [app_commands.Choice(name=e.label[:100], value=e.value[:100]) for e in entries]
        out: list[app_commands.Choice[str]] = []  # the value names the seat too, so the pick says who acts
        for seat, legal in by_seat.items():
            for e in tap.autocomplete(legal, current)[: max(1, 25 // len(by_seat))]:
                out.append(
                    app_commands.Choice(name=f"[{seat}] {e.label}"[:100], value=f"[{seat}] {e.value}"[:100])
                )
        return out[:25]

    async def _why_nothing(self, interaction: discord.Interaction) -> list[app_commands.Choice[str]]:
        """One entry saying why the caller has nothing to play now and whom the game waits for."""
        row = await self.bot.games.live(channel_key(interaction))
        if row is None:
            return [
                app_commands.Choice(name="There is no game in this channel: /game new starts one.", value="—")
            ]
        if row.status != "playing":
            return [app_commands.Choice(name="The game has not started yet: /game start.", value="—")]
        game = self.bot.games.load(row)
        waits = [d for d in game.awaiting()]
        whom = ", ".join(sorted({s for d in waits for s in d.seats})) or "nobody"
        asked = waits[0].prompt if waits else ""
        mine = self.bot.games.seats_of(row, str(interaction.user.id))
        why = "Not your move" if mine else "You are watching (not playing)"
        text = f"{why}: the game waits for {whom}" + (f" — {asked}" if asked else "")
        return [app_commands.Choice(name=text[:100], value="—")]

    async def _seats(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        row = await self.bot.games.live(channel_key(interaction))
        if row is None:
            return []
        return choices([(s, s) for s in self.bot.games.seats_of(row, str(interaction.user.id))], current)

    # -- verbs -------------------------------------------------------------------------------------
    async def _args(self, interaction: discord.Interaction, verb: str, index: int, current: str) -> list[app_commands.Choice[str]]:  # fmt: skip
        """Distinct ``args[index]`` of the caller's legal ``verb`` commands (given the earlier arguments)."""
        pairs = await self.bot.games.legal(
            channel_key(interaction), str(interaction.user.id), getattr(interaction.namespace, "seat", None)
        )
        unit = str(getattr(interaction.namespace, "unit", "") or "").lower()
        seen: list[tuple[str, str]] = []
        for _seat, c in pairs:
            if c.verb != verb or len(c.args) <= index:
                continue
            if index > 0 and c.args[0] != unit:
                continue
            value = c.args[index]
            if all(v != value for _n, v in seen):
                seen.append((value if index == 0 else f"{value} — {c.label}" if c.label else value, value))
        if not seen and not pairs:
            return await self._why_nothing(interaction)
        if not seen:  # this ruleset has no such verb now: say what there is
            verbs = ", ".join(dict.fromkeys(c.verb for _s, c in pairs))
            return [app_commands.Choice(name=f"No '{verb}' now: use /do or /act ({verbs})"[:100], value="—")]
        return choices(seen, current)

    @app_commands.command(name="act", description="Pick what to do by kind, then which one (any game)")
    @app_commands.describe(
        verb="What kind of action (from what you may do now)",
        details="Which one (the rest of the command)",
        seat="Which of your seats acts",
    )
    @app_commands.guild_only()
    async def act(
        self, interaction: discord.Interaction, verb: str, details: str | None = None, seat: str | None = None
    ) -> None:
        """Play ``VERB DETAILS``: the same command text /do would take, picked in two short lists."""
        await self._play(interaction, f"{verb} {details or ''}".strip(), seat)

    @act.autocomplete("verb")
    async def act_verb(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The verbs of the caller's legal commands now, with how many commands each has."""
        pairs = await self.bot.games.legal(
            channel_key(interaction), str(interaction.user.id), getattr(interaction.namespace, "seat", None)
        )
        counts: dict[str, int] = {}
        for _seat, c in pairs:
            counts[c.verb] = counts.get(c.verb, 0) + 1
        return choices([(f"{v} ({n})" if n > 1 else v, v) for v, n in counts.items()], current)

    @act.autocomplete("details")
    async def act_details(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The rest of each legal command with the chosen verb (name: its label)."""
        pairs = await self.bot.games.legal(
            channel_key(interaction), str(interaction.user.id), getattr(interaction.namespace, "seat", None)
        )
        verb = str(getattr(interaction.namespace, "verb", "") or "").strip().lower()
        items: list[tuple[str, str]] = []
        for _seat, c in pairs:
            rest = " ".join(c.args)
            if c.verb == verb and rest and all(v != rest for _n, v in items):
                items.append((c.label or rest, rest))
        return choices(items, current)

    @app_commands.command(name="move", description="Move a unit (builds 'move UNIT TO')")
    @app_commands.describe(unit="Who moves", to="Where to", seat="Which of your seats acts")
    @app_commands.guild_only()
    async def move(
        self, interaction: discord.Interaction, unit: str, to: str, seat: str | None = None
    ) -> None:
        """Play ``move UNIT TO``."""
        await self._play(interaction, f"move {unit} {to}", seat)

    @move.autocomplete("unit")
    async def move_unit(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Units that may move now."""
        return await self._args(interaction, "move", 0, current)

    @move.autocomplete("to")
    async def move_to(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Squares the chosen unit may move to."""
        return await self._args(interaction, "move", 1, current)

    @app_commands.command(name="attack", description="Attack with a unit (builds 'attack UNIT TARGET')")
    @app_commands.describe(unit="Who attacks", target="Whom", seat="Which of your seats acts")
    @app_commands.guild_only()
    async def attack(
        self, interaction: discord.Interaction, unit: str, target: str, seat: str | None = None
    ) -> None:
        """Play ``attack UNIT TARGET``."""
        await self._play(interaction, f"attack {unit} {target}", seat)

    @attack.autocomplete("unit")
    async def attack_unit(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Units that may attack now."""
        return await self._args(interaction, "attack", 0, current)

    @attack.autocomplete("target")
    async def attack_target(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Targets the chosen unit may attack."""
        return await self._args(interaction, "attack", 1, current)

    @app_commands.command(name="end", description="End the current activation or turn (plays 'end')")
    @app_commands.describe(seat="Which of your seats acts")
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        """Play ``end``."""
        await self._play(interaction, "end", seat)

    @act.autocomplete("seat")
    @move.autocomplete("seat")
    @attack.autocomplete("seat")
    @end.autocomplete("seat")
    async def verb_seat(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's seats."""
        return await self._seats(interaction, current)

    @do.autocomplete("seat")
    async def do_seat(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The caller's seats."""
        return await self._seats(interaction, current)


async def setup(bot: EscapadeBot) -> None:
    """Load the cog."""
    await bot.add_cog(Play(bot))
