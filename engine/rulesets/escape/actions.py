"""ESCAPE commands: checking (never mutates), playing (trusts a checked command), listing and sampling.

Grammar (unit = character id or name, sq = square like c4, edge = two squares like c4|c5):
setup ``crate sq``, ``objective sq``, ``equipment sq``, ``deploy unit sq``; turn ``first resistance|isc``,
``relocate unit sq``, ``switch edge``, ``blackout room``; activation ``activate unit``, ``enter unit sq``,
``move unit sq``, ``open unit edge``, ``close unit edge``, ``drop unit sq``, ``give unit ally``,
``leave unit``, ``take unit token``, ``reveal unit token``, ``attack unit target``, ``shoot unit target``,
``throw unit target``, ``grenade unit sq``, ``hack unit edge|target``, ``drill unit edge``, ``medkit unit``,
``datadisk unit mvt|cbt|int``, ``drugs unit``, ``token move|combat unit``, ``radio unit ally``, ``end``;
answers ``dodge [token|shield]``, ``no-dodge``, ``countermeasure``, ``no-countermeasure``, ``reroll``,
``keep``, ``push sq``, ``no-push``, ``pull sq``; any time ``react dodge|countermeasure|reroll POLICY``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Command, Event
from engine.errors import IllegalCommand, NotYourTurn, RuleError, UnknownCommand
from engine.geometry.square import Cell, cell_name, chebyshev, edge_name, in_periphery, is_adjacent
from engine.grammar import with_article
from engine.ruleset import Chooser
from engine.rulesets.escape import rules as R
from engine.rulesets.escape.board import EdgeKind
from engine.rulesets.escape.content import CRATE_POWER, CRATE_RANGE, FACTION_NAMES, items
from engine.rulesets.escape.state import CBT, INT, MVT, EscapeState, Unit

UNIT_VERBS = (
    "activate", "enter", "move", "open", "close", "drop", "give", "leave", "take", "reveal", "attack", "shoot",
    "throw", "grenade", "hack", "drill", "medkit", "datadisk", "drugs", "radio",
)  # fmt: skip
ALL_VERBS = UNIT_VERBS + (
    "crate", "objective", "equipment", "deploy", "first", "relocate", "switch", "blackout", "token", "end", "pass",
    "dodge", "no-dodge", "countermeasure", "no-countermeasure", "reroll", "keep", "push", "no-push", "pull", "react",
)  # fmt: skip

Checker = Callable[[EscapeState, str, list[str]], Command]


def _args(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise IllegalCommand(f"Usage: {usage}")


def whose_turn_text(st: EscapeState) -> str:
    """A sentence saying who must act now."""
    w = R.waiting(st)
    if w is None:
        return "The game is over."
    seat, mode, unit = w
    who = FACTION_NAMES[seat]
    if mode == "activation":
        if unit:
            return f"It is the {who}'s activation ({R.name(st.units[unit])} is active)."
        return f"It is the {who}'s turn to activate a character."
    if mode == "dodge":
        return f"The {who} must decide whether {R.name(st.units[unit])} dodges."
    if mode == "countermeasure":
        return f"The {who} must decide whether {R.name(st.units[unit])} attempts a counter-measure."
    if mode == "reroll":
        return f"The {who} may re-roll a die first."
    return f"The {who} must answer first ({mode})."


# -- check ---------------------------------------------------------------------------------------------


def check(st: EscapeState, seat: str, text: str) -> Command:
    """Parse and check ``text`` for ``seat``. Raises a RuleError naming the rule; never mutates."""
    words = text.strip().lower().split()
    if not words:
        raise UnknownCommand("Type a command, for example 'move ashton c5' or 'end'.")
    verb, args = words[0], words[1:]
    if verb not in ALL_VERBS:
        raise UnknownCommand(
            f"'{words[0]}' is not an ESCAPE command. Commands: {', '.join(sorted(ALL_VERBS))}."
        )
    if verb == "react":
        return check_react(args)
    w = R.waiting(st)
    if w is None:
        raise NotYourTurn("The game is over.")
    wseat, mode, unit = w
    if wseat != seat:
        raise NotYourTurn(f"Not your turn: {whose_turn_text(st)}")
    handler = MODE_CHECKS[mode]
    return handler(st, seat, [verb, *args])


def check_react(args: list[str]) -> Command:
    if len(args) != 2 or args[0] not in R.POLICY_KINDS or args[1] not in R.POLICY_KINDS[args[0]]:
        opts = "; ".join(f"react {k} {'|'.join(v)}" for k, v in R.POLICY_KINDS.items())
        raise IllegalCommand(f"Standing answers are set with: {opts}.")
    return Command("react", (args[0], args[1]), f"Always answer {args[0]} with '{args[1]}'")


def check_reroll(st: EscapeState, seat: str, words: list[str]) -> Command:
    if words == ["reroll"]:
        return Command("reroll", (), "Re-roll this die")
    if words == ["keep"]:
        return Command("keep", (), "Keep this die")
    raise IllegalCommand("A die was just rolled: answer 'reroll' or 'keep'.")


def check_dodge(st: EscapeState, seat: str, words: list[str]) -> Command:
    f = st.stack[-1]
    tgt = next(x for x in f["targets"] if x["id"] == f["asking"])
    opts = R.dodge_options(st, f, tgt)
    u = R.name(st.units[tgt["id"]])
    if words == ["no-dodge"]:
        return Command("no-dodge", (), f"{u} does not dodge")
    if words[0] == "dodge" and len(words) <= 2:
        how = {"dodge": "cbt", "token": "token", "shield": "shield"}.get(words[-1])
        if how is None or (len(words) == 1 and how != "cbt"):
            raise IllegalCommand("Answer 'dodge', 'dodge token', 'dodge shield' or 'no-dodge'.")
        if how not in opts:
            if how == "cbt":
                raise IllegalCommand(f"{u} has no Combat actions left this turn to dodge with.")
            if how == "token":
                raise IllegalCommand(
                    "Only a Resistance character with no Combat action left may dodge with a Revolution token, and one must be available."
                )
            raise IllegalCommand(f"{u} carries no Improvised shield.")
        label = {"cbt": f"{u} dodges (1 Combat action)", "token": f"{u} dodges with a Revolution token",
                 "shield": f"{u} discards the shield for a free dodge"}[how]  # fmt: skip
        return Command("dodge", () if how == "cbt" else (how,), label)
    raise IllegalCommand("An attack is coming: answer 'dodge', 'dodge token', 'dodge shield' or 'no-dodge'.")


def check_cm(st: EscapeState, seat: str, words: list[str]) -> Command:
    u = R.name(st.units[st.stack[-1]["asking"]])
    if words == ["countermeasure"]:
        return Command("countermeasure", (), f"{u} attempts a counter-measure (1 Intellect action)")
    if words == ["no-countermeasure"]:
        return Command("no-countermeasure", (), f"{u} lets the hack roll")
    raise IllegalCommand("A hack is coming: answer 'countermeasure' or 'no-countermeasure'.")


def check_push(st: EscapeState, seat: str, words: list[str]) -> Command:
    f = st.stack[-1]
    if words == ["no-push"]:
        return Command("no-push", (), "Do not push")
    if words[0] == "push" and len(words) == 2:
        c = cell_name(R.cell_arg(st, words[1]))
        if c not in f["cells"]:
            raise IllegalCommand(
                f"Digging arm pushes to a free square on the far side: {', '.join(f['cells'])}."
            )
        return Command("push", (c,), f"Push {R.name(st.units[f['push']])} to {c}")
    raise IllegalCommand(f"Digging arm: answer 'push <square>' ({', '.join(f['cells'])}) or 'no-push'.")


def check_pull(st: EscapeState, seat: str, words: list[str]) -> Command:
    f = st.stack[-1]
    if words[0] == "pull" and len(words) == 2:
        c = cell_name(R.cell_arg(st, words[1]))
        if c not in f["cells"]:
            raise IllegalCommand(
                f"Attraction pulls the target to a free square next to the puller: {', '.join(f['cells'])}."
            )
        return Command("pull", (c,), f"Pull {R.name(st.units[f['target']])} to {c}")
    raise IllegalCommand(f"Attraction worked: answer 'pull <square>' ({', '.join(f['cells'])}).")


def check_place(st: EscapeState, seat: str, words: list[str]) -> Command:
    kind = {"crates": "crate", "objectives": "objective", "equipment": "equipment"}[st.phase]
    if words[0] != kind or len(words) != 2:
        raise IllegalCommand(f"Setup: place {with_article(kind)} token with '{kind} <square>' in a room.")
    c = R.cell_arg(st, words[1])
    b = R.board(st)
    letter = b.room_of(c)
    if letter is None:
        raise IllegalCommand(f"{cell_name(c)} is in a corridor; tokens are placed in rooms.")
    limit = 2 if kind == "equipment" else 1
    if R.room_token_count(st, letter, kind) >= limit:
        raise IllegalCommand(
            f"The {b.room_names[letter]} already holds {limit} {kind} token{'s' if limit > 1 else ''}, the most a room may have."
        )
    return Command(
        kind, (cell_name(c),), f"Place {with_article(kind)} in the {b.room_names[letter]} ({cell_name(c)})"
    )


def check_deploy(st: EscapeState, seat: str, words: list[str]) -> Command:
    if words[0] != "deploy" or len(words) != 3:
        raise IllegalCommand("Setup: place a character with 'deploy <character> <square>'.")
    u = R.find_unit(st, words[1], seat=seat)
    if u.status != "reserve":
        raise IllegalCommand(f"{R.name(u)} is already on the board.")
    c = R.cell_arg(st, words[2])
    room = R.scen(st).deploy[seat]["room"]
    if R.board(st).cell_room[c] != room:
        raise IllegalCommand(
            f"Position deployment: the {FACTION_NAMES[seat]} deploys in the {R.room_name(st, room)}."
        )
    if c in R.occupancy(st):
        raise IllegalCommand(f"{cell_name(c)} is occupied.")
    return Command("deploy", (u.id, cell_name(c)), f"Deploy {R.name(u)} on {cell_name(c)}")


def check_event(st: EscapeState, seat: str, words: list[str]) -> Command:
    verb = {3: "relocate", 9: "switch", 10: "blackout"}[st.event]
    if words[0] != verb:
        raise IllegalCommand(f"Random event {st.event} first: {R.EVENTS[st.event]} (use '{verb} ...').")
    if verb == "relocate":
        _args(words, 3, "relocate <I.S.C. character> <square>")
        u = R.find_unit(st, words[1], seat="isc")
        if u.status != "board":
            raise IllegalCommand(f"{R.name(u)} is not on the board.")
        c = R.cell_arg(st, words[2])
        if c in R.occupancy(st):
            raise IllegalCommand(f"{cell_name(c)} is occupied; the Celestial Order moves to a free square.")
        return Command("relocate", (u.id, cell_name(c)), f"Move {R.name(u)} to {cell_name(c)}")
    if verb == "switch":
        _args(words, 2, "switch <door edge, like c4|c5>")
        try:
            k = R.edge_arg(st, words[1])
        except IllegalCommand as exc:
            raise IllegalCommand(
                f"{exc} Short circuit switches a door written as the two squares it separates, like g2|h2; "
                "the secured airlocks are not switched (they have no open or closed state)."
            ) from exc
        if k not in st.doors:
            raise IllegalCommand(f"There is no door on {edge_name(*k)}.")
        return Command(
            "switch", (edge_name(*k),), f"{'Close' if st.doors[k].open else 'Open'} the door {edge_name(*k)}"
        )
    _args(words, 2, "blackout <room>")
    letter = R.room_arg(st, words[1])
    return Command("blackout", (R.room_slug(st, letter),), f"Black-out in the {R.room_name(st, letter)}")


def check_first(st: EscapeState, seat: str, words: list[str]) -> Command:
    if words[0] != "first" or len(words) != 2 or words[1] not in R.SEATS:
        raise IllegalCommand(
            "You won the initiative: choose who activates first with 'first resistance' or 'first isc'."
        )
    return Command("first", (words[1],), f"The {FACTION_NAMES[words[1]]} activates first")


def active_unit(st: EscapeState, seat: str, ref: str) -> Unit:
    """The unit a command names, which must be (or become) the active character. Raises RuleError."""
    u = R.find_unit(st, ref, seat=seat)
    if st.active:
        if u.id != st.active:
            raise IllegalCommand(
                f"{R.name(st.units[st.active])} is the active character; end its activation ('end') before activating another."
            )
        return u
    if st.forced_next and u.id != st.forced_next:
        raise IllegalCommand(f"The Radio calls {R.name(st.units[st.forced_next])} to activate now.")
    if u.activated:
        raise IllegalCommand(
            f"{R.name(u)} has already been activated this turn; each character activates once per turn."
        )
    if u.status == "escaped":
        raise IllegalCommand(f"{R.name(u)} has left the board.")
    if u.status == "out" and not (u.seat == "isc" and u.out_turn < st.turn):
        raise IllegalCommand(
            f"{R.name(u)} has been taken out" + (" and can re-enter next turn." if u.seat == "isc" else ".")
        )
    if not R.activatable(st, u):
        raise IllegalCommand(f"{R.name(u)} cannot be activated now: no free access square to enter by.")
    return u


def on_board(u: Unit) -> Cell:
    """The unit's square. Raises IllegalCommand if it has not entered the board."""
    if u.status != "board" or u.pos is None:
        raise IllegalCommand(f"{R.name(u)} must first enter the board ('enter {u.id} <square>').")
    return u.pos


