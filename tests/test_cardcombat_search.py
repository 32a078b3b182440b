"""Dark Realms and the search player: exact fast copies, and a determinization that does not peek."""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as stx

from engine import RULESETS, Game, load_game, new_game
from engine.ai.search import Budget, Searcher
from engine.ai.selfplay import fast_random_game
from engine.dice import Rng
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.state import CCState

SEATS: dict[str, str | None] = {"hero1": None, "hero2": None, "hero3": None}


def midgame(seed: int, fraction: float, scenario: str = "orc_camp") -> Game:
    """A random three-hero game replayed to ``fraction`` of its length."""
    full = new_game("cardcombat", scenario=scenario, seed=seed, seats=SEATS)
    rng = Rng(seed=seed)
    while full.outcome is None and len(full.log) < 600:
        seat = min(full.awaiting()[0].seats)
        options = full.legal_commands(seat)
        full.apply(seat, options[rng.below(len(options))])
    game = new_game("cardcombat", scenario=scenario, seed=seed, seats=SEATS)
    for entry in full.log[: int(len(full.log) * fraction)]:
        game.apply(entry.seat, entry.text)
    return game


def at_a_commit_with_others_committed(seed: int) -> tuple[Game, str]:
    """A game at a commit where another hero has already committed; returns it and the seat to act."""
    game = midgame(seed, 0.0)
    rng = Rng(seed=seed + 1)
    for _ in range(400):
        st: CCState = game.state
        seat = game.next_bot_seat()
        assert seat is not None
        if st.phase == "commit" and st.commits and st.round > 1:
            return game, seat
        options = game.legal_commands(seat)
        game.apply(seat, options[rng.below(len(options))])
    raise AssertionError("no commit with a hero already committed")


def twin(game: Game, seat: str, k: int) -> Game:
    """The same position as ``seat`` sees it: the undrawn speed cards in another order, the other heroes'
    hidden commitments changed, another dice seed."""
    other = game.replay()
    st: CCState = other.state
    rng = Rng(seed=5000 + k)
    for deck in st.decks.values():
        rng.shuffle(deck["draw"])
    mine = next(f["id"] for f in st.figures.values() if f.get("seat") == seat and f["kind"] == "hero")
    for hid in st.commits:
        if hid != mine:
            options = A.commit_options(st, st.figures[hid])
            pick = options[rng.below(len(options))]
            st.commits[hid] = {"cards": [] if pick.args[1] == "rest" else list(pick.args[1:]), "items": []}
    st.rng = Rng(seed=7000 + k, counter=k)
    return other


def same_decision(game: Game, seat: str, k: int) -> None:
    other = twin(game, seat, k)
    assert game.view(seat) == other.view(seat)
    assert other.state.to_data() != game.state.to_data()  # the hidden facts really differ
    searcher = Searcher(game.ruleset, Budget(playouts=16, depth=6))
    a = searcher.choose(game.state, seat, seed=99)
    b = searcher.choose(other.state, seat, seed=99)
    assert a.command == b.command
    assert a.visits == b.visits


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=stx.integers(0, 40), fraction=stx.sampled_from([0.2, 0.4, 0.6]), k=stx.integers(0, 1000))
def test_states_differing_only_in_hidden_facts_give_the_same_decision(
    seed: int, fraction: float, k: int
) -> None:
    game = midgame(seed, fraction)
    seat = game.next_bot_seat()
    if seat is None:
        return
    same_decision(game, seat, k)


@pytest.mark.parametrize("seed", [1, 2])
def test_other_heroes_hidden_commitments_do_not_change_the_decision(seed: int) -> None:
    game, seat = at_a_commit_with_others_committed(seed)
    same_decision(game, seat, seed)


