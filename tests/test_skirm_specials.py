"""Every Skirm unit and weapon special rule, with scripted dice (test_rule_<code>), and the skills."""

from __future__ import annotations

import pytest

from engine import IllegalCommand, SetupError, new_game
from engine.rulesets.skirm import board as B
from engine.rulesets.skirm import rules as R
from engine.rulesets.skirm.squads import check_squad
from engine.rulesets.skirm.state import DOWNED, OUT, STANDING
from tests.test_skirm_rules import arena, dests, sq, state, text

CA = ("coven", "ankh")
SS = ("shock", "swarm")
KS = ("stonekin", "shock")


def custom(faction: str, *units: dict) -> dict:
    return {"name": "Custom", "faction": faction, "units": list(units)}


def label(game, seat: str, cmd: str) -> str:
    return game.parse(seat, cmd).label


# -- unit special rules --------------------------------------------------------------------------------------


def test_rule_2MC():
    sister = custom("coven", {"type": "sister", "weapons": ["ritual_blade"]})
    game = arena({"sister": "e1", "warrior": "f1"}, squads=(sister, "ankh"), dice=[6, 6, 6, 6])
    game.apply("player1", "activate sister")
    game.apply("player1", "fight sister ritual_blade warrior")
    assert "(1 ACT)" in label(game, "player1", "fight sister ritual_blade warrior")  # no repeat penalty
    game.apply("player1", "fight sister ritual_blade warrior")
    with pytest.raises(IllegalCommand, match="needs 2 ACT"):  # a third melee costs 2 again
        game.apply("player1", "fight sister ritual_blade warrior")


def test_rule_weapon_2MC():
    zealot = custom("coven", {"type": "zealot", "weapons": ["chain_glaive", "twin_blades"]})
    # Chain glaive [6 6] and its Brutal re-rolls [6 6]: a miss.
    game = arena({"zealot": "e1", "warrior": "f1"}, squads=(zealot, "ankh"), dice=[6, 6, 6, 6])
    game.apply("player1", "activate zealot")
    game.apply("player1", "fight zealot chain_glaive warrior")
    assert "(1 ACT)" in label(game, "player1", "fight zealot twin_blades warrior")
    st = state(game)
    assert R.action_cost(st, st.units["zealot"], "melee", 1, R.wp("twin_blades")) == 1
    zealot2 = custom("coven", {"type": "zealot", "weapons": ["chain_glaive", "ritual_blade"]})
    game = arena({"zealot": "e1", "warrior": "f1"}, squads=(zealot2, "ankh"), dice=[6, 6, 6, 6])
    game.apply("player1", "activate zealot")
    game.apply("player1", "fight zealot chain_glaive warrior")
    st = state(game)
    assert R.action_cost(st, st.units["zealot"], "melee", 1, R.wp("ritual_blade")) == 2


def test_rule_2RC():
    game = arena({"deathmark": "e1", "witch": "e5"}, squads=CA, side="player2", dice=[6, 6])
    game.apply("player2", "activate deathmark")
    game.apply("player2", "shoot deathmark synaptic_rifle witch")
    assert "(1 ACT)" in label(game, "player2", "shoot deathmark synaptic_rifle witch")


def test_rule_weapon_2RC():
    pistol = custom("shock", {"type": "trooper", "weapons": ["bolt_pistol", "assault_rifle"]})
    game = arena({"trooper": "e1", "gaunt": "e5"}, squads=(pistol, "swarm"), dice=[6, 6])
    game.apply("player1", "activate trooper")
    game.apply("player1", "shoot trooper bolt_pistol gaunt")
    assert "(1 ACT)" in label(game, "player1", "shoot trooper assault_rifle gaunt")  # the rifle has 2RC
    st = state(game)
    assert R.action_cost(st, st.units["trooper"], "ranged", 1, R.wp("bolt_pistol")) == 2  # no 2RC weapon used
    game2 = arena(
        {"trooper": "e1", "gaunt": "e5"},
        squads=(custom("shock", {"type": "trooper", "weapons": ["bolt_pistol"]}), "swarm"),
        dice=[6, 6],
    )  # noqa: E501
    game2.apply("player1", "activate trooper")
    game2.apply("player1", "shoot trooper bolt_pistol gaunt")
    with pytest.raises(IllegalCommand, match="needs 2 ACT"):
        game2.apply("player1", "shoot trooper bolt_pistol gaunt")


