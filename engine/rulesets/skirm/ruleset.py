"""The Skirm ruleset: registration, squads and setup, the engine hooks, and campaign progression."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import Command, Decision, Event, Hints, Outcome, ScenarioInfo
from engine.dice import Rng
from engine.errors import SetupError
from engine.grammar import plural
from engine.ruleset import Chooser, OptionSpec, Ruleset, SetupOptions, register
from engine.rulesets.skirm import actions as A
from engine.rulesets.skirm import hints as H
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm import sampler
from engine.rulesets.skirm import search as search_hooks
from engine.rulesets.skirm.content import factions, missions, ready_squads
from engine.rulesets.skirm.help import all_topics
from engine.rulesets.skirm.policy import bot_weights
from engine.rulesets.skirm.present import scene, seat_colours, text_board, view
from engine.rulesets.skirm.squads import check_squad, member_cost, progression, resolve_squad
from engine.rulesets.skirm.state import OUT, STANDING, SkirmState, Unit
from engine.scene import Scene


def build_units(squads: dict[str, tuple[str, str, list[Any]]]) -> dict[str, Unit]:
    """Units for both squads with ids unique across the game (type id, then type id + number) and names
    unique too: a type fielded more than once is numbered in its names (``Breacher 1``, ``Breacher 2``,
    matching the ids ``breacher``, ``breacher2``)."""
    units: dict[str, Unit] = {}
    counts: dict[str, int] = {}
    total: dict[str, int] = {}
    for seat in R.SEATS:
        for m in squads[seat][2]:
            total[m.type] = total.get(m.type, 0) + 1
    for seat in R.SEATS:
        _name, fid, members = squads[seat]
        f = factions()[fid]
        for m in members:
            n = counts[m.type] = counts.get(m.type, 0) + 1
            uid = m.type if n == 1 else f"{m.type}{n}"
            name = f.units[m.type].name + (f" {n}" if total[m.type] > 1 else "")
            units[uid] = Unit(id=uid, seat=seat, type=m.type, name=name,
                              weapons=list(m.weapons), skills=list(m.skills))  # fmt: skip
    return units


@register
class Skirm(Ruleset):
    """Skirm: squads of about 100 EP (5-7 units) fight over objectives for four turns."""

    id = "skirm"
    name = "Skirm"
    seats = R.SEATS
    content_version = "1"
    campaign_scope: ClassVar[str] = "player"
    summary: ClassVar[str] = (
        "1 vs 1 skirmish on a 12x12 grid: squads of 100 EP, D6 rolls under stats, Tactical Orders, four turns "
        "of alternating activations over objectives."
    )

    def scenarios(self) -> list[ScenarioInfo]:
        """The missions, the default first."""
        return [ScenarioInfo(m.id, m.name, f"{m.map.name}: {m.summary}") for m in missions().values()]

    def option_specs(self, scenario: str) -> list[OptionSpec]:
        """Each seat picks its saved squad (the default) or a ready-made squad, one per faction."""
        ready = [(sid, f"{s['name']} ({factions()[s['faction']].name})") for sid, s in ready_squads().items()]
        choices = [("saved", "My saved squad (the first time: a ready-made one)"), *ready]
        return [OptionSpec("squad", "Squad", tuple(choices), per_seat=True)]

    def setup(self, options: SetupOptions, rng: Rng) -> SkirmState:
        """Squads from options["squad"] / options["campaign"] (options["cap"] changes the agreed EP cap of
        squads not played from a saved record), the mission's map, then the deployment roll-off. Raises
        SetupError for unknown squads or squads that break the building rules."""
        mission = missions()[options.scenario]
        picks = options.options.get("squad") or {}
        if not isinstance(picks, dict):
            raise SetupError("options['squad'] maps each seat to a squad id, 'saved' or a squad record.")
        camp = options.options.get("campaign") or {}
        checked = {}
        squads: dict[str, dict[str, Any]] = {}
        defaults = list(ready_squads())
        agreed = options.options.get("cap")
        if agreed is not None:
            try:
                agreed = int(agreed)
            except (TypeError, ValueError) as exc:
                raise SetupError(f"The EP cap must be a whole number, not {agreed!r}.") from exc
            if agreed < 1:
                raise SetupError("The EP cap must be at least 1.")
        for i, seat in enumerate(R.SEATS):
            record = camp.get(seat) if isinstance(camp, dict) else None
            choice = picks.get(seat)
            saved = isinstance(record, dict) and choice in (None, "", "saved")
            rec_in = record if isinstance(record, dict) else None
            squad, cap, rec = resolve_squad(choice, rec_in, fallback=defaults[i % len(defaults)])
            if agreed is not None and not saved:
                cap = agreed
            name, fid, members = check_squad(squad, cap)
            checked[seat] = (name, fid, members)
            squads[seat] = {"name": name, "faction": fid, "cap": cap,
                            "cost": sum(member_cost(fid, m) for m in members),
                            "squad": squad, "record": rec}  # fmt: skip
        if squads[R.SEATS[0]]["name"] == squads[R.SEATS[1]]["name"]:
            squads[R.SEATS[1]]["name"] += " (2)"
        st = SkirmState(
            rng=rng, mission=mission.id, squads=squads, units=build_units(checked),
            doors={k: False for k in mission.map.doors},
            objectives=[{"id": str(i + 1), "pos": list(c), "planted": "", "gone": False}
                        for i, c in enumerate(mission.objectives)],
            markers={f"d{i + 1}": {"pos": list(c), "carrier": ""} for i, c in enumerate(mission.markers)},
            points={s: 0 for s in R.SEATS}, orders={s: 0 for s in R.SEATS},
            orders_rolled={s: 0 for s in R.SEATS},
        )  # fmt: skip
        winner, rolls = R.roll_off(st)
        st.placer = winner
        st.phase = "zone"
        names = (squads[R.SEATS[0]]["name"], squads[R.SEATS[1]]["name"])
        st.intro = f"Deployment roll-off {R.roll_text(rolls, names)}: {squads[winner]['name']} picks a zone and deploys first."
        return st

    def load_state(self, data: dict[str, Any]) -> SkirmState:
        """Rebuild a state from its data."""
        return SkirmState.from_data(data)

    def awaiting(self, state: Any) -> list[Decision]:
        """The one open decision."""
        st: SkirmState = state
        w = R.waiting(st)
        if w is None:
            return []
        seat, mode = w
        prompt = A.whose_turn_text(st)
        if mode == "reroll":
            dice, _, stat = R.frame_dice(st.stack[-1])
            left = st.orders.get(seat, 0)
            if stat == R.ANY:
                prompt = (f"{R.squad_name(st, seat)}: the event die shows {dice[0]}. Spend a Tactical Order "
                          f"({left} left) to re-roll it?")  # fmt: skip
            else:
                prompt = (f"{R.squad_name(st, seat)}: dice {' '.join(map(str, dice))} vs {stat}. Spend a Tactical "
                          f"Order ({left} left) to re-roll a failed die?")  # fmt: skip
            keep = Command("keep", (), "Keep the dice")
            return [Decision("reaction", frozenset({seat}), prompt, tuple(A.legal(st, seat)), keep)]
        if mode in ("chain", "push", "react"):
            opts = tuple(A.legal(st, seat))
            return [Decision("reaction", frozenset({seat}), prompt, opts, opts[0])]
        if mode in ("zone", "deploy"):
            opts = tuple(A.legal(st, seat)) if mode == "zone" else ()
            return [Decision("setup", frozenset({seat}), prompt, opts, opts[0] if opts else None)]
        default = Command("end", (), "End the activation") if st.active or st.ordered else None
        return [Decision("activation", frozenset({seat}), prompt, (), default)]

    def legal_commands(self, state: Any, seat: str) -> list[Command]:
        """Every command the seat may play now."""
        return A.legal(state, seat)

    def parse(self, state: Any, seat: str, text: str) -> Command:
        """Check a command. Raises a RuleError naming the rule."""
        return A.check(state, seat, text)

    def execute(self, state: Any, seat: str, command: Command) -> list[Event]:
        """Play a checked command."""
        return A.play(state, seat, command)

    def outcome(self, state: Any) -> Outcome | None:
        """The result once turn 4 has been scored."""
        result: Outcome | None = state.result
        return result

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """What a seat or spectator may know (Skirm hides nothing but the dice generator)."""
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
        """Objective- and attack-minded preferences for the game's own player."""
        return bot_weights(state, seat, options)

    def next_seat(self, state: Any) -> str | None:
        """The seat a self-play loop asks next, without building the decisions."""
        return sampler.next_seat(state)

    def sample_command(self, state: Any, seat: str, rng: Chooser) -> Command | None:
        """A uniformly random legal command, executed by self-play without parsing it again."""
        return sampler.sample(state, seat, rng)

    def copy_state(self, state: Any) -> Any:
        """A fast independent deep copy (engine.rulesets.skirm.search)."""
        return search_hooks.copy_state(state)

    def evaluate(self, state: Any, seat: str) -> float:
        """How good the position is for ``seat`` (0..1), from public facts only."""
        return search_hooks.evaluate(state, seat)

    def own_losses(self, state: Any, seat: str) -> int | None:
        """``seat``'s units taken out."""
        return int(sum(u.state == "out" for u in state.units.values() if u.seat == seat))

    def endangers_own(self, state: Any, seat: str, command: Command) -> bool:
        """A shot whose blast (XPL) or line (LNR) would roll against one of ``seat``'s own units (for LNR,
        the line the command names, or the default line when it names none)."""
        st: SkirmState = state
        if command.verb != "shoot" or len(command.args) not in (3, 4):
            return False
        u = st.units.get(command.args[0])
        if u is None or u.pos is None:
            return False
        cell, _ = A.target_cell(st, command.args[2])
        line = A.line_units(st, command.args[3]) if len(command.args) == 4 else None
        victims = R.attack_targets(st, u, R.wp(command.args[1]), cell, melee=False, line=line)
        return any(st.units[v["id"]].seat == seat for v in victims)

    def help_topics(self) -> dict[str, str]:
        """Rules help in the project's own words, and each faction's cards."""
        return all_topics()

    def campaign_update(self, state: Any) -> dict[str, dict[str, Any]]:
        """After the game: each seat's squad record with the EP it earned (+2 finished, +2 victory,
        +1 per enemy taken out, +1 per squadmate Standing). Empty while the game runs."""
        st: SkirmState = state
        if st.result is None:
            return {}
        out = {}
        for seat in R.SEATS:
            rec = dict(st.squads[seat]["record"])
            enemies_out = sum(1 for u in st.units.values() if u.seat != seat and u.state == OUT)
            standing = sum(1 for u in st.units.values() if u.seat == seat and u.state == STANDING)
            won = seat in st.result.winners
            gain = progression(True, won, enemies_out, standing)
            rec["squad"] = st.squads[seat]["squad"]
            rec["ep"] = int(rec.get("ep", 100)) + sum(gain.values())
            rec["missions"] = int(rec.get("missions", 0)) + 1
            rec["wins"] = int(rec.get("wins", 0)) + (1 if won else 0)
            rec["last"] = {"mission": st.mission, "won": won, "gained": gain,
                           "points": st.points.get(seat, 0)}  # fmt: skip
            out[seat] = rec
        return out

    def describe_campaign(self, record: dict[str, Any]) -> str:
        """A saved squad in a few lines."""
        squad = record.get("squad") or {}
        fid = squad.get("faction", "")
        fname = factions()[fid].name if fid in factions() else fid
        lines = [f"{squad.get('name', 'Squad')} ({fname}): {record.get('ep', 100)} EP available, "
                 f"{plural(record.get('missions', 0), 'mission')}, {plural(record.get('wins', 0), 'win')}."]  # fmt: skip
        types = [u.get("type", "?") for u in squad.get("units", [])]
        if fid in factions():
            types = [factions()[fid].units[t].name if t in factions()[fid].units else t for t in types]
        lines.append("Units: " + ", ".join(types))
        last = record.get("last") or {}
        if last:
            g = last.get("gained", {})
            lines.append(f"Last mission: {last.get('mission')} ({'won' if last.get('won') else 'not won'}), "
                         f"+{sum(g.values())} EP ({', '.join(f'{k} +{v}' for k, v in g.items() if v)}).")  # fmt: skip
        return "\n".join(lines)
