"""Dark Realms self-play fast path: the next seat straight from the state, and a uniform legal pick.

Self-play and the search's rollouts ask for the seat to act after every command; :meth:`awaiting` would
list the active hero's whole set of commands only to name its seat.
"""

from __future__ import annotations

from engine.core import Command
from engine.ruleset import Chooser
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat.state import CCState


def next_seat(st: CCState) -> str | None:
    """The seat that must act now, as :meth:`awaiting` names it (the first by name of the heroes still to
    commit, or the active figure's seat); None once the game is over or nobody is asked."""
    if st.result is not None:
        return None
    if st.phase == "commit":
        waiting = [
            str(f["seat"])
            for f in st.figures.values()
            if f["kind"] == "hero" and f["hp"] > 0 and not f.get("out") and f["id"] not in st.commits
        ]
        return min(waiting) if waiting else None
    fid = st.turn.get("fig")
    return str(st.figures[fid]["seat"]) if fid else None


def sample(st: CCState, seat: str, rng: Chooser) -> Command | None:
    """A uniformly random legal command for ``seat`` (None: it has none): the same pick as from
    :func:`~engine.rulesets.cardcombat.actions.legal`, with only the picked move built."""
    parts = A.listing(st, seat)
    total = sum([len(part) for part in parts])
    if not total:
        return None
    i = rng.below(total)
    for part in parts:
        if i < len(part):
            return part[i]
        i -= len(part)
    raise AssertionError("a pick beyond the listing")
