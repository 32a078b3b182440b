"""Crash safety of the SQLite store: a bot process playing ESCAPE in two channels is killed with SIGKILL at
random moments and started again on the same database file, many times.

The child process drives the bot through the offline harness and prints one line per command it saw
acknowledged (the reply captured). After every kill the parent checks the database: SQLite's integrity
check, every acknowledged command present in the log exactly once (interaction ids unique), and every
game's stored position equal to a replay of its log. Printed: kills, commands acknowledged, lost, doubled,
games whose log does not replay, integrity failures.

Usage: python bench/bench_crash.py [--kills 60] [--min-ms 150] [--max-ms 900] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import full_snapshot  # noqa: E402
from engine import load_game  # noqa: E402

CHANNELS = 2


async def child(database: str, seed: int) -> None:
    """Play until killed: in each channel a game between two members, commands by the engine's policy."""
    from tests.harness import ALICE, BOB, Harness

    async with Harness(database, seed=seed) as h:
        channels = [900_000_000_000_000_500 + i for i in range(CHANNELS)]  # the same ones after a restart
        for channel in channels:
            h.add_channel(channel)
        members = {str(ALICE): ALICE, str(BOB): BOB}
        turn = 0
        while True:
            channel = channels[turn % CHANNELS]
            turn += 1
            row = await h.bot.store.live_game(str(channel))
            if row is None:
                await h.slash("game new", user=ALICE, channel=channel, ruleset="escape", opponent=BOB)
                await h.slash("game start", user=ALICE, channel=channel)
                continue
            if row.status != "playing" or row.snapshot is None:
                continue
            game = h.bot.games.load(row)
            seats = sorted(game.seats_to_act())
            if not seats:
                continue
            seat = seats[0]
            text = game.bot_command(seat).text
            payload = h.slash_payload("do", user=members[str(row.seats[seat])], channel=channel, command=text)
            await h.feed(payload)
            after = await h.bot.store.get_game(row.id)
            if after is not None and after.version > row.version:
                print(json.dumps({"game": row.id, "interaction": payload["id"]}), flush=True)


def check(database: str, acked: list[dict[str, str]]) -> tuple[int, int, int, bool]:
    """(lost, doubled, games not replaying, integrity ok) for the database after a kill."""
    con = sqlite3.connect(database)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        ids = [
            r[0] for r in con.execute("SELECT interaction_id FROM commands WHERE interaction_id IS NOT NULL")
        ]
        stored = set(ids)
        lost = sum(1 for a in acked if str(a["interaction"]) not in stored)
        doubled = len(ids) - len(stored)
        bad = 0
        for game_id, snapshot, version in con.execute(
            "SELECT id, snapshot, version FROM games WHERE snapshot IS NOT NULL"
        ).fetchall():
            rows = con.execute(
                "SELECT seq, seat, text FROM commands WHERE game_id = ? ORDER BY seq", (game_id,)
            )

            class Line:
                def __init__(self, seq: int, seat: str, text: str) -> None:
                    self.seq, self.seat, self.text = seq, seat, text

            whole = full_snapshot(snapshot, version, [Line(*r) for r in rows])  # type: ignore[arg-type]
            game = load_game(whole)
            if game.replay().to_json() != game.to_json():
                bad += 1
        return lost, doubled, bad, ok
    finally:
        con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--min-ms", type=int, default=150)
    parser.add_argument("--max-ms", type=int, default=900)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", default="")
    args = parser.parse_args()
    if args.child:
        asyncio.run(child(args.child, args.seed))
        return
    pick = random.Random(args.seed)
    database = str(Path(tempfile.mkdtemp()) / "crash.db")
    acked: list[dict[str, str]] = []
    lost = doubled = bad = broken = 0
    started = time.perf_counter()
    for kill in range(args.kills):
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", database, "--seed", str(args.seed + kill)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        time.sleep(1.0 + pick.uniform(args.min_ms, args.max_ms) / 1000)  # start-up, then a random moment
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        acked += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        lost, doubled, bad, ok = check(database, acked)
        broken += 0 if ok else 1
    elapsed = time.perf_counter() - started
    print(f"SIGKILLs: {args.kills} in {elapsed:.0f} s; commands acknowledged: {len(acked)}")
    print(f"lost: {lost}  applied twice: {doubled}  games not replaying: {bad}  integrity failures: {broken}")


if __name__ == "__main__":
    main()
