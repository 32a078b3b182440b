"""Where a unit can go, found with a ruleset's own legal moves: the search behind ``Ruleset.hints``.

Movement is explored by playing the ruleset's legal move commands on copies of the state, one step at a
time, so every cell returned is the end of a chain of legal moves with what the unit has left. Nothing
is simulated by hand here, and the real state is never touched.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from engine.core import Command
from engine.ruleset import Ruleset
from engine.scene import Cell

#: ``step(state, command)``: the cell ``command`` moves the hinted unit to, or None if it is no such move.
Step = Callable[[Any, Command], Cell | None]
#: ``onward(before, after, cell)``: whether the unit may be searched on from ``cell`` (False, e.g., when
#: the step revealed something the seat could not have known).
Onward = Callable[[Any, Any, Cell], bool]

MAX_STATES = 2000  # a bound on the search, far above any unit's movement
PATH_KEYS = ("trail", "attacks")  # how a unit got somewhere, drawn but not a difference in what it can do


def situation(state: Any) -> str:
    """A state's saved form without its path history: two move chains ending in the same situation
    (same square, same actions left, same everything else) are searched on once."""
    data = {k: v for k, v in state.to_data().items() if k not in PATH_KEYS}
    return json.dumps(data, sort_keys=True, default=str)


def reach_by_steps(
    ruleset: Ruleset,
    state: Any,
    seat: str,
    start: Cell,
    step: Step,
    onward: Onward | None = None,
    depth: int = 1_000,
) -> tuple[Cell, ...]:
    """Every cell ``seat``'s unit can end on by legal move commands from ``start``, nearest first (not
    ``start`` itself).

    Every distinct situation a chain of moves reaches is searched on (so a cheaper way to a square is
    never hidden by a dearer one found first) while ``seat`` still has that unit's moves to make; a step
    that hands the decision to another seat (a reaction) ends the chain there; so does ``depth`` (the
    most move commands in a chain). Never raises for a legal state.
    """
    cells: dict[Cell, None] = {}
    seen = {situation(state)}
    frontier = [state]
    expanded = 0
    while frontier and expanded < MAX_STATES and depth > 0:
        depth -= 1
        nxt: list[Any] = []
        for st in frontier:
            expanded += 1
            for cmd in ruleset.legal_commands(st, seat):
                cell = step(st, cmd)
                if cell is None:
                    continue
                if cell != start:
                    cells.setdefault(cell)
                if depth == 0:
                    continue
                # A deep copy of the saved form: some rulesets' to_data shares lists with the live state.
                after = ruleset.load_state(copy.deepcopy(st.to_data()))
                ruleset.execute(after, seat, cmd)
                key = situation(after)
                if key in seen or (onward is not None and not onward(st, after, cell)):
                    continue
                seen.add(key)
                nxt.append(after)
        frontier = nxt
    return tuple(cells)
