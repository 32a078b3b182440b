"""Heist hooks for the search player: a fast state copy, determinization and a position evaluation.

What the crew cannot know in a heist is only what the generator will give: which chit a draw takes from
the security bag (the bag's order is never stored; its contents follow from the heist's bag minus what
was drawn, all in the open), and the dice. The event deck's order is the heist's published order and its
top cards are shown, and the crew plays its round in the open (``hidden_submissions`` is False). So a
determinization reseeds the generator, shuffles the bag's stored order, and gives the take-back snapshots
(which hold a copy of the generator) the same fresh generator, so an ``undo`` in a search cannot bring
the real dice back.
"""

from __future__ import annotations

import heapq
from functools import partial

from engine.ai.copying import rng_copy
from engine.dice import Rng
from engine.memo import Memo
from engine.rulesets.heist import actions as A
from engine.rulesets.heist import policy as P
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState, copy_state


def determinize(st: HeistState, seat: str, rng: Rng) -> HeistState:
    """A copy with a generator reseeded from ``rng``, the bag's order shuffled, snapshots reseeded too."""
    new = copy_state(st)
    new.bag.sort()
    rng.shuffle(new.bag)
    new.rng = Rng(seed=rng.below(2**62))
    for snap in new.undo.values():
        snap.rng = rng_copy(new.rng)
        snap.bag.sort()
    return new


def hidden_in_play(st: HeistState) -> int:
    """What a determinization has brought into play (``Ruleset.hidden_in_play``): the dice drawn. The bag's
    order is the only other hidden fact, and a chit comes out of the bag only by a draw of the generator at
    random (``rules.draw``); the rules read the bag's contents (what is in it, how many), never its order, so
    determinizations that have drawn nothing have the same commands."""
    drawn: int = st.rng.counter
    return drawn


FAR = 16  # walking cost counted for a place nobody can reach on the board as it stands
NO_WAY = 10 * FAR  # a lock nothing left can open: the job is as good as lost
# A place for a way in that no character's plan reaches (past the locks not yet paid for): plans are fixed
# once the heist starts, so it is all but out of reach. At FAR a search planned a tunnel into the locked
# documents' own tile for one character, the keycard and the USB key beyond it, and the other three behind
# the keycard door: a deadlock it scored above a plan that works.
UNPLANNED = 2 * FAR
CRACK_STEPS = 3  # what a 🧩 still to make counts as, in walking steps, for a safe's only cracker
HANDOVER = 1  # what handing a keycard (or a safe's tools, the USB key) on to a crewmate adds to its way
HANDED = frozenset({"keycard", "usb"})


def _cost(st: HeistState, n: str) -> int:
    """Sub-actions it takes to walk onto ``n``: the move, plus a lock to open, a guard to get past, a live
    camera's alert or its disabling, and an unknown tile's chit to deal with (one on average)."""
    t = st.tiles.get(n)
    return 1 if t is None else 1 + P.hazard(st, n) + t.unknown


def _walk(
    st: HeistState,
    sources: set[str],
    allowed: set[str] | None,
    *,
    outward: bool,
    start: int = 0,
    key: P.WalkKey | None = None,
    keycard: bool = False,
    opened: frozenset[str] = frozenset(),
    vent: bool = False,
) -> dict[str, int]:
    """Walking costs over the board as it stands, only through ``allowed`` tiles (None: anywhere), from
    ``start`` at the sources. ``outward``: from the sources to every tile; else from every tile to the
    nearest source. A tile a remote lock or keycard door shuts may be walked onto but never through, and
    nobody leaves a remote-locked tile, unless it is in ``opened`` (its opening is paid for elsewhere:
    :meth:`_Walks.open_way`) or, for a keycard door, the walker carries the keycard (``keycard``). ``vent``:
    a Grease Man's walk, which may also cross a gap at :data:`policy.VENT_COST` more (:func:`policy.vents`).

    Memoised on what the costs depend on (the board as it stands, the hazards, the unknown tiles, the shut
    tiles and the arguments): the evaluation asks the same walks in playout after playout. Shared: do not
    change it. ``key``: the position's :func:`walk_key`, when the caller has it."""
    frozen = None if allowed is None else frozenset(allowed)
    position = key or walk_key(st)
    memo = (position, frozenset(sources), frozen, outward, start, keycard, opened, vent)
    return _WALKS.get(
        memo,
        lambda: _walk_now(
            st,
            sources,
            allowed,
            outward=outward,
            start=start,
            keycard=keycard,
            opened=opened,
            key=position,
            vent=vent,
        ),
    )


