"""What Dark Realms shows: the view (other heroes' commitments and the speed decks stay hidden), the board
Scene with the side panel (initiative, health, statuses, cards cooling down), and a text board."""

from __future__ import annotations

import hashlib
from typing import Any

from engine.geometry.square import cell_name
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.actions import current
from engine.rulesets.cardcombat.content import cards, items
from engine.rulesets.cardcombat.state import CCState
from engine.scene import Arrow, Panel, PanelUnit, Scene, Tile, Token

COLOURS = {"hero1": "#3b82f6", "hero2": "#22c55e", "hero3": "#eab308", "hero4": "#a855f7"}
ENEMY = "#dc2626"
ALLY = "#e5e7eb"
BOSS = "#7f1d1d"
FLOOR, WALL, TRAP, EXIT = "#4b4f58", "#1f2024", "#7c4a1e", "#0f766e"
# a closed door (oak brown, marked D) and an opened one (a pale stone sill, marked /)
DOOR, OPEN_DOOR = "#b45309", "#6b7280"
RIFT = {"fire": "#f97316", "water": "#0ea5e9", "wind": "#a3e635", "earth": "#a16207", "lightning": "#facc15",
        "darkness": "#312e81", "light": "#fef9c3"}  # fmt: skip


def figure_public(st: CCState, f: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """A figure as anyone may see it (a hero's commitment only to its own seat until the reveal)."""
    d: dict[str, Any] = {
        "id": f["id"],
        "name": f["name"],
        "kind": f["kind"],
        "side": f.get("seat", "enemies"),
        "pos": cell_name(R.pos(f)),
        "hp": f["hp"],
        "max_hp": f["max_hp"],
        "statuses": sorted(f["st"]),
        "out": bool(f.get("out") or f["hp"] <= 0),
        "melee": f["melee"],
        "ranged": f["ranged"],
    }
    if f["kind"] == "enemy":
        d.update(
            type=f["type"],
            captain=f.get("captain", False),
            boss=f.get("boss", False),
            move=f["move"],
            defence="dice" if f.get("defence_dice") else f.get("defence", 0),
        )
    if f["kind"] == "hero":
        d.update(race=f["race"], cls=f["cls"], level=f["level"], xp=f["xp"], gold=f["gold"], stamina=f["stamina"],
                 hand=f["hand"], cooldown=f["cooldown"], discard=f["discard"],
                 items=[{"id": i["id"], "cd": i["cd"], "active": i.get("active", False)} for i in f["items"]],
                 committed=f.get("committed", []) if st.phase != "commit" else None,
                 has_committed=f["id"] in st.commits)  # fmt: skip
        if st.phase == "commit" and f.get("seat") == seat and f["id"] in st.commits:
            d["my_commit"] = st.commits[f["id"]]
    return d


def view(st: CCState, seat: str | None) -> dict[str, Any]:
    """Everything ``seat`` may know."""
    s = st.scenario
    act = current(st) if st.turn.get("fig") else None
    return {
        "scenario": {k: s.get(k) for k in ("id", "name", "level", "rounds", "objective", "rules", "reward", "summary")},
        "round": st.round, "phase": st.phase, "figures": [figure_public(st, f, seat) for f in st.figures.values()],
        "units": [{"id": f["id"], "side": f.get("seat", "enemies"), "pos": cell_name(R.pos(f))} for f in R.alive(st)],
        "initiative": st.order, "turn": st.turn.get("fig"), "action": act.text if act else None,
        "pool": st.turn.get("pool"), "pending": {k: st.pending.get(k) for k in ("stage", "dice", "dmg_die")} if st.pending.get("stage") else None,
        "rifts": [[cell_name((r[0], r[1])), r[2]] for r in st.rifts],
        "loot": [[cell_name((p[0], p[1])), R.prize_text(p[2])] for p in st.loot],
        "doors": [cell_name(c) for c in R.closed_doors(st)],
        "result": st.result.to_data() if st.result else None,
        "summary": f"{s['name']} (level {s['level']}), round {st.round}/{s['rounds']}",
    }  # fmt: skip


def enemy_label(f: dict[str, Any]) -> str:
    """A short token label: a boss's first two letters, 'OC' for an orc Captain, 'O2' for orc number 2."""
    if f.get("boss"):
        return str(f["id"][:2]).upper()
    if f.get("captain"):
        return str(f["id"][:1]).upper() + "C"
    return str(f["id"][:1]).upper() + str(f["id"][-1:])


def status_short(f: dict[str, Any]) -> str:
    """Statuses as short words."""
    return " ".join(sorted(f["st"])) or "-"


def scene(st: CCState, seat: str | None) -> Scene:
    """The board: floor, walls, doors, traps, exit, rifts, loot, figures with life bars; the panel below."""
    w, h = R.size(st)
    tiles = []
    for y in range(h):
        for x in range(w):
            ch = R.char(st, (x, y))
            fill = {"#": WALL, "^": TRAP, "E": EXIT, R.DOOR: DOOR, R.OPEN_DOOR: OPEN_DOOR}.get(ch, FLOOR)
            tiles.append(Tile((x, y), fill, {"^": "^", "E": "E", R.DOOR: "D", R.OPEN_DOOR: "/"}.get(ch, "")))
    tokens: list[Token] = []
    for r in st.rifts:
        tokens.append(Token((r[0], r[1]), r[2][:2], RIFT[r[2]], "diamond", text_fill="#000000", small=True))
    for p in st.loot:
        tokens.append(Token((p[0], p[1]), "$", "#fbbf24", "hex", text_fill="#000000", small=True))
    units = []
    order_pos = {o[1]: i for i, o in enumerate(st.order)}
    for f in sorted(
        R.alive(st), key=lambda f: (order_pos.get(f["id"], order_pos.get(f.get("type", ""), 99)), f["id"])
    ):
        colour = (
            ALLY
            if f["id"] == "prisoner"
            else COLOURS.get(f.get("seat", ""), BOSS if f.get("boss") else ENEMY)
        )
        label = enemy_label(f) if f["kind"] == "enemy" else f["id"][:3].upper()
        ring = (
            "#ffe066"
            if st.turn.get("fig") == f["id"]
            else ("#ffffff" if f.get("captain") or f.get("boss") else None)
        )
        tokens.append(Token(R.pos(f), label, colour, "circle" if f["kind"] != "enemy" else "square", ring=ring,
                            bar=(f["hp"], f["max_hp"]), text_fill="#000000" if colour == ALLY else "#ffffff"))  # fmt: skip
        detail = [cell_name(R.pos(f)), status_short(f)]
        if f["kind"] == "hero":
            cool = [f"{cards()[c].name}({n})" for c, n in sorted(f["cooldown"].items())]
            if cool:
                detail.append("cooling: " + ", ".join(cool))
            if f["items"]:
                detail.append(
                    "items: "
                    + ", ".join(
                        items()[i["id"]].name
                        + (" (lost)" if i.get("gone") else f"({i['cd']})" if i["cd"] else "")
                        for i in f["items"]
                    )
                )
        units.append(PanelUnit(f"{f['id']} · {f['name']}", colour, (f["hp"], f["max_hp"]), " · ".join(detail),
                               dim=f["id"] in order_pos and order_pos[f["id"]] < st.turn_index - 1))  # fmt: skip
    lines = [f"Round {st.round}/{st.scenario['rounds']} · level {st.scenario['level']} · {st.phase}"]
    if st.order:
        lines.append("Initiative: " + R.initiative_text(st, " > "))
    if st.phase == "commit":
        waiting = [f["id"] for f in R.alive(st) if f["kind"] == "hero" and f["id"] not in st.commits]
        lines.append("Committing: " + (", ".join(waiting) or "-"))
    act = current(st) if st.turn.get("fig") else None
    if st.turn.get("fig"):
        lines.append(
            f"Turn: {st.turn['fig']} · {act.text if act else 'actions done'} · {st.turn.get('pool', 0)} stamina"
        )
    if st.result:
        lines.append(st.result.reason)
    arrows = []
    if len(st.trail) > 1:
        arrows.append(Arrow(tuple((c[0], c[1]) for c in st.trail), "#ffe066", "path"))
    for a in st.attacks[-4:]:
        arrows.append(Arrow(((a[0], a[1]), (a[2], a[3])), "#ff4d4d", "attack"))
    legend = tuple((COLOURS[f["seat"]], f["id"]) for f in st.figures.values() if f["kind"] == "hero") + (
        (ENEMY, "enemy"), (BOSS, "boss"), (TRAP, "trap"), (EXIT, "exit"), ("#fbbf24", "loot")) + (
        ((DOOR, "door (D shut, / open)"),) if any(R.DOOR in r or R.OPEN_DOOR in r for r in st.scenario["rows"]) else ())  # fmt: skip
    return Scene(grid="square", width=w, height=h, static_key=f"cardcombat:{st.scenario['id']}:{hash_rows(st)}",
                 tiles=tuple(tiles), tokens=tuple(tokens), arrows=tuple(arrows),
                 panel=Panel(f"Dark Realms · {st.scenario['name']}", tuple(lines), tuple(units), legend))  # fmt: skip


def hash_rows(st: CCState) -> str:
    """A short stable key for a generated map."""
    return hashlib.sha256("".join(st.scenario["rows"]).encode()).hexdigest()[:10]


def text_board(st: CCState, seat: str | None) -> str:
    """The map as text: '#' wall, 'D' closed door, '/' open door, '^' trap, 'E' exit, figures by the first
    letters of their ids."""
    w, h = R.size(st)
    occ = {R.pos(f): f for f in R.alive(st)}
    lines = ["    " + "".join(f"{chr(97 + x):<3}" for x in range(w))]
    for y in range(h):
        row = f"{y + 1:>2}  "
        for x in range(w):
            f = occ.get((x, y))
            row += (f["id"][:2] if f else R.char(st, (x, y)).replace(".", " ").replace("1", " ").replace("2", " ")
                    .replace("3", " ").replace("4", " ")).ljust(3)  # fmt: skip
        lines.append(row)
    for f in sorted(R.alive(st), key=lambda f: f["id"]):
        lines.append(
            f"{f['id']:<10} {f['name']:<26} {cell_name(R.pos(f)):<4} {f['hp']}/{f['max_hp']} {status_short(f)}"
        )
    lines.append(view(st, seat)["summary"])
    if st.result:
        lines.append(st.result.reason)
    return "\n".join(lines)
