"""Dark Realms: co-operative card-driven combat for 1-4 heroes (registered as ``cardcombat``)."""

from engine.rulesets.cardcombat import ruleset as _ruleset  # noqa: F401  (registers the ruleset)
