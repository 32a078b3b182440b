"""Narration lines that grow: a run of like events told as one line of the turn message.

Two kinds, named by the engine in ``Event.data`` (see :class:`engine.core.Event`):

- a **series** (``data["series"] = (head, item)``): "Tiny Mike plans c6, d5 and d4." for the events "Tiny
  Mike plans c6.", "Tiny Mike plans d5." and "Tiny Mike plans d4."; items are one word each unless the
  head ends with a colon ("Auto-reveal: a lock at g6, a guard at f7 and a camera at f6.");
- a **path** (``data["path"] = (head, from, to, suffix)``): "Oni moves to n7 ➜ n6 (Mvt 0 left)." for "Oni
  moves to n7 (Mvt 1 left)." then "Oni moves to n6 (Mvt 0 left)." (a step from where the line ends; the
  suffix, a state after the step, is the last step's).

The turn message keeps only its lines (they are stored, and read back after a restart), so an event grows
the line it follows by reading that line's text: :func:`grow`.
"""

from __future__ import annotations

import re

from engine import Event
from engine.grammar import series_text

ARROW = " ➜ "
_SQUARE = re.compile(r"([a-z]+[0-9]+)(.*)")  # a square or hex name, then whatever follows it


def grows(e: Event) -> bool:
    """Whether the event is of a kind that may grow a line (an event with dice never does)."""
    return not e.dice and ("series" in e.data or "path" in e.data)


def grow(line: str, e: Event) -> str | None:
    """``line`` grown by ``e``, when ``e`` goes on with what it tells (the same head: the same character
    doing the same thing; a path from where the line ends), else None."""
    if not grows(e) or not line.startswith("• ") or not line.endswith(".") or "🎲" in line:
        return None
    if "series" in e.data:
        head, item = e.data["series"]
        items = _listed(line, head)
        return None if items is None else f"• {series_text(head, [*items, item])}"
    head, frm, to, suffix = e.data["path"]
    prefix = f"• {head} "
    if not line.startswith(prefix):
        return None
    *before, last = line[len(prefix) : -1].split(ARROW)
    end = _SQUARE.fullmatch(last)
    if end is None or end[1] != frm or any(" " in x for x in before):
        return None
    return f"{prefix}{ARROW.join([*before, end[1], to])}{suffix}."


def _listed(line: str, head: str) -> list[str] | None:
    """The items of a series line ``• {head} a, b and c.`` (None when the line is not one)."""
    prefix = f"• {head} "
    if not line.startswith(prefix):
        return None
    body = line[len(prefix) : -1]
    *rest, last = body.split(" and ") if " and " in body else [body]
    items = [*(rest[0].split(", ") if rest else []), last]
    spaced = head.endswith(":")  # a list head ("Auto-reveal:") whose items may be several words
    return items if len(rest) <= 1 and all(x and (spaced or " " not in x) for x in items) else None
