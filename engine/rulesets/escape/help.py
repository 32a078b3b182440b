"""ESCAPE rules help, written for Escapade (topic -> text)."""

from engine.rulesets.escape.content import scenarios


def victory_text() -> str:
    """Every scenario's victory conditions, from the scenario data, and how the game ends."""
    parts = []
    for s in scenarios().values():
        v = s.victory
        exits = ""
        if s.exit_needs == "objective":
            exits = " A Resistance character leaves by the exit airlock only carrying an objective token."
        parts.append(
            f"{s.number}. {s.name} ({s.turns} turns). Resistance wins if {v['resistance']['text']}. "
            f"I.S.C. wins if {v['isc']['text']}.{exits}"
        )
    return (
        "\n".join(parts)
        + "\nThe game ends after the last turn, or when a victory condition holds or no Resistance "
        "character is left in play at the end of a turn; with no victory (or both at once) it is a draw."
    )


HELP: dict[str, str] = {
    "overview": (
        "Two players: the Resistance and the I.S.C. Each turn both roll initiative (d6 + the Int of their characters on "
        "the board; on turn 1 every character counts, entered or not), a random event is rolled (2d6), then the "
        "players take turns activating one character at a time until everyone has gone. Scenario victory conditions are checked when a turn ends."
    ),
    "actions": (
        "A character's Mvt, Cbt and Int are both its skill and how many actions of that kind it gets per turn. "
        "Movement: one square to a side-adjacent free square, or open a door, drop or hand over a token, leave by an "
        "airlock. Combat: hand-to-hand on the 8 squares around, or ranged with a weapon, a crate or a grenade. "
        "Intellect: hack a locked door (d6 + Int must reach its difficulty). Picking up and turning over tokens is free. "
        "An extra action from Combat drugs (an attack, never a drill), a Datadisk or a token's Movement is for the "
        "activation in progress: "
        "what is not used by its end is lost."
    ),
    "combat": (
        "An attack rolls d6 + Cbt (+ Power for ranged) minus the target's Cbt; anything above 0 is damage. A passive "
        "target may dodge by spending a Combat action: then both roll and the difference is the damage. Armor reduces "
        "damage; a character whose damage reaches its life gauge is taken out."
    ),
    "reactions": (
        "Dodges, counter-measures and re-rolls are asked of the defending player. Set standing answers with "
        "'react dodge always|never|ask', 'react countermeasure always|never|ask' and 'react reroll ask|auto|never' "
        "(ask, the default: you are asked, only about a die a re-roll could help; auto re-rolls only a losing "
        "die that some face would turn into a win)."
    ),
    "factions": (
        "I.S.C.: the Encrypted key opens and closes locked doors like ordinary ones; the Internal factory brings taken-out "
        "characters back through an airlock from the next turn on (not one with a Resistance character within 3 squares, "
        "nor the central one except on a High Security Airlock turn). "
        "Resistance: each character taken out gives a Revolution token, spent to re-roll a die or for an extra Movement "
        "or Combat action ('token move <character>', 'dodge token')."
    ),
    "events": (
        "2 Supreme AI, 3 Celestial Order (move an I.S.C. character anywhere), 4 Powergrid overload, 5 Fire alarm, "
        "6 High Security Airlock, 7 nothing, 8 Firewall, 9 Short circuit (a door flips), 10 Black-out (a room), "
        "11 Interference (the Resistance has the initiative and may follow its first activation with a second one at "
        "once; 'pass' declines it, and a Radio call from the first activation is that second one), "
        "12 Disconnection (no I.S.C. skills)."
    ),
    "commands": (
        "move <who> <square> · attack <who> <target> · shoot <who> <target> · throw <who> <target> · "
        "grenade <who> <square> · hack <who> <door|target> · open/close <who> <door> · take/reveal <who> <token> · "
        "give <who> <ally> · drop <who> <square> · leave <who> · enter <who> <square> · end · pass (Interference). "
        "Doors are written as the two squares they separate, like j7|j8."
    ),
    "victory": victory_text(),
}
