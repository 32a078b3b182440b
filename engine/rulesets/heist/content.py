"""River City heist content: cards, decks and heists, loaded from ``content/*.json``.

Everything is immutable and loaded once (:func:`load_content`). Ids are lower-case slugs of the printed
names (``angry_locksmith``, ``smash_n_grab``, ``the_dark_horse_job``); event ids are the printed card
numbers (``"1"`` .. ``"24"``, ``"A1"``, ``"C3"``, ``"Z1"``).

Sub-actions are stored as ids (``move``, ``unlock``, ``subdue``, ``disable``, ``idea``, ``reveal``,
``loot``, ``noise``, ``alert``, ``crack``); :data:`SYMBOLS` maps the printed symbols to them.

Event effects use a small mini-language documented in :class:`Effect` and ``content/README.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal, cast, get_args

from engine.errors import ContentError
from engine.geometry.hexgrid import DIRECTIONS, Cell, Direction, cell_name, neighbours, step

SubAction = Literal[
    "move", "unlock", "subdue", "disable", "idea", "reveal", "loot", "noise", "alert", "crack"
]
Level = Literal["amateur", "pro"]
AbilityKind = Literal["use_action", "once_per_heist", "passive"]
ActionKind = Literal["plain", "special"]
ActionOrigin = Literal["card", "npc", "ability", "item"]
Difficulty = Literal["amateur", "semi_pro", "pro"]
TileKind = Literal["blank", "security", "entrance", "tunnel"]
SecurityChit = Literal["guard", "lock", "camera", "dog", "guard2x", "lock2x", "camera2x"]
BagChit = Literal["guard", "camera", "lock", "dog", "jewel", "keycard", "docs", "usb"]
LootKind = Literal["jewel", "docs", "usb", "keycard", "cash"]
NpcRole = Literal["prisoner", "hostage", "guide"]
EventKind = Literal["event", "crisis"]
Availability = Literal["shop", "scenario"]
Module = Literal[
    "remote_locks", "guard_dogs", "watchtower", "reinforcements", "lockdown_gates", "keycard", "usb",
    "tunnels", "npc", "safe", "breakout", "moving_guards",
]  # fmt: skip

SYMBOLS: dict[str, SubAction] = {
    "➜": "move", "🔓": "unlock", "👊": "subdue", "📷": "disable", "💡": "idea",
    "🔍": "reveal", "💰": "loot", "🔊": "noise", "⚠": "alert", "🧩": "crack",
}  # fmt: skip
SYMBOL_OF: dict[SubAction, str] = {v: k for k, v in SYMBOLS.items()}
REQUIRED_SUBACTIONS: frozenset[SubAction] = frozenset({"noise", "alert"})


@dataclass(frozen=True)
class SubActionInfo:
    """One sub-action: its symbol, id, display name, whether it is required, and what it does."""

    id: SubAction
    symbol: str
    name: str
    required: bool
    summary: str


@dataclass(frozen=True)
class Action:
    """A named action.

    ``plain`` actions are just their sub-actions in printed order (Punch = subdue, noise, noise, move).
    ``special`` actions (Autopwn, Dart, Breach, an item's Toss Flashbang...) are defined by the ability
    named in ``ability``; their ``subactions`` are empty and ``summary`` says what they do.
    ``origin``: ``card`` (the 53 actions printed on character and skill cards), ``npc`` (only on NPC
    cards: Whimper, Handle), ``ability`` or ``item`` (special actions).
    Ids are slugs of the name, except Tinkerer's own Rewire, whose id is ``rewire_ability`` because the
    plain ``rewire`` (📷📷🔊➜) exists too.
    """

    id: str
    name: str
    kind: ActionKind
    subactions: tuple[SubAction, ...]
    category: str = ""
    ability: str | None = None
    summary: str = ""
    origin: ActionOrigin = "card"

    @property
    def symbols(self) -> str:
        """The sub-actions as printed symbols (empty for special actions)."""
        return "".join(SYMBOL_OF[s] for s in self.subactions)

    @property
    def noise(self) -> int:
        """How many required 🔊 the action makes."""
        return self.subactions.count("noise")


@dataclass(frozen=True)
class Ability:
    """A character's, item's or NPC's ability.

    ``kind``: ``use_action`` (spend your action on the special action ``action``), ``once_per_heist``,
    or ``passive``. ``id`` is the slug of the printed name (shared by characters who share the ability,
    e.g. ``efficient_picker``); the rules key their behaviour on it.
    """

    id: str
    name: str
    kind: AbilityKind
    summary: str
    action: str | None = None


@dataclass(frozen=True)
class Character:
    """A character card side. ``character_class`` is the id of its amateur version (one class per heist).

    ``card`` names the physical card (each pro pair shares one double-sided card); ``upgrades`` are the
    two pro characters an amateur can level into; ``starting_item`` is an item id the pro starts with.
    """

    id: str
    name: str
    archetype: str
    character_class: str
    level: Level
    planning_memory: int
    initial_ideas: int
    default_actions: tuple[str, ...]
    abilities: tuple[Ability, ...]
    upgrades: tuple[str, ...]
    upgrades_from: str | None
    card: str
    starting_item: str | None = None


@dataclass(frozen=True)
class Skill:
    """A skill card side: the action id for each die face (``faces[0]`` is the action on a 1)."""

    id: str
    name: str
    level: Level
    faces: tuple[str, str, str, str, str, str]
    upgrades: tuple[str, ...]
    upgrades_from: str | None
    card: str
    copies: int
    good_at: tuple[str, ...] = ()
    lacks: tuple[str, ...] = ()

    def action_for(self, face: int) -> str:
        """The action id on die face ``face`` (1-6). Raises ValueError outside 1-6."""
        if not 1 <= face <= 6:
            raise ValueError(f"a die face is 1-6, not {face}")
        return self.faces[face - 1]


@dataclass(frozen=True)
class Effect:
    """One step of an event's or crisis's effect; a card's steps run in order.

    ``op`` names the step; the other fields are its arguments (unused ones keep their defaults). The
    selector words (``who``, ``where``, ``per``, ``toward``, ``needs``) are listed, with their meaning, in
    :data:`SELECTORS` and ``content/README.md``.

    - ``bag_add`` chit n: put n chits of kind ``chit`` into the security bag.
    - ``bag_upgrade`` chit: swap one ``chit`` in the bag for its 2x version (``guard2x`` ...).
    - ``alert`` n who min: raise n alerts if at least ``min`` characters match ``who``.
      ``alert`` n per: raise n alerts for every place matching ``per``.
    - ``place`` chit where: put an active ``chit`` from the supply on every tile matching ``where``.
    - ``reactivate`` chit where: matching subdued guards / unlocked locks / disabled cameras turn active.
    - ``ideas`` n who: every character matching ``who`` gains n ideas (negative n: loses them).
    - ``gift`` who pay where: a character matching ``who`` may make ``pay`` (``noise``) to give one new
      💡 to ``where`` (``self`` or ``any_character``); a choice, never forced.
    - ``transfer`` who where pay: characters matching ``who`` may pass their own ideas to a
      character matching ``where``, making ``pay`` (if set) once per idea passed.
    - ``drop_loot`` who: matching characters drop every piece of loot the objective does not ask for (cash,
      jewels, documents, USB key, keycard, item cards) on a neighbouring tile without a guard, or lose it if
      there is none.
    - ``dogs`` n where toward steps: put n guard dogs on each ``where`` tile and move each up to ``steps``
      hexes toward ``toward``.
    - ``gates`` n: remove the tiles of the next n lockdown gates, A to D (n = 0: all that remain).
    - ``gate_chit`` chit: put an active ``chit`` on the next lockdown gate still standing.
    - ``reinforcements``, ``watchtower_sweep``, ``panic``, ``escape``, ``nothing``: no arguments (see the
      card summaries).

    ``needs`` gates the step: ``previous`` (the step before changed something), ``no_alert_past`` (no
    alert has gone past this card), ``objective_met``.
    """

    op: str
    n: int = 1
    chit: str = ""
    who: str = ""
    where: str = ""
    min: int = 1
    per: str = ""
    pay: str = ""
    toward: str = ""
    steps: int = 0
    needs: str = ""


OPS: frozenset[str] = frozenset({
    "bag_add", "bag_upgrade", "alert", "place", "reactivate", "ideas", "gift", "transfer", "drop_loot",
    "dogs", "gates", "gate_chit", "reinforcements", "watchtower_sweep", "panic", "escape", "nothing",
})  # fmt: skip
SELECTORS: dict[str, dict[str, str]] = {
    "who": {
        "any": "every character (the players choose who acts)",
        "one": "one character of the players' choice",
        "adjacent_live_camera": "a character next to at least one live camera",
        "adjacent_active_guard": "a character next to at least one unsubdued guard",
        "on_external_tile": "a character on a building tile with an external side",
        "on_subdued_guard": "a character sharing a tile with a subdued guard",
        "adjacent_two_unhandled": "a character next to 2+ active security chits (guards, locks, cameras)",
        "alone": "a character with no other character on or next to its tile",
        "with_active_guard": "a character sharing a tile with an unsubdued guard",
        "plans_unrevealed": "a character with a planning token on a still-unknown security tile",
        "indoor": "a character inside the building (not on an entrance)",
        "inside": "same as indoor",
        "inside_low_ideas": "an indoor character with 2 ideas or fewer",
        "near_guard_not_near_camera": "a character on/next to a guard but not on/next to a live camera",
    },
    "where": {
        "self": "the character itself",
        "any_character": "any character",
        "same_or_adjacent_character": "a character on the same or a neighbouring tile",
        "active_guard_adjacent_character": "a tile with an unsubdued guard, next to a character",
        "disabled_camera_adjacent_disabled_camera": "a disabled camera next to another disabled camera",
        "live_camera_adjacent_character": "a tile with a live camera, next to a character",
        "lock_adjacent_character": "an unlocked lock next to a character",
        "locked_lock_adjacent_character": "a locked tile next to a character",
        "subdued_guard_with_character": "a subdued guard sharing a tile with a character",
        "character_adjacent_live_camera": "the tile of a character next to a live camera",
        "live_camera_adjacent_subdued_guard": "a live camera tile next to a subdued guard",
        "loot_tile": "a tile holding loot (the safe excepted)",
        "kennel": "the kennel tile (none on the map: the tile next to an entrance farthest from the crew)",
        "next_to_entrance": "every building tile next to an entrance",
    },
    "per": {"crowded_entrance": "an entrance holding 2 or more characters"},
    "toward": {
        "nearest_character": "the nearest character",
        "nearest_loot": "the nearest tile holding loot",
        "fewest_ideas": "the player character with the fewest ideas",
        "different_characters": "the nearest characters, a different one for each dog (nearest first)",
    },
    "needs": {
        "previous": "the step before changed something",
        "no_alert_past": "no alert has gone past this card",
        "objective_met": "the heist's objective is already met",
    },
}


@dataclass(frozen=True)
class EventCard:
    """An event or crisis card. ``group`` is its deck group (``core``, ``A``, ``B``, ``C``, ``D``, ``G``,
    ``M``, ``Z``); ``final`` marks the crises that sound the alarm (Z1, Z2)."""

    id: str
    name: str
    kind: EventKind
    group: str
    copies: int
    summary: str
    effects: tuple[Effect, ...]

    @property
    def final(self) -> bool:
        """True for the final crises, which start the escape."""
        return any(e.op == "escape" for e in self.effects)


@dataclass(frozen=True)
class Item:
    """An item card (a transferable skill). ``action`` is an action id or None; ``cost_k`` in $1k."""

    id: str
    name: str
    copies: int
    cost_k: int
    availability: Availability
    action: str | None
    abilities: tuple[Ability, ...]
    summary: str


@dataclass(frozen=True)
class Fixer:
    """A fixer: its ability and the heists whose win unlocks it (empty for the starting Old Friend)."""

    id: str
    name: str
    ability: str
    summary: str
    unlocked_by: tuple[str, ...]
    starting: bool = False


@dataclass(frozen=True)
class NpcSide:
    """One side of a non-player character card (``panicked`` for the back).

    ``actions`` are its default action ids; ``roll6_action`` is the action it gets on a rolled 6 (or
    None); ``special`` means one slot is a scenario-defined action.
    """

    id: str
    name: str
    role: NpcRole
    panicked: bool
    actions: tuple[str, ...]
    roll6_action: str | None
    abilities: tuple[Ability, ...]
    special: bool = False


@dataclass(frozen=True)
class Crew:
    """A pre-built named character: nickname, character id and two skill ids."""

    nickname: str
    character: str
    skills: tuple[str, str]
    recommended: bool = False


@dataclass(frozen=True)
class TileCode:
    """What a designer map code means (``2GL``: a blank tile holding a known guard and a lock)."""

    code: str
    name: str
    kind: TileKind | None  # None: a gap (no tile)
    chits: tuple[SecurityChit, ...] = ()
    loot: tuple[LootKind, ...] = ()
    cash_k: int = 0
    features: tuple[str, ...] = ()
    facing: Direction | None = None


@dataclass(frozen=True)
class MapTile:
    """One tile of a heist map at setup.

    ``kind``: ``blank`` (a floor tile), ``security`` (unknown security, shield side up), ``entrance``
    (outdoors; ``facing`` is the side that leads into the building), ``tunnel`` (a hex-shaped space that
    may receive an entrance during planning; not a tile otherwise). ``chits`` are security chits known at
    setup (placed active), ``loot`` and ``cash_k`` the loot lying there, ``features`` the markers:
    ``gate_a``..``gate_d``, ``watchtower``, ``reinforcements``, ``server_x``/``server_y``,
    ``remote_lock_x``/``remote_lock_y``, ``keycard_door``, ``kennel``, ``safe``, ``story`` (a story
    beacon, e.g. a hideout or the van), ``beacon``, ``pawn`` (a white pawn: where the heist's NPC
    starts or, in jail heists, a cell where a Busted character starts), ``item`` (the heist's item
    card), ``art``.
    """

    cell: Cell
    code: str
    kind: TileKind
    chits: tuple[SecurityChit, ...] = ()
    loot: tuple[LootKind, ...] = ()
    cash_k: int = 0
    features: tuple[str, ...] = ()
    facing: Direction | None = None


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: maps are loaded once
class HexMap:
    """A heist's board: pointy-top hexes on an odd-r grid (see :mod:`engine.geometry.hexgrid`).

    ``tiles`` holds every non-gap cell (entrances and tunnels included); a cell absent from it is a gap.
    """

    name: str
    width: int
    height: int
    tiles: Mapping[Cell, MapTile]

    def tile(self, cell: Cell) -> MapTile | None:
        """The tile at ``cell``, or None for a gap or a cell off the map."""
        return self.tiles.get(cell)

    @property
    def entrances(self) -> tuple[Cell, ...]:
        """The entrance/exit cells, in row-major order."""
        return tuple(c for c, t in self._ordered() if t.kind == "entrance")

    @property
    def tunnels(self) -> tuple[Cell, ...]:
        """The tunnel cells (potential entrances), in row-major order."""
        return tuple(c for c, t in self._ordered() if t.kind == "tunnel")

    def cells_with(self, feature: str) -> tuple[Cell, ...]:
        """The cells whose tile carries ``feature`` (``safe``, ``gate_a``...), in row-major order."""
        return tuple(c for c, t in self._ordered() if feature in t.features)

    def indoor_cells(self) -> tuple[Cell, ...]:
        """The building's tiles (blank and security), in row-major order."""
        return tuple(c for c, t in self._ordered() if t.kind in ("blank", "security"))

    def external_sides(self, cell: Cell, removed: frozenset[Cell] = frozenset()) -> tuple[Direction, ...]:
        """The sides of ``cell`` that face open space outside the building, in direction order.

        A side is external when its neighbour is not a building tile and that gap connects, through
        other non-building cells, to the area around the map (an enclosed hole in the middle is not
        outside). Entrances and tunnels count as outside. ``removed`` lists building cells gone in play
        (closed lockdown gates). Returns () for a cell that is not a building tile.
        """
        outside = _outside(self, removed)
        building = self._building(removed)
        if cell not in building:
            return ()
        return tuple(d for d, nb in zip(DIRECTIONS, neighbours(cell), strict=True) if nb in outside)

    def _building(self, removed: frozenset[Cell]) -> frozenset[Cell]:
        return frozenset(c for c in self.indoor_cells() if c not in removed)

    def _ordered(self) -> list[tuple[Cell, MapTile]]:
        return sorted(self.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0]))


