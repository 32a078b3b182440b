"""Heist game state: the board's tiles and chits, the crew, the noise track, the event deck, the bag.

Cells are kept by their typed names (``d4``) so the state is plain JSON; the geometry lives in
:mod:`engine.rulesets.heist.board`. The security bag's order is never stored: a draw picks at random.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.ai.copying import flat, plain, rng_copy
from engine.core import Outcome
from engine.dice import Rng

# Sub-actions by letter: the symbols players see are in SUB_SYMBOLS.
MOVE, UNLOCK, SUBDUE, DISABLE, IDEA, REVEAL, LOOT, NOISE, ALERT, CRACK = "MUSDIRLNAC"
SUB_SYMBOLS = {
    MOVE: "➜", UNLOCK: "🔓", SUBDUE: "👊", DISABLE: "📷", IDEA: "💡", REVEAL: "🔍", LOOT: "💰",
    NOISE: "🔊", ALERT: "⚠", CRACK: "🧩",
}  # fmt: skip
SYMBOL_SUBS = {v: k for k, v in SUB_SYMBOLS.items()}
SUB_VERBS = {
    MOVE: "move", UNLOCK: "unlock", SUBDUE: "subdue", DISABLE: "disable", IDEA: "idea", REVEAL: "reveal",
    LOOT: "loot", CRACK: "crack",
}  # fmt: skip
VERB_SUBS = {v: k for k, v in SUB_VERBS.items()}

GUARD, LOCK, CAMERA, DOG = "guard", "lock", "camera", "dog"
SECURITY = (GUARD, LOCK, CAMERA, DOG)
LOOT_KINDS = ("jewel", "docs", "usb", "keycard")


@dataclass
class Chit:
    """A security chit on a tile. ``active``: Guard unsubdued / Lock locked / Camera live.

    ``elite`` chits (the 2x tokens) need two matching sub-actions from one action; ``hits`` counts the
    first one until the action ends.
    """

    kind: str
    active: bool = True
    elite: bool = False
    hits: int = 0
    from_bag: bool = False


@dataclass
class Tile:
    """A hex on the board as play changes it. ``unknown``: a security tile whose chit is not drawn yet."""

    unknown: bool = False
    chits: list[Chit] = field(default_factory=list)
    cash: int = 0
    loot: list[str] = field(default_factory=list)  # jewel, docs, usb, keycard, item:<name>
    marks: list[str] = field(default_factory=list)  # safe, kennel, watchtower, reinforcements, gate-a...


@dataclass
class Player:
    """One seat's character in this heist and what it is doing this round."""

    seat: str
    nickname: str
    character: str
    skills: list[str]
    items: list[str] = field(default_factory=list)
    pos: str = ""
    plans: list[str] = field(default_factory=list)
    ideas: int = 0
    die: int = 0
    action: str = ""  # name of the chosen action this round ("" = not chosen)
    source: str = ""  # the card the action came from
    left: str = ""  # optional sub-actions not played yet, as letters
    done: bool = False
    ready: bool = False  # planning finished
    status: str = "in"  # in | escaped | busted
    cash: int = 0
    loot: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # once-per-heist abilities spent
    flags: list[str] = field(default_factory=list)  # until end of phase: better-ways, larcenist...
    picks: int = 0  # Efficient picker uses this action
    unlocks: int = 0  # 🔓 in the chosen action (Efficient picker's allowance)
    cracks: int = 0  # 🔓 turned into 🧩 this action (Safecracking tools)
    noise_due: int = 0  # 🔊 of this action, charged when the action is finished
    alert_due: int = 0  # ⚠ of this action, charged when the action is finished
    spare: int = 0  # planning tokens handed back (lockdown) that may be placed again
    upgrade: str = "1a"  # level-up choice: which skill first (1/2), which pro card (a/b)
    proxy: str = ""  # Autopwn / Exploit: the sub-action letter another character may be made to play


@dataclass
class Npc:
    """A non-player character: where it is, which side of its card is up, and its own round."""

    kind: str  # prisoner | hostage | guide
    pos: str
    panic: bool = False
    escort: str = ""  # seat of the character who took it (hostages)
    status: str = "in"  # in | escaped | busted
    active: bool = False  # freed, taken, or a guide: it rolls and acts each round
    die: int = 0
    ideas: int = 0
    action: str = ""
    left: str = ""
    done: bool = False
    noise_due: int = 0
    alert_due: int = 0
    loot: list[str] = field(default_factory=list)  # what the team handed it


