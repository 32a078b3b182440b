"""Playing through the offline harness: /do and its autocomplete, verbs, refusals, concurrency, buttons,
restarts, scheduled notifications, board images."""

from __future__ import annotations

import asyncio
import copy
import logging
from pathlib import Path

import pytest

from engine import load_game
from tests.harness import (
    ALICE,
    BOB,
    CAROL,
    Harness,
    board_replies,
    board_version,
    expected_size,
    open_escape,
    play_turns,
    png_size,
)


def reaction_awaited(game: object) -> bool:
    """True when a reaction decision is open."""
    return any(d.kind == "reaction" for d in game.awaiting())  # type: ignore[attr-defined]


def move_awaited(game: object) -> bool:
    """True when an awaited seat may play a ``move`` command."""
    return any(
        c.verb == "move"
        for seat in game.seats_to_act()  # type: ignore[attr-defined]
        for c in game.legal_commands(seat)  # type: ignore[attr-defined]
    )


async def test_autocomplete_lists_legal_commands(harness: Harness) -> None:
    h = harness
    await open_escape(h)
    row = await h.row()
    game = h.bot.games.load(row)
    legal = game.legal_commands("resistance")
    choices = await h.autocomplete("do", "command", user=ALICE, command="")
    assert len(legal) > 25 and 2 < len(choices) <= 25
    # More than 25 match: grouped entries (one per room, with a count), then how many and how to narrow.
    assert "Quarters" in choices[0]["name"] and "keep typing" in choices[0]["name"]
    assert f"{len(legal)} commands match" in choices[-1]["name"]
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    typed = await h.autocomplete("do", "command", user=ALICE, command="b12")
    assert [c["value"] for c in typed] == [c.text for c in legal if "b12" in c.text]
    room = await h.autocomplete("do", "command", user=ALICE, command="quarters")
    assert room and all(c["value"].startswith("crate") for c in room[:-1])
    # The player who is not awaited and a spectator get one entry saying why and whom the game waits for.
    (waiting,) = await h.autocomplete("do", "command", user=BOB, command="")
    assert waiting["name"].startswith("Not your move: the game waits for resistance")
    (watching,) = await h.autocomplete("do", "command", user=CAROL, command="")
    assert watching["name"].startswith("You are watching")


async def test_verbs_build_command_text(harness: Harness) -> None:
    h = harness
    last = await open_escape(h)
    last, _n, _c = await play_turns(h, last, limit=200, until=move_awaited)
    row = await h.row()
    game = load_game(row.snapshot)
    seat = sorted(game.seats_to_act())[0]
    user = ALICE if seat == "resistance" else BOB
    moves = [c for c in game.legal_commands(seat) if c.verb == "move"]
    assert moves, "an activation offers moves"
    units = await h.autocomplete("move", "unit", user=user, unit="")
    assert {c["value"] for c in units} == {c.args[0] for c in moves}
    unit = moves[0].args[0]
    targets = await h.autocomplete("move", "to", user=user, unit=unit, to="")
    assert {c["value"] for c in targets} <= {c.args[1] for c in moves if c.args[0] == unit}
    assert targets
    turn = h.shown().message_id
    r = await h.slash("move", user=user, unit=unit, to=targets[0]["value"])
    # A move inside the activation edits the turn message; the mover is answered privately.
    assert r.ephemeral and f"move {unit} {targets[0]['value']}" in r.text
    assert h.shown().message_id == turn
    told = [line for line in h.shown().text.split("\n") if line.startswith("• ")]
    assert f"to {targets[0]['value']}" in told[-1]  # the move's narration, last (under the run's header)
    assert (await h.row()).version >= row.version + 1
    end = await h.slash("end", user=user)
    assert not end.ephemeral
    # An ended activation posts the board in a new message; the old one loses its components.
    assert end.files and end.files[0][0] == "board.png"
    assert h.messages[turn]["components"] == []


async def test_spectator_and_garbage_are_refused_and_change_nothing(harness: Harness) -> None:
    h = harness
    await open_escape(h)
    before = await h.row()
    game = h.bot.games.load(before)
    (seat,) = game.seats_to_act()
    player, waiting = (ALICE, BOB) if seat == "resistance" else (BOB, ALICE)
    legal = game.legal_commands(seat)[0].text
    spectator = await h.slash("do", user=CAROL, command=legal)
    assert spectator.ephemeral and "not playing" in spectator.content
    wrong = await h.slash("do", user=waiting, command=legal)
    assert wrong.ephemeral and "Not your turn" in wrong.content
    for garbage in ("xyzzy", "move", "crate z99", "💥💥", "end end end"):
        r = await h.slash("do", user=player, command=garbage)
        assert r.ephemeral, garbage
        assert r.content and "Something went wrong" not in r.content, garbage
    after = await h.row()
    assert after.version == before.version and after.snapshot == before.snapshot
    assert await h.bot.store.command_log(after.id) == await h.bot.store.command_log(before.id)


