"""Skirm commands: checking (never mutates), playing (trusts a checked command), and listing.

Grammar (unit = unit id, sq = square like c4, edge = two squares like c4|c5, weapon = weapon id):
setup ``zone NAME``, ``deploy unit sq``; turn ``activate unit``, ``end``; actions ``move unit sq``,
``dash unit sq``, ``crawl unit sq``, ``leap unit sq``, ``shoot unit weapon target|sq [line:unit+unit|none]``
(an LNR weapon's line choice, named by who else it hits; listed only when the lines differ),
``fight unit weapon target``, ``open unit edge``, ``close unit edge``, ``pickup unit``, ``drop unit``,
``recover unit target``, ``order unit squadmate``, ``skill unit skill [target]``, mission actions
``plant unit``, ``upload unit``, ``sabotage unit``; answers ``reroll N``, ``keep`` (order re-rolls),
``chain unit``, ``chain done`` (CHN targets), ``push sq``, ``push none`` (PSH), ``skill ...``, ``pass``
(Tactical-Order skills when an attack comes); any time ``react reroll|skill ask|never`` (whether to be
asked about order re-rolls / skills against attacks).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

from engine.core import Command, Event
from engine.errors import AmbiguousCommand, IllegalCommand, NotYourTurn, UnknownCommand
from engine.geometry.square import (
    ORTHOGONAL,
    Cell,
    cell_name,
    chebyshev,
    edge_key,
    edge_name,
    parse_cell,
    parse_edge,
)
from engine.grammar import joined, plural, with_article
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.content import SIZE, Skill, Weapon, maps, skill
from engine.rulesets.skirm.state import DOWNED, RESERVE, STANDING, SkirmState, Unit

ACTION_VERBS = ("move", "dash", "crawl", "leap", "shoot", "fight", "open", "close", "pickup", "drop",
                "recover", "order", "plant", "upload", "sabotage")  # fmt: skip
BASIC = ("move", "dash", "crawl", "shoot", "fight", "open", "close", "pickup", "drop", "recover")
ALL_VERBS = (*ACTION_VERBS, "zone", "deploy", "activate", "end", "skill", "reroll", "keep", "react", "chain",
             "push", "pass")  # fmt: skip
ANSWERS = ("reroll", "keep", "chain", "push", "pass", "zone", "deploy")
KEYS = {"move": "move", "dash": "dash", "crawl": "dash", "leap": "leap", "shoot": "ranged", "fight": "melee",
        "open": "door", "close": "door", "pickup": "carry", "drop": "carry", "recover": "recover",
        "order": "order", "plant": "plant", "upload": "upload", "sabotage": "sabotage"}  # fmt: skip
BASE_COST = {"move": 1, "dash": 1, "crawl": 1, "leap": R.LEAP, "shoot": 1, "fight": 1, "open": 1, "close": 1,
             "pickup": 1, "drop": 1, "recover": 1, "order": 1, **R.MISSION_COSTS}  # fmt: skip


def _usage(ok: bool, text: str) -> None:
    if not ok:
        raise IllegalCommand(f"Usage: {text}")


def find_unit(st: SkirmState, text: str, *, seat: str | None = None) -> Unit:
    """The unit named by ``text`` (its id, or an unambiguous start of it). Raises IllegalCommand."""
    t = text.strip().lower()
    pool = [u for u in st.units.values() if seat is None or u.seat == seat]
    for u in pool:
        if u.id == t:
            return u
    pref = [u for u in pool if u.id.startswith(t)]
    if len(pref) == 1:
        return pref[0]
    if len(pref) > 1:
        raise AmbiguousCommand(f"'{text}' could be {', '.join(u.id for u in pref)}: type the whole id.")
    raise IllegalCommand(f"There is no unit '{text}' in this game (units: {', '.join(u.id for u in pool)}).")


def cell_arg(text: str) -> Cell:
    """A square of the 12x12 map. Raises IllegalCommand."""
    return parse_cell(text, SIZE, SIZE)


def whose_turn_text(st: SkirmState) -> str:
    """A sentence saying who must act now."""
    w = R.waiting(st)
    if w is None:
        return "The game is over."
    seat, mode = w
    who = R.squad_name(st, seat)
    if mode == "reroll":
        return f"{who} may spend a Tactical Order to re-roll a die ('reroll N' or 'keep')."
    if mode in ("chain", "push", "react"):
        f = st.stack[-1]
        a, gun = st.units[f["by"]], R.wp(f["w"])
        t = st.units[f["queue"][f["i"]]["id"]] if f["queue"] else None
        aim = t.name if t else cell_name((f["target"][0], f["target"][1]))
        what = f"{a.name} attacks {aim} with the {gun.name}"
        if mode == "chain":
            return f"{what}: {who} picks up to two more enemies next to it for the chain ('chain <unit>' or 'chain done')."
        if mode == "push":
            return f"{what}: {who} may push it up to 2 squares away ('push <square>' or 'push none')."
        left = st.orders.get(seat, 0)
        return (f"{what}: first, {who} may use a Tactical-Order skill ({plural(left, 'order')} left; "
                "'skill <unit> <skill> [target]' or 'pass').")  # fmt: skip
    if mode == "zone":
        zones = "|".join(B.mission(st).zones)
        return f"{st.intro} {who}: pick a deployment zone ('zone {zones}')."
    if mode == "deploy":
        return f"{who} deploys a unit."
    if st.active:
        return f"{who} is activating {st.units[st.active].name}."
    return f"{who} activates a unit next."


# -- what a unit may do -------------------------------------------------------------------------------------


def acting_unit(st: SkirmState, seat: str, text: str) -> Unit:
    """The unit an action names, which must be the active unit (or the squadmate under a Command order)."""
    u = find_unit(st, text)
    if st.ordered:
        if u.id != st.ordered:
            raise IllegalCommand(
                f"{st.units[st.ordered].name} is carrying out an order: it acts now ('end' skips it)."
            )
        return u
    if not st.active:
        raise IllegalCommand(f"No unit is active: start with 'activate {u.id}'.")
    if u.id != st.active:
        raise IllegalCommand(f"{st.units[st.active].name} is the active unit, not {u.name}.")
    return u


def require_cost(st: SkirmState, u: Unit, verb: str, w: Weapon | None = None) -> int:
    """The cost of ``verb`` now. Raises IllegalCommand if action points plus orders fall short."""
    cost = R.action_cost(st, u, KEYS[verb], BASE_COST[verb], w)
    if not R.can_pay(st, u, cost):
        raise IllegalCommand(
            f"{u.name} needs {cost} ACT for this {verb} and has {R.act_left(u)} ACT left plus "
            f"{plural(st.orders.get(u.seat, 0), 'Tactical Order')}."
        )
    return cost


def require_state(u: Unit, verb: str) -> None:
    """Downed units may only Recover or Crawl; Dash and Crawl are the same action by state."""
    if u.state == DOWNED and verb not in ("crawl", "recover"):
        raise IllegalCommand(f"{u.name} is Downed: it may only Recover or Crawl.")
    if u.state == STANDING and verb == "crawl":
        raise IllegalCommand(f"{u.name} is Standing: it dashes ('dash') rather than crawls.")


def move_budget(st: SkirmState, u: Unit, verb: str) -> int:
    """Squares a Move, Dash or Crawl covers: 3 or 1, +1 with SWF (not when crawling), -1 in mud for Move."""
    if verb == "move":
        n = R.MOVE + (1 if R.has(u, "SWF") else 0)
        return n - 1 if R.event_effect(st) == "mud" else n
    return R.DASH + (1 if R.has(u, "SWF") and verb == "dash" else 0)


def crawl_ranger(u: Unit, verb: str) -> bool:
    """Whether a move ignores the cost of leaving difficult ground: Rangers always, and a Crawl (its single
    square may always leave difficult ground, or a Downed unit there could never move; see the rulings)."""
    return R.has(u, "RGR") or verb == "crawl"


def weapon_of(u: Unit, text: str) -> Weapon:
    """A weapon the unit carries, by id or unambiguous start. Raises IllegalCommand."""
    t = text.lower()
    exact = [w for w in u.weapons if w == t]
    pref = exact or [w for w in u.weapons if w.startswith(t)]
    if len(pref) != 1:
        raise IllegalCommand(f"{u.name} carries {', '.join(u.weapons)}; '{text}' names none of them.")
    return R.wp(pref[0])


def weapon_range(st: SkirmState, w: Weapon) -> int:
    """A ranged weapon's reach this turn (fog limits it to 4)."""
    return min(w.range, 4) if R.event_effect(st) == "fog" else w.range