def test_rule_BLS():
    # The miner's charge lands on the trooper (e5); the breacher (e6) is caught in the blast.
    # Trooper: attack [6 6] misses. Breacher: blast shield 2 -> no attack roll against it.
    game = arena({"miner": "e2", "trooper": "e5", "breacher": "e6"}, squads=KS, dice=[6, 6, 2])
    game.apply("player1", "activate miner")
    events = game.apply("player1", "shoot miner mining_charge trooper")
    assert "blast shield holds (2)" in text(events)
    # A failed shield (5): the breacher is rolled against.
    game = arena({"miner": "e2", "trooper": "e5", "breacher": "e6"}, squads=KS, dice=[6, 6, 5, 6, 6])
    game.apply("player1", "activate miner")
    events = game.apply("player1", "shoot miner mining_charge trooper")
    assert "blast shield fails (5)" in text(events) and "attacks Breacher" in text(events)


def test_rule_BRU():
    # Zealot (MSK 4) with the chain glaive: [6 2], the 6 is re-rolled free -> 3: two strikes.
    game = arena({"zealot": "e1", "warrior": "f1"}, squads=CA, dice=[6, 2, 3, 1, 1, 1, 1])
    game.apply("player1", "activate zealot")
    events = game.apply("player1", "fight zealot chain_glaive warrior")
    assert "[6 2], free re-rolls → [3 2]" in text(events) and "2 strikes, 4 damage" in text(events)


def test_rule_weapon_BRU():
    glaive = custom("coven", {"type": "skyborn", "weapons": ["chain_glaive", "war_lance"]})
    game = arena({"skyborn": "e1", "warrior": "f1"}, squads=(glaive, "ankh"), dice=[6, 6, 1, 1, 1, 1, 1, 1])
    game.apply("player1", "activate skyborn")
    events = game.apply("player1", "fight skyborn chain_glaive warrior")
    assert "free re-rolls → [1 1]" in text(events)
    game = arena({"skyborn": "e1", "warrior": "f1"}, squads=(glaive, "ankh"), dice=[6, 6])
    game.apply("player1", "activate skyborn")
    events = game.apply("player1", "fight skyborn war_lance warrior")
    assert "free re-rolls" not in text(events)


def test_rule_CAM():
    game = arena({"gaunt": "e1", "marksman": "e5"}, side="player2", dice=[1, 1, 1])
    game.apply("player2", "activate gaunt")
    events = game.apply("player2", "shoot gaunt fleshborer marksman")
    assert "1 automatic save (CAM)" in text(events) and "rolls 1 save " in text(events)
    game = arena({"gaunt": "e2", "marksman": "e5"}, side="player2", dice=[1, 1, 1, 1])
    game.apply("player2", "activate gaunt")
    events = game.apply("player2", "shoot gaunt fleshborer marksman")  # 3 squares: no camouflage
    assert "CAM" not in text(events) and "rolls 2 saves" in text(events)


def test_rule_CMD():
    game = arena({"captain": "e1", "trooper": "g1", "gaunt": "l12"})
    game.apply("player1", "activate captain")
    game.apply("player1", "order captain trooper")
    st = state(game)
    assert st.ordered == "trooper" and st.units["captain"].act_used == 1
    opts = game.legal_commands("player1")
    assert {c.verb for c in opts} <= {
        "end",
        "move",
        "dash",
        "shoot",
        "fight",
        "open",
        "close",
        "pickup",
        "drop",
        "recover",
    }
    with pytest.raises(IllegalCommand, match="carrying out an order"):
        game.apply("player1", "move captain e2")
    game.apply("player1", "move trooper g4")
    assert st.ordered == "" and st.active == "captain" and st.units["trooper"].pos == sq("g4")
    assert not st.units["trooper"].activated and st.units["trooper"].act_used == 0
    assert st.units["captain"].act_used == 1
    with pytest.raises(IllegalCommand, match="no Command"):
        game2 = arena({"trooper": "e1", "trooper2": "g1", "gaunt": "l12"})
        game2.apply("player1", "activate trooper")
        game2.apply("player1", "order trooper trooper2")


