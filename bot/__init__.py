"""Escapade's Discord adapter. :func:`bot.client.create_bot` builds the configured bot without logging
in."""
