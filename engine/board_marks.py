"""Marks every ruleset's board shares: seat colours safe for colour-blind players, unique unit tags.

Seat colours come from the Okabe–Ito palette, chosen to stay apart under the common colour-vision
deficiencies (deuteranopia, protanopia, tritanopia) and to read on the boards' dark floors; dark text
(:data:`SEAT_TEXT`) is written on them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: Okabe–Ito orange, sky blue, bluish green, reddish purple, yellow, vermillion: one per seat, in order.
SEAT_PALETTE = ("#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#f0e442", "#d55e00")
SEAT_TEXT = "#000000"


def seat_palette(seats: Sequence[str]) -> dict[str, str]:
    """Each seat's colour, in seat order; distinct for up to six seats. Raises ValueError past six."""
    if len(seats) > len(SEAT_PALETTE):
        raise ValueError(f"{len(seats)} seats is more than the {len(SEAT_PALETTE)} distinct seat colours")
    return {s: SEAT_PALETTE[i] for i, s in enumerate(seats)}


def unique_tags(candidates: Iterable[tuple[str, Sequence[str]]]) -> dict[str, str]:
    """A tag per key, each unique: the first free one of that key's candidates, in the order given.

    When every candidate is taken, the first candidate's first letter and the smallest free number is
    used (``T1``, ``T2`` ...). Never raises.
    """
    used: set[str] = set()
    out: dict[str, str] = {}
    for key, options in candidates:
        tag = next((c for c in options if c and c not in used), None)
        if tag is None:
            stem = (options[0][:1] if options and options[0] else key[:1]).upper() or "?"
            n = 1
            while f"{stem}{n}" in used:
                n += 1
            tag = f"{stem}{n}"
        used.add(tag)
        out[key] = tag
    return out
