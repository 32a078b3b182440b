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

from engine.ai.copying import flat, plain, rng_copy
from engine.dice import Rng
from engine.rulesets.heist import policy as P
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState, Npc, Player, Tile


def _player(p: Player) -> Player:
    c: Player = flat(p)
    c.skills, c.items, c.plans = list(p.skills), list(p.items), list(p.plans)
    c.loot, c.used, c.flags = list(p.loot), list(p.used), list(p.flags)
    return c


def _tile(t: Tile) -> Tile:
    return Tile(t.unknown, [flat(c) for c in t.chits], t.cash, list(t.loot), list(t.marks))


def _npc(n: Npc) -> Npc:
    c: Npc = flat(n)
    c.loot = list(n.loot)
    return c


def copy_state(st: HeistState) -> HeistState:
    """An independent deep copy of ``st`` (take-back snapshots included)."""
    new = flat(st)
    new.rng = rng_copy(st.rng)
    new.seats = list(st.seats)
    new.players = {k: _player(p) for k, p in st.players.items()}
    new.tiles = {k: _tile(t) for k, t in st.tiles.items()}
    for name in ("deck", "bag", "discard", "crises", "removed", "exits", "shop", "fixers", "flags",
                 "bought", "news"):  # fmt: skip
        setattr(new, name, list(getattr(st, name)))
    new.doors = dict(st.doors)
    new.hauled = dict(st.hauled)
    new.npcs = [_npc(n) for n in st.npcs]
    new.undo = plain(st.undo)
    new.campaign = plain(st.campaign)
    new.members = dict(st.members)
    return new


def determinize(st: HeistState, seat: str, rng: Rng) -> HeistState:
    """A copy with a generator reseeded from ``rng``, the bag's order shuffled, snapshots reseeded too."""
    new = copy_state(st)
    new.bag.sort()
    rng.shuffle(new.bag)
    new.rng = Rng(seed=rng.below(2**62))
    for snap in new.undo.values():
        snap["rng"] = new.rng.to_data()
        snap["bag"] = sorted(snap["bag"])
    return new


def _loot_inside(st: HeistState) -> dict[str, float]:
    held: dict[str, float] = {}
    for p in st.players.values():
        if p.status == "in":
            for item in p.loot:
                held[item] = held.get(item, 0) + 1
            held["cash"] = held.get("cash", 0) + p.cash
    for n in st.npcs:
        if n.status == "in":
            for item in n.loot:
                held[item] = held.get(item, 0) + 1
    return held


def crew_score(st: HeistState) -> float:
    """How close the crew is to pulling the heist off, 0..1: the objective's parts secured outdoors (loot
    held inside counts half), the crew not busted, the characters' distance to where they must go next,
    weighed against the event deck running out."""
    o = R.heist(st).objective
    got, held = st.hauled, _loot_inside(st)
    parts: list[float] = []
    for kind, need in (("docs", o.docs), ("jewel", o.jewels), ("cash", o.cash_k)):
        if need:
            parts.append(min(1.0, (got.get(kind, 0) + 0.5 * held.get(kind, 0)) / need))
    if o.npc_escapes:
        parts.append(
            1.0
            if any(n.status == "escaped" for n in st.npcs)
            else 0.4
            if any(n.active for n in st.npcs)
            else 0.0
        )
    if o.safe:
        safe = R.heist(st).safe
        cracks = safe.cracks if safe is not None else 1
        parts.append(1.0 if "safe_open" in st.flags else 0.6 * min(1.0, st.safe / max(1, cracks)))
    if o.characters_escape:
        out = sum(p.status == "escaped" and "been_inside" in p.used for p in st.players.values())
        parts.append(min(1.0, out / o.characters_escape))
    progress = sum(parts) / len(parts) if parts else 0.5
    crew = list(st.players.values())
    busted = sum(p.status == "busted" for p in crew) / max(1, len(crew))
    near = 0.0
    inside = [p for p in crew if p.status == "in" and p.pos]
    if inside:
        total = 0.0
        for p in inside:
            d = P.distances(st, P.goals_for(st, p))
            total += 1.0 / (1.0 + d.get(p.pos, 12) / 3.0)
        near = total / len(inside)
    time_left = len(st.deck) / max(1, len(st.deck) + len(st.discard))
    score = 0.1 + 0.6 * progress + 0.12 * near + 0.08 * time_left - 0.3 * busted
    if "plan_lost" in st.flags:
        score = 0.0
    return min(0.95, max(0.01, score))


def evaluate(st: HeistState, seat: str) -> float:
    """The position for the crew (every seat shares it) in 0..1: 1 won, 0 failed, else :func:`crew_score`."""
    if st.result is not None:
        return 1.0 if seat in st.result.winners else 0.0
    return crew_score(st)


__all__ = ["copy_state", "determinize", "evaluate"]
