"""The game service: the one path from a member's request to the engine and the store.

Cogs and buttons call these methods; each takes the channel's lock, loads the game (from a small LRU of
recently played games, else from its snapshot), asks the engine, and writes the result in one store
transaction guarded by the game's version. No rule is decided here: the engine accepts or refuses.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot import choices, tap
from bot.config import Config
from bot.errors import Refusal, Stale
from bot.store import CampaignRecord, ChannelBusy, GameRow, LoggedCommand, Schedule, Store, state_snapshot
from bot.thinking import Thinker, watcher
from engine import RULESETS, Command, Decision, Event, Game, find_ruleset, load_game, new_game
from engine.ai.levels import DEFAULT_LEVEL, LEVELS, check_level
from engine.core import Outcome
from engine.errors import SetupError
from engine.ruleset import Ruleset
from engine.scene import Scene

log = logging.getLogger("escapade.games")

HOUR = 3600.0
BOT = choices.BOT
WAIT = "wait"  # the lobby's default for empty seats: wait for players
MAX_ROUND_OPTIONS = 12  # options listed per seat in a round message (the rest via /do autocomplete)


@dataclass
class Step:
    """One command that was played: by whom, its text and its narration."""

    seat: str
    user_id: str | None  # None: the game's own player, or a timeout answer
    text: str
    events: list[Event]
    auto: str = ""  # "bot" or "timeout" when nobody typed it
    secret: bool = False  # a hidden submission (simultaneous decision): its text is not shown publicly


@dataclass
class Played:
    """The result of an accepted request: the stored row, what happened, and the position right after it.

    ``decisions``, ``outcome`` and ``scene`` are taken under the channel's lock, so the reply shows this
    position even if another command changes the game while the reply is being sent.
    """

    row: GameRow
    game: Game
    steps: list[Step] = field(default_factory=list)
    started: bool = False
    decisions: list[Decision] = field(default_factory=list)
    outcome: Outcome | None = None
    scene: Scene | None = None  # the spectator's board, when it is to be posted
    text_board: str = ""
    # Simultaneous rounds: the seats that were already answering one before this request, whether a
    # new round opened, and each awaited seat's options (labels) when it did.
    answering_before: frozenset[str] = frozenset()
    new_round: bool = False
    round_options: dict[str, list[str]] = field(default_factory=dict)
    round_shared: list[str] = field(default_factory=list)  # options every awaited seat has, told once
    campaign: dict[str, str] = field(default_factory=dict)  # store key -> description, when written
    seats_before: frozenset[str] = frozenset()  # the seats awaited before this request (pings: hand-overs)
    legal: dict[str, list[Command]] = field(default_factory=dict)  # awaited seat -> its legal commands
    turn: str = ""  # the ruleset's "turn 3/8"
    colours: dict[str, str] = field(default_factory=dict)  # seat -> "#rrggbb"
    names: dict[str, str] = field(default_factory=dict)  # seat -> the character it plays, when named
    look: bool = False  # a look command (``Ruleset.look_verbs``): shown to its asker, not stored

    @property
    def board(self) -> bool:
        """True when the board image should be posted now (activation/round end, start, end)."""
        return self.started or self.outcome is not None or any(e.board for s in self.steps for e in s.events)

    @classmethod
    def capture(
        cls,
        row: GameRow,
        game: Game,
        steps: list[Step],
        started: bool = False,
        answering_before: frozenset[str] = frozenset(),
        seats_before: frozenset[str] = frozenset(),
    ) -> Played:
        """Record the position now (call it under the channel's lock)."""
        played = cls(row, game, steps, started, game.awaiting(), game.outcome)
        played.answering_before = answering_before
        played.seats_before = seats_before
        for seat in sorted({s for d in played.decisions for s in d.seats}):
            played.legal[seat] = game.legal_commands(seat)
        played.turn = game.turn_label()
        played.colours = game.ruleset.seat_colours(game.state)
        played.names = seat_names(game)
        if played.board:
            played.scene = game.scene(None)
            played.text_board = game.text_board(None)
        simultaneous = [d for d in played.decisions if d.kind == "simultaneous"]
        played.new_round = any(
            started or played.board or not d.seats <= answering_before for d in simultaneous
        )
        if simultaneous:  # the round's list stays on the turn message, with the seats still to answer
            every: dict[str, list[str]] = {
                seat: [c.label or c.text for c in game.legal_commands(seat)]
                for d in simultaneous
                for seat in sorted(d.seats)
            }
            # What every seat may do (call the escape, read the deck) is told once, when each seat
            # keeps options of its own to list.
            common = [x for x in next(iter(every.values())) if all(x in v for v in every.values())]
            if len(every) < 2 or any(set(v) <= set(common) for v in every.values()):
                common = []
            played.round_shared = common
            for seat, labels in every.items():
                labels = tap.compact_labels([x for x in labels if x not in common])
                if len(labels) > MAX_ROUND_OPTIONS:
                    more = len(labels) - MAX_ROUND_OPTIONS + 1
                    labels = [*labels[: MAX_ROUND_OPTIONS - 1], f"… {more} more (/do)"]
                played.round_options[seat] = labels
        return played


def seat_names(game: Game) -> dict[str, str]:
    """Each seat's character, for rulesets whose public view lists ``players`` with a ``seat`` and a
    ``nickname`` or ``name`` (the heist's crew): messages then name the member with their character."""
    players = game.view(None).get("players")
    out: dict[str, str] = {}
    if isinstance(players, list):
        for p in players:
            if isinstance(p, dict) and isinstance(p.get("seat"), str):
                name = p.get("nickname") or p.get("name")
                if isinstance(name, str) and name:
                    out[p["seat"]] = name
    return out


def answering(game: Game) -> frozenset[str]:
    """The seats answering a simultaneous decision now."""
    return frozenset(s for d in game.awaiting() if d.kind == "simultaneous" for s in d.seats)


def is_secret(game: Game, seat: str) -> bool:
    """True when ``seat`` is answering a simultaneous decision whose answers stay hidden until all are in.

    Answers are hidden unless the ruleset says its rounds are played in the open (a co-operative game
    sets ``hidden_submissions = False``); the narration of what they do is the engine's either way.
    """
    if not getattr(game.ruleset, "hidden_submissions", True):
        return False
    return any(d.kind == "simultaneous" and seat in d.seats for d in game.awaiting())


def split_seat(text: str, seats: list[str]) -> tuple[str | None, str]:
    """``"[p2] move a b"`` (as /do autocomplete offers when a member holds several seats) to (p2, rest)."""
    stripped = text.strip()
    if stripped.startswith("[") and "]" in stripped:
        seat, _, rest = stripped[1:].partition("]")
        if seat.strip().lower() in seats:
            return seat.strip().lower(), rest.strip()
    return None, text


async def bot_steps(game: Game, thinker: Thinker | None = None) -> list[Step]:
    """Let the game's own player answer whatever is only its to answer, as steps.

    With a ``thinker``, search levels think in its worker processes, off the event loop.
    """
    steps: list[Step] = []
    watch = watcher.get()
    names = seat_names(game) if watch is not None else {}
    while True:
        seat = game.next_bot_seat()
        if seat is None:
            return steps
        secret = is_secret(game, seat)
        level = game.bot_level(seat)
        if watch is not None and LEVELS.get(level) is not None:  # a search: this one takes time
            await watch(bot_label(seat, names, level), [bot_move_line(s, names) for s in steps])
        command = await thinker.command(game, seat) if thinker else game.bot_command(seat)
        events = game.apply(seat, command)
        steps.append(Step(seat, None, game.log[-1].text, events, auto=BOT, secret=secret))


def seat_label(seat: str, names: dict[str, str] | None) -> str:
    """A seat with the character it plays, when the ruleset names one (``names``): "p3, Jimmy"."""
    return f"{seat}, {names[seat]}" if names and seat in names else seat


def bot_label(seat: str, names: dict[str, str], level: str = "") -> str:
    """A seat of the game's own player as progress shows it: "🤖 p3, Jimmy (hard)"."""
    return f"🤖 {seat_label(seat, names)}" + (f" ({level})" if level else "")


def bot_move_line(step: Step, names: dict[str, str]) -> str:
    """A command of the game's own player as progress shows it (a hidden choice stays hidden)."""
    if step.secret:
        return f"{bot_label(step.seat, names)} made a hidden choice"
    return f"{bot_label(step.seat, names)}: `{step.text}`"


def bot_level(typed: str) -> str:
    """The canonical name of a level of the game's own player. Raises Refusal naming the levels."""
    try:
        return check_level(typed)
    except SetupError as exc:
        raise Refusal(str(exc)) from exc


def event_data(e: Event) -> dict[str, Any]:
    """An event as stored in the log."""
    return {"text": e.text, "kind": e.kind, "dice": list(e.dice), "board": e.board}


def engine_seats(row: GameRow) -> dict[str, str | None]:
    """The seats as the engine wants them: member id, or None for the game's own player."""
    return {s: (None if who == BOT else who) for s, who in row.seats.items() if who is not None}


class GameService:
    """Games per channel: lobby, play, lifecycle and scheduled notifications."""

    def __init__(self, store: Store, config: Config, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self._cache: OrderedDict[int, tuple[int, Game]] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._channel_game: dict[str, int] = {}
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(48)  # tests make it deterministic
        self.thinker = Thinker()  # search levels think in worker processes (started on first use)

    # -- plumbing ----------------------------------------------------------------------------------
    def lock(self, channel_id: str) -> asyncio.Lock:
        """The lock serialising every change to the game in ``channel_id``."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    def known_game_id(self, channel_id: str) -> int | None:
        """The id of the game last seen in a channel (for logs), without touching the store."""
        return self._channel_game.get(channel_id)

    def cached_games(self) -> int:
        """How many games are held in memory."""
        return len(self._cache)

    async def live(self, channel_id: str) -> GameRow | None:
        """The running game (lobby or playing) in a channel."""
        row = await self.store.live_game(channel_id)
        if row is not None:
            self._channel_game[channel_id] = row.id
        return row

    async def require_live(self, channel_id: str, *, playing: bool = False) -> GameRow:
        """The running game in a channel; refuses when there is none (or it is still a lobby)."""
        row = await self.live(channel_id)
        if row is None:
            raise Refusal("There is no game in this channel. Start one with /game new.")
        if playing and row.status != "playing":
            raise Refusal("The game here has not started yet: seated players can /game start it.")
        return row

    def load(self, row: GameRow) -> Game:
        """The game of a stored row, from the cache when its version matches, else from the snapshot."""
        if row.snapshot is None:
            raise Refusal("The game here has not started yet.")
        hit = self._cache.get(row.id)
        if hit is not None and hit[0] == row.version:
            self._cache.move_to_end(row.id)
            return hit[1]
        game = load_game(row.snapshot)
        self._remember(row.id, row.version, game)
        return game

    def _remember(self, game_id: int, version: int, game: Game) -> None:
        self._cache[game_id] = (version, game)
        self._cache.move_to_end(game_id)
        while len(self._cache) > max(1, self.config.cache_size):
            self._cache.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """Drop a game from memory (after a failure, or when it ends)."""
        self._cache.pop(game_id, None)

    @staticmethod
    def ruleset(row: GameRow) -> Ruleset:
        """The ruleset of a stored game."""
        return find_ruleset(row.ruleset)

    @staticmethod
    def seats_of(row: GameRow, user_id: str) -> list[str]:
        """The seats a member holds, in the ruleset's order."""
        return [s for s, who in row.seats.items() if who == user_id]

    def seat_for(
        self, row: GameRow, game: Game, user_id: str, wanted: str | None = None, text: str = ""
    ) -> str:
        """The seat a member acts for: ``wanted`` if theirs, else the only one of theirs that is awaited.

        When several of theirs are awaited, the one for which ``text`` is a legal command now; refuses
        (asking which seat) when that still leaves a choice.
        """
        mine = self.seats_of(row, user_id)
        if not mine:
            raise Refusal(
                "You are not playing in this game, so you cannot act in it. "
                "Spectators follow the board here; /game status shows who plays."
            )
        if wanted:
            wanted = wanted.strip().lower()
            if wanted not in mine:
                raise Refusal(f"You do not hold the seat '{wanted}' (yours: {', '.join(mine)}).")
            return wanted
        to_act = game.seats_to_act()
        awaited = [s for s in mine if s in to_act]
        if not awaited:
            return mine[0]  # the engine says why it is not their move
        if len(awaited) == 1:
            return awaited[0]
        typed = " ".join(text.split()).lower()
        fits = [s for s in awaited if any(c.text.lower() == typed for c in game.legal_commands(s))]
        if len(fits) == 1:
            return fits[0]
        raise Refusal(
            f"You hold several seats that must act now ({', '.join(awaited)}). "
            "Say which one with the seat: option (or pick from the /do list, which names the seat)."
        )

    def to_ping(self, played: Played, actor: str | None = None) -> list[str]:
        """Members to mention after a request: those a decision passed to from someone else (awaited now,
        not before it; every seat of a simultaneous round that just opened), never ``actor`` (who just
        acted); every member playing when the game ended."""
        row = played.row
        if played.outcome is not None:
            return self.members_of(row, set(row.seats))
        handed = {s for d in played.decisions for s in d.seats} - set(played.seats_before)
        if played.new_round:
            handed |= {s for d in played.decisions if d.kind == "simultaneous" for s in d.seats}
        before = set() if played.new_round else set(self.members_of(row, set(played.seats_before)))
        return [m for m in self.members_of(row, handed) if m not in before and m != actor]

    @staticmethod
    def members_of(row: GameRow, seats: set[str]) -> list[str]:
        """Member ids holding any of ``seats`` (not bot seats), without duplicates, in seat order."""
        out: list[str] = []
        for seat, who in row.seats.items():
            if seat in seats and who not in (None, BOT) and who not in out:
                out.append(who)
        return out

    def awaited_members(self, row: GameRow, decisions: list[Decision]) -> list[str]:
        """Member ids who must act next (not bot seats), without duplicates, in seat order."""
        return self.members_of(row, {s for d in decisions for s in d.seats})

    def _plan(self, row: GameRow, game: Game, now: float) -> Schedule:
        """Notifications after a change: reminder, timeout, expiry (replacing pending ones).

        A timeout answers a reaction, or every member seat still answering a simultaneous round, with
        the decision's ``default`` (set by the ruleset only where a timeout answer is safe).
        """
        kinds = ("reminder", "timeout", "expire")
        if game.outcome is not None:
            return Schedule(cancel=kinds)
        version = row.version
        add: list[tuple[str, float, dict[str, Any]]] = []
        humans = {s for s, who in row.seats.items() if who not in (None, BOT)}
        awaited = sorted(game.seats_to_act() & humans)
        if row.settings.get("reminders") and awaited:
            hours = float(row.settings.get("reminder_hours") or self.config.reminder_hours)
            add.append(("reminder", now + hours * HOUR, {"version": version, "seats": awaited}))
        for d in game.awaiting():
            if d.kind in ("reaction", "simultaneous") and d.default is not None and d.seats & humans:
                seats = sorted(d.seats & humans)
                if d.kind == "reaction":
                    seats = seats[:1]
                payload = {"version": version, "seat": seats[0], "seats": seats, "command": d.default.text}
                add.append(("timeout", now + self.config.reaction_timeout_hours * HOUR, payload))
                break
        add.append(("expire", now + self.config.game_expiry_hours * HOUR, {"version": version}))
        return Schedule(cancel=kinds, add=add)

    async def _commit(
        self,
        row: GameRow,
        game: Game,
        steps: list[Step],
        *,
        interaction_id: str | None,
        started: bool = False,
        seats: dict[str, str | None] | None = None,
        settings: dict[str, Any] | None = None,
        answering_before: frozenset[str] = frozenset(),
        seats_before: frozenset[str] = frozenset(),
    ) -> Played:
        now = self.clock()
        outcome = game.outcome
        campaign = self._campaign_writes(row, game) if outcome is not None else {}
        logged = [
            LoggedCommand(
                s.seat,
                s.user_id,
                s.text,
                [event_data(e) for e in s.events] + ([{"secret": True}] if s.secret else []),
                interaction_id if i == 0 else None,
            )
            for i, s in enumerate(steps)
        ]
        future = GameRow(**{**row.__dict__, "version": row.version + len(steps)})
        if settings is not None:
            future.settings = settings
        # Everything the reply needs (board scene, round options, campaign text) is taken before the
        # commit: if the ruleset fails there, nothing is stored and "nothing was changed" stays true.
        played = Played.capture(
            future, game, steps, started=started, answering_before=answering_before, seats_before=seats_before
        )
        played.campaign = self._describe(game, campaign)
        new = await self.store.update_game(
            row.id,
            expected_version=row.version,
            now=now,
            seats=seats,
            status="finished" if outcome is not None else ("playing" if started else None),
            snapshot=state_snapshot(game),
            settings=settings,
            result=outcome.to_data() if outcome is not None else None,
            commands=logged,
            schedule=self._plan(future, game, now),
            campaign=campaign,
        )
        if new is None:
            self.forget(row.id)
            if interaction_id and await self.store.interaction_used(interaction_id):
                raise Refusal("This was already played; nothing more was changed.")
            raise Stale("Someone else played first; nothing was changed. Look at the latest message.")
        if outcome is None:
            self._remember(new.id, new.version, game)
        else:
            self.forget(new.id)
        played.row = new
        return played

    @staticmethod
    def _describe(game: Game, campaign: dict[str, dict[str, Any]]) -> dict[str, str]:
        """The ruleset's descriptions of the records being written (empty ones if it fails: logged)."""
        try:
            return {key: game.ruleset.describe_campaign(rec) for key, rec in campaign.items()}
        except Exception:
            log.exception("describe_campaign failed for a %s game", game.ruleset.id)
            return dict.fromkeys(campaign, "")

    def _campaign_writes(self, row: GameRow, game: Game) -> dict[str, dict[str, Any]]:
        """The records to store for a game the rules just ended (none if the ruleset keeps no campaign).

        A ruleset failing here is logged and the game still ends: its players must not be stuck.
        """
        scope = game.ruleset.campaign_scope
        if scope not in ("player", "server"):
            return {}
        try:
            updates = game.ruleset.campaign_update(game.state)
        except Exception:
            log.exception("campaign_update failed for game %s; the campaign was not updated", row.id)
            return {}
        return choices.campaign_writes(scope, row.seats, updates)

    # -- lobby -------------------------------------------------------------------------------------
    async def open_lobby(
        self,
        *,
        guild_id: str | None,
        channel_id: str,
        ruleset_id: str,
        scenario: str | None,
        creator_id: str,
        opponent_id: str | None = None,
    ) -> GameRow:
        """Open a lobby in a channel: the creator takes the first seat, the opponent (if any) the next."""
        rs = find_ruleset(ruleset_id)
        info = rs.scenario(scenario)  # refuses an unknown scenario
        seats: dict[str, str | None] = {s: None for s in rs.seats}
        order = list(rs.seats)
        seats[order[0]] = creator_id
        if opponent_id is not None and len(order) > 1:
            seats[order[1]] = opponent_id
        now = self.clock()
        expire = Schedule(add=[("expire", now + self.config.lobby_expiry_hours * HOUR, {"version": 0})])
        async with self.lock(channel_id):
            try:
                row = await self.store.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    ruleset=rs.id,
                    scenario=info.id,
                    creator_id=creator_id,
                    seats=seats,
                    now=now,
                    schedule=expire,
                )
            except ChannelBusy:
                raise Refusal(
                    "This channel already has a game. Finish it, /game abort it, "
                    "or use /game new thread:True to play in a thread."
                ) from None
        self._channel_game[channel_id] = row.id
        return row

    async def _lobby_update(
        self, row: GameRow, seats: dict[str, str | None], settings: dict[str, Any] | None = None
    ) -> GameRow:
        new = await self.store.update_game(
            row.id, expected_version=row.version, now=self.clock(), seats=seats, settings=settings
        )
        if new is None:
            raise Stale("The lobby changed meanwhile; try again.")
        return new

    async def _lobby_row(self, channel_id: str, user_id: str | None = None) -> GameRow:
        """The channel's lobby (refused once the game started); with ``user_id``, only for its members."""
        row = await self.require_live(channel_id)
        if row.status != "lobby":
            raise Refusal("The game has already started; you can follow it as a spectator.")
        if user_id is not None and not self.seats_of(row, user_id) and user_id != row.creator_id:
            raise Refusal("Only the lobby's seated players or its creator can do that.")
        return row

    async def join(
        self,
        channel_id: str,
        user_id: str,
        seat: str | None = None,
        *,
        for_bot: bool = False,
        level: str | None = None,
    ) -> tuple[GameRow, str]:
        """Seat a member in the lobby: ``seat`` or the first empty one. A member may hold several seats.

        With ``for_bot`` the seat goes to the game's own player instead (a seated player or the creator
        asks for it), playing at ``level`` (easy, normal, hard; default easy). Refuses a taken or unknown
        seat, or an unknown level.
        """
        if level is not None:
            level = bot_level(level)
        async with self.lock(channel_id):
            row = await self._lobby_row(channel_id, user_id if for_bot else None)
            seats = dict(row.seats)
            if seat is None:
                if not for_bot and user_id in seats.values():
                    mine = ", ".join(self.seats_of(row, user_id))
                    raise Refusal(f"You already hold {mine}. Name a seat to take another one too.")
                empty = [s for s, who in seats.items() if who is None]
                if not empty:
                    raise Refusal("Every seat is taken.")
                seat = empty[0]
            seat = seat.strip().lower()
            if seat not in seats:
                raise Refusal(f"There is no seat '{seat}' (seats: {', '.join(seats)}).")
            holder = BOT if for_bot else user_id
            levels = dict(row.settings.get("bot_level") or {})
            if seats[seat] == holder and not (for_bot and level and levels.get(seat) != level):
                raise Refusal(f"{seat} is already {'the game’s' if for_bot else 'yours'}.")
            if seats[seat] not in (None, BOT):
                raise Refusal(f"{seat} is taken by <@{seats[seat]}>.")
            seats[seat] = holder
            if for_bot:
                levels[seat] = level or levels.get(seat) or DEFAULT_LEVEL
                return await self._lobby_update(row, seats, {**row.settings, "bot_level": levels}), seat
            return await self._lobby_update(row, seats), seat

    async def set_empty_seats(self, channel_id: str, user_id: str, choice: str) -> GameRow:
        """What Start does with the lobby's empty seats: ``wait`` for players, or give them to the game's
        own player at a level (easy, normal, hard). Any seated player or the creator sets it. Refuses
        anything else, naming the choices."""
        choice = choice.strip().lower()
        if choice != WAIT:
            choice = bot_level(choice)
        async with self.lock(channel_id):
            row = await self._lobby_row(channel_id, user_id)
            return await self._lobby_update(row, dict(row.seats), {**row.settings, "empty_seats": choice})

    async def leave(self, channel_id: str, user_id: str, seat: str | None = None) -> GameRow:
        """Free a member's seats in the lobby (only ``seat`` when given: theirs, or one the game holds)."""
        async with self.lock(channel_id):
            row = await self._lobby_row(channel_id)
            mine = self.seats_of(row, user_id)
            if seat is not None:
                seat = seat.strip().lower()
                if seat not in mine and not (
                    row.seats.get(seat) == BOT and (mine or user_id == row.creator_id)
                ):
                    raise Refusal(f"You cannot free '{seat}': it is neither yours nor the game's.")
                freed = [seat]
            elif mine:
                freed = mine
            else:
                raise Refusal("You have no seat in this lobby.")
            seats = {s: (None if s in freed else who) for s, who in row.seats.items()}
            # The next holder of a freed seat makes its per-seat choices afresh.
            options = {
                key: (
                    {s: v for s, v in value.items() if s not in freed} if isinstance(value, dict) else value
                )
                for key, value in (row.settings.get("options") or {}).items()
            }
            return await self._lobby_update(row, seats, {**row.settings, "options": options})

    async def choose(
        self, channel_id: str, user_id: str, key: str, value: str, seat: str | None = None
    ) -> tuple[GameRow, str]:
        """Make one of the lobby's choices (the ruleset's OptionSpec ``key``); returns the row and a line
        saying what was chosen. A per-seat choice is made for one of the caller's seats (``seat`` when
        they hold several); another choice by any seated player or the creator."""
        async with self.lock(channel_id):
            row = await self._lobby_row(channel_id, user_id)
            rs = self.ruleset(row)
            spec = choices.find_spec(rs, row.scenario, key)
            if spec is None:
                offered = ", ".join(s.key for s in choices.specs(rs, row.scenario)) or "none"
                raise Refusal(f"{rs.name} has no lobby choice '{key}' here (choices: {offered}).")
            picked = choices.find_value(spec, value)
            if picked is None:
                names = ", ".join(label for _v, label in spec.choices[:20])
                raise Refusal(f"'{value}' is not a choice for {spec.label} (choose one of: {names}).")
            settings = dict(row.settings)
            options = dict(settings.get("options") or {})
            label = choices.label_of(spec, picked)
            if spec.per_seat:
                mine = self.seats_of(row, user_id)
                if seat:
                    seat = seat.strip().lower()
                    if seat not in mine and not (row.seats.get(seat) == BOT and user_id == row.creator_id):
                        raise Refusal(
                            f"You do not hold the seat '{seat}' (yours: {', '.join(mine) or 'none'})."
                        )
                elif len(mine) == 1:
                    seat = mine[0]
                else:
                    raise Refusal(
                        f"{spec.label} is chosen per seat and you hold {', '.join(mine) or 'no seat'}: "
                        "say which with the seat: option."
                    )
                per = dict(options.get(spec.key) or {})
                per[seat] = picked
                options[spec.key] = per
                said = f"{seat}: {spec.label} → {label}"
            else:
                options[spec.key] = picked
                said = f"{spec.label} → {label}"
            settings["options"] = options
            new = await self.store.update_game(
                row.id, expected_version=row.version, now=self.clock(), settings=settings
            )
            if new is None:
                raise Stale("The lobby changed meanwhile; try again.")
            return new, said

    async def start(
        self,
        channel_id: str,
        user_id: str,
        *,
        bot_seats: bool = False,
        interaction_id: str | None = None,
        level: str | None = None,
    ) -> Played:
        """Start the lobby's game with the lobby's choices and the stored campaign records.

        Empty seats go to the game's own player when ``bot_seats`` (at ``level``, default easy; seats
        given to it with /game join keep their own level); otherwise they must be filled, or (for a
        ruleset with ``min_seats``) at least that many seats held. Refuses an unknown level.
        """
        if level is not None:
            level = bot_level(level)
        async with self.lock(channel_id):
            row = await self._lobby_row(channel_id)
            if not self.seats_of(row, user_id) and user_id != row.creator_id:
                raise Refusal("Only a seated player or the game's creator can start it.")
            preset = row.settings.get("empty_seats", WAIT)
            if preset != WAIT:
                # The lobby's "Empty seats" menu: Start gives them to the game at the level picked there.
                bot_seats = True
                level = level or preset
            rs = self.ruleset(row)
            seats = dict(row.seats)
            empty = [s for s, who in seats.items() if who is None]
            held = len(seats) - len(empty)
            if bot_seats:
                seats = {s: (BOT if who is None else who) for s, who in seats.items()}
            elif rs.min_seats and held < rs.min_seats:
                raise Refusal(
                    f"{rs.name} needs at least {rs.min_seats} seats taken ({held} so far). One member "
                    "may hold several (/game join seat:...), or the lobby's Empty seats menu (or /game start "
                    "bot:True) lets the game play the empty ones."
                )
            elif empty and not rs.min_seats:
                raise Refusal(
                    f"Empty seats: {', '.join(empty)}. Wait for players to /game join, or let the game "
                    "play them: the lobby's Empty seats menu, or /game start bot:True."
                )
            if all(who in (None, BOT) for who in seats.values()):
                raise Refusal("At least one member must play.")
            staged = GameRow(**{**row.__dict__, "seats": seats})
            options = choices.chosen(rs, row.scenario, seats, dict(row.settings.get("options") or {}))
            keys = choices.campaign_keys(rs.campaign_scope, seats)
            chosen_levels = dict(row.settings.get("bot_level") or {})
            bot_levels = {
                s: chosen_levels.get(s) or level or DEFAULT_LEVEL for s, who in seats.items() if who == BOT
            }
            if any(lvl != DEFAULT_LEVEL for lvl in bot_levels.values()):
                options["bot_level"] = bot_levels
            if keys:
                stored = await self.store.campaign_records(row.guild_id, rs.id, keys)
                records = choices.campaign_option(
                    rs.campaign_scope, seats, {k: r.record for k, r in stored.items()}
                )
                if records:
                    options["campaign"] = records
            game = new_game(
                rs.id,
                scenario=row.scenario,
                seats=engine_seats(staged),
                seed=self.new_seed(),
                options=options,
            )
            steps = await bot_steps(game, self.thinker)
            return await self._commit(staged, game, steps, interaction_id=None, started=True, seats=seats)

    # -- play --------------------------------------------------------------------------------------
    async def play(
        self,
        channel_id: str,
        user_id: str | None,
        text: str | None,
        *,
        seat: str | None = None,
        interaction_id: str | None = None,
        expected_version: int | None = None,
        auto: str = "",
    ) -> Played:
        """Play ``text`` for a member's seat (or, with ``auto``, for ``seat`` itself), then the bot seats.

        ``text`` None plays what the game's own player would choose for the member's seat ("Place for
        me"). A command of ``Ruleset.look_verbs`` is played on a copy only and comes back as a look, for
        the member's eyes (nothing stored). Raises RuleError (the engine's refusal), Refusal or Stale;
        nothing changes when it raises.
        """
        async with self.lock(channel_id):
            row = await self.require_live(channel_id, playing=True)
            if interaction_id and await self.store.interaction_used(interaction_id):
                raise Refusal("This was already played; nothing more was changed.")
            if expected_version is not None and row.version != expected_version:
                raise Stale("This button is out of date: the game has moved on. Nothing was changed.")
            # Copy on write: readers (a board, a status, autocomplete) keep the stored position's object,
            # which is never changed in place; this copy replaces it in the cache only once committed.
            game = self.load(row).copy()
            if auto:
                if seat is None:
                    raise ValueError("an automatic command needs its seat")
                acting = seat
            else:
                assert user_id is not None
                prefixed, typed = split_seat(text or "", self.seats_of(row, user_id))
                acting = self.seat_for(row, game, user_id, seat or prefixed, typed)
                text = typed if text is not None else None
            verb = (text or "").split()[:1]
            if not auto and verb and verb[0].lower() in game.ruleset.look_verbs:
                shown = game.apply(acting, text or "")  # on this copy only: never stored
                return Played(row, game, [Step(acting, user_id, game.log[-1].text, shown)], look=True)
            before = answering(game)
            seats_before = frozenset(game.seats_to_act())
            secret = is_secret(game, acting)
            events = game.apply(acting, text if text is not None else game.bot_command(acting))
            steps = [Step(acting, user_id, game.log[-1].text, events, auto=auto, secret=secret)]
            steps += await bot_steps(game, self.thinker)
            return await self._commit(
                row,
                game,
                steps,
                interaction_id=interaction_id,
                answering_before=before,
                seats_before=seats_before,
            )

    async def check(
        self,
        channel_id: str,
        user_id: str,
        text: str,
        seat: str | None = None,
        interaction_id: str | None = None,
    ) -> tuple[GameRow, str, Command]:
        """What ``text`` would play for the member, without playing it: the row, the acting seat and the
        canonical command. Raises Refusal or the engine's RuleError, as :meth:`play` would."""
        row = await self.require_live(channel_id, playing=True)
        if interaction_id and await self.store.interaction_used(interaction_id):
            raise Refusal("This was already played; nothing more was changed.")
        game = self.load(row)
        prefixed, typed = split_seat(text, self.seats_of(row, user_id))
        acting = self.seat_for(row, game, user_id, seat or prefixed, typed)
        return row, acting, game.parse(acting, typed)

    async def legal(self, channel_id: str, user_id: str, seat: str | None = None) -> list[tuple[str, Any]]:
        """(seat, Command) pairs a member may play now, for autocomplete (awaited seats first)."""
        row = await self.live(channel_id)
        if row is None or row.status != "playing":
            return []
        game = self.load(row)
        mine = self.seats_of(row, user_id)
        if seat:
            mine = [s for s in mine if s == seat.strip().lower()]
        awaited = game.seats_to_act()
        mine.sort(key=lambda s: s not in awaited)
        return [(s, c) for s in mine for c in game.legal_commands(s)]

    # -- lifecycle ---------------------------------------------------------------------------------
    async def concede(
        self, channel_id: str, user_id: str, seat: str | None = None
    ) -> tuple[GameRow, Played | None]:
        """A member gives up their seats (only ``seat`` when given).

        In a two-seat game the other seat wins. In a game of more seats where other members still play,
        the game's own player takes the seats over and the game goes on (the Played is returned); when
        nobody else is left it ends without a winner.
        """
        async with self.lock(channel_id):
            row = await self.require_live(channel_id, playing=True)
            mine = self.seats_of(row, user_id)
            if not mine:
                raise Refusal("You are not playing in this game.")
            seat = seat.strip().lower() if seat else None
            if seat and seat not in mine:
                raise Refusal(f"You do not hold the seat '{seat}' (yours: {', '.join(mine)}).")
            losers = [seat] if seat else mine
            names = ", ".join(losers)
            rs = self.ruleset(row)
            others = [who for s, who in row.seats.items() if s not in losers and who not in (None, BOT)]
            if len(rs.seats) <= 2:
                winners = sorted(s for s, who in row.seats.items() if s not in losers and who is not None)
                outcome = Outcome(frozenset(winners), f"{names} conceded.")
                return await self._end(row, "finished", outcome.to_data()), None
            if not others:
                outcome = Outcome(frozenset(), f"{names} conceded; nobody is left to play.")
                return await self._end(row, "finished", outcome.to_data()), None
            game = self.load(row).copy()
            seats = {s: (BOT if s in losers else who) for s, who in row.seats.items()}
            staged = GameRow(**{**row.__dict__, "seats": seats})
            game = Game(
                game.ruleset,
                replace(game.setup_options, seats=engine_seats(staged)),
                game.seed,
                game.dice,
                game.state,
                game.log,
            )
            before = answering(game)
            seats_before = frozenset(game.seats_to_act())
            steps = await bot_steps(game, self.thinker)
            played = await self._commit(
                staged,
                game,
                steps,
                interaction_id=None,
                seats=seats,
                answering_before=before,
                seats_before=seats_before,
            )
            return played.row, played

    async def abort(self, channel_id: str, user_id: str, *, manager: bool) -> GameRow:
        """Stop the channel's game without a result (creator or a member who manages the channel)."""
        async with self.lock(channel_id):
            row = await self.require_live(channel_id)
            if user_id != row.creator_id and not manager:
                raise Refusal("Only the game's creator or a member with Manage Channels can abort it.")
            return await self._end(row, "aborted", {"winners": [], "reason": "The game was aborted."})

    async def _end(self, row: GameRow, status: str, result: dict[str, Any]) -> GameRow:
        new = await self.store.update_game(
            row.id,
            expected_version=row.version,
            now=self.clock(),
            status=status,
            result=result,
            schedule=Schedule(cancel=("reminder", "timeout", "expire")),
        )
        if new is None:
            raise Stale("The game changed meanwhile; try again.")
        self.forget(row.id)
        return new

    async def settings(
        self, channel_id: str, user_id: str, *, reminders: bool | None, hours: float | None
    ) -> GameRow:
        """Change a game's reminder settings (players only)."""
        async with self.lock(channel_id):
            row = await self.require_live(channel_id)
            if not self.seats_of(row, user_id) and user_id != row.creator_id:
                raise Refusal("Only the game's players can change its settings.")
            settings = dict(row.settings)
            if reminders is not None:
                settings["reminders"] = reminders
            if hours is not None:
                if not 0.05 <= hours <= 24 * 14:
                    raise Refusal("Reminder delay must be between 0.05 and 336 hours.")
                settings["reminder_hours"] = hours
            schedule = None
            if row.status == "playing":
                staged = GameRow(**{**row.__dict__, "settings": settings})
                schedule = self._plan(staged, self.load(row), self.clock())
            new = await self.store.update_game(
                row.id, expected_version=row.version, now=self.clock(), settings=settings, schedule=schedule
            )
            if new is None:
                raise Stale("The game changed meanwhile; try again.")
            return new

    async def campaign(
        self, guild_id: str | None, ruleset_id: str, member_id: str
    ) -> tuple[Ruleset, CampaignRecord | None]:
        """A ruleset's campaign record on a server: the server's, or ``member_id``'s for a "player"
        campaign (None when there is none yet). Refuses a ruleset that keeps no campaign."""
        rs = find_ruleset(ruleset_id)
        scope = rs.campaign_scope
        if scope not in ("player", "server"):
            raise Refusal(f"{rs.name} keeps no campaign from game to game.")
        key = choices.SERVER_KEY if scope == "server" else member_id
        found = await self.store.campaign_records(guild_id, rs.id, [key])
        return rs, found.get(key)

    async def expire(self, channel_id: str, game_id: int, version: int) -> GameRow | None:
        """Close a game nobody touched since ``version``; None if it moved on or already ended."""
        async with self.lock(channel_id):
            row = await self.store.get_game(game_id)
            if row is None or not row.live or row.version != version:
                return None
            reason = (
                "The lobby expired." if row.status == "lobby" else "The game expired: no move for too long."
            )
            return await self._end(row, "expired", {"winners": [], "reason": reason})


def ruleset_choices() -> list[tuple[str, str]]:
    """(id, name) of every registered ruleset, for the /game new choice list."""
    return [(rs.id, rs.name) for rs in RULESETS.values()]
