"""The search player: information-set Monte Carlo tree search over any ruleset's public face.

Each playout starts from a fresh determinization of the real position, built by the ruleset's
:meth:`~engine.ruleset.Ruleset.determinize` from what the deciding seat may know (hidden contents dealt
anew, the dice generator reseeded), so the search never reads hidden state or the dice to come. One tree
is shared by every determinization (single-observer IS-MCTS): a node's children are keyed by command
text, and a child's UCB term counts only the playouts in which it was legal ("availability").

A playout walks the tree by PUCT (the ruleset's :meth:`~engine.ruleset.Ruleset.bot_weights` as priors),
adds one node, then plays on with the fast policy (:meth:`~engine.ruleset.Ruleset.sample_command`, or a
uniform pick among :meth:`~engine.ruleset.Ruleset.legal_commands`) for at most ``depth`` commands, and
scores the end with :meth:`~engine.ruleset.Ruleset.evaluate` for every seat that moved on the way.

Budgets: a number of playouts (deterministic: the same position, seat and search seed give the same
decision) and, optionally, a time limit measured by a clock the caller passes in (the engine reads no
clock itself). The result tells how many playouts ran and how long they took, for the benchmarks.
"""

from __future__ import annotations

import gc
import math
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from engine.ai.random_policy import Picker
from engine.core import Command
from engine.dice import Rng
from engine.errors import NotYourTurn, RuleError
from engine.ruleset import Ruleset

