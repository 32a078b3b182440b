"""The search player: it plays legal commands, does not peek, copies states exactly, and has levels."""

from __future__ import annotations

import ast
import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RULESETS, Game, SetupError, new_game
from engine.ai.levels import LEVELS, check_level, level_budget
from engine.ai.search import Budget, Searcher, SplitRng, searched_commands
from engine.ai.selfplay import fast_random_game
from engine.core import Command
from engine.dice import Rng

ROOT = Path(__file__).resolve().parents[1]
TINY = Budget(playouts=24, depth=8)


def midgame(ruleset: str, seed: int, fraction: float = 0.4) -> Game:
    """A random game of ``ruleset`` replayed to ``fraction`` of its length, every seat a bot."""
    full = fast_random_game(ruleset, seed)
    game = new_game(ruleset, seed=seed, seats={s: None for s in RULESETS[ruleset].seats})
    for entry in full.log[: int(len(full.log) * fraction)]:
        game.apply(entry.seat, entry.text)
    return game


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_copy_state_is_exact_and_independent(ruleset: str) -> None:
    game = midgame(ruleset, 11)
    rs = game.ruleset
    before = game.to_json()
    copy = rs.copy_state(game.state)
    assert copy.to_data() == game.state.to_data()
    # Playing on the copy leaves the original untouched.
    for _ in range(30):
        seat = rs.next_seat(copy)
        if seat is None or rs.outcome(copy) is not None:
            break
        options = [c for c in rs.legal_commands(copy, seat) if c.verb != "react"]
        rs.execute(copy, seat, options[len(options) // 2])
    assert game.to_json() == before


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_search_picks_a_legal_command_and_changes_nothing(ruleset: str) -> None:
    game = midgame(ruleset, 12)
    seat = game.next_bot_seat()
    assert seat is not None
    before = game.to_json()
    result = Searcher(game.ruleset, TINY).choose(game.state, seat, seed=3)
    assert game.to_json() == before
    legal = {c.text for c in game.legal_commands(seat)}
    assert result.command.text in legal
    # every playout runs, unless the ruleset leaves the search one command worth weighing (a heist plan)
    assert result.playouts == TINY.playouts or len(searched_commands(game.ruleset, game.state, seat)) == 1
    game.apply(seat, result.command)


def positions(ruleset: str, seeds: tuple[int, ...], per_game: int) -> Iterator[tuple[Any, str]]:
    """About ``per_game`` positions spread over a random game of ``ruleset`` per seed, each with the seat
    to move (the state is the live game's: copy it before playing on it)."""
    rs = RULESETS[ruleset]
    for seed in seeds:
        full = fast_random_game(ruleset, seed)
        game = new_game(ruleset, seed=seed, seats={s: None for s in rs.seats})
        stride = max(1, len(full.log) // per_game)
        for i, entry in enumerate(full.log):
            seat = rs.next_seat(game.state)
            if i % stride == 0 and seat is not None:
                yield game.state, seat
            game.apply(entry.seat, entry.text)


def played(ruleset: str, state: Any, seat: str, command: Command) -> Any:
    """A copy of ``state`` with ``command`` played by ``seat``."""
    rs = RULESETS[ruleset]
    after = rs.copy_state(state)
    rs.execute(after, seat, command)
    return after


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_no_command_the_search_weighs_leads_back_to_the_position_it_left(ruleset: str) -> None:
    # A command that changes nothing (the heist's "deck", which reads the event deck), or a command and its
    # take-back played in turn by the same seat ("take keycard", "drop keycard"), look exactly as good as the
    # position they leave, so a search that weighed them could play them for ever: hard heist crews did.
    rs = RULESETS[ruleset]
    checked = 0
    for state, seat in positions(ruleset, (21, 31, 32), 8):
        before = state.to_data()
        for first in searched_commands(rs, state, seat):
            after = played(ruleset, state, seat, first)
            assert after.to_data() != before, f"{ruleset}: '{first.text}' by {seat} changes nothing"
            checked += 1
            if rs.next_seat(after) != seat or rs.outcome(after) is not None:
                continue
            for second in searched_commands(rs, after, seat):
                again = played(ruleset, after, seat, second)
                assert again.to_data() != before, f"{ruleset}: '{first.text}' then '{second.text}' lead back"
    assert checked > 20


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_evaluate_is_in_range_and_knows_finished_games(ruleset: str) -> None:
    rs = RULESETS[ruleset]
    game = midgame(ruleset, 13)
    for seat in rs.seats:
        assert 0.0 <= rs.evaluate(game.state, seat) <= 1.0
    done = fast_random_game(ruleset, 13)
    result = done.outcome
    assert result is not None
    for seat in rs.seats:
        value = rs.evaluate(done.state, seat)
        if seat in result.winners:
            assert value == 1.0
        elif result.winners:
            assert value == 0.0
        else:  # a draw, or a co-operative game lost by all
            assert value <= 0.5


def test_escape_determinize_deals_face_down_tokens_anew_from_the_pools() -> None:
    game = midgame("escape", 14, 0.3)
    st = game.state
    hidden = [t for t in st.tokens.values() if not t.face_up and t.kind != "crate"]
    assert hidden, "this seed's game should have face-down tokens by now"
    rs = game.ruleset
    items = sorted([t.item for t in hidden if t.kind == "equipment"] + st.equipment_pool)
    dealt = {tuple(t.item for t in rs.determinize(st, "isc", Rng(k)).tokens.values()) for k in range(12)}
    assert len(dealt) > 1  # the contents really are dealt anew
    for k in range(5):
        det = rs.determinize(st, "isc", Rng(k))
        det_hidden = [det.tokens[t.id] for t in hidden]
        assert [t.kind for t in det_hidden] == [t.kind for t in hidden]  # kinds are public
        assert sorted([t.item for t in det_hidden if t.kind == "equipment"] + det.equipment_pool) == items
        assert det.rng.seed != st.rng.seed and not det.rng.script


def _escape_twin(game: Game, k: int) -> Game:
    """The same public position with face-down contents and pools permuted, and another dice seed."""
    twin = game.replay()
    st = twin.state
    hidden = sorted(
        (t for t in st.tokens.values() if not t.face_up and t.kind == "equipment"), key=lambda t: t.id
    )
    pool = [t.item for t in hidden] + st.equipment_pool
    Rng(k).shuffle(pool)
    for t in hidden:
        t.item = pool.pop()
    st.equipment_pool = pool
    vhidden = sorted(
        (t for t in st.tokens.values() if not t.face_up and t.kind == "objective"), key=lambda t: t.id
    )
    values = [t.value for t in vhidden] + st.objective_pool
    Rng(k + 1).shuffle(values)
    for t in vhidden:
        t.value = values.pop()
    st.objective_pool = values
    st.rng = Rng(seed=1000 + k, counter=k)
    return twin


def _heist_twin(game: Game, k: int) -> Game:
    twin = game.replay()
    Rng(k).shuffle(twin.state.bag)
    twin.state.rng = Rng(seed=2000 + k, counter=3 * k)
    return twin


def _skirm_twin(game: Game, k: int) -> Game:
    twin = game.replay()
    twin.state.rng = Rng(seed=3000 + k, counter=k)
    return twin


TWINS = {"escape": _escape_twin, "heist": _heist_twin, "skirm": _skirm_twin}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(sorted(TWINS)),
    seed=st.integers(0, 40),
    fraction=st.sampled_from([0.1, 0.3, 0.5]),
    k=st.integers(0, 1000),
)
def test_states_differing_only_in_hidden_facts_give_the_same_decision(
    ruleset: str, seed: int, fraction: float, k: int
) -> None:
    game = midgame(ruleset, seed, fraction)
    seat = game.next_bot_seat()
    if seat is None:
        return
    twin = TWINS[ruleset](game, k)
    assert game.view(seat) == twin.view(seat)
    assert twin.state.to_data() != game.state.to_data()  # the hidden facts really differ
    searcher = Searcher(game.ruleset, Budget(playouts=16, depth=6))
    a = searcher.choose(game.state, seat, seed=99)
    b = searcher.choose(twin.state, seat, seed=99)
    assert a.command == b.command
    assert a.visits == b.visits


def test_levels_easy_keeps_the_policy_and_search_levels_are_deterministic() -> None:
    game = midgame("escape", 15)
    seat = game.next_bot_seat()
    assert seat is not None
    assert game.bot_level(seat) == "easy"
    assert game.bot_command(seat) == game.bot_command(seat, level="easy")
    assert game.bot_command(seat, level="normal") == game.bot_command(seat, level="normal")
    with pytest.raises(SetupError, match="bot level"):
        game.bot_command(seat, level="grandmaster")
    assert check_level(" Hard ") == "hard" and set(LEVELS) == {"easy", "normal", "hard"}


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_escape_path_searches_roll_out_one_activation_by_the_policy(level: str) -> None:
    # Uniform rollouts left the search swarm little better than the policy alone (docs/ai.md's figures).
    budget = level_budget(level, "escapepath")
    assert budget is not None and budget.policy_rollouts and budget.depth == 6
    if level == "normal":  # a decision with such rollouts: legal, and the same again
        game = midgame("escapepath", 30)
        seat = game.next_bot_seat()
        assert seat is not None
        played = game.bot_command(seat, level=level)
        assert played in game.legal_commands(seat) and played == game.bot_command(seat, level=level)


def test_bot_level_comes_from_the_game_options() -> None:
    game = new_game("skirm", seed=4, seats={"player1": None, "player2": "u2"}, options={"bot_level": "hard"})
    assert game.bot_level("player1") == "hard"
    per_seat = new_game("skirm", seed=4, options={"bot_level": {"player1": "normal"}})
    assert per_seat.bot_level("player1") == "normal" and per_seat.bot_level("player2") == "easy"


def test_a_clock_caps_the_thinking_time() -> None:
    game = midgame("escape", 16)
    seat = game.next_bot_seat()
    assert seat is not None
    ticks = iter(range(10_000))
    result = Searcher(game.ruleset, Budget(playouts=1000, seconds=5)).choose(
        game.state, seat, seed=1, clock=lambda: float(next(ticks))
    )
    assert result.playouts <= 6  # the fake clock advances one second per reading


def test_a_timed_search_leaves_room_for_a_playout_as_long_as_its_longest() -> None:
    game = midgame("escape", 16)
    seat = game.next_bot_seat()
    assert seat is not None
    readings = iter(range(10_000))

    def clock() -> float:  # readings: the start, then before and after each playout; the first takes 0.45 s
        n = next(readings)
        return 0.01 * n + (0.45 if n >= 2 else 0.0)

    result = Searcher(game.ruleset, Budget(playouts=1000, seconds=1.0)).choose(
        game.state, seat, seed=1, clock=clock
    )
    assert result.playouts >= 2
    assert result.elapsed + 0.45 <= 1.0  # stopping at the average playout would have run on to 1.0


@pytest.mark.parametrize("enabled", [True, False])
def test_a_search_leaves_the_cycle_collector_as_it_found_it_even_when_it_fails(enabled: bool) -> None:
    game = midgame("escapepath", 12)
    seat = game.next_bot_seat()
    assert seat is not None
    seen: list[bool] = []

    def clock() -> float:  # read between playouts, while the search runs
        seen.append(gc.isenabled())
        if len(seen) > 3:
            raise RuntimeError("the clock broke")
        return 0.0

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with pytest.raises(RuntimeError, match="the clock broke"):
            Searcher(game.ruleset, Budget(playouts=50, seconds=5)).choose(
                game.state, seat, seed=1, clock=clock
            )
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen[1:] == [False] * len(seen[1:])  # paused while the playouts ran


def test_engine_game_and_ai_import_without_a_cycle_or_lazy_imports() -> None:
    """engine.game imports engine.ai at the top; nothing in engine.ai (but selfplay) imports engine.game,
    and neither imports inside a function to dodge a cycle."""
    paths = [ROOT / "engine" / "game.py", *(ROOT / "engine" / "ai").glob("*.py")]
    for path in paths:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{path.relative_to(ROOT)} imports inside {node.name}()"
        if path.parent.name == "ai" and path.name != "selfplay.py":
            assert "from engine.game" not in path.read_text(), path.name


@pytest.mark.parametrize("ruleset", ["skirm", "escapepath", "escape", "heist", "cardcombat"])
def test_a_node_listed_once_for_playouts_that_brought_nothing_hidden_into_play_decides_alike(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Playouts that reach a node without drawing a die or turning up a hidden fact on the way have the same
    # legal commands there (where only the dice are hidden, the same position), so the search lists the
    # node's commands once for all of them. Each decision, and every root visit count, must be those of a
    # search that lists the commands in every playout.
    rs = RULESETS[ruleset]
    listings = 0
    listed = rs.legal_commands

    def counting(state: Any, seat: str) -> list[Command]:
        nonlocal listings
        listings += 1
        return listed(state, seat)

    monkeypatch.setattr(rs, "legal_commands", counting)
    budget = level_budget("normal", ruleset, playouts=80)
    assert budget is not None
    totals = {False: 0, True: 0}
    # A random heist spends most of its commands planning, where the search weighs only the planning
    # policy's picks: its positions come from the heist under way.
    fractions = (0.9, 0.95) if ruleset == "heist" else (0.2, 0.5)
    for seed in (21, 22, 23, 24):
        for fraction in fractions:
            game = midgame(ruleset, seed, fraction)
            seat = game.next_bot_seat()
            assert seat is not None
            results = {}
            for sharing in (False, True):
                searcher = Searcher(rs, budget)
                searcher.share_listings = sharing
                listings = 0
                results[sharing] = searcher.choose(game.state, seat, seed=7)
                totals[sharing] += listings
            assert results[True].command == results[False].command
            assert results[True].visits == results[False].visits
    # Escape Path's rollouts list every step to weigh it by the policy: only the tree's share can shrink.
    assert totals[True] < (0.6 if ruleset == "skirm" else 0.95) * totals[False]


def test_a_ruleset_that_deals_hidden_facts_of_its_own_shares_no_node_listing_without_a_mark() -> None:
    # Every ruleset now gives a mark. A ruleset that deals hidden facts of its own (its own determinize)
    # and gives no mark of them must get none from the default, or its nodes would be shared unsafely.
    marked = {rid for rid in RULESETS if RULESETS[rid].hidden_in_play(midgame(rid, 5).state) is not None}
    assert marked == set(RULESETS)

    class DealsItsOwn(type(RULESETS["skirm"])):  # type: ignore[misc]
        def determinize(self, state: Any, seat: str, rng: Rng) -> Any:
            return super().determinize(state, seat, rng)

    assert DealsItsOwn().hidden_in_play(midgame("skirm", 5).state) is None
    assert RULESETS["skirm"].hidden_in_play(midgame("skirm", 5).state) is not None


def test_taking_a_face_down_escape_token_changes_the_mark_because_it_changes_what_may_be_played() -> None:
    # What a face-down equipment token holds is dealt anew in every determinization; once taken, the item
    # decides the taker's commands. So the mark must change, or a node listed in one deal would hand its
    # commands to a playout holding another item.
    rs = RULESETS["escape"]
    checked = 0
    for seed in (1, 4, 5):
        full = fast_random_game("escape", seed, use_sampler=False)
        game = new_game("escape", seed=seed, seats={s: None for s in rs.seats})
        for entry in full.log:
            tokens = game.state.tokens
            takes = [
                c
                for c in game.legal_commands(entry.seat)
                if c.verb == "take"
                and tokens[c.args[1]].kind == "equipment"
                and not tokens[c.args[1]].face_up
            ]
            if takes:
                break
            game.apply(entry.seat, entry.text)
        assert takes, f"seed {seed}: no face-down equipment token is taken in this game"
        listings = set()
        for k in range(12):
            det = rs.determinize(game.state, entry.seat, Rng(seed=k))
            det.rng = SplitRng(seed=k)
            before = rs.hidden_in_play(det)
            rs.execute(det, entry.seat, rs.parse(det, entry.seat, takes[0].text))
            assert rs.hidden_in_play(det) != before
            listings.add(tuple(c.text for c in rs.legal_commands(det, entry.seat)))
        assert len(listings) > 1  # the item taken changes the commands
        checked += 1
    assert checked == 3


def test_the_heist_commands_never_depend_on_the_bag_order() -> None:
    # The heist's mark of hidden facts in play is the dice drawn alone: a determinization deals the bag's
    # order anew, and chits leave the bag only by a die. So the commands must not depend on that order.
    rs = RULESETS["heist"]
    compared = 0
    for seed in range(6):
        full = fast_random_game("heist", seed, use_sampler=False)
        game = new_game("heist", seed=seed, seats={s: None for s in rs.seats})
        for i, entry in enumerate(full.log):
            if i % 3 == 0 and len(game.state.bag) > 1:
                for seat in rs.seats:
                    listed = [c.text for c in rs.legal_commands(game.state, seat)]
                    shuffled = rs.copy_state(game.state)
                    Rng(seed=i).shuffle(shuffled.bag)
                    shuffled.bag.reverse()
                    assert [c.text for c in rs.legal_commands(shuffled, seat)] == listed
                    compared += 1
            game.apply(entry.seat, entry.text)
    assert compared > 100
