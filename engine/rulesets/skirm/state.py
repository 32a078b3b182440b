"""Skirm game state: squads, units, doors, objectives, markers, orders and the suspended combat frames."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.core import Outcome
from engine.dice import Rng
from engine.geometry.square import Cell, EdgeKey

STANDING, DOWNED, OUT, RESERVE = "standing", "downed", "out", "reserve"


@dataclass
class Unit:
    """A unit in play. ``state``: reserve (not deployed), standing, downed, out."""

    id: str
    seat: str
    type: str
    name: str
    weapons: list[str]
    skills: list[str]
    state: str = RESERVE
    pos: Cell | None = None
    activated: bool = False
    act: int = 0  # action points for the current activation (after Stun)
    act_used: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # action -> times done this activation
    used_weapons: dict[str, list[str]] = field(default_factory=dict)  # "melee"/"ranged" -> weapons used
    moved: bool = False  # a Move action this activation (Heavy weapons)
    fired_heavy: bool = False  # a Heavy weapon fired this activation
    stun: int = 0  # action points lost at the next activation
    surge: bool = False  # next attack rolls one more die (surge skills)
    ward: bool = False  # one automatic save against the next attack (ward skills)
    spent: list[str] = field(default_factory=list)  # LIM weapons already used this battle
    carrying: str = ""  # marker id
    out_by: str = ""  # seat whose attack took this unit out


@dataclass
class SkirmState:
    """Everything a Skirm game knows (nothing is hidden from either player)."""

    rng: Rng
    mission: str
    squads: dict[str, dict[str, Any]]  # seat -> {"name", "faction", "cap", "cost", "record"}
    units: dict[str, Unit]
    doors: dict[EdgeKey, bool]  # True: open
    objectives: list[dict[str, Any]]  # {"id", "pos": [x, y], "planted": seat, "gone": bool}
    markers: dict[str, dict[str, Any]]  # id -> {"pos": [x, y] | None, "carrier": unit id}
    phase: str = "zone"  # zone, deploy, activation, over
    turn: int = 0
    placer: str = ""
    zones: dict[str, str] = field(default_factory=dict)  # seat -> zone name
    initiative: str = ""
    next_side: str = ""
    active: str = ""
    ordered: str = ""  # a squadmate performing a Command free action
    orderer: str = ""
    orders: dict[str, int] = field(default_factory=dict)  # Tactical Orders left this turn
    orders_rolled: dict[str, int] = field(default_factory=dict)
    skills_used: list[str] = field(default_factory=list)  # "unit:skill" used this turn
    event: int = 0
    points: dict[str, int] = field(default_factory=dict)
    stack: list[dict[str, Any]] = field(default_factory=list)
    trail: list[Cell] = field(default_factory=list)
    attacks: list[tuple[Cell, Cell]] = field(default_factory=list)
    result: Outcome | None = None
    intro: str = ""  # how the deployment roll-off went
    policies: dict[str, str] = field(default_factory=dict)  # seat -> "ask" | "never" (order re-rolls)
    skill_policies: dict[str, str] = field(
        default_factory=dict
    )  # seat -> "ask" | "never" (skills vs attacks)

    def to_data(self) -> dict[str, Any]:
        """JSON-ready data (cells become lists, edge keys become 4-lists)."""
        units = []
        for u in self.units.values():
            d = asdict(u)
            d["pos"] = list(u.pos) if u.pos else None
            units.append(d)
        return {
            "rng": self.rng.to_data(), "mission": self.mission, "squads": self.squads, "units": units,
            "doors": [[*k[0], *k[1], v] for k, v in self.doors.items()], "objectives": self.objectives,
            "markers": self.markers, "phase": self.phase, "turn": self.turn, "placer": self.placer,
            "zones": self.zones, "initiative": self.initiative, "next_side": self.next_side,
            "active": self.active, "ordered": self.ordered, "orderer": self.orderer, "orders": self.orders,
            "orders_rolled": self.orders_rolled, "skills_used": self.skills_used, "event": self.event,
            "points": self.points, "stack": self.stack, "trail": [list(c) for c in self.trail],
            "attacks": [[list(a), list(b)] for a, b in self.attacks],
            "result": self.result.to_data() if self.result else None, "intro": self.intro,
            "policies": self.policies, "skill_policies": self.skill_policies,
        }  # fmt: skip

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> SkirmState:
        """Inverse of :meth:`to_data`. Raises KeyError/TypeError on malformed data."""
        units = {}
        for u in d["units"]:
            fields = dict(u)
            fields["pos"] = (u["pos"][0], u["pos"][1]) if u["pos"] else None
            units[u["id"]] = Unit(**fields)
        return cls(
            rng=Rng.from_data(d["rng"]), mission=d["mission"], squads=d["squads"], units=units,
            doors={((x0, y0), (x1, y1)): bool(v) for x0, y0, x1, y1, v in d["doors"]},
            objectives=d["objectives"], markers=d["markers"], phase=d["phase"], turn=d["turn"],
            placer=d["placer"], zones=d["zones"], initiative=d["initiative"], next_side=d["next_side"],
            active=d["active"], ordered=d["ordered"], orderer=d["orderer"], orders=d["orders"],
            orders_rolled=d["orders_rolled"], skills_used=d["skills_used"], event=d["event"],
            points=d["points"], stack=d["stack"], trail=[(c[0], c[1]) for c in d["trail"]],
            attacks=[((a[0], a[1]), (b[0], b[1])) for a, b in d["attacks"]],
            result=Outcome.from_data(d["result"]) if d["result"] else None, intro=d.get("intro", ""), policies=dict(d.get("policies", {})),
            skill_policies=dict(d.get("skill_policies", {})),
        )  # fmt: skip
