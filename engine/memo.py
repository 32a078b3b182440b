"""A bounded memo for answers worked out from a position that many positions share (walks over a board).

The search asks the same questions in playout after playout; a memo keyed on everything an answer depends
on gives it back without working it out again. Bounded by forgetting everything at once when full: the
positions of one decision share their keys, those of the next decision mostly new ones.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    """Answers by key, at most ``limit`` of them. The answers are shared: callers must not change them."""

    __slots__ = ("answers", "limit")

    def __init__(self, limit: int) -> None:
        self.answers: dict[Hashable, V] = {}
        self.limit = limit

    def get(self, key: Hashable, work_out: Callable[[], V]) -> V:
        """The answer kept for ``key``, or ``work_out()``'s, kept from now on (raises what it raises)."""
        found = self.answers.get(key)
        if found is None:
            if len(self.answers) >= self.limit:
                self.answers.clear()
            found = self.answers[key] = work_out()
        return found
