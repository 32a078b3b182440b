"""The heist's mechanics: tiles and chits, the noise track and event deck, actions, rounds and the escape.

Commands are checked and dispatched in :mod:`engine.rulesets.heist.actions`; this module changes the
state. Narration goes into the ``ev`` list every function takes.
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass
from functools import cache

from engine.board_marks import seat_palette
from engine.core import Event
from engine.geometry import hexgrid as H
from engine.grammar import with_article
from engine.memo import Memo
from engine.rulesets.heist.board import Board, build
from engine.rulesets.heist.content import Character, Heist, HeistContent, load_content
from engine.rulesets.heist.state import (
    ALERT,
    CAMERA,
    DOG,
    GUARD,
    LOCK,
    NOISE,
    SUB_SYMBOLS,
    Chit,
    HeistState,
    Player,
)

SEATS = ("p1", "p2", "p3", "p4")
COLOURS = seat_palette(SEATS)  # colour-blind safe (see engine.board_marks)
COLOUR_NAMES = {"p1": "orange", "p2": "blue", "p3": "green", "p4": "pink"}
LETTER_OF = {
    "move": "M", "unlock": "U", "subdue": "S", "disable": "D", "idea": "I", "reveal": "R", "loot": "L",
    "noise": "N", "alert": "A", "crack": "C",
}  # fmt: skip

# The noise tracks (see docs/rulings/heist.md): the spaces after Start that raise an alert, and the
# final slot, from which every further noise raises one. The 4-player track is the designer's mat; the
# 3-player one is scaled from it.
TRACK_4 = (4, 7, 10, 13, 15, 17, 19, 22, 23, 26, 27, 30, 31, 33, 34, 35, 37)
TRACK_3 = (3, 5, 8, 10, 11, 13, 14, 16, 17, 20, 22, 23, 25, 26, 28)
TRACKS = {3: (TRACK_3, 30), 4: (TRACK_4, 40)}
REMOTE = {"server_x": "remote_lock_x", "server_y": "remote_lock_y"}
SEALS = ("remote_lock_x", "remote_lock_y", "keycard_door")  # tile marks that shut a tile until opened
GATES = ("gate_a", "gate_b", "gate_c", "gate_d")  # lockdown gates, shut (their tiles removed) in this order
BANKED_LATE = ("keycard", "usb")  # tools: they stay on their carrier until the heist ends
SAFE_TOOLS = (
    "safecracking_tools",
    "plasma_torch",
)  # the only cards that give 🧩: a safe opens to nothing else


def carries_tools(p: Player) -> bool:
    """True when the character carries a safe's tools (:data:`SAFE_TOOLS`: only they crack a safe)."""
    return bool(set(SAFE_TOOLS) & set(p.items))


def C() -> HeistContent:
    """The loaded heist content."""
    return load_content()


def heist(st: HeistState) -> Heist:
    """The heist being played."""
    return C().heists[st.heist]


def has_rule(st: HeistState, rule: str) -> bool:
    """True when the heist has this special rule."""
    return any(r.id == rule for r in heist(st).rules)


def board(st: HeistState) -> Board:
    """The heist's printed board."""
    return build(st.heist)


def character(p: Player) -> Character:
    """A player's character card."""
    return C().characters[p.character]


def abilities(p: Player) -> set[str]:
    """Ids of every ability the player has now: character and carried items."""
    out = {a.id for a in character(p).abilities}
    for it in p.items:
        out.update(a.id for a in C().items[it].abilities)
    return out


def sym(letters: str) -> str:
    """Sub-action letters as their symbols."""
    return "".join(SUB_SYMBOLS[c] for c in letters)


# --- the board as it stands ---------------------------------------------------------------------------


def alive(st: HeistState, n: str) -> bool:
    """True when a tile is on the board now (not a gap, not removed; tunnels only once opened)."""
    t = board(st).tiles.get(n)
    if t is None:
        return n in st.doors
    if n in st.removed:
        return False
    return t.kind != "tunnel" or n in st.exits


def exits(st: HeistState) -> set[str]:
    """Every exit tile now: the map's entrances and those opened in play."""
    return {e for e in board(st).entrances if e not in st.removed} | set(st.exits)


def outdoors(st: HeistState, p: Player) -> bool:
    """True when the character stands on an exit."""
    return p.pos in exits(st)


HIDEOUT_ROOM = 2  # The Final Score Part 1: at most two characters in one hideout


def hideouts(st: HeistState) -> set[str]:
    """The hideouts (story hexes) still on the board."""
    return {n for n, t in st.tiles.items() if "story" in t.marks and alive(st, n)}


