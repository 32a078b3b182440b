"""Strength and balance of the game's own players: win rates, per-scenario balance, self-harm, speed.

Players: ``random`` (uniform among the legal commands), ``easy`` (today's weighted policy), ``normal`` and
``hard`` (the search player; their playout budgets can be cut with ``--normal``/``--hard`` so a bench run
fits on a shared machine; the figures printed say which budget was used).

Sections (``--section``, repeatable; default all):
- ``vs``: normal and hard against easy and against random, each side of ESCAPE and Escape Path (every
  scenario) and Skirm (its games go through every mission and squad pairing in turn);
- ``sides`` (not in the default run): the ``vs`` rows per ruleset and side, each row's games going through
  the scenarios in turn, one line a game, so that runs with different ``--seed0`` add up;
- ``mirror``: hard on both sides per ESCAPE scenario and per Skirm faction (each faction's ready squad
  against every faction's, both seatings);
- ``heist``: a crew of hard players (``--crew`` for another level) on every heist: success rate, round of each
  win, the least work left;
- ``speed``: state copies, random self-play games/s, playouts per second inside the search;
- ``latency`` (not in the default run): p50/p99 of moves in other channels while hard bot seats think,
  with the thinking in the process pool, in threads (holding the GIL), and with no bot at all;
- ``burst`` (not in the default run): per ruleset, how long hard bot seats think after one member's command
  before a member must act again, and how often that passes the bot's early acknowledgement and Discord's 3 s;
- ``table`` (not in the default run): the ledger's rows summed (below).
The ``sides`` and ``heist`` sections append each game to a ledger (``bench/results/ai_games.jsonl``, kept in
the repository; ``--ledger PATH`` for another, ``--ledger ''`` for none): its row, seed, scenario, result,
self-harm, the players' budgets and the commit it ran on, so that runs on different days and machines add up
to the issue's 200 games a row. ``--section table`` prints each row's total (a game replayed with the same
seed, budget and commit counts once).
Every game also counts self-harm: a player's own command taking out one of its own units when another of
its legal commands, with the same dice, would not (by player, so that today's policy's own blunders are told
apart from the search player's); losses no other command avoids are counted apart as forced.

Usage: python bench/bench_ai.py [--games N] [--normal P] [--hard P] [--section S ...] [--seconds-per-row T]
       [--think SECONDS] [--heist-seed0 S] [--crew easy|normal|hard] [--heist-cash K] [--heist-level L]
       [--only TEXT] [--seed0 S] [--ledger PATH]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import re
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.figures import pct  # noqa: E402
from engine import RULESETS, Game, new_game  # noqa: E402
from engine.ai.levels import DEFAULT_SECONDS, LEVELS, level_budget, search_seed  # noqa: E402
from engine.ai.random_policy import Picker  # noqa: E402
from engine.ai.search import Budget, Searcher  # noqa: E402
from engine.ai.selfplay import fast_random_game  # noqa: E402
from engine.core import Command  # noqa: E402
from engine.rulesets.heist import campaign  # noqa: E402
from engine.rulesets.heist.content import load_content  # noqa: E402
from engine.rulesets.heist.search import job_steps  # noqa: E402
from engine.rulesets.skirm.content import ready_squads  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "bench" / "results" / "ai_games.jsonl"


def code_revision() -> str:
    """The checkout's commit (short hash), with ``+`` when ``engine/`` has uncommitted changes (the games
    then ran on code no commit holds); ``unknown`` outside a git checkout."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "engine"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("+" if dirty else "")


@dataclass
class Ledger:
    """Appends one JSON line per finished game to ``path`` (nothing when ``path`` is None)."""

    path: Path | None
    think: float | None
    revision: str = field(default_factory=code_revision)

    def record(self, row: str, seed: int, scenario: str | None, result: str, playouts: int | None,
               harm: int, **extra: Any) -> None:  # fmt: skip
        """Append the game: ``row`` as the bench labels it, ``result`` won/drew/lost for the row's player,
        ``playouts`` its budget (None for the weighted policy), ``harm`` its own self-harm count."""
        if self.path is None:
            return
        entry = {"row": row, "seed": seed, "scenario": scenario, "result": result, "playouts": playouts,
                 "think": self.think, "harm": harm, "rev": self.revision,
                 "date": datetime.date.today().isoformat(), **extra}  # fmt: skip
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")


