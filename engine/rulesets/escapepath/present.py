"""What Escape Path shows: the view (everything is public but the dice), the board Scene with every
figure's facing and the active figure's arc of fire shaded, and a text board."""

from __future__ import annotations

from typing import Any

from engine.core import Hints
from engine.geometry.square import cell_name
from engine.rulesets.escapepath import rules as R
from engine.rulesets.escapepath.board import fire_arc_cells, max_ap, name, occupancy, scen
from engine.rulesets.escapepath.content import DIRS, bogie_kinds
from engine.rulesets.escapepath.moves import reach
from engine.rulesets.escapepath.state import SWARM, TEAM, Figure, PathState
from engine.scene import Arrow, Panel, PanelUnit, Scene, Tile, Token, TokenShape

SIDE_COLOURS = {TEAM: "#e8833a", SWARM: "#9b59d0"}
KIND_COLOURS = {"alien": "#5fbf3f", "vampire": "#b0303a", "zombie": "#7a8f5a", "mummy": "#c9b27a"}
FLOOR, WALL, VOID, CLOSED = "#3b4252", "#15171c", "#1f4f7a", "#6b3a2a"
ENTRY, ESCAPE, OBJECTIVE = "#4f3b57", "#2f6b45", "#6b5a1f"


def figure_view(st: PathState, f: Figure) -> dict[str, Any]:
    """One figure as anyone may see it."""
    return {
        "id": f.id, "name": name(st, f), "side": f.side, "kind": f.kind, "status": f.status,
        "pos": cell_name(f.pos) if f.pos else None, "facing": DIRS[f.facing] if f.pos else None,
        "ap": f.ap, "ap_max": max_ap(f), "bombs": f.bombs,
    }  # fmt: skip


def view(st: PathState, seat: str | None) -> dict[str, Any]:
    """Everything but the generator: Escape Path hides nothing but the dice."""
    s = scen(st)
    return {
        "scenario": s.id, "turn": st.turn, "turns": s.turns, "side": st.side, "active": st.active,
        "units": [figure_view(st, f) for f in st.figures.values()],
        "closed": [cell_name(c) for c in st.closed], "trapped": list(st.trapped),
        "pending": dict(st.pending) if st.pending else None, "score": R.score(st, False),
        "target": s.scoring["target"], "escaped": st.escaped, "kills": st.kills,
        "objectives": [cell_name(c) for c in st.objectives], "cap": s.cap,
        "policies": dict(st.policies) if seat == TEAM else {}, "goal": s.goal, "description": s.description,
        "result": st.result.to_data() if st.result else None, "summary": f"{s.name}: {s.goal}",
    }  # fmt: skip


def _tile(st: PathState, c: tuple[int, int]) -> Tile:
    s = scen(st)
    if c in s.walls:
        return Tile(c, WALL)
    if c in s.voids:
        return Tile(c, VOID)
    if c in st.closed:
        return Tile(c, CLOSED, "*")
    if c in s.entries:
        return Tile(c, ENTRY, "E")
    if c in s.escapes:
        return Tile(c, ESCAPE, "X")
    if c in s.objectives:
        return Tile(c, OBJECTIVE, "" if c in st.objectives else "O")
    return Tile(c, FLOOR)


def token_label(f: Figure) -> str:
    """1-3 characters drawn on a figure's token."""
    return f.id[:2].title() if f.side == TEAM else f.id[0].upper() + f.id[2:]


