"""The heist's commands: what each seat may type now, checking a command, and playing it.

Planning: ``plan``/``unplan <hex>``, ``start <exit>``, ``tunnel <hex>``, ``buy``/``sell <item>``, fixer purchases,
``ready``. Each round: ``act <action>``, then its sub-actions one at a time (``move``, ``unlock``,
``subdue``, ``disable``, ``reveal <hex>``, ``idea``, ``loot``, ``crack``), ``done`` or ``undo``; free at any
time: ``take``/``drop``/``give``, ``open <door>``, ``escort``, ``escape``, ability commands. Escape:
``run [via <hex>]``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from engine.core import Command, Event
from engine.errors import IllegalCommand, NotYourTurn, UnknownCommand
from engine.geometry import hexgrid as H
from engine.grammar import plural, with_article
from engine.rulesets.heist import events as E
from engine.rulesets.heist import npcs as N
from engine.rulesets.heist import rounds as RD
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.board import build
from engine.rulesets.heist.state import CAMERA, GUARD, LOCK, HeistState, Player, Tile, copy_state

Args = tuple[str, ...]
ACTION_VERBS = {"move": "M", "unlock": "U", "subdue": "S", "disable": "D", "reveal": "R"}
PLAIN_VERBS = {"idea": "I", "loot": "L", "crack": "U"}
LOOT_WORDS = ("cash", "jewel", "docs", "usb", "keycard")


def norm(word: str) -> str:
    """A typed word as an id: lower case, dashes and spaces to underscores."""
    return word.strip().lower().replace("-", "_")


def player(st: HeistState, seat: str) -> Player:
    """The seat's character. Raises NotYourTurn for a seat not in this heist."""
    p = st.players.get(seat)
    if p is None:
        raise NotYourTurn(f"{seat} has no character in this heist.")
    return p


def tile_arg(st: HeistState, text: str) -> str:
    """A hex name on this board. Raises IllegalCommand if it is not a tile now."""
    b = R.board(st)
    cell = H.parse_cell(text, b.width, b.height)
    name = H.cell_name(cell)
    if not R.alive(st, name) and name not in b.tunnels and name not in b.names.values():
        raise IllegalCommand(f"{name} is not a tile on this board (a gap, or removed by a lockdown).")
    return name


# --- legality helpers ---------------------------------------------------------------------------------


def adjacent(st: HeistState, p: Player) -> tuple[str, ...]:
    """The tiles adjacent to the character now: those sharing a side with its tile, and while its Vent crawl
    lasts (this action) those straight across one gap, which count as adjacent for every sub-action."""
    near = R.nbrs(st, p.pos)
    if "vent" in p.flags:
        return (*near, *R.vent_table(st).get(p.pos, ()))
    return near


def move_targets(st: HeistState, p: Player) -> list[str]:
    """Tiles a ➜ may take the character to now (adjacent, planned or an exit, not locked)."""
    if not can_leave(st, p):
        return []
    near = set(adjacent(st, p))
    outs = R.exits(st)
    full: set[str] = set()
    if R.has_rule(st, "hideout_limit"):  # at most two characters in one hideout
        occ = R.occupied(st)
        full = {n for n, ps in occ.items() if "story" in st.tiles[n].marks and len(ps) >= 2}
    return sorted(m for m in near if (m in outs or m in p.plans) and not R.locked(st, m) and m not in full)


def imprisoned(st: HeistState, p: Player) -> bool:
    """True while the character stands under a remote lock."""
    t = st.tiles[p.pos]
    return "remote_lock_x" in t.marks or "remote_lock_y" in t.marks


def can_leave(st: HeistState, p: Player) -> bool:
    """False while an unsubdued guard holds the character, or a remote lock imprisons it."""
    t = st.tiles[p.pos]
    if "remote_lock_x" in t.marks or "remote_lock_y" in t.marks:
        return False
    return not R.guards(st, p.pos) or "slip" in p.flags


def why_not_move(st: HeistState, p: Player, to: str) -> str:
    """Why a ➜ to ``to`` is refused, in words."""
    if not can_leave(st, p):
        if R.guards(st, p.pos):
            return f"an unsubdued guard at {p.pos} holds {p.nickname}: subdue him first"
        return f"{p.nickname} is shut in by a remote lock"
    if to not in adjacent(st, p):
        return f"{to} is not next to {p.pos}"
    if R.locked(st, to):
        return f"{to} is locked"
    return f"{to} is not on {p.nickname}'s plan (a ➜ must land on one of your planning tokens or an exit)"


def unlock_targets(st: HeistState, p: Player) -> list[str]:
    """Adjacent locked tiles (lock chits)."""
    return sorted(m for m in adjacent(st, p) if R.chits(st, m, LOCK))


def reach(st: HeistState, p: Player) -> list[str]:
    """The character's tile and those adjacent to it (:func:`adjacent`)."""
    return [p.pos, *adjacent(st, p)]


def subdue_targets(st: HeistState, p: Player) -> list[str]:
    """Tiles on or next to the character with an unsubdued guard."""
    return sorted(m for m in reach(st, p) if R.guards(st, m))


def disable_targets(st: HeistState, p: Player) -> list[str]:
    """Tiles on or next to the character with a live camera."""
    return sorted(m for m in reach(st, p) if R.chits(st, m, CAMERA))


def reveal_targets(st: HeistState) -> list[str]:
    """Unknown security tiles anywhere on the board."""
    return sorted(n for n, t in st.tiles.items() if t.unknown and R.alive(st, n))


def on_safe(st: HeistState, p: Player) -> bool:
    """True when the character stands on the safe."""
    return "safe" in st.tiles[p.pos].marks


def can_crack(st: HeistState, p: Player) -> bool:
    """🔓 may become 🧩: on the safe with Safecracking tools or a Plasma torch, or next to a torch-bearer on it."""
    if "U" not in p.left:
        return False
    if R.carries_tools(p) and on_safe(st, p):
        return True
    for q in R.in_play(st):
        if q is not p and "plasma_torch" in q.items and on_safe(st, q) and q.pos in reach(st, p):
            return True
    return False


def take_targets(st: HeistState, p: Player) -> list[tuple[str, str]]:
    """(what, tile) pairs the character may pick up now."""
    spots = [p.pos]
    if "larceny" in p.flags:
        spots += [m for m in adjacent(st, p) if not R.locked(st, m)]
    out = []
    for n in spots:
        for what in R.loot_on(st, n):
            out.append((what, n))
    return out


# --- the command table ----------------------------------------------------------------------------------


def legal(st: HeistState, seat: str) -> list[Command]:
    """Every command the seat may play now."""
    p = st.players.get(seat)
    if p is None or st.phase == "over":
        return []
    if st.phase == "plan":
        out = legal_plan(st, p)
    elif st.phase == "escape":
        out = legal_escape(st, p)
    elif st.phase == "event":
        out = E.choice_commands(st, p) if p.status == "in" else []
    else:
        out = legal_action(st, p)
    if out and st.deck:  # the deck lies face up: anyone who may act may read it at any time
        out.append(deck_command(st))
    return out


def deck_command(st: HeistState) -> Command:
    """The command that reads the whole event deck (open to anyone who may act)."""
    return Command("deck", (), f"Read the whole event deck ({len(st.deck)} cards)")


def legal_plan(st: HeistState, p: Player) -> list[Command]:
    """The planning commands of a player: a planning token for each :func:`plan_spots` tile, then
    :func:`plan_extras`."""
    if p.ready:
        return []
    return [plan_command(st, p, n) for n in plan_spots(st, p)] + plan_extras(st, p)


def plan_spots(st: HeistState, p: Player) -> list[str]:
    """The tiles (board order) the player may put its next planning token on now; none once its planning
    memory is full."""
    if len(p.plans) >= plan_limit(st, p):
        return []
    removed, plans = st.removed, p.plans
    return [n for n in _building_tiles(st.heist) if n not in plans and n not in removed]


@cache
def _building_tiles(heist_id: str) -> tuple[str, ...]:
    """The printed building tiles a planning token may go on (:func:`plannable` while none is removed)."""
    return tuple(n for n, t in sorted(build(heist_id).tiles.items()) if t.kind in ("blank", "security"))


