"""Cheap copies for search: JSON-like values and flat dataclass instances, without ``copy.deepcopy``."""

from __future__ import annotations

from typing import Any, TypeVar

from engine.dice import Rng

T = TypeVar("T")


_SCALARS = frozenset((str, int, bool, float, type(None)))


def plain(v: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists; tuples and scalars are immutable and shared)."""
    # Scalars are taken as they are, without a call each: most lists and mappings in a state hold only those.
    if type(v) is dict:
        return {k: x if type(x) in _SCALARS else plain(x) for k, x in v.items()}
    if type(v) is list:
        return [x if type(x) in _SCALARS else plain(x) for x in v]
    return v


def flat(obj: T) -> T:
    """A shallow copy of a plain (non-slotted) object: its fields are shared, so copy mutable ones after."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def rng_copy(rng: Rng) -> Rng:
    """An independent copy of a generator, of the same class."""
    return type(rng)(seed=rng.seed, counter=rng.counter, script=list(rng.script))
