"""Escape Path commands: the legal list, checking typed text (with a message naming the rule), playing.

Grammar (verb first): ``move <fig> <square> [facing]``, ``jump <fig> <square>``, ``turn <fig> <facing>``,
``shoot <fig> <bogie> [facing]``, ``bomb <fig> <bogie> [facing]``, ``retreat <fig> <square> <bogie>``,
``attack <fig>``, ``escape <fig>``, ``enter <bogie> <point> [facing]``, ``leave <bogie>``, ``end``; the team's
answer to a charge ``panic`` or ``hold``; any time ``react panic always|never|ask``. Facings are
``n ne e se s sw w nw`` (``n`` is the top of the board).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Command, Event
from engine.errors import IllegalCommand, NotYourTurn, RuleError, UnknownCommand
from engine.geometry.square import Cell, cell_name, parse_cell
from engine.grammar import plural
from engine.rulesets.escapepath import geometry as G
from engine.rulesets.escapepath import rules as R
from engine.rulesets.escapepath.board import can_fire, name, occupancy, scen
from engine.rulesets.escapepath.content import DIRS
from engine.rulesets.escapepath.moves import TRAPPED_VERBS, entry_points, figure_commands
from engine.rulesets.escapepath.state import POLICY_KINDS, SWARM, TEAM, Figure, PathState

FIGURE_VERBS = ("move", "jump", "turn", "shoot", "bomb", "retreat", "attack", "escape", "enter", "leave")
VERBS = frozenset({*FIGURE_VERBS, "end", "panic", "hold", "react"})
SIDE_NAMES = {TEAM: "team", SWARM: "swarm"}


REACT_LABELS = {"ask": "ask me each time", "always": "always take them", "never": "never take them"}


def react_commands(st: PathState) -> list[Command]:
    """The standing answers the team may set (those that differ from the current one)."""
    return [
        Command("react", ("panic", p), f"Panic shots: {REACT_LABELS[p]}")
        for p in POLICY_KINDS["panic"]
        if p != st.policies.get("panic")
    ]


def panic_options(st: PathState) -> list[Command]:
    """The team's answers to a charging bogie."""
    assert st.pending is not None
    c, b = st.pending["char"], st.pending["bogie"]
    return [
        Command("panic", (), f"{name(st, st.figures[c])}: panic shot at {b}"),
        Command("hold", (), f"{name(st, st.figures[c])}: hold fire"),
    ]


def legal(st: PathState, seat: str) -> list[Command]:
    """Every command ``seat`` may play now."""
    if st.result is not None:
        return []
    if st.pending is not None:
        return [*panic_options(st), *react_commands(st)] if seat == TEAM else []
    if seat != st.side:
        return react_commands(st) if seat == TEAM else []
    out: list[Command] = []
    occ = occupancy(st)
    for f in starters(st, occ):
        out += figure_commands(st, f, short_name(st, f), occ)
    out.append(end_command(seat))
    if seat == TEAM:
        out += react_commands(st)
    return out


def starters(st: PathState, occ: dict[Cell, Figure]) -> list[Figure]:
    """The moving side's figures that may act now, in the order :func:`legal` lists their commands: the pool
    stands for one bogie of each kind, while an entry point is free."""
    out: list[Figure] = []
    pool_seen: set[str] = set()
    entries: bool | None = None
    for f in st.figures.values():
        if not R.may_start(st, f):
            continue
        if f.status == "pool":
            if f.kind in pool_seen:
                continue
            if entries is None:
                entries = bool(entry_points(st, occ))
            if not entries:
                continue
            pool_seen.add(f.kind)
        out.append(f)
    return out


def end_command(seat: str) -> Command:
    """``end``: the seat's side ends its turn."""
    return Command("end", (), f"End the {SIDE_NAMES[seat]}'s turn")


def short_name(st: PathState, f: Figure) -> str:
    """How the menus name a figure: a character by its name, a bogie by its id."""
    return name(st, f) if f.side == TEAM else f.id


def whose_turn(st: PathState) -> str:
    """Who must act now, in words."""
    if st.pending is not None:
        return "the team must answer a charging bogie (panic or hold)"
    return f"the {SIDE_NAMES[st.side]} is moving"


