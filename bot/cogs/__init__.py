"""Slash-command cogs: lobby and lifecycle, play, rules help."""
