"""What the bot posts: narration embeds (every die shown), lobby and status embeds, mentions, board files.

Pure formatting from engine objects and stored rows; no rules. The ``send_*`` helpers post a
:class:`~bot.games.Played` as an interaction reply or a channel message.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import discord

from bot import choices, growing
from bot.games import BOT, WAIT, Played, Step, seat_label, seat_names
from bot.store import GameRow, LogLine
from engine import Decision, Event, Game, OptionSpec, find_ruleset
from engine.ai.levels import DEFAULT_LEVEL

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


def who(row: GameRow, seat: str, names: dict[str, str] | None = None) -> str:
    """A seat as shown in messages: the member's mention (embeds do not ping) or the game's player, with
    the seat's character when the ruleset names one (``names``)."""
    holder = row.seats.get(seat)
    named = seat_label(seat, names)
    if holder in (None, BOT):
        return f"🤖 {named}"
    return f"<@{holder}> ({named})"


TIMEOUT_TAG = " ⏱ timeout answer"


def step_header(row: GameRow, step: Step, names: dict[str, str] | None = None) -> str:
    """The line above a command's narration."""
    tag = TIMEOUT_TAG if step.auto == "timeout" else ""
    if step.secret:
        return f"**{who(row, step.seat, names)}** submits a hidden choice{tag}"
    return f"**{who(row, step.seat, names)}** `{step.text}`{tag}"


def _run_of(line: str) -> str | None:
    """The seat part (``**🤖 who**`` or ``**<@member> (seat)**``) of a header that the same seat's next
    commands may go on under: an open command (hidden choices and timeout answers each keep a header)."""
    if not line.startswith("**") or line.endswith(TIMEOUT_TAG):
        return None
    end = line.find("** `", 2)
    return line[: end + 2] if end > 0 else None


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


def next_field(row: GameRow, decisions: list[Decision], names: dict[str, str] | None = None) -> str:
    """Who must act next and what is asked of them."""
    lines = []
    for d in decisions:
        seats = ", ".join(who(row, s, names) for s in sorted(d.seats))
        lines.append(f"{seats}: {d.prompt}")
    return clip(lines, 1000) or "—"


def players_side(ruleset_id: str) -> str:
    """The name of the one side every seat plays on against the game itself ("the crew"), or "" for a game
    the seats play against each other."""
    try:
        return str(getattr(find_ruleset(ruleset_id), "players_side", ""))
    except Exception:
        return ""


def result_text(row: GameRow, result: dict[str, Any]) -> str:
    """A finished game's result: the reason, then the winners (or, against the game, the side's fate)."""
    winners = result.get("winners") or []
    reason = result.get("reason", "")
    side = players_side(row.ruleset)
    if side and row.status != "aborted":
        crew = ", ".join(who(row, s) for s in row.seats if row.seats.get(s) is not None)
        fate = f"{side[:1].upper()}{side[1:]} {'won' if winners else 'lost'}"
        return f"{reason}\n{fate}: {crew}".strip()
    won = ", ".join(who(row, s) for s in winners) if winners else "nobody (draw)"
    return f"{reason}\nWinner: {won}"


def colour(played: Played) -> int:
    """The embed colour: the acting side's seat colour, gold once the game is over."""
    if played.outcome is not None:
        return DONE
    for d in played.decisions:
        for seat in sorted(d.seats):
            hexa = played.colours.get(seat, "")
            if len(hexa) == 7 and hexa.startswith("#"):
                try:
                    return int(hexa[1:], 16)
                except ValueError:
                    pass
    return ACCENT


def footer(row: GameRow, turn: str) -> str:
    """The footer of game messages: the game, the turn in players' words, and the version (small)."""
    return f"Game #{row.id}" + (f" · {turn}" if turn else "") + f" · v{row.version}"


def step_lines(played: Played, above: list[str] | None = None) -> list[str]:
    """The narration a turn message shows after a request: ``above`` (what it showed already; None for a
    new message), then each command's header and its events with their dice.

    A command for the seat whose command came just before (in this request, or last in ``above``), by the
    same player, goes on under that header: its events follow without a header of their own, so a walk
    of six steps reads as six lines, not twelve. A command with no events keeps its header, and so do
    hidden choices and timeout answers. Like events in a row (a series of planning tokens, a path of
    moves: :mod:`bot.growing`) grow one line, the last one shown: a command whose events all go on
    with it needs no header either (a member planning eight tiles, one request each, adds to one line)."""
    lines = list(above or [])
    if played.started:
        game = played.game
        lines.append(
            f"**The game begins.** {game.ruleset.name}: {game.ruleset.scenario(game.scenario).name}."
        )
    run = next((_run_of(line) for line in reversed(lines) if line.startswith("**")), None)
    for step in played.steps:
        header = step_header(played.row, step, played.names)
        key = _run_of(header)
        if (key is None or key != run or not step.events) and not _goes_on(lines, step):
            lines.append(header)
        run = key
        for e in step.events:
            grown = growing.grow(lines[-1], e) if lines else None
            if grown is not None:
                lines[-1] = grown
            else:
                lines.append(event_line(e))
    return lines


def _goes_on(lines: list[str], step: Step) -> bool:
    """Whether every event of ``step`` grows the line the narration ends with (:mod:`bot.growing`)."""
    if not lines or step.secret or not step.events:
        return False
    line: str | None = lines[-1]
    for e in step.events:
        line = growing.grow(line, e) if line is not None else None
    return line is not None


