"""Dark Realms content as data: races, classes, action cards, enemies, speed decks, items, scenarios.

Numbers and names the public rule pages give carry over (the damage table, the race + class stat sums,
the level-1 cap of 5 on attack stats, the observed enemy numbers per level, the four example items, the
random scenario generator's pools); everything else is authored here. Cards and enemy actions are written
in a small action notation that :func:`parse_action` reads and checks at load time, so a typo in the data
is a ContentError naming the entry, never a silent no-op.

Action notation (one action; a card lists several separated by ``;``, resolved in order):

- ``move`` (roll a die), ``move 3`` (up to 3), ``move +2`` (die + 2)
- ``melee`` / ``ranged`` with a damage form: nothing (the stat), ``+X`` / ``-X`` (stat plus X),
  ``=X`` (fixed X, still rolls for miss and pierce), ``d`` (the die itself: no miss, no pierce);
  options: ``rN`` fixed range, ``tN`` targets, ``missN`` (misses on 1..N), ``fN=M`` (die face N, 2-6,
  counts as stat + M instead of the table's value: ``f2=-1`` makes a 2 "-1"), and statuses given to the
  target after the attack (``wound poison mark paralyze disarm stun confuse``), ``pushN``, ``pullN``
- ``heal N self|ally`` (``rN`` range for ally), ``cast <status> self|ally|foe`` (``rN`` fixed range,
  otherwise rolled like a ranged attack's range), ``shield N`` (fixed defence N to the end of the round)
- ``teleport N``, ``summon <kind>``, ``rift <element>``, ``xpN`` (experience when performed)
- a rift element before a colon gates the action: ``fire: melee +2``
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.errors import ContentError
from engine.grammar import joined, with_article

ELEMENTS = ("fire", "water", "wind", "earth", "lightning", "darkness", "light")
STATUSES = (
    "adrenaline",
    "confused",
    "poison",
    "wound",
    "mark",
    "paralyze",
    "disarm",
    "stunned",
    "strengthened",
)
TARGET_STATUSES = {"wound": "wound", "poison": "poison", "mark": "mark", "paralyze": "paralyze",
                   "disarm": "disarm", "stun": "stunned", "confuse": "confused"}  # fmt: skip


@dataclass(frozen=True)
class Action:
    """One line of a card: what it does and its parameters (see the module notation)."""

    kind: str  # move melee ranged heal cast shield teleport summon rift
    dmg: str = "stat"  # stat | plus | fixed | roll (attacks); move: roll | fixed | plus
    x: int = 0  # damage modifier / fixed value / move or heal amount / teleport range
    range: int = 0  # fixed range (0: rolled, for ranged attacks and casts)
    targets: int = 1
    miss: int = 1  # misses on 1..miss
    statuses: tuple[str, ...] = ()
    push: int = 0
    pull: int = 0
    who: str = ""  # heal / cast: self, ally, foe
    what: str = ""  # cast: the status; summon: the kind; rift: the element
    needs: str = ""  # rift element gating the action
    xp: int = 0
    faces: tuple[tuple[int, int], ...] = ()  # (die face, modifier) replacing the damage table's entries
    text: str = ""


@dataclass(frozen=True)
class Card:
    """An action card: level, name, stamina cost (= speed), cooldown in rounds (-1: discard), actions."""

    id: str
    name: str
    owner: str  # race or class id, or enemy type
    level: int
    cost: int
    cooldown: int
    actions: tuple[Action, ...]
    replaces: str = ""  # level 2+: the level-1 card of the same owner it takes the place of


@dataclass(frozen=True)
class Origin:
    """A race or a class: its stat contribution (stamina, health, melee, ranged) and its cards."""

    id: str
    name: str
    stamina: int
    health: int
    melee: int
    ranged: int
    text: str


@dataclass(frozen=True)
class EnemyCard:
    """One card of an enemy type's speed deck: speed, movement change and its actions (an attack, perhaps a
    rift and a rift-gated action), resolved in order after the move."""

    speed: int
    move: int  # added to the type's movement stat
    actions: tuple[Action, ...]

    @property
    def text(self) -> str:
        """The card's actions as written."""
        return "; ".join(a.text for a in self.actions)


@dataclass(frozen=True)
class EnemyType:
    """An enemy type: short id prefix, rank (group / boss), defence, the observed stats table, its deck."""

    id: str
    name: str
    short: str
    rank: str  # group | boss
    defence_dice: bool
    defence_fixed: int
    flying: bool
    table: tuple[tuple[int, tuple[int, ...]], ...]  # level -> (move, cap move, hp, cap hp, str, cap str) or 3
    deck: tuple[EnemyCard, ...]


@dataclass(frozen=True)
class Item:
    """An item card. kind: augmentation, effect, weapon. ``use``: passive, turn, round_start, reroll, attack."""

    id: str
    name: str
    kind: str
    price: int
    stamina: int
    cooldown: int  # rounds before it can be used again (-1: discarded after use)
    level: int
    use: str
    effect: str  # machine effect key
    value: int
    text: str


@dataclass(frozen=True)
class Scenario:
    """A ready-made scenario: map rows, intended level, round limit, objective, rules, enemy groups."""

    id: str
    name: str
    level: int
    rounds: int
    objective: str  # kill_all | kill_boss | escape | rescue
    rules: tuple[str, ...]
    groups: tuple[str, ...]  # enemy type per spawn letter a, b, c...
    boss: str
    rows: tuple[str, ...]
    summary: str
    reward: str = ""


