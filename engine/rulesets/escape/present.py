"""What ESCAPE shows: views per seat, the board Scene for the renderer, and a text board."""

from __future__ import annotations

from typing import Any

from engine.board_marks import SEAT_TEXT, seat_palette, unique_tags
from engine.geometry.square import cell_name, edge_name
from engine.grammar import joined
from engine.rulesets.escape import rules as R
from engine.rulesets.escape.board import EdgeKind
from engine.rulesets.escape.content import FACTION_NAMES, SKILL_NAMES
from engine.rulesets.escape.state import CBT, INT, MVT, EscapeState
from engine.scene import Arrow, Edge, Label, Panel, PanelUnit, Scene, Tile, Token

CRATE = "#8b5a2b"
FACE_DOWN = "#8a8f9c"
OBJECTIVE = "#d4b106"
ITEM = "#9b7fd1"
LAST_MOVE = "#ffe066"
ATTACK = "#ff4d4d"
ACTIVE_RING = "#ffffff"
WALL = "#cdd1da"
EDGE_LEGEND = {  # the renderer's door colours, named
    "door_closed": ("#b8743c", "closed door"),
    "door_open": ("#5fd27e", "open door"),
    "door_locked": ("#d9a400", "locked door (digit: difficulty)"),
}
ROOM_COLOURS = [
    "#3b4252",
    "#434c5e",
    "#3e4a3f",
    "#4a3f4f",
    "#4f4a3b",
    "#3b4a4f",
    "#4f3b3b",
    "#3f3f57",
    "#47503a",
]
CORRIDOR = "#2b2f38"
ITEM_MARKS = {
    "shield": "SH",
    "datadisk": "DD",
    "drugs": "CD",
    "nitro": "NV",
    "em": "EM",
    "gas": "GG",
    "medkit": "MK",
    "radio": "RA",
}


def token_public(t: Any) -> dict[str, Any]:
    """A token as anyone may see it: face-down tokens show only that they are tokens."""
    d: dict[str, Any] = {"id": t.id, "pos": cell_name(t.pos) if t.pos else None, "carrier": t.carrier}
    if t.kind == "crate" or t.face_up:
        d.update(kind=t.kind, item=t.item or None, value=t.value or None)
    else:
        d.update(kind="face-down")
    return d


def view(st: EscapeState, seat: str | None) -> dict[str, Any]:
    """Everything public (both players see the same; nobody sees face-down tokens or the generator)."""
    units = []
    for u in st.units.values():
        p = R.prof(u)
        units.append({
            "id": u.id, "name": p.name, "side": u.seat, "status": u.status, "pos": cell_name(u.pos) if u.pos else None,
            "life": max(0, p.life - u.damage), "life_max": p.life, "activated": u.activated,
            "left": {"mvt": R.left(st, u, MVT), "cbt": R.left(st, u, CBT), "int": R.left(st, u, INT)},
            "skills": [SKILL_NAMES[s] for s in p.skills], "carrying": token_public(st.tokens[u.carrying]) if u.carrying else None,
        })  # fmt: skip
    w = R.waiting(st)
    return {
        "scenario": st.scenario, "turn": st.turn, "turns": R.scen(st).turns, "phase": st.phase,
        "initiative": st.initiative, "event": st.event, "event_text": R.EVENTS.get(st.event, ""),
        "blackout_room": st.event_room, "active": st.active, "revolution_tokens": st.revolution,
        "carried_points": st.carried_points, "units": units,
        "tokens": [token_public(t) for t in st.tokens.values() if t.pos],
        "doors": {edge_name(*k): ("open" if d.open else "locked" if d.locked else "closed") for k, d in st.doors.items()},
        "waiting_for": w[0] if w else None, "result": st.result.to_data() if st.result else None,
        "policies": st.policies.get(seat, {}) if seat else {},
        "summary": R.scen(st).name,
    }  # fmt: skip


