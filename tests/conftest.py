"""Shared fixtures for the bot tests: the offline harness, a throwaway PostgreSQL server, and a stand-in
renderer while renderer/ has none."""

from __future__ import annotations

import io
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot import render
from tests.pg_server import INSTALL, PostgresServer, find_bindir

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


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole run (skips the test when no server binaries are installed)."""
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(INSTALL)
    server = PostgresServer(bindir)
    server.stop_on_sigterm()
    try:
        server.start()
    except subprocess.CalledProcessError as exc:
        server.stop()
        pytest.fail(f"the test PostgreSQL server did not start: {exc.stderr!r} {exc.stdout!r}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store of each backend in turn: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "escapade.db")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


@pytest.fixture
async def any_harness(database: str) -> AsyncIterator[Harness]:
    """A started harness on each backend in turn (see :func:`database`)."""
    from tests.harness import Harness

    h = Harness(database)
    await h.start()
    try:
        yield h
    finally:
        await h.close()