# -- check -------------------------------------------------------------------------------------------
def check(st: PathState, seat: str, text: str) -> Command:
    """Parse and check ``text`` for ``seat``. Raises a RuleError naming the rule; never mutates."""
    try:
        return _check(st, seat, text)
    except RuleError as exc:
        why = str(exc)
        if why[:1].islower():  # messages that open with a bogie's name ("space alien al1 ...")
            raise type(exc)(why[:1].upper() + why[1:]) from None
        raise


def _check(st: PathState, seat: str, text: str) -> Command:
    words = text.strip().lower().split()
    if not words:
        raise UnknownCommand("Type a command, for example 'move vance d4' or 'end'.")
    verb, args = words[0], words[1:]
    if verb not in VERBS:
        raise UnknownCommand(
            f"'{words[0]}' is not an Escape Path command. Commands: {', '.join(sorted(VERBS))}."
        )
    if st.result is not None:
        raise NotYourTurn("The game is over.")
    if verb == "react":
        if seat != TEAM:
            raise NotYourTurn("Only the team has a standing answer (for panic shots).")
        if len(args) != 2 or args[0] != "panic" or args[1] not in POLICY_KINDS["panic"]:
            raise IllegalCommand("Set the standing answer with: react panic always|never|ask.")
        return Command("react", (args[0], args[1]), f"Panic shots: {REACT_LABELS[args[1]]}")
    if st.pending is not None:
        if seat != TEAM:
            raise NotYourTurn(f"Not your turn: {whose_turn(st)}.")
        if words in (["panic"], ["hold"]):
            return next(c for c in panic_options(st) if c.verb == verb)
        raise IllegalCommand(
            "A bogie is charging a character: answer 'panic' (take the panic shot) or 'hold'."
        )
    if seat != st.side:
        raise NotYourTurn(f"Not your turn: {whose_turn(st)}.")
    if verb in ("panic", "hold"):
        raise IllegalCommand("Panic shots are taken only when a bogie charges a character (panic shot rule).")
    if verb == "end":
        if args:
            raise IllegalCommand("'end' takes nothing after it: it ends your side's turn.")
        return end_command(seat)
    if not args:
        raise IllegalCommand(f"Name the figure: '{verb} <figure> ...'.")
    f = _figure(st, seat, args[0])
    _may_act(st, f, verb)
    options = figure_commands(st, f, short_name(st, f))
    args = [f.id, *args[1:]]  # a character may be named by its name as well as its id
    if (
        verb in ("move", "shoot", "bomb")
        and len(args) == 3
        and f.pos is not None
        and args[2] == DIRS[f.facing]
    ):
        args = args[:2]  # naming the facing the figure already has is no turn: the same command
    if verb == "enter" and len(args) == 3 and args[2] == _straight_in(st, args[1]):
        args = args[:2]  # naming the facing it comes on with anyway is no turn: the plain entry
    canon = " ".join([verb, *args])
    for c in options:
        if c.text == canon:
            return c
    raise IllegalCommand(_why_not(st, f, verb, args, options))


def _straight_in(st: PathState, word: str) -> str | None:
    """The facing a bogie coming on at square ``word`` has without turning (None: not a square)."""
    s = scen(st)
    try:
        c = parse_cell(word, s.width, s.height)
    except RuleError:
        return None
    return DIRS[s.entry_facing(c)]


def _figure(st: PathState, seat: str, word: str) -> Figure:
    f = st.figures.get(word)
    if f is None:
        names = {name(st, x).lower(): x for x in st.figures.values() if x.side == TEAM}
        f = names.get(word)
    if f is None:
        raise IllegalCommand(f"There is no figure '{word}'. Characters: " + ", ".join(
            m.id for m in scen(st).team) + "; bogies are named like " + next(iter(
            x.id for x in st.figures.values() if x.side == SWARM)) + ".")  # fmt: skip
    if f.side != seat:
        raise NotYourTurn(f"{name(st, f)} belongs to the {SIDE_NAMES[f.side]}, not to you.")
    return f


