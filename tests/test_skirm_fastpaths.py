"""Skirm's fast paths agree with the plain rules: memoised sight masks with the exact corner geometry,
the bucketed reach with a textbook Dijkstra over the rules' step costs, lazy listing with the full list."""

from __future__ import annotations

import heapq
import random
from collections import Counter

import pytest

from engine.ai.random_policy import Picker
from engine.ai.selfplay import fast_random_game
from engine.geometry.corners import (
    blocked_lines,
    clear_line,
    inset_corners,
    scaled_cell,
    scaled_side,
    sight_count_boxes,
    two_lines,
)
from engine.geometry.square import Cell
from engine.rulesets.skirm import actions as A
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import sampler
from engine.rulesets.skirm.content import SIZE, maps
from engine.rulesets.skirm.state import STANDING, SkirmState, Unit


def positions(seed: int) -> list[SkirmState]:
    """Mid-game states of a few random games (some with doors flipped at random)."""
    rng = random.Random(seed)
    out = []
    for cut in (40, 70, 100, 130):
        st = fast_random_game("skirm", seed, max_commands=cut).state
        for k in st.doors:
            if rng.random() < 0.5:
                st.doors[k] = not st.doors[k]
        out.append(st)
    return out


def sees_reference(st: SkirmState, a: Cell, b: Cell, ignore: tuple[str, ...]) -> bool:
    """Two-lines sight from every blocker's box, counted by the exact geometry (no memo, no masks)."""
    m = maps()[B.bmap(st).id]
    top = max(m.height[a], m.height[b])
    walls = sorted(m.high) + sorted(k for k in m.low if max(m.height[k[0]], m.height[k[1]]) + 1 >= top + 2)
    boxes = [scaled_side(k) for k in walls]
    boxes += [scaled_cell(c) for c, t in m.terrain.items() if t == "X" or m.height[c] >= top + 2]
    boxes += [scaled_side(k) for k, is_open in st.doors.items() if not is_open]
    boxes += [
        scaled_cell(u.pos)
        for u in st.units.values()
        if u.state == STANDING and u.pos is not None and u.id not in ignore and u.pos not in (a, b)
    ]
    return sight_count_boxes(a, b, boxes) >= 2


@pytest.mark.parametrize("seed", [3, 8])
def test_memoised_sight_agrees_with_the_exact_geometry(seed: int) -> None:
    rng = random.Random(seed)
    checked = seen = 0
    for st in positions(seed):
        units = [u for u in st.units.values() if u.pos is not None]
        open_squares = [c for c in B.bmap(st).terrain if not B.solid(st, c)]
        for u in units:
            assert u.pos is not None
            targets = [v.pos for v in units if v.pos is not None] + rng.sample(open_squares, 12)
            for t in targets:
                if t == u.pos:
                    continue
                target_unit = next((v for v in units if v.pos == t), None)
                ignore = (u.id, target_unit.id) if target_unit else (u.id,)
                got = B.sees(st, u.pos, t, ignore=ignore)
                assert got == sees_reference(st, u.pos, t, ignore), (u.pos, t)
                checked += 1
                seen += got
    assert checked > 200 and 0 < seen < checked  # both answers occur


def test_blocked_line_masks_match_clear_line() -> None:
    rng = random.Random(5)
    for _ in range(400):
        a = (rng.randrange(SIZE), rng.randrange(SIZE))
        b = (rng.randrange(SIZE), rng.randrange(SIZE))
        if a == b:
            continue
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        box = scaled_cell((x, y)) if rng.random() < 0.5 else scaled_side(((x, y), (x + 1, y)))
        mask = blocked_lines(a, b, box)
        for i, p in enumerate(inset_corners(a)):
            for j, q in enumerate(inset_corners(b)):
                assert bool(mask >> (4 * i + j) & 1) == (not clear_line(p, q, [box]))
        clear = 0xFFFF & ~mask
        best = max(bin(clear >> (4 * i) & 15).count("1") for i in range(4))
        assert two_lines(clear) == (best >= 2)


def reach_reference(st: SkirmState, u: Unit, budget: int, nimble: bool, ranger: bool) -> dict[Cell, int]:
    """The rulebook's reach by a heap Dijkstra over :func:`B.step_cost`, squares -> cheapest cost."""
    assert u.pos is not None
    occ = B.occupancy(st)
    danger = set()  # squares next to a Standing enemy
    for c, v in occ.items():
        if v.seat != u.seat and v.state == STANDING and not nimble:
            danger.update(B.adjacent_cells(st, c))
    best = {u.pos: 0}
    heap = [(0, u.pos)]
    while heap:
        cost, c = heapq.heappop(heap)
        if cost > best[c]:
            continue
        if c != u.pos and not nimble and ((c in occ and occ[c].seat != u.seat) or c in danger):
            continue
        for n in B.around(c):
            step = B.step_cost(st, c, n, ranger)
            if step is None or cost + step > budget:
                continue
            if n[0] != c[0] and n[1] != c[1] and ((n[0], c[1]) in occ or (c[0], n[1]) in occ):
                continue
            if n in occ and occ[n].seat != u.seat and not nimble:
                continue
            if cost + step < best.get(n, budget + 1):
                best[n] = cost + step
                heapq.heappush(heap, (cost + step, n))
    return {c: n for c, n in best.items() if c != u.pos and c not in occ}


