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


# Draws among the candidates before the sampler lists the legal commands exactly.
_DRAWS = 4


def sample(st: SkirmState, seat: str, rng: Chooser) -> Command | None:
    """A uniformly random legal command for ``seat``, standing-answer changes excluded (None: none).

    Draws among the candidates (ranged attacks, Command orders and hexes unchecked) until one is legal: each
    legal command stays equally likely, and only the drawn candidate's line of sight is worked out. After a few misses it draws
    among the legal commands listed exactly, which is uniform too."""
    groups = A.listing(st, seat, unchecked=True)  # standing-answer changes ('react') are never listed
    total = sum([len(g.items) for g in groups])
    if not total:
        return None
    for _ in range(_DRAWS):
        command = A.pick_candidate(groups, rng.below(total))
        if command is not None:
            return command
    exact = [A.Group(list(g), None) if g.allows is not None else g for g in groups]
    total = sum([len(g.items) for g in exact])
    return A.pick(exact, rng.below(total)) if total else None