@dataclass
class HeistState:
    """Everything a heist knows, hidden parts (the bag) included."""

    rng: Rng
    heist: str
    seats: list[str]
    players: dict[str, Player]
    tiles: dict[str, Tile]
    deck: list[str]
    bag: list[str]
    phase: str = "plan"  # plan | action | escape | over
    round: int = 0
    noise: int = 0
    discard: list[str] = field(default_factory=list)
    crises: list[str] = field(default_factory=list)
    active_event: str = ""
    last_event: str = ""
    removed: list[str] = field(default_factory=list)  # tiles taken off the board (lockdown)
    exits: list[str] = field(default_factory=list)  # exits opened in play: tunnels, Breach
    doors: dict[str, str] = field(default_factory=dict)  # an entrance laid in a gap -> the hex it faces
    gates_closed: int = 0
    safe: int = 0  # 🧩 progress
    escape_called: bool = False
    hauled: dict[str, int] = field(default_factory=dict)  # loot secured outdoors: cash, jewel, docs...
    team_cash: int = 0  # campaign cash at the start (shop purchases come out of it)
    shop: list[str] = field(default_factory=list)
    fixers: list[str] = field(default_factory=list)
    npcs: list[Npc] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)  # heist-wide: loop-footage, flashbang...
    decoys: int = 0  # Diversion Specialist's $1k tokens: each takes the place of one 🔊
    bought: list[str] = field(
        default_factory=list
    )  # planning purchases from fixers (bribe, decoy, insert...)
    # seat -> the state before its action (a copy whose own ``undo`` is empty), kept as a state rather than
    # as data: the snapshot is taken at every action, the data only when the game is saved.
    undo: dict[str, HeistState] = field(default_factory=dict)
    campaign: dict[str, Any] = field(default_factory=dict)  # the crew record this heist started from
    members: dict[str, str | None] = field(default_factory=dict)
    news: list[str] = field(default_factory=list)  # last round's event-phase narration, for views
    result: Outcome | None = None

    def to_data(self, *, with_undo: bool = True) -> dict[str, Any]:
        """JSON-ready data (the generator and the undo snapshots included)."""
        d: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "rng":
                d[f.name] = v.to_data()
            elif f.name == "result":
                d[f.name] = v.to_data() if v else None
            elif f.name == "undo":
                d[f.name] = {k: snap.to_data(with_undo=False) for k, snap in v.items()} if with_undo else {}
            else:
                d[f.name] = _plain(v)
        return d

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> HeistState:
        """Inverse of :meth:`to_data`. Raises KeyError/TypeError on malformed data."""
        players = {s: Player(**p) for s, p in d["players"].items()}
        tiles = {}
        for name, t in d["tiles"].items():
            tiles[name] = Tile(
                unknown=t["unknown"], chits=[Chit(**c) for c in t["chits"]], cash=t["cash"],
                loot=list(t["loot"]), marks=list(t["marks"]),
            )  # fmt: skip
        kw: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in ("rng", "players", "tiles", "npcs", "result"):
                continue
            if f.name == "undo":
                kw[f.name] = {k: cls.from_data(snap) for k, snap in d[f.name].items()}
                continue
            kw[f.name] = _copy(d[f.name])
        return cls(
            rng=Rng.from_data(d["rng"]), players=players, tiles=tiles,
            npcs=[Npc(**n) for n in d["npcs"]],
            result=Outcome.from_data(d["result"]) if d["result"] else None, **kw,
        )  # fmt: skip


def _plain(v: Any) -> Any:
    if isinstance(v, (str, int, bool)) or v is None:
        return v
    if isinstance(v, (Player, Tile, Chit, Npc)):
        # Every field of these dataclasses is in the instance's __dict__ (no slots, no class defaults
        # shadowing), and reading it is several times cheaper than dataclasses.fields().
        return {k: _plain(x) for k, x in vars(v).items()}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


def _copy_player(p: Player) -> Player:
    c: Player = flat(p)
    c.skills, c.items, c.plans = list(p.skills), list(p.items), list(p.plans)
    c.loot, c.used, c.flags = list(p.loot), list(p.used), list(p.flags)
    return c


def _copy_tile(t: Tile) -> Tile:
    return Tile(t.unknown, [flat(c) for c in t.chits], t.cash, list(t.loot), list(t.marks))


def _copy_npc(n: Npc) -> Npc:
    c: Npc = flat(n)
    c.loot = list(n.loot)
    return c


def copy_state(st: HeistState, *, with_undo: bool = True) -> HeistState:
    """An independent deep copy of ``st`` (without ``with_undo``, its take-back snapshots left out)."""
    new = flat(st)
    new.rng = rng_copy(st.rng)
    new.seats = list(st.seats)
    new.players = {k: _copy_player(p) for k, p in st.players.items()}
    new.tiles = {k: _copy_tile(t) for k, t in st.tiles.items()}
    for name in ("deck", "bag", "discard", "crises", "removed", "exits", "shop", "fixers", "flags",
                 "bought", "news"):  # fmt: skip
        setattr(new, name, list(getattr(st, name)))
    new.doors = dict(st.doors)
    new.hauled = dict(st.hauled)
    new.npcs = [_copy_npc(n) for n in st.npcs]
    new.undo = {k: copy_state(snap) for k, snap in st.undo.items()} if with_undo else {}
    new.campaign = plain(st.campaign)
    new.members = dict(st.members)
    return new
