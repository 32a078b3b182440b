"""Small test-only rulesets that exercise what the bot must carry generically, registered only for the
tests that ask for them (the ``fake_rulesets`` fixture restores the registry afterwards):

- ``testsim`` (Crew): 3–4 seats, everyone acts at once each round, a per-seat lobby choice (role) and a
  game-wide one (length), a campaign kept per server; rounds are played in the open.
- ``testduo`` (Duo): two seats taking turns, a campaign kept per player.
- ``heist`` (only with ``fake_heist``): Crew under the heist game's id, for ``/heist crew``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import RULESETS, Command, Decision, Event, OptionSpec, Outcome, ScenarioInfo
from engine.dice import Rng
from engine.errors import IllegalCommand, NotYourTurn, UnknownCommand
from engine.ruleset import Ruleset, SetupOptions
from engine.scene import Panel, Scene, Tile, Token

TARGET = 5  # bags the crew needs


@dataclass
class CrewState:
    """Seats in play, the round, who answered it, bags per seat, the vault carried in by the campaign."""

    rng: Rng
    seats: list[str]
    roles: dict[str, str]
    rounds: int
    round: int = 1
    answered: dict[str, int] = field(default_factory=dict)
    bags: dict[str, int] = field(default_factory=dict)
    vault: dict[str, Any] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {
            "rng": self.rng.to_data(),
            "seats": list(self.seats),
            "roles": dict(self.roles),
            "rounds": self.rounds,
            "round": self.round,
            "answered": dict(self.answered),
            "bags": dict(self.bags),
            "vault": dict(self.vault),
        }


class Crew(Ruleset):
    """Everyone grabs bags at once; a thief may grab three. The crew wins with TARGET bags."""

    id = "testsim"
    name = "Crew"
    seats = ("p1", "p2", "p3", "p4")
    min_seats = 3
    campaign_scope = "server"
    hidden_submissions = False  # a co-operative game: answers are shown as they come
    players_side = "the crew"

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("bank", "The bank", "Grab the bags.")]

    def option_specs(self, scenario: str) -> list[OptionSpec]:
        return [
            OptionSpec("role", "Role", (("lookout", "Lookout"), ("thief", "Thief (may grab 3)"))),
            OptionSpec("length", "Length", (("short", "One round"), ("long", "Two rounds")), per_seat=False),
        ]

    def setup(self, options: SetupOptions, rng: Rng) -> CrewState:
        seats = list(options.seats)
        roles = dict(options.options.get("role") or {})
        rounds = 2 if options.options.get("length") == "long" else 1
        vault = dict((options.options.get("campaign") or {}).get("*") or {})
        return CrewState(rng, seats, {s: roles.get(s, "lookout") for s in seats}, rounds, vault=vault)

    def load_state(self, data: dict[str, Any]) -> CrewState:
        return CrewState(
            Rng.from_data(data["rng"]),
            list(data["seats"]),
            dict(data["roles"]),
            int(data["rounds"]),
            int(data["round"]),
            dict(data["answered"]),
            dict(data["bags"]),
            dict(data["vault"]),
        )

    def awaiting(self, st: CrewState) -> list[Decision]:
        if self.outcome(st) is not None:
            return []
        waiting = frozenset(s for s in st.seats if s not in st.answered)
        prompt = f"Round {st.round}: how many bags do you grab?"
        return [Decision("simultaneous", waiting, prompt, default=Command("grab", ("1",)))]

    def legal_commands(self, st: CrewState, seat: str) -> list[Command]:
        if self.outcome(st) is not None or seat not in st.seats or seat in st.answered:
            return []
        most = 3 if st.roles[seat] == "thief" else 2
        return [Command("grab", (str(n),), f"Grab {n} bag{'s' if n > 1 else ''}") for n in range(1, most + 1)]

    def parse(self, st: CrewState, seat: str, text: str) -> Command:
        for c in self.legal_commands(st, seat):
            if c.text == text.lower():
                return c
        if text.split()[0] != "grab":
            raise UnknownCommand(f"'{text}' is not a Crew command: try 'grab 1'.")
        if seat in st.answered:
            raise NotYourTurn(f"{seat} has already grabbed this round.")
        raise IllegalCommand(f"'{text}': a {st.roles.get(seat, 'lookout')} may not grab that many.")

    def execute(self, st: CrewState, seat: str, command: Command) -> list[Event]:
        n = int(command.args[0])
        st.answered[seat] = n
        st.bags[seat] = st.bags.get(seat, 0) + n
        events = [Event(f"{seat} grabs {n}.", "grab")]
        if len(st.answered) == len(st.seats):
            total = sum(st.bags.values())
            events.append(Event(f"Round {st.round} ends with {total} bags.", "round", board=True))
            st.answered = {}
            st.round += 1
        return events

    def outcome(self, st: CrewState) -> Outcome | None:
        if st.round <= st.rounds:
            return None
        total = sum(st.bags.values())
        if total >= TARGET:
            return Outcome(frozenset(st.seats), f"The crew got away with {total} bags.")
        return Outcome(frozenset(), f"Only {total} bags: not enough.")

    def view(self, st: CrewState, seat: str | None) -> dict[str, Any]:
        return {"round": st.round, "bags": dict(st.bags), "summary": f"round {st.round}"}

    def scene(self, st: CrewState, seat: str | None) -> Scene:
        tiles = tuple(Tile((x, 0), "#444444") for x in range(len(st.seats)))
        tokens = tuple(Token((i, 0), s[-1], "#33aa33") for i, s in enumerate(st.seats))
        return Scene("square", len(st.seats), 1, "crew", tiles, tokens=tokens, panel=Panel(title="Crew"))

    def campaign_update(self, st: CrewState) -> dict[str, dict[str, Any]]:
        outcome = self.outcome(st)
        won = outcome is not None and bool(outcome.winners)
        return {
            "*": {
                "heists": int(st.vault.get("heists", 0)) + 1,
                "won": int(st.vault.get("won", 0)) + int(won),
                "bags": int(st.vault.get("bags", 0)) + (sum(st.bags.values()) if won else 0),
            }
        }

    def describe_campaign(self, record: dict[str, Any]) -> str:
        return f"{record['heists']} heists, {record['won']} won, {record['bags']} bags in the vault."

    def help_topics(self) -> dict[str, str]:
        return {"overview": "Everyone grabs bags at once; the crew needs five."}


class FakeHeist(Crew):
    """Crew under the heist game's id (for /heist crew)."""

    id = "heist"
    name = "Heist (test)"


