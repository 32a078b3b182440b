"""Skirm content: factions (units, weapons, skills), battle maps, missions and ready-made squads.

Everything is read from ``content/*.json`` and validated at load; a ContentError names the file and the
entry at fault.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import ContentError
from engine.geometry.square import Cell, EdgeKey, cell_name, edge_key, parse_cell

SIZE = 12
UNIT_RULES = frozenset(
    [
        "2MC",
        "2RC",
        "BLS",
        "BRU",
        "CAM",
        "CMD",
        "CTR",
        "DOD",
        "INF",
        "NEQ",
        "NMB",
        "PAR",
        "PRC",
        "REP",
        "RGR",
        "SWF",
        "TEN",
        "Tough",
        "TMP",
        "UNQ",
    ]
)
WEAPON_RULES = frozenset(
    [
        "+SK",
        "2MC",
        "2RC",
        "ARP",
        "BRU",
        "CHN",
        "HVY",
        "LIM",
        "LNR",
        "MCR",
        "PRC",
        "PSH",
        "RLT",
        "RND",
        "STN",
        "UNQ",
        "XPL",
    ]
)
SKILL_EFFECTS = ("raise", "hex", "surge", "ward")
EVENT_EFFECTS = ("calm", "fog", "mud", "supply", "lockdown", "bounty", "reinforce")
MISSION_ACTIONS = ("plant", "upload", "sabotage")


@dataclass(frozen=True)
class Weapon:
    """A weapon profile: melee or ranged, rate of attack, damage, EP cost and special rules."""

    id: str
    name: str
    faction: str
    ranged: bool
    roa: int
    dam: int
    ep: int
    rules: frozenset[str]
    range: int = 0  # RGx
    skill: int = 0  # SKx (0: use the unit's skill)

    def has(self, rule: str) -> bool:
        """Whether the weapon carries this special rule code."""
        return rule in self.rules

    @property
    def once(self) -> bool:
        """Whether a squad may carry this weapon only once (UNQ or a name ending in '*')."""
        return "UNQ" in self.rules or self.name.endswith("*")


@dataclass(frozen=True)
class Skill:
    """A skill: paid in action points (``act``) or Tactical Orders only (``to``), with one effect."""

    id: str
    name: str
    faction: str
    pay: str  # "act" | "to"
    cost: int
    effect: str
    ep: int
    text: str

    @property
    def once(self) -> bool:
        """Whether a squad may take this skill only once (its name ends in '*')."""
        return self.name.endswith("*")


@dataclass(frozen=True)
class UnitType:
    """A unit's stat card."""

    id: str
    name: str
    faction: str
    act: int
    arm: int
    msk: int
    rsk: int
    ep: int
    rules: frozenset[str]
    leader: int  # LDx
    leap: int  # LPx
    loadout: tuple[str, ...]
    options: tuple[str, ...]
    skills: tuple[str, ...]

    def has(self, rule: str) -> bool:
        """Whether the unit carries this special rule code (LD/LP are read from ``leader``/``leap``)."""
        return rule in self.rules

    @property
    def once(self) -> bool:
        """Whether a squad may field this unit only once (UNQ or a name ending in '*')."""
        return "UNQ" in self.rules or self.name.endswith("*")


@dataclass(frozen=True)
class Faction:
    """A faction: its name, colour and what its squads may field."""

    id: str
    name: str
    colour: str
    about: str
    units: dict[str, UnitType]
    weapons: dict[str, Weapon]
    skills: dict[str, Skill]


@dataclass(frozen=True)
class BattleMap:
    """A 12x12 battle map: heights, terrain marks and edge features."""

    id: str
    name: str
    about: str
    height: dict[Cell, int]
    terrain: dict[Cell, str]  # '.' open, '~' difficult, '/' stairs, 'X' solid
    low: frozenset[EdgeKey]
    high: frozenset[EdgeKey]
    doors: tuple[EdgeKey, ...]
    climb: frozenset[EdgeKey]


@dataclass(frozen=True)
class Event:
    """One line of a mission's event table."""

    roll: int
    name: str
    effect: str


@dataclass(frozen=True)
class Mission:
    """A mission: its map, deployment zones, objectives, markers, mission actions and events."""

    id: str
    name: str
    map: BattleMap
    summary: str
    zones: dict[str, frozenset[Cell]]
    objectives: tuple[Cell, ...]
    markers: tuple[Cell, ...]
    actions: tuple[str, ...]
    events: dict[int, Event]


def _read(name: str) -> Any:
    text = resources.files("engine.rulesets.skirm").joinpath("content", name).read_text("utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{name}:{exc.lineno}: {exc.msg}") from exc