def shot_problem(
    st: SkirmState, u: Unit, w: Weapon, target: Cell, occ: dict[Cell, Unit] | None = None
) -> str:
    """Why ``u`` may not shoot ``w`` at ``target`` ('' when it may). ``occ``: the occupancy, if known."""
    assert u.pos is not None
    if not w.ranged:
        return f"The {w.name} is a melee weapon: use 'fight'."
    if w.has("LIM") and w.id in u.spent:
        return f"The {w.name} has limited ammunition (LIM) and was already used this battle."
    occ = B.occupancy(st) if occ is None else occ
    t = occ.get(target)
    if t is None and not w.has("XPL"):
        return f"There is no unit on {cell_name(target)} to shoot."
    if t is None and not any(c in occ for c in B.adjacent_cells(st, target)):
        return f"The blast at {cell_name(target)} would catch nobody: an empty square is a target only next to a unit."
    if t is not None and t.seat == u.seat:
        return f"{t.name} is a squadmate."
    if B.solid(st, target):
        return f"{cell_name(target)} is solid."
    if target == u.pos or B.adjacent(st, u.pos, target):
        what = t.name if t else cell_name(target)
        return (
            f"{what} is in an adjacent square: ranged targets must not be adjacent (attack it with 'fight')."
        )
    d = chebyshev(u.pos, target)
    rng = weapon_range(st, w)
    if d > rng:
        return f"{cell_name(target)} is {d} squares away; the {w.name} reaches {rng}."
    ignore = (u.id, t.id) if t else (u.id,)
    if not B.sees(st, u.pos, target, ignore=ignore):
        return f"{u.name} has no line of sight to {cell_name(target)} (two clear corner lines are needed)."
    return ""


def can_shoot_now(st: SkirmState, u: Unit, occ: dict[Cell, Unit] | None = None) -> str:
    """Why ``u`` may not make any ranged attack now ('' when it may). ``occ``: the occupancy, if known."""
    assert u.pos is not None
    if B.standing_enemy_adjacent(st, u.seat, u.pos, occ):
        return f"{u.name} has a Standing enemy adjacent and cannot make ranged attacks."
    return ""


def melee_problem(st: SkirmState, u: Unit, w: Weapon, t: Unit) -> str:
    """Why ``u`` may not fight ``t`` with ``w`` ('' when it may)."""
    if w.ranged and not w.has("MCR"):
        return f"The {w.name} is a ranged weapon without MCR: use 'shoot'."
    if w.has("LIM") and w.id in u.spent:
        return f"The {w.name} was already used this battle (LIM)."
    if t.seat == u.seat:
        return f"{t.name} is a squadmate."
    if not B.on_map(t) or t.pos is None or u.pos is None or not B.adjacent(st, u.pos, t.pos):
        return f"{t.name} is not in an adjacent square (height and high walls count)."
    return ""


def door_edges(st: SkirmState, u: Unit) -> tuple[tuple[Cell, Cell], ...]:
    """Doors on the sides of the unit's square."""
    assert u.pos is not None
    return _door_edges(B.bmap(st).id, u.pos)


@cache
def _door_edges(map_id: str, c: Cell) -> tuple[tuple[Cell, Cell], ...]:
    # The map's doors (every game on it has the same ones, open or shut) on the sides of square c.
    doors = set(maps()[map_id].doors)
    out = []
    for dx, dy in ORTHOGONAL:
        n = (c[0] + dx, c[1] + dy)
        if B.on_board(n) and edge_key(c, n) in doors:
            out.append(edge_key(c, n))
    return tuple(out)


def marker_here(st: SkirmState, u: Unit) -> str:
    """The id of a marker lying on the unit's square ('' if none)."""
    for mid, m in sorted(st.markers.items()):
        if m["pos"] is not None and u.pos is not None and tuple(m["pos"]) == u.pos and not m["carrier"]:
            return mid
    return ""


def objective_here(st: SkirmState, u: Unit) -> dict[str, object] | None:
    """The objective (still standing) on the unit's square, if any."""
    for o in st.objectives:
        if not o["gone"] and u.pos is not None and tuple(o["pos"]) == u.pos:
            return o
    return None


# -- check ----------------------------------------------------------------------------------------------------


def check(st: SkirmState, seat: str, text: str) -> Command:
    """Parse and check ``text`` for ``seat``. Raises a RuleError naming the rule; never mutates."""
    words = text.strip().lower().split()
    if not words:
        raise UnknownCommand("Type a command, for example 'activate trooper' or 'end'.")
    verb, args = words[0], words[1:]
    if verb not in ALL_VERBS:
        raise UnknownCommand(
            f"'{words[0]}' is not a Skirm command. Commands: {', '.join(sorted(ALL_VERBS))}."
        )
    if verb == "react":
        if len(args) != 2 or args[0] not in ("reroll", "skill") or args[1] not in ("ask", "never"):
            raise IllegalCommand(
                "Standing answers: 'react reroll ask|never' (Tactical Order re-rolls) or "
                "'react skill ask|never' (Tactical-Order skills when an attack comes)."
            )
        what = "Re-roll offers" if args[0] == "reroll" else "Skill offers against attacks"
        return Command("react", (args[0], args[1]), f"{what}: {args[1]}")
    w = R.waiting(st)
    if w is None:
        raise NotYourTurn("The game is over.")
    wseat, mode = w
    if wseat != seat:
        raise NotYourTurn(f"Not your turn: {whose_turn_text(st)}")
    if mode == "reroll":
        return check_reroll(st, verb, args)
    if mode == "chain":
        return check_chain(st, verb, args)
    if mode == "push":
        return check_push(st, verb, args)
    if mode == "react":
        return check_react(st, seat, verb, args)
    if mode == "zone":
        return check_zone(st, verb, args)
    if mode == "deploy":
        return check_deploy(st, seat, verb, args)
    return check_activation(st, seat, verb, args)


def check_reroll(st: SkirmState, verb: str, args: list[str]) -> Command:
    choices = R.reroll_choices(st)
    if verb == "keep" and not args:
        return Command("keep", (), "Keep the dice")
    if verb == "reroll" and len(args) == 1 and args[0].isdigit():
        n = int(args[0])
        if n not in choices:
            raise IllegalCommand(
                f"Only a failed die not re-rolled yet may be re-rolled (one re-roll per die): choose {', '.join(map(str, choices))}."
            )
        dice, _, _ = R.frame_dice(st.stack[-1])
        return Command(
            "reroll",
            (str(n),),
            f"Spend 1 Tactical Order to re-roll die {n} ({with_article(str(dice[n - 1]))})",
        )
    raise IllegalCommand("Dice were rolled: answer 'reroll N' (N = the die's position) or 'keep'.")


