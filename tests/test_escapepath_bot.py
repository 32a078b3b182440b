"""A whole Escape Path game on the offline Discord: Alice plays the team, the game's own player the swarm
(``/game join seat:swarm bot:True``); panic shots are answered with the reaction buttons."""

from __future__ import annotations

from pathlib import Path

from engine import load_game
from tests.harness import ALICE, CAROL, Harness, board_replies, png_size


async def test_whole_game_against_the_bot_swarm(tmp_path: Path) -> None:
    async with Harness(tmp_path / "ep.db", seed=11) as h:  # a seed whose game raises a panic shot
        await whole_game(h)


async def whole_game(h: Harness) -> None:
    await h.slash("game new", user=ALICE, ruleset="escapepath", scenario="graveyard-shift")
    given = await h.slash("game join", user=ALICE, seat="swarm", bot=True)
    assert "swarm" in given.content  # acknowledged; the lobby message is edited in place
    start = await h.slash("game start", user=ALICE)
    assert not start.ephemeral and start.files, start.text
    row = await h.row()
    assert row.seats["team"] == str(ALICE) and row.seats["swarm"] != str(ALICE)

    last, played, clicks = start, 0, 0
    while played < 1500:
        row = await h.row()
        if row.status != "playing":
            break
        game = load_game(row.snapshot)
        decision = game.awaiting()[0]
        assert decision.seats == {"team"}, "the swarm never waits for a member"
        text = game.bot_command("team").text
        if decision.kind == "reaction":
            custom_id = f"esc:r:{row.id}:{row.version}:{text}"
            h.find_message(custom_id)  # the question's button is on a live message
            last = await h.click(custom_id, user=ALICE)
            clicks += 1
        else:
            last = await h.slash("do", user=ALICE, command=text)
        assert (await h.row()).version > row.version, last.text  # accepted
        played += 1
    row = await h.row()
    assert row.status == "finished", f"still {row.status} after {played} commands"
    assert clicks > 0, "panic shots were answered with the buttons"
    game = load_game(row.snapshot)
    assert game.outcome is not None and row.result == game.outcome.to_data()
    log = await h.bot.store.command_log(row.id)
    swarm = [x for x in log if x.seat == "swarm"]
    assert swarm and all(x.user_id is None for x in swarm), "the game's own player moved the swarm"
    assert [x.text for x in log] == [e.text for e in game.log]
    assert game.replay().to_json() == game.to_json()
    boards = board_replies(h)
    assert len(boards) > 5
    for reply in boards:
        width, height = png_size(reply.files[0][1])
        assert width != height  # never exactly square (Android crops those)
    over = await h.slash("do", user=CAROL, command="end")
    assert over.ephemeral
