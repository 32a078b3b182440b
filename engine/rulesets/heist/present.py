"""What a heist shows: the view per seat, the hex-map Scene for the renderer, and a text board.

Everyone sees the same: the team plays openly, and nobody (not even a spectator) sees the security bag's
contents or what an unknown security tile holds before it is drawn.
"""

from __future__ import annotations

from typing import Any

from engine.board_marks import SEAT_TEXT, unique_tags
from engine.grammar import plural
from engine.rulesets.heist import npcs as N
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState, Player
from engine.scene import Panel, PanelUnit, Scene, Tile, Token

TILE_FILL = {"blank": "#3b4252", "security": "#4c566a", "entrance": "#2f6b45", "tunnel": "#5a4a2f"}
CHIT_STYLE = {  # kind -> (label, active colour, inactive colour)
    "guard": ("G", "#c0392b", "#7f8c8d"),
    "dog": ("D", "#a04000", "#7f8c8d"),
    "lock": ("L", "#d4ac0d", "#5d6d7e"),
    "camera": ("C", "#8e44ad", "#5d6d7e"),
}
LOOT_STYLE = {
    "jewel": ("J", "#1abc9c"),
    "docs": ("Doc", "#ecf0f1"),
    "usb": ("U", "#3498db"),
    "keycard": ("K", "#f39c12"),
}
MARK_LABEL = {
    "safe": "SF", "kennel": "KN", "watchtower": "WT", "reinforcements": "RE", "gate_a": "GA", "gate_b": "GB",
    "gate_c": "GC", "gate_d": "GD", "server_x": "SX", "server_y": "SY", "remote_lock_x": "RX",
    "remote_lock_y": "RY", "keycard_door": "KD", "story": "*",
}  # fmt: skip


def chit_text(c: Any) -> str:
    """A chit in words, as it stands."""
    state = {
        "guard": ("guard", "subdued guard"), "dog": ("dog", "subdued dog"), "lock": ("lock", "unlocked lock"),
        "camera": ("live camera", "disabled camera"),
    }[c.kind]  # fmt: skip
    return ("elite " if c.elite else "") + state[0 if c.active else 1]


def player_view(st: HeistState, p: Player) -> dict[str, Any]:
    """One character as anyone may see it."""
    ch = R.character(p)
    out: dict[str, Any] = {
        "seat": p.seat, "nickname": p.nickname, "character": ch.name, "colour": R.COLOUR_NAMES[p.seat],
        "skills": [R.C().skills[s].name for s in p.skills], "items": [R.C().items[i].name for i in p.items],
        "pos": p.pos or None, "plans": sorted(p.plans), "ideas": p.ideas, "die": p.die or None,
        "action": p.action or None, "left": R.sym(p.left), "done": p.done, "ready": p.ready, "status": p.status,
        "cash": p.cash, "loot": list(p.loot), "outdoors": bool(p.pos) and R.outdoors(st, p),
    }  # fmt: skip
    if st.phase == "action" and p.status == "in" and not p.action:
        out["options"] = [R.option_label(o) for o in R.options(st, p)]
    return out


def npc_view(st: HeistState, npc: Any) -> dict[str, Any]:
    """A non-player character as anyone may see it, with its options when it has an action to choose."""
    out: dict[str, Any] = {
        "kind": npc.kind, "pos": npc.pos, "panic": npc.panic, "taken_by": npc.escort or None,
        "status": npc.status, "active": npc.active, "die": npc.die or None, "ideas": npc.ideas,
        "action": npc.action or None, "left": R.sym(npc.left), "done": npc.done,
    }  # fmt: skip
    if st.phase == "action" and npc.active and npc.status == "in" and not npc.action:
        out["options"] = [R.option_label(o) for o in N.options(st, npc)]
    return out


