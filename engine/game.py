"""A game in progress: a ruleset, its state, the seats and the command log.

``new_game`` and ``load_game`` are the engine's public entry points. The state after command n is a
pure function of (ruleset, content version, options, seed, scripted dice) and the first n commands,
so :meth:`Game.replay` rebuilds it exactly.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import canonical
from engine.ai import levels
from engine.core import Command, Decision, Event, Hints, Outcome
from engine.dice import Rng
from engine.errors import GameOver, IllegalCommand, NotYourTurn, RuleError, SetupError, UnknownCommand
from engine.ruleset import GameState, Ruleset, SetupOptions, find_ruleset
from engine.scene import Scene

SCHEMA_VERSION = 1
# No ruleset's command comes near this (the longest are about 40 characters), and a slash command's choice
# value cannot exceed 100: longer text is pasted garbage, refused without echoing it back.
MAX_COMMAND_LENGTH = 100


@dataclass(frozen=True)
class LogEntry:
    """One accepted command: the seat that played it and its canonical text."""

    seat: str
    text: str


class Game:
    """One game. Use :func:`new_game` or :func:`load_game` to make one."""

    def __init__(
        self,
        ruleset: Ruleset,
        setup: SetupOptions,
        seed: int,
        dice: list[int],
        state: GameState,
        log: list[LogEntry] | None = None,
        log_start: int = 0,
    ) -> None:
        self.ruleset = ruleset
        self.setup_options = setup
        self.seed = seed
        self.dice = list(dice)
        self.state = state
        self.log: list[LogEntry] = list(log or [])
        # How many commands came before ``log[0]``: a store may keep the log apart from the state and load
        # a game without it (the position does not need it; only :meth:`replay` does).
        self.log_start = log_start

    @property
    def plies(self) -> int:
        """How many commands have been played since the game was set up."""
        return self.log_start + len(self.log)

    # -- who acts ----------------------------------------------------------------------------------
    @property
    def seats(self) -> dict[str, str | None]:
        """Seat name to the member who holds it (None: a bot seat)."""
        return self.setup_options.seats

    @property
    def scenario(self) -> str:
        """The scenario id this game was created with."""
        return self.setup_options.scenario

    def bot_seats(self) -> list[str]:
        """The seats the game itself plays."""
        return [s for s, who in self.seats.items() if who is None]

    def awaiting(self) -> list[Decision]:
        """The open decisions (empty once the game is over)."""
        if self.outcome is not None:
            return []
        return self.ruleset.awaiting(self.state)

    def seats_to_act(self) -> set[str]:
        """Every seat that has an open decision."""
        return {seat for d in self.awaiting() for seat in d.seats}

    def legal_commands(self, seat: str) -> list[Command]:
        """Every command ``seat`` may play now."""
        if self.outcome is not None:
            return []
        return self.ruleset.legal_commands(self.state, seat)

    # -- acting ------------------------------------------------------------------------------------
    def parse(self, seat: str, text: str) -> Command:
        """Check ``text`` for ``seat`` and return the canonical command. Raises RuleError; changes nothing."""
        if seat not in self.seats:
            raise NotYourTurn(f"'{seat}' is not a seat in this game (seats: {', '.join(self.seats)}).")
        if self.outcome is not None:
            raise GameOver(f"The game is over: {self.outcome.reason}")
        if not text or not text.strip():
            raise RuleError("Type a command; the list of legal commands shows what you can do now.")
        typed = " ".join(text.split())
        if len(typed) > MAX_COMMAND_LENGTH:
            legal = self.legal_commands(seat)
            like = f", like '{legal[0].text}'" if legal else ""
            raise UnknownCommand(
                f"That is not a command: commands are a few words{like}, and this is {len(typed)} characters long."
            )
        try:
            return self.ruleset.parse(self.state, seat, typed)
        except (UnknownCommand, IllegalCommand) as error:
            hint = self._did_you_mean(seat, typed)
            if not hint:
                raise
            said = str(error).split(" Commands:")[0]  # the hint replaces a long list of every verb
            raise type(error)(f"{said} Did you mean {hint}?") from error

    def _did_you_mean(self, seat: str, typed: str) -> str:
        """The command ``typed`` with one mistyped word (its verb or an argument) replaced by the closest
        legal one, when that makes a command the rules accept ("" otherwise)."""
        legal = self.legal_commands(seat)
        words = typed.lower().split()
        if not legal or not words:
            return ""
        verbs = sorted({c.verb for c in legal})
        fixed: list[str] = []
        if words[0] not in verbs:
            close = difflib.get_close_matches(words[0], verbs, n=1, cutoff=0.6)
            fixed = [close[0], *words[1:]] if close else []
        else:
            same = [c for c in legal if c.verb == words[0]]
            for i, word in enumerate(words[1:]):
                known = sorted({c.args[i] for c in same if len(c.args) > i})
                if known and word not in known:
                    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
                    fixed = [*words[: i + 1], close[0], *words[i + 2 :]] if close else []
                    break
        if not fixed:
            return ""
        try:  # a hint the rules would refuse in turn ("crate zz" for "activate zz") helps nobody
            self.ruleset.parse(self.state, seat, " ".join(fixed))
        except RuleError:
            return ""
        return f"'{' '.join(fixed)}'"

    def apply(self, seat: str, text: str | Command) -> list[Event]:
        """Play a command for ``seat`` and return what happened.

        Raises a RuleError subclass (NotYourTurn, IllegalCommand, UnknownCommand, GameOver...) naming
        the rule when it is refused; a refused command changes nothing.
        """
        command = self.parse(seat, text.text if isinstance(text, Command) else text)
        events = self.ruleset.execute(self.state, seat, command)
        self.log.append(LogEntry(seat, command.text))
        return events

    def bot_level(self, seat: str) -> str:
        """The level of the game's own player for ``seat``: ``options["bot_level"]`` (one level for every
        bot seat, or a map seat -> level), "easy" when the game was created without one."""
        chosen = self.setup_options.options.get("bot_level")
        if isinstance(chosen, dict):
            chosen = chosen.get(seat)
        return str(chosen or levels.DEFAULT_LEVEL)

    def bot_command(
        self,
        seat: str,
        *,
        level: str | None = None,
        clock: Callable[[], float] | None = None,
        seconds: float | None = None,
    ) -> Command:
        """The command the game's own player (at ``level``, default :meth:`bot_level`) plays for ``seat``.

        The search levels see only what ``seat`` may know. ``clock``/``seconds`` cap the thinking time (the
        engine reads no clock itself). Raises NotYourTurn if ``seat`` has nothing to play, SetupError for
        an unknown level.
        """
        return levels.choose(
            self.ruleset,
            self.state,
            seat,
            self.legal_commands(seat),
            level=level or self.bot_level(seat),
            seed=self.seed,
            ply=self.plies,
            clock=clock,
            seconds=seconds,
        )

    def next_bot_seat(self) -> str | None:
        """The bot seat :meth:`play_bots` would play next (None: a human must act, or the game is over)."""
        bots = set(self.bot_seats())
        if not bots:
            return None
        pending = [
            s
            for d in self.awaiting()
            if not (d.any_seat and d.seats - bots)
            for s in sorted(d.seats)
            if s in bots
        ]
        return pending[0] if pending else None

    def play_bots(self, limit: int = 10_000) -> list[tuple[str, Command, list[Event]]]:
        """Play every decision that belongs only to bot seats until a human must act or the game ends.

        Returns (seat, command, events) for each command played.
        """
        played: list[tuple[str, Command, list[Event]]] = []
        while len(played) < limit:
            seat = self.next_bot_seat()
            if seat is None:
                break
            command = self.bot_command(seat)
            played.append((seat, command, self.apply(seat, command)))
        return played

    @property
    def outcome(self) -> Outcome | None:
        """None while the game runs; the result once it is over."""
        return self.ruleset.outcome(self.state)

    # -- what may be seen ----------------------------------------------------------------------------
    def view(self, seat: str | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know."""
        return self.ruleset.view(self.state, seat)

    def scene(self, seat: str | None = None) -> Scene:
        """The board image's description for ``seat`` (None: a spectator)."""
        return self.ruleset.scene(self.state, seat)

    def hints(self, seat: str) -> Hints:
        """What ``seat``'s active unit can reach and hit now (empty when the ruleset draws none)."""
        return self.ruleset.hints(self.state, seat)

    def turn_label(self) -> str:
        """Where the game stands, e.g. "turn 3/8" ("" when the ruleset does not say)."""
        return self.ruleset.turn_label(self.state)

    def text_board(self, seat: str | None = None) -> str:
        """A plain-text board for terminals."""
        return self.ruleset.text_board(self.state, seat)

    # -- persistence ---------------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """The whole game as JSON-ready data: header, log and the current state."""
        data: dict[str, Any] = {
            "schema": SCHEMA_VERSION,
            "ruleset": self.ruleset.id,
            "content_version": self.ruleset.content_version,
            "scenario": self.setup_options.scenario,
            "seats": dict(self.setup_options.seats),
            "options": self.setup_options.options,
            "seed": self.seed,
            "dice": list(self.dice),
            "log": [[e.seat, e.text] for e in self.log],
            "state": self.state.to_data(),
        }
        if self.log_start:
            data["log_start"] = self.log_start
        return data

    def to_json(self) -> str:
        """Canonical JSON of :meth:`to_data`."""
        return canonical.dumps(self.to_data())

    def replay(self, upto: int | None = None) -> Game:
        """A new game built from this one's header, with its log (the first ``upto`` commands) replayed.

        Raises SetupError when this game was loaded without the start of its log (``log_start``).
        """
        if self.log_start:
            raise SetupError(
                f"This game was loaded without its first {self.log_start} commands; load it with its "
                "whole log to replay it."
            )
        fresh = new_game(
            self.ruleset.id,
            scenario=self.setup_options.scenario,
            seats=dict(self.seats),
            seed=self.seed,
            dice=list(self.dice),
            options=dict(self.setup_options.options),
        )
        for entry in self.log[:upto]:
            fresh.apply(entry.seat, entry.text)
        return fresh

    def copy(self) -> Game:
        """An independent copy: applying commands to it leaves this game untouched."""
        return Game(
            self.ruleset,
            self.setup_options,
            self.seed,
            self.dice,
            self.ruleset.copy_state(self.state),
            self.log,
            self.log_start,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def new_game(
    ruleset: str,
    *,
    scenario: str | None = None,
    seats: dict[str, str | None] | None = None,
    seed: int = 0,
    dice: list[int] | None = None,
    options: dict[str, Any] | None = None,
) -> Game:
    """Create a game of ``ruleset``.

    ``seats`` maps seat names to member ids (None: played by the game); missing seats are bot seats.
    ``dice`` are die results served before the seeded generator's (for tests). Raises SetupError for an
    unknown ruleset, scenario, seat or option.
    """
    rs = find_ruleset(ruleset)
    given = dict(seats or {})
    unknown = [s for s in given if s not in rs.seats]
    if unknown:
        raise SetupError(f"{rs.name} has no seat {', '.join(unknown)} (seats: {', '.join(rs.seats)}).")
    if rs.min_seats:
        chosen = {s: given[s] for s in rs.seats if s in given}
        if len(chosen) < rs.min_seats:
            raise SetupError(f"{rs.name} needs at least {rs.min_seats} seats.")
    else:
        chosen = {s: given.get(s) for s in rs.seats}
    info = rs.scenario(scenario)
    setup = SetupOptions(scenario=info.id, seats=chosen, options=dict(options or {}))
    rng = Rng(seed=seed, script=list(dice or []))
    state = rs.setup(setup, rng)
    return Game(rs, setup, seed, list(dice or []), state)


def load_game(text: str | dict[str, Any]) -> Game:
    """Rebuild a game from :meth:`Game.to_json` output (or its data). Raises SetupError if unreadable."""
    data = canonical.loads(text) if isinstance(text, str) else text
    schema = data.get("schema", SCHEMA_VERSION) if isinstance(data, dict) else SCHEMA_VERSION
    if not isinstance(schema, int) or schema > SCHEMA_VERSION:
        raise SetupError(
            f"This saved game was written by a newer version of Escapade (game schema {schema}; this "
            f"version reads up to {SCHEMA_VERSION}). Upgrade Escapade to play it; it was left unchanged."
        )
    try:
        rs = find_ruleset(data["ruleset"])
        saved = dict(data["seats"])
        # Canonical JSON sorts keys: put the seats back in the ruleset's order (the lobby's order).
        seats = {s: saved.pop(s) for s in rs.seats if s in saved} | saved
        setup = SetupOptions(scenario=data["scenario"], seats=seats, options=dict(data["options"]))
        state = rs.load_state(data["state"])
        log = [LogEntry(seat, cmd) for seat, cmd in data["log"]]
        start = int(data.get("log_start", 0))
        return Game(rs, setup, int(data["seed"]), list(data["dice"]), state, log, start)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SetupError):
            raise
        raise SetupError(f"This saved game cannot be read ({exc!r}).") from exc
