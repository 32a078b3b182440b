"""Non-player characters: hostages, prisoners and guides, played by the whole team with their own die.

An NPC is inactive until a prisoner is freed (nothing holds it any more), a hostage is taken (a
character on its tile types ``escort``) or, for a guide, from the start. An active NPC rolls its own
die each round and takes one action from its card (its 6-action on a 6, ideas turning the die as for
anyone), played by any player with ``npc act <action>``, ``npc move <hex>``... and ``npc done``. It needs
no planning tokens. An NPC that reaches an exit is out, safe. See docs/rulings/heist.md.
"""

from __future__ import annotations

from engine.core import Command, Event
from engine.geometry import hexgrid as H
from engine.grammar import plural
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.content import NpcSide
from engine.rulesets.heist.state import ALERT, CAMERA, GUARD, LOCK, NOISE, HeistState, Npc, Player

FRONT = {"prisoner": "freed_prisoner", "hostage": "hostage", "guide": "guide"}
GUIDE_SPECIAL = "pause"  # the scenario's special guide action: Pause 💡 (The Side Channel)


def side(npc: Npc) -> NpcSide:
    """The card side that is up: the front, or the panicked back after a Panic! crisis."""
    c = R.C()
    front = FRONT[npc.kind]
    return c.npc_back(front) if npc.panic else c.npcs[front]


def the_npc(st: HeistState) -> Npc | None:
    """The heist's NPC still in play and active (heists have at most one)."""
    return next((n for n in st.npcs if n.status == "in" and n.active), None)


def held(st: HeistState, npc: Npc) -> bool:
    """True while something holds the NPC: a remote lock or keycard door on its tile, a guard there, or every
    tile next to it shut (a keycard door, a remote lock or a lock): it cannot take a step."""
    if R.sealed(st, npc.pos) or R.guards(st, npc.pos) > 0:
        return True
    return all(R.locked(st, m) for m in R.nbrs(st, npc.pos))


def options(st: HeistState, npc: Npc) -> list[R.Option]:
    """The actions the NPC may take now: its card's actions, and its 6-action for the ideas to reach a 6."""
    s = side(npc)
    out = []
    for aid in s.actions:
        out.append(R.Option(aid, R.C().actions[aid].name, R.letters(aid), s.name, 0))
    if s.special and R.has_rule(st, "fancy_card_flick"):
        if "keycard" in npc.loot:
            out.append(R.Option("flick", "Fancy Card Flick", "", s.name, 0))
    elif s.special:
        out.append(R.Option(GUIDE_SPECIAL, "Pause", R.letters(GUIDE_SPECIAL), s.name, 0))
    if s.roll6_action:
        cost = R.face_cost(npc.die, 6)
        if cost <= npc.ideas:
            aid = s.roll6_action
            out.append(R.Option(aid, R.C().actions[aid].name, R.letters(aid), s.name, cost, 6))
    found: dict[str, R.Option] = {}
    for o in out:
        if o.key not in found or o.cost < found[o.key].cost:
            found[o.key] = o
    return sorted(found.values(), key=lambda o: (o.cost, o.key))


def can_subdue(npc: Npc) -> bool:
    """A freed prisoner cannot 👊 until it panics."""
    return not (npc.kind == "prisoner" and not npc.panic)


def moves(st: HeistState, npc: Npc) -> list[str]:
    """Tiles the NPC may ➜ to: adjacent, not locked, not held by a guard on its own tile."""
    if held(st, npc):
        return []
    return [m for m in R.nbrs(st, npc.pos) if not R.locked(st, m)]


