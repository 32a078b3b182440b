"""Every registered ruleset besides ESCAPE (which has its own whole-game test) played from /game new to its
result through the offline harness: one member per seat (the minimum number of seats), every command the
engine's own policy would choose, typed with /do; the campaign record, if the ruleset keeps one, is stored
and reaches the next game. Nothing here names a ruleset: registering one is enough to be tested."""

from __future__ import annotations

import pytest

from engine import RULESETS, load_game
from tests.harness import ALICE, BOB, CAROL, GUILD, Harness, png_size

DAVE = 100_000_000_000_000_004
MEMBERS = (ALICE, BOB, CAROL, DAVE)
LIMIT = 3000  # commands; a game that has not ended by then fails the test
OTHERS = sorted(rid for rid in RULESETS if rid != "escape")


@pytest.mark.parametrize("ruleset_id", OTHERS)
async def test_whole_game_through_the_bot(harness: Harness, ruleset_id: str) -> None:
    h = harness
    rs = RULESETS[ruleset_id]
    seats = rs.seats[: rs.min_seats or len(rs.seats)]
    lobby = await h.slash("game new", user=ALICE, ruleset=rs.id)
    assert not lobby.ephemeral
    members = dict(zip(seats, MEMBERS, strict=False))
    for seat in seats[1:]:
        await h.slash("game join", user=members[seat], seat=seat)
    for spec in rs.option_specs((await h.row()).scenario)[:1]:  # the first seat's second choice
        if len(spec.choices) > 1:
            value = spec.choices[1][0]
            said = await h.slash("game choose", user=ALICE, option=spec.key, value=value, seat=seats[0])
            assert "chooses" in said.content, said.content  # the lobby message is edited in place
    start = await h.slash("game start", user=ALICE)
    assert not start.ephemeral and start.files, start.text

    played = 0
    while played < LIMIT:
        row = await h.row()
        if row.status != "playing":
            break
        game = load_game(row.snapshot)
        seat = sorted(game.seats_to_act())[0]
        text = game.bot_command(seat).text
        reply = await h.slash("do", user=members[seat], command=text, seat=seat)
        if any(c.startswith("esc:ok:") for c in reply.custom_ids):  # irreversible: confirmed first
            assert (await h.row()).version == row.version and "cannot be taken back" in reply.content
            reply = await h.confirm(reply, user=members[seat])
        assert (await h.row()).version > row.version, f"{text!r} for {seat} was refused: {reply.content}"
        played += 1
    row = await h.row()
    assert row.status == "finished", f"{rs.id} still {row.status} after {played} commands"
    game = load_game(row.snapshot)
    assert game.outcome is not None and row.result == game.outcome.to_data()
    assert game.replay().to_json() == game.to_json()
    log = await h.bot.store.command_log(row.id)
    assert [x.text for x in log] == [e.text for e in game.log]
    for reply in h.replies:
        for _name, blob in reply.files:
            width, height = png_size(blob)
            assert width != height  # never exactly square (some phone clients crop those)

    if rs.campaign_scope in ("player", "server"):
        records = await h.bot.store.campaign_records(str(GUILD), rs.id)
        assert records, "the campaign record was not stored"
        shown = await h.slash("campaign show", user=ALICE, ruleset=rs.id)
        assert not shown.ephemeral
        await h.slash("game new", user=ALICE, ruleset=rs.id)
        for seat in seats[1:]:
            await h.slash("game join", user=members[seat], seat=seat)
        await h.slash("game start", user=ALICE)
        options = load_game((await h.row()).snapshot).setup_options.options
        assert options.get("campaign"), "the stored record did not reach the next game"