def _may_act(st: PathState, f: Figure, verb: str) -> None:
    nm = name(st, f)
    if f.status in ("dead", "escaped"):
        raise IllegalCommand(
            f"{nm} is {'dead' if f.status == 'dead' else 'gone: escaped characters never return'}."
        )
    if f.id in st.done:
        raise IllegalCommand(f"{nm} has finished for this turn: a figure spends all its points before the next one starts (rule 2.3).")  # fmt: skip
    if f.status == "pool":
        if verb != "enter":
            raise IllegalCommand(f"{nm} is not on the map: bring it on with 'enter {f.id} <entry point>'.")
        if not R.may_start(st, f):
            why = (
                "bogies caught in a blast zone move out of it first (bomb rule)"
                if st.trapped
                else "it has acted this turn"
            )
            raise IllegalCommand(f"{nm} cannot come on now: {why}.")
        if not entry_points(st):
            in_play = sum(1 for x in st.figures.values() if x.side == SWARM and x.status == "board")
            why = (
                f"{in_play} {'is' if in_play == 1 else 'are'} in play, the scenario's cap (rule 1.5)"
                if in_play >= scen(st).cap
                else "every entry point is occupied or closed by a blast"
            )
            raise IllegalCommand(f"No new bogie can enter now: {why}.")
        return
    if verb == "enter":
        raise IllegalCommand(f"{nm} is already on the map.")
    if st.side == SWARM and st.trapped and f.id not in st.trapped and f.id != st.active:
        raise IllegalCommand(
            "Bogies caught in a blast zone must move out of it first: " + ", ".join(st.trapped) + "."
        )
    if f.id in st.trapped and verb not in TRAPPED_VERBS:
        raise IllegalCommand(
            f"{nm} is in a blast zone and must spend its points moving out of it before anything else."
        )
    if st.side == SWARM and st.entering and f.id != st.active:
        raise IllegalCommand("New bogies are coming on: the bogies already in play have finished (rule 1.5).")
    if f.ap <= 0:
        raise IllegalCommand(f"{nm} has no action points left this turn (rule 2.2).")


def _why_not(st: PathState, f: Figure, verb: str, args: list[str], options: list[Command]) -> str:
    nm = name(st, f)
    s = scen(st)
    same = [c.text for c in options if c.verb == verb][:6]
    hint = f" Possible: {'; '.join(same)}." if same else ""
    longest = max((c for c in options if c.verb == verb), key=lambda c: len(c.args), default=None)
    if longest is not None and len(args) > len(longest.args):
        return f"Too many words: '{verb}' takes at most {plural(len(longest.args), 'word')} after it, like '{longest.text}'."
    if verb in ("move", "jump", "retreat", "enter") and len(args) >= 2:
        try:
            c = parse_cell(args[1], s.width, s.height)
        except RuleError as exc:
            return str(exc)
        occ = occupancy(st)
        if c in s.walls:
            return f"{cell_name(c)} is a wall or object: figures cannot enter it (rule 6.1)."
        if c in s.voids:
            return f"{cell_name(c)} is a void: it cannot be entered, only jumped across in a straight line (voids rule)."
        if c in occ:
            return f"{cell_name(c)} is occupied by {name(st, occ[c])}: figures cannot move through others (rule 6.1)."
        if c in st.closed:
            return f"{cell_name(c)} is closed by a blast this turn (bomb rule)."
        if verb == "enter":
            if c in s.entries and c not in st.closed and len(args) >= 3:
                return (
                    f"A bogie comes on at {cell_name(c)} facing {DIRS[s.entry_facing(c)]}, or turned up to 90 "
                    f"degrees from that: the entry is a 1 AP move (rules 3.2, 3.3).{hint}"
                )
            return f"{cell_name(c)} is not a free entry point.{hint}"
        if verb == "jump":
            return f"A jump goes straight (not diagonally) across a void and costs the AP of walking it (voids rule); {nm} has {f.ap}.{hint}"
        if f.pos is not None and G.direction(f.pos, c) is None:
            return f"{cell_name(c)} is not next to {nm}: a move is one step to one of the eight squares around (rule 3.1).{hint}"
        if len(args) >= 3 and verb == "move" and args[2] not in DIRS:
            return f"'{args[2]}' is not a facing: use one of {' '.join(DIRS)}."
        if verb == "retreat":
            return f"A retreat shot steps backward or diagonally backward (2 AP) without turning and fires at a bogie in the arc (rule 7.4).{hint}"
        return (
            f"{nm} cannot make that step with {f.ap} AP: forward, diagonal-forward and sideways steps cost 1, "
            f"backward ones 2, and each AP allows 90 degrees of turn (rules 3.1, 3.2); the diagonal between two blockers is shut (rule 6.1).{hint}"
        )
    if verb == "turn":
        if len(args) != 2 or args[1] not in DIRS:
            return f"Turn to one of {' '.join(DIRS)}: 'turn {f.id} ne'."
        if f.pos is not None and args[1] == DIRS[f.facing]:
            return f"{nm} already faces {args[1]}."
        return f"{nm} has {f.ap} AP: turning costs 1 AP per 90 degrees (rule 3.2)."
    if verb in ("shoot", "bomb"):
        if f.side != TEAM:
            return "Bogies fight only in close combat."
        if verb == "bomb" and f.bombs <= 0:
            return f"{nm} has no {s.bomb} left (bombs are limited, rule 8.3)."
        if len(args) < 2 or args[1] not in st.figures or st.figures[args[1]].status != "board":
            return f"Name a bogie on the map to {verb} at: weapons are aimed at bogies (rule 7.1).{hint}"
        need = 2 if verb == "bomb" else 1
        if f.ap < need:
            return f"{nm} has {f.ap} AP; a {'bomb' if verb == 'bomb' else 'gun shot'} costs {need} (rules 8.2, 8.3)."
        return (
            f"{nm} cannot fire at {args[1]} that way: only targets in the 90 degree arc of fire, not the square "
            f"straight ahead, with a clear line (rules 5.1, 6.1, 7.1); the free 90 degree turn may bring a target "
            f"into the arc only if it is already in sight (rule 7.5).{hint}"
        )
    if verb == "attack":
        return f"{nm} can only attack an enemy on the square directly in front, never diagonally (rule 9.1), for 1 AP."
    if verb == "escape":
        return f"{nm} must stand on the escape point ({', '.join(cell_name(c) for c in s.escapes) or 'none'}) with 1 AP (rule 3.3)."
    if verb == "leave":
        return "A bogie leaves the map only from an entry point, for 1 AP (rule 3.3)."
    return f"That is not possible now.{hint}"


