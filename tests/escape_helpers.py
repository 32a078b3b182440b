"""Build ESCAPE positions directly for rule tests: units on squares, dice scripted, straight to activation."""

from __future__ import annotations

from engine import Game, new_game
from engine.core import Event
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
    trim: bool = True,
) -> Game:
    """A game in turn 1's activation step with only ``units`` (id -> square, or 'reserve') in play.

    With ``trim`` (the default) each faction's line-up is cut down to the units named for it, so no
    absent character counts as taken out at the end of a turn; a faction with no unit named (or
    ``trim=False``) keeps its default line-up, its other characters marked taken out so they do not act.
    ``dice`` are served next.
    Every token is cleared; standing answers default to 'ask' for everything so tests see each decision.
    """
    options: dict[str, list[str]] = {}
    if trim and not lineups:
        from engine.rulesets.escape.content import profiles

        for faction in ("resistance", "isc"):
            mine = [u for u in units if profiles()[u].faction == faction]
            if mine:
                options[faction] = mine
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


def sq(name: str) -> tuple[int, int]:
    """A square of the 20x20 L.A.B. 03 board from its typed name (``c4``)."""
    return parse_cell(name, 20, 20)


def edge(a: str, b: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The edge key between two named squares."""
    x, y = sq(a), sq(b)
    return (x, y) if x <= y else (y, x)


def said(events: list[Event]) -> str:
    """Every event's text, joined, for narration checks."""
    return " ".join(e.text for e in events)


def lay(game: Game, kind: str, where: str, *, item: str = "", value: int = 0, face_up: bool = False) -> str:
    """Put a crate / equipment / objective token on a square; returns its id."""
    from engine.rulesets.escape.rules import new_token

    return new_token(state(game), kind, sq(where), item=item, value=value, face_up=face_up)


def equip(game: Game, unit: str, item: str, *, kind: str = "equipment", value: int = 0) -> str:
    """Give ``unit`` a face-up carried token (an equipment item, or ``kind='objective'``); returns its id."""
    from engine.rulesets.escape.rules import new_token

    st = state(game)
    u = st.units[unit]
    tid = new_token(st, kind, u.pos or (0, 0), item=item, value=value, face_up=True)
    tok = st.tokens[tid]
    tok.pos, tok.carrier, u.carrying = None, unit, tid
    return tid


def finish_turn(game: Game) -> list[Event]:
    """Play the rest of the turn: the first choice offered, then every unit activates and ends at once."""
    out: list[Event] = []
    st = state(game)
    turn = st.turn
    for _ in range(50):
        if st.turn != turn or game.outcome is not None:
            break
        side = next(iter(game.awaiting()[0].seats))
        if st.phase in ("first", "event_choice"):
            out += game.apply(side, game.legal_commands(side)[0])
            continue
        if st.active:
            out += game.apply(side, "end")
            continue
        unit = next(
            u for u in st.units.values() if u.seat == side and not u.activated and u.status == "board"
        )
        out += game.apply(side, f"activate {unit.id}")
        out += game.apply(side, "end")
    return out
