"""Skirm's rules: dice, action costs, Tactical Orders, the game cycle, combat and recovery.

Resolutions that may wait on a player (a re-roll paid with a Tactical Order) are frames on
``state.stack``; :func:`advance` runs them until someone must answer.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Outcome
from engine.geometry.square import Cell, cell_name, chebyshev
from engine.grammar import plural, with_article
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm.content import Skill, UnitType, Weapon, factions, skill, unit_type, weapon
from engine.rulesets.skirm.state import DOWNED, OUT, RESERVE, STANDING, SkirmState, Unit

SEATS = ("player1", "player2")
TURNS = 4
BASE_ORDERS = 3
MOVE, DASH, LEAP = 3, 1, 2  # squares for Move and Dash/Crawl; ACT cost of a Leap
MISSION_COSTS = {"plant": 2, "upload": 1, "sabotage": 2}
ANY = -1  # the "stat" of a die with no pass or fail (the event die): any such die may be re-rolled
SHIELD = 3  # Blast Shield: 1-3 holds


def other(seat: str) -> str:
    """The opposing seat."""
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def ut(u: Unit) -> UnitType:
    """A unit's stat card."""
    return unit_type(u.type)


def has(u: Unit, rule: str) -> bool:
    """Whether the unit has this unit special rule."""
    return ut(u).has(rule)


def wp(wid: str) -> Weapon:
    """A weapon profile."""
    return weapon(wid)


def squad_name(st: SkirmState, seat: str) -> str:
    """The display name of a seat's squad."""
    return str(st.squads[seat]["name"])


def success(die: int, stat: int) -> bool:
    """A die succeeds when equal to or under the stat; a 1 always succeeds and a 6 always fails."""
    return die == 1 or (die != 6 and die <= stat)


def roll_off(st: SkirmState) -> tuple[str, list[tuple[int, int]]]:
    """Both seats roll 1D6, lowest wins, ties re-rolled. Returns (winner, [(die1, die2), ...])."""
    rolls = []
    while True:
        a, b = st.rng.roll(6), st.rng.roll(6)
        rolls.append((a, b))
        if a != b:
            return (SEATS[0] if a < b else SEATS[1]), rolls


def roll_text(rolls: list[tuple[int, int]], names: tuple[str, str]) -> str:
    """Roll-off dice as players read them, each die by its squad's name: "(lowest wins) Strike Team Ardent
    4, The Red Choir 4, a tie; then 5 v 2" (the re-rolls in seat order)."""
    (a, b), *again = rolls
    text = f"(lowest wins) {names[0]} {a}, {names[1]} {b}"
    if again:
        text += ", a tie; then " + ", then ".join(f"{x} v {y}" for x, y in again)
    return text


# -- action points and orders ------------------------------------------------------------------------------


def act_left(u: Unit) -> int:
    """Action points the unit still has in its activation."""
    return max(0, u.act - u.act_used)


def activation_act(u: Unit) -> int:
    """Action points for a new activation: ACT, less Stun (never below 2 through Stun)."""
    base = ut(u).act
    return max(min(base, 2), base - u.stun) if u.stun else base


def action_cost(st: SkirmState, u: Unit, key: str, base: int, w: Weapon | None = None) -> int:
    """ACT cost of performing ``key`` now: base, +1 per earlier use this activation, with 2MC/2RC and HVY.

    A Command free action (the unit acts on a squadmate's order) costs nothing.
    """
    if st.ordered == u.id:
        return 0
    n = u.counts.get(key, 0)
    extra = n
    if key in ("melee", "ranged") and n >= 1:
        rule = "2MC" if key == "melee" else "2RC"
        twin = has(u, rule) or (w is not None and w.has(rule))
        twin = twin or any(wp(x).has(rule) for x in u.used_weapons.get(key, []))
        if twin:
            extra = n - 1
    cost = base + extra
    if key == "ranged" and w is not None and w.has("HVY") and u.moved:
        cost += 1
    if key == "move" and u.fired_heavy:
        cost += 1
    return cost


def can_pay(st: SkirmState, u: Unit, cost: int) -> bool:
    """Whether the unit's action points plus its squad's Tactical Orders cover ``cost``."""
    return act_left(u) + st.orders.get(u.seat, 0) >= cost


def pay(st: SkirmState, u: Unit, cost: int) -> str:
    """Spend ``cost``: the unit's action points first, then Tactical Orders. Returns a short note."""
    from_act = min(cost, act_left(u))
    u.act_used += from_act
    from_to = cost - from_act
    st.orders[u.seat] -= from_to
    if not cost:
        return "free"
    return f"{from_act} ACT" + (f" + {from_to} TO" if from_to else "")


def note_action(u: Unit, key: str, w: Weapon | None = None) -> None:
    """Count an action for repeat costs (and remember the weapon for 2MC/2RC)."""
    u.counts[key] = u.counts.get(key, 0) + 1
    if w is not None and key in ("melee", "ranged"):
        u.used_weapons.setdefault(key, []).append(w.id)


# -- the game cycle ----------------------------------------------------------------------------------------


def leader_dice(st: SkirmState, seat: str) -> int:
    """Extra Tactical Order dice from the seat's Standing leaders (LDx)."""
    return sum(ut(u).leader for u in st.units.values() if u.seat == seat and u.state == STANDING)


def event_effect(st: SkirmState) -> str:
    """This turn's mission event effect ('' before the roll)."""
    e = B.mission(st).events.get(st.event)
    return e.effect if e else ""


