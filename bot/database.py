"""Which store ``ESCAPADE_DATABASE`` names: a SQLite file (the default) or a PostgreSQL URL."""

from __future__ import annotations

from bot.store import SqliteStore, Store, sqlite_path
from bot.store_pg import PostgresStore, is_postgres_url


def open_store(database: str) -> Store:
    """The store ``database`` names, not yet opened: ``postgresql://...`` (or ``postgres://``) for
    PostgreSQL, else a SQLite path (see :func:`bot.store.sqlite_path`). Raises StoreError for anything
    else, naming what is supported (a URL's password never appears in the message)."""
    if is_postgres_url(database):
        return PostgresStore(database)
    return SqliteStore(sqlite_path(database))