@cache
def _outside(m: HexMap, removed: frozenset[Cell]) -> frozenset[Cell]:
    building = m._building(removed)
    # Flood the non-building cells from a ring just beyond the map's bounding box.
    inside_box = {(c, r) for c in range(-1, m.width + 1) for r in range(-1, m.height + 1)}
    start = [c for c in inside_box if c[0] in (-1, m.width) or c[1] in (-1, m.height)]
    seen = set(start)
    stack = list(start)
    while stack:
        cur = stack.pop()
        for nb in neighbours(cur):
            if nb in inside_box and nb not in seen and nb not in building:
                seen.add(nb)
                stack.append(nb)
    return frozenset(seen)


@dataclass(frozen=True)
class Objective:
    """What a heist asks. All listed conditions must hold at the end of the escape.

    ``docs``, ``jewels``, ``cash_k``: loot to get outdoors; ``npc_escapes``: the heist's NPC must reach
    an exit; ``characters_escape``: at least that many player characters must escape; ``safe``: the safe
    must be cracked; ``special``: a scenario condition the rules handle by id (``docs_in_hideout``,
    ``prisoner_before_van``); ``summary`` is the player-facing text.
    """

    summary: str
    docs: int = 0
    jewels: int = 0
    cash_k: int = 0
    npc_escapes: bool = False
    characters_escape: int = 0
    safe: bool = False
    special: str = ""


