"""Value objects shared by every ruleset: commands, decisions, events, outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

DecisionKind = Literal["activation", "reaction", "simultaneous", "setup", "turn"]


@dataclass(frozen=True)
class Command:
    """One player intent. ``text`` is canonical and round-trips through the ruleset's parser.

    ``verb`` and ``args`` are the parsed parts; ``label`` is a short human description.
    """

    verb: str
    args: tuple[str, ...] = ()
    label: str = ""
    # The canonical command text (``verb arg arg``), joined once: the search reads it over and over.
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", " ".join((self.verb, *self.args)))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Decision:
    """An open question: which seats must answer, of what kind, and the options they have."""

    kind: DecisionKind
    seats: frozenset[str]
    prompt: str
    options: tuple[Command, ...] = ()
    default: Command | None = None  # what a timeout answers, where one is safe
    # One answer from any of ``seats`` settles it (a team choice): the game's own players then leave it
    # to the members among those seats.
    any_seat: bool = False

    def __contains__(self, seat: object) -> bool:
        return seat in self.seats


@dataclass(frozen=True)
class Event:
    """Something that happened, narrated for players. ``dice`` lists every die rolled for it.

    ``board`` is true when the board image should be posted after this event (an activation or a
    round ended, the game ended). ``data`` holds facts for the presentation; two keys let like events in a
    row be told as one line: ``series``, a pair (head, item) of an event whose text is
    ``f"{head} {item}."`` ("Tiny Mike plans c6, d5 and d4."), and ``path``, (head, from, to, suffix) of a
    step whose text is ``f"{head} {from} ➜ {to}{suffix}."`` or ``f"{head} {to}{suffix}."``, the suffix a
    state after the step ("Oni moves to n7 ➜ n6 (Mvt 0 left).").
    """

    text: str
    kind: str = "info"
    dice: tuple[int, ...] = ()
    board: bool = False
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winners`` is empty for a draw."""

    winners: frozenset[str]
    reason: str

    @property
    def draw(self) -> bool:
        """True when nobody won."""
        return not self.winners

    def to_data(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"winners": sorted(self.winners), "reason": self.reason}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Outcome:
        """Inverse of :meth:`to_data`."""
        return cls(frozenset(data["winners"]), str(data["reason"]))


@dataclass(frozen=True)
class ScenarioInfo:
    """A scenario (or mission, or heist) a ruleset offers at game creation."""

    id: str
    name: str
    summary: str


@dataclass(frozen=True)
class Hints:
    """What a seat's active unit can do from here, for a "Show moves" image.

    ``unit`` names the unit the hints are for ("" when nothing is active); ``reach`` lists the cells it can
    move to with what it has left; ``targets`` the cells holding something it can attack or act on now.
    """

    unit: str = ""
    reach: tuple[tuple[int, int], ...] = ()
    targets: tuple[tuple[int, int], ...] = ()
