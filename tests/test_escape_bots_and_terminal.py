"""Bot seats, the campaign links, and terminal play."""

from __future__ import annotations

import io

from bot.terminal import run
from engine import new_game
from engine.rulesets.escape.content import next_scenario


def test_two_bot_seats_play_a_whole_game_deterministically():
    a = new_game("escape", seed=11, seats={"resistance": None, "isc": None})
    a.play_bots()
    assert a.outcome is not None
    b = new_game("escape", seed=11, seats={"resistance": None, "isc": None})
    b.play_bots()
    assert a.to_json() == b.to_json()
    assert a.replay().to_json() == a.to_json()


def test_a_bot_seat_waits_for_the_human_seat():
    game = new_game("escape", seed=3, seats={"resistance": "me", "isc": None})
    game.play_bots()
    assert game.outcome is None
    assert game.seats_to_act() == {"resistance"}


def test_campaign_next_scenario_follows_the_result():
    assert next_scenario("infiltration", frozenset({"resistance"})) == "datatheft"
    assert next_scenario("infiltration", frozenset({"isc"})) == "evasion"
    assert next_scenario("infiltration", frozenset()) == "evasion"
    assert next_scenario("evasion", frozenset({"isc"})) is None


def test_terminal_reads_commands_and_reports_rule_errors():
    game = new_game("escape", seed=5, seats={"resistance": "a", "isc": None})
    out = io.StringIO()
    seat_cmd = game.legal_commands("resistance")[0].text
    status = run(game, io.StringIO(f"fly away\n{seat_cmd}\n"), out)
    text = out.getvalue()
    assert status == 1  # input ended before the game did
    assert "✗ 'fly' is not an ESCAPE command" in text
    assert "places a crate" in text
    assert "+--+" in text  # the text board was printed


def test_bot_games_never_stall_and_reach_a_result():
    import pytest

    for seed in range(8):
        for scenario in ("infiltration", "evasion", "datatheft"):
            game = new_game("escape", seed=seed, scenario=scenario, seats={"resistance": None, "isc": None})
            game.play_bots()
            if game.outcome is None:
                pytest.fail(f"seed {seed} {scenario} stalled at {game.awaiting()}")


def test_firewall_pass_through_must_step_off_before_other_movement_actions():
    # Event 8 (Firewall): Ashton walks through Mira's square next to a door; he may not spend his
    # Movement on the door while sharing her square, and may not end there.
    import pytest

    from engine import IllegalCommand
    from tests.escape_helpers import arena

    game = arena({"ashton": "d14", "mira": "c14"}, event=8)
    game.apply("resistance", "move ashton c14")
    with pytest.raises(IllegalCommand, match="step off"):
        game.apply("resistance", "open ashton c14|c15")
    with pytest.raises(IllegalCommand, match="cannot end"):
        game.apply("resistance", "end")
    game.apply("resistance", "move ashton b14")
    game.apply("resistance", "end")


def test_the_final_narration_names_the_campaigns_next_scenario() -> None:
    game = new_game("escape", scenario="infiltration", seats={"resistance": None, "isc": None}, seed=3)
    events = []
    while game.outcome is None:
        for _seat, _cmd, evs in game.play_bots(limit=50):
            events.extend(evs)
    campaign = [e for e in events if e.kind == "campaign"]
    assert len(campaign) == 1
    expected = next_scenario("infiltration", game.outcome.winners)
    assert campaign[0].data["next_scenario"] == expected
    if expected:
        assert f"scenario {expected}" in campaign[0].text


def test_firewall_never_strands_a_character_on_an_occupied_square() -> None:
    # Jimmy passes through Rook's square, then Golem's: stepping back onto Rook's square is no way off,
    # so the second step must be refused rather than leave Jimmy with nothing legal to play.
    game = new_game(
        "escape",
        scenario="evasion",
        seed=1,
        seats={"resistance": None, "isc": None},
        options={
            "resistance": ["vesna", "rook", "ashton", "jimmy", "golem"],
            "isc": ["jorogumo", "kappa", "mamushi", "kitsune", "oni"],
        },
    )
    game.play_bots()
    assert game.outcome is not None
