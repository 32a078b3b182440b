"""Weights for the game's own hero player: commit attacking cards, close in (or run for the exit), opening
the doors on the way, attack, take the split that reaches with the better damage die, re-roll misses, end a
turn once nothing is left.

Uses only what the hero's seat may know (positions, its own cards and dice); never the decks' order."""

from __future__ import annotations

from engine.core import Command
from engine.geometry.square import Cell, chebyshev
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.actions import current, legal
from engine.rulesets.cardcombat.content import cards
from engine.rulesets.cardcombat.state import CCState

VERB = {"attack": 60, "heal": 30, "cast": 25, "summon": 40, "rift": 10, "teleport": 8, "boost": 15, "use": 3,
        "loot": 12, "open": 2, "skip": 1, "accept": 4, "reroll": 25}  # fmt: skip


def goals(st: CCState, fid: str) -> list[tuple[int, int]]:
    """Where the figure wants to go: the exit in an escape, else the foes."""
    f = st.figures[fid]
    exits = st.scenario["objective"] == "escape" and f["kind"] == "hero"
    if exits or f.get("summon") == "prisoner":
        w, h = R.size(st)
        return [(x, y) for x in range(w) for y in range(h) if R.char(st, (x, y)) == "E"]
    chests = [(p[0], p[1]) for p in st.loot if str(p[2]).startswith("chest:")]
    if chests and f["kind"] == "hero":
        return chests
    captive = st.figures.get("prisoner")
    if captive is not None and captive.get("captive") and captive["hp"] > 0 and f["kind"] == "hero":
        return [R.pos(captive)]
    if st.scenario["objective"] == "kill_boss":
        boss = [R.pos(g) for g in R.foes(st, f) if g.get("boss")]
        if boss:
            return boss
    return [R.pos(g) for g in R.foes(st, f)]


def commit_weight(c: Command) -> int:
    """Prefer spending the round on attacks and moves."""
    if c.args[1] == "rest":
        return 1
    w = 0
    for cid in c.args[1:]:
        card = cards()[cid]
        if any(a.needs for a in card.actions) and card.cooldown < 0:
            w -= 20  # a discard card whose best line needs a rift: keep it for later
        w += 4 * card.cost + sum(6 for a in card.actions if a.kind in ("melee", "ranged"))
        w += sum(3 for a in card.actions if a.kind in ("move", "heal", "summon"))
    return max(1, w)


def bot_weights(st: CCState, seat: str, options: list[Command]) -> list[int]:
    """A weight per option."""
    out = []
    fid = st.turn.get("fig", "")
    act = current(st) if fid else None
    for c in options:
        w = VERB.get(c.verb, 2)
        if c.verb == "commit":
            w = commit_weight(c)
        elif c.verb == "move" and fid:
            f = st.figures[fid]
            g = goals(st, fid)
            if g:
                to = R.parse_cell_for(st, c.args[1])
                doors = f["kind"] == "hero"  # a hero heads for a door it can open; a summon cannot
                before = min(R.walking_distance(st, x, R.pos(f), doors) for x in g)
                after = min(R.walking_distance(st, x, to, doors) for x in g)
                cost = "stamina" in c.label
                w = max(1, 30 + 8 * (before - after) - (6 if cost else 0)) if after < before else 1
                if "via a trap" in c.label:
                    w = max(1, w - 25)
                if act is not None and act.kind == "move" and after >= before:
                    w = 2
        elif c.verb == "split" and st.pending.get("targets"):
            f = st.figures[fid]
            t = st.figures[st.pending["targets"][0]]
            r, d = int(c.args[1]), int(c.args[2])
            reaches = chebyshev(R.pos(f), R.pos(t)) <= r + int(st.pending.get("mods", {}).get("range", 0))
            w = 10 + 10 * d if reaches else 1
        elif c.verb == "open" and fid:
            w = door_weight(st, fid, R.parse_cell_for(st, c.args[1]))
        elif c.verb == "heal":
            ally = st.figures[c.args[1]]
            w = 5 + 8 * min(ally["max_hp"] - ally["hp"], 4)
        elif c.verb == "end":
            w = 40 if act is None else 1
        elif c.verb == "skip" and act is not None and act.kind in ("move",):
            w = 3
        out.append(max(1, w) ** 3)  # cubed: the game's own hero mostly plays its best option
    return out


def door_weight(st: CCState, fid: str, door: Cell) -> int:
    """Open a door that shortens the hero's way to its goals (less eagerly when it is the last one under The
    Blood Price); leave the others shut."""
    f = st.figures[fid]
    g = goals(st, fid)
    if not g:
        return 2
    now = min(R.walking_distance(st, x, R.pos(f)) for x in g)
    through = min(R.walking_distance(st, x, door, True) for x in g) + 1
    if through >= now:
        return 2
    price = "the_blood_price" in st.scenario["rules"] and len(R.closed_doors(st)) == 1
    return 35 if price else 50


def best_command(st: CCState, seat: str) -> Command:
    """The option with the highest weight (the first listed on ties): the greedy hero player.

    Raises IndexError when ``seat`` has nothing to play."""
    options = legal(st, seat)
    weights = bot_weights(st, seat, options)
    return options[max(range(len(options)), key=lambda i: (weights[i], -i))]
