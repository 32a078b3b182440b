"""River City heists end to end on the offline Discord (tests/harness.py): a lobby with crew choices made
through its select menus (when the lobby shows them) and /game choose, the plan, simultaneous rounds and an
Event phase answered by each member in their own order through /do and /act (the values their autocomplete
offers), refusals that change nothing, every board image checked for size and hidden information, the crew
record kept for the server and carried into the next heist; one member playing all three seats; a failure
while the reply is prepared; a restart of the bot in the middle of a heist; a seat played by the game.

The game's own policy (``Game.bot_command``) picks each seat's next command, but every command is typed by
the member holding the seat, through the real interaction dispatch.
"""

from __future__ import annotations

import asyncio
import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import render
from bot.present import EVERY_SEAT
from engine import Game, load_game
from engine.rulesets.heist import rules as R
from engine.rulesets.heist import rules as heist_rules
from engine.rulesets.heist.campaign import after_heist, prebuilt, slug
from engine.rulesets.heist.content import load_content
from engine.rulesets.heist.state import HeistState
from tests.harness import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    Harness,
    Reply,
    board_version,
    expected_size,
    png_size,
)

DAVE = 100_000_000_000_000_004  # a spectator of the heist
HEIST = "the_inclusion_job"  # an amateur heist: three jewels out
TRIO_HEIST = "the_startup_job"  # amateur too; its deck has events the team may act on (an Event phase)
TRIO = {"p1": ALICE, "p2": BOB, "p3": CAROL}
PICKS = {"p1": "karma", "p2": "jitters", "p3": "iceheart"}  # three classes, skill copies that fit
NAMES = {"p1": "Karma", "p2": "Jitters", "p3": "Iceheart"}
BUILT = "Lookout (Linger + Hit 'n' Run)"  # a character built in the lobby is named after its cards
MENTION = re.compile(r"<@(\d+)>")


def heist_state(game: Game) -> HeistState:
    """The heist state of a game."""
    st = game.state
    assert isinstance(st, HeistState)
    return st


def pinged(reply: Reply) -> list[int]:
    """Members mentioned in a message's content (the only part of a message that pings)."""
    return [int(m) for m in MENTION.findall(reply.content)]


def round_embed(reply: Reply) -> dict[str, Any] | None:
    """The embed listing a new round's awaited seats, if the message has one."""
    return next((e for e in reply.embeds if str(e.get("title", "")).startswith("A new round")), None)


def field_value(reply: Reply, name: str) -> str:
    """The value of the first embed field called ``name``."""
    for e in reply.embeds:
        for f in e.get("fields", []):
            if f["name"] == name:
                return str(f["value"])
    raise AssertionError(f"no field {name!r} in {reply.text!r}")


async def current(h: Harness, channel: int | None = None) -> tuple[Any, Game]:
    """The channel's latest stored game row and its game."""
    row = await h.row(channel)
    return row, load_game(row.snapshot)


async def log_size(h: Harness, row: Any) -> int:
    """How many commands the store logged for a game."""
    return len(await h.bot.store.command_log(row.id))


async def refused(h: Harness, user: int, command: str, said: str, **options: Any) -> Reply:
    """``/do command`` by ``user`` is refused privately, with ``said`` in the answer, and changes nothing."""
    row, game = await current(h)
    before, logged, posted = row.version, await log_size(h, row), len(h.replies)
    reply = await h.slash("do", user=user, command=command, **options)
    assert reply.ephemeral, (command, reply.text)
    assert said.lower() in reply.content.lower(), (command, reply.content)
    after, game_after = await current(h)
    assert after.version == before and await log_size(h, after) == logged
    assert game_after.to_json() == game.to_json()
    # Only the private answer went out: nothing public, no board.
    assert all(r.ephemeral and not r.files for r in h.replies[posted:] if r.type != 5)
    return reply


def assert_discord_limits(h: Harness) -> None:
    """Every message and autocomplete answer the bot sent fits Discord's limits (the harness accepts
    anything, Discord answers 400): content, embeds, fields, components, choices."""
    for r in h.replies:
        assert len(r.content) <= 2000 and len(r.embeds) <= 10, r.text[:200]
        total = 0
        for e in r.embeds:
            fields = e.get("fields", [])
            assert len(e.get("title", "")) <= 256 and len(e.get("description", "")) <= 4096
            assert len(fields) <= 25
            assert all(len(f["name"]) <= 256 and len(f["value"]) <= 1024 for f in fields)
            total += len(e.get("title", "")) + len(e.get("description", ""))
            total += len(e.get("footer", {}).get("text", ""))
            total += sum(len(f["name"]) + len(f["value"]) for f in fields)
        assert total <= 6000, (total, r.text[:200])
        assert len(r.components) <= 5
        for row in r.components:
            items = row.get("components", [])
            assert len(items) <= 5
            for c in items:
                assert len(c.get("custom_id", "")) <= 100 and len(c.get("label", "")) <= 80
                assert len(c.get("options", [])) <= 25
                assert all(len(o["label"]) <= 100 and len(o["value"]) <= 100 for o in c.get("options", []))
        assert len(r.choices) <= 25
        assert all(len(c["name"]) <= 100 and len(str(c["value"])) <= 100 for c in r.choices)


# -- the board images --------------------------------------------------------------------------------


def check_board(reply: Reply, final: Any) -> None:
    """A posted board: a PNG of the renderer's size for that position, wider than tall, drawn from the
    spectator's scene of that position, which says nothing about the security bag's contents."""
    assert len(reply.files) == 1
    name, blob = reply.files[0]
    assert name == "board.png"
    version = board_version(reply)
    width, height = png_size(blob)
    assert (width, height) == expected_size(final, version) and width != height
    game = load_game(final.snapshot).replay(upto=version)
    scene = game.scene(None)
    renderer = render.get_renderer()
    assert renderer is not None
    assert renderer(scene) == blob, "the posted image is the spectator's scene of that position"
    assert_no_hidden_chits(game)