def test_rule_CTR():
    # Gaunt claws [6] misses the zealot; the zealot strikes back: glaive [1 1] (4 damage), saves [6 6 6 6].
    game = arena(
        {"zealot": "e1", "gaunt": "f1"}, squads=("coven", "swarm"), side="player2", dice=[6, 1, 1, 6, 6, 6, 6]
    )
    game.apply("player2", "activate gaunt")
    events = game.apply("player2", "fight gaunt claws zealot")
    assert "counter-attacks (CTR)" in text(events)
    st = state(game)
    assert st.units["gaunt"].state == DOWNED
    # Downed by the attack: no counter.
    game = arena({"zealot": "e1", "gaunt": "f1"}, squads=("coven", "swarm"), side="player2", dice=[1, 6])
    game.apply("player2", "activate gaunt")
    events = game.apply("player2", "fight gaunt claws zealot")
    assert "CTR" not in text(events) and state(game).units["zealot"].state == DOWNED


def test_rule_DOD():
    game = arena({"trooper": "e1", "ripper": "f1"}, dice=[1])
    game.apply("player1", "activate trooper")
    events = game.apply("player1", "fight trooper combat_knife ripper")
    assert "1 automatic save (DOD)" in text(events) and state(game).units["ripper"].state == STANDING


def test_rule_INF():
    game = new_game("skirm", seed=2, dice=[2, 5], options={"squad": {"player1": "shock", "player2": "swarm"}})
    game.apply("player1", "zone south")
    game.apply("player1", "deploy captain e11")
    spots = {c.args[1] for c in game.legal_commands("player2") if c.args[0] == "stalker"}
    assert "e5" in spots and "e8" not in spots and "e7" not in spots  # more than 4 squares away only
    assert "e5" not in {c.args[1] for c in game.legal_commands("player2") if c.args[0] == "gaunt"}
    game.apply("player2", "deploy stalker e5")
    # Before any enemy is placed, the enemy zone itself keeps infiltrators 5+ squares away.
    game = new_game("skirm", seed=2, dice=[5, 2], options={"squad": {"player1": "shock", "player2": "swarm"}})
    game.apply("player2", "zone north")
    spots = {c.args[1] for c in game.legal_commands("player2") if c.args[0] == "stalker"}
    assert "e6" in spots and "e7" not in spots and "e11" not in spots


def test_rule_LDx():
    st = state(arena({"thane": "e1", "trooper": "l12"}, squads=KS))
    assert R.leader_dice(st, "player1") == 2
    st.units["thane"].state = DOWNED
    assert R.leader_dice(st, "player1") == 0


def test_rule_LPx():
    game = arena({"skyborn": "e2", "warrior": "l12"}, squads=CA)
    game.apply("player1", "activate skyborn")
    leaps = dests(game, "player1", "leap")
    assert "e5" in leaps and "h5" in leaps and "f4" not in leaps  # straight lines of up to 3
    assert "(2 ACT)" in label(game, "player1", "leap skyborn e5")
    game.apply("player1", "leap skyborn e5")  # over the low wall e3|e4, no extra cost
    assert state(game).units["skyborn"].pos == sq("e5") and state(game).units["skyborn"].act_used == 2
    game = arena({"skyborn": "h4", "warrior": "l12"}, squads=CA)
    game.apply("player1", "activate skyborn")
    assert "j4" in dests(game, "player1", "leap")  # onto the 2-high roof, height ignored


