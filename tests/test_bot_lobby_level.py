"""The lobby's "Empty seats" menu: a phone player picks the game's own player and its level by tapping."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bot.thinking import Thinker
from tests.harness import ALICE, BOB, CAROL, Harness


async def test_picking_hard_for_empty_seats_starts_against_a_hard_bot(harness: Harness) -> None:
    h = harness
    h.bot.games.thinker = Thinker(seconds=0.2, executor=ThreadPoolExecutor(1))
    created = await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion")
    gid = (await h.row()).id
    assert f"esc:bots:{gid}" in created.custom_ids  # an empty seat: the menu is there
    picked = await h.select(f"esc:bots:{gid}", ["hard"], user=ALICE)
    assert picked.type == 7 and not picked.ephemeral  # the lobby message is edited in place
    assert "the game, hard, at Start" in picked.text
    menu = next(
        c for row in picked.components for c in row["components"] if c.get("custom_id") == f"esc:bots:{gid}"
    )
    assert [o["value"] for o in menu["options"] if o.get("default")] == ["hard"]
    started = await h.click(f"esc:start:{gid}", user=ALICE)
    assert not started.ephemeral and started.files
    row = await h.row()
    game = h.bot.games.load(row)
    bot_seats = [s for s in game.seats if row.seats.get(s) is None or row.seats[s] == "bot"]
    assert bot_seats, row.seats
    assert all(game.bot_level(s) == "hard" for s in bot_seats)
    assert all(game.bot_level(s) == "easy" for s in game.seats if s not in bot_seats)
    h.bot.games.thinker.close()


async def test_start_waits_for_players_by_default_and_says_how_to_fill_seats(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="skirm")
    gid = (await h.row()).id
    refused = await h.click(f"esc:start:{gid}", user=ALICE)
    assert refused.ephemeral and "Empty seats menu" in refused.content
    assert (await h.row()).status == "lobby"


async def test_only_lobby_members_pick_and_an_unknown_level_is_refused(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="skirm")
    gid = (await h.row()).id
    before = await h.row()
    stranger = await h.select(f"esc:bots:{gid}", ["hard"], user=CAROL)
    assert stranger.ephemeral and "seated players or its creator" in stranger.content
    forged = await h.select(f"esc:bots:{gid}", ["grandmaster"], user=ALICE)
    assert forged.ephemeral and "easy, normal, hard" in forged.content
    after = await h.row()
    assert after.version == before.version and "empty_seats" not in after.settings


async def test_the_menu_goes_when_every_seat_is_a_member_s(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="skirm")
    gid = (await h.row()).id
    joined = await h.click(f"esc:join:{gid}:player2", user=BOB)
    assert f"esc:bots:{gid}" not in joined.custom_ids
    assert f"esc:start:{gid}" in joined.custom_ids
    assert len(joined.components) <= 5 and all(len(r["components"]) <= 5 for r in joined.components)


async def test_back_to_waiting_restores_the_rule_that_seats_must_be_filled(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="skirm")
    gid = (await h.row()).id
    await h.select(f"esc:bots:{gid}", ["normal"], user=ALICE)
    back = await h.select(f"esc:bots:{gid}", ["wait"], user=ALICE)
    assert "the game, normal" not in back.text
    refused = await h.click(f"esc:start:{gid}", user=ALICE)
    assert refused.ephemeral and (await h.row()).status == "lobby"
