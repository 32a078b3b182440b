"""Deterministic randomness kept inside the game state.

Roll *n* of a game is a pure function of ``(seed, n)`` (SHA-256, counter based), so replaying a game's
command log reproduces every die. Tests may script the first results with ``script``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class Rng:
    """A counter-based generator. ``script`` holds die results served before the generator's own."""

    seed: int
    counter: int = 0
    script: list[int] = field(default_factory=list)

    def _draw(self) -> int:
        digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
        self.counter += 1
        return int.from_bytes(digest[:8], "big")

    def roll(self, sides: int = 6) -> int:
        """Roll one die with ``sides`` faces (1..sides); scripted results come first.

        Raises ValueError if a scripted result is outside 1..sides.
        """
        if self.script:
            value = self.script.pop(0)
            if not 1 <= value <= sides:
                raise ValueError(f"scripted die {value} is not a d{sides} result")
            return value
        return self._draw() % sides + 1

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` from the generator (never from the script). Raises ValueError if n < 1."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        return self._draw() % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates on the generator)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def to_data(self) -> dict[str, Any]:
        """This generator as JSON-ready data."""
        return {"seed": self.seed, "counter": self.counter, "script": list(self.script)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Rng:
        """Rebuild a generator from :meth:`to_data` output. Raises KeyError on missing fields."""
        return cls(
            seed=int(data["seed"]), counter=int(data["counter"]), script=[int(v) for v in data["script"]]
        )
