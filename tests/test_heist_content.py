"""The heist content files: counts, cross-references and the loader's refusals."""

from __future__ import annotations

import json
import types
from collections import Counter
from typing import Any

import pytest

from engine.errors import ContentError
from engine.geometry import hexgrid as H
from engine.rulesets.heist import content as C

K = C.load_content()


def test_card_counts_match_the_published_set() -> None:
    levels = Counter(c.level for c in K.characters.values())
    assert levels == {"amateur": 8, "pro": 16}
    assert len({c.card for c in K.characters.values()}) == 16
    assert Counter(s.level for s in K.skills.values()) == {"amateur": 7, "pro": 14}
    assert len([a for a in K.actions.values() if a.origin == "card"]) == 53
    kinds = Counter(e.kind for e in K.events.values())
    assert kinds == {"event": 41, "crisis": 9}
    assert sum(e.copies for e in K.events.values() if e.kind == "crisis") == 13
    assert len(K.items) == 10 and sum(i.copies for i in K.items.values()) == 13
    assert len(K.fixers) == 15
    assert len(K.npcs) == 6 and Counter(n.role for n in K.npcs.values()) == {
        "prisoner": 2,
        "hostage": 2,
        "guide": 2,
    }
    assert len(K.crews) == 16
    assert len(K.heists) == 17
    assert len(K.subactions) == 10


def test_known_numbers_survive_conversion() -> None:
    lock = K.characters["angry_locksmith"]
    assert (lock.planning_memory, lock.initial_ideas, lock.default_actions) == (8, 3, ("walk", "pick"))
    assert [a.id for a in lock.abilities] == ["efficient_picker", "pick_under_pressure"]
    assert lock.upgrades == ("safecracker", "demolitions_guy")
    assert K.characters["safecracker"].starting_item == "safecracking_tools"
    assert K.characters["tinkerer"].default_actions == ("disable", "rewire_ability", "patch_in")
    assert K.actions["punch"].subactions == ("subdue", "noise", "noise", "move")
    assert K.actions["punch"].symbols == "👊🔊🔊➜" and K.actions["punch"].noise == 2
    assert K.actions["detonate"].subactions[-1] == "alert"
    assert K.actions["rewire"].kind == "plain" and K.actions["rewire_ability"].kind == "special"
    assert K.skills["linger"].action_for(6) == "snatch"  # the rulebook's version, not the later 🔓🔓💰🔊🔊
    assert K.actions["snatch"].noise == 3
    assert K.characters["bruiser"].initial_ideas == 2  # later revision lowered it to 1
    assert K.items["cheap_picks"].cost_k == 4 and K.items["cheap_picks"].action == "rake"
    with pytest.raises(ValueError):
        K.skills["linger"].action_for(0)


def test_angry_locksmith_options_with_one_idea() -> None:
    # The rulebook's example: Wing It + Smash 'n' Grab, rolled 1.
    skills = [K.skills["wing_it"], K.skills["smash_n_grab"]]
    rolled = {s.action_for(1) for s in skills}
    assert {K.actions[a].name for a in rolled} == {"Discover", "Punch"}
    one_idea = {s.action_for(f) for s in skills for f in (2, 6)}  # 1 +/- 1, wrapping 0 to 6
    assert {K.actions[a].name for a in one_idea} == {"Smash", "Grab", "Strongarm", "Scamper"}


def test_every_card_action_exists_and_use_action_abilities_have_their_action() -> None:
    for c in K.characters.values():
        for a in c.default_actions:
            assert a in K.actions
        for ab in c.abilities:
            if ab.kind == "use_action":
                assert ab.action in c.default_actions, (c.id, ab.id)
        specials = [a for a in c.default_actions if K.actions[a].kind == "special"]
        assert all(K.actions[a].ability in {ab.id for ab in c.abilities} for a in specials), c.id
    for s in K.skills.values():
        assert all(K.actions[a].kind == "plain" and K.actions[a].origin == "card" for a in s.faces)
    for n in K.npcs.values():
        assert all(a in K.actions for a in n.actions)
    assert K.npcs["guide"].special and not K.npcs["hostage"].special
    assert K.npc_back("hostage").id == "panicked_hostage"


def test_upgrade_trees_pair_double_sided_cards() -> None:
    for group in (K.characters, K.skills):
        for card in group.values():
            if card.level == "amateur":
                assert len(card.upgrades) == 2 and card.upgrades_from is None
                a, b = (group[u] for u in card.upgrades)
                assert a.level == b.level == "pro" and a.upgrades_from == b.upgrades_from == card.id
                assert a.card == b.card != card.card
            else:
                assert card.upgrades == () and card.upgrades_from in group
    classes = Counter(c.character_class for c in K.characters.values())
    assert len(classes) == 8 and set(classes.values()) == {3}
    assert all(s.copies == 2 for s in K.skills.values())


def test_crews_are_amateur_and_four_are_recommended() -> None:
    for crew in K.crews:
        assert K.characters[crew.character].level == "amateur"
        assert all(K.skills[s].level == "amateur" for s in crew.skills)
    assert {c.nickname for c in K.crews if c.recommended} == {
        "Johnny Swagger",
        "Tiny Mike",
        "Phobia",
        "Showtime",
    }


