"""The ESCAPE ruleset: registration, setup, and the engine hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import Command, Decision, Event, Hints, Outcome, ScenarioInfo
from engine.dice import Rng
from engine.errors import SetupError
from engine.grammar import plural, with_article
from engine.ruleset import Chooser, Ruleset, SetupOptions, register
from engine.rulesets.escape import actions as A
from engine.rulesets.escape import hints as H
from engine.rulesets.escape import rules as R
from engine.rulesets.escape import search as search_hooks
from engine.rulesets.escape.board import EdgeKind
from engine.rulesets.escape.content import FACTION_NAMES, default_lineups, items, profiles, scenarios
from engine.rulesets.escape.help import HELP
from engine.rulesets.escape.policy import bot_weights
from engine.rulesets.escape.present import scene, seat_colours, text_board, view
from engine.rulesets.escape.state import DEFAULT_POLICIES, Door, EscapeState, Unit
from engine.scene import Scene


def build_lineups(options: dict[str, Any]) -> dict[str, list[str]]:
    """The two line-ups from options (``resistance``/``isc`` id lists, ``points`` cap), or the defaults.

    Raises SetupError for unknown characters, wrong factions, duplicates or a rank total over the cap.
    """
    cards = profiles()
    out: dict[str, list[str]] = {}
    for seat in R.SEATS:
        ids = options.get(seat) or list(default_lineups()[seat])
        if isinstance(ids, str):
            ids = [x for x in ids.replace(",", " ").split() if x]
        ids = [str(x).lower() for x in ids]
        for cid in ids:
            if cid not in cards:
                raise SetupError(f"There is no ESCAPE character '{cid}'.")
            if cards[cid].faction != seat:
                raise SetupError(
                    f"{cards[cid].name} fights for the {FACTION_NAMES[cards[cid].faction]}, not the {FACTION_NAMES[seat]}."
                )
        if len(set(ids)) != len(ids) or not ids:
            raise SetupError(
                f"The {FACTION_NAMES[seat]} line-up must name each character at most once, and at least one."
            )
        points = options.get("points")
        if points is not None:
            total = sum(cards[c].rank for c in ids)
            if total > int(points):
                raise SetupError(
                    f"The {FACTION_NAMES[seat]} line-up costs {total} rank points; the agreed total is {points}."
                )
        out[seat] = ids
    return out


@register
class Escape(Ruleset):
    """ESCAPE basic rules, 1 vs 1."""

    id = "escape"
    name = "ESCAPE"
    seats = R.SEATS
    content_version = "4"
    summary: ClassVar[str] = (
        "1 vs 1 in L.A.B. 03: the Resistance against the I.S.C., opposed d6 rolls, dodges and hacks."
    )

    def scenarios(self) -> list[ScenarioInfo]:
        """Infiltration, Evasion and Data theft, in campaign order."""
        return [ScenarioInfo(s.id, f"{s.number}. {s.name}", s.summary) for s in scenarios().values()]

    def setup(self, options: SetupOptions, rng: Rng) -> EscapeState:
        """Line-ups, doors, token pools, then the setup initiative roll. Raises SetupError on bad options."""
        s = scenarios()[options.scenario]
        lineups = build_lineups(options.options)
        units = {cid: Unit(cid, seat) for seat in R.SEATS for cid in lineups[seat]}
        doors = {k: Door(open=e.open, locked=e.locked, difficulty=e.difficulty)
                 for k, e in s.board.edges.items() if e.kind == EdgeKind.DOOR}  # fmt: skip
        pool = [k for k, it in items().items() for _ in range(it.pool)]
        if s.equipment > len(pool):
            raise SetupError(f"The scenario needs {s.equipment} equipment tokens; only {len(pool)} exist.")
        st = EscapeState(rng=rng, scenario=s.id, lineups=lineups, units=units, doors=doors,
                         equipment_pool=pool, objective_pool=list(s.objectives),
                         policies={seat: dict(DEFAULT_POLICIES) for seat in R.SEATS})  # fmt: skip
        ev: list[Event] = []
        R.push_rolls(
            st,
            {"t": "setup_init", "dice": {}},
            [("resistance", "", "resistance", False), ("isc", "", "isc", False)],
        )
        R.advance(st, ev)
        st.trail = []
        return st

    def load_state(self, data: dict[str, Any]) -> EscapeState:
        """Rebuild a state from its data."""
        return EscapeState.from_data(data)

    def awaiting(self, state: Any) -> list[Decision]:
        """The one open decision (ESCAPE is never simultaneous)."""
        st: EscapeState = state
        w = R.waiting(st)
        if w is None:
            return []
        seat, mode, unit = w
        # Activation decisions leave the options to legal_commands (they are many and computed on demand).
        options = () if mode == "activation" else tuple(A.legal(st, seat))
        kind = {"reroll": "reaction", "dodge": "reaction", "countermeasure": "reaction", "push": "reaction",
                "pull": "reaction", "activation": "activation", "event": "turn", "first": "turn"}.get(mode, "setup")  # fmt: skip
        default = {
            "reroll": Command("keep", (), "Keep this die"), "dodge": Command("no-dodge", (), "Do not dodge"),
            "countermeasure": Command("no-countermeasure", (), "No counter-measure"),
            "push": Command("no-push", (), "Do not push"),
        }.get(mode)  # fmt: skip
        if mode == "pull" and options:
            default = options[0]
        if mode == "activation" and st.active:
            default = Command("end", (), "End the activation")
        return [Decision(kind, frozenset({seat}), prompt(st), options, default)]  # type: ignore[arg-type]

    def legal_commands(self, state: Any, seat: str) -> list[Command]:
        """Every command the seat may play now."""
        return A.legal(state, seat)

    def next_seat(self, state: Any) -> str | None:
        """The one seat that must act now (None once the game is over), without building the decision."""
        w = R.waiting(state)
        return None if w is None else w[0]

    def sample_command(self, state: Any, seat: str, rng: Chooser) -> Command | None:
        """A uniformly random legal command, checked lazily (see :func:`actions.sample`)."""
        return A.sample(state, seat, rng)

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
        """What a seat or spectator may know."""
        return view(state, seat)

    def scene(self, state: Any, seat: str | None) -> Scene:
        """The board image's description."""
        return scene(state, seat)

    def text_board(self, state: Any, seat: str | None) -> str:
        """A text board for the terminal."""
        return text_board(state, seat)

    def hints(self, state: Any, seat: str) -> Hints:
        """The active unit's reachable cells and legal targets (see ``hints.hints``)."""
        return H.hints(self, state, seat)

    def turn_label(self, state: Any) -> str:
        """Where the game stands, in players' words."""
        return H.turn_label(state)

    def seat_colours(self, state: Any) -> dict[str, str]:
        """Each seat's colour as the board draws it."""
        return seat_colours(state)

    def bot_weights(self, state: Any, seat: str, options: list[Command]) -> list[int] | None:
        """Path-aware preferences for the game's own player."""
        return bot_weights(state, seat, options)

    def campaign_chain(self) -> str:
        """The campaign's scenarios in order and where each result leads (content/scenarios.json)."""
        every = scenarios()
        lines = []
        for sc in every.values():
            ways = []
            for result, nxt in sc.next.items():
                who = "a draw" if result == "draw" else f"{FACTION_NAMES.get(result, result)} wins"
                ways.append(f"{who} → " + (every[nxt].name if nxt else "the campaign ends"))
            lines.append(f"{sc.number}. {sc.name}: " + "; ".join(ways))
        return "\n".join(lines)

    def copy_state(self, state: Any) -> Any:
        """A fast independent deep copy (engine.rulesets.escape.search)."""
        return search_hooks.copy_state(state)

    def determinize(self, state: Any, seat: str, rng: Rng) -> Any:
        """A state consistent with what ``seat`` knows, hidden parts dealt anew from ``rng``."""
        return search_hooks.determinize(state, seat, rng)

    def hidden_in_play(self, state: Any) -> object:
        """The dice drawn and the tokens made, there and face up (engine.rulesets.escape.search)."""
        return search_hooks.hidden_in_play(state)

    def evaluate(self, state: Any, seat: str) -> float:
        """How good the position is for ``seat`` (0..1), from public facts only."""
        return search_hooks.evaluate(state, seat)

    def own_losses(self, state: Any, seat: str) -> int | None:
        """``seat``'s units taken out."""
        return int(sum(u.status == "out" for u in state.units.values() if u.seat == seat))

    def worthwhile(self, state: Any, seat: str, options: list[Command]) -> list[Command]:
        """``options`` less a step straight back to the square the same character just left with its last
        command, nothing having come of that step: it would only spend a Movement action."""
        st: EscapeState = state
        back = st.stepped_from
        if back is None:
            return options
        unit, square = back
        return [
            c
            for c in options
            if not (
                c.verb == "move"
                and len(c.args) == 2
                and c.args[0] == unit
                and R.cell_arg(st, c.args[1]) == square
            )
        ]

    def endangers_own(self, state: Any, seat: str, command: Command) -> bool:
        """A grenade whose blast would catch one of ``seat``'s own characters (the thrower included)."""
        st: EscapeState = state
        if command.verb != "grenade" or len(command.args) != 2:
            return False
        c = R.cell_arg(st, command.args[1])
        return any(
            v.seat == seat and v.status == "board" and A.blast_reaches(st, c, v) for v in st.units.values()
        )

    def help_topics(self) -> dict[str, str]:
        """Rules help in the project's own words."""
        return dict(HELP)


