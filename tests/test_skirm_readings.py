"""Skirm readings from the rulebook audit (issue 10, items 10-18), each with scripted dice."""

from __future__ import annotations

import pytest

from engine import IllegalCommand, new_game
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.state import DOWNED, OUT, STANDING
from tests.test_skirm_rules import arena, dests, sq, state, text


def test_a_target_one_square_away_but_two_higher_is_not_adjacent_so_it_may_be_shot():
    # The trooper on the street at i3 and the gaunt on the 2-high roof at i4 are not adjacent: no melee,
    # but the ranged rule only asks that the target is "not adjacent".
    game = arena({"trooper": "i3", "gaunt": "i4"}, dice=[6, 6, 6])
    st = state(game)
    assert not B.adjacent(st, sq("i3"), sq("i4"))
    game.apply("player1", "activate trooper")
    with pytest.raises(IllegalCommand, match="not in an adjacent square"):
        game.apply("player1", "fight trooper combat_knife gaunt")
    assert "shoot trooper assault_rifle gaunt" in {c.text for c in game.legal_commands("player1")}
    events = game.apply("player1", "shoot trooper assault_rifle gaunt")
    assert "attacks Gaunt" in text(events)


def test_an_adjacent_target_is_refused_with_a_message_naming_adjacency():
    game = arena({"captain": "e5", "gaunt": "e6"}, states={"gaunt": DOWNED})
    game.apply("player1", "activate captain")
    with pytest.raises(IllegalCommand, match="adjacent.*'fight'"):
        game.apply("player1", "shoot captain bolt_pistol gaunt")


def test_the_long_rifle_lifts_the_marksman_to_the_cap_and_the_cap_binds_only_the_plus_sk():
    # Content (item 16): the Marksman has RSK 4, so the Long Rifle's +SK makes it 5; with the pistol it is 4.
    st = state(arena({"marksman": "e1", "gaunt": "e9", "gaunt2": "i4"}))
    m, g = st.units["marksman"], st.units["gaunt"]
    assert R.attack_skill(st, m, R.wp("long_rifle"), g, False) == 5
    assert R.attack_skill(st, m, R.wp("bolt_pistol"), g, False) == 4
    # The cap of 5 binds +SK only: high ground still adds 1 afterwards (a 6 fails all the same).
    st.units["marksman"].pos = sq("j4")  # on the 2-high roof
    assert R.attack_skill(st, m, R.wp("long_rifle"), g, False) == 6
    # A Long Rifle shot at 5: dice [5] hits (it would miss at RSK 4); the gaunt's save [6] fails.
    game = arena({"marksman": "e1", "gaunt": "e9"}, dice=[5, 6, 6])
    game.apply("player1", "activate marksman")
    events = game.apply("player1", "shoot marksman long_rifle gaunt")
    assert "vs skill 5" in text(events) and state(game).units["gaunt"].state == DOWNED


def test_a_downed_unit_may_crawl_one_square_out_of_difficult_ground_but_a_dash_may_not():
    game = arena({"trooper": "d3", "gaunt": "l12"}, states={"trooper": DOWNED})
    game.apply("player1", "activate trooper")
    assert {"e2", "e3", "d2", "d4", "c2"} <= dests(game, "player1", "crawl")
    events = game.apply("player1", "crawl trooper e3")
    assert "crawls to e3" in text(events) and state(game).units["trooper"].pos == sq("e3")
    game = arena({"trooper": "d3", "gaunt": "l12"})
    game.apply("player1", "activate trooper")
    assert not dests(game, "player1", "dash") & {"e2", "e3", "e4"}  # Standing: Move out instead
    with pytest.raises(IllegalCommand, match="cannot reach"):
        game.apply("player1", "dash trooper e3")


def test_a_third_repeat_costs_three():
    game = arena({"captain": "e5", "gaunt": "l12"}, orders=(3, 0))
    game.apply("player1", "activate captain")
    assert "(1 ACT)" in game.parse("player1", "move captain e6").label
    game.apply("player1", "move captain e6")
    assert "(2 ACT)" in game.parse("player1", "move captain e7").label
    game.apply("player1", "move captain e7")
    assert "(3 ACT)" in game.parse("player1", "move captain e8").label  # 1 + 2, not 1 + 1
    game.apply("player1", "move captain e8")
    assert state(game).orders["player1"] == 0