def parse_action(text: str, where: str) -> Action:
    """Read one action in the module's notation. Raises ContentError naming ``where`` if it is malformed."""
    src = text.strip()
    needs = ""
    if ":" in src:
        needs, src = (p.strip() for p in src.split(":", 1))
        if needs not in ELEMENTS:
            raise ContentError(f"{where}: '{needs}' is not a rift element ({', '.join(ELEMENTS)}).")
    words = src.split()
    if not words:
        raise ContentError(f"{where}: empty action.")
    kind, rest = words[0], words[1:]
    kw: dict[str, Any] = {"kind": kind, "needs": needs, "text": text.strip()}
    statuses: list[str] = []
    faces: list[tuple[int, int] | None] = []

    def bad(word: str) -> ContentError:
        return ContentError(f"{where}: '{word}' is not understood in '{text.strip()}'.")

    if kind == "move":
        kw["dmg"] = "roll"
        if rest:
            w = rest.pop(0)
            if w.startswith("+") and w[1:].isdigit():
                kw["dmg"], kw["x"] = "plus", int(w[1:])
            elif w.isdigit():
                kw["dmg"], kw["x"] = "fixed", int(w)
            else:
                raise bad(w)
    elif kind in ("melee", "ranged"):
        forms = [w for w in rest if w == "d" or w[0] in "+-="]
        if len(forms) > 1:
            raise bad(forms[1])
        for w in forms:
            rest.remove(w)
            if w == "d":
                kw["dmg"] = "roll"
            elif w[0] == "=" and w[1:].isdigit():
                kw["dmg"], kw["x"] = "fixed", int(w[1:])
            elif w[0] in "+-" and w[1:].isdigit():
                kw["dmg"], kw["x"] = "plus", int(w)
            else:
                raise bad(w)
    elif kind == "heal":
        if not rest or not rest[0].isdigit():
            raise ContentError(f"{where}: heal needs an amount.")
        kw["x"] = int(rest.pop(0))
        kw["who"] = rest.pop(0) if rest else "self"
    elif kind == "cast":
        if len(rest) < 2 or rest[0] not in STATUSES:
            raise ContentError(f"{where}: cast needs a status ({', '.join(STATUSES)}) and self/ally/foe.")
        kw["what"], kw["who"] = rest.pop(0), rest.pop(0)
    elif kind in ("shield", "teleport"):
        if not rest or not rest[0].isdigit():
            raise ContentError(f"{where}: {kind} needs a number.")
        kw["x"] = int(rest.pop(0))
    elif kind == "summon":
        if not rest or rest[0] not in SUMMONS:
            raise ContentError(f"{where}: summon needs one of {', '.join(SUMMONS)}.")
        kw["what"] = rest.pop(0)
    elif kind == "rift":
        if not rest or rest[0] not in ELEMENTS:
            raise ContentError(f"{where}: rift needs an element.")
        kw["what"] = rest.pop(0)
    else:
        raise ContentError(f"{where}: unknown action '{kind}'.")
    for w in rest:
        if w[0] == "r" and w[1:].isdigit():
            kw["range"] = int(w[1:])
        elif w[0] == "t" and w[1:].isdigit():
            kw["targets"] = int(w[1:])
        elif w.startswith("miss") and w[4:].isdigit():
            kw["miss"] = int(w[4:])
        elif w.startswith("push") and w[4:].isdigit():
            kw["push"] = int(w[4:])
        elif w.startswith("pull") and w[4:].isdigit():
            kw["pull"] = int(w[4:])
        elif w.startswith("xp") and w[2:].isdigit():
            kw["xp"] = int(w[2:])
        elif kind in ("melee", "ranged") and _face(w) is not None:
            faces.append(_face(w))
        elif w in TARGET_STATUSES and kind in ("melee", "ranged"):
            statuses.append(TARGET_STATUSES[w])
        elif w in ("self", "ally", "foe") and kind == "heal":
            kw["who"] = w
        else:
            raise bad(w)
    kw["statuses"] = tuple(statuses)
    kw["faces"] = tuple(f for f in faces if f is not None)
    if kw.get("who") and kw["who"] not in ("self", "ally", "foe"):
        raise bad(kw["who"])
    return Action(**kw)


_AFTER_HIT = {"wound": "wounded", "poison": "poisoned", "mark": "marked", "paralyze": "paralyzed",
              "disarm": "disarmed"}  # fmt: skip


def action_words(a: Action) -> str:
    """An action in players' words, from its notation: "ranged r3 t2" reads "ranged attack, range 3, up to 2
    targets"; "fire: melee +2 stun" reads "melee attack +2, the target is stunned (needs a fire rift)"."""
    who = {"self": "yourself", "ally": "an ally", "foe": "a foe"}.get(a.who, a.who)
    parts: list[str]
    if a.kind == "move":
        parts = [
            {"roll": "move a die's roll", "fixed": f"move up to {a.x}", "plus": f"move a die's roll + {a.x}"}[
                a.dmg
            ]
        ]
    elif a.kind in ("melee", "ranged"):
        damage = {
            "stat": "",
            "plus": f" {a.x:+d}",
            "fixed": f" for {a.x} damage",
            "roll": " for the die's value",
        }
        parts = [f"{a.kind} attack{damage[a.dmg]}"]
        if a.range:
            parts.append(f"range {a.range}")
        if a.targets > 1:
            parts.append(f"up to {a.targets} targets")
        if a.miss > 1:
            parts.append(f"misses on 1-{a.miss}")
        parts += [f"a {face} counts {mod:+d}" for face, mod in a.faces]
        then = [_AFTER_HIT.get(x, x) for x in a.statuses]
        then += [f"pushed {a.push}"] * bool(a.push) + [f"pulled {a.pull}"] * bool(a.pull)
        if then:
            parts.append(f"the target is {joined(then)}")
    elif a.kind == "heal":
        parts = [f"heal {who} {a.x}"]
    elif a.kind == "cast":
        parts = [f"cast {a.what} on {who}"]
    elif a.kind == "shield":
        parts = [f"shield {a.x} (defence to the end of the round)"]
    elif a.kind == "teleport":
        parts = [f"teleport up to {a.x}"]
    elif a.kind == "summon":
        parts = [f"summon {with_article(a.what)}"]
    else:  # rift
        parts = [f"open {with_article(a.what)} rift"]
    if a.kind in ("heal", "cast") and a.range:
        parts.append(f"range {a.range}")
    text = ", ".join(parts)
    return f"{text} (needs {with_article(a.needs)} rift)" if a.needs else text


