"""ESCAPE's rules: setup, turns, activations, actions, reactions, skills, equipment, results.

Commands are parsed and fully checked by :func:`check` (which never mutates) and played by
:func:`play`. Resolutions that wait on the other player (dodge, counter-measure, re-rolls, pushes)
are frames on ``state.stack``; :func:`advance` runs them until someone must answer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from engine.core import Command, Event, Outcome
from engine.errors import AmbiguousCommand, IllegalCommand, RuleError
from engine.geometry.square import (
    KING,
    ORTHOGONAL,
    Cell,
    EdgeKey,
    cell_name,
    chebyshev,
    corner_step_open,
    edge_key,
    edge_name,
    in_periphery,
    is_adjacent,
    line_of_sight,
    parse_cell,
    parse_edge,
)
from engine.grammar import with_article
from engine.rulesets.escape.board import Board, EdgeKind
from engine.rulesets.escape.content import (
    FACTION_NAMES,
    Profile,
    Ranged,
    Scenario,
    items,
    next_scenario,
    profiles,
    scenarios,
)
from engine.rulesets.escape.state import CBT, INT, KIND_NAMES, MVT, EscapeState, Token, Unit

SEATS = ("resistance", "isc")
EVENTS = {
    2: "Supreme AI: every I.S.C. character is Mvt 7, Cbt 3, Int 3 this turn",
    3: "Intervention of the Celestial Order: the I.S.C. moves one of its characters to any free square",
    4: "Powergrid overload: every Resistance character next to a door takes 2 damage",
    5: "Fire alarm: every character has Mvt -1 this turn",
    6: "High Security Airlock: the I.S.C. may redeploy through the central airlock this turn",
    7: "Nothing happens... but the air feels heavier",
    8: "Firewall: Resistance characters may move through occupied squares this turn (not stop on one)",
    9: "Short circuit: the Resistance opens or closes a door of its choice",
    10: "Black-out: the Resistance picks a room where no Combat action can be made this turn",
    11: "Interference: the Resistance takes the initiative and may activate two characters in a row",
    12: "Disconnection: I.S.C. skills do not work this turn",
}
_SCENARIOS = scenarios()
_BOARDS = {sid: sc.board for sid, sc in _SCENARIOS.items()}
_PROFILES = profiles()
_STATS = {cid: (p.mvt, p.cbt, p.intel) for cid, p in _PROFILES.items()}
_SUPREME_AI = (7, 3, 3)
POLICY_KINDS = {"dodge": ("ask", "always", "never"), "countermeasure": ("ask", "always", "never"),
                "reroll": ("ask", "auto", "never")}  # fmt: skip


def other(seat: str) -> str:
    """The opposing seat."""
    return "isc" if seat == "resistance" else "resistance"


def scen(st: EscapeState) -> Scenario:
    """The scenario being played."""
    return _SCENARIOS[st.scenario]


def board(st: EscapeState) -> Board:
    """The board being played on."""
    return _BOARDS[st.scenario]


def prof(u: Unit) -> Profile:
    """A unit's character card."""
    return _PROFILES[u.id]


def name(u: Unit) -> str:
    """A unit's display name."""
    return _PROFILES[u.id].name


# -- skills, stats and actions ------------------------------------------------------------------------


def has(st: EscapeState, u: Unit, skill: str) -> bool:
    """Whether the unit has a skill that works now (Disconnection switches I.S.C. skills off)."""
    return skill in _PROFILES[u.id].skills and not (st.event == 12 and u.seat == "isc")


def card_weapon(st: EscapeState, u: Unit) -> Ranged | None:
    """The Range/Power weapon printed on the unit's card, if it works now.

    A card's weapon is one of its skills ("special equipment" on the card), so Disconnection switches
    off the I.S.C.'s; equipment tokens are not skills and keep working.
    """
    if st.event == 12 and u.seat == "isc":
        return None
    return _PROFILES[u.id].ranged


def base_stat(st: EscapeState, u: Unit, kind: int) -> int:
    """The printed stat, or Supreme AI's 7/3/3 for the I.S.C."""
    if st.event == 2 and u.seat == "isc":
        return _SUPREME_AI[kind]
    return _STATS[u.id][kind]


def stat(st: EscapeState, u: Unit, kind: int) -> int:
    """The stat after this turn's penalties (Fire alarm, crates, grenades, bludgeon), at least 0."""
    event = st.event
    value = (_SUPREME_AI if event == 2 and u.seat == "isc" else _STATS[u.id])[kind] + u.mods[kind]
    if kind == MVT and event == 5:
        value -= 1
    return value if value > 0 else 0


def left(st: EscapeState, u: Unit, kind: int) -> int:
    """Actions of this kind the unit may still take this turn (bonus actions included)."""
    n = stat(st, u, kind) + u.bonus[kind] - u.used[kind]
    return n if n > 0 else 0


def pilot_for(st: EscapeState, u: Unit) -> Unit | None:
    """The Pilot whose actions this Robot may draw on during its activation, if any is on the board."""
    if not has(st, u, "robot") or st.active != u.id:
        return None
    for p in st.units.values():
        if p.seat == u.seat and p.status == "board" and has(st, p, "pilot"):
            return p
    return None


def can_spend(st: EscapeState, u: Unit, kind: int) -> bool:
    """Whether the unit (or, for a Robot, its Pilot) has an action of this kind left."""
    if left(st, u, kind) > 0:
        return True
    p = pilot_for(st, u)
    return p is not None and left(st, p, kind) > 0


def can_spend_each(st: EscapeState, u: Unit) -> tuple[bool, bool, bool]:
    """:func:`can_spend` for Movement, Combat and Intellect at once."""
    event = st.event
    base = _SUPREME_AI if event == 2 and u.seat == "isc" else _STATS[u.id]
    mods, bonus, used = u.mods, u.bonus, u.used
    m = base[0] + mods[0] - (1 if event == 5 else 0)
    c = base[1] + mods[1]
    i = base[2] + mods[2]
    mvt = (m if m > 0 else 0) + bonus[0] - used[0] > 0
    cbt = (c if c > 0 else 0) + bonus[1] - used[1] > 0
    intel = (i if i > 0 else 0) + bonus[2] - used[2] > 0
    if mvt and cbt and intel:
        return True, True, True
    p = pilot_for(st, u)
    if p is None:
        return mvt, cbt, intel
    return mvt or left(st, p, MVT) > 0, cbt or left(st, p, CBT) > 0, intel or left(st, p, INT) > 0


def spend(st: EscapeState, u: Unit, kind: int) -> None:
    """Use one action of this kind: the unit's own first, then a Pilot's for a Robot."""
    if left(st, u, kind) > 0:
        u.used[kind] += 1
        return
    p = pilot_for(st, u)
    assert p is not None
    p.used[kind] += 1


def require(st: EscapeState, u: Unit, kind: int) -> None:
    """Raise IllegalCommand naming the stat if the unit has no action of this kind left."""
    if stat(st, u, kind) + u.bonus[kind] > u.used[kind]:
        return  # the unit's own action (the usual case, checked first as in can_spend)
    if not can_spend(st, u, kind):
        k = ("Mvt", "Cbt", "Int")[kind]
        raise IllegalCommand(
            f"{name(u)} has no {KIND_NAMES[kind]} actions left this turn "
            f"({k} {stat(st, u, kind) + u.bonus[kind]}, used {u.used[kind]})."
        )


