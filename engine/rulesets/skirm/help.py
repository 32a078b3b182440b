"""Skirm rules help, written for Escapade (topic -> text), plus a card list per faction from the content."""

from engine.rulesets.skirm.content import factions

HELP: dict[str, str] = {
    "overview": (
        "Two squads of about 100 EP fight a four-turn mission on a 12x12 grid. Each turn: every unit is Ready, "
        "initiative is rolled off (lowest D6 wins), each side rolls Tactical Orders, the initiative winner rolls the "
        "mission event, then the sides take turns activating one unit at a time. Objectives score at the end of each "
        "turn; the most mission points after turn 4 wins."
    ),
    "dice": (
        "Roll a D6 against a stat: equal or lower succeeds. A 1 always succeeds and a 6 always fails, whatever the "
        "modifiers. A die is re-rolled at most once; a Tactical Order buys a re-roll of any of your failed dice, even "
        "in the other player's activation ('reroll N' or 'keep'): attacks, saves, falls, Blast Shield, Recover and "
        "the event die."
    ),
    "actions": (
        "A unit spends up to its ACT each activation. Move (3 squares), Dash (1), Ranged or Melee attack, open/close a "
        "door on its square's side, pick up/drop a marker, Recover (a D6 at or under ARM stands a Downed unit up; itself or "
        "an adjacent squadmate). Repeating an action in the same activation costs 1 more each time. Tactical Orders pay "
        "for actions beyond ACT. Downed units may only Recover or Crawl (a Crawl may always leave difficult ground); a unit "
        "that stands up goes on with the ACT it has left."
    ),
    "orders": (
        "Tactical Orders: 3D6 each turn plus the LDx dice of Standing leaders; every 1-3 is one order. Spend them on "
        "extra actions, TO skills (once per unit per turn, any time you are to act or an attack comes at you: "
        "'skill ...' or 'pass') and re-rolls. Unused orders are lost."
    ),
    "movement": (
        "Eight directions; a diagonal needs both side squares free, level and without walls. You may not pass through "
        "an enemy or a square next to a Standing enemy (you may stop there). Leaving difficult ground costs 2, crossing "
        "a low wall costs 2, climbing costs its height + 1 (down: its height); only 1-high faces or marked ladders can be "
        "climbed. Stairs count as flat. Squares more than 1 apart in height are not adjacent. A Leap (LPx) ignores "
        "heights and low walls, but a diagonal leap still needs both side squares free."
    ),
    "combat": (
        "Ranged: a target not adjacent to you (height counts), in range and in sight (two clear lines from one of your corners to two of its "
        "corners; high walls, closed doors, solid blocks, ground 2+ above you both and Standing units block), and no "
        "Standing enemy next to you. "
        "Melee: an adjacent enemy. Roll ROA dice at or under MSK/RSK; each success deals DAM; the target rolls one save "
        "per damage, at or under ARM; any failed save: Standing -> Downed -> Out. High ground +1 skill, cover one automatic save "
        "(a low wall or higher ground on the target's side facing you, not below you; or a high wall, shut door or solid "
        "block beside the target that hides part of it from every corner of your square), support (a Standing squadmate "
        "next to the target) +1 ROA in melee. "
        "Linear (LNR) weapons: you pick a straight line from a corner of your square to a corner of the target's, and "
        "every unit whose square that line passes through is attacked too, your own included (brushing a corner or "
        "running along a side does not count). When lines differ you get one shot per choice, ending 'line:<units>' or "
        "'line:none'; typed without it, the line sparing the most of your squad (then catching the most enemies) is used."
    ),
    "missions": (
        "Seize Ground (Crossroads): 4 objectives; 'plant' a banner (2 ACT) so an objective keeps scoring for you. "
        "Data Heist (Refinery): pick up data caches and 'upload' them in your zone (+2 MP). Sabotage (Necropolis): "
        "'sabotage' an objective you control (RSK roll, +2 MP, it is destroyed). Each turn's event (D6) may bring fog "
        "(range 4), mud (Move 2), supplies (+1 TO), reinforcements (+1 TO each), lockdown (doors shut) or double "
        "scoring."
    ),
    "commands": (
        "activate <unit> · move|dash|crawl|leap <unit> <square> · shoot <unit> [weapon] <target|square> [line:<units>|none] · "
        "fight <unit> [weapon] <target> · open|close <unit> <c4|c5> · pickup|drop <unit> · recover <unit> <downed> · "
        "order <leader> <squadmate> · skill <unit> <skill> [target] · plant|upload|sabotage <unit> · end · "
        "reroll N · keep · chain <unit>|done · push <square>|none · pass · react reroll|skill ask|never. "
        "Setup: zone <name> · deploy <unit> <square>."
    ),
}


def faction_cards(fid: str) -> str:
    """One faction's stat cards and gear as short text."""
    f = factions()[fid]
    lines = [f"{f.name}: {f.about}"]
    for u in f.units.values():
        rules = (
            sorted(u.rules) + ([f"LD{u.leader}"] if u.leader else []) + ([f"LP{u.leap}"] if u.leap else [])
        )
        gear = ", ".join(f.weapons[w].name for w in u.loadout)
        lines.append(
            f"{u.name} (`{u.id}`, {u.ep} EP): ACT {u.act} ARM {u.arm} MSK {u.msk} RSK {u.rsk}"
            f" {' '.join(rules)}; carries {gear}."
        )
    for w in f.weapons.values():
        rng = f" RG{w.range}" if w.ranged else ""
        sk = f" SK{w.skill}" if w.skill else ""
        lines.append(f"{w.name} (`{w.id}`, {w.ep} EP): {'ranged' if w.ranged else 'melee'} ROA {w.roa} DAM {w.dam}"
                     f"{rng}{sk} {' '.join(sorted(w.rules))}".rstrip() + ".")  # fmt: skip
    for s in f.skills.values():
        lines.append(f"{s.name} (`{s.id}`, {s.ep} EP, {s.cost} {s.pay.upper()}): {s.text}")
    return "\n".join(lines)


def all_topics() -> dict[str, str]:
    """The general topics and one topic per faction."""
    return {**HELP, **{fid: faction_cards(fid) for fid in factions()}}
