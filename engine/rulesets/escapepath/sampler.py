"""Escape Path self-play fast path: the next seat straight from the state, and a uniform legal pick that
counts each figure's options (steps by table) and words only the one it picks.

The pick is the one :func:`~engine.rulesets.escapepath.actions.legal` would give for the same draw: the
same options in the same order (standing answers excluded), so games and seed-pinned tests do not depend on
which path chose. A character's shots are listed to be counted; that list is reused if the pick is one.
"""

from __future__ import annotations

from engine.core import Command
from engine.ruleset import Chooser
from engine.rulesets.escapepath.actions import end_command, panic_options, short_name, starters
from engine.rulesets.escapepath.board import occupancy
from engine.rulesets.escapepath.moves import count_options, figure_options, option_command
from engine.rulesets.escapepath.state import TEAM, PathState


def next_seat(st: PathState) -> str | None:
    """The one seat that must act now (None once the game is over)."""
    if st.result is not None:
        return None
    return TEAM if st.pending is not None else st.side


def sample(st: PathState, seat: str, rng: Chooser) -> Command | None:
    """A uniformly random legal command for ``seat``, standing answers excluded (None: it has none)."""
    if st.result is not None:
        return None
    if st.pending is not None:
        if seat != TEAM:
            return None
        answers = panic_options(st)
        return answers[rng.below(len(answers))]
    if seat != st.side:
        return None
    occ = occupancy(st)
    figures = starters(st, occ)
    counted = [count_options(st, f, occ) for f in figures]
    k = rng.below(sum(n for n, _shots in counted) + 1)  # the last one: end the turn
    for f, (n, shots) in zip(figures, counted, strict=True):
        if k < n:
            return option_command(st, f, short_name(st, f), figure_options(st, f, occ, shots)[k])
        k -= n
    return end_command(seat)