def assert_no_hidden_chits(game: Game) -> None:
    """The spectator's scene and view are the same whatever the bag holds, and show no chit on a tile whose
    chit has not been drawn yet."""
    st = heist_state(game)
    scene = game.scene(None)
    unknown = {R.board(st).cells[n] for n, t in st.tiles.items() if t.unknown and R.alive(st, n)}
    for tile in scene.tiles:
        if tile.cell in unknown:
            assert tile.mark == "?"
    chit_labels = {"G", "D", "L", "C", "G2", "D2", "L2", "C2"}
    assert not [t for t in scene.tokens if t.cell in unknown and t.label in chit_labels]
    view = game.view(None)
    assert "bag" not in view and view["bag_size"] == len(st.bag)
    assert all(t["chits"] == [] for t in view["tiles"].values() if t["unknown"])
    if not st.bag:
        return
    # Another bag of the same size, and another order of draws: the spectator cannot tell.
    other = copy.deepcopy(game)
    ost = heist_state(other)
    ost.bag = ["camera"] * len(st.bag) if set(st.bag) != {"camera"} else ["guard"] * len(st.bag)
    assert other.scene(None) == scene
    assert other.view(None) == view


# -- playing -----------------------------------------------------------------------------------------


@dataclass
class Record:
    """What a played stretch of heist looked like from Discord."""

    replies: list[Reply] = field(default_factory=list)
    stages: list[tuple[str, int]] = field(default_factory=list)  # (phase, round) after each reply
    boards: list[Reply] = field(default_factory=list)
    done_orders: list[list[str]] = field(default_factory=list)  # per round: the order seats said 'done'
    first_orders: list[list[str]] = field(default_factory=list)  # per round: the order seats first acted


def members_of(row: Any, seats: set[str] | frozenset[str]) -> set[int]:
    """Member ids holding ``seats``."""
    return {int(row.seats[s]) for s in seats}


async def play_as_members(
    h: Harness,
    members: dict[str, int],
    *,
    stop: Callable[[Game], bool] = lambda g: False,
    limit: int = 600,
    on_step: Callable[[Game], Any] | None = None,
    record: Record | None = None,
) -> Record:
    """Each member answers their seats' decisions, in an order that changes every round and interleaves
    the players' sub-actions: the policy picks the command text, the member sends the /do autocomplete's
    value for it. Checks each answer's message (public, its command shown, pings, round listing)."""
    rec = record or Record()
    queue: list[str] = []  # round robin: the others' sub-actions come in between
    order: list[str] = []  # this round's order of finishing
    seen_round: tuple[str, int] | None = None
    for _ in range(limit):
        row, game = await current(h)
        if row.status != "playing" or stop(game):
            return rec
        if on_step is not None:
            await on_step(game)
            row, game = await current(h)
        st = heist_state(game)
        key = (st.phase, st.round)
        awaited = sorted(game.seats_to_act())
        if key != seen_round:  # a new round: another seat starts it, and another finishes it
            seen_round = key
            shift = len(rec.first_orders) % len(awaited)
            queue = order = awaited[shift:] + awaited[:shift]
            rec.first_orders.append([])
            rec.done_orders.append([])
        queue = [s for s in queue if s in awaited] + [s for s in awaited if s not in queue]
        seat, text = next_answer(game, queue, order, awaited)
        queue.remove(seat)
        queue.append(seat)
        if seat not in rec.first_orders[-1]:
            rec.first_orders[-1].append(seat)
        user = members[seat]
        position = game
        before = frozenset(awaited)
        stage = (st.phase, st.round)
        verb, _, details = text.partition(" ")
        if details and len(rec.replies) % 4 == 3:
            # Now and then by kind, then which one: /act with both lists from its autocomplete.
            verbs = [c["value"] for c in await h.autocomplete("act", "verb", user=user, verb=verb, seat=seat)]
            assert verb in verbs, (verb, verbs)
            listed = await h.autocomplete("act", "details", user=user, verb=verb, details=details, seat=seat)
            assert details in [c["value"] for c in listed], (details, listed)
            reply = await h.slash("act", user=user, verb=verb, details=details, seat=seat)
        else:
            # The /do list names the seat in its values when the member's commands come from several seats.
            offered = [c["value"] for c in await h.autocomplete("do", "command", user=user, command=text)]
            mine = {s for s, who in members.items() if who == user and game.legal_commands(s)}
            value = f"[{seat}] {text}" if len(mine) > 1 else text
            assert value in offered, (value, offered)
            reply = await h.slash("do", user=user, command=value)
        if any(c.startswith("esc:ok:") for c in reply.custom_ids):  # typed or picked, asked first
            assert verb == "escape" and "cannot be taken back" in reply.content, reply.text
            assert (await log_size(h, row)) == len(game.log)  # nothing played before the confirm
            reply = await h.confirm(reply, user=user)
        rec.replies.append(reply)
        # Co-operative rounds hide nothing: no private "your hidden choice" is sent.
        assert not [r for r in h.replies if r.interaction_id == reply.interaction_id and "hidden" in r.text]
        row, game = await current(h)
        logged = game.log[-1]
        assert (logged.seat, logged.text) == (seat, text), reply.text
        assert h.narrates(position, seat, text)  # co-operative: every command is shown as played
        if text in FINISH:
            rec.done_orders[-1].append(seat)
        # The board is posted exactly when a round (or the plan, or the escape) ends.
        st = heist_state(game)
        assert bool(reply.files) == ((st.phase, st.round) != stage), (stage, st.phase, st.round, text)
        rec.stages.append((st.phase, st.round))
        await check_pings(row, game, reply, before, user)
        if reply.files:
            rec.boards.append(reply)
    raise AssertionError(f"the heist did not get there in {limit} commands")


FINISH = ("ready", "done")  # the commands that finish a seat's part of the plan or of a round


