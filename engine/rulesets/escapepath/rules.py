"""Escape Path's rules: who may act, dice procedures (guns, bombs, close combat, panic shots), the turn
sequence and the scenario's scoring. Commands are checked in :mod:`actions`; this module trusts them."""

from __future__ import annotations

from functools import lru_cache

from engine.core import Event, Outcome
from engine.geometry.square import KING, Cell, cell_name, chebyshev, sight_line
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath.board import clear, max_ap, name, occupancy, roll, save_target, scen
from engine.rulesets.escapepath.moves import entry_points, jump_options, step_options
from engine.rulesets.escapepath.state import SWARM, TEAM, Figure, PathState


# -- removing figures --------------------------------------------------------------------------------
def kill(st: PathState, f: Figure, ev: list[Event], how: str) -> None:
    """Remove ``f``: a character is dead for good; a bogie returns to the pool (and may re-enter later)."""
    ev.append(Event(f"{name(st, f)} {how}.", "kill"))
    if f.side == TEAM:
        f.status = "dead"
    else:
        f.status = "pool"
        st.kills += 1
        if f.id in st.trapped:
            st.trapped.remove(f.id)
        if st.side == SWARM and f.id not in st.done:
            st.done.append(f.id)
    f.pos = None
    f.ap = 0
    if st.active == f.id:
        st.active = ""


def save_or_die(st: PathState, b: Figure, ev: list[Event], what: str) -> None:
    """The swarm's save roll for bogie ``b`` hit by ``what``: survives on the save target or more."""
    (d,) = roll(st, 1)
    need = save_target(st, b)
    if d >= need:
        ev.append(Event(f"{name(st, b)} saves against the {what} ({d}, needs {need}+).", "save", (d,)))
    else:
        ev.append(Event(f"{name(st, b)} fails its save ({d}, needs {need}+).", "save", (d,)))
        kill(st, b, ev, f"is destroyed by the {what}")


def enter_square(st: PathState, f: Figure, c: Cell) -> None:
    """Put ``f`` on ``c`` (a move, a jump, a charge): records the path and takes objectives."""
    f.pos = c
    st.path.append(c)
    st.trail.append(c)
    if f.side == TEAM and c in scen(st).objectives and c not in st.objectives:
        st.objectives.append(c)


# -- shooting and bombs ------------------------------------------------------------------------------
def shoot(st: PathState, f: Figure, b: Figure, ev: list[Event], free: bool = False) -> None:
    """A gun shot at bogie ``b``: 3d6 must reach the distance; a hit bogie rolls its save."""
    assert f.pos is not None and b.pos is not None
    dice = roll(st, 3)
    dist = chebyshev(f.pos, b.pos)
    gun = scen(st).gun
    st.attacks.append((f.pos, b.pos))
    what = "free shot" if free else "shot"
    if sum(dice) >= dist:
        ev.append(Event(f"{name(st, f)}'s {gun} {what} hits {name(st, b)} ({'+'.join(map(str, dice))} = {sum(dice)} vs range {dist}).", "shot", dice))  # fmt: skip
        save_or_die(st, b, ev, gun)
    else:
        ev.append(Event(f"{name(st, f)}'s {gun} {what} misses {name(st, b)} ({'+'.join(map(str, dice))} = {sum(dice)} vs range {dist}).", "shot", dice))  # fmt: skip


@lru_cache(maxsize=65536)
def landing(a: Cell, target: Cell, reach: int) -> Cell:
    """Where a throw from ``a`` at ``target`` lands when it carries only ``reach`` squares: the square on the
    line of fire at that distance (the target itself when the throw reaches it)."""
    if reach >= chebyshev(a, target):
        return target
    for _frm, to, _corner in sight_line(a, target):
        if chebyshev(a, to) >= reach:
            return to
    return target