def _face(word: str) -> tuple[int, int] | None:
    """``f2=-1`` -> (2, -1): a die face (2-6) and the modifier it counts as; None if ``word`` is no face."""
    if not (word.startswith("f") and "=" in word):
        return None
    face, _eq, mod = word[1:].partition("=")
    if not face.isdigit() or not 2 <= int(face) <= 6 or not mod.lstrip("+-").isdigit():
        return None
    return int(face), int(mod)


def parse_actions(text: str, where: str) -> tuple[Action, ...]:
    """A card's actions, separated by ``;``. Raises ContentError."""
    return tuple(parse_action(part, f"{where} action {i + 1}") for i, part in enumerate(text.split(";")))


# -- races and classes ---------------------------------------------------------------------------------
# (id, name, stamina, health, melee, ranged, description)
RACES: tuple[tuple[str, str, int, int, int, int, str], ...] = (
    ("human", "Human", 4, 5, 2, 2, "Steady all-rounders."),
    ("elf", "Elf", 4, 4, 1, 3, "Keen-eyed and quick with a bow."),
    ("dwarf", "Dwarf", 3, 6, 3, 1, "Hard to move, harder to kill."),
    ("halfling", "Halfling", 5, 3, 1, 2, "Small, nimble and lucky."),
    ("halforc", "Half-orc", 3, 6, 3, 1, "Brutal close-in fighters."),
    ("gnome", "Gnome", 5, 3, 1, 3, "Tinkerers with a knack for rifts."),
    ("drakkin", "Drakkin", 3, 5, 3, 2, "Dragon-blooded, breathing fire."),
    ("sylvan", "Sylvan", 4, 4, 2, 2, "Forest folk who mend and entangle."),
)
CLASSES: tuple[tuple[str, str, int, int, int, int, str], ...] = (
    ("warrior", "Warrior", 4, 6, 3, 1, "Front-line melee."),
    ("mage", "Mage", 5, 3, 1, 3, "Ranged spells and rifts."),
    ("ranger", "Ranger", 4, 4, 1, 3, "Bow shots at range, several targets."),
    ("rogue", "Rogue", 5, 4, 2, 2, "Fast strikes, wounds and poison."),
    ("cleric", "Cleric", 4, 5, 2, 1, "Heals and shields the party."),
    ("paladin", "Paladin", 3, 6, 3, 1, "Armoured, marks foes to draw their blows."),
    ("druid", "Druid", 4, 4, 2, 2, "Summons a wolf, moves foes about."),
    ("monk", "Monk", 5, 4, 3, 0, "Quick hands: stuns, pushes and many blows."),
)