def table_section(path: Path, only: str = "") -> None:
    """Each ledger row (whose label contains ``only``) summed per budget: games, wins/draws/losses, the share
    of decided games won, self-harm, the seeds and commits they span; heist rows also give the rounds of
    their wins, and Skirm's hard-vs-hard pairings each squad's score (:func:`faction_scores`). A game
    recorded with a rollout depth of its own (``depth``: a trial's, such as the Escape Path swarm's 14 in
    docs/ai.md) makes a budget of its own. A game listed twice with the same seed,
    budget, time cap and commit (a replay) counts once."""
    if not path.exists():
        print(f"no ledger at {path}", flush=True)
        return
    seen: set[tuple[Any, ...]] = set()
    groups: dict[tuple[str, Any, Any, Any], list[dict[str, Any]]] = defaultdict(list)
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        e = json.loads(raw)
        if only not in e["row"]:
            continue
        key = (e["row"], e["seed"], e["playouts"], e.get("depth"), e["think"], e["rev"])
        if key in seen:
            continue
        seen.add(key)
        groups[(e["row"], e["playouts"], e.get("depth"), e["think"])].append(e)
    for (row, playouts, depth, think), games in sorted(
        groups.items(), key=lambda kv: (kv[0][0], str(kv[0][1:]))
    ):
        results = Counter(g["result"] for g in games)
        won, drew, lost = results["won"], results["drew"], results["lost"]
        decided = won + lost
        share = f"{100 * won / decided:5.1f}%" if decided else "  n/a "
        seeds = sorted(g["seed"] for g in games)
        budget = f"{playouts} playouts" if playouts else "policy"
        if depth is not None:
            budget += f", depth {depth}"
        if think is not None:
            budget += f", {think:g} s cap"
        out = (f"{row:<54} {budget:<22} n={len(games):<4} W{won:>4} D{drew:>4} L{lost:>4}  win/decided {share}"
               f"  self-harm {sum(g['harm'] for g in games)} (forced {sum(g.get('forced', 0) for g in games)})"
               f"  seeds {seeds[0]}-{seeds[-1]}"
               f"  commits {len({g['rev'] for g in games})}")  # fmt: skip
        rounds = sorted(g["round"] for g in games if g["result"] == "won" and "round" in g)
        if rounds:
            out += f"  rounds of wins {rounds}"
        print(out, flush=True)
    faction_scores(groups)
    short = []
    for label, _, _, level, _ in side_rows():
        if only not in label:
            continue
        budget = LEVELS[level]
        assert budget is not None
        played = {e["seed"] for e in groups.get((label, budget.playouts, None, None), [])}
        if len(played) < SIDES_GAMES:
            missing = [s for s in range(SIDES_SEED0, SIDES_SEED0 + SIDES_GAMES) if s not in played]
            short.append(f"{label} {len(played)}/{SIDES_GAMES} (next seed {missing[0]})")
    if short:
        print(f"sides rows short of {SIDES_GAMES} games at the levels' budgets ({len(short)}):", flush=True)
        for row in short:
            print(f"  {row}", flush=True)


MIRROR_LABEL = re.compile(r"^skirm hard vs hard: (\S+) \(player1\) vs (\S+)$")


def faction_scores(groups: dict[tuple[str, Any, Any, Any], list[dict[str, Any]]]) -> None:
    """Print each Skirm squad's score (win 1, draw 1/2) over the ledger's hard-vs-hard pairing rows, per
    budget and time cap: the issue's balance figure, summed from the same games as the rows above."""
    score: dict[tuple[Any, Any], Counter[str]] = defaultdict(Counter)
    played: dict[tuple[Any, Any], Counter[str]] = defaultdict(Counter)
    points = {"won": 1.0, "drew": 0.5, "lost": 0.0}
    for (row, playouts, depth, think), games in groups.items():
        match = MIRROR_LABEL.match(row)
        if match is None or depth is not None:
            continue
        first, second = match.groups()
        for g in games:
            score[(playouts, think)][first] += points[g["result"]]
            score[(playouts, think)][second] += 1.0 - points[g["result"]]
            played[(playouts, think)][first] += 1
            played[(playouts, think)][second] += 1
    for (playouts, think), counts in sorted(played.items(), key=lambda kv: str(kv[0])):
        budget = f"{playouts} playouts" + (f", {think:g} s cap" if think is not None else "")
        points_of = score[(playouts, think)]
        ranked = sorted(counts, key=lambda q: -points_of[q] / counts[q])
        parts = [f"{q} {points_of[q] / counts[q]:.2f} ({points_of[q]:g} of {counts[q]})" for q in ranked]
        print(f"skirm faction scores at {budget}: " + ", ".join(parts), flush=True)


@dataclass
class Tally:
    """What a row of games gave."""

    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    games: int = 0
    harm: int = 0
    harm_by: Counter[str] = field(default_factory=Counter)  # player level -> self-harm count
    harm_examples: list[str] = field(default_factory=list)
    forced: int = 0  # own losses no other legal command would have avoided (not self-harm)
    decision_ms: list[float] = field(default_factory=list)
    playouts: int = 0
    search_s: float = 0.0
    rounds: list[int] = field(default_factory=list)


def own_losses(game: Game, seat: str) -> int:
    """How many of ``seat``'s own figures (the crew, in a heist) are out of the game now (the ruleset's
    count, 0 where it keeps none)."""
    return game.ruleset.own_losses(game.state, seat) or 0


