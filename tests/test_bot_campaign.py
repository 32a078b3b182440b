"""Campaign records through the offline harness, with the test-only rulesets of tests/fake_rulesets.py:
written when the rules end a game, passed into the next game, shown by /campaign show and /heist crew."""

from __future__ import annotations

import pytest

from engine import RULESETS, load_game
from tests.fake_rulesets import fake_heist, fake_rulesets  # noqa: F401  (fixtures)
from tests.harness import ALICE, BOB, CAROL, GUILD, Harness

pytestmark = pytest.mark.usefixtures("fake_rulesets")


async def play_crew(h: Harness, ruleset: str = "testsim") -> object:
    """Alice (p1, p2) and Bob (p3) play a one-round Crew game to its end; returns the final reply."""
    await h.slash("game new", user=ALICE, ruleset=ruleset)
    await h.slash("game join", user=ALICE, seat="p2")
    await h.slash("game join", user=BOB, seat="p3")
    await h.slash("game start", user=ALICE)
    await h.slash("do", user=ALICE, command="grab 2", seat="p1")
    await h.slash("do", user=ALICE, command="grab 2", seat="p2")
    return await h.slash("do", user=BOB, command="grab 2")


async def test_server_campaign_stored_and_passed_to_the_next_game(harness: Harness) -> None:
    h = harness
    none_yet = await h.slash("campaign show", user=CAROL, ruleset="testsim")
    assert none_yet.ephemeral and "no Crew campaign yet" in none_yet.content
    first = await play_crew(h)
    assert "Campaign: 1 heists, 1 won, 6 bags in the vault." in first.text  # type: ignore[attr-defined]
    records = await h.bot.store.campaign_records(str(GUILD), "testsim")
    assert {k: r.record for k, r in records.items()} == {"*": {"heists": 1, "won": 1, "bags": 6}}
    shown = await h.slash("campaign show", user=CAROL, ruleset="testsim")
    assert not shown.ephemeral and "1 heists, 1 won, 6 bags" in shown.text and "this server" in shown.text

    # The next game on this server starts from the record; the one after that sees both.
    await play_crew(h)
    row = await h.row()
    game = load_game(row.snapshot)
    assert game.setup_options.options["campaign"] == {"*": {"heists": 1, "won": 1, "bags": 6}}
    records = await h.bot.store.campaign_records(str(GUILD), "testsim")
    assert records["*"].record == {"heists": 2, "won": 2, "bags": 12} and records["*"].game_id == row.id
    # The default ruleset of /campaign show is one that keeps a campaign.
    assert "heists" in (await h.slash("campaign show", user=ALICE, ruleset="testsim")).text
    offered = await h.autocomplete("campaign show", "ruleset", user=ALICE, ruleset="")
    assert {c["value"] for c in offered} >= {"testsim", "testduo", "escape"}
    # ESCAPE keeps no record, but its scenarios follow one another: the chain is shown.
    escape = await h.slash("campaign show", user=ALICE, ruleset="escape")
    assert not escape.ephemeral and "1. Infiltration: Resistance wins → Data theft" in escape.text
    # Without ruleset: the ruleset of the channel's latest game (here the finished Crew game).
    assert "heists" in (await h.slash("campaign show", user=ALICE)).text
    other = h.new_channel()
    await h.slash("game new", user=ALICE, ruleset="escape", channel=other)
    assert "Infiltration" in (await h.slash("campaign show", user=ALICE, channel=other)).text


async def test_player_campaign_follows_members_not_seats(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="testduo", opponent=BOB)
    start = await h.slash("game start", user=ALICE)
    assert "campaign" not in load_game((await h.row()).snapshot).setup_options.options
    assert start.files
    for user in (ALICE, BOB, ALICE):
        last = await h.slash("do", user=user, command="score")
    assert "north scored twice" in last.text
    assert f"<@{ALICE}>: 1 wins in 1 games." in last.text and f"<@{BOB}>: 0 wins in 1 games." in last.text
    mine = await h.slash("campaign show", user=ALICE, ruleset="testduo")
    assert "1 wins in 1 games" in mine.text
    bobs = await h.slash("campaign show", user=ALICE, ruleset="testduo", member=BOB)
    assert "0 wins in 1 games" in bobs.text
    carol = await h.slash("campaign show", user=CAROL, ruleset="testduo")
    assert carol.ephemeral and "no Duo campaign yet" in carol.content

    # Seats swapped, and Carol plays for the first time: each record goes to its member's seat.
    await h.slash("game new", user=BOB, ruleset="testduo", opponent=ALICE)
    await h.slash("game start", user=BOB)
    options = load_game((await h.row()).snapshot).setup_options.options
    assert options["campaign"] == {"north": {"games": 1, "wins": 0}, "south": {"games": 1, "wins": 1}}
    # A conceded game is not ended by the rules: the campaign does not change.
    await h.confirm(await h.slash("game concede", user=BOB), user=BOB)
    records = await h.bot.store.campaign_records(str(GUILD), "testduo")
    assert {k: r.record for k, r in records.items()} == {
        str(ALICE): {"games": 1, "wins": 1},
        str(BOB): {"games": 1, "wins": 0},
    }
    await h.slash("game new", user=CAROL, ruleset="testduo", opponent=ALICE)
    await h.slash("game start", user=CAROL)
    options = load_game((await h.row()).snapshot).setup_options.options
    assert options["campaign"] == {"south": {"games": 1, "wins": 1}}


async def test_heist_crew_without_the_heist_game(harness: Harness) -> None:
    RULESETS.pop("heist", None)  # the fixture puts the registry back afterwards
    r = await harness.slash("heist crew", user=ALICE)
    assert r.ephemeral and "no heist campaign yet" in r.content and "not installed" in r.content


@pytest.mark.usefixtures("fake_heist")
async def test_heist_crew_with_and_without_a_record(harness: Harness) -> None:
    h = harness
    empty = await h.slash("heist crew", user=CAROL)
    assert empty.ephemeral and "no heist campaign yet" in empty.content and "Finish a heist" in empty.content
    await play_crew(h, ruleset="heist")
    crew = await h.slash("heist crew", user=CAROL)
    assert not crew.ephemeral and "1 heists, 1 won, 6 bags in the vault." in crew.text
    assert "Heist (test) campaign" in crew.text
    # Another ruleset's record is not the heist crew.
    assert (await h.bot.store.campaign_records(str(GUILD), "testsim")) == {}


async def test_failing_campaign_update_still_ends_the_game(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness

    def broken(_state: object) -> dict[str, dict[str, object]]:
        raise RuntimeError("campaign bug")

    monkeypatch.setattr(RULESETS["testsim"], "campaign_update", broken)
    last = await play_crew(h)
    assert "Result" in last.text and "Campaign" not in last.text  # type: ignore[attr-defined]
    assert (await h.row()).status == "finished"
    assert await h.bot.store.campaign_records(str(GUILD), "testsim") == {}
