"""What Skirm shows: the view (no hidden information), the board Scene for the renderer, and a text board."""

from __future__ import annotations

from typing import Any

from engine.board_marks import SEAT_TEXT, seat_palette, unique_tags
from engine.geometry.square import cell_name, edge_name
from engine.grammar import plural
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.content import factions, skill
from engine.rulesets.skirm.state import DOWNED, STANDING, SkirmState
from engine.scene import Arrow, Edge, Panel, PanelUnit, Scene, Tile, Token, TokenShape

HEIGHT_FILLS = ("#3d4a3a", "#5b6b4e", "#7d8a63", "#a0a57a", "#c2bf92")
DIFFICULT = "#5a4a33"
STAIRS = "#6f6a5a"
SOLID = "#2a2a2e"
ZONE_TINT = {0: "#3a4658", 1: "#58403a"}
OBJECTIVE = "#f1c40f"
MARKER = "#1abc9c"


def unit_public(st: SkirmState, u: Any) -> dict[str, Any]:
    """A unit as anyone may see it."""
    t = R.ut(u)
    return {
        "id": u.id, "name": u.name, "type": u.type, "side": u.seat, "state": u.state,
        "pos": cell_name(u.pos) if u.pos else None, "activated": u.activated,
        "act": t.act, "act_left": R.act_left(u) if st.active == u.id else (0 if u.activated else R.activation_act(u)),
        "arm": t.arm, "msk": t.msk, "rsk": t.rsk, "rules": sorted(t.rules) + ([f"LD{t.leader}"] if t.leader else [])
        + ([f"LP{t.leap}"] if t.leap else []),
        "weapons": u.weapons, "skills": u.skills, "carrying": u.carrying or None, "stun": u.stun,
        "ward": u.ward, "surge": u.surge, "spent": u.spent,
    }  # fmt: skip


def view(st: SkirmState, seat: str | None) -> dict[str, Any]:
    """Everything public: Skirm has no hidden information apart from the dice generator."""
    m = B.mission(st)
    e = m.events.get(st.event)
    w = R.waiting(st)
    return {
        "mission": m.id, "mission_name": m.name, "map": m.map.id, "turn": st.turn, "turns": R.TURNS,
        "phase": st.phase, "initiative": st.initiative,
        "event": {"roll": st.event, "name": e.name, "text": R.EVENT_TEXT[e.effect]} if e else None,
        "orders": dict(st.orders), "points": dict(st.points), "active": st.active, "ordered": st.ordered,
        "zones": dict(st.zones),
        "squads": {s: {k: st.squads[s][k] for k in ("name", "faction", "cost", "cap")} for s in R.SEATS},
        "units": [unit_public(st, u) for u in st.units.values()],
        "objectives": [{"id": o["id"], "pos": cell_name((o["pos"][0], o["pos"][1])), "planted": o["planted"] or None,
                        "gone": o["gone"], "controller": (R.controller(st, (o["pos"][0], o["pos"][1])) or None)
                        if not o["gone"] else None} for o in st.objectives],
        "markers": [{"id": k, "pos": cell_name((v["pos"][0], v["pos"][1])) if v["pos"] else None,
                     "carrier": v["carrier"] or None} for k, v in sorted(st.markers.items())],
        "doors": {edge_name(*k): "open" if v else "closed" for k, v in sorted(st.doors.items())},
        "waiting_for": w[0] if w else None, "result": st.result.to_data() if st.result else None,
        "intro": st.intro, "summary": f"{m.name} on {m.map.name}",
    }  # fmt: skip


def static_layer(st: SkirmState) -> tuple[tuple[Tile, ...], tuple[Edge, ...]]:
    """Floor tiles (height shades, difficult ground, stairs, solid blocks, deployment zones) and walls."""
    m = B.mission(st)
    bm = m.map
    zone_of = {c: i for i, z in enumerate(m.zones.values()) for c in z}
    tiles = []
    for c in sorted(bm.terrain):
        t, h = bm.terrain[c], bm.height[c]
        fill = HEIGHT_FILLS[min(h, len(HEIGHT_FILLS) - 1)]
        if t == "~":
            fill = DIFFICULT
        elif t == "/":
            fill = STAIRS
        elif t == "X":
            fill = SOLID
        elif h == 0 and c in zone_of:
            fill = ZONE_TINT[zone_of[c]]
        mark = {"~": "~", "/": "/", "X": "X"}.get(t, "")
        if h and t != "X":
            mark = f"{h}{mark}"
        tiles.append(Tile(c, fill, mark))
    edges = [Edge(k[0], k[1], "wall") for k in sorted(bm.low)]
    edges += [Edge(k[0], k[1], "strong_wall") for k in sorted(bm.high)]
    edges += [
        Edge(k[0], k[1], "gate", "climb") for k in sorted(bm.climb) if k not in bm.low and k not in bm.high
    ]
    return tuple(tiles), tuple(edges)