# id | name | owner | level | cost | cooldown (-1 discard) | actions [| replaces]
CARDS: tuple[str, ...] = (
    # races, level 1 (two each)
    "rally | Rally | human | 1 | 2 | 1 | move 3; melee",
    "second_wind | Second Wind | human | 1 | 1 | 2 | heal 2 self; move 2",
    "swift_arrow | Swift Arrow | elf | 1 | 2 | 1 | move 2; ranged",
    "fey_step | Fey Step | elf | 1 | 1 | 2 | teleport 3",
    "stone_stance | Stone Stance | dwarf | 1 | 1 | 1 | shield 2; melee",
    "hammer_fall | Hammer Fall | dwarf | 1 | 3 | 2 | move 2; melee +1 stun",
    "slip_past | Slip Past | halfling | 1 | 1 | 1 | move +2",
    "lucky_stone | Lucky Stone | halfling | 1 | 2 | 1 | ranged r3 =3",
    "bloodrage | Bloodrage | halforc | 1 | 2 | 1 | move 2; melee +1",
    "war_shout | War Shout | halforc | 1 | 1 | 2 | cast strengthened self; move 2",
    "spark_trap | Spark Trap | gnome | 1 | 1 | 1 | rift lightning; ranged r3 d",
    "gadget_bolt | Gadget Bolt | gnome | 1 | 2 | 1 | ranged; lightning: ranged r4 =2",
    "fire_breath | Fire Breath | drakkin | 1 | 3 | 2 | ranged r2 t2 -1; rift fire",
    "scale_guard | Scale Guard | drakkin | 1 | 1 | 1 | shield 1; move 3",
    "mend | Mend | sylvan | 1 | 1 | 1 | heal 3 ally r3",
    "bramble | Bramble | sylvan | 1 | 2 | 1 | cast paralyze foe r3; move 2",
    # classes, level 1 (four each)
    "cleave | Cleave | warrior | 1 | 3 | 1 | move 2; melee t2",
    "charge | Charge | warrior | 1 | 2 | 1 | move +1; melee",
    "shield_bash | Shield Bash | warrior | 1 | 2 | 2 | melee -1 push2 stun",
    "last_stand | Last Stand | warrior | 1 | 1 | 2 | shield 2; heal 1 self",
    "firebolt | Firebolt | mage | 1 | 2 | 1 | ranged; rift fire",
    "frost_lance | Frost Lance | mage | 1 | 3 | 2 | ranged r4 +1 paralyze",
    "blink | Blink | mage | 1 | 1 | 1 | teleport 3; ranged r2 d",
    "inferno | Inferno | mage | 1 | 4 | -1 | fire: ranged r4 t3 +1 xp2; ranged r3 t2",
    "aimed_shot | Aimed Shot | ranger | 1 | 2 | 1 | ranged +1",
    "volley | Volley | ranger | 1 | 3 | 2 | ranged t2",
    "hunters_mark | Hunter's Mark | ranger | 1 | 1 | 1 | move 2; ranged r4 =1 mark",
    "pin_down | Pin Down | ranger | 1 | 2 | 2 | ranged r3 disarm",
    "backstab | Backstab | rogue | 1 | 3 | 1 | move 3; melee +2 miss2",
    "poisoned_blade | Poisoned Blade | rogue | 1 | 2 | 1 | melee poison",
    "dirty_trick | Dirty Trick | rogue | 1 | 1 | 1 | melee -1 confuse; move 2",
    "knife_throw | Knife Throw | rogue | 1 | 2 | 1 | ranged r3 wound",
    "heal_wounds | Heal Wounds | cleric | 1 | 2 | 1 | heal 4 ally r3",
    "smite | Smite | cleric | 1 | 2 | 1 | move 2; melee",
    "blessing | Blessing | cleric | 1 | 1 | 2 | cast strengthened ally r3; cast adrenaline ally r3",
    "sanctuary | Sanctuary | cleric | 1 | 3 | -1 | heal 3 self; heal 3 ally r4; light: shield 2",
    "holy_strike | Holy Strike | paladin | 1 | 3 | 1 | move 2; melee +1",
    "challenge | Challenge | paladin | 1 | 1 | 1 | cast mark self; shield 1",
    "lay_on_hands | Lay on Hands | paladin | 1 | 2 | 2 | heal 3 ally r1; melee",
    "judgement | Judgement | paladin | 1 | 2 | 2 | melee =3 wound",
    "call_wolf | Call Wolf | druid | 1 | 3 | -1 | summon wolf",
    "entangle | Entangle | druid | 1 | 2 | 1 | ranged r3 =1 paralyze pull2",
    "thorn_whip | Thorn Whip | druid | 1 | 2 | 1 | move 2; ranged r2",
    "earth_call | Earth Call | druid | 1 | 1 | 2 | rift earth; earth: heal 3 self",
    "flurry | Flurry | monk | 1 | 3 | 1 | move 2; melee; melee -1",
    "palm_strike | Palm Strike | monk | 1 | 2 | 1 | melee push2",
    "pressure_point | Pressure Point | monk | 1 | 2 | 2 | melee stun",
    "wind_step | Wind Step | monk | 1 | 1 | 1 | move +3; rift wind",
    # level 2 (one per race and class)
    "rally2 | Banner Rally | human | 2 | 2 | 1 | move 3; melee +1 | rally",
    "swift_arrow2 | Twin Arrows | elf | 2 | 3 | 1 | move 2; ranged t2 | swift_arrow",
    "stone_stance2 | Mountain Stance | dwarf | 2 | 2 | 1 | shield 3; melee +1 | stone_stance",
    "slip_past2 | Vanish | halfling | 2 | 1 | 1 | teleport 4 | slip_past",
    "bloodrage2 | Red Mist | halforc | 2 | 3 | 1 | move 3; melee +2 wound | bloodrage",
    "spark_trap2 | Arc Trap | gnome | 2 | 2 | 1 | rift lightning; ranged r4 t2 d | spark_trap",
    "fire_breath2 | Dragonfire | drakkin | 2 | 3 | 2 | ranged r3 t3 | fire_breath",
    "mend2 | Bloom | sylvan | 2 | 2 | 1 | heal 4 ally r4; heal 2 self | mend",
    "cleave2 | Whirlwind | warrior | 2 | 3 | 1 | move 2; melee t3 | cleave",
    "firebolt2 | Fireball | mage | 2 | 3 | 1 | ranged t2; rift fire | firebolt",
    "aimed_shot2 | Deadeye | ranger | 2 | 2 | 1 | ranged +2 f2=-1 | aimed_shot",
    "backstab2 | Assassinate | rogue | 2 | 3 | 1 | move 3; melee +3 miss2 wound | backstab",
    "smite2 | Radiant Smite | cleric | 2 | 2 | 1 | move 2; melee +1 confuse | smite",
    "holy_strike2 | Crusade | paladin | 2 | 3 | 1 | move 3; melee +2 | holy_strike",
    "thorn_whip2 | Briar Lash | druid | 2 | 2 | 1 | move 2; ranged r3 +1 poison | thorn_whip",
    "flurry2 | Hundred Fists | monk | 2 | 3 | 1 | move 2; melee; melee; melee -1 | flurry",
)

# Summons: (name, health, melee, move, actions); a summon acts right after its summoner.
SUMMONS: dict[str, tuple[str, int, int, int, str]] = {
    "wolf": ("Wolf", 5, 3, 3, "move 3; melee"),
    "prisoner": ("Prisoner", 6, 0, 3, "move 3"),  # a rescue scenario's captive, once freed
}