@dataclass
class DuoState:
    """Two seats take turns scoring; the first to two points wins. ``past`` holds the campaign records."""

    rng: Rng
    turn: str = "north"
    points: dict[str, int] = field(default_factory=lambda: {"north": 0, "south": 0})
    past: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {"rng": self.rng.to_data(), "turn": self.turn, "points": dict(self.points), "past": self.past}


DUO_OTHER = {"north": "south", "south": "north"}


class Duo(Ruleset):
    """Turn-based; each member's record (games, wins) carries over from game to game."""

    id = "testduo"
    name = "Duo"
    seats = ("north", "south")
    campaign_scope = "player"

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("field", "The field", "First to two points.")]

    def setup(self, options: SetupOptions, rng: Rng) -> DuoState:
        return DuoState(rng, past=dict(options.options.get("campaign") or {}))

    def load_state(self, data: dict[str, Any]) -> DuoState:
        return DuoState(Rng.from_data(data["rng"]), data["turn"], dict(data["points"]), dict(data["past"]))

    def awaiting(self, st: DuoState) -> list[Decision]:
        if self.outcome(st) is not None:
            return []
        return [Decision("activation", frozenset({st.turn}), f"{st.turn}: score or pass")]

    def legal_commands(self, st: DuoState, seat: str) -> list[Command]:
        if self.outcome(st) is not None or seat != st.turn:
            return []
        return [Command("score", (), "Score a point"), Command("pass", (), "Pass")]

    def parse(self, st: DuoState, seat: str, text: str) -> Command:
        for c in self.legal_commands(st, seat):
            if c.text == text.lower():
                return c
        if text.split()[0] not in ("score", "pass"):
            raise UnknownCommand(f"'{text}' is not a Duo command.")
        raise NotYourTurn(f"It is {st.turn}'s turn.")

    def execute(self, st: DuoState, seat: str, command: Command) -> list[Event]:
        if command.verb == "score":
            st.points[seat] += 1
        st.turn = DUO_OTHER[seat]
        return [Event(f"{seat} {command.verb}s.", command.verb, board=True)]

    def outcome(self, st: DuoState) -> Outcome | None:
        for seat, points in st.points.items():
            if points >= 2:
                return Outcome(frozenset({seat}), f"{seat} scored twice.")
        return None

    def view(self, st: DuoState, seat: str | None) -> dict[str, Any]:
        return {"points": dict(st.points), "summary": str(st.points)}

    def scene(self, st: DuoState, seat: str | None) -> Scene:
        tiles = tuple(Tile((x, 0), "#444444") for x in range(2))
        return Scene("square", 2, 1, "duo", tiles, panel=Panel(title="Duo"))

    def campaign_update(self, st: DuoState) -> dict[str, dict[str, Any]]:
        outcome = self.outcome(st)
        winners = outcome.winners if outcome else frozenset()
        out = {}
        for seat in self.seats:
            before = st.past.get(seat, {})
            out[seat] = {
                "games": int(before.get("games", 0)) + 1,
                "wins": int(before.get("wins", 0)) + int(seat in winners),
            }
        return out

    def describe_campaign(self, record: dict[str, Any]) -> str:
        return f"{record['wins']} wins in {record['games']} games."


@pytest.fixture
def fake_rulesets() -> Iterator[None]:
    """Register ``testsim`` and ``testduo`` for one test, then put the registry back as it was."""
    saved = dict(RULESETS)
    RULESETS["testsim"] = Crew()
    RULESETS["testduo"] = Duo()
    try:
        yield
    finally:
        RULESETS.clear()
        RULESETS.update(saved)


@pytest.fixture
def fake_heist(fake_rulesets: None) -> Iterator[None]:
    """Also register Crew as ``heist`` (replacing a real heist ruleset for this test only)."""
    RULESETS["heist"] = FakeHeist()
    yield