def legal(st: HeistState) -> list[Command]:
    """The ``npc ...`` commands any player may give now."""
    npc = the_npc(st)
    if npc is None:
        return []
    if st.phase == "escape":
        runs = [Command("npc", ("run",), f"Run the {npc.kind} to an exit")]
        for n in sorted(st.tiles):
            if R.alive(st, n) and any(not x.startswith("item:") for x in R.loot_on(st, n)):
                runs.append(Command("npc", ("run", "via", n), f"Run the {npc.kind} out by way of {n}"))
        return runs + loot_commands(st, npc)
    if st.phase != "action":
        return []
    free = loot_commands(st, npc) + door_commands(st, npc)
    if npc.done:
        return free
    if not npc.action:
        return [
            Command("npc", ("act", o.key), f"The {npc.kind}: {R.option_label(o)}") for o in options(st, npc)
        ] + free
    out: list[Command] = free
    left = npc.left
    if "M" in left:
        out += [Command("npc", ("move", m), f"The {npc.kind} ➜ {m}") for m in moves(st, npc)]
    if "U" in left:
        out += [Command("npc", ("unlock", m), f"The {npc.kind} 🔓 {m}") for m in R.nbrs(st, npc.pos)
                if R.chits(st, m, LOCK)]  # fmt: skip
    reach = [npc.pos, *R.nbrs(st, npc.pos)]
    if "S" in left and can_subdue(npc):
        out += [Command("npc", ("subdue", m), f"The {npc.kind} 👊 {m}") for m in reach if R.guards(st, m)]
    if "D" in left:
        out += [
            Command("npc", ("disable", m), f"The {npc.kind} 📷 {m}") for m in reach if R.chits(st, m, CAMERA)
        ]
    if "R" in left:
        out += [Command("npc", ("reveal", n), f"The {npc.kind} 🔍 {n}") for n, t in sorted(st.tiles.items())
                if t.unknown and R.alive(st, n)]  # fmt: skip
    if "I" in left:
        out.append(Command("npc", ("idea",), f"The {npc.kind} 💡"))
    if npc.action == "flick" and "keycard" in npc.loot:
        for line in R.board(st).lines[npc.pos]:
            for m in line:
                if not R.alive(st, m):
                    break
                out.append(Command("npc", ("flick", m), f"The guide flicks the keycard to {m}"))
    out.append(Command("npc", ("done",), f"The {npc.kind} finishes its action"))
    return out


def loot_commands(st: HeistState, npc: Npc) -> list[Command]:
    """Free loot handling for an active NPC ("just a character"): pick up the loot on its hex, drop its own."""
    out = [
        Command("npc", ("take", what), f"The {npc.kind} picks up {what}")
        for what in R.loot_on(st, npc.pos)
        if not what.startswith("item:")
    ]
    out += [Command("npc", ("drop", what), f"The {npc.kind} drops {what}") for what in sorted(set(npc.loot))]
    return out


def door_commands(st: HeistState, npc: Npc) -> list[Command]:
    """An NPC holding the keycard may open a keycard door next to it, free, as a character may."""
    if "keycard" not in npc.loot:
        return []
    return [
        Command("npc", ("open", m), f"The {npc.kind} opens the keycard door at {m}")
        for m in R.nbrs(st, npc.pos)
        if "keycard_door" in st.tiles[m].marks
    ]


def let_go(npc: Npc, what: str) -> int:
    """Take ``what`` off the NPC: every $1k it holds for ``cash`` (cash is one piece of loot, whatever the
    amount), else one piece. Returns how many pieces of ``what`` it let go."""
    if what == "cash":
        n = npc.loot.count("cash")
        npc.loot = [x for x in npc.loot if x != "cash"]
        return n
    npc.loot.remove(what)
    return 1


