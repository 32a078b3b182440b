"""Property tests: random legal play and bot self-play on several heists with 3 and 4 players."""

from __future__ import annotations

import pytest

from engine import Game, load_game
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import HeistState
from tests.heist_helpers import SEATS3, SEATS4, state
from tests.random_play import play_random_game


def invariants(game: Game) -> None:
    st = state(game)
    assert st.noise >= 0
    for p in st.players.values():
        assert p.ideas >= 0, f"{p.nickname} has negative ideas"
        assert p.cash >= 0
        if st.phase != "plan":
            assert p.pos in st.tiles or p.status == "busted"
        assert len(p.plans) == len(set(p.plans))
    # The security bag never shows in anyone's view.
    for seat in [*st.seats, None]:
        v = game.view(seat)
        assert "bag" not in v and isinstance(v["bag_size"], int)
        for name, t in v["tiles"].items():
            if t["unknown"]:
                assert t["chits"] == [] and st.tiles[name].chits == []
    if game.outcome is None:
        assert game.awaiting(), "a running heist must wait for someone"
    # Every position can be drawn and printed.
    assert game.scene(None).tiles and game.text_board(None)


CASES = [
    ("the_inclusion_job", SEATS3, 1),
    ("the_inclusion_job", SEATS4, 2),
    ("the_dark_horse_job", SEATS4, 3),
    ("the_melee_job", SEATS3, 4),
    ("the_black_box", SEATS4, 5),
    ("the_blind_justice_job", SEATS3, 6),
    ("the_proving_grounds", SEATS4, 7),
    ("the_hospitality_job", SEATS3, 8),
    ("the_side_channel", SEATS3, 9),
    ("the_safehouse_rescue", SEATS4, 10),
]


@pytest.mark.parametrize("heist,seats,seed", CASES)
def test_random_play_keeps_the_rules(heist: str, seats: dict[str, str | None], seed: int) -> None:
    game = play_random_game("heist", seed, scenario=heist, seats=seats, check=invariants, max_commands=3000)
    assert game.outcome is not None


@pytest.mark.parametrize("heist,n", [("the_inclusion_job", 3), ("the_marathon_job", 4), ("the_greedy_prisoner", 3),
                                     ("the_side_channel", 4), ("the_final_score_part_1", 4)])  # fmt: skip
def test_bots_finish_a_heist_and_replay(heist: str, n: int) -> None:
    from engine import new_game

    game = new_game("heist", scenario=heist, seats={f"p{k}": None for k in range(1, n + 1)}, seed=11)
    game.play_bots(limit=4000)
    assert game.outcome is not None
    st = state(game)
    assert st.phase == "over" and st.round >= 1
    assert game.replay().to_json() == game.to_json()
    assert load_game(game.to_json()).to_json() == game.to_json()
    for p in st.players.values():
        assert p.status in ("escaped", "busted", "hidden")


def test_state_round_trips_through_json_mid_heist() -> None:
    from engine import new_game

    game = new_game("heist", scenario="the_startup_job", seats={"p1": None, "p2": None, "p3": None}, seed=3)
    while state(game).phase != "action" or state(game).round < 2:
        seat = sorted(game.seats_to_act())[0]
        game.apply(seat, game.bot_command(seat))
    st = state(game)
    again = HeistState.from_data(st.to_data())
    assert again.to_data() == st.to_data()
    assert R.in_play(again)


async def test_whole_heist_through_the_offline_bot(harness) -> None:  # type: ignore[no-untyped-def]
    """Three seats (Alice holds p1 and p2, Bob p3) play a whole heist on the offline Discord."""
    from engine import load_game
    from tests.harness import ALICE, BOB

    h = harness
    members = {"p1": ALICE, "p2": ALICE, "p3": BOB}
    lobby = await h.slash("game new", user=ALICE, ruleset="heist", scenario="the_inclusion_job")
    assert not lobby.ephemeral, lobby.text
    await h.slash("game join", user=ALICE, seat="p2")
    await h.slash("game join", user=BOB, seat="p3")
    start = await h.slash("game start", user=ALICE)
    assert start.files, "the first board is posted at the start"
    played = 0
    while played < 1500:
        row = await h.row()
        if row.status != "playing":
            break
        game = load_game(row.snapshot)
        seat = sorted(game.awaiting()[0].seats)[0]
        text = game.bot_command(seat).text
        reply = await h.do_confirmed(members[seat], text, seat=seat)
        assert (await h.row()).version > row.version, (seat, text, reply.text)  # played, not refused
        played += 1
    row = await h.row()
    assert row.status == "finished", f"still {row.status} after {played} commands"
    game = load_game(row.snapshot)
    assert game.outcome is not None and row.result == game.outcome.to_data()
    assert game.replay().to_json() == game.to_json()


@pytest.mark.parametrize("heist,seed", [("the_inclusion_job", 21), ("the_proving_grounds", 22),
                                        ("the_hospitality_job", 23), ("county_jail_the_river", 24)])  # fmt: skip
def test_random_play_to_the_alarm(heist: str, seed: int) -> None:
    """Random legal play that never calls the escape early, so the deck, gates, dogs and crises all come up."""
    from engine import new_game
    from tests.random_play import pick

    game = new_game("heist", scenario=heist, seats=dict(SEATS4), seed=seed)
    for step in range(6000):
        if game.outcome is not None:
            break
        seats = sorted(game.seats_to_act())
        seat = seats[pick(seed, len(seats), f"s{step}")]
        legal = [c for c in game.legal_commands(seat) if c.verb not in ("escape", "unplan", "undo", "insert")]
        if state(game).phase == "plan" and len(state(game).players[seat].plans) >= 6:
            legal = [c for c in legal if c.verb != "plan"] or legal
        game.apply(seat, legal[pick(seed, len(legal), f"c{step}")].text)
        invariants(game)
    assert game.outcome is not None
    st = state(game)
    assert st.round >= 4 and not st.deck, "the heist ran until the final crisis"
    assert game.replay().to_json() == game.to_json()
