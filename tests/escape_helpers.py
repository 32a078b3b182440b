"""Build ESCAPE positions directly for rule tests: units on squares, dice scripted, straight to activation."""

from __future__ import annotations

from engine import Game, new_game
from engine.geometry.square import parse_cell
from engine.rulesets.escape.state import EscapeState


def arena(
    units: dict[str, str],
    *,
    dice: list[int] | None = None,
    side: str = "resistance",
    event: int = 7,
    scenario: str = "infiltration",
    lineups: dict[str, list[str]] | None = None,
    policies: dict[str, dict[str, str]] | None = None,
) -> Game:
    """A game in turn 1's activation step with only ``units`` (id -> square, or 'reserve') in play.

    Other characters of the line-ups are marked taken out so they do not act. ``dice`` are served next.
    Every token is cleared; standing answers default to 'ask' for everything so tests see each decision.
    """
    options = {}
    if lineups:
        options = {"resistance": lineups["resistance"], "isc": lineups["isc"]}
    game = new_game(
        "escape", scenario=scenario, seats={"resistance": "r", "isc": "i"}, seed=1, options=options
    )
    st: EscapeState = game.state  # type: ignore[assignment]
    st.stack.clear()
    st.tokens.clear()
    st.phase = "activation"
    st.turn = 1
    st.event = event
    st.initiative = side
    st.next_side = side
    st.active = ""
    for u in st.units.values():
        if u.id in units:
            where = units[u.id]
            u.status, u.pos = (
                ("reserve", None) if where == "reserve" else ("board", parse_cell(where, 20, 20))
            )
        else:
            u.status, u.pos, u.out_turn = "out", None, 99
    st.policies = policies or {
        s: {"dodge": "ask", "countermeasure": "ask", "reroll": "ask"} for s in ("resistance", "isc")
    }
    st.rng.script = list(dice or [])
    return game


def state(game: Game) -> EscapeState:
    """The game's ESCAPE state."""
    st: EscapeState = game.state  # type: ignore[assignment]
    return st
