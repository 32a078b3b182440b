"""Escape Path game state: figures (characters and bogies), whose side is moving, blasts, and the
suspended bogie attack waiting for the team's panic-shot answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Outcome
from engine.dice import Rng
from engine.geometry.square import Cell

TEAM, SWARM = "team", "swarm"
SEATS = (TEAM, SWARM)
POLICY_KINDS = {"panic": ("ask", "always", "never")}


@dataclass
class Figure:
    """A character or a bogie. ``status``: board, pool (a bogie off the map), dead, escaped."""

    id: str
    side: str
    kind: str  # "character" or a bogie kind id
    status: str = "board"
    pos: Cell | None = None
    facing: int = 0
    ap: int = 0
    bombs: int = 0


@dataclass
class PathState:
    """Everything an Escape Path game knows (nothing is hidden but the dice)."""

    rng: Rng
    scenario: str
    figures: dict[str, Figure]
    new_save: bool = False
    side: str = "team"
    turn: int = 1
    active: str = ""  # the figure spending its points now
    done: list[str] = field(default_factory=list)  # figures finished this side turn
    entering: bool = False  # the swarm has started bringing new bogies on
    start_pos: Cell | None = None  # where the active bogie began its activation (None: off the map)
    path: list[Cell] = field(default_factory=list)  # squares the active figure entered this activation
    closed: list[Cell] = field(default_factory=list)  # blast squares
    trapped: list[str] = field(default_factory=list)  # bogies that must leave a blast first
    panicked: list[str] = field(default_factory=list)  # characters that had their panic shot this turn
    pending: dict[str, Any] | None = None  # a bogie attack waiting for the panic-shot answer
    policies: dict[str, str] = field(default_factory=lambda: {"panic": "ask"})
    escaped: int = 0
    kills: int = 0
    objectives: list[Cell] = field(default_factory=list)  # objectives taken
    trail: list[Cell] = field(default_factory=list)
    attacks: list[tuple[Cell, Cell]] = field(default_factory=list)
    result: Outcome | None = None

    def to_data(self) -> dict[str, Any]:
        """JSON-ready data (cells become lists)."""
        return {
            "rng": self.rng.to_data(), "scenario": self.scenario, "new_save": self.new_save,
            "figures": [
                [f.id, f.side, f.kind, f.status, list(f.pos) if f.pos else None, f.facing, f.ap, f.bombs]
                for f in self.figures.values()
            ],
            "side": self.side, "turn": self.turn, "active": self.active, "done": list(self.done),
            "entering": self.entering, "start_pos": list(self.start_pos) if self.start_pos else None,
            "path": [list(c) for c in self.path], "closed": [list(c) for c in self.closed],
            "trapped": list(self.trapped), "panicked": list(self.panicked), "pending": self.pending,
            "policies": dict(self.policies), "escaped": self.escaped, "kills": self.kills,
            "objectives": [list(c) for c in self.objectives], "trail": [list(c) for c in self.trail],
            "attacks": [[list(a), list(b)] for a, b in self.attacks],
            "result": self.result.to_data() if self.result else None,
        }  # fmt: skip

    def position_key(self) -> tuple[Any, ...]:
        """Everything the rules and the game's own player read of the position, as a hashable key: the
        dice to come and the drawn trail and attacks left out. Equal keys list the same commands and weigh
        them alike."""
        return (
            self.scenario, self.new_save, self.side, self.turn, self.active, tuple(self.done), self.entering,
            self.start_pos, tuple(self.path), tuple(self.closed), tuple(self.trapped), tuple(self.panicked),
            tuple(sorted(self.pending.items())) if self.pending is not None else None,
            tuple(sorted(self.policies.items())), self.escaped, self.kills, tuple(self.objectives),
            self.result is not None,
            tuple([(f.id, f.side, f.kind, f.status, f.pos, f.facing, f.ap, f.bombs) for f in self.figures.values()]),
        )  # fmt: skip

    def copy(self) -> PathState:
        """An independent deep copy (for search; several times cheaper than a JSON round trip). Cells,
        facings and the result are immutable and shared; every list, dict and figure is new."""
        rng = self.rng
        return PathState(
            rng=type(rng)(seed=rng.seed, counter=rng.counter, script=list(rng.script)),
            scenario=self.scenario,
            figures={
                k: Figure(f.id, f.side, f.kind, f.status, f.pos, f.facing, f.ap, f.bombs)
                for k, f in self.figures.items()
            },
            new_save=self.new_save, side=self.side, turn=self.turn, active=self.active, done=list(self.done),
            entering=self.entering, start_pos=self.start_pos, path=list(self.path), closed=list(self.closed),
            trapped=list(self.trapped), panicked=list(self.panicked),
            pending=dict(self.pending) if self.pending is not None else None, policies=dict(self.policies),
            escaped=self.escaped, kills=self.kills, objectives=list(self.objectives), trail=list(self.trail),
            attacks=list(self.attacks), result=self.result,
        )  # fmt: skip

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> PathState:
        """Inverse of :meth:`to_data`. Raises KeyError/TypeError/ValueError on malformed data."""
        figures = {
            f[0]: Figure(f[0], f[1], f[2], f[3], _cell(f[4]), int(f[5]), int(f[6]), int(f[7]))
            for f in d["figures"]
        }
        return cls(
            rng=Rng.from_data(d["rng"]), scenario=d["scenario"], figures=figures, new_save=bool(d["new_save"]),
            side=d["side"], turn=int(d["turn"]), active=d["active"], done=list(d["done"]),
            entering=bool(d["entering"]), start_pos=_cell(d["start_pos"]), path=_cells(d["path"]),
            closed=_cells(d["closed"]), trapped=list(d["trapped"]), panicked=list(d["panicked"]),
            pending=d["pending"], policies=dict(d["policies"]), escaped=int(d["escaped"]),
            kills=int(d["kills"]), objectives=_cells(d["objectives"]), trail=_cells(d["trail"]),
            attacks=[((a[0], a[1]), (b[0], b[1])) for a, b in d["attacks"]],
            result=Outcome.from_data(d["result"]) if d["result"] else None,
        )  # fmt: skip


def _cell(v: list[int] | None) -> Cell | None:
    return (int(v[0]), int(v[1])) if v else None


def _cells(v: list[list[int]]) -> list[Cell]:
    return [(int(c[0]), int(c[1])) for c in v]