def enemy(st: EscapeState, u: Unit, ref: str) -> Unit:
    """An opposing unit on the board. Raises IllegalCommand."""
    t = R.find_unit(st, ref, seat=R.other(u.seat), what="opposing character")
    if t.status != "board" or t.pos is None:
        raise IllegalCommand(f"{R.name(t)} is not on the board.")
    return t


def combat_checks(st: EscapeState, u: Unit, t: Unit) -> None:
    """Checks every attack shares: Combat actions, Black-out, Scrambler. Raises IllegalCommand."""
    R.require(st, u, CBT)
    if R.in_blackout(st, u.pos) or R.in_blackout(st, t.pos):
        raise IllegalCommand(
            f"Black-out: no Combat action can be made in the {R.room_name(st, st.event_room)} this turn."
        )
    if scrambled(st, t):
        raise IllegalCommand(
            f"{R.name(t)} stands next to an allied Scrambler and cannot be targeted by Combat actions."
        )


def scrambled(st: EscapeState, t: Unit) -> bool:
    """Whether an allied Scrambler on an adjacent square protects this unit."""
    return any(
        s.seat == t.seat and s.id != t.id and s.status == "board" and s.pos and t.pos
        and is_adjacent(s.pos, t.pos) and R.has(st, s, "scrambler")
        for s in st.units.values()
    )  # fmt: skip


def carried(st: EscapeState, u: Unit, item: str) -> bool:
    """Whether the unit carries a usable (face-up) item of this kind."""
    if not u.carrying:
        return False
    t = st.tokens[u.carrying]
    return t.kind == "equipment" and t.item == item


def item_usable(st: EscapeState, u: Unit, item: str) -> None:
    """Raise IllegalCommand unless the unit carries this item and may use it."""
    it = items()[item]
    if not carried(st, u, item):
        raise IllegalCommand(f"{R.name(u)} does not carry {with_article(it.name)}.")
    if R.has(st, u, "armless"):
        raise IllegalCommand(f"{R.name(u)} is Armless and cannot use equipment.")
    if it.faction and it.faction != u.seat:
        raise IllegalCommand(f"The {it.name} can only be used by the {FACTION_NAMES[it.faction]}.")


def check_activation(st: EscapeState, seat: str, words: list[str]) -> Command:
    verb, args = words[0], words[1:]
    if verb == "end":
        _args(args, 0, "end")
        if not st.active:
            raise IllegalCommand(
                "No character is active; activate one first (any action does it, or 'activate <character>')."
            )
        u = st.units[st.active]
        if sharing(st, u):
            raise IllegalCommand(f"Firewall: {R.name(u)} cannot end its activation on an occupied square.")
        return Command("end", (), f"End {R.name(u)}'s activation")
    if verb == "pass":
        _args(args, 0, "pass")
        if st.active or not st.may_pass or seat != "resistance":
            raise IllegalCommand(
                "'pass' only declines the second Resistance activation in a row that Interference (event 11) allows."
            )
        return Command("pass", (), "Let the I.S.C. activate now instead of a second Resistance character")
    if verb == "token":
        if len(args) != 2 or args[0] not in ("move", "combat"):
            raise IllegalCommand("Usage: token move|combat <character>")
        u = active_unit(st, seat, args[1])
        if seat != "resistance":
            raise IllegalCommand("Only the Resistance has Revolution tokens.")
        if st.revolution < 1:
            raise IllegalCommand(
                "The Resistance has no Revolution token (one is gained each time a Resistance character is taken out)."
            )
        return Command(
            "token",
            (args[0], u.id),
            f"Spend a Revolution token: +1 {'Movement' if args[0] == 'move' else 'Combat'} action for {R.name(u)}",
        )
    if verb not in UNIT_VERBS:
        raise IllegalCommand(f"It is an activation: '{verb}' is not an action. {whose_turn_text(st)}")
    if not args:
        raise IllegalCommand(f"Name the character: '{verb} <character> ...'.")
    u = active_unit(st, seat, args[0])
    return ACTION_CHECKS[verb](st, u, args[1:])