def unit_tags(st: SkirmState) -> dict[str, str]:
    """A unique board tag per unit (mirror matches too): the rules' label where free, else the id's
    first letter and number, else a numbered initial."""
    labels = R.unit_labels(st)
    cands = []
    for u in st.units.values():
        digits = "".join(ch for ch in u.id if ch.isdigit())
        cands.append((u.id, (labels[u.id], u.id[0].upper() + (digits[-1:] or u.id[1:2]), u.id[:2].upper())))
    return unique_tags(cands)


def seat_colours(st: SkirmState) -> dict[str, str]:
    """Each seat's colour on the board: by seat, not faction, so a mirror match stays two colours."""
    return seat_palette(R.SEATS)


def scene(st: SkirmState, seat: str | None) -> Scene:
    """The board image: map, doors, objectives, markers, units with state rings, last activation, panel."""
    m = B.mission(st)
    tiles, edges = static_layer(st)
    doors = tuple(Edge(k[0], k[1], "door_open" if v else "door_closed") for k, v in sorted(st.doors.items()))
    labels = unit_tags(st)
    colours = seat_colours(st)
    tokens: list[Token] = []
    for o in st.objectives:
        if not o["gone"]:
            ring = colours[o["planted"]] if o["planted"] else None
            tokens.append(Token((o["pos"][0], o["pos"][1]), "O" + o["id"], OBJECTIVE, "hex", text_fill="#000000",
                                ring=ring, small=True))  # fmt: skip
    for _mid, v in sorted(st.markers.items()):
        if v["pos"]:
            tokens.append(
                Token((v["pos"][0], v["pos"][1]), "D", MARKER, "diamond", text_fill="#000000", small=True)
            )
    panel_units = []
    for u in st.units.values():
        colour = colours[u.seat]
        if B.on_map(u) and u.pos is not None:
            ring = (
                "#ffe066"
                if u.id in (st.active, st.ordered)
                else "#ff4d4d"
                if u.state == DOWNED
                else "#f0f0f0"
            )
            label = labels[u.id] if u.state == STANDING else labels[u.id].lower()
            shape: TokenShape = "circle" if u.state == STANDING else "square"
            tokens.append(Token(u.pos, label, colour, shape, text_fill=SEAT_TEXT, ring=ring))
        left = R.act_left(u) if st.active == u.id else (0 if u.activated else R.activation_act(u))
        bits = [R.fmt_unit_state(u), f"ACT {left}/{R.ut(u).act}"]
        if u.carrying:
            bits.append("carries data")
        if u.stun:
            bits.append("stunned")
        panel_units.append(PanelUnit(f"{labels[u.id]} {u.id} · {u.name}", colour, None, " · ".join(bits),
                                     dim=u.activated or not B.on_map(u)))  # fmt: skip
    arrows = []
    if len(st.trail) > 1:
        arrows.append(Arrow(tuple(st.trail), "#ffe066", "path"))
    for src, dst in st.attacks:
        arrows.append(Arrow((src, dst), "#ff4d4d", "attack"))
    lines = [
        f"Turn {st.turn}/{R.TURNS}"
        + (f" · initiative {R.squad_name(st, st.initiative)}" if st.initiative else "")
    ]
    e = m.events.get(st.event)
    if e:
        lines.append(f"Event {st.event}: {e.name} ({R.EVENT_TEXT[e.effect]})")
    for s in R.SEATS:
        lines.append(f"{R.squad_name(st, s)}: {st.points.get(s, 0)} MP · {st.orders.get(s, 0)} TO left")
    w = R.waiting(st)
    if st.result:
        lines.append(st.result.reason)
    elif w:
        lines.append(f"To act: {R.squad_name(st, w[0])}")
    legend: list[tuple[str, str]] = [
        (colours[s], f"{R.squad_name(st, s)} ({faction_name(str(st.squads[s]['faction']))})") for s in R.SEATS
    ]
    legend.append(("#f0f0f0", "circle: standing; square: Downed"))
    legend.append(("#ffe066", "yellow: active unit, last move"))
    legend.append(("#ff4d4d", "red: Downed ring, attack"))
    if any(t.label.startswith("O") for t in tokens):
        legend.append((OBJECTIVE, "On: objective (ring: planted)"))
    if any(t.label == "D" for t in tokens):
        legend.append((MARKER, "D: data cache"))
    legend.append((HEIGHT_FILLS[2], "digit: height (lighter = higher)"))
    marks = {t.mark[-1:] for t in tiles if t.mark}
    if "~" in marks:
        legend.append((DIFFICULT, "~ difficult ground"))
    if "/" in marks:
        legend.append((STAIRS, "/ stairs"))
    if "X" in marks:
        legend.append((SOLID, "X solid block"))
    legend.append((ZONE_TINT[0], "tinted: deployment zone"))
    legend.append(("#cdd1da", "low wall (thick: high wall)"))
    if any(e.style == "gate" for e in edges):
        legend.append(("#c47ef0", "striped edge: climbable"))
    if doors:
        legend.append(("#b8743c", "closed door (green: open)"))
    return Scene(
        grid="square", width=12, height=12, static_key=f"skirm:{m.map.id}:{m.id}", tiles=tiles, edges=edges,
        dynamic_edges=doors, tokens=tuple(tokens), arrows=tuple(arrows),
        panel=Panel(f"Skirm · {m.name}", tuple(lines), tuple(panel_units), tuple(legend)),
    )  # fmt: skip