@dataclass(frozen=True)
class Safe:
    """A heist's safe: the 🧩 needed to open it and what lies inside."""

    cracks: int
    loot: tuple[LootKind, ...] = ()
    cash_k: int = 0


@dataclass(frozen=True)
class SpecialRule:
    """A heist-specific rule: id (the rules key on it), name and a player-facing summary."""

    id: str
    name: str
    summary: str


@dataclass(frozen=True, eq=False)  # hashed by identity (it holds dicts): loaded once, usable as a cache key
class Heist:
    """A River City heist.

    ``modules`` are the optional rule modules in play (``remote_locks``, ``guard_dogs``, ``watchtower``,
    ``reinforcements``, ``lockdown_gates``, ``keycard``, ``usb``, ``tunnels``, ``npc``, ``safe``,
    ``breakout``, ``moving_guards``). ``bag`` counts the chits in the security bag by kind.
    ``event_deck`` lists card ids top to bottom. ``entrance_limit`` is how many characters may start on
    one entrance (None: no limit). ``item`` is the heist's item card (found on the map's ``item`` tile
    when it has one). ``fixer`` is unlocked by winning. ``npc`` is the front side id of the heist's
    non-player character card (``hostage``, ``freed_prisoner``, ``guide``), placed on the map's ``pawn``
    tile when it has one.
    """

    id: str
    name: str
    location: str
    thread: str
    difficulty: Difficulty
    fixer: str | None
    item: str | None
    objective: Objective
    safe: Safe | None
    reward_cash_k: int
    modules: tuple[Module, ...]
    rules: tuple[SpecialRule, ...]
    bag: Mapping[str, int]
    event_deck: tuple[str, ...]
    map: HexMap
    entrance_limit: int | None = 2
    npc: str | None = None

    @property
    def bag_total(self) -> int:
        """How many chits the security bag holds at setup."""
        return sum(self.bag.values())


