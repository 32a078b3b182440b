"""The Ruleset base class and the registry the bot builds its choices from.

A ruleset is stateless: it holds rules and content, and works on a state object it creates. Like
python-chess's variants, each game is a subclass registered by id.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from engine import canonical
from engine.core import Command, Decision, Event, Hints, Outcome, ScenarioInfo
from engine.dice import Rng
from engine.errors import SetupError
from engine.scene import Scene


class GameState(Protocol):
    """What every ruleset's state offers the engine: its generator and JSON-ready data."""

    rng: Rng

    def to_data(self) -> dict[str, Any]:
        """The state as JSON-ready data (the generator included)."""
        ...


class Chooser(Protocol):
    """A source of uniform choices for self-play (an :class:`~engine.dice.Rng`, or a cheaper picker)."""

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1``."""
        ...


@dataclass(frozen=True)
class SetupOptions:
    """What a new game is created from, besides the seed: scenario, seats and ruleset options."""

    scenario: str
    seats: dict[str, str | None]
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class OptionSpec:
    """A choice made in the lobby before a game starts (a Skirm squad, a heist crew member...).

    ``per_seat`` options are chosen by each seat's holder and passed to ``new_game`` as
    ``options[key] = {seat: value}``; others as ``options[key] = value``. ``choices`` lists
    (value, label) pairs; the first is the default.
    """

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    per_seat: bool = True


class Ruleset(ABC):
    """Rules and content of one game. Subclasses set the class attributes and implement the hooks."""

    id: ClassVar[str]
    name: ClassVar[str]
    seats: ClassVar[tuple[str, ...]]
    content_version: ClassVar[str] = "1"
    min_seats: ClassVar[int] = 0  # 0: all of ``seats`` are required
    summary: ClassVar[str] = ""
    # Where results carry over between games: "none"; "player" (one record per member, e.g. a Skirm
    # squad); "server" (one record per guild, e.g. a heist crew). Stored records come back to setup as
    # options["campaign"] = {seat: record} ("player") or {"*": record} ("server").
    campaign_scope: ClassVar[str] = "none"
    # Simultaneous decisions: keep each seat's submitted command text from the others until the game
    # ends (a secret pick) or show it at once (an open, co-operative round).
    hidden_submissions: ClassVar[bool] = True
    # Set when every seat plays on one side against the game itself (a heist crew, a party of heroes): the
    # side's name as results read it ("the crew"). A result without winners is then the side's defeat,
    # never a draw.
    players_side: ClassVar[str] = ""
    # Verbs of commands that only show something to the one who asks (the heist's 'deck'): the bot plays
    # them on a copy of the game, answers privately, and stores nothing.
    look_verbs: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
    def scenarios(self) -> list[ScenarioInfo]:
        """The scenarios a new game may use, the default first."""

    @abstractmethod
    def setup(self, options: SetupOptions, rng: Rng) -> GameState:
        """A fresh state for these options. Raises SetupError for options the ruleset does not offer."""

    @abstractmethod
    def load_state(self, data: dict[str, Any]) -> GameState:
        """Rebuild a state from its ``to_data()``. Raises KeyError/ValueError on malformed data."""

    @abstractmethod
    def awaiting(self, state: Any) -> list[Decision]:
        """The open decisions: who must act now and how. Empty once the game is over."""

    @abstractmethod
    def legal_commands(self, state: Any, seat: str) -> list[Command]:
        """Every command ``seat`` may play now (empty when nothing is theirs to do)."""

    @abstractmethod
    def parse(self, state: Any, seat: str, text: str) -> Command:
        """Check ``text`` for ``seat`` against the rules and return its canonical Command.

        Raises a RuleError subclass naming the rule when the command is refused. Never mutates.
        """

    @abstractmethod
    def execute(self, state: Any, seat: str, command: Command) -> list[Event]:
        """Play a command that :meth:`parse` accepted; mutates ``state``; returns the narration."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """None while the game runs; the result once it is over."""

    @abstractmethod
    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know, as JSON-ready data. No hidden information."""

    @abstractmethod
    def scene(self, state: Any, seat: str | None) -> Scene:
        """The board image's description for ``seat`` (None: a spectator), built from its view."""

    def text_board(self, state: Any, seat: str | None) -> str:
        """A plain-text board for terminals; defaults to the view's summary."""
        return str(self.view(state, seat).get("summary", ""))

    def bot_weights(self, state: Any, seat: str, options: list[Command]) -> list[int] | None:
        """Optional preferences for the game's own player among ``options`` (None: the generic ones).

        Must use only what ``seat`` may know.
        """
        return None

    def next_seat(self, state: Any) -> str | None:
        """The seat a self-play loop asks next: the first by name of the first open decision (None: none).

        Rulesets may override it with something cheaper than :meth:`awaiting` that gives the same seat.
        """
        decisions = self.awaiting(state)
        return min(decisions[0].seats) if decisions else None

    def sample_command(self, state: Any, seat: str, rng: Chooser) -> Command | None:
        """Optional fast path for self-play: a random legal command for ``seat``, drawn only from ``rng``.

        A ruleset that can find one without listing them all overrides this. The pick should be uniform
        over :meth:`legal_commands` (standing answers excluded) and must be a command :meth:`parse`
        accepts as it is, since self-play executes it without parsing it again. The default, None, tells
        callers to list :meth:`legal_commands` and pick themselves.
        """
        return None

    def copy_state(self, state: Any) -> GameState:
        """An independent deep copy of ``state`` (for search). Rulesets may override with a faster copy.

        The default goes through canonical JSON, so nothing mutable is shared even where ``to_data`` hands
        out the state's own lists and dicts.
        """
        return self.load_state(canonical.loads(canonical.dumps(state.to_data())))

    def determinize(self, state: Any, seat: str, rng: Rng) -> GameState:
        """A full state consistent with what ``seat`` knows, for the search player (it must not peek).

        Hidden contents ``seat`` cannot see (face-down tokens, bags, deck order, the other side's hidden
        submissions) are dealt anew from ``rng``, and the state's own generator is reseeded from ``rng`` so
        the future dice cannot be read. The default suits rulesets whose only hidden information is the
        dice: a copy with a fresh generator. Rulesets with hidden information must override it.
        """
        copy = self.copy_state(state)
        copy.rng = Rng(seed=rng.below(2**62))
        return copy

    def evaluate(self, state: Any, seat: str) -> float:
        """How good the position is for ``seat``, in 0..1 (1: won, 0: lost), from what ``seat`` may know.

        The search player uses it where it cuts its rollouts. The default knows only finished games.
        """
        result = self.outcome(state)
        if result is None:
            return 0.5
        if not result.winners:
            return 0.5
        return 1.0 if seat in result.winners else 0.0

    def hidden_in_play(self, state: Any) -> object | None:
        """A mark of the hidden facts a determinized ``state`` has brought into play: the dice drawn and the
        hidden facts turned public. Playouts of one search that reach the same tree node by the same commands
        with the mark they started with stand in positions where the same commands are legal, so the search
        lists the node once for them. None: no such mark (the search lists every node afresh).

        The default suits the default :meth:`determinize` (only the dice are hidden, so such positions are
        the same): the dice drawn. Rulesets that deal other hidden facts must override it, if at all, with a
        mark that changes whenever a fact that can change a legal command comes into play. Raises nothing.
        """
        if type(self).determinize is Ruleset.determinize:
            drawn: int = state.rng.counter
            return drawn
        return None

    def own_losses(self, state: Any, seat: str) -> int | None:
        """How many of ``seat``'s own figures are out of the game in ``state``; None where the ruleset does
        not say (the default). The search player uses it not to pick a command that may take out one of its
        own figures while another command would not."""
        return None

    def endangers_own(self, state: Any, seat: str, command: Command) -> bool:
        """Whether ``command``, played by ``seat``, would roll against one of its own figures whatever the
        dice (a blast or a line of fire that catches a squadmate or the thrower). False by default. The
        search player avoids such a command while another is safe, as it avoids one that took out its own
        figure in a try (``own_losses``): a harm that only some dice bring is easy to miss in a few tries."""
        return False

    def worthwhile(self, state: Any, seat: str, options: list[Command]) -> list[Command]:
        """The commands of ``options`` worth the search player's time: all of them by default. A ruleset
        drops those that only take back the seat's own last command at a cost (a step straight back to the
        square just left, nothing having come of it) and those that change no position at all (reading a
        face-up deck): the search would weigh them like moves and could play them forever. Raises
        nothing."""
        return options

    def weighed_options(
        self, state: Any, seat: str, options: list[Command]
    ) -> tuple[list[Command], list[int] | None]:
        """The worthwhile commands of ``options`` (:meth:`worthwhile`, or all of them where that leaves
        none) and their :meth:`bot_weights`, as one answer: a ruleset whose two share work (the heist's
        plans) overrides it to do that work once. Raises nothing."""
        kept = self.worthwhile(state, seat, options) or options
        return kept, self.bot_weights(state, seat, kept)

    def option_specs(self, scenario: str) -> list[OptionSpec]:
        """The lobby choices this scenario offers (empty: none)."""
        return []

    def campaign_update(self, state: Any) -> dict[str, dict[str, Any]]:
        """After the game ends: the new campaign records, keyed like ``options["campaign"]``."""
        return {}

    def describe_campaign(self, record: dict[str, Any]) -> str:
        """A campaign record as a few lines of text for players."""
        return ""

    def campaign_chain(self) -> str:
        """How the scenarios follow one another as a campaign, for players ("": no such chain)."""
        return ""

    def hints(self, state: Any, seat: str) -> Hints:
        """The reachable cells and legal targets of ``seat``'s active unit, from what ``seat`` may know.

        The default, empty Hints, means the ruleset draws none.
        """
        return Hints()

    def turn_label(self, state: Any) -> str:
        """Where the game stands in players' words, e.g. "turn 3/8" or "round 2, plan phase" ("": unknown)."""
        return ""

    def seat_colours(self, state: Any) -> dict[str, str]:
        """Each seat's colour (``#rrggbb``) as drawn on the board, distinct between seats ({}: none)."""
        return {}

    def help_topics(self) -> dict[str, str]:
        """Short rules help, topic name to text, in the project's own words."""
        return {}

    def scenario(self, scenario_id: str | None) -> ScenarioInfo:
        """The scenario with this id (None: the default). Raises SetupError if there is none."""
        infos = self.scenarios()
        if scenario_id is None:
            return infos[0]
        for info in infos:
            if info.id == scenario_id.strip().lower():
                return info
        names = ", ".join(i.id for i in infos)
        raise SetupError(f"{self.name} has no scenario '{scenario_id}'. Choose one of: {names}.")


RULESETS: dict[str, Ruleset] = {}


def register(ruleset: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: add an instance of ``ruleset`` to :data:`RULESETS` under its id."""
    RULESETS[ruleset.id] = ruleset()
    return ruleset


def find_ruleset(name: str) -> Ruleset:
    """The ruleset whose id or name matches ``name`` (case-insensitive). Raises SetupError if none."""
    key = name.strip().lower()
    for rs in RULESETS.values():
        if key in (rs.id, rs.name.lower()):
            return rs
    raise SetupError(f"There is no game called '{name}'. Available: {', '.join(sorted(RULESETS))}.")
