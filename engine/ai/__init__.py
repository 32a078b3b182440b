"""Players the game controls. A policy sees only ``view(seat)`` and picks from ``legal_commands(seat)``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.ai.random_policy import choose_command

if TYPE_CHECKING:
    pass

__all__ = ["choose_command"]