def play(st: HeistState, args: tuple[str, ...], ev: list[Event]) -> None:
    """Play an ``npc`` command that :func:`legal` offered."""
    npc = the_npc(st)
    assert npc is not None
    sub = args[0]
    if sub == "act":
        o = next(o for o in options(st, npc) if o.key == args[1])
        npc.ideas -= o.cost
        if o.face:
            npc.die = o.face
        npc.action = o.key
        npc.noise_due = o.subs.count(NOISE)
        npc.alert_due = o.subs.count(ALERT)
        npc.left = "".join(c for c in o.subs if c not in (NOISE, ALERT))
        ev.append(Event(f"The {npc.kind} takes {o.name} {R.sym(o.subs)}.", "npc"))
    elif sub == "done":
        finish(st, npc, ev)
    elif sub == "run":
        run(st, npc, args[2] if len(args) > 2 else "", ev)
    elif sub == "take":
        t = st.tiles[npc.pos]
        if args[1] == "cash":
            npc.loot += ["cash"] * t.cash
            t.cash = 0
        else:
            t.loot.remove(args[1])
            npc.loot.append(args[1])
        ev.append(Event(f"The {npc.kind} picks up {args[1]} at {npc.pos}.", "loot"))
        received(st, npc, args[1], ev)
    elif sub == "drop":
        t = st.tiles[npc.pos]
        if args[1] == "cash":
            t.cash += let_go(npc, "cash")
        else:
            let_go(npc, args[1])
            t.loot.append(args[1])
        ev.append(Event(f"The {npc.kind} drops {args[1]} at {npc.pos}.", "loot"))
    elif sub == "open":
        st.tiles[args[1]].marks.remove("keycard_door")
        ev.append(Event(f"The {npc.kind} swipes the keycard: the door at {args[1]} opens.", "unlock"))
    elif sub == "flick":
        npc.loot.remove("keycard")
        st.tiles[args[1]].loot.append("keycard")
        ev.append(Event(f"With a flick of the wrist the guide sends the keycard to {args[1]}.", "npc"))
    else:
        letter = {"move": "M", "unlock": "U", "subdue": "S", "disable": "D", "reveal": "R", "idea": "I"}[sub]
        i = npc.left.index(letter)
        npc.left = npc.left[:i] + npc.left[i + 1 :]
        if sub == "move":
            step(st, npc, args[1], ev)
        elif sub in ("unlock", "subdue", "disable"):
            kind = {"unlock": LOCK, "subdue": GUARD, "disable": CAMERA}[sub]
            chit = R.chits(st, args[1], kind)[0]
            if R.hit_chit(chit):  # an elite chit needs two in one round, as for anyone
                done = {
                    "unlock": "unlocks",
                    "subdue": "subdues the guard at",
                    "disable": "disables the camera at",
                }
                ev.append(Event(f"The {npc.kind} {done[sub]} {args[1]}.", "npc"))
            else:
                ev.append(
                    Event(
                        f"The {npc.kind} works on the elite {chit.kind} at {args[1]} (one more this round).",
                        "npc",
                    )
                )
        elif sub == "reveal":
            R.draw(st, args[1], ev, f"The {npc.kind} reveals")
        else:
            npc.ideas += 1
            ev.append(Event(f"The {npc.kind} gains 💡 ({npc.ideas}).", "npc"))


def step(st: HeistState, npc: Npc, to: str, ev: list[Event]) -> None:
    """Move the NPC; cameras see it, unknown tiles around it are revealed, an exit gets it out."""
    frm, npc.pos = npc.pos, to
    ev.append(Event(f"The {npc.kind} moves {frm} ➜ {to}.", "npc"))
    if "loop_footage" not in st.flags:
        for _ in R.chits(st, to, CAMERA):
            R.alert(st, ev, f"a live camera sees the {npc.kind} at {to}")
    if to in R.exits(st):
        escaped(st, npc, ev)
        return
    R.lift_remote_locks(st, to, ev)  # a server opens for the NPC as for anyone
    R.reveal_around(st, to, ev)
    R.dogs_chase(st, ev)


def give(st: HeistState, p: Player, what: str, ev: list[Event]) -> None:
    """A character hands loot to the NPC on its tile (the USB key to the guide, the documents to the Architect)."""
    npc = the_npc(st)
    assert npc is not None
    if what == "cash":
        npc.loot += ["cash"] * p.cash
        p.cash = 0
    else:
        p.loot.remove(what)
        npc.loot.append(what)
    ev.append(Event(f"{p.nickname} hands {what} to the {npc.kind}.", "loot"))
    received(st, npc, what, ev)


