"""Scripted walkthroughs proving that heists the game's own crews never win can be won under the rules.

The game's crews (even at the strongest search level) had never won seven of the seventeen heists. An audit
concluded that the rules allow winning each of them and that the losses come from the noise clock and the
crews' play. Each test here is that evidence for one heist: it plays a whole heist from a fresh game, through
public commands only (``Game.apply``: planning tokens, the starting entrance, actions and their sub-actions,
``done``, the escape), to an outcome with winners, and asserts the milestones of the plan along the way. A
future change that makes one of these heists unwinnable with this plan fails its test.

What is chosen, and only through the engine's supported inputs:

- the crew is the one the strength bench gives the heist's difficulty (``bench/bench_ai.py``: Amateur level
  1, the pre-built crew; Semi-Pro level 2; Pro level 3, passed as ``options={"campaign": {"*": record}}``),
  four seats as on the bench;
- the seed, which fixes the security bag's draws (a draw takes the next value of the seeded generator, so
  scripted dice do not move them); each test says which draws matter;
- the dice, scripted with ``dice=[...]`` in ``new_game`` (each round every character in seat order, then an
  active non-player character; a freed prisoner or a taken hostage rolls when it joins in; then the
  escape's last-ditch rolls). Nothing in the state is edited mid-game.

What wins them is mostly the same: the noise clock (the event deck) is spent only where it buys progress,
characters who only wait think silently (Pause, Study) and, from outside, hand their ideas on (the Old
Friend fixer), and the escape's idea-paid moves carry the loot the last stretch.
"""

from __future__ import annotations

import engine.rulesets.heist.ruleset  # noqa: F401  (registers the ruleset)
from engine import Game, new_game
from engine.rulesets.heist import campaign
from engine.rulesets.heist.state import HeistState

SEATS = {"p1": None, "p2": None, "p3": None, "p4": None}  # four game-played seats, as on the bench


def heist(scenario: str, level: int, seed: int, dice: list[int]) -> Game:
    record = campaign.levelled_crew(level)
    options = {"campaign": {"*": record}} if record else None
    return new_game("heist", scenario=scenario, seats=dict(SEATS), seed=seed, dice=dice, options=options)


def state(game: Game) -> HeistState:
    st = game.state
    assert isinstance(st, HeistState)
    return st


def play(game: Game, seat: str, *commands: str) -> None:
    """Play ``commands`` for ``seat`` in order (each must be legal, or the test fails)."""
    for text in commands:
        game.apply(seat, text)


def plan(game: Game, seat: str, tiles: str, start: str) -> None:
    """Planning for one seat: a token on each of ``tiles``, the starting entrance, ready."""
    play(game, seat, *(f"plan {t}" for t in tiles.split()), f"start {start}", "ready")


def chits(st: HeistState, tile: str) -> list[str]:
    """The chits on a tile as kinds, a dealt-with one with a trailing ``-``."""
    return [c.kind + ("" if c.active else "-") for c in st.tiles[tile].chits]


def crew(st: HeistState) -> list[str]:
    return [p.nickname for p in st.players.values()]


def won(game: Game) -> None:
    """The heist is over and won, every character got out, and every scripted die was used."""
    assert game.outcome is not None, "the heist is not over"
    assert game.outcome.winners, game.outcome.reason
    st = state(game)
    assert st.phase == "over"
    assert all(p.status == "escaped" for p in st.players.values())
    assert st.rng.script == []  # every scripted die was used


# --- The Startup Job (Amateur): the keycard from f2, the vault door b2, the documents from c1 --------------------


