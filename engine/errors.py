"""The one error hierarchy of the engine.

Every refusal a player can cause is a :class:`RuleError`; its message is shown to that player as is,
so it names the rule that refused the command. A refused command changes nothing.
"""

from __future__ import annotations


class RuleError(ValueError):
    """A command or request the rules refuse. The message is user-facing."""


class NotYourTurn(RuleError):
    """The seat asked to act while no open decision is theirs."""


class IllegalCommand(RuleError):
    """The command is understood but the rules forbid it now."""


class AmbiguousCommand(RuleError):
    """The text matches more than one thing (two units, two doors...)."""


class UnknownCommand(RuleError):
    """The text is not a command of this ruleset at all."""


class GameOver(RuleError):
    """The game has ended; no further command applies."""


class SetupError(RuleError):
    """A new game was asked for with options the ruleset does not offer."""


class ContentError(Exception):
    """Content data (maps, rosters, decks) is malformed; the message names file and line."""