def _cell(text: str, where: str) -> Cell:
    try:
        return parse_cell(text, SIZE, SIZE)
    except ValueError as exc:
        raise ContentError(f"{where}: {exc}") from exc


def _edge(text: str, where: str) -> EdgeKey:
    parts = text.split("|")
    if len(parts) != 2:
        raise ContentError(f"{where}: '{text}' is not an edge like c4|c5")
    a, b = _cell(parts[0], where), _cell(parts[1], where)
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise ContentError(f"{where}: {text} is not two squares sharing a side")
    return edge_key(a, b)


def _rect(text: str, where: str) -> frozenset[Cell]:
    m = re.fullmatch(r"([a-l]\d+)-([a-l]\d+)", text)
    if not m:
        raise ContentError(f"{where}: zone '{text}' is not a rectangle like a1-l2")
    a, b = _cell(m.group(1), where), _cell(m.group(2), where)
    return frozenset(
        (x, y)
        for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1)
    )


def _number(rules: list[str], prefix: str) -> int:
    for r in rules:
        if r.startswith(prefix) and r[len(prefix) :].isdigit():
            return int(r[len(prefix) :])
    return 0


@cache
def factions() -> dict[str, Faction]:
    """Every faction by id. Raises ContentError on malformed data (unknown rule, gear or skill)."""
    data = _read("factions.json")
    out: dict[str, Faction] = {}
    for f in data["factions"]:
        fid = f["id"]
        weapons: dict[str, Weapon] = {}
        for w in f["weapons"]:
            where = f"factions.json: {fid} weapon {w.get('id')}"
            rules = list(w["rules"])
            for r in rules:
                if r not in WEAPON_RULES and not re.fullmatch(r"(RG|SK)\d+", r):
                    raise ContentError(f"{where}: unknown weapon rule {r!r}")
            ranged = w["kind"] == "ranged"
            if w["kind"] not in ("ranged", "melee"):
                raise ContentError(f"{where}: kind must be ranged or melee")
            rng = _number(rules, "RG")
            if ranged and rng < 2:
                raise ContentError(f"{where}: a ranged weapon needs RGx with x >= 2")
            weapons[w["id"]] = Weapon(
                id=w["id"], name=w["name"], faction=fid, ranged=ranged, roa=int(w["roa"]), dam=int(w["dam"]),
                ep=int(w["ep"]), rules=frozenset(r for r in rules if not re.fullmatch(r"(RG|SK)\d+", r)),
                range=rng, skill=_number(rules, "SK"),
            )  # fmt: skip
        skills: dict[str, Skill] = {}
        for s in f["skills"]:
            where = f"factions.json: {fid} skill {s.get('id')}"
            if s["effect"] not in SKILL_EFFECTS:
                raise ContentError(f"{where}: unknown effect {s['effect']!r}")
            (pay, cost), *_ = s["cost"].items()
            if pay not in ("act", "to"):
                raise ContentError(f"{where}: cost must be in act or to")
            skills[s["id"]] = Skill(
                s["id"], s["name"], fid, pay, int(cost), s["effect"], int(s["ep"]), s["text"]
            )
        units: dict[str, UnitType] = {}
        for u in f["units"]:
            where = f"factions.json: {fid} unit {u.get('id')}"
            rules = list(u["rules"])
            for r in rules:
                if r not in UNIT_RULES and not re.fullmatch(r"(LD|LP)\d+", r):
                    raise ContentError(f"{where}: unknown unit rule {r!r}")
            for g in (*u["loadout"], *u["options"]):
                if g not in weapons:
                    raise ContentError(f"{where}: unknown weapon {g!r}")
            for s in u["skills"]:
                if s not in skills:
                    raise ContentError(f"{where}: unknown skill {s!r}")
            units[u["id"]] = UnitType(
                id=u["id"], name=u["name"], faction=fid, act=int(u["act"]), arm=int(u["arm"]),
                msk=int(u["msk"]), rsk=int(u["rsk"]), ep=int(u["ep"]),
                rules=frozenset(r for r in rules if not re.fullmatch(r"(LD|LP)\d+", r)),
                leader=_number(rules, "LD"), leap=_number(rules, "LP"), loadout=tuple(u["loadout"]),
                options=tuple(u["options"]), skills=tuple(u["skills"]),
            )  # fmt: skip
        out[fid] = Faction(fid, f["name"], f["colour"], f["about"], units, weapons, skills)
    return out


