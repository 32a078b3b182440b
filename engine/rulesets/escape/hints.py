"""ESCAPE's "where can I go": the active character's reachable squares and legal targets, and the turn."""

from __future__ import annotations

from engine.core import Command, Hints
from engine.geometry.square import parse_cell
from engine.hints import reach_by_steps
from engine.ruleset import Ruleset
from engine.rulesets.escape import rules as R
from engine.rulesets.escape.state import EscapeState
from engine.scene import Cell

#: Commands aimed at an enemy (its id) or a square (a grenade), by the acting character.
TARGET_VERBS = ("attack", "shoot", "throw", "grenade")
OFF_BOARD: Cell = (-1, -1)


def target_cell(st: EscapeState, ref: str) -> Cell | None:
    """The square a command's target argument stands for: a character's square, or a named square."""
    u = st.units.get(ref)
    if u is not None:
        return u.pos if u.status == "board" else None
    b = R.board(st)
    try:
        return parse_cell(ref, b.width, b.height)
    except ValueError:
        return None


def hints(ruleset: Ruleset, st: EscapeState, seat: str) -> Hints:
    """The active character's reach (by chains of legal moves with the Movement it has left, Revolution
    tokens not spent; a character still to enter starts with its legal entry squares) and the squares of the enemies it may attack now; empty unless ``seat`` is to act
    with an active character on the board. Everything here is public. Never raises."""
    w = R.waiting(st)
    if not st.active or w is None or w[0] != seat or w[1] != "activation":
        return Hints()
    u = st.units[st.active]
    entering = u.status == "reserve"
    if u.seat != seat or not (entering or (u.status == "board" and u.pos is not None)):
        return Hints(unit=R.name(u))
    b = R.board(st)

    def step(_st: object, cmd: Command) -> Cell | None:
        if cmd.verb in ("move", "enter") and cmd.args[:1] == (u.id,):
            return parse_cell(cmd.args[1], b.width, b.height)
        return None

    # A character still to enter reaches its airlock squares, then on from there.
    reach = reach_by_steps(ruleset, st, seat, u.pos if u.pos is not None else OFF_BOARD, step)
    targets: list[Cell] = []
    for cmd in ruleset.legal_commands(st, seat):
        if cmd.verb in TARGET_VERBS and cmd.args[:1] == (u.id,):
            c = target_cell(st, cmd.args[-1])
            if c is not None and c not in targets:
                targets.append(c)
    return Hints(unit=R.name(u), reach=reach, targets=tuple(targets))


def turn_label(st: EscapeState) -> str:
    """``turn 3/8`` (``setup`` before the first turn, ``game over`` after the last)."""
    if st.result is not None:
        return f"game over · turn {st.turn}/{R.scen(st).turns}"
    if st.turn < 1:
        return "setup"
    return f"turn {st.turn}/{R.scen(st).turns}"
