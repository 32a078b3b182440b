"""Escapade's board renderer: a pure function from :class:`engine.scene.Scene` to image bytes.

Public face::

    from renderer import render, render_gif, layout
    png = render(scene, highlights=[(2, 3)], size=None)   # palette PNG bytes, wider than tall
    gif = render_gif([scene1, scene2], frame_ms=700)       # looping GIF replay
    layout(scene).cell_centre((2, 3))                     # pixel geometry, for tests and tools

It imports Pillow and ``engine.scene`` only, and knows nothing of rules or Discord. The static layer
(floor, static walls, coordinates) is cached per ``scene.static_key`` (LRU, 32 entries).
"""

from renderer.core import CacheInfo, cache_info, clear_cache, render, render_gif, render_image
from renderer.layout import Layout, TokenSpot, cell_name, layout
from renderer.theme import EDGE_COLOURS

__all__ = [
    "EDGE_COLOURS",
    "CacheInfo",
    "Layout",
    "TokenSpot",
    "cache_info",
    "cell_name",
    "clear_cache",
    "layout",
    "render",
    "render_gif",
    "render_image",
]
