"""Weights for a game-controlled thief: plan a route to the goal, follow it, grab the loot, get out.

Uses only public information (the board, revealed chits and loot, the face-up deck), never the bag's
contents or future dice.
"""

from __future__ import annotations

import heapq
from collections import deque
from functools import partial

from engine.core import Command
from engine.memo import Memo
from engine.rulesets.heist import actions as A
from engine.rulesets.heist import npcs as N
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState, Npc, Player

FAR_BURDEN = 99  # the escape moves owed by a character with no way out at all
# With this many event cards left (or fewer), the crew may call the escape though the job is unfinished.
LAST_CARDS = 2
VERB_WEIGHTS = {
    "plan": 1, "unplan": 0, "start": 1, "tunnel": 1, "buy": 0, "sell": 0, "ready": 1, "act": 5,
    "move": 1, "unlock": 10, "subdue": 10, "disable": 8, "reveal": 4, "idea": 10, "loot": 10, "crack": 40,
    "efficient": 2, "hack": 6, "toss": 0, "done": 1, "undo": 0, "take": 40, "drop": 0, "give": 0, "open": 30,
    "escort": 40, "escape": 0, "slip": 2, "larceny": 0, "vent": 0, "codes": 1, "newplan": 0, "replan": 0,
    "teamwork": 0, "run": 5, "force": 8, "pinch": 2, "continue": 10, "blab": 6, "tip": 2, "share": 1,
    "handoff": 2, "inspire": 2, "deck": 0,
}  # fmt: skip


def hazard(st: HeistState, n: str) -> int:
    """How much a route through ``n`` is worth avoiding: live cameras (alerts), guards, locks."""
    t = st.tiles.get(n)
    if t is None:
        return 0
    cost = 0
    for c in t.chits:
        if c.active:
            cost += HAZARDS.get(c.kind, 0)
    return cost


HAZARDS = {"camera": 3, "guard": 2, "dog": 2, "lock": 1}  # what an active chit adds to a route's cost


def hazard_key(st: HeistState) -> tuple[tuple[str, int], ...]:
    """Every tile's :func:`hazard` above 0, in the board's order: for memos of walks that count them."""
    return tuple([(n, h) for n, t in st.tiles.items() if t.chits and (h := hazard(st, n))])


WalkKey = tuple[object, ...]


def walk_key(st: HeistState) -> WalkKey:
    """What every walk over the board depends on besides its ends: the board as it stands
    (:func:`rules.board_key`) and the hazards (:func:`hazard_key`). Callers that walk many times over one
    position work it out once and pass it to :func:`distances` and :func:`walk_costs`."""
    return (R.board_key(st), hazard_key(st))


def distances(
    st: HeistState,
    goals: set[str],
    *,
    unsealed: bool = False,
    key: WalkKey | None = None,
    avoid: frozenset[str] = frozenset(),
    vent: bool = False,
) -> dict[str, int]:
    """Cost from every tile to the nearest goal over the board now: one per step plus the hazards entered.
    ``unsealed``: never through a remote lock or keycard door (:func:`rules.sealed`); ``key``: the
    position's :func:`walk_key`, when the caller has it; ``avoid``: tiles the walk does not enter;
    ``vent``: a Grease Man's walk, which may also cross a gap at :data:`VENT_COST` more (:func:`vents`).

    Memoised on what the walk depends on (the board as it stands, the hazards, the sealed tiles when
    ``unsealed``, the goals): the search asks the same walks in playout after playout. The result is
    shared: callers must not change it."""
    memo = (key or walk_key(st), R.sealed_key(st) if unsealed else None, frozenset(goals), avoid, vent)
    return _DISTANCES.get(
        memo, lambda: _spread(st, goals, inward=True, unsealed=unsealed, avoid=avoid, vent=vent)
    )


# What crossing a gap by Vent crawl adds to a walk's cost, beyond the step: its 🔊🔊🔊🔊, about as much as
# walking into a live camera's alert.
VENT_COST = 3


def vents(p: Player) -> bool:
    """True for a character who may crawl through the vents (the Grease Man's Vent crawl): its walks may
    cross a gap."""
    return "vent_crawl" in R.abilities(p)


# Walks kept, about 1.5 kB each: the positions of one search share a handful of boards and hazards.
_DISTANCES: Memo[dict[str, int]] = Memo(2048)
_WALKS: Memo[dict[str, int]] = Memo(2048)
_SHUT: Memo[set[str]] = Memo(2048)
_STEPS: Memo[dict[str, int]] = Memo(256)


def steps_from(st: HeistState, sources: frozenset[str], vent: bool = False) -> dict[str, int]:
    """Plain steps (hazards aside) from the nearest of ``sources`` to every tile on the board as it stands:
    the planning tokens a walk there takes, a token per tile entered (``vent``: a Grease Man's, across gaps
    too). Memoised (shared: do not change it)."""
    return _STEPS.get((R.board_key(st), sources, vent), lambda: R.steps_to(st, set(sources), vent))


def walk_costs(
    st: HeistState,
    sources: set[str],
    over: set[str] | None = None,
    *,
    key: WalkKey | None = None,
    vent: bool = False,
) -> dict[str, int]:
    """Cost from ``sources`` out to every tile: one per step plus the hazards of each tile entered; with
    ``over``, walking only onto those tiles (a character's plan and the exits). Memoised like
    :func:`distances` (shared: do not change it); ``key``: the position's :func:`walk_key`, if known;
    ``vent``: across gaps too, as :func:`distances`."""
    memo = (key or walk_key(st), frozenset(sources), None if over is None else frozenset(over), vent)
    return _WALKS.get(memo, lambda: _spread(st, sources, inward=False, over=over, vent=vent))


def _spread(
    st: HeistState,
    sources: set[str],
    *,
    inward: bool,
    over: set[str] | None = None,
    unsealed: bool = False,
    avoid: frozenset[str] = frozenset(),
    vent: bool = False,
) -> dict[str, int]:
    table = R.neighbour_table(st)
    vent_ways = R.vent_table(st) if vent else {}
    dist = {n: 0 for n in sources if R.alive(st, n)}
    heap = [(0, n) for n in sorted(dist)]
    hazards: dict[str, int] = {}  # each tile's, worked out once: a tile is reached from up to six sides
    while heap:
        d, cur = heapq.heappop(heap)
        if d > dist[cur]:
            continue
        # Inward, walking from m into cur costs 1 plus cur's hazards (a goal itself is free to enter);
        # outward, walking from cur into m costs 1 plus m's.
        into = (hazard(st, cur) if d else 0) if inward else None
        for extra, near in ((1, table.get(cur, ())), (1 + VENT_COST, vent_ways.get(cur, ()))):
            for m in near:
                if (over is not None and m not in over) or (unsealed and R.sealed(st, m)) or m in avoid:
                    continue
                if into is None:
                    h = hazards.get(m)
                    if h is None:
                        h = hazards[m] = hazard(st, m)
                    nd = d + extra + h
                else:
                    nd = d + extra + into
                if nd < dist.get(m, nd + 1):
                    dist[m] = nd
                    heapq.heappush(heap, (nd, m))
    return dist


def wanted(st: HeistState) -> set[str]:
    """Loot kinds the objective still needs."""
    o = R.heist(st).objective
    out = set()
    if st.hauled.get("jewel", 0) < o.jewels:
        out.add("jewel")
    if o.special == "docs_in_hideout":  # The Final Score Part 1: only documents hidden in a hideout count
        if "docs_hidden" not in st.flags:
            out.add("docs")
    elif st.hauled.get("docs", 0) < o.docs:
        out.add("docs")
    if st.hauled.get("cash", 0) < o.cash_k:
        out.add("cash")
    return out


def job_done(st: HeistState) -> bool:
    """True when getting everyone out now would meet the objective (as far as the crew can tell)."""
    o = R.heist(st).objective
    if wanted(st):
        return False
    if o.npc_escapes and not any(n.status == "escaped" for n in st.npcs):
        return False
    if o.safe and "safe_open" not in st.flags:
        return False
    if o.characters_escape:
        return any(R.counts_for_breakout(st, p) for p in R.in_play(st))
    return True


def tools_needed(st: HeistState) -> bool:
    """True when the objective asks for the safe and nobody in the crew carries the tools it opens to, nor
    do any lie on the map: someone must buy them (only the Plasma Torch is sold from the start)."""
    if not R.heist(st).objective.safe or "safe_open" in st.flags:
        return False
    if any(R.carries_tools(q) for q in st.players.values()):
        return False
    return not any(_holds_tools(t.loot) for t in st.tiles.values())


def tool_places(st: HeistState) -> set[str]:
    """Where to fetch the tools the objective's safe opens to (only 🧩 cracks it) while it is shut and
    nobody inside carries any: the tiles where a Safecracking Tools or Plasma Torch card lies (The Proving
    Grounds' torch at d8); empty otherwise."""
    if not R.heist(st).objective.safe or "safe_open" in st.flags:
        return set()
    if any(R.carries_tools(q) for q in R.in_play(st)):
        return set()
    return {n for n, t in st.tiles.items() if t.loot and _holds_tools(t.loot) and R.alive(st, n)}


def _holds_tools(loot: list[str]) -> bool:
    return any(f"item:{i}" in loot for i in R.SAFE_TOOLS)


def safe_tiles(st: HeistState) -> set[str]:
    """The safe's tile while it stands on the board."""
    return {n for n, t in st.tiles.items() if "safe" in t.marks and R.alive(st, n)}