def next_answer(game: Game, queue: list[str], order: list[str], awaited: list[str]) -> tuple[str, str]:
    """The next (seat, command): the first seat of the round robin whose policy command is not a finish,
    or a finish by the seat that is first in this round's finishing order."""
    for seat in queue:
        text = game.bot_command(seat).text
        earlier = order[: order.index(seat)] if seat in order else []
        if text not in FINISH or not [s for s in earlier if s in awaited]:
            return seat, text
    seat = next(s for s in order if s in awaited)
    return seat, game.bot_command(seat).text


async def check_pings(row: Any, game: Game, reply: Reply, before: frozenset[str], actor: int) -> None:
    """A message opening a round pings exactly the members who must act in it (but not the one who just
    acted) and lists their seats; an answer within a round pings nobody who was already answering; the
    result pings every player."""
    awaited = frozenset(game.seats_to_act())
    opened = bool(reply.files) and game.outcome is None
    if game.outcome is not None:
        everyone = {int(w) for w in row.seats.values() if w not in (None, "bot")}
        assert set(pinged(reply)) == everyone and "Result" in reply.text
        return
    if opened:
        st = heist_state(game)
        if st.phase != "plan":  # everyone still inside, nobody who is out
            assert awaited == {s for s in st.seats if st.players[s].status == "in"}
        expect = members_of(row, awaited) - {actor}
        got = pinged(reply)
        assert set(got) == expect and len(got) == len(expect), (got, expect, before, awaited, reply.content)
        embed = round_embed(reply)
        assert embed is not None
        assert sorted(f["name"] for f in embed["fields"]) == sorted(awaited)
        for f in embed["fields"]:
            # The member is named with their seat and their character.
            nickname = heist_state(game).players[f["name"]].nickname
            assert f"<@{row.seats[f['name']]}> ({f['name']}, {nickname})" in f["value"]
    else:
        assert set(pinged(reply)) == members_of(row, awaited - before) - {actor}
        if awaited <= before:
            assert round_embed(reply) is None


# -- the lobby ---------------------------------------------------------------------------------------


async def lobby_choice(h: Harness, lobby: Reply, user: int, seat: str, key: str, value: str) -> Reply:
    """Make a per-seat lobby choice with the lobby message's select menu when it has one (they are shown
    only when every menu fits in the message), else with /game choose; returns the updated lobby."""
    gid = (await h.row()).id
    menu = f"esc:opt:{gid}:{seat}:{key}"
    if menu in lobby.custom_ids:
        reply = await h.select(menu, [value], user=user)
        assert reply.type == 7  # the lobby message is updated in place
    else:
        reply = await h.slash("game choose", user=user, option=key, value=value, seat=seat)
        assert reply.ephemeral and f"{seat}: " in reply.content  # the lobby message is edited in place
        reply = h.shown()
    return reply


async def open_trio_lobby(h: Harness) -> Reply:
    """Alice opens the heist with Bob; Carol joins with the lobby's button; each picks their crew member
    (menus or /game choose, the autocomplete offering the names). Returns the start reply."""
    lobby = await h.slash("game new", user=ALICE, ruleset="heist", scenario=TRIO_HEIST, opponent=BOB)
    assert not lobby.ephemeral and "3–4 players" in lobby.text and "The Startup Job" in lobby.text
    gid = (await h.row()).id
    assert f"esc:opt:{gid}:p3:character" not in lobby.custom_ids  # nobody holds p3 yet
    assert "Crew member: Automatic" in field_value(lobby, EVERY_SEAT)  # told once, not in every seat
    assert field_value(lobby, "p1") == f"<@{ALICE}>"

    lobby = await lobby_choice(h, lobby, ALICE, "p1", "character", PICKS["p1"])
    assert "Crew member: Karma: Angry Locksmith" in field_value(lobby, "p1")
    wrong = await h.slash("game choose", user=BOB, option="character", value="jitters", seat="p1")
    assert wrong.ephemeral and "do not hold the seat 'p1'" in wrong.content
    lobby = await lobby_choice(h, lobby, BOB, "p2", "character", PICKS["p2"])
    lobby = await lobby_choice(h, lobby, BOB, "p2", "upgrade", "2b")
    assert "Upgrade skill 2 first; second listed pro cards" in field_value(lobby, "p2")

    joined = await h.click(f"esc:join:{gid}:p3", user=CAROL)
    assert f"<@{CAROL}>" in field_value(joined, "p3")
    offered = await h.autocomplete("game choose", "value", user=CAROL, option="character", value="ice")
    assert [c["value"] for c in offered] == ["iceheart"]
    label = offered[0]["name"]
    said = await h.slash("game choose", user=CAROL, option="character", value=label)  # by its label
    assert said.ephemeral and "p3: Crew member → Iceheart" in said.content  # the lobby is edited
    chose = h.shown()
    assert "Crew member: Iceheart" in field_value(chose, "p3")
    assert "Crew member: Karma" in field_value(chose, "p1") and "Crew member: Jitters" in field_value(
        chose, "p2"
    )
    spectator = await h.slash("game choose", user=DAVE, option="character", value="karma")
    assert spectator.ephemeral and "seated players or its creator" in spectator.content
    not_yours = await h.slash("game start", user=DAVE)
    assert not_yours.ephemeral and (await h.row()).status == "lobby"

    start = await h.slash("game start", user=CAROL)
    assert not start.ephemeral and start.files, start.text
    return start


