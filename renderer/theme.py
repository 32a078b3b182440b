"""Colours and proportions of the board image (dark theme). Edge colours are the renderer's own."""

from __future__ import annotations

from engine.scene import EdgeStyle

TEXT = "#eceef3"
MUTED = "#a4abb8"
PANEL_BG = "#272a31"
PANEL_RULE = "#3d414c"
COORD = "#9aa1ae"
HIGHLIGHT = "#a6f05a"  # reachable cells: a lime square outline
TARGET = "#ff5cf0"  # legal targets: a magenta ring with cross-hair ticks
BAR_BG = "#0f1013"
BAR_GOOD = "#4cc25a"
BAR_MID = "#e8b923"
BAR_LOW = "#ef4a4a"
LABEL_BG = "#15161a"

WALL = "#cdd1da"
STRONG_WALL = "#f4f5f8"
STRONG_WALL_CORE = "#6b717e"
DOOR_CLOSED = "#b8743c"
DOOR_OPEN = "#5fd27e"
DOOR_LOCKED = "#d9a400"
GATE = "#c47ef0"

#: The colour drawn at the middle of an edge of each style (a locked door's label box aside).
EDGE_COLOURS: dict[EdgeStyle, str] = {
    "wall": WALL,
    "strong_wall": STRONG_WALL_CORE,
    "door_closed": DOOR_CLOSED,
    "door_open": DOOR_OPEN,
    "door_locked": DOOR_LOCKED,
    "gate": GATE,
}