def avoidable(ahead: Game, seat: str, played: Command, options: list[Command], before: int) -> bool:
    """Whether another of ``options`` (the seat's legal commands in ``ahead``, the game before ``played``)
    would have taken out none of its own figures, with the same dice: the issue counts self-harm only then.
    A loss no other command avoids (an activation whose only command is ``end``, and the turn's event then
    hurts a character by a door) is forced, and counted apart."""
    for other in options:
        if other.text == played.text:
            continue
        trial = ahead.copy()
        trial.apply(seat, other)
        if own_losses(trial, seat) <= before:
            return True
    return False


def play(
    ruleset: str, scenario: str | None, players: dict[str, str], seed: int, budgets: dict[str, Budget],
    tally: Tally, options: dict[str, Any] | None = None, max_commands: int = 4000, watch: list[float] | None = None,
) -> Game:  # fmt: skip
    """One game with the given player per seat; the tally gains its result, self-harm and timings. ``watch``
    (heist): gains the least work left (``job_steps``) seen in the Action phase before the escape, 0 for a win."""
    game = new_game(ruleset, scenario=scenario, seed=seed, seats={s: None for s in players}, options=options)
    pickers = {s: Picker(seed * 7919 + i) for i, s in enumerate(players)}
    searchers = {}
    for lvl, b in budgets.items():
        tuned = (level_budget(lvl, ruleset, b.playouts) if lvl in LEVELS else b) or b
        if b.seconds is not None:  # --think: the bot's time cap per decision
            tuned = replace(tuned, seconds=b.seconds)
        searchers[lvl] = Searcher(game.ruleset, tuned)
    least = float("inf")
    for _ in range(max_commands):
        if game.outcome is not None:
            break
        st = game.state
        if watch is not None and st.phase == "action" and not st.escape_called:
            least = min(least, job_steps(st)[0])
        seat = game.next_bot_seat()
        if seat is None:
            break
        who = players[seat]
        options = [c for c in game.legal_commands(seat) if c.verb != "react"]
        if who == "random":
            command = options[pickers[seat].below(len(options))]
        elif who == "easy":
            command = game.bot_command(seat, level="easy")
        else:
            t = time.perf_counter()
            result = searchers[who].choose(
                game.state, seat, seed=search_seed(seed, len(game.log), seat), options=options,
                clock=time.perf_counter,
            )  # fmt: skip
            took = time.perf_counter() - t
            command = result.command
            if result.playouts:
                tally.decision_ms.append(took * 1000)
                tally.playouts += result.playouts
                tally.search_s += took
        # Self-harm: only the seat's own activations count (a reaction such as a dodge that fails is the
        # enemy's attack resolving, not the seat's doing).
        acting = any(d.kind == "activation" and seat in d.seats for d in game.awaiting())
        before = own_losses(game, seat)
        ahead = game.copy() if acting else None
        game.apply(seat, command)
        if ahead is not None and own_losses(game, seat) > before:
            if avoidable(ahead, seat, command, options, before):
                tally.harm += 1
                tally.harm_by[who] += 1
                if len(tally.harm_examples) < 3:
                    tally.harm_examples.append(f"{seat} ({who}): {command.text}")
            else:
                tally.forced += 1
    result = game.outcome
    if watch is not None:
        watch.append(0.0 if result is not None and result.winners else least)
    tally.games += 1
    if result is None or not result.winners:
        tally.draws += 1
    else:
        for w in result.winners:
            tally.wins[w] += 1
        if ruleset == "heist":
            tally.rounds.append(game.state.round)
    return game


def last_result(tally: Tally, seat: str, before: tuple[int, int]) -> str:
    """won/drew/lost for ``seat`` in the game just tallied, from its wins and the draws ``before`` it."""
    return "won" if tally.wins[seat] > before[0] else "drew" if tally.draws > before[1] else "lost"


def line(label: str, tally: Tally, seat: str) -> str:
    """A row: games, wins/draws/losses for ``seat``, its share of decided games, self-harm, timings."""
    w = tally.wins[seat]
    lost = tally.games - tally.draws - w
    decided = w + lost
    pct = f"{100 * w / decided:5.1f}%" if decided else "  n/a "
    out = f"{label:<58} n={tally.games:<3} W{w:>3} D{tally.draws:>3} L{lost:>3}  win/decided {pct}"
    out += f"  self-harm {tally.harm}"
    if tally.forced:
        out += f" (and {tally.forced} forced losses)"
    if tally.harm:
        out += " (" + ", ".join(f"{who} {n}" for who, n in sorted(tally.harm_by.items())) + ")"
    if tally.decision_ms:
        ms = sorted(tally.decision_ms)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        out += f"  decision median {statistics.median(ms):.0f} ms p95 {p95:.0f} ms"
    if tally.harm_examples:
        out += f"  e.g. {tally.harm_examples[0]}"
    return out


