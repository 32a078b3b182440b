"""What a new game is created with besides its seats: the lobby's choices and the campaign records.

Lobby choices are the ruleset's :class:`engine.OptionSpec` s for the scenario, kept in the lobby row's
``settings["options"]`` as ``{key: {seat: value}}`` (per-seat) or ``{key: value}``. Campaign records are
keyed by member id ("player" scope) or ``"*"`` ("server" scope) in the store, and by seat or ``"*"`` in
the engine. These functions translate between the two; they decide no rule.
"""

from __future__ import annotations

from typing import Any

from engine import OptionSpec, Ruleset

SERVER_KEY = "*"
BOT = "bot"


def specs(rs: Ruleset, scenario: str | None) -> list[OptionSpec]:
    """The lobby choices the ruleset offers for ``scenario`` (its default scenario when None)."""
    return rs.option_specs(rs.scenario(scenario).id)


def find_spec(rs: Ruleset, scenario: str | None, key: str) -> OptionSpec | None:
    """The choice called ``key`` (its key or label, any case), or None."""
    wanted = key.strip().lower()
    for spec in specs(rs, scenario):
        if wanted in (spec.key.lower(), spec.label.lower()):
            return spec
    return None


def find_value(spec: OptionSpec, typed: str) -> str | None:
    """The value of ``spec`` that ``typed`` names (its value or label, any case), or None."""
    wanted = typed.strip().lower()
    for value, label in spec.choices:
        if wanted in (value.lower(), label.lower()):
            return value
    return None


def label_of(spec: OptionSpec, value: str) -> str:
    """The label shown for a value of ``spec`` (the value itself when it has none)."""
    return next((label for v, label in spec.choices if v == value), value)


def chosen(
    rs: Ruleset, scenario: str | None, seats: dict[str, str | None], stored: dict[str, Any]
) -> dict[str, Any]:
    """The options a game starting now gets: what was chosen in the lobby, the first choice otherwise.

    Per-seat options cover the seats in ``seats`` that someone holds (a member or the game's player).
    """
    out: dict[str, Any] = {}
    for spec in specs(rs, scenario):
        default = spec.choices[0][0] if spec.choices else ""
        picked = stored.get(spec.key)
        if spec.per_seat:
            per = picked if isinstance(picked, dict) else {}
            out[spec.key] = {s: per.get(s, default) for s, who in seats.items() if who is not None}
        else:
            out[spec.key] = picked if isinstance(picked, str) else default
    return out


def campaign_keys(scope: str, seats: dict[str, str | None]) -> list[str]:
    """The store keys of the records a game with these seats reads (members' ids, or the server's)."""
    if scope == "server":
        return [SERVER_KEY]
    if scope == "player":
        return sorted({who for who in seats.values() if who not in (None, BOT)})
    return []


def campaign_option(
    scope: str, seats: dict[str, str | None], records: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """``options["campaign"]`` for a new game: ``{seat: record}`` ("player") or ``{"*": record}``."""
    if scope == "server":
        return {SERVER_KEY: records[SERVER_KEY]} if SERVER_KEY in records else {}
    if scope == "player":
        return {s: records[who] for s, who in seats.items() if who is not None and who in records}
    return {}


def campaign_writes(
    scope: str, seats: dict[str, str | None], updates: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The store records to write from ``campaign_update``'s result (keyed by seat or ``"*"``).

    A "player" record goes to the member holding the seat; seats played by the game keep nothing. When
    one member held several seats, the record of their first seat (in seat order) is kept.
    """
    if scope == "server":
        return {SERVER_KEY: updates[SERVER_KEY]} if SERVER_KEY in updates else {}
    if scope != "player":
        return {}
    out: dict[str, dict[str, Any]] = {}
    for seat, who in seats.items():
        if who not in (None, BOT) and seat in updates and who not in out:
            out[who] = updates[seat]
    return out