# -- the board ------------------------------------------------------------------------------------------


def occupancy(st: EscapeState) -> dict[Cell, str]:
    """Square -> unit id for every unit on the board."""
    return {u.pos: u.id for u in st.units.values() if u.status == "board" and u.pos is not None}


def edge_blocks(st: EscapeState, a: Cell, b: Cell) -> bool:
    """Whether a wall (not destroyed) or a closed/locked door stands between two adjacent squares."""
    k = (a, b) if a <= b else (b, a)  # edge_key, inlined: this runs for every step and sight line
    door = st.doors.get(k)
    if door is not None:
        return not door.open
    return k in _BOARDS[st.scenario].edges and k not in st.destroyed


def wall_at(st: EscapeState, a: Cell, b: Cell) -> EdgeKind | None:
    """The kind of standing wall between two adjacent squares, or None."""
    k = edge_key(a, b)
    spec = board(st).edges.get(k)
    if spec is None or spec.kind == EdgeKind.DOOR or k in st.destroyed:
        return None
    return spec.kind


def sees(st: EscapeState, a: Cell, b: Cell, occ: dict[Cell, str] | None = None) -> bool:
    """Line of sight centre to centre; walls, closed doors and characters in between block it."""
    occ = occupancy(st) if occ is None else occ
    return line_of_sight(a, b, lambda x, y: edge_blocks(st, x, y), lambda c: c in occ)


def step_open(st: EscapeState, a: Cell, b: Cell, *, burrow: bool = False) -> bool:
    """Whether one step from a to b (side or corner) crosses no wall or closed door."""
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1:
        return burrow or not edge_blocks(st, a, b)
    if burrow:
        return corner_step_open(a, b, _never, lambda c: not _on(st, c))
    return corner_step_open(a, b, lambda x, y: edge_blocks(st, x, y), lambda c: not _on(st, c))


def _never(x: Cell, y: Cell) -> bool:
    return False


def _on(st: EscapeState, c: Cell) -> bool:
    b = _BOARDS[st.scenario]
    return 0 <= c[0] < b.width and 0 <= c[1] < b.height


def ring(st: EscapeState, c: Cell) -> tuple[Cell, ...]:
    """The on-board squares of a square's periphery (sides first, then corners, in KING order)."""
    return _ring(_BOARDS[st.scenario], c)


@lru_cache(maxsize=4096)
def _ring(b: Board, c: Cell) -> tuple[Cell, ...]:
    return tuple(
        n for dx, dy in KING if 0 <= (n := (c[0] + dx, c[1] + dy))[0] < b.width and 0 <= n[1] < b.height
    )


@lru_cache(maxsize=4096)
def _sides(b: Board, c: Cell) -> tuple[Cell, ...]:
    return tuple(n for n in _ring(b, c) if is_adjacent(c, n))


class Square(NamedTuple):
    """What never changes about a square in a scenario: neighbours and door edges with typed names."""

    ring: tuple[tuple[Cell, str], ...]  # :func:`ring`, with names
    sides: tuple[tuple[Cell, str], ...]  # the squares sharing a side (the first ones of the ring), named
    door_sides: tuple[tuple[EdgeKey, str], ...]  # the side edges printed with a door, named
    exit: bool  # an access square of an airlock the Resistance may leave by
    # the sides with name, edge key and what is printed on the edge: 0 nothing, 1 a wall, 2 a door
    side_steps: tuple[tuple[Cell, str, EdgeKey, int], ...]


def square(st: EscapeState, c: Cell) -> Square:
    """The fixed facts about a square (for listing commands quickly)."""
    return _square(st.scenario, c)


@lru_cache(maxsize=4096)
def _square(scenario: str, c: Cell) -> Square:
    b = _BOARDS[scenario]
    steps = []
    for n, name_ in _named_sides(b, c):
        k = edge_key(c, n)
        spec = b.edges.get(k)
        steps.append((n, name_, k, 0 if spec is None else 2 if spec.kind == EdgeKind.DOOR else 1))
    return Square(
        _named_ring(b, c), _named_sides(b, c), _door_sides(b, c), c in _exit_cells(scenario), tuple(steps)
    )


@lru_cache(maxsize=16)
def _exit_cells(scenario: str) -> frozenset[Cell]:
    s = _SCENARIOS[scenario]
    return frozenset(c for n in s.exits for c in s.board.airlocks[n])


@lru_cache(maxsize=4096)
def _named_ring(b: Board, c: Cell) -> tuple[tuple[Cell, str], ...]:
    return tuple((n, cell_name(n)) for n in _ring(b, c))


@lru_cache(maxsize=4096)
def _named_sides(b: Board, c: Cell) -> tuple[tuple[Cell, str], ...]:
    return tuple((n, cell_name(n)) for n in _sides(b, c))


@lru_cache(maxsize=4096)
def _door_sides(b: Board, c: Cell) -> tuple[tuple[EdgeKey, str], ...]:
    return tuple(
        (k, n) for k, n in _side_edges(b, c) if (e := b.edges.get(k)) is not None and e.kind == EdgeKind.DOOR
    )


def side_edges(st: EscapeState, c: Cell) -> tuple[tuple[EdgeKey, str], ...]:
    """The edges on a square's on-board sides, with their typed names, in :func:`ring` order."""
    return _side_edges(_BOARDS[st.scenario], c)


@lru_cache(maxsize=4096)
def _side_edges(b: Board, c: Cell) -> tuple[tuple[EdgeKey, str], ...]:
    return tuple((edge_key(c, n), edge_name(c, n)) for n in _sides(b, c))


@lru_cache(maxsize=16)
def _reading_order(b: Board) -> tuple[Cell, ...]:
    return tuple(sorted(b.cell_room, key=lambda c: (c[1], c[0])))


def room_name(st: EscapeState, letter: str) -> str:
    """A room's display name."""
    return board(st).room_names.get(letter, letter)


# -- parsing helpers ----------------------------------------------------------------------------------


def find_unit(st: EscapeState, text: str, *, seat: str | None = None, what: str = "character") -> Unit:
    """The unit named by ``text`` (id or name, or an unambiguous prefix). Raises IllegalCommand."""
    t = text.strip().lower()
    pool = [u for u in st.units.values() if seat is None or u.seat == seat]
    exact = [u for u in pool if u.id == t or prof(u).name.lower() == t]
    if exact:
        return exact[0]
    pref = [u for u in pool if u.id.startswith(t)]
    if len(pref) == 1:
        return pref[0]
    if len(pref) > 1:
        raise AmbiguousCommand(
            f"'{text}' could be {', '.join(name(u) for u in pref)}: type more of the name."
        )
    whose = f"{FACTION_NAMES[seat]} " if seat else ""
    raise IllegalCommand(f"There is no {whose}{what} called '{text}' in this game.")


def cell_arg(st: EscapeState, text: str) -> Cell:
    """Parse a square of this board. Raises IllegalCommand."""
    b = _BOARDS[st.scenario]
    return parse_cell(text, b.width, b.height)


def edge_arg(st: EscapeState, text: str) -> EdgeKey:
    """Parse an edge of this board. Raises IllegalCommand."""
    b = board(st)
    return parse_edge(text, b.width, b.height)