def not_sharing(st: EscapeState, u: Unit) -> None:
    """Raise IllegalCommand while the unit passes through an occupied square (Firewall)."""
    if sharing(st, u):
        raise IllegalCommand(
            f"Firewall: {R.name(u)} must first step off the occupied square it passes through."
        )


def sharing(st: EscapeState, u: Unit) -> bool:
    """Whether another character stands on this unit's square (only possible under Firewall)."""
    if u.status != "board":
        return False
    pos, uid = u.pos, u.id
    for v in st.units.values():  # noqa: SIM110 (a plain loop: this runs for every listed command)
        if v.pos == pos and v.id != uid and v.status == "board":
            return True
    return False


def a_activate(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 0, "activate <character>")
    if st.active:
        raise IllegalCommand(f"{R.name(u)} is already active.")
    return Command("activate", (u.id,), f"Activate {R.name(u)}")


def a_enter(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "enter <character> <access square>")
    c = R.cell_arg(st, args[0])
    if u.status == "board":
        raise IllegalCommand(f"{R.name(u)} is already on the board.")
    cells = R.entry_cells(st, u)
    if c not in cells:
        raise IllegalCommand(
            f"{R.name(u)} can enter only by a free access square of a usable airlock: {', '.join(cell_name(x) for x in cells) or 'none now'}."
        )
    R.require(st, u, MVT)
    return Command("enter", (u.id, cell_name(c)), f"{R.name(u)} enters on {cell_name(c)}")


def a_move(st: EscapeState, u: Unit, args: list[str]) -> Command:
    if len(args) != 1:
        raise IllegalCommand("Usage: move <character> <square>")
    pos = u.pos if u.status == "board" and u.pos is not None else on_board(u)
    c = R.cell_arg(st, args[0])
    skills = R.prof(u).skills
    skills_on = not (st.event == 12 and u.seat == "isc")  # as in R.has
    agf = skills_on and "anti_gravity" in skills
    dx, dy = c[0] - pos[0], c[1] - pos[1]
    if not (abs(dx) + abs(dy) == 1 or (agf and c != pos and -1 <= dx <= 1 and -1 <= dy <= 1)):
        reach = (
            "one of the 8 squares around it (Anti-gravity field)"
            if agf
            else "a square sharing a side with its own"
        )
        raise IllegalCommand(f"A Movement action goes to {reach}; {cell_name(c)} is not.")
    burrow = skills_on and "burrowing" in skills
    if dx and dy:
        passable = R.step_open(st, pos, c, burrow=burrow)
    else:
        passable = burrow or not R.edge_blocks(st, pos, c)  # R.step_open for a side step
    if not passable:
        raise IllegalCommand(f"A wall or a closed door stands between {cell_name(pos)} and {cell_name(c)}.")
    R.require(st, u, MVT)
    occupant = None
    for v in st.units.values():
        if v.pos == c and v.status == "board":
            occupant = v
            break
    if occupant is not None:
        if not (st.event == 8 and u.seat == "resistance"):
            raise IllegalCommand(
                f"{cell_name(c)} is occupied by {R.name(occupant)}; characters move to free squares."
            )
        if R.left(st, u, MVT) + (R.left(st, p, MVT) if (p := R.pilot_for(st, u)) else 0) < 2:
            raise IllegalCommand(
                "Firewall: moving through an occupied square needs a Movement action left to step off it."
            )
        taken = R.occupancy(st)
        exits = [
            n
            for n in R.ring(st, c)
            if (agf or is_adjacent(c, n))
            and (n not in taken or (n == pos and not sharing(st, u)))
            and R.step_open(st, c, n, burrow=burrow)
        ]
        if not exits:
            raise IllegalCommand(f"Firewall: {cell_name(c)} has no free square to step off to.")
    to = cell_name(c)
    return Command("move", (u.id, to), f"{R.name(u)} moves to {to}")


def door_edge(st: EscapeState, u: Unit, text: str) -> tuple[Any, Any]:
    pos = on_board(u)
    k = R.edge_arg(st, text)
    if k not in st.doors:
        raise IllegalCommand(f"There is no door on {edge_name(*k)}.")
    if pos not in k:
        raise IllegalCommand(
            f"{R.name(u)} must stand next to the door {edge_name(*k)} (on {cell_name(k[0])} or {cell_name(k[1])})."
        )
    return k, st.doors[k]


def a_open(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "open <character> <door edge>")
    not_sharing(st, u)
    k, door = door_edge(st, u, args[0])
    if door.open:
        raise IllegalCommand(f"The door {edge_name(*k)} is already open.")
    if door.locked and u.seat != "isc":
        raise IllegalCommand(
            f"The door {edge_name(*k)} is locked (difficulty {door.difficulty}): the Resistance opens it only by hacking."
        )
    R.require(st, u, MVT)
    return Command("open", (u.id, edge_name(*k)), f"{R.name(u)} opens the door {edge_name(*k)}")


def a_close(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "close <character> <door edge>")
    not_sharing(st, u)
    if u.seat != "isc":
        raise IllegalCommand(
            "Open doors cannot be closed by a character; only the I.S.C.'s Encrypted key allows it."
        )
    k, door = door_edge(st, u, args[0])
    if not door.open:
        raise IllegalCommand(f"The door {edge_name(*k)} is already closed.")
    R.require(st, u, MVT)
    return Command("close", (u.id, edge_name(*k)), f"{R.name(u)} closes the door {edge_name(*k)}")


def a_drop(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "drop <character> <square>")
    not_sharing(st, u)
    pos = on_board(u)
    if not u.carrying or st.tokens[u.carrying].kind != "equipment":
        raise IllegalCommand(f"{R.name(u)} carries no equipment to drop.")
    c = R.cell_arg(st, args[0])
    if not in_periphery(pos, c):
        raise IllegalCommand("Equipment is dropped on one of the 8 squares around the character.")
    if c in R.occupancy(st):
        raise IllegalCommand(f"{cell_name(c)} is occupied; equipment is dropped on a free square.")
    if not R.step_open(st, pos, c) or not R.sees(st, pos, c):
        raise IllegalCommand(f"{cell_name(c)} is behind a wall or door, or out of sight.")
    R.require(st, u, MVT)
    return Command(
        "drop",
        (u.id, cell_name(c)),
        f"{R.name(u)} drops the {R.token_label(st.tokens[u.carrying])} on {cell_name(c)}",
    )


def a_give(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "give <character> <ally>")
    not_sharing(st, u)
    pos = on_board(u)
    if not u.carrying:
        raise IllegalCommand(f"{R.name(u)} carries nothing to hand over.")
    a = R.find_unit(st, args[0], seat=u.seat, what="ally")
    if a.id == u.id or a.status != "board" or not a.pos or not in_periphery(pos, a.pos):
        raise IllegalCommand("Tokens are handed to an ally on one of the 8 squares around the character.")
    if a.carrying:
        raise IllegalCommand(f"{R.name(a)} already carries a token; a character carries one at a time.")
    tok = st.tokens[u.carrying]
    if tok.kind == "equipment":
        if not R.sees(st, pos, a.pos):
            raise IllegalCommand(f"Equipment is handed over only with a line of sight to {R.name(a)}.")
        if R.has(st, a, "armless"):
            raise IllegalCommand(f"{R.name(a)} is Armless and cannot take equipment.")
    R.require(st, u, MVT)
    return Command("give", (u.id, a.id), f"{R.name(u)} hands the {R.token_label(tok)} to {R.name(a)}")


