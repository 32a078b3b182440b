"""Heist self-play fast path: the next seat without building decisions, and a uniform legal pick.

Checking a command (``parse``) lists the legal commands again; self-play and the search's rollouts pick
from the list itself and execute the pick directly, which is what makes them fast.
"""

from __future__ import annotations

from engine.core import Command
from engine.ruleset import Chooser
from engine.rulesets.heist import actions as A
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState


def next_seat(st: HeistState) -> str | None:
    """The first seat by name of the open decision (as ``awaiting`` lists it), None when nobody acts."""
    if st.phase == "over":
        return None
    if st.phase == "plan":
        seats = [s for s in st.seats if not st.players[s].ready]
    elif st.phase in ("event", "escape"):
        seats = [p.seat for p in R.in_play(st)]
    else:
        seats = [p.seat for p in R.in_play(st) if not p.done]
    return min(seats) if seats else None


def sample(st: HeistState, seat: str, rng: Chooser) -> Command | None:
    """A uniformly random legal command for ``seat`` (None when it has none)."""
    options = A.legal(st, seat)
    return options[rng.below(len(options))] if options else None