@dataclass(frozen=True, eq=False)
class HeistContent:
    """All heist content, by id. Dicts keep the source order (heists in booklet order)."""

    subactions: Mapping[SubAction, SubActionInfo]
    actions: Mapping[str, Action]
    abilities: Mapping[str, Ability]
    characters: Mapping[str, Character]
    skills: Mapping[str, Skill]
    events: Mapping[str, EventCard]
    items: Mapping[str, Item]
    fixers: Mapping[str, Fixer]
    npcs: Mapping[str, NpcSide]
    crews: tuple[Crew, ...]
    tile_codes: Mapping[str, TileCode]
    heists: Mapping[str, Heist]

    def action(self, action_id: str) -> Action:
        """The action with this id. Raises ContentError if unknown."""
        try:
            return self.actions[action_id]
        except KeyError:
            raise ContentError(f"unknown action {action_id!r}") from None

    def npc_back(self, npc_id: str) -> NpcSide:
        """The panicked side of the NPC card whose front is ``npc_id``. Raises ContentError if none."""
        front = self.npcs[npc_id]
        for side in self.npcs.values():
            if side.role == front.role and side.panicked:
                return side
        raise ContentError(f"NPC {npc_id!r} has no panicked side")


def load_content() -> HeistContent:
    """All heist content, loaded and cross-checked once (cached). Raises ContentError on malformed data."""
    return _load()


