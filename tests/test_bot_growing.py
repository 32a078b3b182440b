"""Growing narration lines (bot/growing.py): a series of planning tokens and a path of moves told as one
line, and read back from the line alone (a later request, or after a restart, has only the text)."""

from __future__ import annotations

from bot import growing
from bot.growing import Tail
from engine import Event


def plan(name: str, hex_: str) -> Event:
    return Event(f"{name} plans {hex_}.", "plan", data={"series": (f"{name} plans", hex_)})


def move(name: str, frm: str, to: str) -> Event:
    return Event(f"{name} moves {frm} ➜ {to}.", "move", data={"path": (f"{name} moves", frm, to)})


def test_a_series_grows_with_events_of_its_head() -> None:
    tail = growing.start(plan("Tiny Mike", "c6"))
    for hex_ in ("d5", "d4"):
        tail = growing.extend(tail, plan("Tiny Mike", hex_))
    assert tail is not None and tail.text() == "Tiny Mike plans c6, d5 and d4."
    assert growing.extend(tail, plan("Iceheart", "h6")) is None  # another character's plans
    assert growing.extend(tail, move("Tiny Mike", "c7", "c6")) is None  # another kind


def test_a_path_grows_only_from_where_it_ended() -> None:
    tail = growing.extend(growing.start(move("Karma", "f5", "f6")), move("Karma", "f6", "f7"))
    assert tail is not None and tail.text() == "Karma moves f5 ➜ f6 ➜ f7."
    assert growing.extend(tail, move("Karma", "f5", "f6")) is None  # not from f7: a new line


def test_events_with_dice_or_without_a_kind_never_grow() -> None:
    assert growing.start(Event("Karma rolls 5 for the last 3: out!", dice=(5,))) is None
    assert growing.start(Event("Tiny Mike is ready.")) is None
    assert growing.extend(growing.start(plan("Karma", "a1")), Event("Karma is ready.")) is None


def test_a_grown_line_is_read_back_from_its_text() -> None:
    for tail in (
        Tail("series", "Tiny Mike plans", ("c6",)),
        Tail("series", "Tiny Mike plans", ("c6", "d5")),
        Tail("series", "Tiny Mike plans", ("c6", "d5", "d4", "e4")),
        Tail("path", "Karma moves", ("f5", "f6")),
        Tail("path", "Karma moves", ("f5", "f6", "f7")),
    ):
        assert growing.parse(f"• {tail.text()}") == tail
    assert growing.parse("**🤖 p2, Tiny Mike** `plan c6`") is None  # a header
    assert growing.parse("• Karma rolls 5 for the last 3: out!  🎲 ⚄5") is None  # dice