def view(st: HeistState, seat: str | None) -> dict[str, Any]:
    """Everything public. Unknown security tiles show only that they are unknown; the bag shows its size."""
    tiles = {}
    for n in sorted(st.tiles):
        t = st.tiles[n]
        if not R.alive(st, n):
            continue
        tiles[n] = {
            "unknown": t.unknown, "chits": [chit_text(c) for c in t.chits], "cash": t.cash,
            "loot": list(t.loot), "marks": list(t.marks),
        }  # fmt: skip
    spaces, final = R.track(st)
    h = R.heist(st)
    return {
        "heist": h.name, "objective": h.objective.summary, "phase": st.phase, "round": st.round,
        "noise": st.noise, "noise_alerts": list(spaces), "noise_final": final,
        "deck_top": [R.card_name(c) for c in st.deck[:3]], "deck_left": len(st.deck),
        "crisis_queue": [R.card_name(c) for c in st.crises], "discarded": len(st.discard),
        "bag_size": len(st.bag), "tiles": tiles, "removed": list(st.removed), "exits": sorted(R.exits(st)),
        "players": [player_view(st, st.players[s]) for s in st.seats], "hauled": dict(st.hauled),
        "safe": st.safe, "escape_called": st.escape_called, "team_cash": st.team_cash,
"npcs": [npc_view(st, n) for n in st.npcs],
        "news": list(st.news), "you": seat, "result": st.result.to_data() if st.result else None,
        "summary": f"{h.name}: {h.objective.summary}",
    }  # fmt: skip


MARK_MEANING = {
    "SF": "safe", "KN": "kennel", "WT": "watchtower", "RE": "reinforcements", "GA": "gate A", "GB": "gate B",
    "GC": "gate C", "GD": "gate D", "SX": "server X", "SY": "server Y", "RX": "remote lock X",
    "RY": "remote lock Y", "KD": "keycard door", "*": "story tile",
}  # fmt: skip
CHIT_NAME = {"guard": "guard", "dog": "dog", "lock": "lock", "camera": "camera"}
LOOT_NAME = {"jewel": "jewel", "docs": "documents", "usb": "USB stick", "keycard": "keycard"}
NPC_FILL = "#ffffff"
CASH_FILL = "#27ae60"


def pawn_tags(st: HeistState) -> dict[str, str]:
    """A unique tag per seat for its pawn: the player's initials (two letters) where free."""
    cands = []
    for s in st.seats:
        words = [w for w in st.players[s].nickname.split() if w[:1].isalnum()] or [s]
        first = (words[0][0] + (words[1][0] if len(words) > 1 else words[0][1:2])).upper()
        cands.append((s, (first, words[0][:2].title(), s.upper())))
    return unique_tags(cands)


def seat_colours(st: HeistState) -> dict[str, str]:
    """Each seat's colour on the board (colour-blind safe, distinct)."""
    return {s: R.COLOURS[s] for s in st.seats}


