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
  any 5 s window of the edit queue's clock. The harness runs that clock virtually and plays commands
  back to back (a burst far faster than people tap), so the peak shows the limit holding under the
  worst burst: 1.00/s means 5 edits in 5 s, never more.

- narration: the lines of each turn message's narration as it last stood (p50, p90, max), and how many
  had their oldest lines cut to fit an embed: how much a phone user scrolls through per message.

With ``--bot LEVEL`` only the first seat is a member's: the game plays the others at that level, thinking as
the bot does (the process pool, 1 s a decision). The figures then add how long the member waited for the
first answer to each command (p50 and max, against Discord's 3 s), how many requests were acknowledged
early with the public "thinking" placeholder (``bot/deadline.py``) and how many of those placeholders
were deleted again (no new turn message to put in their place, or the placeholder showed progress), how
many first answers Discord would have refused (late), and how many placeholders were edited to show the
bot seats' progress (and how many such edits).

Usage: python bench/bench_mobile.py [--games 50] [--ruleset escape --ruleset skirm --ruleset heist] [--bot LEVEL]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import pct  # noqa: E402
from bot.deadline import DEFER_AFTER  # noqa: E402
from engine import RULESETS, Game, load_game  # noqa: E402
from tests.harness import ALICE, BOB, CAROL, Harness, Reply  # noqa: E402

MEMBERS = (ALICE, BOB, CAROL, 100_000_000_000_000_004)


def awaited_members(game: Game, seats: dict[str, int]) -> set[int]:
    """The members the game waits for now."""
    return {seats[s] for s in game.seats_to_act() if s in seats}


def new_round(before: Game, after: Game, board: bool) -> bool:
    """True when a simultaneous round opened (new seats awaited, or a board event: the round ended)."""
    sim_before = {s for d in before.awaiting() if d.kind == "simultaneous" for s in d.seats}
    sim_after = {s for d in after.awaiting() if d.kind == "simultaneous" for s in d.seats}
    return bool(sim_after) and (board or not sim_after <= sim_before)


async def play(
    h: Harness, ruleset: str, channel: int, stats: dict[str, float], bot: str | None = None
) -> list[float]:
    """One whole game in ``channel``, counting into ``stats``; ``bot``: the level the game plays every seat
    but the first at (None: members play them all). Returns the seconds from each /do to its first answer."""
    rs = RULESETS[ruleset]
    seats_list = rs.seats[: rs.min_seats or len(rs.seats)]
    seats = dict(zip(seats_list[:1] if bot else seats_list, MEMBERS, strict=False))
    waits: list[float] = []
    await h.slash("game new", user=ALICE, ruleset=ruleset, channel=channel)
    for seat in seats_list[1:]:
        if bot:
            await h.slash("game join", user=ALICE, seat=seat, bot=True, level=bot, channel=channel)
        else:
            await h.slash("game join", user=seats[seat], seat=seat, channel=channel)
    started = await h.slash("game start", user=ALICE, channel=channel)
    if (await h.row(channel)).status != "playing":
        raise RuntimeError(f"{ruleset} did not start: {started.content}")
    for _ in range(5000):
        row = await h.row(channel)
        if row.status != "playing":
            break
        game = load_game(row.snapshot)
        seat = sorted(s for s in game.seats_to_act() if s in seats)[0]
        user = seats[seat]
        start = len(h.replies)
        asked = await h.slash(
            "do", user=user, command=game.bot_command(seat).text, seat=seat, channel=channel
        )
        if any(c.startswith("esc:ok:") for c in asked.custom_ids):  # "cannot be taken back. Sure?"
            await h.confirm(asked, user=user, channel=channel)
        after_row = await h.row(channel)
        if after_row.version == row.version:  # refused: the engine's own choice should always be legal
            raise RuntimeError(
                f"{ruleset}: {seat}'s {game.bot_command(seat).text!r} was refused: {h.replies[-1].content}"
            )
        after = load_game(after_row.snapshot)
        replies = h.replies[start:]
        firsts: dict[int | None, Reply] = {}  # each request's first answer (a confirm click is a second one)
        for r in replies:
            if r.kind in ("callback", "refused"):
                firsts.setdefault(r.interaction_id, r)
        for iid, first in firsts.items():
            waited = first.at - h._fed_at[iid or 0]
            waits.append(waited)
            stats["placeholders"] += first.type == 5 and waited >= DEFER_AFTER  # not a board's own deferral
        stats["deleted"] += sum(r.kind == "delete_original" for r in replies)
        progress = [r for r in replies if r.kind == "edit_original"]
        stats["progress"] += len(progress)
        stats["progressed"] += len({r.interaction_id for r in progress})
        stats["refused"] += sum(r.kind == "refused" for r in replies)
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
        if new_round(game, after, board):
            handed = awaited_members(after, seats)
        handed -= {user}
        stats["handed"] += len(handed)
        stats["pings"] += len(pinged)
        stats["self_pings"] += pinged.count(user)
        stats["commands"] += 1
    return waits


def last_narrations(h: Harness) -> list[str]:
    """The narration (first embed's description) of every public game message, as it last stood."""
    last: dict[int, str] = {}
    for r in h.replies:
        if r.embeds and not r.ephemeral and r.message_id and r.embeds[0].get("description"):
            last[r.message_id] = str(r.embeds[0]["description"])
    return list(last.values())


async def main(rulesets: list[str], games: int, bot: str | None = None) -> None:
    print(f"{games} random whole games per ruleset through the offline harness (members play by /do)"
          + (f"; the game plays every seat but the first at {bot}" if bot else ""))  # fmt: skip
    for ruleset in rulesets:
        t0 = time.perf_counter()
        keys = ("games", "public", "units", "handed", "pings", "self_pings", "commands")
        stats = dict.fromkeys((*keys, "setup_public", "setup_steps", "reaction_public"), 0.0)
        stats |= dict.fromkeys(("placeholders", "deleted", "refused", "progress", "progressed"), 0.0)
        waits: list[float] = []
        narrations: list[str] = []
        requested = sent = 0
        peak = 0.0
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(games):  # a fresh server each game: no campaign record carries over
                async with Harness(Path(tmp) / f"bench{n}.sqlite", seed=1000 + n) as h:
                    waits += await play(h, ruleset, h.new_channel(), stats, bot)
                    narrations += last_narrations(h)
                    queue = h.bot.edits
                    requested, sent = requested + queue.requested, sent + queue.sent
                    peak = max(peak, queue.peak_rate())
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
        print(
            f"  edits: {requested} requested, {sent} sent ({sent / max(1, stats['commands']):.2f} per command); "
            f"peak edits per second per channel (5 s window, queue clock): {peak:.2f}"
        )
        sizes = sorted(text.count("\n") + 1 for text in narrations) or [0]
        print(
            f"  narration per turn message: p50 {pct(sizes, 50)} lines, p90 {pct(sizes, 90)}, max {sizes[-1]} "
            f"({len(narrations)} messages; cut to fit: {sum(t.startswith('…') for t in narrations)})"
        )
        if bot:
            waits.sort()
            print(
                f"  first answer to a command: p50 {waits[len(waits) // 2]:.2f} s, max {waits[-1]:.2f} s; "
                f"early placeholders {int(stats['placeholders'])} (deleted again {int(stats['deleted'])}); "
                f"refused as late: {int(stats['refused'])}; placeholders showing progress "
                f"{int(stats['progressed'])} ({int(stats['progress'])} progress edits)"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--ruleset", action="append", default=None)
    parser.add_argument("--bot", choices=("easy", "normal", "hard"), default=None)
    args = parser.parse_args()
    asyncio.run(main(args.ruleset or ["escape", "skirm", "heist"], args.games, args.bot))
