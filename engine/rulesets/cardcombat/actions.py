"""Dark Realms commands: the round (commit, reveal, initiative), hero and summon turns, and the enemies'.

Grammar (verb first; ``<fig>`` is a hero's class id or a summon's id):
``commit <hero> <card> [<card>]`` / ``commit <hero> rest``, ``use <hero> <item>``, ``move <fig> <square>``,
``attack <fig> <target> [<target>...]``, ``split <hero> <range die> <damage die>``,
``reroll <hero> [<die>] <free|stamina|item>``, ``accept <hero>``, ``heal <fig> <target>``,
``cast <fig> <target>``, ``teleport <fig> <square>``, ``summon <fig> <square>``, ``rift <fig> <square>``,
``boost <hero> <item>``, ``loot <hero>``, ``open <hero> <door square>``, ``skip <fig>``, ``end <fig>``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations, permutations
from typing import Any

from engine.core import Command, Event
from engine.errors import GameOver, IllegalCommand, NotYourTurn, UnknownCommand
from engine.geometry.square import Cell, cell_name, chebyshev
from engine.grammar import plural
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.content import (
    CHESTS,
    SUMMONS,
    Action,
    action_words,
    cards,
    enemies,
    items,
    parse_actions,
)
from engine.rulesets.cardcombat.state import CCState

# the verbs that play the current card line (an augmentation is used on it: it commits to the line too)
LINE_VERBS = ("attack", "heal", "cast", "teleport", "summon", "rift", "boost")
VERBS = ("commit", "recollect", "use", "move", "attack", "split", "reroll", "accept", "heal", "cast", "teleport", "summon",
         "rift", "boost", "loot", "open", "skip", "end")  # fmt: skip


# -- rounds -------------------------------------------------------------------------------------------------
def budget(f: dict[str, Any]) -> int:
    """A hero's stamina for this round: the stat, less stamina locked on items, plus 2 with Adrenaline."""
    locked = sum(items()[i["id"]].stamina for i in f["items"] if i.get("active"))
    return max(0, int(f["stamina"]) - locked + (2 if R.has(f, "adrenaline") else 0))


def available_cards(f: dict[str, Any]) -> list[str]:
    """Cards in hand that are neither cooling down nor discarded."""
    return [c for c in f["hand"] if c not in f["cooldown"] and c not in f["discard"]]


def begin_round(st: CCState, events: list[Event]) -> None:
    """Open a round: round-start scenario rules, then every standing hero commits in secret."""
    st.phase = "commit"
    st.commits = {}
    st.order = []
    st.turn_index = 0
    rules = st.scenario["rules"]
    if "keep_up_the_speed" in rules and st.round >= 10:
        events.append(Event("The roof is coming down: every figure takes 2 damage."))
        for f in R.alive(st):
            R.hurt(st, f, 2, events)
    if "aided_by_darkness" in rules and st.round % 2 == 0:
        for f in R.alive(st):
            if f["kind"] == "enemy" and f["hp"] < f["max_hp"]:
                f["hp"] += 1
        events.append(Event("Aided by Darkness: every enemy heals 1."))
    if (
        "reinforcements" in rules
        and st.round > 10
        and not st.flags.get("reinforced")
        and not any(f.get("captain") or f.get("boss") for f in R.alive(st) if f["kind"] == "enemy")
    ):
        heroes = [R.pos(f) for f in R.alive(st) if f["kind"] == "hero"]
        w, h = R.size(st)
        free = [
            (x, y)
            for x in range(w)
            for y in range(h)
            if not R.is_wall(st, (x, y)) and not R.occupant(st, (x, y))
        ]
        if free and heroes:
            spot = max(free, key=lambda c: (min(chebyshev(c, p) for p in heroes), -c[1], -c[0]))
            e = R.make_enemy(st, "corrupted_elemental", False, spot, "elereinf")
            st.figures[e["id"]] = e
            st.flags["reinforced"] = True
            events.append(Event(f"Reinforcements: a Corrupted Elemental appears on {cell_name(spot)}."))
    if st.scenario["objective"] == "treasure" and st.round >= 2 and st.round % 2 == 0:
        place_chest(st, events)
    if {"ring_of_cloak", "cursed_ring"} & set(rules):
        standing = sorted((f for f in R.alive(st) if f["kind"] == "hero"), key=lambda f: str(f["seat"]))
        if standing:
            carrier = standing[(st.round - 1) % len(standing)]
            st.flags["ring_carrier"] = carrier["id"]
            events.append(Event(f"{carrier['name']} carries the ring this round."))
    R.check_outcome(st, events)


def place_chest(st: CCState, events: list[Event]) -> None:
    """Treasure Horde: a chest on the empty floor square farthest from the heroes (while fewer than three
    have been placed)."""
    placed = int(st.flags.get("chests_placed", 0))
    heroes = [R.pos(f) for f in R.alive(st) if f["kind"] == "hero"]
    if placed >= CHESTS or not heroes:
        return
    w, h = R.size(st)
    taken = {(p[0], p[1]) for p in st.loot}
    free = [(x, y) for x in range(w) for y in range(h)
            if not R.is_wall(st, (x, y)) and not R.is_trap(st, (x, y)) and not R.occupant(st, (x, y))
            and (x, y) not in taken]  # fmt: skip
    if not free:
        return

    def away(c: Cell) -> int:  # heroes can open doors: a chest behind a closed one is far, not out of reach
        return min(R.walking_distance(st, p, c, True) for p in heroes)

    reachable = [c for c in free if away(c) < 999]
    if not reachable:
        return
    spot = max(reachable, key=lambda c: (away(c), -c[1], -c[0]))
    st.loot.append([spot[0], spot[1], f"chest:{5 + int(st.scenario['level'])}"])
    st.flags["chests_placed"] = placed + 1
    events.append(Event(f"Treasure Horde: a chest appears on {cell_name(spot)}."))