def test_the_startup_job_can_be_won() -> None:
    """Seed 992's bag puts cameras (not locks or guards) on the six unknown tiles of the route, f6, f4, e4 and
    d7, c6, c5: every step onto one raises an alert (eight, and two more at the printed camera c3), so the
    deck is down to three cards when the escape is called. The locks at g6, g5, e7, d3, e3 and b3 and the guards at f7, c7 and b5 lie beside
    it.

    The plan is a relay. Johnny Swagger bumps the two locks off g3 and takes the keycard at f2 in round 2
    (Efficient picker turns his two 🔓 into two more ➜); in round 3 the keycard goes f2 -> f5 with him, f5 ->
    c4 with Null and c4 -> c3 with Iceheart, who opens the vault door b2 and takes the documents at c1. In
    round 4 Iceheart brings them back to c4 for Null, who has been thinking all heist (Examine: 💡💡💡 for
    one 🔊) and calls the escape: his eleven ideas carry the documents the six escape moves out of e9."""
    dice = [
        4,
        2,
        2,
        5,
    ]  # round 1: Sprint (Bypass 4), Pause (Bypass 2), Sprint (Yank Wires 2), Sprint (Hurry 5)
    dice += [1, 2, 2, 6]  # round 2: Bump (Bypass 1), Pause, Sprint, Examine (Hurry 6)
    dice += [4, 2, 2, 5]  # round 3: Sprint, Pause, Sprint, Sprint
    dice += [2, 2, 2, 6]  # round 4: Pause, Pause, Sprint, Examine
    dice += [5, 4]  # the escape's last-ditch rolls: Iceheart needs 3, Johnny Swagger 2
    game = heist("the_startup_job", 1, 992, dice)
    st = state(game)
    assert crew(st) == ["Johnny Swagger", "Tiny Mike", "Iceheart", "Null"]
    plan(game, "p1", "g7 f6 f5 f4 g3 f2", "g8")
    plan(game, "p2", "", "e9")  # Tiny Mike waits outside, thinking quietly
    plan(game, "p3", "d8 d7 c6 c5 c4 c3 b2 c1", "e9")
    plan(game, "p4", "g7 f6 f5 e4 d4 c4", "g8")

    # Round 1: in through both entrances.
    assert st.round == 1
    play(game, "p1", "act sprint", "move g7", "move f6", "move f5", "done")
    assert chits(st, "g6") == ["lock"] and chits(st, "f6") == ["camera"] and chits(st, "f4") == ["camera"]
    play(game, "p4", "act sprint", "move g7", "move f6", "move f5", "done")
    play(game, "p3", "act sprint", "move d8", "move d7", "move c6", "done")
    assert chits(st, "d7") == chits(st, "c6") == chits(st, "c5") == ["camera"]
    play(game, "p2", "act pause", "idea", "done")

    # Round 2: the keycard.
    assert st.round == 2
    play(game, "p1", "act bump", "move f4", "unlock g3", "unlock g3", "efficient", "efficient")
    play(game, "p1", "move g3", "move f2", "take keycard", "done")
    assert st.players["p1"].loot == ["keycard"]
    play(game, "p4", "act examine", "idea", "idea", "idea", "done")
    play(game, "p3", "act sprint", "move c5", "move c4", "done")
    play(game, "p2", "act pause", "idea", "done")

    # Round 3: the keycard runs f2 -> f5 -> c4 -> c3; the vault opens; the documents are taken.
    assert st.round == 3
    play(game, "p1", "act sprint", "move g3", "move f4", "move f5", "give keycard p4", "done")
    play(game, "p4", "act sprint", "move e4", "move d4", "move c4", "give keycard p3", "done")
    play(game, "p3", "act sprint", "move c3", "open b2", "move b2", "move c1", "take docs", "done")
    assert "keycard_door" not in st.tiles["b2"].marks
    assert "docs" in st.players["p3"].loot
    play(game, "p2", "act pause", "idea", "done")

    # Round 4: the documents go to Null, who calls the escape.
    assert st.round == 4
    play(game, "p3", "act sprint", "move b2", "move c3", "move c4", "give docs p4", "done")
    play(game, "p4", "act examine", "idea", "idea", "idea", "escape", "done")
    assert st.players["p4"].loot == ["docs"] and st.players["p4"].ideas == 11
    play(game, "p1", "act pause", "idea", "done")
    play(game, "p2", "act pause", "idea", "done")

    # The escape, after round 4's Event phase: Null spends six of his ideas, no roll needed.
    assert st.phase == "escape" and st.round == 4 and len(st.deck) == 3
    play(game, "p4", "run")
    assert st.players["p4"].status == "escaped" and st.hauled.get("docs") == 1
    play(game, "p3", "run")
    play(game, "p1", "run")
    won(game)


# --- The Hospitality Job (Semi-Pro): the hostage behind the keycard door h4, out through h10 -------------------


