"""Escapade's rules engine: pure, deterministic, typed. No Discord, SQLite or Pillow in here.

Public face::

    from engine import new_game, load_game, RULESETS, RuleError
    game = new_game("escape", scenario="infiltration", seats={"resistance": "u1", "isc": "u2"}, seed=7)
    game.awaiting(); game.legal_commands("isc"); game.apply("isc", "end"); game.outcome
"""

from engine import rulesets as _rulesets  # noqa: F401  (registers every ruleset)
from engine.core import Command, Decision, Event, Hints, Outcome, ScenarioInfo
from engine.errors import (
    AmbiguousCommand,
    ContentError,
    GameOver,
    IllegalCommand,
    NotYourTurn,
    RuleError,
    SetupError,
    UnknownCommand,
)
from engine.game import Game, LogEntry, load_game, new_game
from engine.ruleset import RULESETS, OptionSpec, Ruleset, find_ruleset
from engine.scene import Scene

__all__ = [
    "RULESETS",
    "AmbiguousCommand",
    "Command",
    "ContentError",
    "Decision",
    "Event",
    "Game",
    "Hints",
    "GameOver",
    "IllegalCommand",
    "LogEntry",
    "NotYourTurn",
    "OptionSpec",
    "Outcome",
    "RuleError",
    "Ruleset",
    "ScenarioInfo",
    "Scene",
    "SetupError",
    "UnknownCommand",
    "find_ruleset",
    "load_game",
    "new_game",
]
