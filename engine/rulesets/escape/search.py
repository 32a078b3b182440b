"""ESCAPE hooks for the search player: a fast state copy, determinization and a position evaluation.

Hidden in ESCAPE: what face-down tokens hold (their kind is public: placing one is narrated) and the
order of the equipment and objective pools, plus the future dice. The evaluation reads only public facts.
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine.ai.copying import flat, plain, rng_copy
from engine.dice import Rng
from engine.geometry.square import Cell
from engine.rulesets.escape import rules as R
from engine.rulesets.escape.policy import path_distances
from engine.rulesets.escape.state import CBT, MVT, Door, EscapeState, Token, Unit


def copy_state(st: EscapeState) -> EscapeState:
    """An independent deep copy of ``st`` (about ten times cheaper than a JSON round trip)."""
    new = flat(st)
    new.rng = rng_copy(st.rng)
    new.lineups = {k: list(v) for k, v in st.lineups.items()}
    units = {}
    for k, u in st.units.items():
        c: Unit = flat(u)
        c.used, c.bonus, c.mods = list(u.used), list(u.bonus), list(u.mods)
        units[k] = c
    new.units = units
    new.doors = {k: Door(d.open, d.locked, d.difficulty) for k, d in st.doors.items()}
    new.tokens = {k: flat(t) for k, t in st.tokens.items()}
    new.destroyed = list(st.destroyed)
    new.equipment_pool = list(st.equipment_pool)
    new.objective_pool = list(st.objective_pool)
    new.policies = {k: dict(v) for k, v in st.policies.items()}
    new.stack = plain(st.stack)
    new.trail = list(st.trail)
    new.attacks = list(st.attacks)
    return new


def hidden_in_play(st: EscapeState) -> tuple[int, int, int, int]:
    """What a determinization has brought into play (``Ruleset.hidden_in_play``): the dice drawn, the tokens
    made, the tokens there are and those face up. Legal commands read a token's contents only once it is
    face up (a carried token always is). Each number only grows but the third, which only a token taken
    away lowers, and tokens never turn face down, so the same four numbers as at the start mean no die
    drawn, no token made, taken away or turned up: the same commands."""
    return st.rng.counter, st.next_token, len(st.tokens), sum([1 for t in st.tokens.values() if t.face_up])


def determinize(st: EscapeState, seat: str, rng: Rng) -> EscapeState:
    """A copy with every face-down token's contents dealt anew, with the undrawn pool, from ``rng``.

    Both sides see the same in ESCAPE, so the seat does not matter. The contents are gathered in sorted
    order before the deal, so the result depends only on public facts and ``rng``.
    """
    new = copy_state(st)
    hidden: list[Token] = sorted(
        (t for t in new.tokens.values() if not t.face_up and t.kind in ("equipment", "objective")),
        key=lambda t: t.id,
    )
    if hidden or new.equipment_pool or new.objective_pool:
        items = sorted([t.item for t in hidden if t.kind == "equipment"] + new.equipment_pool)
        values = sorted([t.value for t in hidden if t.kind == "objective"] + new.objective_pool)
        rng.shuffle(items)
        rng.shuffle(values)
        for t in hidden:
            if t.kind == "equipment":
                t.item = items.pop()
            else:
                t.value = values.pop()
        new.equipment_pool, new.objective_pool = items, values
    new.rng = Rng(seed=rng.below(2**62))
    return new


_FAR = 40  # steps counted for a square no walk reaches (a sealed room)
_SPAN = 30.0  # about the longest walk a scenario asks for: the scale of the linear distance credit


def _distances(st: EscapeState, goals: tuple[Cell, ...]) -> dict[Cell, int]:
    # Walking distances depend on the map, the doors (any door is passable) and destroyed walls only.
    return path_distances(st, list(goals), "resistance")


def _goal_cells(st: EscapeState) -> tuple[Cell, ...]:
    s = R.scen(st)
    v = s.victory["resistance"]
    b = R.board(st)
    if v["type"] == "hold_room":
        return tuple(sorted(b.room_cells(v["room"])))
    return tuple(sorted(c for n in s.exits for c in b.airlocks[n]))


def _start_cells(st: EscapeState) -> tuple[Cell, ...]:
    # Where a Resistance character not yet on the board comes in: the entry airlocks or its deployment room.
    d = R.scen(st).deploy["resistance"]
    b = R.board(st)
    if d.get("mode") == "entry":
        return tuple(c for n in d["airlocks"] for c in b.airlocks[n])
    return tuple(b.room_cells(d["room"]))


def _moves_left(st: EscapeState, u: Unit) -> int:
    """Movement actions the unit still has before the last turn ends (this turn's if it may still act)."""
    turns = R.scen(st).turns
    mvt = max(1, R.base_stat(st, u, MVT))
    now = R.left(st, u, MVT) if (not u.activated or st.active == u.id) else 0
    return now + mvt * max(0, turns - max(1, st.turn))


def _reach(steps: int, moves: int, health: float) -> float:
    """How likely, 0..1, a character ``steps`` from where it must go gets there in time: whether its
    movement left covers the walk (a soft step: blocked squares and detours eat into it), plus a linear
    credit per step so every step closer counts, scaled by its life left (the wounded rarely make it)."""
    slack = 0.85 * moves - steps
    in_time = 1.0 / (1.0 + math.exp(-slack / 3.0))
    closer = 1.0 - min(steps, _SPAN) / _SPAN
    return (0.5 * in_time + 0.5 * closer) * (0.6 + 0.4 * health)


def _health(u: Unit) -> float:
    life = R.prof(u).life
    return max(0, life - u.damage) / life


def _steps(st: EscapeState, u: Unit, dist: dict[Cell, int], start: int) -> int:
    # Leaving by an airlock is one more Movement action than reaching it; so is entering.
    extra = 1 if R.scen(st).exits else 0
    if u.status == "board" and u.pos is not None:
        return dist.get(u.pos, _FAR) + extra
    return start + 1 + extra


def _best(chances: list[float], need: int, spare: float = 0.25) -> float:
    """The ``need`` best chances (sorted best first), plus ``spare`` of each other's: spare characters
    are a reserve against losses, so their walks count too."""
    need = max(0, need)
    return sum(chances[:need]) + spare * sum(chances[need:])


# Evasion: each turn a runner still walks is a turn the I.S.C. may catch it (its goal is take-outs, not the
# clock), so a walk's chance shrinks by this factor per turn of Movement it needs; and every runner counts
# for more than a reserve, since any one of them getting out wins. In Data theft only the Resistance's own
# view applies the discount: on both sides it made the I.S.C. chase far carriers less, and the hard
# Resistance won 79 % of hard-vs-hard games (ruling 39).
_CAUGHT = 0.85
_SPARE_RUNNER = 0.6


def _exposure(st: EscapeState, u: Unit, steps: int) -> float:
    """The chance ``u`` is not caught on a walk of ``steps``: :data:`_CAUGHT` per turn of Movement."""
    return math.pow(_CAUGHT, steps / max(1, R.base_stat(st, u, MVT)))


def _chance(st: EscapeState, u: Unit, steps: int, wary: bool) -> float:
    """:func:`_reach` for ``u`` walking ``steps``; ``wary``: times the chance it is not caught on the way."""
    chance = _reach(steps, _moves_left(st, u), _health(u))
    return chance * _exposure(st, u, steps) if wary else chance


def _resistance_progress(st: EscapeState, wary: bool = False) -> float:
    """The Resistance's expected share of its scenario goal, 0..1. ``wary``: in Data theft, count each
    walk with a core, or to one, at its chance of not being caught on the way (the Resistance's own view)."""
    s = R.scen(st)
    v = s.victory["resistance"]
    kind = v["type"]
    b = R.board(st)
    alive = [u for u in st.units.values() if u.seat == "resistance" and u.status in ("board", "reserve")]
    dist = _distances(st, _goal_cells(st))
    start = min((dist.get(c, _FAR) for c in _start_cells(st)), default=_FAR)
    if kind == "escaped":
        need = max(1, int(v["count"]))
        done = sum(u.status == "escaped" for u in st.units.values() if u.seat == "resistance")
        chances = sorted((_chance(st, u, _steps(st, u, dist, start), True) for u in alive), reverse=True)
        return min(1.0, (done + _best(chances, need - done, _SPARE_RUNNER)) / need)
    if kind == "carried_points":
        need_points = max(1, int(v["points"]))
        # What a core not yet turned over is worth on average: the mean of the scenario's set.
        mean_value = sum(s.objectives) / len(s.objectives) if s.objectives else 1.0
        lying = [t for t in st.tokens.values() if t.kind == "objective" and t.pos is not None]
        # Per core lying about: the walks to it, its own walk out (plus the step out), and the whole walk of a
        # character still to enter (the step in, to the core, out).
        entry = _start_cells(st)
        cores = []
        for t in lying:
            if t.pos is not None:
                to, out = _distances(st, (t.pos,)), dist.get(t.pos, _FAR) + 1
                cores.append((t, to, out, min((to.get(c, _FAR) for c in entry), default=_FAR) + 1 + out))
        carriers: list[float] = []
        walks: list[tuple[int, int, str]] = []  # (walk to the core and out, core index, character)
        carried_value = 0
        for u in alive:
            token = st.tokens.get(u.carrying) if u.carrying else None
            if token is not None and token.kind == "objective":
                steps = _steps(st, u, dist, start)
                carriers.append(token.value * _chance(st, u, steps, wary))
                carried_value += token.value
                continue
            here = u.pos if u.status == "board" else None
            for i, (_, to, out, from_entry) in enumerate(cores):
                walks.append((to.get(here, _FAR) + out if here is not None else from_entry, i, u.id))
        # Each core is fetched by one character at most, the shortest walks paired first, and is worth its
        # value once turned face up, the set's mean before. Letting every character count its walk to the
        # nearest core made four or five characters round one 1-point core read as the goal done, so picking
        # it up lowered the score and nobody did (a 0-point draw, seed 10040).
        gains: list[float] = []
        busy: set[str] = set()
        fetched_cores: set[int] = set()
        for walk, i, uid in sorted(walks):
            if uid in busy or i in fetched_cores:
                continue
            busy.add(uid)
            fetched_cores.add(i)
            core = cores[i][0]
            gains.append(
                (core.value if core.face_up else mean_value) * _chance(st, st.units[uid], walk, wary)
            )
        # The cores the missing points need count in full, the others as a reserve (:func:`_best`); the sum
        # is capped softly at what is missing, so every walk still counts once one core is out.
        missing = max(0, need_points - st.carried_points - carried_value)
        fetched = 0.0
        if missing:
            expected = _best(sorted(gains, reverse=True), math.ceil(missing / mean_value))
            fetched = missing * (1.0 - math.exp(-expected / missing))
        return min(1.0, (st.carried_points + sum(carriers) + fetched) / need_points)
    # hold_room: enough characters in the room to reach the minimum and outnumber the I.S.C. there.
    room = v["room"]
    defenders = sum(
        1 for u in st.units.values()
        if u.seat == "isc" and u.status == "board" and u.pos is not None and b.cell_room[u.pos] == room
    )  # fmt: skip
    need = max(int(v["min"]), defenders + 1)
    chances = sorted(
        (_reach(_steps(st, u, dist, start), _moves_left(st, u), _health(u)) for u in alive), reverse=True
    )
    return min(1.0, _best(chances, need) / need)


_STRUCK = tuple(range(1, 7))  # an undodged strike: the attacker's d6
_DODGED = tuple(a - d for a in range(1, 7) for d in range(1, 7))  # a dodged one: d6 less the dodger's d6


@lru_cache(maxsize=4096)
def _kill_chance(attack: int, defence: int, armor: int, attacks: int, dodges: int, life_left: int) -> float:
    """The chance, 0..1, that ``attacks`` strikes of Combat ``attack`` deal at least ``life_left`` damage
    to a target of Combat ``defence`` and Armor ``armor`` that dodges the first ``dodges`` of them: an
    undodged strike deals d6 + attack - defence, a dodged one the margin of two such dice (ESCAPE's
    Simple and Opposed Combat rolls), Armor taken off each."""
    need = max(1, life_left)
    dist = {0: 1.0}  # damage so far (capped at need) -> probability
    for k in range(attacks):
        step: dict[int, float] = {}
        faces = _DODGED if k < dodges else _STRUCK
        share = 1.0 / len(faces)
        for face in faces:
            dealt = max(0, face + attack - defence - armor)
            for done, p in dist.items():
                total = min(need, done + dealt)
                step[total] = step.get(total, 0.0) + p * share
        dist = step
    return dist.get(need, 0.0)


def _walks_from(st: EscapeState, cell: Cell) -> dict[Cell, int]:
    # Walking distances from one square (the same map-only walk as :func:`_distances`).
    return path_distances(st, [cell], "resistance")


def _threat(st: EscapeState, u: Unit, hunters: list[Unit]) -> float:
    """The chance, 0..1, that some I.S.C. character takes ``u`` out in its next activation: one that can
    walk next to it (or within its card weapon's range of it, counted as a walk: a rough line of sight)
    with its Movement, then strike with every Combat action it has, ``u`` dodging while it has Combat
    actions. Walks go round walls and through doors."""
    assert u.pos is not None
    walks = _walks_from(st, u.pos)
    life_left = R.prof(u).life - u.damage
    defence = R.base_stat(st, u, CBT)
    armor = R.prof(u).skills.get("armor", 0)
    spared = 1.0
    for h in hunters:
        assert h.pos is not None
        mvt, cbt = R.base_stat(st, h, MVT), R.base_stat(st, h, CBT)
        weapon = R.prof(h).ranged
        attack = cbt
        walk = walks.get(h.pos, _FAR)
        if weapon is not None and walk <= mvt + weapon.range:
            attack += weapon.power
        elif walk - 1 > mvt:
            continue
        spared *= 1.0 - _kill_chance(attack, defence, armor, max(1, cbt), defence, life_left)
    return 1.0 - spared


def _isc_progress(st: EscapeState) -> float:
    """The I.S.C.'s expected share of its goal (Resistance characters taken out), 0..1: those out, plus
    for each one still on the board the chance that an I.S.C. character in reach takes it out in its next
    activation (:func:`_threat`), or at least a risk growing with the damage it carries."""
    v = R.scen(st).victory["isc"]
    need = max(1, int(v.get("count", 1)))
    res = [u for u in st.units.values() if u.seat == "resistance"]
    hunters = [u for u in st.units.values() if u.seat == "isc" and u.status == "board" and u.pos is not None]
    outs = sum(u.status == "out" for u in res)
    risk = 0.0
    for u in res:
        if u.status != "board" or u.pos is None:
            continue
        wounds = 1.0 - _health(u)
        risk += min(0.9, max(0.7 * wounds * wounds, 0.8 * _threat(st, u, hunters)))
    return min(1.0, (outs + risk) / need)


def resistance_score(st: EscapeState, wary: bool = False) -> float:
    """How well the Resistance stands, 0..1: its expected progress to its scenario goal (characters'
    walks to where they must go against the movement they have left, cores carried, life left) against
    the I.S.C.'s (characters taken out, wounds), plus a little for life left on each side. ``wary``: the
    Resistance's own view, counting Data theft's walks with or to a core at their chance of not being caught."""
    res = [u for u in st.units.values() if u.seat == "resistance"]
    isc = [u for u in st.units.values() if u.seat == "isc"]
    mine = sum(_health(u) for u in res if u.status in ("board", "reserve")) / max(1, len(res))
    theirs = sum(_health(u) for u in isc if u.status in ("board", "reserve")) / max(1, len(isc))
    score = 0.5 + 0.45 * (_resistance_progress(st, wary) - _isc_progress(st)) + 0.05 * (mine - theirs)
    return min(0.98, max(0.02, score))


def evaluate(st: EscapeState, seat: str) -> float:
    """The position for ``seat`` in 0..1: the result once the game is over, else :func:`resistance_score`
    (for the Resistance, its wary view; the I.S.C. scores 1 minus the plain one)."""
    if st.result is not None:
        if not st.result.winners:
            return 0.5
        return 1.0 if seat in st.result.winners else 0.0
    if seat == "resistance":
        return resistance_score(st, wary=True)
    return 1.0 - resistance_score(st)