async def test_whole_heist_with_three_members(harness: Harness) -> None:
    h = harness
    start = await open_trio_lobby(h)
    row, game = await current(h)
    st = heist_state(game)
    assert row.seats == {"p1": str(ALICE), "p2": str(BOB), "p3": str(CAROL), "p4": None}
    assert game.setup_options.options["character"] == PICKS
    assert game.setup_options.options["upgrade"] == {"p1": "1a", "p2": "2b", "p3": "1a"}
    assert "campaign" not in game.setup_options.options  # the server's first heist
    assert {s: p.nickname for s, p in st.players.items()} == NAMES and st.phase == "plan"
    # The start opens the plan: the two others are pinged once (Alice pressed Start), and the round
    # listing names their seats.
    assert sorted(pinged(start)) == sorted([ALICE, BOB])
    embed = round_embed(start)
    assert embed is not None and [f["name"] for f in embed["fields"]] == ["p1", "p2", "p3"]
    listing = embed.get("description", "") + "".join(f["value"] for f in embed["fields"])
    assert "Part I, the plan" in listing
    for f in embed["fields"]:  # each seat's own options, as the engine labels them (hexes told at once)
        first = game.legal_commands(f["name"])[0]
        assert first.label.replace(" (", ", ", 1).split(",")[0] in f["value"]
    check_board(start, row)

    refusals: set[str] = set()
    spectator_boards: list[Reply] = []

    async def refuse_now(game: Game) -> None:
        """Once in the plan and once in a round: a spectator, a seat that already answered, garbage."""
        st = heist_state(game)
        phase = st.phase
        waiting = game.seats_to_act()
        finished = [s for s in R.SEATS[:3] if s not in waiting and st.players[s].status == "in"]
        if phase not in ("plan", "action") or phase in refusals or not finished or not waiting:
            return
        refusals.add(phase)
        await refused(h, DAVE, "ready" if phase == "plan" else "done", "not playing")
        name, member = NAMES[finished[0]], TRIO[finished[0]]
        awaited = sorted(waiting)[0]
        if phase == "plan":  # a planning command another player may still play, sent by one who is ready
            late = game.legal_commands(awaited)[0].text
            await refused(h, member, late, f"{name} has finished planning; wait for the others")
        else:  # a player whose action is done this round
            await refused(h, member, "done", f"{name} has finished this round's action")
            await refused(h, member, "act walk", f"{name} already chose")
        await refused(h, TRIO[awaited], "dance the macarena", "'dance' is not a heist command")
        await refused(h, TRIO[awaited], "move z99", "z99 is off the map")
        # A spectator gets no commands to pick, and sees who is still answering and the board as it is.
        (why,) = await h.autocomplete("do", "command", user=DAVE, command="")
        assert why["name"].startswith("You are watching (not playing): the game waits for")
        status = await h.slash("game status", user=DAVE)
        nxt = field_value(status, "Next")
        for s in R.SEATS[:3]:
            assert (f"<@{TRIO[s]}> ({s})" in nxt) == (s in waiting), (s, nxt)
        board = await h.slash("game board", user=DAVE)
        assert not board.ephemeral and board_version(board) == (await h.row()).version
        spectator_boards.append(board)

    rec = await play_as_members(h, TRIO, on_step=refuse_now)
    assert refusals == {"plan", "action"}
    row, game = await current(h)
    st = heist_state(game)
    assert row.status == "finished" and st.phase == "over" and game.outcome is not None
    assert row.result == game.outcome.to_data()
    assert st.round >= 2 and len(rec.boards) >= st.round  # one board per round end, and the end

    # An Event phase the team may act on opens like a round: everyone inside is asked, anyone goes on.
    for reply, (phase, _round) in zip(rec.replies, rec.stages, strict=True):
        if phase == "event" and reply.files:
            embed = round_embed(reply)
            assert embed is not None and "the team may use it" in reply.text
            assert all("Go on with the Event phase" in f["value"] for f in embed["fields"])

    # Every round was answered in its own order: not always the same seat first, nor the same last.
    assert len({tuple(o) for o in rec.first_orders if len(o) == 3}) >= 2, rec.first_orders
    assert len({o[-1] for o in rec.done_orders if len(o) == 3}) >= 2, rec.done_orders
    assert len(spectator_boards) == 2
    for reply in [start, *rec.boards, *spectator_boards]:
        check_board(reply, row)

    # The log has every command, in order, from the member who typed it, and replays to the same heist.
    log = await h.bot.store.command_log(row.id)
    assert [x.seq for x in log] == list(range(1, row.version + 1))
    assert [(x.seat, x.text) for x in log] == [(e.seat, e.text) for e in game.log]
    assert all(x.user_id == str(TRIO[x.seat]) for x in log)
    assert game.replay().to_json() == game.to_json()

    # The end: the result (read as the crew's) and the crew record; every player is pinged.
    last = rec.replies[-1]
    assert last.files and sorted(pinged(last)) == sorted(TRIO.values())
    assert game.outcome.reason in field_value(last, "Result")
    assert "The crew" in field_value(last, "Result") and "Winner" not in field_value(last, "Result")
    assert "Team cash" in field_value(last, "Campaign")
    records = await h.bot.store.campaign_records(str(GUILD), "heist")
    assert set(records) == {"*"} and records["*"].game_id == row.id
    record = records["*"].record
    assert record == after_heist(st)
    content = load_content()
    expected_cash = st.hauled.get("cash", 0) + (R.heist(st).reward_cash_k if game.outcome.winners else 0)
    assert record["cash"] == expected_cash
    assert record["players"] == {str(ALICE): 2, str(BOB): 2, str(CAROL): 2}
    assert record["history"] == [
        {"heist": TRIO_HEIST, "won": bool(game.outcome.winners), "haul": dict(st.hauled), "round": st.round}
    ]
    for seat, nick in NAMES.items():
        member = record["characters"][slug(nick)]
        busted = st.players[seat].status == "busted"
        assert (member["level"], member["heists"]) == (2, 1)
        assert member["status"] == ("jailed" if busted else "free")
    # Bob's level-up choice 2b: his second skill grew into its second pro card.
    assert record["characters"]["jitters"]["skills"] == ["hurry", content.skills["yank_wires"].upgrades[1]]
    assert record["characters"]["karma"]["skills"] == [content.skills["hurry"].upgrades[0], "wing_it"]

    crew = await h.slash("heist crew", user=DAVE)
    assert not crew.ephemeral and "this server's crew" in crew.text
    assert f"Team cash: ${record['cash']}k" in crew.text
    for nick in NAMES.values():
        assert re.search(rf"{nick} \(level 2, (free|jailed)\)", crew.text), crew.text
    assert "The Startup Job: " + ("won" if game.outcome.winners else "lost") in crew.text
    shown = await h.slash("campaign show", user=ALICE, ruleset="heist")
    assert f"Team cash: ${record['cash']}k" in shown.text

    # The log is public: co-operative rounds hide no answer.
    shown_log = await h.slash("game log", user=DAVE, last=5)
    assert all(f"`{x.text}`" in shown_log.content for x in log[-5:])
    # Nothing more can be played.
    over = await h.slash("do", user=ALICE, command="ready")
    assert over.ephemeral

    await second_heist(h, record)
    assert_discord_limits(h)