def _opened_by(st: HeistState, tiles: set[str]) -> set[str]:
    marks = {m for n in tiles for m in st.tiles[n].marks}
    out: set[str] = set()
    for server, lock in R.REMOTE.items():
        if lock in marks:
            out |= {n for n, t in st.tiles.items() if server in t.marks and R.alive(st, n)}
    if "keycard_door" in marks:
        out |= _keycards(st)
    # The Side Channel: remote lock Y opens by the USB key handed to the guide, and a keycard door may
    # stand between the two.
    if "remote_lock_y" in marks and R.has_rule(st, "usb_to_guide"):
        if any("usb" in q.loot for q in R.in_play(st)):
            out |= {n.pos for n in st.npcs if n.kind == "guide" and n.status == "in"}
        else:
            out |= {n for n, t in st.tiles.items() if "usb" in t.loot and R.alive(st, n)}
        if guide_doors(st):
            out |= _keycards(st)
    return out


def _keycards(st: HeistState) -> set[str]:
    """Where to fetch a keycard when nobody inside carries one: where one lies, or the unknown tiles when
    none is on the board and the security bag still holds one (empty when someone carries one)."""
    if any("keycard" in q.loot for q in R.in_play(st)):
        return set()
    cards = {n for n, t in st.tiles.items() if "keycard" in t.loot and R.alive(st, n)}
    if not cards and "keycard" in st.bag:  # none on the board yet: search the unknown tiles for one
        cards = {n for n, t in st.tiles.items() if t.unknown and R.alive(st, n)}
    return cards


def guide_doors(st: HeistState) -> set[str]:
    """The Side Channel: the keycard doors that shut the guide off from the USB key (its carrier, or where it
    lies) while remote lock Y stands; empty elsewhere. The guide waits behind keycard door g7."""
    meeting = usb_meeting(st)
    if not meeting:
        return set()
    keys = {q.pos for q in R.in_play(st) if "usb" in q.loot and q.pos}
    keys = keys or {n for n, t in st.tiles.items() if "usb" in t.loot and R.alive(st, n)}
    if not keys:
        return set()
    return {n for n in _shut_walk(st, meeting, keys) if "keycard_door" in st.tiles[n].marks}


def opener_steps(st: HeistState, tiles: set[str]) -> list[set[str]]:
    """Where someone must go, innermost first, so that ``tiles`` can be entered: the server of a remote
    lock on one of them, the keycard (on the board) for a keycard door when nobody inside carries one; and
    again for such a place that is itself shut in (locked, or every way in locked), three levels at most."""
    levels: list[set[str]] = []
    blocked = _shut(st, tiles)
    seen = set(tiles)
    for _ in range(3):
        need = _opened_by(st, blocked) - seen
        if not need:
            break
        levels.append(need)
        seen |= need
        blocked = _shut(st, need)
    return levels


def opener_stages(st: HeistState, tiles: set[str]) -> list[tuple[list[tuple[set[str], set[str]]], set[str]]]:
    """What must happen so that ``tiles`` can be entered, in stages, innermost first as in
    :func:`opener_steps`: each stage's needs and the shut tiles (remote locks, keycard doors) they open. A need
    pairs where someone must go (any one of the places) with where what they pick up there must then be
    carried (empty: going there is enough): a remote lock's server (one need per kind of lock); a keycard,
    lying or carried, to the keycard doors; The Side Channel's USB key, lying or carried, to the guide. A
    need with no places at all cannot be met (nothing left on the board opens that lock: its server gone,
    The Side Channel's guide gone out). An outer stage opens the way to an inner one's places. Raises nothing."""
    stages: list[tuple[list[tuple[set[str], set[str]]], set[str]]] = []
    seen_needs: list[tuple[set[str], set[str]]] = []
    blocked = _shut(st, tiles)
    seen = set(tiles)
    for _ in range(3):
        level = [(places - seen, to) for places, to in _needs_of(st, blocked) if not places or places - seen]
        level = [need for need in level if need not in seen_needs]  # a lock nothing opens is counted once
        if not level:
            break
        stages.append((level, set(blocked)))
        seen_needs += level
        reached = {n for places, _ in level for n in places}
        seen |= reached
        blocked = _shut(st, reached)
    return stages


def _needs_of(st: HeistState, tiles: set[str]) -> list[tuple[set[str], set[str]]]:
    marks = {m for n in tiles for m in st.tiles[n].marks}
    out: list[tuple[set[str], set[str]]] = []
    doors = {n for n in tiles if "keycard_door" in st.tiles[n].marks}
    for server, lock in R.REMOTE.items():
        if lock not in marks:
            continue
        if lock == "remote_lock_y" and R.has_rule(st, "usb_to_guide"):
            # The Side Channel: the USB key in the guide's hands opens it (no server; nothing once he is out)
            guide = usb_meeting(st)
            keys = {q.pos for q in R.in_play(st) if "usb" in q.loot and q.pos}
            keys = keys or {n for n, t in st.tiles.items() if "usb" in t.loot and R.alive(st, n)}
            out.append((keys if guide else set(), guide))
            doors |= guide_doors(st)
        else:
            out.append(({n for n, t in st.tiles.items() if server in t.marks and R.alive(st, n)}, set()))
    if doors:
        cards = {q.pos for q in R.in_play(st) if "keycard" in q.loot and q.pos} or _keycards(st)
        out.append((cards, doors))
    return out


def _shut(st: HeistState, tiles: set[str]) -> set[str]:
    """What shuts ``tiles`` off from the exits: those of them under a remote lock or keycard door, and,
    when no exit can be reached from them without crossing one, the remote locks and keycard doors around
    the part of the building they lie in. Memoised like :func:`distances` (shared: do not change it)."""
    key = (R.board_key(st), R.sealed_key(st), frozenset(tiles))
    return _SHUT.get(key, lambda: _shut_walk(st, tiles))


def _shut_walk(st: HeistState, tiles: set[str], outs: set[str] | None = None) -> set[str]:
    # ``outs``: the tiles to be reached from ``tiles`` (default the exits)
    hard = partial(R.sealed, st)
    out = {n for n in tiles if hard(n)}
    outs = R.exits(st) if outs is None else outs
    seen = {n for n in tiles if not hard(n)} | {m for n in out for m in R.nbrs(st, n) if not hard(m)}
    queue = deque(sorted(seen))
    doors: set[str] = set()
    while queue:
        cur = queue.popleft()
        if cur in outs:
            return out
        for m in R.nbrs(st, cur):
            if m in seen:
                continue
            if hard(m):
                doors.add(m)
                continue
            seen.add(m)
            queue.append(m)
    return out | doors


def openers(st: HeistState, tiles: set[str]) -> set[str]:
    """Every place :func:`opener_steps` names for ``tiles``."""
    return {n for level in opener_steps(st, tiles) for n in level}


def goals_for(st: HeistState, p: Player) -> set[str]:
    """Where this character wants to go now (:func:`crew_goals`)."""
    return crew_goals(st).get(p.seat, R.exits(st))


ALARM_NEAR = 6  # event cards left when the crew starts to think of the way out
MIN_INSIDE = 2  # characters that go in whatever the places dealt; the others may wait outside


def usb_meeting(st: HeistState) -> set[str]:
    """The Side Channel: while remote lock Y still stands, the guide's tile, where whoever carries the USB
    key hands it over to open the lock (empty in other heists, or once the lock is gone)."""
    if not R.has_rule(st, "usb_to_guide") or not any("remote_lock_y" in t.marks for t in st.tiles.values()):
        return set()
    return {n.pos for n in st.npcs if n.kind == "guide" and n.status == "in"}


def _own_goal(st: HeistState, p: Player) -> set[str] | None:
    """A goal this character has whatever the others do: out with the loot it carries, out when the alarm
    is near and its escape moves might not get it out from where it stands, into the cells and out again in
    a breakout; None when it takes a share of the crew's targets."""
    need = wanted(st)
    outs = R.exits(st)
    if "docs" in need and "docs" in p.loot and R.heist(st).objective.special == "docs_in_hideout":
        return R.hideouts(st)  # The Final Score Part 1: the documents go into a hideout, not out
    carrying = bool(set(p.loot) & need) or (p.cash > 0 and "cash" in need)
    if carrying:
        return outs
    if "keycard" in p.loot and (sides := door_sides(st)):
        return sides  # the keycard opens the door to the crew's places
    if "usb" in p.loot and (guide := usb_meeting(st)):
        return guide  # The Side Channel: the key opens remote lock Y once the guide has it
    if p.pos and R.on_gate(st, p.pos) and (st.escape_called or len(st.deck) <= LAST_CARDS):
        return R.escape_goals(st)  # every gate left shuts when the escape starts (ruling 47): off it first
    if len(st.deck) <= ALARM_NEAR and (escape := R.escape_need(st, p)) is not None and escape > p.ideas + 3:
        # Unplanned escape moves (a 💡 each, then the last-ditch die) take a character out when the escape
        # comes, so one that can still make it keeps at the job: turning back with the deck nearly out,
        # crews left jewels one step away.
        return R.escape_goals(st)
    if R.heist(st).objective.characters_escape:  # a jail heist: break in to the cells, then out
        cells = set(R.cells(st))
        return outs if R.counts_for_breakout(st, p) or not cells else cells
    return None


