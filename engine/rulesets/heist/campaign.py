"""The crew record kept per server between heists: cash, fixers, items, named characters, players' levels.

A record is plain JSON::

    {"cash": 7, "fixers": ["old_friend"], "shop": [], "items": ["radio"], "won": ["the_inclusion_job"],
     "characters": {"johnny_swagger": {"nickname": "Johnny Swagger", "character": "angry_locksmith",
                    "skills": ["smash_n_grab", "bypass"], "level": 2, "status": "free", "heists": 1}},
     "players": {"<member id>": 1}, "history": [{"heist": "...", "won": true, "haul": {...}}]}
"""

from __future__ import annotations

from typing import Any

from engine.errors import SetupError
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.content import load_content
from engine.rulesets.heist.state import HeistState

MAX_LEVEL = 4
UPGRADE_CHOICES = {
    "1a": "Upgrade skill 1 first; first listed pro cards",
    "1b": "Upgrade skill 1 first; second listed pro cards",
    "2a": "Upgrade skill 2 first; first listed pro cards",
    "2b": "Upgrade skill 2 first; second listed pro cards",
}


CURATOR_JEWEL_K = 4  # The Curator: what one jewel sells for, in $k


def slug(name: str) -> str:
    """A nickname as a key: ``Johnny Swagger`` -> ``johnny_swagger``."""
    out = "".join(ch if ch.isalnum() else "_" for ch in name.strip().lower())
    return "_".join(w for w in out.split("_") if w)


def normalise(record: Any) -> dict[str, Any]:
    """A complete record from a stored one (None: a new crew with the starting fixer)."""
    r = dict(record or {})
    r.setdefault("cash", 0)
    r.setdefault("fixers", ["old_friend"])
    r.setdefault("shop", [])
    r.setdefault("items", [])
    r.setdefault("won", [])
    r.setdefault("characters", {})
    r.setdefault("players", {})
    r.setdefault("history", [])
    return r


def prebuilt() -> dict[str, dict[str, Any]]:
    """The booklet's pre-built characters as level-1 named characters, recommended ones first."""
    c = load_content()
    crews = sorted(c.crews, key=lambda k: not k.recommended)
    return {
        slug(k.nickname): {"nickname": k.nickname, "character": k.character, "skills": list(k.skills),
                           "level": 1, "status": "free", "heists": 0}
        for k in crews
    }  # fmt: skip


def choose_crew(
    record: dict[str, Any],
    seats: list[str],
    picks: dict[str, Any],
    members: dict[str, str | None],
    breakout: bool = False,
    builds: dict[str, tuple[str, str, str]] | None = None,
) -> list[dict[str, Any]]:
    """The named character for each seat, checking the campaign rules.

    Each pick is a nickname (a named character of the crew or a pre-built one) or ``auto``; a seat in
    ``builds`` plays the character built from (character, skill, skill) instead. Raises SetupError for an
    unknown or jailed character (jailed ones may play a breakout heist), one picked twice, an evil twin, two
    of one character class, more copies of a skill than exist, or a character above its player's level.
    """
    c = load_content()
    known = {**prebuilt(), **record["characters"]}
    chosen: list[dict[str, Any]] = []
    for seat in seats:
        if builds and seat in builds:
            chosen.append(build(known, *builds[seat]))
            continue
        want = str(picks.get(seat) or "auto")
        if want == "auto":
            chosen.append({})
            continue
        key = slug(want)
        if key not in known:
            raise SetupError(f"There is no crew member called '{want}'.")
        chosen.append(dict(known[key]))
    problem = conflicts([p for p in chosen if p])
    if problem:
        raise SetupError(problem)
    # Fill automatic seats with the first free characters that fit.
    for i, pick in enumerate(chosen):
        if pick:
            continue
        for cand in known.values():
            trial = [*(p for p in chosen if p), cand]
            if (
                cand["status"] == "free"
                and not conflicts(trial)
                and cand["level"] <= player_level(record, members.get(seats[i]))
            ):
                chosen[i] = dict(cand)
                break
        else:
            raise SetupError("No free crew member fits this seat; pick one by name.")
    problem = conflicts(chosen)
    if problem:
        raise SetupError(problem)
    for seat, pick in zip(seats, chosen, strict=True):
        if pick["status"] != "free" and not breakout:
            raise SetupError(f"{pick['nickname']} is in jail; a County Jail heist can break them out.")
        level = player_level(record, members.get(seat))
        if pick["level"] > level:
            raise SetupError(
                f"{pick['nickname']} is level {pick['level']}, above this player's level {level}."
            )
        if pick["character"] not in c.characters:
            raise SetupError(f"Unknown character card '{pick['character']}'.")
    return chosen