def received(st: HeistState, npc: Npc, what: str, ev: list[Event]) -> None:
    """What the NPC coming into possession of a piece of loot does (handed over or picked up): The Side
    Channel's guide opens remote lock Y with the USB key; The Black Box's Architect with the documents gives
    every character 💡💡 (once)."""
    if what == "usb" and npc.kind == "guide" and R.has_rule(st, "usb_to_guide"):
        for t in st.tiles.values():
            if "remote_lock_y" in t.marks:
                t.marks.remove("remote_lock_y")
        ev.append(Event("The guide plugs the USB key in: remote lock Y opens.", "unlock"))
    if what == "docs" and R.has_rule(st, "architect_documents") and "architect_docs" not in st.flags:
        st.flags.append("architect_docs")
        for q in R.in_play(st):
            q.ideas += 2
        ev.append(Event("The Architect has the documents: every character gains 💡💡.", "idea"))


def escaped(st: HeistState, npc: Npc, ev: list[Event]) -> None:
    """The NPC is out, with whatever it carries."""
    npc.status = "escaped"
    for what in npc.loot:
        st.hauled[what] = st.hauled.get(what, 0) + 1
    npc.loot.clear()
    ev.append(Event(f"The {npc.kind} is out!", "npc"))


def finish(st: HeistState, npc: Npc, ev: list[Event]) -> None:
    """The NPC's action ends: its 🔊 and ⚠ are paid."""
    if npc.noise_due:
        R.make_noise(st, npc.noise_due, ev)
    for _ in range(npc.alert_due):
        R.alert(st, ev, f"the {npc.kind}'s action")
    npc.noise_due = npc.alert_due = 0
    npc.left = ""
    npc.done = True


def activate(st: HeistState, npc: Npc, ev: list[Event], why: str) -> None:
    """The NPC joins in: it rolls its die at once for this round."""
    npc.active = True
    st.undo.clear()  # a die was rolled: no more undoing
    npc.die = st.rng.roll(6)
    npc.action, npc.left, npc.done = "", "", False
    ev.append(Event(f"The {npc.kind} {why} and rolls {npc.die}.", "npc", dice=(npc.die,)))
    R.reveal_around(st, npc.pos, ev)  # "just a character": the tiles next to it are auto-revealed


def check_freed(st: HeistState, ev: list[Event]) -> None:
    """A prisoner with nothing holding it is freed at once (in Part II, never during the escape)."""
    if st.phase != "action":
        return
    moving = any(r.id == "moving_target" for r in R.heist(st).rules)
    for npc in st.npcs:
        if npc.kind != "prisoner" or npc.active or npc.status != "in" or held(st, npc):
            continue
        if moving and not any(p.pos == npc.pos for p in R.in_play(st)):
            continue  # led by guards: someone must reach her
        activate(st, npc, ev, "is free")


def take_hostage(st: HeistState, npc: Npc, taker: str, ev: list[Event]) -> None:
    """A character on the hostage's tile takes it: it gains 💡💡💡 and joins in."""
    npc.escort = taker
    npc.ideas += 3
    activate(st, npc, ev, f"is taken by {st.players[taker].nickname} (plotting escape: +💡💡💡)")


def start_round(st: HeistState, ev: list[Event]) -> list[int]:
    """The Roll phase for NPCs: active ones roll; a panicked hostage loses 💡. Returns the dice."""
    dice = []
    for npc in st.npcs:
        if npc.status != "in" or not npc.active:
            continue
        if npc.kind == "hostage" and npc.panic and npc.ideas:
            npc.ideas -= 1
            ev.append(Event("No plan survives: the panicked hostage loses 💡.", "npc"))
        npc.die = st.rng.roll(6)
        dice.append(npc.die)
        npc.action, npc.left, npc.done = "", "", False
        npc.noise_due = npc.alert_due = 0
    return dice