def test_determinize_deals_the_hidden_facts_anew_and_keeps_the_public_ones() -> None:
    game, seat = at_a_commit_with_others_committed(3)
    st: CCState = game.state
    rs = game.ruleset
    mine = next(f["id"] for f in st.figures.values() if f.get("seat") == seat)
    orders = set()
    for k in range(12):
        det: CCState = rs.determinize(st, seat, Rng(seed=k))  # type: ignore[assignment]
        assert det.rng.seed != st.rng.seed
        for t, deck in st.decks.items():
            assert sorted(det.decks[t]["draw"]) == sorted(deck["draw"])
            assert det.decks[t]["discard"] == deck["discard"]
        orders.add(tuple(tuple(d["draw"]) for d in det.decks.values()))
        assert set(det.commits) == set(st.commits)  # who has committed is public
        for hid, com in det.commits.items():
            if hid == mine:
                assert com == st.commits[hid]
            else:
                legal = {c.text for c in A.commit_options(det, det.figures[hid])}
                assert " ".join(("commit", hid, *(com["cards"] or ["rest"]))) in legal
        assert det.figures == st.figures and det.round == st.round
    assert len(orders) > 1
    assert game.to_data() == game.replay().to_data()  # determinizing changed nothing in the game


def test_copy_state_is_exact_and_independent_in_every_scenario() -> None:
    for scenario in ("crypt", "orc_camp", "golem_forge", "ogre_den", "prisoner", "random"):
        game = midgame(4, 0.5, scenario)
        rs = game.ruleset
        before = game.to_json()
        copy = rs.copy_state(game.state)
        assert copy.to_data() == game.state.to_data()
        for _ in range(40):
            seat = rs.next_seat(copy)
            if seat is None:
                break
            options = rs.legal_commands(copy, seat)
            rs.execute(copy, seat, options[-1])
        assert game.to_json() == before


def test_fast_random_games_replay_to_the_same_state() -> None:
    for seed in (7, 8):
        game = fast_random_game("cardcombat", seed)
        assert game.outcome is not None
        assert game.replay().to_json() == game.to_json()


def _full_distances(st: CCState, f: dict[str, object]) -> dict[tuple[int, int], int]:
    """Walking distances the plain way: breadth-first over the whole map through the rules' own steps."""
    start = R.pos(f)  # type: ignore[arg-type]
    blockers = {R.pos(g) for g in R.foes(st, f)}  # type: ignore[arg-type]
    dist = {start: 0}
    queue = [start]
    for c in queue:
        for dx, dy in R.KING:
            n = (c[0] + dx, c[1] + dy)
            if n not in dist and n not in blockers and R.step_ok(st, c, n):
                dist[n] = dist[c] + 1
                queue.append(n)
    return dist


@pytest.mark.parametrize("scenario", ["crypt", "golem_forge", "prisoner"])
def test_distances_found_on_demand_match_the_whole_map(scenario: str) -> None:
    game = midgame(6, 0.5, scenario)
    st: CCState = game.state
    w, h = R.size(st)
    squares = [(x, y) for y in range(-1, h + 1) for x in range(-1, w + 1)]
    for f in R.alive(st):
        full = _full_distances(st, f)
        lazy = R.distance_map(st, f, avoid_traps=False)
        # asked square by square, in an order that jumps about, then listed whole
        for c in sorted(squares, key=lambda c: (c[0] * 7 + c[1] * 3) % 11):
            assert (c in lazy) == (c in full)
            assert lazy.get(c) == full.get(c)
        assert dict(lazy) == full


def test_a_searchs_copies_keep_their_walks_and_every_answer_is_the_whole_maps() -> None:
    # A search's copies (CCState.scratch) keep each walk they ask for, per thread, and later positions with
    # the figure on the same square and the same foes get it back, grown further as asked. Every answer
    # must still be a fresh whole-map walk's, in positions reached by playing on, with the foes moved.
    compared = kept = 0
    for seed in (3, 4):
        game = midgame(seed, 0.0, "crypt")
        st: CCState = game.ruleset.copy_state(game.state)
        st.scratch = True
        rng = Rng(seed=seed)
        asked: dict[int, object] = {}  # by id, holding each walk so that no id is reused
        for _ in range(200):
            if st.result is not None:
                break
            w, h = R.size(st)
            for f in R.alive(st):
                walk = R.distance_map(st, f, avoid_traps=False)
                kept += id(walk) in asked
                asked[id(walk)] = walk
                full = _full_distances(st, f)
                for c in [(x, y) for y in range(h) for x in range(w)][rng.below(w * h) :: 7]:
                    assert walk.get(c) == full.get(c)
                    compared += 1
            seat = game.ruleset.next_seat(st)
            assert seat is not None
            options = game.ruleset.legal_commands(st, seat)
            game.ruleset.execute(st, seat, options[rng.below(len(options))])
    assert compared > 2000
    assert kept > 100  # the same walk did come back