async def test_concurrent_do_applies_once(harness: Harness) -> None:
    h = harness
    await open_escape(h)
    before = await h.row()
    choice = (await h.autocomplete("do", "command", user=ALICE, command="a1"))[0]["value"]
    p1 = h.slash_payload("do", user=ALICE, command=choice)
    p2 = h.slash_payload("do", user=ALICE, command=choice)
    r1, r2 = await asyncio.gather(h.feed(p1), h.feed(p2))
    after = await h.row()
    assert after.version == before.version + 1
    finals = [h._final(r1, p1), h._final(r2, p2)]
    assert sorted(r.ephemeral for r in finals) == [False, True]
    log = await h.bot.store.command_log(after.id)
    assert [line.text for line in log if line.user_id == str(ALICE)] == [choice]


async def test_same_interaction_twice_applies_once(harness: Harness) -> None:
    h = harness
    await open_escape(h)
    before = await h.row()
    choice = (await h.autocomplete("do", "command", user=ALICE, command="a1"))[0]["value"]
    payload = h.slash_payload("do", user=ALICE, command=choice)
    first = h._final(await h.feed(payload), payload)
    again = h._final(await h.feed(payload), payload)
    assert not first.ephemeral
    assert again.ephemeral and "already played" in again.content
    assert (await h.row()).version == before.version + 1


async def test_stale_button_is_refused(harness: Harness) -> None:
    h = harness
    last = await open_escape(h)
    last, _n, _c = await play_turns(h, last, limit=600, until=reaction_awaited)
    row = await h.row()
    game = load_game(row.snapshot)
    decision = next(d for d in game.awaiting() if d.kind == "reaction")
    seat = sorted(decision.seats)[0]
    user = ALICE if seat == "resistance" else BOB
    shown = h.shown()
    buttons = [c for c in shown.custom_ids if c.startswith(f"esc:r:{row.id}:{row.version}:")]
    assert {b.rsplit(":", 1)[1] for b in buttons} == {o.text for o in decision.options}
    assert f"<@{user}>" in shown.content  # the defender is pinged
    offered = await h.autocomplete("do", "command", user=user, command="")
    assert [c["value"] for c in offered] == [o.text for o in decision.options]  # /do offers the answers too
    # The other player cannot answer it.
    other = ALICE if user == BOB else BOB
    refused = await h.click(buttons[0], user=other)
    assert refused.ephemeral
    assert (await h.row()).version == row.version
    # Answer by typing instead; the buttons are then stale (and taken off the message).
    old = copy.deepcopy(h.find_message(buttons[0]))
    typed = await h.slash("do", user=user, command=decision.default.text if decision.default else buttons[0])
    assert not typed.ephemeral
    moved = await h.row()
    assert moved.version > row.version
    assert (
        buttons[0] not in h.messages[int(old["id"])].get("components", [])
        and h.messages[int(old["id"])]["components"] == []
    )
    stale = await h.click(buttons[0], user=user, stale=old)
    assert stale.ephemeral and "out of date" in stale.content
    assert (await h.row()).version == moved.version