def room_arg(st: EscapeState, text: str) -> str:
    """A room letter from a letter or a name. Raises IllegalCommand."""
    b = board(st)
    t = text.strip().lower().replace("-", " ").replace("_", " ")
    for letter in b.rooms:
        if t in (letter.lower(), b.room_names[letter].lower()) or b.room_names[letter].lower().startswith(t):
            return letter
    raise IllegalCommand(f"There is no room '{text}'. Rooms: {', '.join(b.room_names[r] for r in b.rooms)}.")


def room_slug(st: EscapeState, letter: str) -> str:
    """The typed form of a room (its name in lower case, hyphenated)."""
    return board(st).room_names[letter].lower().replace(" ", "-")


# -- turn flow -----------------------------------------------------------------------------------------


def activatable(st: EscapeState, u: Unit, occ: dict[Cell, str] | None = None) -> bool:
    """Whether the unit still has an activation this turn (on board, or able to enter).

    ``occ`` is :func:`occupancy`, when the caller already has it.
    """
    if u.activated:
        return False
    if u.status == "board":
        return True
    if u.status in ("reserve", "out"):
        return bool(entry_cells(st, u, occ))
    return False


def entry_cells(st: EscapeState, u: Unit, occ: dict[Cell, str] | None = None) -> list[Cell]:
    """Free access squares the unit could enter by now (Entry deployment or Internal factory).

    ``occ`` is :func:`occupancy`, when the caller already has it.
    """
    s = scen(st)
    b = board(st)
    if u.status == "reserve":
        mode = s.deploy[u.seat]
        if mode["mode"] != "entry":
            return []
        locks = list(mode["airlocks"])
    elif u.status == "out" and u.seat == "isc" and u.out_turn < st.turn:
        locks = [n for n in sorted(b.airlocks) if n != 5 or st.event == 6]
        resistance = [
            r.pos for r in st.units.values() if r.seat == "resistance" and r.status == "board" and r.pos
        ]
        locks = [n for n in locks if not any(chebyshev(p, a) <= 3 for a in b.airlocks[n] for p in resistance)]
    else:
        return []
    if occ is None:
        occ = occupancy(st)
    return [c for n in locks for c in b.airlocks[n] if c not in occ]


def side_can_activate(st: EscapeState, seat: str) -> bool:
    """Whether any unit of the seat still has an activation this turn."""
    for u in st.units.values():  # noqa: SIM110 (a plain loop: this runs after every activation)
        if u.seat == seat and not u.activated and (u.status == "board" or activatable(st, u)):
            return True
    return False


def int_total(st: EscapeState, seat: str, *, everyone: bool) -> int:
    """Sum of Int values of the seat's characters (on the board, or all of them)."""
    return sum(
        base_stat(st, u, INT)
        for u in st.units.values()
        if u.seat == seat and (everyone or u.status == "board")
    )


def start_turn(st: EscapeState, ev: list[Event]) -> None:
    """Begin a new turn: reset actions, then roll initiative (events follow when it resolves)."""
    st.turn += 1
    st.event = 0
    st.event_room = ""
    st.initiative = ""
    st.double_activation = False
    st.may_pass = False
    st.act_extra = (0, 0, 0)
    st.act_drugs = st.act_attacks = 0
    st.forced_next = ""
    for u in st.units.values():
        u.activated = False
        u.used = [0, 0, 0]
        u.bonus = [0, 0, 0]
        u.mods = [0, 0, 0]
        u.drilled = False
        u.veteran_used = False
    st.phase = "turn"
    ev.append(Event(f"— Turn {st.turn} of {scen(st).turns} —", kind="turn"))
    push_rolls(
        st,
        {"t": "turn_init", "dice": {}},
        [("resistance", "", "resistance", False), ("isc", "", "isc", False)],
    )


def push_rolls(st: EscapeState, parent: dict[str, Any], entries: list[tuple[str, str, str, bool]]) -> None:
    """Push ``parent`` (if not already on the stack) and a rolls frame rolling the given dice.

    Each entry is (slot, unit id, seat, is_combat_roll); results go to ``parent['dice'][slot]``.
    """
    if not st.stack or st.stack[-1] is not parent:
        st.stack.append(parent)
    for slot, _u, _s, _c in entries:
        parent["dice"][slot] = st.rng.roll(6)
    st.stack.append(
        {"t": "rolls", "i": 0, "entries": [{"slot": s, "unit": u, "seat": seat, "cbt": c, "re": False}
                                           for s, u, seat, c in entries]}
    )  # fmt: skip


def reroll_sources(st: EscapeState, e: dict[str, Any]) -> list[str]:
    """Ways this die may be re-rolled now: a Seasoned veteran's free re-roll, a Revolution token."""
    if e["re"]:
        return []
    out = []
    if e["unit"] and e["cbt"]:
        u = st.units[e["unit"]]
        if has(st, u, "seasoned_veteran") and not u.veteran_used:
            out.append("veteran")
    if e["seat"] == "resistance" and st.revolution > 0:
        out.append("token")
    return out


def end_activation(st: EscapeState, ev: list[Event]) -> None:
    """Close the active unit's activation and hand play to whoever activates next."""
    u = st.units.get(st.active)
    if u is not None:
        u.activated = True
        lapse_extra_actions(st, u)
    seat = u.seat if u else st.next_side
    st.last_unit = st.active
    st.active = ""
    # "its" reads wrongly for the people among the characters: name the activation instead.
    ended = f"{name(u)}'s activation ends." if u else "The activation ends."
    ev.append(Event(ended, kind="activation_end", board=True))
    if st.forced_next:
        st.next_side = st.units[st.forced_next].seat
        if st.double_activation and seat == "resistance":
            # Interference's second activation in a row is the one the Radio calls: no third follows it.
            st.double_activation = False
        return
    if st.double_activation and seat == "resistance":
        st.double_activation = False
        if side_can_activate(st, "resistance"):
            st.next_side = "resistance"
            # Interference's second activation is a right, not a duty: 'pass' lets the I.S.C. go instead.
            st.may_pass = side_can_activate(st, "isc")
            return
    st.next_side = other(seat)
    if not side_can_activate(st, st.next_side):
        st.next_side = seat


def lapse_extra_actions(st: EscapeState, u: Unit) -> None:
    """Drop the extra actions the ending activation bought for the active character alone (Combat drugs, a
    Datadisk, a Revolution token's Movement action) and did not spend. Actions spent during the activation count against those extras first, so
    the order in which the character took them does not matter; its own actions stay for its reactions."""
    for kind in (MVT, CBT, INT):
        unspent = st.act_extra[kind] - (u.used[kind] - st.act_used[kind])
        if unspent > 0:
            u.bonus[kind] -= unspent
    st.act_extra = (0, 0, 0)
    st.act_drugs = st.act_attacks = 0


def can_drill_spend(st: EscapeState, u: Unit) -> bool:
    """Whether the unit has a Combat action left that may pay for something other than an attack (drilling).

    The Combat drugs' extra action is for a hand-to-hand or ranged attack only. As with every extra action
    (see :func:`lapse_extra_actions`), the attacks made during the activation count against it first, in
    whatever order they came: only the part of it no attack has used yet is held back.
    """
    unspent_drugs = st.act_drugs - st.act_attacks if st.active == u.id else 0
    if left(st, u, CBT) - max(0, unspent_drugs) > 0:
        return True
    p = pilot_for(st, u)
    return p is not None and left(st, p, CBT) > 0