def start_turn(st: SkirmState, ev: list[Event]) -> None:
    """Ready every unit, roll initiative, Tactical Orders and the mission event, then open activations."""
    st.turn += 1
    st.skills_used = []
    st.event = 0
    for u in st.units.values():
        u.activated = False
        u.surge = False
        u.ward = False
        u.counts = {}
        u.used_weapons = {}
        u.moved = u.fired_heavy = False
        u.act = u.act_used = 0
    ev.append(Event(f"— Turn {st.turn} of {TURNS} —", kind="turn"))
    winner, rolls = roll_off(st)
    st.initiative = winner
    names = (squad_name(st, SEATS[0]), squad_name(st, SEATS[1]))
    ev.append(Event(f"Initiative roll-off {roll_text(rolls, names)}: {squad_name(st, winner)} has the initiative.",
                    kind="initiative", dice=tuple(d for r in rolls for d in r)))  # fmt: skip
    for seat in SEATS:
        n = BASE_ORDERS + leader_dice(st, seat)
        dice = [st.rng.roll(6) for _ in range(n)]
        st.orders[seat] = st.orders_rolled[seat] = sum(1 for d in dice if d <= 3)
        ev.append(Event(f"{squad_name(st, seat)} rolls {n}D6 for Tactical Orders: {plural(st.orders[seat], 'order')} "
                        "(each 3 or lower gives one).", kind="orders", dice=tuple(dice)))  # fmt: skip
    st.event = st.rng.roll(6)
    e = B.mission(st).events[st.event]
    text = EVENT_TEXT[e.effect]
    ev.append(Event(f"{squad_name(st, winner)} rolls the mission event: {st.event}, {e.name} ({text}).",
                    kind="event", dice=(st.event,)))  # fmt: skip
    st.phase = "activation"
    st.next_side = winner
    st.active = ""
    if rerollable(st, winner, [st.event], [False], ANY):
        st.stack.append({"t": "event", "seat": winner, "dice": [st.event], "re": [False], "stat": ANY,
                         "step": "reroll"})  # fmt: skip
    else:
        apply_event(st, ev)


def apply_event(st: SkirmState, ev: list[Event]) -> None:
    """The turn's mission event takes effect (orders gained, doors shut); fog, mud and bounty are read
    where they apply."""
    effect = event_effect(st)
    if effect == "supply":
        st.orders[st.initiative] += 1
    elif effect == "reinforce":
        for seat in SEATS:
            st.orders[seat] += 1
    elif effect == "lockdown":
        for k in st.doors:
            st.doors[k] = False


def step_event(st: SkirmState, f: dict[str, Any], ev: list[Event]) -> bool:
    """Advance an event frame: the initiative winner may re-roll the event die with a Tactical Order."""
    if f["step"] == "reroll" and rerollable(st, f["seat"], f["dice"], f["re"], ANY):
        return True
    st.stack.pop()
    if f["re"][0]:
        st.event = f["dice"][0]
        e = B.mission(st).events[st.event]
        ev.append(Event(f"This turn's event is {st.event}, {e.name} ({EVENT_TEXT[e.effect]}).", kind="event"))
    apply_event(st, ev)
    return False


EVENT_TEXT = {
    "calm": "no effect",
    "fog": "ranged weapons reach at most 4 squares this turn",
    "mud": "Move actions cover 1 square less this turn",
    "supply": "the initiative winner gains 1 Tactical Order",
    "lockdown": "every door slams shut",
    "bounty": "objectives score double at the end of this turn",
    "reinforce": "each squad gains 1 Tactical Order",
}


def can_activate(u: Unit) -> bool:
    """Whether the unit still has its activation this turn."""
    return not u.activated and u.state in (STANDING, DOWNED)


def side_can_activate(st: SkirmState, seat: str) -> bool:
    """Whether any unit of the seat is still Ready."""
    return any(u.seat == seat and can_activate(u) for u in st.units.values())


def begin_activation(st: SkirmState, u: Unit, ev: list[Event]) -> None:
    """Make ``u`` the active unit with its action points for this activation."""
    st.active = u.id
    u.act = activation_act(u)
    stunned = u.stun
    u.stun = 0
    u.act_used = 0
    u.counts = {}
    u.used_weapons = {}
    u.moved = u.fired_heavy = False
    st.trail = [u.pos] if u.pos else []
    st.attacks = []
    extra = " (stunned: 1 less)" if stunned and u.act < ut(u).act else ""
    ev.append(Event(f"{u.name} activates with {u.act} ACT{extra}.", kind="activate"))


def end_activation(st: SkirmState, ev: list[Event]) -> None:
    """Close the active unit's activation and pass play to the other squad (if it has Ready units)."""
    u = st.units.get(st.active)
    seat = u.seat if u else st.next_side
    if u is not None:
        u.activated = True
        ev.append(Event(f"{u.name}'s activation ends.", kind="activation_end", board=True))
    st.active = ""
    st.ordered = st.orderer = ""
    st.next_side = other(seat) if side_can_activate(st, other(seat)) else seat


def controller(st: SkirmState, pos: Cell) -> str:
    """The seat controlling an objective square: its unit stands there with no enemy adjacent ('' if none)."""
    occ = B.occupancy(st)
    u = occ.get(pos)
    if u is None or B.enemy_adjacent(st, u.seat, pos, occ):
        return ""
    return u.seat