async def second_heist(h: Harness, record: dict[str, Any]) -> None:
    """The next heist on the server starts from the crew record: cash, named characters and levels."""
    free = [k for k, m in record["characters"].items() if m["status"] == "free"]
    await h.slash("game new", user=ALICE, ruleset="heist", scenario=HEIST, opponent=BOB)
    await h.slash("game join", user=DAVE, seat="p3")
    if free:
        # A level-2 crew member is above a new player's level: the start is refused and nothing starts.
        await h.slash("game choose", user=DAVE, option="character", value=free[0])
        too_high = await h.slash("game start", user=ALICE)
        assert too_high.ephemeral and "above this player's level 1" in too_high.content, too_high.content
        assert (await h.row()).status == "lobby"
        await h.slash("game choose", user=DAVE, option="character", value="auto")
        await h.slash("game choose", user=ALICE, option="character", value=free[0], seat="p1")
    # Dave builds a new crew member from a character card and two skill cards instead.
    for key, value in (("build", "lookout"), ("skill_1", "linger"), ("skill_2", "hit_n_run")):
        offered = await h.autocomplete("game choose", "value", user=DAVE, option=key, value=value)
        assert value in [c["value"] for c in offered], (key, offered)
        built = await h.slash("game choose", user=DAVE, option=key, value=value)
        assert "p3: " in built.content, built.content  # the lobby message is edited in place
    jailed = [k for k, m in record["characters"].items() if m["status"] == "jailed"]
    start = await h.slash("game start", user=BOB)
    assert not start.ephemeral and start.files
    row, game = await current(h)
    st = heist_state(game)
    assert game.setup_options.options["campaign"] == {"*": record}
    assert st.campaign["characters"] == record["characters"] and st.team_cash == record["cash"]
    if free:
        named = record["characters"][free[0]]
        p1 = st.players["p1"]
        assert (p1.nickname, p1.character, p1.skills) == (
            named["nickname"],
            named["character"],
            named["skills"],
        )
    dave = st.players["p3"]
    assert (dave.nickname, dave.character, dave.skills) == (BUILT, "lookout", ["linger", "hit_n_run"])
    names = {record["characters"][k]["nickname"] for k in jailed}
    assert not names & {p.nickname for p in st.players.values()}  # jailed crew stay in jail
    # The second heist is played out; its record builds on the first one.
    await play_as_members(h, {"p1": ALICE, "p2": BOB, "p3": DAVE})
    row, game = await current(h)
    st = heist_state(game)
    assert row.status == "finished" and game.outcome is not None
    after = (await h.bot.store.campaign_records(str(GUILD), "heist"))["*"].record
    assert after == after_heist(st)
    assert [x["heist"] for x in after["history"]] == [TRIO_HEIST, HEIST]
    assert after["players"] == {str(ALICE): 3, str(BOB): 3, str(CAROL): 2, str(DAVE): 2}
    assert set(after["characters"]) >= set(record["characters"])  # nobody is forgotten
    assert after["characters"][slug(BUILT)]["level"] == 2  # the new one joins the crew record
    crew = await h.slash("heist crew", user=CAROL)
    assert f"{BUILT} (level 2, " in crew.text and "The Inclusion Job: " in crew.text
    for key, member in record["characters"].items():
        played_again = key in {slug(p.nickname) for p in st.players.values()}
        assert after["characters"][key]["heists"] == member["heists"] + played_again
        assert after["characters"][key]["level"] == member["level"] + played_again
    assert st.team_cash <= record["cash"]  # the crew's cash paid for whatever was bought in the plan
    # A busted crew member waits in jail for a County Jail heist: another heist cannot start with them.
    pre = prebuilt()  # (a built character is picked again by building it again, not by name)
    in_jail = [m["nickname"] for k, m in after["characters"].items() if m["status"] == "jailed" and k in pre]
    if in_jail:
        await h.slash("game new", user=ALICE, ruleset="heist", scenario=HEIST, opponent=BOB)
        await h.slash("game join", user=DAVE, seat="p3")
        offered = await h.autocomplete("game choose", "value", user=BOB, option="character", value=in_jail[0])
        value = next(c["value"] for c in offered if c["name"].startswith(f"{in_jail[0]}:"))
        chose = await h.slash("game choose", user=BOB, option="character", value=value)
        assert "chooses" in chose.content, chose.content
        refused_start = await h.slash("game start", user=ALICE)
        assert refused_start.ephemeral and f"{in_jail[0]} is in jail" in refused_start.content
        assert (await h.row()).status == "lobby"
        await h.confirm(await h.slash("game abort", user=ALICE), user=ALICE)


# -- one member, three seats -------------------------------------------------------------------------


