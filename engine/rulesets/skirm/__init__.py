"""Skirm: a 1 vs 1 miniatures skirmish game on a 12x12 grid (registered as ``skirm``)."""

from engine.rulesets.skirm import ruleset as _ruleset  # noqa: F401  (registers the ruleset)