# -- play --------------------------------------------------------------------------------------------
def play(st: PathState, seat: str, cmd: Command) -> list[Event]:
    """Play a checked command; mutates ``st``; returns the narration (each line a capitalised sentence)."""
    ev = _play(st, seat, cmd)
    return [e if e.text[:1].isupper() else replace(e, text=e.text[:1].upper() + e.text[1:]) for e in ev]


def _play(st: PathState, seat: str, cmd: Command) -> list[Event]:
    ev: list[Event] = []
    v, a = cmd.verb, cmd.args
    if v == "react":
        st.policies[a[0]] = a[1]
        return [Event(f"The team's standing answer for panic shots is now '{a[1]}'.")]
    if v in ("panic", "hold"):
        assert st.pending is not None
        b, c = st.figures[st.pending["bogie"]], st.figures[st.pending["char"]]
        st.pending = None
        st.panicked.append(c.id)
        if v == "hold":
            ev.append(Event(f"{name(st, c)} holds fire."))
        R.resolve_attack(st, b, c, ev, panic=v == "panic")
        R.settle(st, ev)
        return ev
    if v == "end":
        ev.append(Event(f"The {SIDE_NAMES[seat]} ends its turn."))
        R.end_side(st, ev)
        R.settle(st, ev)
        return ev
    f = st.figures[a[0]]
    R.begin(st, f)
    PLAYS[v](st, f, a, ev)
    R.settle(st, ev)
    return ev


def _cell(st: PathState, text: str) -> tuple[int, int]:
    s = scen(st)
    return parse_cell(text, s.width, s.height)