def plan_command(st: HeistState, p: Player, n: str) -> Command:
    """The command that puts the player's next planning token on ``n``."""
    return Command("plan", (n,), f"Plan {n} ({len(p.plans) + 1}/{plan_limit(st, p)})")


def plan_extras(st: HeistState, p: Player) -> list[Command]:
    """The planning commands other than placing a token: take one back, pick the start, tunnels, the shop,
    fixers and ``ready``."""
    out = [Command("unplan", (n,), f"Take the planning token off {n}") for n in p.plans]
    b = R.board(st)
    for e in sorted(R.exits(st)) if not {"inmate", "mayor"} & set(p.used) else []:
        if e != p.pos and start_room(st, e):
            out.append(Command("start", (e,), f"Start at the exit {e}"))
    if R.has_rule(st, "tunnel_anywhere") and not st.doors:
        for n in sorted(R.board(st).external):
            if outside_gap(st, n):
                out.append(Command("tunnel", (n,), f"Lay an entrance against {n} from outside"))
    if tunnels_left(st):
        out += [
            Command("tunnel", (t,), f"Open a tunnel entrance at {t}")
            for t in sorted(b.tunnels)
            if t not in st.exits
        ]
    for item in shop_items(st):
        cost = price(st, item)
        if cost <= st.team_cash:
            out.append(Command("buy", (item,), f"Buy {R.C().items[item].name} for ${cost}k"))
    for item in p.items:
        out.append(Command("sell", (item,), f"Sell {R.C().items[item].name} for ${sell_price(st, item)}k"))
    out += fixer_commands(st, p)
    if p.pos:
        out.append(Command("ready", (), "Finish planning"))
    return out


CONSULT_COSTS = (0, 3, 4)  # Security Consultant: 1/2/3 blanks for $0k/$3k/$7k in all
BRIBE_COSTS = (2, 1, 1)  # Beat Cop: 1/2/3 guards for $2k/$3k/$4k in all
INSERT_COSTS = (3, 2, 1)  # Retired Mastermind: 1/2/3 cards for $3k/$5k/$6k in all


def fixer_commands(st: HeistState, p: Player) -> list[Command]:
    """Planning help from fixers and items: scouting, bribes, diversions, extra Mastermind events."""
    out = []
    scouts = "building_schematics" in p.items or ("visage" in st.fixers and st.team_cash >= 1)
    unknown = reveal_targets(st) if scouts else []
    if unknown:
        how = "Building Schematics" if "building_schematics" in p.items else "Visage, $1k"
        out += [Command("scout", (n,), f"Scout {n} ({how})") for n in unknown]
    bribes = st.bought.count("bribe")
    if "beat_cop" in st.fixers and bribes < 3 and "guard" in st.bag and st.team_cash >= BRIBE_COSTS[bribes]:
        out.append(
            Command("bribe", (), f"Beat Cop: a guard in the bag becomes a blank (${BRIBE_COSTS[bribes]}k)")
        )
    inside = R.heist(st).objective.npc_escapes or "breakout" in R.heist(st).modules
    if (
        "prison_guard" in st.fixers
        and inside
        and "payoff" not in st.bought
        and st.bag.count("lock") >= 2
        and st.team_cash >= 3
    ):
        out.append(Command("payoff", (), "Prison Guard: two locks in the bag become blanks ($3k)"))
    if "diversion_specialist" in st.fixers and st.decoys < 4 and st.team_cash >= 1:
        out.append(Command("decoy", (), "Diversion Specialist: a $1k diversion takes one noise"))
    if "bookie" in st.fixers and not any(b.startswith("bet:") for b in st.bought):
        out += [Command("bet", (str(k),), f"Bookie: bet ${k}k that everyone gets out and the job is done")
                for k in range(1, min(8, st.team_cash) + 1)]  # fmt: skip
    tokens = st.bag.count("idea2") + st.bag.count("idea3")
    if "the_architect" in st.fixers and tokens < 2:
        kind, cost = ("idea2", 2) if "idea2" not in st.bag else ("idea3", 3)
        if st.team_cash >= cost:
            out.append(
                Command(
                    "floorplan",
                    (),
                    f"The Architect: {with_article(kind[-1] + '-idea')} token into the bag (${cost}k)",
                )
            )
    stored = st.bought.count("blank")
    if "security_consultant" in st.fixers and stored < 3 and st.team_cash >= CONSULT_COSTS[stored]:
        out.append(
            Command("consult", (), f"Security Consultant: one more blank on call (${CONSULT_COSTS[stored]}k)")
        )
    if "the_mayor" in st.fixers and "mayor" not in st.bought and "inmate" not in p.used:
        guarded = [
            n for n, t in sorted(st.tiles.items()) if not t.unknown and R.guards(st, n) and R.alive(st, n)
        ]
        out += [Command("inside", (n,), f"The Mayor: start at {n} in place of its guard") for n in guarded]
    if "shell" in st.fixers and "shell" not in st.bought and st.team_cash >= 3:
        out.append(Command("shell", (), "Shell: cameras found while scouting start disabled ($3k)"))
    inserts = st.bought.count("insert")
    if "retired_mastermind" in st.fixers and inserts < 3 and st.team_cash >= INSERT_COSTS[inserts]:
        for card in ("M1", "M2", "M3"):
            if card not in st.deck and card not in st.discard:
                out += [Command("insert", (card.lower(), str(i + 1)), f"Put {card} at position {i + 1} of the deck")
                        for i in range(len(st.deck))]  # fmt: skip
    return out


def legal_action(st: HeistState, p: Player) -> list[Command]:
    """The Action-phase commands of a player."""
    if p.status != "in":
        return []
    out: list[Command] = []
    if not p.action:
        for o in R.options(st, p):
            out.append(Command("act", (o.key,), R.option_label(o)))
    elif not p.done:
        left = p.left
        if imprisoned(st, p):
            left = "".join(c for c in left if c not in "MUSD")  # shut in: only 💡 💰 🔍
        if "M" in left:
            out += [Command("move", (m,), f"➜ to {m}") for m in move_targets(st, p)]
        if "U" in left:
            out += [Command("unlock", (m,), f"🔓 {m}") for m in unlock_targets(st, p)]
            if can_crack(st, p):
                out.append(Command("crack", (), "🧩 work on the safe"))
        if "S" in left:
            out += [Command("subdue", (m,), f"👊 the guard at {m}") for m in subdue_targets(st, p)]
        if "D" in left:
            out += [Command("disable", (m,), f"📷 the camera at {m}") for m in disable_targets(st, p)]
        if "R" in left:
            targets = reveal_targets(st)
            out += [Command("reveal", (m,), f"🔍 {m}") for m in targets]
            if not targets and not st.bag and knows_a_way(st, p):
                out.append(Command("reveal", (), "🔍 with nothing left to reveal (you know a way: 💡)"))
        if "I" in left:
            out.append(Command("idea", (), "💡 gain an idea"))
        if "L" in left:
            out.append(Command("loot", (), "💰 take $1k"))
        if p.proxy:
            out += proxy_commands(st, p)
        if "efficient_picker" in R.abilities(p) and p.picks < p.unlocks and p.ideas >= 1:
            out.append(Command("efficient", (), "Efficient picker: pay 💡 for ➜🔊"))
        if p.action == "toss_loot":
            out += toss_commands(st, p)
        out.append(Command("done", (), "Finish this action"))
        if p.seat in st.undo:
            out.append(Command("undo", (), "Take this action back"))
    out += free_commands(st, p)
    return out