def static_layer(st: EscapeState) -> tuple[tuple[Tile, ...], tuple[Edge, ...]]:
    b = R.board(st)
    colours = {letter: ROOM_COLOURS[i % len(ROOM_COLOURS)] for i, letter in enumerate(b.rooms)}
    tiles = []
    for cell, letter in sorted(b.cell_room.items()):
        mark = next((str(n) for n, cells in b.airlocks.items() if cell in cells), "")
        tiles.append(Tile(cell, colours.get(letter, CORRIDOR), mark))
    edges = tuple(
        Edge(k[0], k[1], "strong_wall" if e.kind == EdgeKind.STRONG_WALL else "wall")
        for k, e in sorted(b.edges.items())
        if e.kind != EdgeKind.DOOR and k not in st.destroyed
    )
    return tuple(tiles), edges


def room_labels(st: EscapeState) -> tuple[Label, ...]:
    """Each room's name, written from its top-left square across the squares of that row it covers."""
    b = R.board(st)
    labels = []
    for letter in b.rooms:
        cells = sorted((c for c, r in b.cell_room.items() if r == letter), key=lambda c: (c[1], c[0]))
        if not cells or letter == ".":
            continue
        x, y = cells[0]
        span = 1
        while b.cell_room.get((x + span, y)) == letter:
            span += 1
        labels.append(Label((x, y), R.room_name(st, letter), span))
    return tuple(labels)


def unit_tags(st: EscapeState) -> dict[str, str]:
    """A unique two-letter board tag per unit: its name's first two letters where free."""
    cands = []
    for u in st.units.values():
        n = R.prof(u).name
        cands.append((u.id, (n[:2], n[0] + n[-1], n[0] + n[2:3])))
    return unique_tags(cands)


def seat_colours(st: EscapeState) -> dict[str, str]:
    """Each side's colour on the board (colour-blind safe, distinct)."""
    return seat_palette(list(FACTION_NAMES))