def test_the_hospitality_job_can_be_won() -> None:
    """Seed 7's bag gives the keycard (held by a guard) to h7, the first tile drawn, next to the h10
    entrance; then a lock at g7, a camera at h5, a lock at f6 and a camera at g5.

    Tiny Mike takes the keycard at h7 in round 1 and punches its guard in round 2; Johnny Swagger bumps the
    two locks off g6 (Efficient picker gives him two more ➜), opens h4 and stands by the hostage; in round 3
    he takes her (💡💡💡) and she crawls out, one hex a round, with Tiny Mike beside her; in round 4 the two
    cameras that Double Camera left on h5 are disabled before she enters. Showtime and Iceheart wait at the
    other entrances, thinking silently (Pause, Study); Iceheart's Old Friend hands ideas in. The escape is
    called in round 6 with the hostage on h7: her three ideas carry her the three escape moves to h10."""
    dice = [4, 4, 3, 1]  # round 1: Sprint (Bypass 4) twice, Pause (any), Study (Concoct 1)
    dice += [1, 5, 2, 1]  # round 2: Bump (Bypass 1), Punch (any), Pause, Study
    dice += [3, 4, 6, 1, 2]  # round 3: Walk, Sprint, Pause, Study; the hostage, taken, rolls 2
    dice += [2, 4, 1, 1, 3]  # round 4: Disable (Steal 2), Zap (Concoct 4), Pause, Study; the hostage
    dice += [5, 5, 5, 1, 6]  # round 5: Run (Bypass 5) twice, Pause, Study; the hostage
    dice += [4, 4, 2, 1, 3]  # round 6: Sprint twice, Pause, Study; the hostage
    game = heist("the_hospitality_job", 2, 7, dice)
    st = state(game)
    assert crew(st) == ["Johnny Swagger", "Tiny Mike", "Showtime", "Iceheart"]
    plan(game, "p1", "h9 g8 h7 g6 h5 h4 i4 h8", "h10")
    plan(game, "p2", "h9 h8 h7 g6 h5 h4", "h10")
    plan(game, "p3", "", "e1")
    plan(game, "p4", "", "a8")
    hostage = st.npcs[0]
    quiet = {"p3": ("act pause", "idea", "done"), "p4": ("act study", "idea", "idea", "done")}

    # Round 1: the keycard, and two alerts (g8's camera, the noise) throw away Did You See Something?.
    play(game, "p2", "act sprint", "move h9", "move h8", "move h7", "take keycard", "done")
    assert chits(st, "h7") == ["guard"] and st.players["p2"].loot == ["keycard"]
    play(game, "p1", "act sprint", "move h9", "move g8", "move h7", "done")
    assert "A1" in st.discard
    for seat, commands in quiet.items():
        play(game, seat, *commands)

    # Round 2: the guard at h7 goes down; g6 is unlocked; the keycard door at h4 opens.
    assert st.round == 2
    play(game, "p2", "act punch", "subdue h7", "give keycard p1", "done")
    play(game, "p1", "act bump", "unlock g6", "unlock g6", "efficient", "efficient", "move g6", "move h5")
    assert chits(st, "h5") == ["camera"]
    play(game, "p1", "open h4", "move h4", "done")
    assert "keycard_door" not in st.tiles["h4"].marks
    for seat, commands in quiet.items():
        play(game, seat, *commands)

    # Round 3: the hostage is taken and crawls to h4.
    assert st.round == 3
    play(game, "p1", "act walk", "move i4", "escort")
    assert hostage.active and hostage.ideas == 3
    play(game, "p1", "npc act crawl", "npc move h4", "npc done", "done")
    play(game, "p2", "act sprint", "move g6", "move h5", "move h4", "done")
    for seat, commands in quiet.items():
        play(game, seat, *commands)
    assert chits(st, "h5") == ["camera", "camera"]  # Double Camera

    # Round 4: both cameras at h5 off, then the hostage crawls on.
    assert st.round == 4
    play(game, "p1", "act disable", "move h4", "disable h5", "done")
    play(game, "p2", "act zap", "disable h5", "done")
    play(game, "p1", "npc act crawl", "npc move h5", "npc done")
    for seat, commands in quiet.items():
        play(game, seat, *commands)

    # Round 5: she crawls to g6 (unlocked), the two escorts beside her.
    assert st.round == 5 and chits(st, "g6") == ["lock-", "lock-"]
    play(game, "p1", "npc act crawl", "npc move g6", "npc done")
    play(game, "p1", "act run", "move h5", "move g6", "done")
    play(game, "p2", "act run", "move h5", "move g6", "done")
    for seat, commands in quiet.items():
        play(game, seat, *commands)

    # Round 6: she crawls to h7; Iceheart, outdoors, hands in ideas (Old Friend); the escape is called.
    assert st.round == 6
    play(game, "p1", "npc act crawl", "npc move h7", "npc done")
    play(game, "p1", "act sprint", "move h7", "move h8", "done")
    play(game, "p2", "act sprint", "move h7", "move h8", "escape", "done")
    play(game, "p3", *quiet["p3"])
    play(
        game,
        "p4",
        "act study",
        "idea",
        "idea",
        "teamwork p1",
        "teamwork p1",
        "teamwork p1",
        "teamwork p2",
        "done",
    )

    # The escape: three moves for her three ideas, two each for the escorts.
    assert st.phase == "escape" and hostage.pos == "h7"
    play(game, "p1", "npc run")
    assert hostage.status == "escaped"
    play(game, "p1", "run")
    play(game, "p2", "run")
    won(game)


# --- The Greedy Prisoner (Semi-Pro): the server at i2 frees her; two jewels and the prisoner out of i9 ---------


