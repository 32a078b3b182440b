"""Every event and crisis card does what its data says (the cards are driven by their data).

For each card the test reads its ``effects`` steps, sets the board up so that every step's selector words
hold, resolves the card and checks each step's outcome; cards whose steps have a condition are also
played with the condition false, and nothing of that step may happen then.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.rulesets.heist import events as E
from engine.rulesets.heist import rounds as RD
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.content import Effect, load_content
from engine.rulesets.heist.state import Chit, HeistState
from tests.heist_helpers import clear_board, game_for, indoor_path, put, skip_planning, state

CARDS = sorted(load_content().events)
HOME = {"D1": "the_proving_grounds", "D2": "the_proving_grounds", "D3": "the_proving_grounds",
        "C6": "the_proving_grounds", "C7": "the_proving_grounds", "C2": "the_side_channel",
        "C5": "the_side_channel"}  # fmt: skip
DOORS = {"the_inclusion_job": "i5", "the_proving_grounds": "h4", "the_side_channel": ""}


def setup(card: str) -> tuple[HeistState, str, str]:
    """A started heist for ``card``: p1 one step inside, p2 and p3 on the door; a long quiet deck."""
    heist = HOME.get(card, "the_inclusion_job")
    game = game_for(heist, dice=[3, 3, 3, 3])
    st = state(game)
    clear_board(st)
    door = DOORS.get(heist) or sorted(R.exits(st))[0]
    skip_planning(game, {"p1": door, "p2": door, "p3": door})
    t1, t2 = indoor_path(st, door, 2)
    st.players["p1"].pos = t1
    st.deck = ["M1"] * 30
    st.discard.clear()
    st.active_event = card
    return st, t1, t2


def count(st: HeistState, kind: str, active: bool | None = True) -> int:
    """Chits of ``kind`` on the board."""
    return sum(1 for n in st.tiles for c in R.chits(st, n, kind, active) if c.kind == kind)


def arrange_who(st: HeistState, word: str, t1: str, t2: str, k: int) -> None:
    """Make ``k`` characters (p1, then p2) match a ``who`` word."""
    p1, p2 = st.players["p1"], st.players["p2"]
    if k >= 2:
        p2.pos = t1
    if word in ("adjacent_live_camera",):
        put(st, t2, "camera")
    elif word == "adjacent_active_guard":
        put(st, t2, "guard")
    elif word == "on_external_tile":
        ext = sorted(R.board(st).external - R.exits(st))[0]
        p1.pos = ext
        if k >= 2:
            p2.pos = ext
    elif word == "on_subdued_guard":
        put(st, t1, "guard", active=False)
    elif word == "adjacent_two_unhandled":
        put(st, t2, "guard")
        put(st, t2, "camera")
    elif word == "alone":
        far = [e for e in sorted(R.exits(st)) if e not in R.nbrs(st, t1)]
        for q in (p2, st.players["p3"]):
            q.pos = far[0]
    elif word == "with_active_guard":
        put(st, t1, "guard")
    elif word == "plans_unrevealed":
        st.tiles[t2].unknown = True
        p1.plans = [t2]
    elif word == "inside_low_ideas":
        p1.ideas = 1
    elif word == "near_guard_not_near_camera":
        put(st, t2, "guard")


def arrange_where(st: HeistState, word: str, t1: str, t2: str) -> list[str]:
    """Make a ``where`` word pick a tile; returns the tiles it should pick."""
    if word == "active_guard_adjacent_character":
        put(st, t2, "guard")
        return [t2]
    if word == "disabled_camera_adjacent_disabled_camera":
        put(st, t1, "camera", active=False)
        put(st, t2, "camera", active=False)
        return [t1, t2]
    if word == "live_camera_adjacent_character":
        put(st, t2, "camera")
        return [t2]
    if word == "lock_adjacent_character":
        put(st, t2, "lock", active=False)
        return [t2]
    if word == "locked_lock_adjacent_character":
        put(st, t2, "lock")
        return [t2]
    if word == "subdued_guard_with_character":
        put(st, t1, "guard", active=False)
        return [t1]
    if word == "character_adjacent_live_camera":
        put(st, t2, "camera")
        return [t1]
    if word == "live_camera_adjacent_subdued_guard":
        put(st, t2, "camera")
        put(st, t1, "guard", active=False)
        return [t2]
    if word == "loot_tile":
        st.tiles[t2].loot.append("jewel")
        return [t2]
    if word == "kennel":
        return E.WHERE["kennel"](st)
    if word == "next_to_entrance":
        return E.WHERE["next_to_entrance"](st)
    raise AssertionError(f"no arrangement for where={word}")


def snapshot(st: HeistState) -> dict[str, Any]:
    """The parts of the state a card may change."""
    d = st.to_data(with_undo=False)
    return {k: d[k] for k in ("players", "tiles", "bag", "removed", "npcs", "discard", "deck")}


def prepare(st: HeistState, eff: Effect, t1: str, t2: str) -> dict[str, Any]:
    """Arrange the board for one step; returns what the check needs to know."""
    info: dict[str, Any] = {}
    if eff.who and eff.op in ("alert", "ideas", "gift", "transfer", "drop_loot"):
        arrange_who(st, eff.who, t1, t2, eff.min)
    if eff.where and eff.op in ("place", "reactivate", "dogs"):
        info["tiles"] = arrange_where(st, eff.where, t1, t2)
    if eff.per == "crowded_entrance":
        info["per"] = 1  # p2 and p3 share the door
    if eff.op == "bag_upgrade":
        st.bag.append(eff.chit)
    if eff.op == "drop_loot":
        p1 = st.players["p1"]
        p1.cash, p1.loot, p1.items = 2, ["jewel", "docs", "usb", "keycard"], ["radio"]
    if eff.op == "reinforcements":
        info["tokens"] = [n for n, t in st.tiles.items() if "reinforcements" in t.marks]
    if eff.op == "watchtower_sweep":
        tower = next(n for n, t in sorted(st.tiles.items()) if "watchtower" in t.marks)
        line = next(ln for ln in R.board(st).lines[tower] if ln and ln[0] not in R.exits(st))
        st.players["p1"].pos = line[0]
        info["spot"] = line[0]
    if eff.needs == "objective_met":
        st.hauled["jewel"] = 3
    if eff.needs == "previous":
        put(st, t1, "guard", active=False)
    return info


def check(st: HeistState, before: dict[str, Any], eff: Effect, info: dict[str, Any], alerts: int) -> None:
    """The outcome one step promises is there."""
    p1 = st.players["p1"]
    if eff.op == "bag_add":
        assert st.bag.count(eff.chit) == before["bag"].count(eff.chit) + eff.n
    elif eff.op == "bag_upgrade":
        assert eff.chit + "2x" in st.bag
    elif eff.op == "alert":
        assert alerts >= eff.n * info.get("per", 1)
    elif eff.op == "place":
        for n in info["tiles"]:
            assert R.chits(st, n, eff.chit, active=True), f"no {eff.chit} placed at {n}"
    elif eff.op == "reactivate":
        for n in info["tiles"]:
            assert R.chits(st, n, eff.chit, active=True) and not R.chits(st, n, eff.chit, active=False)
    elif eff.op == "ideas":
        old = before["players"]["p1"]["ideas"]
        assert p1.ideas == max(0, old + eff.n)
    elif eff.op in ("gift", "transfer"):
        verbs = {c.verb for s in st.seats for c in E.choice_commands(st, st.players[s])}
        assert E.choice_verb(eff) in verbs
    elif eff.op == "drop_loot":
        keep = E.objective_loot(st)
        assert set(p1.loot) <= keep and not p1.items and (p1.cash == 0 or "cash" in keep)
    elif eff.op == "dogs":
        assert count(st, "dog") == eff.n * len(info["tiles"]) > 0
    elif eff.op == "gates":
        assert len(st.removed) == (eff.n or 4)
    elif eff.op == "gate_chit":
        assert any(R.chits(st, n, eff.chit) for n in st.tiles if any(g in st.tiles[n].marks for g in R.GATES))
    elif eff.op == "reinforcements":
        for n in info["tokens"]:
            assert "reinforcements" not in st.tiles[n].marks and R.guards(st, n) >= 2
    elif eff.op == "watchtower_sweep":
        assert R.guards(st, info["spot"]) >= 1
    elif eff.op == "panic":
        assert st.npcs and all(n.panic for n in st.npcs)
    elif eff.op == "escape":
        assert load_content().events[st.active_event].final
    elif eff.op == "nothing":
        assert snapshot(st) == before


@pytest.mark.parametrize("card", CARDS)
def test_every_card_does_what_its_data_says(card: str) -> None:
    st, t1, t2 = setup(card)
    steps = load_content().events[card].effects
    assert steps, f"card {card} has no effect steps"
    infos = [prepare(st, eff, t1, t2) for eff in steps]
    before = snapshot(st)
    E.resolve(st, card, [])
    alerts = len(st.discard)
    for eff, info in zip(steps, infos, strict=True):
        check(st, before, eff, info, alerts)
    if all(e.op == "alert" for e in steps):
        assert alerts == sum(e.n * info.get("per", 1) for e, info in zip(steps, infos, strict=True))


CONDITIONAL = [c for c in CARDS if any(e.needs or (e.who and e.op in ("alert", "ideas")) for e in load_content().events[c].effects)]  # fmt: skip


@pytest.mark.parametrize("card", CONDITIONAL)
def test_a_card_whose_condition_fails_does_nothing_of_it(card: str) -> None:
    """Nobody matches the card's ``who`` (p1 alone, nothing around) and no ``needs`` holds."""
    st, t1, t2 = setup(card)
    p1 = st.players["p1"]
    p1.ideas = 3
    p1.pos = sorted(R.exits(st))[-1]
    for q in (st.players["p2"], st.players["p3"]):
        q.pos = p1.pos
    st.flags.append(E.REPLAYED)  # Coming In Hot!: alerts went past it
    before = snapshot(st)
    E.resolve(st, card, [])
    steps = load_content().events[card].effects
    if any(e.op == "alert" for e in steps):
        assert len(st.discard) == 0
    if any(e.op == "ideas" for e in steps):
        assert p1.ideas == before["players"]["p1"]["ideas"]
    if any(e.needs for e in steps):
        verbs = {c.verb for s in st.seats for c in E.choice_commands(st, st.players[s])}
        assert verbs == {"continue"}