def scene(st: HeistState, seat: str | None) -> Scene:
    """The hex map: tiles, chits, loot, planning tokens per colour, characters as large pawns with their
    player's initials; the panel with the round state and a legend of every mark drawn."""
    b = R.board(st)
    tiles = []
    marks_drawn: dict[str, str] = {}
    for n in sorted(b.tiles):
        mt = b.tiles[n]
        if mt.kind == "tunnel" and n not in st.exits:
            tiles.append(Tile(b.cells[n], "#2a2418", "T"))
            marks_drawn["T"] = "T: tunnel"
            continue
        if not R.alive(st, n):
            continue
        fill = TILE_FILL["entrance" if n in R.exits(st) else mt.kind]
        t = st.tiles[n]
        if t.unknown:
            fill = TILE_FILL["security"]
        labels = [MARK_LABEL[m] for m in t.marks if m in MARK_LABEL]
        mark = "?" if t.unknown else " ".join(labels)
        if n in R.exits(st):
            mark = "EXIT"
        for lab in ["?"] if t.unknown else ["EXIT"] if n in R.exits(st) else labels:
            marks_drawn[lab] = {"?": "?: unknown security tile", "EXIT": "EXIT: a way out"}.get(
                lab, f"{lab}: {MARK_MEANING.get(lab, lab)}"
            )
        tiles.append(Tile(b.cells[n], fill, mark))
    for gap in sorted(st.doors):
        tiles.append(Tile(R.cell_of(st, gap), TILE_FILL["entrance"], "EXIT"))
        marks_drawn["EXIT"] = "EXIT: a way out"
    tokens: list[Token] = []
    drawn: dict[str, tuple[str, str]] = {}
    for n in sorted(st.tiles):
        if not R.alive(st, n):
            continue
        cell = R.cell_of(st, n)
        t = st.tiles[n]
        for c in t.chits:
            label, on, off = CHIT_STYLE[c.kind]
            tokens.append(
                Token(cell, label + ("2" if c.elite else ""), on if c.active else off, "circle", small=True)
            )
            drawn[c.kind] = (on, f"{label} {CHIT_NAME[c.kind]} ({label}2: elite)")
            if not c.active:
                drawn[f"off:{off}"] = (off, "grey: dealt with")
        if t.cash:
            tokens.append(Token(cell, f"${t.cash}", CASH_FILL, "square", small=True))
            drawn["cash"] = (CASH_FILL, "$n: cash ($1k each)")
        for item in t.loot:
            label, colour = LOOT_STYLE.get(item, ("I", "#9b59b6"))
            tokens.append(Token(cell, label, colour, "diamond", text_fill="#000000", small=True))
            drawn[f"loot:{label}"] = (colour, f"{label}: {LOOT_NAME.get(item, item)}")
    colours = seat_colours(st)
    for s in st.seats:
        p = st.players[s]
        for n in p.plans:
            if n in b.cells and R.alive(st, n):
                tokens.append(Token(b.cells[n], "", colours[s], "hex", small=True))
    for npc in st.npcs:
        if npc.status == "in":
            tokens.append(Token(R.cell_of(st, npc.pos), "N", NPC_FILL, "circle", text_fill="#000000"))
            drawn["npc"] = (NPC_FILL, f"N: {npc.kind} (a non-player character)")
    tags = pawn_tags(st)
    units = []
    for s in st.seats:
        p = st.players[s]
        if p.pos and p.status == "in":
            ring = "#ffffff" if not p.done and st.phase == "action" else None
            tokens.append(
                Token(R.cell_of(st, p.pos), tags[s], colours[s], "circle", text_fill=SEAT_TEXT, ring=ring)
            )
            if ring:
                drawn["ring"] = (ring, "white ring: still to act")
        detail = f"die {p.die or '-'} · 💡{p.ideas}"
        if p.action:
            detail += f" · {p.action}{' ' + R.sym(p.left) if p.left else ''}{' ✓' if p.done else ''}"
        if p.cash or p.loot:
            detail += f" · ${p.cash}k {' '.join(p.loot)}"
        if p.status != "in":
            detail = p.status
        units.append(PanelUnit(f"{tags[s]} {p.nickname} ({R.character(p).name})", colours[s], None, detail,
                               dim=p.status != "in" or p.done))  # fmt: skip
    for npc in st.npcs:
        if npc.active or npc.status != "in":
            detail = f"die {npc.die or '-'} · 💡{npc.ideas}" + (f" · {npc.action}" if npc.action else "")
            if npc.status != "in":
                detail = npc.status
            units.append(
                PanelUnit(f"NPC: {npc.kind}", "#ffffff", None, detail, dim=npc.done or npc.status != "in")
            )
    spaces, final = R.track(st)
    nxt = [a for a in spaces if a > st.noise]
    lines = [
        f"{phase_name(st)} · round {st.round}",
        f"Noise {st.noise}/{final}" + (f" (next ⚠ at {nxt[0]})" if nxt else " (every 🔊 raises ⚠)"),
        "Event deck: "
        + (", ".join(R.card_name(c) for c in st.deck[:2]) or "empty")
        + f" ({len(st.deck)} left)",
    ]
    if st.crises:
        lines.append("Crisis queue: " + ", ".join(R.card_name(c) for c in st.crises))
    lines.append(
        f"Bag: {plural(len(st.bag), 'chit')} · safe 🧩 {st.safe}"
        if R.heist(st).safe
        else f"Bag: {plural(len(st.bag), 'chit')}"
    )
    if st.hauled:
        lines.append("Haul: " + ", ".join(f"{k} {v}" for k, v in sorted(st.hauled.items())))
    if st.escape_called and st.phase == "action":
        lines.append("Escape called: it starts after this Event phase.")
    if st.result:
        lines.append(st.result.reason)
    legend = [(colours[s], f"{tags[s]} pawn and plans") for s in st.seats]
    legend += list(drawn.values())
    legend += [("#a4abb8", text) for text in marks_drawn.values()]
    removed = ",".join(sorted(st.removed)) + "|" + ",".join(sorted(st.exits))
    # Maps are declared square; rows under the last tile would only push the panel down on a phone.
    rows = (
        max((c[1] for c in (*(t.cell for t in tiles), *(t.cell for t in tokens))), default=b.height - 1) + 1
    )
    return Scene(
        grid="hex", hex_layout="odd-r", width=b.width, height=min(b.height, rows), static_key=f"heist:{st.heist}:{removed}",
        tiles=tuple(tiles), tokens=tuple(tokens),
        panel=Panel(f"{R.heist(st).name}", tuple(lines), tuple(units), tuple(legend)),
    )  # fmt: skip