def test_the_greedy_prisoner_can_be_won() -> None:
    """Seed 10's bag, in the order the route is walked from i9: a camera at i7, a lock at h7, a camera at i5,
    a lock at h5, cameras at h4, h3 and h2, a guard at g2. The printed guard and lock at h6 bar the way.

    Tiny Mike unlocks h6 and subdues its guard (Spy Stuff) so Johnny Swagger can reach the server X at i2 in
    round 3: the remote locks on the prisoner (e2) and on e5 open and she is free. Her first crawl takes her
    onto the server Y at f3, which opens g5, her second onto the jewel at f2, which she picks up. Tiny Mike
    unlocks h5 and fetches the jewel at f5 through g5, then punches the dog that Release the Hounds! sent to h5.
    The heist is long and quiet: Showtime and Iceheart wait at a9 thinking silently, the rest Pause or Study
    between jobs. The Panic! crisis (round 6) makes her run two hexes a round; the escape is called in round 8
    with her on i5, four moves out: her two ideas and a roll of 3. Iceheart's Old Friend gives Johnny the
    ideas for his eight escape moves."""
    dice = [4, 4, 5, 1]  # round 1: Sprint (Bypass 4) twice, Pause (any), Study (Concoct 1)
    dice += [4, 2, 3, 1]  # round 2: Sprint, Spy Stuff (Concoct 2), Pause, Study
    dice += [4, 1, 5, 1, 3]  # round 3: Sprint, Bump (Bypass 1), Pause, Study; the freed prisoner rolls 3
    dice += [1, 4, 2, 1, 2]  # round 4: Flip (Steal 1), Sprint, Pause, Study; the prisoner
    dice += [2, 1, 6, 1, 4]  # round 5: Pause (Bypass 2), Study, Pause, Study; the prisoner
    dice += [2, 5, 5, 1, 3]  # round 6: Pause, Punch (any), Pause, Study; the prisoner
    dice += [2, 1, 3, 1, 5]  # round 7: Pause, Study, Pause, Study; the (panicked) prisoner
    dice += [2, 1, 4, 1, 2]  # round 8: the same
    dice += [3]  # the prisoner's last-ditch roll in the escape: she needs 2
    game = heist("the_greedy_prisoner", 2, 10, dice)
    st = state(game)
    assert crew(st) == ["Johnny Swagger", "Tiny Mike", "Showtime", "Iceheart"]
    plan(game, "p1", "h8 i7 h6 i5 h4 h3 h2 i2", "i9")
    plan(game, "p2", "h8 i7 h6 h5 g5 f5 i5", "i9")
    plan(game, "p3", "", "a9")
    plan(game, "p4", "", "a9")
    prisoner = st.npcs[0]

    def quiet(*seats: str) -> None:
        """Silent thinking for the seats that only wait this round."""
        actions = {"p1": ("act pause", "idea", "done"), "p2": ("act study", "idea", "idea", "done"),
                   "p3": ("act pause", "idea", "done"), "p4": ("act study", "idea", "idea", "done")}  # fmt: skip
        for seat in seats:
            play(game, seat, *actions[seat])

    # Round 1: in at i9, up to the guarded, locked h6.
    play(game, "p2", "act sprint", "move h8", "move i7", "done")
    play(game, "p1", "act sprint", "move h8", "move i7", "done")
    assert (
        chits(st, "i7") == ["camera"] and chits(st, "h7") == ["lock"] and chits(st, "h6") == ["guard", "lock"]
    )
    quiet("p3", "p4")

    # Round 2: h6 opened and its guard down; Johnny on to h4.
    assert st.round == 2
    play(game, "p2", "act spy_stuff", "unlock h6", "subdue h6", "done")
    play(game, "p1", "act sprint", "move h6", "move i5", "move h4", "done")
    quiet("p3", "p4")

    # Round 3: the server X at i2 frees the prisoner; she crawls onto the server Y at f3.
    assert st.round == 3
    play(game, "p1", "act sprint", "move h3", "move h2", "move i2")
    assert prisoner.active and "remote_lock_x" not in st.tiles["e2"].marks
    play(game, "p1", "npc act crawl", "npc move f3", "npc done", "done")
    assert "remote_lock_y" not in st.tiles["g5"].marks
    play(game, "p2", "act bump", "move h6", "unlock h5", "done")
    quiet("p3", "p4")
    play(game, "p2", "blab")  # Guard Starts Blabbing: Tiny Mike stands on the subdued guard at h6

    # Round 4: the prisoner takes the jewel at f2; Johnny subdues the guard at g2; Tiny Mike takes f5's jewel.
    assert st.round == 4
    play(game, "p1", "npc act crawl", "npc move f2", "npc take jewel", "npc done")
    play(game, "p1", "act flip", "move h2", "subdue g2", "done")
    play(game, "p2", "act sprint", "move h5", "move g5", "move f5", "take jewel", "done")
    assert prisoner.loot == ["jewel"] and st.players["p2"].loot == ["jewel"]
    quiet("p3", "p4")
    assert chits(st, "h5") == ["lock-", "dog"]  # Release the Hounds!: a dog from h8 runs to h5

    # Round 5: a quiet round; the prisoner thinks.
    assert st.round == 5
    play(game, "p1", "npc act pause", "npc idea", "npc done")
    quiet("p1", "p2", "p3", "p4")

    # Round 6: Tiny Mike punches the dog (it jumps onto him at g5); Panic! comes up.
    assert st.round == 6
    play(game, "p1", "npc act pause", "npc idea", "npc done")
    quiet("p1")
    play(game, "p2", "act punch", "move g5", "subdue g5", "done")
    quiet("p3", "p4")
    assert prisoner.panic and prisoner.ideas == 2

    # Rounds 7 and 8: the panicked prisoner runs g2, h3, h4, i5; the escape is called.
    assert st.round == 7
    play(game, "p1", "npc act run", "npc move g2", "npc move h3", "npc done")
    quiet("p1", "p2", "p3", "p4")
    assert st.round == 8
    play(game, "p1", "npc act run", "npc move h4", "npc move i5", "npc done")
    quiet("p1")
    play(game, "p2", "act study", "idea", "idea", "escape", "done")
    play(game, "p4", "teamwork p1", "teamwork p1", "teamwork p1")  # Old Friend, from outdoors at a9
    quiet("p3", "p4")

    # The escape: the prisoner needs four moves (two ideas and the roll), Tiny Mike six, Johnny eight.
    assert st.phase == "escape" and st.round == 8 and prisoner.pos == "i5"
    play(game, "p2", "npc run")
    assert prisoner.status == "escaped"
    play(game, "p2", "run")
    play(game, "p1", "run")
    won(game)
    assert st.hauled.get("jewel") == 2


# --- The Side Channel (Semi-Pro): USB key to the guide, remote lock Y opens, the documents out -------------------