# -- enemies -------------------------------------------------------------------------------------------
# Observed (level -> move, captain move, hp, captain hp, strength, captain strength) from the reference
# generator's pages; bosses hold three numbers. Levels between two rows are interpolated, beyond the ends
# they follow the nearest two rows' slope (see rules.enemy_stats).
ENEMY_TABLES: dict[str, tuple[tuple[int, tuple[int, ...]], ...]] = {
    "orc": ((2, (2, 2, 5, 6, 4, 5)), (3, (2, 2, 5, 7, 4, 5)), (4, (2, 2, 6, 8, 5, 6)), (5, (2, 3, 6, 9, 5, 6)),
            (9, (2, 3, 8, 13, 6, 8)), (11, (3, 4, 9, 15, 6, 9)), (14, (3, 4, 11, 18, 7, 11))),
    "orc_ranger": ((4, (5, 5, 5, 7, 3, 4)), (8, (5, 6, 7, 11, 4, 6))),
    "skeleton": ((2, (2, 2, 4, 5, 3, 4)), (3, (2, 2, 4, 6, 3, 4)), (5, (2, 3, 5, 8, 4, 5)), (7, (2, 3, 6, 10, 4, 6)),
                 (9, (2, 3, 7, 12, 5, 7)), (11, (3, 4, 8, 14, 5, 8)), (14, (3, 4, 10, 17, 6, 10))),
    "shadow": ((2, (3, 3, 3, 4, 3, 4)), (3, (3, 3, 3, 5, 3, 4)), (6, (3, 4, 5, 8, 4, 6)), (7, (3, 4, 5, 9, 4, 6)),
               (8, (3, 4, 6, 10, 5, 7)), (14, (4, 5, 9, 16, 6, 10))),
    "earth_golem": ((2, (1, 1, 4, 5, 5, 6)), (3, (1, 1, 4, 6, 5, 6)), (4, (1, 1, 5, 7, 6, 7)), (9, (1, 2, 7, 12, 7, 9))),
    "flesh_golem": ((3, (3, 3, 4, 6, 3, 4)), (5, (3, 4, 5, 8, 5, 6)), (6, (3, 4, 6, 9, 4, 6)), (8, (3, 4, 7, 11, 5, 7)),
                    (9, (3, 4, 7, 12, 6, 8)), (11, (4, 5, 8, 14, 6, 9)), (14, (4, 5, 10, 17, 7, 11))),
    "gargoyle": ((7, (4, 5, 6, 10, 5, 7)), (14, (5, 6, 10, 17, 7, 11))),
    "naga": ((6, (5, 6, 7, 10, 4, 6)), (9, (5, 6, 8, 13, 5, 7))),
    "ogre": ((3, (4, 6, 8)), (4, (4, 7, 9))),
    "giant": ((3, (4, 8, 8)), (6, (4, 10, 9))),
    "wraith_knight": ((2, (5, 9, 8)), (8, (5, 12, 10))),
    "ice_troll": ((7, (5, 10, 9)), (9, (5, 11, 10)), (14, (6, 14, 11))),
    "corrupted_elemental": ((2, (4, 8, 6)),),
}  # fmt: skip

# id, name, short, rank, defence ("dice" or a fixed number), flying, deck (speed | move change | action)
ENEMIES: tuple[tuple[str, str, str, str, str, bool, tuple[str, ...]], ...] = (
    ("orc", "Orc", "orc", "group", "0", False,
     ("4 | 0 | melee", "6 | 1 | melee", "3 | 0 | melee +1", "5 | 0 | melee wound", "2 | -1 | melee +2", "7 | 1 | melee -1")),
    ("orc_ranger", "Orc Ranger", "orr", "group", "0", False,
     ("5 | -3 | ranged r4", "3 | -4 | ranged", "6 | -3 | ranged r3 +1", "4 | -2 | ranged mark", "7 | -3 | ranged r5 -1")),
    ("skeleton", "Skeleton", "ske", "group", "1", False,
     ("3 | 0 | melee", "5 | 0 | melee", "4 | 1 | melee -1", "2 | 0 | melee +1", "6 | 0 | melee disarm")),
    ("shadow", "Shadow", "sha", "group", "0", False,
     ("8 | 0 | melee confuse", "6 | 1 | melee", "7 | 0 | melee poison", "5 | 0 | melee +1", "9 | 1 | melee -1")),
    ("earth_golem", "Earth Golem", "gol", "group", "dice", False,
     ("2 | 0 | melee", "1 | 1 | melee +1", "3 | 0 | melee stun", "2 | 1 | melee -1")),
    ("flesh_golem", "Flesh Golem", "fle", "group", "0", False,
     ("3 | 0 | melee", "4 | 0 | melee wound", "2 | 1 | melee +1", "5 | 0 | melee -1")),
    ("gargoyle", "Gargoyle", "gar", "group", "dice", True,
     ("6 | 0 | melee", "5 | 0 | melee +1", "7 | 0 | melee -1", "4 | 0 | melee stun")),
    ("naga", "Naga", "nag", "group", "0", False,
     ("5 | -2 | ranged r3 poison", "6 | -3 | melee +1", "4 | -2 | ranged r4", "7 | -3 | melee poison")),
    ("ogre", "Ogre", "ogr", "boss", "1", False,
     ("3 | -1 | melee +1 push2", "5 | -1 | melee t2", "2 | 0 | melee +2 stun", "4 | -1 | melee wound")),
    ("giant", "Giant", "gia", "boss", "1", False,
     ("2 | -1 | melee +2", "4 | -1 | melee t2 push1", "3 | -1 | ranged r4 =4", "5 | -2 | melee stun")),
    ("wraith_knight", "Wraith Knight", "wra", "boss", "dice", False,
     ("6 | -2 | rift darkness; melee +1 confuse", "5 | -2 | melee t2", "7 | -3 | ranged r3 mark", "4 | -2 | melee poison; darkness: melee")),
    ("ice_troll", "Ice Troll", "tro", "boss", "2", False,
     ("3 | -2 | melee paralyze", "4 | -2 | melee +1", "2 | -1 | melee t2", "5 | -3 | ranged r3 =3 paralyze")),
    ("corrupted_elemental", "Corrupted Elemental", "ele", "boss", "dice", True,
     ("5 | -2 | rift fire; fire: ranged r3 +2", "6 | -2 | melee t2", "4 | -1 | ranged r4 wound", "7 | -3 | melee +1 stun")),
)  # fmt: skip

