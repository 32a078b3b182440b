"""The turn message's narration when the game's own player makes several commands in a row: one header for
the run, every event of every command under it; a member's commands in a row go on under one header too."""

from __future__ import annotations

from engine import load_game
from engine.core import Event
from engine.grammar import series_text
from tests.harness import ALICE, Harness


def description(reply: object) -> str:
    """The first embed's description (the narration)."""
    return str(reply.embeds[0].get("description", ""))  # type: ignore[attr-defined]


async def test_a_bot_run_shows_one_header_and_every_event(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="escape", scenario="infiltration")
    await h.slash("game join", user=ALICE, seat="isc", bot=True, level="easy")
    await h.slash("game start", user=ALICE)
    checked = 0
    for _ in range(300):
        row = await h.row()
        if row.status != "playing" or checked >= 3:
            break
        game = load_game(row.snapshot)
        before = len(game.log)
        command = game.bot_command("resistance").text
        start = len(h.replies)
        await h.slash("do", user=ALICE, command=command, seat="resistance")
        after = load_game((await h.row()).snapshot)
        # Replay this request's commands one by one to know each one's events.
        replay = load_game(row.snapshot)
        steps: list[tuple[str, str, list[Event]]] = []
        for entry in after.log[before:]:
            steps.append((entry.seat, entry.text, replay.apply(entry.seat, entry.text)))
        runs = [s for s in steps[1:] if s[0] == "isc"]
        if len(runs) < 3 or any(seat != "isc" for seat, _, _ in steps[1:]) or not all(e for *_, e in runs):
            continue
        posted = [r for r in h.replies[start:] if r.embeds and not r.ephemeral]
        text = description(posted[-1])
        lines = text.split("\n")
        first = lines.index(f"**🤖 isc** `{runs[0][1]}`")
        rest = lines[first + 1 :]
        assert not any(line.startswith("**") for line in rest), text  # the later commands: no header
        events = [e for *_, evs in runs for e in evs]
        shown = [line[2:].split("  🎲")[0] for line in rest]
        # Every event is told, in order: on a line of its own, or a step of a path grown onto the line
        # before ("Oni moves to n7 ➜ n6 (Mvt 0 left).").
        at = 0
        for e in events:
            if "path" in e.data and at and f" ➜ {e.data['path'][2]}" in shown[at - 1]:
                continue
            if "path" in e.data:  # the path's first step: the line starts as the step's own text
                assert shown[at].startswith(e.text.removesuffix(e.data["path"][3] + ".")), (shown, e.text)
            else:
                assert shown[at] == e.text, (shown, e.text)
            at += 1
        assert at == len(shown)
        checked += 1
    assert checked >= 1, "no request handed the turn to a run of three or more bot commands"


async def test_a_member_s_commands_in_a_row_go_on_under_one_header(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="escapepath")
    await h.slash("game join", user=ALICE, seat="swarm", bot=True, level="easy")
    await h.slash("game start", user=ALICE)
    typed: list[str] = []
    for _ in range(40):  # the team's first turn: command after command until the turn is handed over
        game = load_game((await h.row()).snapshot)
        command = game.bot_command("team").text
        if game.seats_to_act() != {"team"} or command.split()[0] == "end" or len(typed) == 4:
            break
        await h.slash("do", user=ALICE, command=command, seat="team")
        typed.append(command)
    assert len(typed) >= 3, typed
    text = description(h.shown())
    headers = [line for line in text.split("\n") if line.startswith("**<@")]
    # One header for the member's run (its first command, echoed), however many commands followed it,
    # and each command's events under it.
    assert len(headers) == 1 and headers[0].endswith(f"(team)** `{typed[0]}`"), text
    replay = load_game((await h.row()).snapshot)
    assert [e.text for e in replay.log if e.seat == "team"][-len(typed) :] == typed
    for command in typed:  # each step told (on a line of its own, or grown onto a figure's path)
        assert f"to {command.split()[2]}" in text or f" ➜ {command.split()[2]}" in text, (command, text)
    for command in typed[1:]:
        assert f"`{command}`" not in text


async def test_a_bot_crewmate_s_planning_reads_as_one_line(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist")
    for seat in ("p2", "p3"):
        await h.slash("game join", user=ALICE, seat=seat, bot=True, level="easy")
    started = await h.slash("game start", user=ALICE)
    game = load_game((await h.row()).snapshot)
    for seat in ("p2", "p3"):
        name = next(p["nickname"] for p in game.view(None)["players"] if p["seat"] == seat)
        planned = [e.text.split()[1] for e in game.log if e.seat == seat and e.text.startswith("plan ")]
        assert len(planned) >= 3, planned
        lines = description(started).split("\n")
        # Each token the bot placed is in the one line, in the order placed; no line per token.
        assert f"• {name} plans {', '.join(planned[:-1])} and {planned[-1]}." in lines
        assert not [line for line in lines if line.startswith(f"• {name} plans ") and line.count(" ") < 4]


def test_a_series_is_told_as_a_list() -> None:
    assert series_text("Iceheart plans", ["h6"]) == "Iceheart plans h6."
    assert series_text("Iceheart plans", ["h6", "h5", "i3"]) == "Iceheart plans h6, h5 and i3."


async def test_a_member_s_planning_grows_one_line_across_requests(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist")
    for seat in ("p2", "p3"):
        await h.slash("game join", user=ALICE, seat=seat, bot=True, level="easy")
    await h.slash("game start", user=ALICE)
    planned: list[str] = []
    for _ in range(12):
        game = load_game((await h.row()).snapshot)
        plans = [c.text for c in game.legal_commands("p1") if c.verb == "plan"]
        if not plans or len(planned) == 3:
            break
        if not any(e.seat == "p1" for e in game.log):  # the start tile first, then the plans
            await h.slash("do", user=ALICE, command=game.bot_command("p1").text, seat="p1")
            continue
        await h.slash("do", user=ALICE, command=plans[0], seat="p1")
        planned.append(plans[0].split()[1])
    name = next(p["nickname"] for p in game.view(None)["players"] if p["seat"] == "p1")
    lines = h.shown().text.split("\n")
    assert f"• {name} plans {planned[0]}, {planned[1]} and {planned[2]}." in lines, lines
    assert not any(line.endswith(f"`plan {planned[1]}`") for line in lines)  # no header per token