def escape_goals(st: HeistState) -> set[str]:
    """Where a runner's escape ends: the exits; in a heist whose hideouts are the only way out once the alarm
    sounds (The Final Score Part 1), the hideouts that still have room (two characters each)."""
    if not has_rule(st, "hideouts_only"):
        return exits(st)
    hidden = [q.pos for q in st.players.values() if q.status == "escaped"]
    return {n for n in hideouts(st) if hidden.count(n) < HIDEOUT_ROOM}


def stash_docs(st: HeistState, p: Player, ev: list[Event]) -> None:
    """The Final Score Part 1: documents carried into a hideout are hidden there for the objective."""
    if heist(st).objective.special != "docs_in_hideout" or p.pos not in hideouts(st) or "docs" not in p.loot:
        return
    p.loot.remove("docs")
    st.hauled["docs"] = st.hauled.get("docs", 0) + 1
    if "docs_hidden" not in st.flags:
        st.flags.append("docs_hidden")
    ev.append(Event(f"{p.nickname} stashes the documents in the hideout at {p.pos}.", "loot"))


def nbrs(st: HeistState, n: str) -> tuple[str, ...]:
    """The tiles on the board now that share a side with ``n``."""
    # The heist's hottest function (every walk the policy and search make): the neighbours of every tile
    # are worked out once per board as it stands (the heist's map, tiles removed, exits and doors opened).
    return neighbour_table(st).get(n, ())


def steps_to(st: HeistState, goals: set[str], vent: bool = False) -> dict[str, int]:
    """Plain steps (hazards aside) from every tile on the board now to the nearest of ``goals``; with
    ``vent``, also across a gap (:func:`vent_table`) as Vent crawl allows."""
    dist = {g: 0 for g in goals}
    queue = deque(sorted(goals))
    table = neighbour_table(st)
    vents = vent_table(st) if vent else {}
    while queue:
        cur = queue.popleft()
        for m in (*table.get(cur, ()), *vents.get(cur, ())):
            if m not in dist:
                dist[m] = dist[cur] + 1
                queue.append(m)
    return dist


def neighbour_table(st: HeistState) -> dict[str, tuple[str, ...]]:
    """:func:`nbrs` of every tile, for walks that visit many (shared: do not change it)."""
    return _NEIGHBOURS.get(board_key(st), lambda: _neighbours(st))


_NEIGHBOURS: Memo[dict[str, tuple[str, ...]]] = Memo(256)  # boards as they stand: a handful per heist


def vent_table(st: HeistState) -> dict[str, tuple[str, ...]]:
    """For each tile on the board now, the tiles on the board now straight across one gap from it: where a
    Vent crawl's ➜ may also go (tiles with none left out). Shared: do not change it."""
    return _VENTS.get(board_key(st), lambda: _vents(st))


_VENTS: Memo[dict[str, tuple[str, ...]]] = Memo(256)


def _vents(st: HeistState) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for n, across in board(st).gap_across.items():
        if across and alive(st, n) and (live := tuple(m for m in across if alive(st, m))):
            out[n] = live
    return out


def board_key(st: HeistState) -> tuple[object, ...]:
    """What the board as it stands depends on (the heist's map, tiles removed, exits and doors opened):
    equal keys, equal :func:`nbrs`, :func:`alive` and :func:`exits`. For memos of walks over the board."""
    if not (st.removed or st.exits or st.doors):  # the printed board: most of every heist
        return (st.heist,)
    return (st.heist, tuple(st.removed), tuple(st.exits), tuple(st.doors.items()))


def sealed_key(st: HeistState) -> tuple[str, ...]:
    """The tiles :func:`sealed` shuts now, in the board's order: for memos of walks that avoid them."""
    return tuple([n for n, t in st.tiles.items() if t.marks and any(m in t.marks for m in SEALS)])


def _neighbours(st: HeistState) -> dict[str, tuple[str, ...]]:
    b = board(st)
    out: dict[str, tuple[str, ...]] = {}
    for n in {*b.nbrs, *st.doors}:
        near: list[str] = []
        for m in b.nbrs.get(n, ()):
            t = b.tiles.get(m)
            if t is None:
                if m in st.doors:
                    near.append(m)
            elif m not in st.removed and (t.kind != "tunnel" or m in st.exits):
                near.append(m)
        if st.doors:  # entrances laid in gaps border only the hex they face
            if n in st.doors:
                near = [st.doors[n]]
            else:
                near += [gap for gap, face in st.doors.items() if face == n]
        out[n] = tuple(near)
    return out