def crew_targets(st: HeistState) -> tuple[set[str], set[str]]:
    """The places the crew must reach for the objective (loot it still needs, the safe, an NPC to free or
    the server that frees it) and, apart, the servers and keycards that open the way to them."""
    need = wanted(st)
    targets = {
        n
        for n, t in st.tiles.items()
        if R.alive(st, n) and (set(t.loot) & need or ("cash" in need and t.cash))
    }
    if R.heist(st).objective.safe:
        targets |= safe_tiles(st)
    for npc in st.npcs:
        if npc.status != "in":
            continue
        if npc.active:
            # A freed NPC walks out on its own, unless a keycard door or remote lock shuts it in (The Black
            # Box's Architect, behind a keycard door): then the crew must open the way to it.
            if R.heist(st).objective.npc_escapes and _shut(st, {npc.pos}):
                targets.add(npc.pos)
            continue
        locks = [m for m in ("remote_lock_x", "remote_lock_y") if m in st.tiles[npc.pos].marks]
        if locks:  # free a prisoner by standing on the matching server
            servers = {lock.replace("remote_lock", "server") for lock in locks}
            targets |= {n for n, t in st.tiles.items() if servers & set(t.marks) and R.alive(st, n)}
        else:
            targets.add(npc.pos)
    return targets, (openers(st, targets) | tool_places(st)) - targets


def goals_key(st: HeistState) -> tuple[object, ...]:
    """Everything :func:`crew_goals` reads of a position: the board as it stands, every tile's contents,
    the characters (where they stand, plans, what they carry, abilities), the NPCs, the objective's
    progress, and the event deck (its length under way, where only the alarm's nearness counts; its order
    in planning, where the gates it shuts steer the plans)."""
    players = tuple(
        (p.seat, p.pos, p.status, p.ready, p.ideas, p.cash, p.spare, p.character, tuple(p.plans), tuple(p.loot),
         tuple(p.items), tuple(p.skills), tuple(p.used), tuple(p.flags))
        for p in st.players.values()
    )  # fmt: skip
    tiles = tuple(
        (
            n,
            t.unknown,
            t.cash,
            tuple(t.loot),
            tuple(t.marks),
            tuple((c.kind, c.active, c.elite) for c in t.chits),
        )
        for n, t in st.tiles.items()
        if t.unknown or t.chits or t.cash or t.loot or t.marks
    )
    npcs = tuple((n.kind, n.pos, n.status, n.active, n.escort, tuple(n.loot)) for n in st.npcs)
    deck: object = tuple(st.deck) if st.phase == "plan" else min(len(st.deck), ALARM_NEAR + 1)
    return (
        st.phase, st.escape_called, deck, "keycard" in st.bag, R.board_key(st), players, tiles, npcs,
        tuple(st.flags), tuple(sorted(st.hauled.items())),
    )  # fmt: skip


_GOALS: Memo[dict[str, set[str]]] = Memo(4096)


def crew_goals(st: HeistState) -> dict[str, set[str]]:
    """Where each character still inside wants to go now (:func:`deal_goals`), memoised on
    :func:`goals_key`: the search asks it at nearly every command of every rollout, mostly of positions it
    has asked before. The answer is shared: callers must not change it."""
    return _GOALS.get(goals_key(st), lambda: deal_goals(st))


