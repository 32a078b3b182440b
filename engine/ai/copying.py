"""Cheap copies for search: JSON-like values and flat dataclass instances, without ``copy.deepcopy``."""

from __future__ import annotations

from typing import Any, TypeVar

from engine.dice import Rng

T = TypeVar("T")


def plain(v: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists; tuples and scalars are immutable and shared)."""
    if type(v) is dict:
        return {k: plain(x) for k, x in v.items()}
    if type(v) is list:
        return [plain(x) for x in v]
    return v


def flat(obj: T) -> T:
    """A shallow copy of a plain (non-slotted) object: its fields are shared, so copy mutable ones after."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def rng_copy(rng: Rng) -> Rng:
    """An independent copy of a generator, of the same class."""
    return type(rng)(seed=rng.seed, counter=rng.counter, script=list(rng.script))
