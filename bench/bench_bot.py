"""Bot figures through the offline harness: 500 games live in 500 channels, latency from payload to the
captured reply for a command without an image (an ESCAPE move) and for one that posts the board (an
activation or round ending), render time and size, and the process's resident memory.

Any registered ruleset can be measured (``--ruleset skirm``): one game is played by members through the
harness (one member per seat, commands chosen by the engine's own policy) to a mid-game position, copied
into every channel, then played on in turn.

Usage: python bench/bench_bot.py [--ruleset escape] [--scenario ID] [--games 500] [--samples 400] [--warmup N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.figures import pct  # noqa: E402
from bot import render  # noqa: E402
from engine import Game, find_ruleset, load_game  # noqa: E402
from tests.harness import ALICE, BOB, CAROL, Harness  # noqa: E402

DAVE = 100_000_000_000_000_004
MEMBERS = (ALICE, BOB, CAROL, DAVE)


def rss_mb() -> float:
    """Resident memory of this process in MB (VmRSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def timed(h: Harness, channel: int | None, user: int, seat: str, text: str) -> tuple[float, bool]:
    """Milliseconds from feeding /do to the last captured reply, and whether it carried an image."""
    payload = h.slash_payload("do", user=user, channel=channel, command=text, seat=seat)
    t0 = time.perf_counter()
    replies = await h.feed(payload)
    final = h._final(replies, payload)
    if (
        final.ephemeral and "Played" not in final.content
    ):  # a move inside an activation is acknowledged privately
        raise RuntimeError(f"refused: {text!r} for {seat}: {final.content}")
    return (max(r.at for r in replies) - t0) * 1000, bool(final.files)


def next_command(game: Game, *, moves_wanted: bool) -> tuple[str, str]:
    """(seat, command text) for the first awaited seat: a move while moves are wanted, else an end
    (which posts the board in ESCAPE and Skirm), else the engine policy's command."""
    seat = sorted(game.seats_to_act())[0]
    legal = game.legal_commands(seat)
    move = next((c for c in legal if c.verb == "move"), None)
    if move is not None and moves_wanted:
        return seat, move.text
    end = next((c for c in legal if c.verb == "end"), None)
    return seat, (end or game.bot_command(seat)).text


def has_move(game: Game) -> bool:
    """True when an awaited seat may play a ``move`` command."""
    return any(c.verb == "move" for s in game.seats_to_act() for c in game.legal_commands(s))


async def seed_game(
    h: Harness, ruleset: str, scenario: str | None, warmup: int
) -> tuple[str, dict[str, int]]:
    """Play one game through the harness until a move is possible (at most ``warmup`` commands); its
    snapshot and seat → member."""
    rs = find_ruleset(ruleset)
    await h.slash("game new", user=ALICE, ruleset=rs.id, scenario=scenario)
    for seat, member in zip(rs.seats[1:], MEMBERS[1:], strict=False):
        await h.slash("game join", user=member, seat=seat)
    await h.slash("game start", user=ALICE)
    for _ in range(warmup):
        row = await h.row()
        game = load_game(row.snapshot)
        if game.outcome is not None or has_move(game):
            break
        seat = sorted(game.seats_to_act())[0]
        await timed(h, None, int(row.seats[seat]), seat, game.bot_command(seat).text)
    row = await h.row()
    if row.status != "playing":
        sys.exit("the seed game ended before a mid-game position was reached")
    return row.snapshot, {s: int(who) for s, who in row.seats.items() if who and who != "bot"}


async def main(ruleset: str, scenario: str | None, games: int, samples: int, warmup: int) -> None:
    """Run the benchmark and print the figures."""
    if render.get_renderer() is None:
        sys.exit("renderer.render is not installed: nothing to measure the image path with")
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(Path(tmp) / "bench.db")
        await h.start()
        snapshot, members = await seed_game(h, ruleset, scenario, warmup)
        seed_row = await h.row()
        channels = []
        for _ in range(games):  # copies of the position, each a live game; most not in memory
            cid = h.new_channel()
            row = await h.bot.store.create_game(
                guild_id=None,
                channel_id=str(cid),
                ruleset=seed_row.ruleset,
                scenario=seed_row.scenario,
                creator_id=str(ALICE),
                seats=seed_row.seats,
                now=time.time(),
            )
            await h.bot.store.update_game(
                row.id, expected_version=0, now=time.time(), status="playing", snapshot=snapshot
            )
            channels.append(cid)
        h.replies.clear()
        h.messages.clear()

        plain: list[float] = []
        images: list[float] = []
        i = 0
        while (len(plain) < samples or len(images) < samples) and i < samples * 20:
            cid = channels[i % len(channels)]
            i += 1
            row = await h.bot.store.live_game(str(cid))
            if row is None:
                continue
            game = load_game(row.snapshot or "")
            if game.outcome is not None or not game.seats_to_act():
                continue
            seat, text = next_command(game, moves_wanted=len(plain) < samples)
            ms, img = await timed(h, cid, members[seat], seat, text)
            bucket = images if img else plain
            if len(bucket) < samples:
                bucket.append(ms)
            h.replies.clear()
            h.messages.clear()

        scene = load_game(snapshot).scene(None)
        renderer = render.get_renderer()
        assert renderer is not None
        times = []
        for _ in range(50):
            t = time.perf_counter()
            png = renderer(scene)
            times.append((time.perf_counter() - t) * 1000)
        name = find_ruleset(ruleset).name
        print(f"{name}: games live: {games} in {games} channels; in memory: {h.bot.games.cached_games()}")
        for label, values in (("command       ", plain), ("with image    ", images)):
            if values:
                print(
                    f"{label} n={len(values):4d}  p50 {statistics.median(values):6.1f} ms"
                    f"  p99 {pct(values, 99):6.1f} ms"
                )
        w, hgt = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        print(f"render board {w}×{hgt}: p50 {statistics.median(times):.1f} ms, {len(png) / 1024:.1f} KB")
        print(f"resident memory: {rss_mb():.0f} MB")
        await h.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", default="escape")
    parser.add_argument("--scenario", default=None)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=400, help="commands at most before measuring")
    ns = parser.parse_args()
    asyncio.run(main(ns.ruleset, ns.scenario, ns.games, ns.samples, ns.warmup))