def _tile_costs(st: HeistState, key: P.WalkKey | None = None) -> dict[str, int]:
    """:func:`_cost` of every tile on the board as it stands, memoised on the position's :func:`walk_key`
    (``key``, when the caller has it): the walks of one position share it. Shared: do not change it."""
    return _COSTS.get(
        key or walk_key(st), lambda: {n: _cost(st, n) for n in {*st.tiles, *R.neighbour_table(st)}}
    )


_COSTS: Memo[dict[str, int]] = Memo(512)


def walk_key(st: HeistState) -> P.WalkKey:
    """What the evaluation's walks depend on besides their ends: :func:`policy.walk_key`, the unknown
    tiles (each costs one more to enter), the tiles shut by a remote lock or keycard door and the lockdown
    gates about to shut (:func:`gates_shutting`)."""
    unknown = tuple([n for n, t in st.tiles.items() if t.unknown])
    return (*P.walk_key(st), unknown, R.sealed_key(st), gates_shutting(st))


GATE_NOTICE = 3  # cards ahead (beyond those the noise already owes) within which a gate counts as shut


def gates_shutting(st: HeistState) -> tuple[str, ...]:
    """The lockdown gates still standing that the next cards of the public event deck will shut (those
    within :data:`GATE_NOTICE` of the top, past the cards the unfinished actions' noise throws away), in the
    order they shut. The evaluation's walks do not enter them: a crewmate already through by then is
    through, one still on the near side must go round (The Proving Grounds shuts gate A at its eighth card
    and gate B at its thirteenth, on the ways to the safe). An event card counts though an alert may yet
    throw it away unread; a crisis always happens."""
    if "lockdown_gates" not in R.heist(st).modules:
        return ()
    return tuple(R.gate_schedule(st, GATE_NOTICE + alerts_due(st)))


_WALKS: Memo[dict[str, int]] = Memo(2048)  # about 1.5 kB each


def _shut_to(st: HeistState, n: str, keycard: bool, opened: frozenset[str]) -> bool:
    """True when a walk may end on ``n`` but not go on from it: a remote lock, or a keycard door for a
    walker without the keycard, whose opening is not in ``opened``."""
    t = st.tiles.get(n)
    if t is None or not t.marks or n in opened:
        return False
    return R.imprisoning(st, n) or (not keycard and "keycard_door" in t.marks)


def _walk_now(
    st: HeistState,
    sources: set[str],
    allowed: set[str] | None,
    *,
    outward: bool,
    start: int,
    keycard: bool,
    opened: frozenset[str],
    key: P.WalkKey | None = None,
    vent: bool = False,
) -> dict[str, int]:
    dist = {n: start for n in sources if R.alive(st, n) and (allowed is None or n in allowed)}
    heap = [(start, n) for n in sorted(dist)]
    shutting = gates_shutting(st)
    table = R.neighbour_table(st)
    across = R.vent_table(st) if vent else {}
    costs = _tile_costs(st, key)
    while heap:
        d, cur = heapq.heappop(heap)
        if d > dist[cur]:
            continue
        if (outward or cur not in sources) and _shut_to(st, cur, keycard, opened):
            continue  # walked onto, not through (the sources of a walk toward them are its ends)
        for extra, near in ((0, table.get(cur, ())), (P.VENT_COST, across.get(cur, ()))):
            for m in near:
                if (allowed is not None and m not in allowed) or m in shutting:
                    continue
                nd = d + extra + (costs.get(m, 1) if outward else (costs.get(cur, 1) if d else 1))
                if nd < dist.get(m, nd + 1):
                    dist[m] = nd
                    heapq.heappush(heap, (nd, m))
    return dist