@pytest.mark.parametrize("seed", [4, 9])
def test_reach_and_paths_agree_with_a_plain_dijkstra(seed: int) -> None:
    checked = 0
    for st in positions(seed):
        for u in st.units.values():
            if not B.on_map(u):
                continue
            for nimble in (False, True):
                for ranger in (False, True):
                    for budget in (4, 3, 1, 2):  # a larger budget first: smaller ones reuse its exploration
                        want = reach_reference(st, u, budget, nimble, ranger)
                        got = B.move_squares(st, u, budget, nimble=nimble, ranger=ranger)
                        assert got == sorted(want)
                        for dest, cost in want.items():
                            path = B.move_path(st, u, budget, dest, nimble=nimble, ranger=ranger)
                            assert path is not None and path[0] == u.pos and path[-1] == dest
                            steps = [
                                B.step_cost(st, x, y, ranger) for x, y in zip(path, path[1:], strict=False)
                            ]
                            assert None not in steps and sum(s for s in steps if s is not None) == cost
                            checked += 1
                        assert u.pos is not None
                        assert B.move_path(st, u, budget, u.pos, nimble=nimble, ranger=ranger) is None
    assert checked > 500


@pytest.mark.parametrize("seed", [2, 6])
def test_the_sampler_picks_what_the_full_list_holds_at_that_index(seed: int) -> None:
    for st in positions(seed):
        seat = sampler.next_seat(st)
        if seat is None:
            continue
        full = A.legal(st, seat)
        groups = A.listing(st, seat)
        assert [c.text for g in groups for c in g] == [c.text for c in full]
        for i, c in enumerate(full):
            assert A.pick(groups, i).text == c.text
        picked = sampler.sample(st, seat, Picker(seed))
        assert picked is not None and picked.text in {c.text for c in full}


def refused_verbs(st: SkirmState, seat: str) -> set[str]:
    """The verbs of the sampler's unchecked candidates that are not legal commands."""
    return {
        g.make(x).verb
        for g in A.listing(st, seat, unchecked=True)
        if g.allows is not None and g.make is not None
        for x in g.items
        if not g.allows(x)
    }


def positions_with_refused_shots(
    seed: int, wanted: int, verbs: frozenset[str] = frozenset({"shoot"}), games: int = 40
) -> list[tuple[SkirmState, str]]:
    """States of random games where some unchecked candidate of one of ``verbs`` is not legal (by default a
    ranged attack in range with no line of sight, a squadmate in a blast's square, ...): the sampler's
    unchecked candidates hold more than the legal list."""
    found: list[tuple[SkirmState, str]] = []
    for k in range(games):
        game = fast_random_game("skirm", seed + k, max_commands=1)
        st = game.state
        picker = Picker(seed + k)
        while len(found) < wanted:
            seat = sampler.next_seat(st)
            if seat is None:
                break
            candidates = sum(len(g.items) for g in A.listing(st, seat, unchecked=True))
            if candidates > len(A.legal(st, seat)) and refused_verbs(st, seat) & verbs:
                found.append((st, seat))  # this game stops here: the state stays as found
                break
            command = sampler.sample(st, seat, picker)
            assert command is not None
            game.ruleset.execute(st, seat, command)
        if len(found) >= wanted:
            break
    return found


@pytest.mark.parametrize(
    "verb", ["shoot", "order", "skill"], ids=["shots", "orders out of sight", "hexes out of sight"]
)
def test_the_sampler_stays_uniform_over_legal_commands_when_candidates_are_refused(verb: str) -> None:
    # The sampler checks only the ranged attack, Command order or hex it draws; a refused one is drawn
    # again, so every legal command must stay equally likely and no refused candidate may ever come out.
    spots = positions_with_refused_shots(11, 3, frozenset({verb}), games=400)
    assert len(spots) == 3
    for st, seat in spots:
        legal = [c.text for c in A.legal(st, seat)]
        unchecked = A.listing(st, seat, unchecked=True)
        assert [c.text for g in unchecked for c in g] == legal  # iterating checks every candidate
        picker = Picker(5)
        draws = [sampler.sample(st, seat, picker) for _ in range(400 * len(legal))]
        counts = Counter(c.text for c in draws if c is not None)
        assert set(counts) == set(legal)
        for text in legal:
            assert 0.75 * 400 < counts[text] < 1.25 * 400, text
