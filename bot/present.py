"""What the bot posts: narration embeds (every die shown), lobby and status embeds, mentions, board files.

Pure formatting from engine objects and stored rows; no rules. The ``send_*`` helpers post a
:class:`~bot.games.Played` as an interaction reply or a channel message.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import discord

from bot import render
from bot.games import BOT, Played, Step
from bot.store import GameRow, LogLine
from engine import Decision, Event, Game

ACCENT = 0x3BA55D
DONE = 0xF1C40F
LOBBY = 0x5865F2
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
MAX_DESCRIPTION = 4000


def dice_text(dice: Iterable[int]) -> str:
    """Dice as faces with their values, e.g. ``⚂3 ⚄5`` (values above 6 shown as numbers)."""
    return " ".join(f"{DIE_FACES[d - 1]}{d}" if 1 <= d <= 6 else f"[{d}]" for d in dice)


def event_line(e: Event | dict[str, Any]) -> str:
    """One narration line: the event text and every die rolled for it."""
    text, dice = (e.text, e.dice) if isinstance(e, Event) else (e.get("text", ""), e.get("dice", ()))
    return f"• {text}" + (f"  🎲 {dice_text(dice)}" if dice else "")


def who(row: GameRow, seat: str) -> str:
    """A seat as shown in messages: the member's mention (embeds do not ping) or the game's player."""
    holder = row.seats.get(seat)
    if holder in (None, BOT):
        return f"🤖 {seat}"
    return f"<@{holder}> ({seat})"


def step_header(row: GameRow, step: Step) -> str:
    """The line above a command's narration."""
    tag = {"bot": "", "timeout": " ⏱ timeout answer"}.get(step.auto, "")
    if step.secret:
        return f"**{who(row, step.seat)}** submits a hidden choice{tag}"
    return f"**{who(row, step.seat)}** `{step.text}`{tag}"


def clip(lines: list[str], limit: int = MAX_DESCRIPTION) -> str:
    """Join lines, dropping the oldest ones when the text would be too long for an embed."""
    out: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > limit - 2:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(reversed(out))


def next_field(row: GameRow, decisions: list[Decision]) -> str:
    """Who must act next and what is asked of them."""
    lines = []
    for d in decisions:
        seats = ", ".join(who(row, s) for s in sorted(d.seats))
        lines.append(f"{seats}: {d.prompt}")
    return clip(lines, 1000) or "—"


def result_text(row: GameRow, result: dict[str, Any]) -> str:
    """A finished game's result line."""
    winners = result.get("winners") or []
    won = ", ".join(who(row, s) for s in winners) if winners else "nobody (draw)"
    return f"{result.get('reason', '')}\nWinner: {won}"


def narration(played: Played) -> discord.Embed:
    """The embed for an accepted request: each command, its events and dice, then who acts next."""
    row, game = played.row, played.game
    lines: list[str] = []
    if played.started:
        lines.append(f"**The game begins.** {game.ruleset.name}, scenario {game.scenario}.")
    for step in played.steps:
        lines.append(step_header(row, step))
        lines.extend(event_line(e) for e in step.events)
    outcome = played.outcome
    embed = discord.Embed(
        title=f"{game.ruleset.name} — game #{row.id}",
        description=clip(lines),
        colour=DONE if outcome is not None else ACCENT,
    )
    if outcome is not None:
        embed.add_field(name="Result", value=result_text(row, outcome.to_data())[:1024], inline=False)
        if played.campaign:
            embed.add_field(name="Campaign", value=campaign_text(played.campaign)[:1024], inline=False)
    else:
        embed.add_field(name="Next", value=next_field(row, played.decisions)[:1024], inline=False)
    embed.set_footer(text=f"Game #{row.id} · move {row.version}")
    return embed


def campaign_text(described: dict[str, str]) -> str:
    """Campaign records as written at the end of a game: the server's, or each member's."""
    lines = []
    for key, text in described.items():
        head = "" if key == "*" else f"<@{key}>: "
        lines.append(head + (text or "record updated."))
    return "\n".join(lines)


