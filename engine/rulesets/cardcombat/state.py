"""Dark Realms game state: figures, the round's commitments and initiative, decks, rifts, loot, result.

Figures are plain dicts (JSON-ready as they are): ``kind`` hero / enemy / summon, ``pos`` [col, row],
``hp``/``max_hp``, attack stats, ``st`` statuses (name -> duration: "heal", "round", "turn" or "turn*"
once the figure's next turn has begun). Heroes add their seat, race, class, hand, cooldowns and items.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from engine.core import Outcome
from engine.dice import Rng


@dataclass
class CCState:
    """Everything a Dark Realms game knows. Hidden: other heroes' commitments and the speed decks' order."""

    rng: Rng
    scenario: dict[str, Any]  # id, name, level, rounds, objective, rules, reward, rows, summary
    figures: dict[str, dict[str, Any]]
    seats: list[str]
    round: int = 1
    phase: str = "commit"  # commit, turns, over
    commits: dict[str, dict[str, Any]] = field(default_factory=dict)  # hero id -> {"cards", "items"}
    decks: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # enemy type -> draw / discard
    drawn: dict[str, int] = field(default_factory=dict)  # enemy type -> speed card index this round
    order: list[list[Any]] = field(default_factory=list)  # [kind, id, speed] in initiative order
    turn_index: int = 0
    turn: dict[str, Any] = field(default_factory=dict)  # the active figure's turn: fig, queue, budget...
    pending: dict[str, Any] = field(default_factory=dict)  # a suspended attack awaiting a hero's choice
    rifts: list[list[Any]] = field(default_factory=list)  # [col, row, element]
    loot: list[list[Any]] = field(default_factory=list)  # [col, row, "gold:N" | "item:id"]
    trail: list[list[int]] = field(default_factory=list)
    attacks: list[list[int]] = field(default_factory=list)  # [x0, y0, x1, y1]
    flags: dict[str, Any] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)  # the last turn's narration, for the panel
    result: Outcome | None = None
    # A search's determinized copy, never saved: its mappings need not be kept in saved order (not in the
    # saved data; copies inherit it).
    scratch: bool = field(default=False, compare=False)

    def to_data(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "rng": self.rng.to_data(), "scenario": self.scenario, "figures": self.figures, "seats": self.seats,
            "round": self.round, "phase": self.phase, "commits": self.commits, "decks": self.decks,
            "drawn": self.drawn, "order": self.order, "turn_index": self.turn_index, "turn": self.turn,
            "pending": self.pending, "rifts": self.rifts, "loot": self.loot, "trail": self.trail,
            "attacks": self.attacks, "flags": self.flags, "log": self.log,
            "result": self.result.to_data() if self.result else None,
        }  # fmt: skip

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> CCState:
        """Inverse of :meth:`to_data` (deep-copied). Raises KeyError/TypeError on malformed data."""
        d = copy.deepcopy(d)
        return cls(
            rng=Rng.from_data(d["rng"]), scenario=d["scenario"], figures=d["figures"], seats=d["seats"],
            round=d["round"], phase=d["phase"], commits=d["commits"], decks=d["decks"], drawn=d["drawn"],
            order=d["order"], turn_index=d["turn_index"], turn=d["turn"], pending=d["pending"],
            rifts=d["rifts"], loot=d["loot"], trail=d["trail"], attacks=d["attacks"], flags=d["flags"],
            log=d["log"], result=Outcome.from_data(d["result"]) if d["result"] else None,
        )  # fmt: skip