def _move(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    assert f.pos is not None
    dest = _cell(st, a[1])
    g = DIRS.index(a[2]) if len(a) > 2 else f.facing
    d = G.direction(f.pos, dest)
    assert d is not None
    cost = G.move_cost(f.facing, d, g)
    assert cost is not None
    frm = cell_name(f.pos)
    f.facing = g
    R.enter_square(st, f, dest)
    if f.id in st.trapped:
        st.trapped.remove(f.id)
    # Where it faces and what it has left after the step: a run of steps reads as one line that ends on them.
    after = f", facing {DIRS[g]} ({max(0, f.ap - cost)} AP left)"
    head = f"{name(st, f)} moves to"
    head = head[:1].upper() + head[1:]  # as play() capitalises the line ("Space alien al2 moves to")
    ev.append(Event(f"{head} {a[1]}{after}.", data={"path": (head, frm, a[1], after)}))
    R.spend(st, f, cost)


def _jump(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    assert f.pos is not None
    dest = _cell(st, a[1])
    n = max(abs(dest[0] - f.pos[0]), abs(dest[1] - f.pos[1]))
    step = G.direction(f.pos, (f.pos[0] + (dest[0] - f.pos[0]) // n, f.pos[1] + (dest[1] - f.pos[1]) // n))
    assert step is not None
    cost = n * G.step_cost(f.facing, step)
    R.enter_square(st, f, dest)
    if f.id in st.trapped:
        st.trapped.remove(f.id)
    ev.append(Event(f"{name(st, f)} jumps across to {a[1]} ({cost} AP)."))
    R.spend(st, f, cost)


def _turn(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    g = DIRS.index(a[1])
    cost = G.turn_cost(f.facing, g)
    f.facing = g
    ev.append(Event(f"{name(st, f)} turns to face {a[1]} ({cost} AP)."))
    R.spend(st, f, cost)


def _shoot(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    _fire(st, f, a, ev, bomb=False)


def _bomb(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    _fire(st, f, a, ev, bomb=True)


def _fire(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event], bomb: bool) -> None:
    assert f.pos is not None
    target = st.figures[a[1]]
    assert target.pos is not None
    g = DIRS.index(a[2]) if len(a) > 2 else None
    turn_first = g is not None and not can_fire(st, f, target.pos, occupancy(st))
    if g is not None and turn_first:
        f.facing = g
        ev.append(Event(f"{name(st, f)} turns {a[2]} (free with the shot)."))
    if bomb:
        R.bomb(st, f, target.pos, ev)
    else:
        R.shoot(st, f, target, ev)
    # A thrower killed by its own blast (ruling 12) turns no more.
    if g is not None and not turn_first and f.status == "board":
        f.facing = g
        ev.append(Event(f"{name(st, f)} turns {a[2]} (free with the shot)."))
    R.spend(st, f, 2 if bomb else 1)


def _retreat(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    dest = _cell(st, a[1])
    R.enter_square(st, f, dest)
    ev.append(Event(f"{name(st, f)} backs away to {a[1]} (2 AP) and fires on the way."))
    R.shoot(st, f, st.figures[a[2]], ev, free=True)
    if f.status == "board":
        R.spend(st, f, 2)


def _attack(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    assert f.pos is not None
    foe = occupancy(st)[G.ahead(f.pos, f.facing)]
    st.attacks.append((f.pos, G.ahead(f.pos, f.facing)))
    ev.append(Event(f"{name(st, f)} attacks {name(st, foe)}.", "attack"))
    R.spend(st, f, 1)
    if f.side == SWARM and R.panic_due(st, f, foe):
        policy = st.policies.get("panic", "ask")
        if policy == "ask":
            st.pending = {"bogie": f.id, "char": foe.id}
            ev.append(Event(f"{name(st, foe)} may fire a panic shot at the charging {f.id}.", "reaction"))
            return
        st.panicked.append(foe.id)
        R.resolve_attack(st, f, foe, ev, panic=policy == "always")
        return
    R.melee(st, f, foe, ev)


def _escape(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, f, 1)
    f.status, f.pos = "escaped", None
    st.escaped += 1
    R.finish_active(st)
    ev.append(Event(f"{name(st, f)} escapes!", "escape"))


def _enter(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    c = _cell(st, a[1])
    f.status = "board"
    f.facing = DIRS.index(a[2]) if len(a) > 2 else scen(st).entry_facing(c)
    st.entering = True
    R.enter_square(st, f, c)
    ev.append(Event(f"A {name(st, f)} comes on at {a[1]}, facing {DIRS[f.facing]} (1 AP)."))
    R.spend(st, f, 1)


def _leave(st: PathState, f: Figure, a: tuple[str, ...], ev: list[Event]) -> None:
    R.spend(st, f, 1)
    ev.append(Event(f"{name(st, f)} leaves the map at {cell_name(f.pos) if f.pos else '?'}."))
    f.status, f.pos, f.ap = "pool", None, 0
    if f.id in st.trapped:
        st.trapped.remove(f.id)
    R.finish_active(st)


PLAYS = {
    "move": _move, "jump": _jump, "turn": _turn, "shoot": _shoot, "bomb": _bomb, "retreat": _retreat,
    "attack": _attack, "escape": _escape, "enter": _enter, "leave": _leave,
}  # fmt: skip