def builds_from(options: dict[str, Any], seats: list[str]) -> dict[str, tuple[str, str, str]]:
    """The seats that build a character in the lobby (``build``, ``skill_1``, ``skill_2`` per seat).

    Raises SetupError when a seat names a character card without two skills.
    """
    out = {}
    for seat in seats:
        card = str((options.get("build") or {}).get(seat, "none"))
        if card == "none":
            continue
        s1 = str((options.get("skill_1") or {}).get(seat, "none"))
        s2 = str((options.get("skill_2") or {}).get(seat, "none"))
        if "none" in (s1, s2):
            raise SetupError("A built character needs two skills (skill_1 and skill_2).")
        out[seat] = (card, s1, s2)
    return out


def build(known: dict[str, dict[str, Any]], character: str, skill_1: str, skill_2: str) -> dict[str, Any]:
    """A character built from cards: the named character with these cards, or a new one.

    A new one is named after its cards and starts at the level its pro cards give. Raises SetupError for
    unknown cards, one skill twice, or an evil twin: the same cards as a named character of another name.
    """
    c = load_content()
    if character not in c.characters or skill_1 not in c.skills or skill_2 not in c.skills:
        raise SetupError("A built character needs a character card and two skill cards.")
    if skill_1 == skill_2:
        raise SetupError("A character takes two different skill cards.")
    ch = c.characters[character]
    name = f"{ch.name} ({c.skills[skill_1].name} + {c.skills[skill_2].name})"
    key = slug(name)
    if key in known:
        return dict(known[key])
    cards = (character, frozenset((skill_1, skill_2)))
    for m in known.values():
        if (m["character"], frozenset(m["skills"])) == cards:
            raise SetupError(
                f"No evil twins: {m['nickname']} already has exactly these cards; play {m['nickname']} instead."
            )
    pro = sum(c.skills[s].level == "pro" for s in (skill_1, skill_2)) + (ch.level == "pro")
    return {"nickname": name, "character": character, "skills": [skill_1, skill_2], "level": 1 + pro,
            "status": "free", "heists": 0}  # fmt: skip


def player_level(record: dict[str, Any], member: str | None) -> int:
    """A player's level (bots play at the highest level any player has reached)."""
    levels = record["players"]
    if member is None:
        return max([1, *(int(v) for v in levels.values())])
    return int(levels.get(str(member), 1))


def conflicts(crew: list[dict[str, Any]]) -> str:
    """Why this crew cannot play together ("" if it can): names, classes and card copies."""
    c = load_content()
    names = [m["nickname"] for m in crew]
    if len(set(names)) != len(names):
        return "A named character can take only one seat."
    classes = [c.characters[m["character"]].character_class for m in crew]
    if len(set(classes)) != len(classes):
        return "One character class per heist: two crew members share a character class."
    count: dict[str, int] = {}
    for m in crew:
        for s in m["skills"]:
            card = c.skills[s].card
            count[card] = count.get(card, 0) + 1
    for card, n in count.items():
        copies = next(s.copies for s in c.skills.values() if s.card == card)
        if n > copies:
            return f"Only {copies} copies of the skill card {card} exist; {n} crew members need it."
    return ""


def level_up(member: dict[str, Any], choice: str = "1a") -> dict[str, Any]:
    """One level up: level 2 upgrades one skill, 3 the character, 4 the other skill.

    ``choice`` (see :data:`UPGRADE_CHOICES`) says which skill goes first and which of the two pro cards an
    amateur card grows into.
    """
    c = load_content()
    m = dict(member)
    m["skills"] = list(m["skills"])
    lvl = int(m["level"])
    if lvl >= MAX_LEVEL:
        return m
    lvl += 1
    pick = 1 if choice.endswith("b") else 0
    first, second = (1, 0) if choice.startswith("2") else (0, 1)

    def grow(options: tuple[str, ...]) -> str:
        """The chosen pro card among the two an amateur card grows into."""
        return options[min(pick, len(options) - 1)]

    if lvl == 2 and c.skills[m["skills"][first]].upgrades:
        m["skills"][first] = grow(c.skills[m["skills"][first]].upgrades)
    elif lvl == 3 and c.characters[m["character"]].upgrades:
        m["character"] = grow(c.characters[m["character"]].upgrades)
    elif lvl == 4 and c.skills[m["skills"][second]].upgrades:
        m["skills"][second] = grow(c.skills[m["skills"][second]].upgrades)
    m["level"] = lvl
    return m