def a_leave(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 0, "leave <character>")
    pos = on_board(u)
    exits = R.scen(st).exits
    b = R.board(st)
    if not exits or u.seat != "resistance":
        raise IllegalCommand("This scenario does not let that side leave the board.")
    if not any(pos in b.airlocks[n] for n in exits):
        cells = ", ".join(cell_name(c) for n in exits for c in b.airlocks[n])
        raise IllegalCommand(f"Leaving the board needs an access square of the exit airlock: {cells}.")
    if R.scen(st).exit_needs == "objective" and not (
        u.carrying and st.tokens[u.carrying].kind == "objective"
    ):
        raise IllegalCommand(
            f"In {R.scen(st).name} a character leaves the board only carrying an "
            "objective token: the data must be carried out."
        )
    R.require(st, u, MVT)
    return Command("leave", (u.id,), f"{R.name(u)} leaves the board")


def token_here(st: EscapeState, ref: str) -> Any:
    t = st.tokens.get(ref.lower())
    if t is None or t.pos is None:
        raise IllegalCommand(f"There is no token '{ref}' on the board (tokens are named t1, t2, ...).")
    return t


def a_take(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "take <character> <token>")
    pos = on_board(u)
    t = token_here(st, args[0])
    if t.pos != pos:
        raise IllegalCommand(
            f"{R.name(u)} must stand on the token's square ({cell_name(t.pos)}) to pick it up."
        )
    if t.kind == "crate":
        raise IllegalCommand("Crates are not carried; throw one from your square with 'throw'.")
    if u.carrying:
        raise IllegalCommand(f"{R.name(u)} already carries a token; one at a time.")
    if t.kind == "equipment" and R.has(st, u, "armless"):
        raise IllegalCommand(f"{R.name(u)} is Armless and cannot pick up equipment.")
    return Command("take", (u.id, t.id), f"{R.name(u)} picks up {t.id} ({R.token_label(t)})")


def a_reveal(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "reveal <character> <token>")
    pos = on_board(u)
    t = token_here(st, args[0])
    if t.face_up:
        raise IllegalCommand(f"{t.id} is already face up.")
    if not in_periphery(pos, t.pos) or not R.sees(st, pos, t.pos):
        raise IllegalCommand(
            f"Tokens are turned over from one of the 8 squares around them, with a line of sight ({t.id} is on {cell_name(t.pos)})."
        )
    return Command("reveal", (u.id, t.id), f"{R.name(u)} turns over {t.id} on {cell_name(t.pos)}")


def a_attack(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "attack <character> <target>")
    pos = on_board(u)
    t = enemy(st, u, args[0])
    assert t.pos
    if not in_periphery(pos, t.pos) or not R.sees(st, pos, t.pos):
        raise IllegalCommand(
            f"Hand-to-hand attacks target an enemy on one of the 8 squares around, in line of sight; {R.name(t)} is on {cell_name(t.pos)}."
        )
    combat_checks(st, u, t)
    return Command("attack", (u.id, t.id), f"{R.name(u)} attacks {R.name(t)} hand to hand")


def ranged_target(st: EscapeState, u: Unit, ref: str, rng: int, what: str) -> Unit:
    pos = on_board(u)
    t = enemy(st, u, ref)
    assert t.pos
    if chebyshev(pos, t.pos) > rng:
        raise IllegalCommand(f"{what} has Range {rng}; {R.name(t)} is {chebyshev(pos, t.pos)} squares away.")
    if not R.sees(st, pos, t.pos):
        raise IllegalCommand(f"{R.name(u)} has no line of sight to {R.name(t)}.")
    combat_checks(st, u, t)
    return t


def a_shoot(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "shoot <character> <target>")
    w = R.prof(u).ranged
    if w is None:
        raise IllegalCommand(f"{R.name(u)} has no ranged weapon (a skill or equipment with Range and Power).")
    if not R.card_weapon(st, u):
        raise IllegalCommand(
            f"Disconnection: I.S.C. characters cannot use their skills this turn, and the {w.name} printed on "
            f"{R.name(u)}'s card is one of them."
        )
    t = ranged_target(st, u, args[0], w.range, f"The {w.name}")
    return Command("shoot", (u.id, t.id), f"{R.name(u)} shoots {R.name(t)} with the {w.name}")


def crate_at(st: EscapeState, pos: Cell) -> str | None:
    for t in st.tokens.values():
        if t.kind == "crate" and t.pos == pos:
            return t.id
    return None


def a_throw(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "throw <character> <target>")
    pos = on_board(u)
    if crate_at(st, pos) is None:
        raise IllegalCommand(f"{R.name(u)} needs a crate on its own square to throw.")
    if R.has(st, u, "armless"):
        raise IllegalCommand(f"{R.name(u)} is Armless and cannot throw crates.")
    t = ranged_target(st, u, args[0], CRATE_RANGE, "A crate")
    return Command("throw", (u.id, t.id), f"{R.name(u)} throws a crate at {R.name(t)}")


def grenade_item(st: EscapeState, u: Unit) -> str:
    for item in ("em", "gas"):
        if carried(st, u, item):
            item_usable(st, u, item)
            return item
    raise IllegalCommand(f"{R.name(u)} carries no grenade.")


def a_grenade(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "grenade <character> <square>")
    pos = on_board(u)
    item = grenade_item(st, u)
    it = items()[item]
    c = R.cell_arg(st, args[0])
    occ = R.occupancy(st)
    target = st.units[occ[c]] if c in occ else None
    if target is not None and target.seat == u.seat:
        raise IllegalCommand(
            f"A grenade targets a free square or an opposing character; {R.name(target)} on {cell_name(c)} is an ally."
        )
    if chebyshev(pos, c) > it.range:
        raise IllegalCommand(
            f"The {it.name} has Range {it.range}; {cell_name(c)} is {chebyshev(pos, c)} squares away."
        )
    if not R.sees(st, pos, c):
        raise IllegalCommand(f"{R.name(u)} has no line of sight to {cell_name(c)}.")
    if target is not None:
        combat_checks(st, u, target)
        at = f"{R.name(target)} ({cell_name(c)})"
    else:
        R.require(st, u, CBT)
        if R.in_blackout(st, pos) or R.in_blackout(st, c):
            raise IllegalCommand(
                f"Black-out: no Combat action can be made in the {R.room_name(st, st.event_room)} this turn."
            )
        at = cell_name(c)
    return Command("grenade", (u.id, cell_name(c)), f"{R.name(u)} throws the {it.name} at {at}")


def a_hack(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "hack <character> <door edge | target>")
    pos = on_board(u)
    if "|" in args[0] or "-" in args[0]:
        k = R.edge_arg(st, args[0])
        door = st.doors.get(k)
        if door is None or not door.locked or door.open:
            raise IllegalCommand(f"Only a closed locked door can be hacked; {edge_name(*k)} is not one.")
        if pos not in k:
            room = R.board(st).room_of(pos)
            near = [c for c in k if R.board(st).cell_room[c] == room and room is not None]
            if not (R.has(st, u, "otaku") and near and R.sees(st, pos, near[0])):
                raise IllegalCommand(
                    f"{R.name(u)} must stand next to the door {edge_name(*k)} to hack it (Otaku reaches any locked door of its room in sight)."
                )
        R.require(st, u, INT)
        return Command(
            "hack",
            (u.id, edge_name(*k)),
            f"{R.name(u)} hacks the locked door {edge_name(*k)} (difficulty {door.difficulty})",
        )
    if not R.has(st, u, "attraction"):
        raise IllegalCommand(
            f"{R.name(u)} cannot hack characters (that takes the Attraction skill); name a locked door edge like c4|c5."
        )
    t = enemy(st, u, args[0])
    assert t.pos
    if chebyshev(pos, t.pos) > 2 or not R.sees(st, pos, t.pos):
        raise IllegalCommand(
            f"Attraction targets an enemy within 2 squares in line of sight; {R.name(t)} is not."
        )
    R.require(st, u, INT)
    return Command("hack", (u.id, t.id), f"{R.name(u)} uses Attraction on {R.name(t)}")


def a_drill(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "drill <character> <wall edge>")
    pos = on_board(u)
    if not R.has(st, u, "drill"):
        raise IllegalCommand(f"{R.name(u)} has no Drill.")
    if u.drill_broken:
        raise IllegalCommand(f"{R.name(u)}'s drill is broken.")
    if u.drilled:
        raise IllegalCommand("The Drill breaks at most one wall per turn.")
    k = R.edge_arg(st, args[0])
    if pos not in k:
        raise IllegalCommand(f"{R.name(u)} must stand next to the wall it drills.")
    kind = R.wall_at(st, k[0], k[1])
    if kind is None:
        raise IllegalCommand(f"There is no wall on {edge_name(*k)}.")
    if kind == EdgeKind.STRONG_WALL:
        raise IllegalCommand(f"The wall {edge_name(*k)} is indestructible (see the map legend).")
    R.require(st, u, CBT)
    if not R.can_drill_spend(st, u):
        raise IllegalCommand(
            f"{R.name(u)}'s Combat action left is the Combat drugs' one: it pays for a hand-to-hand or "
            "ranged attack only, not for drilling."
        )
    if R.in_blackout(st, pos):
        raise IllegalCommand(
            f"Black-out: no Combat action can be made in the {R.room_name(st, st.event_room)} this turn."
        )
    return Command("drill", (u.id, edge_name(*k)), f"{R.name(u)} drills the wall {edge_name(*k)}")