def round_embed(played: Played) -> discord.Embed:
    """A simultaneous round that just opened: every awaited seat and its options, answered in any order.

    A prompt shared by several seats is shown once, above them; a seat's own prompt under its name.
    """
    row = played.row
    simultaneous = [d for d in played.decisions if d.kind == "simultaneous"]
    shared = [d.prompt for d in simultaneous if len(d.seats) > 1 and d.prompt]
    own = {next(iter(d.seats)): d.prompt for d in simultaneous if len(d.seats) == 1 and d.prompt}
    hint = "Answer with /do (its list shows your options; add seat: if you hold several)."
    embed = discord.Embed(
        title="A new round: everyone chooses, in any order",
        description=clip([*shared, hint], 4000),
        colour=ACCENT,
    )
    for seat, labels in list(played.round_options.items())[:25]:
        lines = [who(row, seat), own.get(seat, ""), " · ".join(labels) or "—"]
        embed.add_field(name=seat, value="\n".join(x for x in lines if x)[:1024], inline=False)
    embed.set_footer(text=f"Game #{row.id} · move {row.version}")
    return embed


def mentions(members: list[str]) -> tuple[str, discord.AllowedMentions]:
    """Message content pinging exactly ``members``, with matching allowed mentions."""
    if not members:
        return "", discord.AllowedMentions.none()
    content = " ".join(f"<@{m}>" for m in members) + " — your move."
    allowed = discord.AllowedMentions(
        users=[discord.Object(int(m)) for m in members], roles=False, everyone=False
    )
    return content, allowed


def lobby_embed(row: GameRow, title: str = "New game") -> discord.Embed:
    """The lobby: ruleset, scenario, how many players, the seats and every lobby choice made so far.

    Choices not made yet show the default the game will start with.
    """
    from bot import choices
    from engine import find_ruleset

    rs = find_ruleset(row.ruleset)
    info = rs.scenario(row.scenario)
    total = len(rs.seats)
    players = (
        f"{rs.min_seats}–{total} players" if rs.min_seats and rs.min_seats < total else f"{total} players"
    )
    embed = discord.Embed(
        title=f"{title}: {rs.name} — {info.name}", description=f"{info.summary}\n*{players}*", colour=LOBBY
    )
    specs = choices.specs(rs, row.scenario)
    stored = dict(row.settings.get("options") or {})
    for seat, holder in row.seats.items():
        lines = [{None: "*empty*", BOT: "🤖 the game"}.get(holder, f"<@{holder}>")]
        for spec in (s for s in specs if s.per_seat):
            value = (stored.get(spec.key) or {}).get(seat) or (spec.choices[0][0] if spec.choices else "")
            lines.append(f"{spec.label}: {choices.label_of(spec, value)}")
        embed.add_field(name=seat, value="\n".join(lines)[:1024], inline=True)
    shared = [s for s in specs if not s.per_seat]
    if shared:
        text = "\n".join(
            f"{s.label}: {choices.label_of(s, stored.get(s.key) or (s.choices[0][0] if s.choices else ''))}"
            for s in shared
        )
        embed.add_field(name="Choices", value=text[:1024], inline=False)
    hint = (
        "/game join (several seats allowed), /game choose, then /game start"
        if specs
        else "/game join, then /game start"
    )
    embed.set_footer(text=f"Game #{row.id} · {hint} (bot:True fills empty seats)")
    return embed


def status_embed(row: GameRow, game: Game | None) -> discord.Embed:
    """The game's status: seats, who acts, result."""
    if row.status == "lobby" or game is None:
        embed = lobby_embed(row, title=f"Game #{row.id} ({row.status})")
        if row.result:
            embed.add_field(name="Result", value=result_text(row, row.result)[:1024], inline=False)
        return embed
    embed = discord.Embed(
        title=f"{game.ruleset.name} — game #{row.id} ({row.status})",
        description=f"Scenario {game.scenario} · move {row.version}",
        colour=DONE if row.status != "playing" else ACCENT,
    )
    embed.add_field(name="Seats", value="\n".join(who(row, s) for s in game.seats) or "—", inline=False)
    made = game_choices(game)
    if made:
        embed.add_field(name="Choices", value=made[:1024], inline=False)
    if row.status == "playing":
        embed.add_field(name="Next", value=next_field(row, game.awaiting())[:1024], inline=False)
        reminders = "on" if row.settings.get("reminders") else "off"
        embed.add_field(name="Reminders", value=reminders, inline=True)
    if row.result:
        embed.add_field(name="Result", value=result_text(row, row.result)[:1024], inline=False)
    return embed