def bomb(st: PathState, f: Figure, target: Cell, ev: list[Event]) -> None:
    """A bomb: 2d6; a roll below the distance falls short on the rolled square. Then the blast."""
    assert f.pos is not None
    s = scen(st)
    dice = roll(st, 2)
    dist = chebyshev(f.pos, target)
    f.bombs -= 1
    spot = landing(f.pos, target, sum(dice))
    st.attacks.append((f.pos, spot))
    short = "" if spot == target else f", falls short on {cell_name(spot)}"
    ev.append(Event(f"{name(st, f)} throws a {s.bomb} at {cell_name(target)} ({'+'.join(map(str, dice))} = {sum(dice)} vs range {dist}{short}).", "bomb", dice))  # fmt: skip
    blast(st, spot, ev)


def blast(st: PathState, spot: Cell, ev: list[Event]) -> None:
    """A bomb goes off on ``spot``: a figure there dies; bogies next to it save as against a gun, characters
    next to it die; the square and those around it are closed to characters for the rest of this team turn
    and to bogies for the next swarm turn."""
    s = scen(st)
    occ = occupancy(st)
    what = s.bomb
    hit = occ.get(spot)
    if hit is not None:
        kill(st, hit, ev, f"takes a direct hit from the {what}")
    around = [(spot[0] + dx, spot[1] + dy) for dx, dy in KING]
    for c in around:
        f = occ.get(c)
        if f is None or f.status != "board":
            continue
        if f.side == TEAM:
            kill(st, f, ev, f"is caught in the {what}'s blast")
        else:
            save_or_die(st, f, ev, f"{what}'s blast")
    for c in [spot, *around]:
        if s.on_board(c) and c not in s.walls and c not in st.closed:
            st.closed.append(c)


# -- close combat ------------------------------------------------------------------------------------
def faces(f: Figure, c: Cell) -> bool:
    """Whether ``f`` faces square ``c`` (it is directly in front)."""
    return f.pos is not None and G.ahead(f.pos, f.facing) == c


def melee(st: PathState, attacker: Figure, defender: Figure, ev: list[Event]) -> None:
    """Close combat: both roll 1d6, re-rolling until decided (the five outcomes of the rules).

    A winning attacker removes the defender and is carried into its square without turning. A defender
    facing the attacker who rolls higher removes it; a tie is re-rolled. A defender not facing the attacker
    who rolls higher or ties turns to face it and becomes the attacker."""
    a, d = attacker, defender
    while True:
        assert a.pos is not None and d.pos is not None
        ra, rd = roll(st, 2)
        facing = faces(d, a.pos)
        dice = (ra, rd)
        if ra > rd:
            ev.append(Event(f"{name(st, a)} {ra} vs {name(st, d)} {rd}: {name(st, a)} wins.", "melee", dice))
            where = d.pos
            kill(st, d, ev, f"is cut down by {name(st, a)}")
            enter_square(st, a, where)
            return
        if rd > ra and facing:
            ev.append(Event(f"{name(st, a)} {ra} vs {name(st, d)} {rd}: {name(st, d)} holds.", "melee", dice))
            kill(st, a, ev, f"is beaten off by {name(st, d)}")
            return
        if ra == rd and facing:
            ev.append(Event(f"{name(st, a)} {ra} vs {name(st, d)} {rd}: a tie, roll again.", "melee", dice))
            continue
        turned = G.direction(d.pos, a.pos)
        assert turned is not None
        d.facing = turned
        tie = "a tie" if ra == rd else f"{name(st, d)} is higher"
        ev.append(Event(f"{name(st, a)} {ra} vs {name(st, d)} {rd}: {tie}; {name(st, d)} turns to face {name(st, a)} and attacks.", "melee", dice))  # fmt: skip
        a, d = d, a


