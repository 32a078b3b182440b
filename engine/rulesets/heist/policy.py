"""Weights for a game-controlled thief: plan a route to the goal, follow it, grab the loot, get out.

Uses only public information (the board, revealed chits and loot, the face-up deck), never the bag's
contents or future dice.
"""

from __future__ import annotations

from collections import deque

from engine.core import Command
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState, Player

VERB_WEIGHTS = {
    "plan": 1, "unplan": 0, "start": 1, "tunnel": 1, "buy": 0, "sell": 0, "ready": 1, "act": 5,
    "move": 1, "unlock": 10, "subdue": 10, "disable": 8, "reveal": 4, "idea": 10, "loot": 10, "crack": 40,
    "efficient": 2, "hack": 6, "toss": 0, "done": 1, "undo": 0, "take": 40, "drop": 0, "give": 0, "open": 30,
    "escort": 40, "escape": 0, "slip": 2, "larceny": 0, "vent": 0, "codes": 1, "newplan": 0, "replan": 0,
    "teamwork": 0, "run": 5, "force": 8, "pinch": 2,
}  # fmt: skip


def distances(st: HeistState, goals: set[str]) -> dict[str, int]:
    """Steps from every tile to the nearest goal over the board now (locks count as passable)."""
    dist = {g: 0 for g in goals if R.alive(st, g)}
    queue = deque(sorted(dist))
    while queue:
        cur = queue.popleft()
        for m in R.nbrs(st, cur):
            if m not in dist:
                dist[m] = dist[cur] + 1
                queue.append(m)
    return dist


def wanted(st: HeistState) -> set[str]:
    """Loot kinds the objective still needs."""
    o = R.heist(st).objective
    out = set()
    if st.hauled.get("jewel", 0) < o.jewels:
        out.add("jewel")
    if st.hauled.get("docs", 0) < o.docs:
        out.add("docs")
    if st.hauled.get("cash", 0) < o.cash_k:
        out.add("cash")
    return out


def job_done(st: HeistState) -> bool:
    """True when getting everyone out now would meet the objective (as far as the crew can tell)."""
    o = R.heist(st).objective
    if wanted(st):
        return False
    if o.npc_escapes and not any(n.escort and n.status == "in" for n in st.npcs):
        return any(n.status == "escaped" for n in st.npcs)
    if o.safe and "safe_open" not in st.flags:
        return False
    if o.characters_escape:
        return any("been_inside" in p.used for p in R.in_play(st))
    return True


def goals_for(st: HeistState, p: Player) -> set[str]:
    """Where this character wants to go now."""
    need = wanted(st)
    outs = R.exits(st)
    carrying = bool(set(p.loot) & need) or (p.cash > 0 and "cash" in need)
    if carrying or any(n.escort == p.seat for n in st.npcs):
        return outs
    targets = {
        n
        for n, t in st.tiles.items()
        if R.alive(st, n) and (set(t.loot) & need or ("cash" in need and t.cash))
    }
    targets |= {n for n, t in st.tiles.items() if "safe" in t.marks and R.heist(st).safe and R.alive(st, n)}
    targets |= {npc.pos for npc in st.npcs if npc.status == "in" and not npc.escort}
    if not targets:
        targets = {n for n, t in st.tiles.items() if t.unknown and R.alive(st, n)}
    if not targets:
        targets = {n for n, t in st.tiles.items() if (t.loot or t.cash) and R.alive(st, n) and n not in outs}
    if not targets:
        return outs
    # Spread the crew: each seat favours a different target.
    ordered = sorted(targets)
    i = st.seats.index(p.seat) % len(ordered)
    return {ordered[i]}


def route(st: HeistState, p: Player, start: str) -> list[str]:
    """The tiles of a shortest walk from ``start`` to the character's goal, then back to the nearest exit."""
    goal = goals_for(st, p)
    d = distances(st, goal)
    path: list[str] = []
    cur = start
    while cur in d and d[cur] > 0:
        nxt = min((m for m in R.nbrs(st, cur) if m in d and d[m] < d[cur]), default=None)
        if nxt is None:
            break
        path.append(nxt)
        cur = nxt
    back = distances(st, R.exits(st))
    while cur in back and back[cur] > 0:
        nxt = min((m for m in R.nbrs(st, cur) if m in back and back[m] < back[cur]), default=None)
        if nxt is None:
            break
        path.append(nxt)
        cur = nxt
    return [n for n in path if n not in R.exits(st)]