def test_rule_NEQ():
    with pytest.raises(SetupError, match="NEQ"):
        check_squad(custom("ankh", {"type": "warrior", "weapons": ["synaptic_rifle"]}))
    with pytest.raises(SetupError, match="NEQ"):
        check_squad(custom("swarm", {"type": "gaunt", "weapons": ["acid_spit"]}))
    check_squad(custom("swarm", {"type": "gaunt", "weapons": ["fleshborer", "claws"]}))


def test_rule_NMB():
    game = arena({"wretch": "c12", "trooper": "e11"}, squads=("shock", "ankh"), side="player2")
    game.apply("player2", "activate wretch")
    assert "f12" in dests(game, "player2", "move")


def test_rule_PAR():
    # The trooper's knife rolls [1]; the sister parries it -> 6: no strike at all.
    game = arena({"trooper": "e1", "sister": "f1"}, squads=("shock", "coven"), dice=[1, 6])
    game.apply("player1", "activate trooper")
    events = game.apply("player1", "fight trooper combat_knife sister")
    assert "parries" in text(events) and "0 strikes" in text(events)


def test_rule_PRC():
    # Marksman (PRC) with the long rifle: [6] re-rolled free -> 2: one strike, DAM 2.
    game = arena({"marksman": "e1", "gaunt": "e6"}, dice=[6, 2, 6, 6])
    game.apply("player1", "activate marksman")
    events = game.apply("player1", "shoot marksman long_rifle gaunt")
    assert "free re-rolls → [2]" in text(events) and state(game).units["gaunt"].state == DOWNED


def test_rule_weapon_PRC():
    # The Rivet Gun rolls 3 dice (ruling 47): both misses are re-rolled free, the 6 misses again.
    game = arena({"ironguard": "e1", "trooper": "e6"}, squads=KS, dice=[6, 3, 5, 2, 6, 4, 4])
    game.apply("player1", "activate ironguard")
    events = game.apply("player1", "shoot ironguard rivet_gun trooper")
    assert "3 dice vs skill 3 → [6 3 5], free re-rolls → [2 3 6]" in text(events)
    assert "2 strikes" in text(events)


def test_rule_REP():
    st = state(arena({"trooper": "e1", "stalker": "f1"}))
    assert R.attack_skill(st, st.units["trooper"], R.wp("combat_knife"), st.units["stalker"], True) == 2
    assert R.attack_skill(st, st.units["trooper"], R.wp("assault_rifle"), st.units["stalker"], False) == 4


def test_rule_RGR():
    game = arena({"miner": "d3", "trooper": "l12"}, squads=KS)
    game.apply("player1", "activate miner")
    assert "g3" in dests(game, "player1", "move")  # difficult ground costs a Ranger nothing extra


def test_rule_SWF():
    game = arena({"trooper": "l12", "gaunt": "a1"}, side="player2")
    game.apply("player2", "activate gaunt")
    assert "e1" in dests(game, "player2", "move") and "f1" not in dests(game, "player2", "move")
    assert "c1" in dests(game, "player2", "dash")


def test_rule_TEN():
    game = arena(
        {"warrior": "e1", "witch": "l12"}, squads=CA, side="player2", states={"warrior": DOWNED}, dice=[6, 2]
    )
    game.apply("player2", "activate warrior")
    events = game.apply("player2", "recover warrior warrior")
    assert "TEN re-roll → 2" in text(events) and state(game).units["warrior"].state == STANDING


def test_rule_Tough():
    game = arena({"breacher": "e1", "gaunt": "f1"}, side="player2", dice=[1, 6, 3])
    game.apply("player2", "activate gaunt")
    events = game.apply("player2", "fight gaunt claws breacher")
    assert "Tough re-rolls → [3]" in text(events) and state(game).units["breacher"].state == STANDING
    game = arena({"breacher": "e1", "gaunt": "e4"}, side="player2", dice=[1, 6, 6])
    game.apply("player2", "activate gaunt")
    events = game.apply("player2", "shoot gaunt fleshborer breacher")  # Tough does not help at range
    assert "Tough" not in text(events) and state(game).units["breacher"].state == DOWNED