def a_medkit(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 0, "medkit <character>")
    item_usable(st, u, "medkit")
    if u.damage == 0:
        raise IllegalCommand(f"{R.name(u)} has no damage to heal.")
    return Command("medkit", (u.id,), f"{R.name(u)} uses the Medkit (heals 2)")


def a_datadisk(st: EscapeState, u: Unit, args: list[str]) -> Command:
    if len(args) != 1 or args[0] not in ("mvt", "cbt", "int"):
        raise IllegalCommand("Usage: datadisk <character> mvt|cbt|int")
    item_usable(st, u, "datadisk")
    return Command(
        "datadisk", (u.id, args[0]), f"{R.name(u)} uses the Datadisk: +1 {args[0].capitalize()} action"
    )


def a_drugs(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 0, "drugs <character>")
    item_usable(st, u, "drugs")
    return Command("drugs", (u.id,), f"{R.name(u)} takes the Combat drugs: +1 Combat action")


def a_radio(st: EscapeState, u: Unit, args: list[str]) -> Command:
    _args(args, 1, "radio <character> <ally>")
    item_usable(st, u, "radio")
    if sharing(st, u):
        raise IllegalCommand(
            f"Firewall: the Radio ends the activation, and {R.name(u)} cannot end it on an occupied square."
        )
    a = R.find_unit(st, args[0], seat=u.seat, what="ally")
    if a.id == u.id or a.status != "board" or not R.activatable(st, a):
        raise IllegalCommand(
            f"The Radio calls an ally on the board who has not activated yet this turn; {R.name(a)} cannot."
        )
    return Command(
        "radio", (u.id, a.id), f"{R.name(u)} radios {R.name(a)} to go next, ending this activation"
    )


ACTION_CHECKS: dict[str, Callable[[EscapeState, Unit, list[str]], Command]] = {
    "activate": a_activate, "enter": a_enter, "move": a_move, "open": a_open, "close": a_close, "drop": a_drop,
    "give": a_give, "leave": a_leave, "take": a_take, "reveal": a_reveal, "attack": a_attack, "shoot": a_shoot,
    "throw": a_throw, "grenade": a_grenade, "hack": a_hack, "drill": a_drill, "medkit": a_medkit,
    "datadisk": a_datadisk, "drugs": a_drugs, "radio": a_radio,
}  # fmt: skip

MODE_CHECKS: dict[str, Checker] = {
    "reroll": check_reroll, "dodge": check_dodge, "countermeasure": check_cm, "push": check_push,
    "pull": check_pull, "crates": check_place, "objectives": check_place, "equipment": check_place,
    "deploy": check_deploy, "event": check_event, "first": check_first, "activation": check_activation,
}  # fmt: skip


# -- play ------------------------------------------------------------------------------------------------


def play(st: EscapeState, seat: str, cmd: Command) -> list[Event]:
    """Play a checked command, then run the game on until someone must answer. Returns the narration."""
    ev: list[Event] = []
    v, a = cmd.verb, cmd.args
    st.stepped_from = None
    if v == "react":
        st.policies.setdefault(seat, {})[a[0]] = a[1]
        ev.append(Event(f"The {FACTION_NAMES[seat]} will now answer {a[0]} with '{a[1]}'.", kind="policy"))
        R.advance(st, ev)
        return ev
    if R.setup_untouched(st):
        # The setup initiative was rolled when the game was created, with no one to tell: tell it now.
        ev.append(Event(R.setup_initiative_text(st), kind="initiative", dice=tuple(st.setup_dice)))
    if st.stack:
        play_answer(st, v, a, ev)
    elif st.phase == "activation":
        play_action(st, seat, v, a, ev)
    elif st.phase in ("crates", "objectives", "equipment"):
        play_place(st, seat, v, a, ev)
    elif st.phase == "deploy":
        u = st.units[a[0]]
        u.status, u.pos = "board", R.cell_arg(st, a[1])
        ev.append(Event(f"{R.name(u)} is deployed on {a[1]}.", kind="deploy"))
        if not R.to_deploy(st, R.other(seat)) and not R.to_deploy(st, seat):
            R.enter_setup_phase(st, "play", ev)
        elif R.to_deploy(st, R.other(seat)):
            st.placer = R.other(seat)
    elif st.phase == "event_choice":
        play_event(st, v, a, ev)
        st.phase = "first"
    elif st.phase == "first":
        st.next_side = a[0]
        st.phase = "activation"
        chooser, first = FACTION_NAMES[st.initiative], FACTION_NAMES[a[0]]
        ev.append(
            Event(
                f"The {first} activates first."
                if a[0] == st.initiative
                else f"The {chooser} lets the {first} activate first.",
                kind="first",
            )
        )
    else:
        play_action(st, seat, v, a, ev)
    R.advance(st, ev)
    if st.stepped_from is not None and any(e.kind not in ("move", "activate") for e in ev):
        st.stepped_from = None  # something came of the step (a reaction, a reveal...): going back is a choice
    return ev


def play_place(st: EscapeState, seat: str, v: str, a: tuple[str, ...], ev: list[Event]) -> None:
    c = R.cell_arg(st, a[0])
    room = R.room_name(st, R.board(st).cell_room[c])
    s = R.scen(st)
    if v == "crate":
        R.new_token(st, "crate", c, face_up=True)
        ev.append(Event(f"The {FACTION_NAMES[seat]} places a crate in the {room} ({a[0]}).", kind="setup"))
        R.after_placement(st, "crate", s.crates, ev)
    elif v == "objective":
        value = st.objective_pool.pop(st.rng.below(len(st.objective_pool)))
        R.new_token(st, "objective", c, value=value)
        ev.append(
            Event(
                f"The {FACTION_NAMES[seat]} places a face-down objective in the {room} ({a[0]}).",
                kind="setup",
            )
        )
        R.after_placement(st, "objective", len(s.objectives), ev)
    else:
        item = st.equipment_pool.pop(st.rng.below(len(st.equipment_pool)))
        R.new_token(st, "equipment", c, item=item)
        ev.append(
            Event(
                f"The {FACTION_NAMES[seat]} draws an equipment token and places it face down in the {room} ({a[0]}).",
                kind="setup",
            )
        )
        R.after_placement(st, "equipment", s.equipment, ev)


def play_event(st: EscapeState, v: str, a: tuple[str, ...], ev: list[Event]) -> None:
    if v == "relocate":
        u = st.units[a[0]]
        u.pos = R.cell_arg(st, a[1])
        ev.append(Event(f"The Celestial Order moves {R.name(u)} to {a[1]}.", kind="event"))
    elif v == "switch":
        k = R.edge_arg(st, a[0])
        door = st.doors[k]
        door.open = not door.open
        ev.append(
            Event(f"Short circuit: the door {a[0]} {'opens' if door.open else 'closes'}.", kind="event")
        )
    else:
        st.event_room = R.room_arg(st, a[0])
        ev.append(
            Event(
                f"Black-out in the {R.room_name(st, st.event_room)}: no Combat actions there this turn.",
                kind="event",
            )
        )


def play_answer(st: EscapeState, v: str, a: tuple[str, ...], ev: list[Event]) -> None:
    f = st.stack[-1]
    if f["t"] == "rolls":
        e = f["entries"][f["i"]]
        if v == "reroll":
            R.do_reroll(st, R.frame_parent(st), e, R.reroll_sources(st, e)[0], ev)
        f["i"] += 1
    elif f["t"] == "attack" and f["stage"] == "push":
        t = st.units[f["push"]]
        if v == "push":
            t.pos = R.cell_arg(st, a[0])
            ev.append(Event(f"Digging arm: {R.name(t)} is pushed back to {a[0]}.", kind="push"))
        f["stage"] = "done"
        st.stack.pop()
    elif f["t"] == "attack":
        tgt = next(x for x in f["targets"] if x["id"] == f["asking"])
        how = "no" if v == "no-dodge" else (a[0] if a else "cbt")
        R.choose_dodge(st, f, tgt, how, ev)
    elif f["t"] == "hack" and f["stage"] == "pull":
        t = st.units[f["target"]]
        t.pos = R.cell_arg(st, a[0])
        ev.append(Event(f"Attraction pulls {R.name(t)} to {a[0]}.", kind="pull"))
        st.stack.pop()
    else:
        R.choose_cm(st, f, v == "countermeasure", ev)


