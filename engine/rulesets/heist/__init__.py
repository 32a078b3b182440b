"""River City heists: a co-operative hex-tile heist game for 3-4 players with a campaign."""
