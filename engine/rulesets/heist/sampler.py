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
    """A uniformly random legal command for ``seat`` (None when it has none): the pick :func:`A.legal`'s
    list would give, without building the planning token's many commands."""
    p = st.players.get(seat)
    if st.phase == "plan" and p is not None:
        if p.ready:
            return None
        spots, extras = A.plan_spots(st, p), A.plan_extras(st, p)
        if not spots and not extras:
            return None
        # legal lists the planning tokens, then the rest, then reading the deck
        i = rng.below(len(spots) + len(extras) + 1)
        if i < len(spots):
            return A.plan_command(st, p, spots[i])
        i -= len(spots)
        return extras[i] if i < len(extras) else A.deck_command(st)
    options = A.legal(st, seat)
    return options[rng.below(len(options))] if options else None
