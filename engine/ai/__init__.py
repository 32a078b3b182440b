"""Players the game controls: the weighted random policy (easy) and the search player (normal, hard).

Modules here work on a ruleset and a state, never on :class:`engine.game.Game`, so ``engine.game`` imports
them without a cycle; :mod:`engine.ai.selfplay` (whole self-play games) is the one module above the game.
"""
