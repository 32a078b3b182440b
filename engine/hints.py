"""Where a unit can go, found with a ruleset's own legal moves: the search behind ``Ruleset.hints``.

Movement is explored by playing the ruleset's legal move commands on copies of the state, one step at a
time, so every cell returned is the end of a chain of legal moves with what the unit has left. Nothing
is simulated by hand here, and the real state is never touched.
"""

from __future__ import annotations

import copy
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

MAX_STATES = 400  # a bound on the search, far above any unit's movement


def reach_by_steps(
    ruleset: Ruleset, state: Any, seat: str, start: Cell, step: Step, onward: Onward | None = None
) -> tuple[Cell, ...]:
    """Every cell ``seat``'s unit can end on by legal move commands from ``start``, nearest first (not
    ``start`` itself).

    A cell reached is searched on while ``seat`` still has that unit's moves to make (a step that hands
    the decision to another seat, e.g. a reaction, ends the chain there). Never raises for a legal state.
    """
    seen: set[Cell] = {start}
    out: list[Cell] = []
    frontier = [state]
    expanded = 0
    while frontier and expanded < MAX_STATES:
        nxt: list[Any] = []
        for st in frontier:
            expanded += 1
            for cmd in ruleset.legal_commands(st, seat):
                cell = step(st, cmd)
                if cell is None or cell in seen:
                    continue
                seen.add(cell)
                out.append(cell)
                # A deep copy of the saved form: some rulesets' to_data shares lists with the live state.
                after = ruleset.load_state(copy.deepcopy(st.to_data()))
                ruleset.execute(after, seat, cmd)
                if onward is None or onward(st, after, cell):
                    nxt.append(after)
        frontier = nxt
    return tuple(out)