def scene(st: PathState, seat: str | None) -> Scene:
    """The board image: map, blasts, figures with facing, the active figure's shaded arc, last activation."""
    s = scen(st)
    tiles = tuple(_tile(st, (x, y)) for y in range(s.height) for x in range(s.width))
    tokens = []
    for f in st.figures.values():
        if f.status != "board" or f.pos is None:
            continue
        fill = SIDE_COLOURS[TEAM] if f.side == TEAM else KIND_COLOURS.get(f.kind, SIDE_COLOURS[SWARM])
        shape: TokenShape = "circle" if f.side == TEAM else "diamond"
        tokens.append(
            Token(
                f.pos,
                token_label(f),
                fill,
                shape,
                text_fill="#000000" if f.side == SWARM else "#ffffff",
                ring="#ffffff" if f.id == st.active else None,
                facing=f.facing,
            )  # fmt: skip
        )
    active = st.figures.get(st.active)
    shaded = tuple(fire_arc_cells(st, active)) if active is not None and active.side == TEAM else ()
    arrows = []
    if len(st.trail) > 1:
        arrows.append(Arrow(tuple(st.trail), "#ffe066", "path"))
    for a, b in st.attacks:
        arrows.append(Arrow((a, b), "#ff4d4d", "attack"))
    lines = [f"Turn {min(st.turn, s.turns)}/{s.turns} · {'team' if st.side == TEAM else 'swarm'} moving"]
    lines.append(
        f"Score {R.score(st, False)}/{s.scoring['target']} · escaped {st.escaped} · kills {st.kills}"
    )
    if st.pending:
        lines.append(f"{name(st, st.figures[st.pending['char']])}: panic shot at {st.pending['bogie']}?")
    if st.result:
        lines.append(st.result.reason)
    units = []
    for f in st.figures.values():
        if f.side == TEAM:
            detail = {"dead": "dead", "escaped": "escaped"}.get(
                f.status, f"AP {f.ap}/{max_ap(f)} · bombs {f.bombs}"
            )
            units.append(
                PanelUnit(
                    name(st, f), SIDE_COLOURS[TEAM], None, detail, dim=f.status != "board" or f.id in st.done
                )
            )
    in_play = [f for f in st.figures.values() if f.side == SWARM and f.status == "board"]
    kind = bogie_kinds()[s.kind]
    lines.append(f"In play: {len(in_play)}/{s.cap} ({kind.name}, {kind.speed})")
    legend = ((SIDE_COLOURS[TEAM], "team"), (KIND_COLOURS.get(s.kind, "#888888"), kind.name),
              (ENTRY, "entry"), (ESCAPE, "escape"), (CLOSED, "blast"), ("#ffe066", "last move"))  # fmt: skip
    closed = ",".join(cell_name(c) for c in st.closed)
    taken = ",".join(cell_name(c) for c in st.objectives)
    return Scene(
        grid="square", width=s.width, height=s.height, static_key=f"escapepath:{s.id}:{closed}:{taken}",
        tiles=tiles, tokens=tuple(tokens), arrows=tuple(arrows), shaded=shaded,
        panel=Panel(f"Escape Path · {s.name}", tuple(lines), tuple(units), legend),
    )  # fmt: skip


def hints(st: PathState, seat: str) -> Hints:
    """The active figure's reachable squares and the bogies it can hit (empty when none of ``seat``'s is active)."""
    f = st.figures.get(st.active)
    if f is None or f.side != seat or f.pos is None:
        return Hints()
    reachable = tuple(sorted(reach(st, f)))
    targets: tuple[tuple[int, int], ...] = ()
    if f.side == TEAM:
        arc = set(fire_arc_cells(st, f))
        targets = tuple(sorted(c for c, o in occupancy(st).items() if o.side == SWARM and c in arc))
    return Hints(f.id, reachable, targets)


ARROWS = ("^", "/", ">", "\\", "v", "/", "<", "\\")


def text_board(st: PathState, seat: str | None) -> str:
    """The map as text: characters in capitals, bogies in lower case, each followed by its facing arrow."""
    s = scen(st)
    occ = occupancy(st)
    lines = ["    " + "".join(f"{chr(97 + x):<2}" for x in range(s.width))]
    for y in range(s.height):
        row = f"{y + 1:>3} "
        for x in range(s.width):
            c = (x, y)
            f = occ.get(c)
            if f is not None:
                letter = f.id[0].upper() if f.side == TEAM else f.id[0]
                row += letter + ARROWS[f.facing]
            elif c in s.walls:
                row += "##"
            elif c in s.voids:
                row += "~~"
            elif c in st.closed:
                row += "**"
            elif c in s.entries:
                row += "E "
            elif c in s.escapes:
                row += "X "
            elif c in s.objectives and c not in st.objectives:
                row += "O "
            else:
                row += ". "
        lines.append(row)
    lines.append(
        f"Turn {st.turn}/{s.turns}, {st.side} moving. Score {R.score(st, False)}/{s.scoring['target']}."
    )
    for f in st.figures.values():
        if f.status == "pool":
            continue
        where = cell_name(f.pos) if f.pos else f.status
        face = DIRS[f.facing] if f.pos else ""
        mark = "*" if f.id == st.active else " "
        lines.append(
            f"{mark}{name(st, f):<16} {where:<8} {face:<3} AP {f.ap}"
            + (f" bombs {f.bombs}" if f.side == TEAM else "")
        )
    pool = sum(1 for f in st.figures.values() if f.status == "pool")
    lines.append(f"Swarm pool: {pool}")
    return "\n".join(lines)
