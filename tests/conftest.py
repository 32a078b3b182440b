"""Shared fixtures for the bot tests: the offline harness, and a stand-in renderer while renderer/ has none."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot import render

if TYPE_CHECKING:
    from tests.harness import Harness


def stub_render(scene: Any, *, highlights: Any = (), size: Any = None) -> bytes:
    """A plain PNG, wider than tall, used only when the real renderer is not installed yet."""
    from PIL import Image

    image = Image.new("P", (scene.width * 24 + 240, scene.height * 24 + 40))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


REAL_RENDERER = render.get_renderer() is not None


@pytest.fixture(autouse=True)
def _renderer() -> Any:
    """Use the real renderer when the package has one, else :func:`stub_render` (tests only)."""
    if not REAL_RENDERER:
        render.set_renderer(stub_render)
    yield
    if not REAL_RENDERER:
        render.set_renderer(None)


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    """A started harness on a fresh database file."""
    from tests.harness import Harness  # discord.py is imported only by the tests that use it

    h = Harness(tmp_path / "escapade.db")
    await h.start()
    try:
        yield h
    finally:
        await h.close()
