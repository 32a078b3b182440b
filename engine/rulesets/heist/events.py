"""What each event and crisis card does when it is resolved in the Event phase.

The cards are driven by their data: every card's ``effects`` (the mini-language of
:class:`engine.rulesets.heist.content.Effect`) run step by step through :data:`OPS`, and the selector
words they name (``who``, ``where``, ``per``, ``toward``, ``needs``) are the functions in :data:`WHO`,
:data:`WHERE`, :data:`PER` and :data:`NEEDS`. A card's data and its behaviour therefore cannot drift;
a selector the code does not know is refused by the content test. Where a card leaves a choice to the
team, the choice made here is recorded in ``docs/rulings/heist.md``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from engine.core import Command, Event
from engine.geometry import hexgrid as H
from engine.grammar import plural
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.content import Effect
from engine.rulesets.heist.state import CAMERA, DOG, GUARD, LOCK, HeistState, Player

REPLAYED = "event:replayed"  # the active event is the last card discarded: alerts went past it
Op = Callable[[HeistState, str, int, Effect, list[Event]], bool]


def resolve(st: HeistState, card: str, ev: list[Event]) -> None:
    """Apply one event or crisis card, step by step as its data describes.

    A step whose ``needs`` does not hold is skipped; ``needs: previous`` looks at whether the step before
    changed anything.
    """
    changed = False
    for i, eff in enumerate(R.C().events[card].effects):
        if eff.needs and not NEEDS[eff.needs](st, changed):
            ev.append(
                Event(f"{R.card_name(card)}: {NEED_TEXT[eff.needs]}, so nothing more happens.", "event")
            )
            changed = False
            continue
        changed = OPS[eff.op](st, card, i, eff, ev)


# --- helpers ------------------------------------------------------------------------------------------


def near(st: HeistState, p: Player) -> tuple[str, ...]:
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
    """The character loses 💡 (a Lucky Penny is discarded instead; with no 💡 to lose, nothing happens and the
    penny is kept)."""
    if not p.ideas:
        return
    if "lucky_penny" in p.items:
        p.items.remove("lucky_penny")
        R.discard_item(st, "lucky_penny")
        ev.append(Event(f"{p.nickname} discards the Lucky Penny instead of losing 💡 ({why}).", "event"))
    else:
        p.ideas -= 1
        ev.append(Event(f"{p.nickname} loses 💡 ({why}).", "event"))


def protected(st: HeistState, n: str) -> bool:
    """True when guards on tile ``n`` cannot wake (an Operative's Pressure points on or next to it)."""
    for p in R.in_play(st):
        if "pressure_points" in R.abilities(p) and (p.pos == n or n in near(st, p)):
            return True
    return False


def wake(st: HeistState, n: str, ev: list[Event], most: int | None = None) -> int:
    """Un-subdue every guard on a tile (at most ``most`` of them); returns how many woke."""
    if protected(st, n):
        return 0
    woke = 0
    for c in R.chits(st, n, GUARD, active=False)[:most]:
        c.active = True
        woke += 1
    if woke:
        ev.append(Event(f"{plural(woke, 'guard')} at {n} {'wakes' if woke == 1 else 'wake'} up.", "event"))
    return woke


def powered_on(st: HeistState, tiles: list[str], ev: list[Event]) -> None:
    """A camera powered back on raises ⚠ for each character on its tile (none while Loop Footage runs)."""
    if "loop_footage" in st.flags:
        return
    occ = R.occupied(st)
    for n in tiles:
        for _ in occ.get(n, []):
            R.alert(st, ev, f"a camera comes back on at {n}")


def sharers(st: HeistState, p: Player) -> list[Player]:
    """Characters on or next to ``p``'s tile (Stage Whisper)."""
    return [q for q in R.in_play(st) if q is not p and (q.pos == p.pos or q.pos in near(st, p))]


def neighbours_of_characters(st: HeistState) -> list[str]:
    """Every tile next to a character still in play, in name order."""
    return sorted({m for p in R.in_play(st) for m in near(st, p)})


def unhandled_around(st: HeistState, p: Player) -> int:
    """Active security chits (guards, dogs, locks, cameras) on the tiles next to the character."""
    return sum(1 for m in near(st, p) for c in st.tiles[m].chits if c.active)


def alone(st: HeistState, p: Player) -> bool:
    """True when no other character is on or next to the character's tile."""
    return not any(q is not p and (q.pos == p.pos or q.pos in near(st, p)) for q in R.in_play(st))


def near_guard_not_camera(st: HeistState, p: Player) -> bool:
    """On or next to an unsubdued guard, but not on or next to a live camera (Their Word Against Yours)."""
    around = [p.pos, *near(st, p)]
    return not any(R.chits(st, m, CAMERA) for m in around) and any(R.guards(st, m) for m in around)


# --- selectors: the words of the cards' data ------------------------------------------------------------

WHO: dict[str, Callable[[HeistState, Player], bool]] = {
    "any": lambda st, p: True,
    "one": lambda st, p: True,
    "adjacent_live_camera": lambda st, p: adjacent_to(st, p, CAMERA),
    "adjacent_active_guard": lambda st, p: adjacent_to(st, p, GUARD),
    "on_external_tile": lambda st, p: p.pos in R.board(st).external,
    "on_subdued_guard": lambda st, p: bool(R.chits(st, p.pos, GUARD, active=False)),
    "adjacent_two_unhandled": lambda st, p: not R.outdoors(st, p) and unhandled_around(st, p) >= 2,
    "alone": alone,
    "with_active_guard": lambda st, p: R.guards(st, p.pos) > 0,
    "plans_unrevealed": lambda st, p: any(st.tiles[n].unknown for n in p.plans if n in st.tiles),
    "indoor": lambda st, p: not R.outdoors(st, p),
    "inside": lambda st, p: not R.outdoors(st, p),
    "inside_low_ideas": lambda st, p: not R.outdoors(st, p) and p.ideas <= 2,
    "near_guard_not_near_camera": near_guard_not_camera,
}


def who(st: HeistState, word: str) -> list[Player]:
    """The characters in play a ``who`` word picks, in seat order."""
    return [p for p in R.in_play(st) if WHO[word](st, p)]


def _live_cameras_next_to_characters(st: HeistState) -> list[str]:
    return [n for n in neighbours_of_characters(st) if R.chits(st, n, CAMERA)]


def _disabled_cameras_in_pairs(st: HeistState) -> list[str]:
    off = [n for n in sorted(st.tiles) if R.chits(st, n, CAMERA, active=False)]
    return [n for n in off if any(m in off for m in R.nbrs(st, n))]


WHERE: dict[str, Callable[[HeistState], list[str]]] = {
    "active_guard_adjacent_character": lambda st: [
        n for n in neighbours_of_characters(st) if R.guards(st, n)
    ],
    "disabled_camera_adjacent_disabled_camera": _disabled_cameras_in_pairs,
    "live_camera_adjacent_character": _live_cameras_next_to_characters,
    "lock_adjacent_character": lambda st: [
        n for n in neighbours_of_characters(st) if R.chits(st, n, LOCK, active=False)
    ],
    "locked_lock_adjacent_character": lambda st: [
        n for n in neighbours_of_characters(st) if R.chits(st, n, LOCK)
    ],
    "subdued_guard_with_character": lambda st: sorted(R.occupied(st)),
    # One per character: two characters on one tile bring two guards.
    "character_adjacent_live_camera": lambda st: [
        p.pos for p in R.in_play(st) if adjacent_to(st, p, CAMERA) and not R.outdoors(st, p)
    ],
    "live_camera_adjacent_subdued_guard": lambda st: [
        n
        for n in sorted(st.tiles)
        if R.chits(st, n, CAMERA) and any(R.chits(st, m, GUARD, active=False) for m in R.nbrs(st, n))
    ],
    "loot_tile": lambda st: [
        n
        for n in sorted(st.tiles)
        if (st.tiles[n].loot or st.tiles[n].cash) and "safe" not in st.tiles[n].marks and R.alive(st, n)
    ],
    "kennel": lambda st: kennels(st)[:1] or kennel_stand_in(st),
    "next_to_entrance": lambda st: sorted(
        {m for e in R.exits(st) for m in R.nbrs(st, e) if m not in R.exits(st)}
    ),
}

PER: dict[str, Callable[[HeistState], int]] = {
    "crowded_entrance": lambda st: sum(
        1 for e, ps in R.occupied(st).items() if e in R.exits(st) and len(ps) >= 2
    ),
}

NEEDS: dict[str, Callable[[HeistState, bool], bool]] = {
    "previous": lambda st, changed: changed,
    "no_alert_past": lambda st, changed: REPLAYED not in st.flags,
    "objective_met": lambda st, changed: R.objective_met(st),
}
NEED_TEXT = {
    "previous": "the step before changed nothing",
    "no_alert_past": "alerts already went past this card",
    "objective_met": "the objective is not met yet",
}

# Choice targets of ``gift`` and ``transfer`` (``where``): who may receive, given the giver.
TARGETS: dict[str, Callable[[HeistState, Player], list[Player]]] = {
    "self": lambda st, p: [p],
    "any_character": lambda st, p: [q for q in R.in_play(st) if q is not p],
    "same_or_adjacent_character": lambda st, p: sharers(st, p),
}


# --- the steps ------------------------------------------------------------------------------------------


def op_bag_add(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``bag_add``: chits from the supply go into the security bag."""
    st.bag.extend([eff.chit] * eff.n)
    ev.append(
        Event(
            f"{plural(eff.n, eff.chit + ' chit')} {'goes' if eff.n == 1 else 'go'} into the security bag.",
            "event",
        )
    )
    return True


def op_bag_upgrade(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``bag_upgrade``: one chit in the bag becomes its elite (2x) version."""
    if eff.chit not in st.bag:
        ev.append(Event(f"No {eff.chit} is left in the bag to upgrade.", "event"))
        return False
    st.bag.remove(eff.chit)
    st.bag.append(eff.chit + "2x")
    ev.append(Event(f"One {eff.chit} in the bag becomes an elite (2x) {eff.chit}.", "event"))
    return True


def op_alert(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``alert``: n alerts per matching place (``per``), or n alerts if ``min`` characters match ``who``."""
    met = len(who(st, eff.who)) >= eff.min if eff.who else True
    count = eff.n * (PER[eff.per](st) if eff.per else int(met))
    for _ in range(count):
        R.alert(st, ev, R.card_name(card))
    return count > 0


def op_place(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``place``: an active chit from the supply on every tile ``where`` picks."""
    spots = WHERE[eff.where](st)
    for n in spots:
        R.place(st, n, eff.chit)
        ev.append(Event(f"A {eff.chit} appears at {n}.", "event"))
    return bool(spots)


def op_reactivate(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``reactivate``: subdued guards wake, unlocked locks shut, disabled cameras come back on."""
    changed = False
    for n in WHERE[eff.where](st):
        if eff.chit == GUARD:
            changed = wake(st, n, ev) > 0 or changed
            continue
        off = R.chits(st, n, eff.chit, active=False)
        for c in off:
            c.active = True
        if off:
            changed = True
            ev.append(Event(f"The {eff.chit} at {n} is active again.", "event"))
            if eff.chit == CAMERA:
                powered_on(st, [n], ev)
    return changed


def op_ideas(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``ideas``: every matching character gains n 💡 (or loses them, never below zero)."""
    hit = who(st, eff.who)
    why = R.C().events[card].name
    for p in hit:
        if eff.n < 0:
            for _ in range(-eff.n):
                lose_idea(st, p, ev, why.lower())
        else:
            p.ideas += eff.n
            ev.append(Event(f"{p.nickname} gains {'💡' * eff.n} ({why}).", "event"))
    return bool(hit)


def op_choice(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``gift`` / ``transfer``: the team may act on the card (see :func:`choice_commands`)."""
    st.flags.append(f"choice:step:{i}")
    return True


def op_drop_loot(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``drop_loot`` (Fumble the Loot): matching characters drop every piece of loot the objective does
    not ask for — cash, jewels, documents, USB key, keycard and item cards — onto the first neighbouring
    tile without a guard (name order); with none, it is lost (a lost item card joins the shop)."""
    keep = objective_loot(st)
    changed = False
    for p in who(st, eff.who):
        pieces = [*(["cash"] if p.cash else []), *p.loot, *(f"item:{it}" for it in p.items)]
        dropped = [x for x in pieces if x.removeprefix("item:") not in keep]
        if not dropped:
            continue
        changed = True
        spots = [
            m for m in near(st, p) if not R.guards(st, m) and m not in R.exits(st) and not R.locked(st, m)
        ]
        for what in dropped:
            if what == "cash":
                amount, p.cash = p.cash, 0
                if spots:
                    st.tiles[spots[0]].cash += amount
            elif what.startswith("item:"):
                p.items.remove(what[5:])
                if spots:
                    st.tiles[spots[0]].loot.append(what)
                else:
                    R.discard_item(st, what[5:])
            else:
                p.loot.remove(what)
                if spots:
                    st.tiles[spots[0]].loot.append(what)
        where = f"onto {spots[0]}" if spots else "and loses it"
        ev.append(Event(f"{p.nickname} fumbles {', '.join(dropped)} {where}.", "event"))
    return changed


def objective_loot(st: HeistState) -> set[str]:
    """The loot kinds the heist's objective asks for (Fumble the Loot keeps these)."""
    o = R.heist(st).objective
    keep = set()
    if o.cash_k:
        keep.add("cash")
    if o.jewels:
        keep.add("jewel")
    if o.docs or o.special == "docs_in_hideout":
        keep.add("docs")
    return keep


def op_dogs(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``dogs``: n guard dogs on every ``where`` tile, each running up to ``steps`` toward its goal."""
    spots = WHERE[eff.where](st)
    for k in spots:
        goals = dog_goals(st, k, eff.toward, eff.n)
        for j in range(eff.n):
            R.place(st, k, DOG)
            ev.append(Event(f"A guard dog is let out at {k}.", "dog"))
            if goals[j]:
                move_dog(st, k, goals[j], eff.steps, ev)
    R.dogs_chase(st, ev)
    return bool(spots)


def dog_goals(st: HeistState, start: str, toward: str, n: int) -> list[set[str]]:
    """Where each of ``n`` dogs let out at ``start`` runs to (an empty set: it stays)."""
    chars = inside(st)
    if toward == "nearest_loot":
        goal = {m for m in st.tiles if (st.tiles[m].loot or st.tiles[m].cash) and R.alive(st, m)}
    elif toward == "fewest_ideas" and chars:
        fewest = min(p.ideas for p in chars)
        goal = {p.pos for p in chars if p.ideas == fewest}
    elif toward == "different_characters":
        dist = dog_distances(st, start)
        ranked = sorted(chars, key=lambda p: (dist.get(p.pos, 999), st.seats.index(p.seat)))
        every = {p.pos for p in chars}
        return [{ranked[j].pos} if j < len(ranked) else every for j in range(n)]
    else:
        goal = {p.pos for p in chars}
    return [goal] * n


def dog_distances(st: HeistState, start: str) -> dict[str, int]:
    """Steps a dog needs from ``start`` to each tile it can reach (indoors, unlocked)."""
    outs = R.exits(st)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for m in R.nbrs(st, cur):
            if m not in dist and m not in outs and not R.locked(st, m):
                dist[m] = dist[cur] + 1
                queue.append(m)
    return dist


def kennel_stand_in(st: HeistState) -> list[str]:
    """Where kennel dogs come in on a map with no kennel (The Track): through the entrances.

    The team picks (the rulebook lets the team settle any dog ambiguity), so the dog comes in on the
    building tile next to an entrance farthest from the nearest character inside; ties in name order.
    """
    spots = WHERE["next_to_entrance"](st)
    chars = inside(st)
    if not spots:
        return []
    if not chars:
        return spots[:1]

    def nearest(n: str) -> int:
        dist = dog_distances(st, n)
        return min(dist.get(p.pos, 999) for p in chars)

    return [max(spots, key=nearest)]  # the first farthest, in name order


def op_gates(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``gates``: the next n lockdown gates shut (n = 0: every one left)."""
    shut = 0
    while next_gate(st) is not None and (eff.n == 0 or shut < eff.n):
        close_gate(st, ev)
        shut += 1
    if not shut:
        ev.append(Event("No lockdown gate is left to close.", "event"))
    return shut > 0


def op_gate_chit(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``gate_chit``: an active chit on the next lockdown gate still standing."""
    n = next_gate(st)
    if n is None:
        return False
    R.place(st, n, eff.chit)
    ev.append(Event(f"A {eff.chit} appears on the gate at {n}.", "event"))
    return True


def op_panic(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``panic``: every non-player character turns to its panicked side."""
    for npc in st.npcs:
        npc.panic = True
    ev.append(Event("Panic! Every non-player character panics for the rest of the heist.", "crisis"))
    return bool(st.npcs)


def op_escape(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``escape``: the alarm sounds (the Event phase ends in the escape)."""
    ev.append(Event("The alarm is sounded.", "crisis"))
    return True


def op_nothing(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``nothing``: the card has no effect."""
    ev.append(Event("Nothing else happens.", "event"))
    return False


def op_reinforcements(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``reinforcements``: see :func:`reinforcements`."""
    return reinforcements(st, ev)


def op_watchtower_sweep(st: HeistState, card: str, i: int, eff: Effect, ev: list[Event]) -> bool:
    """``watchtower_sweep``: see :func:`watchtower_sweep`."""
    return watchtower_sweep(st, ev)


OPS: dict[str, Op] = {
    "bag_add": op_bag_add, "bag_upgrade": op_bag_upgrade, "alert": op_alert, "place": op_place,
    "reactivate": op_reactivate, "ideas": op_ideas, "gift": op_choice, "transfer": op_choice,
    "drop_loot": op_drop_loot, "dogs": op_dogs, "gates": op_gates, "gate_chit": op_gate_chit,
    "reinforcements": op_reinforcements, "watchtower_sweep": op_watchtower_sweep, "panic": op_panic,
    "escape": op_escape, "nothing": op_nothing,
}  # fmt: skip


# --- team choices on the active event (phase "event") --------------------------------------------------------


def choice_verb(eff: Effect) -> str:
    """The command a ``gift`` / ``transfer`` step is played with.

    ``blab``: make the price for 💡 yourself; ``tip``: the team pays once for anyone's 💡; ``share``: pass
    your 💡 to someone near, paying per 💡; ``handoff``: one character passes 💡 to others.
    """
    if eff.op == "gift":
        return "blab" if eff.where == "self" else "tip"
    return "handoff" if eff.who == "one" else "share"


def open_steps(st: HeistState) -> list[tuple[int, Effect]]:
    """The active card's choice steps still open, with their index."""
    if not st.active_event:
        return []
    steps = R.C().events[st.active_event].effects
    return [(i, e) for i, e in enumerate(steps) if f"choice:step:{i}" in st.flags]


def price_text(eff: Effect) -> str:
    """What a choice costs, in symbols."""
    return " (🔊)" if eff.pay == "noise" else ""


def step_commands(st: HeistState, p: Player, i: int, eff: Effect) -> list[Command]:
    """What ``p`` may do with one open choice step."""
    verb = choice_verb(eff)
    if not WHO[eff.who](st, p):
        return []
    if verb == "blab":
        if f"choice:done:{i}:{p.seat}" in st.flags:
            return []
        return [Command("blab", (), f"Make 🔊 to gain 💡 ({R.C().events[st.active_event].name})")]
    if verb == "tip":
        return [Command("tip", (q.seat,), f"Pay 🔊 to give {q.nickname} 💡") for q in R.in_play(st)]
    if not p.ideas:
        return []
    if verb == "handoff":
        giver = next((f.split(":")[3] for f in st.flags if f.startswith(f"choice:giver:{i}:")), None)
        if giver not in (None, p.seat):
            return []
    return [
        Command(verb, (q.seat,), f"Give {q.nickname} one of your 💡{price_text(eff)}")
        for q in TARGETS[eff.where](st, p)
    ]


def choice_commands(st: HeistState, p: Player) -> list[Command]:
    """What ``p`` may do with the active event now; always ``continue``."""
    out: list[Command] = []
    if p.status == "in":
        for i, eff in open_steps(st):
            out += step_commands(st, p, i, eff)
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
    i, eff = next((i, e) for i, e in open_steps(st) if choice_verb(e) == cmd.verb)
    if eff.pay == "noise":
        R.make_noise(st, 1, ev)
    if cmd.verb == "blab":
        st.flags.append(f"choice:done:{i}:{p.seat}")
        p.ideas += 1
        ev.append(Event(f"{p.nickname} makes 🔊 and gains 💡.", "event"))
    elif cmd.verb == "tip":
        q = st.players[cmd.args[0]]
        st.flags.remove(f"choice:step:{i}")  # once for the team
        q.ideas += 1
        ev.append(Event(f"The team pays 🔊 and {q.nickname} gains 💡.", "event"))
    else:
        q = st.players[cmd.args[0]]
        if cmd.verb == "handoff" and f"choice:giver:{i}:{p.seat}" not in st.flags:
            st.flags.append(f"choice:giver:{i}:{p.seat}")
        p.ideas -= 1
        q.ideas += 1
        ev.append(Event(f"{p.nickname} passes 💡 to {q.nickname}{price_text(eff)}.", "event"))
    return not choices_open(st)


# --- gates, dogs, reinforcements, watchtowers, scenario NPCs ------------------------------------------------


def next_gate(st: HeistState) -> str | None:
    """The tile of the next lockdown gate still standing (A first), or None."""
    return next(iter(R.standing_gates(st)), None)


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


def reinforcements(st: HeistState, ev: list[Event]) -> bool:
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
    return bool(spots)


def watchtower_sweep(st: HeistState, ev: list[Event]) -> bool:
    """Watchtower Sweep: a tower with a character on it is taken out; the others send guards along their lines."""
    b = R.board(st)
    towers = [n for n in sorted(st.tiles) if "watchtower" in st.tiles[n].marks and R.alive(st, n)]
    occ = R.occupied(st)
    for n in towers:
        if n in occ:
            st.tiles[n].marks.remove("watchtower")
            ev.append(Event(f"The watchtower at {n} is taken out by the crew on it.", "crisis"))
    before = towers
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
    return bool(hit) or len(towers) < len(before)


def end_of_event_phase(st: HeistState, ev: list[Event]) -> None:
    """What wears off when the Event phase ends: flashbanged guards wake, loop footage stops."""
    moving_npcs(st, ev)
    for f in [f for f in st.flags if f.startswith("stunned:")]:
        st.flags.remove(f)
        # "stunned:<tile>:<n>": the n guards a flashbang knocked out there wake, not those down before it.
        _, n, *count = f.split(":")
        wake(st, n, ev, int(count[0]) if count else None)
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
            dist = R.steps_to(st, van)
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
    dist = R.steps_to(st, van)
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
