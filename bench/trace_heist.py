"""Replay one heist game of the AI bench and print what the crew did, command by command.

The game is the one ``bench_ai.py --section heist`` plays for the same heist, seed, crew and budget (same
search seeds, same options), so a game the ledger records can be read move by move: each command with the
character's tile, then at every round's start the noise, the event cards left, the least work left
(``job_steps``), where each character stands and what it carries.

Usage: python bench/trace_heist.py HEIST_ID SEED [--crew hard] [--hard 376] [--level 0] [--rounds N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_ai import DIFFICULTY_LEVEL  # noqa: E402
from engine import RULESETS, new_game  # noqa: E402
from engine.ai.levels import level_budget, search_seed  # noqa: E402
from engine.ai.search import Searcher  # noqa: E402
from engine.rulesets.heist import campaign  # noqa: E402
from engine.rulesets.heist.content import load_content  # noqa: E402
from engine.rulesets.heist.search import job_steps  # noqa: E402
from engine.rulesets.heist.state import HeistState  # noqa: E402


def crew_line(st: HeistState) -> str:
    """Each character's seat, tile (or status), ideas and what it carries."""
    out = []
    for p in st.players.values():
        where = p.pos if p.status == "in" else p.status
        things = ",".join(p.loot + p.items) + (f",${p.cash}k" if p.cash else "")
        out.append(f"{p.seat}:{p.character}@{where} i{p.ideas}" + (f"[{things}]" if things else ""))
    return "  ".join(out)


def tiles_line(st: HeistState) -> str:
    """What lies on each tile of a plan or a character's: its chits (upper case when active), marks."""
    shown = sorted({n for p in st.players.values() for n in [p.pos, *p.plans] if n})
    out = []
    for n in shown:
        t = st.tiles.get(n)
        if t is None or n in st.removed:
            out.append(f"{n}:gone")
            continue
        chits = "".join(c.kind[0].upper() if c.active else c.kind[0] for c in t.chits)
        out.append(f"{n}:{'?' if t.unknown else ''}{chits}{'/' + ','.join(t.marks) if t.marks else ''}")
    return " ".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("heist")
    ap.add_argument("seed", type=int)
    ap.add_argument("--crew", default="hard")
    ap.add_argument("--hard", type=int, default=376, help="playouts a decision (the bench's --hard)")
    ap.add_argument("--level", type=int, default=0, help="the crew's level; 0 for the heist's difficulty")
    ap.add_argument("--rounds", type=int, default=99, help="stop after this round")
    ap.add_argument("--visits", action="store_true", help="print the search's most visited commands")
    a = ap.parse_args()
    difficulty = load_content().heists[a.heist].difficulty
    record = campaign.levelled_crew(a.level or DIFFICULTY_LEVEL[difficulty], 0)
    options = {"campaign": {"*": record}} if record else None
    seats = RULESETS["heist"].seats[:4]
    game = new_game("heist", scenario=a.heist, seed=a.seed, seats={s: None for s in seats}, options=options)
    budget = level_budget(a.crew, "heist", a.hard)
    searcher = Searcher(game.ruleset, budget) if budget else None
    shown_round = -1
    for _ in range(4000):
        if game.outcome is not None:
            break
        st: HeistState = game.state
        if st.round > a.rounds:
            break
        if st.round != shown_round and st.phase == "action":
            shown_round = st.round
            steps, parts = job_steps(st)
            print(f"== round {st.round}: noise {st.noise}, {len(st.deck)} cards left (next {st.deck[:4]}), "
                  f"least work {steps:.1f} ({parts} parts), safe {st.safe}, removed {st.removed}")  # fmt: skip
            print("   " + crew_line(st))
            print("   plans: " + "  ".join(f"{p.seat}:{'-'.join(p.plans)}" for p in st.players.values()))
            print("   tiles: " + tiles_line(st))
        seat = game.next_bot_seat()
        if seat is None:
            break
        options = [c for c in game.legal_commands(seat) if c.verb != "react"]
        if searcher is None:
            command = game.bot_command(seat, level=a.crew)
        else:
            result = searcher.choose(st, seat, seed=search_seed(a.seed, len(game.log), seat), options=options)
            command = result.command
            if a.visits and len(options) > 1:
                top = sorted(result.visits.items(), key=lambda kv: -kv[1])[:6]
                print("      visits: " + ", ".join(f"{k} {v}" for k, v in top))
        p = st.players.get(seat)
        where = f"{p.character}@{p.pos} d{p.die}" if p else seat
        game.apply(seat, command)
        after: HeistState = game.state
        print(
            f"  r{st.round} {st.phase:<6} {where:<22} {command.text:<40} noise {after.noise} deck {len(after.deck)}"
        )
        if after.news and after.news is not st.news:
            for n in after.news:
                print(f"      * {n}")
    print(f"outcome: {game.outcome}")
    print("   " + crew_line(game.state))


if __name__ == "__main__":
    main()