# -- panic shots -------------------------------------------------------------------------------------
def panic_due(st: PathState, b: Figure, c: Figure) -> bool:
    """Whether character ``c``, attacked by bogie ``b``, gets a panic shot (rules i, ii, iii, v)."""
    assert c.pos is not None
    if c.id in st.panicked or not st.path:
        return False
    if st.start_pos is not None and chebyshev(st.start_pos, c.pos) <= 1:
        return False  # i: already adjacent when its activation began
    occ = occupancy(st)
    # ii: part of its advance was inside the character's arc of fire; the square it set out from counts,
    # since a bogie leaving that square moved "at least partially" within the line of fire.
    advance = [st.start_pos, *st.path] if st.start_pos is not None else st.path
    return any(
        G.in_fire_arc(c.pos, c.facing, p) and clear(st, c.pos, p, occ, ignore=b.pos)
        for p in advance
        if p != c.pos
    )


def panic_shot(st: PathState, c: Figure, b: Figure, ev: list[Event]) -> None:
    """Rule vi: a d6, 4-6 hits; a hit bogie rolls its save."""
    (d,) = roll(st, 1)
    assert c.pos is not None and b.pos is not None
    st.attacks.append((c.pos, b.pos))
    if d >= 4:
        ev.append(Event(f"{name(st, c)} fires a panic shot at {name(st, b)}: {d}, a hit.", "panic", (d,)))
        save_or_die(st, b, ev, scen(st).gun)
    else:
        ev.append(Event(f"{name(st, c)} fires a panic shot at {name(st, b)}: {d}, a miss.", "panic", (d,)))


def resolve_attack(st: PathState, b: Figure, c: Figure, ev: list[Event], panic: bool) -> None:
    """A bogie's attack on a character after the panic-shot decision (``panic``: the shot is taken)."""
    if panic:
        panic_shot(st, c, b, ev)
    if b.status == "board" and c.status == "board":
        melee(st, b, c, ev)


# -- turns -------------------------------------------------------------------------------------------
def begin(st: PathState, f: Figure) -> None:
    """Make ``f`` the active figure (the one before it is finished: rule 2.3)."""
    if st.active == f.id:
        return
    finish_active(st)
    st.active = f.id
    st.start_pos = f.pos
    st.path = []
    st.trail = [f.pos] if f.pos else []
    st.attacks = []
    if f.status == "pool":
        f.ap = max_ap(f)


def finish_active(st: PathState) -> None:
    """The active figure has spent all it will spend this turn."""
    if st.active and st.active not in st.done:
        st.done.append(st.active)
    st.active = ""


def spend(st: PathState, f: Figure, ap: int) -> None:
    """Spend action points; a figure with none left is finished."""
    f.ap = max(0, f.ap - ap)
    if f.ap <= 0 and st.active == f.id:
        finish_active(st)


def may_start(st: PathState, f: Figure) -> bool:
    """Whether ``f`` may be the next figure to act this side turn (the active one always may)."""
    if f.side != st.side or f.id in st.done:
        return False
    if f.id == st.active:
        return f.ap > 0
    if st.side == SWARM and st.trapped and f.id not in st.trapped:
        return False
    if f.status == "board":
        return f.ap > 0 and not (st.side == SWARM and st.entering)
    return f.status == "pool"


def side_can_act(st: PathState) -> bool:
    """Whether the moving side has anything left to do but end its turn."""
    for f in st.figures.values():
        if f.status == "board" and may_start(st, f):
            return True
    if st.side == SWARM:
        return bool(entry_points(st)) and any(
            may_start(st, f) for f in st.figures.values() if f.status == "pool"
        )
    return False


def on_board(st: PathState, side: str) -> list[Figure]:
    """That side's figures on the map."""
    return [f for f in st.figures.values() if f.side == side and f.status == "board"]


def start_side(st: PathState, side: str, ev: list[Event]) -> None:
    """Begin a side's turn: fresh action points; for the swarm, bogies caught in a blast are marked."""
    st.side, st.done, st.active, st.entering = side, [], "", False
    st.path, st.start_pos = [], None
    for f in on_board(st, side):
        f.ap = max_ap(f)
    if side == SWARM:
        st.panicked = []
        st.trapped = [f.id for f in on_board(st, SWARM) if f.pos in st.closed]
        if st.trapped:
            ev.append(
                Event("Bogies in a blast zone must move out of it first: " + ", ".join(st.trapped) + ".")
            )
    ev.append(Event(f"Turn {st.turn}: the {'team' if side == TEAM else 'swarm'} moves.", "turn", board=True))