def test_fixers_are_unlocked_by_the_heists_that_name_them() -> None:
    starting = [f.id for f in K.fixers.values() if f.starting]
    assert starting == ["old_friend"] and K.fixers["old_friend"].unlocked_by == ()
    for h in K.heists.values():
        if h.fixer:
            assert h.id in K.fixers[h.fixer].unlocked_by
    for f in K.fixers.values():
        assert all(K.heists[h].fixer == f.id for h in f.unlocked_by)
    assert len(K.fixers["prison_guard"].unlocked_by) == 3


def test_event_effects_use_known_ops_and_only_final_crises_escape() -> None:
    for e in K.events.values():
        assert e.effects and e.summary and len(e.summary) <= 240
        assert all(x.op in C.OPS for x in e.effects)
    assert {e.id for e in K.events.values() if e.final} == {"Z1", "Z2"}
    assert all(K.events[z].kind == "crisis" for z in ("Z1", "Z2"))
    rotate = K.events["16"].effects
    assert [(x.op, x.who, x.min) for x in rotate] == [
        ("alert", "adjacent_live_camera", 1),
        ("alert", "adjacent_live_camera", 2),
    ]
    assert K.events["1"].effects == (C.Effect(op="bag_add", chit="camera", n=3),)


@pytest.mark.parametrize("heist_id", list(K.heists))
def test_heist_maps_decks_and_bags_hang_together(heist_id: str) -> None:
    h = K.heists[heist_id]
    m = h.map
    # entrances exist and face a building tile
    assert m.entrances or m.tunnels
    for e in m.entrances:
        facing = m.tiles[e].facing
        assert facing is not None
        t = m.tile(H.step(e, facing))
        assert t is not None and t.kind in ("blank", "security")
    # every unknown security tile can be drawn for
    security = [c for c, t in m.tiles.items() if t.kind == "security"]
    assert h.bag_total >= len(security) > 0
    # the deck: existing cards, one final crisis at the bottom, copies respected (one published duplicate)
    deck = h.event_deck
    assert all(c in K.events for c in deck)
    assert K.events[deck[-1]].final and sum(K.events[c].final for c in deck) == 1
    for card, n in Counter(deck).items():
        if (heist_id, card) != ("the_marathon_job", "A1"):
            assert n <= K.events[card].copies, card
    # the modules the deck and map need are in play
    if any(c in deck for c in ("G1", "G2", "G3", "G4", "C3", "Z2")):
        assert "lockdown_gates" in h.modules
    if "lockdown_gates" in h.modules:
        assert all(m.cells_with(f"gate_{x}") for x in "abcd")
    if "C1" in deck:
        assert m.cells_with("reinforcements")
    if "C2" in deck:
        assert m.cells_with("watchtower")
    if "C5" in deck:
        assert h.npc is not None
    if m.cells_with("kennel"):
        assert "guard_dogs" in h.modules
    # map-bound modules are in play exactly when the map has their pieces
    assert ("watchtower" in h.modules) == bool(m.cells_with("watchtower"))
    assert ("reinforcements" in h.modules) == bool(m.cells_with("reinforcements"))
    assert ("lockdown_gates" in h.modules) == bool(m.cells_with("gate_a"))
    remote = m.cells_with("remote_lock_x") + m.cells_with("remote_lock_y")
    assert ("remote_locks" in h.modules) == bool(remote)
    for x in "xy":
        if m.cells_with(f"remote_lock_{x}"):
            assert "remote_locks" in h.modules
            assert m.cells_with(f"server_{x}") or any(r.id == "usb_to_guide" for r in h.rules)
    if m.cells_with("keycard_door"):
        keycards = [c for c, t in m.tiles.items() if "keycard" in t.loot]
        assert keycards or h.bag.get("keycard") or (h.safe and "keycard" in h.safe.loot)
    # a safe needs its tile; the objective's loot exists somewhere
    assert (h.safe is not None) == bool(m.cells_with("safe"))
    loot: Counter[str] = Counter(x for t in m.tiles.values() for x in t.loot)
    loot.update({k: v for k, v in h.bag.items() if k in ("jewel", "docs")})
    if h.safe:
        loot.update(h.safe.loot)
    assert loot["docs"] >= h.objective.docs and loot["jewel"] >= h.objective.jewels
    cash = sum(t.cash_k for t in m.tiles.values()) + (h.safe.cash_k if h.safe else 0)
    assert cash >= h.objective.cash_k
    assert h.objective.summary