def test_coming_in_hot_does_nothing_once_alerts_went_past_it() -> None:
    """Card 24: read again because the deck ran out (alerts went past it), it offers no hand-off."""
    st, t1, t2 = setup("24")
    st.players["p1"].ideas = 2
    st.phase = "action"
    for p in R.in_play(st):
        p.done = True
    st.deck, st.last_event = [], "24"
    events: list = []
    RD.event_phase(st, events)
    assert st.phase != "event"
    assert any("alerts already went past" in e.text for e in events)


def test_coming_in_hot_offers_a_hand_off_when_it_is_on_top() -> None:
    st, t1, t2 = setup("24")
    st.players["p1"].ideas = 2
    st.phase = "action"
    for p in R.in_play(st):
        p.done = True
    st.deck = ["24", "M1", "M1"]
    RD.event_phase(st, [])
    assert st.phase == "event"
    assert any(c.verb == "handoff" for c in E.choice_commands(st, st.players["p1"]))


def test_every_selector_word_in_the_data_has_code() -> None:
    """Content data that code ignores is a bug: each word a card uses is a function here."""
    tables = {"who": E.WHO, "where": {**E.WHERE, **E.TARGETS}, "per": E.PER, "needs": E.NEEDS}
    for card in load_content().events.values():
        for eff in card.effects:
            assert eff.op in E.OPS, f"{card.id}: op {eff.op}"
            for field, table in tables.items():
                word = getattr(eff, field)
                assert not word or word in table, f"{card.id}: {field}={word} has no code"


def test_unused_chit_fields_stay_default() -> None:
    """No card carries an argument its step ignores (a field set but unused would drift from play)."""
    used = {"bag_add": {"chit", "n"}, "bag_upgrade": {"chit"}, "alert": {"n", "who", "min", "per"},
            "place": {"chit", "where"}, "reactivate": {"chit", "where"}, "ideas": {"n", "who"},
            "gift": {"who", "pay", "where"}, "transfer": {"who", "where", "pay"},
            "drop_loot": {"who"}, "dogs": {"n", "where", "toward", "steps"}, "gates": {"n"},
            "gate_chit": {"chit"}}  # fmt: skip
    default = Effect(op="x")
    for card in load_content().events.values():
        for eff in card.effects:
            for field in ("n", "chit", "who", "where", "min", "per", "pay", "toward", "steps"):
                if getattr(eff, field) != getattr(default, field):
                    assert field in used.get(eff.op, set()), f"{card.id}: {eff.op} ignores {field}"


def test_a_chit_put_by_a_card_is_active() -> None:
    st, t1, t2 = setup("9")
    put(st, t2, "camera")
    E.resolve(st, "9", [])
    assert all(isinstance(c, Chit) and c.active for c in st.tiles[t2].chits)