# -- items ----------------------------------------------------------------------------------------------
# id | name | kind | price | stamina | cooldown (-1: discard after use; 0 none) | level | use | effect | value | text
ITEMS: tuple[str, ...] = (
    "malevolent_retaliation | Malevolent Retaliation | effect | 150 | 0 | 0 | 1 | passive | retaliate_mark | 1 | "
    "An attack that damages you marks the attacker.",
    "long_fingers | Long Fingers | effect | 150 | 2 | 0 | 1 | lock | reach | 1 | "
    "Reach +1 while in play; 2 stamina stay locked on it each round until you discard it.",
    "being_hasty | Being Hasty | effect | 75 | 0 | 4 | 1 | round_start | speed | 2 | "
    "Speed +2 this round; then 4 rounds to recover.",
    "rush_of_energy | Rush of Energy | augmentation | 50 | 1 | 3 | 1 | attack | damage | 1 | "
    "+1 damage on your next attack this turn.",
    "lucky_charm | Lucky Charm | effect | 60 | 1 | 2 | 1 | reroll | reroll | 1 | "
    "Re-roll a miss for 1 stamina.",
    "iron_skin | Iron Skin | effect | 120 | 0 | 0 | 2 | passive | defence | 1 | Fixed defence 1 against every attack.",
    "short_sword | Short Sword | weapon | 80 | 0 | 0 | 1 | passive | melee | 1 | +1 melee damage.",
    "longbow | Longbow | weapon | 80 | 0 | 0 | 1 | passive | ranged | 1 | +1 ranged damage.",
    "war_axe | War Axe | weapon | 140 | 0 | 0 | 2 | passive | melee | 2 | +2 melee damage.",
    "healing_draught | Healing Draught | effect | 40 | 0 | -1 | 1 | turn | heal | 4 | Heal 4 on your turn; then it is gone.",
    "serrated_edge | Serrated Edge | augmentation | 60 | 1 | 2 | 1 | attack | wound | 1 | "
    "Your next attack this turn also wounds.",
    "keen_eye | Keen Eye | augmentation | 50 | 1 | 2 | 1 | attack | range | 2 | "
    "+2 to a rolled range on your next attack this turn.",
    "balanced_grip | Balanced Grip | effect | 70 | 0 | 0 | 1 | passive | face2 | -1 | "
    "Your attack die 2 always counts as -1 instead of -2.",
)

# -- the random scenario generator's pools (names and rules carry over from the reference pages) --------
PLACES = ("Temple", "Lair", "Grotto", "Ruins", "Citadel", "Fortress", "Tower", "Dungeon")
ADJECTIVES = ("Untold", "Forbidden", "Hidden", "Ancient", "Enchanted", "Lost")
NOUNS = ("Relics", "Treasures", "Shadows", "Spirits", "Legends")
RULES: dict[str, str] = {
    "fragile_alliance": "Fragile Alliance: every hero starts with 3 less health.",
    "rejuvenating_elixir": "Rejuvenating Elixir: every hero has +2 maximum health.",
    "keep_up_the_speed": "Keep up the Speed: from round 10 the roof falls in; every figure takes 2 damage at "
    "the start of each round.",
    "do_not_linger": "Do not Linger: a hero who stays on the same square for more than 2 rounds takes 2 damage.",
    "aided_by_darkness": "Aided by Darkness: at the start of every second round each enemy heals 1.",
    "reinforcements": "Reinforcements: if no Captain or Boss is on the map after round 10, a Corrupted "
    "Elemental appears as far from the heroes as possible.",
    "rabbits_foot": "Rabbit's Foot: every hero has one free re-roll each round.",
    "elemental_fury": "Elemental Fury: enemies cannot use realm rifts.",
    "finishing_blows": "Finishing Blows: hero attacks deal +1 against enemies with under 5 health.",
    "fog_of_war": "Fog of War: heroes see only 4 squares.",
    "reaching_out": "Reaching Out: every attack has reach 2.",
    "ring_of_cloak": "Ring of Cloak: each round one hero carries it and counts 10 slower when enemies pick the "
    "fastest hero.",
    "cursed_ring": "Cursed Ring: each round one hero carries it; its attacks count as Confused and deal 2 less.",
    "resolve": "Resolve: once per scenario each hero may take back a spent card.",
    "war_cry": "War Cry: when an enemy deals more than 4 damage and its group has no Captain, a Captain appears.",
    "the_blood_price": "The Blood Price: the hero who opens the last closed door loses half its health "
    "(rounded down).",
}
CHESTS = 3  # Treasure Horde: chests placed in all
OBJECTIVES: dict[str, tuple[str, int]] = {
    "treasure_horde": (
        "Treasure Horde: from round 2, at the start of every second round a chest appears as far "
        "from the heroes as possible (three in all); loot every chest.",
        12,
    ),
    "ritual_interruption": ("Ritual Interruption: kill every enemy within 12 rounds.", 12),
    "cave_in": ("Cave-in: kill every enemy within 13 rounds.", 13),
}
REWARDS: dict[str, str] = {
    "treasury_master": "Treasury Master: each hero gets 20 gold at the end.",
    "wealth_of_the_ancients": "Wealth of the Ancients: all looted gold counts double.",
    "knowledge_is_power": "Knowledge is Power: each hero gets 20 extra XP.",
}