def test_the_side_channel_can_be_won() -> None:
    """The documents at g2 lie under remote lock Y, which opens when the guide (at h7, behind the keycard
    door g7) holds the USB key (c7); the keycard is held by the guard at d3. The tunnel entrance is laid against
    d6 (outside gap d7), the hub between the USB key, the keycard and the door.

    Seed 1136's bag, as the tiles are reached: a camera at e5, a guard at e7, a lock at c6, a lock at c5,
    cameras at e4 and f5, a guard at d4, a guard at d2, a lock at c2, a camera at f4, a guard at g5, a camera at
    g3, a lock at f2. Johnny Swagger bumps the locks off d6 and c6 so Showtime can fetch the USB key (round 1)
    and bring it to e6 (round 2), while Johnny bumps on to e6 and unlocks f7. Iceheart, whom guards cannot hold
    (There are better ways, 💡 a round), takes the keycard from under d3's guard in round 2 and hands it to
    Showtime at e6 in round 3; Showtime opens g7 and gives the guide the USB key: Y opens. Iceheart walks on
    and takes the documents in round 4 and calls the escape; Tiny Mike, outside at d7 studying all heist,
    gives her four ideas (Old Friend), so her six escape moves need only a roll of 1 or more. The reinforcements
    crisis (C1), which would lock d6 again, is the next card in the deck when the alarm sounds."""
    dice = [
        1,
        1,
        4,
        2,
        3,
    ]  # round 1: Bump (Bypass 1), Study (Concoct 1), Sprint (Extract 4), Sprint (Yank Wires 2),
    # the guide (active from the start) 3
    dice += [1, 1, 4, 2, 5]  # round 2: Bump, Study, Sprint, Sprint; the guide
    dice += [2, 1, 4, 2, 6]  # round 3: Pause (Bypass 2), Study, Sprint, Sprint; the guide
    dice += [2, 1, 3, 6, 4]  # round 4: Pause, Study, Pause (any), Run (Concoct 6); the guide
    dice += [3]  # Iceheart's last-ditch roll in the escape: she needs 1
    game = heist("the_side_channel", 2, 1136, dice)
    st = state(game)
    assert crew(st) == ["Johnny Swagger", "Tiny Mike", "Showtime", "Iceheart"]
    play(game, "p1", "tunnel d6")
    assert st.doors == {"d7": "d6"}
    plan(game, "p1", "d6 e6", "d7")
    plan(game, "p2", "", "d7")  # Tiny Mike stays outside
    plan(game, "p3", "d6 c6 c7 e6 f7 g7 h7", "d7")
    plan(game, "p4", "d6 e5 d4 d3 e6 f5 f4 g3 g2", "d7")
    guide = st.npcs[0]
    assert guide.kind == "guide" and guide.pos == "h7"

    def guide_thinks() -> None:
        play(game, "p1", "npc act pause", "npc idea", "npc done")

    def mike_studies() -> None:
        play(game, "p2", "act study", "idea", "idea", "done")

    # Round 1: d6 and c6 unlocked; the USB key; Iceheart next to the keycard.
    guide_thinks()
    play(game, "p1", "act bump", "unlock d6", "move d6")
    assert chits(st, "e5") == ["camera"] and chits(st, "c6") == ["lock"]
    play(game, "p1", "unlock c6", "done")
    play(game, "p3", "act sprint", "move d6", "move c6", "move c7", "take usb", "done")
    assert st.players["p3"].loot == ["usb"]
    play(game, "p4", "act sprint", "move d6", "move e5", "move d4", "done")
    assert chits(st, "d4") == ["guard"]
    mike_studies()

    # Round 2: the keycard; the USB key to e6; f7 unlocked.
    assert st.round == 2
    guide_thinks()
    play(game, "p1", "act bump", "move e6", "unlock f7", "done")
    play(game, "p3", "act sprint", "move c6", "move d6", "move e6", "done")
    play(game, "p4", "slip", "act sprint", "move d3", "take keycard", "move d4", "move e5", "done")
    assert st.players["p4"].loot == ["keycard"]
    mike_studies()

    # Round 3: keycard to Showtime, the door g7 opens, the guide gets the USB key: remote lock Y opens.
    assert st.round == 3
    guide_thinks()
    play(game, "p4", "act sprint", "move e6", "give keycard p3")
    play(game, "p3", "act sprint", "move f7", "open g7", "move g7", "move h7", "give usb npc", "done")
    assert guide.loot == ["usb"] and "remote_lock_y" not in st.tiles["g2"].marks
    play(game, "p4", "move f5", "move f4", "done")
    play(game, "p1", "act pause", "idea", "done")
    mike_studies()

    # Round 4: the documents; the escape is called; Tiny Mike hands in his ideas from outside.
    assert st.round == 4
    guide_thinks()
    play(game, "p4", "act run", "move g3", "move g2", "take docs", "escape", "done")
    assert st.players["p4"].loot == ["docs"]
    play(game, "p1", "act pause", "idea", "done")
    mike_studies()
    play(game, "p2", "teamwork p4", "teamwork p4", "teamwork p4", "teamwork p4")
    play(game, "p3", "act pause", "idea", "done")

    # The escape, before the reinforcements come: Iceheart out of d7 with the documents.
    assert st.phase == "escape" and st.deck[:2] == ["20", "C1"]
    assert st.players["p4"].ideas == 5
    play(game, "p4", "run")
    assert st.hauled.get("docs") == 1
    play(game, "p1", "run")
    play(game, "p3", "run")  # the guide, last inside, runs out of h8 on its own
    won(game)
    assert guide.status == "escaped"


# --- The Proving Grounds (Semi-Pro): the plasma torch past the dogs, the safe e1, out by h4 in the escape ------


