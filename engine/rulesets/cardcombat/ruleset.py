"""The Dark Realms ruleset (``cardcombat``): registration and the engine hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import Command, Decision, DecisionKind, Event, Hints, Outcome, ScenarioInfo
from engine.dice import Rng
from engine.ruleset import Chooser, OptionSpec, Ruleset, SetupOptions, register
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat import sampler, search
from engine.rulesets.cardcombat.content import action_words, classes, items, races, scenarios
from engine.rulesets.cardcombat.help import HELP
from engine.rulesets.cardcombat.policy import bot_weights
from engine.rulesets.cardcombat.present import COLOURS, scene, text_board, view
from engine.rulesets.cardcombat.setup import build_state, campaign_records
from engine.rulesets.cardcombat.state import CCState
from engine.scene import Scene


@register
class CardCombat(Ruleset):
    """Dark Realms: 1-4 heroes against the game's enemies, driven by action cards and stamina."""

    id = "cardcombat"
    name = "Dark Realms"
    seats = R.SEATS
    min_seats = 1
    content_version = "2"  # 2: doors, The Blood Price and the generator's doors (a seed makes another map)
    campaign_scope: ClassVar[str] = "player"
    hidden_submissions: ClassVar[bool] = True
    players_side: ClassVar[str] = "the heroes"
    summary: ClassVar[str] = (
        "Co-operative dungeon fights for 1-4 heroes: commit up to two action cards a round in secret, act in "
        "stamina order, and beat the game's enemies before the rounds run out."
    )

    def scenarios(self) -> list[ScenarioInfo]:
        """The ready-made scenarios, then the adventure and the random generator."""
        out = [ScenarioInfo(s.id, f"{s.name} (level {s.level})", s.summary) for s in scenarios().values()]
        out.append(ScenarioInfo("adventure", "The Adventure (next chapter)",
                                "Play your party's next chapter; heroes keep level, items and gold."))  # fmt: skip
        out.append(ScenarioInfo("random", "Random scenario", "A generated scenario at the party's level."))
        return out

    def option_specs(self, scenario: str) -> list[OptionSpec]:
        """Per seat: race, class (or the saved hero), and an item to buy with saved gold."""
        race = (
            ("auto", "Saved hero, or a free race"),
            *((r.id, f"{r.name} ({r.text})") for r in races().values()),
        )
        cls = (
            ("auto", "Saved hero, or a free class"),
            *((c.id, f"{c.name} ({c.text})") for c in classes().values()),
        )
        buy = (
            ("none", "Buy nothing"),
            *((i.id, f"{i.name} ({i.price} gold, level {i.level})") for i in items().values()),
        )
        return [
            OptionSpec("race", "Race", race),
            OptionSpec("class", "Class", cls),
            OptionSpec("buy", "Buy an item", buy),
        ]

    def setup(self, options: SetupOptions, rng: Rng) -> CCState:
        """Heroes, scenario and enemies. Raises SetupError on bad options."""
        state = build_state(options, rng)
        in_saved_order(state, whole=True)
        return state

    def load_state(self, data: dict[str, Any]) -> CCState:
        """Rebuild a state from its data."""
        return CCState.from_data(data)

    def awaiting(self, state: Any) -> list[Decision]:
        """The commit round (simultaneous) or the active hero's turn."""
        st: CCState = state
        if st.result is not None:
            return []
        if st.phase == "commit":
            seats = [f["seat"] for f in R.alive(st) if f["kind"] == "hero" and f["id"] not in st.commits]
            if not seats:
                return []
            return [Decision("simultaneous", frozenset(seats),
                             f"Round {st.round}: commit up to two action cards (hidden until everyone has).",
                             default=Command("commit", ("rest",), "Play no card this round"))]  # fmt: skip
        fid = st.turn.get("fig")
        if not fid:
            return []
        f = st.figures[fid]
        opts = tuple(A.legal(st, f["seat"]))
        kind: DecisionKind = "reaction" if st.pending.get("stage") else "activation"
        act = A.current(st)
        stage = st.pending.get("stage")
        if stage == "split":
            a, b = st.pending.get("dice") or (0, 0)
            asked = f"rolled {a} and {b}: which die is the range and which the damage?"
        elif stage == "miss":
            asked = f"rolled {st.pending.get('dmg_die')}, a miss: re-roll it or accept it?"
        else:
            asked = action_words(act) if act else "actions done, 'end' when ready"
        prompt = f"{f['name']}: {asked}"
        default = next((c for c in opts if c.verb in ("accept", "end")), None)
        if st.pending.get("stage") == "split":
            default = opts[0]
        return [Decision(kind, frozenset({f["seat"]}), prompt, opts if kind == "reaction" else (), default)]

    def legal_commands(self, state: Any, seat: str) -> list[Command]:
        """Every command the seat may play now."""
        return A.legal(state, seat)

    def parse(self, state: Any, seat: str, text: str) -> Command:
        """Check a command. Raises a RuleError naming the rule."""
        return A.check(state, seat, text)

    def execute(self, state: Any, seat: str, command: Command) -> list[Event]:
        """Play a checked command."""
        events = A.play(state, seat, command)
        if not state.scratch:  # a search's determinized copy is never saved (a fifth of its time went here)
            in_saved_order(state)
        return events

    def outcome(self, state: Any) -> Outcome | None:
        """The result once the scenario is won or lost."""
        result: Outcome | None = state.result
        return result

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """What a seat or spectator may know."""
        return view(state, seat)

    def scene(self, state: Any, seat: str | None) -> Scene:
        """The board image's description."""
        return scene(state, seat)

    def text_board(self, state: Any, seat: str | None) -> str:
        """A text board for terminals."""
        return text_board(state, seat)

    def bot_weights(self, state: Any, seat: str, options: list[Command]) -> list[int] | None:
        """Preferences for a hero played by the game."""
        return bot_weights(state, seat, options)

    def next_seat(self, state: Any) -> str | None:
        """The seat asked now, without listing its commands."""
        return sampler.next_seat(state)

    def sample_command(self, state: Any, seat: str, rng: Chooser) -> Command | None:
        """A uniform legal command (the list is short: one figure's options)."""
        return sampler.sample(state, seat, rng)

    def copy_state(self, state: Any) -> CCState:
        """An independent deep copy, without a JSON round trip."""
        return search.copy_state(state)

    def determinize(self, state: Any, seat: str, rng: Rng) -> CCState:
        """A copy where what ``seat`` cannot know is dealt anew (:func:`search.determinize`): the enemies'
        undrawn speed cards, other heroes' hidden commitments and readied items, the dice."""
        return search.determinize(state, seat, rng)

    def hidden_in_play(self, state: Any) -> object:
        """The dice drawn, the round and its phase (engine.rulesets.cardcombat.search)."""
        return search.hidden_in_play(state)

    def evaluate(self, state: Any, seat: str) -> float:
        """The party's chances in 0..1: health kept against enemy health removed, and rounds left."""
        st: CCState = state
        if st.result is not None:
            return 1.0 if seat in st.result.winners else 0.0
        heroes = [f for f in st.figures.values() if f["kind"] == "hero"]
        enemies = [f for f in st.figures.values() if f["kind"] == "enemy"]
        ours = sum(max(0, f["hp"]) for f in heroes) / max(1, sum(f["max_hp"] for f in heroes))
        theirs = sum(max(0, f["hp"]) for f in enemies if not f.get("out")) / max(
            1, sum(f["max_hp"] for f in enemies)
        )
        time_left = max(0, int(st.scenario["rounds"]) - st.round + 1) / max(1, int(st.scenario["rounds"]))
        return float(max(0.0, min(1.0, 0.5 + 0.35 * (ours - theirs) + 0.1 * (time_left - 0.5))))

    def hints(self, state: Any, seat: str) -> Hints:
        """The active hero's reachable squares and targets (foes, allies, and doors it can open)."""
        st: CCState = state
        f = A.active_fig(st, seat)
        if f is None:
            return Hints()
        reach, targets = [], []
        for c in A.legal(st, seat):
            if c.verb in ("move", "teleport", "summon", "rift"):
                reach.append(R.parse_cell_for(st, c.args[1]))
            elif c.verb in ("attack", "heal", "cast"):
                targets += [R.pos(st.figures[t]) for t in c.args[1:]]
            elif c.verb == "open":
                targets.append(R.parse_cell_for(st, c.args[1]))
        return Hints(f["id"], tuple(sorted(set(reach))), tuple(sorted(set(targets))))

    def turn_label(self, state: Any) -> str:
        """ "round 3/10, commit" or "round 3/10, mage's turn"."""
        st: CCState = state
        base = f"round {st.round}/{st.scenario['rounds']}"
        if st.phase == "commit":
            return f"{base}, commit"
        if st.turn.get("fig"):
            return f"{base}, {st.turn['fig']}'s turn"
        return base

    def seat_colours(self, state: Any) -> dict[str, str]:
        """Each hero seat's colour."""
        st: CCState = state
        return {s: COLOURS[s] for s in st.seats}

    def help_topics(self) -> dict[str, str]:
        """Rules help in the project's own words."""
        return dict(HELP)

    def campaign_update(self, state: Any) -> dict[str, dict[str, Any]]:
        """Each hero's record after the scenario (empty while it runs)."""
        st: CCState = state
        return campaign_records(st) if st.result is not None else {}

    def describe_campaign(self, record: dict[str, Any]) -> str:
        """A saved hero in a few lines."""
        r, c = record.get("race", ""), record.get("class", "")
        name = f"{races()[r].name if r in races() else r} {classes()[c].name if c in classes() else c}"
        lines = [f"{name}: level {record.get('level', 1)}, {record.get('xp', 0)} XP, {record.get('gold', 0)} gold, "
                 f"adventure chapter {int(record.get('chapter', 0)) + 1}."]  # fmt: skip
        its = [items()[i].name for i in record.get("items", []) if i in items()]
        if its:
            lines.append("Items: " + ", ".join(its))
        last = record.get("last") or {}
        if last:
            lines.append(f"Last: {last.get('scenario')} ({'won' if last.get('won') else 'lost'}), "
                         f"+{last.get('xp', 0)} XP, +{last.get('gold', 0)} gold.")  # fmt: skip
        return "\n".join(lines)