def scene(st: EscapeState, seat: str | None) -> Scene:
    """The board image: rooms and their names, walls, doors, units with life bars, tokens, the last
    activation, and the panel with a legend of every mark drawn."""
    b = R.board(st)
    tiles, edges = static_layer(st)
    colours = seat_colours(st)
    doors = tuple(
        Edge(k[0], k[1], "door_open" if d.open else "door_locked" if d.locked else "door_closed",
             label="" if d.open or not d.locked else str(d.difficulty))
        for k, d in sorted(st.doors.items())
    )  # fmt: skip
    tokens: list[Token] = []
    drawn: dict[str, tuple[str, str]] = {}  # legend entries by kind, in the order first drawn
    for t in st.tokens.values():
        if t.pos is None:
            continue
        if t.kind == "crate":
            tokens.append(Token(t.pos, "C", CRATE, "square", small=True))
            drawn["crate"] = (CRATE, "C crate")
        elif not t.face_up:
            tokens.append(Token(t.pos, "?", FACE_DOWN, "diamond", small=True))
            drawn["face-down"] = (FACE_DOWN, "? face-down token")
        elif t.kind == "objective":
            tokens.append(Token(t.pos, str(t.value), OBJECTIVE, "hex", text_fill="#000000", small=True))
            drawn["objective"] = (OBJECTIVE, "digit: objective (points)")
        else:
            mark = ITEM_MARKS.get(t.item, "?")
            tokens.append(Token(t.pos, mark, ITEM, "diamond", small=True))
            drawn[f"item:{mark}"] = (ITEM, f"{mark} {R.token_label(t)}")
    tags = unit_tags(st)
    panel_units = []
    for u in st.units.values():
        p = R.prof(u)
        colour = colours[u.seat]
        if u.status == "board" and u.pos:
            tokens.append(Token(u.pos, tags[u.id], colour, "circle", text_fill=SEAT_TEXT,
                                ring=ACTIVE_RING if u.id == st.active else None,
                                bar=(max(0, p.life - u.damage), p.life)))  # fmt: skip
        state = {"reserve": "to enter", "out": "taken out", "escaped": "escaped"}.get(u.status, "")
        detail = f"Mvt {R.left(st, u, MVT)} Cbt {R.left(st, u, CBT)} Int {R.left(st, u, INT)}"
        if u.carrying:
            detail += f" · {R.token_label(st.tokens[u.carrying])}"
        if state:
            detail = state
        panel_units.append(PanelUnit(f"{tags[u.id]} {p.name}", colour, (max(0, p.life - u.damage), p.life), detail,
                                     dim=u.activated or u.status in ("out", "escaped")))  # fmt: skip
    arrows = []
    if len(st.trail) > 1:
        arrows.append(Arrow(tuple(st.trail), LAST_MOVE, "path"))
    for src, dst in st.attacks:
        arrows.append(Arrow((src, dst), ATTACK, "attack"))
    w = R.waiting(st)
    lines = [
        f"Turn {st.turn}/{R.scen(st).turns}"
        + (f" · initiative {FACTION_NAMES[st.initiative]}" if st.initiative else "")
    ]
    if st.event:
        lines.append(
            f"Event {st.event}: {R.EVENTS[st.event].split(':')[0]}"
            + (f" ({R.room_name(st, st.event_room)})" if st.event_room else "")
        )
    if st.active:
        lines.append(f"Active: {R.name(st.units[st.active])}")
    if st.result:
        lines.append(st.result.reason)
    elif w:
        lines.append(f"To act: {FACTION_NAMES[w[0]]}")
    lines.append(
        f"Revolution tokens: {st.revolution}"
        + (f" · points out: {st.carried_points}" if R.scen(st).objectives else "")
    )
    exits = sorted(R.scen(st).exits)
    if exits:
        carrying = " carrying an objective" if R.scen(st).exit_needs == "objective" else ""
        lines.append(f"Resistance exits{carrying}: airlock {joined([str(n) for n in exits], 'or')}")
    legend: list[tuple[str, str]] = [(colours[s], n) for s, n in FACTION_NAMES.items()]
    if st.active:
        legend.append((ACTIVE_RING, "white ring: active unit"))
    legend += list(drawn.values())
    styles = {e.style for e in doors}
    legend += [(EDGE_LEGEND[k][0], EDGE_LEGEND[k][1]) for k in EDGE_LEGEND if k in styles]
    legend.append((WALL, "wall (thick: strong wall)"))
    if any(t.mark for t in tiles):
        legend.append(("#a4abb8", "corner digit: airlock"))
    if arrows and arrows[0].kind == "path":
        legend.append((LAST_MOVE, "last move"))
    if st.attacks:
        legend.append((ATTACK, "attack"))
    destroyed = ",".join(edge_name(*k) for k in st.destroyed)
    return Scene(
        grid="square", width=b.width, height=b.height, static_key=f"escape:{b.key}:{destroyed}",
        tiles=tiles, edges=edges, dynamic_edges=doors, tokens=tuple(tokens), arrows=tuple(arrows),
        labels=room_labels(st),
        panel=Panel(f"ESCAPE · {R.scen(st).name}", tuple(lines), tuple(panel_units), tuple(legend)),
    )  # fmt: skip