def victory_met(st: EscapeState, seat: str) -> bool:
    """Whether the seat's scenario victory condition holds now. A condition marked ``"when": "last_turn"``
    counts only at the end of the scenario's last turn (a room must be held when time runs out, not
    merely reached). Raises RuleError for a condition type the rules do not know."""
    s = scen(st)
    v = s.victory[seat]
    if v.get("when") == "last_turn" and st.turn < s.turns:
        return False
    res = [u for u in st.units.values() if u.seat == "resistance"]
    kind = v["type"]
    if kind == "taken_out":
        return sum(u.status == "out" for u in res) >= int(v["count"])
    if kind == "escaped":
        return sum(u.status == "escaped" for u in res) >= int(v["count"])
    if kind == "carried_points":
        return st.carried_points >= int(v["points"])
    if kind == "hold_room":
        room = v["room"]
        b = board(st)
        inside = [
            u for u in st.units.values() if u.status == "board" and u.pos and b.cell_room[u.pos] == room
        ]
        r = sum(u.seat == "resistance" for u in inside)
        i = sum(u.seat == "isc" for u in inside)
        return r >= int(v["min"]) and r > i
    raise RuleError(f"unknown victory condition {kind}")


def end_turn(st: EscapeState, ev: list[Event]) -> None:
    """End-of-turn checks: last turn, Resistance wiped out, victory conditions; else a new turn."""
    s = scen(st)
    ev.append(Event(f"Turn {st.turn} ends.", kind="turn_end", board=True))
    met = {seat for seat in SEATS if victory_met(st, seat)}
    wiped = not any(u.status in ("board", "reserve") for u in st.units.values() if u.seat == "resistance")
    last = st.turn >= s.turns
    if met or wiped or last:
        if len(met) == 1:
            seat = next(iter(met))
            reason = f"The {FACTION_NAMES[seat]} wins: {s.victory[seat]['text']}."
            st.result = Outcome(frozenset(met), reason)
        else:
            if met:
                why = "both sides met their victory conditions at once"
            elif wiped and not last:
                why = "every Resistance character is out of play, and the I.S.C. has not met its victory condition"
            else:
                why = "the last turn ended with neither side's victory condition met"
            st.result = Outcome(frozenset(), f"Draw: {why}.")
        st.phase = "over"
        ev.append(Event(st.result.reason, kind="game_over", board=True))
        nxt = next_scenario(st.scenario, st.result.winners)
        ev.append(
            Event(
                f"Campaign: the story goes on with '{scenarios()[nxt].name}' (scenario {nxt}), "
                "each player keeping their faction."
                if nxt
                else "Campaign: this was its last scenario.",
                kind="campaign",
                data={"next_scenario": nxt},
            )
        )
        return
    start_turn(st, ev)


# -- setup ----------------------------------------------------------------------------------------------


def setup_phase_after(st: EscapeState, phase: str) -> str:
    """The next setup phase after ``phase`` that has something to place."""
    s = scen(st)
    order = ["crates", "objectives", "equipment", "deploy"]
    needs = {
        "crates": s.crates > 0,
        "objectives": bool(s.objectives),
        "equipment": s.equipment > 0,
        "deploy": any(s.deploy[u.seat]["mode"] == "position" for u in st.units.values()),
    }
    start = order.index(phase) + 1 if phase in order else 0
    for p in order[start:]:
        if needs[p]:
            return p
    return "play"


def enter_setup_phase(st: EscapeState, phase: str, ev: list[Event]) -> None:
    """Move to a setup phase (or to turn 1), the setup initiative winner placing first."""
    st.phase = phase
    st.placer = st.setup_winner
    if phase == "deploy" and not to_deploy(st, st.placer):
        st.placer = other(st.placer)
    if phase == "play":
        start_turn(st, ev)


def to_deploy(st: EscapeState, seat: str) -> list[Unit]:
    """Units of ``seat`` still to be placed in Position deployment."""
    if scen(st).deploy[seat]["mode"] != "position":
        return []
    return [u for u in st.units.values() if u.seat == seat and u.status == "reserve"]


def placed(st: EscapeState, kind: str) -> int:
    """How many tokens of a kind have been placed."""
    return sum(t.kind == kind for t in st.tokens.values())


def room_token_count(st: EscapeState, letter: str, kind: str) -> int:
    """Tokens of a kind lying in a room."""
    b = board(st)
    return sum(1 for t in st.tokens.values() if t.kind == kind and t.pos and b.cell_room[t.pos] == letter)


def placement_cells(st: EscapeState, kind: str) -> list[Cell]:
    """Squares where the next token of ``kind`` may be placed (rooms only, per-room limits)."""
    b = board(st)
    limit = 2 if kind == "equipment" else 1
    counts: dict[str, int] = {}  # room_token_count for every room at once
    for t in st.tokens.values():
        if t.kind == kind and t.pos:
            letter = b.cell_room[t.pos]
            counts[letter] = counts.get(letter, 0) + 1
    return [c for letter in b.rooms if counts.get(letter, 0) < limit for c in b.room_cells(letter)]


def after_placement(st: EscapeState, kind: str, target: int, ev: list[Event]) -> None:
    """Alternate the placer, or move on once every token of the kind is down."""
    if placed(st, kind) >= target:
        phase = {"crate": "crates", "objective": "objectives", "equipment": "equipment"}[kind]
        enter_setup_phase(st, setup_phase_after(st, phase), ev)
    else:
        st.placer = other(st.placer)


def new_token(
    st: EscapeState, kind: str, pos: Cell, *, item: str = "", value: int = 0, face_up: bool = False
) -> str:
    """Create a token on a square and return its id."""
    tid = f"t{st.next_token}"
    st.next_token += 1
    st.tokens[tid] = Token(tid, kind, item, value, face_up, pos, None)
    return tid


# -- damage and taken out -------------------------------------------------------------------------------


def apply_damage(st: EscapeState, u: Unit, amount: int, ev: list[Event]) -> int:
    """Deal damage (Armor reduces it, to at least 0); takes the unit out at its life gauge. Returns damage dealt."""
    armor = prof(u).skills.get("armor", 0) if has(st, u, "armor") else 0
    dealt = max(0, amount - armor)
    if u.status != "board":
        return 0
    u.damage += dealt
    if armor and amount:
        ev.append(Event(f"{name(u)}'s Armor ({armor}) absorbs {min(armor, amount)}.", kind="armor"))
    if u.damage >= prof(u).life:
        take_out(st, u, ev)
    return dealt


def take_out(st: EscapeState, u: Unit, ev: list[Event]) -> None:
    """Remove a unit from the board: drop what it carried, set off a Nitro vial, Hymn / Internal factory."""
    pos = u.pos
    assert pos is not None
    u.status = "out"
    u.pos = None
    u.out_turn = st.turn
    ev.append(Event(f"{name(u)} is taken out!", kind="taken_out", data={"unit": u.id}))
    nitro = False
    if u.carrying:
        t = st.tokens[u.carrying]
        u.carrying = None
        t.carrier = None
        if t.kind == "equipment" and t.item == "nitro":
            del st.tokens[t.id]
            nitro = True
        else:
            t.pos = pos
            ev.append(Event(f"The {token_label(t)} it carried falls on {cell_name(pos)}.", kind="drop"))
    if u.seat == "resistance":
        st.revolution += 1
        ev.append(
            Event(
                f"Hymn to the revolution: the Resistance gains a Revolution token ({st.revolution}).",
                kind="token",
            )
        )
    else:
        ev.append(
            Event(f"Internal factory: {name(u)} may re-enter from an airlock next turn.", kind="factory")
        )
    if nitro:
        ev.append(
            Event(
                f"{name(u)}'s Nitro vial explodes: 2 damage to everyone around {cell_name(pos)}.",
                kind="nitro",
            )
        )
        for c in ring(st, pos):
            for v in list(st.units.values()):
                if v.status == "board" and v.pos == c:
                    dealt = apply_damage(st, v, 2, ev)
                    ev.append(Event(f"{name(v)} takes {dealt} damage from the blast.", kind="damage"))


