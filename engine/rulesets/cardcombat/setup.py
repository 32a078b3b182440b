"""Building a Dark Realms game: heroes from the lobby choices and campaign records, the scenario (ready-made,
random or the adventure's next chapter), enemies placed and scaled; and the campaign record afterwards."""

from __future__ import annotations

from typing import Any

from engine.dice import Rng
from engine.errors import SetupError
from engine.ruleset import SetupOptions
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.actions import begin_round
from engine.rulesets.cardcombat.content import (
    GENERATED_LEVEL,
    RULES,
    classes,
    enemies,
    items,
    races,
    scenarios,
)
from engine.rulesets.cardcombat.generator import generate
from engine.rulesets.cardcombat.state import CCState

ADVENTURE = ("crypt", "orc_camp", "prisoner", "vault", "golem_forge", "ogre_den")  # then generated scenarios


def group_size(heroes: int, per_hero: float = 1.0, free: int = 0) -> int:
    """Normal enemies per group besides its Captain: ``per_hero`` for each hero beyond the first ``free`` ones,
    rounded down. Ready-made scenarios: one per hero; generated ones (three groups and a boss): one per two
    heroes beyond the first. Tuned: see the balance figures in docs/rulings/cardcombat.md."""
    return int(max(0, heroes - free) * per_hero)


def choose_heroes(options: SetupOptions, seats: list[str]) -> dict[str, dict[str, Any]]:
    """Each seat's hero record (race, class, level, xp, gold, items, chapter). Saved heroes come from the
    campaign; 'auto' picks fill in distinct races and classes. Raises SetupError when two heroes would
    share a race or a class (a group game allows each only once) or a choice is unknown."""
    camp = options.options.get("campaign") or {}
    picks = {k: options.options.get(k) or {} for k in ("race", "class", "buy")}
    for k, v in picks.items():
        if not isinstance(v, dict):
            raise SetupError(f"The '{k}' option is chosen per seat.")
    out: dict[str, dict[str, Any]] = {}
    for seat in seats:
        rec = camp.get(seat) if isinstance(camp, dict) else None
        hero = (
            dict(rec)
            if isinstance(rec, dict) and rec.get("race") in races() and rec.get("class") in classes()
            else {}
        )
        race, cls = picks["race"].get(seat, "auto"), picks["class"].get(seat, "auto")
        if race not in ("auto", "saved", None) and race not in races():
            raise SetupError(f"There is no race '{race}'. Races: {', '.join(races())}.")
        if cls not in ("auto", "saved", None) and cls not in classes():
            raise SetupError(f"There is no class '{cls}'. Classes: {', '.join(classes())}.")
        if race in races() or cls in classes() or not hero:
            new = race in races() or cls in classes()
            if hero and new:  # a new hero replaces the saved one, keeping nothing
                hero = {}
            hero.setdefault("race", race if race in races() else "")
            hero.setdefault("class", cls if cls in classes() else "")
        out[seat] = hero
    taken_r = [h["race"] for h in out.values() if h.get("race")]
    taken_c = [h["class"] for h in out.values() if h.get("class")]
    for name, taken in (("race", taken_r), ("class", taken_c)):
        dup = {x for x in taken if taken.count(x) > 1}
        if dup:
            raise SetupError(
                f"Each {name} may be played by one hero only; {', '.join(sorted(dup))} is taken twice."
            )
    for i, seat in enumerate(seats):
        h = out[seat]
        if not h["race"]:
            h["race"] = next(r for r in list(races())[i:] + list(races()) if r not in taken_r)
            taken_r.append(h["race"])
        if not h["class"]:
            h["class"] = next(c for c in list(classes())[i:] + list(classes()) if c not in taken_c)
            taken_c.append(h["class"])
        h.setdefault("xp", 0)
        h.setdefault("gold", 0)
        h.setdefault("items", [])
        h.setdefault("chapter", 0)
        h["level"] = R.level_for(int(h["xp"]))
        buy = picks["buy"].get(seat)
        if buy and buy != "none":
            card = items().get(buy)
            if card is None:
                raise SetupError(f"There is no item '{buy}'.")
            limit = R.carry_limit(R.hero_stats(h["race"], h["class"], int(h["level"]))["stamina"])
            if len(h["items"]) >= limit:
                raise SetupError(
                    f"This hero already carries {len(h['items'])} items, as many as half its stamina."
                )
            if card.level > h["level"] or card.price > int(h["gold"]) or buy in h["items"]:
                raise SetupError(f"{card.name} costs {card.price} gold and needs level {card.level}; "
                                 f"this hero has {h['gold']} gold, level {h['level']}.")  # fmt: skip
            h["gold"] = int(h["gold"]) - card.price
            h["items"] = [*h["items"], buy]
    return out


def scenario_data(scenario_id: str, records: dict[str, dict[str, Any]], rng: Rng) -> dict[str, Any]:
    """The scenario as the state keeps it. 'random': generated at the party's level; 'adventure': the
    chapter the party has reached (the least advanced hero's), generated after the ready-made ones."""
    party_level = max(1, round(sum(int(h["level"]) for h in records.values()) / max(1, len(records))))
    if scenario_id == "adventure":
        chapter = min(int(h.get("chapter", 0)) for h in records.values())
        if chapter < len(ADVENTURE):
            data = ready_made(ADVENTURE[chapter])
            data["level"] = max(int(data["level"]), party_level)
        else:
            data = generate(rng, max(GENERATED_LEVEL, party_level))
        data["chapter"] = chapter
        data["adventure"] = True
        return data
    if scenario_id == "random":
        return generate(rng, max(GENERATED_LEVEL, party_level))
    return ready_made(scenario_id)


