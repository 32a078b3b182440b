"""Skirm self-play fast path: the next seat straight from the rules, and a uniform legal pick.

Checking a command (``parse``) repeats the rules' checks; self-play and the search's rollouts pick from
the legal list itself and execute the pick directly.
"""

from __future__ import annotations

from engine.core import Command
from engine.ruleset import Chooser
from engine.rulesets.skirm import actions as A
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.state import SkirmState


def next_seat(st: SkirmState) -> str | None:
    """The one seat that must act now (None once the game is over)."""
    w = R.waiting(st)
    return None if w is None else w[0]


def sample(st: SkirmState, seat: str, rng: Chooser) -> Command | None:
    """A uniformly random legal command for ``seat``, standing-answer changes excluded (None: none)."""
    groups = A.listing(st, seat)  # standing-answer changes ('react') are never listed
    total = sum([len(g.items) for g in groups])
    return A.pick(groups, rng.below(total)) if total else None
