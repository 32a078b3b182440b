"""Games of more than two seats through the offline harness, with the test-only Crew ruleset
(tests/fake_rulesets.py): lobby seats and choices, min_seats, one member holding several seats,
simultaneous rounds answered in any order, seat disambiguation, a bot seat, concession, restart."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from bot.games import BOT
from bot.present import EVERY_SEAT
from engine import RULESETS, load_game
from tests.fake_rulesets import fake_rulesets  # noqa: F401  (fixture)
from tests.harness import ALICE, BOB, CAROL, Harness, png_size

pytestmark = pytest.mark.usefixtures("fake_rulesets")


def field(reply: object, name: str) -> str:
    """The value of the first embed field called ``name``."""
    for e in reply.embeds:  # type: ignore[attr-defined]
        for f in e.get("fields", []):
            if f["name"] == name:
                return str(f["value"])
    raise AssertionError(f"no field {name!r} in {reply.text!r}")  # type: ignore[attr-defined]


async def test_lobby_seats_choices_and_min_seats(harness: Harness) -> None:
    h = harness
    r = await h.slash("game new", user=ALICE, ruleset="testsim", opponent=BOB)
    assert "3–4 players" in r.text
    assert {"esc:join:1:p3", "esc:join:1:p4", "esc:start:1"} <= set(r.custom_ids)
    # A seat's field lists what it chose; the per-seat defaults are told once.
    assert "Role: Lookout" in field(r, EVERY_SEAT) and "Role" not in field(r, "p1")
    assert "Length: One round" in field(r, "Choices")

    early = await h.slash("game start", user=ALICE)
    assert early.ephemeral and "needs at least 3 seats taken (2 so far)" in early.content
    assert (await h.row()).status == "lobby"

    second = await h.slash("game join", user=ALICE, seat="p3")  # one member, two seats
    assert "takes p3" in second.content and f"<@{ALICE}>" in field(h.shown(), "p3")

    options = await h.autocomplete("game choose", "option", user=ALICE, option="")
    assert {c["value"] for c in options} == {"role", "length"}
    values = await h.autocomplete("game choose", "value", user=ALICE, option="role", value="thi")
    assert values == [{"name": "Thief (may grab 3)", "value": "thief"}]

    which = await h.slash("game choose", user=ALICE, option="role", value="thief")
    assert which.ephemeral and "seat:" in which.content  # Alice holds p1 and p3: which one?
    mine = await h.slash("game choose", user=ALICE, option="role", value="thief", seat="p3")
    assert mine.ephemeral and "p3: Role → Thief" in mine.content  # the lobby message is edited
    assert "Role: Thief (may grab 3)" in field(h.shown(), "p3") and "Role" not in field(h.shown(), "p1")
    by_label = await h.slash("game choose", user=BOB, option="Role", value="thief (may grab 3)")
    assert "p2: Role → Thief" in by_label.content  # Bob's only seat, named by label in any case
    for user, kwargs, said in (
        (BOB, {"option": "role", "value": "thief", "seat": "p1"}, "do not hold the seat 'p1'"),
        (BOB, {"option": "role", "value": "boss"}, "not a choice for Role"),
        (BOB, {"option": "mood", "value": "x"}, "no lobby choice 'mood'"),
        (CAROL, {"option": "length", "value": "long"}, "seated players or its creator"),
    ):
        refused = await h.slash("game choose", user=user, **kwargs)
        assert refused.ephemeral and said in refused.content, refused.content
    await h.slash("game leave", user=ALICE, seat="p3")
    assert field(h.shown(), "p3") == "*empty*"  # the seat's choice cleared: back to the default
    assert f"<@{ALICE}>" in field(h.shown(), "p1") and "Role: Thief" in field(h.shown(), "p2")
    await h.slash("game join", user=ALICE, seat="p3")
    await h.slash("game choose", user=ALICE, option="role", value="thief", seat="p3")
    await h.slash("game choose", user=BOB, option="length", value="long")
    assert "Length: Two rounds" in field(h.shown(), "Choices")

    start = await h.slash("game start", user=BOB)
    assert not start.ephemeral and start.files
    row = await h.row()
    game = load_game(row.snapshot)
    assert set(game.seats) == {"p1", "p2", "p3"} and row.seats["p4"] is None  # p4 stays out
    assert game.setup_options.options == {
        "role": {"p1": "lookout", "p2": "thief", "p3": "thief"},
        "length": "long",
    }
    assert game.state.rounds == 2  # type: ignore[attr-defined]
    # The round message pings each other player once (Bob started it) and lists every awaited seat's
    # options.
    assert start.content.count(f"<@{ALICE}>") == 1 and f"<@{BOB}>" not in start.content
    assert f"<@{CAROL}>" not in start.content
    assert "Grab 3 bags" in field(start, "p2") and "Grab 3 bags" not in field(start, "p1")
    # The prompt all seats share is shown once, above their options.
    assert start.embeds[1]["description"].startswith("Round 1: how many bags")
    assert "Round 1" not in field(start, "p3")
    status = await h.slash("game status", user=CAROL)
    assert "Role — p1: Lookout; p2, p3: Thief (may grab 3)" in field(status, "Choices")
    assert "Length: Two rounds" in field(status, "Choices") and "p4" not in field(status, "Seats")


async def open_crew(h: Harness, *, alice_seats: tuple[str, ...] = ("p1", "p2")) -> None:
    """Alice holds ``alice_seats`` (p2 a thief), Bob p3; one round."""
    await h.slash("game new", user=ALICE, ruleset="testsim")
    for seat in alice_seats[1:]:
        await h.slash("game join", user=ALICE, seat=seat)
    await h.slash("game join", user=BOB, seat="p3")
    await h.slash("game choose", user=ALICE, option="role", value="thief", seat="p2")
    await h.slash("game start", user=ALICE)


async def test_simultaneous_round_any_order_and_seat_disambiguation(harness: Harness) -> None:
    h = harness
    await open_crew(h)
    before = await h.row()

    listed = await h.autocomplete("do", "command", user=ALICE, command="")
    assert {"name": "[p1] Grab 2 bags", "value": "[p1] grab 2"} in listed
    assert {"name": "[p2] Grab 3 bags", "value": "[p2] grab 3"} in listed
    assert [c["value"] for c in await h.autocomplete("do", "command", user=BOB, command="")] == [
        "grab 1",
        "grab 2",
    ]

    ambiguous = await h.slash("do", user=ALICE, command="grab 2")
    assert ambiguous.ephemeral and "several seats" in ambiguous.content and "p1, p2" in ambiguous.content
    assert (await h.row()).version == before.version

    # Only the thief may grab 3, so the text names the seat.
    turn = h.shown().message_id
    thief = await h.slash("do", user=ALICE, command="grab 3")
    assert thief.ephemeral and "grab 3" in thief.text  # answered privately; the round message is edited
    shown = h.shown()
    assert shown.message_id == turn and "p2 grabs 3" in shown.text and "`grab 3`" in shown.text
    assert not thief.files
    # Bob answers next, then Alice's other seat through the autocomplete's "[seat] command" value.
    bob = await h.slash("do", user=BOB, command="grab 1")
    assert "p3 grabs 1" in h.shown().text and not bob.files
    again = await h.slash("do", user=BOB, command="grab 1")
    assert again.ephemeral and "already grabbed" in again.content
    last = await h.slash("do", user=ALICE, command="[p1] grab 2")
    assert "p1 grabs 2" in last.text and "Round 1 ends with 6 bags" in last.text
    assert last.files and png_size(last.files[0][1])[0] > 0  # the round ended: the board
    row = await h.row()
    assert row.status == "finished" and row.result == {
        "winners": ["p1", "p2", "p3"],
        "reason": "The crew got away with 6 bags.",
    }
    log = await h.bot.store.command_log(row.id)
    assert [(x.seat, x.text, x.user_id) for x in log] == [
        ("p2", "grab 3", str(ALICE)),
        ("p3", "grab 1", str(BOB)),
        ("p1", "grab 2", str(ALICE)),
    ]


async def test_verb_seat_option_and_wrong_seat(harness: Harness) -> None:
    h = harness
    await open_crew(h)
    wrong = await h.slash("do", user=BOB, command="grab 1", seat="p1")
    assert wrong.ephemeral and "do not hold the seat 'p1'" in wrong.content
    await h.slash("do", user=ALICE, command="grab 1", seat="P1")
    assert "p1 grabs 1" in h.shown().text
    spectator = await h.slash("do", user=CAROL, command="grab 1")
    assert spectator.ephemeral and "not playing" in spectator.content


async def test_bot_seat_concede_and_restart_mid_round(tmp_path: Path) -> None:
    db = tmp_path / "crew.db"
    h = Harness(db)
    await h.start()
    h2 = Harness(db)
    h2.messages, h2._ids = h.messages, h._ids  # one Discord: the new bot sees what the old one posted
    try:
        await h.slash("game new", user=ALICE, ruleset="testsim", opponent=BOB)
        given = await h.slash("game join", user=BOB, seat="p4", bot=True)
        assert "The game plays p4" in given.content and "🤖 the game" in field(h.shown(), "p4")
        refused = await h.slash("game join", user=CAROL, seat="p3", bot=True)
        assert refused.ephemeral  # a spectator cannot hand seats out
        await h.slash("game join", user=CAROL, seat="p3")
        start = await h.slash("game start", user=CAROL)
        assert "🤖 p4" in start.text  # the game's player answered its seat at once
        row = await h.row()
        assert row.seats == {"p1": str(ALICE), "p2": str(BOB), "p3": str(CAROL), "p4": BOT}
        await h.slash("do", user=ALICE, command="grab 2")
        mid = await h.row()
        turn = h.shown().message_id

        # A new bot process on the same file (the first one was never shut down) carries on.
        await h2.start()
        assert h2.bot.games.cached_games() == 0
        r = await h2.slash("do", user=BOB, command="grab 2")
        assert "p2 grabs 2" in h2.shown().text and (await h2.row()).version == mid.version + 1
        # The round stays open: the new process edits the turn message the old one posted (the store
        # remembers it) and answers privately.
        assert r.ephemeral and r.text.endswith(f"/{turn}") and h2.shown().message_id == turn
        # Carol concedes (after a private confirm): in a game of more than two seats the game's player
        # takes her seat over.
        conceded = await h2.confirm(await h2.slash("game concede", user=CAROL), user=CAROL)
        assert not conceded.ephemeral and "concedes" in conceded.content
        assert "🤖 p3" in conceded.text and "Round 1 ends" in conceded.text and conceded.files
        row = await h2.row()
        assert row.seats["p3"] == BOT and row.status == "finished"
        log = await h2.bot.store.command_log(row.id)
        assert [x.seq for x in log] == list(range(1, row.version + 1))
        assert [x.user_id for x in log] == [None, str(ALICE), str(BOB), None]
    finally:
        await h2.close()
        await h.close()


async def test_last_member_conceding_ends_without_winner(harness: Harness) -> None:
    h = harness
    await open_crew(h, alice_seats=("p1", "p2"))
    bob = await h.confirm(await h.slash("game concede", user=BOB), user=BOB)
    assert "game plays their seats" in bob.content and (await h.row()).seats["p3"] == BOT
    alice = await h.confirm(await h.slash("game concede", user=ALICE), user=ALICE)
    assert "is over" in alice.content and "nobody is left" in alice.content
    row = await h.row()
    assert row.status == "finished" and row.result is not None and row.result["winners"] == []


def test_fake_rulesets_do_not_leak() -> None:
    # This test runs with the fixture active; other modules' tests run without it.
    assert "testsim" in RULESETS and "testduo" in RULESETS


async def test_act_builds_commands_from_legal_verbs(harness: Harness) -> None:
    h = harness
    await open_crew(h)
    verbs = await h.autocomplete("act", "verb", user=ALICE, verb="")
    assert verbs == [{"name": "grab (5)", "value": "grab"}]  # p1's two and the thief p2's three
    details = await h.autocomplete("act", "details", user=ALICE, verb="grab", details="", seat="p1")
    assert details == [{"name": "Grab 1 bag", "value": "1"}, {"name": "Grab 2 bags", "value": "2"}]
    await h.slash("act", user=ALICE, verb="grab", details="2", seat="p1")
    assert "p1 grabs 2" in h.shown().text
    refused = await h.slash("act", user=BOB, verb="grab", details="3")
    assert refused.ephemeral and "may not grab that many" in refused.content


async def test_lobby_choice_menus(harness: Harness) -> None:
    h = harness
    r = await h.slash("game new", user=ALICE, ruleset="testsim", opponent=BOB)
    # A menu per held seat's role and one for the length; the buttons share one row.
    assert {"esc:opt:1:p1:role", "esc:opt:1:p2:role", "esc:opt:1::length"} <= set(r.custom_ids)
    assert "esc:opt:1:p3:role" not in r.custom_ids  # nobody holds p3 yet
    picked = await h.select("esc:opt:1:p2:role", ["thief"], user=BOB)
    assert picked.type == 7 and "Role: Thief (may grab 3)" in field(picked, "p2")  # updated in place
    menu = next(
        c for row in picked.components for c in row["components"] if c["custom_id"] == "esc:opt:1:p2:role"
    )
    assert [o["value"] for o in menu["options"] if o.get("default")] == ["thief"]
    refused = await h.select("esc:opt:1:p1:role", ["thief"], user=BOB)  # not Bob's seat
    assert refused.ephemeral and "do not hold the seat 'p1'" in refused.content
    await h.select("esc:opt:1::length", ["long"], user=ALICE)
    assert "Length: Two rounds" in field(h.shown(), "Choices")
    await h.slash("game join", user=CAROL)
    lobby = copy.deepcopy(h.find_message("esc:opt:1:p2:role"))
    await h.slash("game start", user=CAROL)
    options = load_game((await h.row()).snapshot).setup_options.options
    assert options == {"role": {"p1": "lookout", "p2": "thief", "p3": "lookout"}, "length": "long"}
    assert h.messages[int(lobby["id"])]["components"] == []  # the started lobby lost its menus
    stale = await h.select("esc:opt:1:p2:role", ["lookout"], user=BOB, stale=lobby)
    assert stale.ephemeral and "already started" in stale.content


async def test_round_timeout_answers_every_missing_seat(tmp_path: Path) -> None:
    now = [1_000_000.0]
    async with Harness(tmp_path / "t.db", clock=lambda: now[0], reaction_timeout_hours=2) as h:
        await open_crew(h)
        await h.slash("do", user=BOB, command="grab 2")
        now[0] += 1.5 * 3600
        assert await h.run_due() == []  # Bob's answer restarted the clock
        now[0] += 1 * 3600
        posted = await h.run_due()
        # The first answer edits the round message; the second ends the round: a new message, the board.
        new = [r for r in posted if r.kind == "channel"]
        assert len(new) == 1 and posted[0].kind == "edit_message"
        assert "p1 grabs 1" in posted[0].text and "timeout answer" in posted[0].text
        assert "p2 grabs 1" in new[0].text and "Round 1 ends" in new[0].text and new[0].files
        row = await h.row()
        assert row.status == "finished"
        log = await h.bot.store.command_log(row.id)
        assert [(x.seat, x.user_id) for x in log] == [("p3", str(BOB)), ("p1", None), ("p2", None)]


async def test_a_failure_drawing_the_reply_changes_nothing(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await open_crew(h)
    await h.slash("do", user=ALICE, command="grab 1", seat="p1")
    await h.slash("do", user=ALICE, command="grab 1", seat="p2")
    before = await h.row()

    def broken(_state: object, _seat: object) -> None:
        raise RuntimeError("scene bug")

    monkeypatch.setattr(RULESETS["testsim"], "scene", broken)  # the round's end needs the board
    r = await h.slash("do", user=BOB, command="grab 1")
    assert r.ephemeral and r.content == "Something went wrong; nothing was changed."
    after = await h.row()
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert len(await h.bot.store.command_log(after.id)) == before.version
    monkeypatch.undo()
    again = await h.slash("do", user=BOB, command="grab 1")  # the same command then goes through
    assert "Round 1 ends" in again.text and again.files


async def test_menus_for_as_many_choices_as_fit(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="testsim", opponent=BOB)
    await h.slash("game join", user=CAROL, seat="p3")
    full = await h.slash("game join", user=ALICE, seat="p4")
    # Four role menus fill the rows left by the Start button; the length is chosen with /game choose.
    assert full.ephemeral  # the lobby message is edited in place
    menus = [c for c in h.shown().custom_ids if c.startswith("esc:opt:")]
    assert menus == [f"esc:opt:1:p{i}:role" for i in range(1, 5)]
    assert "Length: One round" in field(h.shown(), "Choices")