def token_label(t: Any) -> str:
    """A token as a player sees it: crate, face-down token, item name or objective value."""
    if t.kind == "crate":
        return "crate"
    if not t.face_up:
        return "face-down token"
    if t.kind == "objective":
        return f"objective ({t.value} point{'s' if t.value > 1 else ''})"
    return str(items()[t.item].name)


# -- frames: resolutions that wait on answers -----------------------------------------------------------


def policy(st: EscapeState, seat: str, kind: str) -> str:
    """A seat's standing answer for a reaction kind."""
    return st.policies.get(seat, {}).get(kind, "ask")


def frame_parent(st: EscapeState) -> dict[str, Any]:
    """The frame below the top one."""
    return st.stack[-2]


def die_standing(st: EscapeState, parent: dict[str, Any], e: dict[str, Any]) -> tuple[int, bool] | None:
    """How the die in entry ``e`` leaves its owner now: (a score, higher is better; whether it wins).

    None for a die with no better or worse face (the random event's). Scores: initiative 2 won, 1 a full
    tie (rolled again), 0 lost; an attack die the damage it deals (before Armor), a dodge die minus the
    damage it lets through; a hack or counter-measure 1 if it wins; the drill 0 broken, 1 nothing, 2 a hole.
    """
    t = parent["t"]
    d = parent["dice"]
    seat = e["seat"]
    if t in ("turn_init", "setup_init"):
        everyone = t == "setup_init" or st.turn <= 1
        mine = d[seat] + int_total(st, seat, everyone=everyone)
        theirs = d[other(seat)] + int_total(st, other(seat), everyone=everyone)
        if mine == theirs:
            if t == "setup_init":
                win = seat == "resistance"
                return int(win) * 2, win
            mi, ti = int_total(st, seat, everyone=everyone), int_total(st, other(seat), everyone=everyone)
            if mi == ti:
                return 1, False
            return (2, True) if mi > ti else (0, False)
        return (2, True) if mine > theirs else (0, False)
    if t == "attack":
        if e["slot"] == "att":
            hurt = {True: 0, False: 0}  # damage to opponents, damage to the attacker's own side
            for tgt in parent["targets"]:
                if st.units[tgt["id"]].status == "board":
                    total = attack_total(st, parent, tgt)
                    hurt[st.units[tgt["id"]].seat != seat] += total if total > 0 else 0
            foes = any(st.units[x["id"]].seat != seat for x in parent["targets"])
            score = hurt[True] - hurt[False]
            return score, (hurt[True] > 0) if foes else hurt[False] == 0
        tgt = next(x for x in parent["targets"] if "def:" + x["id"] == e["slot"])
        total = attack_total(st, parent, tgt)
        return -(total if total > 0 else 0), total <= 0
    if t == "hack":
        ok = hack_success(st, parent)
        win = ok if e["slot"] == "hack" else not ok
        return int(win), win
    if t == "drill":
        die = int(d["drill"])
        return (0 if die == 1 else 1 if die <= 3 else 2), die >= 4
    return None


class Prospects(NamedTuple):
    """What re-rolling a die could do for its owner (see :func:`reroll_prospects`)."""

    winning: bool  # the die already wins its contest
    improve: bool  # some face would leave its owner better off (more damage, less damage taken, a win)
    turn: bool  # some face would turn a losing die into a winning one


def reroll_prospects(st: EscapeState, parent: dict[str, Any], e: dict[str, Any]) -> Prospects | None:
    """Try every face of the die in entry ``e`` (None: a die no face improves or worsens, the event's)."""
    now = die_standing(st, parent, e)
    if now is None:
        return None
    slot = e["slot"]
    kept = parent["dice"][slot]
    improve = turn = False
    try:
        for face in range(1, 7):
            parent["dice"][slot] = face
            score, win = die_standing(st, parent, e) or now
            improve = improve or score > now[0]
            turn = turn or (win and not now[1])
    finally:
        parent["dice"][slot] = kept
    return Prospects(now[1], improve, turn)


def attack_total(st: EscapeState, f: dict[str, Any], tgt: dict[str, Any]) -> int:
    """The Attack total against one target with the dice rolled so far (a dodge not yet rolled counts 0)."""
    a = st.units[f["by"]]
    t = st.units[tgt["id"]]
    att = f["dice"].get("att", 0) + stat(st, a, CBT) + f["power"]
    if tgt["dodge"] in ("cbt", "token", "shield"):
        dstat = stat(st, t, INT) if hypnotised(st, f, t) else stat(st, t, CBT)
        return int(att - (f["dice"].get("def:" + t.id, 0) + dstat))
    return int(att - stat(st, t, CBT))


def hypnotised(st: EscapeState, f: dict[str, Any], t: Unit) -> bool:
    """Whether a dodge against this attack uses Int instead of Cbt.

    Hypnosis *may* force it; the attacker always does when the target's Int is not above its Cbt (an
    Int dodge is then never better for the target, and a Seasoned veteran cannot re-roll it).
    """
    return bool(f["hypnosis"]) and stat(st, t, INT) <= stat(st, t, CBT)


def hack_int(st: EscapeState, u: Unit) -> int:
    """Int used for this unit's Intellect rolls: its own, or an adjacent Leader's if higher."""
    best = stat(st, u, INT)
    for ally in st.units.values():
        if (ally.seat == u.seat and ally.id != u.id and ally.status == "board" and ally.pos and u.pos
                and has(st, ally, "leadership") and in_periphery(ally.pos, u.pos)):  # fmt: skip
            best = max(best, stat(st, ally, INT))
    return best


def hack_success(st: EscapeState, f: dict[str, Any]) -> bool:
    """Whether the hack in frame ``f`` succeeds with the dice rolled so far."""
    h = st.units[f["by"]]
    total = f["dice"].get("hack", 0) + hack_int(st, h)
    if f.get("cm") == "yes":
        t = st.units[f["target"]]
        return bool(total - (f["dice"].get("cm", 0) + hack_int(st, t)) > 0)
    return bool(total >= f["diff"])


def dodge_options(st: EscapeState, f: dict[str, Any], tgt: dict[str, Any]) -> list[str]:
    """How a target may dodge this attack: with a Cbt action, a Revolution token or a shield."""
    t = st.units[tgt["id"]]
    if t.status != "board" or t.id == st.active or in_blackout(st, t.pos):
        return []
    out = []
    if left(st, t, CBT) > 0:
        out.append("cbt")
    elif t.seat == "resistance" and st.revolution > 0:
        out.append("token")
    if t.carrying and not has(st, t, "armless"):
        tok = st.tokens[t.carrying]
        if tok.kind == "equipment" and tok.item == "shield":
            out.append("shield")
    return out