def activate(st: EscapeState, u: Unit, ev: list[Event]) -> None:
    """Make ``u`` the active character."""
    st.active = u.id
    st.forced_next = ""
    st.may_pass = False
    st.act_used = (u.used[MVT], u.used[CBT], u.used[INT])
    st.act_extra = (0, 0, 0)
    st.act_drugs = st.act_attacks = 0
    st.trail = [u.pos] if u.pos else []
    st.attacks = []
    ev.append(Event(f"{R.name(u)} is activated.", kind="activate"))


def play_action(st: EscapeState, seat: str, v: str, a: tuple[str, ...], ev: list[Event]) -> None:
    if v == "end":
        R.end_activation(st, ev)
        return
    if v == "pass":
        st.may_pass = False
        st.next_side = "isc"
        ev.append(
            Event("The Resistance lets the I.S.C. activate instead of a second character.", kind="first")
        )
        return
    if v == "token":
        u = st.units[a[1]]
        if not st.active:
            activate(st, u, ev)
        st.revolution -= 1
        u.bonus[MVT if a[0] == "move" else CBT] += 1
        if a[0] == "move":
            extra_action(st, MVT)  # for this activation; a token's Combat action may also be a later dodge
        ev.append(
            Event(
                f"The Resistance spends a Revolution token: {R.name(u)} gains a {'Movement' if a[0] == 'move' else 'Combat'} action ({st.revolution} left).",
                kind="token",
            )
        )
        return
    u = st.units[a[0]]
    if not st.active:
        activate(st, u, ev)
    if v == "activate":
        return
    ACTION_PLAYS[v](st, u, a[1:], ev)


def p_enter(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, MVT)
    redeploy = u.status == "out"
    u.status, u.pos = "board", R.cell_arg(st, a[0])
    if redeploy:
        u.damage = 0
    st.trail = [u.pos]
    ev.append(
        Event(
            f"{R.name(u)} {'is rebuilt by the Internal factory and ' if redeploy else ''}enters the board on {a[0]}.",
            kind="move",
        )
    )


def p_move(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, MVT)
    st.stepped_from = (u.id, u.pos) if u.pos else None
    frm = cell_name(u.pos) if u.pos else ""
    u.pos = R.cell_arg(st, a[0])
    st.trail.append(u.pos)
    left = f" (Mvt {R.left(st, u, MVT)} left)"
    ev.append(Event(f"{R.name(u)} moves to {a[0]}{left}.", kind="move",
                    data={"path": (f"{R.name(u)} moves to", frm, a[0], left)}))  # fmt: skip


def p_open(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, MVT)
    door = st.doors[R.edge_arg(st, a[0])]
    door.open = True
    how = " with the Encrypted key" if door.locked else ""
    ev.append(Event(f"{R.name(u)} opens the door {a[0]}{how}.", kind="door"))


def p_close(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, MVT)
    st.doors[R.edge_arg(st, a[0])].open = False
    ev.append(Event(f"{R.name(u)} closes the door {a[0]}.", kind="door"))


def p_drop(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, MVT)
    assert u.carrying
    t = st.tokens[u.carrying]
    t.carrier, t.pos, u.carrying = None, R.cell_arg(st, a[0]), None
    ev.append(Event(f"{R.name(u)} drops the {R.token_label(t)} on {a[0]}.", kind="drop"))


def p_give(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, MVT)
    ally = st.units[a[0]]
    assert u.carrying
    t = st.tokens[u.carrying]
    ally.carrying, u.carrying, t.carrier = t.id, None, ally.id
    ev.append(Event(f"{R.name(u)} hands the {R.token_label(t)} to {R.name(ally)}.", kind="give"))


def p_leave(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, MVT)
    u.status, u.pos = "escaped", None
    text = f"{R.name(u)} leaves the board through the airlock"
    if u.carrying:
        t = st.tokens[u.carrying]
        if t.kind == "objective":
            st.carried_points += t.value
            t.face_up = True
            text += f", carrying an objective worth {t.value} (total {st.carried_points})"
    ev.append(Event(text + ".", kind="leave"))