def cell_of(st: HeistState, n: str) -> H.Cell:
    """The grid cell of a tile name (entrances laid in gaps included)."""
    b = board(st)
    return b.cells[n] if n in b.cells else H.parse_cell(n, b.width, b.height)


def chits(st: HeistState, n: str, kind: str, active: bool | None = True) -> list[Chit]:
    """The chits of ``kind`` on a tile (guards include dogs), filtered by state (None: any)."""
    t = st.tiles.get(n)
    if t is None:
        return []
    kinds = (GUARD, DOG) if kind == GUARD else (kind,)
    return [c for c in t.chits if c.kind in kinds and (active is None or c.active == active)]


def guards(st: HeistState, n: str) -> int:
    """Unsubdued guards (dogs included) on a tile."""
    return len(chits(st, n, GUARD))


def sealed(st: HeistState, n: str) -> bool:
    """True when a remote lock or keycard door shuts the tile (a lock chit aside)."""
    t = st.tiles.get(n)
    return t is not None and any(m in t.marks for m in SEALS)


def imprisoning(st: HeistState, n: str) -> bool:
    """True when a remote lock is on tile ``n``: whoever stands there is shut in until a server opens it."""
    t = st.tiles.get(n)
    return t is not None and ("remote_lock_x" in t.marks or "remote_lock_y" in t.marks)


def standing_gates(st: HeistState) -> list[str]:
    """The tiles of the lockdown gates still standing, in the order they shut (A first)."""
    names = sorted(st.tiles)
    return [n for g in GATES for n in names if g in st.tiles[n].marks and n not in st.removed]


def gate_schedule(st: HeistState, cards: int | None = None) -> dict[str, int]:
    """The lockdown gates still standing that the event deck shuts (within its first ``cards`` cards, or all
    of it), in the order they shut, each with the cards dealt before the one that shuts it."""
    if "lockdown_gates" not in heist(st).modules:
        return {}
    gates = standing_gates(st)
    out: dict[str, int] = {}
    for i, card in enumerate(st.deck[:cards]):
        for effect in C().events[card].effects:
            if effect.op == "gates":
                for g in gates[len(out) : len(gates) if effect.n == 0 else len(out) + effect.n]:
                    out[g] = i
    return out


def on_gate(st: HeistState, n: str) -> bool:
    """True when ``n`` is a lockdown gate's tile still standing: whoever stands there when it shuts (a card,
    or every gate left when the escape starts: ruling 47) is Busted."""
    t = st.tiles.get(n)
    return t is not None and n not in st.removed and any(g in t.marks for g in GATES)


def locked(st: HeistState, n: str) -> bool:
    """True when nobody may enter the tile: a locked Lock, a Remote Lock or a Keycard Door."""
    return bool(chits(st, n, LOCK)) or sealed(st, n)


def occupied(st: HeistState) -> dict[str, list[Player]]:
    """Characters still in play, by tile."""
    out: dict[str, list[Player]] = {}
    for p in st.players.values():
        if p.status == "in" and p.pos:
            out.setdefault(p.pos, []).append(p)
    return out


def in_play(st: HeistState) -> list[Player]:
    """Characters still in the heist (not busted, not escaped), in seat order."""
    return [st.players[s] for s in st.seats if st.players[s].status == "in"]


# --- noise, alerts, the deck --------------------------------------------------------------------------


def is_crisis(card: str) -> bool:
    """True for a crisis card id."""
    return C().events[card].kind == "crisis"


def events_left(st: HeistState) -> int:
    """Event cards still in the deck, crises aside: each is an Event phase, and a round, still to come."""
    return sum(not is_crisis(c) for c in st.deck)


def card_name(card: str) -> str:
    """An event or crisis card as ``2 Get Outta My Way!``."""
    return f"{card} {C().events[card].name}"


def queue_crises(st: HeistState, ev: list[Event]) -> None:
    """Set aside every crisis now on top of the deck, in order."""
    while st.deck and is_crisis(st.deck[0]):
        card = st.deck.pop(0)
        st.crises.append(card)
        ev.append(Event(f"Crisis {card_name(card)} surfaces: it will happen this Event phase.", "crisis"))


def alert(st: HeistState, ev: list[Event], why: str = "") -> None:
    """Raise ⚠: discard the top event card, then queue any crisis that surfaces."""
    if not st.deck:
        ev.append(Event(f"⚠ {why}: the event deck is already empty.", "alert"))
        return
    card = st.deck.pop(0)
    st.discard.append(card)
    st.last_event = card
    ev.append(Event(f"⚠ {why}: event {card_name(card)} is discarded.".replace("⚠ :", "⚠"), "alert"))
    queue_crises(st, ev)