def in_blackout(st: EscapeState, pos: Cell | None) -> bool:
    """Whether a square lies in this turn's Black-out room."""
    return bool(
        st.event == 10 and st.event_room and pos is not None and board(st).cell_room[pos] == st.event_room
    )


def choose_dodge(st: EscapeState, f: dict[str, Any], tgt: dict[str, Any], how: str, ev: list[Event]) -> None:
    """Record a target's dodge answer and pay for it."""
    t = st.units[tgt["id"]]
    tgt["dodge"] = how
    if how == "cbt":
        t.used[CBT] += 1
        ev.append(Event(f"{name(t)} tries to dodge.", kind="dodge"))
    elif how == "token":
        st.revolution -= 1
        ev.append(
            Event(f"{name(t)} spends a Revolution token to dodge ({st.revolution} left).", kind="dodge")
        )
    elif how == "shield":
        assert t.carrying
        del st.tokens[t.carrying]
        t.carrying = None
        ev.append(Event(f"{name(t)} throws away the Improvised shield for a free dodge.", kind="dodge"))
    else:
        ev.append(Event(f"{name(t)} does not dodge.", kind="dodge"))


def push_cells(st: EscapeState, src: Cell, tgt: Cell) -> list[Cell]:
    """The free, reachable squares on the far side of ``tgt`` from ``src`` (Digging arm)."""
    dx = (tgt[0] > src[0]) - (tgt[0] < src[0])
    dy = (tgt[1] > src[1]) - (tgt[1] < src[1])
    if dx and dy:
        cand = [(tgt[0] + dx, tgt[1] + dy), (tgt[0] + dx, tgt[1]), (tgt[0], tgt[1] + dy)]
    elif dx:
        cand = [(tgt[0] + dx, tgt[1] + k) for k in (0, -1, 1)]
    else:
        cand = [(tgt[0] + k, tgt[1] + dy) for k in (0, -1, 1)]
    occ = occupancy(st)
    return [c for c in cand if _on(st, c) and c not in occ and step_open(st, tgt, c)]


def pull_cells(st: EscapeState, puller: Cell, tgt: Cell) -> list[Cell]:
    """Free squares one step from ``tgt`` that lie in the puller's periphery (Attraction)."""
    occ = occupancy(st)
    return sorted(
        (c for c in ring(st, tgt) if in_periphery(puller, c) and c not in occ and step_open(st, tgt, c)),
        key=lambda c: (c[1], c[0]),
    )