def text_board(st: SkirmState, seat: str | None) -> str:
    """The map as text under a status header (turn, phase, initiative, event, Mission Points and Tactical
    Orders per side, who is to act): each square shows height and terrain, or a unit's board tag (UPPER
    player1, lower player2, '_' suffix when Downed), objectives 'On', data caches 'D' with their ids;
    walls, doors, the units and a key follow."""
    m = B.mission(st)
    bm = B.bmap(st)
    labels = unit_tags(st)
    occ = B.occupancy(st)
    objs = {(o["pos"][0], o["pos"][1]): o["id"] for o in st.objectives if not o["gone"]}
    marks = {(v["pos"][0], v["pos"][1]): k for k, v in sorted(st.markers.items()) if v["pos"]}
    head = f"Skirm · {m.name} · Turn {st.turn}/{R.TURNS} · phase {st.phase}"
    if st.initiative:
        head += f" · initiative {R.squad_name(st, st.initiative)}"
    lines = [head]
    e = m.events.get(st.event)
    if e:
        lines.append(f"Event {st.event}: {e.name} ({R.EVENT_TEXT[e.effect]})")
    lines.append(" · ".join(
        f"{R.squad_name(st, s)}: {st.points.get(s, 0)} MP, {plural(st.orders.get(s, 0), 'Tactical Order')} left"
        for s in R.SEATS
    ))  # fmt: skip
    w = R.waiting(st)
    if st.result:
        lines.append(st.result.reason)
    elif w:
        lines.append(f"To act: {R.squad_name(st, w[0])}")
    lines += ["", "    " + "".join(f"{chr(97 + x):<4}" for x in range(12))]
    for y in range(12):
        row = f"{y + 1:>2}  "
        for x in range(12):
            c = (x, y)
            if c in occ:
                u = occ[c]
                lab = labels[u.id].upper() if u.seat == R.SEATS[0] else labels[u.id].lower()
                cell = lab + ("_" if u.state == DOWNED else " ")
            elif c in objs:
                cell = "O" + objs[c] + " "
            elif c in marks:
                cell = ("D" + marks[c])[:3]
            else:
                t = bm.terrain[c]
                cell = f"{bm.height[c] if bm.height[c] else '.'}{t if t != '.' else ' '} "
            row += cell.ljust(4)
        lines.append(row)
    lines.append("")
    lines.append("Key: digit = height, ~ difficult, / stairs, X solid, . open ground; On objective n, D data cache "
                 f"(its id); UPPER {R.squad_name(st, R.SEATS[0])}, lower {R.squad_name(st, R.SEATS[1])}, _ Downed; "
                 "* below: the active unit.")  # fmt: skip
    lines.append("High walls: " + ", ".join(edge_name(*k) for k in sorted(bm.high)))
    lines.append("Low walls: " + ", ".join(edge_name(*k) for k in sorted(bm.low)))
    lines.append(
        "Doors: "
        + ", ".join(f"{edge_name(*k)} {'open' if v else 'closed'}" for k, v in sorted(st.doors.items()))
    )
    lines.append("Climbable: " + ", ".join(edge_name(*k) for k in sorted(bm.climb)))
    for o in st.objectives:
        if not o["gone"]:
            held = R.controller(st, (o["pos"][0], o["pos"][1]))
            lines.append(f"Objective O{o['id']} at {cell_name((o['pos'][0], o['pos'][1]))}"
                         + (f", planted by {R.squad_name(st, o['planted'])}" if o["planted"] else "")
                         + (f", held by {R.squad_name(st, held)}" if held else ""))  # fmt: skip
    for k, v in sorted(st.markers.items()):
        where = cell_name((v["pos"][0], v["pos"][1])) if v["pos"] else f"carried by {v['carrier']}"
        lines.append(f"Data cache D{k}: {where}")
    for u in st.units.values():
        mark = "*" if u.id == st.active else " "
        where = cell_name(u.pos) if u.pos else "-"
        left = R.act_left(u) if st.active == u.id else (0 if u.activated else R.activation_act(u))
        gear = ", ".join(u.weapons + [skill(s).name for s in u.skills])
        lines.append(f"{mark}{labels[u.id]:<3} {u.id:<10} {R.squad_name(st, u.seat)[:18]:<18} {R.fmt_unit_state(u):<9} "
                     f"{where:<4} ACT {left}/{R.ut(u).act}{'  done' if u.activated else ''}  [{gear}]")  # fmt: skip
    return "\n".join(lines)


def faction_name(fid: str) -> str:
    """A faction's display name."""
    return factions()[fid].name