def track(st: HeistState) -> tuple[tuple[int, ...], int]:
    """The noise track for this many players: its alert spaces and final slot."""
    return TRACKS[4 if len(st.seats) >= 4 else 3]


def make_noise(st: HeistState, n: int, ev: list[Event]) -> None:
    """Move the noise marker ``n`` spaces, raising ⚠ on alert spaces; at the final slot every noise raises ⚠."""
    spaces, final = track(st)
    for _ in range(n):
        nxt = min(st.noise + 1, final)
        if st.decoys and (st.noise == final or nxt in spaces):
            st.decoys -= 1  # a diversion takes this noise instead of the alert
            ev.append(Event(f"A diversion covers the noise ({st.decoys} left).", "noise"))
            continue
        if st.noise == final:
            alert(st, ev, "noise past the final slot")
            continue
        st.noise = nxt
        if st.noise in spaces:
            alert(st, ev, f"noise reaches {st.noise}")


# --- security chits -----------------------------------------------------------------------------------


def place(
    st: HeistState, n: str, kind: str, ev: list[Event] | None = None, *, from_bag: bool = False
) -> None:
    """Put an active chit of ``kind`` (``guard2x``: an elite one) on a tile."""
    base = kind.removesuffix("2x")
    st.tiles[n].chits.append(Chit(base, True, kind.endswith("2x"), 0, from_bag))


def _listed_reveal(why: str, n: str, kind: str, thing: str) -> Event:
    """A plain chit found by a sweep (``why`` ends in " at": the auto-reveal, the escape's reveal), told
    so that a run of them reads as one line: "Auto-reveal: a lock at g6, a guard at f7 and a blank at f6."."""
    head = why.removesuffix(" at") + ":"
    item = f"{thing} at {n}"
    return Event(f"{head} {item}.", "reveal", data={"tile": n, "chit": kind, "series": (head, item)})


def draw(st: HeistState, n: str, ev: list[Event], why: str, by: Player | None = None) -> None:
    """Draw a random chit from the bag onto an unknown security tile (an empty bag leaves it blank).

    ``by`` is the character whose move or 🔍 caused the draw (an idea token drawn is theirs).
    """
    t = st.tiles[n]
    if not t.unknown:
        return
    t.unknown = False
    st.undo.clear()  # something unknown came to light: no more undoing
    if not st.bag:
        ev.append(Event(f"{why} {n}: the security bag is empty, the tile stays blank.", "reveal"))
        return
    kind = st.bag.pop(st.rng.below(len(st.bag)))
    if kind == "blank":
        if why.endswith(" at"):
            ev.append(_listed_reveal(why, n, kind, "a blank"))
        else:
            ev.append(Event(f"{why} {n}: a blank, nothing there.", "reveal", data={"tile": n, "chit": kind}))
        return
    if kind in ("idea2", "idea3"):
        gain = int(kind[-1])
        if by is not None:
            by.ideas += gain
        who = f": {by.nickname} gains {'💡' * gain}" if by is not None else ""
        ev.append(Event(f"{why} {n}: an idea token{who}.", "reveal", data={"tile": n, "chit": kind}))
        return
    if kind in ("jewel", "docs", "usb", "keycard"):
        t.loot.append(kind)
        text = f"{why} {n}: {with_article(kind)}"
        if kind in ("usb", "keycard") or any(r.id == "held_by_guard" for r in heist(st).rules):
            place(st, n, GUARD)
            text += ", held by a guard"
    else:
        place(st, n, kind, from_bag=True)
        thing = with_article(kind.replace("2x", " (elite)"))
        text = f"{why} {n}: {thing}"
        if st.phase == "action" and "blank" in st.bought:
            st.flags.append(f"drawn:{n}")  # the Security Consultant may still swap it this round
        if kind.startswith(CAMERA) and st.phase == "plan" and "shell" in st.bought:
            st.tiles[n].chits[-1].active = False  # Denial of service: found in planning, it starts disabled
            text += ", already disabled"
        elif why.endswith(" at"):
            text = ""
            ev.append(_listed_reveal(why, n, kind, thing))
    if text:
        ev.append(Event(text + ".", "reveal", data={"tile": n, "chit": kind}))
    if kind.startswith(DOG):
        dogs_chase(st, ev)


