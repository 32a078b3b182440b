"""Hotseat play in a terminal: the same command text as the bot, narration with every die, a text board.

``./dev play escape --scenario infiltration --bot isc`` (or ``escapade play ...``). Type ``?`` for the legal
commands (a page at a time: ``?`` again for the next page, ``? move`` for those containing "move"),
``board`` to redraw, ``help [topic]`` for rules help, ``quit`` to stop. Reads commands from standard
input, so a file of commands can be piped in.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from typing import TextIO

from engine import RULESETS, Event, Game, RuleError, new_game
from engine.ai.levels import DEFAULT_LEVEL, LEVELS
from engine.rulesets.escape.content import next_scenario


def narrate(events: Iterable[Event], out: TextIO) -> bool:
    """Print events; return True when one of them asks for the board to be shown."""
    show = False
    for e in events:
        dice = f"  [dice: {' '.join(map(str, e.dice))}]" if e.dice else ""
        print(f"  {e.text}{dice}", file=out)
        show = show or e.board
    return show


PAGE = 30


class Pager:
    """Pages through the legal commands: each ``?`` shows the next page of the same listing, until the
    position or the filter changes; every page says how many commands there are and whether more follow."""

    def __init__(self, size: int = PAGE) -> None:
        self.size = size
        self.key: tuple[int, str] | None = None
        self.offset = 0

    def page(self, game: Game, seats: list[str], query: str) -> list[str]:
        """The next page of ``seats``' legal commands containing ``query`` (all if empty), as lines."""
        key = (len(game.log), query)
        if key != self.key:
            self.key, self.offset = key, 0
        cmds = [
            (seat, c)
            for seat in seats
            for c in game.legal_commands(seat)
            if query in c.text or query in c.label.lower()
        ]
        rows = [f"  {seat}: {c.text:<32} {c.label}" for seat, c in cmds]
        if not rows:
            who = ", ".join(seats) or "nobody here (the game's own players act)"
            return [f"  No legal command{' contains ' + repr(query) if query else ''} for {who}."]
        if self.offset >= len(rows):
            self.offset = 0
        start, end = self.offset, min(self.offset + self.size, len(rows))
        self.offset = end
        out = rows[start:end]
        if start == 0 and end < len(rows):  # name every kind of command up front, so none is hidden
            verbs = Counter(c.verb for _seat, c in cmds)
            out.insert(0, "  Kinds: " + ", ".join(f"{v} ({n})" for v, n in verbs.items()))
        if end < len(rows):
            more = "type ? again for the next page" + (
                f", or '? {query} <more words>'" if query else ", or '? <word>' to narrow"
            )
            out.append(f"  ({start + 1}-{end} of {len(rows)} commands; {more}.)")
        elif start:
            out.append(f"  ({start + 1}-{end} of {len(rows)} commands: the last page; ? starts again.)")
        else:
            out.append(f"  ({len(rows)} command{'s' if len(rows) != 1 else ''}.)")
        return out


def prompt_line(game: Game) -> str:
    """Who must act now, as a prompt."""
    decisions = game.awaiting()
    if not decisions:
        return "> "
    d = decisions[0]
    return f"[{'/'.join(sorted(d.seats))}] {d.prompt}\n> "


def run(game: Game, inp: TextIO, out: TextIO) -> int:
    """Play ``game`` reading commands from ``inp``; returns an exit status (0 when the game ended)."""
    pager = Pager()
    print(game.text_board(), file=out)
    if narrate((e for _s, _c, evs in game.play_bots() for e in evs), out):
        print(game.text_board(), file=out)
    while game.outcome is None:
        print(prompt_line(game), end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            print("\n(end of input; the game is saved only in memory)", file=out)
            return 1
        text = line.strip()
        if not text:
            continue
        if text in ("quit", "exit"):
            return 1
        if text == "board":
            print(game.text_board(), file=out)
            continue
        if text.startswith("help"):
            topics = game.ruleset.help_topics()
            topic = text[4:].strip()
            print(topics.get(topic) or "Topics: " + ", ".join(topics), file=out)
            continue
        seats = sorted(game.seats_to_act() - set(game.bot_seats()))
        if text in ("?", "legal") or text.startswith("? "):
            for line in pager.page(game, seats, text[1:].strip().lower() if text != "legal" else ""):
                print(line, file=out)
            continue
        seat = seats[0] if seats else ""
        if ":" in text.split()[0]:
            seat, text = text.split(":", 1)[0], text.split(":", 1)[1].strip()
        try:
            events = game.apply(seat, text)
        except RuleError as exc:
            print(f"  ✗ {exc}", file=out)
            continue
        show = narrate(events, out)
        for _s, _c, evs in game.play_bots():
            show = narrate(evs, out) or show
        if show:
            print(game.text_board(), file=out)
    assert game.outcome is not None
    print(f"\nGame over. {game.outcome.reason}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse arguments and play. Returns the process exit status."""
    parser = argparse.ArgumentParser(
        prog="escapade play", description="Play an Escapade game in the terminal."
    )
    parser.add_argument("ruleset", choices=sorted(RULESETS))
    parser.add_argument("--scenario", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", action="append", default=[], help="a seat the game plays (repeatable)")
    parser.add_argument("--campaign", action="store_true", help="ESCAPE: chain scenarios by result")
    parser.add_argument(
        "--level", choices=sorted(LEVELS), default=DEFAULT_LEVEL, help="how well the bot seats play"
    )
    args = parser.parse_args(argv)
    rs = RULESETS[args.ruleset]
    seats: dict[str, str | None] = {s: (None if s in args.bot else f"player-{s}") for s in rs.seats}
    scenario = args.scenario
    seed = args.seed
    while True:
        try:
            game = new_game(
                rs.id, scenario=scenario, seats=seats, seed=seed, options={"bot_level": args.level}
            )
        except RuleError as exc:
            print(exc, file=sys.stderr)
            return 2
        status = run(game, sys.stdin, sys.stdout)
        if status or not args.campaign or game.outcome is None or rs.id != "escape":
            return status
        scenario = next_scenario(game.scenario, game.outcome.winners)
        if scenario is None:
            print("The campaign is over.")
            return 0
        print(f"\nCampaign: next scenario is {rs.scenario(scenario).name}.\n")
        seed += 1


if __name__ == "__main__":
    raise SystemExit(main())