def test_rule_TMP():
    game = arena({"trooper": "e1", "gaunt": "e4"}, side="player2", dice=[1, 6, 5, 2])
    game.apply("player2", "activate gaunt")
    events = game.apply("player2", "shoot gaunt fleshborer trooper")
    assert "TMP re-rolls → [2]" in text(events) and state(game).units["trooper"].state == STANDING
    game = arena({"trooper": "e1", "gaunt": "f1"}, side="player2", dice=[1, 5])
    game.apply("player2", "activate gaunt")
    events = game.apply("player2", "fight gaunt claws trooper")  # TMP does not help in melee
    assert "TMP" not in text(events) and state(game).units["trooper"].state == DOWNED


def test_rule_UNQ():
    with pytest.raises(SetupError, match="Shock Captain may appear only once"):
        check_squad(custom("shock", {"type": "captain"}, {"type": "captain"}))


# -- weapon special rules -------------------------------------------------------------------------------------


def test_rule_plus_SK():
    st = state(arena({"marksman": "e1", "deathmark": "e9"}, squads=("shock", "ankh")))
    m, d = st.units["marksman"], st.units["deathmark"]
    assert R.attack_skill(st, m, R.wp("long_rifle"), d, False) == 5  # RSK 4 + 1
    assert R.attack_skill(st, d, R.wp("synaptic_rifle"), m, False) == 5  # RSK 4 + 1


def test_rule_ARP():
    # Power sword [6 6]: no rolled strike, but one automatic strike: 2 damage, saves [6 6].
    game = arena({"captain": "e1", "gaunt": "f1"}, dice=[6, 6, 6, 6])
    game.apply("player1", "activate captain")
    events = game.apply("player1", "fight captain power_sword gaunt")
    assert "1 automatic strike (ARP)" in text(events) and "1 strike, 2 damage" in text(events)


def test_rule_CHN():
    st = state(
        arena({"witch": "e1", "warrior": "e5", "warrior2": "d5", "warrior3": "f5", "wretch": "e6"}, squads=CA)
    )
    q = R.attack_targets(st, st.units["witch"], R.wp("hex_bolt"), sq("e5"), False)
    assert q == [{"id": "warrior", "primary": True}]  # the chain targets are the attacker's picks
    game = arena({"witch": "e1", "warrior": "e5", "warrior2": "d5", "sister": "f5"}, squads=CA, dice=[6] * 4)
    game.apply("player1", "activate witch")
    game.apply("player1", "shoot witch hex_bolt warrior")
    assert [c.text for c in game.legal_commands("player1")] == [
        "chain done",
        "chain warrior2",
    ]  # enemies only
    events = game.apply("player1", "chain warrior2")
    assert len([e for e in events if e.kind == "attack"]) == 2


def test_rule_HVY():
    game = arena({"marksman": "e1", "gaunt": "e9"})
    game.apply("player1", "activate marksman")
    game.apply("player1", "move marksman e2")
    with pytest.raises(IllegalCommand, match="needs 2 ACT"):  # a Move then a Heavy shot: +1
        game.apply("player1", "shoot marksman long_rifle gaunt")
    game = arena({"marksman": "e1", "gaunt": "e9"}, dice=[6, 6])
    game.apply("player1", "activate marksman")
    game.apply("player1", "shoot marksman long_rifle gaunt")
    assert "(1 ACT)" in label(game, "player1", "dash marksman e2")  # Dash carries no penalty
    with pytest.raises(IllegalCommand, match="needs 2 ACT"):  # a Heavy shot then a Move: +1
        game.apply("player1", "move marksman e3")


def test_rule_LIM():
    game = arena({"breacher": "e1", "gaunt": "e4"}, orders=(0, 0), dice=[6, 6])
    game.apply("player1", "activate breacher")
    game.apply("player1", "shoot breacher breaching_charge gaunt")
    with pytest.raises(IllegalCommand, match="limited ammunition"):
        game.apply("player1", "shoot breacher breaching_charge gaunt")
    assert "breaching_charge" in state(game).units["breacher"].spent


