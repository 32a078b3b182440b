"""The bot is ruleset-generic: a tiny test-only ruleset, registered here and nowhere in bot/, is played
end to end (one member holding both seats, reactions by buttons, a bot seat in another channel)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import RULESETS, Command, Decision, Event, Outcome, ScenarioInfo
from engine.dice import Rng
from engine.errors import IllegalCommand, NotYourTurn, UnknownCommand
from engine.ruleset import Ruleset, SetupOptions
from engine.scene import Panel, Scene, Tile, Token
from tests.harness import ALICE, BOB, Harness, png_size

OTHER = {"red": "blue", "blue": "red"}


@dataclass
class DuelState:
    """Two fighters; the one whose turn it is attacks, the other may dodge."""

    rng: Rng
    turn: str = "red"
    hp: dict[str, int] = field(default_factory=lambda: {"red": 3, "blue": 3})
    pending: bool = False  # an attack waits for the defender's answer

    def to_data(self) -> dict[str, Any]:
        return {"rng": self.rng.to_data(), "turn": self.turn, "hp": dict(self.hp), "pending": self.pending}


class Duel(Ruleset):
    """Test-only ruleset."""

    id = "duel"
    name = "Duel"
    seats = ("red", "blue")

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("pit", "The pit", "Two fighters, one pit.")]

    def setup(self, options: SetupOptions, rng: Rng) -> DuelState:
        return DuelState(rng)

    def load_state(self, data: dict[str, Any]) -> DuelState:
        r = data["rng"]
        return DuelState(Rng(seed=r["seed"], counter=r["counter"], script=list(r["script"])), data["turn"], dict(data["hp"]), data["pending"])  # fmt: skip

    def awaiting(self, st: DuelState) -> list[Decision]:
        if self.outcome(st) is not None:
            return []
        if st.pending:
            d = OTHER[st.turn]
            opts = tuple(self.legal_commands(st, d))
            return [Decision("reaction", frozenset({d}), f"{d} is attacked: dodge?", opts, opts[1])]
        return [Decision("activation", frozenset({st.turn}), f"{st.turn} attacks or ends")]

    def legal_commands(self, st: DuelState, seat: str) -> list[Command]:
        if self.outcome(st) is not None:
            return []
        if st.pending:
            if seat != OTHER[st.turn]:
                return []
            return [Command("dodge", (), "Dodge (roll 5+)"), Command("no-dodge", (), "Take the hit")]
        if seat != st.turn:
            return []
        return [
            Command("attack", (seat, OTHER[seat]), f"{seat} attacks {OTHER[seat]}"),
            Command("end", (), "End turn"),
        ]

    def parse(self, st: DuelState, seat: str, text: str) -> Command:
        for c in self.legal_commands(st, seat):
            if c.text == text.lower():
                return c
        if text.split()[0] not in ("attack", "end", "dodge", "no-dodge"):
            raise UnknownCommand(f"'{text}' is not a Duel command.")
        if not self.legal_commands(st, seat):
            raise NotYourTurn("Not your turn.")
        raise IllegalCommand(f"'{text}' is not allowed now.")

    def execute(self, st: DuelState, seat: str, command: Command) -> list[Event]:
        if command.verb == "attack":
            st.pending = True
            return [Event(f"{seat} swings at {OTHER[seat]}.", "attack")]
        if command.verb == "end":
            st.turn = OTHER[st.turn]
            return [Event(f"{seat} ends the turn.", "end", board=True)]
        st.pending = False
        if command.verb == "dodge":
            die = st.rng.roll()
            if die >= 5:
                return [Event(f"{seat} dodges ({die}).", "dodge", (die,))]
        st.hp[seat] -= 1
        return [Event(f"{seat} is hit: {st.hp[seat]} left.", "hit", board=st.hp[seat] <= 0)]

    def outcome(self, st: DuelState) -> Outcome | None:
        for s, hp in st.hp.items():
            if hp <= 0:
                return Outcome(frozenset({OTHER[s]}), f"{s} is down.")
        return None

    def view(self, st: DuelState, seat: str | None) -> dict[str, Any]:
        return {"turn": st.turn, "hp": dict(st.hp), "summary": f"red {st.hp['red']} / blue {st.hp['blue']}"}

    def scene(self, st: DuelState, seat: str | None) -> Scene:
        tiles = tuple(Tile((x, y), "#444444") for x in range(4) for y in range(2))
        tokens = (
            Token((0, 0), "R", "#cc3333", bar=(st.hp["red"], 3)),
            Token((3, 1), "B", "#3333cc", bar=(st.hp["blue"], 3)),
        )
        return Scene("square", 4, 2, "duel-pit", tiles, tokens=tokens, panel=Panel(title=f"{st.turn} to act"))

    def help_topics(self) -> dict[str, str]:
        return {
            "overview": "Attack, dodge on 5+, three hits and you are down. Set 'react dodge always|never'."
        }


@pytest.fixture(autouse=True)
def duel() -> Iterator[None]:
    RULESETS["duel"] = Duel()
    yield
    RULESETS.pop("duel", None)


async def test_solo_member_plays_both_seats_with_buttons(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="duel")
    joined = await h.slash("game join", user=ALICE, seat="blue")  # a member may hold several seats
    assert "takes blue" in joined.content
    last = await h.slash("game start", user=ALICE)
    assert last.files
    clicks = 0
    for _ in range(60):
        row = await h.row()
        if row.status != "playing":
            break
        shown = h.shown()
        if any(c.startswith("esc:r:") for c in shown.custom_ids):
            # She keeps acting (both seats are hers): the question is on the turn message, no ping.
            assert f"<@{ALICE}>" not in shown.content
            button = f"esc:r:{row.id}:{row.version}:no-dodge"
            last = await h.click(button, user=ALICE)
            clicks += 1
            assert button not in h.shown().custom_ids  # the answered question's buttons are gone
        else:
            choices = await h.autocomplete("do", "command", user=ALICE, command="attack")
            assert [c["value"] for c in choices] in (["attack red blue"], ["attack blue red"])
            last = await h.slash("do", user=ALICE, command=choices[0]["value"])
            attacks = await h.autocomplete("attack", "unit", user=ALICE, unit="")
            assert [a["value"] for a in attacks] == ["—"]  # the answer is awaited, not an attack
            assert "No 'attack' now" in attacks[0]["name"] and "dodge" in attacks[0]["name"]
        assert (await h.row()).version > row.version, last.text
    row = await h.row()
    assert row.status == "finished" and row.result == {"winners": ["red"], "reason": "blue is down."}
    assert clicks == 3
    assert "Result" in last.text and last.files
    assert len(h.public_messages()) <= 3  # lobby, start, result: everything else edited the turn message
    assert png_size(last.files[0][1])[0] > 0
    # /rules works from the ruleset's own help.
    rules = await h.slash("rules", user=BOB, ruleset="duel")
    assert "dodge on 5+" in rules.text


async def test_bot_seat_plays_and_seat_option(harness: Harness) -> None:
    h = harness
    await h.slash("game new", user=ALICE, ruleset="duel")
    await h.slash("game start", user=ALICE, bot=True)
    # Alice (red) attacks; blue is the game's own player and answers at once.
    await h.slash("do", user=ALICE, command="attack red blue", seat="red")
    assert "🤖 blue" in h.shown().text and "swings" in h.shown().text
    wrong = await h.slash("do", user=ALICE, command="end", seat="blue")
    assert wrong.ephemeral and "do not hold the seat 'blue'" in wrong.content
    policy = await h.autocomplete("game settings", "reaction", user=ALICE, reaction="")
    assert policy == []  # the help names 'react dodge', but Duel's parser refuses it: nothing offered


@dataclass
class GuessState:
    """Both seats pick a number at once; the higher wins."""

    rng: Rng
    picks: dict[str, int] = field(default_factory=dict)
    done: bool = False

    def to_data(self) -> dict[str, Any]:
        return {"rng": self.rng.to_data(), "picks": dict(self.picks), "done": self.done}


class Guess(Duel):
    """Test-only ruleset with a simultaneous decision."""

    id = "guess"
    name = "Guess"
    seats = ("red", "blue")

    def setup(self, options: SetupOptions, rng: Rng) -> GuessState:  # type: ignore[override]
        return GuessState(rng)

    def load_state(self, data: dict[str, Any]) -> GuessState:  # type: ignore[override]
        r = data["rng"]
        rng = Rng(seed=r["seed"], counter=r["counter"], script=list(r["script"]))
        return GuessState(rng, dict(data["picks"]), data["done"])

    def awaiting(self, st: GuessState) -> list[Decision]:  # type: ignore[override]
        waiting = frozenset(s for s in self.seats if s not in st.picks)
        return [] if st.done else [Decision("simultaneous", waiting, "Pick a number, secretly")]

    def legal_commands(self, st: GuessState, seat: str) -> list[Command]:  # type: ignore[override]
        if st.done or seat in st.picks:
            return []
        return [Command("pick", (str(n),), f"Pick {n}") for n in (1, 2, 3)]

    def execute(self, st: GuessState, seat: str, command: Command) -> list[Event]:  # type: ignore[override]
        st.picks[seat] = int(command.args[0])
        if len(st.picks) < 2:
            return [Event(f"{seat} has chosen.", "submit")]
        st.done = True
        return [Event(f"red picked {st.picks['red']}, blue picked {st.picks['blue']}.", "reveal", board=True)]

    def outcome(self, st: GuessState) -> Outcome | None:  # type: ignore[override]
        if not st.done:
            return None
        if st.picks["red"] == st.picks["blue"]:
            return Outcome(frozenset(), "Same number.")
        best = max(st.picks, key=lambda s: st.picks[s])
        return Outcome(frozenset({best}), f"{best} picked higher.")

    def view(self, st: GuessState, seat: str | None) -> dict[str, Any]:  # type: ignore[override]
        return {"chosen": sorted(st.picks), "summary": ""}

    def scene(self, st: GuessState, seat: str | None) -> Scene:  # type: ignore[override]
        tiles = tuple(Tile((x, 0), "#444444") for x in range(3))
        return Scene("square", 3, 1, "guess", tiles, panel=Panel(title="Guess"))


async def test_simultaneous_choices_stay_hidden(harness: Harness) -> None:
    h = harness
    RULESETS["guess"] = Guess()
    try:
        await h.slash("game new", user=ALICE, ruleset="guess", opponent=BOB)
        start = await h.slash("game start", user=ALICE)
        # The round opens with one message pinging the other player (Alice just pressed Start) and
        # listing each one's options.
        assert f"<@{ALICE}>" not in start.content and f"<@{BOB}>" in start.content
        assert "Pick 1, 2, 3" in start.text and "everyone chooses" in start.text  # told as one
        public_start = len(h.replies)
        mine = await h.slash("do", user=ALICE, command="pick 3")
        assert mine.ephemeral and "pick 3" in mine.content  # only Alice sees her choice
        public = [r for r in h.replies[public_start:] if not r.ephemeral]
        assert public and all("pick 3" not in r.text for r in public)
        # Bob was told when the round opened; he answers in his own time and is not pinged again.
        assert "hidden choice" in public[0].text and f"<@{BOB}>" not in public[0].content
        log = await h.slash("game log", user=BOB, events=True)
        assert "pick 3" not in log.content and "hidden choice" in log.content
        await h.slash("do", user=BOB, command="pick 2")
        row = await h.row()
        assert row.status == "finished" and row.result == {"winners": ["red"], "reason": "red picked higher."}
        revealed = await h.slash("game log", user=BOB)
        assert "pick 3" in revealed.content  # shown once the game is over
    finally:
        RULESETS.pop("guess", None)