def end_side(st: PathState, ev: list[Event]) -> None:
    """End the moving side's turn and start the other's (the turn count moves on after both)."""
    finish_active(st)
    for bid in list(st.trapped):
        kill(st, st.figures[bid], ev, "cannot get out of the blast zone and is destroyed")
    first = scen(st).first
    if st.side == SWARM:
        st.closed = []
    if st.side != first:
        st.turn += 1
        if st.turn > scen(st).turns:
            finish_game(st, ev, time_up=True)
            return
    start_side(st, SWARM if st.side == TEAM else TEAM, ev)


def trapped_exits(st: PathState, f: Figure) -> bool:
    """Whether a bogie in a blast zone has a square outside it to step to now."""
    if f.pos in scen(st).entries and f.ap >= 1:
        return True
    return any(True for _ in step_options(st, f)) or any(True for _ in jump_options(st, f))


def settle(st: PathState, ev: list[Event]) -> None:
    """After every command: trapped bogies without a way out die, the result is checked, and a side with
    nothing left to do ends its turn."""
    for _ in range(4 * len(st.figures) + 4):
        if st.result is not None or st.pending is not None:
            return
        check_result(st, ev)
        if st.result is not None:
            return
        if st.side == SWARM and st.trapped and not st.active:
            stuck = [b for b in st.trapped if not trapped_exits(st, st.figures[b])]
            for bid in stuck:
                kill(st, st.figures[bid], ev, "cannot get out of the blast zone and is destroyed")
        if st.side == TEAM and not on_board(st, TEAM):
            finish_game(st, ev, time_up=False)
            return
        if side_can_act(st):
            return
        end_side(st, ev)


def score(st: PathState, survivors: bool) -> int:
    """The team's score under the scenario's scoring (standing characters count only at the end)."""
    p = scen(st).scoring
    total = st.escaped * p["escape"] + st.kills * p["kill"] + len(st.objectives) * p["objective"]
    if survivors:
        total += len(on_board(st, TEAM)) * p["survivor"]
    return total


def best_possible(st: PathState) -> int | None:
    """The most the team can still score (None: no bound, when kills score)."""
    p = scen(st).scoring
    if p["kill"]:
        return None
    left = len(on_board(st, TEAM))
    objectives = len(scen(st).objectives) - len(st.objectives)
    return (
        score(st, False)
        + left * max(p["escape"], p["survivor"])
        + (objectives * p["objective"] if left else 0)
    )


def check_result(st: PathState, ev: list[Event]) -> None:
    """The team wins as soon as it reaches the target; the swarm as soon as the team no longer can."""
    target = scen(st).scoring["target"]
    if score(st, False) >= target:
        win(st, TEAM, f"The team scores {score(st, False)} (needed {target}).", ev)
        return
    best = best_possible(st)
    if best is not None and best < target:
        win(st, SWARM, f"The team can no longer reach {target} points (at most {best}).", ev)


def finish_game(st: PathState, ev: list[Event], time_up: bool) -> None:
    """The game ends on the scenario's turn limit or when no character is left on the map."""
    total, target = score(st, True), scen(st).scoring["target"]
    why = "Time is up" if time_up else "No character is left on the map"
    if total >= target:
        win(st, TEAM, f"{why}: the team scores {total} (needed {target}).", ev)
    else:
        win(st, SWARM, f"{why}: the team scores only {total} (needed {target}).", ev)


def win(st: PathState, side: str, why: str, ev: list[Event]) -> None:
    """Record the result."""
    st.result = Outcome(frozenset({side}), why)
    st.active = ""
    ev.append(Event(why, "result", board=True))
