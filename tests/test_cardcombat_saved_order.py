"""Dark Realms keeps its mappings in saved order only where the rules walk them.

``in_saved_order`` runs after every command so that a live game goes on exactly as the same game reloaded
from its snapshot (canonical JSON sorts keys). For speed it leaves out each figure's own mapping and the
scenario. These tests shuffle exactly those parts after every command and check that no game changes (its
commands, its narration, its final state), and that the check notices a shuffle of a part the rules read.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine import RULESETS
from engine.ai.selfplay import fast_random_game
from engine.core import Command, Event
from engine.rulesets.cardcombat import ruleset as cardcombat_ruleset
from engine.rulesets.cardcombat.state import CCState

SEEDS = range(2000, 2060)


def _shuffled(mapping: dict[str, Any], rng: random.Random) -> None:
    items = list(mapping.items())
    rng.shuffle(items)
    mapping.clear()
    mapping.update(items)


def _mappings_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every mapping in ``value``, itself included, at any depth."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield v
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def _unwalked(state: CCState) -> Iterator[dict[str, Any]]:
    """What ``in_saved_order`` leaves out: each figure's own mapping, the mappings inside its lists (its
    items), and the scenario at any depth."""
    for figure in state.figures.values():
        yield figure
        for v in figure.values():
            if isinstance(v, list):
                yield from _mappings_in(v)
    yield from _mappings_in(state.scenario)


def _play(seed: int, monkeypatch: pytest.MonkeyPatch, shuffle: Callable[[CCState], Iterator[dict[str, Any]]] | None,
          *, use_sampler: bool) -> tuple[list[tuple[str, str]], list[str], str]:  # fmt: skip
    """One random game: its commands, everything it narrated and its final state (canonical JSON)."""
    real = cardcombat_ruleset.in_saved_order
    rng = random.Random(seed)
    rs = RULESETS["cardcombat"]
    told: list[str] = []

    def execute_and_keep_narration(state: CCState, seat: str, command: Command) -> list[Event]:
        events = type(rs).execute(rs, state, seat, command)
        told.extend(e.text for e in events)
        return events

    def in_saved_order_then_shuffle(state: CCState, *, whole: bool = False) -> None:
        real(state, whole=whole)
        if shuffle is not None:
            for mapping in list(shuffle(state)):
                _shuffled(mapping, rng)

    with monkeypatch.context() as m:
        m.setattr(cardcombat_ruleset, "in_saved_order", in_saved_order_then_shuffle)
        m.setattr(rs, "execute", execute_and_keep_narration)
        game = fast_random_game("cardcombat", seed, use_sampler=use_sampler)
    return [(e.seat, e.text) for e in game.log], told, json.dumps(game.state.to_data(), sort_keys=True)


@pytest.mark.parametrize("use_sampler", [True, False], ids=["sampler", "listed"])
def test_shuffling_what_is_not_kept_in_order_changes_no_game(
    monkeypatch: pytest.MonkeyPatch, use_sampler: bool
) -> None:
    for seed in SEEDS:
        plain = _play(seed, monkeypatch, None, use_sampler=use_sampler)
        shuffled = _play(seed, monkeypatch, _unwalked, use_sampler=use_sampler)
        assert plain[1], "the narration was not kept"
        assert shuffled == plain, f"seed {seed}"


def test_the_check_notices_a_shuffled_part_the_rules_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    # The figures' order (who acts and is hit first) is read by the rules: shuffling it (and the statuses)
    # instead must change some of the same games, or the test above could not fail.
    def walked(state: CCState) -> Iterator[dict[str, Any]]:
        yield state.figures
        for figure in state.figures.values():
            yield figure["st"]

    changed = [
        seed
        for seed in SEEDS
        if _play(seed, monkeypatch, walked, use_sampler=True)
        != _play(seed, monkeypatch, None, use_sampler=True)
    ]
    assert len(changed) >= len(SEEDS) // 4