def chain_commands(st: SkirmState) -> list[Command]:
    """The attacker's CHN answers: stop adding targets, or add one of the enemies next to the first."""
    out = [Command("chain", ("done",), "No more chain targets")]
    return out + [
        Command("chain", (v.id,), f"Chain to {v.name} as well") for v in R.chain_candidates(st, st.stack[-1])
    ]


def check_chain(st: SkirmState, verb: str, args: list[str]) -> Command:
    if verb != "chain" or len(args) != 1:
        raise IllegalCommand("Chain Reaction (CHN): answer 'chain <unit>' to add a target or 'chain done'.")
    for c in chain_commands(st):
        if c.args[0] == args[0]:
            return c
    names = ", ".join(v.id for v in R.chain_candidates(st, st.stack[-1]))
    raise IllegalCommand(f"A chain reaches only enemy units adjacent to the first target: {names}.")


def push_commands(st: SkirmState) -> list[Command]:
    """The attacker's PSH answers: no push, or a square 1 or 2 squares away from the attacker."""
    f = st.stack[-1]
    t = st.units[f["queue"][f["i"]]["id"]]
    assert t.pos is not None
    out = [Command("push", ("none",), f"Do not push {t.name}")]
    for c, n in sorted(R.push_cells(st, f, t).items(), key=lambda x: (x[1], x[0])):
        fall = B.height(st, t.pos) - B.height(st, c)
        extra = f", a {fall}-square fall" if fall > 0 else ""
        out.append(Command("push", (cell_name(c),), f"Push {t.name} to {cell_name(c)} ({n} square{'s' if n > 1 else ''}{extra})"))  # fmt: skip
    return out


def check_push(st: SkirmState, verb: str, args: list[str]) -> Command:
    if verb != "push" or len(args) != 1:
        raise IllegalCommand(
            "Push (PSH): answer 'push <square>' (up to 2 squares away from you) or 'push none'."
        )
    for c in push_commands(st):
        if c.args[0] == args[0]:
            return c
    raise IllegalCommand(
        "Push (PSH) moves the target up to 2 squares, each one farther from the attacker, never up, through a "
        f"wall or onto a unit; {args[0]} is not one of: {', '.join(c.args[0] for c in push_commands(st))}."
    )


def react_commands(st: SkirmState, seat: str) -> list[Command]:
    """The defender's answers when an attack comes: let it come, or use a Tactical-Order skill."""
    return [Command("pass", (), "Let the attack come")] + [
        skill_command(u, sk, t) for u, sk, t in R.to_skill_uses(st, seat)
    ]


def check_react(st: SkirmState, seat: str, verb: str, args: list[str]) -> Command:
    if verb == "pass" and not args:
        return Command("pass", (), "Let the attack come")
    if verb != "skill":
        raise IllegalCommand(
            "An attack is coming: answer with a Tactical-Order skill ('skill <unit> <skill> [target]') or 'pass'."
        )
    return check_skill(st, seat, args, reacting=True)


def skill_command(u: Unit, sk: Skill, t: Unit | None) -> Command:
    """The command for one skill use."""
    args = (u.id, sk.id) if t is None else (u.id, sk.id, t.id)
    return Command("skill", args, f"{u.name} uses {sk.name}" + (f" on {t.name}" if t else ""))


def check_zone(st: SkirmState, verb: str, args: list[str]) -> Command:
    zones = list(B.mission(st).zones)
    if verb != "zone" or len(args) != 1 or args[0] not in zones:
        raise IllegalCommand(f"Deployment: pick your zone with 'zone {'|'.join(zones)}'.")
    return Command("zone", (args[0],), f"Deploy in the {args[0]} zone")


def check_deploy(st: SkirmState, seat: str, verb: str, args: list[str]) -> Command:
    if verb != "deploy" or len(args) != 2:
        raise IllegalCommand("Deployment: place a unit with 'deploy <unit> <square>'.")
    u = find_unit(st, args[0], seat=seat)
    if u.state != RESERVE:
        raise IllegalCommand(f"{u.name} is already deployed.")
    c = cell_arg(args[1])
    if c not in B.deploy_cells(st, u):
        extra = " or, with INF, more than 4 squares from every enemy" if R.has(u, "INF") else ""
        raise IllegalCommand(
            f"{u.name} deploys on a free square of your deployment zone{extra}; {cell_name(c)} is not one."
        )
    return Command("deploy", (u.id, cell_name(c)), f"Deploy {u.name} on {cell_name(c)}")


def check_activation(st: SkirmState, seat: str, verb: str, args: list[str]) -> Command:
    if verb in ANSWERS:
        raise IllegalCommand(f"'{verb}' is not possible now: {whose_turn_text(st)}")
    if verb == "end":
        _usage(not args, "end")
        if st.ordered:
            return Command("end", (), f"{st.units[st.ordered].name} skips the ordered action")
        if not st.active:
            raise IllegalCommand(
                "No unit is active: 'activate <unit>' first (every Ready unit activates once a turn)."
            )
        return Command("end", (), f"End {st.units[st.active].name}'s activation")
    if verb == "activate":
        _usage(len(args) == 1, "activate <unit>")
        if st.active:
            raise IllegalCommand(f"{st.units[st.active].name} is still active: 'end' its activation first.")
        u = find_unit(st, args[0], seat=seat)
        if not R.can_activate(u):
            why = "has already activated this turn" if u.activated else "is not on the battle map"
            raise IllegalCommand(f"{u.name} {why}.")
        return Command("activate", (u.id,), f"Activate {u.name}")
    if verb == "skill":
        return check_skill(st, seat, args)
    _usage(len(args) >= 1, f"{verb} <unit> ...")
    u = acting_unit(st, seat, args[0])
    if st.ordered and verb not in BASIC:
        raise IllegalCommand(f"A Command order grants one basic action; '{verb}' is not one.")
    require_state(u, verb)
    return VERB_CHECKS[verb](st, u, verb, args[1:])


def chk_move(st: SkirmState, u: Unit, verb: str, args: list[str]) -> Command:
    _usage(len(args) == 1, f"{verb} <unit> <square>")
    c = cell_arg(args[0])
    if verb == "leap":
        n = R.ut(u).leap
        if not n:
            raise IllegalCommand(f"{u.name} has no Leap (LPx) rule.")
        if c not in {x for x, _ in B.leap_cells(st, u, n, nimble=R.has(u, "NMB"))}:
            raise IllegalCommand(
                f"{u.name} leaps up to {n} squares in a straight line onto a free square; {cell_name(c)} is out of reach."
            )
    else:
        budget = move_budget(st, u, verb)
        if B.move_path(st, u, budget, c, nimble=R.has(u, "NMB"), ranger=crawl_ranger(u, verb)) is None:
            raise IllegalCommand(
                f"{u.name} cannot reach {cell_name(c)} with {plural(budget, 'square')} of movement "
                "(difficult ground, low walls and climbing cost more; enemies block passage)."
            )
    cost = require_cost(st, u, verb)
    return Command(verb, (u.id, cell_name(c)), f"{verb.capitalize()} {u.name} to {cell_name(c)} ({cost} ACT)")