def test_the_proving_grounds_can_be_won() -> None:
    """The safe e1 (five 🧩) opens only to a Plasma Torch, which lies at d8 beside two guard dogs (e8): its bearer
    stands on the safe and turns its own 🔓 and those of characters next to it into 🧩. The first lockdown gate
    (f3) cuts the short way to the safe at the first Shut the Gate!! crisis (the deck's eighth card), the second
    (c4) soon after, and the last crisis shuts every gate left, so the documents leave in the escape.

    Seed 1947's bag, as the tiles are reached: a camera at d6, a lock at g5, a camera at e4, a guard at d4, a
    lock at e6, a guard at d5, cameras at b4 and c3, a lock at f2, a camera at e2, a dog at d2, a camera at c2.
    Iceheart, whom guards and dogs cannot hold (There are better ways, 💡), takes the torch from under the dogs
    and walks the west side (d6, d5, c4, c3, c2, d2) to the safe; Tiny Mike (Zap: a camera at g4 off, the guard
    at f4 down) and Johnny Swagger cross f3 before the gate shuts and wait at e2. In round 4 Iceheart steps onto
    the safe and cracks (Short), and the two Bumps beside her add four 🧩: the safe opens. She then thinks
    (Examine, 💡💡💡 a round) while Showtime, outside at c7, hands her ideas (Old Friend). The escape is called
    in round 8; Coming In Hot! lets her pass five ideas to Johnny; Full Lockdown!! shuts d7 and f5, and she runs
    the eleven escape moves to h4 on her own ideas (guards do not slow her), the documents with her."""
    dice = [4, 4, 3, 2]  # round 1: Sprint (Bypass 4), Zap (Concoct 4), Pause (any), Sprint (Yank Wires 2)
    dice += [5, 4, 3, 2]  # round 2: Run (Bypass 5), Sprint (Bypass 4), Pause, Sprint
    dice += [2, 1, 3, 2]  # round 3: Pause (Bypass 2), Study (Concoct 1), Pause, Sprint
    dice += [1, 1, 3, 3]  # round 4: Bump (Bypass 1), Bump, Pause, Short (Concoct 3)
    dice += [2, 1, 3, 5] * 4  # rounds 5-8: Pause, Study, Pause, Examine (Yank Wires 5)
    dice += [3]  # Tiny Mike's last-ditch roll in the escape: he needs 2
    game = heist("the_proving_grounds", 2, 1947, dice)
    st = state(game)
    assert crew(st) == ["Johnny Swagger", "Tiny Mike", "Showtime", "Iceheart"]
    plan(game, "p1", "g4 f4 e4 f3 e2", "h4")
    plan(game, "p2", "g4 f4 f3 e2", "h4")
    plan(game, "p3", "", "c7")  # Showtime waits outside
    plan(game, "p4", "d7 d8 d6 d5 c4 c3 c2 d2 e1", "c7")
    quiet = {"p1": ("act pause", "idea", "done"), "p2": ("act study", "idea", "idea", "done"),
             "p3": ("act pause", "idea", "done")}  # fmt: skip

    # Round 1: the torch from under the dogs; the way in from h4 opened.
    play(game, "p4", "slip", "act sprint", "move d7", "move d8", "take item:plasma_torch", "move d7", "done")
    assert st.players["p4"].items == ["plasma_torch"] and chits(st, "d7") == ["dog", "dog"]
    play(game, "p2", "act zap", "disable g4", "move g4", "subdue f4", "done")
    play(game, "p1", "act sprint", "move g4", "move f4", "move e4", "done")
    play(game, "p3", *quiet["p3"])

    # Round 2: Iceheart west, Johnny and Tiny Mike over f3, which shuts behind them.
    assert st.round == 2
    play(game, "p4", "slip", "act sprint", "move d6", "move d5", "move c4", "done")
    play(game, "p1", "act run", "move f3", "move e2", "done")
    play(game, "p2", "act sprint", "move f4", "move f3", "move e2", "done")
    play(game, "p3", *quiet["p3"])
    assert "f3" in st.removed

    # Round 3: Iceheart up the west side to d2; the gate at c4 shuts behind her.
    assert st.round == 3
    play(game, "p4", "act sprint", "move c3", "move c2", "move d2", "done")
    for seat in ("p1", "p2", "p3"):
        play(game, seat, *quiet[seat])
    assert "c4" in st.removed

    # Round 4: the torch-bearer on the safe; five 🧩; the documents.
    assert st.round == 4
    play(game, "p4", "act short", "move e1", "crack")
    play(game, "p1", "act bump", "crack", "crack", "done")
    play(game, "p2", "act bump", "crack", "crack", "done")
    assert "safe_open" in st.flags
    play(game, "p4", "take docs", "done")
    assert st.players["p4"].loot == ["docs"]
    play(game, "p3", *quiet["p3"])

    # Rounds 5-7: Iceheart thinks on the safe; Showtime hands her ideas from outside.
    for gifts in (3, 0, 1):
        play(game, "p4", "act examine", "idea", "idea", "idea", "done")
        play(game, "p1", *quiet["p1"])
        play(game, "p2", *quiet["p2"])
        play(game, "p3", "act pause", "idea", *["teamwork p4"] * gifts, "done")

    # Round 8: the escape is called; Coming In Hot!: Iceheart passes five ideas to Johnny.
    assert st.round == 8
    play(game, "p4", "escape", "act examine", "idea", "idea", "idea", "done")
    for seat in ("p1", "p2", "p3"):
        play(game, seat, *quiet[seat])
    assert st.phase == "event" and st.active_event == "24" and st.players["p4"].ideas == 16
    play(game, "p4", *["handoff p1"] * 5, "continue")

    # The escape, after Full Lockdown!! (the last gates shut): eleven moves to h4 on Iceheart's ideas.
    assert st.phase == "escape" and "d7" in st.removed
    play(game, "p4", "run")
    assert st.players["p4"].pos == "h4" and st.hauled.get("docs") == 1
    play(game, "p1", "run")
    play(game, "p2", "run")
    won(game)