def game_choices(game: Game) -> str:
    """The lobby choices a game was started with, one line each (per-seat ones as ``seat: label``)."""
    from bot import choices

    options = game.setup_options.options
    lines = []
    for spec in choices.specs(game.ruleset, game.scenario):
        value = options.get(spec.key)
        if isinstance(value, dict):
            per = ", ".join(f"{s}: {choices.label_of(spec, str(v))}" for s, v in value.items())
            lines.append(f"{spec.label} — {per}")
        elif value is not None:
            lines.append(f"{spec.label}: {choices.label_of(spec, str(value))}")
    return "\n".join(lines)


def log_text(row: GameRow, lines: list[LogLine], *, events: bool = False) -> str:
    """The command log as text for /game log."""
    out = []
    for line in lines:
        hidden = row.status == "playing" and any(e.get("secret") for e in line.events)
        text = "a hidden choice" if hidden else f"`{line.text}`"
        out.append(f"`{line.seq:>4}` {who(row, line.seat)} {text}")
        if events:
            out.extend("      " + event_line(e) for e in line.events if "text" in e)
    return clip(out, 1900) or "No command has been played yet."


def board_file(png: bytes) -> discord.File:
    """The board PNG as an attachment named ``board.png``."""
    return discord.File(io.BytesIO(png), filename="board.png")


async def message_parts(played: Played, members: list[str], note: str = "") -> dict[str, Any]:
    """Keyword arguments for ``send``: content pinging ``members``, the narration, the board, the buttons."""
    from bot.views import decision_view

    content, allowed = mentions(members)
    questions = [d.prompt for d in played.decisions if d.kind == "reaction"]
    if content and questions:  # shown in the phone notification: what is being asked
        content = content.replace("your move.", "answer below: " + " / ".join(questions))[:1900]
    elif content and played.round_options:
        content = content.replace("your move.", "a new round: choose in your own time.")
    if note:
        content = f"{note}\n{content}".strip()
    embed = narration(played)
    embeds = [embed]
    if played.round_options:
        embeds.append(round_embed(played))
    kwargs: dict[str, Any] = {"content": content or None, "embeds": embeds, "allowed_mentions": allowed}
    if played.scene is not None:
        png = await render.scene_png(played.scene)
        if png is not None:
            kwargs["file"] = board_file(png)
            embed.set_image(url="attachment://board.png")
        else:
            embed.add_field(name="Board", value=f"```\n{played.text_board[:1000]}\n```", inline=False)
    view = decision_view(played)
    if view is not None:
        kwargs["view"] = view
    return kwargs


async def send_played(
    interaction: discord.Interaction, played: Played, members: list[str], note: str = ""
) -> None:
    """Answer an interaction with a Played result (deferring first when an image must be drawn)."""
    if played.board and not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
    kwargs = await message_parts(played, members, note)
    if interaction.response.is_done():
        await interaction.followup.send(**{k: v for k, v in kwargs.items() if v is not None})
    else:
        await interaction.response.send_message(**{k: v for k, v in kwargs.items() if v is not None})
    mine = [s.text for s in played.steps if s.secret and s.user_id == str(interaction.user.id)]
    if mine:  # the public message hides a simultaneous choice; its author sees it privately
        await interaction.followup.send(
            "Your hidden choice: " + ", ".join(f"`{t}`" for t in mine), ephemeral=True
        )


async def post_played(channel: discord.abc.Messageable, played: Played, members: list[str]) -> None:
    """Post a Played result in a channel (timeouts and other answers nobody typed)."""
    kwargs = await message_parts(played, members)
    await channel.send(**{k: v for k, v in kwargs.items() if v is not None})
