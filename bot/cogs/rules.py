"""``/rules [ruleset] [topic]``: short help written for each ruleset, from its ``help_topics()``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.lobby import choices
from bot.errors import Refusal
from engine import RULESETS, Ruleset, find_ruleset

if TYPE_CHECKING:
    from bot.client import EscapadeBot


class Rules(commands.Cog):
    """Rules help."""

    def __init__(self, bot: EscapadeBot) -> None:
        self.bot = bot

    async def _ruleset_id(self, interaction: discord.Interaction, given: str | None) -> str:
        if given:
            return find_ruleset(given).id
        if interaction.channel_id is not None:
            row = await self.bot.games.live(str(interaction.channel_id))
            if row is not None:
                return row.ruleset
        if not RULESETS:
            raise Refusal("No game is installed.")
        return next(iter(RULESETS))

    @app_commands.command(name="rules", description="Short rules help")
    @app_commands.describe(ruleset="Which game (default: this channel's)", topic="Which topic")
    async def rules(
        self, interaction: discord.Interaction, ruleset: str | None = None, topic: str | None = None
    ) -> None:
        """Show a help topic, or the list of topics with the overview."""
        rs = find_ruleset(await self._ruleset_id(interaction, ruleset))
        topics = rs.help_topics()
        if topic:
            key = topic.strip().lower()
            if key not in topics:
                raise Refusal(
                    f"{rs.name} has no help topic '{topic}'. Topics: {', '.join(topics) or 'none'}."
                )
            embed = discord.Embed(title=f"{rs.name} — {key}", description=topics[key][:4000])
        else:
            first = next(iter(topics.values()), rs.summary or "")
            embed = discord.Embed(title=f"{rs.name} — rules help", description=first[:4000])
            embed.add_field(name="Topics", value=", ".join(topics)[:1024] or "—", inline=False)
            embed.add_field(name="Scenarios", value=scenario_list(rs) or "—", inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @rules.autocomplete("ruleset")
    async def rules_ruleset(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Every registered ruleset."""
        return choices([(rs.name, rs.id) for rs in RULESETS.values()], current)

    @rules.autocomplete("topic")
    async def rules_topic(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen ruleset's topics."""
        try:
            rs = find_ruleset(
                await self._ruleset_id(interaction, getattr(interaction.namespace, "ruleset", None))
            )
        except Exception:
            return []
        return choices([(t, t) for t in rs.help_topics()], current)


async def setup(bot: EscapadeBot) -> None:
    """Load the cog."""
    await bot.add_cog(Rules(bot))


def scenario_list(rs: Ruleset, limit: int = 1000) -> str:
    """The ruleset's scenarios, one line each (name, id to type, summary), as many whole lines as fit in
    ``limit`` characters, then how many more there are."""
    lines = [f"**{i.name}** (`{i.id}`) — {i.summary}" for i in rs.scenarios()]
    shown: list[str] = []
    for n, line in enumerate(lines):
        more = f"… and {len(lines) - n} more: /game new lists them all."
        if sum(len(x) + 1 for x in shown) + len(line) + len(more) + 2 > limit:
            return "\n".join([*shown, more])
        shown.append(line)
    return "\n".join(shown)