def bot_weights(st: HeistState, seat: str, options: list[Command]) -> list[int]:
    """A weight per option: follow a sensible plan, act usefully, call the escape when the job is done."""
    p = st.players[seat]
    weights = [VERB_WEIGHTS.get(c.verb, 1) for c in options]
    if st.phase == "plan":
        return plan_weights(st, p, options, weights)
    if st.phase == "escape":
        return escape_weights(st, p, options, weights)
    goal = goals_for(st, p) if p.pos else set()
    d = distances(st, goal) if goal else {}
    big = 999
    here = d.get(p.pos, big)
    done_job = job_done(st)
    opts = {o.key: o for o in R.options(st, p)} if not p.action else {}
    for i, c in enumerate(options):
        if c.verb == "move":
            weights[i] = 40 if d.get(c.args[0], big) < here else 1
        elif c.verb == "act":
            weights[i] = act_weight(st, p, opts.get(c.args[0]), d, here)
        elif c.verb == "done":
            useful = [
                o
                for o in options
                if o.verb in ("move", "unlock", "subdue", "disable", "idea", "loot", "crack", "take")
            ]
            weights[i] = 1 if useful else 50
        elif c.verb == "escape":
            weights[i] = 60 if done_job or len(st.deck) <= 2 else 0
        elif c.verb == "take":
            weights[i] = 40
    return weights


def act_weight(st: HeistState, p: Player, o: R.Option | None, d: dict[str, int], here: int) -> int:
    """How useful an action looks for this character now."""
    if o is None:
        return 1
    subs = o.subs
    score = 5
    held = R.guards(st, p.pos) > 0
    ahead = [m for m in R.nbrs(st, p.pos) if d.get(m, 999) < here]
    if held:
        score += 15 * min(1, subs.count("S"))
    if ahead and not held:
        if any(R.locked(st, m) for m in ahead):
            score += 12 * min(1, subs.count("U"))
        score += 8 * subs.count("M")
    if any(R.chits(st, m, "camera") for m in R.nbrs(st, p.pos)):
        score += 3 * min(1, subs.count("D"))
    score += 3 * subs.count("I") + 2 * subs.count("L")
    if "safe" in st.tiles[p.pos].marks:
        score += 10 * subs.count("U")
    score -= 4 * o.cost + 2 * subs.count("N") + 6 * subs.count("A")
    return max(1, score)


def plan_weights(st: HeistState, p: Player, options: list[Command], weights: list[int]) -> list[int]:
    """Planning: start near the goal, plan the route there and back, then get ready."""
    outs = sorted(R.exits(st))
    starts = [c.args[0] for c in options if c.verb == "start"]
    if not p.pos:
        goal = goals_for(st, p)
        d = distances(st, goal)
        best = min((d.get(e, 999) for e in starts), default=999)
        for i, c in enumerate(options):
            weights[i] = 50 if c.verb == "start" and d.get(c.args[0], 999) == best else 0
        if not any(weights):
            weights = [1 if c.verb == "start" else 0 for c in options]
        return weights
    path = route(st, p, p.pos)
    missing = [n for n in path if n not in p.plans]
    for i, c in enumerate(options):
        if c.verb == "plan":
            weights[i] = 50 if c.args[0] in missing[:1] else 0
        elif c.verb == "ready":
            weights[i] = 0 if missing and any(o.verb == "plan" for o in options) else 50
        else:
            weights[i] = 0
    if not any(weights):
        weights = [1 if c.verb in ("ready", "plan") else 0 for c in options]
    del outs
    return weights


def escape_weights(st: HeistState, p: Player, options: list[Command], weights: list[int]) -> list[int]:
    """Escape: run, by way of loot the objective needs when it is affordable."""
    need = wanted(st)
    for i, c in enumerate(options):
        if c.verb == "run" and c.args:
            t = st.tiles[c.args[1]]
            useful = set(t.loot) & need or ("cash" in need and t.cash)
            cost = R.escape_need(st, p, c.args[1])
            weights[i] = 30 if useful and cost is not None and cost <= p.ideas + 4 else 0
        elif c.verb == "run":
            weights[i] = 10
        elif c.verb == "drop":
            weights[i] = 0
    return weights