def end_of_actions(st: HeistState, ev: list[Event]) -> None:
    """End of the Action phase: an unfinished NPC action is paid; squirrely hostages and talkative guides.

    Only active NPCs act: a hostage nobody has taken yet (the Mayor too) does nothing until taken.
    """
    here = [p for p in R.in_play(st) if p.pos]
    for npc in st.npcs:
        if npc.status != "in" or not npc.active:
            continue
        if not npc.done:
            finish(st, npc, ev)
        together = any(p.pos == npc.pos for p in here)
        if npc.kind == "hostage" and here and not together:
            nearest = min(
                here, key=lambda p: (H.distance(R.cell_of(st, p.pos), R.cell_of(st, npc.pos)), p.seat)
            )
            if nearest.ideas:
                nearest.ideas -= 1
                ev.append(Event(f"The hostage squirms: {nearest.nickname} loses 💡.", "npc"))
            else:
                ev.append(
                    Event(f"The hostage squirms and {nearest.nickname} has no 💡 to spare: 🔊🔊.", "npc")
                )
                R.make_noise(st, 2, ev)
        elif npc.kind == "guide" and npc.panic and not together:
            ev.append(Event("The panicked guide talks to himself: 🔊.", "npc"))
            R.make_noise(st, 1, ev)


def run(st: HeistState, npc: Npc, via: str, ev: list[Event]) -> None:
    """The escape for an NPC: its ideas first, then its die; out, or caught.

    As for a character, ``via`` is a hex passed on the way, whose loot it picks up; one that falls short is
    caught as far along as its moves carry it, and what it carries stays on that hex.
    """
    # "Just a character": an NPC holding the keycard may take a keycard door on its way out, as a character may.
    route = R.route_from(st, npc.pos, via, better=False, keycard="keycard" in npc.loot)
    if route is None:
        npc.status = "busted"
        ev.append(Event(f"The {npc.kind} has no way out and is caught.", "busted"))
        return
    need = route[-1][1] if route else 0
    spend = min(npc.ideas, need)
    npc.ideas -= spend
    where = f" via {via}" if via else ""
    if need - spend == 0:
        ev.append(
            Event(f"The {npc.kind} needs {plural(need, 'escape move')}{where}, spends {spend} 💡.", "escape")
        )
        pick_up(st, npc, via)
        escaped(st, npc, ev)
        return
    die = st.rng.roll(6)
    ok = die >= need - spend
    verdict = "out!" if ok else "caught."
    ev.append(Event(f"The {npc.kind} needs {plural(need, 'escape move')}{where}, spends {spend} 💡 and rolls {die}: "
                    f"{verdict}", "escape" if ok else "busted", dice=(die,)))  # fmt: skip
    if ok:
        pick_up(st, npc, via)
        escaped(st, npc, [])  # the line above already says it is out
        return
    for n, used in route:  # caught as far along the way as its ideas and die carry it
        if used > spend + die:
            break
        npc.pos = n
        if n == via:
            pick_up(st, npc, via)
    t = st.tiles[npc.pos]
    t.cash += npc.loot.count("cash")
    t.loot += [x for x in npc.loot if x != "cash"]
    npc.loot.clear()
    npc.status = "busted"


def pick_up(st: HeistState, npc: Npc, n: str) -> None:
    """The NPC picks up the loot lying on hex ``n`` (item cards stay: an NPC carries loot, not cards)."""
    if not n:
        return
    t = st.tiles[n]
    npc.loot += ["cash"] * t.cash
    t.cash = 0
    npc.loot += [x for x in t.loot if not x.startswith("item:")]
    t.loot = [x for x in t.loot if x.startswith("item:")]


def run_last(st: HeistState, ev: list[Event]) -> None:
    """When every character is done escaping, an active NPC still inside runs on its own."""
    npc = the_npc(st)
    if npc is not None and st.phase == "escape":
        run(st, npc, "", ev)
