"""Growing narration lines (bot/growing.py): a series of planning tokens and a path of moves told as one
line, grown from the line's text alone (a later request, or a restarted bot, has only the text)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.growing import grow
from engine import RULESETS, Event, new_game
from engine.grammar import series_text
from engine.rulesets.heist import rules as heist_rules


def plan(name: str, hex_: str) -> Event:
    return Event(f"{name} plans {hex_}.", "plan", data={"series": (f"{name} plans", hex_)})


def hop(name: str, frm: str, to: str) -> Event:  # the heist's moves name where they start
    return Event(f"{name} moves {frm} ➜ {to}.", "move", data={"path": (f"{name} moves", frm, to, "")})


def step(name: str, frm: str, to: str, left: int) -> Event:  # ESCAPE's moves end on what is left
    suffix = f" (Mvt {left} left)"
    return Event(
        f"{name} moves to {to}{suffix}.", "move", data={"path": (f"{name} moves to", frm, to, suffix)}
    )


def told(events: list[Event]) -> list[str]:
    """The lines a run of events makes, growing the last line where it can."""
    lines: list[str] = []
    for e in events:
        grown = grow(lines[-1], e) if lines else None
        if grown is None:
            lines.append(f"• {e.text}")
        else:
            lines[-1] = grown
    return lines


def test_a_series_grows_with_events_of_its_head_only() -> None:
    events = [plan("Tiny Mike", x) for x in ("c6", "d5", "d4")] + [plan("Iceheart", "h6")]
    assert told(events) == ["• Tiny Mike plans c6, d5 and d4.", "• Iceheart plans h6."]
    assert series_text("Iceheart plans", ["h6", "h5"]) == "Iceheart plans h6 and h5."


def test_a_path_grows_only_from_where_it_ends_and_keeps_the_last_state() -> None:
    assert told([hop("Karma", "f5", "f6"), hop("Karma", "f6", "f7"), hop("Karma", "a1", "a2")]) == [
        "• Karma moves f5 ➜ f6 ➜ f7.",
        "• Karma moves a1 ➜ a2.",
    ]
    assert told([step("Oni", "n8", "n7", 2), step("Oni", "n7", "n6", 1), step("Oni", "n6", "n5", 0)]) == [
        "• Oni moves to n7 ➜ n6 ➜ n5 (Mvt 0 left)."
    ]


def test_other_events_dice_and_other_kinds_break_a_line() -> None:
    rolled = Event("Karma rolls 5 for the last 3: out!", dice=(5,), data={"series": ("Karma rolls", "5")})
    assert told([plan("Karma", "a1"), rolled, plan("Karma", "a2")]) == [
        "• Karma plans a1.",
        "• Karma rolls 5 for the last 3: out!",
        "• Karma plans a2.",
    ]
    assert grow("• Karma plans a1.", hop("Karma", "a1", "a2")) is None  # another kind, another head
    assert grow("**🤖 p2, Tiny Mike** `plan c6`", plan("Tiny Mike", "d5")) is None  # a header
    assert grow("• Tiny Mike plans c6.  🎲 ⚄5", plan("Tiny Mike", "d5")) is None  # a line with dice


@pytest.mark.parametrize("ruleset", ["escape", "escapepath", "heist"])
def test_moves_carry_a_path_that_matches_their_text(ruleset: str) -> None:
    rs = RULESETS[ruleset]
    game = new_game(ruleset, seed=3, seats={s: None for s in rs.seats[: rs.min_seats or len(rs.seats)]})
    moves = []
    for _ in range(3000):
        seat = game.next_bot_seat()
        if seat is None or len(moves) >= 20:
            break
        moves += [e for e in game.apply(seat, game.bot_command(seat)) if "path" in e.data]
    assert len(moves) >= 5
    for e in moves:  # the text is what a line of the path grows from: head, squares, then the suffix
        head, frm, to, suffix = e.data["path"]
        assert e.text in (f"{head} {to}{suffix}.", f"{head} {frm} ➜ {to}{suffix}."), e.text
        assert frm != to and grow(f"• {e.text}", replace(e, data={"path": (head, to, "zz9", suffix)}))


def test_a_sweep_of_reveals_is_one_line_and_other_reveals_keep_theirs() -> None:
    # The heist's auto-reveal after a move: every chit found is one item of the line.
    st: Any = new_game("heist", seats={"p1": "1", "p2": "2", "p3": "3"}, seed=4).state
    unknown = sorted(n for n, t in st.tiles.items() if t.unknown)[:3]
    ev: list[Event] = []
    for n in unknown:
        heist_rules.draw(st, n, ev, "Auto-reveal at")
    plain = [e for e in ev if "series" in e.data]
    assert len(plain) == len(ev) == 3, [e.text for e in ev]
    lines = told(ev)
    assert len(lines) == 1 and lines[0].startswith("• Auto-reveal: ")
    assert all(f" at {n}" in lines[0] for n in unknown) and lines[0].count(" and ") == 1
    # A character's own 🔍 is told on its own line; a series of one-word items still refuses spaces.
    mine = Event("Ito reveals g6: a lock.", "reveal")
    assert told([*ev, mine])[-1] == "• Ito reveals g6: a lock."
    assert grow("• Tiny Mike plans the vault and c6.", plan("Tiny Mike", "d4")) is None
