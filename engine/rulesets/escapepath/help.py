"""Escape Path rules help, written for Escapade (topic -> text)."""

HELP: dict[str, str] = {
    "overview": (
        "A team of characters against a swarm of bogies. The team moves all its characters, then the swarm moves "
        "all its bogies; that is one turn. Each figure spends all the action points (AP) it will use before the "
        "next one starts: characters 3, fast bogies (aliens, vampires) 4, slow bogies (zombies, mummies) 2. Unused "
        "points are lost. Each scenario says how the team scores (escapes, objectives, survivors) and the turn limit."
    ),
    "moving": (
        "A step forward, diagonally forward or sideways costs 1 AP; backward or diagonally backward 2 AP. Each AP "
        "spent on a step allows a 90 degree turn, before or after it: 'move vance d4 ne'. Turning on the spot costs "
        "1 AP per 90 degrees: 'turn vance s'. Figures and objects block; so does the diagonal between two blockers. "
        "Bogies come on at entry points (E) for 1 AP, only after every bogie already in play has finished, never "
        "more than the scenario's cap, and not where a figure stands; like any 1 AP move, coming on may include a "
        "turn of up to 90 degrees ('enter al5 g1 e'). They may leave there for 1 AP. A character on the escape "
        "point (X) may 'escape' for 1 AP."
    ),
    "sight": (
        "Figures see everything in the half of the board in front of them (180 degrees) with a clear line, and can "
        "fire only into the 90 degree arc straight ahead (shaded on the board for the active character), never at "
        "the square directly in front."
    ),
    "shooting": (
        "'shoot vance al3' costs 1 AP: 3d6 must reach the range (squares counted with diagonals) to hit; a hit "
        "alien or vampire survives on 5-6, a zombie or mummy on 4-6 (3-6 with the new bogie save rule). A shot or "
        "a bomb may include a free 90 degree turn before or after it ('shoot vance al3 ne'), turning only onto a "
        "target already in sight. 'retreat vance b4 al3': step backward (2 AP) without turning and shoot for free."
    ),
    "bombs": (
        "'bomb vance al3' costs 2 AP and one of the character's few bombs: 2d6; below the range it falls short on "
        "the square at the rolled distance along the line. The figure there dies; bogies around save as against a "
        "gun, characters around die. The 9 squares are closed to characters for the rest of the team turn and to "
        "bogies for the next swarm turn; bogies still inside must move out first or die."
    ),
    "combat": (
        "'attack vance' attacks the figure on the square straight ahead (never diagonally), 1 AP. Both roll a d6 "
        "until decided: attacker higher wins and is carried into the square (taking an objective there); a defender "
        "facing the attacker wins on higher and re-rolls ties; a defender not facing the attacker who ties or rolls "
        "higher turns to face it and becomes the attacker."
    ),
    "panic": (
        "When a bogie that was not already next to a character attacks it after moving at least partly inside its "
        "arc of fire (setting out from inside counts; coming in only from the side or behind does not), the "
        "character gets one panic shot per swarm turn: a d6, 4-6 hits, then the bogie saves as usual. The team "
        "answers 'panic' or 'hold'; set a standing answer with 'react panic always|never|ask'."
    ),
    "voids": (
        "Voids (water, gaps) cannot be entered but are seen and fired across. A figure may jump straight across "
        "(not diagonally, without turning) for the AP walking it would cost: 'jump brock h5'."
    ),
    "commands": (
        "move <fig> <square> [facing] · turn <fig> <facing> · jump <fig> <square> · shoot <fig> <bogie> [facing] · "
        "bomb <fig> <bogie> [facing] · retreat <fig> <square> <bogie> · attack <fig> · escape <fig> · "
        "enter <bogie> <point> [facing] · leave <bogie> · end · panic / hold · react panic always|never|ask. "
        "Facings: n ne e se s sw w nw (n is the top of the board)."
    ),
}
