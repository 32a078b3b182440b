"""Campaigns carried from game to game: ``/campaign show`` for any ruleset that keeps one (from its
``describe_campaign``), and ``/heist crew``, the heist game's name for its server campaign."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.lobby import choices
from bot.errors import Refusal
from bot.store import CampaignRecord
from engine import RULESETS, Ruleset, find_ruleset

if TYPE_CHECKING:
    from bot.client import EscapadeBot

CAMPAIGN = 0x9B59B6
HEIST = "heist"


def keeps_records(rs: Ruleset) -> bool:
    """True for a ruleset that keeps a campaign record from game to game."""
    return rs.campaign_scope in ("player", "server")


def campaign_rulesets() -> list[Ruleset]:
    """The registered rulesets that keep a campaign record or chain their scenarios as a campaign."""
    return [rs for rs in RULESETS.values() if keeps_records(rs) or rs.campaign_chain()]


def chain_embed(rs: Ruleset) -> discord.Embed:
    """A ruleset's campaign chain: its scenarios in order and where each result leads."""
    return discord.Embed(
        title=f"{rs.name} campaign", description=rs.campaign_chain()[:4000], colour=CAMPAIGN
    ).set_footer(text="Start the next scenario with /game new scenario:...")


def record_embed(rs: Ruleset, record: CampaignRecord, whose: str) -> discord.Embed:
    """A campaign record as an embed: the ruleset's own description of it, and when it last changed."""
    text = rs.describe_campaign(record.record) or "A record is kept, but this game describes nothing yet."
    embed = discord.Embed(title=f"{rs.name} campaign — {whose}", description=text[:4000], colour=CAMPAIGN)
    last = f"last game #{record.game_id} · " if record.game_id else ""
    embed.add_field(name="Updated", value=f"{last}<t:{int(record.updated_at)}:R>", inline=False)
    return embed


class Campaign(commands.Cog):
    """Campaign records."""

    campaign = app_commands.Group(
        name="campaign", description="What carries over from game to game", guild_only=True
    )
    heist = app_commands.Group(name="heist", description="The heist game", guild_only=True)

    def __init__(self, bot: EscapadeBot) -> None:
        self.bot = bot

    async def _default_ruleset(self, interaction: discord.Interaction) -> str:
        """The ruleset of this channel's latest game (running or not) if it has a campaign, else the first
        one that does."""
        keeping = campaign_rulesets()
        if not keeping:
            raise Refusal("None of the installed games keeps a campaign.")
        if interaction.channel_id is not None:
            key = str(interaction.channel_id)
            row = await self.bot.games.live(key) or await self.bot.store.latest_game(key)
            if row is not None and any(rs.id == row.ruleset for rs in keeping):
                return row.ruleset
        return keeping[0].id

    @campaign.command(name="show", description="A campaign kept on this server (a crew, a squad...)")
    @app_commands.describe(ruleset="Which game (default: this channel's)", member="Whose (default: yours)")
    async def show(
        self,
        interaction: discord.Interaction,
        ruleset: str | None = None,
        member: discord.Member | None = None,
    ) -> None:
        """Show the server's record, or a member's, as the ruleset describes it."""
        ruleset_id = ruleset or await self._default_ruleset(interaction)
        person = member or interaction.user
        chained = find_ruleset(ruleset_id)
        if not keeps_records(chained) and chained.campaign_chain():
            await interaction.response.send_message(embed=chain_embed(chained))
            return
        rs, record = await self.bot.games.campaign(
            str(interaction.guild_id) if interaction.guild_id else None, ruleset_id, str(person.id)
        )
        server = rs.campaign_scope == "server"
        if record is None:
            whose = "This server has" if server else f"<@{person.id}> has"
            await interaction.response.send_message(
                f"{whose} no {rs.name} campaign yet: it starts when a game of {rs.name} ends.",
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        whose = "this server" if server else person.display_name
        await interaction.response.send_message(embed=record_embed(rs, record, whose))

    @show.autocomplete("ruleset")
    async def show_ruleset(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The games that keep a campaign."""
        return choices([(rs.name, rs.id) for rs in campaign_rulesets()], current)

    @heist.command(name="crew", description="This server's heist crew: characters, cash, fixers, jail")
    async def crew(self, interaction: discord.Interaction) -> None:
        """The server's heist campaign, or a clear word that there is none yet."""
        rs = RULESETS.get(HEIST)
        if rs is None or rs.campaign_scope != "server":
            await interaction.response.send_message(
                "This server has no heist campaign yet: the heist game is not installed on this bot.",
                ephemeral=True,
            )
            return
        _rs, record = await self.bot.games.campaign(
            str(interaction.guild_id) if interaction.guild_id else None, rs.id, str(interaction.user.id)
        )
        if record is None:
            await interaction.response.send_message(
                f"This server has no heist campaign yet. Finish a heist (/game new ruleset:{rs.id}) "
                "and its crew, cash and fixers are kept here for the next one.",
                ephemeral=True,
            )
            return
        await interaction.response.send_message(embed=record_embed(rs, record, "this server's crew"))


async def setup(bot: EscapadeBot) -> None:
    """Load the cog."""
    await bot.add_cog(Campaign(bot))