def in_saved_order(state: CCState, *, whole: bool = False) -> None:
    """Put the mappings of ``state`` that the rules walk in the order a saved game comes back in (canonical
    JSON sorts keys).

    Some rules walk the figures, decks and statuses in mapping order; a game reloaded from its snapshot
    must go on exactly as the live one, so the live one always holds the saved order too. The mappings
    are reordered in place: whoever holds one keeps holding the state's own.

    After setup (``whole``: every mapping) two parts are left out, for speed (they were most of the walk,
    which runs after every command): each figure's own mapping and its items', whose keys no rule walks (the
    mappings a figure holds directly, its statuses and cooldowns, still are put in order), and the scenario,
    whose entries are only ever replaced, never added. The parts that by the state's schema hold no mapping
    (lists of names, squares and short rows of scalars, and the decks' piles of card numbers) are not walked.
    ``test_cardcombat_saved_order`` plays games with those parts shuffled after every command. Raises
    nothing.
    """
    if whole:
        _sort_mappings([v for v in vars(state).values() if type(v) is dict or type(v) is list])
        return
    figures, decks = state.figures, state.decks
    _sort_mappings([figures, decks, *decks.values()], deep=False)
    stack: list[Any] = [v for f in figures.values() for v in f.values() if type(v) is dict]
    stack += [
        v for k, v in vars(state).items() if (type(v) is dict or type(v) is list) and k not in _UNWALKED
    ]
    _sort_mappings(stack)


# Walked apart above (figures, decks: their inner lists hold numbers), left out (scenario), or holding no
# mapping at all by the state's schema (the rest: lists of names, squares and short rows of scalars).
_UNWALKED = frozenset(
    {"figures", "decks", "scenario", "seats", "order", "rifts", "loot", "trail", "attacks", "log"}
)


def _sort_mappings(stack: list[Any], *, deep: bool = True) -> None:
    """Sort by key every mapping in ``stack`` and, if ``deep``, every mapping nested in them (in place)."""
    # One loop over a stack (no call per mapping), plain type checks.
    pop, push = stack.pop, stack.append
    while stack:
        value = pop()
        if type(value) is dict:
            if len(value) > 1:
                keys = list(value)
                if keys != sorted(keys):
                    items = sorted(value.items(), key=lambda kv: kv[0])
                    value.clear()
                    value.update(items)
            if not deep:
                continue
            inner_values: Any = value.values()
        else:
            inner_values = value
        for inner in inner_values:
            kind = type(inner)
            if kind is dict or kind is list:
                push(inner)