def test_the_walks_a_searchs_copies_keep_are_not_shared_between_threads() -> None:
    # A walk kept for a search's copy grows as it is asked; the bot also lists moves in a render thread.
    game = midgame(3, 0.3)
    st: CCState = game.ruleset.copy_state(game.state)
    st.scratch = True
    f = R.alive(st)[0]
    here = R.distance_map(st, f, avoid_traps=False)
    assert R.distance_map(st, f, avoid_traps=False) is here
    there = []
    thread = threading.Thread(target=lambda: there.append(R.distance_map(st, f, avoid_traps=False)))
    thread.start()
    thread.join()
    assert there[0] is not here
    assert dict(there[0]) == dict(here)


@pytest.mark.parametrize(("seed", "fraction"), [(1, 0.3), (2, 0.6), (5, 0.8)])
def test_a_game_reloaded_from_its_saved_data_gets_the_live_games_decision(seed: int, fraction: float) -> None:
    # The search skips the saved order on its determinized copies (CCState.scratch); what it plays must
    # still not depend on whether the game was just played or read back from the store.
    game = midgame(seed, fraction)
    seat = game.next_bot_seat()
    assert seat is not None
    reloaded = load_game(game.to_json())
    searcher = Searcher(game.ruleset, Budget(playouts=60, depth=8))
    live = searcher.choose(game.state, seat, seed=11)
    again = searcher.choose(reloaded.state, seat, seed=11)
    assert live.command.text == again.command.text
    assert live.visits == again.visits


def test_only_the_searchs_determinized_copies_skip_the_saved_order() -> None:
    game = midgame(6, 0.5)
    seat = game.next_bot_seat()
    assert seat is not None
    rs = game.ruleset
    assert not game.state.scratch and not game.copy().state.scratch
    assert not rs.copy_state(game.state).scratch
    det = rs.determinize(game.state, seat, Rng(seed=1))
    assert det.scratch
    # A live game keeps the mappings the rules walk in saved order, command after command, as a reloaded
    # one has them (each figure's own keys excepted: test_cardcombat_saved_order).
    for _ in range(30):
        s = game.next_bot_seat()
        if s is None:
            break
        game.apply(s, game.legal_commands(s)[0])
        assert list(game.state.figures) == sorted(game.state.figures)
        assert all(list(f["st"]) == sorted(f["st"]) for f in game.state.figures.values())
        assert all(
            list(f.get("cooldown", {})) == sorted(f.get("cooldown", {})) for f in game.state.figures.values()
        )


def test_commands_are_the_same_in_every_deal_until_the_mark_of_hidden_facts_in_play_changes() -> None:
    # The search lists a tree node once for the playouts that reach it with the mark they started with
    # (Ruleset.hidden_in_play: the dice drawn, the round, its phase). So from a position and any deal of what
    # one seat cannot know, the same commands must give every seat the same legal commands until the mark
    # changes. It changes at the reveal, where the deal shows: there some deal's commands differ.
    rs = RULESETS["cardcombat"]
    compared = differed_after = 0
    for seed in range(6):
        full = midgame(seed, 1.0)
        log = [(e.seat, e.text) for e in full.log]
        game = new_game("cardcombat", scenario="orc_camp", seed=seed, seats=SEATS)
        for i, (seat, text) in enumerate(log):
            if i % 2 == 0:
                for k in range(4):
                    real = rs.copy_state(game.state)
                    det = rs.determinize(game.state, seat, Rng(seed=100 * i + k))
                    mark = rs.hidden_in_play(det)
                    assert isinstance(mark, tuple)
                    for later_seat, later_text in log[i:]:
                        rs.execute(real, later_seat, rs.parse(real, later_seat, later_text))
                        rs.execute(det, later_seat, rs.parse(det, later_seat, later_text))
                        listed = [
                            [c.text for c in rs.legal_commands(s, who)] for s in (real, det) for who in SEATS
                        ]
                        if rs.hidden_in_play(det) != mark:
                            # no die drawn on the way: the reveal alone made the commands differ
                            differed_after += det.rng.counter == mark[0] and listed[:3] != listed[3:]
                            break
                        assert listed[:3] == listed[3:], (seed, i, k)
                        compared += 1
            game.apply(seat, text)
    assert compared > 300
    assert differed_after > 0