async def test_one_member_plays_all_three_seats(harness: Harness) -> None:
    h = harness
    solo = {"p1": ALICE, "p2": ALICE, "p3": ALICE}
    await h.slash("game new", user=ALICE, ruleset="heist", scenario=HEIST)
    for seat in ("p2", "p3"):
        taken = await h.slash("game join", user=ALICE, seat=seat)
        assert f"takes {seat}" in taken.content
    which = await h.slash("game choose", user=ALICE, option="character", value="karma")
    assert which.ephemeral and "seat:" in which.content
    for seat, pick in PICKS.items():
        chose = await h.slash("game choose", user=ALICE, option="character", value=pick, seat=seat)
        assert f"{seat}: Crew member → {NAMES[seat]}" in chose.content
    start = await h.slash("game start", user=ALICE)
    assert pinged(start) == []  # Alice started it and plays every seat: nobody else to ping
    embed = round_embed(start)
    assert embed is not None and [f["name"] for f in embed["fields"]] == ["p1", "p2", "p3"]

    # A plan every seat may place: the bot asks which seat, and nothing changes.
    row, game = await current(h)
    shared = [c.text for c in game.legal_commands("p1") if c.verb == "plan"]
    shared = [t for t in shared if all(t in [c.text for c in game.legal_commands(s)] for s in ("p2", "p3"))]
    assert shared
    asked = await refused(h, ALICE, shared[0], "several seats that must act now (p1, p2, p3)")
    assert "seat:" in asked.content
    await refused(h, ALICE, shared[0], "do not hold the seat 'p4'", seat="p4")
    # The /do list names the seat in each choice and its value.
    listed = await h.autocomplete("do", "command", user=ALICE, command="")
    assert listed and all(re.match(r"\[p[123]\] ", c["value"]) for c in listed)
    assert all(c["name"].startswith(c["value"][:5]) for c in listed)
    # By the seat option (in any case), and by the list's "[seat] command" values.
    for seat in ("p1", "p2", "p3"):
        text = game.bot_command(seat).text
        if seat == "p1":
            reply = await h.slash("do", user=ALICE, command=text, seat="P1")
        else:
            reply = await h.slash("do", user=ALICE, command=f"[{seat}] {text}")
        shown = h.shown()
        assert f"<@{ALICE}> ({seat}, {NAMES[seat]})" in shown.text and f"`{text}`" in shown.text
        assert pinged(reply) == []  # Alice is already answering for all three
        row, game = await current(h)
        assert (game.log[-1].seat, game.log[-1].text) == (seat, text)

    # The rest of the plan and the first round through the list's values.
    rec = await play_as_members(
        h, solo, stop=lambda g: heist_state(g).phase != "plan" and heist_state(g).round >= 2
    )
    row, game = await current(h)
    st = heist_state(game)
    assert (st.phase, st.round) == ("action", 2)
    opening = [r for r in rec.boards if round_embed(r) is not None]
    assert len(opening) == 2  # the first round, then the second
    for reply in opening:
        assert pinged(reply) == []  # one member holding every seat keeps acting: never pinged
        embed = round_embed(reply)
        assert embed is not None and [f["name"] for f in embed["fields"]] == ["p1", "p2", "p3"]
    # A command legal for exactly one awaited seat needs no seat: 'undo' after one seat acted.
    first = sorted(game.seats_to_act())[0]
    act = next(c.text for c in game.legal_commands(first) if c.verb == "act")
    await h.slash("do", user=ALICE, command=act, seat=first)
    row, game = await current(h)
    assert [c.text for s in game.seats_to_act() for c in game.legal_commands(s) if c.verb == "undo"] == [
        "undo"
    ]
    await h.slash("do", user=ALICE, command="undo")
    assert f"<@{ALICE}> ({first}, {NAMES[first]})" in h.shown().text and h.narrates(game, first, "undo")
    assert heist_state((await current(h))[1]).players[first].action == ""
    assert_discord_limits(h)


async def test_solo_member_levels_up_once_per_heist(harness: Harness) -> None:
    # Ruling 37: a member's level rises by one per heist, however many seats they held (it once rose per
    # seat: 1 -> 4 after one solo heist).
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist", scenario=HEIST)
    for seat in ("p2", "p3"):
        await h.slash("game join", user=ALICE, seat=seat)
    for seat, pick in PICKS.items():
        await h.slash("game choose", user=ALICE, option="character", value=pick, seat=seat)
    await h.slash("game start", user=ALICE)
    for _ in range(600):
        row, game = await current(h)
        if row.status != "playing":
            break
        seat = sorted(game.seats_to_act())[0]
        reply = await h.do_confirmed(ALICE, game.bot_command(seat).text, seat=seat)
        assert (await current(h))[0].version > row.version, reply.content
    row, game = await current(h)
    assert row.status == "finished"
    record = (await h.bot.store.campaign_records(str(GUILD), "heist"))["*"].record
    assert {m["level"] for m in record["characters"].values()} == {2}  # each character played once
    assert record["players"] == {str(ALICE): 2}  # one member, one heist: one level


