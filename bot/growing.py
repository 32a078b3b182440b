"""Narration lines that grow: a run of like events told as one line of the turn message.

Two kinds, named by the engine in ``Event.data`` (see :class:`engine.core.Event`):

- a **series** (``data["series"] = (head, item)``): "Tiny Mike plans c6, d5 and d4." for three events
  "Tiny Mike plans c6." …;
- a **path** (``data["path"] = (head, from, to)``): "Karma moves f5 ➜ f6 ➜ f7." for the moves "Karma moves
  f5 ➜ f6." and "Karma moves f6 ➜ f7." (each starting where the last ended).

The turn message keeps only its lines (they are stored, and read back after a restart), so a line is parsed
back into its :class:`Tail` to grow it in a later request.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Event
from engine.grammar import series_text

ARROW = " ➜ "


@dataclass(frozen=True)
class Tail:
    """What a growing line tells: its kind ("series" or "path"), its head and its items."""

    kind: str
    head: str
    items: tuple[str, ...]

    def text(self) -> str:
        """The line, without its bullet."""
        if self.kind == "path":
            return f"{self.head} {ARROW.join(self.items)}."
        return series_text(self.head, list(self.items))


def start(e: Event) -> Tail | None:
    """The growing line an event starts, if it is of a kind that grows (an event with dice never is)."""
    if e.dice:
        return None
    series, path = e.data.get("series"), e.data.get("path")
    if series is not None:
        return Tail("series", str(series[0]), (str(series[1]),))
    if path is not None:
        return Tail("path", str(path[0]), (str(path[1]), str(path[2])))
    return None


def extend(tail: Tail | None, e: Event) -> Tail | None:
    """``tail`` grown by ``e`` when ``e`` goes on with it (same kind and head; a path from where it ended),
    else None."""
    new = start(e)
    if tail is None or new is None or (new.kind, new.head) != (tail.kind, tail.head):
        return None
    if new.kind == "path":
        return Tail("path", tail.head, tail.items + new.items[1:]) if new.items[0] == tail.items[-1] else None
    return Tail("series", tail.head, tail.items + new.items)


def parse(line: str) -> Tail | None:
    """The growing line a narration line may be (``• {head} {items}.``), read back from its text; None for
    a header or an event with dice. A line that merely looks like one grows only if an event of the same
    head follows, which only the same kind of event has."""
    if not line.startswith("• ") or not line.endswith(".") or "🎲" in line:
        return None
    body = line[2:-1]
    if ARROW in body:
        first, *rest = body.split(ARROW)
        head, _, origin = first.rpartition(" ")
        return Tail("path", head, (origin, *rest)) if head and all(" " not in x for x in rest) else None
    words = body.split(" ")  # walking back over "a, b and c": the head ends before the first item
    items = [words.pop()]
    while len(words) >= 2 and (words[-1] == "and" or words[-1].endswith(",")):
        joiner = words.pop()
        items.insert(0, words.pop() if joiner == "and" else joiner[:-1])
    return Tail("series", " ".join(words), tuple(items)) if words else None