class _Walks:
    """Each character's walking costs for one evaluation: from where it stands and to the nearest exit,
    over the tiles it may walk on (its planned tiles and the exits; anywhere once the escape is on)."""

    def __init__(
        self,
        st: HeistState,
        outs: set[str] | None = None,
        opened: frozenset[str] = frozenset(),
        key: P.WalkKey | None = None,
        escape_ideas: bool = False,
    ) -> None:
        # ``outs``: where loot is carried to, if not the exits (The Final Score Part 1's documents: a hideout);
        # ``opened``: shut tiles walked through as if open (their opening counted apart);
        # ``escape_ideas``: a walk out may instead be the escape's run, its moves paid by the walker's ideas
        self.st = st
        self.outs = outs
        self.opened = opened
        self.escape_ideas = escape_ideas and outs is None
        self._with: dict[frozenset[str], _Walks] = {opened: self}
        self._ways: dict[frozenset[str], tuple[int, frozenset[str]]] = {}
        # Once the escape is called (or on), the crew only runs: nothing more is opened, cracked or freed.
        self.running = st.escape_called or st.phase == "escape"
        # A carrier who has the loot may think until the alarm: the rounds left, at its own rate of ideas.
        rounds = 0 if self.running or not self.escape_ideas else rounds_left(st)
        self.thinking: list[float] = []
        exits = R.exits(st)
        to = exits if outs is None else outs
        self.key = key = key or walk_key(st)
        self.frm: list[dict[str, int]] = []
        self.out_of: list[dict[str, int]] = []
        self.by_seat: dict[str, int] = {}
        self.held: list[int] = []
        self.ideas: list[int] = []
        self.runner: list[tuple[bool, bool]] = []  # the escape's step costs: (There are better ways, keycard)
        self.vent: list[bool] = []  # Grease Men, whose walks may cross gaps
        self._runs: dict[tuple[str, bool, bool], int] = {}
        self.allowed: list[set[str] | None] = []
        for p in R.in_play(st):
            if not p.pos:
                continue
            allowed = None if st.phase == "escape" else set(p.plans) | exits | {p.pos}
            self.by_seat[p.seat] = len(self.frm)
            self.allowed.append(allowed)
            # A guard on the character's own tile holds it there: one subdue each before its first step.
            held = 0 if A.can_leave(st, p) else R.guards(st, p.pos)
            better = "there_are_better_ways" in R.abilities(p)
            if held and better and not R.imprisoning(st, p.pos):
                # There are better ways: she never subdues, but an idea slips her past them all this round.
                # Counted as subdues, Iceheart's guard and three dogs on The Proving Grounds were worth two
                # steps more than a single dog, though one idea frees her from either. Not two while she
                # has no idea: the dogs follow her, so a move that spends her last idea would count as
                # going nowhere, and she stood on the torch's tile thinking.
                held = 1
            self.held.append(held)
            self.ideas.append(p.ideas)
            self.thinking.append(rounds * R.ideas_a_round(p))
            card = "keycard" in p.loot
            self.runner.append((better, card))
            vent = P.vents(p)
            self.vent.append(vent)
            walk = partial(_walk, st, allowed=allowed, key=key, keycard=card, opened=opened, vent=vent)
            self.frm.append(walk({p.pos}, outward=True, start=held))
            self.out_of.append(walk(to, outward=False))
        self.free_out = _walk(st, to, None, outward=False, key=key, opened=opened)

    def with_opened(self, opened: frozenset[str]) -> _Walks:
        """The same walks with the shut tiles ``opened`` walked through as if open."""
        if opened not in self._with:
            walks = _Walks(self.st, self.outs, opened, self.key, self.escape_ideas)
            walks._runs = self._runs  # the escape's runs go over the board as it stands, whatever is opened
            self._with[opened] = walks
        return self._with[opened]

    def carry(self, seat: str) -> float:
        """From where ``seat``'s character stands to the nearest exit."""
        i = self.by_seat.get(seat)
        pos = self.st.players[seat].pos
        if i is None:
            return FAR
        if R.imprisoning(self.st, pos) and pos not in self.opened:
            # shut in under a remote lock (a jailed character in its cell): its server first, then out
            cost, opened = self.open_way({pos})
            if pos in opened:
                return cost + self.with_opened(opened).carry(seat)
        return min(FAR, self.out(i, pos, self.held[i], self.thinking[i]))

    def out(self, i: int, n: str, held: int = 0, thinking: float = 0.0) -> float:
        """Character ``i``'s walk out from ``n`` (``held``: subdues before its first step), or, with
        ``escape_ideas``, the escape's run from there if that costs less: the run goes anywhere and its moves
        are paid by the character's ideas (and ``thinking``: the ideas it can still gather before the alarm),
        then the last-ditch die, which always covers one; each move beyond counts as a step. Crews walked the
        documents out step by noisy step, two or three rounds of the deck, where the scripted wins call the
        escape with ideas in hand."""
        walk = held + self.out_of[i].get(n, FAR)
        if not self.escape_ideas:
            return walk
        return min(walk, max(0, self.run(n, *self.runner[i]) - self.ideas[i] - thinking - 1))

    def run(self, n: str, better: bool, keycard: bool) -> int:
        """The escape moves from ``n`` to the nearest way out (:func:`rules.escape_paths`; :data:`FAR` with
        none), memoised for this evaluation."""
        key = (n, better, keycard)
        if key not in self._runs:
            costs, _prev = R.escape_paths(self.st, n, better, keycard)
            self._runs[key] = min((costs[e] for e in R.escape_goals(self.st) if e in costs), default=FAR)
        return self._runs[key]

    def npc_out(self, n: str) -> int:
        """From ``n`` to the nearest exit, anywhere (NPCs need no plan)."""
        return min(FAR, self.free_out.get(n, FAR))

    def reach(self, goals: set[str]) -> int:
        """From the nearest character inside to the nearest of ``goals``."""
        best = FAR
        for frm in self.frm:
            for g in goals:
                best = min(best, frm.get(g, FAR))
        return best

    def crack(self, safes: set[str]) -> int:
        """Getting the safe's tools onto the safe (:data:`R.SAFE_TOOLS`: only they crack it): a carrier's
        walk there, or a character's to where they lie and on to the safe over its own plan, as the
        carrier's would be once it picks them up (over the board where no plan goes on to the safe;
        :data:`NO_WAY` with none left anywhere), after opening the way to it; or a Grease Man's crawl there
        with the tools (carried, or handed to him where he stands: :data:`HANDOVER`), which opens nothing."""
        cost, opened = self.open_way(safes)
        w = self.with_opened(opened)
        carriers = [w.frm[i] for s, i in w.by_seat.items() if R.carries_tools(self.st.players[s])]
        if carriers:
            best = cost + min(min((frm.get(n, FAR) for n in safes), default=FAR) for frm in carriers)
            # a Grease Man with them (or handed them where he stands) may crawl round what shuts the safe in
            for s, i in self.by_seat.items():
                p = self.st.players[s]
                if self.vent[i] and (R.carries_tools(p) or P.tools_taker(self.st, p)):
                    handed = 0 if R.carries_tools(p) else HANDOVER
                    best = min(best, handed + min((self.frm[i].get(n, FAR) for n in safes), default=FAR))
            return best
        lying = P.tool_places(self.st)
        if not lying:
            return cost + NO_WAY
        best = FAR
        for s, i in w.by_seat.items():
            card = "keycard" in self.st.players[s].loot
            on = _walk(self.st, safes, w.allowed[i], outward=False, key=w.key, keycard=card, opened=opened)
            best = min(best, min(w.frm[i].get(n, FAR) + on.get(n, FAR) for n in lying))
        return cost + (best if best < FAR else w.bring(lying, safes))

    def crack_hands(self, safes: set[str], work: float) -> float:
        """The cracking ``work`` left, shared with the crewmates who will stand by the safe: a Plasma
        Torch's bearer on the safe turns the 🔓 of characters on or next to its tile into 🧩 too. With
        ``k`` helpers the work is split ``k + 1`` ways, and the walks of the ``k`` nearest to the safe's
        side are added (over their plans), taking the ``k`` that costs least. Anything else cracks alone.
        On The Proving Grounds the crewmates' walks toward the safe counted for nothing, so they stood
        outside thinking while the gate on their short way shut."""
        torch = "plasma_torch"
        carriers = [s for s, i in self.by_seat.items() if torch in self.st.players[s].items]
        lying = {n for n, t in self.st.tiles.items() if f"item:{torch}" in t.loot and R.alive(self.st, n)}
        if not carriers and not lying:
            return work
        if not carriers:  # who fetches it is the one nearest to it, and not a helper
            near = min(self.by_seat, key=lambda s: min(self.frm[self.by_seat[s]].get(n, FAR) for n in lying))
            carriers = [near]
        beside = set(safes) | {m for n in safes for m in R.nbrs(self.st, n)}
        walks = sorted(
            min((self.frm[i].get(n, FAR) for n in beside), default=FAR)
            for s, i in self.by_seat.items()
            if s not in carriers
        )
        best, walked = work, 0
        for k, h in enumerate(walks, start=1):
            if h >= FAR:
                break
            walked += h
            best = min(best, walked + work / (k + 1))
        return best

    def fetch(self, tiles: set[str]) -> int:
        """Someone walks to one of ``tiles`` (opening it first: its server or keycard) and out again."""
        tiles = {n for n in tiles if R.alive(self.st, n)}
        if not tiles:
            return 2 * FAR
        best = 2 * FAR + UNPLANNED
        for n in sorted(tiles):  # one of them, with only its own way opened
            cost, opened = self.open_way({n})
            w = self.with_opened(opened)
            walk = min((frm.get(n, FAR) + out.get(n, FAR) for frm, out in zip(w.frm, w.out_of, strict=True)),
                       default=2 * FAR)  # fmt: skip
            best = min(best, min(2 * FAR, walk) + cost)
        return best

    def fetch_each(self, tiles: dict[str, int], k: int) -> float:
        """The walks of ``k`` pieces of loot lying on ``tiles`` (tile -> pieces there) fetched and carried out,
        each by a different character where there are enough (the cheapest pairs first; a piece nobody
        is left for costs a trip from the nearest exit and back), plus opening their way once. A single piece
        may instead be a Grease Man's, crawling round what shuts it in with nothing opened (The Final Score
        Part 1's documents, in the safe behind keycard door i4)."""
        live = {n: c for n, c in tiles.items() if R.alive(self.st, n)}
        if not live:
            return 2.0 * FAR * k
        crawl = float("inf")
        if k == 1:
            for i, vent in enumerate(self.vent):
                if vent:
                    crawl = min([crawl, *(self.frm[i].get(n, UNPLANNED) + self.out(i, n) for n in live)])
        return min(crawl, self._fetch_each(tiles, live, k))

    def _fetch_each(self, tiles: dict[str, int], live: dict[str, int], k: int) -> float:
        opening, opened = self.open_way(set(tiles))
        w = self.with_opened(opened)
        # off a character's plan a piece is all but out of its reach (plans are fixed), however short the
        # escape's run from there would be with the keycard it carries
        pairs = sorted(
            (frm.get(n, UNPLANNED) + w.out(i, n), i, n) for i, frm in enumerate(w.frm) for n in live
        )
        total = 0.0
        used: set[int] = set()
        for cost, i, n in pairs:
            if k == 0:
                break
            if i in used or not live[n]:
                continue
            used.add(i)
            live[n] -= 1
            total += min(cost, 2 * FAR)
            k -= 1
        for _ in range(k):
            left = [n for n, c in live.items() if c] or list(tiles)
            total += min(2 * FAR, min(2 * w.free_out.get(n, FAR) for n in left))
        return total + opening

    def open_way(self, tiles: set[str]) -> tuple[int, frozenset[str]]:
        """The walks that open ``tiles`` and the shut tiles they open. Stage by stage from the outermost
        (:func:`policy.opener_stages`), each need on its own: to a server, or to a keycard (or The Side
        Channel's USB key) and on with it to the doors (the guide), walking through what the earlier
        stages opened; a place no plan reaches that way costs :data:`UNPLANNED`. Out of reach once the crew
        is running."""
        asked = frozenset(tiles)
        if asked not in self._ways:
            self._ways[asked] = self._open_way(tiles)
        return self._ways[asked]

    def _open_way(self, tiles: set[str]) -> tuple[int, frozenset[str]]:
        stages = P.opener_stages(self.st, tiles)
        if not stages:
            return 0, frozenset()
        if self.running:
            return 2 * FAR, frozenset()
        total = 0
        opened = self.opened
        for needs, opens in reversed(stages):
            w = self.with_opened(opened)
            for places, to in needs:
                total += NO_WAY if not places else w.bring(places, to)
            opened = opened | frozenset(opens)
        return total, opened

    def bring(self, places: set[str], to: set[str]) -> int:
        """From the nearest character inside to one of ``places`` (:data:`UNPLANNED` if none can), and on
        from there to the nearest of ``to``, if any: over the carrier's own plan (:meth:`carry_to`), or
        handed on where its plan meets a crewmate's that goes on there."""
        if not to:
            best = UNPLANNED
            for frm in self.frm:
                for n in places:
                    best = min(best, frm.get(n, UNPLANNED))
            return best
        best = UNPLANNED + FAR
        onward = [self.carry_to(i, to) for i in range(len(self.frm))]
        holders = {  # characters carrying what opens the way (a keycard, the USB key, a safe's tools)
            i: self.st.players[seat].pos
            for seat, i in self.by_seat.items()
            if set(self.st.players[seat].loot) & HANDED or R.carries_tools(self.st.players[seat])
        }
        for i, frm in enumerate(self.frm):
            for n in places:
                fetch = frm.get(n, UNPLANNED)
                if i not in holders and n in holders.values():
                    fetch += HANDOVER  # taken from the crewmate who carries it
                if fetch >= best:
                    continue
                best = min(best, fetch + onward[i].get(n, UNPLANNED))
                if len(self.frm) < 2:
                    continue
                # handed on: carried over its own plan to a tile of another's, which walks there and on. The
                # hand-over counts a step, so that the carrier hands it on (or leaves it there) rather than
                # ends its action still holding it, out of reach of the crewmate who must take it on.
                along = _walk(
                    self.st, {n}, self.allowed[i], outward=True, key=self.key, keycard=True, vent=self.vent[i]
                )
                for j, meets in enumerate(self.frm):
                    if j == i:
                        continue
                    for m, carried in along.items():
                        if m in onward[j] and m in meets:
                            best = min(best, fetch + carried + meets[m] + onward[j][m] + HANDOVER)
        return best

    def carry_to(self, i: int, to: set[str]) -> dict[str, int]:
        """Character ``i``'s walk from every tile of its plan to ``to`` over its own plan, carrying the
        keycard: onto one of them, or to a tile beside one at a step more (a keycard door opens to a carrier
        next to it, and The Side Channel's guide walks to the USB key's carrier)."""
        allowed, vent = self.allowed[i], self.vent[i]
        if allowed is None:
            return _walk(self.st, to, None, outward=False, key=self.key, keycard=True, vent=vent)
        sides = {m for n in to for m in R.neighbour_table(self.st).get(n, ())} - to
        onto = _walk(self.st, to, allowed, outward=False, key=self.key, keycard=True, vent=vent)
        beside = _walk(self.st, sides, allowed, outward=False, start=1, key=self.key, keycard=True, vent=vent)
        return {n: min(onto.get(n, FAR), beside.get(n, FAR)) for n in {*onto, *beside}}


