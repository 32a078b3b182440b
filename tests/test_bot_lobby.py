"""Lobby and lifecycle through the offline harness: /game new, join, leave, start, status, log, abort..."""

from __future__ import annotations

from bot.games import BOT
from engine import RULESETS
from tests.harness import ALICE, BOB, CAROL, CHANNEL, MANAGE_CHANNELS, Harness, png_size


async def test_lobby_join_leave_start(harness: Harness) -> None:
    h = harness
    r = await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion")
    assert not r.ephemeral
    assert "ESCAPE" in r.text and "Evasion" in r.text
    assert "esc:join:1:isc" in r.custom_ids and "esc:start:1" in r.custom_ids
    assert "esc:join:1:resistance" not in r.custom_ids  # Alice holds it

    # One game per channel.
    again = await h.slash("game new", user=BOB, ruleset="escape")
    assert again.ephemeral and "already has a game" in again.content

    # Starting with an empty seat needs players or bot:True.
    early = await h.slash("game start", user=ALICE)
    assert early.ephemeral and "Empty seats: isc" in early.content

    joined = await h.click("esc:join:1:isc", user=BOB)
    assert joined.type == 7  # the lobby message is updated in place
    assert f"<@{BOB}>" in joined.text and "esc:join:1:isc" not in joined.custom_ids

    taken = await h.slash("game join", user=CAROL)
    assert taken.ephemeral and "Every seat is taken" in taken.content

    # Lobby commands edit the one lobby message in place; the caller is answered privately.
    left = await h.slash("game leave", user=BOB)
    assert left.ephemeral and "esc:join:1:isc" in h.shown().custom_ids
    joined = await h.slash("game join", user=BOB, seat="isc")
    assert joined.ephemeral and "takes isc" in joined.content and f"<@{BOB}>" in h.shown().text
    assert len(h.public_messages()) == 1 and h.shown().message_id == r.message_id

    started = await h.slash("game start", user=BOB)
    assert not started.ephemeral
    assert h.messages[r.message_id]["components"] == []  # the superseded lobby loses its buttons
    assert "**The game begins.** ESCAPE: " in started.text and "scenario " not in started.text  # by name
    row = await h.row()
    awaited = h.bot.games.load(row).seats_to_act()
    for seat, member in (("resistance", ALICE), ("isc", BOB)):  # only who must act is pinged
        assert (f"<@{member}>" in started.content) == (seat in awaited)
    assert started.files and png_size(started.files[0][1])[0] != png_size(started.files[0][1])[1]
    assert row.status == "playing" and row.seats == {"resistance": str(ALICE), "isc": str(BOB)}

    status = await h.slash("game status", user=CAROL)
    assert status.ephemeral and "playing" in status.text

    late = await h.slash("game join", user=CAROL)
    assert late.ephemeral and "already started" in late.content


async def test_opponent_and_bot_seat_start(harness: Harness) -> None:
    h = harness
    r = await h.slash("game new", user=ALICE, ruleset="escape", opponent=BOB)
    assert f"<@{BOB}>" in r.content  # the invited member is pinged
    await h.slash("game leave", user=BOB)
    start = await h.slash("game start", user=ALICE, bot=True)
    assert not start.ephemeral
    row = await h.row()
    assert row.seats["isc"] == BOT
    # The game's own player has played whatever was its to play; a member is awaited now.
    game = h.bot.games.load(row)
    assert game.seats_to_act() and game.seats_to_act() <= {"resistance"}


async def test_abort_needs_creator_or_manage_channels(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="escape", opponent=BOB)
    refused = await h.slash("game abort", user=BOB)
    assert refused.ephemeral and "creator" in refused.content
    asked = await h.slash("game abort", user=CAROL, permissions=MANAGE_CHANNELS)
    assert asked.ephemeral and "cannot be taken back" in asked.content
    assert (await h.row()).status == "lobby"  # nothing happens before the confirm
    cancelled = await h.click(next(c for c in asked.custom_ids if c.startswith("esc:no:")), user=CAROL)
    assert "nothing was changed" in cancelled.text and (await h.row()).status == "lobby"
    asked = await h.slash("game abort", user=CAROL, permissions=MANAGE_CHANNELS)
    ok = await h.confirm(asked, user=CAROL, permissions=MANAGE_CHANNELS)
    assert not ok.ephemeral and "aborted" in ok.content
    assert (await h.row()).status == "aborted"
    # The channel is free again, and the creator may abort their own game.
    await h.slash("game new", user=ALICE, ruleset="escape")
    mine = await h.confirm(await h.slash("game abort", user=ALICE), user=ALICE)
    assert "aborted" in mine.content