def test_rule_LNR():
    st = state(
        arena({"acolyte": "a1", "warrior": "d1", "warrior2": "c1"}, squads=CA, states={"warrior2": DOWNED})
    )
    q = R.attack_targets(st, st.units["acolyte"], R.wp("flame_projector"), sq("d1"), False)
    assert [x["id"] for x in q] == ["warrior", "warrior2"]
    st.units["warrior2"].seat = "player1"  # squadmates on the line are hit too
    # Ruling 22 now follows the book's corner-to-corner lines and the firer picks one: a line along the row's
    # edge crosses no square, so the default line spares the squadmate, and a line through c1 still hits it
    # (tests/test_skirm_linear.py covers the choice).
    q = R.attack_targets(st, st.units["acolyte"], R.wp("flame_projector"), sq("d1"), False, ("warrior2",))
    assert "warrior2" in [x["id"] for x in q]
    q = R.attack_targets(st, st.units["acolyte"], R.wp("flame_projector"), sq("d1"), False)
    assert [x["id"] for x in q] == ["warrior"]


def test_rule_MCR():
    game = arena({"captain": "e1", "gaunt": "f1"}, dice=[6, 6])
    game.apply("player1", "activate captain")
    assert game.parse("player1", "fight captain bolt_pistol gaunt").verb == "fight"
    game2 = arena({"trooper": "e1", "gaunt": "f1"})
    game2.apply("player1", "activate trooper")
    with pytest.raises(IllegalCommand, match="without MCR"):
        game2.apply("player1", "fight trooper assault_rifle gaunt")
    st = state(game)
    assert R.attack_skill(st, st.units["captain"], R.wp("bolt_pistol"), st.units["gaunt"], True) == 4  # MSK


def test_rule_PSH():
    # War lance [1 6]: one strike, 2 damage; saves [6 6]: Downed, then pushed 2 squares straight away.
    game = arena({"skyborn": "a11", "warrior": "b11"}, squads=CA, dice=[1, 6, 6, 6])
    game.apply("player1", "activate skyborn")
    game.apply("player1", "fight skyborn war_lance warrior")
    events = game.apply("player1", "push d11")
    assert "pushed to d11" in text(events) and state(game).units["warrior"].pos == sq("d11")
    # Shotgun from the ground pushes a gaunt off the roof: a 2-square fall, saves [6 1] -> Out.
    game = arena({"breacher": "i1", "gaunt": "i4"}, dice=[1, 6, 6, 6, 1])
    game.apply("player1", "activate breacher")
    game.apply("player1", "shoot breacher shotgun gaunt")
    events = game.apply("player1", "push i6")
    assert "falls 2 squares" in text(events) and state(game).units["gaunt"].state == OUT


def test_rule_RGx():
    game = arena({"trooper": "h1", "gaunt": "h10", "gaunt2": "h9"})
    game.apply("player1", "activate trooper")
    with pytest.raises(IllegalCommand, match="reaches 8"):
        game.apply("player1", "shoot trooper assault_rifle gaunt")
    assert game.parse("player1", "shoot trooper assault_rifle gaunt2").verb == "shoot"


def test_rule_RLT():
    game = arena({"warrior": "e1", "witch": "e5"}, squads=CA, side="player2", dice=[6, 6, 2, 5, 3])
    game.apply("player2", "activate warrior")
    events = game.apply("player2", "shoot warrior gauss_flayer witch")
    assert "[6 6], free re-rolls → [2 5]" in text(events)


def test_rule_RND():
    # Ritual blade [1 2]: the 1 deals double damage: 3 damage in all.
    game = arena({"witch": "e1", "warrior": "f1"}, squads=CA, dice=[1, 2, 1, 1, 1])
    game.apply("player1", "activate witch")
    events = game.apply("player1", "fight witch ritual_blade warrior")
    assert "2 strikes, 3 damage" in text(events)