def auto_reveal(st: HeistState, ev: list[Event], by: Player | None = None) -> None:
    """Draw for every unknown security tile next to a character still inside (``by``'s tile first), then
    next to every active non-player character ("just a character")."""
    occ = sorted(occupied(st).items(), key=lambda kv: (by is None or kv[0] != by.pos, kv[0]))
    for n, here in occ:
        reveal_around(st, n, ev, by if by is not None and by.pos == n else here[0])
    for npc in st.npcs:
        if npc.status == "in" and npc.active:
            reveal_around(st, npc.pos, ev)


def reveal_around(st: HeistState, n: str, ev: list[Event], by: Player | None = None) -> None:
    """Auto-reveal: draw for every unknown security tile next to tile ``n`` (``by``: who stands there)."""
    for m in nbrs(st, n):
        if st.tiles[m].unknown:
            draw(st, m, ev, "Auto-reveal at", by)


def hit_chit(c: Chit) -> bool:
    """One matching sub-action (🔓 👊 📷) on a chit: True when it goes down. An elite (2x) chit needs two
    in the same round: the first is only counted (the count is cleared in the Event phase)."""
    if c.elite and c.hits == 0:
        c.hits = 1
        return False
    c.active = False
    c.hits = 0
    return True


def dogs_chase(st: HeistState, ev: list[Event]) -> None:
    """Guard dogs next to a character, and not already on one, jump onto that character's tile.

    Active non-player characters count as characters here ("just a character").
    """
    occ = set(occupied(st)) | {n.pos for n in st.npcs if n.status == "in" and n.active}
    for n in sorted(st.tiles):
        t = st.tiles[n]
        dogs = [c for c in t.chits if c.kind == DOG and c.active]
        if not dogs or n in occ or f"dogwait:{n}" in st.flags:
            continue
        targets = [m for m in nbrs(st, n) if m in occ and m not in exits(st)]
        if not targets:
            continue
        to = min(targets)  # the team's choice; the first in name order
        for d in dogs:
            t.chits.remove(d)
            st.tiles[to].chits.append(d)
        ev.append(Event(f"A guard dog at {n} chases onto {to}.", "dog"))


def lift_remote_locks(st: HeistState, n: str, ev: list[Event]) -> None:
    """A character on a server opens every matching remote lock."""
    for server, lock in REMOTE.items():
        if server in st.tiles[n].marks:
            opened = [m for m, t in st.tiles.items() if lock in t.marks]
            for m in opened:
                st.tiles[m].marks.remove(lock)
            if opened:
                locks = "lock" if len(opened) == 1 else "locks"
                ev.append(
                    Event(f"The server at {n} opens the remote {locks} at {', '.join(opened)}.", "unlock")
                )


# --- loot ---------------------------------------------------------------------------------------------


def bank(st: HeistState, p: Player, ev: list[Event], *, final: bool = False) -> None:
    """Loot a character carries outdoors (or, in the escape, into a hideout) is the team's (tools only when the
    heist ends)."""
    got = []
    if p.cash:
        st.hauled["cash"] = st.hauled.get("cash", 0) + p.cash
        got.append(f"${p.cash}k")
        p.cash = 0
    for item in list(p.loot):
        if item in BANKED_LATE and not final:
            continue
        p.loot.remove(item)
        st.hauled[item] = st.hauled.get(item, 0) + 1
        got.append(item)
    if got:
        where = "into hiding" if p.pos in hideouts(st) else "outdoors"
        ev.append(Event(f"{p.nickname} gets {', '.join(got)} {where}: the team has it.", "loot"))


def discard_item(st: HeistState, item: str) -> None:
    """An item card is discarded: once discovered it joins the shop for later planning phases."""
    if item not in st.shop:
        st.shop.append(item)


def drop_all(st: HeistState, p: Player) -> None:
    """Leave everything the character carries (cash, loot, item cards) on its tile."""
    t = st.tiles[p.pos]
    t.cash += p.cash
    p.cash = 0
    t.loot.extend(p.loot)
    t.loot.extend(f"item:{i}" for i in p.items)
    p.loot.clear()
    p.items.clear()


def take_from(st: HeistState, p: Player, n: str, what: str) -> None:
    """Pick ``what`` (cash, jewel, docs, usb, keycard, item:<id>) up from tile ``n``."""
    t = st.tiles[n]
    if what == "cash":
        p.cash += t.cash
        t.cash = 0
    elif what.startswith("item:"):
        t.loot.remove(what)
        p.items.append(what[5:])
    else:
        t.loot.remove(what)
        p.loot.append(what)


def loot_on(st: HeistState, n: str) -> list[str]:
    """What lies on a tile, as take/drop keys."""
    t = st.tiles[n]
    return (["cash"] if t.cash else []) + sorted(set(t.loot))