def test_a_downed_leader_adds_no_order_dice():
    game = arena({"captain": "e5", "gaunt": "l12"}, states={"captain": DOWNED})
    st = state(game)
    st.rng.script = [2, 5, 1, 1, 1, 4, 4, 4, 1]  # roll-off, 3D6 only for player1, 3D6 for player2, event
    ev: list = []
    R.start_turn(st, ev)
    assert "5D6" not in text(ev) and st.orders_rolled["player1"] == 3


@pytest.mark.parametrize("a", ["shock", "coven", "stonekin", "ankh", "swarm"])
@pytest.mark.parametrize("b", ["shock", "coven", "stonekin", "ankh", "swarm"])
def test_every_unit_has_a_unique_name_and_board_label(a, b):
    game = new_game("skirm", scenario="seize", seats={"player1": "a", "player2": "b"}, seed=1,
                    options={"squad": {"player1": a, "player2": b}})  # fmt: skip
    st = state(game)
    names = [u.name for u in st.units.values()]
    assert len(set(names)) == len(names)
    labels = R.unit_labels(st)
    assert len(set(labels.values())) == len(labels)
    assert all(1 <= len(x) <= 3 for x in labels.values())


def test_events_and_command_labels_tell_identical_units_apart():
    game = arena({"trooper": "e1", "trooper2": "h2", "gaunt": "e9", "gaunt2": "h9"}, dice=[6] * 12)
    st = state(game)
    assert st.units["trooper"].name != st.units["trooper2"].name
    acts = [c.label for c in game.legal_commands("player1") if c.verb == "activate"]
    assert len(set(acts)) == len(acts) == 2
    game.apply("player1", "activate trooper")
    shots = [c.label for c in game.legal_commands("player1") if c.verb == "shoot"]
    assert len(set(shots)) == len(shots)
    first = text(game.apply("player1", "shoot trooper assault_rifle gaunt"))
    game.apply("player1", "end")
    game.apply("player2", "activate gaunt")
    game.apply("player2", "end")
    game.apply("player1", "activate trooper2")
    second = text(game.apply("player1", "shoot trooper2 assault_rifle gaunt2"))
    assert "Shock Trooper 1 attacks Gaunt 1" in first and "Shock Trooper 2 attacks Gaunt 2" in second
    # Commands still name units by id and round-trip through their text.
    for c in game.legal_commands("player1"):
        assert game.parse("player1", c.text) == c


def test_one_high_ground_between_two_units_gives_cover_like_a_low_wall_and_two_high_blocks():
    # Crossroads: f6 is a 1-high block (like a low wall, it hides legs and torso at most); i4-k5 is a 2-high
    # roof. Two ground-level units see past f6; a target right behind it (f7, seen from f3) is in cover.
    st = state(arena({"trooper": "f3", "gaunt": "f7"}))
    assert B.sees(st, sq("f3"), sq("f7"))  # past the 1-high f6
    assert B.in_cover(st, sq("f3"), sq("f7")) and not B.in_cover(st, sq("f3"), sq("f9"))
    assert not B.sees(st, sq("h4"), sq("l4"))  # 2 squares above both ends: no sight
    # From the 2-high roof the shooter looks over the 1-high block, and over a ground-level low wall.
    assert not B.in_cover(st, sq("i5"), sq("f7"))
    assert B.in_cover(st, sq("l8"), sq("g5")) and not B.in_cover(st, sq("i5"), sq("g5"))  # wall g5|h5
    # Shooting the gaunt at f7 from f3: attack [1 1] = 2 strikes, cover saves one, the gaunt rolls one save.
    game = arena({"trooper": "f3", "gaunt": "f7"}, dice=[1, 1, 6, 1])
    game.apply("player1", "activate trooper")
    events = game.apply("player1", "shoot trooper assault_rifle gaunt")
    assert "1 automatic save (cover)" in text(events) and "rolls 1 save " in text(events)


def options(game, seat: str) -> list[str]:
    return [c.text for c in game.legal_commands(seat)]