def p_take(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    t = st.tokens[a[0]]
    t.face_up, t.pos, t.carrier, u.carrying = True, None, u.id, t.id
    ev.append(Event(f"{R.name(u)} picks up {t.id}: {R.token_label(t)}.", kind="take"))


def p_reveal(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    t = st.tokens[a[0]]
    t.face_up = True
    ev.append(Event(f"{R.name(u)} turns over {t.id}: {R.token_label(t)}.", kind="reveal"))


def start_attack(
    st: EscapeState, u: Unit, kind: str, targets: list[Unit], *, power: int, weapon: str, item: str = ""
) -> None:
    """Spend the Combat action and put an attack on the stack."""
    R.spend(st, u, CBT)
    if st.active == u.id:
        st.act_attacks += 1
    st.stack.append({
        "t": "attack", "by": u.id, "kind": kind, "power": power, "weapon": weapon, "item": item,
        "hypnosis": R.has(st, u, "hypnosis"), "stage": "declare", "asking": "", "dice": {},
        "targets": [{"id": t.id, "dodge": None, "late": R.has(st, t, "elusive")} for t in targets],
    })  # fmt: skip
    for t in targets:
        if u.pos and t.pos:
            st.attacks.append((u.pos, t.pos))


def p_attack(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    start_attack(st, u, "melee", [st.units[a[0]]], power=0, weapon="")


def p_shoot(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    w = R.prof(u).ranged
    assert w is not None
    start_attack(st, u, "ranged", [st.units[a[0]]], power=w.power, weapon=w.name)


def p_throw(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    assert u.pos
    crate = crate_at(st, u.pos)
    assert crate
    del st.tokens[crate]
    ev.append(Event(f"{R.name(u)} hurls the crate; it breaks apart.", kind="throw"))
    start_attack(st, u, "crate", [st.units[a[0]]], power=CRATE_POWER, weapon="crate")


def p_grenade(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    item = grenade_item(st, u)
    assert u.carrying
    del st.tokens[u.carrying]
    u.carrying = None
    c = R.cell_arg(st, a[0])
    hit = [v for v in st.units.values() if v.status == "board" and v.pos and blast_reaches(st, c, v)]
    it = items()[item]
    ev.append(
        Event(
            f"{R.name(u)} throws the {it.name} at {a[0]}: "
            + (", ".join(R.name(v) for v in hit) or "nobody")
            + " in the blast.",
            kind="grenade",
        )
    )
    start_attack(st, u, "grenade", hit, power=it.power, weapon=it.name, item=item)
    if u.pos:
        st.attacks.append((u.pos, c))
    if not hit:
        st.stack.pop()


def blast_reaches(st: EscapeState, c: Cell, v: Unit) -> bool:
    """Whether a grenade thrown at ``c`` catches ``v`` (on the board).

    The blast takes the target square and its periphery, except squares behind a wall or closed door
    (as for every other placement rule), characters an allied Scrambler protects, and characters in a
    blacked-out room (no Combat action there). A character aimed at directly was checked not to be
    Scrambler-protected, nor in the dark, when the command was.
    """
    pos = v.pos
    if pos == c:
        return True
    return (
        pos is not None
        and in_periphery(c, pos)
        and R.step_open(st, c, pos)
        and not R.in_blackout(st, pos)
        and not scrambled(st, v)
    )


def p_hack(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, INT)
    if "|" in a[0]:
        k = R.edge_arg(st, a[0])
        door = st.doors[k]
        b = R.board(st)
        room = b.room_of(u.pos) if u.pos else None
        # Otaku's hack (from anywhere in a room, next to the door included) unlocks the door for good.
        otaku = R.has(st, u, "otaku") and room is not None and room in (b.cell_room[k[0]], b.cell_room[k[1]])
        st.stack.append({"t": "hack", "by": u.id, "kind": "door", "target": a[0], "edge": [list(k[0]), list(k[1])],
                         "diff": door.difficulty, "otaku": otaku, "stage": "declare", "cm": "no",
                         "asking": "", "dice": {}})  # fmt: skip
    else:
        t = st.units[a[0]]
        # A hack on a character is a Simple Intellect roll whose difficulty is the target's Int.
        st.stack.append({"t": "hack", "by": u.id, "kind": "unit", "target": t.id, "diff": R.t_int(st, t), "stage": "declare",
                         "cm": None, "asking": "", "dice": {}})  # fmt: skip
        if u.pos and t.pos:
            st.attacks.append((u.pos, t.pos))


def p_drill(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, u, CBT)
    k = R.edge_arg(st, a[0])
    R.push_rolls(st, {"t": "drill", "by": u.id, "target": a[0], "edge": [list(k[0]), list(k[1])], "dice": {}},
                 [("drill", u.id, u.seat, False)])  # fmt: skip


def consume(st: EscapeState, u: Unit) -> None:
    """Discard the unit's carried equipment (all equipment is single use)."""
    assert u.carrying
    del st.tokens[u.carrying]
    u.carrying = None


def extra_action(st: EscapeState, kind: int) -> None:
    """Record an extra action only the active character may spend (it lapses when the activation ends)."""
    extra = list(st.act_extra)
    extra[kind] += 1
    st.act_extra = (extra[0], extra[1], extra[2])


def p_medkit(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    consume(st, u)
    healed = min(2, u.damage)
    u.damage -= healed
    ev.append(Event(f"{R.name(u)} uses the Medkit and discards {healed} damage.", kind="heal"))


def p_datadisk(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    consume(st, u)
    kind = {"mvt": MVT, "cbt": CBT, "int": INT}[a[0]]
    u.bonus[kind] += 1
    extra_action(st, kind)
    ev.append(
        Event(
            f"{R.name(u)} uses the Datadisk: one extra {('Movement', 'Combat', 'Intellect')[kind]} action.",
            kind="item",
        )
    )


def p_drugs(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    consume(st, u)
    u.bonus[CBT] += 1
    extra_action(st, CBT)
    st.act_drugs += 1
    ev.append(Event(f"{R.name(u)} takes the Combat drugs: one extra Combat action.", kind="item"))


def p_radio(st: EscapeState, u: Unit, a: tuple[str, ...], ev: list[Event]) -> None:
    consume(st, u)
    st.forced_next = a[0]
    ev.append(Event(f"{R.name(u)} radios {R.name(st.units[a[0]])}, who activates at once.", kind="item"))
    R.end_activation(st, ev)


ACTION_PLAYS: dict[str, Callable[[EscapeState, Unit, tuple[str, ...], list[Event]], None]] = {
    "enter": p_enter, "move": p_move, "open": p_open, "close": p_close, "drop": p_drop, "give": p_give,
    "leave": p_leave, "take": p_take, "reveal": p_reveal, "attack": p_attack, "shoot": p_shoot, "throw": p_throw,
    "grenade": p_grenade, "hack": p_hack, "drill": p_drill, "medkit": p_medkit, "datadisk": p_datadisk,
    "drugs": p_drugs, "radio": p_radio,
}  # fmt: skip


# -- legal commands ---------------------------------------------------------------------------------------
#
# The activation commands are first listed as candidates (a checker, a unit, typed arguments), then kept
# when the checker accepts them, exactly as if typed. legal() keeps every accepted candidate in order; the
# sampler tries them in a random order and stops at the first accepted one, which is a uniform pick among
# legal() (each try draws uniformly among the candidates not yet refused).

ActionCheck = Callable[[EscapeState, Unit, list[str]], Command]
Candidate = tuple[ActionCheck, Unit, list[str]]
PLACE_KINDS = {"crates": "crate", "objectives": "objective", "equipment": "equipment"}


def legal(st: EscapeState, seat: str) -> list[Command]:
    """Every command ``seat`` may play now (standing answers excluded), each checked like typed text."""
    w = R.waiting(st)
    if w is None or w[0] != seat:
        return []
    _, mode, unit = w
    out: list[Command] = []
    if mode == "reroll":
        return [Command("reroll", (), "Re-roll this die"), Command("keep", (), "Keep this die")]
    if mode == "dodge":
        f = st.stack[-1]
        tgt = next(x for x in f["targets"] if x["id"] == f["asking"])
        for how in R.dodge_options(st, f, tgt):
            out.append(check_dodge(st, seat, ["dodge"] if how == "cbt" else ["dodge", how]))
        out.append(check_dodge(st, seat, ["no-dodge"]))
        return out
    if mode == "countermeasure":
        return [check_cm(st, seat, ["countermeasure"]), check_cm(st, seat, ["no-countermeasure"])]
    if mode in ("push", "pull"):
        f = st.stack[-1]
        out = [
            Command(
                mode,
                (c,),
                f"{'Push' if mode == 'push' else 'Pull'} {R.name(st.units[f.get('push') or f['target']])} to {c}",
            )
            for c in f["cells"]
        ]
        if mode == "push":
            out.append(Command("no-push", (), "Do not push"))
        return out
    if mode in PLACE_KINDS:
        kind = PLACE_KINDS[mode]
        return [place_command(st, kind, c) for c in R.placement_cells(st, kind)]
    if mode == "deploy":
        units, cells = deploy_choices(st, seat)
        return [deploy_command(u, c) for u in units for c in cells]
    if mode == "event":
        return R.event_choices(st)
    if mode == "first":
        return [check_first(st, seat, ["first", s]) for s in R.SEATS]
    return activation_commands(st, seat)


def place_command(st: EscapeState, kind: str, c: Cell) -> Command:
    """The setup command placing a token of ``kind`` on ``c`` (as listed by :func:`legal`)."""
    b = R.board(st)
    return Command(
        kind,
        (cell_name(c),),
        f"Place {with_article(kind)} in the {b.room_names[b.cell_room[c]]} ({cell_name(c)})",
    )


def deploy_choices(st: EscapeState, seat: str) -> tuple[list[Unit], list[Cell]]:
    """Position deployment: the seat's units still to place and the free squares of its room."""
    room = R.scen(st).deploy[seat]["room"]
    occ = R.occupancy(st)
    return R.to_deploy(st, seat), [c for c in R.board(st).room_cells(room) if c not in occ]


def deploy_command(u: Unit, c: Cell) -> Command:
    """The setup command deploying ``u`` on ``c`` (as listed by :func:`legal`)."""
    return Command("deploy", (u.id, cell_name(c)), f"Deploy {R.name(u)} on {cell_name(c)}")


def activation_commands(st: EscapeState, seat: str) -> list[Command]:
    """Every action open to the seat's active character (or to each character it could activate)."""
    out: list[Command] = []
    for fn, u, args in activation_candidates(st, seat):
        try:
            command = fn(st, u, args)
        except RuleError:
            continue
        out.append(command)
    return out


def sample(st: EscapeState, seat: str, rng: Chooser) -> Command | None:
    """A uniformly random command among :func:`legal` (None when that is empty), found cheaply.

    Draws only from ``rng``; activation commands are checked lazily in a random order, and the long setup
    lists are indexed instead of built.
    """
    w = R.waiting(st)
    if w is None or w[0] != seat:
        return None
    mode = w[1]
    if mode == "activation":
        cands = activation_candidates(st, seat)
        n = len(cands)
        while n:
            i = rng.below(n)
            fn, u, args = cands[i]
            try:
                return fn(st, u, args)
            except RuleError:
                n -= 1
                cands[i] = cands[n]
        return None
    if mode in PLACE_KINDS:
        kind = PLACE_KINDS[mode]
        cells = R.placement_cells(st, kind)
        return place_command(st, kind, cells[rng.below(len(cells))]) if cells else None
    if mode == "deploy":
        units, free = deploy_choices(st, seat)
        if not units or not free:
            return None
        i = rng.below(len(units) * len(free))
        return deploy_command(units[i // len(free)], free[i % len(free)])
    if mode == "event" and st.event == 3 and st.phase in ("event_choice", "turn"):
        isc, free = R.relocate_choices(st)
        if not isc or not free:
            return None
        i = rng.below(len(isc) * len(free))
        return R.relocate_command(isc[i // len(free)], free[i % len(free)])
    options = legal(st, seat)
    return options[rng.below(len(options))] if options else None


def _token(st: EscapeState, u: Unit, args: list[str]) -> Command:
    what = "Movement" if args[0] == "move" else "Combat"
    return Command("token", (args[0], u.id), f"Spend a Revolution token: +1 {what} action for {R.name(u)}")


def _side_step(st: EscapeState, u: Unit, args: list[str]) -> Command:
    # a_move's command for a side step already known to be legal (see _unit_candidates)
    return Command("move", (u.id, args[0]), f"{R.name(u)} moves to {args[0]}")


def _end(st: EscapeState, u: Unit, args: list[str]) -> Command:
    return check_activation(st, u.seat, ["end"])


def _pass(st: EscapeState, u: Unit, args: list[str]) -> Command:
    return check_activation(st, u.seat, ["pass"])


def activation_candidates(st: EscapeState, seat: str) -> list[Candidate]:
    """Every (checker, unit, arguments) that may be a legal activation command, in listing order."""
    out: list[Candidate] = []
    units_all = st.units
    if st.active:
        active = units_all[st.active]
        occ: dict[Cell, str] = {}
        foes = []
        for v in units_all.values():  # R.occupancy and the active unit's enemies, in one pass
            if v.status == "board" and v.pos is not None:
                occ[v.pos] = v.id
                if v.seat != active.seat:
                    foes.append(v)
        if active.status == "board" and active.pos is not None:
            _unit_candidates(st, seat, active, active.pos, occ, foes, out)
        else:
            out += [(a_enter, active, [cell_name(c)]) for c in R.entry_cells(st, active, occ)]
        out.append((_end, active, []))
        return out
    occ = R.occupancy(st)
    entries: dict[str, list[Cell]] = {}  # entry squares already found while testing R.activatable
    if st.forced_next:
        units = [units_all[st.forced_next]]
    else:
        units = []
        for u in units_all.values():  # R.activatable, inlined to keep the entry squares it finds
            if u.seat != seat or u.activated:
                continue
            if u.status == "board":
                units.append(u)
            elif u.status in ("reserve", "out"):
                cells = R.entry_cells(st, u, occ)
                if cells:
                    units.append(u)
                    entries[u.id] = cells
    enemies_of: dict[str, list[Unit]] = {}
    for u in units:
        out.append((a_activate, u, []))
        if u.status != "board" or u.pos is None:
            cells = entries[u.id] if u.id in entries else R.entry_cells(st, u, occ)
            out += [(a_enter, u, [cell_name(c)]) for c in cells]
            continue
        enemies = enemies_of.get(u.seat)
        if enemies is None:
            enemies = [v for v in units_all.values() if v.seat != u.seat and v.status == "board" and v.pos]
            enemies_of[u.seat] = enemies
        _unit_candidates(st, seat, u, u.pos, occ, enemies, out)
    if st.may_pass and seat == "resistance" and units:
        out.append((_pass, units[0], []))
    return out


def _unit_candidates(
    st: EscapeState,
    seat: str,
    u: Unit,
    pos: Cell,
    occ: dict[Cell, str],
    enemies: list[Unit],
    out: list[Candidate],
) -> None:
    """Append the candidates of one unit on the board (see :func:`activation_candidates`).

    Candidates that the checker would refuse on a simple condition (a door already open, nothing to
    take, a target out of range...) are left out here: only the accepted ones count, so the listing and
    the sampler are the same either way, and fewer refusals make both cheaper.
    """
    add = out.append
    units_all = st.units
    doors = st.doors
    useat = u.seat
    isc = useat == "isc"
    skills = R.prof(u).skills
    skills_on = not (st.event == 12 and isc)  # what R.has checks besides the card
    x, y = pos
    can_mvt, can_cbt, can_int = R.can_spend_each(st, u)
    sq = R.square(st, pos)
    door_sides = sq.door_sides
    carrying = st.tokens[u.carrying] if u.carrying else None
    item = carrying.item if carrying is not None and carrying.kind == "equipment" else ""
    if can_mvt:
        firewall = st.event == 8 and useat == "resistance"
        if skills_on and "anti_gravity" in skills:
            out += [(a_move, u, [n]) for c, n in sq.ring if firewall or c not in occ]
        elif skills_on and "burrowing" in skills:
            out += [(a_move, u, [n]) for c, n in sq.sides if firewall or c not in occ]
        else:
            # A side step across a standing wall or a closed door is refused (R.edge_blocks): skip it.
            destroyed = st.destroyed
            # Through Firewall an occupied square needs a_move's check for a square to step off to;
            # any other side step found open and free here passes all of a_move's checks.
            step = a_move if firewall else _side_step
            for c, n, ek, printed in sq.side_steps:
                if (firewall or c not in occ) and (
                    printed == 0 or (ek in destroyed if printed == 1 else doors[ek].open)
                ):
                    add((step, u, [n]))
        for ek, en in door_sides:
            door = doors.get(ek)
            if door is not None:
                if not door.open and (isc or not door.locked):
                    add((a_open, u, [en]))
                if isc and door.open:
                    add((a_close, u, [en]))
        if carrying is not None:
            if item:
                out += [(a_drop, u, [n]) for c, n in sq.ring if c not in occ]
            for v in units_all.values():
                if (
                    v.seat == useat
                    and v.status == "board"
                    and not v.carrying
                    and v.pos
                    and v.id != u.id
                    and in_periphery(pos, v.pos)
                ):
                    add((a_give, u, [v.id]))
        if not isc and sq.exit:
            add((a_leave, u, []))
    crate = False  # whether a crate lies on the unit's square (see crate_at)
    for t in st.tokens.values():
        tpos = t.pos
        if tpos is None:
            continue
        dx = tpos[0] - x
        if dx > 1 or dx < -1:
            continue
        if tpos == pos:
            if t.kind == "crate":
                crate = True
            elif carrying is None:
                add((a_take, u, [t.id]))
        elif not t.face_up and -1 <= tpos[1] - y <= 1:
            add((a_reveal, u, [t.id]))
    if can_cbt:
        if enemies:
            ranged = R.card_weapon(st, u)
            shoot = ranged.range if ranged else -1
            throw = CRATE_RANGE if crate else -1
            reach = max(1, shoot, throw)
            for v in enemies:
                vpos = v.pos
                assert vpos
                dx = vpos[0] - x
                if dx > reach or dx < -reach:
                    continue
                dy = vpos[1] - y
                if dy > reach or dy < -reach:
                    continue
                if -1 <= dx <= 1 and -1 <= dy <= 1 and (dx or dy):
                    add((a_attack, u, [v.id]))
                if -shoot <= dx <= shoot and -shoot <= dy <= shoot:
                    add((a_shoot, u, [v.id]))
                if -throw <= dx <= throw and -throw <= dy <= throw:
                    add((a_throw, u, [v.id]))
        if item in ("em", "gas"):
            for dx in range(-3, 4):
                for dy in range(-3, 4):
                    c = (x + dx, y + dy)
                    if R._on(st, c) and (c not in occ or units_all[occ[c]].seat != useat):
                        add((a_grenade, u, [cell_name(c)]))
        if skills_on and "drill" in skills and not u.drill_broken and not u.drilled:
            edges = R.side_edges(st, pos)
            out += [(a_drill, u, [en]) for (a, b), en in edges if R.wall_at(st, a, b) == EdgeKind.WALL]
    if can_int:
        otaku_room = R.board(st).room_of(pos) if skills_on and "otaku" in skills else None
        if otaku_room:
            b = R.board(st)
            for ek, door in doors.items():
                if (
                    door.locked
                    and not door.open
                    and (pos in ek or otaku_room in (b.cell_room[ek[0]], b.cell_room[ek[1]]))
                ):
                    add((a_hack, u, [edge_name(*ek)]))
        elif door_sides:
            # Only the doors on the square's own sides qualify; they are listed in the doors' order.
            near = [
                (ek, en)
                for ek, en in door_sides
                if (d := doors.get(ek)) is not None and d.locked and not d.open
            ]
            if len(near) > 1:
                order = list(doors)
                near.sort(key=lambda e: order.index(e[0]))
            out += [(a_hack, u, [en]) for _, en in near]
        if skills_on and "attraction" in skills:
            out += [(a_hack, u, [v.id]) for v in enemies if v.pos and chebyshev(pos, v.pos) <= 2]
    if item:
        if item == "medkit":
            add((a_medkit, u, []))
        elif item == "datadisk":
            for kind in ("mvt", "cbt", "int"):
                add((a_datadisk, u, [kind]))
        elif item == "drugs":
            add((a_drugs, u, []))
        elif item == "radio":
            for v in units_all.values():
                if v.seat == useat and v.id != u.id:
                    add((a_radio, u, [v.id]))
    if seat == "resistance" and st.revolution > 0:
        add((_token, u, ["move"]))
        add((_token, u, ["combat"]))
