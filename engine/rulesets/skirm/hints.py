"""Skirm's "where can I go": the active unit's reachable squares and legal targets, and the turn."""

from __future__ import annotations

from engine.core import Command, Hints
from engine.geometry.square import parse_cell
from engine.hints import reach_by_steps
from engine.ruleset import Ruleset
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.state import SkirmState
from engine.scene import Cell

MOVE_VERBS = ("move", "dash", "crawl", "leap")
#: Commands aimed at an enemy (its id) or a square (a blast), by the acting unit.
TARGET_VERBS = ("shoot", "fight")
SIZE = 12


def target_cell(st: SkirmState, ref: str) -> Cell | None:
    """The square a command's target argument stands for: a unit's square, or a named square."""
    u = st.units.get(ref)
    if u is not None:
        return u.pos if B.on_map(u) else None
    try:
        return parse_cell(ref, SIZE, SIZE)
    except ValueError:
        return None


def hints(ruleset: Ruleset, st: SkirmState, seat: str) -> Hints:
    """The active unit's reach (every square its next legal move, dash, crawl or leap ends on, with the
    ACT it has left) and the squares it may shoot or fight now; empty unless ``seat`` is to act with an
    active unit on the map. Skirm hides nothing. Never raises."""
    w = R.waiting(st)
    if not st.active or w is None or w[0] != seat:
        return Hints()
    u = st.units[st.active]
    if u.seat != seat or not B.on_map(u) or u.pos is None:
        return Hints(unit=u.name)

    def step(_st: object, cmd: Command) -> Cell | None:
        if cmd.verb in MOVE_VERBS and cmd.args[:1] == (u.id,) and len(cmd.args) == 2:
            return parse_cell(cmd.args[1], SIZE, SIZE)
        return None

    # One move action: a Skirm move already covers a whole path, and a dash spends more ACT to go further;
    # the squares a second move action reaches show once the first is made (chaining every pair of
    # actions would take seconds on the larger maps).
    reach = reach_by_steps(ruleset, st, seat, u.pos, step, depth=1)
    targets: list[Cell] = []
    for cmd in ruleset.legal_commands(st, seat):
        if cmd.verb in TARGET_VERBS and cmd.args[:1] == (u.id,):
            c = target_cell(st, cmd.args[2])  # a shot may add its line choice after the target
            if c is not None and c not in targets:
                targets.append(c)
    return Hints(unit=u.name, reach=reach, targets=tuple(targets))


def turn_label(st: SkirmState) -> str:
    """``turn 3/4`` (``deployment`` before the first turn, ``game over`` after the last)."""
    if st.result is not None:
        return f"game over · turn {st.turn}/{R.TURNS}"
    if st.turn < 1:
        return "deployment"
    return f"turn {st.turn}/{R.TURNS}"
