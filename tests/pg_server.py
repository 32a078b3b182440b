"""A throwaway PostgreSQL server for the tests: ``initdb`` and ``pg_ctl`` in a temporary folder, a free
port on 127.0.0.1 (its unix socket in that folder too), fsync off, stopped and removed at the end.

The binaries are found with ``pg_config --bindir`` (or under /usr/lib/postgresql/*/bin). PostgreSQL
refuses to run as root, so as root the server runs as the unprivileged user ``nobody``.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from pathlib import Path

INSTALL = (
    "PostgreSQL server binaries (initdb, pg_ctl) not found: install them with apt-get install postgresql"
)


def find_bindir() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10)
            candidates.append(out.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One running server; :meth:`new_database` gives each test its own empty database."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="escapade-pg-"))
        self.port = free_port()
        self.user = "escapade"
        self._names = itertools.count(1)
        self._as: list[str] = []
        if os.geteuid() == 0:  # postgres will not run as root
            nobody = pwd.getpwnam("nobody")
            os.chown(self.folder, nobody.pw_uid, nobody.pw_gid)
            self._as = ["runuser", "-u", "nobody", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, timeout=60, cwd=self.folder)

    def stop_on_sigterm(self) -> None:
        """Make SIGTERM (``timeout``, a CI runner giving up) stop the server too: it raises SystemExit in
        the main thread, so the ``finally`` that calls :meth:`stop` runs instead of leaving it behind."""

        def leave(signum: int, frame: object) -> None:
            raise SystemExit(128 + signum)

        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, leave)

    def start(self) -> None:
        """initdb and start the server; raises CalledProcessError with its output if it fails."""
        data = self.folder / "data"
        self._run(str(self.bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", self.user, "--no-sync")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-l", str(self.folder / "log"), "-w", "-t", "30", "-o", f"-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c max_connections=300", "start")  # fmt: skip

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The URL of one of the server's databases."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """Create an empty database and return its URL."""
        name = f"t{next(self._names)}"
        subprocess.run(
            [str(self.bindir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, name],
            check=True,
            capture_output=True,
            timeout=60,
        )
        return self.url(name)