def carried(p: Player) -> list[str]:
    """What a character carries, as take/drop keys."""
    return (["cash"] if p.cash else []) + sorted(set(p.loot)) + [f"item:{i}" for i in sorted(set(p.items))]


# --- actions ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """An action a player may choose now: its key, sub-action letters, where it comes from, its 💡 cost.

    ``face`` is the die face the action sits on (0: a default or item action, usable on any roll).
    ``special`` names the ability behind a special action.
    """

    key: str
    name: str
    subs: str
    source: str
    cost: int
    face: int = 0
    special: str = ""


# Special actions: key -> (sub-action letters, extra 💡 cost). Their other effects live in actions.py.
SPECIALS: dict[str, tuple[str, int]] = {
    "dart": ("NMM", 1),
    "bolt": ("NMM", 1),
    "bolt_far": ("NMMM", 2),
    "patch_in": ("IIRN", 0),
    "autopwn": ("N", 1),
    "exploit": ("N", 1),
    "loop_footage": ("", 2),
    "rewire_ability": ("DDN", 2),
    "breach": ("", 4),
    "toss_loot": ("", 0),
    "tweak_plan": ("NM", 0),
    "kill_pixels": ("", 0),
    "toss_flashbang": ("NNN", 0),
}


def letters(action_id: str) -> str:
    """Sub-action letters of a plain action."""
    return "".join(LETTER_OF[s] for s in C().actions[action_id].subactions)


def face_cost(die: int, face: int) -> int:
    """💡 needed to turn the die to ``face`` (±1 each, wrapping 6↔1)."""
    d = abs(die - face)
    return min(d, 6 - d)


@cache
def _ideas_a_round(character: str, skills: tuple[str, ...], items: tuple[str, ...]) -> float:
    """:func:`ideas_a_round` for a character card, its skills and its items."""
    content = C()
    own = [*content.characters[character].default_actions, *(content.items[i].action for i in items)]
    plain = [a for a in own if a and content.actions[a].kind != "special"]
    base = max((letters(a).count("I") for a in plain), default=0)
    faces = [(f, content.skills[s].action_for(f)) for s in skills for f in range(1, 7)]
    faces = [(f, a) for f, a in faces if content.actions[a].kind != "special"]
    best = [
        max([base, *(letters(a).count("I") - face_cost(die, f) for f, a in faces)]) for die in range(1, 7)
    ]
    return sum(best) / 6


def ideas_a_round(p: Player) -> float:
    """The 💡 the character gains in a round spent thinking, on average over its die: the best of its actions
    for ideas (its own, its items', or its skills' on any face, less the 💡 it pays to turn the die there)."""
    return _ideas_a_round(p.character, tuple(p.skills), tuple(p.items))


def special_options(st: HeistState, p: Player, action_id: str, source: str) -> list[Option]:
    """The options a special action gives (none when its condition fails)."""
    a = C().actions[action_id]
    out = []
    if action_id == "bolt":
        keys = ["bolt", "bolt_far"]
    elif action_id == "kill_pixels":
        if "kill_pixels" in st.flags:
            return []
        # One straight line of the six, chosen by its direction.
        return [
            Option(f"kill_pixels_{d}", f"{a.name} ({H.DIRECTION_NAMES[d]})", "", source, 0, 0, "kill_pixels")
            for d, line in zip(H.DIRECTIONS, board(st).lines[p.pos], strict=True)
            if any(chits(st, m, CAMERA) for m in line[:2])
        ]
    elif action_id in SPECIALS:
        keys = [action_id]
    else:
        keys = []
    for key in keys:
        subs, cost = SPECIALS[key]
        if key == "patch_in" and not any(chits(st, m, CAMERA) for m in nbrs(st, p.pos)):
            continue
        if key == "breach" and p.pos not in board(st).external:
            continue
        name = a.name if key != "bolt_far" else f"{a.name} (far)"
        out.append(Option(key, name, subs, source, cost, 0, key))
    return out


def options(st: HeistState, p: Player) -> list[Option]:
    """Every action the player could choose now, cheapest way for each key, with what it costs."""
    found: dict[str, Option] = {}

    def add(o: Option) -> None:
        """Keep the cheapest option per key, if affordable."""
        if o.cost > p.ideas:
            return
        old = found.get(o.key)
        if old is None or o.cost < old.cost:
            found[o.key] = o

    ch = character(p)
    for aid in ch.default_actions:
        a = C().actions[aid]
        if a.kind == "special":
            for o in special_options(st, p, aid, ch.name):
                add(o)
        else:
            add(Option(aid, a.name, letters(aid), ch.name, 0))
    for it in p.items:
        item = C().items[it]
        if item.action:
            a = C().actions[item.action]
            if a.kind == "special":
                for o in special_options(st, p, item.action, item.name):
                    add(o)
            else:
                add(Option(item.action, a.name, letters(item.action), item.name, 0))
    for sid in p.skills:
        sk = C().skills[sid]
        for face in range(1, 7):
            aid = sk.action_for(face)
            cost = face_cost(p.die, face)
            a = C().actions[aid]
            add(Option(aid, a.name, letters(aid), sk.name, cost, face))
    return sorted(found.values(), key=lambda o: (o.cost, o.key))


def option_label(o: Option) -> str:
    """``Punch 👊🔊🔊➜ (Wing It, 1 💡)``."""
    cost = f", {o.cost} 💡" if o.cost else ""
    return f"{o.name} {sym(o.subs)} ({o.source}{cost})".replace("  ", " ")


def commit(st: HeistState, p: Player, o: Option, ev: list[Event]) -> None:
    """Choose an action: pay its ideas, set the die, keep its optional sub-actions to play."""
    p.ideas -= o.cost
    if o.face:
        p.die = o.face
    p.action, p.source = o.key, o.source
    p.noise_due = o.subs.count(NOISE)
    p.alert_due = o.subs.count(ALERT)
    p.left = "".join(c for c in o.subs if c not in (NOISE, ALERT))
    p.unlocks = o.subs.count("U")
    p.picks = p.cracks = 0
    if "there_are_better_ways" in abilities(p):
        p.left = p.left.replace("S", "")  # these characters never subdue
    cost = f" for {o.cost} 💡" if o.cost else ""
    ev.append(Event(f"{p.nickname} commits to {o.name} {sym(o.subs)}{cost}.", "action"))


def finish_action(st: HeistState, p: Player, ev: list[Event]) -> None:
    """End a player's action: its 🔊 and ⚠ are charged now (Suspenseful silence may waive the 🔊)."""
    noise = p.noise_due
    if p.cracks and "suspenseful_silence" in abilities(p) and "acted" not in p.flags:
        noise = 0  # a round of nothing but safecracking is silent
    p.noise_due = 0
    if noise:
        make_noise(st, noise, ev)
    for _ in range(p.alert_due):
        alert(st, ev, f"{p.nickname}'s action")
    p.alert_due = 0
    p.done = True
    p.left = ""
    p.proxy = ""
    st.undo.pop(p.seat, None)
    if any(f.startswith("dogwait:") for f in st.flags):
        st.flags = [f for f in st.flags if not f.startswith("dogwait:")]
        dogs_chase(st, ev)
    ev.append(Event(f"{p.nickname} is done for this round.", "done"))


