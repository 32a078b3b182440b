"""A whole two-seat game (ESCAPE, Skirm) on the offline Discord, from /game new to its result, between
two members;
reactions are answered by clicking their buttons and every board image is checked."""

from __future__ import annotations

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
    play_turns,
    png_size,
)


@pytest.mark.parametrize(
    ("ruleset", "scenario", "second_seat"),
    [("escape", "infiltration", "isc"), ("skirm", "seize", "player2")],
)
async def test_whole_two_seat_game(harness: Harness, ruleset: str, scenario: str, second_seat: str) -> None:
    h = harness
    lobby = await h.slash("game new", user=ALICE, ruleset=ruleset, scenario=scenario)
    assert f"esc:join:1:{second_seat}" in lobby.custom_ids
    joined = await h.click(f"esc:join:1:{second_seat}", user=BOB)
    assert f"<@{BOB}>" in joined.text
    start = await h.click("esc:start:1", user=ALICE)
    assert start.files, "the first board is posted at the start"

    last, played, clicks = await play_turns(h, start, limit=5000)
    row = await h.row()
    assert row.status == "finished", f"still {row.status} after {played} commands"
    assert clicks > 0, "reactions were answered with buttons"
    game = load_game(row.snapshot)
    assert game.outcome is not None and row.result == game.outcome.to_data()
    # The final message gives the result and the last board, and pings every player.
    assert "Result" in last.text and game.outcome.reason in last.text
    assert last.files and f"<@{ALICE}>" in last.content and f"<@{BOB}>" in last.content
    # The log has every command, in order, and replays to the same game.
    log = await h.bot.store.command_log(row.id)
    assert [x.seq for x in log] == list(range(1, row.version + 1))
    assert [x.text for x in log] == [e.text for e in game.log]
    assert game.replay().to_json() == game.to_json()
    # Every board image is a valid PNG of the size the renderer gives that position.
    boards = board_replies(h)
    assert len(boards) > 10
    for reply in boards:
        blob = reply.files[0][1]
        assert png_size(blob) == expected_size(row, board_version(reply))
    # Nothing more can be played; spectators and players are told so.
    over = await h.slash("do", user=ALICE, command="end")
    assert over.ephemeral
    status = await h.slash("game status", user=CAROL)
    assert "finished" in status.text