def weapon(wid: str) -> Weapon:
    """A weapon by id, any faction. Raises KeyError."""
    return _all_weapons()[wid]


def skill(sid: str) -> Skill:
    """A skill by id, any faction. Raises KeyError."""
    return _all_skills()[sid]


def unit_type(tid: str) -> UnitType:
    """A unit type by id, any faction. Raises KeyError."""
    return _all_units()[tid]


@cache
def _all_weapons() -> dict[str, Weapon]:
    return {k: v for f in factions().values() for k, v in f.weapons.items()}


@cache
def _all_skills() -> dict[str, Skill]:
    return {k: v for f in factions().values() for k, v in f.skills.items()}


@cache
def _all_units() -> dict[str, UnitType]:
    return {k: v for f in factions().values() for k, v in f.units.items()}


@cache
def maps() -> dict[str, BattleMap]:
    """Every battle map by id. Raises ContentError on malformed data."""
    data = _read("maps.json")
    out: dict[str, BattleMap] = {}
    for m in data["maps"]:
        where = f"maps.json: map {m.get('id')}"
        if len(m["rows"]) != SIZE:
            raise ContentError(f"{where}: needs {SIZE} rows")
        height: dict[Cell, int] = {}
        terrain: dict[Cell, str] = {}
        for y, row in enumerate(m["rows"]):
            cells = row.split()
            if len(cells) != SIZE:
                raise ContentError(f"{where}: row {y + 1} needs {SIZE} cells")
            for x, c in enumerate(cells):
                if len(c) != 2 or not c[0].isdigit() or c[1] not in ".~/X":
                    raise ContentError(
                        f"{where}: row {y + 1} cell {cell_name((x, y))} '{c}' is not height+mark"
                    )
                height[(x, y)] = int(c[0])
                terrain[(x, y)] = c[1]
        edges = {k: [_edge(e, where) for e in m[k]] for k in ("low", "high", "doors", "climb")}
        seen: set[EdgeKey] = set()
        for k in ("low", "high", "doors"):
            for e in edges[k]:
                if e in seen:
                    raise ContentError(f"{where}: edge {cell_name(e[0])}|{cell_name(e[1])} listed twice")
                seen.add(e)
        out[m["id"]] = BattleMap(
            id=m["id"], name=m["name"], about=m["about"], height=height, terrain=terrain,
            low=frozenset(edges["low"]), high=frozenset(edges["high"]), doors=tuple(edges["doors"]),
            climb=frozenset(edges["climb"]),
        )  # fmt: skip
    return out


@cache
def missions() -> dict[str, Mission]:
    """Every mission by id, the default first. Raises ContentError on malformed data."""
    data = _read("missions.json")
    boards = maps()
    out: dict[str, Mission] = {}
    for m in data["missions"]:
        where = f"missions.json: mission {m.get('id')}"
        if m["map"] not in boards:
            raise ContentError(f"{where}: unknown map {m['map']!r}")
        bm = boards[m["map"]]
        zones = {k: _rect(v, where) for k, v in m["zones"].items()}
        if len(zones) != 2:
            raise ContentError(f"{where}: needs exactly two deployment zones")
        for z in zones.values():
            if any(bm.terrain[c] == "X" for c in z):
                raise ContentError(f"{where}: a deployment zone holds a solid square")
        for a in m["actions"]:
            if a not in MISSION_ACTIONS:
                raise ContentError(f"{where}: unknown mission action {a!r}")
        events = {}
        for e in m["events"]:
            if e["effect"] not in EVENT_EFFECTS:
                raise ContentError(f"{where}: unknown event effect {e['effect']!r}")
            events[int(e["roll"])] = Event(int(e["roll"]), e["name"], e["effect"])
        if sorted(events) != [1, 2, 3, 4, 5, 6]:
            raise ContentError(f"{where}: the event table needs one entry for each roll 1-6")
        objectives = tuple(_cell(c, where) for c in m["objectives"])
        markers = tuple(_cell(c, where) for c in m["markers"])
        for c in (*objectives, *markers):
            if bm.terrain[c] == "X":
                raise ContentError(f"{where}: {cell_name(c)} is solid")
        out[m["id"]] = Mission(
            id=m["id"], name=m["name"], map=bm, summary=m["summary"], zones=zones, objectives=objectives,
            markers=markers, actions=tuple(m["actions"]), events=events,
        )  # fmt: skip
    return out


@cache
def ready_squads() -> dict[str, dict[str, Any]]:
    """The ready-made squads by id (one per faction), as squad records."""
    data = _read("squads.json")
    return {s["id"]: s for s in data["squads"]}
