"""Scale-out figures: several bot processes sharing one PostgreSQL, driven through the offline harness.

A throwaway PostgreSQL server is started (as the tests do). One ESCAPE game is played to a mid-game
position and copied, with its log, into ``--games`` live games spread over ``--processes`` shards (one
server per game). One bot process per shard (``shards=(i,)``) then plays ``--rate`` commands a second in
all for ``--seconds``, each from payload to the captured reply (the board image included when the command
posts one). Halfway, process 0 is killed with SIGKILL and started again. Printed: latency p50/p99 with and
without the image, commands acknowledged but not stored (lost), applied twice, logs that do not replay,
resident memory per process and PostgreSQL's (PSS, shared memory counted once), the load average of the
machine, and the same load on one process with SQLite. Then bytes written per command at command 10 and
at command 300 of one game, on both stores.

Usage: python bench/bench_scale.py [--processes 4] [--games 5000] [--rate 50] [--seconds 60]
       [--no-sqlite] [--no-kill]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_bot import next_command, pct, rss_mb, seed_game  # noqa: E402
from bot.database import open_store  # noqa: E402
from bot.store import LoggedCommand, SqliteStore, Store, state_snapshot  # noqa: E402
from bot.store_pg import PostgresStore  # noqa: E402
from engine import load_game, new_game  # noqa: E402
from tests.harness import Harness  # noqa: E402
from tests.pg_server import PostgresServer, find_bindir  # noqa: E402

CHANNEL_BASE = 800_000_000_000_000_000
TASKS_PER_PROCESS = 1  # the harness captures one interaction at a time per bot


def channel_of(k: int) -> int:
    """The channel of copied game ``k``."""
    return CHANNEL_BASE + k


def guild_of(k: int, shard_count: int) -> str:
    """A server id on shard ``k % shard_count``."""
    return str((k % shard_count + shard_count * (k // shard_count + 1)) << 22)


# -- seeding ------------------------------------------------------------------------------------------
async def seed(database: str, games: int, shard_count: int, folder: Path) -> dict[str, int]:
    """Play one game to a mid-game position and copy it with its log into ``games`` live games."""
    h = Harness(folder / "seed.db")
    await h.start()
    await seed_game(h, "escape", None, 400)
    row = await h.row()
    log = await h.bot.store.command_log(row.id)
    await h.close()
    members = {s: int(who) for s, who in row.seats.items() if who and who != "bot"}
    compact = state_snapshot(load_game(row.snapshot))
    store = open_store(database)
    await store.open()
    now = time.time()
    game_rows = [
        (
            k + 1,
            guild_of(k, shard_count),
            str(channel_of(k)),
            row.ruleset,
            row.scenario,
            str(members["resistance"]),
            json.dumps(row.seats),
            "playing",
            row.version,
            compact,
            "{}",
            None,
            now,
            now,
        )
        for k in range(games)
    ]
    command_rows = [
        (k + 1, x.seq, x.seat, x.user_id, x.text, json.dumps(x.events), None, now)
        for k in range(games)
        for x in log
    ]
    games_cols = "id, guild_id, channel_id, ruleset, scenario, creator_id, seats, status, version, snapshot, settings, result, created_at, updated_at"  # fmt: skip
    commands_cols = "game_id, seq, seat, user_id, text, events, interaction_id, created_at"
    if isinstance(store, PostgresStore):
        async with store.pool.acquire() as con:
            await con.copy_records_to_table("games", records=game_rows, columns=games_cols.split(", "))
            await con.copy_records_to_table(
                "commands", records=command_rows, columns=commands_cols.split(", ")
            )
            await con.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), $1)", games + 1)
            await con.execute("ANALYZE")
    else:
        assert isinstance(store, SqliteStore)
        await store.db.execute("BEGIN")
        await store.db.executemany(
            f"INSERT INTO games ({games_cols}) VALUES ({', '.join('?' * 14)})", game_rows
        )
        await store.db.executemany(
            f"INSERT INTO commands ({commands_cols}) VALUES ({', '.join('?' * 8)})", command_rows
        )
        await store.db.execute("COMMIT")
    await store.close()
    return members


# -- one bot process ----------------------------------------------------------------------------------
async def worker(ns: argparse.Namespace) -> None:
    """One bot process: serve shard ``ns.worker`` and play its share of the load, one line per command."""
    shards = {"shards": (ns.worker,), "shard_count": ns.processes} if ns.processes > 1 else {}
    h = Harness(ns.database, notify_interval=0, **shards)
    await h.start()
    members = json.loads(ns.members)
    mine = [k for k in range(ns.games) if k % ns.processes == ns.worker]
    for k in mine:
        h.add_channel(channel_of(k))
    out = open(ns.out, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 (line-buffered: a kill loses no line)
    ticks: asyncio.Queue[float] = asyncio.Queue()
    deadline = time.monotonic() + ns.seconds
    rate = ns.rate / ns.processes

    async def pace() -> None:
        t = time.monotonic()
        while t < deadline:
            ticks.put_nowait(t)
            t += 1 / rate
            await asyncio.sleep(max(0.0, t - time.monotonic()))
        for _ in range(TASKS_PER_PROCESS):
            ticks.put_nowait(-1.0)

    async def play(share: list[int]) -> None:
        i = 0
        while True:
            tick = await ticks.get()
            if tick < 0:
                return
            for _ in range(len(share)):
                cid = channel_of(share[i % len(share)])
                i += 1
                row = await h.bot.store.live_game(str(cid))
                if row is None:
                    continue
                game = h.bot.games.load(row)
                if game.outcome is not None or not game.seats_to_act():
                    continue
                seat, text = next_command(game, moves_wanted=i % 3 != 0)
                payload = h.slash_payload("do", user=members[seat], channel=cid, command=text, seat=seat)
                t0 = time.perf_counter()
                replies = await h.feed(payload)
                final = h._final(replies, payload)
                ms = (final.at - t0) * 1000
                # Accepted: the game moved on (the answer may be a private "Played" while the turn message
                # is edited, so its visibility says nothing).
                after = await h.bot.store.get_game(row.id)
                accepted = after is not None and after.version > row.version
                line = {"iid": payload["id"], "ms": ms, "img": bool(final.files), "ok": accepted}
                line["late"] = time.monotonic() - tick
                out.write(json.dumps(line) + "\n")
                h.replies.clear()
                h.messages.clear()
                break

    shares = [mine[t::TASKS_PER_PROCESS] for t in range(TASKS_PER_PROCESS)]
    await asyncio.gather(pace(), *(play(s) for s in shares if s))
    out.write(json.dumps({"rss": rss_mb(), "cached": h.bot.games.cached_games()}) + "\n")
    out.close()
    await h.close()


# -- the run ------------------------------------------------------------------------------------------
def spawn(ns: argparse.Namespace, database: str, members: dict[str, int], i: int, seconds: float, out: Path) -> subprocess.Popen[bytes]:  # fmt: skip
    """Start bot process ``i``."""
    args = [
        sys.executable,
        __file__,
        "--worker",
        str(i),
        "--database",
        database,
        "--members",
        json.dumps(members),
    ]
    args += ["--processes", str(ns.processes), "--games", str(ns.games), "--rate", str(ns.rate)]
    args += ["--seconds", str(seconds), "--out", str(out)]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=open(f"{out}.err", "w"))  # noqa: SIM115


def pss_mb(pids: list[int]) -> float:
    """Proportional resident memory of processes in MB (shared pages divided among them)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def postgres_pids(server: PostgresServer) -> list[int]:
    """The server's processes (postmaster and backends)."""
    pid = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid, *(int(c) for c in children)]