def end_turn(st: SkirmState, ev: list[Event]) -> None:
    """End-of-turn effects, mission points, lost orders; the game ends after turn 4."""
    mult = 2 if event_effect(st) == "bounty" else 1
    gained = {s: 0 for s in SEATS}
    for o in st.objectives:
        if o["gone"]:
            continue
        pos = (o["pos"][0], o["pos"][1])
        who = controller(st, pos)
        if who and o["planted"] and o["planted"] != who:
            o["planted"] = ""  # an enemy holding the objective throws the banner down
        scorer = who or o["planted"]
        if scorer:
            gained[scorer] += mult
    for seat in SEATS:
        st.points[seat] = st.points.get(seat, 0) + gained[seat]
        st.orders[seat] = 0
    ev.append(Event(
        f"End of turn {st.turn}: " + ", ".join(f"{squad_name(st, s)} +{gained[s]}" for s in SEATS)
        + " mission points (" + ", ".join(f"{squad_name(st, s)} {st.points[s]}" for s in SEATS) + ").",
        kind="score", board=True,
    ))  # fmt: skip
    if st.turn >= TURNS:
        finish(st, ev)
        return
    start_turn(st, ev)


def finish(st: SkirmState, ev: list[Event]) -> None:
    """Tally the mission points and record the result."""
    a, b = (st.points.get(s, 0) for s in SEATS)
    st.phase = "over"
    st.active = ""
    if a == b:
        st.result = Outcome(frozenset(), f"Draw on mission points, {a} all, after turn {st.turn}.")
    else:
        w = SEATS[0] if a > b else SEATS[1]
        st.result = Outcome(
            frozenset({w}), f"{squad_name(st, w)} wins on mission points, {max(a, b)} to {min(a, b)}."
        )
    ev.append(Event(st.result.reason, kind="game_over", board=True))


# -- damage ------------------------------------------------------------------------------------------------


def degrade(st: SkirmState, t: Unit, by_seat: str, ev: list[Event]) -> None:
    """A failed save: Standing -> Downed (dropping what it carries), Downed -> Out (off the map)."""
    if t.state == STANDING:
        t.state = DOWNED
        drop_marker(st, t)
        ev.append(Event(f"{t.name} is Downed.", kind="downed"))
    elif t.state == DOWNED:
        drop_marker(st, t)
        t.state = OUT
        t.pos = None
        t.out_by = by_seat
        ev.append(Event(f"{t.name} is taken Out.", kind="out"))


def drop_marker(st: SkirmState, u: Unit) -> None:
    """The unit lets go of the marker it carries, on its square."""
    if u.carrying and u.pos is not None:
        st.markers[u.carrying] = {"pos": list(u.pos), "carrier": ""}
        u.carrying = ""


# -- attacks -----------------------------------------------------------------------------------------------


def line_choices(
    st: SkirmState, a: Unit, target: Cell, occ: dict[Cell, Unit] | None = None
) -> list[tuple[str, ...]]:
    """LNR: who else each line the attacker may draw would hit, one entry per distinct set of units.

    The lines run from a corner of the attacker's square to a corner of the target's square (16 of them,
    :func:`~engine.rulesets.skirm.board.linear_lines`); a line hits every unit on the map (either squad,
    Standing or Downed) on a square it crosses, the attacker and the target aside. Each entry lists those
    units' ids in order along the line. Sorted best first for the attacker: fewest squadmates, then most
    enemies, then by the ids; the first is what a shot typed without a line choice uses (ruling 22).
    Never empty (``[()]`` when no line hits anyone else). ``occ``: the occupancy, if known."""
    assert a.pos is not None
    occ = B.occupancy(st) if occ is None else occ
    ax, ay = a.pos
    tx, ty = target
    lo_x, hi_x = (ax, tx) if ax <= tx else (tx, ax)
    lo_y, hi_y = (ay, ty) if ay <= ty else (ty, ay)
    # Every line stays inside the box of the two squares: only units there can be hit.
    near = {
        (c[0] - ax, c[1] - ay): v
        for c, v in occ.items()
        if lo_x <= c[0] <= hi_x and lo_y <= c[1] <= hi_y and c != a.pos and c != target
    }
    if not near:
        return [()]
    found: dict[frozenset[str], tuple[str, ...]] = {}
    for cells in B.linear_lines(tx - ax, ty - ay):
        hit = tuple([near[c].id for c in cells if c in near])
        found.setdefault(frozenset(hit), hit)
    if len(found) == 1:
        return list(found.values())
    seat = a.seat

    def rank(hit: tuple[str, ...]) -> tuple[int, int, list[str]]:
        mates = sum(1 for x in hit if st.units[x].seat == seat)
        return mates, mates - len(hit), sorted(hit)

    return sorted(found.values(), key=rank)