def narration(played: Played, lines: list[str] | None = None) -> discord.Embed:
    """The turn message's embed: the narration so far (``lines``, default this request's), every die
    shown, then who acts next (or the result), in the acting side's colour, the turn in the footer."""
    row, game = played.row, played.game
    if lines is None:
        lines = step_lines(played)
    outcome = played.outcome
    embed = discord.Embed(
        title=f"{game.ruleset.name} — game #{row.id}" + (f" — {played.turn}" if played.turn else ""),
        description=clip(lines),
        colour=colour(played),
    )
    if outcome is not None:
        embed.add_field(name="Result", value=result_text(row, outcome.to_data())[:1024], inline=False)
        if played.campaign:
            embed.add_field(name="Campaign", value=campaign_text(played.campaign)[:1024], inline=False)
    elif not played.round_options:  # a round's own embed, below, says who answers and what
        embed.add_field(
            name="Next", value=next_field(row, played.decisions, played.names)[:1024], inline=False
        )
    embed.set_footer(text=footer(row, played.turn))
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
    hint = "Pick from your menu below (or /do; add seat: if you hold several)."
    if played.round_shared:
        shared.append("Any of you: " + " · ".join(played.round_shared))
    embed = discord.Embed(
        title="A new round: everyone chooses, in any order"
        if played.new_round
        else "Still choosing this round",
        description=clip([*shared, hint], 4000),
        colour=ACCENT,
    )
    for seat, labels in list(played.round_options.items())[:25]:
        lines = [who(row, seat, played.names), own.get(seat, ""), " · ".join(labels) or "—"]
        embed.add_field(name=seat, value="\n".join(x for x in lines if x)[:1024], inline=False)
    embed.set_footer(text=footer(row, played.turn))
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

    Each seat lists the choices it made; the defaults of the per-seat choices are told once, below them.
    """
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
    levels = row.settings.get("bot_level") or {}
    preset = row.settings.get("empty_seats", WAIT)
    for seat, holder in row.seats.items():
        if holder is None:
            first = "*empty*" if preset == WAIT else f"*empty* (🤖 the game, {preset}, at Start)"
        elif holder == BOT:
            first = f"🤖 the game ({levels.get(seat, DEFAULT_LEVEL)})"
        else:
            first = f"<@{holder}>"
        lines = [first]
        for spec in (s for s in specs if s.per_seat):  # what the seat chose; the defaults are told once
            value = (stored.get(spec.key) or {}).get(seat)
            if value and value != _default(spec):
                lines.append(f"{spec.label}: {choices.label_of(spec, value)}")
        embed.add_field(name=seat, value="\n".join(lines)[:1024], inline=True)
    defaults = [
        f"{s.label}: {choices.label_of(s, _default(s))}"
        for s in specs
        if s.per_seat and _default(s) and choices.label_of(s, _default(s)) != "-"
    ]
    if defaults:
        embed.add_field(name=EVERY_SEAT, value="\n".join(defaults)[:1024], inline=False)
    shared = [s for s in specs if not s.per_seat]
    if shared:
        text = "\n".join(
            f"{s.label}: {choices.label_of(s, stored.get(s.key) or _default(s))}" for s in shared
        )
        embed.add_field(name="Choices", value=text[:1024], inline=False)
    hint = (
        "/game join (several seats allowed), /game choose, then /game start"
        if specs
        else "/game join, then /game start"
    )
    embed.set_footer(
        text=f"Game #{row.id} · {hint} (the Empty seats menu or bot:True lets the game play them)"
    )
    return embed


EVERY_SEAT = "Every seat, unless it chooses"  # the lobby field with the per-seat choices' defaults


def _default(spec: OptionSpec) -> str:
    """The value a lobby choice starts with (its first)."""
    return spec.choices[0][0] if spec.choices else ""


def status_embed(row: GameRow, game: Game | None) -> discord.Embed:
    """The game's status: seats, who acts, result."""
    if row.status == "lobby" or game is None:
        embed = lobby_embed(row, title=f"Game #{row.id} ({row.status})")
        if row.result:
            embed.add_field(name="Result", value=result_text(row, row.result)[:1024], inline=False)
        return embed
    embed = discord.Embed(
        title=f"{game.ruleset.name} — game #{row.id} ({row.status})",
        description=f"Scenario: {game.ruleset.scenario(game.scenario).name}"
        + (f" · {game.turn_label()}" if game.turn_label() else "")
        + f" · v{row.version}",
        colour=DONE if row.status != "playing" else ACCENT,
    )
    names = seat_names(game)
    embed.add_field(
        name="Seats", value="\n".join(who(row, s, names) for s in game.seats) or "—", inline=False
    )
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
    """The lobby choices a game was started with, one line each (per-seat ones as ``seats: label``, or
    ``label (every seat)`` when every seat chose the same)."""
    options = game.setup_options.options
    lines = []
    for spec in choices.specs(game.ruleset, game.scenario):
        value = options.get(spec.key)
        if isinstance(value, dict):
            by_value: dict[str, list[str]] = {}
            for seat, v in value.items():
                if choices.label_of(spec, str(v)) != "-":  # nothing chosen, nothing to tell
                    by_value.setdefault(choices.label_of(spec, str(v)), []).append(seat)
            if not by_value:
                continue
            if len(by_value) == 1:
                lines.append(f"{spec.label}: {next(iter(by_value))} (every seat)")
            else:
                per = "; ".join(f"{', '.join(seats)}: {label}" for label, seats in by_value.items())
                lines.append(f"{spec.label} — {per}")
        elif value is not None and choices.label_of(spec, str(value)) != "-":
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
