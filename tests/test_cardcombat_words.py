"""Dark Realms tells actions in players' words (content.action_words), not in the cards' notation."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.rulesets.cardcombat.actions import current
from engine.rulesets.cardcombat.content import action_words, cards, parse_action


@pytest.mark.parametrize(
    ("notation", "words"),
    [
        ("move +2", "move a die's roll + 2"),
        ("ranged r3 t2", "ranged attack, range 3, up to 2 targets"),
        ("melee -1 push2 stun", "melee attack -1, the target is stunned and pushed 2"),
        (
            "ranged r3 =1 paralyze pull2",
            "ranged attack for 1 damage, range 3, the target is paralyzed and pulled 2",
        ),
        ("melee +3 miss2 wound", "melee attack +3, misses on 1-2, the target is wounded"),
        ("heal 3 ally r4", "heal an ally 3, range 4"),
        ("cast paralyze foe r3", "cast paralyze on a foe, range 3"),
        ("earth: heal 3 self", "heal yourself 3 (needs an earth rift)"),
        ("rift earth", "open an earth rift"),
        ("ranged +2 f2=-1", "ranged attack +2, a 2 counts -1"),
    ],
)
def test_notation_reads_as_words(notation: str, words: str) -> None:
    assert action_words(parse_action(notation, "test")) == words


def test_every_card_action_has_words_without_notation() -> None:
    for card in cards().values():
        for a in card.actions:
            said = action_words(a)
            assert said and not any(w in said.split() for w in ("r2", "r3", "t2", "xp2", "=3", "d")), (
                a.text,
                said,
            )


def test_a_hero_s_turn_asks_in_words() -> None:
    game = new_game("cardcombat", scenario="crypt", seed=4, seats={"hero1": None, "hero2": None})
    for _ in range(200):
        decision = next(iter(game.awaiting()), None)
        if decision is None or decision.kind != "simultaneous":
            break
        seat = sorted(decision.seats)[0]
        game.apply(seat, game.bot_command(seat))
    st = game.state
    fig = st.figures[st.turn["fig"]]
    act = current(st)
    assert act is not None and fig["kind"] == "hero"
    assert [d.prompt for d in game.awaiting()] == [f"{fig['name']}: {action_words(act)}"]
