"""Every ruleset, imported here so the registry is filled when ``engine`` is imported."""

from engine.rulesets import cardcombat, escape, escapepath, heist, skirm  # noqa: F401