async def test_restart_mid_game_resumes(tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    h = Harness(db)
    await h.start()
    h2 = Harness(db)  # a new bot object on the same file
    try:
        last = await open_escape(h)
        last, _n1, _c = await play_turns(h, last, limit=60)
        mid = await h.row()
        # The first bot is never shut down (as if its process were killed): every accepted command is
        # already committed, and the new bot carries on from there.
        await h2.start()
        assert (await h2.row()).version == mid.version
        assert h2.bot.games.cached_games() == 0  # nothing loaded until someone plays
        status = await h2.slash("game status", user=CAROL)
        assert "playing" in status.text
        last, n2, _c = await play_turns(h2, last, limit=40)
        assert n2 > 0
        after = await h2.row()
        assert after.version > mid.version
        log = await h2.bot.store.command_log(after.id)
        assert [x.seq for x in log] == list(range(1, after.version + 1))
        replayed = load_game(after.snapshot).replay()
        assert replayed.to_json() == load_game(after.snapshot).to_json()
    finally:
        await h2.close()
        await h.close()


async def test_reaction_timeout_and_reminders(tmp_path: Path) -> None:
    now = [1_000_000.0]
    db = tmp_path / "timers.db"
    async with Harness(db, clock=lambda: now[0], reaction_timeout_hours=2) as h:
        last = await open_escape(h)
        set_on = await h.slash("game settings", user=ALICE, reminders=True, hours=1.0)
        assert set_on.ephemeral and "Reminders are now on" in set_on.content
        row = await h.row()
        awaited = h.bot.games.awaited_members(row, h.bot.games.load(row).awaiting())
        now[0] += 1.5 * 3600
        turn_message = h.shown().message_id
        posted = await h.run_due()
        assert len(posted) == 1 and posted[0].content.startswith(f"⏰ Reminder — ESCAPE game #{row.id}")
        # It says what is awaited and links to the turn message where it is asked.
        game = h.bot.games.load(row)
        assert f"<@{awaited[0]}>" in posted[0].content and game.awaiting()[0].prompt in posted[0].content
        assert f"/{turn_message}" in posted[0].content
        assert await h.run_due() == []  # sent once
        # Acting replaces the reminder: the old one never fires, the next player's is due an hour later.
        seat = sorted(h.bot.games.load(row).seats_to_act())[0]
        text = h.bot.games.load(row).legal_commands(seat)[0].text
        await h.slash("do", user=ALICE if seat == "resistance" else BOB, command=text)
        now[0] += 0.5 * 3600
        assert await h.run_due() == []
        now[0] += 0.6 * 3600
        nxt = await h.row()
        due = await h.run_due()
        members = h.bot.games.awaited_members(nxt, h.bot.games.load(nxt).awaiting())
        assert len(due) == 1 and all(f"<@{m}>" in due[0].content for m in members)

        last, _n, _c = await play_turns(h, last, limit=600, until=reaction_awaited)
        row = await h.row()
        kinds = {n.kind for n in await h.bot.store.pending_notifications(row.id)}
        assert {"timeout", "reminder", "expire"} <= kinds

    # The bot is down while the reaction times out; the answer goes out when it starts again.
    now[0] += 3 * 3600
    h2 = Harness(db, clock=lambda: now[0], reaction_timeout_hours=2)
    await h2.start()
    try:
        posted = [r for r in h2.replies if r.kind == "channel"]
        assert any("timeout answer" in r.text for r in posted), [r.text for r in posted]
        after = await h2.row()
        assert after.version > row.version
        log = await h2.bot.store.command_log(after.id, 10)
        assert any(line.user_id is None for line in log)
    finally:
        await h2.close()


async def test_lobby_expires(tmp_path: Path) -> None:
    now = [5_000.0]
    h = Harness(tmp_path / "exp.db", clock=lambda: now[0], lobby_expiry_hours=1)
    await h.start()
    try:
        await h.slash("game new", user=ALICE, ruleset="escape")
        now[0] += 7200
        posted = await h.run_due()
        assert any("expired" in r.content for r in posted)
        assert (await h.row()).status == "expired"
        fresh = await h.slash("game new", user=BOB, ruleset="escape")
        assert not fresh.ephemeral
    finally:
        await h.close()


async def test_reaction_policy_setting_is_an_engine_command(harness: Harness) -> None:
    h = harness
    await open_escape(h)
    offered = await h.autocomplete("game settings", "reaction", user=BOB, reaction="dodge")
    assert "react dodge always" in [c["value"] for c in offered]
    before = await h.row()
    r = await h.slash("game settings", user=BOB, reaction="react dodge always")
    assert "react dodge always" in r.text and "react dodge always" in h.shown().text
    after = await h.row()
    assert after.version == before.version + 1
    bad = await h.slash("game settings", user=BOB, reaction="react dodge sometimes")
    assert bad.ephemeral and "Standing answers" in bad.content
    assert (await h.row()).version == after.version


async def test_board_images_are_valid_pngs(harness: Harness) -> None:
    h = harness
    last = await open_escape(h)
    await play_turns(h, last, limit=120)
    row = await h.row()
    replies = board_replies(h)
    assert len(replies) >= 2
    for reply in replies:
        (name, blob) = reply.files[0]
        assert name == "board.png"
        size = png_size(blob)
        assert size == expected_size(row, board_version(reply))
        assert size[0] != size[1]  # never exactly square (some phone clients crop those)
    again = await h.slash("game board", user=CAROL)
    assert again.files and png_size(again.files[0][1]) == expected_size(row)


async def test_unexpected_error_is_reported_privately(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    await open_escape(h)
    before = await h.row()

    def boom(*_a: object, **_k: object) -> None:
        raise RuntimeError("kaboom")

    import engine.game

    monkeypatch.setattr(engine.game.Game, "apply", boom)
    with caplog.at_level(logging.ERROR, logger="escapade.errors"):
        r = await h.slash("do", user=ALICE, command="crate a1")
    assert r.ephemeral and r.content == "Something went wrong; nothing was changed."
    assert (await h.row()).version == before.version
    record = next(rec for rec in caplog.records if rec.name == "escapade.errors")
    assert f"game {before.id}" in record.getMessage() and record.exc_info is not None
    assert "kaboom" in caplog.text
