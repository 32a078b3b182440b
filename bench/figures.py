"""Helpers the benchmark scripts share for the figures they print."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

N = TypeVar("N", int, float)


def pct(values: Sequence[N], p: float) -> N:
    """The ``p``-th percentile of ``values`` by nearest rank (the values need not be sorted). Raises
    IndexError when there are none."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]
