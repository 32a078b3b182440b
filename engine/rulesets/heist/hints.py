"""A heist's "where can I go": a character's reachable tiles and the chits it may deal with, and the round."""

from __future__ import annotations

from typing import Any

from engine.core import Command, Hints
from engine.hints import reach_by_steps
from engine.ruleset import Ruleset
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState
from engine.scene import Cell

#: Commands aimed at a tile's chit: 🔓 a lock, 👊 a guard or dog, 📷 a camera.
TARGET_VERBS = ("unlock", "subdue", "disable")
PHASES = {"plan": "plan", "action": "action", "event": "event", "escape": "escape"}


def hints(ruleset: Ruleset, st: HeistState, seat: str) -> Hints:
    """The seat's character's reach (tiles its legal ➜ moves chain to with the moves its action has
    left) and the tiles holding a chit it may deal with now; empty unless it is in play in the action
    phase. A move onto an unknown tile ends the chain there: what the tile holds is not known yet.
    Never raises."""
    p = st.players.get(seat)
    if p is None or p.status != "in" or not p.pos or st.phase != "action":
        return Hints()
    name = R.character(p).name

    def step(_st: Any, cmd: Command) -> Cell | None:
        return R.cell_of(st, cmd.args[0]) if cmd.verb == "move" and len(cmd.args) == 1 else None

    def onward(before: Any, _after: Any, cell: Cell) -> bool:
        tile = next((n for n, t in before.tiles.items() if R.cell_of(before, n) == cell), None)
        return tile is None or not before.tiles[tile].unknown

    reach = reach_by_steps(ruleset, st, seat, R.cell_of(st, p.pos), step, onward)
    targets: list[Cell] = []
    for cmd in ruleset.legal_commands(st, seat):
        if cmd.verb in TARGET_VERBS and len(cmd.args) == 1:
            c = R.cell_of(st, cmd.args[0])
            if c not in targets:
                targets.append(c)
    return Hints(unit=name, reach=reach, targets=tuple(targets))


def turn_label(st: HeistState) -> str:
    """``round 2 · plan`` (the phase in one word; ``heist over`` at the end)."""
    if st.result is not None:
        return f"heist over · round {st.round}"
    return f"round {st.round} · {PHASES.get(st.phase, st.phase)}"