def free_commands(st: HeistState, p: Player) -> list[Command]:
    """Commands that cost no action: loot handling, doors, escorts, abilities, calling the escape."""
    out = []
    for what, n in take_targets(st, p):
        args = (what,) if n == p.pos else (what, n)
        out.append(Command("take", args, f"Pick up {what}" + (f" from {n}" if n != p.pos else "")))
    swindle = "larceny" in p.flags and "swindler" in R.abilities(p)
    for what in R.carried(p):
        out.append(Command("drop", (what,), f"Drop {what} at {p.pos}"))
        for q in R.in_play(st):
            if q is not p and q.pos == p.pos:
                out.append(Command("give", (what, q.seat), f"Hand {what} to {q.nickname}"))
        if swindle:
            out += [Command("drop", (what, m), f"Slip {what} onto {m}") for m in adjacent(st, p)
                    if not R.locked(st, m)]  # fmt: skip
    if "keycard" in p.loot:
        out += [Command("open", (m,), f"Open the keycard door at {m}") for m in adjacent(st, p)
                if "keycard_door" in st.tiles[m].marks]  # fmt: skip
    if any(n.kind == "hostage" and n.status == "in" and not n.active and n.pos == p.pos for n in st.npcs):
        out.append(Command("escort", (), "Take the hostage"))
    out += N.legal(st)
    if st.phase == "action" and R.has_rule(st, "whispers") and "story" in st.tiles[p.pos].marks and p.ideas:
        out += [Command("whisper", (q.seat,), f"Share 💡 with {q.nickname} in the hideout")
                for q in R.in_play(st) if q is not p and q.pos == p.pos]  # fmt: skip
    out += npc_handovers(st, p)
    if st.phase == "action":
        if not st.escape_called:
            out.append(Command("escape", (), "Call the escape (after this round's Event phase)"))
        if "blank" in st.bought and p.ideas >= 1:
            out += [Command("swap", (f.split(":", 1)[1],), f"Security Consultant: pay 💡🔊, the chit at {f.split(':', 1)[1]} becomes a blank")
                    for f in st.flags if f.startswith("drawn:")]  # fmt: skip
        ab = R.abilities(p)
        if p.spare:
            out += [Command("plan", (n,), f"Re-plan a token onto {n}") for n in sorted(st.tiles)
                    if n not in p.plans and plannable(st, n)]  # fmt: skip
        if "there_are_better_ways" in ab and "slip" not in p.flags and p.ideas >= 1:
            out.append(Command("slip", (), "There are better ways: pay 💡 to leave guarded tiles this round"))
        if ({"larcenist", "swindler"} & ab) and "larceny" not in p.flags and p.ideas >= 1:
            out.append(Command("larceny", (), "Pay 💡 to handle loot on an adjacent tile this round"))
        if "vent_crawl" in ab and "vent" not in p.flags and p.action and not p.done:
            out.append(
                Command(
                    "vent", (), "Vent crawl: pay 🔊🔊🔊🔊; tiles across one gap count as adjacent this action"
                )
            )
        code = "i_can_haz_teh_codes" in ab and p.ideas >= 2 or "has_the_code" in ab
        if code and "codes" not in p.used and any(R.chits(st, n, CAMERA) for n in st.tiles):
            out.append(Command("codes", (), "Reveal every tile next to a known live camera"))
        if ({"change_of_plans", "alright_new_plan"} & ab) and "newplan" not in p.used and p.ideas >= 2:
            out.append(Command("newplan", (), "Change the plan: move planning tokens"))
        if gifts_left(p):
            out += [Command("inspire", (q.seat,), f"Alright, new plan: give {q.nickname} 💡 ({gifts_left(p)} left)")
                    for q in R.in_play(st) if q is not p]  # fmt: skip
        moves = replans(p)
        if moves:
            # The Radio moves a token one hex; a change of plans moves it anywhere.
            anywhere = "newplan" in p.used and "radio" not in p.flags
            spots = [n for n in sorted(st.tiles) if plannable(st, n) and n not in p.plans]
            for a in p.plans:
                targets = spots if anywhere else [b for b in R.nbrs(st, a) if b in spots]
                out += [Command("replan", (a, b), f"Move your token from {a} to {b}") for b in targets]
        if "old_friend" in st.fixers and R.outdoors(st, p) and p.ideas >= 2:
            out += [Command("teamwork", (q.seat,), f"Old Friend: pay 💡💡 to give {q.nickname} 💡")
                    for q in R.in_play(st) if q is not p]  # fmt: skip
    return out


def npc_handovers(st: HeistState, p: Player) -> list[Command]:
    """Loot handed to the active NPC on the character's hex, or taken back from it (free, any time)."""
    helper = N.the_npc(st)
    if helper is None or helper.pos != p.pos:
        return []
    out = [Command("give", (what, "npc"), f"Hand {what} to the {helper.kind}") for what in R.carried(p)
           if not what.startswith("item:")]  # fmt: skip
    out += [
        Command("take", (what, "npc"), f"Take {what} from the {helper.kind}")
        for what in sorted(set(helper.loot))
    ]
    return out


def legal_escape(st: HeistState, p: Player) -> list[Command]:
    """The escape commands of a player."""
    if p.status != "in":
        return []
    goal = "hideout" if R.has_rule(st, "hideouts_only") else "exit"
    out = [Command("run", (), f"Run for the nearest {goal}")]
    for n in sorted(st.tiles):
        if R.alive(st, n) and R.loot_on(st, n):
            how = (
                "picking up what lies here first"
                if n == p.pos
                else f"by way of {n}, picking up what lies there"
            )
            out.append(Command("run", ("via", n), f"Run out {how}"))
    # Insta-transfers stay open in the escape: pick up, drop and hand over on your own hex.
    out += [Command("take", (what,), f"Pick up {what}") for what in R.loot_on(st, p.pos)]
    for what in R.carried(p):
        out.append(Command("drop", (what,), f"Drop {what} at {p.pos}"))
        for q in R.in_play(st):
            if q is not p and q.pos == p.pos:
                out.append(Command("give", (what, q.seat), f"Hand {what} to {q.nickname}"))
    out += npc_handovers(st, p)
    ab = R.abilities(p)
    if "pick_under_pressure" in ab and p.ideas >= 1:
        out += [
            Command("force", (m,), f"Pick under pressure: pay 💡 to unlock {m}")
            for m in unlock_targets(st, p)
        ]
    out += N.legal(st)
    pinch = ("good_in_a_pinch" in ab and "pinch" not in p.used) or "great_in_a_pinch" in ab
    if pinch and p.ideas >= 2:
        out += [
            Command("pinch", (q.seat,), f"Pay 💡💡 to give {q.nickname} 💡")
            for q in R.in_play(st)
            if q is not p
        ]
    return out


# --- planning helpers ---------------------------------------------------------------------------------


def plannable(st: HeistState, n: str) -> bool:
    """A planning token may go on any building tile on the board (exits need none)."""
    t = R.board(st).tiles.get(n)
    return t is not None and t.kind in ("blank", "security") and R.alive(st, n)


def plan_limit(st: HeistState, p: Player) -> int:
    """The character's planning memory (+2 with the Master Plan Copy)."""
    return R.character(p).planning_memory + (2 if "master_plan_copy" in p.items else 0)


def start_room(st: HeistState, e: str) -> bool:
    """True while an exit has room for another starting character."""
    limit = R.heist(st).entrance_limit
    return limit is None or sum(1 for q in st.players.values() if q.pos == e) < limit


def outside_gap(st: HeistState, n: str) -> str | None:
    """The first gap on the map next to building hex ``n`` that opens onto the outside (direction order)."""
    b = R.board(st)
    m = R.heist(st).map
    for d, nb in zip(H.DIRECTIONS, H.neighbours(b.cells[n]), strict=True):
        if nb not in b.names and H.on_map(nb, b.width, b.height) and d in m.external_sides(b.cells[n]):
            return H.cell_name(nb)
    return None


def tunnels_left(st: HeistState) -> bool:
    """True while another tunnel entrance may be opened."""
    b = R.board(st)
    if not b.tunnels:
        return False
    allowed = 2 if any(r.id in ("two_tunnels",) for r in R.heist(st).rules) else 1
    return len([e for e in st.exits if e in b.tunnels]) < allowed