def skirm_rotation(i: int) -> tuple[str, dict[str, Any]]:
    """The mission and squads of a Skirm vs row's game number ``i`` (its seed less 10,000, so a run with
    ``--seed0`` continues the rotation where another stopped): the three missions in turn, and every
    ordered pairing of two different ready squads in turn, so that a row measures the whole game rather
    than one matchup."""
    missions = [s.id for s in RULESETS["skirm"].scenarios()]
    squads = list(ready_squads())
    pairs = [(a, b) for a in squads for b in squads if a != b]
    a, b = pairs[(i // len(missions)) % len(pairs)]
    return missions[i % len(missions)], {"squad": {"player1": a, "player2": b}}


def run_rows(rows: list[tuple[str, str, str | None, dict[str, str], dict[str, Any] | None, str]],
             games: int, budgets: dict[str, Budget], seconds: float, seed0: int = 10_000,
             ledger: Ledger | None = None) -> None:  # fmt: skip
    """Play each row's games (seeds from ``seed0``) and print its line; after Skirm's faction pairings, each
    squad's score over every game it played (win 1, draw 1/2). A Skirm vs row (no options) rotates its
    games through every mission and squad pairing (:func:`skirm_rotation`). With a ``ledger``, each game is
    printed as it ends and recorded (the result for the row's focus seat)."""
    score: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for label, ruleset, scenario, players, options, focus in rows:
        tally = Tally()
        start = time.perf_counter()
        for i in range(games):
            if i and time.perf_counter() - start > seconds:
                break
            before, harmed = (tally.wins[focus], tally.draws), tally.harm
            if ruleset == "skirm" and options is None:
                mission, squads = skirm_rotation(seed0 + i - 10_000)
                play(ruleset, mission, players, seed0 + i, budgets, tally, squads)
            else:
                play(ruleset, scenario, players, seed0 + i, budgets, tally, options)
            if ledger is not None:
                result = last_result(tally, focus, before)
                print(f"  {label} seed {seed0 + i}: {result}", flush=True)
                level = players[focus]
                ledger.record(label, seed0 + i, scenario, result, budgets[level].playouts if level in budgets else None,
                              tally.harm - harmed)  # fmt: skip
        print(line(label, tally, focus), flush=True)
        if ruleset == "skirm" and options and "squad" in options:
            for seat, squad in options["squad"].items():
                score[squad] += tally.wins[seat] + tally.draws / 2
                played[squad] += tally.games
    for squad in sorted(played, key=lambda q: -score[q] / played[q]):
        print(f"skirm faction score {squad:<16} {score[squad] / played[squad]:.2f} "
              f"({score[squad]:g} of {played[squad]} games)", flush=True)  # fmt: skip


def vs_rows() -> list[tuple[str, str, str | None, dict[str, str], dict[str, Any] | None, str]]:
    rows = []
    for ruleset in ("escape", "skirm", "escapepath"):
        rs = RULESETS[ruleset]
        scenarios = [s.id for s in rs.scenarios()] if ruleset != "skirm" else [None]
        for scenario in scenarios:
            for level in ("normal", "hard"):
                for foe in ("easy", "random"):
                    for seat in rs.seats:
                        players = {s: (level if s == seat else foe) for s in rs.seats}
                        where = f"{ruleset}/{scenario}" if scenario else ruleset
                        rows.append(
                            (f"{where} {seat}={level} vs {foe}", ruleset, scenario, players, None, seat)
                        )
    return rows


SIDES_SEED0 = 10_000  # the first seed of every sides row (the scenarios' rotation counts from it)
SIDES_GAMES = 200  # games the issue asks of every row


def side_rows() -> list[tuple[str, str, str, str, str]]:
    """Every row of the sides section, in the order it plays them: (label, ruleset, seat, level, foe)."""
    return [
        (f"{ruleset} {seat}={level} vs {foe}", ruleset, seat, level, foe)
        for ruleset in ("escape", "skirm", "escapepath")
        for level in ("normal", "hard")
        for foe in ("easy", "random")
        for seat in RULESETS[ruleset].seats
    ]


def sides_section(games: int, budgets: dict[str, Budget], only: str = "", seed0: int = SIDES_SEED0,
                  ledger: Ledger | None = None) -> None:  # fmt: skip
    """The vs rows per ruleset and side rather than per scenario: a row's games go through the ruleset's
    scenarios in turn (Skirm's through :func:`skirm_rotation`), game ``i`` with seed ``seed0 + i``, so runs
    with other ``--seed0`` add up. One line a game (its scenario and result; also to ``ledger``), then the
    row's line."""
    for label, ruleset, seat, level, foe in side_rows():
        if only not in label:
            continue
        rs = RULESETS[ruleset]
        scenarios = [s.id for s in rs.scenarios()]
        players = {s: (level if s == seat else foe) for s in rs.seats}
        tally = Tally()
        for i in range(games):
            seed = seed0 + i
            before = (tally.wins[seat], tally.draws)
            harmed, forced = tally.harm_by[level], tally.forced
            if ruleset == "skirm":
                scenario, options = skirm_rotation(seed - SIDES_SEED0)
                play(ruleset, scenario, players, seed, budgets, tally, options)
            else:
                scenario = scenarios[(seed - SIDES_SEED0) % len(scenarios)]
                play(ruleset, scenario, players, seed, budgets, tally)
            result = last_result(tally, seat, before)
            print(f"  {label} seed {seed} {scenario}: {result}", flush=True)
            if ledger is not None:
                ledger.record(label, seed, scenario, result, budgets[level].playouts,
                              tally.harm_by[level] - harmed, forced=tally.forced - forced)  # fmt: skip
        print(line(label + " (all scenarios)", tally, seat), flush=True)


def mirror_rows() -> list[tuple[str, str, str | None, dict[str, str], dict[str, Any] | None, str]]:
    rows = []
    rs = RULESETS["escape"]
    for s in rs.scenarios():
        rows.append((f"escape/{s.id} hard vs hard (resistance's view)", "escape", s.id,
                     {"resistance": "hard", "isc": "hard"}, None, "resistance"))  # fmt: skip
    squads = list(ready_squads())
    for a in squads:
        for b in squads:
            if a == b:
                continue
            options = {"squad": {"player1": a, "player2": b}}
            rows.append((f"skirm hard vs hard: {a} (player1) vs {b}", "skirm", None,
                         {"player1": "hard", "player2": "hard"}, options, "player1"))  # fmt: skip
    return rows


DIFFICULTY_LEVEL = {"amateur": 1, "semi_pro": 2, "pro": 3}


def heist_section(games: int, budgets: dict[str, Budget], seconds: float, only: str = "", seed0: int = 20_000,
                  crew: str = "hard", cash: int = 0, ledger: Ledger | None = None,
                  level: int = 1) -> None:  # fmt: skip
    """A crew of four at ``crew``'s level on every heist (whose id contains ``only``): each game's line (unless
    easy), then per heist the wins, the rounds they came in, self-harm, the mean least work left
    (``job_steps`` before the escape; 0 for a win) and decision times. ``cash``: the crew record's cash in $k
    (a new crew has none, so nothing to buy in the shop). ``level``: the players' and characters' level
    (:func:`campaign.levelled_crew`), 0 for the level each heist's difficulty names (the rulebook labels heists by the
    team's average level: Amateur 1, Semi-Pro 2, Pro 3). Each game also goes to ``ledger``."""
    rs = RULESETS["heist"]
    seats = rs.seats[:4]
    difficulty = {h.id: h.difficulty for h in load_content().heists.values()}
    budget = level_budget(crew, "heist", budgets[crew].playouts if crew in budgets else None)
    if budget is None:
        print(f"heist {crew} crews of {len(seats)}: the weighted policy", flush=True)
    else:
        print(f"heist {crew} crews of {len(seats)}: {budget.playouts} playouts, rollouts of {budget.depth} commands "
              f"({'policy-weighted' if budget.policy_rollouts else 'uniform'}), explore {budget.explore}", flush=True)  # fmt: skip
    total = 0
    for s in rs.scenarios():
        if only not in s.id:
            continue
        tally = Tally()
        least: list[float] = []
        crew_level = level or DIFFICULTY_LEVEL[difficulty[s.id]]
        record = campaign.levelled_crew(crew_level, cash)
        options = {"campaign": {"*": record}} if record else None
        start = time.perf_counter()
        for i in range(games):
            if i and time.perf_counter() - start > seconds:
                break
            harmed = tally.harm
            game = play("heist", s.id, {seat: crew for seat in seats}, seed0 + i, budgets, tally, options,
                        watch=least)  # fmt: skip
            if ledger is not None:
                won = game.outcome is not None and bool(game.outcome.winners)
                row = f"heist/{s.id} crew={crew}" + (f" cash={cash}k" if cash else "")
                row += f" level={crew_level}" if crew_level > 1 else ""
                ledger.record(row, seed0 + i, s.id, "won" if won else "lost", budget.playouts if budget else None,
                              tally.harm - harmed, round=game.state.round, least_work=least[-1])  # fmt: skip
            if crew != "easy":
                print(f"  heist/{s.id} seed {seed0 + i}: round {game.state.round}, {len(game.log)} commands, "
                      f"{game.outcome.reason if game.outcome else 'no outcome (command cap)'}", flush=True)  # fmt: skip
        won = tally.wins[seats[0]]
        total += won
        times = sorted(tally.decision_ms) or [0.0]
        print(f"heist/{s.id:<28} {crew} crew (level {crew_level}): won {won}/{tally.games}  rounds of wins {tally.rounds}  "
              f"self-harm (busted by own command) {tally.harm}  least work left {statistics.mean(least):.1f}  "
              f"decisions median {pct(times, 50):.0f} ms p95 {pct(times, 95):.0f} ms, "
              f"{tally.playouts / max(1, len(tally.decision_ms)):.0f} playouts a decision", flush=True)  # fmt: skip
    print(f"heist {crew} crews: {total} wins in all", flush=True)


def speed_section(budgets: dict[str, Budget], only: str = "") -> None:
    """Per ruleset (whose id contains ``only``): state copy time, random self-play games/s (after 2 s of
    warm-up games), playouts per second inside a hard search, and decision times at the normal and hard
    budgets under the bot's 1 s cap."""
    for ruleset in sorted(r for r in RULESETS if only in r):
        rs = RULESETS[ruleset]
        full = fast_random_game(ruleset, 5)
        game = new_game(ruleset, seed=5, seats={s: None for s in rs.seats})
        for e in full.log[: len(full.log) // 3]:
            game.apply(e.seat, e.text)
        for e in full.log[len(full.log) // 3 :]:  # on to a real choice: a lone command is not searched
            seat = game.next_bot_seat()
            if seat is None or len(game.legal_commands(seat)) >= 2:
                break
            game.apply(e.seat, e.text)
        t = time.perf_counter()
        for _ in range(500):
            rs.copy_state(game.state)
        copy_ms = (time.perf_counter() - t) / 500 * 1000
        # Collected first, so that this ruleset's figures do not pay for what the rulesets before left.
        gc.collect()
        # Warm up first: the rulesets memoise what the maps never change (Skirm's sight lines between two
        # squares, its tables of steps), so a process's first games run slower than a running bot's.
        start, n = time.perf_counter(), 0
        while time.perf_counter() - start < 2:
            fast_random_game(ruleset, 10_000 + n)
            n += 1
        start, cpu, n = time.perf_counter(), time.process_time(), 0
        while time.perf_counter() - start < 3:
            fast_random_game(ruleset, 100 + n)
            n += 1
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        hard = level_budget("hard", ruleset, budgets["hard"].playouts)
        assert hard is not None
        # Playouts per second from the first decision on that really searches (where the worthwhile
        # commands come down to one, the search plays it without a playout).
        rate, searched_at = 0.0, len(game.log)
        for e in full.log[len(game.log) :]:
            seat = game.next_bot_seat()
            if seat is None:
                break
            res = Searcher(rs, hard).choose(game.state, seat, seed=1, clock=time.perf_counter)
            if res.playouts and res.elapsed:
                rate, searched_at = res.playouts / res.elapsed, len(game.log)
                break
            game.apply(e.seat, e.text)
        times: dict[str, list[float]] = {"normal": [], "hard": []}
        for level in times:
            for k in range(0, len(full.log), max(1, len(full.log) // 12)):
                g = new_game(ruleset, seed=5, seats={s: None for s in rs.seats})
                for e in full.log[:k]:
                    g.apply(e.seat, e.text)
                s = g.next_bot_seat()
                if s is None or len(g.legal_commands(s)) < 2:
                    continue
                t = time.perf_counter()
                g.bot_command(s, level=level, clock=time.perf_counter, seconds=1.0)
                times[level].append((time.perf_counter() - t) * 1000)
        for level, ms in times.items():
            if ms:
                print(f"{ruleset}: {level} at its full budget (1 s cap): {len(ms)} decisions, median "
                      f"{statistics.median(ms):.0f} ms, p95 {pct(ms, 95):.0f} ms", flush=True)  # fmt: skip
        print(f"{ruleset}: copy_state {copy_ms:.3f} ms (target <= 0.1); random self-play {n / wall:.0f} "
              f"games/s wall, {n / cpu:.0f} games/s CPU (target >= 100); search {rate:.0f} playouts/s "
              f"(hard, rollout depth {hard.depth}, command {searched_at} of seed 5's game)", flush=True)  # fmt: skip


# A member's seat and the seats the game plays at hard, per ruleset, for the burst section.
BURST_SETUPS = (
    ("escape", ("resistance",), ("isc",)),
    ("skirm", ("player1",), ("player2",)),
    ("escapepath", ("team",), ("swarm",)),
    ("heist", ("p1",), ("p2", "p3", "p4")),
    ("cardcombat", ("hero1",), ("hero2",)),
)


def burst_section(games: int, seconds: float, only: str = "", seed0: int = 60_000) -> None:
    """Per ruleset (whose id contains ``only``): how long the game's own hard seats think after one
    command of a member, before a member must act again, as the bot runs them (``bot.thinking.think``: the
    game read from JSON, the bot's cap per decision; the member plays today's policy). Prints, over the
    member's commands, the share followed by any thinking, the p50/p95/max of those bursts, and the shares
    longer than ``bot.deadline.DEFER_AFTER`` (the bot acknowledges the request first) and than Discord's 3 s
    (which that acknowledgement is there for)."""
    from bot.deadline import DEFER_AFTER
    from bot.thinking import think

    for ruleset, members, bots in BURST_SETUPS:
        if only not in ruleset:
            continue
        bursts: list[float] = []
        decisions = 0
        start = time.perf_counter()
        for i in range(games):
            if i and time.perf_counter() - start > seconds:
                break
            seats: dict[str, str | None] = {s: "member" for s in members} | {s: None for s in bots}
            game = new_game(
                ruleset, seed=seed0 + i, seats=seats, options={"bot_level": dict.fromkeys(bots, "hard")}
            )
            burst: float | None = None  # thinking since the member's last command
            for _ in range(4000):
                if game.outcome is not None:
                    break
                seat = game.next_bot_seat()
                if seat is not None:
                    t = time.perf_counter()
                    text = think(game.to_json(), seat, "hard", DEFAULT_SECONDS)
                    game.apply(seat, text)
                    decisions += 1
                    burst = (burst or 0.0) + time.perf_counter() - t
                    continue
                if burst is not None or bursts or game.log:
                    bursts.append(burst or 0.0)
                awaited = [s for d in game.awaiting() for s in sorted(d.seats) if s in members]
                if not awaited:
                    break
                game.apply(awaited[0], game.bot_command(awaited[0], level="easy"))
                burst = None
            if burst is not None:
                bursts.append(burst)
        thought = sorted(b for b in bursts if b > 0)
        n = max(1, len(bursts))
        print(f"{ruleset:<11} member {'+'.join(members)}, hard {'+'.join(bots)}: {i + 1} games, {len(bursts)} member "
              f"commands, {len(thought) / n:.0%} followed by thinking ({decisions} decisions); bursts p50 "
              f"{pct(thought, 50) if thought else 0:.2f} s p95 {pct(thought, 95) if thought else 0:.2f} s max "
              f"{max(thought, default=0):.2f} s; over {DEFER_AFTER:g} s {sum(b > DEFER_AFTER for b in bursts) / n:.1%}, "
              f"over 3 s {sum(b > 3.0 for b in bursts) / n:.1%}", flush=True)  # fmt: skip


async def latency_section(samples: int, bot_channels: int, seconds: float) -> None:
    """p50/p99 of moves in human-only ESCAPE channels while ``bot_channels`` hard bot seats think, with
    the thinking in the process pool, on the event loop's thread pool (holding the GIL), and not at all."""
    import asyncio
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    from bot.thinking import Thinker
    from tests.harness import ALICE, BOB, Harness

    async def measure(h: Harness, payload: dict[str, Any]) -> float:
        t0 = time.perf_counter()
        before = asyncio.all_tasks()
        h.bot._connection.parsers["INTERACTION_CREATE"](payload)
        mine = [t for t in asyncio.all_tasks() - before if not t.done()]
        if mine:
            await asyncio.wait(mine)
        iid = int(payload["id"])
        ats = [r.at for r in h.replies if r.interaction_id == iid]
        return (max(ats) - t0) * 1000 if ats else float("nan")

    async def human_move(h: Harness, cid: int, members: dict[str, int]) -> dict[str, Any] | None:
        row = await h.bot.store.live_game(str(cid))
        if row is None:
            return None
        game = h.bot.games.load(row)
        humans = sorted(s for s in game.seats_to_act() if s in members)
        if not humans or game.outcome is not None:
            return None
        seat = humans[0]
        legal = [c for c in game.legal_commands(seat) if c.verb != "react"]
        move = next((c for c in legal if c.verb == "move"), None) or game.bot_command(seat, level="easy")
        return h.slash_payload("do", user=members[seat], channel=cid, command=move.text, seat=seat)

    for mode in ("none", "process pool", "thread (GIL)"):
        with tempfile.TemporaryDirectory() as tmp:
            h = Harness(Path(tmp) / "bench.db")
            await h.start()
            if mode == "thread (GIL)":
                h.bot.games.thinker = Thinker(executor=ThreadPoolExecutor(2))
            # Human channels: Alice vs Bob.
            humans = []
            for _ in range(4):
                cid = h.new_channel()
                await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion", channel=cid)
                await h.slash("game join", user=BOB, seat="isc", channel=cid)
                await h.slash("game start", user=ALICE, channel=cid)
                humans.append(cid)
            bots = []
            for _ in range(bot_channels if mode != "none" else 0):
                cid = h.new_channel()
                await h.slash("game new", user=ALICE, ruleset="escape", scenario="evasion", channel=cid)
                await h.slash("game start", user=ALICE, bot=True, level="hard", channel=cid)
                bots.append(cid)
            state = {"stop": False, "turns": 0}

            async def drive(h: Harness, cid: int, state: dict[str, Any]) -> None:
                while not state["stop"]:
                    payload = await human_move(h, cid, {"resistance": ALICE})
                    if payload is None:
                        return
                    await measure(h, payload)
                    state["turns"] += 1

            drivers = [asyncio.create_task(drive(h, c, state)) for c in bots]
            while bots and state["turns"] < len(bots):  # the workers have started and answered once
                await asyncio.sleep(0.1)
            state["turns"] = 0
            times: list[float] = []
            i = 0
            start = time.perf_counter()
            while (len(times) < samples or time.perf_counter() - start < seconds) and i < samples * 50:
                cid = humans[i % len(humans)]
                i += 1
                payload = await human_move(h, cid, {"resistance": ALICE, "isc": BOB})
                if payload is None:
                    continue
                times.append(await measure(h, payload))
                h.replies.clear()
                h.messages.clear()
                await asyncio.sleep(0.05)
            state["stop"] = True
            await asyncio.gather(*drivers, return_exceptions=True)
            h.bot.games.thinker.close()
            await h.close()
            print(f"latency of other channels' ESCAPE commands, thinking {mode:<13} ({len(bots)} hard bot "
                  f"channels, {state['turns']} bot turns meanwhile): n={len(times)} p50 {statistics.median(times):.1f} ms "
                  f"p99 {pct(times, 99):.1f} ms", flush=True)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--normal", type=int, default=None, help="playouts for normal (default: the level's)")
    ap.add_argument("--hard", type=int, default=None, help="playouts for hard (default: the level's)")
    ap.add_argument("--section", action="append", default=[])
    ap.add_argument("--seconds-per-row", type=float, default=1e9)
    ap.add_argument("--samples", type=int, default=200, help="latency: commands measured per mode")
    ap.add_argument("--latency-seconds", type=float, default=20, help="latency: at least this long")
    ap.add_argument("--bot-channels", type=int, default=3, help="latency: channels with a thinking bot")
    ap.add_argument("--only", default="", help="run only rows whose label contains this text")
    ap.add_argument("--seed0", type=int, default=10_000, help="vs and mirror: the first game's seed")
    ap.add_argument("--heist-seed0", type=int, default=20_000, help="heist: the first game's seed")
    ap.add_argument("--crew", default="hard", choices=list(LEVELS), help="heist: the crew's level")
    ap.add_argument(
        "--heist-cash", type=int, default=0, help="heist: the crew record's cash in $k (default 0)"
    )
    ap.add_argument("--ledger", default=str(LEDGER),
                    help="sides, mirror and heist: append each game to this JSON-lines file ('' for none); table: read it")  # fmt: skip
    ap.add_argument("--heist-level", type=int, default=1, choices=range(5),
                    help="heist: the crew's level (1-4; 0: the level each heist's difficulty names)")  # fmt: skip
    ap.add_argument("--think", type=float, default=None,
                    help="cap each search decision at this many seconds, as the bot does (default: none, so "
                         "games replay exactly)")  # fmt: skip
    args = ap.parse_args()
    budgets = {}
    for level, cut in (("normal", args.normal), ("hard", args.hard)):
        b = LEVELS[level]
        assert b is not None
        budgets[level] = Budget(cut or b.playouts, args.think, b.depth, b.explore)
    print(f"budgets: normal {budgets['normal'].playouts} playouts, hard {budgets['hard'].playouts} playouts; "
          f"up to {args.games} games per row, {args.seconds_per_row:.0f} s per row"
          + (f", decisions capped at {args.think:g} s" if args.think is not None else ""), flush=True)  # fmt: skip
    sections = args.section or ["speed", "vs", "mirror", "heist"]
    ledger = Ledger(Path(args.ledger) if args.ledger else None, args.think)
    if "table" in sections:
        table_section(Path(args.ledger or LEDGER), args.only)
    if "latency" in sections:
        import asyncio

        asyncio.run(latency_section(args.samples, args.bot_channels, args.latency_seconds))
    if "speed" in sections:
        speed_section(budgets, args.only)
    if "burst" in sections:
        burst_section(args.games, args.seconds_per_row, args.only, args.seed0)
    if "vs" in sections:
        rows = [r for r in vs_rows() if args.only in r[0]]
        run_rows(rows, args.games, budgets, args.seconds_per_row, args.seed0)
    if "sides" in sections:
        sides_section(args.games, budgets, args.only, args.seed0, ledger)
    if "mirror" in sections:
        rows = [r for r in mirror_rows() if args.only in r[0]]
        run_rows(rows, args.games, budgets, args.seconds_per_row, args.seed0, ledger)
    if "heist" in sections:
        heist_section(args.games, budgets, args.seconds_per_row, args.only, args.heist_seed0, args.crew,
                      args.heist_cash, ledger, args.heist_level)  # fmt: skip


if __name__ == "__main__":
    main()