def step_frame(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> bool:
    """Advance the top frame. Returns False when it waits on an answer, True when it moved on."""
    t = f["t"]
    if t == "rolls":
        return step_rolls(st, f, ev)
    if t == "setup_init":
        return resolve_setup_init(st, f, ev)
    if t == "turn_init":
        return resolve_turn_init(st, f, ev)
    if t == "event":
        return resolve_event(st, f, ev)
    if t == "attack":
        return step_attack(st, f, ev)
    if t == "hack":
        return step_hack(st, f, ev)
    if t == "drill":
        return resolve_drill(st, f, ev)
    raise AssertionError(f"unknown frame {t}")


def step_rolls(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> bool:
    parent = frame_parent(st)
    while f["i"] < len(f["entries"]):
        e = f["entries"][f["i"]]
        sources = reroll_sources(st, e)
        pol = policy(st, e["seat"], "reroll") if sources else "never"
        if pol != "never":
            # Nobody is asked about, and no token or free re-roll goes on, a die no face can help.
            hope = reroll_prospects(st, parent, e)
            if pol == "ask" and (hope is None or hope.improve):
                return False
            if pol == "auto" and hope is not None and hope.turn:
                do_reroll(st, parent, e, sources[0], ev)
        f["i"] += 1
    st.stack.pop()
    return True


def do_reroll(
    st: EscapeState, parent: dict[str, Any], e: dict[str, Any], source: str, ev: list[Event]
) -> None:
    """Re-roll one die from a Seasoned veteran or a Revolution token."""
    old = parent["dice"][e["slot"]]
    new = st.rng.roll(6)
    parent["dice"][e["slot"]] = new
    e["re"] = True
    if source == "veteran":
        u = st.units[e["unit"]]
        u.veteran_used = True
        why = f"{name(u)}, a Seasoned veteran,"
    else:
        st.revolution -= 1
        why = f"The Resistance spends a Revolution token ({st.revolution} left) and"
    ev.append(Event(f"{why} re-rolls {with_article(str(old))}: {new}.", kind="reroll", dice=(new,)))


def resolve_setup_init(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> bool:
    d = f["dice"]
    st.setup_dice = [d["resistance"], d["isc"]]
    r = d["resistance"] + int_total(st, "resistance", everyone=True)
    i = d["isc"] + int_total(st, "isc", everyone=True)
    st.setup_winner = "resistance" if r >= i else "isc"
    ev.append(Event(setup_initiative_text(st), kind="initiative", dice=(d["resistance"], d["isc"])))
    st.stack.pop()
    enter_setup_phase(st, setup_phase_after(st, "setup"), ev)
    return True


def setup_initiative_text(st: EscapeState) -> str:
    """The setup initiative roll told in one sentence ('' before it is rolled)."""
    if len(st.setup_dice) != 2:
        return ""
    rd, idie = st.setup_dice
    ri, ii = int_total(st, "resistance", everyone=True), int_total(st, "isc", everyone=True)
    r, i = rd + ri, idie + ii
    return (
        f"Setup initiative: Resistance {rd}+{ri}={r}, I.S.C. {idie}+{ii}={i}"
        f"{' (ties go to the Resistance)' if r == i else ''}: the {FACTION_NAMES[st.setup_winner]} places first."
    )


def setup_untouched(st: EscapeState) -> bool:
    """Whether the setup has not begun yet: nothing placed or deployed (its first command is to come)."""
    return (
        st.phase in ("crates", "objectives", "equipment", "deploy")
        and not st.tokens
        and all(u.status == "reserve" for u in st.units.values())
    )


def resolve_turn_init(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> bool:
    d = f["dice"]
    everyone = st.turn == 1
    ri, ii = int_total(st, "resistance", everyone=everyone), int_total(st, "isc", everyone=everyone)
    r, i = d["resistance"] + ri, d["isc"] + ii
    text = f"Initiative: Resistance {d['resistance']}+{ri}={r}, I.S.C. {d['isc']}+{ii}={i}"
    st.stack.pop()
    if r != i:
        st.initiative = "resistance" if r > i else "isc"
    elif ri != ii:
        st.initiative = "resistance" if ri > ii else "isc"
        text += " (tie: the higher Int total wins)"
    else:
        ev.append(
            Event(text + ": a full tie, roll again.", kind="initiative", dice=(d["resistance"], d["isc"]))
        )
        push_rolls(
            st,
            {"t": "turn_init", "dice": {}},
            [("resistance", "", "resistance", False), ("isc", "", "isc", False)],
        )
        return True
    ev.append(Event(f"{text}: the {FACTION_NAMES[st.initiative]} has the initiative.", kind="initiative",
                    dice=(d["resistance"], d["isc"])))  # fmt: skip
    push_rolls(
        st, {"t": "event", "dice": {}}, [("resistance", "", "resistance", False), ("isc", "", "isc", False)]
    )
    return True


def resolve_event(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> bool:
    d = f["dice"]
    n = d["resistance"] + d["isc"]
    st.stack.pop()
    st.event = n
    ev.append(Event(f"Random event {d['resistance']}+{d['isc']}={n}: {EVENTS[n]}.", kind="event",
                    dice=(d["resistance"], d["isc"])))  # fmt: skip
    if n == 4:
        # The access squares of the secured airlock doors are next to a door too.
        airlocks = {c for cells in board(st).airlocks.values() for c in cells}
        for u in list(st.units.values()):
            if (
                u.seat == "resistance"
                and u.status == "board"
                and u.pos
                and (
                    u.pos in airlocks
                    or any(
                        edge_key(u.pos, (u.pos[0] + dx, u.pos[1] + dy)) in st.doors for dx, dy in ORTHOGONAL
                    )
                )
            ):
                dealt = apply_damage(st, u, 2, ev)
                ev.append(Event(f"{name(u)} gets a jolt: {dealt} damage.", kind="damage"))
    if n == 11:
        st.initiative = "resistance"
        st.double_activation = True
    st.phase = "event_choice" if has_event_choice(st) else "first"
    return True


def has_event_choice(st: EscapeState) -> bool:
    """Whether :func:`event_choices` would offer anything, without listing every choice."""
    if st.phase not in ("event_choice", "turn") or st.event not in (3, 9, 10):
        return False
    if st.event == 3:
        occ = occupancy(st)
        return any(u.seat == "isc" and u.status == "board" for u in st.units.values()) and any(
            c not in occ for c in board(st).cell_room
        )
    if st.event == 9:
        return bool(st.doors)
    return bool(board(st).rooms)


def event_choices(st: EscapeState) -> list[Command]:
    """The choices the current random event asks for (empty if none, or none possible)."""
    b = board(st)
    if st.phase not in ("event_choice", "turn") or st.event not in (3, 9, 10):
        return []
    if st.event == 3:
        isc, free = relocate_choices(st)
        return [relocate_command(u, c) for u in isc for c in free]
    if st.event == 9:
        return [
            Command("switch", (edge_name(*k),), f"{'Close' if d.open else 'Open'} the door {edge_name(*k)}")
            for k, d in sorted(st.doors.items())
        ]
    return [Command("blackout", (room_slug(st, r),), f"Black-out in the {room_name(st, r)}") for r in b.rooms]


def relocate_choices(st: EscapeState) -> tuple[list[Unit], list[Cell]]:
    """Random event 3: the I.S.C. characters on the board, and the free squares in reading order."""
    occ = occupancy(st)
    free = [c for c in _reading_order(board(st)) if c not in occ]
    return [u for u in st.units.values() if u.seat == "isc" and u.status == "board"], free


def relocate_command(u: Unit, c: Cell) -> Command:
    """Random event 3's command moving ``u`` to ``c`` (as listed by :func:`event_choices`)."""
    return Command("relocate", (u.id, cell_name(c)), f"Move {name(u)} to {cell_name(c)}")


def step_attack(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> bool:
    stage = f["stage"]
    if stage in ("declare", "late"):
        for tgt in f["targets"]:
            if tgt["dodge"] is not None or tgt["late"] != (stage == "late"):
                continue
            opts = dodge_options(st, f, tgt)
            if not opts:
                tgt["dodge"] = "no"
                continue
            pol = policy(st, st.units[tgt["id"]].seat, "dodge")
            if pol == "ask":
                f["asking"] = tgt["id"]
                return False
            choose_dodge(st, f, tgt, opts[0] if pol == "always" else "no", ev)
        f["asking"] = ""
        att = [("att", f["by"], st.units[f["by"]].seat, True)]
        dodges = [("def:" + x["id"], x["id"], st.units[x["id"]].seat, not hypnotised(st, f, st.units[x["id"]]))
                  for x in f["targets"] if x["dodge"] in ("cbt", "token", "shield")]  # fmt: skip
        if stage == "declare" and any(x["late"] and x["dodge"] is None for x in f["targets"]):
            # An Elusive target decides after seeing the attack die, so that die is rolled alone first.
            f["stage"] = "late"
            push_rolls(st, f, att)
        else:
            # Otherwise both sides' dice are rolled together, so re-roll choices see the whole contest.
            entries = (att if stage == "declare" else []) + dodges
            f["stage"] = "resolve"
            if entries:
                push_rolls(st, f, entries)
        return True
    if stage == "resolve":
        resolve_attack(st, f, ev)
        return True
    if stage == "push":
        f["asking"] = f["by"]
        return False
    raise AssertionError(stage)


def resolve_attack(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> None:
    a = st.units[f["by"]]
    f["stage"] = "done"
    verb = {"melee": "attacks", "ranged": "shoots", "crate": "throws a crate at", "grenade": "catches"}[
        f["kind"]
    ]
    # A thrower caught in its own blast is resolved last, so a penalty it takes (EM grenade: Cbt -1)
    # cannot lower the attack on the others.
    for tgt in sorted(f["targets"], key=lambda x: x["id"] == f["by"]):
        t = st.units[tgt["id"]]
        if t.status != "board":
            continue
        total = attack_total(st, f, tgt)
        ad = f["dice"]["att"]
        att = f"{ad}+{stat(st, a, CBT)}" + (f"+{f['power']}" if f["power"] else "")
        if tgt["dodge"] in ("cbt", "token", "shield"):
            dd = f["dice"]["def:" + t.id]
            hyp = hypnotised(st, f, t)
            dstat = stat(st, t, INT) if hyp else stat(st, t, CBT)
            vs = f"{dd}+{dstat} (dodge{', Int under Hypnosis' if hyp else ''})"
            dice: tuple[int, ...] = (ad, dd)
        else:
            vs = f"{stat(st, t, CBT)}"
            dice = (ad,)
        subject = f"{name(a)}'s {f['weapon']}" if f["kind"] == "grenade" else name(a)
        head = f"{subject} {verb} {name(t)}: {att} vs {vs}"
        if total <= 0:
            ev.append(Event(f"{head} → {total}, no damage.", kind="attack", dice=dice))
            continue
        dealt = apply_damage_quiet(st, t, total)
        ev.append(Event(f"{head} → {dealt} damage" + (f" ({total} before Armor)" if dealt != total else "") + ".",
                        kind="attack", dice=dice))  # fmt: skip
        after_damage(st, f, a, t, total, dealt, ev)
    if f["stage"] != "push":
        st.stack.pop()


def apply_damage_quiet(st: EscapeState, u: Unit, amount: int) -> int:
    """Damage after Armor, added to the unit (taking out is handled by :func:`check_taken_out`)."""
    armor = prof(u).skills.get("armor", 0) if has(st, u, "armor") else 0
    dealt = max(0, amount - armor)
    u.damage += dealt
    return dealt


def after_damage(
    st: EscapeState, f: dict[str, Any], a: Unit, t: Unit, total: int, dealt: int, ev: list[Event]
) -> None:
    """Effects of a hit: penalties from crates, grenades and the bludgeon, taken out, Digging arm's push."""
    if dealt >= 1:
        if f["kind"] == "crate":
            t.mods[MVT] -= 2
            ev.append(Event(f"The crate staggers {name(t)}: Mvt -2 this turn.", kind="effect"))
        elif f["kind"] == "grenade" and f["item"] == "em":
            t.mods[CBT] -= 1
            ev.append(Event(f"{name(t)} is stunned by the EM pulse: Cbt -1 this turn.", kind="effect"))
        elif f["kind"] == "grenade" and f["item"] == "gas":
            t.mods[MVT] -= 1
            ev.append(Event(f"{name(t)} chokes on the gas: Mvt -1 this turn.", kind="effect"))
        elif f["kind"] == "melee" and has(st, a, "electric_bludgeon"):
            t.mods = [m - 1 for m in t.mods]
            ev.append(
                Event(f"The Electric bludgeon jolts {name(t)}: Mvt, Cbt and Int -1 this turn.", kind="effect")
            )
    if t.damage >= prof(t).life:
        take_out(st, t, ev)
        return
    if f["kind"] == "melee" and has(st, a, "digging_arm") and a.pos and t.pos:
        cells = push_cells(st, a.pos, t.pos)
        if cells:
            f["stage"] = "push"
            f["push"] = t.id
            f["cells"] = [cell_name(c) for c in cells]


def step_hack(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> bool:
    stage = f["stage"]
    h = st.units[f["by"]]
    if stage == "declare":
        if f["kind"] == "unit" and f["cm"] is None:
            t = st.units[f["target"]]
            if t.status == "board" and left(st, t, INT) > 0:
                pol = policy(st, t.seat, "countermeasure")
                if pol == "ask":
                    f["asking"] = t.id
                    return False
                choose_cm(st, f, pol == "always", ev)
            else:
                f["cm"] = "no"
        f["asking"] = ""
        f["stage"] = "resolve"
        entries = [("hack", h.id, h.seat, False)]
        if f.get("cm") == "yes":
            t = st.units[f["target"]]
            entries.append(("cm", t.id, t.seat, False))
        push_rolls(st, f, entries)
        return True
    if stage == "resolve":
        d = f["dice"]
        ok = hack_success(st, f)
        hi = hack_int(st, h)
        if f["kind"] == "door":
            door = st.doors[frame_edge(f)]
            ev.append(Event(
                f"{name(h)} hacks the locked door {f['target']}: {d['hack']}+{hi}={d['hack'] + hi} vs difficulty "
                f"{f['diff']} → {'success, it opens' if ok else 'failure'}.", kind="hack", dice=(d["hack"],)))  # fmt: skip
            if ok:
                door.open = True
                if f.get("otaku"):
                    door.locked = False
            st.stack.pop()
            return True
        t = st.units[f["target"]]
        ti = hack_int(st, t)
        vs = f"{d['cm']}+{ti} (counter-measure)" if f.get("cm") == "yes" else f"Int {t_int(st, t)}"
        dice = (d["hack"], d["cm"]) if f.get("cm") == "yes" else (d["hack"],)
        ev.append(Event(f"{name(h)} uses Attraction on {name(t)}: {d['hack']}+{hi} vs {vs} → "
                        f"{'success' if ok else 'failure'}.", kind="hack", dice=dice))  # fmt: skip
        if ok and t.status == "board" and t.pos and h.pos:
            cells = pull_cells(st, h.pos, t.pos)
            if cells:
                f["stage"] = "pull"
                f["cells"] = [cell_name(c) for c in cells]
                return True
            ev.append(
                Event(
                    f"No free square next to {name(h)} can be reached: Attraction has no effect.", kind="hack"
                )
            )
        st.stack.pop()
        return True
    if stage == "pull":
        f["asking"] = f["by"]
        return False
    raise AssertionError(stage)


def frame_edge(f: dict[str, Any]) -> EdgeKey:
    """The edge a hack or drill frame is about."""
    (ax, ay), (bx, by) = f["edge"]
    return (int(ax), int(ay)), (int(bx), int(by))


def t_int(st: EscapeState, t: Unit) -> int:
    """The Int a hack on this character must equal or beat."""
    return stat(st, t, INT)


def choose_cm(st: EscapeState, f: dict[str, Any], yes: bool, ev: list[Event]) -> None:
    """Record a counter-measure answer and pay its Intellect action."""
    t = st.units[f["target"]]
    f["cm"] = "yes" if yes else "no"
    if yes:
        t.used[INT] += 1
        ev.append(Event(f"{name(t)} attempts a counter-measure.", kind="countermeasure"))
    else:
        ev.append(Event(f"{name(t)} does not attempt a counter-measure.", kind="countermeasure"))


def resolve_drill(st: EscapeState, f: dict[str, Any], ev: list[Event]) -> bool:
    u = st.units[f["by"]]
    die = f["dice"]["drill"]
    k = frame_edge(f)
    label = f["target"]
    if die == 1:
        u.drill_broken = True
        text = "the drill breaks down for good"
    elif die <= 3:
        text = "the wall holds"
    else:
        st.destroyed.append(k)
        u.drilled = True
        text = "the wall is destroyed"
    ev.append(Event(f"{name(u)} drills the wall {label}: {die} → {text}.", kind="drill", dice=(die,)))
    st.stack.pop()
    return True


# -- awaiting ---------------------------------------------------------------------------------------------


def waiting(st: EscapeState) -> tuple[str, str, str] | None:
    """Who must answer now: (seat, mode, unit id or ''), or None when the game is over."""
    if st.result is not None:
        return None
    if st.stack:
        f = st.stack[-1]
        if f["t"] == "rolls":
            e = f["entries"][f["i"]]
            return e["seat"], "reroll", e["unit"]
        if f["t"] == "attack":
            if f["stage"] == "push":
                return st.units[f["by"]].seat, "push", f["by"]
            return st.units[f["asking"]].seat, "dodge", f["asking"]
        if f["t"] == "hack":
            if f["stage"] == "pull":
                return st.units[f["by"]].seat, "pull", f["by"]
            return st.units[f["asking"]].seat, "countermeasure", f["asking"]
        raise AssertionError(f["t"])
    if st.phase in ("crates", "objectives", "equipment", "deploy"):
        return st.placer, st.phase, ""
    if st.phase == "event_choice":
        return ("isc" if st.event == 3 else "resistance"), "event", ""
    if st.phase == "first":
        return st.initiative, "first", ""
    if st.phase == "activation":
        return st.next_side, "activation", st.active
    raise AssertionError(st.phase)


def advance(st: EscapeState, ev: list[Event]) -> None:
    """Run frames and phase changes until an answer is needed or the game ends."""
    for _ in range(10_000):
        if st.result is not None:
            return
        if st.stack:
            if not step_frame(st, st.stack[-1], ev):
                return
            continue
        if st.phase == "first":
            sides = [s for s in (st.initiative, other(st.initiative)) if side_can_activate(st, s)]
            if len(sides) == 2:
                return
            st.phase = "activation"
            if not sides:
                end_turn(st, ev)
                continue
            st.next_side = sides[0]
            continue
        if st.phase == "activation":
            if st.active:
                u = st.units[st.active]
                if u.status in ("out", "escaped"):
                    end_activation(st, ev)
                    continue
                return
            if st.forced_next and not activatable(st, st.units[st.forced_next]):
                st.forced_next = ""
            if not (side_can_activate(st, "resistance") or side_can_activate(st, "isc")):
                end_turn(st, ev)
                continue
            if not side_can_activate(st, st.next_side):
                st.next_side = other(st.next_side)
            return
        return
    raise AssertionError("advance did not settle")