def target_cell(st: SkirmState, text: str) -> tuple[Cell, Unit | None]:
    """A target given as a unit id or a square."""
    t = text.lower()
    if len(t) >= 2 and t[0] in "abcdefghijkl" and t[1:].isdigit():
        c = cell_arg(t)
        return c, B.occupancy(st).get(c)
    v = find_unit(st, t)
    if not B.on_map(v) or v.pos is None:
        raise IllegalCommand(f"{v.name} is not on the battle map.")
    return v.pos, v


def pick_weapon(
    u: Unit, args: list[str], fits: Callable[[Weapon], str], kind: str
) -> tuple[Weapon, list[str]]:
    """The weapon named first in ``args``, or, when only the target is given, the one weapon that may be
    used (``fits`` returns why a weapon may not). Raises IllegalCommand / AmbiguousCommand."""
    if len(args) == 2:
        return weapon_of(u, args[0]), args[1:]
    ok: list[str] = []
    why: list[str] = []
    usable = [
        x
        for x in u.weapons
        if (R.wp(x).ranged if kind == "shoot" else not R.wp(x).ranged or R.wp(x).has("MCR"))
    ]
    for wid in usable:
        problem = fits(R.wp(wid))
        (why if problem else ok).append(problem or wid)
    if len(ok) == 1:
        return R.wp(ok[0]), args
    if ok:
        raise AmbiguousCommand(
            f"{u.name} could use {', '.join(ok)}: name the weapon, like '{kind} {u.id} {ok[0]} ...'."
        )
    raise IllegalCommand(
        why[0] if why else f"{u.name} has no {'ranged' if kind == 'shoot' else 'melee'} weapon."
    )


def chk_shoot(st: SkirmState, u: Unit, verb: str, args: list[str]) -> Command:
    line_text = args[-1] if args and args[-1].startswith(LINE) else None
    if line_text is not None:
        args = args[:-1]
    _usage(len(args) in (1, 2), "shoot <unit> [weapon] <target unit or square> [line:<unit>+<unit>|none]")
    c, _t = target_cell(st, args[-1])
    why = can_shoot_now(st, u)
    if why:
        raise IllegalCommand(why)
    w, _ = pick_weapon(u, args, lambda x: shot_problem(st, u, x, c), "shoot")
    why = shot_problem(st, u, w, c)
    if why:
        raise IllegalCommand(why)
    if line_text is not None and not w.has("LNR"):
        raise IllegalCommand(f"Only a Linear (LNR) weapon takes a line choice; the {w.name} is not one.")
    cost = require_cost(st, u, verb, w)
    occ = B.occupancy(st)
    if not w.has("LNR"):
        return _shot(u, w, cost, occ, c)
    choices = R.line_choices(st, u, c, occ)
    hit = R.line_choice(choices, None if line_text is None else line_units(st, line_text))
    if hit is None:
        offers = ", ".join(f"{line_arg(x)} ({line_note(st, x)})" for x in choices)
        raise IllegalCommand(
            f"No line from a corner of {u.name}'s square to a corner of {cell_name(c)} hits exactly those units "
            f"(besides the target). The lines you may draw: {offers}."
        )
    return _shot(u, w, cost, occ, c, (hit, len(choices) > 1))


LINE = "line:"  # an LNR shot's line choice: ``line:`` and the ids of who else it hits, or ``line:none``


def line_units(st: SkirmState, text: str) -> tuple[str, ...]:
    """The unit ids a typed line choice names (``line:zealot2+warrior``, ``line:none``; ids or unambiguous
    starts, any order). Raises IllegalCommand for an unknown unit."""
    body = text[len(LINE) :]
    if body in ("", "none"):
        return ()
    return tuple(find_unit(st, x).id for x in body.split("+") if x)


def line_arg(hit: tuple[str, ...]) -> str:
    """The canonical line-choice argument for a line hitting ``hit`` besides the target (ids sorted)."""
    return LINE + ("+".join(sorted(hit)) or "none")


def line_note(st: SkirmState, hit: tuple[str, ...]) -> str:
    """Who else a line hits, in players' words: ``line also hits Zealot 2`` / ``line hits no one else``."""
    return line_phrase([st.units[x].name for x in hit])


def line_phrase(names: list[str]) -> str:
    """:func:`line_note` from the units' names."""
    return "line also hits " + joined(names) if names else "line hits no one else"


def chk_fight(st: SkirmState, u: Unit, verb: str, args: list[str]) -> Command:
    _usage(len(args) in (1, 2), "fight <unit> [weapon] <target>")
    t = find_unit(st, args[-1])
    w, _ = pick_weapon(u, args, lambda x: melee_problem(st, u, x, t), "fight")
    why = melee_problem(st, u, w, t)
    if why:
        raise IllegalCommand(why)
    cost = require_cost(st, u, verb, w)
    return Command("fight", (u.id, w.id, t.id), f"{u.name} fights {t.name} with the {w.name} ({cost} ACT)")


def chk_door(st: SkirmState, u: Unit, verb: str, args: list[str]) -> Command:
    _usage(len(args) == 1, f"{verb} <unit> <edge like c4|c5>")
    k = parse_edge(args[0], SIZE, SIZE)
    if k not in door_edges(st, u):
        raise IllegalCommand(f"There is no door on a side of {u.name}'s square at {edge_name(*k)}.")
    if st.doors[k] == (verb == "open"):
        raise IllegalCommand(f"The door {edge_name(*k)} is already {'open' if st.doors[k] else 'closed'}.")
    cost = require_cost(st, u, verb)
    return Command(verb, (u.id, edge_name(*k)), f"{u.name} {verb}s the door {edge_name(*k)} ({cost} ACT)")


def chk_carry(st: SkirmState, u: Unit, verb: str, args: list[str]) -> Command:
    _usage(not args, f"{verb} <unit>")
    if verb == "pickup":
        if u.carrying:
            raise IllegalCommand(f"{u.name} already carries a marker.")
        if not marker_here(st, u):
            raise IllegalCommand(f"There is no marker on {u.name}'s square.")
    elif not u.carrying:
        raise IllegalCommand(f"{u.name} carries nothing.")
    cost = require_cost(st, u, verb)
    return Command(
        verb, (u.id,), f"{u.name} {'picks up' if verb == 'pickup' else 'drops'} a marker ({cost} ACT)"
    )


def chk_recover(st: SkirmState, u: Unit, verb: str, args: list[str]) -> Command:
    _usage(len(args) == 1, "recover <unit> <downed unit (itself or an adjacent squadmate)>")
    t = find_unit(st, args[0], seat=u.seat)
    if t.state != DOWNED:
        raise IllegalCommand(f"{t.name} is not Downed.")
    if t.id != u.id and (
        u.state != STANDING or u.pos is None or t.pos is None or not B.adjacent(st, u.pos, t.pos)
    ):
        raise IllegalCommand(f"Only {t.name} itself or a Standing adjacent squadmate may help it recover.")
    cost = require_cost(st, u, verb)
    return Command("recover", (u.id, t.id), recover_label(u, t, cost))


def recover_label(u: Unit, t: Unit, cost: int) -> str:
    """The label of a Recover: the acting unit rolls against its own ARM."""
    who = f"{u.name} tries to recover" if u.id == t.id else f"{u.name} helps {t.name} recover"
    return f"{who} (save vs ARM {R.ut(u).arm}, {cost} ACT)"


