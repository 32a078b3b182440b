"""What each event and crisis card does when it is resolved in the Event phase.

Effects follow the card summaries in the content files. Where a card leaves a choice to the team, the
choice made here is recorded in ``docs/rulings/heist.md``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from engine.core import Command, Event
from engine.geometry import hexgrid as H
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import CAMERA, DOG, GUARD, LOCK, HeistState, Player

GATES = ("gate_a", "gate_b", "gate_c", "gate_d")
Effect = Callable[[HeistState, list[Event]], None]


def resolve(st: HeistState, card: str, ev: list[Event]) -> None:
    """Apply one event or crisis card."""
    fn = EFFECTS.get(card)
    if fn is None:
        ev.append(Event(f"{R.card_name(card)}: nothing happens here.", "event"))
        return
    fn(st, ev)


# --- helpers ------------------------------------------------------------------------------------------


def near(st: HeistState, p: Player) -> list[str]:
    """The tiles next to a character."""
    return R.nbrs(st, p.pos)


def inside(st: HeistState) -> list[Player]:
    """Characters still in play and indoors."""
    return [p for p in R.in_play(st) if not R.outdoors(st, p)]


def adjacent_to(st: HeistState, p: Player, kind: str) -> bool:
    """True when an active chit of ``kind`` is on a tile next to the character (looped cameras see nothing)."""
    if kind == CAMERA and "loop_footage" in st.flags:
        return False
    return any(R.chits(st, m, kind) for m in near(st, p))


def lose_idea(st: HeistState, p: Player, ev: list[Event], why: str) -> None:
    """The character loses 💡 (a Lucky Penny is discarded instead)."""
    if "lucky_penny" in p.items:
        p.items.remove("lucky_penny")
        ev.append(Event(f"{p.nickname} discards the Lucky Penny instead of losing 💡 ({why}).", "event"))
    elif p.ideas:
        p.ideas -= 1
        ev.append(Event(f"{p.nickname} loses 💡 ({why}).", "event"))


def protected(st: HeistState, n: str) -> bool:
    """True when guards on tile ``n`` cannot wake (an Operative's Pressure points on or next to it)."""
    for p in R.in_play(st):
        if "pressure_points" in R.abilities(p) and (p.pos == n or n in near(st, p)):
            return True
    return False


def wake(st: HeistState, n: str, ev: list[Event]) -> int:
    """Un-subdue every guard on a tile; returns how many woke."""
    if protected(st, n):
        return 0
    woke = 0
    for c in R.chits(st, n, GUARD, active=False):
        c.active = True
        woke += 1
    if woke:
        ev.append(Event(f"{woke} guard(s) at {n} wake up.", "event"))
    return woke


def add_to_bag(kind: str, n: int) -> Effect:
    """An effect that puts ``n`` chits of ``kind`` from the supply into the security bag."""

    def fn(st: HeistState, ev: list[Event]) -> None:
        """Apply the effect."""
        st.bag.extend([kind] * n)
        ev.append(Event(f"{n} {kind} chit(s) go into the security bag.", "event"))

    return fn


def upgrade_bag(kind: str) -> Effect:
    """An effect that swaps one ``kind`` chit in the bag for its elite (2x) version."""

    def fn(st: HeistState, ev: list[Event]) -> None:
        """Apply the effect."""
        if kind in st.bag:
            st.bag.remove(kind)
            st.bag.append(kind + "2x")
            ev.append(Event(f"One {kind} in the bag becomes an elite (2x) {kind}.", "event"))
        else:
            ev.append(Event(f"No {kind} is left in the bag to upgrade.", "event"))

    return fn


def alerts_if(st: HeistState, ev: list[Event], n: int, why: str) -> None:
    """Raise ``n`` alerts for ``why``."""
    for _ in range(n):
        R.alert(st, ev, why)


# --- the events ---------------------------------------------------------------------------------------


def e2(st: HeistState, ev: list[Event]) -> None:
    """Get Outta My Way!: two alerts per exit holding two or more characters."""
    crowded = [e for e, ps in R.occupied(st).items() if e in R.exits(st) and len(ps) >= 2]
    alerts_if(st, ev, 2 * len(crowded), "a crowded exit")


def e3(st: HeistState, ev: list[Event]) -> None:
    """Caught in a Reflection: an alert if any character is next to a live camera."""
    if any(adjacent_to(st, p, CAMERA) for p in R.in_play(st)):
        alerts_if(st, ev, 1, "caught on camera")


def e4(st: HeistState, ev: list[Event]) -> None:
    """Suspicious Guards: an alert if any character is next to an unsubdued guard."""
    if any(adjacent_to(st, p, GUARD) for p in R.in_play(st)):
        alerts_if(st, ev, 1, "a suspicious guard")


def e5(st: HeistState, ev: list[Event]) -> None:
    """Guard Locks Himself In: a lock on every guarded tile next to a character."""
    for n in sorted({m for p in R.in_play(st) for m in near(st, p)}):
        if R.guards(st, n):
            R.place(st, n, LOCK)
            ev.append(Event(f"The guard at {n} locks himself in.", "event"))


def e7(st: HeistState, ev: list[Event]) -> None:
    """Shadows in the Window: an alert if any character stands on an external tile."""
    if any(p.pos in R.board(st).external for p in R.in_play(st)):
        alerts_if(st, ev, 1, "a shadow in the window")


def e8(st: HeistState, ev: list[Event]) -> None:
    """Surveillance Reboot: disabled cameras next to another disabled camera come back on."""
    off = [n for n in st.tiles if R.chits(st, n, CAMERA, active=False)]
    back = [n for n in off if any(m in off for m in R.nbrs(st, n))]
    for n in back:
        for c in R.chits(st, n, CAMERA, active=False):
            c.active = True
        ev.append(Event(f"The camera at {n} reboots.", "event"))
    powered_on(st, back, ev)


def powered_on(st: HeistState, tiles: list[str], ev: list[Event]) -> None:
    """A camera powered back on raises ⚠ for each character on its tile."""
    occ = R.occupied(st)
    for n in tiles:
        for _ in occ.get(n, []):
            R.alert(st, ev, f"a camera comes back on at {n}")


def e9(st: HeistState, ev: list[Event]) -> None:
    """Double Camera: a second camera on every live-camera tile next to a character."""
    for n in sorted({m for p in R.in_play(st) for m in near(st, p)}):
        if R.chits(st, n, CAMERA):
            R.place(st, n, CAMERA)
            ev.append(Event(f"A second camera appears at {n}.", "event"))


def e10(st: HeistState, ev: list[Event]) -> None:
    """Increased Suspicion: the guard alert, then the camera alert."""
    e4(st, ev)
    e3(st, ev)


def e11(st: HeistState, ev: list[Event]) -> None:
    """Oops! Re-locked: every unlocked lock next to a character locks again."""
    for n in sorted({m for p in R.in_play(st) for m in near(st, p)}):
        for c in R.chits(st, n, LOCK, active=False):
            c.active = True
            ev.append(Event(f"The lock at {n} clicks shut again.", "event"))


def e12(st: HeistState, ev: list[Event]) -> None:
    """Guard Starts Blabbing: characters on a subdued guard may trade 🔊 for 💡 (a team choice: ``blab``)."""
    if blabbers(st):
        ev.append(
            Event("A subdued guard starts blabbing: characters on his tile may 'blab' (🔊 for 💡).", "event")
        )


def e13(st: HeistState, ev: list[Event]) -> None:
    """Overwhelmed: characters next to two or more unhandled chits lose 💡."""
    for p in inside(st):
        n = sum(1 for m in near(st, p) for c in st.tiles[m].chits if c.active)
        if n >= 2:
            lose_idea(st, p, ev, "overwhelmed")


def e14(st: HeistState, ev: list[Event]) -> None:
    """Door Rattles: a guard on every locked tile next to a character."""
    for n in sorted({m for p in R.in_play(st) for m in near(st, p)}):
        if R.chits(st, n, LOCK):
            R.place(st, n, GUARD)
            ev.append(Event(f"A guard comes to check the door at {n}.", "event"))


def e15(st: HeistState, ev: list[Event]) -> None:
    """I Thought I Had Him: guards sharing a tile with a character wake up; then the team may ``tip``."""
    woke = sum(wake(st, n, ev) for n in sorted(R.occupied(st)))
    if woke:
        st.flags.append("choice:tip")


# --- team choices on the active event (phase "event") --------------------------------------------------------


def blabbers(st: HeistState) -> list[Player]:
    """Characters on a subdued guard who have not blabbed yet (Guard Starts Blabbing)."""
    return [
        p
        for p in R.in_play(st)
        if R.chits(st, p.pos, GUARD, active=False) and f"choice:blab:{p.seat}" not in st.flags
    ]


def sharers(st: HeistState, p: Player) -> list[Player]:
    """Characters on or next to ``p``'s tile (Stage Whisper)."""
    return [q for q in R.in_play(st) if q is not p and (q.pos == p.pos or q.pos in near(st, p))]


def choice_commands(st: HeistState, p: Player) -> list[Command]:
    """What ``p`` may do with the active event now; always ``continue``."""
    card = st.active_event
    out: list[Command] = []
    if p.status == "in":
        if card == "12" and p in blabbers(st):
            out.append(Command("blab", (), "Listen to the guard: 🔊 for 💡"))
        if card == "15" and "choice:tip" in st.flags:
            out += [Command("tip", (q.seat,), f"Pay 🔊 to give {q.nickname} 💡") for q in R.in_play(st)]
        if card == "17" and p.ideas:
            out += [Command("share", (q.seat,), f"Whisper 💡 to {q.nickname} (🔊)") for q in sharers(st, p)]
        if card == "24" and p.ideas:
            giver = next((f.split(":")[2] for f in st.flags if f.startswith("choice:handoff:")), None)
            if giver in (None, p.seat):
                out += [
                    Command("handoff", (q.seat,), f"Give {q.nickname} 💡")
                    for q in R.in_play(st)
                    if q is not p
                ]
    out.append(Command("continue", (), "Go on with the Event phase"))
    return out


def choices_open(st: HeistState) -> bool:
    """True when the active event offers the team a choice right now."""
    return any(any(c.verb != "continue" for c in choice_commands(st, p)) for p in R.in_play(st))


def play_choice(st: HeistState, p: Player, cmd: Command, ev: list[Event]) -> bool:
    """Play a team choice on the active event; True when the Event phase goes on now.

    ``continue`` goes on at once; so does the last choice the card offers.
    """
    if cmd.verb == "continue":
        ev.append(Event(f"{p.nickname}: on with the Event phase.", "event"))
        return True
    if cmd.verb == "blab":
        st.flags.append(f"choice:blab:{p.seat}")
        R.make_noise(st, 1, ev)
        p.ideas += 1
        ev.append(Event(f"{p.nickname} listens to the blabbing guard (🔊) and gains 💡.", "event"))
    elif cmd.verb == "tip":
        q = st.players[cmd.args[0]]
        st.flags.remove("choice:tip")
        R.make_noise(st, 1, ev)
        q.ideas += 1
        ev.append(Event(f"The team pays 🔊 and {q.nickname} gains 💡.", "event"))
    elif cmd.verb == "share":
        q = st.players[cmd.args[0]]
        R.make_noise(st, 1, ev)
        p.ideas -= 1
        q.ideas += 1
        ev.append(Event(f"{p.nickname} whispers 💡 to {q.nickname} (🔊).", "event"))
    else:
        q = st.players[cmd.args[0]]
        st.flags.append(f"choice:handoff:{p.seat}")
        p.ideas -= 1
        q.ideas += 1
        ev.append(Event(f"{p.nickname} hands 💡 to {q.nickname}.", "event"))
    return not choices_open(st)


def e16(st: HeistState, ev: list[Event]) -> None:
    """Cameras Rotate: one alert per character next to a live camera, at most two."""
    seen = sum(1 for p in R.in_play(st) if adjacent_to(st, p, CAMERA))
    alerts_if(st, ev, min(seen, 2), "rotating cameras")


def e18(st: HeistState, ev: list[Event]) -> None:
    """Moment of Doubt: characters with nobody on or next to their tile lose 💡."""
    ps = R.in_play(st)
    for p in ps:
        if not any(q is not p and (q.pos == p.pos or q.pos in near(st, p)) for q in ps):
            lose_idea(st, p, ev, "a moment of doubt")


def e19(st: HeistState, ev: list[Event]) -> None:
    """Hey You!: a guard on the tile of every character next to a live camera."""
    for p in R.in_play(st):
        if adjacent_to(st, p, CAMERA) and not R.outdoors(st, p):
            R.place(st, p.pos, GUARD)
            ev.append(Event(f"A guard comes for {p.nickname} at {p.pos}.", "event"))


def e20(st: HeistState, ev: list[Event]) -> None:
    """Hurry Up!: characters sharing a tile with a guard lose 💡."""
    for p in R.in_play(st):
        if R.guards(st, p.pos):
            lose_idea(st, p, ev, "hurry up")


def e21(st: HeistState, ev: list[Event]) -> None:
    """Fear of the Unknown: characters with planned tiles still unknown lose 💡."""
    for p in R.in_play(st):
        if any(st.tiles[n].unknown for n in p.plans if n in st.tiles):
            lose_idea(st, p, ev, "fear of the unknown")


def e22(st: HeistState, ev: list[Event]) -> None:
    """Fumble the Loot: indoor characters drop loot the objective does not need."""
    needed = R.heist(st).objective
    for p in inside(st):
        keep_jewels = needed.jewels > 0
        keep_cash = needed.cash_k > 0
        dropped = []
        if p.cash and not keep_cash:
            dropped.append("cash")
        if not keep_jewels:
            dropped += [x for x in p.loot if x == "jewel"]
        if not dropped:
            continue
        spots = [
            m for m in near(st, p) if not R.guards(st, m) and m not in R.exits(st) and not R.locked(st, m)
        ]
        for what in dropped:
            if what == "cash":
                amount, p.cash = p.cash, 0
                if spots:
                    st.tiles[spots[0]].cash += amount
            else:
                p.loot.remove(what)
                if spots:
                    st.tiles[spots[0]].loot.append(what)
        where = f"onto {spots[0]}" if spots else "and loses it"
        ev.append(Event(f"{p.nickname} fumbles {', '.join(dropped)} {where}.", "event"))


def e23(st: HeistState, ev: list[Event]) -> None:
    """Ties Broke!: subdued guards sharing a tile with a character wake up."""
    for n in sorted(R.occupied(st)):
        wake(st, n, ev)


def a2(st: HeistState, ev: list[Event]) -> None:
    """Where is He?: a guard on every live-camera tile next to a subdued guard."""
    for n in sorted(st.tiles):
        if R.chits(st, n, CAMERA) and any(R.chits(st, m, GUARD, active=False) for m in R.nbrs(st, n)):
            R.place(st, n, GUARD)
            ev.append(Event(f"A guard takes the camera post at {n}.", "event"))


def a4(st: HeistState, ev: list[Event]) -> None:
    """Their Word Against Yours: characters near a guard but no live camera lose 💡."""
    for p in R.in_play(st):
        around = [p.pos, *near(st, p)]
        if not any(R.chits(st, m, CAMERA) for m in around) and any(R.guards(st, m) for m in around):
            lose_idea(st, p, ev, "their word against yours")


def m2(st: HeistState, ev: list[Event]) -> None:
    """Confidence in the Plan: characters inside with 💡💡 or less gain 💡💡."""
    for p in inside(st):
        if p.ideas <= 2:
            p.ideas += 2
            ev.append(Event(f"{p.nickname} gains 💡💡 from confidence in the plan.", "event"))


def m3(st: HeistState, ev: list[Event]) -> None:
    """Just Like We Planned It: if the objective holds, characters inside gain 💡."""
    if R.objective_met(st):
        for p in inside(st):
            p.ideas += 1
        ev.append(Event("Just as planned: everyone inside gains 💡.", "event"))


# --- gates, dogs, reinforcements, watchtowers -----------------------------------------------------------


def next_gate(st: HeistState) -> str | None:
    """The tile of the next lockdown gate still standing (A first), or None."""
    for g in GATES:
        for n in sorted(st.tiles):
            if g in st.tiles[n].marks and n not in st.removed:
                return n
    return None


def close_gate(st: HeistState, ev: list[Event]) -> None:
    """Remove the next lockdown gate's tile: who stands there is Busted, pieces there are gone."""
    n = next_gate(st)
    if n is None:
        ev.append(Event("No lockdown gate is left to close.", "event"))
        return
    st.removed.append(n)
    t = st.tiles[n]
    ev.append(Event(f"Lockdown: the gate at {n} shuts and the tile is gone.", "gate"))
    for p in R.in_play(st):
        if p.pos == n:
            R.busted(st, p, ev)
            p.cash, p.loot = 0, []
    t.chits.clear()
    t.loot.clear()
    t.cash = 0
    t.unknown = False
    for p in st.players.values():
        if n in p.plans:
            p.plans.remove(n)
            p.spare += 1
    for npc in st.npcs:
        if npc.pos == n and npc.status == "in":
            npc.status = "busted"


def g1(st: HeistState, ev: list[Event]) -> None:
    """Shut the Gate!: close the next lockdown gate."""
    close_gate(st, ev)


def g2(st: HeistState, ev: list[Event]) -> None:
    """More Gates Shut!!: close the next two lockdown gates."""
    close_gate(st, ev)
    close_gate(st, ev)


def gate_chit(kind: str) -> Effect:
    """An effect that puts a ``kind`` chit on the next lockdown gate still standing."""

    def fn(st: HeistState, ev: list[Event]) -> None:
        """Apply the effect."""
        n = next_gate(st)
        if n is not None:
            R.place(st, n, kind)
            ev.append(Event(f"A {kind} appears on the gate at {n}.", "event"))

    return fn


def z2(st: HeistState, ev: list[Event]) -> None:
    """Full Lockdown!!: close every lockdown gate (the escape follows)."""
    while next_gate(st) is not None:
        close_gate(st, ev)


def indoor_path(st: HeistState, start: str, goals: set[str]) -> list[str]:
    """The shortest way for a dog from ``start`` to the nearest goal, over indoor unlocked tiles."""
    outs = R.exits(st)
    prev: dict[str, str] = {}
    seen = {start}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if cur in goals:
            path = [cur]
            while path[-1] != start:
                path.append(prev[path[-1]])
            return list(reversed(path))
        for m in R.nbrs(st, cur):
            if m not in seen and m not in outs and not R.locked(st, m):
                seen.add(m)
                prev[m] = cur
                queue.append(m)
    return [start]


def move_dog(st: HeistState, start: str, goals: set[str], steps: int, ev: list[Event]) -> str:
    """Move one dog chit from ``start`` up to ``steps`` toward the goals; returns where it stops."""
    path = indoor_path(st, start, goals)
    to = path[min(steps, len(path) - 1)]
    if to != start:
        dog = next(c for c in st.tiles[start].chits if c.kind == DOG and c.active)
        st.tiles[start].chits.remove(dog)
        st.tiles[to].chits.append(dog)
        ev.append(Event(f"A guard dog runs from {start} to {to}.", "dog"))
    return to


def kennels(st: HeistState) -> list[str]:
    """The kennel tiles still on the board."""
    return [n for n in sorted(st.tiles) if "kennel" in st.tiles[n].marks and R.alive(st, n)]


def dog_from_kennel(target: str) -> Effect:
    """An effect that lets a dog out of the kennel and runs it toward ``target``."""

    def fn(st: HeistState, ev: list[Event]) -> None:
        """Apply the effect."""
        for k in kennels(st)[:1]:
            R.place(st, k, DOG)
            ev.append(Event(f"A guard dog is let out at {k}.", "dog"))
            chars = inside(st)
            if target == "loot":
                goals = {n for n in st.tiles if (st.tiles[n].loot or st.tiles[n].cash) and R.alive(st, n)}
            elif target == "fearful" and chars:
                fewest = min(p.ideas for p in chars)
                goals = {p.pos for p in chars if p.ideas == fewest}
            else:
                goals = {p.pos for p in chars}
            if goals:
                move_dog(st, k, goals, 3, ev)
        R.dogs_chase(st, ev)

    return fn


def c6(st: HeistState, ev: list[Event]) -> None:
    """Release the Hounds!: a dog next to every exit, each running toward the nearest character."""
    spots = sorted({m for e in R.exits(st) for m in R.nbrs(st, e) if m not in R.exits(st)})
    goals = {p.pos for p in inside(st)}
    for n in spots:
        R.place(st, n, DOG)
        ev.append(Event(f"A guard dog is released at {n}.", "dog"))
        if goals:
            move_dog(st, n, goals, 3, ev)
    R.dogs_chase(st, ev)


def c7(st: HeistState, ev: list[Event]) -> None:
    """Empty the Kennel!: three dogs from the kennel, each after a different character."""
    for k in kennels(st)[:1]:
        chars = inside(st)
        for i in range(3):
            R.place(st, k, DOG)
            if chars:
                target = chars[i % len(chars)]
                move_dog(st, k, {target.pos}, 3, ev)
        ev.append(Event(f"The kennel at {k} empties: three dogs are out.", "dog"))
    R.dogs_chase(st, ev)


def c1(st: HeistState, ev: list[Event]) -> None:
    """Reinforcements: every reinforcements token wakes its neighbours and leaves two guards."""
    spots = [n for n in sorted(st.tiles) if "reinforcements" in st.tiles[n].marks and R.alive(st, n)]
    for n in spots:
        rebooted = []
        for m in R.nbrs(st, n):
            t = st.tiles[m]
            if t.chits:
                for c in t.chits:
                    if not c.active and not (c.kind in (GUARD, DOG) and protected(st, m)):
                        c.active = True
                        if c.kind == CAMERA:
                            rebooted.append(m)
            elif not t.unknown and m not in R.exits(st):
                R.place(st, m, GUARD)
        powered_on(st, sorted(set(rebooted)), ev)
        st.tiles[n].marks.remove("reinforcements")
        R.place(st, n, GUARD)
        R.place(st, n, GUARD)
        ev.append(
            Event(f"Reinforcements storm in at {n}: guards wake, locks shut, cameras come on.", "crisis")
        )


def c2(st: HeistState, ev: list[Event]) -> None:
    """Watchtower Sweep: a tower with a character on it is taken out; the others send guards along their lines."""
    b = R.board(st)
    towers = [n for n in sorted(st.tiles) if "watchtower" in st.tiles[n].marks and R.alive(st, n)]
    occ = R.occupied(st)
    for n in towers:
        if n in occ:
            st.tiles[n].marks.remove("watchtower")
            ev.append(Event(f"The watchtower at {n} is taken out by the crew on it.", "crisis"))
    towers = [n for n in towers if "watchtower" in st.tiles[n].marks]
    hit: set[str] = set()
    for n in towers:
        for line in b.lines[n]:
            for m in line:
                if m in occ and R.alive(st, m) and m not in R.exits(st):
                    hit.add(m)
    for m in sorted(hit):
        R.place(st, m, GUARD)
        ev.append(Event(f"The watchtower spots movement at {m}: a guard is sent.", "crisis"))


def c4(st: HeistState, ev: list[Event]) -> None:
    """Lock the Goods!: a lock on every tile with loot (not the safe)."""
    for n in sorted(st.tiles):
        t = st.tiles[n]
        if (t.loot or t.cash) and "safe" not in t.marks and R.alive(st, n):
            R.place(st, n, LOCK)
            ev.append(Event(f"The goods at {n} are locked away.", "crisis"))


def c5(st: HeistState, ev: list[Event]) -> None:
    """Panic!: every non-player character panics."""
    for npc in st.npcs:
        npc.panic = True
    ev.append(Event("Panic! Every non-player character panics for the rest of the heist.", "crisis"))


def z1(st: HeistState, ev: list[Event]) -> None:
    """Sound the Alarm!: the escape follows."""
    ev.append(Event("The alarm is sounded.", "crisis"))


def nothing(st: HeistState, ev: list[Event]) -> None:
    """A card with no effect the game resolves."""
    ev.append(Event("Nothing else happens.", "event"))


def end_of_event_phase(st: HeistState, ev: list[Event]) -> None:
    """What wears off when the Event phase ends: flashbanged guards wake, loop footage stops."""
    moving_npcs(st, ev)
    for f in [f for f in st.flags if f.startswith("stunned:")]:
        st.flags.remove(f)
        wake(st, f.split(":", 1)[1], ev)
    if "loop_footage" in st.flags:
        st.flags.remove("loop_footage")


def moving_npcs(st: HeistState, ev: list[Event]) -> None:
    """Scenario NPCs on the move each Event phase: the Mayor walks right; the prisoner is led to the van."""
    rules = {r.id for r in R.heist(st).rules}
    b = R.board(st)
    for npc in st.npcs:
        if npc.status != "in" or npc.active:
            continue
        if "mayor_moves" in rules:
            to = b.name(H.step(b.cells[npc.pos], "e"))
            if to and R.alive(st, to) and not R.locked(st, to):
                npc.pos = to
                ev.append(Event(f"The Mayor strolls on to {to}.", "npc"))
        if "moving_target" in rules:
            van = {n for n, t in st.tiles.items() if "story" in t.marks and R.alive(st, n)} or R.exits(st)
            dist = _steps_to(st, van)
            nxt = _step_toward(st, npc.pos, dist)
            if nxt is None:
                continue
            npc.pos = nxt
            if nxt in van:
                npc.status = "busted"
                ev.append(Event("The guards get the prisoner into the van: she is gone.", "npc"))
            else:
                ev.append(Event(f"The guards lead the prisoner on to {nxt}.", "npc"))
    if "moving_target" in rules:
        move_escort_guards(st, ev)


def _step_toward(st: HeistState, here: str, dist: dict[str, int]) -> str | None:
    """The neighbouring tile one step closer to the goal of ``dist`` (first in name order), if any."""
    closer = [m for m in R.nbrs(st, here) if dist.get(m, 999) < dist.get(here, 999)]
    return min(closer) if closer else None


def move_escort_guards(st: HeistState, ev: list[Event]) -> None:
    """The Safehouse Rescue: the prisoner's printed guards walk one hex toward the van each Event phase.

    Subdued guards stay where they lie; a guard already at the van stays there.
    """
    van = {n for n, t in st.tiles.items() if "story" in t.marks and R.alive(st, n)}
    if not van:
        return
    dist = _steps_to(st, van)
    spots = [f.split(":", 1)[1] for f in st.flags if f.startswith("ambush_at:")]
    moved: list[str] = []
    for n in spots:
        walkers = [c for c in st.tiles[n].chits if c.kind == GUARD and c.active]
        nxt = _step_toward(st, n, dist)
        if not walkers or nxt is None:
            moved.append(n)
            continue
        for c in walkers:
            st.tiles[n].chits.remove(c)
            st.tiles[nxt].chits.append(c)
        ev.append(Event(f"The prisoner's guards march from {n} to {nxt}.", "npc"))
        moved.append(nxt)
        if any(c.kind == GUARD for c in st.tiles[n].chits):
            moved.append(n)  # the subdued ones stay behind and still count for the ambush
    st.flags = [f for f in st.flags if not f.startswith("ambush_at:")] + [
        f"ambush_at:{m}" for m in dict.fromkeys(moved)
    ]


def _steps_to(st: HeistState, goals: set[str]) -> dict[str, int]:
    dist = {g: 0 for g in goals}
    queue = deque(sorted(goals))
    while queue:
        cur = queue.popleft()
        for m in R.nbrs(st, cur):
            if m not in dist:
                dist[m] = dist[cur] + 1
                queue.append(m)
    return dist


EFFECTS = {
    "1": add_to_bag(CAMERA, 3), "2": e2, "3": e3, "4": e4, "5": e5, "6": add_to_bag(LOCK, 2), "7": e7,
    "8": e8, "9": e9, "10": e10, "11": e11, "12": e12, "13": e13, "14": e14, "15": e15, "16": e16,
    "17": nothing, "18": e18, "19": e19, "20": e20, "21": e21, "22": e22, "23": e23, "24": nothing,
    "A1": e19, "A2": a2, "A3": e23, "A4": a4, "B1": upgrade_bag(CAMERA), "B2": upgrade_bag(LOCK),
    "B3": upgrade_bag(GUARD), "D1": dog_from_kennel("character"), "D2": dog_from_kennel("loot"),
    "D3": dog_from_kennel("fearful"), "G1": g1, "G2": g2, "G3": gate_chit(LOCK), "G4": gate_chit(GUARD),
    "M1": nothing, "M2": m2, "M3": m3, "C1": c1, "C2": c2, "C3": g1, "C4": c4, "C5": c5, "C6": c6,
    "C7": c7, "Z1": z1, "Z2": z2,
}  # fmt: skip