# --- The Marathon Job (Pro): the Grease Man vents into the vault e2 with the Safecracker's tools ------------------


def test_the_marathon_job_can_be_won() -> None:
    """The vault e2 borders only f3, under the remote lock X, whose server b1 lies behind the keycard door b3
    (the keycard is held by a guard at h5). This plan needs neither: e2 lies straight across a gap from d4, and
    the level-3 Showtime is a Grease Man, whose Vent crawl (🔊🔊🔊🔊) makes such a tile adjacent for one action.
    Johnny Swagger, a Safecracker, hands him the Safecracking Tools at g9 (items pass like loot); with them each
    Rake (🔓🔓) on the safe is 🧩🧩🧩, so two rounds crack its six, and a round of nothing but cracking is silent.

    Seed 1002's bag, in order: a camera at f8 (next to the g9 entrance), a lock at g7, cameras at f7 and f6, a
    jewel held by a guard at e7, a lock at f4, a camera at e4, a guard at d6. Johnny and Showtime walk
    f8-f7-f6 into the cameras (six alerts), Johnny bumps both locks off d4 (Efficient picker: one more ➜), and
    Showtime vents d4 -> e2 in round 3, cracks in rounds 4 and 5, and vents back out with the documents; the
    lockdown gates (b7, f5, h6, c4) shut behind them. In round 6 Johnny subdues the printed guard at e5 and
    Showtime vents e5 -> f7 and reaches f8, two escape moves from g9. Tiny Mike and Iceheart wait at a9
    studying (💡💡, silent); Iceheart's Old Friend gives Johnny the ideas for his nine escape moves."""
    dice = [4, 1, 4, 1]  # round 1: Sprint (Bypass 4), Study (Concoct 1), Sprint (Extract 4), Study
    dice += [1, 1, 5, 1]  # round 2: Bump (Bypass 1), Study, Dash (Extract 5), Study
    dice += [2, 1, 5, 1]  # round 3: Pause (Bypass 2), Study, Dash, Study
    dice += [2, 1, 1, 1]  # round 4: Pause, Study, Rake (Extract 1), Study
    dice += [2, 1, 1, 1]  # round 5: the same
    dice += [1, 1, 4, 1]  # round 6: Flip (Steal 1), Study, Sprint, Study
    game = heist("the_marathon_job", 3, 1002, dice)
    st = state(game)
    assert crew(st) == ["Johnny Swagger", "Tiny Mike", "Showtime", "Iceheart"]
    assert [p.character for p in st.players.values()] == ["safecracker", "bruiser", "grease_man", "grifter"]
    plan(game, "p1", "f8 f7 f6 f5 e4", "g9")
    plan(game, "p2", "", "a9")
    plan(game, "p3", "f8 f7 f6 f5 e4 d4 e2 e5", "g9")
    plan(game, "p4", "", "a9")
    quiet = {"p1": ("act pause", "idea", "done"), "p2": ("act study", "idea", "idea", "done"),
             "p4": ("act study", "idea", "idea", "done")}  # fmt: skip

    # Round 1: the tools change hands; in through the cameras.
    assert chits(st, "f8") == ["camera"]
    play(game, "p1", "give item:safecracking_tools p3")
    assert st.players["p3"].items == ["safecracking_tools"]
    play(game, "p1", "act sprint", "move f8", "move f7", "move f6", "done")
    play(game, "p3", "act sprint", "move f8", "move f7", "move f6", "done")
    play(game, "p2", *quiet["p2"])
    play(game, "p4", *quiet["p4"])

    # Round 2: d4 unlocked; the gates at b7 and f5 shut behind them.
    assert st.round == 2
    play(game, "p1", "act bump", "efficient", "move f5", "move e4", "unlock d4", "unlock d4", "done")
    assert chits(st, "d4") == ["lock-", "lock-"]
    play(game, "p3", "act dash", "move f5", "move e4", "done")
    play(game, "p2", *quiet["p2"])
    play(game, "p4", *quiet["p4"])
    assert "f5" in st.removed and "b7" in st.removed

    # Round 3: into the vault through the vent.
    assert st.round == 3
    play(game, "p3", "act dash", "move d4", "vent", "move e2", "done")
    assert st.players["p3"].pos == "e2"
    for seat in ("p1", "p2", "p4"):
        play(game, seat, *quiet[seat])

    # Rounds 4 and 5: two silent Rakes crack the six; the documents; back out through the vent.
    assert st.round == 4
    noise = st.noise
    play(game, "p3", "act rake", "crack", "crack", "done")
    assert st.safe == 3 and st.noise == noise  # Suspenseful silence
    for seat in ("p1", "p2", "p4"):
        play(game, seat, *quiet[seat])
    assert st.round == 5
    play(game, "p3", "act rake", "crack", "crack")
    assert "safe_open" in st.flags
    play(game, "p3", "take docs", "vent", "move d4", "done")
    assert st.players["p3"].loot == ["docs"]
    for seat in ("p1", "p2", "p4"):
        play(game, seat, *quiet[seat])

    # Round 6: e5's guard down, a vent across to f7, on to f8; the escape is called.
    assert st.round == 6
    play(game, "p1", "act flip", "subdue e5", "done")
    play(game, "p3", "act sprint", "move e5", "vent", "move f7", "move f8", "escape", "done")
    play(game, "p4", "teamwork p1", "teamwork p1", "teamwork p1", "teamwork p1")  # Old Friend, from a9
    play(game, "p2", *quiet["p2"])
    play(game, "p4", *quiet["p4"])

    # The escape: the documents out of g9.
    assert st.phase == "escape" and st.round == 6
    play(game, "p3", "run")
    assert st.hauled.get("docs") == 1
    play(game, "p1", "run")
    won(game)