def chk_order(st: SkirmState, u: Unit, verb: str, args: list[str]) -> Command:
    _usage(len(args) == 1, "order <unit> <squadmate>")
    if not R.has(u, "CMD"):
        raise IllegalCommand(f"{u.name} has no Command (CMD) rule.")
    t = find_unit(st, args[0], seat=u.seat)
    if t.id == u.id or not B.on_map(t) or t.pos is None or u.pos is None:
        raise IllegalCommand("Command orders go to another squadmate on the battle map.")
    if not B.sees(st, u.pos, t.pos, ignore=(u.id, t.id)):
        raise IllegalCommand(f"{t.name} is not in {u.name}'s line of sight.")
    cost = require_cost(st, u, verb)
    return Command(
        "order", (u.id, t.id), f"{u.name} orders {t.name} to take a free basic action ({cost} ACT)"
    )


def chk_mission(st: SkirmState, u: Unit, verb: str, args: list[str]) -> Command:
    _usage(not args, f"{verb} <unit>")
    if verb not in B.mission(st).actions:
        raise IllegalCommand(f"'{verb}' is not a mission action of {B.mission(st).name}.")
    if verb == "upload":
        if not u.carrying:
            raise IllegalCommand(f"{u.name} carries no data cache to upload.")
        if u.pos is None or not B.in_zone(st, u.seat, u.pos):
            raise IllegalCommand("Data is uploaded from inside your own deployment zone.")
    else:
        o = objective_here(st, u)
        if o is None or u.pos is None:
            raise IllegalCommand(f"{u.name} is not on an objective.")
        if R.controller(st, u.pos) != u.seat:
            raise IllegalCommand("An enemy unit is adjacent: you do not control this objective.")
        if verb == "plant" and o["planted"] == u.seat:
            raise IllegalCommand("Your banner already stands on this objective.")
    cost = require_cost(st, u, verb)
    label = {"plant": "plants the squad's banner", "upload": "uploads the data (+2 mission points)",
             "sabotage": f"tries to sabotage the objective (RSK {R.ut(u).rsk})"}[verb]  # fmt: skip
    return Command(verb, (u.id,), f"{u.name} {label} ({cost} ACT)")


def check_skill(st: SkirmState, seat: str, args: list[str], *, reacting: bool = False) -> Command:
    """Check a skill use (``reacting``: in answer to an attack, when only Tactical-Order skills fit)."""
    _usage(len(args) in (2, 3), "skill <unit> <skill> [target]")
    u = find_unit(st, args[0], seat=seat)
    if args[1] not in u.skills:
        raise IllegalCommand(f"{u.name} has no skill '{args[1]}' (skills: {', '.join(u.skills) or 'none'}).")
    sk = skill(args[1])
    if reacting and sk.pay != "to":
        raise IllegalCommand(f"{sk.name} costs ACT: only Tactical-Order skills may answer an attack.")
    if st.ordered and not reacting:
        raise IllegalCommand("Finish the Command order first.")
    if not B.on_map(u):
        raise IllegalCommand(f"{u.name} is not on the battle map.")
    if sk.pay == "act":
        if st.active != u.id:
            raise IllegalCommand(
                f"{sk.name} costs ACT: only the active unit may use it, during its activation."
            )
        if u.state != STANDING:
            raise IllegalCommand(f"{u.name} is Downed: it may only Recover or Crawl.")
        cost = R.action_cost(st, u, "skill:" + sk.id, sk.cost)
        if not R.can_pay(st, u, cost):
            raise IllegalCommand(
                f"{sk.name} needs {cost} ACT; {u.name} has {R.act_left(u)} plus {st.orders.get(seat, 0)} TO."
            )
    else:
        cost = sk.cost
        if f"{u.id}:{sk.id}" in st.skills_used:
            raise IllegalCommand(f"{u.name} already used {sk.name} this turn (TO skills: once per turn).")
        if st.orders.get(seat, 0) < cost:
            raise IllegalCommand(
                f"{sk.name} costs {plural(cost, 'Tactical Order')}; {R.squad_name(st, seat)} has {st.orders.get(seat, 0)}."
            )
    targets = R.skill_targets(st, u, sk)
    if targets == [None]:
        _usage(len(args) == 2, f"skill {u.id} {sk.id}")
        return Command("skill", (u.id, sk.id), f"{u.name} uses {sk.name}")
    _usage(len(args) == 3, f"skill {u.id} {sk.id} <target>")
    t = find_unit(st, args[2])
    if t not in targets:
        raise IllegalCommand(f"{t.name} is not a valid target for {sk.name}: {sk.text}")
    return Command("skill", (u.id, sk.id, t.id), f"{u.name} uses {sk.name} on {t.name}")


VERB_CHECKS: dict[str, Callable[[SkirmState, Unit, str, list[str]], Command]] = {
    "move": chk_move, "dash": chk_move, "crawl": chk_move, "leap": chk_move, "shoot": chk_shoot,
    "fight": chk_fight, "open": chk_door, "close": chk_door, "pickup": chk_carry, "drop": chk_carry,
    "recover": chk_recover, "order": chk_order, "plant": chk_mission, "upload": chk_mission,
    "sabotage": chk_mission,
}  # fmt: skip


# -- play -----------------------------------------------------------------------------------------------------


def play(st: SkirmState, seat: str, c: Command) -> list[Event]:
    """Play a checked command and run the game forward until someone must answer."""
    ev: list[Event] = []
    v, a = c.verb, c.args
    if v == "react":
        (st.policies if a[0] == "reroll" else st.skill_policies)[seat] = a[1]
        how = "be asked about" if a[1] == "ask" else "never be asked about"
        what = "Tactical Order re-rolls" if a[0] == "reroll" else "Tactical-Order skills when attacked"
        ev.append(Event(f"{R.squad_name(st, seat)} will {how} {what}.", kind="policy"))
    elif v == "chain":
        f = st.stack[-1]
        if a[0] == "done":
            f["chain_left"] = 0
        else:
            f["queue"].append({"id": a[0], "primary": False})
            f["chain_left"] -= 1
            ev.append(Event(f"The chain arcs to {st.units[a[0]].name} (CHN).", kind="chain"))
    elif v == "push":
        f = st.stack[-1]
        f["push_to"] = None if a[0] == "none" else list(cell_arg(a[0]))
        f["step"] = "pushed"
    elif v == "pass":
        st.stack[-1]["react_seat"] = ""
    elif v == "reroll":
        R.do_reroll(st, seat, int(a[0]), ev)
    elif v == "keep":
        R.keep(st)
    elif v == "zone":
        zones = list(B.mission(st).zones)
        st.zones = {seat: a[0], R.other(seat): next(z for z in zones if z != a[0])}
        st.phase = "deploy"
        ev.append(Event(f"{R.squad_name(st, seat)} deploys in the {a[0]} zone, {R.squad_name(st, R.other(seat))} "
                        f"in the {st.zones[R.other(seat)]} zone.", kind="setup"))  # fmt: skip
    elif v == "deploy":
        u = st.units[a[0]]
        u.state, u.pos = STANDING, cell_arg(a[1])
        # The board is posted once both squads stand on it; each placement before edits the turn message
        # (the free squares are one "Show moves" away), so a deployment is not ten new messages.
        placed = not any(x.state == RESERVE for x in st.units.values())
        ev.append(Event(f"{u.name} deploys on {a[1]}.", kind="deploy", board=placed))
        after_deploy(st, seat, ev)
    elif v == "activate":
        R.begin_activation(st, st.units[a[0]], ev)
    elif v == "end":
        if st.ordered:
            ev.append(Event(f"{st.units[st.ordered].name} lets the order pass."))
            st.ordered = st.orderer = ""
        else:
            R.end_activation(st, ev)
    elif v == "skill":
        play_skill(st, c, ev)
    else:
        play_action(st, c, ev)
    R.advance(st, ev)
    return ev