def commit_options(st: CCState, f: dict[str, Any]) -> list[Command]:
    """The hero's possible commitments: rest, one card or two whose stamina fits the round's budget."""
    hid = f["id"]
    b = budget(f)
    avail = available_cards(f)
    out = [Command("commit", (hid, "rest"), f"{f['name']}: play no card (speed 0, {b} stamina to spare)")]
    for c in avail:
        card = cards()[c]
        if card.cost <= b:
            out.append(Command("commit", (hid, c), f"{card.name} (speed {card.cost})"))
    for a, c in permutations(avail, 2):  # the order given is the order the cards are played in
        cost = cards()[a].cost + cards()[c].cost
        if cost <= b:
            out.append(
                Command("commit", (hid, a, c), f"{cards()[a].name}, then {cards()[c].name} (speed {cost})")
            )
    return out


def reveal(st: CCState, events: list[Event]) -> None:
    """Every hero has committed: draw each enemy type's speed card, sort the initiative and begin turns.

    Initiative runs from the highest speed; ties go to heroes before enemies, then seat order / the
    scenario's enemy order (its groups a, b, c..., then its boss, then types that joined later). Summons act
    right after their summoner."""
    entries: list[tuple[int, int, int, list[Any]]] = []
    seat_rank = {s: i for i, s in enumerate(R.SEATS)}
    for f in R.alive(st):
        if f["kind"] != "hero":
            continue
        com = st.commits.get(f["id"], {"cards": [], "items": []})
        speed = sum(cards()[c].cost for c in com["cards"])
        speed += sum(items()[i].value for i in com["items"] if items()[i].effect == "speed")
        f["committed"] = list(com["cards"])
        f["round_budget"] = budget(f)  # Adrenaline's +2 counts for this round, though it is spent now
        names = ", ".join(cards()[c].name for c in com["cards"]) or "no card"
        events.append(Event(f"{f['name']} reveals {names}: speed {speed}."))
        entries.append((-speed, 0, seat_rank[f["seat"]], ["hero", f["id"], speed]))
        if R.has(f, "adrenaline"):
            del f["st"]["adrenaline"]
    types = []
    for f in R.alive(st):
        if f["kind"] == "enemy" and f["type"] not in types:
            types.append(f["type"])
    # ties between enemy types go by the scenario's order, not the order the figures happen to be stored in
    listed = [*st.scenario.get("groups", ()), st.scenario.get("boss") or ""]
    st.drawn = {}
    for t in types:
        deck = st.decks.setdefault(t, {"draw": [], "discard": []})
        if not deck["draw"]:
            deck["draw"] = list(range(len(enemies()[t].deck)))
            deck["discard"] = []
            st.rng.shuffle(deck["draw"])
        idx = deck["draw"].pop(0)
        st.drawn[t] = idx
        card = enemies()[t].deck[idx]
        events.append(Event(f"{enemies()[t].name}: speed {card.speed}, {card.text}."))
        rank = listed.index(t) if t in listed else len(listed) + types.index(t)
        entries.append((-card.speed, 1, rank, ["enemy", t, card.speed]))
    entries.sort(key=lambda e: (e[0], e[1], e[2]))
    st.order = []
    for *_k, entry in entries:
        st.order.append(entry)
        if entry[0] == "hero":
            for s in R.alive(st):
                if s["kind"] in ("summon", "ally") and s.get("owner") == entry[1]:
                    st.order.append(["summon", s["id"], entry[2]])
    st.phase = "turns"
    st.turn_index = 0
    st.log = []
    events.append(Event(f"Initiative: {R.initiative_text(st, ', ')}.", board=True))
    advance(st, events)


def end_round(st: CCState, events: list[Event]) -> None:
    """Close the round: cooldowns advance, spent cards cool down or are discarded, round-long statuses end,
    Do not Linger bites, speed cards are discarded; then the next round opens."""
    for f in list(st.figures.values()):
        for k, v in list(f["st"].items()):
            if v == "round":
                del f["st"][k]
        f["shield"] = 0
        f["reroll_used"] = False
        f["free_reroll_used"] = False
        f["moved_free"] = False
        if f["kind"] != "hero":
            continue
        f["cooldown"] = {c: n - 1 for c, n in f["cooldown"].items() if n > 1}
        for c in f.get("committed", []):
            cd = cards()[c].cooldown
            if cd < 0:
                f["discard"].append(c)
            elif cd > 0:
                f["cooldown"][c] = cd
        f["committed"] = []
        for it in f["items"]:
            if it.get("used") != st.round:  # the round of use does not count toward the cooldown
                it["cd"] = max(0, it["cd"] - 1)
        if "do_not_linger" in st.scenario["rules"] and f["hp"] > 0 and not f.get("out"):
            here = list(f["pos"])
            if f.get("linger_pos") == here:
                f["linger"] = f.get("linger", 0) + 1
            else:
                f["linger_pos"], f["linger"] = here, 0
            if f["linger"] >= 2:
                events.append(Event(f"Do not Linger: {f['name']} has stayed too long and takes 2 damage."))
                R.hurt(st, f, 2, events)
    for t, idx in st.drawn.items():
        st.decks[t]["discard"].append(idx)
    st.drawn = {}
    st.round += 1
    st.rifts = [r for r in st.rifts if any(chebyshev((r[0], r[1]), R.pos(f)) <= 4 for f in R.alive(st))]
    if not R.check_outcome(st, events):
        events.append(Event(f"Round {st.round} begins: commit your cards.", board=True))
        begin_round(st, events)