# --- escape -------------------------------------------------------------------------------------------


def step_cost(
    st: HeistState, a: str, c: str, better: bool, keycard: bool, shut: frozenset[str] = frozenset()
) -> int | None:
    """Escape moves for one step from tile ``a`` to its neighbour ``c`` (None: impossible).

    Entering costs 1; locked tiles are impassable (a keycard door costs 1 more with the keycard);
    leaving a tile costs 1 more per unsubdued guard there (no more for those who know ``better`` ways).
    A remote lock shuts in whoever stands under it: nobody leaves that tile until a server opens it.
    ``shut``: tiles gone by then (:func:`shut_at_escape`).
    """
    if not alive(st, c) or c in shut or imprisoning(st, a):
        return None
    t = st.tiles[c]
    if chits(st, c, LOCK) or "remote_lock_x" in t.marks or "remote_lock_y" in t.marks:
        return None
    extra = 0
    if "keycard_door" in t.marks:
        if not keycard:
            return None
        extra += 1
    g = guards(st, a)
    if g and not better:
        extra += g
    return 1 + extra


def shut_at_escape(st: HeistState) -> frozenset[str]:
    """The tiles the escape will find gone: every lockdown gate still standing shuts as it starts (ruling
    47), so none is left once it runs."""
    return frozenset(standing_gates(st))


def escape_paths(
    st: HeistState, start: str, better: bool, keycard: bool
) -> tuple[dict[str, int], dict[str, str]]:
    """Least escape moves from ``start`` to every tile, and each tile's predecessor (Dijkstra), over the
    board as the escape will find it (:func:`shut_at_escape`): reckoned before the escape, a way out over a
    gate still standing (The Proving Grounds' d7, beside entrance c7) counted moves no runner could make."""
    shut = shut_at_escape(st)
    best = {start: 0}
    prev: dict[str, str] = {}
    heap = [(0, start)]
    while heap:
        d, cur = heapq.heappop(heap)
        if d > best[cur]:
            continue
        for m in nbrs(st, cur):
            c = step_cost(st, cur, m, better, keycard, shut)
            if c is None:
                continue
            if d + c < best.get(m, d + c + 1):
                best[m] = d + c
                prev[m] = cur
                heapq.heappush(heap, (d + c, m))
    return best, prev


