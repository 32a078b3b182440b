"""A heist's fixed geometry by tile name, built once per heist from its map.

What changes in play (chits, removed tiles, opened tunnels) lives in the state; this module only knows
the printed map: which tiles exist, who borders whom, the entrances, tunnels and external tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.geometry import hexgrid as H
from engine.rulesets.heist.content import MapTile, load_content


@dataclass(frozen=True)
class Board:
    """The printed map by tile name. Tunnels are listed in ``tiles`` too (they become tiles when opened)."""

    width: int
    height: int
    tiles: dict[str, MapTile]
    cells: dict[str, H.Cell]
    names: dict[H.Cell, str]
    nbrs: dict[str, tuple[str, ...]]
    entrances: frozenset[str]
    tunnels: frozenset[str]
    external: frozenset[str]  # building tiles with a side onto the open outside
    gap_across: dict[str, tuple[str, ...]]  # tiles directly across one non-tiled gap (Vent crawl)
    lines: dict[str, tuple[tuple[str, ...], ...]]  # tiles along each of the six straight lines, nearest first

    def name(self, cell: H.Cell) -> str | None:
        """The name of the tile at ``cell``, or None if there is none."""
        return self.names.get(cell)


@cache
def build(heist_id: str) -> Board:
    """The board of a heist (cached per heist). Raises KeyError for an unknown heist."""
    m = load_content().heists[heist_id].map
    tiles = {H.cell_name(c): t for c, t in m.tiles.items()}
    cells = {H.cell_name(c): c for c in m.tiles}
    names = {c: n for n, c in cells.items()}
    links = {n: [names[nb] for nb in H.neighbours(cells[n]) if nb in names] for n in tiles}
    # An entrance is a square tile laid against one side of the building: it borders only the hex it faces.
    for e, t in tiles.items():
        if t.kind != "entrance" or t.facing is None:
            continue
        face = names.get(H.step(cells[e], t.facing))
        for other in list(links[e]):
            if other != face and tiles[other].kind in ("blank", "security"):
                links[e].remove(other)
                links[other].remove(e)
    nbrs = {n: tuple(ms) for n, ms in links.items()}
    external = frozenset(
        n for n, t in tiles.items() if t.kind in ("blank", "security") and m.external_sides(cells[n])
    )
    across: dict[str, tuple[str, ...]] = {}
    lines: dict[str, tuple[tuple[str, ...], ...]] = {}
    for n, cell in cells.items():
        found = []
        for d in H.DIRECTIONS:
            mid, far = H.step(cell, d), H.step(cell, d, 2)
            if mid not in names and far in names:
                found.append(names[far])
        across[n] = tuple(found)
        lines[n] = tuple(tuple(names[c] for c in H.ray(cell, d, lambda c: c in names)) for d in H.DIRECTIONS)
    return Board(
        width=m.width, height=m.height, tiles=tiles, cells=cells, names=names, nbrs=nbrs,
        entrances=frozenset(n for n, t in tiles.items() if t.kind == "entrance"),
        tunnels=frozenset(n for n, t in tiles.items() if t.kind == "tunnel"),
        external=external, gap_across=across, lines=lines,
    )  # fmt: skip
