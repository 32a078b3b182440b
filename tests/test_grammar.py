"""Narration grammar: "an equipment token", "an 8", counted nouns; no "a" before a vowel sound anywhere
players read (event texts, prompts, command labels) over random games of every ruleset."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.grammar import article, joined, plural, with_article

# "a" before a vowel sound: a vowel letter (bar words said with a "y" or "w" sound), an 8, an 11, an 18.
A_BEFORE_VOWEL = re.compile(r"\b[aA] (?!one|once|uni|use|usa|eu|ewe)([aeiouAEIOU8]|11\b|18\b)")


@pytest.mark.parametrize(
    ("word", "expected"),
    [("equipment", "an"), ("crate", "a"), ("objective", "an"), ("8", "an"), ("11", "an"), ("18", "an"),
     ("3", "a"), ("80", "an"), ("uniform", "a"), ("EM grenade", "an"), ("hour", "an"), ("elite guard", "an"),
     ("one-shot", "a"), ("", "a")],
)  # fmt: skip
def test_article_follows_the_sound(word: str, expected: str) -> None:
    assert article(word) == expected
    assert with_article(word).startswith(expected + " ")


def test_plural_agrees_with_the_count() -> None:
    assert (
        plural(1, "chit") == "1 chit"
        and plural(0, "chit") == "0 chits"
        and plural(2, "die", "dice") == "2 dice"
    )


def test_joined_reads_as_a_phrase() -> None:
    assert joined([]) == "" and joined(["Orc"]) == "Orc"
    assert joined(["Elf Mage", "Human Warrior"]) == "Elf Mage and Human Warrior"
    assert joined(["a", "b", "c"], "or") == "a, b or c"


def test_the_pattern_catches_the_old_mistake() -> None:
    assert A_BEFORE_VOWEL.search("the Resistance places a equipment token")
    assert not A_BEFORE_VOWEL.search("the Resistance places an equipment token, a one-shot, a unit")


@pytest.mark.parametrize("ruleset", ["escape", "skirm", "heist"])
def test_no_a_before_a_vowel_sound_in_what_players_read(ruleset: str) -> None:
    kw: dict[str, object] = (
        {"seats": {s: None for s in ("p1", "p2", "p3", "p4")}} if ruleset == "heist" else {}
    )
    bad: list[str] = []
    for seed in range(2):
        g = engine.new_game(ruleset, seed=seed, **kw)  # type: ignore[arg-type]
        rnd = random.Random(seed)
        for _ in range(300):
            seats = sorted(g.seats_to_act())
            if g.outcome is not None or not seats:
                break
            texts = [d.prompt for d in g.awaiting()]
            cmds = g.legal_commands(seats[0])
            texts += [c.label for c in cmds]
            texts += [e.text for e in g.apply(seats[0], rnd.choice(cmds))]
            bad += [t for t in texts if A_BEFORE_VOWEL.search(t)]
    assert not bad, bad[:5]