def test_push_follows_every_damaging_attack_and_the_attacker_chooses_0_to_2_squares():
    # War lance [1 6]: one strike, 2 damage; the warrior saves both [1 1] yet is still pushed (damage was
    # inflicted at the strike step). The attacker picks the square, or none.
    game = arena({"skyborn": "a11", "warrior": "b11"}, squads=("coven", "ankh"), dice=[1, 6, 1, 1])
    game.apply("player1", "activate skyborn")
    events = game.apply("player1", "fight skyborn war_lance warrior")
    assert "saves everything" in text(events)
    d = game.awaiting()[0]
    assert d.kind == "reaction" and d.seats == {"player1"} and d.default.text == "push none"
    opts = options(game, "player1")
    assert opts[0] == "push none" and {"push c11", "push c10", "push c12", "push d11"} <= set(opts)
    assert "push a10" not in opts and "push b10" not in opts  # never sideways or back
    with pytest.raises(IllegalCommand, match="up to 2 squares"):
        game.apply("player1", "push b12")
    events = game.apply("player1", "push c11")
    assert "pushed to c11" in text(events)
    st = state(game)
    assert st.units["warrior"].pos == sq("c11") and st.units["warrior"].state == STANDING
    # Choosing not to push leaves the target where it stands.
    game = arena({"skyborn": "a11", "warrior": "b11"}, squads=("coven", "ankh"), dice=[1, 6, 1, 1])
    game.apply("player1", "activate skyborn")
    game.apply("player1", "fight skyborn war_lance warrior")
    assert "is not pushed" in text(game.apply("player1", "push none"))
    assert state(game).units["warrior"].pos == sq("b11")
    # No damage, no push: [6 6] misses and play goes on.
    game = arena({"skyborn": "a11", "warrior": "b11"}, squads=("coven", "ankh"), dice=[6, 6])
    game.apply("player1", "activate skyborn")
    game.apply("player1", "fight skyborn war_lance warrior")
    assert game.awaiting()[0].kind == "activation"


def test_a_fall_from_a_push_hurts_and_its_saves_may_be_rerolled_with_an_order():
    # Breacher on the street shoots the gaunt on the 2-high roof with the shotgun: [1 6] one strike, save
    # [6] fails (Downed); pushed 2 squares to i6 it falls 2: saves [6 1]; player2 re-rolls the 6 -> 2.
    game = arena({"breacher": "i1", "gaunt": "i4"}, orders=(0, 1), dice=[1, 6, 6, 6, 1, 2])
    game.apply("player1", "activate breacher")
    game.apply("player1", "shoot breacher shotgun gaunt")
    game.apply("player2", "keep")  # the failed attack save: not worth an order here
    assert "push i6" in options(game, "player1")
    events = game.apply("player1", "push i6")
    assert "falls 2 squares" in text(events)
    d = game.awaiting()[0]
    assert (
        d.kind == "reaction" and d.seats == {"player2"} and options(game, "player2") == ["keep", "reroll 1"]
    )
    events = game.apply("player2", "reroll 1")
    assert "re-roll a 6 → 2" in text(events) and "lands safely" in text(events)
    assert state(game).units["gaunt"].state == DOWNED and state(game).units["gaunt"].pos == sq("i6")
    # Without orders the failed fall save takes the Downed gaunt Out.
    game = arena({"breacher": "i1", "gaunt": "i4"}, dice=[1, 6, 6, 6, 1])
    game.apply("player1", "activate breacher")
    game.apply("player1", "shoot breacher shotgun gaunt")
    game.apply("player1", "push i6")
    assert state(game).units["gaunt"].state == OUT


def test_the_attacker_picks_up_to_two_chain_targets():
    # Hex bolt (CHN) at the warrior at e5: warrior2 (d5), warrior3 (f5) and the wretch (e6) are next to it.
    game = arena({"witch": "e1", "warrior": "e5", "warrior2": "d5", "warrior3": "f5", "wretch": "e6"},
                 squads=("coven", "ankh"), dice=[6] * 6)  # fmt: skip
    game.apply("player1", "activate witch")
    game.apply("player1", "shoot witch hex_bolt warrior")
    d = game.awaiting()[0]
    assert d.kind == "reaction" and d.seats == {"player1"} and d.default.text == "chain done"
    assert options(game, "player1") == ["chain done", "chain warrior2", "chain warrior3", "chain wretch"]
    events = game.apply("player1", "chain wretch")
    assert "arcs to Flayed Wretch" in text(events)
    with pytest.raises(IllegalCommand, match="adjacent to the first target"):
        game.apply("player1", "chain witch")
    events = game.apply("player1", "chain warrior3")  # the second pick ends the choice and the dice roll
    attacked = [e.text for e in events if e.kind == "attack"]
    assert len(attacked) == 3 and "Flayed Wretch" in attacked[1] and "Revenant Warrior 3" in attacked[2]
    # 'chain done' right away rolls against the first target only.
    game = arena({"witch": "e1", "warrior": "e5", "warrior2": "d5"}, squads=("coven", "ankh"), dice=[6, 6])
    game.apply("player1", "activate witch")
    game.apply("player1", "shoot witch hex_bolt warrior")
    events = game.apply("player1", "chain done")
    assert len([e for e in events if e.kind == "attack"]) == 1


