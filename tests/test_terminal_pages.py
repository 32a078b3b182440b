"""The terminal front end: ``?`` pages through every legal command; text boards carry the turn and a key."""

from __future__ import annotations

import io
import random

import engine
from bot.terminal import PAGE, Pager, run
from engine import Game


def listing(game: Game, seat: str, inputs: list[str]) -> str:
    """What the terminal prints for ``inputs`` (without playing a command)."""
    out = io.StringIO()
    run(game, io.StringIO("".join(f"{line}\n" for line in inputs)), out)
    return out.getvalue()


def test_question_mark_pages_through_every_command_and_says_more_exist() -> None:
    game = engine.new_game("escape", seed=5, seats={"resistance": "a", "isc": "b"})
    legal = [c.text for c in game.legal_commands("resistance")]
    assert len(legal) > 2 * PAGE
    pages = -(-len(legal) // PAGE)
    text = listing(game, "resistance", ["?"] * pages)
    rows = [line.removeprefix("> ") for line in text.splitlines()]  # a page follows the prompt on its line
    shown = [line.split(":", 1)[1].split()[0:2] for line in rows if line.startswith("  resistance: ")]
    assert [" ".join(s) for s in shown] == legal  # every command once, in order
    assert f"(1-{PAGE} of {len(legal)} commands; type ? again for the next page" in text
    assert "the last page" in text
    assert "Kinds: crate" in text


def test_question_mark_with_a_word_narrows_and_pages_restart_after_a_move() -> None:
    game = engine.new_game("escape", seed=5, seats={"resistance": "a", "isc": "b"})
    pager = Pager(size=10)
    first = pager.page(game, ["resistance"], "")
    second = pager.page(game, ["resistance"], "")
    assert first[1] != second[0] and "11-20" in second[-1]
    narrowed = pager.page(game, ["resistance"], "quarters")
    assert all("Quarters" in line for line in narrowed[1:-1] if "resistance:" in line)
    game.apply("resistance", game.legal_commands("resistance")[0])
    assert "(1-10 of" in pager.page(game, ["isc", "resistance"], "")[-1]
    assert "No legal command contains 'zzz'" in pager.page(game, ["resistance"], "zzz")[0]


def played(game: Game, steps: int) -> Game:
    rnd = random.Random(3)
    for _ in range(steps):
        seats = sorted(game.seats_to_act())
        if not seats or game.outcome is not None:
            break
        game.apply(seats[0], rnd.choice(game.legal_commands(seats[0])))
    return game


def test_skirm_text_board_shows_turn_event_initiative_orders_ids_and_key() -> None:
    game = played(engine.new_game("skirm", seed=3), 80)
    st = game.state
    board = game.text_board()
    assert f"Turn {st.turn}/4" in board and "Tactical Order" in board and "Key:" in board
    if st.initiative:
        assert "initiative" in board
    if st.event:
        assert f"Event {st.event}:" in board
    for o in st.objectives:
        if not o["gone"]:
            assert f"O{o['id']}" in board


def test_heist_text_board_shows_round_noise_tiles_plans_and_key() -> None:
    game = played(engine.new_game("heist", seed=3, seats={s: None for s in ("p1", "p2", "p3", "p4")}), 60)
    st = game.state
    board = game.text_board()
    assert f"round {st.round}" in board and "Noise" in board and "Key:" in board and "Event deck" in board
    for s in st.seats:
        for plan in st.players[s].plans:
            assert plan in board
