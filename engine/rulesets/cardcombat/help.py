"""Short rules help for Dark Realms, in the project's own words."""

from __future__ import annotations

HELP: dict[str, str] = {
    "overview": (
        "1-4 heroes fight the game's enemies on a square map. Each round every hero secretly commits up to two "
        "action cards ('commit <hero> <card> [<card>]' or 'commit <hero> rest'); when all have, the cards are "
        "revealed, each enemy type draws a speed card, and figures act from the highest speed down (ties: heroes "
        "first). Win by the scenario's objective before its last round ends."
    ),
    "turns": (
        "On your turn your cards' actions come up in order: 'move <hero> <square>', 'attack <hero> <target>', "
        "'heal', 'cast', 'teleport', 'summon', 'rift' as the action says, or 'skip <hero>'. Stamina you did not "
        "commit pays for extra squares (1 each), one stamina move a round (before, between or after your cards, "
        "not inside one), a re-roll, items and 'loot'. A teleport lands like a step: a trap hurts, loot is taken. "
        "'open <hero> <square>' opens a door next to you. 'end <hero>' ends your turn. A line that needs a rift "
        "reaches for one when you play it (free within reach, else a die must cover the gap), so walk up to the "
        "rift first if you can; skipping the line leaves the rift open."
    ),
    "doors": (
        "A closed door (D on the board) is a wall: nobody walks through it or sees through it. A hero standing "
        "next to it (diagonals count) opens it on its turn with 'open <hero> <square>': free, no card and no "
        "stamina, even in the middle of a move card. An open door (/) stays open. Enemies and summons never "
        "open doors: an enemy shut away from every hero waits where it is. The Blood Price: the hero who opens "
        "the last closed door loses half its health, rounded down."
    ),
    "damage": (
        "A rolled attack uses your stat: die 1 misses, 2 is -2, 3 is -1, 4 the stat, 5 +1, 6 +2 and pierces "
        "(no defence at all). '=X' attacks always deal X but still roll for miss and pierce; '+X' adds X after a "
        "non-miss; 'd' attacks deal the die itself, never miss, never pierce. Some cards miss on 1-2 or 1-3, and "
        "some cards and items change a face (f2=-1: a 2 counts as -1)."
    ),
    "ranged": (
        "A ranged attack without a printed range rolls two dice: 'split <hero> <range> <damage>' chooses which "
        "die is the range. Printed ranges roll only for damage, and range bonuses help rolled ranges only. A "
        "ranged attack at a target within your reach counts as Confused (misses on 1-2)."
    ),
    "defence": (
        "Defence dice: 1 stops nothing, 2-5 stop that much, 6 stops everything. Fixed defence X (shields, "
        "armour) always stops X. A pierce ignores both."
    ),
    "statuses": (
        "Wound: +1 damage taken from every hit (until healed). Poison: 1 damage at the start of each turn (until "
        "healed; removing either costs 2 heal points). Stunned / Confused: attackers roll twice and keep the "
        "better; a Confused attacker misses on 1-2 (both until the end of that figure's next turn). Strengthened: "
        "attackers miss on 1-2 (to the end of the round). Mark: enemies attack it first (end of round). Paralyze: "
        "no moving, Disarm: no attacking (next turn). Adrenaline: +2 stamina next round."
    ),
    "rerolls": (
        "After a miss (or before choosing a ranged split; a range that falls short cannot be re-rolled after "
        "it): once a round a hero may pay 1 stamina to re-roll a die; "
        "Lucky Charm sells more; Rabbit's Foot gives a free one. Bosses and Captains re-roll a miss once a round "
        "for 2 less damage."
    ),
    "enemies": (
        "Enemies pick targets in this order: Marked figures, summons, the closest hero, the fastest hero (a die "
        "breaks ties). They walk around traps when they can and stop as soon as their target is in range."
    ),
    "items": (
        "Augmentations ('boost <hero> <item>') improve your next attack this turn, on every target; effects are "
        "passive, played ('use'), or held in play with locked stamina (discarding one frees that stamina at "
        "once); weapons add damage. Items recover over their cooldown. Buy them in the lobby with gold from loot."
    ),
    "campaign": (
        "Your hero keeps its level, XP, gold and items between games. 'adventure' plays the next chapter of the "
        "story; 'random' generates a scenario at your level. Each level unlocks a stronger race and class card."
    ),
}