def phase_name(st: HeistState) -> str:
    """The phase in words."""
    names = {"plan": "Planning", "action": "Action phase", "event": "Event phase", "escape": "Escape!"}
    return names.get(st.phase, "Heist over")


def text_board(st: HeistState, seat: str | None) -> str:
    """A status header (heist, round and phase, noise, event deck, crisis queue), a text map (odd rows
    indented half a hex) showing pawns by their players' initials, then every tile's contents, the
    players with their plans, the non-player characters and a key."""
    b = R.board(st)
    tags = pawn_tags(st)
    occ = {p.pos: p for p in R.in_play(st) if p.pos}
    spaces, final = R.track(st)
    nxt = [a for a in spaces if a > st.noise]
    lines = [
        f"{R.heist(st).name}: {R.heist(st).objective.summary}",
        f"{phase_name(st)}, round {st.round}. Noise {st.noise}/{final}"
        + (f", next alert at {nxt[0]}" if nxt else ", every noise raises an alert")
        + f" (alerts at {', '.join(map(str, spaces))}).",
        "Event deck: "
        + (", ".join(R.card_name(c) for c in st.deck[:3]) or "empty")
        + f" ({len(st.deck)} left)",
    ]
    if st.crises:
        lines.append("Crisis queue: " + ", ".join(R.card_name(c) for c in st.crises))
    lines.append(f"Bag: {plural(len(st.bag), 'chit')}" + (f" · safe {st.safe}" if R.heist(st).safe else ""))
    if st.escape_called and st.phase == "action":
        lines.append("Escape called: it starts after this Event phase.")
    lines += ["", "    " + " ".join(f"{chr(97 + x):<3}" for x in range(b.width))]
    for y in range(b.height):
        row = f"{y + 1:>2} " + ("  " if y % 2 else "")
        for x in range(b.width):
            n = b.names.get((x, y))
            if n is None and st.doors:
                n = next((g for g in st.doors if R.cell_of(st, g) == (x, y)), None)
            if n is None or not R.alive(st, n):
                row += " .  "
                continue
            t = st.tiles[n]
            if n in occ:
                cell = tags[occ[n].seat]
            elif n in R.exits(st):
                cell = "EX"
            elif t.unknown:
                cell = "??"
            elif t.chits:
                c = t.chits[0]
                cell = CHIT_STYLE[c.kind][0] + ("*" if c.active else "-")
            elif t.loot or t.cash:
                cell = "$$"
            else:
                cell = "__"
            row += f"{cell:<3} "
        lines.append(row.rstrip())
    lines.append("")
    lines.append("Key: initials = a character (see below), EX exit, ?? unknown security tile, G guard, D dog, "
                 "L lock, C camera (* active, - dealt with; first chit shown), $$ cash or loot, __ nothing, "
                 ". no tile.")  # fmt: skip
    contents = []
    for n in sorted(st.tiles):
        t = st.tiles[n]
        if not R.alive(st, n) or t.unknown:
            continue
        bits = [chit_text(c) for c in t.chits] + ([f"${t.cash}k"] if t.cash else [])
        bits += [LOOT_NAME.get(i, i) for i in t.loot] + [
            MARK_MEANING[MARK_LABEL[m]] for m in t.marks if m in MARK_LABEL
        ]
        if bits:
            contents.append(f"{n}: {', '.join(bits)}")
    if contents:
        lines.append("Tiles: " + "; ".join(contents))
    for s in st.seats:
        p = st.players[s]
        lines.append(
            f"{tags[s]:<3}{R.COLOUR_NAMES[s]:<7}{p.nickname:<15} {R.character(p).name:<16} at {p.pos or '-':<4} "
            f"die {p.die or '-'} 💡{p.ideas} {p.status} {p.action or ''}{' ' + R.sym(p.left) if p.left else ''}"
            f"{' done' if p.done else ''} plans {' '.join(sorted(p.plans)) or '-'}"
        )
    for npc in st.npcs:
        state = "active" if npc.active else "waiting"
        lines.append(
            f"NPC {npc.kind:<13} at {npc.pos:<4} {npc.status} {state} die {npc.die or '-'} 💡{npc.ideas} {npc.action}"
        )
    if st.result:
        lines.append(st.result.reason)
    return "\n".join(lines)
