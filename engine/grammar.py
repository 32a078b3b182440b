"""Small English helpers for narration: "a" or "an", and counted nouns ("1 chit", "3 chits")."""

from __future__ import annotations

import re

# Words spelled with a vowel but said with a consonant sound, and the reverse.
_CONSONANT_SOUND = re.compile(r"^(one|once|uni(?!nt)|use|usa|eu|ewe|ufo)", re.IGNORECASE)
_VOWEL_SOUND = re.compile(r"^(hour|honest|honou?r|heir|x-)", re.IGNORECASE)


def article(word: str) -> str:
    """``"an"`` before a vowel sound (``an equipment``, ``an 8``, ``an 11``, ``an hour``), else ``"a"``."""
    w = str(word).strip()
    if not w:
        return "a"
    digits = re.match(r"\d+", w)
    if digits:
        n = digits.group(0)
        # Said "eight...", "eleven", "eighteen": the numbers a die, a value or a cost shows.
        if n.startswith("8"):
            return "an"
        return "an" if n in ("11", "18") else "a"
    if _VOWEL_SOUND.match(w):
        return "an"
    if _CONSONANT_SOUND.match(w):
        return "a"
    return "an" if w[0].lower() in "aeiou" else "a"


def with_article(word: str) -> str:
    """``word`` with its indefinite article: ``with_article("equipment")`` is ``"an equipment"``."""
    return f"{article(word)} {word}"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and ``noun`` agreeing: ``1 chit``, ``0 chits``, ``3 chits`` (``many`` for irregular plurals)."""
    return f"{n} {noun if n == 1 else many or noun + 's'}"


def joined(items: list[str], last: str = "and") -> str:
    """Items as a phrase: ``A``, ``A and B``, ``A, B and C`` (``last`` is the final joining word)."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def series_text(head: str, items: list[str]) -> str:
    """One line for a series of events (``Event.data["series"]``): "Tiny Mike plans c6, d5 and d4."."""
    return f"{head} {joined(items)}."