async def check(
    database: str, acked: set[str], games: int, log_length: int, sample: int = 60
) -> dict[str, Any]:
    """Lost (acknowledged, not stored), applied twice, and whether sampled games' logs replay."""
    store = open_store(database)
    await store.open()
    if isinstance(store, PostgresStore):
        stored = {r[0] for r in await store.pool.fetch("SELECT interaction_id FROM commands WHERE interaction_id IS NOT NULL")}  # fmt: skip
        dupes = await store.pool.fetchval("SELECT count(*) FROM (SELECT interaction_id FROM commands WHERE interaction_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1) d")  # fmt: skip
        holes = await store.pool.fetchval("SELECT count(*) FROM games g WHERE version <> (SELECT count(*) FROM commands c WHERE c.game_id = g.id)")  # fmt: skip
        touched = [r[0] for r in await store.pool.fetch("SELECT id FROM games WHERE version > $1 ORDER BY random() LIMIT $2", log_length, sample)]  # fmt: skip
    else:
        assert isinstance(store, SqliteStore)
        stored = {r[0] for r in await (await store.db.execute("SELECT interaction_id FROM commands WHERE interaction_id IS NOT NULL")).fetchall()}  # fmt: skip
        dupes = (await (await store.db.execute("SELECT count(*) FROM (SELECT interaction_id FROM commands WHERE interaction_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1)")).fetchone())[0]  # fmt: skip
        holes = (await (await store.db.execute("SELECT count(*) FROM games g WHERE version <> (SELECT count(*) FROM commands c WHERE c.game_id = g.id)")).fetchone())[0]  # fmt: skip
        touched = [r[0] for r in await (await store.db.execute("SELECT id FROM games WHERE version > ? ORDER BY random() LIMIT ?", (log_length, sample))).fetchall()]  # fmt: skip
    bad = 0
    for game_id in touched:
        row = await store.get_game(game_id)
        assert row is not None
        full = await store.full_snapshot(row)
        assert full is not None
        if load_game(full).replay().to_json() != full:
            bad += 1
    await store.close()
    return {
        "lost": len(acked - stored),
        "unacked_stored": len(stored - acked),
        "twice": dupes,
        "version_log_mismatch": holes,
        "replayed": len(touched),
        "replay_bad": bad,
    }


