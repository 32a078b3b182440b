"""The board image: the engine's spectator Scene drawn by the renderer, off the event loop."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from engine import Game, Hints, Scene

log = logging.getLogger("escapade.render")

Renderer = Callable[..., bytes]
_renderer: Renderer | None = None


def get_renderer() -> Renderer | None:
    """``renderer.render`` if the renderer package provides it (looked up once), else None."""
    global _renderer
    if _renderer is None:
        try:
            from renderer import render
        except ImportError:
            return None
        _renderer = render
    return _renderer


def set_renderer(render: Renderer | None) -> None:
    """Replace the renderer (tests and tools)."""
    global _renderer
    _renderer = render


def draw(game: Game, **options: Any) -> bytes | None:
    """The spectator's board as PNG bytes (None when no renderer is installed). Blocking."""
    render = get_renderer()
    if render is None:
        return None
    return render(game.scene(None), **options)


async def board_png(game: Game) -> bytes | None:
    """:func:`draw` in a worker thread, so the event loop keeps answering interactions."""
    return await scene_png(game.scene(None))  # the scene is built on the loop, before anything can change


async def scene_png(scene: Scene) -> bytes | None:
    """A scene drawn by the renderer in a worker thread (None when no renderer is installed)."""
    render = get_renderer()
    if render is None:
        return None
    return await asyncio.to_thread(render, scene)


def moves_scene(game: Game, seat: str) -> tuple[Scene, Hints]:
    """The spectator's board with ``seat``'s active unit's reachable cells and legal targets marked
    ("Show moves"), and the hints themselves (``hints.unit`` is "" when nothing is active). Blocking:
    the hints play legal moves on copies of the state."""
    hints = game.hints(seat)
    scene = dataclasses.replace(game.scene(None), highlights=hints.reach, targets=hints.targets)
    return scene, hints


async def moves_png(game: Game, seat: str) -> tuple[bytes | None, Hints]:
    """:func:`moves_scene` drawn, both in a worker thread; the PNG is None when no renderer is installed.

    The game must not change while this runs (callers hold the game's lock, as for any command)."""
    scene, hints = await asyncio.to_thread(moves_scene, game, seat)
    return await scene_png(scene), hints