def test_orders_can_reroll_a_blast_shield_die():
    # The miner's mining charge (XPL) hits the trooper at e5; the breacher (BLS) next to it rolls its shield:
    # 5 fails; player2 spends an order: 2 holds, so no attack roll against the breacher.
    game = arena({"miner": "e1", "trooper": "e5", "breacher": "e6"}, squads=("stonekin", "shock"),
                 orders=(0, 1), dice=[6, 6, 5, 2])  # fmt: skip
    game.apply("player1", "activate miner")
    events = game.apply("player1", "shoot miner mining_charge trooper")
    assert "blast shield: 5" in text(events)
    assert game.awaiting()[0].seats == {"player2"} and options(game, "player2") == ["keep", "reroll 1"]
    events = game.apply("player2", "reroll 1")
    assert "blast shield holds (2)" in text(events)
    assert not any(e.kind == "attack" and "Breacher attacks" in e.text for e in events)


def test_orders_can_reroll_the_event_die():
    game = arena({"captain": "e5", "gaunt": "l12"})
    st = state(game)
    # Roll-off 2 v 5: player1 (the captain's LD2: 5 dice, one order); player2 3 dice, none; event 1 (calm).
    st.rng.script = [2, 5, 1, 4, 4, 4, 4, 4, 4, 4, 1, 4]
    ev: list = []
    R.start_turn(st, ev)
    assert st.event == 1 and options(game, "player1") == ["keep", "reroll 1"]
    events = game.apply("player1", "reroll 1")  # -> 4: supplies, the initiative winner gains an order
    assert "re-roll a 1 → 4" in text(events) and "event is 4" in text(events)
    assert st.event == 4 and st.orders["player1"] == 1 and not st.stack


def test_tactical_order_skills_answer_an_attack_during_the_other_squads_activation():
    # The trooper shoots the thane; player2 holds an order and the thane's Runic Ward: asked before the dice.
    game = arena({"trooper": "e1", "thane": "e5"}, squads=("shock", "stonekin"), orders=(0, 1),
                 dice=[1, 1, 6, 1])  # fmt: skip
    game.apply("player1", "activate trooper")
    game.apply("player1", "shoot trooper assault_rifle thane")
    d = game.awaiting()[0]
    assert d.kind == "reaction" and d.seats == {"player2"} and d.default.text == "pass"
    assert options(game, "player2") == ["pass", "skill thane runic_ward thane"]
    events = game.apply("player2", "skill thane runic_ward thane")
    # Attack [1 1 6]: 2 strikes; the ward saves one, the thane rolls one save [1].
    assert "1 automatic save (ward)" in text(events) and "rolls 1 save " in text(events)
    assert state(game).orders["player2"] == 0
    # 'pass' lets it come; 'react skill never' stops the question.
    game = arena({"trooper": "e1", "thane": "e5"}, squads=("shock", "stonekin"), orders=(0, 1), dice=[6] * 3)
    game.apply("player2", "react skill never")
    game.apply("player1", "activate trooper")
    game.apply("player1", "shoot trooper assault_rifle thane")
    assert game.awaiting()[0].kind == "activation"


@pytest.mark.parametrize("seed", [3, 4])
def test_every_legal_command_parses_back_to_itself_label_included(seed):
    game = new_game("skirm", scenario="seize", seats={"player1": "a", "player2": "b"}, seed=seed,
                    options={"squad": {"player1": "coven", "player2": "shock"}})  # fmt: skip
    for step in range(500):
        if game.outcome is not None:
            break
        seat = sorted(game.awaiting()[0].seats)[0]
        legal = game.legal_commands(seat)
        for c in legal:
            assert game.parse(seat, c.text) == c
        game.apply(seat, legal[(step * 7919 + seed) % len(legal)].text)
