"""ESCAPE, 1 vs 1: the I.S.C. against the Resistance in L.A.B. 03."""

from engine.rulesets.escape.ruleset import Escape

__all__ = ["Escape"]
