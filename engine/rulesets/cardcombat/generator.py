"""The random scenario generator: a name, three rules, an objective, a reward, four enemy entries scaled by
level and a square map, all drawn from the game's generator (so a seed always gives the same scenario)."""

from __future__ import annotations

from typing import Any

from engine.dice import Rng
from engine.rulesets.cardcombat.content import (
    ADJECTIVES,
    NOUNS,
    OBJECTIVES,
    PLACES,
    REWARDS,
    RULES,
    connected,
)

GROUPS = ("orc", "orc_ranger", "skeleton", "shadow", "earth_golem", "flesh_golem", "gargoyle", "naga")
BIG = ("ogre", "giant", "wraith_knight", "ice_troll", "corrupted_elemental")
WIDTH, HEIGHT = 14, 10
PER_HERO, FREE_HEROES = 0.5, 1  # each group: a Captain plus one per two heroes beyond the first (tuned)


def pick(rng: Rng, seq: tuple[str, ...] | list[str]) -> str:
    """A uniform element of ``seq``."""
    return seq[rng.below(len(seq))]


def generate(rng: Rng, level: int) -> dict[str, Any]:
    """A scenario dict (as the state keeps it) for ``level``."""
    name = f"{pick(rng, PLACES)} of {pick(rng, ADJECTIVES)} {pick(rng, NOUNS)}"
    rule_pool = sorted(RULES)
    rules = sorted({pick(rng, rule_pool) for _ in range(3)})  # repeats allowed, as on the site
    objective = pick(rng, sorted(OBJECTIVES))
    reward = pick(rng, sorted(REWARDS))
    groups: list[str] = []
    while len(groups) < 3:
        g = pick(rng, GROUPS)
        if g not in groups:
            groups.append(g)
    # The site's 4th entry is a big enemy; the first three groups and the boss make the four entries.
    boss = pick(rng, BIG)
    rows = make_map(rng, len(groups))
    text, rounds = OBJECTIVES[objective]
    return {
        "id": "random", "name": name, "level": level, "rounds": rounds, "objective": "treasure" if objective == "treasure_horde" else "kill_all",
        "generated_objective": objective, "rules": rules, "reward": reward, "groups": groups, "boss": boss,
        "rows": rows, "summary": f"{text} Reward: {REWARDS[reward]}", "per_hero": PER_HERO,
        "free_heroes": FREE_HEROES,
    }  # fmt: skip


def make_map(rng: Rng, n_groups: int) -> list[str]:
    """A walled 14x10 map: random wall stubs and traps, heroes on the left, spawns on the right, a wall across
    with one or two doors between them, every floor square connected once the doors are open (retries until
    it is)."""
    while True:
        grid = [
            ["#" if x in (0, WIDTH - 1) or y in (0, HEIGHT - 1) else "." for x in range(WIDTH)]
            for y in range(HEIGHT)
        ]
        for _ in range(5):
            x, y = 3 + rng.below(WIDTH - 6), 1 + rng.below(HEIGHT - 2)
            horizontal = rng.below(2) == 0
            for k in range(1 + rng.below(3)):
                cx, cy = (x + k, y) if horizontal else (x, y + k)
                if 0 < cx < WIDTH - 1 and 0 < cy < HEIGHT - 1:
                    grid[cy][cx] = "#"
        for _ in range(3):
            x, y = 3 + rng.below(WIDTH - 6), 1 + rng.below(HEIGHT - 2)
            if grid[y][x] == ".":
                grid[y][x] = "^"
        for i, (x, y) in enumerate(((1, 1), (2, 1), (1, 2), (2, 2))):
            grid[y][x] = str(i + 1)
        spots = [(WIDTH - 3, 2), (WIDTH - 4, HEIGHT - 3), (WIDTH // 2 + 1, HEIGHT - 2)]
        for i in range(n_groups):
            x, y = spots[i]
            grid[y][x] = chr(97 + i)
            grid[y][x - 1] = chr(97 + i)
        grid[HEIGHT // 2][WIDTH - 2] = "B"
        add_doors(rng, grid)
        rows = ["".join(r) for r in grid]
        if connected(rows):
            return rows


def add_doors(rng: Rng, grid: list[list[str]]) -> None:
    """Wall the heroes' side (columns 1-3) off from the enemies' with a wall down a column 4-6 (left of
    every spawn) and two openings at least three rows apart: the first a closed door, the second a door or
    an open gap, even odds. The squares either side of an opening are floor, so each is a doorway."""
    x = 4 + rng.below(3)
    first = 1 + rng.below(HEIGHT - 2)
    others = [y for y in range(1, HEIGHT - 1) if abs(y - first) >= 3]
    second = others[rng.below(len(others))]
    for y in range(1, HEIGHT - 1):
        grid[y][x] = "#"
    grid[first][x] = "D"
    grid[second][x] = "D" if rng.below(2) == 0 else "."
    for y in (first, second):
        for side in (x - 1, x + 1):
            if grid[y][side] == "#":
                grid[y][side] = "."