async def test_thread_game(harness: Harness) -> None:
    h = harness
    r = await h.slash("game new", user=ALICE, ruleset="escape", opponent=BOB, thread=True)
    thread = next(x for x in h.replies if x.kind == "thread")
    assert thread.channel_id is not None
    assert f"<#{thread.channel_id}>" in r.content
    lobby = next(x for x in h.replies if x.kind == "channel" and x.channel_id == thread.channel_id)
    assert "esc:start:1" in lobby.custom_ids
    # The parent channel stays free; the game lives in the thread.
    other = await h.slash("game new", user=CAROL, ruleset="escape")
    assert not other.ephemeral
    start = await h.slash("game start", user=ALICE, channel=thread.channel_id)
    assert start.files
    assert (await h.row(thread.channel_id)).status == "playing"
    assert (await h.row(CHANNEL)).status == "lobby"


async def test_concede_log_status_rules(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="escape", opponent=BOB)
    await h.slash("game start", user=ALICE)
    choice = (await h.autocomplete("do", "command", user=ALICE, command="crate a1"))[0]["value"]
    await h.slash("do", user=ALICE, command=choice)
    log = await h.slash("game log", user=CAROL, last=5, events=True)
    assert log.ephemeral and choice in log.content and "places a crate" in log.content
    gone = await h.slash("game concede", user=CAROL)
    assert gone.ephemeral
    over = await h.confirm(await h.slash("game concede", user=BOB), user=BOB)
    assert "isc conceded" in over.content and f"<@{ALICE}>" in over.content
    row = await h.row()
    assert row.status == "finished" and row.result == {"winners": ["resistance"], "reason": "isc conceded."}
    status = await h.slash("game status", user=CAROL)
    assert "finished" in status.text and "Result" in status.text

    rules = await h.slash("rules", user=CAROL)
    assert rules.ephemeral and "Topics" in rules.text
    topic = await h.slash("rules", user=CAROL, ruleset="escape", topic="combat")
    assert "combat" in topic.text.lower()
    topics = await h.autocomplete("rules", "topic", user=CAROL, ruleset="escape", topic="re")
    assert {"name": "reactions", "value": "reactions"} in topics
    missing = await h.slash("rules", user=CAROL, topic="nope")
    assert missing.ephemeral and "no help topic" in missing.content


async def test_new_autocomplete_and_bad_scenario(harness: Harness) -> None:
    h = harness
    # The test-only rulesets of other modules are registered only while their tests run.
    assert not {"testsim", "testduo", "duel", "guess"} & set(RULESETS)
    scen = await h.autocomplete("game new", "scenario", user=ALICE, ruleset="escape", scenario="ev")
    assert [c["value"] for c in scen] == ["evasion"]
    bad = await h.slash("game new", user=ALICE, ruleset="escape", scenario="moon")
    assert bad.ephemeral and "no scenario 'moon'" in bad.content
    assert await h.row() is None
    nothing = await h.slash("do", user=ALICE, command="end")
    assert nothing.ephemeral and "no game" in nothing.content.lower()


async def test_rules_list_scenarios_by_name_in_whole_lines(harness: Harness) -> None:
    h = harness
    rules = await h.slash("rules", user=BOB, ruleset="heist")
    listing = next(f["value"] for f in rules.embeds[0]["fields"] if f["name"] == "Scenarios")
    lines = listing.split("\n")
    assert len(listing) <= 1024 and lines[0].startswith(
        "**The Dark Horse Job (Amateur)** (`the_dark_horse_job`) — "
    )
    shown = len(lines) - 1
    assert lines[-1] == f"… and {17 - shown} more: /game new lists them all."  # no line cut in the middle
    assert all(line.count("**") == 2 for line in lines[:-1])
