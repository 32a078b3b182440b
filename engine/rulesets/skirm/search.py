"""Skirm hooks for the search player: a fast state copy, determinization and a position evaluation.

Skirm hides nothing but the future dice, so the default determinization (a copy with a reseeded generator)
serves, and the search lists a tree node's commands once for every playout that draws no die on the way.
"""

from __future__ import annotations

import math

from engine.ai.copying import flat, plain, rng_copy
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.state import DOWNED, OUT, STANDING, SkirmState, Unit


def copy_state(st: SkirmState) -> SkirmState:
    """An independent deep copy of ``st`` (several times cheaper than a JSON round trip), but for the squad
    records, which nothing changes once the game is set up: the copy shares them."""
    new = flat(st)
    new.rng = rng_copy(st.rng)
    units = {}
    for k, u in st.units.items():
        c: Unit = flat(u)
        c.weapons, c.skills, c.spent = list(u.weapons), list(u.skills), list(u.spent)
        c.counts = dict(u.counts)
        c.used_weapons = {w: list(v) for w, v in u.used_weapons.items()}
        units[k] = c
    new.units = units
    new.doors = dict(st.doors)
    new.objectives = plain(st.objectives)
    new.markers = plain(st.markers)
    new.zones = dict(st.zones)
    new.orders = dict(st.orders)
    new.orders_rolled = dict(st.orders_rolled)
    new.skills_used = list(st.skills_used)
    new.points = dict(st.points)
    new.stack = plain(st.stack)
    new.trail = list(st.trail)
    new.attacks = list(st.attacks)
    new.policies = dict(st.policies)
    return new


def margin(st: SkirmState, seat: str) -> float:
    """``seat``'s projected lead in mission points: points scored, objectives held or planted times the
    scorings left, carried data, and units standing (a downed one counts less; one its own side took out
    counts against it)."""
    other = R.SEATS[1] if seat == R.SEATS[0] else R.SEATS[0]
    lead = float(st.points.get(seat, 0) - st.points.get(other, 0))
    scorings = max(0, R.TURNS - max(st.turn, 1) + 1)
    for o in st.objectives:
        if o["gone"]:
            continue
        who = R.controller(st, (o["pos"][0], o["pos"][1])) or o["planted"]
        if who:
            lead += (0.6 * scorings) * (1 if who == seat else -1)
    for u in st.units.values():
        worth = 1.0 if u.state == STANDING else 0.4 if u.state == DOWNED else 0.0
        if u.carrying:
            worth += 0.5
        if u.state == OUT and u.out_by == u.seat:
            worth -= 1.5  # taken out by its own side: never worth a trade
        lead += 0.7 * worth * (1 if u.seat == seat else -1)
    return lead


def evaluate(st: SkirmState, seat: str) -> float:
    """The position for ``seat`` in 0..1: the result once over, else a squashed :func:`margin`."""
    if st.result is not None:
        if not st.result.winners:
            return 0.5
        return 1.0 if seat in st.result.winners else 0.0
    return 0.5 + 0.45 * math.tanh(margin(st, seat) / 4.0)
