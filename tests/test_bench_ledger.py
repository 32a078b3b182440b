"""The strength bench's ledger adds games up across runs, and its self-harm count follows the issue's
definition: an own loss counts only when another legal command would have avoided it."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.test_ai_self_harm import _activation, _harming

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_ai.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ai_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_the_table_counts_each_game_once_and_sums_results_and_self_harm(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    ledger = bench.Ledger(path, think=None, revision="abc1234")
    row = "escape isc=hard vs easy"
    ledger.record(row, 10000, "infiltration", "won", 500, 0)
    ledger.record(row, 10000, "infiltration", "won", 500, 0)  # the same game replayed: counted once
    ledger.record(row, 10001, "evasion", "lost", 500, 1)
    ledger.record(row, 10002, "datatheft", "drew", 500, 0, forced=1)
    ledger.record(row, 10003, "infiltration", "won", 150, 0)  # another budget: another line
    ledger.record(row, 10000, "infiltration", "lost", 500, 0, depth=14)  # a seat's own depth: another too
    bench.Ledger(path, think=None, revision="def5678").record(row, 10004, "evasion", "won", 500, 0)
    bench.table_section(path, "isc=hard")
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith(row)]
    assert len(lines) == 3
    deeper = next(ln for ln in lines if "500 playouts, depth 14" in ln)
    assert re.search(r"n=1\s+W\s+0 D\s+0 L\s+1", deeper), deeper
    lines.remove(deeper)
    full = next(ln for ln in lines if "500 playouts" in ln)
    assert re.search(r"n=4\s+W\s+2 D\s+1 L\s+1\s+win/decided\s+66\.7%", full), full
    assert "self-harm 1 (forced 1)" in full
    assert "seeds 10000-10004" in full and "commits 2" in full
    cut = next(ln for ln in lines if "150 playouts" in ln)
    assert re.search(r"n=1\s+W\s+1 D\s+0 L\s+0", cut), cut


def test_the_table_lists_the_sides_rows_short_of_their_games_and_where_to_go_on(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    ledger = bench.Ledger(path, think=None, revision="abc1234")
    row = "skirm player1=hard vs easy"
    for seed in range(10000, 10200):
        if seed != 10005:
            ledger.record(row, seed, "seize", "won", 500, 0)
    ledger.record(row, 10005, "seize", "won", 100, 0)  # a cut budget does not fill the row
    full = "skirm player1=normal vs easy"
    for seed in range(10000, 10200):
        ledger.record(full, seed, "seize", "won", 150, 0)
    bench.table_section(path, "skirm player1=")
    out = capsys.readouterr().out
    short = out.split("sides rows short of 200 games", 1)[1].splitlines()[1:]
    assert f"  {row} 199/200 (next seed 10005)" in short
    assert "  skirm player1=hard vs random 0/200 (next seed 10000)" in short
    assert not any(full in line for line in short)
    assert all("player1=" in line for line in short) and len(short) == 3  # hard vs easy, both vs random


def test_a_ledger_with_no_path_writes_nothing(bench: ModuleType, tmp_path: Path) -> None:
    bench.Ledger(None, think=None).record("row", 1, None, "won", None, 0)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("ruleset", ["skirm", "escape"])
def test_an_own_loss_is_self_harm_only_when_another_command_avoids_it(
    bench: ModuleType, ruleset: str
) -> None:
    game, seat = _activation(ruleset, seed=4)
    options = [c for c in game.legal_commands(seat) if c.verb not in ("react", "undo")]
    played = options[0]
    before = bench.own_losses(game, seat)
    game.ruleset = _harming(type(game.ruleset), spared=options[-1].text)
    assert bench.avoidable(game, seat, played, options, before)
    game.ruleset = _harming(type(game.ruleset).__mro__[1], spared="no such command")
    assert not bench.avoidable(game, seat, played, options, before)
    # A lone command cannot be avoided.
    assert not bench.avoidable(game, seat, played, [played], before)


def test_mirror_rows_print_and_record_each_game_for_the_row_s_seat(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    row = next(r for r in bench.mirror_rows() if r[0].startswith("escape/infiltration"))
    budgets = {"normal": bench.Budget(2, None, 0, 1.4), "hard": bench.Budget(3, None, 0, 1.4)}
    bench.run_rows([row], 2, budgets, 9999.0, 10084, bench.Ledger(path, think=None, revision="abc1234"))
    entries = [json.loads(raw) for raw in path.read_text(encoding="utf-8").splitlines()]
    assert [(e["row"], e["seed"], e["playouts"], e["scenario"]) for e in entries] == [
        (row[0], 10084, 3, "infiltration"),
        (row[0], 10085, 3, "infiltration"),
    ]
    out = capsys.readouterr().out
    for e in entries:
        assert f"{row[0]} seed {e['seed']}: {e['result']}" in out
    # The row's summary is the Resistance's view, as the recorded results are.
    summary = next(ln for ln in out.splitlines() if ln.startswith(row[0]) and "n=2" in ln)
    counts = {r: sum(e["result"] == r for e in entries) for r in ("won", "drew", "lost")}
    assert re.search(rf"W\s+{counts['won']} D\s+{counts['drew']} L\s+{counts['lost']}\b", summary), summary


def test_the_table_scores_each_skirm_squad_over_the_pairings_it_played_either_way(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    ledger = bench.Ledger(path, think=None, revision="abc1234")
    there, back = (
        "skirm hard vs hard: shock (player1) vs coven",
        "skirm hard vs hard: coven (player1) vs shock",
    )
    ledger.record(there, 10004, None, "won", 500, 0)
    ledger.record(there, 10004, None, "won", 500, 0)  # a replay counts once
    ledger.record(there, 10005, None, "drew", 500, 0)
    ledger.record(back, 10004, None, "won", 500, 0)
    ledger.record(back, 10005, None, "lost", 500, 0)
    ledger.record(back, 10006, None, "won", 100, 0)  # another budget is scored apart
    bench.table_section(path, "skirm hard vs hard")
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("skirm faction scores")]
    full = next(ln for ln in lines if "at 500 playouts:" in ln)
    # shock: won 1, drew 1/2 as player1; lost 1, won 1 as player2 -> 2.5 of 4; coven 1.5 of 4.
    assert full.endswith("shock 0.62 (2.5 of 4), coven 0.38 (1.5 of 4)"), full
    cut = next(ln for ln in lines if "at 100 playouts:" in ln)
    assert cut.endswith("coven 1.00 (1 of 1), shock 0.00 (0 of 1)"), cut
    assert len(lines) == 2