def shop_items(st: HeistState) -> list[str]:
    """Items the shop sells now: shop cards plus discovered ones, while copies remain."""
    owned: dict[str, int] = {}
    for q in st.players.values():
        for it in q.items:
            owned[it] = owned.get(it, 0) + 1
    out = []
    for iid, item in R.C().items.items():
        if (item.availability == "shop" or iid in st.shop) and owned.get(iid, 0) < item.copies:
            out.append(iid)
    return out


def price(st: HeistState, item: str) -> int:
    """What an item costs in the shop now, in $k."""
    cost = R.C().items[item].cost_k
    return max(0, cost - 1) if "pawn_shop_owner" in st.fixers else cost


def sell_price(st: HeistState, item: str) -> int:
    """What the shop pays for an item, in $k."""
    cost = R.C().items[item].cost_k
    return max(0, cost - 1) if "the_curator" in st.fixers else cost // 2


def replans(p: Player) -> int:
    """How many planning tokens the player may still move this round."""
    for f in p.flags:
        if f.startswith("replan:"):
            return int(f.split(":")[1])
    return 0


def proxy_commands(st: HeistState, p: Player) -> list[Command]:
    """Autopwn / Exploit: make another character subdue, disable or unlock from where it stands (Exploit's
    second sub-action: the same character again)."""
    out = []
    verb = {"S": "subdue", "D": "disable", "U": "unlock"}
    again = next((f.split(":", 1)[1] for f in p.flags if f.startswith("exploit:")), "")
    for q in R.in_play(st):
        if q is p or (again and q.seat != again):
            continue
        for letter in sorted(set(p.proxy)):
            if letter == "*" or (letter == "S" and "there_are_better_ways" in R.abilities(q)):
                continue  # those who know better ways never 👊, not even for a hacker
            targets = {"S": subdue_targets, "D": disable_targets, "U": unlock_targets}[letter](st, q)
            out += [
                Command("hack", (q.seat, verb[letter], m), f"Have {q.nickname} {verb[letter]} {m}")
                for m in targets
            ]
    return out


def toss_commands(st: HeistState, p: Player) -> list[Command]:
    """Toss loot: up to two tiles in a straight line, not over locks or gaps."""
    out = []
    b = R.board(st)
    for what in R.carried(p):
        for line in b.lines[p.pos]:
            for m in line[:2]:
                if not R.alive(st, m) or R.locked(st, m):
                    break
                out.append(Command("toss", (what, m), f"Toss {what} to {m}"))
    return out


# --- checking -----------------------------------------------------------------------------------------


def check(st: HeistState, seat: str, text: str) -> Command:
    """Parse ``text`` for ``seat`` and return the canonical command. Raises a RuleError naming the rule."""
    p = player(st, seat)
    words = text.strip().split()
    if not words:
        raise UnknownCommand("Type a command; the list of legal commands shows what you can do now.")
    verb = norm(words[0])
    args = tuple(words[1:])
    if verb not in KNOWN:
        raise UnknownCommand(f"'{words[0]}' is not a heist command. Try: {', '.join(sorted(KNOWN))}.")
    if p.status != "in" and st.phase in ("action", "escape", "event"):
        raise NotYourTurn(f"{p.nickname} is {p.status} and takes no further part in this heist.")
    cmd = canon(st, p, verb, args)
    for c in legal(st, seat):
        if c.text == cmd.text:
            return c
    raise IllegalCommand(refusal(st, p, verb, cmd))


def canon(st: HeistState, p: Player, verb: str, args: Args) -> Command:
    """The canonical form of a command (names normalised, cells resolved). Raises on malformed text."""
    if verb == "reveal" and not args:
        return Command(verb)  # I know a way: a 🔍 with nothing left to reveal
    if verb in (
        "inside",
        "swap",
        "move",
        "unlock",
        "subdue",
        "disable",
        "reveal",
        "plan",
        "unplan",
        "start",
        "tunnel",
        "open",
        "force",
        "scout",
    ):
        if len(args) != 1:
            raise UnknownCommand(f"'{verb}' takes one hex, like '{verb} d4'.")
        return Command(verb, (tile_arg(st, args[0]),))
    if verb in ("replan",):
        if len(args) != 2:
            raise UnknownCommand("'replan' takes two hexes: 'replan d4 d5' moves your token from d4 to d5.")
        return Command(verb, (tile_arg(st, args[0]), tile_arg(st, args[1])))
    if verb == "act":
        if not args:
            raise UnknownCommand("'act' needs an action name, like 'act walk'.")
        return Command(verb, (norm("_".join(args)),))
    if verb in ("buy", "sell"):
        if not args:
            raise UnknownCommand(f"'{verb}' needs an item name, like '{verb} cheap_picks'.")
        return Command(verb, (norm("_".join(args)),))
    if verb in ("take", "drop", "give"):
        if not args:
            raise UnknownCommand(f"'{verb}' needs what: cash, jewel, docs, usb, keycard or item:<name>.")
        what = norm(args[0])
        rest = tuple(norm(a) for a in args[1:])
        if verb in ("take", "drop") and rest and rest[0] != "npc":
            rest = (tile_arg(st, rest[0]),)
            if rest[0] == p.pos:
                rest = ()
        return Command(verb, (what, *rest))
    if verb == "npc":
        if not args:
            raise UnknownCommand("'npc' takes what the NPC does: 'npc act crawl', 'npc move d4', 'npc done'.")
        sub = norm(args[0])
        rest = args[1:]
        if sub == "act" and rest:
            return Command(verb, ("act", norm("_".join(rest))))
        if sub in ("move", "unlock", "subdue", "disable", "reveal", "flick", "open") and len(rest) == 1:
            return Command(verb, (sub, tile_arg(st, rest[0])))
        if sub in ("take", "drop") and len(rest) == 1:
            return Command(verb, (sub, norm(rest[0])))
        if sub == "run" and len(rest) == 2 and norm(rest[0]) == "via":
            return Command(verb, ("run", "via", tile_arg(st, rest[1])))
        if sub in ("idea", "done", "run") and not rest:
            return Command(verb, (sub,))
        raise UnknownCommand(
            "'npc' takes act <action>, move/unlock/subdue/disable/reveal/flick/open <hex>, take/drop <loot>, idea, "
            "done or run."
        )
    if verb == "bet":
        if len(args) != 1 or not args[0].isdigit():
            raise UnknownCommand("'bet' takes the amount in $k: 'bet 3'.")
        return Command(verb, (str(int(args[0])),))
    if verb == "insert":
        if len(args) != 2 or not args[1].isdigit():
            raise UnknownCommand("'insert' takes a Mastermind card and a deck position: 'insert m2 5'.")
        return Command(verb, (norm(args[0]), str(int(args[1]))))
    if verb in ("teamwork", "pinch", "whisper", "tip", "share", "handoff", "inspire"):
        if len(args) != 1:
            raise UnknownCommand(f"'{verb}' names the seat to help, like '{verb} p2'.")
        return Command(verb, (norm(args[0]),))
    if verb == "hack":
        if len(args) != 3:
            raise UnknownCommand("'hack' takes a seat, a sub-action and a hex: 'hack p2 subdue d4'.")
        return Command(verb, (norm(args[0]), norm(args[1]), tile_arg(st, args[2])))
    if verb == "toss":
        if len(args) != 2:
            raise UnknownCommand("'toss' takes what and where: 'toss jewel d4'.")
        return Command(verb, (norm(args[0]), tile_arg(st, args[1])))
    if verb == "run":
        if not args:
            return Command("run")
        if len(args) == 2 and norm(args[0]) == "via":
            return Command("run", ("via", tile_arg(st, args[1])))
        raise UnknownCommand("Type 'run', or 'run via d4' to pass by a tile and pick up what lies there.")
    if args:
        raise UnknownCommand(f"'{verb}' takes nothing after it.")
    return Command(verb)