def prompt(st: EscapeState) -> str:
    """A one-line question for whoever must act now."""
    w = R.waiting(st)
    assert w is not None
    seat, mode, unit = w
    who = FACTION_NAMES[seat]
    if mode == "dodge":
        f = st.stack[-1]
        a, t = st.units[f["by"]], st.units[unit]
        extra = f" (already rolled {f['dice']['att']})" if "att" in f["dice"] else ""
        if R.hypnotised(st, f, t):
            extra += f" [Hypnosis: a dodge uses Int {R.stat(st, t, 2)}]"
        return f"{R.name(t)} is attacked by {R.name(a)}{extra}: dodge? ({plural(R.left(st, t, 1), 'Combat action')} left)"
    if mode == "countermeasure":
        f = st.stack[-1]
        return f"{R.name(st.units[unit])} is hacked by {R.name(st.units[f['by']])}: counter-measure? ({plural(R.left(st, st.units[unit], 2), 'Intellect action')} left)"
    if mode == "reroll":
        f = st.stack[-1]
        e = f["entries"][f["i"]]
        parent = R.frame_parent(st)
        die = parent["dice"][e["slot"]]
        src = " or ".join(
            "a Revolution token" if s == "token" else "Seasoned veteran" for s in R.reroll_sources(st, e)
        )
        return (
            f"The {who} rolled {with_article(str(die))}{roll_purpose(st, parent, e)}: re-roll it with {src}?"
        )
    if mode == "push":
        return f"Digging arm: push {R.name(st.units[st.stack[-1]['push']])} back?"
    if mode == "pull":
        return f"Attraction: where does {R.name(st.units[st.stack[-1]['target']])} land?"
    told = f"{R.setup_initiative_text(st)} " if R.setup_untouched(st) else ""
    if mode in ("crates", "objectives", "equipment"):
        return f"{told}Setup: the {who} places {with_article(mode.rstrip('s'))} token in a room."
    if mode == "deploy":
        return f"{told}Setup: the {who} deploys a character in the {R.room_name(st, R.scen(st).deploy[seat]['room'])}."
    if mode == "event":
        return f"Random event {st.event}: {R.EVENTS[st.event]}. The {who} chooses."
    if mode == "first":
        return f"The {who} won the initiative: who activates first?"
    return A.whose_turn_text(st)


def roll_purpose(st: EscapeState, parent: dict[str, Any], e: dict[str, Any]) -> str:
    """What a die offered for a re-roll was rolled for, as a phrase (" for the initiative", " to dodge"...)."""
    t = parent["t"]
    if t in ("setup_init", "turn_init"):
        return " for the setup initiative" if t == "setup_init" else " for the initiative"
    if t == "event":
        return " for the random event"
    if t == "drill":
        return " for the drill"
    who = R.name(st.units[e["unit"]]) if e["unit"] else ""
    if t == "attack":
        return f" for {who}'s attack" if e["slot"] == "att" else f" for {who}'s dodge"
    return f" for {who}'s hack" if e["slot"] == "hack" else f" for {who}'s counter-measure"