def ready_made(sid: str) -> dict[str, Any]:
    """A ready-made scenario as state data."""
    s = scenarios()[sid]
    return {"id": s.id, "name": s.name, "level": s.level, "rounds": s.rounds, "objective": s.objective,
            "rules": list(s.rules), "reward": s.reward, "groups": list(s.groups), "boss": s.boss,
            "rows": list(s.rows), "summary": s.summary}  # fmt: skip


def build_state(options: SetupOptions, rng: Rng) -> CCState:
    """A fresh game. Raises SetupError on bad options."""
    seats = [s for s in R.SEATS if s in options.seats]
    if not seats:
        raise SetupError("Dark Realms needs 1 to 4 heroes (seats hero1-hero4).")
    records = choose_heroes(options, seats)
    scen = scenario_data(options.scenario, records, rng)
    if scen["id"] == "random" and len(seats) == 1:
        scen["groups"] = scen["groups"][:1]  # a lone hero meets one group and the big enemy (tuned)
    rows = [r for r in scen["rows"]]
    figures: dict[str, dict[str, Any]] = {}
    starts = {ch: (x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch in "1234"}
    for i, seat in enumerate(seats):
        h = records[seat]
        stats = R.hero_stats(h["race"], h["class"], int(h["level"]))
        hp = stats["health"] + (2 if "rejuvenating_elixir" in scen["rules"] else 0)
        max_hp = hp
        if "fragile_alliance" in scen["rules"]:
            hp = max(1, hp - 3)
        at = starts[str(i + 1)]
        name = f"{races()[h['race']].name} {classes()[h['class']].name}"
        figures[h["class"]] = {
            "id": h["class"], "kind": "hero", "seat": seat, "race": h["race"], "cls": h["class"], "name": name,
            "level": int(h["level"]), "xp": int(h["xp"]), "gold": int(h["gold"]), "start_xp": int(h["xp"]),
            "start_gold": int(h["gold"]), "chapter": int(h.get("chapter", 0)), "pos": [at[0], at[1]], "hp": hp,
            "max_hp": max_hp, "stamina": stats["stamina"], "melee": stats["melee"], "ranged": stats["ranged"],
            "hand": R.hand_for(h["race"], h["class"], int(h["level"])), "cooldown": {}, "discard": [],
            "items": [{"id": it, "cd": 0, "active": False} for it in h["items"] if it in items()],
            "st": {}, "defence": 0, "shield": 0,
        }  # fmt: skip
    scratch = CCState(rng=rng, scenario=scen, figures=figures, seats=seats)
    groups = []
    for gi, etype in enumerate(scen["groups"]):
        letter = chr(97 + gi)
        groups.append((etype, [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == letter]))

    def place(etype: str, captain: bool, wish: tuple[int, int], fid: str) -> None:
        spot = wish if R.occupant(scratch, wish) is None else R.free_near(scratch, wish)
        if spot is not None:
            figures[fid] = R.make_enemy(scratch, etype, captain, spot, fid)

    # Captains and the boss take their own squares first; the others fill in around them.
    for etype, spots in groups:
        place(etype, True, spots[0], f"{enemies()[etype].short}cap")
    boss_at = next(((x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "B"), None)
    if scen.get("boss") and boss_at is not None:
        place(scen["boss"], False, boss_at, enemies()[scen["boss"]].short)
    for etype, spots in groups:
        for k in range(
            1, 1 + group_size(len(seats), float(scen.get("per_hero", 1.0)), int(scen.get("free_heroes", 0)))
        ):
            place(etype, False, spots[k] if k < len(spots) else spots[0], f"{enemies()[etype].short}{k}")
    prisoner_at = next(((x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "P"), None)
    if prisoner_at is not None:
        figures["prisoner"] = R.make_prisoner(prisoner_at)
    for r in scen["rules"]:
        if r not in RULES:
            raise SetupError(f"Unknown scenario rule {r}.")
    st = CCState(rng=rng, scenario=scen, figures=figures, seats=seats)
    begin_round(st, [])
    return st


def campaign_records(st: CCState) -> dict[str, dict[str, Any]]:
    """Each hero's record after the scenario: level, XP (10 for a win, 5 otherwise, plus the reward),
    gold (plus the reward), items, and the adventure chapter (advanced by a win)."""
    out = {}
    won = st.result is not None and bool(st.result.winners)
    reward = st.scenario.get("reward", "")
    for f in st.figures.values():
        if f["kind"] != "hero":
            continue
        xp = int(f["xp"]) + (10 if won else 5) + (20 if won and reward == "knowledge_is_power" else 0)
        gold = int(f["gold"]) + (20 if won and reward == "treasury_master" else 0)
        chapter = int(f["chapter"]) + (1 if won and st.scenario.get("adventure") else 0)
        out[f["seat"]] = {
            "race": f["race"], "class": f["cls"], "xp": xp, "level": R.level_for(xp), "gold": gold,
            "items": [i["id"] for i in f["items"]], "chapter": chapter,
            "last": {"scenario": st.scenario["name"], "won": won, "xp": xp - int(f["start_xp"]),
                     "gold": gold - int(f["start_gold"])},
        }  # fmt: skip
    return out
