"""Where the panel under the board puts its text, swatches and life bars: wrapped lines, never cut words.

The panel spans the image's full width under the board: the title, the status lines, the unit cards in
columns and the legend in columns. Every text is wrapped between words to its box (:func:`paint.wrap`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.scene import Panel
from renderer import theme as T
from renderer.paint import text_width, wrap

TextRole = Literal["title", "line", "name", "detail", "legend"]


@dataclass(frozen=True)
class PanelText:
    """One line of panel text: top-left ``(x, y)`` (or top-right for ``anchor`` "ra"), its size and role.

    ``box`` is the width it was wrapped to (the line never exceeds it).
    """

    x: int
    y: int
    text: str
    size: int
    role: TextRole
    box: int
    dim: bool = False
    anchor: str = "la"


@dataclass(frozen=True)
class PanelSwatch:
    """A colour sample: a unit's side (circle) or a legend entry (square), ``d`` px, top-left at ``(x, y)``."""

    x: int
    y: int
    d: int
    colour: str
    shape: Literal["circle", "square"]
    dim: bool = False


@dataclass(frozen=True)
class PanelBar:
    """A unit card's life bar: box ``(x0, y0, x1, y1)`` (exclusive end) and ``(current, maximum)``."""

    box: tuple[int, int, int, int]
    life: tuple[int, int]
    dim: bool = False


PanelItem = PanelText | PanelSwatch | PanelBar


@dataclass(frozen=True)
class PanelPlan:
    """Everything the panel draws and its total height in px."""

    height: int
    items: tuple[PanelItem, ...]


def legend_entries(panel: Panel, reach: bool, targets: bool) -> tuple[tuple[str, str], ...]:
    """The scene's legend plus the renderer's own marks when drawn (reach, targets)."""
    extra = []
    if reach:
        extra.append((T.HIGHLIGHT, "can move here"))
    if targets:
        extra.append((T.TARGET, "can hit / act on"))
    return (*panel.legend, *extra)


def plan_panel(
    panel: Panel, width: int, y0: int, font: int, legend: tuple[tuple[str, str], ...]
) -> PanelPlan:
    """The panel laid out across ``width`` px from ``y0``, with ``font`` the smallest text size.

    Returns an empty plan (height 0) for a panel with nothing to show. Never raises.
    """
    if not (panel.title or panel.lines or panel.units or legend):
        return PanelPlan(0, ())
    pad = max(6, round(font * 0.7))
    gap = max(3, round(font * 0.35))
    left, avail = pad, width - 2 * pad
    s_title, s_line, s_name, s_detail = round(font * 1.3), round(font * 1.1), round(font * 1.1), font
    items: list[PanelItem] = []
    y = y0 + pad

    def lines(text: str, x: int, top: int, size: int, box: int, role: TextRole, dim: bool = False) -> int:
        """Append ``text`` wrapped into ``box``; return the y under it."""
        step = round(size * 1.25)
        for line in wrap(text, size, box):
            items.append(PanelText(x, top, line, size, role, box, dim))
            top += step
        return top

    if panel.title:
        y = lines(panel.title, left, y, s_title, avail, "title") + gap
    for line in panel.lines:
        y = lines(line, left, y, s_line, avail, "line")
    if panel.units:
        y += gap * 2
        ncol = max(1, min(len(panel.units), avail // (font * 20)))
        col_w = (avail - (ncol - 1) * pad) // ncol
        sw = round(font * 0.8)
        bar_w, bar_h = round(font * 3), max(4, round(font * 0.45))
        for row in range(0, len(panel.units), ncol):
            bottom = y
            for k, u in enumerate(panel.units[row : row + ncol]):
                x = left + k * (col_w + pad)
                name_x = x + sw + gap * 2
                right = x + col_w
                items.append(
                    PanelSwatch(x, y + round((s_name * 1.25 - sw) / 2), sw, u.colour, "circle", u.dim)
                )
                name_room = right - name_x
                if u.life is not None:
                    num = f"{u.life[0]}/{u.life[1]}"
                    num_w = text_width(num, s_detail)
                    items.append(PanelText(right, y + round(s_name * 0.1), num, s_detail, "detail", num_w,
                                           u.dim, "ra"))  # fmt: skip
                    bx1 = right - num_w - gap * 2
                    by0 = y + round((s_name * 1.25 - bar_h) / 2)
                    items.append(PanelBar((bx1 - bar_w, by0, bx1, by0 + bar_h), u.life, u.dim))
                    name_room = bx1 - bar_w - gap * 2 - name_x
                bottom_name = lines(u.name, name_x, y, s_name, name_room, "name", u.dim)
                if u.detail:
                    bottom_name = lines(
                        u.detail, name_x, bottom_name, s_detail, right - name_x, "detail", u.dim
                    )
                bottom = max(bottom, bottom_name)
            y = bottom + gap
    if legend:
        y += gap * 2
        ncol = max(1, min(len(legend), avail // (font * 12)))
        col_w = (avail - (ncol - 1) * pad) // ncol
        sq = round(font * 0.75)
        for row in range(0, len(legend), ncol):
            bottom = y
            for k, (colour, meaning) in enumerate(legend[row : row + ncol]):
                x = left + k * (col_w + pad)
                items.append(PanelSwatch(x, y + round((font * 1.25 - sq) / 2), sq, colour, "square"))
                tx = x + sq + gap * 2
                bottom = max(bottom, lines(meaning, tx, y, s_detail, x + col_w - tx, "legend"))
            y = bottom
    return PanelPlan(y + pad - y0, tuple(items))
