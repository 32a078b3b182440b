"""Escape Path: a team of characters against a swarm of bogies, on a square grid with facing."""

from engine.rulesets.escapepath.ruleset import EscapePath

__all__ = ["EscapePath"]