async def run_load(ns: argparse.Namespace, database: str, processes: int, kill: bool, folder: Path, label: str) -> None:  # fmt: skip
    """Seed, run the processes (killing one halfway when asked), and print the figures."""
    ns.processes = processes
    t = time.perf_counter()
    members = await seed(database, ns.games, processes, folder)
    print(f"\n== {label}: {processes} process(es), {ns.games} live games, {ns.rate}/s for {ns.seconds:.0f} s")
    print(f"seeded in {time.perf_counter() - t:.1f} s; load average before: {os.getloadavg()}")
    outs = [folder / f"{label}-{i}.jsonl" for i in range(processes)]
    procs = {i: spawn(ns, database, members, i, ns.seconds, outs[i]) for i in range(processes)}
    while not all(out.exists() and out.stat().st_size for out in outs):  # every process is playing
        if any(p.poll() is not None for p in procs.values()):
            sys.exit(f"a bot process failed: see {folder}/*.err")
        await asyncio.sleep(0.2)
    restarted_out = folder / f"{label}-0-restarted.jsonl"
    if kill:
        await asyncio.sleep(ns.seconds / 2)
        os.kill(procs[0].pid, signal.SIGKILL)
        procs[0].wait()
        print(f"process 0 killed with SIGKILL at {ns.seconds / 2:.0f} s; restarted")
        procs[-1] = spawn(ns, database, members, 0, ns.seconds / 2, restarted_out)
        outs.append(restarted_out)
    pg_mem = pss_mb(postgres_pids(ns.server)) if isinstance(open_store(database), PostgresStore) else 0.0
    for p in procs.values():
        p.wait()
    print(f"load average after: {os.getloadavg()}")
    lines = [json.loads(x) for out in outs if out.exists() for x in out.read_text().splitlines() if x]
    done = [x for x in lines if "iid" in x]
    rss = [x["rss"] for x in lines if "rss" in x]
    ok = [x for x in done if x["ok"]]
    plain = [x["ms"] for x in ok if not x["img"]]
    images = [x["ms"] for x in ok if x["img"]]
    both = plain + images
    refused = len(done) - len(ok)
    print(
        f"commands: {len(ok)} accepted ({len(ok) / ns.seconds:.1f}/s), {refused} refused by the rules/stale"
    )
    for name, values in (("all      ", both), ("no image ", plain), ("with image", images)):
        if values:
            print(
                f"  {name} n={len(values):5d} p50 {statistics.median(values):6.1f} ms  p99 {pct(values, 99):7.1f} ms"
            )
    late = [x["late"] * 1000 for x in done]
    if late:
        print(
            f"  schedule lag (tick to answer) p50 {statistics.median(late):.0f} ms, p99 {pct(late, 99):.0f} ms"
        )
    got = await check(database, {x["iid"] for x in ok}, ns.games, 0)
    print(
        f"lost (acknowledged, not stored): {got['lost']}; applied twice: {got['twice']}; "
        f"games whose version differs from their log: {got['version_log_mismatch']}; "
        f"stored but never acknowledged (in flight at the kill): {got['unacked_stored']}"
    )
    print(
        f"logs replayed to their position: {got['replayed'] - got['replay_bad']} of {got['replayed']} sampled games"
    )
    if kill and restarted_out.exists():
        again = [json.loads(x) for x in restarted_out.read_text().splitlines() if x]
        resumed = sum(1 for x in again if x.get("ok"))
        print(f"the restarted process 0 played {resumed} commands in its games after the restart")
    print(f"resident memory per bot process: {', '.join(f'{r:.0f} MB' for r in rss)}")
    if pg_mem:
        print(f"PostgreSQL (all its processes, PSS): {pg_mem:.0f} MB")