def after_deploy(st: SkirmState, seat: str, ev: list[Event]) -> None:
    """Hand placement to the other squad (if it has units left), or start turn 1 once all are placed."""
    left = {s: any(u.seat == s and u.state == RESERVE for u in st.units.values()) for s in R.SEATS}
    if left[R.other(seat)]:
        st.placer = R.other(seat)
    elif left[seat]:
        st.placer = seat
    else:
        st.placer = ""
        R.start_turn(st, ev)


def play_action(st: SkirmState, c: Command, ev: list[Event]) -> None:
    """Pay for and resolve one unit action."""
    v, a = c.verb, c.args
    u = st.units[a[0]]
    w = R.wp(a[1]) if v in ("shoot", "fight") else None
    cost = R.action_cost(st, u, KEYS[v], BASE_COST[v], w)
    paid = R.pay(st, u, cost)
    free = st.ordered == u.id
    if free:
        st.ordered = st.orderer = ""
    else:
        R.note_action(u, KEYS[v], w)
    tag = f" [{paid}]"
    if v in ("move", "dash", "crawl", "leap"):
        dest = cell_arg(a[1])
        assert u.pos is not None
        if v == "leap":
            path = dict(B.leap_cells(st, u, R.ut(u).leap, nimble=R.has(u, "NMB")))[dest]
        else:
            budget = move_budget(st, u, v)
            found = B.move_path(st, u, budget, dest, nimble=R.has(u, "NMB"), ranger=crawl_ranger(u, v))
            assert found is not None  # checked
            path = found
        u.pos = dest
        if v == "move" and not free:
            u.moved = True
        st.trail = [*(st.trail or []), *path[1:]] if st.trail and st.trail[-1] == path[0] else list(path)
        ev.append(
            Event(
                f"{u.name} {'moves' if v == 'move' else v + 'es' if v == 'dash' else v + 's'} to {a[1]}{tag}.",
                kind="move",
            )
        )
    elif v == "shoot":
        assert w is not None
        target = st.units[a[2]].pos if a[2] in st.units else cell_arg(a[2])
        assert target is not None
        if w.has("HVY") and not free:
            u.fired_heavy = True
        line = line_units(st, a[3]) if len(a) > 3 else None
        drawn = f" ({line_note(st, line)})" if line is not None else ""
        ev.append(Event(f"{u.name} fires the {w.name}{tag}{drawn}.", kind="shoot"))
        R.start_attack(st, u, w, target, melee=False, line=line)
    elif v == "fight":
        assert w is not None
        target = st.units[a[2]].pos
        assert target is not None
        ev.append(Event(f"{u.name} strikes with the {w.name}{tag}.", kind="fight"))
        R.start_attack(st, u, w, target, melee=True)
    elif v in ("open", "close"):
        k = parse_edge(a[1], SIZE, SIZE)
        st.doors[k] = v == "open"
        ev.append(Event(f"{u.name} {v}s the door {a[1]}{tag}.", kind="door"))
    elif v == "pickup":
        mid = marker_here(st, u)
        u.carrying = mid
        st.markers[mid] = {"pos": None, "carrier": u.id}
        ev.append(Event(f"{u.name} picks up data cache {mid}{tag}.", kind="carry"))
    elif v == "drop":
        ev.append(Event(f"{u.name} drops data cache {u.carrying}{tag}.", kind="carry"))
        R.drop_marker(st, u)
    elif v == "recover":
        t = st.units[a[1]]
        R.start_check(st, "recover", u, t, R.ut(u).arm, ev)
    elif v == "order":
        st.ordered, st.orderer = a[1], u.id
        ev.append(Event(f"{u.name} orders {st.units[a[1]].name} to act{tag}.", kind="order"))
    elif v == "plant":
        o = objective_here(st, u)
        assert o is not None
        o["planted"] = u.seat
        ev.append(Event(f"{u.name} plants the banner on objective {o['id']}{tag}.", kind="mission"))
    elif v == "upload":
        mid = u.carrying
        u.carrying = ""
        st.markers.pop(mid, None)
        st.points[u.seat] = st.points.get(u.seat, 0) + 2
        ev.append(Event(f"{u.name} uploads data cache {mid}: +2 mission points{tag}.", kind="mission"))
    elif v == "sabotage":
        o = objective_here(st, u)
        assert o is not None
        target = None
        ev.append(Event(f"{u.name} works on objective {o['id']}{tag}.", kind="mission"))
        R.start_check(st, "sabotage", u, target, R.ut(u).rsk, ev)
        st.stack[-1]["target"] = o["id"]


def play_skill(st: SkirmState, c: Command, ev: list[Event]) -> None:
    """Pay for and resolve a skill."""
    u = st.units[c.args[0]]
    sk = skill(c.args[1])
    t = st.units[c.args[2]] if len(c.args) > 2 else u
    if sk.pay == "act":
        paid = R.pay(st, u, R.action_cost(st, u, "skill:" + sk.id, sk.cost))
        R.note_action(u, "skill:" + sk.id)
    else:
        st.orders[u.seat] -= sk.cost
        st.skills_used.append(f"{u.id}:{sk.id}")
        paid = f"{sk.cost} TO"
    if sk.effect == "raise":
        t.state = STANDING
        text = f"{t.name} is Standing again"
    elif sk.effect == "hex":
        t.stun = 1
        text = f"{t.name} has 1 less ACT in its next activation (never below 2)"
    elif sk.effect == "surge":
        u.surge = True
        text = "its next attack this turn rolls one more die"
    else:
        t.ward = True
        text = f"{t.name} gets one automatic save against the next attack on it this turn"
    ev.append(Event(f"{u.name} uses {sk.name} [{paid}]: {text}.", kind="skill"))


# -- listing --------------------------------------------------------------------------------------------------


def legal(st: SkirmState, seat: str) -> list[Command]:
    """Every command ``seat`` may play now (exactly those :func:`check` accepts, in a stable order)."""
    return [c for group in listing(st, seat) for c in group]


class Group:
    """Commands listed lazily, in order: ``make(item)`` for each item. Self-play picks one by index and
    builds only that one (:func:`pick`); iterating builds them all.

    A group with ``allows`` holds candidates not yet checked (only :func:`listing` with ``unchecked``
    makes one): ``allows(item)`` says whether the candidate is a legal command, and iterating the group
    skips those that are not."""

    __slots__ = ("items", "make", "allows")

    def __init__(
        self,
        items: Sequence[Any],
        make: Callable[[Any], Command] | None = None,
        allows: Callable[[Any], bool] | None = None,
    ) -> None:
        self.items = items
        self.make = make
        self.allows = allows

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> Command:
        item = self.items[i]
        return item if self.make is None else self.make(item)

    def __iter__(self) -> Iterator[Command]:
        items = self.items if self.allows is None else [x for x in self.items if self.allows(x)]
        return iter(items) if self.make is None else map(self.make, items)


def pick(groups: list[Group], i: int) -> Command:
    """The ``i``-th command of the listing (0-based, as :func:`legal` would list it). Raises IndexError
    past the end."""
    for g in groups:
        n = len(g.items)
        if i < n:
            return g[i]
        i -= n
    raise IndexError(i)