# Experience needed for each level (level 1 at 0 XP); stats grow slowly (see rules.hero_stats).
LEVEL_XP = (0, 20, 50, 90, 140, 200, 270, 350, 440, 540)

# -- ready-made scenarios -------------------------------------------------------------------------------
# Map letters: '#' wall, '.' floor, '^' trap, '1'-'4' hero starts, 'a'-'d' enemy group spawns (first square
# of a letter is the Captain's), 'B' the boss, 'E' the exit (escape and rescue), 'P' the prisoner (rescue),
# 'D' a closed door (a wall until a hero standing next to it opens it; it then shows as '/').
MAP_SQUARES = "#.^1234BEPD/"  # every square a map may hold besides its groups' letters
SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "crypt",
        "The Whispering Crypt",
        4,
        10,
        "kill_all",
        ("fragile_alliance", "rejuvenating_elixir"),
        ("skeleton", "shadow"),
        "corrupted_elemental",
        (
            "############",
            "#1.2....#..#",
            "#3.4.^..#..#",
            "#.......#aa#",
            "###.#####..#",
            "#......^...#",
            "#.bb.......#",
            "#.b....#..##",
            "#......#.B.#",
            "############",
        ),
        "Clear the crypt of its restless dead and the elemental they woke: kill every enemy within 10 rounds.",
    ),
    Scenario(
        "orc_camp",
        "Raid on the Orc Camp",
        4,
        10,
        "kill_all",
        (),  # Finishing Blows dropped after the second audit (docs/rulings/cardcombat.md, Balance)
        ("orc", "orc_ranger"),
        "",
        (
            "#############",
            "#12.........#",
            "#34...^.....#",
            "#.....###...#",
            "#.....#a....#",
            "#..^..#aa...#",
            "#...........#",
            "#.......bb..#",
            "#...........#",
            "#############",
        ),
        "Break the raiders' camp: kill every orc within 10 rounds.",
    ),
    Scenario(
        "golem_forge",
        "The Golem Forge",
        5,
        12,
        "escape",
        ("fragile_alliance",),
        ("earth_golem", "flesh_golem"),
        "ogre",
        (
            "####################",
            "#1..#..........#...#",
            "#2..#..^.......#.a.#",
            "#3..#..####....#..E#",
            "#4.....#..#..^.#.a.#",
            "#......#..#....#.B.#",
            "####.###..###..#.#.#",
            "#...............b..#",
            "#..^......^....b...#",
            "####################",
        ),
        "Get through the forge, past the Ogre that keeps it: every hero still standing must reach the exit E "
        "within 12 rounds.",
    ),
    Scenario(
        "ogre_den",
        "Den of the Ogre",
        5,
        12,
        "kill_all",
        ("aided_by_darkness", "rejuvenating_elixir"),
        ("orc", "orc_ranger"),
        "ogre",
        (
            "#############",
            "#1.2.....#.b#",
            "#3.4..^..#.b#",
            "#........#..#",
            "####..####..#",
            "#...........#",
            "#.aa....^...#",
            "#.a......B..#",
            "#...........#",
            "#############",
        ),
        "Slay the Ogre, its orc guard and the archers on the ledge within 12 rounds.",
    ),
)

SCENARIOS += (
    Scenario(
        "prisoner",
        "The Prisoner of Black Hollow",
        6,  # 4 until the second audit (docs/rulings/cardcombat.md, Balance)
        12,
        "rescue",
        (),
        ("orc", "skeleton"),
        "",
        (
            "##############",
            "#1.2....#....#",
            "#3.4....#a.a.#",
            "#.......#..P.#",
            "#..^.........#",
            "####...####..#",
            "#E.....^..#..#",
            "#.........#bb#",
            "#....b.......#",
            "##############",
        ),
        "Free the prisoner held by the orcs (stand next to it) and lead it out through E within 12 rounds; "
        "if it falls, the rescue fails.",
    ),
)

SCENARIOS += (
    Scenario(
        "vault",
        "The Sealed Vault",
        4,
        12,
        "kill_all",
        ("the_blood_price",),
        ("skeleton", "orc"),
        "ogre",
        (
            "##############",
            "#1.2.#....#..#",
            "#3.4.#.aa.#..#",
            "#....D....#.B#",
            "#....#..^.D..#",
            "#....#....#..#",
            "#.^..#.bb.#..#",
            "#....#....####",
            "#....#.......#",
            "##############",
        ),
        "Two doors stand between you and the vault's keeper, and the last one drinks the blood of whoever opens "
        "it: kill the dead and the orcs in the hall and the Ogre in the vault within 12 rounds.",
    ),
)

GENERATED_LEVEL = 2  # the random scenario's level when the party's level does not set it


def _row(line: str, n: int, where: str) -> list[str]:
    parts = [p.strip() for p in line.split("|")]
    if len(parts) not in (n, n + 1):
        raise ContentError(f"{where}: expected {n} fields separated by '|', got {len(parts)}.")
    return parts


@cache
def cards() -> dict[str, Card]:
    """Every hero action card by id. Raises ContentError on malformed data."""
    owners = {r[0] for r in RACES} | {c[0] for c in CLASSES}
    out: dict[str, Card] = {}
    for i, line in enumerate(CARDS):
        where = f"content.CARDS line {i + 1}"
        p = _row(line, 7, where)
        if p[2] not in owners:
            raise ContentError(f"{where}: unknown owner '{p[2]}'.")
        try:
            level, cost, cd = int(p[3]), int(p[4]), int(p[5])
        except ValueError as exc:
            raise ContentError(f"{where}: level, cost and cooldown must be numbers.") from exc
        out[p[0]] = Card(
            p[0], p[1], p[2], level, cost, cd, parse_actions(p[6], where), p[7] if len(p) > 7 else ""
        )
    for c in out.values():
        if c.replaces and (c.replaces not in out or out[c.replaces].owner != c.owner):
            raise ContentError(f"content.CARDS {c.id}: replaces '{c.replaces}', not a card of {c.owner}.")
    return out


