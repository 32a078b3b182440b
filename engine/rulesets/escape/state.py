"""ESCAPE game state: units, tokens, doors and the stack of suspended resolutions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Outcome
from engine.dice import Rng
from engine.geometry.square import Cell, EdgeKey

MVT, CBT, INT = 0, 1, 2
KINDS = {"mvt": MVT, "cbt": CBT, "int": INT}
KIND_NAMES = ("Movement", "Combat", "Intellect")

DEFAULT_POLICIES = {"dodge": "ask", "countermeasure": "ask", "reroll": "ask"}


@dataclass
class Unit:
    """A character in play. ``status``: reserve (not yet entered), board, out (taken out), escaped."""

    id: str
    seat: str
    status: str = "reserve"
    pos: Cell | None = None
    damage: int = 0
    used: list[int] = field(default_factory=lambda: [0, 0, 0])
    bonus: list[int] = field(default_factory=lambda: [0, 0, 0])
    mods: list[int] = field(default_factory=lambda: [0, 0, 0])
    activated: bool = False
    carrying: str | None = None
    drill_broken: bool = False
    drilled: bool = False
    veteran_used: bool = False
    out_turn: int = 0


@dataclass
class Token:
    """A crate, an equipment token (``item``) or an objective token (``value``), on a square or carried."""

    id: str
    kind: str  # crate | equipment | objective
    item: str = ""
    value: int = 0
    face_up: bool = False
    pos: Cell | None = None
    carrier: str | None = None


@dataclass
class Door:
    """A door's state. A hacked door opens but stays locked (the I.S.C. may close it again, locked)."""

    open: bool = False
    locked: bool = False
    difficulty: int = 0


