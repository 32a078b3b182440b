"""Weights for the game's own Skirm player: take and hold objectives, carry data home, attack when able.

Uses only public information (positions, objectives, markers); Skirm hides nothing but future dice.
"""

from __future__ import annotations

from engine.core import Command
from engine.geometry.square import Cell, chebyshev, parse_cell
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.content import SIZE
from engine.rulesets.skirm.state import SkirmState, Unit

VERB = {"shoot": 40, "fight": 45, "plant": 60, "upload": 80, "sabotage": 60, "pickup": 40, "recover": 25,
        "skill": 6, "order": 6, "open": 4, "close": 1, "drop": 0, "activate": 5, "reroll": 10, "keep": 3,
        "zone": 1, "deploy": 1, "end": 2, "chain": 30, "push": 10, "pass": 4}  # fmt: skip


def goals(st: SkirmState, u: Unit) -> list[Cell]:
    """Where a unit wants to be: home if carrying data, else objectives not yet held, data caches, enemies."""
    if u.carrying and st.zones.get(u.seat):
        return sorted(B.mission(st).zones[st.zones[u.seat]])
    out = [(o["pos"][0], o["pos"][1]) for o in st.objectives
           if not o["gone"] and R.controller(st, (o["pos"][0], o["pos"][1])) != u.seat]  # fmt: skip
    out += [(m["pos"][0], m["pos"][1]) for m in st.markers.values() if m["pos"]]
    if not out:
        out = [v.pos for v in st.units.values() if v.seat != u.seat and v.pos is not None and B.on_map(v)]
    return out


def line_weight(st: SkirmState, seat: str, arg: str) -> int:
    """The weight of an LNR shot whose line choice is ``arg`` (``line:a+b`` / ``line:none``): a line that
    catches a squadmate is a last resort; among the others, each extra enemy on the line counts."""
    hit = [x for x in arg.partition(":")[2].split("+") if x in st.units]
    mates = sum(1 for x in hit if st.units[x].seat == seat)
    return 1 if mates else VERB["shoot"] + 10 * len(hit)


def bot_weights(st: SkirmState, seat: str, options: list[Command]) -> list[int]:
    """A weight per option: mission actions and attacks first, then moves that close on a goal."""
    cache: dict[str, list[Cell]] = {}
    weights = []
    for c in options:
        w = VERB.get(c.verb, 2)
        if c.verb in ("move", "dash", "crawl", "leap") and c.args[0] in st.units:
            u = st.units[c.args[0]]
            g = cache.get(u.id)
            if g is None:  # once a unit: its goals ask who controls each objective
                g = cache[u.id] = goals(st, u)
            to = parse_cell(c.args[1], SIZE, SIZE)
            if u.pos is not None and g:
                before = min(chebyshev(u.pos, x) for x in g)
                after = min(chebyshev(to, x) for x in g)
                w = 20 + 5 * (before - after) if after < before else (1 if before == 0 else 2)
        elif c.verb == "shoot" and len(c.args) == 4:  # an LNR shot naming its line: spare squadmates
            w = line_weight(st, seat, c.args[3])
        elif c.verb in ("chain", "push") and c.args[0] in ("done", "none"):
            w = 3
        elif c.verb == "end" and st.active and not st.ordered:
            u = st.units[st.active]
            w = 2 if R.act_left(u) else 25
        weights.append(max(0, w))
    return weights
