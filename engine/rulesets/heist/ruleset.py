"""The River City heist ruleset: registration, setup from the crew record, and the engine hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import Command, Decision, Event, Hints, Outcome, ScenarioInfo
from engine.dice import Rng
from engine.errors import SetupError
from engine.ruleset import Chooser, OptionSpec, Ruleset, SetupOptions, register
from engine.rulesets.heist import actions as A
from engine.rulesets.heist import campaign as K
from engine.rulesets.heist import hints as H
from engine.rulesets.heist import policy as P
from engine.rulesets.heist import rules as R
from engine.rulesets.heist import sampler
from engine.rulesets.heist import search as search_hooks
from engine.rulesets.heist.board import build
from engine.rulesets.heist.content import load_content
from engine.rulesets.heist.help import HELP
from engine.rulesets.heist.present import scene, seat_colours, text_board, view
from engine.rulesets.heist.state import Chit, HeistState, Npc, Player, Tile, copy_state
from engine.scene import Scene

DIFFICULTY = {"amateur": "Amateur", "semi_pro": "Semi-Pro", "pro": "Pro"}
NPC_ROLES = {
    "the_hospitality_job": "hostage", "the_black_box": "prisoner", "the_greedy_prisoner": "prisoner",
    "the_side_channel": "guide", "the_safehouse_rescue": "prisoner", "the_final_score_part_2": "hostage",
    "the_melee_job": "guide",
}  # fmt: skip


def build_state(options: SetupOptions, rng: Rng) -> HeistState:
    """A fresh heist: the board, bag and deck of the scenario, the crew from the options and record.

    Raises SetupError for too few seats or crew choices the campaign rules forbid.
    """
    c = load_content()
    h = c.heists[options.scenario]
    seats = [s for s in R.SEATS if s in options.seats]
    if len(seats) < 3:
        raise SetupError("A heist needs 3 or 4 players (seats p1-p4).")
    record = K.normalise(options.options.get("campaign", {}).get("*"))
    picks = options.options.get("character", {}) or {}
    if not isinstance(picks, dict):
        raise SetupError("The 'character' option is chosen per seat.")
    builds = K.builds_from(options.options, seats)
    crew = K.choose_crew(
        record, seats, picks, dict(options.seats), breakout="breakout" in h.modules, builds=builds
    )
    ups = options.options.get("upgrade", {}) or {}
    if not isinstance(ups, dict) or any(v not in K.UPGRADE_CHOICES for v in ups.values()):
        raise SetupError(
            "The level-up choice names the skill to upgrade first (1 or 2) and the pro card (a: first listed, "
            "b: second), like '2b'."
        )
    players = {}
    for seat, member in zip(seats, crew, strict=True):
        ch = c.characters[member["character"]]
        items = [ch.starting_item] if ch.starting_item else []
        players[seat] = Player(
            seat=seat, nickname=member["nickname"], character=ch.id, skills=list(member["skills"]),
            items=items, ideas=ch.initial_ideas, upgrade=str(ups.get(seat, "1a")),
        )  # fmt: skip
    # Items the team owns are handed out one at a time to whoever carries fewest.
    for item in record["items"]:
        holder = min(seats, key=lambda s: (len(players[s].items), seats.index(s)))
        players[holder].items.append(item)
    b = build(h.id)
    tiles: dict[str, Tile] = {}
    npcs: list[Npc] = []
    role = NPC_ROLES.get(h.id, "")
    for n, mt in b.tiles.items():
        if mt.kind == "tunnel":
            continue
        t = Tile(unknown=mt.kind == "security", cash=mt.cash_k)
        for chit in mt.chits:
            base = chit.removesuffix("2x")
            t.chits.append(Chit(base, True, chit.endswith("2x")))
        t.loot = [x for x in mt.loot if x != "cash"]
        if "item" in mt.features and h.item:
            t.loot.append(f"item:{h.item}")
        t.marks = [f for f in mt.features if f not in ("item", "npc", "pawn", "art", "beacon")]
        if ({"npc", "pawn"} & set(mt.features)) and role:
            npcs.append(Npc(kind=role, pos=n, active=role == "guide", ideas=2 if role == "guide" else 0))
        tiles[n] = t
    if role == "guide" and not npcs:
        # The Melee Job's guide has no hex on the map: it waits at the first entrance, 💡💡💡 in hand.
        first = sorted(b.entrances)[0]
        npcs.append(Npc(kind=role, pos=first, active=True, ideas=3))
    if role and not npcs:
        # A prisoner held under a remote lock has no NPC mark of its own: it waits under the lock.
        spot = next(
            (n for n, t in sorted(tiles.items()) if {"remote_lock_x", "remote_lock_y"} & set(t.marks)), ""
        )
        if spot:
            npcs.append(Npc(kind=role, pos=spot))
    if "breakout" in h.modules:
        # Break in to break out: jailed crew members start inside, in the cells, under any remote lock there.
        cells = [n for n, mt in sorted(b.tiles.items()) if "pawn" in mt.features]
        for seat, member in zip(seats, crew, strict=True):
            if member["status"] == "jailed" and cells:
                players[seat].pos = cells.pop(0)
                players[seat].used += ["inmate", "been_in_cells"]
    bag = [k for k, n in h.bag.items() for _ in range(n)]
    if "the_connoiseur" in record["fixers"]:
        for t in tiles.values():
            if t.cash or "jewel" in t.loot:
                t.cash += 1  # Gotta know what to look for
    fixers = [
        f
        for f in record["fixers"]
        if not (f == "old_friend" and any(r.id == "no_old_friend" for r in h.rules))
    ]
    st = HeistState(
        rng=rng, heist=h.id, seats=seats, players=players, tiles=tiles, deck=list(h.event_deck), bag=bag,
        team_cash=int(record["cash"]), shop=list(record["shop"]), fixers=fixers, npcs=npcs,
        campaign=record, members=dict(options.seats),
    )  # fmt: skip
    if R.has_rule(st, "ambush_required"):
        st.flags += [
            f"ambush_at:{n}" for n, t in sorted(tiles.items()) if any(c.kind == "guard" for c in t.chits)
        ]
    R.queue_crises(st, [])
    return st


@register
class Heist(Ruleset):
    """River City heists, co-operative, 3-4 players against the game."""

    id = "heist"
    name = "River City Heist"
    seats = R.SEATS
    min_seats = 3
    content_version = "1"
    campaign_scope = "server"
    hidden_submissions: ClassVar[bool] = False  # the crew plays openly: every command is shown as played
    players_side: ClassVar[str] = "the crew"
    look_verbs: ClassVar[frozenset[str]] = frozenset({"deck"})  # reading the event deck changes nothing
    confirm_verbs: ClassVar[frozenset[str]] = frozenset({"escape"})  # calling the escape cannot be undone
    summary: ClassVar[str] = (
        "3-4 thieves against the building: plan a route, roll for actions each round, keep the noise down "
        "and get the loot out before the alarm."
    )

    def scenarios(self) -> list[ScenarioInfo]:
        """The 17 River City heists, in booklet order."""
        out = []
        for h in load_content().heists.values():
            out.append(
                ScenarioInfo(
                    h.id, f"{h.name} ({DIFFICULTY[h.difficulty]})", f"{h.location}: {h.objective.summary}"
                )
            )
        return out

    def setup(self, options: SetupOptions, rng: Rng) -> HeistState:
        """The board, the bag, the deck and the crew. Raises SetupError on bad options."""
        return build_state(options, rng)

    def load_state(self, data: dict[str, Any]) -> HeistState:
        """Rebuild a state from its data."""
        return HeistState.from_data(data)

    def awaiting(self, state: Any) -> list[Decision]:
        """One simultaneous decision: every player who still has to plan, act or run."""
        st: HeistState = state
        if st.phase == "over":
            return []
        if st.phase == "plan":
            seats = [s for s in st.seats if not st.players[s].ready]
            prompt = "Part I, the plan: place planning tokens, pick a starting entrance, visit the shop, then 'ready'."
        elif st.phase == "event":
            seats = [p.seat for p in R.in_play(st)]
            prompt = f"{R.card_name(st.active_event)}: the team may use it ({', '.join(sorted({c.verb for s in seats for c in A.legal(st, s)} - {'continue', 'deck'}))}), then 'continue'."
        elif st.phase == "escape":
            seats = [p.seat for p in R.in_play(st)]
            goal = "a hideout (*)" if R.has_rule(st, "hideouts_only") else "an exit"
            prompt = f"Escape! Each character still inside runs for {goal} ('run' or 'run via <hex>')."
        else:
            seats = [p.seat for p in R.in_play(st) if not p.done]
            dice = ", ".join(f"{p.nickname} {p.die}" for p in R.in_play(st))
            prompt = f"Round {st.round}: choose an action for your die ({dice}), then play its sub-actions; 'done' when finished."
        if not seats:
            return []
        return [Decision("simultaneous", frozenset(seats), prompt, any_seat=st.phase == "event")]

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
        """The result once the heist is over."""
        result: Outcome | None = state.result
        return result

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """What a seat or spectator may know (never the bag's contents)."""
        return view(state, seat)

    def scene(self, state: Any, seat: str | None) -> Scene:
        """The hex map image's description."""
        return scene(state, seat)

    def text_board(self, state: Any, seat: str | None) -> str:
        """A text board for terminals."""
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
        """Preferences for a game-controlled thief: plan a route to the loot, follow it, get out."""
        return P.bot_weights(state, seat, options)

    def option_specs(self, scenario: str) -> list[OptionSpec]:
        """Each seat picks a crew member: a pre-built character (or a named one from the crew, typed)."""
        choices = [("auto", "Automatic (the recommended crew first)")]
        cards = load_content()
        chars = tuple((k, f"{v.name} ({v.level})") for k, v in cards.characters.items())
        skills = tuple((k, f"{v.name} ({v.level})") for k, v in cards.skills.items())
        c = load_content()
        for crew in c.crews:
            ch = c.characters[crew.character].name
            sk = " + ".join(c.skills[s].name for s in crew.skills)
            choices.append((crew.nickname.lower(), f"{crew.nickname}: {ch}, {sk}"))
        return [
            OptionSpec("character", "Crew member", tuple(choices), per_seat=True),
            OptionSpec("upgrade", "Level-up choice after the heist", tuple(K.UPGRADE_CHOICES.items()), per_seat=True),
            OptionSpec("build", "Or build a character: card", (("none", "No, play the crew member"), *chars)),
            OptionSpec("skill_1", "Built character: first skill", (("none", "-"), *skills)),
            OptionSpec("skill_2", "Built character: second skill", (("none", "-"), *skills[1:], skills[0])),
        ]  # fmt: skip

    def campaign_update(self, state: Any) -> dict[str, dict[str, Any]]:
        """The crew record after this heist: cash, fixers, items, named characters, levels, history."""
        st: HeistState = state
        if st.phase != "over":
            return {}
        return {"*": K.after_heist(st)}

    def describe_campaign(self, record: dict[str, Any]) -> str:
        """The crew record as text for ``/heist crew``."""
        return K.describe(record)

    def next_seat(self, state: Any) -> str | None:
        """The seat a self-play loop asks next, without building the decisions."""
        return sampler.next_seat(state)

    def sample_command(self, state: Any, seat: str, rng: Chooser) -> Command | None:
        """A uniformly random legal command, executed by self-play without parsing it again."""
        return sampler.sample(state, seat, rng)

    def copy_state(self, state: Any) -> Any:
        """A fast independent deep copy, take-back snapshots included (:func:`state.copy_state`)."""
        return copy_state(state)

    def determinize(self, state: Any, seat: str, rng: Rng) -> Any:
        """A state consistent with what ``seat`` knows, hidden parts dealt anew from ``rng``."""
        return search_hooks.determinize(state, seat, rng)

    def hidden_in_play(self, state: Any) -> object:
        """The dice drawn (engine.rulesets.heist.search)."""
        return search_hooks.hidden_in_play(state)

    def evaluate(self, state: Any, seat: str) -> float:
        """How good the position is for ``seat`` (0..1), from public facts only."""
        return search_hooks.evaluate(state, seat)

    def own_losses(self, state: Any, seat: str) -> int | None:
        """``seat``'s crew members busted (the crew is one side)."""
        return int(sum(p.status == "busted" for p in state.players.values()))

    def worthwhile(self, state: Any, seat: str, options: list[Command]) -> list[Command]:
        """``options`` less the commands that change nothing or only undo another, which a search would
        weigh like moves and could play for ever: ``deck`` (reading the event deck), a new ``start`` once
        one is chosen (start b1, start c7, start b1...), dropping loot where the character stands (take,
        drop, take...), an active NPC dropping its own loot (npc take, npc drop, npc take...: a normal crew
        at depth 0 did so for over 500 commands on The Side Channel, seed 20064) and taking loot back from
        the NPC (give, take back, give...); and ``sell``: the
        search weighs neither cash nor items, so it would sell what the team owns (a Plasma Torch bought for
        the safe, buy, sell, buy...) for nothing; and calling the ``escape`` while the job is unfinished and
        more than :data:`policy.LAST_CARDS` event cards are left: the evaluation sees a hopeless job as no
        worse for giving up, so a bot seat called the escape in round 3 with nothing done (The Greedy
        Prisoner, seed 20011), ending the heist for its human crewmates too. Players may still. Also an
        action another open action beats outright (:func:`policy.wasteful_actions`): the search told a Run
        that could take one step from a Walk only by its rollouts' luck, and ran (The Startup Job, seed
        20000).

        In planning, only the commands the planning policy picks (:func:`policy.plan_weights`, its highest
        weight; several where they tie): plans are fixed once the heist starts, and the evaluation cannot see
        that a plan stopping a tile short of the safe loses the heist many rounds later (it counts the tile
        as a few steps more), so hard crews that searched their plans left the Plasma Torch to a character
        whose planning memory ends a tile short of The Proving Grounds' safe, and nobody planned onto it."""
        st: HeistState = state
        if st.phase == "plan":
            weights = P.bot_weights(st, seat, options)
            best = max(weights, default=0)
            return [c for c, w in zip(options, weights, strict=True) if w == best] if best > 0 else options
        acts = sum(c.verb == "act" for c in options)
        wasteful = P.wasteful_actions(state, state.players[seat]) if acts > 1 else set()
        return _worthwhile(state, seat, options, wasteful)

    def weighed_options(
        self, state: Any, seat: str, options: list[Command]
    ) -> tuple[list[Command], list[int] | None]:
        """:meth:`worthwhile` and :meth:`bot_weights` with the character's plan, its open actions and its
        outdone actions worked out once for both (worked out apart, they took about a quarter of a search
        decision)."""
        st: HeistState = state
        p = st.players[seat]
        if st.phase != "action" or sum(c.verb == "act" for c in options) < 2:
            return super().weighed_options(state, seat, options)
        d = P.plan_of(st, p)
        open_actions = R.options(st, p)
        wasteful = P.wasteful_actions(st, p, d if p.pos else None, open_actions)
        kept = _worthwhile(st, seat, options, wasteful) or options
        return kept, P.bot_weights(st, seat, kept, plan=d, wasteful=wasteful, open_actions=open_actions)

    def help_topics(self) -> dict[str, str]:
        """Rules help in the project's own words."""
        return dict(HELP)


def _worthwhile(state: HeistState, seat: str, options: list[Command], wasteful: set[str]) -> list[Command]:
    """:meth:`Heist.worthwhile` with the character's outdone actions (``wasteful``) known."""
    chosen = bool(state.players[seat].pos)
    give_up = len(state.deck) > P.LAST_CARDS and not P.job_done(state)
    return [
        c
        for c in options
        if c.verb not in ("deck", "sell")
        and not (c.verb == "act" and c.args[0] in wasteful)
        and not (c.verb == "escape" and give_up)
        and not (c.verb == "start" and chosen)
        and not (c.verb == "drop" and len(c.args) == 1)
        and not (c.verb == "npc" and c.args[0] == "drop")
        and not (c.verb == "take" and c.args[-1:] == ("npc",))
    ]