def text_board(st: EscapeState, seat: str | None) -> str:
    """The board as text: a status header, the map (units UPPER Resistance, lower I.S.C.; airlock numbers
    and token marks kept), the tokens by id (what ``take`` and ``reveal`` name), the characters and a legend.
    """
    b = R.board(st)
    occ = {u.pos: u for u in st.units.values() if u.status == "board" and u.pos}
    marks: dict[Any, str] = {}
    for t in st.tokens.values():
        if t.pos:
            marks[t.pos] = "+" if t.pos in marks else _token_mark(t)
    airlock_of = {c: str(n) for n, cells in b.airlocks.items() for c in cells}
    lines = _text_header(st)
    lines.append("   " + "".join(f"{chr(97 + x):<3}" for x in range(b.width)))

    def edge_h(y: int, x: int) -> str:
        if y in (0, b.height):
            return "--"
        k = ((x, y - 1), (x, y))
        if k in st.doors:
            d = st.doors[k]
            return "  " if d.open else f"L{d.difficulty}" if d.locked else "DD"
        e = b.edges.get(k)
        if e is None or k in st.destroyed:
            return "  "
        return "##" if e.kind == EdgeKind.STRONG_WALL else "--"

    def edge_v(y: int, x: int) -> str:
        if x in (-1, b.width - 1):
            return "|"
        k = ((x, y), (x + 1, y))
        if k in st.doors:
            d = st.doors[k]
            return " " if d.open else str(d.difficulty) if d.locked else "D"
        e = b.edges.get(k)
        if e is None or k in st.destroyed:
            return " "
        return "#" if e.kind == EdgeKind.STRONG_WALL else "|"

    for y in range(b.height + 1):
        lines.append("   +" + "+".join(edge_h(y, x) for x in range(b.width)) + "+")
        if y == b.height:
            break
        row = f"{y + 1:>2} |"
        for x in range(b.width):
            c = (x, y)
            if c in occ:
                u = occ[c]
                n = R.prof(u).name[:2]
                cell = n.upper() if u.seat == "resistance" else n.lower()
            else:
                letter = b.cell_room[c]
                first = airlock_of.get(c) or (" " if letter == "." else letter.lower())
                cell = first + marks.get(c, " ")
            row += cell + edge_v(y, x)
        lines.append(row)
    lines.append("")
    lying = [t for t in st.tokens.values() if t.pos]
    if lying:
        lines.append(
            "Tokens: "
            + " · ".join(
                f"{t.id} {cell_name(t.pos)} {R.token_label(t)}" for t in sorted(lying, key=_token_order)
            )
        )
    for u in st.units.values():
        p = R.prof(u)
        where = cell_name(u.pos) if u.pos else u.status
        mark = "*" if u.id == st.active else " "
        carry = f"  carries {u.carrying} ({R.token_label(st.tokens[u.carrying])})" if u.carrying else ""
        lines.append(f"{mark}{p.name:<9} {FACTION_NAMES[u.seat]:<10} {where:<8} life {max(0, p.life - u.damage)}/{p.life}  "
                     f"Mvt {R.left(st, u, MVT)} Cbt {R.left(st, u, CBT)} Int {R.left(st, u, INT)}"
                     f"{'  done' if u.activated else ''}{carry}")  # fmt: skip
    lines.append(
        "Airlocks: "
        + " · ".join(
            f"{n} {' '.join(cell_name(c) for c in cells)}" for n, cells in sorted(b.airlocks.items())
        )
    )
    lines += TEXT_LEGEND
    return "\n".join(lines)


TEXT_LEGEND = (
    "Legend: AS Resistance character, as I.S.C. character, * active; room letter (q Quarters...) or airlock "
    "number, then a token: x crate, ? face-down, $ objective, e equipment, + several.",
    "Walls -- |, indestructible ## #, closed door DD D, locked door L7 7 (its difficulty), open door blank.",
)


def _token_mark(t: Any) -> str:
    if t.kind == "crate":
        return "x"  # not 'c', which is the Central room's letter
    if not t.face_up:
        return "?"
    return "$" if t.kind == "objective" else "e"


def _token_order(t: Any) -> int:
    return int(t.id[1:]) if t.id[1:].isdigit() else 0


def _text_header(st: EscapeState) -> list[str]:
    """The text board's status lines: scenario, turn, initiative, event, tokens, who acts."""
    s = R.scen(st)
    head = f"ESCAPE · {s.number}. {s.name} · " + (
        f"Turn {st.turn}/{s.turns}" if st.turn else f"setup ({s.turns} turns)"
    )
    if st.initiative:
        head += f" · initiative {FACTION_NAMES[st.initiative]}"
    lines = [head]
    if not st.turn and st.setup_dice:
        lines.append(R.setup_initiative_text(st))
    if st.event:
        room = f" (in the {R.room_name(st, st.event_room)})" if st.event_room else ""
        lines.append(f"Event {st.event}: {R.EVENTS[st.event]}{room}")
    extra = f" · objective points out: {st.carried_points}" if s.objectives else ""
    lines.append(f"Revolution tokens: {st.revolution}{extra}")
    w = R.waiting(st)
    if st.result:
        lines.append(st.result.reason)
    elif w:
        lines.append(
            f"To act: {FACTION_NAMES[w[0]]}"
            + (f" ({R.name(st.units[st.active])} active)" if st.active else "")
        )
    return lines