def pick_candidate(groups: list[Group], i: int) -> Command | None:
    """The ``i``-th candidate of a listing made with ``unchecked`` (0-based), or None when that candidate
    is not a legal command. Raises IndexError past the end."""
    for g in groups:
        n = len(g.items)
        if i < n:
            if g.allows is not None and not g.allows(g.items[i]):
                return None
            return g[i]
        i -= n
    raise IndexError(i)


def listing(st: SkirmState, seat: str, *, unchecked: bool = False) -> list[Group]:
    """:func:`legal` as groups of commands built on demand (same commands, same order).

    With ``unchecked``, ranged attacks, Command orders and hexes come as candidates not yet checked (groups
    with ``allows``), and :func:`pick_candidate` checks only the one picked: the line-of-sight checks are
    much of a listing's cost, and a random pick needs one of them at most."""
    w = R.waiting(st)
    if w is None or w[0] != seat:
        return []
    mode = w[1]
    if mode == "reroll":
        dice, _, _ = R.frame_dice(st.stack[-1])
        return [
            Group(
                [Command("keep", (), "Keep the dice")]
                + [
                    Command(
                        "reroll",
                        (str(n),),
                        f"Spend 1 Tactical Order to re-roll die {n} ({with_article(str(dice[n - 1]))})",
                    )
                    for n in R.reroll_choices(st)
                ]
            )
        ]
    if mode == "chain":
        return [Group(chain_commands(st))]
    if mode == "push":
        return [Group(push_commands(st))]
    if mode == "react":
        return [Group(react_commands(st, seat))]
    if mode == "zone":
        return [Group([Command("zone", (z,), f"Deploy in the {z} zone") for z in B.mission(st).zones])]
    if mode == "deploy":
        return [
            Group(B.deploy_cells(st, u), _deploy_maker(u))
            for u in st.units.values()
            if u.seat == seat and u.state == RESERVE
        ]
    out: list[Group] = []
    if st.ordered:
        out.append(Group([st.units[st.ordered]], _skip_order))
        out += unit_actions(st, st.units[st.ordered], basic_only=True, unchecked=unchecked)
        return out
    if st.active:
        u = st.units[st.active]
        out.append(Group([u], _end_activation))
        out += unit_actions(st, u, basic_only=False, unchecked=unchecked)
    else:
        out.append(Group([u for u in st.units.values() if u.seat == seat and R.can_activate(u)], _activate))
    out += skill_groups(st, seat, unchecked=unchecked)
    return out


def _skip_order(u: Unit) -> Command:
    return Command("end", (), f"{u.name} skips the ordered action")


def _end_activation(u: Unit) -> Command:
    return Command("end", (), f"End {u.name}'s activation")


def _activate(u: Unit) -> Command:
    return Command("activate", (u.id,), f"Activate {u.name}")


def _deploy_maker(u: Unit) -> Callable[[Cell], Command]:
    def make(c: Cell) -> Command:
        return Command("deploy", (u.id, cell_name(c)), f"Deploy {u.name} on {cell_name(c)}")

    return make


def _move_maker(u: Unit, verb: str, cost: int) -> Callable[[Cell], Command]:
    def make(c: Cell) -> Command:
        return Command(
            verb, (u.id, cell_name(c)), f"{verb.capitalize()} {u.name} to {cell_name(c)} ({cost} ACT)"
        )

    return make


def _leap_maker(u: Unit, cost: int) -> Callable[[Cell], Command]:
    def make(c: Cell) -> Command:
        return Command("leap", (u.id, cell_name(c)), f"Leap {u.name} to {cell_name(c)} ({cost} ACT)")

    return make


def _shot(
    u: Unit,
    w: Weapon,
    cost: int,
    occ: dict[Cell, Unit],
    c: Cell,
    line: tuple[tuple[str, ...], bool] | None = None,
) -> Command:
    """The shot command at square ``c``. ``line``, for an LNR weapon: (who else the line hits, whether the
    lines differ): the choice is an argument only when they do; the label says who else it hits."""
    t = occ.get(c)
    what = t.name if t else cell_name(c)
    args: tuple[str, ...] = (u.id, w.id, t.id if t else cell_name(c))
    label = f"{u.name} shoots {what} with the {w.name} ({cost} ACT)"
    if line is not None:
        hit, many = line
        if many:
            args += (line_arg(hit),)
        if many or hit:
            name = {v.id: v.name for v in occ.values()} if hit else {}
            label += f" ({line_phrase([name[x] for x in hit])})"
    return Command("shoot", args, label)


def _shot_maker(u: Unit, w: Weapon, cost: int, occ: dict[Cell, Unit]) -> Callable[[Cell], Command]:
    return lambda c: _shot(u, w, cost, occ, c)


def _shot_checker(st: SkirmState, u: Unit, w: Weapon, occ: dict[Cell, Unit]) -> Callable[[Cell], bool]:
    return lambda c: not shot_problem(st, u, w, c, occ)


# An LNR shot candidate: (square, who else its line hits, whether the square's lines differ).
LineShot = tuple[Cell, tuple[str, ...], bool]


def _line_shots(st: SkirmState, u: Unit, occ: dict[Cell, Unit], cells: list[Cell]) -> list[LineShot]:
    """An LNR weapon's shots at ``cells``: one per distinct line choice of each (best first)."""
    out: list[LineShot] = []
    for c in cells:
        choices = R.line_choices(st, u, c, occ)
        many = len(choices) > 1
        out += [(c, hit, many) for hit in choices]
    return out


def _line_shot_maker(u: Unit, w: Weapon, cost: int, occ: dict[Cell, Unit]) -> Callable[[LineShot], Command]:
    return lambda x: _shot(u, w, cost, occ, x[0], (x[1], x[2]))


def _line_shot_checker(
    st: SkirmState, u: Unit, w: Weapon, occ: dict[Cell, Unit]
) -> Callable[[LineShot], bool]:
    seen: dict[Cell, bool] = {}  # the choices of one square share its check

    def allows(x: LineShot) -> bool:
        ok = seen.get(x[0])
        if ok is None:
            ok = seen[x[0]] = not shot_problem(st, u, w, x[0], occ)
        return ok

    return allows


def _order(u: Unit, v: Unit, cost: int) -> Command:
    return Command(
        "order", (u.id, v.id), f"{u.name} orders {v.name} to take a free basic action ({cost} ACT)"
    )


def _order_maker(u: Unit, cost: int) -> Callable[[Unit], Command]:
    return lambda v: _order(u, v, cost)


def _in_order_sight(st: SkirmState, u: Unit, v: Unit) -> bool:
    # an order needs the commander to see the squadmate (both on the map)
    assert u.pos is not None and v.pos is not None
    return B.sees(st, u.pos, v.pos, ignore=(u.id, v.id))


def _order_checker(st: SkirmState, u: Unit) -> Callable[[Unit], bool]:
    return lambda v: _in_order_sight(st, u, v)