def job_steps(st: HeistState, escape_ideas: bool = False) -> tuple[float, int]:
    """The crew's remaining work as walking steps (an estimate from public facts) and how many parts the
    objective has: each missing piece of loot fetched and carried out (into a hideout for The Final Score
    Part 1's documents; its remote lock or keycard door opened first), the safe reached and cracked, the NPC freed and brought out, a breakout's cell reached.
    Once the escape is called the crew only runs (picking up loot on the way), so whatever still needs a
    server, keycard, safe or freeing counts as out of reach. ``escape_ideas``: a walk out with the loot may
    be the escape's run paid by the walker's ideas instead (:meth:`_Walks.out`); without it, the steps are
    all walked (the bench's measure of progress)."""
    o = R.heist(st).objective
    w = everywhere = _Walks(st, escape_ideas=escape_ideas)
    steps = 0.0
    parts = 0
    inside = R.in_play(st)
    hidden = _Walks(st, R.hideouts(st)) if o.special == "docs_in_hideout" else w
    for kind, need in (("docs", o.docs), ("jewel", o.jewels), ("cash", o.cash_k)):
        if not need:
            continue
        parts += 1
        w = hidden if kind == "docs" else everywhere
        missing = need - st.hauled.get(kind, 0)
        if missing <= 0:
            continue
        carriers = [
            w.carry(p.seat) for p in inside for _ in range(p.cash if kind == "cash" else p.loot.count(kind))
        ]
        for n in st.npcs:
            if n.status == "in":
                carriers += [w.npc_out(n.pos)] * n.loot.count(kind)
        carriers.sort()
        carried = carriers[:missing]
        steps += sum(carried) / need
        missing -= len(carried)
        if missing <= 0:
            continue
        where = {n: (t.cash if kind == "cash" else t.loot.count(kind)) for n, t in st.tiles.items()}
        where = {n: c for n, c in where.items() if c}
        if o.safe and "safe_open" not in st.flags and kind == "docs":
            where = {}
        if where:
            steps += w.fetch_each(where, missing) / need
        else:  # not on the board yet: from the safe, or somewhere in the unknown tiles
            unknown = {n for n, t in st.tiles.items() if t.unknown}
            if w.running:  # nothing more is revealed or cracked
                steps += missing * 2 * FAR / need
            else:
                steps += missing * (FAR if o.safe else w.reach(unknown) + FAR // 2) / need
    w = everywhere
    if o.safe:
        parts += 1
        safe = R.heist(st).safe
        if "safe_open" not in st.flags:
            tiles = P.safe_tiles(st)
            left = (safe.cracks if safe is not None else 1) - st.safe
            steps += (
                2 * FAR if w.running else w.crack(tiles) + w.crack_hands(tiles, CRACK_STEPS * max(0, left))
            )
    if o.npc_escapes:
        parts += 1
        if not any(n.status == "escaped" for n in st.npcs):
            moving = any(r.id == "moving_target" for r in R.heist(st).rules)
            # No cap at 2 × FAR: a hostage behind a keycard door still to be found cost 40 steps at the
            # start of The Hospitality Job, so the capped count stood still while the crew closed in.
            costs: list[float] = []
            for n in st.npcs:
                if n.status != "in":
                    continue
                if w.running:
                    cost = float(w.npc_out(n.pos) + (0 if n.active else 2 * FAR))
                else:  # the way to it opened (a prisoner under a remote lock: its server), freed, and out
                    opening, opened = w.open_way({n.pos})
                    freed = w.with_opened(opened)
                    # A hostage is taken on its tile; a prisoner goes free once nothing holds it (its
                    # server stood on, the guard on its tile subdued), unless guards lead it (The Safehouse
                    # Rescue): someone must reach her.
                    visit = not n.active and (n.kind != "prisoner" or R.guards(st, n.pos) > 0 or moving)
                    cost = float(opening + freed.npc_out(n.pos) + (freed.reach({n.pos}) if visit else 0))
                costs.append(cost)
            steps += min(costs, default=2.0 * FAR)
    if o.characters_escape:
        parts += 1
        if sum(p.status == "escaped" and R.counts_for_breakout(st, p) for p in st.players.values()) < 1:
            cells = set(R.cells(st))
            broke = [w.carry(p.seat) for p in inside if p.pos and R.counts_for_breakout(st, p)]
            steps += min(broke) if broke else w.fetch(cells) if cells else FAR
    return steps, parts


def alerts_due(st: HeistState) -> int:
    """Event cards the noise and alerts already owed by unfinished actions will throw away."""
    return int(cards_owed(st))


def rounds_left(st: HeistState) -> int:
    """Action phases still to come after this one before the deck runs out, if the crew raises no more alerts
    than the unfinished actions already owe: one per event card left (crises come with an event, not on their
    own), less the card this round's Event phase plays."""
    this_round = 1 if st.phase in ("plan", "action") else 0
    return max(0, R.events_left(st) - this_round - alerts_due(st))


def cards_owed(st: HeistState) -> float:
    """Event cards the unfinished actions' noise and alerts will throw away, plus how far the noise marker
    will then have crept toward its next alert space (a fraction of a card)."""
    spaces, final = R.track(st)
    noise = st.noise
    out = 0.0
    for p in R.in_play(st):
        out += p.alert_due
        for _ in range(p.noise_due):
            if noise >= final:
                out += 1
            else:
                noise += 1
                out += noise in spaces
    if noise < final:
        prev = max((a for a in spaces if a <= noise), default=0)
        nxt = min((a for a in spaces if a > noise), default=final)
        out += (noise - prev) / max(1, nxt - prev)
    return out


WORK_SCALE = 60.0  # steps of work the score counts down from, a step at a time
WORK_TAIL = 40.0  # beyond this many steps the score falls off more gently and never reaches 0


def work_left_score(steps: float) -> float:
    """1 for no work left, falling by 1/60 a step to 1/3 at 40 steps, then as 40/(3 × steps): jobs that start
    beyond 60 steps (The Marathon Job, The Final Score Part 1) still score each step of progress."""
    if steps <= WORK_TAIL:
        return 1.0 - steps / WORK_SCALE
    return (1.0 - WORK_TAIL / WORK_SCALE) * WORK_TAIL / steps


def crew_score(st: HeistState) -> float:
    """How close the crew is to pulling the heist off, 0..1, from public facts: the walking steps of work
    left (:func:`job_steps`, secured parts cost nothing), characters busted, and the event deck left (the
    clock: cards the unfinished actions' noise will throw away count as gone)."""
    if "plan_lost" in st.flags:
        return 0.01
    steps, _parts = job_steps(st, escape_ideas=True)
    work = work_left_score(steps)
    crew = list(st.players.values())
    busted = float(sum(p.status == "busted" for p in crew))
    # Every gate left shuts when the escape starts (ruling 47), and a card about to shut one is in sight
    # (:func:`gates_shutting`): who stands on one then is lost.
    shutting = set(gates_shutting(st))
    for p in R.in_play(st):
        if p.pos and (p.pos in shutting or (st.escape_called and R.on_gate(st, p.pos))):
            busted += 1.0 if p.done else 0.5
    busted /= max(1, len(crew))
    total = max(1, len(st.deck) + len(st.discard))
    time_left = max(0.0, len(st.deck) - cards_owed(st)) / total
    score = 0.05 + 0.6 * work + 0.25 * time_left - 0.25 * busted
    return min(0.95, max(0.01, score))


def evaluate(st: HeistState, seat: str) -> float:
    """The position for the crew (every seat shares it) in 0..1: 1 won, 0 failed, else :func:`crew_score`."""
    if st.result is not None:
        return 1.0 if seat in st.result.winners else 0.0
    return crew_score(st)


__all__ = ["copy_state", "determinize", "evaluate"]