def deal_goals(st: HeistState) -> dict[str, set[str]]:
    """Where each character still inside wants to go now. Characters with a goal of their own
    (:func:`_own_goal`) keep it; the crew's targets and openers (:func:`crew_targets`) are dealt out one per
    character, the nearest pairs first, so that nobody walks another's route to the same place and every
    server on the way in has someone of its own. A character left over (more characters than places) heads
    for the objective's place nearest to it. With nothing known to fetch, the crew explores the unknown
    tiles, then picks up loot lying about, then heads out."""
    outs = R.exits(st)
    goals: dict[str, set[str]] = {}
    free: list[Player] = []
    for p in R.in_play(st):
        own = _own_goal(st, p)
        if own is None:
            free.append(p)
        else:
            goals[p.seat] = own
    if not free:
        return goals
    targets, ways_in = crew_targets(st)
    objective = targets
    places = targets | ways_in
    if any("usb" in q.loot for q in R.in_play(st)):
        places -= usb_meeting(st)  # the key's carrier meets the guide: nobody else need go there
    if not places:
        places = {n for n, t in st.tiles.items() if t.unknown and R.alive(st, n)}
    if not places:
        places = {n for n, t in st.tiles.items() if (t.loot or t.cash) and R.alive(st, n) and n not in outs}
    if not places:
        return goals | {p.seat: outs for p in free}
    targets = targets or places
    far = 999
    # Walking costs between the characters and the places, searched from whichever side is smaller; a Grease
    # Man's walks cross gaps (The Final Score Part 1's safe lies a vent from the tunnel at i8).
    key = walk_key(st)
    sources = sorted({(p.pos, vents(p)) for p in free})
    if len(places) <= len(sources):
        to = {(n, v): distances(st, {n}, key=key, vent=v) for n in places for v in {v for _s, v in sources}}
        table = {
            (src, v, n): min((to[n, v].get(e, far) for e in ({src} if src else outs)), default=far)
            for src, v in sources
            for n in places
        }
    else:
        frm = {(src, v): walk_costs(st, {src} if src else outs, key=key, vent=v) for src, v in sources}
        table = {(src, v, n): frm[src, v].get(n, far) for src, v in sources for n in places}

    # Once the heist is under way a character walks only its own plan, so a place its plan reaches costs
    # the walk over it, and any other place the whole board's walk plus a penalty: dealt by the board
    # alone, places swapped between characters as they moved, and each walked to the tile of its plan
    # nearest its new place and back.
    planning = st.phase == "plan"
    # (in planning too for a character whose plan is finished: it is as fixed as under way)
    by_plan = {
        p.seat: walk_costs(st, {p.pos}, set(p.plans) | outs, key=key, vent=vents(p))
        for p in free
        if p.pos and (p.ready or not planning)
    }

    # A keycard or USB key lying on a place goes on to where it is needed: the place is dealt, like one off
    # the character's plan, at a penalty to whoever's plan does not take it on there (who picked it up
    # then stood still with it, and crewmates left it for the one whose plan did).
    needs: dict[str, set[str]] = {}
    if by_plan:
        lying = {n: what for n in places for what in ("keycard", "usb") if what in st.tiles[n].loot}
        wanted_next = {what: door_sides(st, objective) if what == "keycard" else usb_meeting(st)
                       for what in set(lying.values())}  # fmt: skip
        needs = {n: wanted_next[what] for n, what in lying.items() if wanted_next[what]}
        # the safe's tools go on to the safe (The Proving Grounds' torch)
        needs |= {n: safe_tiles(st) for n in tool_places(st) & places}

    def short(p: Player, n: str) -> int:
        """The tokens a walk to ``n`` takes beyond the character's planning memory (in planning)."""
        if not planning:
            return 0
        tokens = min(tokens_to(st, e, n, vents(p)) for e in ([p.pos] if p.pos else sorted(outs)))
        return tokens - A.plan_limit(st, p)

    def cost(p: Player, n: str) -> int:
        board = table[p.pos, vents(p), n]
        walks = by_plan.get(p.seat)
        if walks is None:
            # In planning, a place further than the character's planning memory reaches (a token per tile
            # on the way) is all but out of reach: in The Greedy Prisoner Tiny Mike (7 tokens) was dealt
            # server c2, 8 tiles in, and planned a way that stopped one tile short.
            over = short(p, n)
            return board + (far // 10 + over if over > 0 else 0)
        need = needs.get(n)
        off_plan = need is not None and not carries_on(p, n, need)
        return walks.get(n, board + far // 10) + (far // 10 if off_plan else 0)

    # In planning the crew deals in turn: finished plans keep the places they reach, then the character
    # planning now takes the best of the rest, then the others (dealt from whichever entrance suits them,
    # which would otherwise take from the one planning now the one place its planning memory reaches).
    now = next((p.seat for p in free if not p.ready), None) if planning else None

    def turn(p: Player, n: str) -> int:
        if not planning:
            return 0
        if p.ready:
            return 0 if n in by_plan[p.seat] else 2
        return 1 if p.seat == now else 2

    pairs = sorted((turn(p, n), cost(p, n), i, n) for i, p in enumerate(free) for n in places)
    taken: set[str] = set()
    # The safe opens only to its tools: whoever carries them takes it (the one nearest, if several do), or
    # a Grease Man they can be handed to (:func:`tools_taker`), whose vents may lead where no walk does
    # without opening a remote lock or keycard door first (:func:`sealed_off`).
    safes = sorted(n for n in places if "safe" in st.tiles[n].marks)
    holders = [i for i, p in enumerate(free) if R.carries_tools(p)]
    takers = [i for i, p in enumerate(free) if i not in holders and tools_taker(st, p)]

    def safe_cost(i: int, n: str) -> int:
        p = free[i]
        return cost(p, n) + (TOOLS_HANDED if i in takers else 0) + (far // 10 if sealed_off(st, p, n) else 0)

    if safes and holders:
        _c, i, n = min((safe_cost(i, n), i, n) for i in holders + takers for n in safes)
        goals[free[i].seat] = {n}
        taken.add(n)
    later = [q for q in free if not q.ready and q.seat != now]
    # No more jewel places than jewels still to fetch, and one server of each kind that frees an NPC: in
    # The Greedy Prisoner (two jewels of three; the prisoner freed from either server X) all four went in,
    # one to each jewel and one to a server, and their noise spent the deck by round 7.
    jewels, freeing = jewels_to_fetch(st), npc_servers(st)
    for t, _c, i, n in pairs:
        seat = free[i].seat
        if seat in goals or n in taken:
            continue
        here = st.tiles[n]
        if here.loot.count("jewel") and jewels <= 0 and n in objective:
            continue
        kinds = freeing & set(here.marks) if n in objective else set()
        if kinds and any(kinds & set(st.tiles[m].marks) for m in taken):
            continue
        if t == 1 and short(free[i], n) > 0 and any(short(q, n) <= 0 for q in later):
            continue  # left for a character still to plan whose memory reaches it (Iceheart's 9 for the torch)
        goals[seat] = {n}
        taken.add(n)
        jewels -= here.loot.count("jewel")
    # Plans are fixed once the heist starts, so someone must plan the way to the objective itself even while
    # the ways in are nearer: in The Hospitality Job the keycard's search (the unknown tiles near the
    # entrances) took all four characters and nobody's plan reached the hostage behind its door. The
    # character planning now takes it, unless a finished plan already reaches it.
    planned = now is None or any(objective & set(plan_reach(st, p)) for p in free if p.ready and p.pos)
    if now is not None and objective and not objective & taken and not planned:
        p = st.players[now]
        goals[now] = {min(sorted(objective), key=lambda n: cost(p, n))}
    left = [p for p in free if p.seat not in goals]
    crew = R.in_play(st)
    outside = [q for q in crew if q.ready and not q.plans and q.pos in outs]
    if planning and left and "old_friend" in st.fixers and len(crew) - len(outside) > MIN_INSIDE:
        # More hands than places: the last one left over waits outside, thinking quietly and handing its
        # ideas on (Old Friend) for the escape's moves. Every scripted win of a heist the crews never won
        # keeps one or two outside; inside, a fourth character walked another's route to the same place,
        # making a 🔊 or two a round.
        goals[left[-1].seat] = outs
    relay = keycard_relay(st) if planning else set()
    if relay and now is not None and now in {p.seat for p in left} and goals.get(now) != outs:
        # The keycard's fetcher cannot carry it to the door on its own plan: the one planning now, with no
        # place of its own, plans to meet it and carry it on (:func:`keycard_relay`).
        goals[now] = relay
    for p in left:
        if p.seat not in goals:
            goals[p.seat] = {min(sorted(targets), key=lambda n: cost(p, n))}
    return goals


# What having the safe's tools handed over adds to a Grease Man's walk to the safe, in walking cost: the
# carrier must start where it does and hand them on before either moves.
TOOLS_HANDED = 4


def sealed_off(st: HeistState, p: Player, n: str) -> bool:
    """Whether every walk of this character (:func:`vents`) from where it stands (or any entrance, before it
    starts) to ``n`` crosses a remote lock or keycard door (:func:`rules.sealed`)."""
    d = distances(st, {n}, unsealed=True, vent=vents(p))
    return not any(e in d for e in ({p.pos} if p.pos else R.exits(st)))


def tools_taker(st: HeistState, p: Player) -> bool:
    """Whether the safe's tools could be handed to this character for the safe: a Grease Man (:func:`vents`)
    carrying none, in planning before it has started, or standing with a crewmate who carries them and has
    yet to act. In The Marathon Job and The Final Score Part 1 the safe lies a vent away from where its
    tools' carrier can walk (:func:`tools_meeting`)."""
    if not vents(p) or R.carries_tools(p):
        return False
    if st.phase == "plan" and not p.ready:
        return True
    return any(q.pos == p.pos and R.carries_tools(q) and not q.done for q in R.in_play(st) if q is not p)


def tools_meeting(st: HeistState, p: Player) -> set[str]:
    """In planning, for a carrier of the safe's tools whose crew has dealt the safe to a Grease Man without
    them (:func:`tools_taker`): where that one stands, or the entrances it will start from
    (:func:`best_starts`), so that the tools are handed on at the start. Empty otherwise."""
    if st.phase != "plan" or not R.carries_tools(p):
        return set()
    safes = safe_tiles(st)
    goals = crew_goals(st)
    for q in R.in_play(st):
        if q is not p and (goal := goals.get(q.seat)) and goal <= safes and tools_taker(st, q):
            if q.pos:
                return {q.pos}
            starts = sorted(e for e in R.exits(st) if A.start_room(st, e))
            return set(best_starts(st, q, goals[q.seat], starts))
    return set()


def jewels_to_fetch(st: HeistState) -> int:
    """Jewels the objective still needs that nobody inside (nor an NPC) carries yet."""
    carried = sum(p.loot.count("jewel") for p in R.in_play(st))
    carried += sum(n.loot.count("jewel") for n in st.npcs if n.status == "in")
    return R.heist(st).objective.jewels - st.hauled.get("jewel", 0) - carried


def npc_servers(st: HeistState) -> set[str]:
    """The server marks (server_x, server_y) whose remote lock holds an NPC still to be freed."""
    return {
        lock.replace("remote_lock", "server")
        for n in st.npcs
        if n.status == "in" and not n.active
        for lock in ("remote_lock_x", "remote_lock_y")
        if lock in st.tiles[n.pos].marks
    }


def keycard_relay(st: HeistState) -> set[str]:
    """In planning, where a crewmate must meet the keycard to carry it on to the keycard door, when the
    finished plan that fetches it stops short of every tile beside the door (its planning memory spent)
    and no other finished plan takes it on from there: the tile of the fetcher's plan, from the keycard
    on, nearest the door. Empty when no relay is needed. The Startup Job's keycard (f2) is ten tiles from
    the g8 entrance by way of the vault door (b2); the longest memory is nine, and no plan met the fetcher's,
    so nobody could ever open the vault."""
    if st.phase != "plan":
        return set()
    sides = door_sides(st)
    lying = [n for n, t in st.tiles.items() if "keycard" in t.loot and R.alive(st, n)]
    if not sides or not lying:
        return set()
    planned = [q for q in R.in_play(st) if q.ready and q.plans]
    for n in lying:
        for fetcher in (q for q in planned if n in q.plans):
            onward = fetcher.plans[fetcher.plans.index(n) :]
            if sides & set(onward):
                return set()
            if any(carries_on(q, m, sides) for q in planned if q is not fetcher for m in onward):
                return set()
            near = distances(st, sides)
            return {min(onward, key=lambda m: (near.get(m, 999), onward.index(m)))}
    return set()


def route(st: HeistState, p: Player, start: str) -> list[str]:
    """The tiles of a shortest walk from ``start`` to the character's goal, then back to the nearest exit;
    by way of a keycard door the crew must open when the goal is the keycard (:func:`door_sides`), and by
    way of The Side Channel's guide when it is the USB key (:func:`usb_meeting`). Round a lockdown gate the
    deck shuts before the walk would be through it, where a way round exists (:func:`late_gates`). A Grease
    Man's walk may cross gaps (:func:`vents`). The Final Score Part 1's safe is left for a hideout, where
    its documents must go, not for an exit."""
    goal = goals_for(st, p)
    legs = [goal]
    if any("keycard" in st.tiles[n].loot for n in goal if n in st.tiles) or goal == keycard_relay(st):
        legs.append(door_sides(st))
    if any("usb" in st.tiles[n].loot for n in goal if n in st.tiles):
        legs.append(usb_meeting(st))  # The Side Channel: on to the guide with the key
    if goal & tool_places(st):
        legs.append(safe_tiles(st))  # on to the safe with its tools
    outs = R.exits(st)
    last = outs
    if R.heist(st).objective.special == "docs_in_hideout" and goal & safe_tiles(st):
        last = R.hideouts(st)
    return [n for n in walk_legs(st, start, [*legs, last], vents(p)) if n not in outs]


# Planning reckons a character some 0.6 tiles further on for each event card dealt (two moves a round or so,
# while three or four cards go by).
TILES_PER_CARD = 0.6


def late_gates(st: HeistState, start: str, moved: int, vent: bool = False) -> list[str]:
    """The lockdown gates a walk from ``start``, ``moved`` tiles into the heist, would reach too late: the
    event deck shuts each before the walk could be through it (at :data:`TILES_PER_CARD`), in the order
    they shut. The Proving Grounds shuts gate A, on the short way from its Plasma Torch to the safe, at the
    deck's eighth card. ``vent``: a Grease Man's walk (:func:`vents`)."""
    schedule = R.gate_schedule(st)
    if not schedule:
        return []
    steps = steps_from(st, frozenset({start}), vent)
    return [
        g for g, cards in schedule.items() if g in steps and moved + steps[g] + 1 > cards * TILES_PER_CARD
    ]


def walk_legs(st: HeistState, start: str, legs: list[set[str]], vent: bool = False) -> list[str]:
    """The tiles of a shortest walk from ``start`` to the nearest tile of each leg in turn (empty legs
    skipped), round the gates each leg would reach too late (:func:`late_gates`) unless only a way through
    the last of them to shut is left. A leg it cannot reach is passed over. ``vent``: a Grease Man's walk,
    which may cross gaps (:func:`vents`)."""
    path: list[str] = []
    cur = start
    across = R.vent_table(st) if vent else {}
    for leg in legs:
        if not leg:
            continue
        late = late_gates(st, cur, len(path), vent)
        d = distances(st, leg, avoid=frozenset(late), vent=vent)
        while late and cur not in d:
            late.pop()
            d = distances(st, leg, avoid=frozenset(late), vent=vent)
        if vent and cur in (clear := distances(st, leg, unsealed=True, avoid=frozenset(late), vent=True)):
            # a Grease Man crawls round a remote lock or keycard door where he can, rather than wait for it
            d = clear
        while cur in d and d[cur] > 0:
            # The neighbour a cheapest walk goes on to (its cost to the leg plus entering it), not any
            # nearer one: from f4 in The Startup Job, f3 (a guard and a lock) and g3 (two locks) both
            # lie a step from the keycard at f2, and the plans took f3 by its name.
            steps = [(m, 1) for m in R.nbrs(st, cur)] + [(m, 1 + VENT_COST) for m in across.get(cur, ())]
            ahead = [(m, x) for m, x in steps if m in d and d[m] < d[cur]]
            best = min(
                ahead,
                key=lambda mx: (d[mx[0]] + mx[1] + (hazard(st, mx[0]) if d[mx[0]] else 0), mx[0]),
                default=None,
            )
            nxt = None if best is None else best[0]
            if nxt is None:
                break
            path.append(nxt)
            cur = nxt
    return path


def tokens_to(st: HeistState, start: str, n: str, vent: bool = False) -> int:
    """The planning tokens a walk from ``start`` to ``n`` takes, a tile each; for the safe's tools, the walk
    on to the safe with them too (The Proving Grounds' torch: the safe lies beyond gate A, which shuts too
    soon for that walk, and the way round takes nine tokens). 999 where no walk reaches. Memoised on what
    the walk depends on (the search asks it in playout after playout of planning). ``vent``: a Grease Man's
    walk (:func:`vents`)."""
    if n not in tool_places(st):
        return steps_from(st, frozenset({start}), vent).get(n, 999)

    def walk() -> int:
        tokens = plan_tokens(st, start, [{n}, safe_tiles(st)], vent)
        return 999 if tokens is None else tokens

    return _TOKENS.get((walk_key(st), tuple(st.deck), start, n, vent), walk)


_TOKENS: Memo[int] = Memo(1024)


def plan_tokens(st: HeistState, start: str, legs: list[set[str]], vent: bool = False) -> int | None:
    """The planning tokens (a tile each, exits aside) of :func:`walk_legs` from ``start`` (``vent``: a
    Grease Man's), or None when the walk does not reach its last leg."""
    path = walk_legs(st, start, legs, vent)
    end = path[-1] if path else start
    if end not in legs[-1]:
        return None
    outs = R.exits(st)
    return len({n for n in path if n not in outs})


def door_sides(st: HeistState, targets: set[str] | None = None) -> set[str]:
    """The tiles beside the keycard doors that shut the crew's targets in (the targets themselves aside),
    where a character carrying the keycard opens them (empty when none does). In The Side Channel also
    those that shut the guide off from the USB key (its carrier, or where it lies): the key opens remote
    lock Y only in the guide's hands, and the guide waits behind keycard door g7. ``targets``: the crew's
    targets (:func:`crew_targets`), when the caller has them."""
    if targets is None:
        targets, _ways_in = crew_targets(st)
    doors = {n for n in _shut(st, targets) if "keycard_door" in st.tiles[n].marks} | guide_doors(st)
    return {m for n in doors for m in R.nbrs(st, n) if not R.sealed(st, m) and m not in R.exits(st) | targets}


def plan_of(st: HeistState, p: Player) -> dict[str, int]:
    """The character's plan as :func:`bot_weights` follows it: :func:`plan_distances` to its goals (empty
    before it stands on the board or with no goal)."""
    goal = goals_for(st, p) if p.pos else set()
    return plan_distances(st, p, goal) if goal else {}


def bot_weights(
    st: HeistState,
    seat: str,
    options: list[Command],
    *,
    plan: dict[str, int] | None = None,
    wasteful: set[str] | None = None,
    open_actions: list[R.Option] | None = None,
) -> list[int]:
    """A weight per option: follow a sensible plan, act usefully, call the escape when the job is done.
    ``plan`` (:func:`plan_of`), ``wasteful`` (:func:`wasteful_actions`) and ``open_actions``
    (:func:`rules.options`), where the caller has them."""
    p = st.players[seat]
    weights = [VERB_WEIGHTS.get(c.verb, 1) for c in options]
    if st.phase == "plan":
        return plan_weights(st, p, options, weights)
    if st.phase == "escape":
        return escape_weights(st, p, options, weights)
    if st.phase == "event":
        return weights
    d = plan_of(st, p) if plan is None else plan
    big = 999
    here = d.get(p.pos, big)
    done_job = job_done(st)
    if p.action:
        opts: dict[str, R.Option] = {}
    else:
        opts = {o.key: o for o in (R.options(st, p) if open_actions is None else open_actions)}
    loud_for_little: list[int] = []
    search: bool | None = None
    for i, c in enumerate(options):
        if c.verb == "move":
            closer = d.get(c.args[0], big) < here
            watched = bool(R.chits(st, c.args[0], "camera")) and "loop_footage" not in st.flags
            weights[i] = (12 if watched else 40) if closer else 1
        elif c.verb == "disable":
            ahead = [m for m in R.nbrs(st, p.pos) if d.get(m, big) < here]
            weights[i] = 45 if c.args[0] in ahead or c.args[0] == p.pos else 10
        elif c.verb == "act":
            if search is None:
                search = searching(st)
            weights[i], minor = weigh_action(st, p, opts.get(c.args[0]), d, search)
            if minor:
                loud_for_little.append(i)
        elif c.verb == "done":
            weights[i] = -1  # decided below, once the other options are weighed
        elif c.verb == "give":
            weights[i] = handover_weight(st, c) if c.args[1] == "npc" else relay_weight(st, p, c)
        elif c.verb in ("subdue", "unlock"):
            weights[i] = clearing_weight(st, p, c, d, here)
        elif c.verb == "escape":
            on_gates = any(q.pos and R.on_gate(st, q.pos) for q in R.in_play(st))
            weights[i] = 60 if (done_job or len(st.deck) <= LAST_CARDS) and not on_gates else 0
        elif c.verb == "take":
            weights[i] = 1 if left_for_another(st, p, c.args[0]) else 40
        elif c.verb == "teamwork":
            weights[i] = teamwork_weight(st, st.players[c.args[0]])
        elif c.verb == "slip":
            weights[i] = slip_weight(st, p, d, here)
        elif c.verb == "vent":
            weights[i] = vent_weight(st, p, d, here)
        elif c.verb == "npc":
            weights[i] = npc_weight(st, c, options)
    acts = [i for i, c in enumerate(options) if c.verb == "act"]
    if len(acts) > 1 and (
        outdone := wasteful_actions(st, p, d if p.pos else None, open_actions)
        if wasteful is None
        else wasteful
    ):
        for i in acts:
            if options[i].args[0] in outdone:
                weights[i] = 0
    if any(weights[i] for i in acts if i not in loud_for_little):
        # Something quiet (or really useful) is on offer: no 🔊 for 💡 alone. A character waiting on
        # another's work (a server to open its way) took Report or Examine round after round.
        for i in loud_for_little:
            weights[i] = 0
    if acts and not any(weights[i] for i in acts):  # every action is noise for nothing: the quietest
        quiet = min(
            acts,
            key=lambda i: (opts[options[i].args[0]].subs.count("N") if options[i].args[0] in opts else 9, i),
        )
        weights[quiet] = 1
    best_other = max(
        (w for c, w in zip(options, weights, strict=True) if c.verb not in ("done", "npc")), default=0
    )
    return [(1 if best_other >= 10 else 50) if w == -1 else w for w in weights]


def slip_weight(st: HeistState, p: Player, d: dict[str, int], here: int) -> int:
    """There are better ways (an idea to leave guarded tiles this round): much when a guard or dog holds the
    character, its action (if chosen) still has a move and an open tile next to it lies nearer on its plan
    (``d``, from ``here``); nothing otherwise, where the idea would buy nothing (on The Proving Grounds'
    c2 she slipped with the way on to d2 locked). Weighed like any minor option, it left Iceheart holding
    the torch under two dogs at d8, her action ended there."""
    if A.can_leave(st, p) or R.imprisoning(st, p.pos) or (p.action and "M" not in p.left):
        return 0
    return 45 if any(d.get(m, here) < here and not R.locked(st, m) for m in R.nbrs(st, p.pos)) else 0


def vent_weight(st: HeistState, p: Player, d: dict[str, int], here: int) -> int:
    """Vent crawl (🔊🔊🔊🔊): much when the character may leave its tile, its action has a move left and a
    tile across a gap lies nearer on its plan (``d``, from ``here``) than any next to it, open or with a lock
    its action has a 🔓 left for (The Final Score Part 1's h5, on the way from the safe to the hideouts);
    nothing otherwise. Weighed 0 like any loud extra, the Grease Man never crawled into The Marathon Job's vault at e2, a gap
    away from d4 and behind a remote lock and keycard door by any walk."""
    if not A.can_leave(st, p) or "M" not in p.left:
        return 0
    big = 999
    beside = min((d.get(m, big) for m in R.nbrs(st, p.pos) if not R.locked(st, m)), default=big)
    # a lock across the gap may be opened from here once crawling (it counts as adjacent), with a 🔓 left
    picks = "U" in p.left
    across = min(
        (
            d.get(m, big)
            for m in R.vent_table(st).get(p.pos, ())
            if not R.locked(st, m) or (picks and not R.sealed(st, m))
        ),
        default=big,
    )
    return 45 if across < min(here, beside) else 0


def teamwork_weight(st: HeistState, q: Player) -> int:
    """Old Friend: an idea handed from outside to crewmate ``q``. Most to one carrying loot the objective
    needs whose escape moves its ideas and the last-ditch die's sure one would not cover; some to one inside
    with fewer than two ideas to turn its die; none otherwise. As much to one who knows better ways held by
    a guard with no idea to slip past it: she never subdues, so the idea is her only way on."""
    if R.outdoors(st, q):
        return 0
    better = "there_are_better_ways" in R.abilities(q)
    if better and not q.ideas and not q.done and R.guards(st, q.pos) and not A.can_leave(st, q):
        return 30
    if set(q.loot) & wanted(st) or (q.cash and "cash" in wanted(st)):
        need = R.escape_need(st, q)
        if need is not None and need > q.ideas + 1:
            return 30
    return 8 if q.ideas < 2 else 0


def relay_weight(st: HeistState, p: Player, c: Command) -> int:
    """Handing loot the objective wants to a crewmate on the same tile who has yet to act this round and
    whose plan reaches an exit in fewer steps: it carries the loot on now, so the loot travels two
    characters' moves in one round. The safe's tools go to the Grease Man the safe is dealt to
    (:func:`tools_taker`). Anything else is not handed over (giving back and forth goes nowhere)."""
    what, to = c.args[0], c.args[1]
    q = st.players.get(to)
    if q is None:
        return 0
    if what.removeprefix("item:") in R.SAFE_TOOLS:
        # the safe dealt to a Grease Man on the carrier's tile (:func:`tools_taker`): the tools go to him
        goal = goals_for(st, q)
        return (
            60 if not (q.action or q.done) and tools_taker(st, q) and goal and goal <= safe_tiles(st) else 0
        )
    if what not in wanted(st):
        return 0
    if escape_burden(st, q) + 1 <= escape_burden(st, p):
        return 45
    if q.action or q.done:
        return 0
    outs = R.exits(st)

    def out_steps(who: Player) -> int:
        reach = plan_reach(st, who)
        return min((reach[e] for e in outs if e in reach), default=999)

    return 45 if out_steps(q) < out_steps(p) else 0


def escape_burden(st: HeistState, p: Player) -> float:
    """The escape moves the character would still owe the last-ditch die if the alarm sounded after it spent
    every round left thinking: its escape need (:func:`rules.escape_need`) less its ideas and the ideas of a
    round (:func:`rules.ideas_a_round`) for each event card left, 0 if those cover it. Whoever owes less is
    the better one to run the loot out: Johnny Swagger, at 💡 two rounds in three, held The Proving Grounds'
    documents beside Iceheart, nearly 💡💡 a round, whom guards do not slow (seed 20178)."""
    need = R.escape_need(st, p)
    if need is None:
        return float(FAR_BURDEN)
    return max(0.0, need - p.ideas - R.ideas_a_round(p) * R.events_left(st))


def left_for_another(st: HeistState, p: Player, what: str) -> bool:
    """Whether the character leaves ``what`` where it stands for a crewmate: a keycard or The Side Channel's
    USB key that its own plan does not take on to where it is needed (:func:`door_sides`,
    :func:`usb_meeting`), while a crewmate who has yet to reach this tile plans to pass it and go on there.
    Whoever took it first had kept it, then stood still off its plan (The Side Channel, seed 20005)."""
    need = onward(st, what)
    if not need or not p.pos:
        return False
    here = p.pos
    return not carries_on(p, here, need) and any(
        carries_on(q, here, need) for q in R.in_play(st) if q is not p
    )


def onward(st: HeistState, what: str) -> set[str]:
    """Where a keycard (:func:`door_sides`) or The Side Channel's USB key (:func:`usb_meeting`) is needed
    next; empty for other loot or when nothing waits for it."""
    return door_sides(st) if what == "keycard" else usb_meeting(st) if what == "usb" else set()


def carries_on(q: Player, tile: str, need: set[str]) -> bool:
    """Whether ``q``'s plan, from ``tile`` (not yet passed), goes on to one of ``need``."""
    if tile not in q.plans:
        return False
    at = q.plans.index(tile)
    if q.pos != tile and q.pos in q.plans and q.plans.index(q.pos) > at:
        return False  # it has gone past already
    return bool(need & set(q.plans[at:]))


def handover_weight(st: HeistState, c: Command) -> int:
    """Handing loot to the NPC on the character's tile: the USB key to The Side Channel's guide while
    remote lock Y stands (it opens the lock) weighs most; anything else is not handed over."""
    return 60 if c.args[0] == "usb" and usb_meeting(st) else 0


def clearing_weight(st: HeistState, p: Player, c: Command, d: dict[str, int], here: int) -> int:
    """A 👊 or 🔓 sub-action's weight: most for the guard holding the character or the obstacle on its next
    step, then a guard holding a crewmate, then anything else (it may still be on someone's way)."""
    target = c.args[0] if c.args else p.pos
    if target == p.pos or d.get(target, 999) < here:
        return 30
    if c.verb == "subdue" and any(q.pos == target for q in R.in_play(st) if q.seat != p.seat):
        return 20
    return VERB_WEIGHTS[c.verb]


def plan_distances(st: HeistState, p: Player, goal: set[str]) -> dict[str, int]:
    """Steps toward the goal along the character's own plan: toward the planned tile nearest the goal.
    Memoised on what it depends on (the board and its hazards, the goal, the plan, where the character
    stands); shared: do not change it."""
    key = walk_key(st)
    return _PLAN_STEPS.get(
        (key, frozenset(goal), tuple(p.plans), p.pos, vents(p)), lambda: plan_steps(st, p, goal, key)
    )


_PLAN_STEPS: Memo[dict[str, int]] = Memo(2048)


def plan_steps(st: HeistState, p: Player, goal: set[str], key: WalkKey | None = None) -> dict[str, int]:
    """:func:`plan_distances` worked out afresh (``key``: the position's :func:`walk_key`, when the caller
    has it)."""
    full = distances(st, goal, key=key, vent=vents(p))
    reach = plan_reach(st, p)
    best = min(reach, key=lambda n: (full.get(n, 999), reach[n], n))
    return plan_reach(st, p, best)


def plan_reach(st: HeistState, p: Player, start: str = "") -> dict[str, int]:
    """Every tile the character can walk between, from where it stands (or ``start``), over its own plan
    and the exits, with the steps each takes (a move needs a planning token on the tile entered; a Grease
    Man's may cross a gap, :func:`vents`)."""
    allowed = set(p.plans) | R.exits(st) | {p.pos}
    first = start or p.pos
    reach = {first: 0}
    queue = deque([first])
    table = R.neighbour_table(st)
    across = R.vent_table(st) if vents(p) else {}
    while queue:
        cur = queue.popleft()
        for m in (*table.get(cur, ()), *across.get(cur, ())):
            if m in allowed and m not in reach:
                reach[m] = reach[cur] + 1
                queue.append(m)
    return reach


def npc_weight(st: HeistState, c: Command, options: list[Command]) -> int:
    """The team plays its NPC toward the nearest exit."""
    npc = next((n for n in st.npcs if n.status == "in" and n.active), None)
    if npc is None:
        return 1
    d = distances(st, npc_goal(st, npc.kind))
    here = d.get(npc.pos, 999)
    sub = c.args[0]
    if sub == "move":
        return 45 if d.get(c.args[1], 999) < here else 1
    if sub == "act":
        return npc_act_weights(st, npc, d).get(c.args[1], 5)
    if sub == "done":
        useful = [o for o in options if o.verb == "npc" and o.args[0] in ("move", "idea", "subdue", "unlock")]
        return 1 if useful else 30
    if sub == "run":
        return 80 if len(c.args) == 1 else 0
    if sub in ("take", "drop"):  # an NPC carries out the loot the objective wants; it drops nothing
        return 40 if sub == "take" and c.args[1] in wanted(st) else 0
    return 8


def npc_act_weights(st: HeistState, npc: Npc, d: dict[str, int]) -> dict[str, int]:
    """The NPC's actions weighed as a character's are (:func:`weigh_action`): the steps it can take toward
    its goal (``d``) before a lock, keycard door or guard stops it, per event card the action spends, the
    best weighing 20 (an ability with no sub-actions, 5). An action whose 🔊 or ⚠ buys no step weighs nothing
    while a quiet one is open: a freed prisoner still shut in behind The Black Box's keycard door dashed
    round after round."""
    options = N.options(st, npc)
    ratios: dict[str, float] = {}
    for o in options:
        steps = 0
        cur = npc.pos
        for _ in range(0 if N.held(st, npc) else o.subs.count("M")):
            here = d.get(cur, 999)
            ahead = [m for m in R.nbrs(st, cur) if d.get(m, 999) < here and not R.locked(st, m)]
            nxt = min(ahead, key=lambda m: (d[m], m), default=None)
            if nxt is None:
                break
            steps += 1
            cur = nxt
            if R.guards(st, cur):
                break
        value = 10.0 * steps + ideas_value(npc.ideas, o.subs)
        loud = "N" in o.subs or "A" in o.subs
        cards = cards_spent(st, o, 0)
        ratios[o.key] = 0.0 if loud and not steps else value / cards
    best = max(ratios.values(), default=0.0)
    out = {k: round(20 * r / best) if best else 1 for k, r in ratios.items()}
    # An ability with no sub-actions (the Melee guide's Fancy Card Flick of the keycard) keeps its old weight.
    return out | {o.key: 5 for o in options if not o.subs}


def npc_goal(st: HeistState, kind: str) -> set[str]:
    """Where the team walks its NPC: out, except The Side Channel's guide while remote lock Y still shuts
    the documents in, who meets the USB key (its carrier, or where it lies) and must not leave without it."""
    shut = any("remote_lock_y" in t.marks for t in st.tiles.values())
    if kind == "guide" and shut and R.has_rule(st, "usb_to_guide"):
        carriers = {q.pos for q in R.in_play(st) if "usb" in q.loot and q.pos}
        lying = {n for n, t in st.tiles.items() if "usb" in t.loot and R.alive(st, n)}
        return (carriers or lying) - R.exits(st)
    return R.exits(st)


def noise_price(st: HeistState) -> float:
    """What one more 🔊 costs the crew, in event cards: the alert spaces left on the track per space left
    (1 once the marker sits on the final slot, where every 🔊 raises ⚠). Event cards are the heist's clock."""
    spaces, final = R.track(st)
    noise = st.noise + sum(q.noise_due for q in R.in_play(st))
    if noise >= final:
        return 1.0
    return sum(a > noise for a in spaces) / (final - noise)


def progress(
    st: HeistState, p: Player, subs: str, d: dict[str, int], *, hopeful: bool = False
) -> tuple[float, int]:
    """How far an action with sub-actions ``subs`` would take the character along its plan toward its goal
    (``d``: :func:`plan_distances`), counting a lock it opens or a guard it gets past on the way as half a
    step, and the live cameras it would have to walk onto (each an ⚠). A move can only be used while the way
    ahead is clear: a lock needs an unlock first, a remote lock or keycard door stops it, the guards on a
    tile entered hold the character there unless a subdue is left for each, and what an unknown tile holds
    is unknown (the walk stops there; ``hopeful``: it goes on, as it may when the tile turns out blank). A
    Grease Man's walk may cross gaps (:func:`vents`), its Vent crawl's 🔊🔊🔊🔊 counted as the alerts they
    are worth (:func:`noise_price`), once an action."""
    moves, unlocks, subdues, disables = (subs.count(k) for k in "MUSD")
    cur = p.pos
    gained = 0.0
    alerts = 0
    across = R.vent_table(st) if vents(p) else {}
    vented = "vent" in p.flags
    held = R.guards(st, cur)
    if held > subdues:
        return 0.5 * subdues, 0
    subdues -= held
    gained += 0.5 * held
    while cur in d and d[cur] > 0:
        near = (*R.nbrs(st, cur), *across.get(cur, ()))
        nxt = min((m for m in near if d.get(m, 999) < d[cur]), key=lambda m: (d[m], m), default=None)
        if nxt is None:
            break
        if not vented and nxt not in R.nbrs(st, cur):
            vented = True
            alerts += round(4 * noise_price(st))
        t = st.tiles.get(nxt)
        if R.sealed(st, nxt):
            break
        if R.chits(st, nxt, "lock"):
            if not unlocks:
                break
            unlocks -= 1
            gained += 0.5
        if not moves:
            break
        if R.chits(st, nxt, "camera") and "loop_footage" not in st.flags:
            if disables:
                disables -= 1
            else:
                alerts += 1
        moves -= 1
        gained += 1
        cur = nxt
        if t is not None and t.unknown and not hopeful:
            break
        held = R.guards(st, cur)
        if held > subdues:
            break
        subdues -= held
        gained += 0.5 * held
    return gained, alerts


def act_weight(st: HeistState, p: Player, o: R.Option | None, d: dict[str, int]) -> int:
    """How useful an action looks for this character now: the progress it buys along the plan (and the
    ideas, reveals and loot it brings) per event card it spends. Every action uses up a share of the round's
    card, and each 🔊 and ⚠ brings the alarm closer (:func:`noise_price`), so a quiet step is worth more
    than a loud dash when both get somewhere."""
    return weigh_action(st, p, o, d, searching(st))[0]


def weigh_action(
    st: HeistState, p: Player, o: R.Option | None, d: dict[str, int], search: bool
) -> tuple[int, bool]:
    """:func:`act_weight` (``search``: :func:`searching`, worked out once by the caller), and whether all
    the action brings is 💡 or a reveal nobody is searching for while it makes 🔊 or ⚠: worth taking only
    when nothing quiet is on offer."""
    if o is None:
        return 1, False
    subs = o.subs
    steps, alerts = progress(st, p, subs, d)
    # Each 💡 is worth less the more the character holds already (the die turns one step per 💡, and the
    # escape rarely needs more than a few): a stuck character made 🔊 for 💡 round after round.
    ideas = ideas_value(p.ideas, subs)
    # 🔍 reveals a tile anywhere: real progress while the crew is looking for something in the bag.
    reveals = subs.count("R") * (3.0 if search else 0.5)
    value = 10.0 * steps
    here = d.get(p.pos, 999)
    if any(R.chits(st, m, "camera") for m in R.nbrs(st, p.pos) if d.get(m, 999) < here):
        value += 3.0 * min(1, subs.count("D"))  # a camera on the way ahead (one beside it sees nobody)
    if "safe" in st.tiles[p.pos].marks:
        value += 10.0 * subs.count("U")
    need = wanted(st)
    if set(st.tiles[p.pos].loot) & need or ("cash" in need and st.tiles[p.pos].cash):
        value += 5.0 * min(1, subs.count("L"))
    loud = "N" in subs or "A" in subs
    minor = not value and not o.special and loud
    value += ideas + reveals
    if not value and not o.special and loud:
        return 0, False  # noise for nothing: the alarm comes closer and the crew gets no further
    cards = cards_spent(st, o, alerts)
    return max(1, round(4.0 * value / cards)), minor


def ideas_value(held: int, subs: str) -> float:
    """What the 💡 among ``subs`` are worth to a figure holding ``held`` already: less for each one held."""
    return sum(1.0 / (1.0 + (held + k) / 2.0) for k in range(subs.count("I")))


def cards_spent(st: HeistState, o: R.Option, alerts: int) -> float:
    """The event cards an action spends: its share of the round's card, its 🔊 (:func:`noise_price`), its ⚠
    and the ``alerts`` of cameras walked onto, and a tenth of a card per 💡 paid to turn the die."""
    return 0.25 + noise_price(st) * o.subs.count("N") + alerts + o.subs.count("A") + 0.1 * o.cost


def wasteful_actions(
    st: HeistState, p: Player, d: dict[str, int] | None = None, open_actions: list[R.Option] | None = None
) -> set[str]:
    """Keys of the actions another action open to the character beats outright on its way to its goal:
    the other gets at least as far along its plan (:func:`progress`, past unknown tiles as if they were
    blank, no more cameras walked onto), holds at least as many of every other sub-action, and costs no
    more 🔊, ⚠ or 💡. A Run (🔊🔊➜➜, 2💡) whose second step meets a lock is a Walk (🔊➜) made louder and
    dearer. None while the character stands on its goal or on loot the crew wants (extra steps carry loot
    out from there); special actions are never compared. ``d``: :func:`plan_distances` to the character's
    goal, and ``open_actions`` (:func:`rules.options`), when the caller has them."""
    if not p.pos or p.action:
        return set()
    opts = [o for o in (R.options(st, p) if open_actions is None else open_actions) if not o.special]
    if len(opts) < 2:
        return set()
    if d is None:
        goal = goals_for(st, p)
        d = plan_distances(st, p, goal) if goal else {}
    need = wanted(st)
    here = st.tiles[p.pos]
    if d.get(p.pos, 0) == 0 or set(here.loot) & need or ("cash" in need and here.cash):
        return set()
    gains = {o.key: progress(st, p, o.subs, d, hopeful=True) for o in opts}
    return {a.key for a in opts if any(b is not a and _beats(b, a, gains) for b in opts)}


def _beats(b: R.Option, a: R.Option, gains: dict[str, tuple[float, int]]) -> bool:
    """True when action ``b`` is at least as good as ``a`` in every respect :func:`wasteful_actions` names
    and better in one."""
    (got_a, alerts_a), (got_b, alerts_b) = gains[a.key], gains[b.key]
    if got_b < got_a or alerts_b > alerts_a or b.cost > a.cost:
        return False
    better = got_b > got_a or alerts_b < alerts_a or b.cost < a.cost
    for letter in set(a.subs) | set(b.subs):
        if letter == "M":
            continue  # steps count by how far they get (``progress``)
        more = b.subs.count(letter) - a.subs.count(letter)
        if letter in "NA":
            more = -more  # fewer is better
        if more < 0:
            return False
        better = better or more > 0
    return better


def searching(st: HeistState) -> bool:
    """True while the crew is looking for something the security bag may still hold: loot the objective
    wants, or a keycard or USB key that would open the way to its places, with unknown tiles left."""
    if not any(t.unknown for n, t in st.tiles.items() if R.alive(st, n)):
        return False
    if wanted(st) & set(st.bag):
        return True
    targets, _ways_in = crew_targets(st)
    marks = {m for n in _shut(st, targets) for m in st.tiles[n].marks}
    usb_opens_y = "remote_lock_y" in marks and R.has_rule(st, "usb_to_guide")  # The Side Channel
    return ("keycard_door" in marks and "keycard" in st.bag) or (usb_opens_y and "usb" in st.bag)


def plan_weights(st: HeistState, p: Player, options: list[Command], weights: list[int]) -> list[int]:
    """Planning: start near the goal, plan the route there and back, then get ready."""
    starts = [c.args[0] for c in options if c.verb == "start"]
    if tools_needed(st) and any(c.verb == "buy" and c.args[0] in R.SAFE_TOOLS for c in options):
        # The Marathon Job and The Final Score Part 1 ask for their safe and lay no tools on the map.
        return [100 if c.verb == "buy" and c.args[0] in R.SAFE_TOOLS else 0 for c in options]
    tunnel = best_tunnel(st, [c.args[0] for c in options if c.verb == "tunnel"])
    if tunnel is not None:  # open the way in first: everyone may start there
        return [100 if c.verb == "tunnel" and c.args[0] == tunnel else 0 for c in options]
    if not p.pos:
        meeting = tools_meeting(st, p) & set(starts)
        chosen = sorted(meeting) or best_starts(st, p, goals_for(st, p), starts)
        for i, c in enumerate(options):
            weights[i] = 50 if c.verb == "start" and c.args[0] in chosen else 0
        if not any(weights):
            weights = [1 if c.verb == "start" else 0 for c in options]
        return weights
    if waits_outside(st, p):
        return [50 if c.verb == "ready" else 0 for c in options]
    path = route(st, p, p.pos)
    missing = [n for n in path if n not in p.plans]
    plannable = {c.args[0] for c in options if c.verb == "plan"}
    pick = missing[0] if missing and missing[0] in plannable else spare_plan(st, p, plannable)
    for i, c in enumerate(options):
        if c.verb == "plan":
            weights[i] = 50 if c.args[0] == pick else 0
        elif c.verb == "ready":
            weights[i] = 0 if pick is not None or (missing and plannable) else 50
        else:
            weights[i] = 0
    if not any(weights):
        weights = [1 if c.verb in ("ready", "plan") else 0 for c in options]
    return weights


def best_starts(st: HeistState, p: Player, goal: set[str], starts: list[str]) -> list[str]:
    """The entrances among ``starts`` nearest to ``goal`` for this character (:func:`vents`): by a walk that
    no remote lock or keycard door bars, where one exists, and not one a crewmate still to plan needs
    (:func:`kept_for_later`)."""
    vent = vents(p)
    # The Hospitality Job's entrance e1 lies behind keycard door e2, and crews that started there, nearest
    # over the board, stood outside all heist.
    d = distances(st, goal, unsealed=True, vent=vent)
    if not any(e in d for e in starts):
        # The goal itself lies behind one (The Black Box's Architect): nearest over the board, but not
        # from an entrance whose every way on is such a door (there a character waits for a keycard
        # nobody may bring; one stood on f8 all heist while another entrance had room).
        d = distances(st, goal, vent=vent)
        way_on = [e for e in starts if not all(R.sealed(st, m) for m in R.nbrs(st, e))]
        starts = way_on or starts
    starts = [e for e in starts if e not in kept_for_later(st, p, starts)] or starts
    best = min((d.get(e, 999) for e in starts), default=999)
    return [e for e in starts if d.get(e, 999) == best]


def waits_outside(st: HeistState, p: Player) -> bool:
    """True in planning for a character standing at its entrance whose dealt goal is the way out
    (:func:`deal_goals`: one left over with no place of its own): it plans no tokens and waits outside."""
    return st.phase == "plan" and p.pos in R.exits(st) and not p.plans and goals_for(st, p) == R.exits(st)


def kept_for_later(st: HeistState, p: Player, starts: list[str]) -> set[str]:
    """The entrances among ``starts`` whose room the crewmates still to plan need: a crewmate's dealt place
    (:func:`crew_goals`) that only its planning memory reaches, and only from that entrance
    (:func:`tokens_to`). In The Proving Grounds only Iceheart can plan the torch at d8 on to the safe, and
    only from c7; two crewmates heading for the safe had filled c7 before her turn."""
    limit = R.heist(st).entrance_limit
    later = [q for q in R.in_play(st) if q.seat != p.seat and not q.ready and not q.pos]
    if limit is None or not later:
        return set()
    goals = crew_goals(st)

    def fits(q: Player, n: str, e: str) -> bool:
        return tokens_to(st, e, n, vents(q)) <= A.plan_limit(st, q)

    needs: dict[str, int] = {}
    for q in later:
        for n in goals.get(q.seat, ()):
            ways = [e for e in starts if fits(q, n, e)]
            others = [r for r in (p, *later) if r is not q]
            if len(ways) == 1 and not any(fits(r, n, e) for r in others for e in starts):
                needs[ways[0]] = needs.get(ways[0], 0) + 1
                break
    return {e for e, k in needs.items() if k >= limit - sum(1 for q in st.players.values() if q.pos == e)}


def spare_plan(st: HeistState, p: Player, plannable: set[str]) -> str | None:
    """Where a planning token left over once the route is planned does most good, or None when none does
    any: a tile next to what the character can already walk to (:func:`plan_reach`), best one holding a
    place the crew may need (loot, a target, a server or keycard), then an unknown tile (what it hides may
    be what the job needs, and walking next to unknown tiles reveals them), counting the unknown tiles
    around it and whether it brings the character nearer the crew's places; live cameras and guards count
    against it. Without spare tokens a character can never leave its first route, however the heist turns
    out."""
    reach = plan_reach(st, p) if p.pos else {}
    candidates = sorted(n for n in plannable if any(m in reach for m in R.nbrs(st, n)))
    if not candidates:
        return None
    targets, ways_in = crew_targets(st)
    places = targets | ways_in
    toward = distances(st, places) if places else {}
    near_now = min((toward.get(n, 999) for n in reach), default=999)
    others = {n for q in st.players.values() if q.seat != p.seat for n in q.plans}
    best, best_score = None, 0.0
    for n in candidates:
        t = st.tiles[n]
        score = 0.0
        if n in places or t.loot or t.cash:
            score += 12
        if t.unknown:
            score += 6 + (2 if n not in others else 0)
        score += sum(1 for m in R.nbrs(st, n) if st.tiles.get(m) is not None and st.tiles[m].unknown)
        if toward.get(n, 999) < near_now:
            score += 3
        score -= 4 * len(R.chits(st, n, "camera")) + len(R.chits(st, n, "guard"))
        if score > best_score:
            best, best_score = n, score
    return best


def best_tunnel(st: HeistState, tunnels: list[str]) -> str | None:
    """The tunnel (``tunnel`` argument) that brings the crew's places (:func:`crew_targets`) nearest to a
    way in, when it saves at least two steps in all over the exits there are; else None. Among tunnels that
    save as much, the one that leaves no place far off (the least sum of squared walks): a hub the crew fans
    out from in parallel (The Side Channel: d6, between the USB key, the keycard and the guide's door, where
    the first of four equal tunnels, c5, left the documents seven tiles off). A printed tunnel opens onto the
    tiles it borders; an entrance laid against a building hex opens onto that hex only. With a Grease Man
    in the crew a place's walk may cross gaps (:func:`vents`): The Final Score Part 1's safe lies a vent
    from the tunnel at i8."""
    if not tunnels:
        return None
    targets, ways_in = crew_targets(st)
    places = sorted(targets | ways_in)
    if not places:
        return None
    far = 99
    dist = [distances(st, {n}) for n in places]
    venter = any(vents(q) for q in R.in_play(st))
    if venter:
        dist = [nearer(d, distances(st, {n}, vent=True)) for d, n in zip(dist, places, strict=True)]
    outs = R.exits(st)
    now = sum(min((d.get(e, far) for e in outs), default=far) for d in dist)
    printed = R.board(st).tunnels
    best, saved = None, (1, 0)
    for t in tunnels:
        doors = [m for m in R.board(st).nbrs.get(t, ()) if R.alive(st, m)] if t in printed else [t]
        vents_in = [m for m in R.board(st).gap_across.get(t, ()) if R.alive(st, m)] if venter else []
        walks = []
        for d in dist:
            by_exit = min((d.get(e, far) for e in outs), default=far)
            by_vent = 1 + VENT_COST + min((d.get(m, far) for m in vents_in), default=far)
            walks.append(min(by_exit, by_vent, 1 + min((d.get(m, far) for m in doors), default=far)))
        gain = (now - sum(walks), -sum(w * w for w in walks))
        if gain[0] > 1 and gain > saved:
            best, saved = t, gain
    return best


def nearer(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """Each tile's lower cost of two walks."""
    return {n: min(a.get(n, c), c) for n, c in b.items()} | {n: c for n, c in a.items() if n not in b}


def escape_weights(st: HeistState, p: Player, options: list[Command], weights: list[int]) -> list[int]:
    """Escape: run, by way of loot the objective needs when it is affordable."""
    need = wanted(st)
    for i, c in enumerate(options):
        if c.verb == "run" and c.args:
            t = st.tiles[c.args[1]]
            useful = set(t.loot) & need or ("cash" in need and t.cash)
            cost = R.escape_need(st, p, c.args[1])
            # Loot the objective still needs is worth any chance the last-ditch die gives (without it
            # the heist fails anyway); a busted runner leaves it on its tile for the next.
            weights[i] = 30 if useful and cost is not None and cost <= p.ideas + 6 else 0
        elif c.verb == "run":
            weights[i] = 10
        elif c.verb == "drop":
            weights[i] = 0
        elif c.verb == "npc":
            weights[i] = npc_weight(st, c, options)
    return weights