@dataclass
class EscapeState:
    """Everything an ESCAPE game knows, hidden parts included."""

    rng: Rng
    scenario: str
    lineups: dict[str, list[str]]
    units: dict[str, Unit]
    doors: dict[EdgeKey, Door]
    tokens: dict[str, Token] = field(default_factory=dict)
    destroyed: list[EdgeKey] = field(default_factory=list)
    phase: str = "setup"
    turn: int = 0
    setup_winner: str = ""
    placer: str = ""
    equipment_pool: list[str] = field(default_factory=list)
    objective_pool: list[int] = field(default_factory=list)
    initiative: str = ""
    event: int = 0
    event_room: str = ""
    next_side: str = ""
    active: str = ""
    double_activation: bool = False
    forced_next: str = ""
    revolution: int = 0
    carried_points: int = 0
    policies: dict[str, dict[str, str]] = field(default_factory=dict)
    stack: list[dict[str, Any]] = field(default_factory=list)
    trail: list[Cell] = field(default_factory=list)
    attacks: list[tuple[Cell, Cell]] = field(default_factory=list)
    last_unit: str = ""
    result: Outcome | None = None
    next_token: int = 1
    setup_dice: list[int] = field(default_factory=list)  # the setup initiative dice: Resistance, I.S.C.
    # (unit id, the square it left) when the last command was that unit's step and nothing else followed
    # from it: a step straight back would only spend a Movement action (the search player skips it).
    stepped_from: tuple[str, Cell] | None = None
    # The active character's actions used when its activation began, and the extra actions bought during it
    # that only the active character may spend (Combat drugs, a Datadisk, a token's Movement): what is left
    # of them lapses when the activation ends, so they never pay for a dodge or a counter-measure later.
    act_used: tuple[int, int, int] = (0, 0, 0)
    act_extra: tuple[int, int, int] = (0, 0, 0)
    # Combat drugs taken and attacks made in this activation: the drugs' extra Combat action pays only for an
    # attack (hand-to-hand or ranged), so while no attack has used it, it cannot pay for drilling a wall.
    act_drugs: int = 0
    act_attacks: int = 0
    # Interference (event 11): the Resistance may decline its second activation in a row ('pass').
    may_pass: bool = False

    def to_data(self) -> dict[str, Any]:
        """JSON-ready data (tuples become lists, edge keys become strings)."""
        return {
            "rng": self.rng.to_data(),
            "scenario": self.scenario,
            "lineups": self.lineups,
            "units": [
                {
                    "id": u.id, "seat": u.seat, "status": u.status, "pos": list(u.pos) if u.pos else None,
                    "damage": u.damage, "used": u.used, "bonus": u.bonus, "mods": u.mods,
                    "activated": u.activated, "carrying": u.carrying, "drill_broken": u.drill_broken,
                    "drilled": u.drilled, "veteran_used": u.veteran_used, "out_turn": u.out_turn,
                }  # fmt: skip
                for u in self.units.values()
            ],
            "tokens": [
                {
                    "id": t.id, "kind": t.kind, "item": t.item, "value": t.value, "face_up": t.face_up,
                    "pos": list(t.pos) if t.pos else None, "carrier": t.carrier,
                }  # fmt: skip
                for t in self.tokens.values()
            ],
            "doors": [[_ek(k), d.open, d.locked, d.difficulty] for k, d in self.doors.items()],
            "destroyed": [_ek(k) for k in self.destroyed],
            "phase": self.phase, "turn": self.turn, "setup_winner": self.setup_winner, "placer": self.placer,
            "equipment_pool": self.equipment_pool, "objective_pool": self.objective_pool,
            "initiative": self.initiative, "event": self.event, "event_room": self.event_room,
            "next_side": self.next_side, "active": self.active, "double_activation": self.double_activation,
            "forced_next": self.forced_next, "revolution": self.revolution, "carried_points": self.carried_points,
            "policies": self.policies, "stack": self.stack,
            "trail": [list(c) for c in self.trail], "attacks": [[list(a), list(b)] for a, b in self.attacks],
            "last_unit": self.last_unit, "result": self.result.to_data() if self.result else None,
            "next_token": self.next_token, "setup_dice": self.setup_dice,
            "stepped_from": [self.stepped_from[0], list(self.stepped_from[1])] if self.stepped_from else None,
            "act_used": list(self.act_used), "act_extra": list(self.act_extra), "may_pass": self.may_pass,
            "act_drugs": self.act_drugs, "act_attacks": self.act_attacks,
        }  # fmt: skip

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> EscapeState:
        """Inverse of :meth:`to_data`. Raises KeyError/TypeError on malformed data."""
        units = {}
        for u in d["units"]:
            units[u["id"]] = Unit(
                id=u["id"], seat=u["seat"], status=u["status"], pos=_cell(u["pos"]), damage=u["damage"],
                used=list(u["used"]), bonus=list(u["bonus"]), mods=list(u["mods"]), activated=u["activated"],
                carrying=u["carrying"], drill_broken=u["drill_broken"], drilled=u["drilled"],
                veteran_used=u["veteran_used"], out_turn=u["out_turn"],
            )  # fmt: skip
        tokens = {
            t["id"]: Token(
                t["id"], t["kind"], t["item"], t["value"], t["face_up"], _cell(t["pos"]), t["carrier"]
            )
            for t in d["tokens"]
        }
        return cls(
            rng=Rng.from_data(d["rng"]), scenario=d["scenario"], lineups=d["lineups"], units=units,
            doors={_parse_ek(k): Door(o, lk, df) for k, o, lk, df in d["doors"]}, tokens=tokens,
            destroyed=[_parse_ek(k) for k in d["destroyed"]], phase=d["phase"], turn=d["turn"],
            setup_winner=d["setup_winner"], placer=d["placer"], equipment_pool=list(d["equipment_pool"]),
            objective_pool=list(d["objective_pool"]), initiative=d["initiative"], event=d["event"],
            event_room=d["event_room"], next_side=d["next_side"], active=d["active"],
            double_activation=d["double_activation"], forced_next=d["forced_next"], revolution=d["revolution"],
            carried_points=d["carried_points"], policies=d["policies"], stack=d["stack"],
            trail=[(c[0], c[1]) for c in d["trail"]], attacks=[((a[0], a[1]), (b[0], b[1])) for a, b in d["attacks"]],
            last_unit=d["last_unit"], result=Outcome.from_data(d["result"]) if d["result"] else None,
            next_token=d["next_token"], setup_dice=list(d.get("setup_dice", [])),
            stepped_from=_stepped(d.get("stepped_from")), act_used=_triple(d.get("act_used")),
            act_extra=_triple(d.get("act_extra")), may_pass=bool(d.get("may_pass", False)),
            act_drugs=int(d.get("act_drugs", 0)), act_attacks=int(d.get("act_attacks", 0)),
        )  # fmt: skip


def _ek(k: EdgeKey) -> list[int]:
    return [k[0][0], k[0][1], k[1][0], k[1][1]]


def _parse_ek(v: list[int]) -> EdgeKey:
    return ((v[0], v[1]), (v[2], v[3]))


def _stepped(v: list[Any] | None) -> tuple[str, Cell] | None:
    return (v[0], (v[1][0], v[1][1])) if v else None


def _triple(v: list[int] | None) -> tuple[int, int, int]:
    return (int(v[0]), int(v[1]), int(v[2])) if v else (0, 0, 0)


def _cell(v: list[int] | None) -> Cell | None:
    return (v[0], v[1]) if v else None
