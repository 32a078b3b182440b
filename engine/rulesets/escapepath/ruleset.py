"""The Escape Path ruleset: registration, setup, and the engine hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import Command, Decision, Event, Hints, Outcome, ScenarioInfo
from engine.dice import Rng
from engine.errors import SetupError
from engine.memo import Memo
from engine.ruleset import Chooser, OptionSpec, Ruleset, SetupOptions, register
from engine.rulesets.escapepath import actions as A
from engine.rulesets.escapepath import policy as P
from engine.rulesets.escapepath import rules as R
from engine.rulesets.escapepath import sampler as S
from engine.rulesets.escapepath.board import name as figure_name
from engine.rulesets.escapepath.board import scen
from engine.rulesets.escapepath.content import bogie_kinds, scenarios
from engine.rulesets.escapepath.help import HELP
from engine.rulesets.escapepath.present import SIDE_COLOURS, hints, scene, text_board, view
from engine.rulesets.escapepath.state import SEATS, SWARM, TEAM, Figure, PathState
from engine.scene import Scene

NEW_SAVE = OptionSpec(
    "new_save",
    "New bogie save rule",
    (("off", "Off: slow bogies save on 4-6"), ("on", "On: slow bogies save on 3-6")),
    per_seat=False,
)


# Listings and weighings by position (dice aside) and seat: the search meets the same positions in playout
# after playout, since moves here are certain and only fights roll. Each kept answer takes a few kB.
_LEGAL: Memo[list[Command]] = Memo(1024)
_WEIGHED: Memo[tuple[list[Command], list[int] | None]] = Memo(1024)


@register
class EscapePath(Ruleset):
    """Escape Path core rules: a team against a swarm, with facing."""

    id = "escapepath"
    name = "Escape Path"
    seats = SEATS
    content_version = "2"  # 2: Graveyard Shift's gate (l10) opened to the north (l9 was a wall)
    summary: ClassVar[str] = "A team against a swarm of bogies: facing, arcs of fire, bombs and panic shots."

    def scenarios(self) -> list[ScenarioInfo]:
        """The authored scenarios, the default first."""
        return [ScenarioInfo(s.id, s.name, s.summary) for s in scenarios().values()]

    def option_specs(self, scenario: str) -> list[OptionSpec]:
        """The optional new bogie save rule, a game-wide choice."""
        return [NEW_SAVE]

    def setup(self, options: SetupOptions, rng: Rng) -> PathState:
        """The scenario's team on its starting squares and the swarm in its pool. Raises SetupError on bad options."""
        s = scenarios()[options.scenario]
        choice = str(options.options.get("new_save", "off")).lower()
        if choice not in ("off", "on"):
            raise SetupError("The new bogie save rule is 'on' or 'off'.")
        figures = {
            m.id: Figure(m.id, TEAM, "character", "board", m.start, m.facing, 0, m.bombs) for m in s.team
        }
        prefix = bogie_kinds()[s.kind].prefix
        for i in range(1, s.pool + 1):
            figures[f"{prefix}{i}"] = Figure(f"{prefix}{i}", SWARM, s.kind, "pool")
        st = PathState(rng=rng, scenario=s.id, figures=figures, new_save=choice == "on")
        ev: list[Event] = []
        R.start_side(st, s.first, ev)
        st.trail = []
        return st

    def load_state(self, data: dict[str, Any]) -> PathState:
        """Rebuild a state from its data."""
        return PathState.from_data(data)

    def awaiting(self, state: Any) -> list[Decision]:
        """The team's panic-shot reaction while a charge waits, else the moving side's activation."""
        st: PathState = state
        if st.result is not None:
            return []
        if st.pending is not None:
            options = tuple(A.panic_options(st))
            c, b = st.figures[st.pending["char"]], st.pending["bogie"]
            prompt = f"{figure_name(st, c)} is charged by {b}: take the panic shot (d6, 4-6 hits)?"
            return [Decision("reaction", frozenset({TEAM}), prompt, options, options[0])]
        who = "team" if st.side == TEAM else "swarm"
        return [
            Decision(
                "activation", frozenset({st.side}), f"Turn {st.turn}: the {who} moves.", (), Command("end")
            )
        ]

    def legal_commands(self, state: Any, seat: str) -> list[Command]:
        """Every command the seat may play now."""
        st: PathState = state
        return list(_LEGAL.get((st.position_key(), seat), lambda: A.legal(st, seat)))

    def next_seat(self, state: Any) -> str | None:
        """The one seat that must act now (None once the game is over)."""
        return S.next_seat(state)

    def sample_command(self, state: Any, seat: str, rng: Chooser) -> Command | None:
        """A uniformly random legal command (standing answers excluded), worded only once picked."""
        return S.sample(state, seat, rng)

    def parse(self, state: Any, seat: str, text: str) -> Command:
        """Check a command. Raises a RuleError naming the rule."""
        return A.check(state, seat, text)

    def execute(self, state: Any, seat: str, command: Command) -> list[Event]:
        """Play a checked command."""
        return A.play(state, seat, command)

    def outcome(self, state: Any) -> Outcome | None:
        """The result once the game is over."""
        result: Outcome | None = state.result
        return result

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """What a seat or spectator may know (everything but the dice)."""
        return view(state, seat)

    def scene(self, state: Any, seat: str | None) -> Scene:
        """The board image's description."""
        return scene(state, seat)

    def text_board(self, state: Any, seat: str | None) -> str:
        """A text board for the terminal."""
        return text_board(state, seat)

    def hints(self, state: Any, seat: str) -> Hints:
        """The active figure's reach and targets."""
        return hints(state, seat)

    def turn_label(self, state: Any) -> str:
        """``turn 3/12``."""
        return f"turn {min(state.turn, scen(state).turns)}/{scen(state).turns}"

    def seat_colours(self, state: Any) -> dict[str, str]:
        """Team orange, swarm purple."""
        return dict(SIDE_COLOURS)

    def weighed_options(
        self, state: Any, seat: str, options: list[Command]
    ) -> tuple[list[Command], list[int] | None]:
        """As :meth:`Ruleset.weighed_options`, kept by position and options. Raises nothing."""
        st: PathState = state
        key = (st.position_key(), seat, tuple([c.text for c in options]))
        # Worked out on a copy of the options: the answer may be that very list, and the caller's may change.
        kept, weights = _WEIGHED.get(key, lambda: Ruleset.weighed_options(self, st, seat, list(options)))
        return list(kept), (list(weights) if weights is not None else None)

    def bot_weights(self, state: Any, seat: str, options: list[Command]) -> list[int] | None:
        """The game's own player: a one-ply evaluation of each legal command (see :mod:`policy`)."""
        return P.bot_weights(state, seat, options)

    def copy_state(self, state: Any) -> PathState:
        """An independent deep copy of the state (for search)."""
        st: PathState = state
        return st.copy()

    def evaluate(self, state: Any, seat: str) -> float:
        """How good the position is for ``seat``, 0..1."""
        return P.evaluate(state, seat)

    def help_topics(self) -> dict[str, str]:
        """Rules help in the project's own words, then one topic per scenario (its story, swarm and goal)."""
        topics = dict(HELP)
        for s in scenarios().values():
            kind = bogie_kinds()[s.kind]
            topics[s.id] = (
                f"{s.name}. {s.description} Swarm: {kind.name}s ({kind.speed}), {s.cap} at most in play. "
                f"Gun: {s.gun}. Bombs: {sum(m.bombs for m in s.team)} ({s.bomb}). Goal: {s.goal}"
            )
        return topics