def _read(name: str) -> Any:
    try:
        text = resources.files("engine.rulesets.heist").joinpath("content", name).read_text("utf-8")
    except FileNotFoundError:
        raise ContentError(f"{name}: missing content file") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{name}:{exc.lineno}: {exc.msg}") from exc


def _lit(value: Any, lit: Any, where: str) -> Any:
    """``value`` if it is one of the Literal type's values, else ContentError."""
    if value not in get_args(lit):
        raise ContentError(f"{where}: {value!r} is not one of {', '.join(map(str, get_args(lit)))}")
    return value


def _ref(value: Any, known: Mapping[str, Any], what: str, where: str) -> str:
    if not isinstance(value, str) or value not in known:
        raise ContentError(f"{where}: unknown {what} {value!r}")
    return value


def _int(value: Any, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ContentError(f"{where}: expected a whole number >= {low}, got {value!r}")
    return value


def _subactions(values: Any, where: str) -> tuple[SubAction, ...]:
    return tuple(cast(SubAction, _lit(v, SubAction, where)) for v in values)


def _abilities(ids: Any, abilities: Mapping[str, Ability], where: str) -> tuple[Ability, ...]:
    return tuple(abilities[_ref(a, abilities, "ability", where)] for a in ids)


def _effect(d: dict[str, Any], where: str) -> Effect:
    if d.get("op") not in OPS:
        raise ContentError(f"{where}: unknown effect op {d.get('op')!r}")
    for key in ("who", "where", "per", "toward", "needs"):
        if d.get(key) and d[key] not in SELECTORS[key]:
            raise ContentError(f"{where}: unknown {key} selector {d[key]!r}")
    unknown = set(d) - {f for f in Effect.__dataclass_fields__}
    if unknown:
        raise ContentError(f"{where}: unknown effect field(s) {sorted(unknown)}")
    return Effect(**d)


def _tile_code(d: dict[str, Any]) -> TileCode:
    where = f"tile_codes.json: {d.get('code')}"
    kind = d.get("kind")
    return TileCode(
        code=d["code"], name=d["name"],
        kind=None if kind is None else cast(TileKind, _lit(kind, TileKind, where)),
        chits=tuple(cast(SecurityChit, _lit(c, SecurityChit, where)) for c in d.get("chits", ())),
        loot=tuple(cast(LootKind, _lit(c, LootKind, where)) for c in d.get("loot", ())),
        cash_k=_int(d.get("cash_k", 0), where), features=tuple(d.get("features", ())),
        facing=cast(Direction, _lit(d["facing"], Direction, where)) if d.get("facing") else None,
    )  # fmt: skip


def _hex_map(d: dict[str, Any], codes: Mapping[str, TileCode], where: str) -> HexMap:
    width, height = _int(d["width"], where, 1), _int(d["height"], where, 1)
    if width > 26:
        raise ContentError(f"{where}: maps are at most 26 columns wide (a-z)")
    rows = [str(r).split() for r in d["rows"]]
    if len(rows) != height or any(len(r) != width for r in rows):
        raise ContentError(f"{where}: map rows do not make a {width}x{height} grid")
    tiles: dict[Cell, MapTile] = {}
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            tc = codes.get(code)
            if tc is None:
                raise ContentError(f"{where}: row {r + 1} column {c + 1}: unknown tile code {code!r}")
            if tc.kind is None:
                continue
            tiles[(c, r)] = MapTile(
                cell=(c, r), code=code, kind=tc.kind, chits=tc.chits, loot=tc.loot, cash_k=tc.cash_k,
                features=tc.features, facing=tc.facing,
            )  # fmt: skip
    hm = HexMap(name=str(d["name"]), width=width, height=height, tiles=tiles)
    for cell in hm.entrances:
        facing = tiles[cell].facing
        if facing is None or hm.tile(step(cell, facing)) is None:
            raise ContentError(f"{where}: entrance {cell_name(cell)} does not face a tile")
    if not hm.entrances and not hm.tunnels:
        raise ContentError(f"{where}: the map has no entrance")
    return hm


def _heist(
    d: dict[str, Any], codes: Mapping[str, TileCode], refs: dict[str, Mapping[str, Any]], default_deck: str
) -> Heist:
    where = f"heists.json: {d.get('id')}"
    o = d["objective"]
    objective = Objective(
        summary=o["summary"], docs=_int(o.get("docs", 0), where), jewels=_int(o.get("jewels", 0), where),
        cash_k=_int(o.get("cash_k", 0), where), npc_escapes=bool(o.get("npc_escapes", False)),
        characters_escape=_int(o.get("characters_escape", 0), where), safe=bool(o.get("safe", False)),
        special=o.get("special", ""),
    )  # fmt: skip
    sd = d.get("safe")
    safe = None
    if sd is not None:
        safe = Safe(
            cracks=_int(sd["cracks"], where, 1),
            loot=tuple(cast(LootKind, _lit(x, LootKind, where)) for x in sd.get("loot", ())),
            cash_k=_int(sd.get("cash_k", 0), where),
        )
    bag = {cast(str, _lit(k, BagChit, where)): _int(v, where) for k, v in d["bag"].items()}
    deck = tuple(_ref(c, refs["events"], "event card", where) for c in d["event_deck"])
    hm = _hex_map(d["map"], codes, where)
    if safe is not None and not hm.cells_with("safe"):
        raise ContentError(f"{where}: the heist has a safe but its map shows none")
    if objective.safe and safe is None:
        raise ContentError(f"{where}: the objective needs a safe the heist does not have")
    limit = d.get("entrance_limit", 2)
    return Heist(
        id=d["id"], name=d["name"], location=d["location"], thread=d["thread"],
        difficulty=cast(Difficulty, _lit(d["difficulty"], Difficulty, where)),
        fixer=_ref(d["fixer"], refs["fixers"], "fixer", where) if d.get("fixer") else None,
        item=_ref(d["item"], refs["items"], "item", where) if d.get("item") else None,
        objective=objective, safe=safe, reward_cash_k=_int(d.get("reward_cash_k", 0), where),
        modules=tuple(cast(Module, _lit(m, Module, where)) for m in d["modules"]),
        rules=tuple(SpecialRule(r["id"], r["name"], r["summary"]) for r in d.get("rules", ())),
        bag=bag, event_deck=deck or _expand_deck(default_deck), map=hm,
        entrance_limit=None if limit is None else _int(limit, where, 1),
        npc=_ref(d["npc"], refs["npcs"], "NPC", where) if d.get("npc") else None,
    )  # fmt: skip


def _expand_deck(text: str) -> tuple[str, ...]:
    """``"1-3,Z1"`` -> ``("1", "2", "3", "Z1")``."""
    out: list[str] = []
    for part in text.split(","):
        lo, sep, hi = part.partition("-")
        if sep and lo.isdigit() and hi.isdigit():
            out.extend(str(i) for i in range(int(lo), int(hi) + 1))
        else:
            out.append(part)
    return tuple(out)


@cache
def _load() -> HeistContent:
    try:
        return _build()
    except (KeyError, TypeError, ValueError) as exc:
        raise ContentError(f"heist content is malformed: {exc!r}") from exc


def _build() -> HeistContent:
    subactions = {}
    for d in _read("subactions.json")["subactions"]:
        sid = cast(SubAction, _lit(d["id"], SubAction, "subactions.json"))
        if SYMBOLS.get(d["symbol"]) != sid:
            raise ContentError(f"subactions.json: {sid} has symbol {d['symbol']!r}")
        subactions[sid] = SubActionInfo(sid, d["symbol"], d["name"], bool(d["required"]), d["summary"])
    if set(subactions) != set(get_args(SubAction)):
        raise ContentError("subactions.json: sub-actions missing")

    abilities: dict[str, Ability] = {}
    for d in _read("abilities.json")["abilities"]:
        where = f"abilities.json: {d.get('id')}"
        abilities[d["id"]] = Ability(
            id=d["id"], name=d["name"], kind=cast(AbilityKind, _lit(d["kind"], AbilityKind, where)),
            summary=d["summary"], action=d.get("action"),
        )  # fmt: skip

    actions: dict[str, Action] = {}
    for d in _read("actions.json")["actions"]:
        where = f"actions.json: {d.get('id')}"
        if d["id"] in actions:
            raise ContentError(f"{where}: duplicate id")
        kind = cast(ActionKind, _lit(d["kind"], ActionKind, where))
        subs = _subactions(d["subactions"], where)
        if (kind == "plain") != bool(subs):
            raise ContentError(f"{where}: plain actions need sub-actions, special ones none")
        ability = _ref(d["ability"], abilities, "ability", where) if d.get("ability") else None
        if kind == "special" and ability is None:
            raise ContentError(f"{where}: a special action must name its ability")
        actions[d["id"]] = Action(
            id=d["id"], name=d["name"], kind=kind, subactions=subs, category=d.get("category", ""),
            ability=ability, summary=d.get("summary", ""),
            origin=cast(ActionOrigin, _lit(d.get("origin", "card"), ActionOrigin, where)),
        )  # fmt: skip
    for a in abilities.values():
        if a.action is not None:
            _ref(a.action, actions, "action", f"abilities.json: {a.id}")

    characters: dict[str, Character] = {}
    for d in _read("characters.json")["characters"]:
        where = f"characters.json: {d.get('id')}"
        characters[d["id"]] = Character(
            id=d["id"], name=d["name"], archetype=d["archetype"], character_class=d["character_class"],
            level=cast(Level, _lit(d["level"], Level, where)),
            planning_memory=_int(d["planning_memory"], where, 1), initial_ideas=_int(d["initial_ideas"], where),
            default_actions=tuple(_ref(a, actions, "action", where) for a in d["default_actions"]),
            abilities=_abilities(d["abilities"], abilities, where), upgrades=tuple(d["upgrades"]),
            upgrades_from=d.get("upgrades_from"), card=d["card"], starting_item=d.get("starting_item"),
        )  # fmt: skip

    skills: dict[str, Skill] = {}
    for d in _read("skills.json")["skills"]:
        where = f"skills.json: {d.get('id')}"
        faces = tuple(_ref(a, actions, "action", where) for a in d["faces"])
        if len(faces) != 6:
            raise ContentError(f"{where}: a skill needs 6 faces, not {len(faces)}")
        skills[d["id"]] = Skill(
            id=d["id"], name=d["name"], level=cast(Level, _lit(d["level"], Level, where)),
            faces=(faces[0], faces[1], faces[2], faces[3], faces[4], faces[5]),
            upgrades=tuple(d["upgrades"]), upgrades_from=d.get("upgrades_from"), card=d["card"],
            copies=_int(d["copies"], where, 1), good_at=tuple(d.get("good_at", ())), lacks=tuple(d.get("lacks", ())),
        )  # fmt: skip

    events: dict[str, EventCard] = {}
    for d in _read("events.json")["events"]:
        where = f"events.json: {d.get('id')}"
        events[d["id"]] = EventCard(
            id=d["id"], name=d["name"], kind=cast(EventKind, _lit(d["kind"], EventKind, where)),
            group=d["group"], copies=_int(d["copies"], where, 1), summary=d["summary"],
            effects=tuple(_effect(e, where) for e in d["effects"]),
        )  # fmt: skip

    items: dict[str, Item] = {}
    for d in _read("items.json")["items"]:
        where = f"items.json: {d.get('id')}"
        abl = _abilities(d["abilities"], abilities, where)
        items[d["id"]] = Item(
            id=d["id"], name=d["name"], copies=_int(d["copies"], where, 1), cost_k=_int(d["cost_k"], where),
            availability=cast(Availability, _lit(d["availability"], Availability, where)),
            action=_ref(d["action"], actions, "action", where) if d.get("action") else None,
            abilities=abl, summary=" ".join(a.summary for a in abl),
        )  # fmt: skip

    npcs: dict[str, NpcSide] = {}
    for d in _read("npcs.json")["npcs"]:
        where = f"npcs.json: {d.get('id')}"
        npcs[d["id"]] = NpcSide(
            id=d["id"], name=d["name"], role=cast(NpcRole, _lit(d["role"], NpcRole, where)),
            panicked=bool(d["panicked"]), actions=tuple(_ref(a, actions, "action", where) for a in d["actions"]),
            roll6_action=_ref(d["roll6_action"], actions, "action", where) if d.get("roll6_action") else None,
            abilities=_abilities(d["abilities"], abilities, where), special=bool(d.get("special", False)),
        )  # fmt: skip

    codes = {d["code"]: _tile_code(d) for d in _read("tile_codes.json")["tile_codes"]}
    hdata = _read("heists.json")
    fixer_data = _read("fixers.json")["fixers"]
    refs: dict[str, Mapping[str, Any]] = {
        "events": events, "items": items, "npcs": npcs, "fixers": {f["id"]: f for f in fixer_data},
    }  # fmt: skip
    heists = {d["id"]: _heist(d, codes, refs, hdata["default_event_deck"]) for d in hdata["heists"]}

    fixers: dict[str, Fixer] = {}
    for d in fixer_data:
        where = f"fixers.json: {d.get('id')}"
        fixers[d["id"]] = Fixer(
            id=d["id"], name=d["name"], ability=d["ability"], summary=d["summary"],
            unlocked_by=tuple(_ref(h, heists, "heist", where) for h in d["unlocked_by"]),
            starting=bool(d.get("starting", False)),
        )  # fmt: skip

    crews = []
    for d in _read("crews.json")["crews"]:
        where = f"crews.json: {d.get('nickname')}"
        s1, s2 = (_ref(s, skills, "skill", where) for s in d["skills"])
        crews.append(Crew(d["nickname"], _ref(d["character"], characters, "character", where), (s1, s2),
                          bool(d.get("recommended", False))))  # fmt: skip

    for c in characters.values():
        where = f"characters.json: {c.id}"
        for x in (*c.upgrades, *([c.upgrades_from] if c.upgrades_from else []), c.character_class):
            _ref(x, characters, "character", where)
        if c.starting_item:
            _ref(c.starting_item, items, "item", where)
    for s in skills.values():
        for x in (*s.upgrades, *([s.upgrades_from] if s.upgrades_from else [])):
            _ref(x, skills, "skill", f"skills.json: {s.id}")
    return HeistContent(
        subactions=subactions, actions=actions, abilities=abilities, characters=characters, skills=skills,
        events=events, items=items, fixers=fixers, npcs=npcs, crews=tuple(crews), tile_codes=codes,
        heists=heists,
    )  # fmt: skip
