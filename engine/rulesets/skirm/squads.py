"""Squad building: validating a squad record against its faction, EP costs, once-per-squad items, and
the progression (campaign) records that carry a squad from one mission to the next.

A squad record is ``{"name", "faction", "units": [{"type", "weapons"?, "skills"?}]}``; a campaign record
is ``{"squad": <squad record>, "ep": <available EP>, "missions", "wins", "last"}``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from engine.errors import SetupError
from engine.rulesets.skirm.content import factions, ready_squads

DEFAULT_CAP = 100


@dataclass(frozen=True)
class Member:
    """One unit of a checked squad: its type and the gear it carries."""

    type: str
    weapons: tuple[str, ...]
    skills: tuple[str, ...]


def member_cost(faction: str, m: Member) -> int:
    """EP of one unit: the unit's own cost plus its weapons and skills."""
    f = factions()[faction]
    return (
        f.units[m.type].ep + sum(f.weapons[w].ep for w in m.weapons) + sum(f.skills[s].ep for s in m.skills)
    )


def check_squad(record: Any, cap: int = DEFAULT_CAP) -> tuple[str, str, list[Member]]:
    """Validate a squad record; return (name, faction id, members).

    Raises SetupError naming the problem: unknown faction, unit, weapon or skill; gear the unit may not
    take (or any EP-costing gear on a NEQ unit); a UNQ or '*' item twice; the EP total over ``cap``.
    """
    if not isinstance(record, dict) or not isinstance(record.get("units"), list):
        raise SetupError("A squad is a faction and a list of units.")
    fid = str(record.get("faction", ""))
    if fid not in factions():
        names = ", ".join(f.name for f in factions().values())
        raise SetupError(f"There is no Skirm faction '{fid}'. Factions: {names}.")
    f = factions()[fid]
    name = str(record.get("name") or f.name)
    if not record["units"]:
        raise SetupError(f"{name} has no units.")
    if len(record["units"]) > 12:
        raise SetupError(f"{name} has {len(record['units'])} units; a squad fields at most 12.")
    members: list[Member] = []
    once: dict[str, str] = {}

    def take_once(key: str, label: str) -> None:
        if key in once:
            raise SetupError(f"{name}: {label} may appear only once in a squad (UNQ or '*').")
        once[key] = label

    for i, entry in enumerate(record["units"]):
        if not isinstance(entry, dict):
            raise SetupError(f"{name}: unit {i + 1} is not a unit entry.")
        tid = str(entry.get("type", ""))
        if tid not in f.units:
            raise SetupError(f"{f.name} has no unit '{tid}'. Units: {', '.join(f.units)}.")
        ut = f.units[tid]
        weapons = tuple(str(w) for w in entry.get("weapons", ut.loadout))
        skills = tuple(str(s) for s in entry.get("skills", ()))
        if not weapons:
            raise SetupError(f"{name}: the {ut.name} carries no weapon.")
        if len(set(weapons)) != len(weapons) or len(set(skills)) != len(skills):
            raise SetupError(f"{name}: the {ut.name} lists the same gear twice.")
        for w in weapons:
            if w not in f.weapons:
                raise SetupError(f"{name}: {f.name} has no weapon '{w}'.")
            wp = f.weapons[w]
            if ut.has("NEQ") and wp.ep > 0:
                raise SetupError(f"{name}: the {ut.name} has NEQ and cannot take the {wp.name} ({wp.ep} EP).")
            if w not in ut.loadout and w not in ut.options:
                raise SetupError(f"{name}: the {ut.name} cannot carry the {wp.name}.")
            if wp.once:
                take_once("w:" + w, f"the {wp.name}")
        for s in skills:
            if s not in f.skills or s not in ut.skills:
                raise SetupError(f"{name}: the {ut.name} cannot learn '{s}'.")
            sk = f.skills[s]
            if ut.has("NEQ") and sk.ep > 0:
                raise SetupError(f"{name}: the {ut.name} has NEQ and cannot take {sk.name} ({sk.ep} EP).")
            if sk.once:
                take_once("s:" + s, sk.name)
        if ut.once:
            take_once("u:" + tid, f"the {ut.name}")
        members.append(Member(tid, weapons, skills))
    total = sum(member_cost(fid, m) for m in members)
    if total > cap:
        raise SetupError(f"{name} costs {total} EP; the squad may spend at most {cap} EP.")
    return name, fid, members


def squad_cost(record: dict[str, Any]) -> int:
    """The EP total of a valid squad record. Raises SetupError if it is not valid at any cap."""
    _, fid, members = check_squad(record, cap=10_000)
    return sum(member_cost(fid, m) for m in members)


def new_record(squad: dict[str, Any]) -> dict[str, Any]:
    """A fresh campaign record for a squad: 100 EP available, no missions yet."""
    return {"squad": copy.deepcopy(squad), "ep": DEFAULT_CAP, "missions": 0, "wins": 0, "last": {}}


def resolve_squad(
    choice: Any, record: dict[str, Any] | None, fallback: str = ""
) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """The squad a seat plays: (squad record, EP cap, campaign record).

    ``choice`` is "saved" or None (the seat's saved squad; without one, the ready-made squad ``fallback``,
    else the first), a ready-made squad id, or a squad record (dict, played under the saved record's EP
    total). A ready-made squad of the saved squad's faction keeps the saved progression; one of another
    faction starts a new record. Raises SetupError for an unknown squad id.
    """
    ready = ready_squads()
    if choice is None or choice == "" or choice == "saved":
        if record and isinstance(record.get("squad"), dict):
            return record["squad"], int(record.get("ep", DEFAULT_CAP)), record
        choice = fallback if fallback in ready else next(iter(ready))
    if isinstance(choice, dict):
        cap = int(record.get("ep", DEFAULT_CAP)) if record else DEFAULT_CAP
        return choice, cap, record or new_record(choice)
    key = str(choice).strip().lower()
    if key not in ready:
        raise SetupError(f"There is no ready-made Skirm squad '{choice}'. Squads: saved, {', '.join(ready)}.")
    squad = ready[key]
    if record and record.get("squad", {}).get("faction") == squad["faction"]:
        # Picking your own faction again keeps the saved progression but plays the ready-made list.
        return squad, max(DEFAULT_CAP, int(record.get("ep", DEFAULT_CAP))), record
    return squad, DEFAULT_CAP, new_record(squad)


def progression(finished: bool, won: bool, enemies_out: int, standing: int) -> dict[str, int]:
    """EP gained after a mission: +2 finished, +2 victory, +1 per enemy taken out, +1 per squadmate Standing."""
    return {
        "finished": 2 if finished else 0,
        "victory": 2 if won else 0,
        "enemies_out": enemies_out,
        "standing": standing,
    }