def line_choice(choices: list[tuple[str, ...]], line: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The entry of :func:`line_choices` hitting exactly the units of ``line`` (any order), the first
    (the default) when ``line`` is None, or None when no line hits exactly those units."""
    if line is None:
        return choices[0]
    want = frozenset(line)
    return next((c for c in choices if frozenset(c) == want), None)


def attack_targets(
    st: SkirmState, a: Unit, w: Weapon, target: Cell, melee: bool, line: tuple[str, ...] | None = None
) -> list[dict[str, Any]]:
    """Everyone an attack rolls against: the primary target, then XPL blast or LNR line victims (CHN chain
    targets are the attacker's picks, added by ``chain`` answers). ``line``: for LNR, the units the chosen
    line hits besides the target (see :func:`line_choices`); None draws the default line."""
    assert a.pos is not None
    occ = B.occupancy(st)
    out: list[dict[str, Any]] = []
    primary = occ.get(target)
    if primary is not None:
        out.append({"id": primary.id, "primary": True})
    taken = {a.id} | {x["id"] for x in out}
    if w.has("XPL") and not melee:
        for c in B.adjacent_cells(st, target):
            v = occ.get(c)
            if v is not None and v.id not in taken:
                out.append({"id": v.id, "primary": False})
                taken.add(v.id)
    if w.has("LNR") and not melee:
        choices = line_choices(st, a, target, occ)
        hit = line_choice(choices, line) or choices[0]  # a checked command names one of them
        for uid in hit:
            if uid not in taken:
                out.append({"id": uid, "primary": False})
                taken.add(uid)
    return out


def start_attack(
    st: SkirmState,
    a: Unit,
    w: Weapon,
    target: Cell,
    *,
    melee: bool,
    counter: bool = False,
    line: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """Push an attack frame; :func:`advance` resolves it (and asks for re-rolls where orders allow).
    ``line``: an LNR shot's chosen line, as :func:`attack_targets` takes it."""
    assert a.pos is not None
    queue = attack_targets(st, a, w, target, melee, line)
    primary = st.units[queue[0]["id"]] if queue and queue[0]["primary"] else None
    f: dict[str, Any] = {
        "t": "attack", "by": a.id, "w": w.id, "melee": melee, "counter": counter,
        "at": list(a.pos), "target": list(target), "queue": queue, "i": 0, "surge": a.surge,
        "step": "chain", "chain_left": 2 if w.has("CHN") and not melee and primary is not None else 0,
        "react_seat": primary.seat if primary is not None and primary.seat != a.seat else "",
    }  # fmt: skip
    a.surge = False
    if w.has("LIM") and w.id not in a.spent:
        a.spent.append(w.id)
    st.attacks.append((a.pos, target))
    st.stack.append(f)
    return f


def attack_skill(st: SkirmState, a: Unit, w: Weapon, t: Unit, melee: bool) -> int:
    """The skill attack dice are rolled against: SKx or MSK/RSK, +SK, high ground, Repulsive."""
    base = w.skill or (ut(a).msk if melee else ut(a).rsk)
    if w.has("+SK"):
        base = min(5, base + 1)
    if a.pos is not None and t.pos is not None:
        rise = B.height(st, a.pos) - B.height(st, t.pos)
        if (melee and rise >= 1) or (not melee and rise >= 2):
            base += 1
    if melee and has(t, "REP"):
        base -= 1
    return base


def attack_dice(st: SkirmState, a: Unit, w: Weapon, t: Unit, melee: bool, surge: bool) -> int:
    """Attack dice: ROA, +1 for support in melee (a Standing squadmate adjacent to the target), +1 surge."""
    n = w.roa + (1 if surge else 0)
    if melee and t.pos is not None:
        occ = B.occupancy(st)
        for c in B.around(t.pos):
            m = occ.get(c)
            if (
                m is not None
                and m.seat == a.seat
                and m.id != a.id
                and m.state == STANDING
                and B.adjacent(st, t.pos, c)
            ):
                n += 1
                break
    return n


def auto_saves(st: SkirmState, f: dict[str, Any], a: Unit, t: Unit, primary: bool) -> list[str]:
    """Automatic saves the target gets: cover, Camouflage, Dodge, a ward."""
    out = []
    at = (f["at"][0], f["at"][1])
    if not f["melee"] and t.pos is not None:
        if B.in_cover(st, at, t.pos):
            out.append("cover")
        if primary and has(t, "CAM") and chebyshev(at, t.pos) > 3:
            out.append("CAM")
    if f["melee"] and has(t, "DOD") and t.state == STANDING:
        out.append("DOD")
    if t.ward:
        out.append("ward")
    return out


def step_attack(st: SkirmState, f: dict[str, Any], ev: list[Event]) -> bool:
    """Advance an attack frame. Returns True when it waits for a decision: the attacker's chain targets, the
    defender's Tactical-Order skills, a re-roll, or the attacker's push."""
    a = st.units[f["by"]]
    w = wp(f["w"])
    if f["step"] == "chain":
        if f["chain_left"] > 0 and chain_candidates(st, f):
            return True
        f["step"] = "react"
    if f["step"] == "react":
        seat = f["react_seat"]
        if seat and st.skill_policies.get(seat, "ask") == "ask" and to_skill_uses(st, seat):
            return True
        f["step"] = "roll"
    while f["i"] < len(f["queue"]):
        entry = f["queue"][f["i"]]
        t = st.units[entry["id"]]
        if f["step"] == "roll":
            if not B.on_map(t):
                f["i"] += 1
                continue
            f["step"] = "attack"
            if not entry["primary"] and has(t, "BLS"):
                f["shield"] = [st.rng.roll(6)]
                f["shre"] = [False]
                ev.append(Event(f"{t.name} rolls its blast shield: {f['shield'][0]} (1-3 holds).",
                                dice=tuple(f["shield"])))  # fmt: skip
                f["step"] = "shield_reroll"
        if f["step"] == "shield_reroll":
            if rerollable(st, t.seat, f["shield"], f["shre"], SHIELD):
                return True
            f["step"] = "shield_done"
        if f["step"] == "shield_done":
            d = f["shield"][0]
            if success(d, SHIELD):
                ev.append(Event(f"{t.name}'s blast shield holds ({d}): no attack roll against it."))
                f["i"] += 1
                f["step"] = "roll"
                continue
            ev.append(Event(f"{t.name}'s blast shield fails ({d})."))
            f["step"] = "attack"
        if f["step"] == "attack":
            f["skill"] = attack_skill(st, a, w, t, f["melee"])
            n = attack_dice(st, a, w, t, f["melee"], f["surge"])
            f["dice"] = [st.rng.roll(6) for _ in range(n)]
            f["re"] = [False] * n
            f["auto"] = 1 if w.has("ARP") else 0
            f["first"] = list(f["dice"])
            free = []
            if w.has("RLT"):
                free += [i for i, d in enumerate(f["dice"]) if d == 6]
            if (f["melee"] and (has(a, "BRU") or w.has("BRU"))) or (
                not f["melee"] and (has(a, "PRC") or w.has("PRC"))
            ):
                free += [i for i, d in enumerate(f["dice"]) if not success(d, f["skill"])]
            for i in sorted(set(free)):
                f["dice"][i] = st.rng.roll(6)
                f["re"][i] = True
            why = "melee" if f["melee"] else "ranged"
            text = f"{a.name} attacks {t.name} ({why}, {w.name}): {n} dice vs skill {f['skill']} → {_dice(f['first'])}"
            if free:
                text += f", free re-rolls → {_dice(f['dice'])}"
            if f["auto"]:
                text += " + 1 automatic strike (ARP)"
            ev.append(
                Event(
                    text + ".",
                    kind="attack",
                    dice=tuple(f["first"]) + tuple(f["dice"][i] for i in sorted(set(free))),
                )
            )
            f["step"] = "att_reroll"
        if f["step"] == "att_reroll":
            if rerollable(st, a.seat, f["dice"], f["re"], f["skill"]):
                return True
            f["step"] = "parry"
        if f["step"] == "parry":
            if f["melee"] and has(t, "PAR") and t.state == STANDING:
                hits = [i for i, d in enumerate(f["dice"]) if success(d, f["skill"]) and not f["re"][i]]
                if hits:
                    i = min(hits, key=lambda k: (f["dice"][k] != 1, k))
                    old = f["dice"][i]
                    f["dice"][i] = st.rng.roll(6)
                    f["re"][i] = True
                    ev.append(Event(f"{t.name} parries: the attack die {old} is re-rolled → {f['dice'][i]}.",
                                    dice=(f["dice"][i],)))  # fmt: skip
            f["step"] = "saves"
        if f["step"] == "saves":
            hits = [d for d in f["dice"] if success(d, f["skill"])]
            dam = sum(w.dam * (2 if d == 1 and w.has("RND") else 1) for d in hits) + f["auto"] * w.dam
            if w.has("STN") and 1 in f["dice"] and B.on_map(t):
                t.stun = 1
                ev.append(Event(f"{t.name} is stunned: 1 less ACT in its next activation (STN)."))
            f["dam"] = dam
            autos = auto_saves(st, f, a, t, entry["primary"]) if dam else []
            if "ward" in autos:
                t.ward = False
            n = max(0, dam - len(autos))
            f["saves"] = [st.rng.roll(6) for _ in range(n)]
            f["sre"] = [False] * n
            arm = ut(t).arm
            f["arm"] = arm
            text = f"{plural(len(hits) + f['auto'], 'strike')}, {dam} damage"
            if autos:
                text += f", {plural(len(autos), 'automatic save')} ({', '.join(autos)})"
            if n:
                text += f"; {t.name} rolls {plural(n, 'save')} vs ARM {arm} → {_dice(f['saves'])}"
            free_rule = "Tough" if f["melee"] else "TMP"
            if n and has(t, free_rule):
                fails = [i for i, d in enumerate(f["saves"]) if not success(d, arm)]
                for i in fails:
                    f["saves"][i] = st.rng.roll(6)
                    f["sre"][i] = True
                if fails:
                    text += f", {free_rule} re-rolls → {_dice(f['saves'])}"
            ev.append(Event(text + ".", kind="saves", dice=tuple(f["saves"])))
            f["step"] = "save_reroll"
        if f["step"] == "save_reroll":
            if rerollable(st, t.seat, f["saves"], f["sre"], f["arm"]):
                return True
            f["step"] = "resolve"
        if f["step"] == "resolve":
            failed = any(not success(d, f["arm"]) for d in f["saves"])
            if failed:
                degrade(st, t, a.seat, ev)
            elif f["saves"]:
                ev.append(Event(f"{t.name} saves everything."))
            f["step"] = "next"
            if w.has("PSH") and f["dam"] and B.on_map(t):
                if push_cells(st, f, t):
                    f["step"] = "push"
                else:
                    ev.append(Event(f"{t.name} cannot be pushed (PSH)."))
        if f["step"] == "push":
            return True
        if f["step"] == "pushed":
            f["i"] += 1
            f["step"] = "roll"
            if push_to(st, f, t, f.pop("push_to"), ev):
                return False  # a fall frame now sits on top of this one
            continue
        if f["step"] == "next":
            f["i"] += 1
            f["step"] = "roll"
    st.stack.pop()
    first = f["queue"][0] if f["queue"] else None
    if f["melee"] and not f["counter"] and first is not None and first["primary"]:
        t = st.units[first["id"]]
        if (
            has(t, "CTR")
            and t.state == STANDING
            and B.on_map(a)
            and t.pos
            and a.pos
            and B.adjacent(st, t.pos, a.pos)
        ):
            cw = counter_weapon(t)
            if cw is not None:
                ev.append(Event(f"{t.name} counter-attacks (CTR)."))
                start_attack(st, t, cw, a.pos, melee=True, counter=True)
    return False


def counter_weapon(u: Unit) -> Weapon | None:
    """The weapon a unit strikes back with: its first melee weapon, else a ranged weapon with MCR."""
    for x in u.weapons:
        if not wp(x).ranged:
            return wp(x)
    for x in u.weapons:
        if wp(x).has("MCR") and x not in u.spent:
            return wp(x)
    return None


def push_cells(st: SkirmState, f: dict[str, Any], t: Unit) -> dict[Cell, int]:
    """PSH: where the attack may push ``t`` -> squares moved (1 or 2). Each square pushed must lie one
    farther from the attacker's square than the last (the unit moves away, never sideways), and the step is
    stopped by solid squares, units, higher ground, any wall or door, or a blocked corner."""
    assert t.pos is not None
    at = (f["at"][0], f["at"][1])
    occ = B.occupancy(st)
    out: dict[Cell, int] = {}
    frontier = [t.pos]
    for n_steps in (1, 2):
        nxt = []
        for c in frontier:
            for n in B.around(c):
                if chebyshev(at, n) != chebyshev(at, c) + 1 or n in out or not push_step_open(st, c, n, occ):
                    continue
                out[n] = n_steps
                nxt.append(n)
        frontier = nxt
    return out


def push_step_open(st: SkirmState, c: Cell, n: Cell, occ: dict[Cell, Unit]) -> bool:
    """Whether a pushed unit may be moved one square from c to n (falls allowed, climbs not)."""
    if B.solid(st, n) or n in occ or B.height(st, n) > B.height(st, c):
        return False
    if n[0] != c[0] and n[1] != c[1]:
        sides = ((n[0], c[1]), (c[0], n[1]))
        if any(B.solid(st, s) or s in occ for s in sides):
            return False
        way0 = B.hard_edge(st, c, sides[0]) or B.hard_edge(st, sides[0], n)
        return not (way0 and (B.hard_edge(st, c, sides[1]) or B.hard_edge(st, sides[1], n)))
    return not (B.hard_edge(st, c, n) or B.low_wall(st, c, n))


def push_to(st: SkirmState, f: dict[str, Any], t: Unit, dest: list[int] | None, ev: list[Event]) -> bool:
    """Carry out the attacker's push answer (``dest`` None: no push). A drop opens a fall frame (saves equal
    to the height fallen, which the target may re-roll with orders). Returns True when a fall frame opened."""
    if dest is None or t.pos is None:
        ev.append(Event(f"{t.name} is not pushed."))
        return False
    start, c = t.pos, (dest[0], dest[1])
    t.pos = c
    ev.append(Event(f"{t.name} is pushed to {cell_name(c)} (PSH)."))
    fall = B.height(st, start) - B.height(st, c)
    if fall <= 0:
        return False
    arm = ut(t).arm
    saves = [st.rng.roll(6) for _ in range(fall)]
    ev.append(
        Event(
            f"{t.name} falls {plural(fall, 'square')}: saves vs ARM {arm} → {_dice(saves)}.",
            dice=tuple(saves),
        )
    )
    st.stack.append({"t": "fall", "by": f["by"], "target": t.id, "dice": saves, "re": [False] * fall,
                     "stat": arm, "step": "reroll"})  # fmt: skip
    return True


def step_fall(st: SkirmState, f: dict[str, Any], ev: list[Event]) -> bool:
    """Advance a fall frame: the fallen unit's player may re-roll failed saves with orders; any failure
    degrades it."""
    t = st.units[f["target"]]
    if f["step"] == "reroll" and rerollable(st, t.seat, f["dice"], f["re"], f["stat"]):
        return True
    st.stack.pop()
    if any(not success(d, f["stat"]) for d in f["dice"]) and B.on_map(t):
        degrade(st, t, st.units[f["by"]].seat, ev)
    else:
        ev.append(Event(f"{t.name} lands safely."))
    return False


def chain_candidates(st: SkirmState, f: dict[str, Any]) -> list[Unit]:
    """CHN: enemy units in squares adjacent to the original target that the attacker may still add."""
    a = st.units[f["by"]]
    target = (f["target"][0], f["target"][1])
    taken = {x["id"] for x in f["queue"]}
    occ = B.occupancy(st)
    near = [occ[c] for c in B.adjacent_cells(st, target) if c in occ]
    return sorted((v for v in near if v.seat != a.seat and v.id not in taken), key=lambda v: v.id)


def skill_targets(st: SkirmState, u: Unit, sk: Skill) -> list[Unit | None]:
    """Who a skill may target now ([None] for a self-only skill)."""
    if u.pos is None:
        return []
    if sk.effect == "surge":
        return [None] if u.state == STANDING else []
    if sk.effect == "raise":
        out: list[Unit | None] = []
        for v in st.units.values():
            if v.seat != u.seat or v.state != DOWNED or v.pos is None:
                continue
            if v.id == u.id or (u.state == STANDING and B.adjacent(st, u.pos, v.pos)):
                out.append(v)
        return out
    if u.state != STANDING:
        return []
    if sk.effect == "hex":
        return [v for v in hex_candidates(st, u) if hex_in_sight(st, u, v)]
    return [v for v in st.units.values()
            if v.seat == u.seat and B.on_map(v) and v.pos is not None and chebyshev(u.pos, v.pos) <= 3]  # fmt: skip


def hex_candidates(st: SkirmState, u: Unit) -> list[Unit]:
    """The enemies a Standing unit's hex may reach by range (8 squares), sight not yet checked."""
    assert u.pos is not None
    return [v for v in st.units.values() if v.seat != u.seat and B.on_map(v) and v.pos is not None
            and chebyshev(u.pos, v.pos) <= 8]  # fmt: skip


def hex_in_sight(st: SkirmState, u: Unit, v: Unit) -> bool:
    """Whether the hexing unit sees ``v`` (one of :func:`hex_candidates`): the hex's last condition."""
    assert u.pos is not None and v.pos is not None
    return B.sees(st, u.pos, v.pos, ignore=(u.id, v.id))


def to_skill_uses(st: SkirmState, seat: str) -> list[tuple[Unit, Skill, Unit | None]]:
    """Every Tactical-Order skill use open to ``seat`` now: (user, skill, target or None). TO skills may be
    used at any time, once per unit and skill per turn, while the squad has the orders to pay."""
    out = []
    for u in st.units.values():
        if u.seat != seat or not u.skills or not B.on_map(u):
            continue
        for sid in u.skills:
            sk = skill(sid)
            if sk.pay != "to" or f"{u.id}:{sid}" in st.skills_used or st.orders.get(seat, 0) < sk.cost:
                continue
            out += [(u, sk, t) for t in skill_targets(st, u, sk)]
    return out


def rerollable(st: SkirmState, seat: str, dice: list[int], re: list[bool], stat: int) -> bool:
    """Whether ``seat`` could pay a Tactical Order to re-roll one of these (failed, not yet re-rolled) dice;
    with ``stat`` ANY (a die with no pass or fail) every die not yet re-rolled counts."""
    if st.policies.get(seat, "ask") == "never" or st.orders.get(seat, 0) <= 0:
        return False
    return any(not r and worth_rerolling(d, stat) for d, r in zip(dice, re, strict=True))


def worth_rerolling(die: int, stat: int) -> bool:
    """A die a re-roll could improve: a failure, or any die of a roll with no pass or fail."""
    return stat == ANY or not success(die, stat)


def reroll_choices(st: SkirmState) -> list[int]:
    """1-based positions of the dice the waiting seat may re-roll now (failed, not re-rolled yet)."""
    f = st.stack[-1]
    dice, re, stat = frame_dice(f)
    return [
        i + 1 for i, (d, r) in enumerate(zip(dice, re, strict=True)) if not r and worth_rerolling(d, stat)
    ]


def frame_dice(f: dict[str, Any]) -> tuple[list[int], list[bool], int]:
    """The dice a waiting frame offers for re-rolls: (dice, re-rolled flags, target stat)."""
    if f["t"] == "attack":
        if f["step"] == "att_reroll":
            return f["dice"], f["re"], int(f["skill"])
        if f["step"] == "shield_reroll":
            return f["shield"], f["shre"], SHIELD
        return f["saves"], f["sre"], int(f["arm"])
    return f["dice"], f["re"], int(f["stat"])


def do_reroll(st: SkirmState, seat: str, index: int, ev: list[Event]) -> None:
    """Spend a Tactical Order to re-roll die ``index`` (1-based) of the waiting frame."""
    f = st.stack[-1]
    dice, re, _ = frame_dice(f)
    old = dice[index - 1]
    dice[index - 1] = st.rng.roll(6)
    re[index - 1] = True
    st.orders[seat] -= 1
    ev.append(Event(f"{squad_name(st, seat)} spends a Tactical Order to re-roll {with_article(str(old))} → {dice[index - 1]}.",
                    kind="reroll", dice=(dice[index - 1],)))  # fmt: skip


def keep(st: SkirmState) -> None:
    """Decline further re-rolls for the waiting frame."""
    f = st.stack[-1]
    if f["t"] == "attack":
        f["step"] = {"att_reroll": "parry", "shield_reroll": "shield_done"}.get(f["step"], "resolve")
    else:
        f["step"] = "resolve"


def _dice(d: list[int]) -> str:
    return "[" + " ".join(map(str, d)) + "]" if d else "[]"


# -- single-die checks: Recover, Sabotage ---------------------------------------------------------------


def start_check(st: SkirmState, kind: str, u: Unit, target: Unit | None, stat: int, ev: list[Event]) -> None:
    """Push a one-die check (Recover: the actor's ARM; Sabotage: RSK); TEN re-rolls a failed Recover free."""
    d = st.rng.roll(6)
    f: dict[str, Any] = {"t": "check", "kind": kind, "by": u.id, "target": target.id if target else "",
                         "dice": [d], "re": [False], "stat": stat, "step": "reroll"}  # fmt: skip
    what, stat_name = ("Recover", "ARM") if kind == "recover" else ("Sabotage", "RSK")
    text = f"{u.name} rolls {what}: {d} vs {stat_name} {stat}"
    dice = [d]
    if kind == "recover" and not success(d, stat) and has(u, "TEN"):
        f["dice"][0] = st.rng.roll(6)
        f["re"][0] = True
        dice.append(f["dice"][0])
        text += f", TEN re-roll → {f['dice'][0]}"
    ev.append(Event(text + ".", kind=kind, dice=tuple(dice)))
    st.stack.append(f)


def step_check(st: SkirmState, f: dict[str, Any], ev: list[Event]) -> bool:
    """Advance a check frame. Returns True when it waits for a re-roll decision."""
    u = st.units[f["by"]]
    if f["step"] == "reroll" and rerollable(st, u.seat, f["dice"], f["re"], f["stat"]):
        return True
    st.stack.pop()
    ok = success(f["dice"][0], f["stat"])
    if f["kind"] == "recover":
        t = st.units[f["target"]]
        if ok and t.state == DOWNED:
            t.state = STANDING
            ev.append(Event(f"Success: {t.name} is Standing again."))
        else:
            ev.append(Event(f"Failure: {t.name} stays Downed."))
    elif f["kind"] == "sabotage":
        o = next(o for o in st.objectives if o["id"] == f["target"])
        if ok:
            o["gone"] = True
            st.points[u.seat] = st.points.get(u.seat, 0) + 2
            ev.append(
                Event(f"Success: {u.name} sabotages objective {o['id']}, +2 mission points; it is destroyed.")
            )
        else:
            ev.append(Event(f"Failure: objective {o['id']} holds."))
    return False


# -- who acts and the engine loop ------------------------------------------------------------------------


def waiting(st: SkirmState) -> tuple[str, str] | None:
    """Who must answer now: (seat, mode), or None when the game is over."""
    if st.result is not None:
        return None
    if st.stack:
        f = st.stack[-1]
        if f["t"] == "attack":
            if f["step"] in ("att_reroll", "chain", "push"):
                return st.units[f["by"]].seat, "reroll" if f["step"] == "att_reroll" else f["step"]
            if f["step"] == "react":
                return f["react_seat"], "react"
            t = st.units[f["queue"][f["i"]]["id"]]
            return t.seat, "reroll"
        if f["t"] == "event":
            return f["seat"], "reroll"
        if f["t"] == "fall":
            return st.units[f["target"]].seat, "reroll"
        return st.units[f["by"]].seat, "reroll"
    if st.phase == "zone":
        return st.placer, "zone"
    if st.phase == "deploy":
        return st.placer, "deploy"
    return st.next_side, "activation"


def step_frame(st: SkirmState, f: dict[str, Any], ev: list[Event]) -> bool:
    """Advance the top frame; True when a player must answer."""
    steps = {"attack": step_attack, "event": step_event, "fall": step_fall}
    return steps.get(f["t"], step_check)(st, f, ev)


def advance(st: SkirmState, ev: list[Event]) -> None:
    """Run frames and phase changes until an answer is needed or the game ends."""
    for _ in range(10_000):
        if st.result is not None:
            return
        if st.stack:
            if step_frame(st, st.stack[-1], ev):
                return
            continue
        if st.phase != "activation":
            return
        if st.active:
            u = st.units[st.active]
            if not B.on_map(u) or (not st.ordered and act_left(u) == 0 and st.orders.get(u.seat, 0) == 0):
                end_activation(st, ev)
                continue
            return
        if not (side_can_activate(st, SEATS[0]) or side_can_activate(st, SEATS[1])):
            end_turn(st, ev)
            continue
        if not side_can_activate(st, st.next_side):
            st.next_side = other(st.next_side)
        return
    raise AssertionError("advance did not settle")


def faction_colour(st: SkirmState, seat: str) -> str:
    """The colour of the seat's faction."""
    return factions()[str(st.squads[seat]["faction"])].colour


def unit_labels(st: SkirmState) -> dict[str, str]:
    """Short token labels per unit id, unique within the game: the name's initials (``ST`` for Shock
    Trooper) or, for a numbered unit, its first letter and number (``B2`` for Breacher 2). Where two units
    would share a label, both take their next, longer candidate until they differ."""
    options = {u.id: label_candidates(u.name, i) for i, u in enumerate(st.units.values())}
    level = dict.fromkeys(options, 0)
    for _ in range(8):
        out = {uid: opts[min(level[uid], len(opts) - 1)] for uid, opts in options.items()}
        seen: dict[str, list[str]] = {}
        for uid, lab in out.items():
            seen.setdefault(lab, []).append(uid)
        clashes = [uid for ids in seen.values() if len(ids) > 1 for uid in ids]
        if not clashes:
            return out
        for uid in clashes:
            level[uid] += 1
    return {uid: opts[-1] for uid, opts in options.items()}


def label_candidates(name: str, index: int) -> list[str]:
    """Token labels for a unit name, shortest first; the last one (with the unit's index) is unique."""
    words = name.split()
    num = words.pop() if len(words) > 1 and words[-1].isdigit() else ""
    stem = "".join(words).upper() or "U"
    initials = (words[0][0] + (words[1][0] if len(words) > 1 else stem[1:2])).upper()
    out = [stem[0] + num] if num else []
    out += [initials + num, stem[0] + stem[-1] + num, stem[:3] + num]
    return [*out, str(index + 1)]


def reserve(u: Unit) -> bool:
    """Whether the unit is still waiting to be deployed."""
    return u.state == RESERVE


def fmt_unit_state(u: Unit) -> str:
    """Standing / Downed / Out / to deploy."""
    return {STANDING: "Standing", DOWNED: "Downed", OUT: "Out", RESERVE: "to deploy"}[u.state]