def advance(st: CCState, events: list[Event]) -> None:
    """Run the initiative until a hero or summon must act, the round ends, or the game ends."""
    guard = 0
    while guard < 200:
        guard += 1
        if R.check_outcome(st, events):
            return
        if st.pending.get("stage") or st.turn.get("fig") or st.phase != "turns":
            return
        if st.turn_index >= len(st.order):
            end_round(st, events)
            return
        kind, fid, _speed = st.order[st.turn_index]
        st.turn_index += 1
        if kind == "enemy":
            group = [f for f in R.alive(st) if f["kind"] == "enemy" and f["type"] == fid]
            group.sort(key=lambda f: (not f.get("captain"), f["id"]))
            for e in group:
                if e["hp"] > 0 and not e.get("out") and st.result is None:
                    st.trail = []
                    R.enemy_turn(st, e, st.drawn[fid], events)
                    st.pending = {}
                    if R.check_outcome(st, events):
                        return
            continue
        f = st.figures.get(fid)
        if f is None or f["hp"] <= 0 or f.get("out"):
            continue
        start_turn(st, f, events)


def start_turn(st: CCState, f: dict[str, Any], events: list[Event]) -> None:
    """A hero's or summon's turn begins: its committed cards' actions queue up in order."""
    st.trail = []
    st.attacks = []
    queue: list[list[Any]] = []
    if f["kind"] == "hero":
        for c in f.get("committed", []):
            queue += [["card", c, i] for i in range(len(cards()[c].actions))]
        spare = int(f.get("round_budget", budget(f))) - sum(cards()[c].cost for c in f.get("committed", []))
    else:
        queue = [["summon", f["summon"], i] for i in range(len(summon_actions(f["summon"])))]
        spare = 0
    st.turn = {"fig": f["id"], "queue": queue, "pool": max(0, spare), "mods": {}, "allow": -1}
    R.start_turn_statuses(st, f, events)
    events.append(Event(f"{f['name']}'s turn ({st.turn['pool']} stamina to spare).", board=True))
    if f["hp"] <= 0:
        finish_turn(st, events)
        return
    settle(st, events)


@cache
def summon_actions(kind: str) -> tuple[Action, ...]:
    """A summon's own actions."""
    return parse_actions(SUMMONS[kind][4], f"summon {kind}")


def action_of(ref: list[Any]) -> Action:
    """The action a queue entry points at."""
    if ref[0] == "card":
        return cards()[ref[1]].actions[int(ref[2])]
    return summon_actions(str(ref[1]))[int(ref[2])]


def current(st: CCState) -> Action | None:
    """The active figure's next card action (None: none left)."""
    q = st.turn.get("queue") or []
    return action_of(q[0]) if q else None


def pop_action(st: CCState, performed: bool = False) -> None:
    """The current action is done (or given up); a performed action earns the XP printed on it."""
    ref = st.turn["queue"].pop(0)
    f = st.figures[st.turn["fig"]]
    xp = action_of(ref).xp
    if performed and xp and f["kind"] == "hero":
        f["xp"] = int(f.get("xp", 0)) + xp
    st.turn["allow"] = -1
    st.turn.pop("gated", None)


def settle(st: CCState, events: list[Event]) -> None:
    """Resolve the actions that need no choice (shields, self heals and casts, gates that fail) and roll a
    move action's spaces when it comes up."""
    f = st.figures[st.turn["fig"]]
    while st.turn.get("queue") and f["hp"] > 0 and st.result is None:
        act = current(st)
        assert act is not None
        if act.needs and not st.turn.get("gated"):
            if waits_for_rift(st, f, act):
                return  # drawn on when the hero plays the line: it may walk up to the rift first
            if not draw_on_rift(st, f, act, events):
                continue
        if act.kind == "shield":
            f["shield"] = int(f.get("shield", 0)) + act.x
            events.append(Event(f"{f['name']} raises a shield: defence {act.x} to the end of the round."))
        elif act.kind == "heal" and act.who == "self":
            R.heal(st, f, act.x, events)
        elif act.kind == "cast" and act.who == "self":
            R.give(st, f, act.what, events)
        elif act.kind == "move" and st.turn["allow"] < 0:
            if R.has(f, "paralyze"):
                events.append(Event(f"{f['name']} is paralyzed and cannot move."))
                pop_action(st)
                continue
            if act.dmg == "fixed":
                st.turn["allow"] = act.x
            else:
                roll = st.rng.roll()
                st.turn["allow"] = roll + (act.x if act.dmg == "plus" else 0)
                events.append(
                    Event(f"{f['name']} rolls {roll} for movement: {st.turn['allow']} spaces.", dice=(roll,))
                )
            return
        else:
            return
        pop_action(st, performed=True)


def waits_for_rift(st: CCState, f: dict[str, Any], act: Action) -> bool:
    """Whether a hero's rift-gated line waits for the hero to play it before the rift is drawn on: a line the
    hero plays by a command (not a shield or a line on itself, which resolve as they come up), with a rift of
    its element on the map. Until it is played the hero may still walk (the round's stamina move before or
    between the cards), put a reach item in play, or skip the line and keep the rift."""
    if f["kind"] != "hero" or not any(r[2] == act.needs for r in st.rifts):
        return False
    return act.kind in ("melee", "ranged", "teleport", "summon", "rift") or (
        act.kind in ("heal", "cast") and act.who != "self"
    )