def refusal(st: HeistState, p: Player, verb: str, cmd: Command) -> str:
    """Why a well-formed command is refused now, naming the rule."""
    phase = st.phase
    if phase == "over":
        return "The heist is over."
    if phase == "event":
        return f"The Event phase waits on {R.card_name(st.active_event)}: only its choices and 'continue' are open."
    if (
        verb
        in (
            "plan",
            "unplan",
            "start",
            "tunnel",
            "buy",
            "sell",
            "ready",
            "scout",
            "bribe",
            "payoff",
            "decoy",
            "bet",
            "floorplan",
            "shell",
            "consult",
            "inside",
            "insert",
        )
        and phase != "plan"
    ):
        if verb == "plan" and p.spare:
            return f"{cmd.args[0]} cannot take a planning token (only building tiles, once each)."
        return f"'{verb}' belongs to the planning (Part I); the heist is under way."
    if phase == "plan":
        if p.ready:
            return f"{p.nickname} has finished planning; wait for the others."
        if verb == "plan":
            if len(p.plans) >= plan_limit(st, p):
                return f"{p.nickname}'s planning memory is {plan_limit(st, p)}: every token is placed."
            return f"{cmd.args[0]} cannot take a planning token (only building tiles, once each; exits need none)."
        if verb == "start":
            if cmd.args[0] not in R.exits(st):
                return f"{cmd.args[0]} is not an entrance: characters start on an entrance."
            return f"At most {R.heist(st).entrance_limit} characters may start on one entrance."
        if verb == "ready":
            return "Choose a starting entrance first ('start <hex>')."
        if verb == "buy":
            return "The shop has no such item for sale, or the team cannot afford it."
        return f"'{verb}' is not possible in planning now."
    if phase == "escape" and verb not in ("run", "take", "drop", "give", "force", "pinch", "npc"):
        return "The escape is on: only 'run', loot hand-offs and escape abilities are possible."
    if phase == "action" and verb in ("run", "force", "pinch"):
        return f"'{verb}' belongs to the escape."
    if verb == "act":
        if p.action:
            return f"{p.nickname} already chose {p.action} this round (no second action; 'undo' may take it back)."
        keys = [o.key for o in R.options(st, p)]
        return (f"{p.nickname} cannot take '{cmd.args[0]}' with a die of {p.die} and {p.ideas} 💡 "
                f"(each 💡 turns the die ±1). Options: {', '.join(keys)}.")  # fmt: skip
    if verb in ACTION_VERBS or verb in PLAIN_VERBS or verb == "done":
        if not p.action:
            return f"{p.nickname} must choose an action first ('act <action>'); there is no passing."
        if p.done:
            return f"{p.nickname} has finished this round's action."
        letter = ACTION_VERBS.get(verb) or PLAIN_VERBS.get(verb, "")
        if letter and letter not in p.left:
            return f"{p.action} has no {R.sym(letter)} left to play."
        if verb == "move":
            return f"No ➜ to {cmd.args[0]}: {why_not_move(st, p, cmd.args[0])}."
        if verb == "unlock":
            return f"🔓 needs a locked tile next to {p.nickname}."
        if verb == "subdue":
            return f"👊 needs an unsubdued guard on or next to {p.nickname}."
        if verb == "disable":
            return f"📷 needs a live camera on or next to {p.nickname}."
        if verb == "reveal":
            if not cmd.args:
                return "🔍 needs an unknown security tile to reveal (name one, like 'reveal d4')."
            return f"🔍 needs an unknown security tile; {cmd.args[0]} is not one."
        if verb == "crack":
            return "🧩 needs the safe under you and Safecracking Tools or a Plasma Torch (or its bearer beside you)."
    if verb == "deck" and not st.deck:
        return "The event deck is empty: no card is left to read."
    if verb == "undo":
        return "Undo is only possible right after your own action, before anything unknown is revealed or anyone else acts."
    if verb in ("take", "drop", "give", "toss"):
        return f"There is no {cmd.args[0] if cmd.args else 'such loot'} to {verb} that way here."
    return f"'{verb}' is not possible for {p.nickname} now."


# --- playing ------------------------------------------------------------------------------------------


def play(st: HeistState, seat: str, cmd: Command) -> list[Event]:
    """Play a checked command and return the narration."""
    p = st.players[seat]
    if cmd.verb == "deck":
        return deck_lines(st)  # reading the deck changes nothing, not even anyone's undo
    ev: list[Event] = []
    for other in list(st.undo):
        if other != seat:
            del st.undo[other]  # someone else acted: earlier actions can no longer be taken back
    if st.phase == "event":
        if E.play_choice(st, p, cmd, ev):
            RD.finish_event_phase(st, ev)
    else:
        HANDLERS[cmd.verb](st, p, cmd.args, ev)
    N.check_freed(st, ev)
    if st.phase == "plan" and all(q.ready for q in st.players.values()):
        begin_heist(st, ev)
    elif st.phase == "action" and RD.everyone_done(st):
        RD.event_phase(st, ev)
    return ev


def begin_heist(st: HeistState, ev: list[Event]) -> None:
    """Part II starts: the first roll, and the first auto-reveals."""
    ev.append(Event("The plan is set. The heist begins!", "phase"))
    RD.start_round(st, ev)