_MASK64 = (1 << 64) - 1


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector for the block (reference counting still frees what each playout
    drops). The tree lives as long as the search and a playout makes thousands of short-lived objects: the
    collector would walk the tree again and again (6-9% of the Dark Realms and Escape Path searches' time)
    to find next to nothing. Restores the collector as it was, whatever the block raises."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# Kept back from a timed search's limit for what follows its playouts: the cycle collector, paused while
# they ran, walks what they left (1-4 ms after a 1 s Dark Realms decision).
FINISH_SECONDS = 0.01

# Tries (each with fresh dice) a root command gets to show it may take out one of the mover's own figures:
# a blast or a line of fire that can catch a squadmate, a grenade at one's own feet.
HARM_TRIES = 6


class SplitRng(Rng):
    """The state's dice generator inside a search: same interface, a cheap SplitMix64 draw instead of
    SHA-256. Only determinized copies get one; real games keep their own generator."""

    def _draw(self) -> int:
        self.counter += 1
        z = (self.seed + self.counter * 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)


@dataclass(frozen=True)
class Budget:
    """How much thinking one decision gets.

    ``playouts``: playouts to run (the deterministic budget); ``seconds``: stop earlier once this much time
    has passed on the caller's clock (None: no time limit); ``depth``: commands a rollout plays before the
    evaluation takes over; ``explore``: the PUCT exploration constant.
    """

    playouts: int = 200
    seconds: float | None = None
    depth: int = 24
    explore: float = 1.4
    policy_rollouts: bool = False  # rollouts weighted by bot_weights (slower, better informed) or uniform
    # First-play urgency: the value an unvisited command is assumed to have. None: 0.5 (a draw). A number:
    # the mean value of the node's visited commands less that number, so where every line looks good
    # (or bad) for the mover the search still tries the commands its priors favour before settling.
    fpu_reduction: float | None = None


@dataclass(frozen=True)
class SearchResult:
    """The chosen command and what the search did to find it."""

    command: Command
    playouts: int
    elapsed: float  # seconds on the caller's clock (0.0 when none was given)
    visits: dict[str, int]  # root children's visit counts, by command text


class _Node:
    __slots__ = ("avail", "children", "listing", "prior", "seat", "total", "visits")

    def __init__(self, seat: str, prior: float) -> None:
        self.seat = seat  # the seat whose command led here (scores are for it)
        self.prior = prior
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        # The searched commands and their texts here, kept once worked out in a playout that brought nothing
        # hidden into play on the way (see Searcher.share_listings).
        self.listing: tuple[list[Command], list[str]] | None = None


# Standing-answer changes ("react ...") change no position, and a take-back ("undo", the heist's "unplan")
# only returns to a position the search has already weighed (choosing it looped forever in heist games):
# the search leaves them to players.
SKIPPED_VERBS = ("react", "undo", "unplan")


def searched_commands(ruleset: Ruleset, state: Any, seat: str) -> list[Command]:
    """The legal commands the search weighs for ``seat``: all but the skipped verbs and those the ruleset
    finds not worthwhile (``Ruleset.worthwhile``), or all of them where that leaves none. Raises nothing."""
    options = _listed(ruleset, state, seat)
    return ruleset.worthwhile(state, seat, options) or options


def _listed(ruleset: Ruleset, state: Any, seat: str) -> list[Command]:
    # the legal commands less the verbs the search never plays
    return [c for c in ruleset.legal_commands(state, seat) if c.verb not in SKIPPED_VERBS]


def _priors(ruleset: Ruleset, state: Any, seat: str, options: list[Command]) -> list[float]:
    return _priors_from(ruleset.bot_weights(state, seat, options), len(options))


def _priors_from(weights: list[int] | None, n: int) -> list[float]:
    if weights is None or len(weights) != n:
        return [1.0 / n] * n
    clipped = [max(0, w) for w in weights] if weights and min(weights) < 0 else weights
    total = sum(clipped)
    if total <= 0:
        return [1.0 / n] * n
    # A floor keeps every legal command reachable even when the policy gives it weight 0.
    floor = 0.1 / n
    return [floor + 0.9 * w / total for w in clipped]


class Searcher:
    """IS-MCTS for one ruleset. Stateless between decisions; every call builds a new tree."""

    def __init__(self, ruleset: Ruleset, budget: Budget | None = None) -> None:
        self.ruleset = ruleset
        self.budget = budget or Budget()
        self.has_sampler = type(ruleset).sample_command is not Ruleset.sample_command
        # Playouts that reach a node with nothing hidden brought into play on the way (no die drawn, no
        # hidden fact turned public: Ruleset.hidden_in_play) have the same legal commands there, so the node
        # lists them once for all of them. Off for rulesets that give no such mark.
        self.share_listings = True

    def choose(
        self,
        state: Any,
        seat: str,
        *,
        seed: int,
        options: list[Command] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> SearchResult:
        """The command the search picks for ``seat`` in ``state`` (never mutated).

        ``options`` are the real position's legal commands (listed when not given); the pick is always one
        of them. ``seed`` seeds the determinizations and rollouts. Raises NotYourTurn when ``seat`` has
        nothing to play.
        """
        rs = self.ruleset
        # The time limit counts from here: sorting out the worthwhile options is part of the decision.
        start = clock() if clock else 0.0
        root_options = options if options is not None else searched_commands(rs, state, seat)
        root_options = [c for c in root_options if c.verb not in SKIPPED_VERBS] or root_options
        root_options = rs.worthwhile(state, seat, root_options) or root_options
        if not root_options:
            raise NotYourTurn(f"The {seat} seat has nothing to play now.")
        root_options = self._sparing(state, seat, root_options, seed)
        if len(root_options) == 1:
            return SearchResult(root_options[0], 0, 0.0, {root_options[0].text: 0})
        by_text = {c.text: c for c in root_options}
        root = _Node(seat, 1.0)
        priors = _priors(rs, state, seat, root_options)
        for c, p in zip(root_options, priors, strict=True):
            root.children[c.text] = _Node(seat, p)
        deal = Rng(seed=seed)
        picker = Picker(seed)
        budget = self.budget
        done = 0
        limit = budget.seconds if clock is not None else None
        longest = 0.0  # the longest playout so far, in the clock's seconds
        with collector_paused():
            while done < budget.playouts:
                if limit is not None:
                    assert clock is not None
                    began = clock()
                    # Stop unless a playout as long as the longest so far still fits, with time left for
                    # the collector to catch up once it runs again (1-4 ms). Stopping at the average playout
                    # overran the limit in two decisions of three (by up to 9 ms).
                    if done and began - start + longest + FINISH_SECONDS > limit:
                        break
                det = rs.determinize(state, seat, deal)
                det.rng = SplitRng(seed=deal.below(2**62))
                self._playout(root, det, seat, list(by_text), picker)
                done += 1
                if limit is not None:
                    assert clock is not None
                    longest = max(longest, clock() - began)
        visits = {t: n.visits for t, n in root.children.items()}
        best = max(root_options, key=lambda c: (visits[c.text], root.children[c.text].prior))
        return SearchResult(best, done, (clock() - start) if clock else 0.0, visits)

    def _sparing(self, state: Any, seat: str, options: list[Command], seed: int) -> list[Command]:
        """In ``seat``'s own activation, the commands that endanger none of its own figures
        (``Ruleset.endangers_own``) and took out none in ``HARM_TRIES`` tries, each on a fresh
        determinization (new dice); all of ``options`` when every one did, or where the ruleset does not
        count its losses (``Ruleset.own_losses`` is None)."""
        rs = self.ruleset
        before = rs.own_losses(state, seat)
        if before is None or not any(d.kind == "activation" and seat in d.seats for d in rs.awaiting(state)):
            return options
        deal = Rng(seed=seed ^ 0x5A1E)
        safe = []
        for command in options:
            if rs.endangers_own(state, seat, command):
                continue
            for _ in range(HARM_TRIES):
                det = rs.determinize(state, seat, deal)
                det.rng = SplitRng(seed=deal.below(2**62))
                again = self._command(det, seat, command.text, None)
                if again is None:
                    break
                try:
                    rs.execute(det, seat, again)
                except RuleError:
                    break
                if (rs.own_losses(det, seat) or 0) > before:
                    break
            else:
                safe.append(command)
        return safe or options

    # -- one playout -----------------------------------------------------------------------------------
    def _playout(self, root: _Node, det: Any, seat: str, root_texts: list[str], picker: Picker) -> None:
        rs = self.ruleset
        path: list[_Node] = []
        node = root
        mover = seat
        texts = root_texts
        options: list[Command] | None = None
        mark = rs.hidden_in_play(det) if self.share_listings else None
        while True:
            child, text = self._select(node, texts)
            if child is None:
                break
            command = self._command(det, mover, text, options)
            if command is None:
                break
            try:
                rs.execute(det, mover, command)
            except RuleError:
                break
            path.append(child)
            node = child
            if child.visits == 0 or rs.outcome(det) is not None:
                break
            nxt = rs.next_seat(det)
            if nxt is None:
                break
            mover = nxt
            if not node.children:  # a new node: its options and their priors in one pass
                options, weights = rs.weighed_options(det, mover, _listed(rs, det, mover))
                if not options:
                    break
                priors = _priors_from(weights, len(options))
                for c, p in zip(options, priors, strict=True):
                    node.children[c.text] = _Node(mover, p)
                texts = [c.text for c in options]
                continue
            same = mark is not None and rs.hidden_in_play(det) == mark
            if same and node.listing is not None:
                options, texts = node.listing
                continue
            options = searched_commands(rs, det, mover)
            if not options:
                break
            texts = [c.text for c in options]
            if any(t not in node.children for t in texts):
                priors = _priors(rs, det, mover, options)
                for c, p in zip(options, priors, strict=True):
                    if c.text not in node.children:
                        node.children[c.text] = _Node(mover, p)
            if same:
                node.listing = (options, texts)
        self._rollout(det, picker)
        scores: dict[str, float] = {}
        for n in path:
            if n.seat not in scores:
                scores[n.seat] = rs.evaluate(det, n.seat)
            n.visits += 1
            n.total += scores[n.seat]
        root.visits += 1

    def _select(self, node: _Node, texts: list[str]) -> tuple[_Node | None, str]:
        best: _Node | None = None
        best_text = ""
        best_score = -1.0
        c = self.budget.explore
        unvisited = 0.5
        reduction = self.budget.fpu_reduction
        if reduction is not None:
            total = visits = 0.0
            for sibling in node.children.values():
                total += sibling.total
                visits += sibling.visits
            if visits:
                unvisited = total / visits - reduction
        for t in texts:
            child = node.children.get(t)
            if child is None:
                continue
            child.avail += 1
            sqrt_n = math.sqrt(child.avail)
            q = child.total / child.visits if child.visits else unvisited
            score = q + c * child.prior * sqrt_n / (1 + child.visits)
            if score > best_score:
                best, best_text, best_score = child, t, score
        return best, best_text

    def _command(self, det: Any, seat: str, text: str, options: list[Command] | None) -> Command | None:
        if options is not None:
            for c in options:
                if c.text == text:
                    return c
        try:
            return self.ruleset.parse(det, seat, text)
        except RuleError:
            return None

    def _pick(self, options: list[Command], weights: list[int] | None, picker: Picker) -> int:
        if not self.budget.policy_rollouts or len(options) == 1:
            return picker.below(len(options))
        if not weights:
            return picker.below(len(options))
        if min(weights) < 0:
            weights = [max(0, w) for w in weights]
        cumulative = list(accumulate(weights))
        total = cumulative[-1]
        if total <= 0:
            return picker.below(len(options))
        # The first option whose running total passes the draw: each is drawn in proportion to its weight.
        return min(bisect_right(cumulative, picker.below(total)), len(options) - 1)

    def _rollout(self, det: Any, picker: Picker) -> None:
        rs = self.ruleset
        outcome, next_seat, execute = rs.outcome, rs.next_seat, rs.execute
        for _ in range(self.budget.depth):
            if outcome(det) is not None:
                return
            seat = next_seat(det)
            if seat is None:
                return
            command = None
            if self.has_sampler and not self.budget.policy_rollouts:
                command = rs.sample_command(det, seat, picker)
            if command is None:
                if self.budget.policy_rollouts:
                    options, weights = rs.weighed_options(det, seat, _listed(rs, det, seat))
                else:
                    options, weights = searched_commands(rs, det, seat), None
                if not options:
                    return
                command = options[self._pick(options, weights, picker)]
            try:
                execute(det, seat, command)
            except RuleError:
                return
