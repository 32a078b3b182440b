"""Bot figures through the offline harness: 500 games live in 500 channels, latency from payload to the
captured reply for a move and for a move that ends an activation (with the board image), render time
and size, and the process's resident memory.

Usage: python bench/bench_bot.py [--games 500] [--samples 400]
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

from bot import render  # noqa: E402
from engine import load_game  # noqa: E402
from tests.harness import ALICE, BOB, Harness, play_turns  # noqa: E402

SEATS = {"resistance": ALICE, "isc": BOB}


def rss_mb() -> float:
    """Resident memory of this process in MB (VmRSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


async def timed(h: Harness, channel: int, user: int, text: str) -> tuple[float, bool]:
    """Milliseconds from feeding /do to the last captured reply, and whether it carried an image."""
    payload = h.slash_payload("do", user=user, channel=channel, command=text)
    t0 = time.perf_counter()
    replies = await h.feed(payload)
    final = h._final(replies, payload)
    return (final.at - t0) * 1000, bool(final.files)


async def main(games: int, samples: int) -> None:
    """Run the benchmark and print the figures."""
    if render.get_renderer() is None:
        sys.exit("renderer.render is not installed: nothing to measure the image path with")
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(Path(tmp) / "bench.db")
        await h.start()
        # One game played by the members through the harness to a mid-game activation with moves ...
        await h.slash("game new", user=ALICE, ruleset="escape", opponent=BOB)
        last = await h.slash("game start", user=ALICE)

        def has_move(game: object) -> bool:
            return any(
                c.verb == "move"
                for s in game.seats_to_act()  # type: ignore[attr-defined]
                for c in game.legal_commands(s)  # type: ignore[attr-defined]
            )

        await play_turns(h, last, limit=400, until=has_move)
        seed_row = await h.row()
        assert seed_row.snapshot is not None
        # ... copied into ``games`` channels (each a live game in the store; most not in memory).
        channels = []
        for _ in range(games):
            cid = h.new_channel()
            row = await h.bot.store.create_game(
                guild_id=None,
                channel_id=str(cid),
                ruleset="escape",
                scenario=seed_row.scenario,
                creator_id=str(ALICE),
                seats=seed_row.seats,
                now=time.time(),
            )
            await h.bot.store.update_game(
                row.id, expected_version=0, now=time.time(), status="playing", snapshot=seed_row.snapshot
            )
            channels.append(cid)
        h.replies.clear()
        h.messages.clear()

        moves: list[float] = []
        ends: list[float] = []
        i = 0
        while (len(moves) < samples or len(ends) < samples) and i < samples * 20:
            cid = channels[i % len(channels)]
            i += 1
            row = await h.bot.store.live_game(str(cid))
            if row is None:
                continue
            game = load_game(row.snapshot or "")
            if game.outcome is not None:
                continue
            seat = sorted(game.seats_to_act())[0]
            user = SEATS[seat]
            legal = game.legal_commands(seat)
            move = next((c for c in legal if c.verb == "move"), None)
            if move is not None and len(moves) < samples:
                ms, _img = await timed(h, cid, user, move.text)
                moves.append(ms)
                continue
            if any(c.verb == "end" for c in legal):
                ms, img = await timed(h, cid, user, "end")
                if img:
                    ends.append(ms)
                continue
            await timed(h, cid, user, game.bot_command(seat).text)  # setup or reaction: not measured
            h.replies.clear()
            h.messages.clear()
            if len(h.replies) > 1000:
                h.replies.clear()

        scene = load_game(seed_row.snapshot).scene(None)
        renderer = render.get_renderer()
        assert renderer is not None
        times = []
        for _ in range(50):
            t = time.perf_counter()
            png = renderer(scene)
            times.append((time.perf_counter() - t) * 1000)
        print(f"games live: {games} in {games} channels; in memory: {h.bot.games.cached_games()}")
        print(
            f"move          n={len(moves):4d}  p50 {statistics.median(moves):6.1f} ms  p99 {pct(moves, 99):6.1f} ms"
        )
        if ends:
            print(
                f"end + image   n={len(ends):4d}  p50 {statistics.median(ends):6.1f} ms  p99 {pct(ends, 99):6.1f} ms"
            )
        print(f"render ESCAPE board: p50 {statistics.median(times):.1f} ms, {len(png) / 1024:.1f} KB")
        print(f"resident memory: {rss_mb():.0f} MB")
        await h.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--samples", type=int, default=400)
    ns = parser.parse_args()
    asyncio.run(main(ns.games, ns.samples))