def draw_on_rift(st: CCState, f: dict[str, Any], act: Action, events: list[Event]) -> bool:
    """A rift-gated line is played: draw on the nearest rift of its element (within reach freely, farther
    with a die, :func:`rules.use_rift`). Returns False, the line given up, when no rift is reached."""
    if R.use_rift(st, f, act.needs, events):
        st.turn["gated"] = True
        return True
    events.append(Event(f"No {act.needs} rift within reach: {f['name']}'s {action_words(act)} fails."))
    pop_action(st)
    return False


def finish_turn(st: CCState, events: list[Event]) -> None:
    """End the active figure's turn and run the initiative on."""
    f = st.figures[st.turn["fig"]]
    R.end_turn_statuses(f)
    R.close_used_rifts(st, f)
    st.turn = {}
    st.pending = {}
    advance(st, events)


# -- what a seat may do -----------------------------------------------------------------------------------
def active_fig(st: CCState, seat: str) -> dict[str, Any] | None:
    """The figure ``seat`` acts with now (its hero or its summon), if it is that seat's turn."""
    fid = st.turn.get("fig")
    if st.phase != "turns" or not fid:
        return None
    f = st.figures[fid]
    return f if f.get("seat") == seat else None


def move_cells(st: CCState, f: dict[str, Any], free: int, pool: int) -> list[tuple[Cell, int, int]]:
    """Every empty square reachable with ``free`` card spaces plus ``pool`` stamina, in reading order, with
    the stamina and the traps of the walk there."""
    best = R.hero_routes(st, f, free, pool)
    taken = {R.pos(g) for g in R.alive(st)} | {R.pos(f)}
    return [(c, cost, traps) for c, (cost, traps) in sorted(best.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            if c not in taken]  # fmt: skip


def move_command(f: dict[str, Any], c: Cell, cost: int, traps: int, verb_note: str) -> Command:
    """The ``move`` command to ``c`` (a square of :func:`move_cells`)."""
    label = (
        f"{f['name']} to {cell_name(c)}"
        + (f" ({cost} stamina)" if cost else "")
        + (" via a trap" if traps else "")
    )
    return Command("move", (f["id"], cell_name(c)), label + verb_note)


class Moves:
    """The ``move`` commands to the squares of :func:`move_cells`, each built when it is asked for (a random
    pick builds one)."""

    __slots__ = ("cells", "fig", "note")

    def __init__(self, f: dict[str, Any], cells: list[tuple[Cell, int, int]], note: str) -> None:
        self.fig, self.cells, self.note = f, cells, note

    def __len__(self) -> int:
        return len(self.cells)

    def __getitem__(self, i: int) -> Command:
        return move_command(self.fig, *self.cells[i], self.note)

    def __iter__(self) -> Iterator[Command]:
        return (move_command(self.fig, *cell, self.note) for cell in self.cells)


def target_options(st: CCState, f: dict[str, Any], act: Action) -> list[Command]:
    """``attack`` commands: every set of up to the action's target count of foes in sight and range."""
    limit = R.potential_range(st, f, act, st.turn.get("mods"))
    cands = sorted((g for g in R.foes(st, f) if R.can_target(st, f, g, act, limit)), key=lambda g: g["id"])
    out = []
    for n in range(1, min(act.targets, len(cands)) + 1):
        for combo in combinations(cands, n):
            names = " and ".join(g["name"] for g in combo)
            out.append(Command("attack", (f["id"], *(g["id"] for g in combo)), f"{act.kind.title()} {names}"))
    return out


def legal(st: CCState, seat: str) -> list[Command]:
    """Every command ``seat`` may play now."""
    return [c for part in listing(st, seat) for c in part]


def listing(st: CCState, seat: str) -> list[list[Command] | Moves]:
    """:func:`legal` in parts, moves built only when asked for (same commands, same order)."""
    if st.result is not None:
        return []
    hero = R.hero_of(st, seat)
    if st.phase == "commit":
        if hero is None or hero["hp"] <= 0 or hero.get("out") or hero["id"] in st.commits:
            return []
        out = commit_options(st, hero)
        if "resolve" in st.scenario["rules"] and not hero.get("recollected"):
            for c in sorted(set(hero["discard"]) | set(hero["cooldown"])):
                out.append(
                    Command("recollect", (hero["id"], c), f"Resolve: take {cards()[c].name} back (once)")
                )
        chosen = st.flags.get("round_items", {}).get(hero["id"], [])
        for it in R.ready_items(hero):
            card = items()[it["id"]]
            if card.use == "round_start" and it["cd"] == 0 and it["id"] not in chosen:
                out.append(Command("use", (hero["id"], it["id"]), f"{card.name} this round ({card.text})"))
        return [out]
    f = active_fig(st, seat)
    if f is None:
        return []
    fid = f["id"]
    p = st.pending
    if p.get("stage") == "split":
        a, b = p["dice"]
        out = [Command("split", (fid, str(a), str(b)), f"Range {a}, damage die {b}")]
        if a != b:
            out.append(Command("split", (fid, str(b), str(a)), f"Range {b}, damage die {a}"))
        for src in R.reroll_sources(st, f):
            for v in sorted({a, b}):
                out.append(Command("reroll", (fid, str(v), src), f"Re-roll the {v} ({reroll_label(src)})"))
        return [out]
    if p.get("stage") == "miss":
        out = [Command("accept", (fid,), f"Accept the miss (die {p['dmg_die']})")]
        for src in R.reroll_sources(st, f):
            out.append(Command("reroll", (fid, src), f"Re-roll the miss ({reroll_label(src)})"))
        return [out]
    out = []
    parts: list[list[Command] | Moves] = [out]
    act = current(st)
    pool = int(st.turn["pool"])
    if act is not None:
        if act.kind == "move":
            extra = pool if f["kind"] == "hero" else 0
            parts += [Moves(f, move_cells(st, f, int(st.turn["allow"]), extra), ""), (out := [])]
        elif act.kind in ("melee", "ranged") and not R.has(f, "disarm"):
            out += target_options(st, f, act)
        elif act.kind in ("heal", "cast"):
            out += status_targets(st, f, act)
        elif act.kind == "teleport":
            for c in squares_within(st, f, act.x):
                onto = " (onto a trap)" if R.is_trap(st, c) and not f.get("flying") else ""
                out.append(Command("teleport", (fid, cell_name(c)), f"Teleport to {cell_name(c)}{onto}"))
        elif act.kind == "summon":
            for c in squares_within(st, f, 1):
                out.append(
                    Command(
                        "summon", (fid, cell_name(c)), f"Summon a {SUMMONS[act.what][0]} on {cell_name(c)}"
                    )
                )
        elif act.kind == "rift":
            for c in squares_within(st, f, R.reach(st, f)):
                if not any((r[0], r[1]) == c for r in st.rifts):
                    out.append(
                        Command("rift", (fid, cell_name(c)), f"Open a {act.what} rift on {cell_name(c)}")
                    )
        out.append(Command("skip", (fid,), f"Skip this action ({action_words(act)})"))
    if f["kind"] == "hero":
        moving = act is not None and act.kind == "move"
        # the round's stamina move comes "before, between or after your action cards": not inside a card
        queue = st.turn["queue"]
        between = not queue or int(queue[0][2]) == 0
        if between and not moving and not f.get("moved_free") and not R.has(f, "paralyze") and pool > 0:
            parts += [Moves(f, move_cells(st, f, 0, pool), " (the round's stamina move)"), (out := [])]
        if act is not None and act.kind in ("melee", "ranged"):
            for it in R.ready_items(f):
                card = items()[it["id"]]
                if (
                    card.use == "attack"
                    and it["cd"] == 0
                    and pool >= card.stamina
                    and it["id"] not in st.turn["mods"].get("used", [])
                ):
                    out.append(Command("boost", (fid, it["id"]), f"{card.name}: {card.text}"))
        for it in R.ready_items(f):
            card = items()[it["id"]]
            if card.use == "turn" and it["cd"] == 0:
                out.append(Command("use", (fid, it["id"]), f"{card.name}: {card.text}"))
            elif card.use == "lock" and (it.get("active") or pool >= card.stamina):
                verb = "Discard" if it.get("active") else "Put in play"
                out.append(Command("use", (fid, it["id"]), f"{verb} {card.name}"))
        if pool >= 1 and loot_in_reach(st, f):
            out.append(Command("loot", (fid,), "Pick up loot in reach (1 stamina)"))
        out += door_options(st, f)
    out.append(Command("end", (fid,), f"End {f['name']}'s turn"))
    return parts


def reroll_label(src: str) -> str:
    """How a re-roll is paid, in words."""
    if src == "free":
        return "free, Rabbit's Foot"
    if src == "stamina":
        return "1 stamina, once a round"
    return f"{items()[src].name}, {items()[src].stamina} stamina"


def squares_within(st: CCState, f: dict[str, Any], n: int) -> list[Cell]:
    """Empty floor squares within ``n`` of the figure (Chebyshev), in reading order."""
    here = R.pos(f)
    w, h = R.size(st)
    return [(x, y) for y in range(h) for x in range(w)
            if 0 < chebyshev(here, (x, y)) <= n and not R.is_wall(st, (x, y)) and not R.occupant(st, (x, y))]  # fmt: skip


def status_targets(st: CCState, f: dict[str, Any], act: Action) -> list[Command]:
    """``heal``/``cast`` targets: allies (self included) or foes within the action's range and in sight."""
    group = R.foes(st, f) if act.who == "foe" else R.friends(st, f)
    limit = act.range or (R.reach(st, f) if act.who != "foe" else 6)
    out = []
    for g in sorted(group, key=lambda g: g["id"]):
        d = chebyshev(R.pos(f), R.pos(g))
        if g is f or (d <= limit and R.sees(st, R.pos(f), R.pos(g), True)):
            what = f"Heal {act.x}" if act.kind == "heal" else act.what.title()
            out.append(Command(act.kind, (f["id"], g["id"]), f"{what} on {g['name']}"))
    return out


def door_options(st: CCState, f: dict[str, Any]) -> list[Command]:
    """``open`` for every closed door next to the hero (free: no card, no stamina; see the doors rulings)."""
    doors = R.closed_doors(st)
    last = len(doors) == 1 and "the_blood_price" in st.scenario["rules"]
    out = []
    for c in doors:
        if chebyshev(R.pos(f), c) == 1:
            note = f" (the last: Blood Price, {int(f['hp']) // 2} health)" if last else ""
            out.append(Command("open", (f["id"], cell_name(c)), f"Open the door on {cell_name(c)}{note}"))
    return out


def loot_in_reach(st: CCState, f: dict[str, Any]) -> list[list[Any]]:
    """Loot piles within the hero's reach."""
    return [pile for pile in st.loot if chebyshev(R.pos(f), (pile[0], pile[1])) <= R.reach(st, f)]


# -- checking and playing ---------------------------------------------------------------------------------
def check(st: CCState, seat: str, text: str) -> Command:
    """The legal command ``text`` names. Raises a RuleError naming the rule otherwise."""
    if st.result is not None:
        raise GameOver(f"The game is over: {st.result.reason}")
    words = text.lower().split()
    if not words or words[0] not in VERBS:
        raise UnknownCommand(f"'{text}' is not a Dark Realms command. Verbs: {', '.join(VERBS)}.")
    hero = R.hero_of(st, seat)
    if words == ["commit", "rest"] and hero is not None:
        words = ["commit", hero["id"], "rest"]  # the round's timeout answer names no hero
    options = legal(st, seat)
    wanted = " ".join(words)
    for c in options:
        if c.text == wanted:
            return c
    if not options:
        if st.phase == "commit":
            raise NotYourTurn("You have committed this round; wait for the other heroes.")
        raise NotYourTurn("It is not your turn: wait for your place in the initiative.")
    verb = words[0]
    same = [c for c in options if c.verb == verb]
    if verb == "attack" and len(words) > 3:
        # several targets are resolved in the order the player names them
        for c in same:
            if (
                c.args[0] == words[1]
                and sorted(c.args[1:]) == sorted(words[2:])
                and len(set(words[2:])) == len(words[2:])
            ):
                names = " and ".join(st.figures[t]["name"] for t in words[2:])
                return Command("attack", tuple(words[1:]), c.label.split(" ", 1)[0] + " " + names)
    if st.phase == "commit" and verb not in ("commit", "recollect", "use"):
        raise IllegalCommand(f"Every hero first commits this round's cards ('commit <hero> <card> [<card>]' or "
                             f"'commit <hero> rest'); '{verb}' comes on your turn in the initiative.")  # fmt: skip
    if st.phase == "commit" and verb == "commit" and hero is not None:
        commit_refusal(hero, words[1:])
    if st.phase == "turns" and len(words) > 1 and st.turn.get("fig") and words[1] != st.turn["fig"]:
        f = st.figures[st.turn["fig"]]
        raise IllegalCommand(f"It is {f['name']}'s turn: name it in your command ('{verb} {f['id']} ...').")
    if st.phase == "commit" and verb == "commit":
        raise IllegalCommand("You may commit up to two cards from your hand that are not cooling down, whose "
                             "stamina adds up to no more than your round's stamina (e.g. "
                             f"'{options[0].text}').")  # fmt: skip
    if st.pending.get("stage") == "split":
        raise IllegalCommand("Choose which of your two dice is the range and which the damage ('split "
                             f"<hero> <range> <damage>'), or re-roll one: {options[0].text}.")  # fmt: skip
    if st.pending.get("stage") == "miss":
        raise IllegalCommand("Your attack missed: 'accept' it or re-roll it if you still can.")
    if verb == "open" and not same:
        raise IllegalCommand("A hero opens a closed door on its turn, standing next to it (diagonals count); "
                             "there is none next to this hero.")  # fmt: skip
    queue = st.turn.get("queue") or []
    inside_card = bool(queue) and int(queue[0][2]) > 0
    mine = hero is not None and hero["id"] == st.turn.get("fig") and not hero.get("moved_free")
    if verb == "move" and not same and inside_card and mine:
        raise IllegalCommand("The round's stamina move comes before, between or after your cards, not inside "
                             "one: play or skip this card's actions first.")  # fmt: skip
    if not same:
        act = current(st)
        now = f"the current action is: {action_words(act)}" if act else "your card actions are done"
        raise IllegalCommand(f"'{verb}' is not possible now: {now}. Try: "
                             + ", ".join(sorted({c.verb for c in options})) + ".")  # fmt: skip
    if verb == "move":
        raise IllegalCommand("That square cannot be reached: moves go square by square (diagonals too) around "
                             "walls and foes, to an empty square, within the card's spaces plus 1 stamina per "
                             "extra square.")  # fmt: skip
    if verb == "open":
        raise IllegalCommand("A hero opens a closed door standing next to it (diagonals count): "
                             f"'open {same[0].args[0]} <door square>', e.g. {same[0].text}.")  # fmt: skip
    if verb == "attack":
        raise IllegalCommand("Targets must be foes in sight and in range of this action (melee: reach; ranged: "
                             "its range or up to 6 for a rolled range), no more than the card allows.")  # fmt: skip
    raise IllegalCommand(f"That {verb} is not possible now. For example: {same[0].text}.")


def commit_refusal(hero: dict[str, Any], words: list[str]) -> None:
    """Raise the commit rule a refused ``commit <hero> <card>...`` breaks (returns when none is found)."""
    if words and words[0] != hero["id"]:
        raise IllegalCommand(f"You play {hero['name']}: 'commit {hero['id']} <card> [<card>]'.")
    chosen = words[1:]
    if len(chosen) > 2:
        raise IllegalCommand("A hero plays at most two action cards a round (or none: 'rest').")
    for c in chosen:
        if c not in hero["hand"]:
            raise IllegalCommand(f"'{c}' is not a card in {hero['name']}'s hand.")
        if c in hero["discard"]:
            raise IllegalCommand(f"{cards()[c].name} was discarded: it is out for the rest of the scenario.")
        if c in hero["cooldown"]:
            raise IllegalCommand(
                f"{cards()[c].name} is cooling down for {plural(hero['cooldown'][c], 'more round')}."
            )
    if len(chosen) == 2 and chosen[0] == chosen[1]:
        raise IllegalCommand("Each card can be played once a round.")
    cost = sum(cards()[c].cost for c in chosen)
    if chosen and cost > budget(hero):
        raise IllegalCommand(
            f"Those cards cost {cost} stamina; {hero['name']} has {budget(hero)} this round."
        )


def play(st: CCState, seat: str, cmd: Command) -> list[Event]:
    """Play a checked command; returns the narration."""
    events: list[Event] = []
    st.attacks = [] if cmd.verb not in ("split", "reroll", "accept") else st.attacks
    v, a = cmd.verb, cmd.args
    if st.phase == "commit":
        hero = st.figures[a[0]]
        if v == "recollect":
            hero["recollected"] = True
            hero["cooldown"].pop(a[1], None)
            if a[1] in hero["discard"]:
                hero["discard"].remove(a[1])
            events.append(Event(f"{hero['name']} recollects {cards()[a[1]].name}."))
            return events
        if v == "use":
            st.flags.setdefault("round_items", {}).setdefault(hero["id"], []).append(a[1])
            events.append(Event(f"{hero['name']} readies an item for this round."))
            return events
        chosen = [] if a[1] == "rest" else list(a[1:])
        used = st.flags.get("round_items", {}).pop(hero["id"], [])
        for it in hero["items"]:
            if it["id"] in used:
                spend_item(st, it)
        st.commits[hero["id"]] = {"cards": chosen, "items": used}
        events.append(Event(f"{hero['name']} has committed.", "commit"))
        waiting = [f for f in R.alive(st) if f["kind"] == "hero" and f["id"] not in st.commits]
        if not waiting:
            st.flags.pop("round_items", None)
            reveal(st, events)
        return events
    f = st.figures[a[0]]
    pool = int(st.turn.get("pool", 0))
    act: Action | None = current(st) if st.turn.get("fig") else None
    gate = v in LINE_VERBS and act is not None and bool(act.needs) and not st.turn.get("gated")
    # a rift-gated line waited for the hero to play it: the rift is drawn on now
    if gate and act is not None and not draw_on_rift(st, f, act, events):
        after_action(st, events)
        return events
    if v == "split":
        st.pending["range_die"], st.pending["dmg_die"] = int(a[1]), int(a[2])
        st.pending.pop("stage")
        if not R.check_miss(st, events):
            R.resume_attack(st, events)
    elif v == "reroll":
        src = a[-1]
        pay_reroll(st, f, src)
        target = st.figures[st.pending["targets"][0]]
        adv = R.has(target, "stunned") or R.has(target, "confused")
        new, raw = R.die(st, adv)
        if st.pending["stage"] == "split":
            dice = st.pending["dice"]
            old = int(a[1])
            dice[dice.index(old)] = new
            st.pending["raw"] = list(dice)
            events.append(Event(f"{f['name']} re-rolls the {old}: {new}.", dice=tuple(raw)))
        else:
            events.append(Event(f"{f['name']} re-rolls the miss: {new}.", dice=tuple(raw)))
            rdie = st.pending.get("range_die")
            st.pending["dmg_die"] = new
            st.pending["raw"] = ([rdie] if rdie else []) + raw
            st.pending.pop("stage")
            act = R.action_from(st.pending["act"])
            if R.missed(st, f, target, act) and R.reroll_sources(st, f):
                st.pending["stage"] = "miss"
                events.append(Event(f"Still a miss ({new}): re-roll again or accept it."))
            else:
                R.finish_target(st, events)
                R.resume_attack(st, events)
    elif v == "accept":
        st.pending.pop("stage")
        R.finish_target(st, events)
        R.resume_attack(st, events)
    elif v == "move":
        to = R.parse_cell_for(st, a[1])
        card_move = act is not None and act.kind == "move"
        free = int(st.turn["allow"]) if card_move else 0
        stamina = pool if f["kind"] == "hero" else 0
        cost, traps = R.hero_routes(st, f, free, stamina)[to]
        cells = R.walk_cells(R.walks(st, f, free + stamina), (to, traps))
        st.turn["pool"] = pool - cost
        walk(st, f, cells, events)
        if card_move:
            pop_action(st, performed=True)
        else:
            f["moved_free"] = True
    elif v == "attack":
        assert act is not None
        mods = dict(st.turn.get("mods", {}))
        st.turn["mods"] = {"used": mods.get("used", [])}
        pop_action(st, performed=True)
        R.start_attack(st, f, list(a[1:]), act, mods, events)
    elif v in ("heal", "cast"):
        assert act is not None
        tgt = st.figures[a[1]]
        pop_action(st, performed=True)
        if v == "heal":
            R.heal(st, tgt, act.x, events)
        else:
            cast_status(st, f, tgt, act, events)
    elif v == "teleport":
        to = R.parse_cell_for(st, a[1])
        events.append(Event(f"{f['name']} teleports to {a[1]}."))
        pop_action(st, performed=True)
        # it crosses nothing on the way, but lands like a step: a trap hurts, loot is taken, the exit lets out
        if step_onto(st, f, to, events):
            at_exit(st, f, events)
    elif v == "summon":
        assert act is not None
        to = R.parse_cell_for(st, a[1])
        same = [g for g in st.figures.values() if g.get("summon") == act.what]
        sid = f"{act.what}{len(same) + 1}"
        st.figures[sid] = R.make_summon(f, act.what, to, sid)
        events.append(Event(f"{f['name']} summons a {SUMMONS[act.what][0]} ({sid}) on {a[1]}; it acts after "
                            f"{f['name']} from next round."))  # fmt: skip
        pop_action(st, performed=True)
    elif v == "rift":
        assert act is not None
        to = R.parse_cell_for(st, a[1])
        st.rifts.append([to[0], to[1], act.what])
        events.append(Event(f"A {act.what} rift opens on {a[1]}."))
        pop_action(st, performed=True)
    elif v == "boost":
        card = items()[a[1]]
        it = next(i for i in f["items"] if i["id"] == a[1])
        st.turn["pool"] = pool - card.stamina
        spend_item(st, it)
        mods = st.turn.setdefault("mods", {})
        mods.setdefault("used", []).append(a[1])
        if card.effect == "wound":
            mods.setdefault("statuses", []).append("wound")
        else:
            mods[card.effect] = int(mods.get(card.effect, 0)) + card.value
        events.append(Event(f"{f['name']} uses {card.name}."))
    elif v == "use":
        card = items()[a[1]]
        it = next(i for i in f["items"] if i["id"] == a[1])
        if card.use == "turn":
            R.heal(st, f, card.value, events)
            if card.cooldown < 0:
                f["items"].remove(it)
            else:
                spend_item(st, it)
        elif it.get("active"):
            # "the card is then lost for the scenario": the hero keeps it for the next one; "discarding the
            # card frees the stamina": what was locked on it this round can be spent at once
            it.update(active=False, gone=True)
            st.turn["pool"] = pool + card.stamina
            events.append(Event(f"{f['name']} discards {card.name} for this scenario: its {card.stamina} "
                                "stamina are free again, to spend now."))  # fmt: skip
        else:
            it["active"] = True
            st.turn["pool"] = pool - card.stamina
            events.append(
                Event(f"{f['name']} puts {card.name} in play, locking {card.stamina} stamina on it.")
            )
    elif v == "loot":
        piles = loot_in_reach(st, f)
        pile = min(piles, key=lambda p: (chebyshev(R.pos(f), (p[0], p[1])), p[1], p[0]))
        st.loot.remove(pile)
        st.turn["pool"] = pool - 1
        R.take_loot(st, f, pile[2], events)
    elif v == "open":
        R.open_door(st, f, R.parse_cell_for(st, a[1]), events)
    elif v == "skip":
        events.append(Event(f"{f['name']} skips an action" + (f" ({action_words(act)})." if act else ".")))
        pop_action(st, performed=False)
    elif v == "end":
        events.append(Event(f"{f['name']} ends the turn.", board=True))
        finish_turn(st, events)
        return events
    after_action(st, events)
    return events


def after_action(st: CCState, events: list[Event]) -> None:
    """After a turn command: settle what needs no choice; end the turn if the figure fell."""
    if R.check_outcome(st, events) or st.pending.get("stage"):
        return
    fid = st.turn.get("fig")
    if not fid:
        advance(st, events)
        return
    f = st.figures[fid]
    if f["hp"] <= 0 or f.get("out"):
        finish_turn(st, events)
        return
    if f["kind"] == "hero":
        R.free_prisoner(st, f, events)
    settle(st, events)
    R.check_outcome(st, events)


def pay_reroll(st: CCState, f: dict[str, Any], src: str) -> None:
    """Pay for a re-roll: Rabbit's Foot's free one, the once-a-round stamina one, or an item's."""
    if src == "free":
        f["free_reroll_used"] = True
    elif src == "stamina":
        f["reroll_used"] = True
        st.turn["pool"] = int(st.turn["pool"]) - 1
    else:
        card = items()[src]
        it = next(i for i in f["items"] if i["id"] == src)
        spend_item(st, it)
        st.turn["pool"] = int(st.turn["pool"]) - card.stamina


def spend_item(st: CCState, it: dict[str, Any]) -> None:
    """An item is used: it waits its printed cooldown in whole rounds after this one (as spent cards do)."""
    it["cd"] = items()[it["id"]].cooldown
    it["used"] = st.round


def cast_status(
    st: CCState, f: dict[str, Any], tgt: dict[str, Any], act: Action, events: list[Event]
) -> None:
    """A status as its own action: on a foe, a ranged one without a fixed range must roll enough range."""
    d = chebyshev(R.pos(f), R.pos(tgt))
    if act.who == "foe" and not act.range and d > R.reach(st, f):
        roll = st.rng.roll()
        if roll < d:
            events.append(Event(f"{f['name']} rolls {roll} for range; {tgt['name']} is {d} away: it fails.",
                                dice=(roll,)))  # fmt: skip
            return
    R.give(st, tgt, act.what, events)


def walk(st: CCState, f: dict[str, Any], cells: list[Cell], events: list[Event]) -> None:
    """Move a figure square by square: traps hurt, loot on the way is picked up, an exit lets a hero out."""
    st.trail = [list(R.pos(f))]
    for c in cells:
        st.trail.append([c[0], c[1]])
        if not step_onto(st, f, c, events):
            return
    events.append(Event(f"{f['name']} moves to {cell_name(R.pos(f))}."))
    at_exit(st, f, events)


def step_onto(st: CCState, f: dict[str, Any], c: Cell, events: list[Event]) -> bool:
    """Put a figure on ``c``, as a step of a walk or a teleport's landing: a trap there hurts a figure that
    does not fly, a hero picks up the loot there. Returns False when the figure fell."""
    f["pos"] = [c[0], c[1]]
    if R.is_trap(st, c) and not f.get("flying"):
        events.append(Event(f"{f['name']} steps on a trap on {cell_name(c)}."))
        R.hurt(st, f, R.TRAP_DAMAGE, events)
        if f["hp"] <= 0:
            return False
    if f["kind"] == "hero":
        for pile in [p for p in st.loot if (p[0], p[1]) == c]:
            st.loot.remove(pile)
            R.take_loot(st, f, pile[2], events)
    return True


def at_exit(st: CCState, f: dict[str, Any], events: list[Event]) -> None:
    """A figure that has come to rest on the exit: the freed Prisoner slips out (a rescue), a hero escapes
    (an escape)."""
    if f.get("summon") == "prisoner" and R.char(st, R.pos(f)) == "E":
        f["out"] = True
        st.flags["rescued"] = True
        events.append(Event("The Prisoner slips out through the exit!"))
    if f["kind"] == "hero" and st.scenario["objective"] == "escape" and R.char(st, R.pos(f)) == "E":
        f["out"] = True
        f["escaped"] = True
        st.flags["escaped"] = True
        events.append(Event(f"{f['name']} escapes through the exit!"))