def test_rule_SKx():
    st = state(arena({"acolyte": "e1", "warrior": "e4"}, squads=CA))
    assert R.attack_skill(st, st.units["acolyte"], R.wp("flame_projector"), st.units["warrior"], False) == 4


def test_rule_STN():
    # Rune hammer [1 6]: a 1 stuns; the captain has 1 less ACT next activation; a trooper stays at 2.
    game = arena({"thane": "e1", "captain": "f1", "trooper": "a12"}, squads=KS, dice=[1, 6, 1, 1])
    game.apply("player1", "activate thane")
    events = game.apply("player1", "fight thane rune_hammer captain")
    st = state(game)
    assert "stunned" in text(events) and st.units["captain"].stun == 1
    assert R.activation_act(st.units["captain"]) == 2
    st.units["trooper"].stun = 1
    assert R.activation_act(st.units["trooper"]) == 2


def test_rule_weapon_UNQ():
    with pytest.raises(SetupError, match="Rotary Cannon may appear only once"):
        check_squad(custom("shock", {"type": "gunner"}, {"type": "trooper", "weapons": ["assault_rifle"]},
                           {"type": "gunner", "weapons": ["rotary_cannon"]}))  # fmt: skip


def test_rule_XPL():
    game = arena({"tyrant": "e9", "captain": "e5", "trooper": "f6", "gaunt": "d6"}, side="player2")
    game.apply("player2", "activate tyrant")
    st = state(game)
    q = R.attack_targets(st, st.units["tyrant"], R.wp("venom_cannon"), sq("e6"), False)
    assert {x["id"] for x in q} == {"captain", "trooper", "gaunt"}  # squadmates too
    assert game.parse("player2", "shoot tyrant venom_cannon e6").args == ("tyrant", "venom_cannon", "e6")
    with pytest.raises(IllegalCommand, match="catch nobody"):
        game.apply("player2", "shoot tyrant venom_cannon a5")


# -- skills ----------------------------------------------------------------------------------------------------


def test_to_skills_cost_orders_work_outside_the_activation_and_once_per_turn():
    game = arena({"witch": "e1", "warrior": "e5", "overlord": "l12"}, squads=CA, orders=(2, 0))
    events = game.apply("player1", "skill witch hex warrior")  # before activating anyone
    st = state(game)
    assert "1 less ACT" in text(events) and st.units["warrior"].stun == 1 and st.orders["player1"] == 1
    with pytest.raises(IllegalCommand, match="once per turn"):
        game.apply("player1", "skill witch hex warrior")


def test_raise_ward_and_surge_skills():
    game = arena(
        {"captain": "e1", "trooper": "e2", "gaunt": "l12"}, states={"trooper": DOWNED}, orders=(1, 0)
    )
    game.apply("player1", "skill captain stim_pack trooper")
    st = state(game)
    assert st.units["trooper"].state == STANDING
    game = arena({"thane": "e1", "ironguard": "e3", "trooper": "l12"}, squads=KS, orders=(1, 0))
    game.apply("player1", "skill thane runic_ward ironguard")
    assert state(game).units["ironguard"].ward
    blade = custom("coven", {"type": "witch", "skills": ["blood_rite"]})
    game = arena({"witch": "e1", "warrior": "f1"}, squads=(blade, "ankh"), dice=[6, 6, 6])
    game.apply("player1", "activate witch")
    game.apply("player1", "skill witch blood_rite")
    events = game.apply("player1", "fight witch ritual_blade warrior")
    assert "3 dice" in text(events)


def test_a_ward_is_one_automatic_save_against_the_next_attack():
    game = arena({"trooper": "e1", "ironguard": "e4"}, squads=KS, side="player2", dice=[1, 6, 6])
    st = state(game)
    st.units["ironguard"].ward = True
    game.apply("player2", "activate trooper")
    events = game.apply("player2", "shoot trooper assault_rifle ironguard")
    assert "cover, ward)" in text(events) and not st.units["ironguard"].ward
    assert B.on_map(st.units["ironguard"])
