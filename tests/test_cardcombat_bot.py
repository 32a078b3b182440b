"""A whole Dark Realms scenario through the offline harness with two heroes held by two members."""

from __future__ import annotations

from engine import load_game
from tests.harness import ALICE, BOB, Harness, png_size

MEMBERS = {"hero1": ALICE, "hero2": BOB}


async def test_two_heroes_play_a_scenario_to_its_end(harness: Harness) -> None:
    h = harness
    lobby = await h.slash("game new", user=ALICE, ruleset="cardcombat", scenario="crypt")
    assert not lobby.ephemeral, lobby.text
    await h.slash("game join", user=BOB, seat="hero2")
    said = await h.slash("game choose", user=BOB, option="class", value="mage", seat="hero2")
    assert "Mage" in said.text  # acknowledged; the lobby message is edited in place
    assert any("Mage" in str(m["embeds"]) for m in h.messages.values())
    start = await h.slash("game start", user=ALICE)
    assert start.files and not start.ephemeral
    game = load_game((await h.row()).snapshot)
    assert game.state.figures["mage"]["seat"] == "hero2"  # type: ignore[attr-defined]

    # The first commitment is hidden from the channel until everyone has committed.
    text = game.bot_command("hero1").text
    version = (await h.row()).version
    await h.slash("do", user=ALICE, command=text)
    assert (await h.row()).version == version + 1
    public = [m for m in h.messages.values() if not int(m.get("flags") or 0) & 64]
    assert all(text not in str(m["embeds"]) + m["content"] for m in public)
    assert any("hidden choice" in str(m["embeds"]) for m in public)

    played = 0
    while played < 1500:
        row = await h.row()
        if row.status != "playing":
            break
        game = load_game(row.snapshot)
        seat = sorted(game.seats_to_act())[0]
        text = game.bot_command(seat).text
        reply = await h.slash("do", user=MEMBERS[seat], command=text)
        assert (await h.row()).version > row.version, f"{text!r} refused: {reply.text}"
        played += 1
    row = await h.row()
    assert row.status == "finished"
    game = load_game(row.snapshot)
    assert game.outcome is not None
    assert game.replay().to_json() == game.to_json()
    # The heroes play against the game: a result without winners is their defeat, never a draw.
    results = [
        f["value"] for r in h.replies for e in r.embeds for f in e.get("fields", []) if f["name"] == "Result"
    ]
    assert results and game.outcome.reason in results[-1]
    fate = "The heroes won" if game.outcome.winners else "The heroes lost"
    assert fate in results[-1] and "draw" not in results[-1] and "Winner" not in results[-1]
    for reply in h.replies:
        for _name, blob in reply.files:
            w, hgt = png_size(blob)
            assert w != hgt  # never exactly square (some phone clients crop those)
    shown = await h.slash("campaign show", user=BOB, ruleset="cardcombat")
    assert "Mage" in shown.text