@cache
def races() -> dict[str, Origin]:
    """The eight races."""
    return {r[0]: Origin(*r) for r in RACES}


@cache
def classes() -> dict[str, Origin]:
    """The eight classes."""
    return {c[0]: Origin(*c) for c in CLASSES}


@cache
def enemies() -> dict[str, EnemyType]:
    """Every enemy type with its stats table and speed deck. Raises ContentError on malformed data."""
    out: dict[str, EnemyType] = {}
    for eid, name, short, rank, defence, flying, deck in ENEMIES:
        where = f"content.ENEMIES {eid}"
        parsed = []
        for j, line in enumerate(deck):
            p = _row(line, 3, f"{where} card {j + 1}")
            parsed.append(EnemyCard(int(p[0]), int(p[1]), parse_actions(p[2], f"{where} card {j + 1}")))
        if eid not in ENEMY_TABLES:
            raise ContentError(f"{where}: no stats table.")
        out[eid] = EnemyType(eid, name, short, rank, defence == "dice", 0 if defence == "dice" else int(defence),
                             flying, ENEMY_TABLES[eid], tuple(parsed))  # fmt: skip
    return out


@cache
def items() -> dict[str, Item]:
    """The item catalogue. Raises ContentError on malformed data."""
    out: dict[str, Item] = {}
    for i, line in enumerate(ITEMS):
        where = f"content.ITEMS line {i + 1}"
        p = _row(line, 11, where)
        if p[2] not in ("augmentation", "effect", "weapon"):
            raise ContentError(f"{where}: unknown item kind '{p[2]}'.")
        if p[7] not in ("passive", "lock", "round_start", "attack", "reroll", "turn"):
            raise ContentError(f"{where}: unknown use '{p[7]}'.")
        out[p[0]] = Item(
            p[0], p[1], p[2], int(p[3]), int(p[4]), int(p[5]), int(p[6]), p[7], p[8], int(p[9]), p[10]
        )
    return out


@cache
def scenarios() -> dict[str, Scenario]:
    """The ready-made scenarios by id. Raises ContentError on a map that breaks the rules above."""
    out = {}
    for s in SCENARIOS:
        width = len(s.rows[0])
        text = "".join(s.rows)
        if any(len(r) != width for r in s.rows):
            raise ContentError(f"content.SCENARIOS {s.id}: map rows differ in length.")
        known = set(MAP_SQUARES) | {chr(97 + i) for i in range(len(s.groups))}
        strange = sorted(set(text) - known)
        if strange:
            raise ContentError(
                f"content.SCENARIOS {s.id}: the map has squares no rule reads: {', '.join(strange)}."
            )
        if sum(text.count(d) for d in "1234") != 4:
            raise ContentError(f"content.SCENARIOS {s.id}: the map needs hero starts 1-4.")
        for i, g in enumerate(s.groups):
            if g not in enemies() or chr(97 + i) not in text:
                raise ContentError(
                    f"content.SCENARIOS {s.id}: group {chr(97 + i)} ({g}) has no spawn or type."
                )
        if s.boss and ("B" not in text or s.boss not in enemies()):
            raise ContentError(f"content.SCENARIOS {s.id}: boss {s.boss} needs a B square.")
        if s.objective == "rescue" and ("P" not in text or "E" not in text):
            raise ContentError(f"content.SCENARIOS {s.id}: a rescue needs a prisoner P and an exit E.")
        if s.objective == "escape" and "E" not in text:
            raise ContentError(f"content.SCENARIOS {s.id}: an escape needs an exit E.")
        if not connected(list(s.rows)):
            raise ContentError(f"content.SCENARIOS {s.id}: some floor squares cannot be reached.")
        if not all(
            doorway(s.rows, x, y) for y, r in enumerate(s.rows) for x, ch in enumerate(r) if ch == "D"
        ):
            raise ContentError(
                f"content.SCENARIOS {s.id}: a door must stand in a doorway (walls on two sides)."
            )
        if any(r not in RULES for r in s.rules):
            raise ContentError(f"content.SCENARIOS {s.id}: unknown scenario rule.")
        out[s.id] = s
    return out


def doorway(rows: tuple[str, ...] | list[str], x: int, y: int) -> bool:
    """Whether (x, y) is a doorway: walls on two opposite sides, open squares on the other two (a door set in
    a wall, between two rooms or a room and a passage)."""

    def wall(cx: int, cy: int) -> bool:
        return not (0 <= cy < len(rows) and 0 <= cx < len(rows[0])) or rows[cy][cx] == "#"

    across = wall(x - 1, y) and wall(x + 1, y) and not wall(x, y - 1) and not wall(x, y + 1)
    down = wall(x, y - 1) and wall(x, y + 1) and not wall(x - 1, y) and not wall(x + 1, y)
    return across or down


def connected(rows: list[str]) -> bool:
    """Whether every non-wall square can be walked to from every other (8 directions)."""
    cells = {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch != "#"}
    start = next(iter(sorted(cells)))
    seen = {start}
    q = deque([start])
    while q:
        x, y = q.popleft()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                n = (x + dx, y + dy)
                if n in cells and n not in seen:
                    seen.add(n)
                    q.append(n)
    return seen == cells