def h_plan(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``plan``: place a planning token."""
    p.plans.append(a[0])
    if st.phase == "action":
        p.spare -= 1
    ev.append(Event(f"{p.nickname} plans {a[0]}.", "plan", data={"series": (f"{p.nickname} plans", a[0])}))


def h_unplan(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``unplan``: take a planning token back."""
    p.plans.remove(a[0])
    ev.append(Event(f"{p.nickname} takes the token off {a[0]}.", "plan"))


def h_start(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``start``: choose the starting entrance."""
    p.pos = a[0]
    ev.append(Event(f"{p.nickname} will start at {a[0]}.", "plan"))


def h_tunnel(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``tunnel``: open a tunnel entrance (or, where the heist allows, lay one against a building hex)."""
    if a[0] not in R.board(st).tunnels:
        gap = outside_gap(st, a[0])
        assert gap is not None
        st.doors[gap] = a[0]
        st.exits.append(gap)
        st.tiles[gap] = Tile()
        ev.append(Event(f"An entrance is laid at {gap}, against {a[0]}.", "plan"))
        return
    st.exits.append(a[0])
    st.tiles.setdefault(a[0], Tile())
    ev.append(Event(f"A tunnel entrance is opened at {a[0]}.", "plan"))


def h_buy(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``buy``: buy an item."""
    cost = price(st, a[0])
    st.team_cash -= cost
    p.items.append(a[0])
    ev.append(Event(f"{p.nickname} buys {R.C().items[a[0]].name} for ${cost}k.", "shop"))


def h_sell(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``sell``: sell an item."""
    gain = sell_price(st, a[0])
    st.team_cash += gain
    p.items.remove(a[0])
    if a[0] not in st.shop:
        st.shop.append(a[0])
    ev.append(Event(f"{p.nickname} sells {R.C().items[a[0]].name} for ${gain}k.", "shop"))


def h_ready(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``ready``: finish planning."""
    p.ready = True
    ev.append(Event(f"{p.nickname} is ready.", "plan"))


def h_act(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``act``: commit to an action (snapshot for undo, special effects)."""
    o = next(o for o in R.options(st, p) if o.key == a[0])
    st.undo[p.seat] = copy_state(st, with_undo=False)
    R.commit(st, p, o, ev)
    special = o.special
    if special in ("autopwn", "exploit"):
        p.proxy = "SDU" if special == "autopwn" else "SDU*"
    elif special == "loop_footage":
        st.flags.append("loop_footage")
        ev.append(Event("Loop footage: cameras see nothing until the Event phase ends.", "action"))
    elif special == "breach":
        st.exits.append(p.pos)
        st.escape_called = True
        ev.append(Event(f"{p.nickname} blows a new exit at {p.pos}: the escape starts now!", "action"))
        for q in R.in_play(st):
            q.done = True
        RD.start_escape(st, ev)
    elif special == "kill_pixels":
        st.flags.append("kill_pixels")  # once per heist, whoever carries the card
        kill_pixels(st, p, o.key.removeprefix("kill_pixels_"), ev)
    elif special == "toss_flashbang":
        for n in reach(st, p):
            stunned = R.chits(st, n, GUARD)
            for c in stunned:
                c.active = False
            if stunned:  # only these wake when the Event phase ends
                st.flags.append(f"stunned:{n}:{len(stunned)}")
        p.items.remove("flashbang")
        R.discard_item(st, "flashbang")
        ev.append(
            Event(
                f"{p.nickname} tosses a flashbang: every guard around is out cold until the Event phase ends.",
                "action",
            )
        )
    elif special == "tweak_plan":
        p.items.remove("radio")
        R.discard_item(st, "radio")
        for q in st.players.values():
            q.flags += ["replan:1", "radio"]
        ev.append(Event("Radio: every character may move one planning token by one hex.", "action"))
    if o.source == "Cheap Picks":
        p.flags.append("breakable")


def kill_pixels(st: HeistState, p: Player, direction: str, ev: list[Event]) -> None:
    """Laser burst: disable the known cameras up to two hexes away along one straight line, 🔊 per hex hit."""
    hit = []
    line = R.board(st).lines[p.pos][H.DIRECTIONS.index(direction)]
    if line:
        for m in line[:2]:
            for c in R.chits(st, m, CAMERA):
                c.active = False
                hit.append(m)
    if hit:
        R.make_noise(st, len(set(hit)), ev)
    ev.append(
        Event(f"Laser burst knocks out the cameras at {', '.join(sorted(set(hit))) or 'nowhere'}.", "action")
    )


def spend(p: Player, letter: str) -> None:
    """Use up one sub-action letter of the current action."""
    i = p.left.index(letter)
    p.left = p.left[:i] + p.left[i + 1 :]


def h_move(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``move``: ➜."""
    spend(p, "M")
    p.flags.append("acted")
    step_to(st, p, a[0], ev)


def step_to(st: HeistState, p: Player, to: str, ev: list[Event]) -> None:
    """Move the character onto ``to`` and apply what entering it causes."""
    frm = p.pos
    p.pos = to
    if R.is_cell(st, to) and "been_in_cells" not in p.used:
        p.used.append("been_in_cells")
    ev.append(Event(f"{p.nickname} moves {frm} ➜ {to}.", "move",
                    data={"from": frm, "to": to, "path": (f"{p.nickname} moves", frm, to, "")}))  # fmt: skip
    if "loop_footage" not in st.flags:
        for _ in R.chits(st, to, CAMERA):
            R.alert(st, ev, f"a live camera sees {p.nickname} at {to}")
    R.lift_remote_locks(st, to, ev)
    if (
        "story" in st.tiles[to].marks
        and "usb" in p.loot
        and R.has_rule(st, "usb_story")
        and "usb_story" not in st.flags
    ):
        st.flags.append("usb_story")
        p.left += "RRR"
        p.ideas += 1
        ev.append(Event(f"{p.nickname} plugs the USB key in at {to}: 🔍🔍🔍 and 💡.", "action"))
    R.stash_docs(st, p, ev)  # The Final Score Part 1: documents carried into a hideout are hidden there
    R.auto_reveal(st, ev, p)
    if "vent" in p.flags:
        vent_reveal(st, p, ev)
    if "slip" in p.flags and any(c.kind == "dog" and c.active for c in st.tiles[frm].chits):
        st.flags.append(f"dogwait:{frm}")  # There are better dogs: the dog waits to see where it went
    R.dogs_chase(st, ev)
    if R.outdoors(st, p):
        R.bank(st, p, ev)


def h_unlock(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``unlock``: 🔓."""
    spend(p, "U")
    p.flags.append("acted")
    unlock(st, a[0], p, ev)


def unlock(st: HeistState, n: str, p: Player, ev: list[Event]) -> None:
    """Unlock a tile (an elite lock needs two 🔓 in one round)."""
    if not R.hit_chit(R.chits(st, n, LOCK)[0]):
        ev.append(
            Event(f"{p.nickname} works on the elite lock at {n} (one more 🔓 this round opens it).", "unlock")
        )
        return
    ev.append(Event(f"{p.nickname} unlocks {n}.", "unlock"))


def h_subdue(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``subdue``: 👊."""
    spend(p, "S")
    p.flags.append("acted")
    subdue(st, a[0], p, ev)


def subdue(st: HeistState, n: str, p: Player, ev: list[Event]) -> None:
    """Subdue a guard on a tile (an elite guard needs two 👊 in one round); Adrenaline gives 💡."""
    g = R.chits(st, n, GUARD)[0]
    if not R.hit_chit(g):
        ev.append(
            Event(f"{p.nickname} grapples with the elite guard at {n} (one more 👊 this round).", "subdue")
        )
    else:
        ev.append(Event(f"{p.nickname} subdues the {g.kind} at {n}.", "subdue"))
    if "adrenaline" in R.abilities(p):
        p.ideas += 1
        ev.append(Event(f"Adrenaline: {p.nickname} gains 💡.", "idea"))


def h_disable(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``disable``: 📷."""
    spend(p, "D")
    p.flags.append("acted")
    disable(st, a[0], p, ev)
    if p.action == "rewire_ability":
        for g in R.chits(st, a[0], GUARD):
            g.active = False
        ev.append(Event(f"Rewired: the guards at {a[0]} are subdued too.", "subdue"))


def disable(st: HeistState, n: str, p: Player, ev: list[Event]) -> None:
    """Disable a camera on a tile (an elite camera needs two 📷 in one round)."""
    if not R.hit_chit(R.chits(st, n, CAMERA)[0]):
        ev.append(
            Event(f"{p.nickname} works on the elite camera at {n} (one more 📷 this round).", "disable")
        )
        return
    ev.append(Event(f"{p.nickname} disables the camera at {n}.", "disable"))


def h_reveal(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``reveal``: 🔍 (I know a way gives 💡 on an empty bag, even with no tile left to reveal)."""
    spend(p, "R")
    p.flags.append("acted")
    empty = not st.bag
    if not a:  # the bag is empty and nothing is left to reveal: only the idea
        know_a_way(st, p, empty, ev)
        return
    R.draw(st, a[0], ev, f"{p.nickname} reveals", p)
    know_a_way(st, p, empty, ev)


def knows_a_way(st: HeistState, p: Player) -> bool:
    """True when the character's 🔍 made on an empty bag gives 💡 (I know a way; We know a way, anyone's)."""
    return "i_know_a_way" in R.abilities(p) or any("we_know_a_way" in R.abilities(q) for q in R.in_play(st))


def know_a_way(st: HeistState, p: Player, empty: bool, ev: list[Event]) -> None:
    """I/We know a way: a 🔍 made while the bag is empty gives 💡."""
    if empty and knows_a_way(st, p):
        p.ideas += 1
        ev.append(Event(f"{p.nickname} knows a way: +💡.", "idea"))


def h_idea(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``idea``: 💡."""
    spend(p, "I")
    p.flags.append("acted")
    p.ideas += 1
    ev.append(Event(f"{p.nickname} gains 💡 ({p.ideas}).", "idea"))


def h_loot(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``loot``: 💰."""
    spend(p, "L")
    p.flags.append("acted")
    p.cash += 1
    ev.append(Event(f"{p.nickname} pockets $1k (carrying ${p.cash}k).", "loot"))
    if R.outdoors(st, p):
        R.bank(st, p, ev)


def h_crack(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``crack``: 🧩 on the safe."""
    spend(p, "U")
    p.cracks += 1
    gain = 1
    if "safecracking_tools" in p.items and on_safe(st, p) and p.cracks == 2:
        gain = 2  # 🔓🔓 make 🧩🧩🧩
    st.safe += gain
    need = R.heist(st).safe
    total = need.cracks if need else 0
    ev.append(Event(f"{p.nickname} works the safe: 🧩 {st.safe}/{total}.", "crack"))
    if need and st.safe >= need.cracks and "safe_open" not in st.flags:
        st.flags.append("safe_open")
        n = next(n for n, t in st.tiles.items() if "safe" in t.marks)
        st.tiles[n].marks.remove("safe")
        st.tiles[n].loot.extend(need.loot)
        st.tiles[n].cash += need.cash_k
        inside = ", ".join([*need.loot, *([f"${need.cash_k}k"] if need.cash_k else [])]) or "nothing"
        ev.append(Event(f"The safe at {n} swings open: {inside}.", "crack"))


def h_efficient(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``efficient``: Efficient picker."""
    p.ideas -= 1
    p.picks += 1
    p.left += "M"
    p.noise_due += 1
    ev.append(Event(f"Efficient picker: {p.nickname} pays 💡 for an extra ➜🔊.", "action"))


def h_hack(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``hack``: Autopwn / Exploit through another character."""
    q = st.players[a[0]]
    letter = {"subdue": "S", "disable": "D", "unlock": "U"}[a[1]]
    first_of_two = "*" in p.proxy
    p.proxy = ""
    p.flags = [f for f in p.flags if not f.startswith("exploit:")]
    if first_of_two:
        # Exploit (👊👊 / 📷📷 / 🔓🔓): the same character plays the same sub-action once more, on any target.
        p.proxy = letter
        p.flags.append(f"exploit:{q.seat}")
    p.flags.append("acted")
    if letter == "S":
        subdue(st, a[2], q, ev)
    elif letter == "D":
        disable(st, a[2], q, ev)
    else:
        unlock(st, a[2], q, ev)


def h_toss(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``toss``: Toss loot."""
    what, to = a
    here = p.pos
    drop_one(st, p, what)
    t = st.tiles[here]
    src, dst = t, st.tiles[to]
    if what == "cash":
        dst.cash += src.cash
        src.cash = 0
    else:
        src.loot.remove(what)
        dst.loot.append(what)
    ev.append(Event(f"{p.nickname} tosses {what} to {to}.", "loot"))


def h_done(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``done``: finish the action (Cheap Picks may break)."""
    if "breakable" in p.flags and p.die <= 4 and "cheap_picks" in p.items:
        p.items.remove("cheap_picks")
        R.discard_item(st, "cheap_picks")
        ev.append(Event(f"{p.nickname}'s Cheap Picks break (die {p.die}).", "action"))
    R.finish_action(st, p, ev)


def h_undo(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``undo``: restore the snapshot taken at ``act``."""
    st.__dict__.update(st.undo[p.seat].__dict__)
    st.undo = {}
    ev.append(Event(f"{p.nickname} takes the action back.", "undo"))


def drop_one(st: HeistState, p: Player, what: str) -> None:
    """Leave one piece of loot (or an item card) on the character's tile."""
    t = st.tiles[p.pos]
    if what == "cash":
        t.cash += p.cash
        p.cash = 0
    elif what.startswith("item:"):
        p.items.remove(what[5:])
        t.loot.append(what)
    else:
        p.loot.remove(what)
        t.loot.append(what)


def h_take(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``take``: pick loot up (``take <what> npc``: from the NPC on your tile)."""
    if len(a) > 1 and a[1] == "npc":
        npc = N.the_npc(st)
        assert npc is not None
        if a[0] == "cash":
            p.cash += N.let_go(npc, "cash")
        else:
            N.let_go(npc, a[0])
            p.loot.append(a[0])
        ev.append(Event(f"{p.nickname} takes {a[0]} back from the {npc.kind}.", "loot"))
        return
    n = a[1] if len(a) > 1 else p.pos
    R.take_from(st, p, n, a[0])
    ev.append(Event(f"{p.nickname} picks up {a[0]}" + (f" from {n}." if n != p.pos else "."), "loot"))
    if R.outdoors(st, p):
        R.bank(st, p, ev)


def h_drop(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``drop``: drop loot (a Swindler may drop it on a neighbouring tile)."""
    drop_one(st, p, a[0])
    if len(a) > 1:
        here = st.tiles[p.pos]
        there = st.tiles[a[1]]
        if a[0] == "cash":
            there.cash += here.cash
            here.cash = 0
        else:
            what = a[0] if a[0] in here.loot else f"item:{a[0][5:]}"
            here.loot.remove(what)
            there.loot.append(what)
        ev.append(Event(f"{p.nickname} slips {a[0]} onto {a[1]}.", "loot"))
        return
    ev.append(Event(f"{p.nickname} drops {a[0]} at {p.pos}.", "loot"))


def h_give(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``give``: hand loot to a character on the same tile (the USB key to the guide opens Y)."""
    if a[1] == "npc":
        N.give(st, p, a[0], ev)
        return
    q = st.players[a[1]]
    drop_one(st, p, a[0])
    R.take_from(st, q, p.pos, a[0])
    ev.append(Event(f"{p.nickname} hands {a[0]} to {q.nickname}.", "loot"))


def h_open(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``open``: open a keycard door."""
    st.tiles[a[0]].marks.remove("keycard_door")
    ev.append(Event(f"{p.nickname} swipes the keycard: the door at {a[0]} opens.", "unlock"))


def h_escort(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``escort``: take the hostage on your tile."""
    npc = next(
        n for n in st.npcs if n.kind == "hostage" and n.status == "in" and not n.active and n.pos == p.pos
    )
    N.take_hostage(st, npc, p.seat, ev)


def h_whisper(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``whisper``: share 💡 with a character in the same hideout."""
    p.ideas -= 1
    st.players[a[0]].ideas += 1
    ev.append(Event(f"{p.nickname} whispers a plan to {st.players[a[0]].nickname} (💡).", "idea"))


def h_npc(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``npc ...``: the team plays the non-player character's action."""
    N.play(st, a, ev)


def deck_lines(st: HeistState) -> list[Event]:
    """The event deck as narration: a heading, then one line per card, top (the next active event) first."""
    crises = sum(R.is_crisis(c) for c in st.deck)
    head = f"Event deck, top first: {plural(len(st.deck), 'card')}, {crises} of them crises; {len(st.discard)} discarded."
    if st.crises:
        head += " Queued crises: " + ", ".join(R.card_name(c) for c in st.crises) + "."
    out = [Event(head, "deck")]
    for i, card in enumerate(st.deck, start=1):
        c = R.C().events[card]
        tag = "CRISIS " if c.kind == "crisis" else ""
        out.append(Event(f"{i}. {tag}{R.card_name(card)}: {c.summary}", "deck"))
    return out


def h_escape(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``escape``: call the escape."""
    st.escape_called = True
    ev.append(
        Event(f"{p.nickname} calls the escape: after this round's Event phase, everyone runs.", "escape")
    )


def h_slip(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``slip``: There are better ways."""
    p.ideas -= 1
    p.flags.append("slip")
    ev.append(Event(f"{p.nickname} finds a better way: guards cannot hold them this round.", "action"))


def h_larceny(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``larceny``: Larcenist / Swindler."""
    p.ideas -= 1
    p.flags.append("larceny")
    ev.append(Event(f"{p.nickname}'s light fingers reach the next tile this round.", "action"))


def h_vent(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``vent``: Vent crawl."""
    p.noise_due += 4
    p.flags.append("vent")
    ev.append(Event(f"{p.nickname} takes to the vents (🔊🔊🔊🔊).", "action"))
    vent_reveal(st, p, ev)


def vent_reveal(st: HeistState, p: Player, ev: list[Event]) -> None:
    """Vent crawl: the tiles across one gap count as adjacent, so unknown ones there are auto-revealed."""
    for m in R.vent_table(st).get(p.pos, ()):
        if st.tiles[m].unknown:
            R.draw(st, m, ev, "Auto-reveal (through the vents) at", p)


def h_codes(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``codes``: reveal every tile next to a known live camera."""
    if "has_the_code" not in R.abilities(p):
        p.ideas -= 2
    p.used.append("codes")
    cams = [n for n in sorted(st.tiles) if R.chits(st, n, CAMERA)]
    for n in cams:
        for m in R.nbrs(st, n):
            if st.tiles[m].unknown:
                R.draw(st, m, ev, f"{p.nickname}'s codes reveal", p)


def h_newplan(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``newplan``: Change of plans / Alright, new plan."""
    p.ideas -= 2
    p.used.append("newplan")
    big = "alright_new_plan" in R.abilities(p)
    if big:
        p.noise_due += 1
        p.flags.append("gift:3")  # the player hands out up to 💡💡💡 with 'inspire <seat>'
    p.flags.append(f"replan:{6 if big else 3}")
    gifts = " and may give allies up to 💡💡💡 ('inspire')" if big else ""
    ev.append(
        Event(
            f"{p.nickname} changes the plan: up to {6 if big else 3} planning tokens may move{gifts}.",
            "action",
        )
    )


def gifts_left(p: Player) -> int:
    """Alright, new plan: 💡 the character may still hand to allies this round."""
    return next((int(f.split(":")[1]) for f in p.flags if f.startswith("gift:")), 0)


def h_inspire(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``inspire <seat>``: Alright, new plan hands one 💡 to an ally."""
    left = gifts_left(p) - 1
    p.flags = [f for f in p.flags if not f.startswith("gift:")] + ([f"gift:{left}"] if left else [])
    q = st.players[a[0]]
    q.ideas += 1
    ev.append(Event(f"Alright, new plan: {q.nickname} gains 💡 ({left} left to give).", "idea"))


def h_replan(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``replan``: move one planning token."""
    k = replans(p)
    p.flags = [f for f in p.flags if not f.startswith("replan:")]
    if k > 1:
        p.flags.append(f"replan:{k - 1}")
    p.plans[p.plans.index(a[0])] = a[1]
    ev.append(Event(f"{p.nickname} moves a planning token {a[0]} ➜ {a[1]}.", "plan"))


def h_teamwork(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``teamwork``: Old Friend."""
    p.ideas -= 2
    st.players[a[0]].ideas += 1
    ev.append(Event(f"Old Friend: {p.nickname} pays 💡💡 so {st.players[a[0]].nickname} gets 💡.", "idea"))


def h_run(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``run``: run for an exit."""
    RD.run(st, p, a[1] if a else "", ev)


def h_force(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``force``: Pick under pressure."""
    p.ideas -= 1
    for c in R.chits(st, a[0], LOCK):
        c.active = False
    ev.append(Event(f"Pick under pressure: {p.nickname} pays 💡 and unlocks {a[0]}.", "unlock"))


def h_pinch(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``pinch``: Good / Great in a pinch."""
    p.ideas -= 2
    if "great_in_a_pinch" not in R.abilities(p):
        p.used.append("pinch")
    st.players[a[0]].ideas += 1
    ev.append(Event(f"In a pinch, {p.nickname} pays 💡💡 to give {st.players[a[0]].nickname} 💡.", "idea"))


def h_scout(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``scout``: planning 🔍."""
    if "building_schematics" in p.items:
        p.items.remove("building_schematics")
        R.discard_item(st, "building_schematics")
        how = "the building schematics"
    else:
        st.team_cash -= 1
        how = "Visage ($1k)"
    R.draw(st, a[0], ev, f"Scouting with {how} reveals", p)
    if "the_machinist" in st.fixers and R.chits(st, a[0], LOCK):
        p.ideas += 1
        ev.append(Event(f"The Machinist knows that lock: {p.nickname} gains 💡.", "idea"))


def h_bribe(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``bribe``: Beat Cop."""
    cost = BRIBE_COSTS[st.bought.count("bribe")]
    st.team_cash -= cost
    st.bought.append("bribe")
    st.bag.remove("guard")
    st.bag.append("blank")
    ev.append(Event(f"The Beat Cop takes ${cost}k: one guard in the bag is off duty.", "plan"))


def h_payoff(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``payoff``: Prison Guard."""
    st.team_cash -= 3
    st.bought.append("payoff")
    for _ in range(2):
        st.bag.remove("lock")
        st.bag.append("blank")
    ev.append(Event("The Prison Guard takes $3k: two locks in the bag are left open.", "plan"))


def h_decoy(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``decoy``: Diversion Specialist."""
    st.team_cash -= 1
    st.decoys += 1
    ev.append(Event(f"The Diversion Specialist sets up a diversion ($1k; {st.decoys} ready).", "plan"))


def h_bet(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``bet``: the Bookie's double or nothing, settled when the heist ends."""
    st.team_cash -= int(a[0])
    st.bought.append(f"bet:{a[0]}")
    ev.append(Event(f"The Bookie holds ${a[0]}k: double or nothing on a clean job.", "plan"))


def h_floorplan(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``floorplan``: the Architect's idea token goes into the bag."""
    kind, cost = ("idea2", 2) if "idea2" not in st.bag else ("idea3", 3)
    st.team_cash -= cost
    st.bag.append(kind)
    ev.append(
        Event(f"The Architect hides {with_article(kind[-1] + '-idea')} token in the bag (${cost}k).", "plan")
    )


def h_shell(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``shell``: cameras found by scouting start disabled."""
    st.team_cash -= 3
    st.bought.append("shell")
    ev.append(Event("Shell takes $3k: cameras found while scouting will already be down.", "plan"))


def h_consult(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``consult``: the Security Consultant keeps one more blank on call."""
    cost = CONSULT_COSTS[st.bought.count("blank")]
    st.team_cash -= cost
    st.bought.append("blank")
    ev.append(
        Event(
            f"The Security Consultant is on call with {plural(st.bought.count('blank'), 'blank')} (${cost}k).",
            "plan",
        )
    )


def h_inside(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``inside``: the Mayor gets the character in, in the place of a known guard."""
    t = st.tiles[a[0]]
    guard = next(c for c in t.chits if c.kind in ("guard", "dog") and c.active)
    t.chits.remove(guard)
    p.pos = a[0]
    p.used.append("mayor")
    st.bought.append("mayor")
    ev.append(
        Event(f"The Mayor gets {p.nickname} inside: they start at {a[0]} instead of its guard.", "plan")
    )


def h_swap(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``swap``: pay 💡🔊 to have the Security Consultant swap a chit just drawn for a blank."""
    p.ideas -= 1
    st.bought.remove("blank")
    st.tiles[a[0]].chits = [c for c in st.tiles[a[0]].chits if not c.from_bag]
    st.flags.remove(f"drawn:{a[0]}")
    R.make_noise(st, 1, ev)
    ev.append(
        Event(
            f"{p.nickname} calls the Security Consultant (💡🔊): the chit at {a[0]} was a blank after all.",
            "action",
        )
    )


def h_insert(st: HeistState, p: Player, a: Args, ev: list[Event]) -> None:
    """Play ``insert``: Retired Mastermind."""
    cost = INSERT_COSTS[st.bought.count("insert")]
    st.team_cash -= cost
    st.bought.append("insert")
    card = a[0].upper()
    st.deck.insert(int(a[1]) - 1, card)
    ev.append(
        Event(f"The Retired Mastermind slips {R.card_name(card)} into the deck at {a[1]} (${cost}k).", "plan")
    )


Handler = Callable[[HeistState, Player, Args, list[Event]], None]
HANDLERS: dict[str, Handler] = {
    "plan": h_plan, "unplan": h_unplan, "start": h_start, "tunnel": h_tunnel, "buy": h_buy, "sell": h_sell,
    "ready": h_ready, "act": h_act, "move": h_move, "unlock": h_unlock, "subdue": h_subdue,
    "disable": h_disable, "reveal": h_reveal, "idea": h_idea, "loot": h_loot, "crack": h_crack,
    "efficient": h_efficient, "hack": h_hack, "toss": h_toss, "done": h_done, "undo": h_undo,
    "take": h_take, "drop": h_drop, "give": h_give, "open": h_open, "escort": h_escort,
    "escape": h_escape, "slip": h_slip, "larceny": h_larceny, "vent": h_vent, "codes": h_codes,
    "newplan": h_newplan, "replan": h_replan, "inspire": h_inspire, "teamwork": h_teamwork, "run": h_run, "force": h_force,
    "pinch": h_pinch, "scout": h_scout, "bribe": h_bribe, "payoff": h_payoff, "decoy": h_decoy,
    "npc": h_npc, "whisper": h_whisper, "consult": h_consult, "inside": h_inside, "swap": h_swap, "insert": h_insert, "bet": h_bet, "floorplan": h_floorplan, "shell": h_shell,
}  # fmt: skip
KNOWN = set(HANDLERS) | {"blab", "tip", "share", "handoff", "continue", "deck"}
