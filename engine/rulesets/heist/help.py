"""Short rules help for heists, in the project's own words."""

from __future__ import annotations

HELP: dict[str, str] = {
    "overview": (
        "3-4 thieves work together against the building. Part I: plan. Each planning token you place marks a hex "
        "you may later step onto; pick a starting entrance (two per entrance at most) and shop. Part II: every "
        "round all dice are rolled; each player picks one action their die allows, then plays its sub-actions "
        "one at a time, in any order, mixed with the others'. When everyone is done, the Event phase runs. "
        "When the final crisis comes up (or anyone calls the escape), everyone runs for an exit."
    ),
    "actions": (
        "Your character's default actions are always open; each skill card offers the action on your die's face. "
        "Each 💡 you spend turns the die one step up or down (6 and 1 are neighbours). 'act <action>' commits; "
        "then play its sub-actions: 'move <hex>' ➜, 'unlock <hex>' 🔓, 'subdue <hex>' 👊, 'disable <hex>' 📷, "
        "'reveal <hex>' 🔍, 'idea' 💡, 'loot' 💰, 'crack' 🧩. 🔊 and ⚠ are paid automatically when you type "
        "'done'. 'undo' takes your action back until something hidden is revealed or someone else acts."
    ),
    "moving": (
        "➜ goes to a neighbouring hex that carries one of your planning tokens (exits need none) and is not "
        "locked. An unsubdued guard on your hex keeps you there. Entering a live camera's hex raises ⚠. "
        "Whenever a character stands next to an unknown security hex, a random chit is drawn onto it."
    ),
    "noise": (
        "Every 🔊 moves the noise marker one space. Landing on an alert space raises ⚠; once the marker is on the "
        "final slot, every further 🔊 raises ⚠. ⚠ discards the top event card; a crisis that surfaces is queued and always happens. "
        "Each Event phase resolves the top event, then the queued crises in order. When the event offers the crew "
        "something (blab, tip, share, handoff), the phase waits until someone types 'continue'. The deck is face up: "
        "'deck' lists every card left in it, top first, at any time."
    ),
    "escape": (
        "When the escape starts, the lockdown gates still standing shut (anyone on one is Busted) and every "
        "hidden chit is revealed. Each character still inside types 'run' (or 'run via <hex>' to pick up loot on "
        "the way). Escape moves ignore plans and cameras; locks block, and a remote lock keeps whoever stands "
        "under it inside; leaving a hex with an unsubdued guard costs one extra move per guard. Leftover 💡 pay "
        "for moves; the rest must be rolled on one die, or you are Busted and your loot stays where you stood. "
        "'take', 'drop' and 'give' stay open in the escape. In The Final Score Part 1 the runners hide instead: the hideouts (*, two each) "
        "are the only places to escape to."
    ),
    "loot": (
        "'take <loot>' picks loot up from your hex, 'drop <loot>' leaves it, 'give <loot> <seat>' hands it to a "
        "teammate on your hex; all free, any time. Loot counts once its carrier stands on an exit."
    ),
    "npcs": (
        "Hostages, prisoners and guides act with their own die once a prisoner is free, a hostage is taken "
        "('escort' on its hex) or, for a guide, from the start. Anyone plays them: 'npc act <action>', then "
        "'npc move <hex>' and the rest, 'npc done'. No planning tokens; 'npc take <loot>' / 'npc drop <loot>' on "
        "their hex; 'npc open <hex>' for a keycard door beside one holding the keycard; an exit gets them out with "
        "what they carry; 'npc run' in the escape."
    ),
    "campaign": (
        "The crew record (cash, fixers, items, named characters and their levels) carries over on this server. "
        "After every heist each character levels up (level 2: a pro skill, 3: a pro character, 4: the other "
        "skill). Busted characters go to jail. A County Jail heist breaks them out: jailed crew start in the "
        "cells, and the job is won when one character who was in the cells (started there or broke in) gets out."
    ),
}
