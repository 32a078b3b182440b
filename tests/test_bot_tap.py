"""Whole games played with taps only: after ``/game new`` (a list pick), the members only click buttons
and pick select options — Join, Start, the turn message's menus (and the private narrower menus they
open), End activation, Place for me, reaction buttons, confirms — from the lobby to the result.

What to tap is decided by a seeded rule: in setup phases "Place for me"; otherwise the command the
engine's own policy would play, reached through the menus (so every such command is shown to be
reachable by taps). No command is typed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import tap
from engine import RULESETS, Game, load_game
from tests.harness import ALICE, BOB, CAROL, Harness, Reply

MEMBERS = (ALICE, BOB, CAROL)
LIMIT = 3000


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every component of a captured message."""
    return [c for row in message.get("components") or [] for c in row.get("components", [])]


def find_component(h: Harness, prefix: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The latest message holding a component whose custom_id starts with ``prefix``, and the component."""
    for message in reversed(list(h.messages.values())):
        for c in components(message):
            if str(c.get("custom_id", "")).startswith(prefix):
                return message, c
    return None


def check_limits(message: dict[str, Any]) -> None:
    """Discord's limits for components: 5 rows of 5, 25 options, 100-char ids, labels and values."""
    rows = message.get("components") or []
    assert len(rows) <= 5
    for row in rows:
        assert len(row.get("components", [])) <= 5
        for c in row.get("components", []):
            assert len(c.get("custom_id", "")) <= 100 and len(c.get("label", "") or "") <= 80
            options = c.get("options", [])
            assert len(options) <= 25
            assert all(len(o["label"]) <= 100 and len(o["value"]) <= 100 for o in options)


async def pick(h: Harness, game: Game, gid: int, version: int, seat: str, user: int, target: str) -> Reply:
    """Reach ``target`` for ``seat`` through the menus: the turn message's, then private narrower ones."""
    found = find_component(h, f"esc:p:{gid}:{version}:{seat}:")
    assert found is not None, f"no menu for {seat} at v{version}"
    message, menu = found
    legal = game.legal_commands(seat)
    for _ in range(12):
        check_limits(message)
        values = [o["value"] for o in menu["options"]]
        if "=" + target in values:
            reply = await h.select(menu["custom_id"], ["=" + target], user=user)
            if any(c.startswith("esc:ok:") for c in reply.custom_ids):  # an irreversible call: confirm
                reply = await h.confirm(reply, user=user)
            return reply
        inside = [
            v for v in values if v.startswith(">") and target in [c.text for c in tap.matching(legal, v[1:])]
        ]
        nxt = inside[0] if inside else next(v for v in values if v.startswith("#"))
        reply = await h.select(menu["custom_id"], [nxt], user=user)
        # The narrower menu is private (or replaces the private one it came from).
        assert reply.ephemeral or (reply.type == 7 and int(message.get("flags") or 0) & 64), reply.text
        message = h.messages[reply.message_id]  # type: ignore[index]
        menu = next(c for c in components(message) if c["custom_id"].startswith("esc:p:"))
    raise AssertionError(f"{target!r} not reachable for {seat}")


async def tap_once(h: Harness, members: dict[str, int], rng: random.Random) -> None:
    """One command by taps for the first member seat the game waits for."""
    row = await h.row()
    game = load_game(row.snapshot)
    decision = next(d for d in game.awaiting() if any(s in members for s in d.seats))
    seat = sorted(s for s in decision.seats if s in members)[0]
    user = members[seat]
    gid, version = row.id, row.version
    target = game.bot_command(seat).text
    if decision.kind == "reaction":
        await h.click(f"esc:r:{gid}:{version}:{target}", user=user)
    elif decision.kind == "setup" and find_component(h, f"esc:auto:{gid}:{version}:{seat}"):
        await h.click(f"esc:auto:{gid}:{version}:{seat}", user=user)  # Place for me
    elif tap.is_short(game.parse(seat, target)) and find_component(
        h, f"esc:c:{gid}:{version}:{seat}:{target}"
    ):
        await h.click(f"esc:c:{gid}:{version}:{seat}:{target}", user=user)  # End activation, Done...
    else:
        await pick(h, game, gid, version, seat, user, target)
    after = await h.row()
    assert after.version > version, f"{target!r} for {seat} was not played"
    if rng.random() < 0.02:  # now and then, Show moves (private, changes nothing)
        shown = (
            await h.click(f"esc:hint:{gid}:{seat}", user=user)
            if find_component(h, f"esc:hint:{gid}:{seat}")
            else None
        )
        assert shown is None or shown.ephemeral


@pytest.mark.parametrize(
    ("ruleset_id", "scenario"), [("escape", "evasion"), ("skirm", "seize"), ("heist", None)]
)
async def test_whole_game_with_taps_only(harness: Harness, ruleset_id: str, scenario: str | None) -> None:
    h = harness
    rs = RULESETS[ruleset_id]
    seats = rs.seats[: rs.min_seats or len(rs.seats)]
    members = dict(zip(seats, MEMBERS, strict=False))
    await h.slash("game new", user=ALICE, ruleset=ruleset_id, scenario=scenario)
    gid = (await h.row()).id
    for seat in seats[1:]:
        joined = await h.click(f"esc:join:{gid}:{seat}", user=members[seat])
        assert joined.type == 7  # the lobby message is updated in place
    start = await h.click(f"esc:start:{gid}", user=ALICE)
    assert start.files and not start.ephemeral
    rng = random.Random(9)
    for _ in range(LIMIT):
        if (await h.row()).status != "playing":
            break
        await tap_once(h, members, rng)
    row = await h.row()
    assert row.status == "finished", f"{ruleset_id} still {row.status}"
    game = load_game(row.snapshot)
    assert game.outcome is not None and row.result == game.outcome.to_data()
    log = await h.bot.store.command_log(row.id)
    assert all(x.user_id in {str(m) for m in members.values()} or x.user_id is None for x in log)
    # The result pings every player and no menu is left on the last message.
    last = h.public_messages()[-1]
    assert all(f"<@{m}>" in last.content for m in members.values())
    assert not [c for c in components(h.messages[last.message_id]) if c["custom_id"].startswith("esc:p:")]  # type: ignore[index]
