"""Mobile-first figures over random whole games through the offline harness (issue 9).

For each ruleset, ``--games`` games are played from /game new to the result by members (one per seat;
each command the engine's own seeded policy chooses, sent with /do), and the bot's captured HTTP calls
are counted:

- new public messages per activation (ESCAPE, Skirm) or per round (heist): messages posted while the
  game runs after its setup (not the lobby, not the result) divided by the activations/rounds that ended
  (a board post), with how many of them ask or follow a reaction; setup steps are counted apart;
- pings per hand-over: members mentioned divided by the members a decision passed to (awaited after a
  command and not before it, or every member of a simultaneous round that opened), the command's
  author excepted; self-pings: mentions of the member whose command it was, while the game runs;
- edits: edit requests and edits sent (coalesced), and the peak edits per second in one channel over
  any 5 s window of the edit queue's clock (the harness runs that clock virtually: a burst costs no
  waiting, but the limit is enforced exactly as live).

Usage: python bench/bench_mobile.py [--games 50] [--ruleset escape --ruleset skirm --ruleset heist]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import RULESETS, Game, load_game  # noqa: E402
from tests.harness import ALICE, BOB, CAROL, Harness  # noqa: E402

MEMBERS = (ALICE, BOB, CAROL, 100_000_000_000_000_004)


def awaited_members(game: Game, seats: dict[str, int]) -> set[int]:
    """The members the game waits for now."""
    return {seats[s] for s in game.seats_to_act() if s in seats}


def new_round(before: Game, after: Game) -> bool:
    """True when a simultaneous round opened (new seats awaited, or a board event)."""
    sim_before = {s for d in before.awaiting() if d.kind == "simultaneous" for s in d.seats}
    sim_after = {s for d in after.awaiting() if d.kind == "simultaneous" for s in d.seats}
    return bool(sim_after) and (not sim_after <= sim_before)


async def play(h: Harness, ruleset: str, channel: int, stats: dict[str, float]) -> None:
    """One whole game in ``channel``, counting into ``stats``."""
    rs = RULESETS[ruleset]
    seats_list = rs.seats[: rs.min_seats or len(rs.seats)]
    seats = dict(zip(seats_list, MEMBERS, strict=False))
    await h.slash("game new", user=ALICE, ruleset=ruleset, channel=channel)
    for seat in seats_list[1:]:
        await h.slash("game join", user=seats[seat], seat=seat, channel=channel)
    await h.slash("game start", user=ALICE, channel=channel)
    for _ in range(5000):
        row = await h.row(channel)
        if row.status != "playing":
            break
        game = load_game(row.snapshot)
        seat = sorted(s for s in game.seats_to_act() if s in seats)[0]
        user = seats[seat]
        start = len(h.replies)
        await h.slash("do", user=user, command=game.bot_command(seat).text, seat=seat, channel=channel)
        after_row = await h.row(channel)
        after = load_game(after_row.snapshot)
        replies = h.replies[start:]
        public = [
            r
            for r in replies
            if r.channel_id == channel
            and not r.ephemeral
            and (r.kind in ("channel", "followup") or (r.kind == "callback" and r.type == 4))
        ]
        pinged = [int(u) for r in public for u in (r.data.get("allowed_mentions") or {}).get("users", [])]
        if after_row.status != "playing":
            stats["games"] += 1
            continue  # the result message pings every player by design
        board = any(r.files for r in public)
        if any(d.kind == "setup" for d in game.awaiting()):
            stats["setup_public"] += len(public)
            stats["setup_steps"] += 1
        else:
            stats["public"] += len(public)
            stats["units"] += 1 if board else 0
            stats["reaction_public"] += (
                len(public) if any(d.kind == "reaction" for d in after.awaiting() + game.awaiting()) else 0
            )
        handed = awaited_members(after, seats) - awaited_members(game, seats)
        if new_round(game, after):
            handed = awaited_members(after, seats)
        handed -= {user}
        stats["handed"] += len(handed)
        stats["pings"] += len(pinged)
        stats["self_pings"] += pinged.count(user)
        stats["commands"] += 1


async def main(rulesets: list[str], games: int) -> None:
    print(f"{games} random whole games per ruleset through the offline harness (members play by /do)")
    for ruleset in rulesets:
        t0 = time.perf_counter()
        keys = ("games", "public", "units", "handed", "pings", "self_pings", "commands")
        stats = dict.fromkeys((*keys, "setup_public", "setup_steps", "reaction_public"), 0.0)
        with tempfile.TemporaryDirectory() as tmp:
            async with Harness(Path(tmp) / "bench.sqlite", seed=1000) as h:
                for _ in range(games):
                    await play(h, ruleset, h.new_channel(), stats)
                    h.replies.clear()
                    h.messages.clear()
                queue = h.bot.edits
                sent = len(queue.history)
                peak = queue.peak_rate()
        unit = "round" if ruleset == "heist" else "activation"
        print(
            f"{RULESETS[ruleset].name}: {int(stats['games'])} games, {int(stats['commands'])} commands, "
            f"{time.perf_counter() - t0:.0f} s"
        )
        print(
            f"  new public messages per {unit}: {stats['public'] / max(1, stats['units']):.2f} "
            f"({int(stats['public'])} messages, {int(stats['units'])} {unit}s ended; "
            f"{int(stats['reaction_public'])} of those messages ask or follow a reaction)"
        )
        if stats["setup_steps"]:
            print(
                f"  setup: {stats['setup_public'] / stats['setup_steps']:.2f} new public messages per setup step "
                f"({int(stats['setup_public'])} for {int(stats['setup_steps'])} steps)"
            )
        print(
            f"  pings per hand-over: {stats['pings'] / max(1, stats['handed']):.2f} "
            f"({int(stats['pings'])} pings, {int(stats['handed'])} hand-overs); self-pings: {int(stats['self_pings'])}"
        )
        print(f"  edits sent: {sent} (last 10,000 kept); peak edits per second per channel: {peak:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--ruleset", action="append", default=None)
    args = parser.parse_args()
    asyncio.run(main(args.ruleset or ["escape", "skirm", "heist"], args.games))