# --- The Final Score Part 1 (Pro): in through a tunnel and a vent, the documents hidden in the hideout f2 ---------


def test_the_final_score_part_1_can_be_won() -> None:
    """The safe k5 and its neighbours are shut in behind the keycard door i4 (the keycard lies at a5, on the
    far side of the building). A tunnel entrance opened at i8 lies straight across a gap from j6, next to the
    safe, so the level-3 Showtime (a Grease Man) vents in from outside with Johnny Swagger's Safecracking Tools
    (🔓🔓 on the safe is 🧩🧩🧩): two Rakes open it. The way out is j5 -> (vent) h5, whose printed lock and
    guard Johnny Swagger clears, coming in from i8 over i7 and h6 (Bump, Punch, Bump, Punch); then g4 and g3 to
    the hideout f2, picking up the $2k at j6, the $2k at g4 and the $1k at f3 on the way: documents and $5k.

    Seed 473's bag: a camera at j5, a camera at h6 (seen through the vent from j6), a guard at j4, a camera at
    h7, a lock at g6, cameras at h4 and g3. Tiny Mike and Iceheart wait at the f5 entrance, studying."""
    dice = [1, 1, 4, 1]  # round 1: Bump (Bypass 1), Study (Concoct 1), Sprint (Extract 4), Study
    dice += [4, 1, 1, 1]  # round 2: Punch (any), Study, Rake (Extract 1), Study
    dice += [1, 1, 1, 1]  # round 3: Bump, Study, Rake, Study
    dice += [4, 1, 4, 1]  # round 4: Punch, Study, Sprint, Study
    dice += [2, 1, 4, 1]  # round 5: Pause (Bypass 2), Study, Sprint, Study
    game = heist("the_final_score_part_1", 3, 473, dice)
    st = state(game)
    assert crew(st) == ["Johnny Swagger", "Tiny Mike", "Showtime", "Iceheart"]
    play(game, "p1", "tunnel i8")
    assert "i8" in st.exits
    plan(game, "p1", "i7 h6 h5 g4 g3 f2", "i8")
    plan(game, "p2", "", "f5")
    plan(game, "p3", "j6 k5 j5 h5 g4 g3 f3 f2", "i8")
    plan(game, "p4", "", "f5")
    quiet = {"p1": ("act pause", "idea", "done"), "p2": ("act study", "idea", "idea", "done"),
             "p4": ("act study", "idea", "idea", "done")}  # fmt: skip

    # Round 1: Showtime vents from the tunnel to j6 (its $2k) and onto the safe; Johnny opens i7.
    play(game, "p1", "give item:safecracking_tools p3")
    play(game, "p3", "act sprint", "vent", "move j6", "take cash", "move k5", "done")
    assert st.players["p3"].pos == "k5" and st.players["p3"].cash == 2
    play(game, "p1", "act bump", "unlock i7", "move i7", "done")
    assert chits(st, "h6") == ["camera"]
    play(game, "p2", *quiet["p2"])
    play(game, "p4", *quiet["p4"])

    # Round 2: three 🧩; Johnny punches i7's guard and goes on to h6.
    assert st.round == 2
    play(game, "p3", "act rake", "crack", "crack", "done")
    play(game, "p1", "act punch", "subdue i7", "move h6", "done")
    play(game, "p2", *quiet["p2"])
    play(game, "p4", *quiet["p4"])

    # Round 3: the safe opens; the documents; h5 unlocked.
    assert st.round == 3 and st.safe == 3
    play(game, "p3", "act rake", "crack", "crack", "take docs", "move j5", "done")
    assert "safe_open" in st.flags and st.players["p3"].loot == ["docs"]
    play(game, "p1", "act bump", "unlock h5", "move h5", "done")
    play(game, "p2", *quiet["p2"])
    play(game, "p4", *quiet["p4"])

    # Round 4: h5's guard down; Showtime vents j5 -> h5 and runs on to g3 with g4's $2k.
    assert st.round == 4
    play(game, "p1", "act punch", "subdue h5", "move g4", "done")
    play(game, "p3", "act sprint", "vent", "move h5", "move g4", "take cash", "move g3", "done")
    assert st.players["p3"].cash == 4
    play(game, "p2", *quiet["p2"])
    play(game, "p4", *quiet["p4"])
    play(game, "p2", "continue")  # Stage Whisper: nobody passes an idea

    # Round 5: f3's $1k, and the documents hidden in the hideout f2; the escape is called.
    assert st.round == 5
    play(game, "p3", "act sprint", "move f3", "take cash", "move f2", "escape", "done")
    assert "docs_hidden" in st.flags
    for seat in ("p1", "p2", "p4"):
        play(game, seat, *quiet[seat])

    # The escape: Showtime, hidden at f2, is safe with the $5k; Johnny joins him there.
    assert st.phase == "escape" and st.round == 5
    assert st.players["p3"].status == "escaped" and st.hauled.get("cash") == 5
    play(game, "p1", "run")
    assert st.players["p1"].pos == "f2"
    won(game)