async def test_a_failure_after_the_commit_is_not_called_nothing_changed(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # When the ruleset fails while the reply is prepared (the new Event phase once had no name in the side
    # panel), the member is told "nothing was changed": that must be true, not a stored command without
    # its round message.
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist", scenario=HEIST)
    for seat in ("p2", "p3"):
        await h.slash("game join", user=ALICE, seat=seat)
    await h.slash("game start", user=ALICE)
    while True:  # the plan, up to its last 'ready' (which ends it, so the board is drawn)
        row, game = await current(h)
        awaited = sorted(game.seats_to_act())
        text = game.bot_command(awaited[0]).text
        if awaited == [awaited[0]] and text == "ready":
            break
        await h.slash("do", user=ALICE, command=text, seat=awaited[0])

    def broken(_state: object, _seat: object) -> object:
        raise RuntimeError("the scene cannot be built")

    monkeypatch.setattr(game.ruleset, "scene", broken)
    reply = await h.slash("do", user=ALICE, command="ready", seat=awaited[0])
    after = await h.row()
    if reply.ephemeral and "nothing was changed" in reply.content.lower():
        assert after.version == row.version, "told 'nothing was changed', but the command was stored"
    else:  # or the command stands, and the member is not told otherwise
        assert after.version == row.version + 1
        return
    # Once the ruleset works again the same answer goes through, and the first round opens.
    monkeypatch.undo()
    again = await h.slash("do", user=ALICE, command="ready", seat=awaited[0])
    assert not again.ephemeral and again.files and round_embed(again) is not None
    assert (await h.row()).version == row.version + 1


class EventChoiceTaken(AssertionError):
    """The game's own player closed an Event phase before the members could use its choice."""


async def test_members_get_the_event_phase_choice_with_a_game_played_seat(harness: Harness) -> None:
    h = harness
    members = {"p1": ALICE, "p2": BOB}
    for attempt in range(8):  # heists (seeds 7, 8...) until one has an Event phase the team may act on
        channel = None if attempt == 0 else h.new_channel()
        await h.slash(
            "game new", user=ALICE, channel=channel, ruleset="heist", scenario=TRIO_HEIST, opponent=BOB
        )
        given = await h.slash("game join", user=ALICE, channel=channel, seat="p3", bot=True)
        assert "The game plays p3" in given.content
        await h.slash("game start", user=ALICE, channel=channel)
        for _ in range(600):
            row, game = await current(h, channel)
            if row.status != "playing":
                break
            seat = sorted(s for s in game.seats_to_act() if s in members)[0]
            command = game.bot_command(seat).text
            reply = await h.do_confirmed(members[seat], command, channel=channel, seat=seat)
            assert (await current(h, channel))[0].version > row.version, reply.content
            reply = h.shown(channel)
            if "the team may use it" in reply.text:
                _row, after = await current(h, channel)
                if heist_state(after).phase != "event":
                    said = [
                        line for line in reply.text.splitlines() if "continue" in line or "may use it" in line
                    ]
                    raise EventChoiceTaken("\n".join(said))
                # The members are asked, and the game's player waits for them.
                # (not the member whose answer opened the phase).
                assert set(pinged(reply)) == {ALICE, BOB} - {members[seat]}
                assert "🤖 p3** `continue`" not in reply.text
                return
    raise AssertionError("no Event phase with a team choice came up in eight heists")


# -- a restart in the middle of a heist --------------------------------------------------------------


async def test_restart_mid_heist_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "heist.db"
    h = Harness(db)
    await h.start()
    try:
        await h.slash("game new", user=ALICE, ruleset="heist", scenario=HEIST, opponent=BOB)
        await h.slash("game join", user=CAROL, seat="p3")
        await h.slash("game start", user=ALICE)

        def mid_round(game: Game) -> bool:
            st = heist_state(game)
            return st.phase == "action" and st.round == 2 and any(p.action for p in st.players.values())

        await play_as_members(h, TRIO, stop=mid_round)
        row, game = await current(h)
        acted = next(s for s, p in heist_state(game).players.items() if p.action)
        turn = h.shown().message_id
        assert_discord_limits(h)
    finally:
        await h.close()

    h2 = Harness(db)
    h2.messages, h2._ids = h.messages, h._ids  # one Discord: the new bot sees what the old one posted
    await h2.start()
    try:
        assert h2.bot.games.cached_games() == 0
        again, game2 = await current(h2)
        assert (again.version, again.status) == (row.version, "playing")
        assert game2.to_json() == game.to_json()
        # The member who had chosen an action carries on with it after the restart.
        text = game2.bot_command(acted).text
        offered = await h2.autocomplete("do", "command", user=TRIO[acted], command=text)
        assert text in [c["value"] for c in offered]
        reply = await h2.slash("do", user=TRIO[acted], command=text)
        # The store remembers the round's message: the new process edits it, posts nothing new, and so
        # pings nobody again.
        assert reply.ephemeral and reply.text.endswith(f"/{turn}"), reply.text
        assert (await h2.row()).version == row.version + 1
        assert h2.public_messages() == [] and h2.shown().message_id == turn
        # The two others choose their actions at the same moment: both are played, one after the other.
        mid, game2 = await current(h2)
        others = [
            s for s in sorted(game2.seats_to_act()) if s != acted and not heist_state(game2).players[s].action
        ]
        assert others, "everyone else had already chosen"
        texts = {s: game2.bot_command(s).text for s in others}
        payloads = [h2.slash_payload("do", user=TRIO[s], command=texts[s]) for s in others]
        answers = await asyncio.gather(*(h2.feed(p) for p in payloads))
        for answer in answers:
            visible = [r for r in answer if r.type != 5 and r.kind != "edit_message"]
            assert visible and "Played" in visible[-1].text, answer  # each edits the round message
        row2, game2 = await current(h2)
        assert row2.version == mid.version + len(others)
        assert {(e.seat, e.text) for e in game2.log[-len(others) :]} == set(texts.items())
        rec = await play_as_members(h2, TRIO)
        row, game = await current(h2)
        assert row.status == "finished" and game.outcome is not None and rec.boards
        for board in rec.boards:
            check_board(board, row)
        log = await h2.bot.store.command_log(row.id)
        assert [x.seq for x in log] == list(range(1, row.version + 1))
        assert game.replay().to_json() == game.to_json()
        records = await h2.bot.store.campaign_records(str(GUILD), "heist")
        assert records["*"].game_id == row.id
        assert_discord_limits(h2)
    finally:
        await h2.close()


async def test_a_typed_escape_call_is_confirmed_first(harness: Harness) -> None:
    """Calling the escape cannot be taken back: typed with /do it is asked about privately first; Cancel
    changes nothing, Confirm plays it."""
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist", scenario=HEIST)
    for seat in ("p2", "p3"):
        await h.slash("game join", user=ALICE, seat=seat)
    await h.slash("game start", user=ALICE)
    for _ in range(600):
        row, game = await current(h)
        assert row.status == "playing"
        callers = [
            s for s in sorted(game.seats_to_act()) if "escape" in {c.verb for c in game.legal_commands(s)}
        ]
        if callers:
            break
        seat = sorted(game.seats_to_act())[0]
        command = game.bot_command(seat).text
        if command.startswith("escape"):
            command = next(c.text for c in game.legal_commands(seat) if c.verb != "escape")
        await h.slash("do", user=ALICE, command=command, seat=seat)
    else:
        raise AssertionError("the escape call never became legal")
    seat = callers[0]
    call = next(c.text for c in game.legal_commands(seat) if c.verb == "escape")
    asked = await h.slash("do", user=ALICE, command=call, seat=seat)
    assert asked.ephemeral and "cannot be taken back" in asked.content
    assert (await h.row()).version == row.version
    cancel = next(c for c in asked.custom_ids if c.startswith("esc:no:"))
    await h.click(cancel, user=ALICE)
    assert (await h.row()).version == row.version
    asked = await h.slash("do", user=ALICE, command=call, seat=seat)
    await h.confirm(asked, user=ALICE)
    row2, game2 = await current(h)
    assert row2.version > row.version and (game2.log[row.version].seat, game2.log[row.version].text) == (
        seat,
        call,
    )


async def test_the_round_list_stays_with_the_seats_still_to_choose(harness: Harness) -> None:
    """After one answer of a round the turn message is edited: its round list stays, naming only the
    seats still to choose (a phone player scrolling back sees who the round waits for)."""
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist", scenario=HEIST)
    for seat in ("p2", "p3"):
        await h.slash("game join", user=ALICE, seat=seat)
    await h.slash("game start", user=ALICE)
    for _ in range(300):
        row, game = await current(h)
        waiting = sorted(s for d in game.awaiting() if d.kind == "simultaneous" for s in d.seats)
        if len(waiting) >= 2:
            break
        seat = sorted(game.seats_to_act())[0]
        await h.do_confirmed(ALICE, game.bot_command(seat).text, seat=seat)
    else:
        raise AssertionError("no round with two seats to choose")
    first = waiting[0]
    command = next(c.text for c in game.legal_commands(first) if c.verb not in ("escape", "deck", "undo"))
    await h.slash("do", user=ALICE, command=command, seat=first)
    row2, game2 = await current(h)
    still = sorted(s for d in game2.awaiting() if d.kind == "simultaneous" for s in d.seats)
    titles = ("A new round", "Still choosing this round")
    listing = next(e for e in h.shown().embeds if str(e.get("title", "")).startswith(titles))
    assert still and sorted(f["name"] for f in listing["fields"]) == still


async def test_status_names_the_crew_and_tells_a_choice_every_seat_shares_once(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist")
    await h.slash("game start", user=ALICE, bot=True)
    game = load_game((await h.row()).snapshot)
    names = {p["seat"]: p["nickname"] for p in game.view(None)["players"]}
    status = await h.slash("game status", user=BOB)
    assert status.ephemeral and game.ruleset.scenario(game.scenario).name in status.text
    seats = field_value(status, "Seats").split("\n")
    assert seats[0] == f"<@{ALICE}> (p1, {names['p1']})" and f"🤖 p2, {names['p2']}" in seats
    made = field_value(status, "Choices")
    assert "Crew member: Automatic (the recommended crew first) (every seat)" in made
    assert " - " not in made and not made.endswith("-")  # nothing chosen, nothing told


async def test_a_round_tells_once_what_every_seat_may_do(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist", opponent=BOB)
    await h.click(f"esc:join:{(await h.row()).id}:p3", user=CAROL)
    await h.slash("game start", user=ALICE)
    users = {"p1": ALICE, "p2": BOB, "p3": CAROL}
    for _ in range(80):  # the plan, until the first action round opens
        row, game = await current(h)
        if heist_state(game).phase == "action":
            break
        seat = sorted(game.seats_to_act())[0]
        await h.slash("do", user=users[seat], command=game.bot_command(seat).text, seat=seat)
    embed = round_embed(h.shown())
    assert embed is not None and heist_state(game).phase == "action"
    # The round's embed says who answers: the narration above it has no "Next" field repeating it.
    assert not [f for e in h.shown().embeds for f in e.get("fields", []) if f["name"] == "Next"]
    labels = {s: [c.label for c in game.legal_commands(s)] for s in ("p1", "p2", "p3")}
    every = [x for x in labels["p1"] if all(x in v for v in labels.values())]
    assert every and any("escape" in x for x in every)
    assert "Any of you: " + " · ".join(every) in embed["description"]
    for f in embed["fields"]:  # each seat lists its own options only
        assert not any(x in f["value"] for x in every), f
        assert next(x for x in labels[f["name"]] if x not in every) in f["value"]


async def test_reading_the_deck_answers_privately_and_stores_nothing(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist")
    await h.slash("game start", user=ALICE, bot=True)
    row, game = await current(h)
    turn = h.shown()
    shown = len(h.public_messages())
    reply = await h.slash("do", user=ALICE, command="deck")
    assert reply.ephemeral and reply.embeds, reply.text
    listing = reply.embeds[0]["description"]
    assert listing.startswith(f"• Event deck, top first: {len(heist_state(game).deck)} cards")
    first = heist_state(game).deck[0]
    assert listing.split("\n")[1].startswith(f"• 1. {heist_rules.card_name(first)}: ")  # top card first
    # Nothing stored, nothing public: the same version, the turn message as it was, no new message.
    assert (await h.row()).version == row.version and len(h.public_messages()) == shown
    assert h.shown().text == turn.text and "Event deck" not in h.shown().text


async def test_the_plan_lists_the_hexes_to_plan_once_not_a_label_each(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="heist", opponent=BOB)
    await h.click(f"esc:join:{(await h.row()).id}:p3", user=CAROL)
    await h.slash("game start", user=ALICE)
    row, game = await current(h)
    plans = [c for c in game.legal_commands("p1") if c.verb == "plan"]
    assert len(plans) > 12 and all(c.label.startswith("Plan ") for c in plans)
    listing = next(e for e in h.shown().embeds if str(e.get("title", "")).startswith("A new round"))
    mine = next(f["value"] for f in listing["fields"] if f["name"] == "p1")
    told = next(x for x in mine.split("\n")[-1].split(" · ") if x.startswith("Plan "))
    # One entry names the hexes: "Plan b2, c2, c3, … +19 (1/8)", where every label was listed before.
    assert mine.count("Plan ") == 1 and told.count(", ") == 12 and f"+{len(plans) - 12}" in told
    assert all(c.args[0] in told for c in plans[:12]) and "more (/do)" not in mine
