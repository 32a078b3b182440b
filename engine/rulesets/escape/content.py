"""ESCAPE content: character cards, equipment, scenarios and the campaign, loaded from ``content/``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import ContentError
from engine.rulesets.escape.board import Board, load_board

FACTIONS = ("resistance", "isc")
FACTION_NAMES = {"resistance": "Resistance", "isc": "I.S.C."}
SKILLS = (
    "seasoned_veteran", "armor", "attraction", "digging_arm", "scrambler", "anti_gravity", "leadership",
    "robot", "burrowing", "elusive", "drill", "hypnosis", "electric_bludgeon", "otaku", "armless", "pilot",
)  # fmt: skip
SKILL_NAMES = {
    "seasoned_veteran": "Seasoned veteran", "armor": "Armor", "attraction": "Attraction",
    "digging_arm": "Digging arm", "scrambler": "Scrambler", "anti_gravity": "Anti-gravity field",
    "leadership": "Leadership", "robot": "Robot", "burrowing": "Burrowing", "elusive": "Elusive",
    "drill": "Drill", "hypnosis": "Hypnosis", "electric_bludgeon": "Electric bludgeon", "otaku": "Otaku",
    "armless": "Armless", "pilot": "Pilot",
}  # fmt: skip


@dataclass(frozen=True)
class Ranged:
    """A ranged weapon printed on a card: Range (X) and Power (Y)."""

    name: str
    range: int
    power: int


@dataclass(frozen=True)
class Profile:
    """A character card."""

    id: str
    name: str
    faction: str
    mvt: int
    cbt: int
    intel: int
    life: int
    rank: int
    skills: dict[str, int]
    ranged: Ranged | None = None


@dataclass(frozen=True)
class Item:
    """An equipment kind."""

    id: str
    name: str
    faction: str | None
    pool: int
    range: int = 0
    power: int = 0


@dataclass(frozen=True)
class Scenario:
    """A scenario: board, turn limit, tokens, deployment, exits, victory conditions, campaign links."""

    id: str
    number: int
    name: str
    summary: str
    board: Board
    turns: int
    crates: int
    equipment: int
    objectives: tuple[int, ...]
    deploy: dict[str, dict[str, Any]]
    exits: tuple[int, ...]
    victory: dict[str, dict[str, Any]]
    next: dict[str, str | None] = field(default_factory=dict)
    # "objective": a Resistance character may leave by an exit airlock only carrying an objective token.
    exit_needs: str = ""


def _read(name: str) -> Any:
    text = resources.files("engine.rulesets.escape").joinpath("content", name).read_text("utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{name}:{exc.lineno}: {exc.msg}") from exc


@cache
def profiles() -> dict[str, Profile]:
    """Every character card by id. Raises ContentError on malformed data."""
    data = _read("characters.json")
    out: dict[str, Profile] = {}
    for i, c in enumerate(data["characters"]):
        where = f"characters.json: character {i + 1} ({c.get('id')})"
        if c["faction"] not in FACTIONS:
            raise ContentError(f"{where}: unknown faction {c['faction']!r}")
        for s in c["skills"]:
            if s not in SKILLS:
                raise ContentError(f"{where}: unknown skill {s!r}")
        r = c.get("ranged")
        out[c["id"]] = Profile(
            id=c["id"], name=c["name"], faction=c["faction"], mvt=int(c["mvt"]), cbt=int(c["cbt"]),
            intel=int(c["int"]), life=int(c["life"]), rank=int(c["rank"]), skills=dict(c["skills"]),
            ranged=Ranged(r["name"], int(r["range"]), int(r["power"])) if r else None,
        )  # fmt: skip
    return out


@cache
def default_lineups() -> dict[str, tuple[str, ...]]:
    """The default line-up of each faction."""
    data = _read("characters.json")
    return {k: tuple(v) for k, v in data["lineups"].items()}


@cache
def items() -> dict[str, Item]:
    """Every equipment kind by id (the crate excluded)."""
    data = _read("equipment.json")
    return {
        k: Item(k, v["name"], v["faction"], int(v["pool"]), int(v.get("range", 0)), int(v.get("power", 0)))
        for k, v in data["items"].items()
    }


CRATE_RANGE = 3
CRATE_POWER = 0


@cache
def scenarios() -> dict[str, Scenario]:
    """Every scenario by id, in campaign order. Raises ContentError on malformed data."""
    data = _read("scenarios.json")
    out: dict[str, Scenario] = {}
    boards: dict[str, Board] = {}
    for s in data["scenarios"]:
        board = boards.setdefault(s["map"], load_board(s["map"]))
        for side, d in s["deploy"].items():
            if d["mode"] == "position" and d["room"] not in board.room_names:
                raise ContentError(f"scenarios.json: {s['id']}: {side} deploys in unknown room {d['room']!r}")
            if d["mode"] == "entry" and any(a not in board.airlocks for a in d["airlocks"]):
                raise ContentError(f"scenarios.json: {s['id']}: {side} enters by an unknown airlock")
        out[s["id"]] = Scenario(
            id=s["id"], number=int(s["number"]), name=s["name"], summary=s["summary"], board=board,
            turns=int(s["turns"]), crates=int(s["crates"]), equipment=int(s["equipment"]),
            objectives=tuple(s["objectives"]), deploy=s["deploy"], exits=tuple(s["exits"]),
            victory=s["victory"], next=s["next"], exit_needs=s.get("exit_needs", ""),
        )  # fmt: skip
        if out[s["id"]].exit_needs not in ("", "objective"):
            raise ContentError(f"scenarios.json: {s['id']}: unknown exit_needs {s['exit_needs']!r}")
        for side, v in s["victory"].items():
            if v.get("when", "any_turn") not in ("any_turn", "last_turn"):
                raise ContentError(
                    f"scenarios.json: {s['id']}: {side} victory has unknown when {v['when']!r}"
                )
    for s in out.values():
        for nxt in s.next.values():
            if nxt is not None and nxt not in out:
                raise ContentError(f"scenarios.json: {s.id}: campaign link to unknown scenario {nxt!r}")
    return out


def next_scenario(scenario_id: str, winners: frozenset[str]) -> str | None:
    """The campaign's next scenario after ``scenario_id`` ended with ``winners`` (empty: a draw).

    None means the campaign is over. Raises KeyError for an unknown scenario.
    """
    s = scenarios()[scenario_id]
    key = "draw" if not winners else next(iter(winners))
    return s.next.get(key)