def unit_actions(st: SkirmState, u: Unit, *, basic_only: bool, unchecked: bool = False) -> list[Group]:
    """Every action the unit may take now (as groups: moves by square, then the rest); with
    ``unchecked``, its ranged attacks and Command orders as unchecked candidates (see :func:`listing`)."""
    groups: list[Group] = []
    out: list[Command] = []
    if u.pos is None:
        return groups
    occ = B.occupancy(st)
    purse = R.act_left(u) + st.orders.get(u.seat, 0)  # what R.can_pay weighs: nothing here changes it

    def afford(verb: str, w: Weapon | None = None) -> int | None:  # the cost, if the purse covers it
        cost = R.action_cost(st, u, KEYS[verb], BASE_COST[verb], w)
        return cost if cost <= purse else None

    nimble = R.has(u, "NMB")
    crawler = crawl_ranger(u, "crawl" if u.state == DOWNED else "move")
    moves = []  # (verb, cost, squares of movement) of each move the purse covers
    for verb in ("crawl",) if u.state == DOWNED else ("move", "dash"):
        if (cost := afford(verb)) is not None:
            moves.append((verb, cost, move_budget(st, u, verb)))
    if moves:
        budgets = tuple([budget for _, _, budget in moves])
        found = B.move_squares_by_budget(st, u, budgets, nimble=nimble, ranger=crawler, occ=occ)
        for (verb, cost, _), squares in zip(moves, found, strict=True):
            groups.append(Group(squares, _move_maker(u, verb, cost)))
    groups.append(Group(out))
    if u.state == DOWNED:
        cost = afford("recover")
        if cost is not None:
            out.append(Command("recover", (u.id, u.id), recover_label(u, u, cost)))
        return groups
    if not basic_only and R.ut(u).leap:
        cost = afford("leap")
        if cost is not None:
            spots = sorted({x for x, _ in B.leap_cells(st, u, R.ut(u).leap, nimble=nimble)})
            groups.append(Group(spots, _leap_maker(u, cost)))
            out = []
            groups.append(Group(out))
    ux, uy = u.pos
    shoot_ok = not can_shoot_now(st, u, occ)
    # (square, enemy, Chebyshev distance) of the enemies on the map, inline: these lines run for every
    # listing of every self-play and search step.
    enemies = [(c, v, max(abs(c[0] - ux), abs(c[1] - uy))) for c, v in occ.items() if v.seat != u.seat]
    touching = [v for _, v, d in enemies if d == 1]  # melee needs that
    for wid in u.weapons:
        w = R.wp(wid)
        if w.ranged and shoot_ok and (cost := afford("shoot", w)) is not None:
            cells: list[Cell]
            reach_w = weapon_range(st, w)
            if w.has("XPL"):
                # An empty blast square needs a unit next to it; units beyond reach + 1 have no
                # neighbour in reach.
                close = [c for c in occ if max(abs(c[0] - ux), abs(c[1] - uy)) <= reach_w + 1]
                near = {n for c in close for n in B.adjacent_cells(st, c)}
                cells = sorted(c for c in near.union(close) if max(abs(c[0] - ux), abs(c[1] - uy)) <= reach_w
                               and (c not in occ or occ[c].seat != u.seat))  # fmt: skip
            else:  # out of range is one of shot_problem's refusals: skip those early
                cells = sorted(c for c, _, d in enemies if d <= reach_w)
            if w.has("LNR"):  # one command per distinct line choice (only Linear weapons have them)
                if unchecked:
                    shots = _line_shots(st, u, occ, cells)
                    groups.append(
                        Group(shots, _line_shot_maker(u, w, cost, occ), _line_shot_checker(st, u, w, occ))
                    )
                    out = []
                    groups.append(Group(out))
                else:
                    legal_cells = [c for c in cells if not shot_problem(st, u, w, c, occ)]
                    out += [_shot(u, w, cost, occ, c, (hit, many)) for c, hit, many in _line_shots(st, u, occ, legal_cells)]  # fmt: skip
            elif unchecked:  # the shots in a group of their own, in the same place of the listing
                groups.append(Group(cells, _shot_maker(u, w, cost, occ), _shot_checker(st, u, w, occ)))
                out = []
                groups.append(Group(out))
            else:
                out += [_shot(u, w, cost, occ, c) for c in cells if not shot_problem(st, u, w, c, occ)]
        if (not w.ranged or w.has("MCR")) and (cost := afford("fight", w)) is not None:
            for v in touching:
                if not melee_problem(st, u, w, v):
                    out.append(
                        Command(
                            "fight",
                            (u.id, w.id, v.id),
                            f"{u.name} fights {v.name} with the {w.name} ({cost} ACT)",
                        )
                    )
    for k in door_edges(st, u):
        verb = "close" if st.doors[k] else "open"
        if (cost := afford(verb)) is not None:
            out.append(
                Command(
                    verb, (u.id, edge_name(*k)), f"{u.name} {verb}s the door {edge_name(*k)} ({cost} ACT)"
                )
            )
    if (cost := afford("pickup")) is not None:
        if u.carrying:
            out.append(Command("drop", (u.id,), f"{u.name} drops a marker ({cost} ACT)"))
        elif marker_here(st, u):
            out.append(Command("pickup", (u.id,), f"{u.name} picks up a marker ({cost} ACT)"))
    if (cost := afford("recover")) is not None:
        for v in st.units.values():
            if v.seat == u.seat and v.state == DOWNED and v.pos is not None and B.adjacent(st, u.pos, v.pos):
                out.append(Command("recover", (u.id, v.id), recover_label(u, v, cost)))
    if basic_only:
        return groups
    if R.has(u, "CMD") and (cost := afford("order")) is not None:
        mates = [v for v in st.units.values() if v.seat == u.seat and v.id != u.id and B.on_map(v)]
        if unchecked:  # the orders in a group of their own, sight checked only for the one drawn
            groups.append(Group(mates, _order_maker(u, cost), _order_checker(st, u)))
            out = []
            groups.append(Group(out))
        else:
            out += [_order(u, v, cost) for v in mates if _in_order_sight(st, u, v)]
    for verb in B.mission(st).actions:
        if not (u.carrying if verb == "upload" else objective_here(st, u)):
            continue  # chk_mission's first refusals, checked without raising
        with contextlib.suppress(IllegalCommand):
            out.append(chk_mission(st, u, verb, []))
    return groups


def skill_commands(st: SkirmState, seat: str) -> list[Command]:
    """Skill uses open to the seat now (TO skills by any unit; ACT skills by the active unit)."""
    return [c for g in skill_groups(st, seat) for c in g]


def skill_groups(st: SkirmState, seat: str, *, unchecked: bool = False) -> list[Group]:
    """:func:`skill_commands` as groups, in the same order; with ``unchecked``, each hex's targets in range
    come as candidates whose sight is checked only when drawn (see :func:`listing`)."""
    out: list[Command] = []
    groups = [Group(out)]
    for u in st.units.values():
        if u.seat != seat or not u.skills or not B.on_map(u):
            continue
        for sid in u.skills:
            sk = skill(sid)
            if sk.pay == "act":
                if st.active != u.id or u.state != STANDING:
                    continue
                if not R.can_pay(st, u, R.action_cost(st, u, "skill:" + sid, sk.cost)):
                    continue
            elif f"{u.id}:{sid}" in st.skills_used or st.orders.get(seat, 0) < sk.cost:
                continue
            if unchecked and sk.effect == "hex" and u.state == STANDING and u.pos is not None:
                groups.append(Group(R.hex_candidates(st, u), _skill_maker(u, sk), _hex_checker(st, u)))
                out = []
                groups.append(Group(out))
            else:
                out += [skill_command(u, sk, t) for t in R.skill_targets(st, u, sk)]
    return groups


def _skill_maker(u: Unit, sk: Skill) -> Callable[[Unit], Command]:
    return lambda t: skill_command(u, sk, t)


def _hex_checker(st: SkirmState, u: Unit) -> Callable[[Unit], bool]:
    return lambda v: R.hex_in_sight(st, u, v)
