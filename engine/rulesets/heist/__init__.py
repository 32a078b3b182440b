"""River City heists: a co-operative hex-tile heist game for 3-4 players with a campaign."""

from engine.rulesets.heist import ruleset  # noqa: F401