# -- bytes per command ---------------------------------------------------------------------------------
async def bytes_per_command(database: str, label: str, server: PostgresServer | None) -> None:
    """Bytes written by command 10 and command 300 of one ESCAPE game (bots on both seats)."""
    store: Store = open_store(database)
    await store.open()
    game = new_game("escape", seed=3)
    row = await store.create_game(guild_id="1", channel_id="bytes", ruleset="escape", scenario=None, creator_id="u", seats={}, now=0.0)  # fmt: skip
    version = 0
    figures: dict[int, str] = {}
    while version < 300:
        seat = sorted(game.seats_to_act())[0]
        events = game.apply(seat, game.bot_command(seat))
        cmd = LoggedCommand(seat, None, game.log[-1].text, [{"text": e.text, "kind": e.kind} for e in events])
        snapshot = state_snapshot(game)
        wal = (
            await store.pool.fetchval("SELECT pg_current_wal_insert_lsn()")
            if isinstance(store, PostgresStore)
            else None
        )
        new = await store.update_game(
            row.id, expected_version=version, now=1.0, snapshot=snapshot, commands=[cmd]
        )
        assert new is not None
        version = new.version
        if version in (10, 300):
            values = len(snapshot) + len(cmd.text) + len(json.dumps(cmd.events, separators=(",", ":"))) + 40
            old = len(game.to_json()) + values - len(snapshot)
            text = f"values {values} B (the old whole-snapshot write: {old} B)"
            if isinstance(store, PostgresStore):
                after = await store.pool.fetchval("SELECT pg_current_wal_insert_lsn()")
                diff = await store.pool.fetchval("SELECT pg_wal_lsn_diff($1, $2)", after, wal)
                text += f", WAL {int(diff)} B"
            figures[version] = text
    await store.close()
    for v, text in figures.items():
        print(f"{label} bytes written by command {v}: {text}")


async def main(ns: argparse.Namespace) -> None:
    """Run everything and print the figures."""
    bindir = find_bindir()
    if bindir is None:
        sys.exit("PostgreSQL server binaries not found: apt-get install postgresql")
    server = PostgresServer(bindir)
    server.stop_on_sigterm()
    server.start()
    ns.server = server
    try:
        with tempfile.TemporaryDirectory(prefix="escapade-scale-") as tmp:
            folder = Path(tmp)
            print(f"(process outputs in {folder} while the run lasts)")
            print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()} (shared with other work)")
            await bytes_per_command(server.new_database(), "PostgreSQL", server)
            await bytes_per_command(str(folder / "bytes.db"), "SQLite    ", None)
            await run_load(ns, server.new_database(), ns.processes, not ns.no_kill, folder, "PostgreSQL")
            if not ns.no_sqlite:
                await run_load(ns, str(folder / "load.db"), 1, False, folder, "SQLite")
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument(
        "--rate", type=float, default=50.0, help="commands per second, all processes together"
    )
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--no-sqlite", action="store_true", help="skip the one-process SQLite run")
    parser.add_argument("--no-kill", action="store_true", help="do not kill a process halfway")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--database", default="", help=argparse.SUPPRESS)
    parser.add_argument("--members", default="{}", help=argparse.SUPPRESS)
    parser.add_argument("--out", default="", help=argparse.SUPPRESS)
    ns = parser.parse_args()
    if ns.worker is not None:
        asyncio.run(worker(ns))
    else:
        asyncio.run(main(ns))