def route_from(
    st: HeistState, pos: str, via: str = "", *, better: bool, keycard: bool
) -> list[tuple[str, int]] | None:
    """The cheapest way out from ``pos`` as (tile, moves so far) steps; None when there is none."""
    legs = [pos, via] if via else [pos]
    route: list[tuple[str, int]] = []
    total = 0
    for i, start in enumerate(legs):
        costs, prev = escape_paths(st, start, better, keycard)
        if i + 1 < len(legs):
            goal = legs[i + 1]
            if goal not in costs:
                return None
        else:
            taken = (
                {q.pos for q in st.players.values() if q.status == "escaped"}
                if has_rule(st, "breakout")
                else set()
            )
            outs = [e for e in sorted(escape_goals(st) - taken) if e in costs]
            if not outs:
                return None
            goal = min(outs, key=lambda e: costs[e])
        walk = [goal]
        while walk[-1] != start:
            walk.append(prev[walk[-1]])
        for n in reversed(walk[:-1]):
            route.append((n, total + costs[n]))
        total += costs[goal]
    return route


def escape_route(st: HeistState, p: Player, via: str = "") -> list[tuple[str, int]] | None:
    """A character's cheapest way out (through ``via`` if given); None when there is none."""
    better = "there_are_better_ways" in abilities(p)
    return route_from(st, p.pos, via, better=better, keycard="keycard" in p.loot)


def escape_need(st: HeistState, p: Player, via: str = "") -> int | None:
    """Escape moves the character needs to reach an exit (through ``via`` if given), over the board as the
    escape will find it (:func:`escape_paths`); None: no way out."""
    route = escape_route(st, p, via)
    if route is None:
        return None
    return route[-1][1] if route else 0


def busted(st: HeistState, p: Player, ev: list[Event]) -> None:
    """The character is out of the heist and jailed; what it carries is left on its tile."""
    plan_copy = "master_plan_copy" in p.items
    drop_all(st, p)
    p.status = "busted"
    p.done = True
    for npc in st.npcs:
        if npc.escort == p.seat:
            npc.escort = ""
    ev.append(Event(f"{p.nickname} is Busted and off to jail.", "busted"))
    if plan_copy and "plan_lost" not in st.flags:
        st.flags.append("plan_lost")  # Scrawled on palm: the whole crew goes down with the plan
        ev.append(Event("The Master Plan Copy is found on them: the whole crew is Busted.", "busted"))
        for q in in_play(st):
            busted(st, q, ev)


# --- the end ------------------------------------------------------------------------------------------


def is_cell(st: HeistState, n: str) -> bool:
    """True for a jail cell hex of a County Jail heist (break in to break out)."""
    t = board(st).tiles.get(n)
    return t is not None and "pawn" in t.features and has_rule(st, "break_in_to_break_out")


def cells(st: HeistState) -> list[str]:
    """The jail cell hexes of a County Jail heist still on the board (none elsewhere)."""
    return [n for n in sorted(board(st).tiles) if is_cell(st, n) and alive(st, n)]


def counts_for_breakout(st: HeistState, p: Player) -> bool:
    """Whether the character counts for "at least one character gets out": in a County Jail heist only
    those who were in the cells (jailed ones start there, the others must break in); elsewhere anyone."""
    return not has_rule(st, "break_in_to_break_out") or "been_in_cells" in p.used


def objective_met(st: HeistState) -> bool:
    """True when the heist's objective holds now."""
    o = heist(st).objective
    if "plan_lost" in st.flags:
        return False
    got = st.hauled
    if got.get("jewel", 0) < o.jewels or got.get("cash", 0) < o.cash_k:
        return False
    if o.special == "docs_in_hideout":
        if "docs_hidden" not in st.flags:  # documents taken out by an exit are not hidden in a hideout
            return False
    elif got.get("docs", 0) < o.docs:
        return False
    if o.npc_escapes and not any(n.status == "escaped" for n in st.npcs):
        return False
    # A jail heist counts only characters who were in the cells (started there or broke in to them).
    out = sum(p.status == "escaped" and counts_for_breakout(st, p) for p in st.players.values())
    if o.characters_escape and out < o.characters_escape:
        return False
    return not (o.safe and "safe_open" not in st.flags)