def test_heist_specifics() -> None:
    jeweler = K.heists["the_inclusion_job"]
    assert jeweler.difficulty == "amateur" and jeweler.fixer == "pawn_shop_owner"
    assert jeweler.bag == {"guard": 5, "camera": 6, "lock": 4}
    assert jeweler.event_deck[:10] == ("1", "2", "3", "4", "5", "6", "7", "8", "G1", "9")
    assert jeweler.map.entrances == ((8, 2), (8, 4), (5, 8))
    assert jeweler.map.tile((4, 2)) == C.MapTile((4, 2), "C2", "blank", chits=("camera", "camera"))
    assert jeweler.map.tile((0, 0)) is None
    assert "A5" not in K.heists["the_side_channel"].event_deck
    assert K.heists["county_jail_the_bricks"].event_deck == (*map(str, range(1, 25)), "Z1")
    assert K.heists["the_side_channel"].entrance_limit is None
    hotel = K.heists["the_hospitality_job"]
    assert hotel.safe == C.Safe(cracks=3, loot=("jewel",), cash_k=5) and hotel.npc == "hostage"
    assert hotel.map.cells_with("pawn")
    lair = K.heists["the_black_box"]
    assert len(lair.map.tunnels) == 5 and "tunnels" in lair.modules


def test_external_sides_face_the_open_outside_not_enclosed_holes() -> None:
    m = K.heists["the_inclusion_job"].map
    # c5 (2, 4) holds a jewel at the building's west edge: its west side faces open space.
    assert "w" in m.external_sides((2, 4))
    # An enclosed gap: the gap at f5 (5, 4) is surrounded by building tiles, so sides facing it are not external.
    assert m.tile((5, 4)) is None
    assert all(m.tile(n) is not None for n in H.neighbours((5, 4)))
    assert "e" not in m.external_sides((4, 4))
    assert m.external_sides((8, 2)) == ()  # an entrance is not a building tile
    # Removing a tile opens its neighbours' sides only if the new hole reaches the outside.
    gate_b = m.cells_with("gate_b")[0]
    assert gate_b == (4, 3) and m.external_sides(gate_b) == ()
    assert m.external_sides((4, 4), removed=frozenset({gate_b})) == ()  # joins the enclosed gap: still inside
    assert m.external_sides((2, 3)) == ()
    assert m.external_sides((2, 3), removed=frozenset({(1, 3)})) == ("w",)  # (1, 3) is on the outer wall
    # A side facing an entrance counts as external: the entrance is outdoors.
    assert "e" in m.external_sides((7, 2))


# --- the loader refuses bad data ------------------------------------------------------------------


def _patched(monkeypatch: pytest.MonkeyPatch, name: str, change: Any) -> None:
    real = C._read

    def fake(fname: str) -> Any:
        data = real(fname)
        if fname == name:
            data = json.loads(json.dumps(data))
            change(data)
        return data

    monkeypatch.setattr(C, "_read", fake)


def _set(path: list[Any], value: Any) -> Any:
    def change(data: Any) -> None:
        for p in path[:-1]:
            data = data[p]
        data[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("fname", "change", "fragment"),
    [
        ("skills.json", _set(["skills", 0, "faces", 2], "moonwalk"), "unknown action 'moonwalk'"),
        ("skills.json", _set(["skills", 0, "faces"], ["punch"] * 5), "6 faces"),
        ("characters.json", _set(["characters", 0, "level"], "legend"), "'legend' is not one of"),
        ("characters.json", _set(["characters", 0, "upgrades"], ["nobody"]), "unknown character"),
        ("actions.json", _set(["actions", 0, "subactions"], ["move", "dance"]), "'dance'"),
        ("events.json", _set(["events", 0, "effects", 0, "op"], "explode"), "unknown effect op"),
        ("events.json", _set(["events", 2, "effects", 0, "who"], "everyone_nearby"), "who selector"),
        ("heists.json", _set(["heists", 0, "event_deck", 0], "Q9"), "unknown event card 'Q9'"),
        ("heists.json", _set(["heists", 0, "map", "rows", 0], "GP GP"), "do not make a 9x9 grid"),
        (
            "heists.json",
            _set(["heists", 0, "map", "rows", 0], "GP XX GP $3 GP SX DO 2CL RYD"),
            "unknown tile code",
        ),
        (
            "heists.json",
            _set(["heists", 0, "map", "rows", 0], "GP E1 GP $3 GP SX DO 2CL RYD"),
            "does not face",
        ),
        ("heists.json", _set(["heists", 0, "bag", "goblin"], 2), "'goblin' is not one of"),
        ("heists.json", _set(["heists", 0, "safe"], {"cracks": 3}), "its map shows none"),
        ("fixers.json", _set(["fixers", 1, "unlocked_by"], ["the_moon_job"]), "unknown heist"),
        ("crews.json", _set(["crews", 0, "skills"], ["hurry", "juggling"]), "unknown skill"),
    ],
)
def test_loader_refuses_malformed_content(
    monkeypatch: pytest.MonkeyPatch, fname: str, change: Any, fragment: str
) -> None:
    _patched(monkeypatch, fname, change)
    with pytest.raises(ContentError, match=fragment):
        C._build()


def test_loader_reports_bad_json_with_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def joinpath(self, *parts: str) -> Broken:
            return self

        def read_text(self, encoding: str) -> str:
            return '{\n "skills": [\n'

    fake = types.SimpleNamespace(files=lambda pkg: Broken())
    monkeypatch.setattr("engine.rulesets.heist.content.resources", fake)
    with pytest.raises(ContentError, match=r"skills.json:3"):
        C._read("skills.json")