def levelled_crew(level: int, cash: int = 0) -> dict[str, Any] | None:
    """A crew record whose players have reached ``level`` and whose pre-built characters were levelled up to
    it (each upgrading its first skill first, into the first pro card listed), with ``cash`` $k; None for a
    new crew (level 1, no cash). The bench's crews, and a test's, for a heist of a given difficulty."""
    if level <= 1 and not cash:
        return None
    characters = {}
    for key, member in prebuilt().items():
        for _ in range(level - 1):
            member = level_up(member, "1a")
        characters[key] = member
    return {"cash": cash, "characters": characters, "players": {"bench": level}}


def after_heist(st: HeistState) -> dict[str, Any]:
    """The record after a finished heist."""
    r = normalise(st.campaign)
    r = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in r.items()}
    won = bool(st.result and st.result.winners)
    h = R.heist(st)
    r["cash"] = int(st.team_cash) + int(st.hauled.get("cash", 0)) + (h.reward_cash_k if won else 0)
    if "the_curator" in st.fixers:
        # Beauty is in the eyes of the buyer: every jewel got out, beyond those the job hands over, sells for $4k.
        spare = int(st.hauled.get("jewel", 0)) - (h.objective.jewels if won else 0)
        r["cash"] += CURATOR_JEWEL_K * max(0, spare)
    bet = sum(int(b[4:]) for b in st.bought if b.startswith("bet:"))
    if bet and won and all(p.status == "escaped" for p in st.players.values()):
        r["cash"] += 2 * bet  # the Bookie pays: the stake back and as much again
    items: list[str] = []
    for p in st.players.values():
        if p.status != "busted":
            own = [i for i in p.items if i != "master_plan_copy"]
            start = R.character(p).starting_item
            if start in own:
                own.remove(start)  # a pro's own card comes back with the character, not the stash
            items += own
    r["shop"] = sorted(set(st.shop))
    if won and h.item and not any("item" in t.features for t in h.map.tiles.values()):
        items.append(h.item)  # the heist's item card, with no place on the map, is the team's reward
    r["items"] = items
    if won:
        if h.id not in r["won"]:
            r["won"].append(h.id)
        for f in load_content().fixers.values():
            if h.id in f.unlocked_by and f.id not in r["fixers"]:
                r["fixers"].append(f.id)
    chars = dict(r["characters"])
    known = {**prebuilt(), **chars}
    for p in st.players.values():
        key = slug(p.nickname)
        member = dict(known.get(key, {"nickname": p.nickname, "character": p.character, "skills": p.skills,
                                      "level": 1, "status": "free", "heists": 0}))  # fmt: skip
        member["heists"] = int(member.get("heists", 0)) + 1
        member["status"] = "jailed" if p.status == "busted" else "free"
        chars[key] = level_up(member, p.upgrade)
    if won and "breakout" in h.modules:
        # The breakout frees whoever sat in jail before this heist; whoever is Busted in it stays inside.
        caught_now = {slug(p.nickname) for p in st.players.values() if p.status == "busted"}
        for key, m in chars.items():
            if key not in caught_now:
                m["status"] = "free"
    r["characters"] = chars
    players = dict(r["players"])
    for member_id in sorted({str(m) for s, m in st.members.items() if s in st.seats and m is not None}):
        players[member_id] = min(
            MAX_LEVEL, int(players.get(member_id, 1)) + 1
        )  # once per member, not per seat
    r["players"] = players
    r["history"] = [*r["history"], {"heist": h.id, "won": won, "haul": dict(st.hauled), "round": st.round}]
    return r


def describe(record: dict[str, Any]) -> str:
    """A few lines for ``/heist crew``."""
    c = load_content()
    r = normalise(record)
    lines = [f"Team cash: ${r['cash']}k"]
    lines.append("Fixers: " + ", ".join(c.fixers[f].name for f in r["fixers"] if f in c.fixers))
    if r["items"]:
        lines.append("Items: " + ", ".join(c.items[i].name for i in r["items"] if i in c.items))
    if r["players"]:
        lines.append("Player levels: " + ", ".join(f"<@{k}> {v}" for k, v in sorted(r["players"].items())))
    for m in r["characters"].values():
        ch = c.characters[m["character"]].name
        sk = " + ".join(c.skills[s].name for s in m["skills"])
        lines.append(f"- {m['nickname']} (level {m['level']}, {m['status']}): {ch}, {sk}")
    for h in r["history"][-5:]:
        name = c.heists[h["heist"]].name if h["heist"] in c.heists else h["heist"]
        lines.append(f"* {name}: {'won' if h['won'] else 'lost'}")
    return "\n".join(lines)
