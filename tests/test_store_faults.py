"""Store and start-up faults: readers never see a half-applied move, start-up errors are one readable
paragraph, a newer database or snapshot is refused, a failed reply after a commit tells the truth,
concurrent first starts, unsupported database URLs, the token kept out of reprs, seat order on reload."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot import cli, render
from bot.config import Config
from bot.database import open_store
from bot.store import SqliteStore, StoreError, migrations
from bot.store_pg import PostgresStore
from engine import SetupError, load_game, new_game
from tests.harness import ALICE, BOB, CAROL, Harness, open_escape
from tests.pg_server import PostgresServer, free_port

# -- 1. a board racing a move ---------------------------------------------------------------------------


async def test_board_never_shows_a_move_that_is_not_stored(tmp_path: Path) -> None:
    """With network latency, /game board and a /do race in one channel: the board shows the stored
    position its embed belongs to, never the move being applied meanwhile."""
    drawn: list[Any] = []
    real = render.get_renderer()
    assert real is not None

    def recording(scene: Any, **options: Any) -> bytes:
        drawn.append(scene)
        return real(scene, **options)

    render.set_renderer(recording)
    try:
        async with Harness(tmp_path / "race.db") as h:
            await open_escape(h)
            row = await h.row()
            game = load_game(row.snapshot)
            seat = sorted(game.seats_to_act())[0]
            before = game.scene(None)
            # A command that changes the picture, so a torn read would be visible.
            for command in game.legal_commands(seat):
                after = load_game(game.to_json())
                after.apply(seat, command.text)
                if after.scene(None) != before:
                    break
            else:
                pytest.fail("no command changes the board")
            user = ALICE if row.seats[seat] == str(ALICE) else BOB
            h.latency = 0.02
            drawn.clear()
            board = h.slash_payload("game board", user=CAROL)
            move = h.slash_payload("do", user=user, command=command.text)
            await asyncio.gather(h.feed(board), h.feed(move))
            assert (await h.row()).version == row.version + 1  # the move was stored
            assert drawn, "the board was not drawn"
            assert drawn[0] == before  # /game board drew the stored position it read
    finally:
        render.set_renderer(real)


async def test_a_refused_move_leaves_readers_position_alone(tmp_path: Path) -> None:
    async with Harness(tmp_path / "r.db") as h:
        await open_escape(h)
        row = await h.row()
        cached = h.bot.games.load(row)
        snapshot = cached.to_json()
        await h.slash("do", user=ALICE, command="garbage words here")
        await h.slash("do", user=BOB, command="garbage words here")
        assert h.bot.games.load(await h.row()).to_json() == snapshot
        assert cached.to_json() == snapshot


# -- 2. start-up store errors ----------------------------------------------------------------------------


def run_cli(tmp_path: Path, database: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    env = tmp_path / "test.env"
    env.write_text(f"DISCORD_TOKEN=not-a-real-token\nESCAPADE_DATABASE={database}\n", encoding="utf-8")
    code = cli.main(["run", "--env", str(env)])
    return code, capsys.readouterr().err


def assert_one_paragraph(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    assert err.strip().startswith("Escapade cannot start:")
    assert "\n\n" not in err.strip()
    for needle in needles:
        assert needle in err


def test_corrupt_database_is_reported_and_left_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bad.db"
    garbage = b"this is not a database at all\n" * 200
    db.write_bytes(garbage)
    code, err = run_cli(tmp_path, str(db), capsys)
    assert code == 2
    assert_one_paragraph(err, "not a readable Escapade database", "untouched")
    assert db.read_bytes() == garbage
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0


def test_path_through_a_file_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    code, err = run_cli(tmp_path, str(blocker / "sub" / "escapade.db"), capsys)
    assert code == 2
    assert_one_paragraph(err, "is a file, not a folder")


def test_path_that_is_a_folder_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    code, err = run_cli(tmp_path, str(folder), capsys)
    assert code == 2
    assert_one_paragraph(err, "is a folder", "escapade.db")


def test_unwritable_location_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() == 0:  # root ignores file modes: use a read-only file system instead
        target = "/proc/escapade-test/escapade.db"
    else:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        target = str(locked / "escapade.db")
    code, err = run_cli(tmp_path, target, capsys)
    assert code == 2
    assert_one_paragraph(err, target.rsplit("/", 1)[0])


def test_no_network_is_one_paragraph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import aiohttp

    class Offline:
        async def __aenter__(self) -> Offline:
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

        async def start(self, token: str) -> None:
            raise aiohttp.ClientConnectionError("Cannot connect to host discord.com:443")

    monkeypatch.setattr(cli, "create_bot", lambda **kwargs: Offline())
    code, err = run_cli(tmp_path, str(tmp_path / "ok.db"), capsys)
    assert code == 2
    assert "Traceback" not in err and "cannot reach Discord" in err


# -- 3. newer database or snapshot -----------------------------------------------------------------------


async def test_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    store = SqliteStore(path)
    await store.open()
    await store.db.execute("INSERT INTO schema_migrations (version) VALUES (99)")
    await store.close()
    before = path.read_bytes()
    again = SqliteStore(path)
    with pytest.raises(StoreError, match="newer version of Escapade"):
        await again.open()
    with sqlite3.connect(path) as con:
        assert max(r[0] for r in con.execute("SELECT version FROM schema_migrations")) == 99
    assert path.read_bytes() == before


def test_database_from_a_newer_version_stops_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "newer.db"

    async def make() -> None:
        store = SqliteStore(path)
        await store.open()
        await store.db.execute("INSERT INTO schema_migrations (version) VALUES (42)")
        await store.close()

    asyncio.run(make())
    code, err = run_cli(tmp_path, str(path), capsys)
    assert code == 2
    assert_one_paragraph(err, "schema 42", "Upgrade Escapade")


def test_snapshot_from_a_newer_version_is_refused() -> None:
    data = new_game("escape", seed=3).to_data()
    data["schema"] = 99
    with pytest.raises(SetupError, match="newer version"):
        load_game(data)


async def test_bot_refuses_a_newer_snapshot_clearly(tmp_path: Path) -> None:
    async with Harness(tmp_path / "snap.db") as h:
        await open_escape(h)
        row = await h.row()
        data = load_game(row.snapshot).to_data()
        data["schema"] = 99
        newer = __import__("engine").canonical.dumps(data)
        await h.bot.store.db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (newer, row.id))
        h.bot.games.forget(row.id)
        reply = await h.slash("do", user=ALICE, command="end")
        assert reply.ephemeral and "newer version" in reply.content
        stored = await h.row()
        assert stored.snapshot == newer and stored.version == row.version  # not re-saved as an older one


# -- 4. a failed reply after the commit ------------------------------------------------------------------


async def playable(h: Harness) -> tuple[int, str]:
    row = await h.row()
    game = load_game(row.snapshot)
    seat = sorted(game.seats_to_act())[0]
    user = ALICE if row.seats[seat] == str(ALICE) else BOB
    return user, game.legal_commands(seat)[0].text


async def test_reply_failing_once_is_retried(tmp_path: Path) -> None:
    async with Harness(tmp_path / "retry.db") as h:
        h.bot.reply_retry_pauses = (0.0, 0.0)
        await open_escape(h)
        user, text = await playable(h)
        failures = [503]
        h.fail = lambda kind, method, path: (
            failures.pop() if kind in ("callback", "webhook") and failures else None
        )
        version = (await h.row()).version
        reply = await h.slash("do", user=user, command=text)
        assert (await h.row()).version == version + 1
        assert not failures  # it did fail once
        assert "nothing was changed" not in reply.text.lower()
        assert not reply.ephemeral  # the narration, public


async def test_reply_failing_for_good_tells_the_truth(tmp_path: Path) -> None:
    async with Harness(tmp_path / "truth.db") as h:
        h.bot.reply_retry_pauses = (0.0, 0.0)
        await open_escape(h)
        user, text = await playable(h)
        version = (await h.row()).version
        start = len(h.replies)
        # Every interaction response and followup fails with a 503, except a private message.
        h.fail = lambda kind, method, path: 503 if kind in ("callback", "webhook") else None
        payload = h.slash_payload("do", user=user, command=text)
        await h.feed(payload)
        assert (await h.row()).version == version + 1  # the move stands
        posted = [r for r in h.replies[start:] if r.kind == "channel"]
        assert posted and posted[-1].embeds  # the result went to the channel instead
        said = " ".join(r.text for r in h.replies[start:]).lower()
        assert "nothing was changed" not in said


async def test_reply_failing_for_good_never_says_nothing_changed(tmp_path: Path) -> None:
    async with Harness(tmp_path / "truth2.db") as h:
        h.bot.reply_retry_pauses = (0.0,)
        await open_escape(h)
        user, text = await playable(h)
        calls: list[str] = []

        def fail(kind: str, method: str, path: str) -> int | None:
            calls.append(kind)
            # The public reply fails every time; the private note afterwards gets through.
            return 503 if len(calls) <= 3 else None

        h.fail = fail
        start = len(h.replies)
        await h.feed(h.slash_payload("do", user=user, command=text))
        private = [r for r in h.replies[start:] if r.ephemeral]
        assert private and "was played and saved" in private[-1].content
        assert all("nothing was changed" not in r.text.lower() for r in h.replies[start:])


# -- 5. two processes creating one new database at once ---------------------------------------------------


def _open_once(path: str, barrier: Any, errors: Any) -> None:
    barrier.wait()
    try:
        store = SqliteStore(path)
        asyncio.run(store.open())
        asyncio.run(store.close())
    except Exception as exc:  # reported to the parent
        errors.put(repr(exc))


def test_two_processes_starting_on_a_new_database(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    errors = ctx.Queue()
    for attempt in range(40):
        path = str(tmp_path / f"fresh{attempt}.db")
        barrier = ctx.Barrier(2)
        procs = [ctx.Process(target=_open_once, args=(path, barrier, errors)) for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
            assert p.exitcode == 0
        with sqlite3.connect(path) as con:
            done = [r[0] for r in con.execute("SELECT version FROM schema_migrations ORDER BY 1")]
            assert done == [v for v, _sql in migrations()]
    failures = []
    while not errors.empty():
        failures.append(errors.get())
    assert failures == []


# -- 6. a URL taken for a file name ----------------------------------------------------------------------


def test_unsupported_database_url_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError) as caught:
        open_store("mysql://escapade:hunter2@db.example/escapade")
    message = str(caught.value)
    assert "mysql" in message and "SQLite file path" in message and "postgresql://" in message
    assert "hunter2" not in message
    assert not any(tmp_path.iterdir())  # no folder named "mysql:" was made
    for url in ("mysql://x/y", "sqlite://relative.db", ""):
        with pytest.raises(StoreError):
            open_store(url)
    assert isinstance(open_store(f"sqlite:///{tmp_path}/ok.db"), SqliteStore)
    for url in ("postgresql://escapade:hunter2@db.example/escapade", "postgres://u:hunter2@h/db"):
        store = open_store(url)
        assert isinstance(store, PostgresStore)
        assert "hunter2" not in repr(store) and "hunter2" not in store.location
    assert not any(tmp_path.iterdir())


def test_unsupported_database_url_stops_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_cli(tmp_path, "mysql://u:secret@localhost/db", capsys)
    assert code == 2
    assert_one_paragraph(err, "does not support", "SQLite", "PostgreSQL")
    assert "secret" not in err


def test_unreachable_postgres_stops_the_cli_without_the_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()  # nothing listens there: refused at once, no network wait
    code, err = run_cli(tmp_path, f"postgresql://u:s3cr3t-pw@127.0.0.1:{port}/db", capsys)
    assert code == 2
    assert_one_paragraph(err, "Cannot reach the PostgreSQL server", f"127.0.0.1:{port}")
    assert "s3cr3t-pw" not in err and "u:***@" in err


async def test_postgres_from_a_newer_version_stops_the_cli(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_server.new_database()
    store = open_store(url)
    await store.open()
    assert isinstance(store, PostgresStore)
    await store.pool.execute("INSERT INTO schema_migrations (version) VALUES (42)")
    games = await store.pool.fetchval("SELECT count(*) FROM schema_migrations")
    await store.close()
    code, err = await asyncio.to_thread(run_cli, tmp_path, url, capsys)
    assert code == 2
    assert_one_paragraph(err, "schema 42", "Upgrade Escapade")
    again = PostgresStore(url)
    with pytest.raises(StoreError):
        await again.open()
    check = await asyncpg.connect(url)
    assert await check.fetchval("SELECT count(*) FROM schema_migrations") == games  # untouched
    await check.close()


# -- 7. the token stays out of reprs -----------------------------------------------------------------------


def test_config_repr_hides_the_token(tmp_path: Path) -> None:
    env = tmp_path / "t.env"
    env.write_text("DISCORD_TOKEN=MTIz.secret-token-value\n", encoding="utf-8")
    config = Config.load(env)
    assert config.token == "MTIz.secret-token-value"
    assert "secret-token-value" not in repr(config) and "secret-token-value" not in str(config)


# -- 8. seat order after a reload ---------------------------------------------------------------------------


async def test_status_keeps_the_lobby_seat_order_after_reload(tmp_path: Path) -> None:
    db = tmp_path / "order.db"
    async with Harness(db) as h:
        await open_escape(h)
        first = await h.slash("game status", user=CAROL)
    async with Harness(db) as h2:  # a restart: the game comes back from its snapshot
        again = await h2.slash("game status", user=CAROL)

    def seats(reply: Any) -> str:
        return next(f["value"] for f in reply.embeds[0]["fields"] if f["name"] == "Seats")

    assert seats(first) == seats(again)
    assert seats(first).index("resistance") < seats(first).index("isc")
    game = load_game(new_game("escape", seed=1).to_json())
    assert list(game.seats) == ["resistance", "isc"]
