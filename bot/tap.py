"""Legal commands as short menus: the grouping behind the tap-to-play select menus and /do autocomplete.

Pure functions of ``legal_commands`` (their texts and labels), so every ruleset works without a bot
change. A menu shows the commands that start with a *path* of words, grouped by their next word (a verb
or a unit first, then a square or a target); a group still too big for one menu is split by the label
with that word taken out (ESCAPE's rooms: "Place a crate in the Quarters"), else by the word's first
letter (a board column), else shown a page at a time with a "more…" entry.

Entry values: ``=TEXT`` plays a command, ``>PATH`` narrows, ``#PAGE`` pages on. A path is the words
chosen so far, optionally followed by ``|N`` (repeatable): the N-th split of the next word, stable for
a given game version.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from engine import Command

MAX_OPTIONS = 25
MAX_TEXT = 100
# A menu this short is listed whole: one tap instead of two on a phone, and still a screenful.
FLAT_MAX = 12


@dataclass(frozen=True)
class Entry:
    """One menu entry: what is shown and what picking it means (``=`` play, ``>`` narrow, ``#`` page)."""

    label: str
    value: str
    count: int = 1


def words(c: Command) -> list[str]:
    """A command's text as lowercase words."""
    return c.text.lower().split()


def split_path(path: str) -> tuple[list[str], list[int]]:
    """``"crate|3|1"`` to (["crate"], [3, 1]); ``"move oni"`` to (["move", "oni"], [])."""
    text, *subs = path.split("|")
    return text.split(), [int(x) for x in subs if x.isdigit()]


def _stem(c: Command, word: str) -> str:
    """A command's label with ``word`` taken out: "Place a crate in the Quarters (a1)" -> "...Quarters"."""
    label = c.label or c.text
    out = label.replace(f"({word})", "").replace(word, "")
    return " ".join(out.split()).strip(" ,:;-—(")


def group_name(narrowed: str, commands: list[Command]) -> str:
    """What a group of commands is called in a menu: the words their labels share ("Rally" for "Rally
    (speed 2)" and "Rally, then Cleave (speed 5)"), else the command words they share (``narrowed``,
    capitalised as a label: "Move kit")."""
    labels = [c.label for c in commands]
    fallback = narrowed[:1].upper() + narrowed[1:]
    if not all(labels):
        return fallback
    shared = os.path.commonprefix(labels)
    if not all(len(x) == len(shared) or not x[len(shared)].isalnum() for x in labels):
        shared = shared.rsplit(" ", 1)[0] if " " in shared else ""  # back to a whole word
    shared = shared.strip(" ,:;-—(")
    return shared if len(shared) >= 3 else fallback


def subgroups(commands: list[Command], depth: int) -> list[tuple[str, list[Command]]]:
    """Split commands whose word ``depth`` has too many values: by label stem, else by first letter.

    Returns [] when neither split gives between 2 and 25 groups.
    """
    for key in (
        lambda c: _stem(c, words(c)[depth]) if len(words(c)) > depth else "",
        lambda c: " ".join([*words(c)[:depth], words(c)[depth][:1] + "…"]) if len(words(c)) > depth else "",
    ):
        groups: dict[str, list[Command]] = {}
        for c in commands:
            groups.setdefault(key(c), []).append(c)
        if 2 <= len(groups) <= MAX_OPTIONS:
            return list(groups.items())
    return []


def matching(commands: list[Command], path: str) -> list[Command]:
    """The commands under ``path`` (``@word``: every command whose second word is ``word``)."""
    if path.startswith("@"):
        return [c for c in commands if words(c)[1:2] == [path[1:]]]
    prefix, subs = split_path(path)
    found = [c for c in commands if words(c)[: len(prefix)] == prefix]
    for sub in subs:
        groups = subgroups(found, len(prefix))
        found = groups[sub][1] if 0 <= sub < len(groups) else []
    return found


def subjects(groups: dict[str, list[Command]]) -> tuple[dict[str, list[Command]], set[str]]:
    """The commands of several verbs regrouped by their second word when that word names the figure
    acting (Escape Path's "move ruiz h5 se" and "turn ruiz n"): a phone player thinks "what does Ruiz
    do" first. Returns the groups and the verbs regrouped: every verb with a second word that follows
    another verb too. ({}, set()) unless at least two such words are shared, with at most 24 groups."""
    verbs_of: dict[str, set[str]] = {}
    for verb, cs in groups.items():
        for c in cs:
            w = words(c)
            if len(w) >= 2 and len(cs) > 1:
                verbs_of.setdefault(w[1], set()).add(verb)
    shared = {s for s, v in verbs_of.items() if len(v) >= 2}
    taking_part = {v for s in shared for v in verbs_of[s]}
    by_subject: dict[str, list[Command]] = {}
    for verb, cs in groups.items():
        if verb in taking_part:
            for c in cs:
                by_subject.setdefault(words(c)[1], []).append(c)
    if len(shared) < 2 or len(by_subject) >= MAX_OPTIONS:
        return {}, set()
    return by_subject, taking_part


def _subject_entries(commands: list[Command], found: list[Command], subject: str) -> list[Entry]:
    """One figure's menu: its commands if they fit, else each verb's next menu if those fit together
    (Ruiz's turns and the squares Ruiz may move to), else one entry per verb."""
    if len(found) <= MAX_OPTIONS:
        return [_play(c) for c in found]
    verbs = list(dict.fromkeys(words(c)[0] for c in found))
    parts = [entries(commands, f"{verb} {subject}") for verb in verbs]
    if sum(len(p) for p in parts) <= MAX_OPTIONS:
        return [e for p in parts for e in p]
    out = []
    for verb in verbs:
        cs = [c for c in found if words(c)[0] == verb]
        if len(cs) == 1:
            out.append(_play(cs[0]))
        else:
            name = group_name(f"{verb} {subject}", cs)
            out.append(Entry(f"{name} … ({len(cs)})"[:MAX_TEXT], f">{verb} {subject}"[:MAX_TEXT], len(cs)))
    return out


def _play(c: Command) -> Entry:
    return Entry((c.label or c.text)[:MAX_TEXT], ("=" + c.text)[:MAX_TEXT])


def entries(commands: list[Command], path: str = "") -> list[Entry]:
    """Every entry of the menu at ``path`` (before paging): every command when they fit in one menu
    and the top menu would not become a long mixed list (at most ``FLAT_MAX`` commands, or at most 25
    below the top or of one kind besides one-offs such as "end"), else one entry per next word, or per
    split."""
    found = matching(commands, path)
    if path.startswith("@"):
        return _subject_entries(commands, found, path[1:])
    prefix, subs = split_path(path)
    depth = len(prefix)
    groups: dict[str, list[Command]] = {}
    done: list[Command] = []
    for c in found:
        w = words(c)
        if len(w) <= depth:
            done.append(c)
        else:
            groups.setdefault(w[depth], []).append(c)
    if not subs and not done and len(groups) == 1 and len(found) > 1:  # one kind only: skip a tap
        return entries(commands, " ".join([*prefix, next(iter(groups))]))
    several = sum(1 for cs in groups.values() if len(cs) > 1)
    narrowed_already = depth > 0 or bool(subs)
    if len(found) <= FLAT_MAX or (len(found) <= MAX_OPTIONS and (narrowed_already or several <= 1)):
        return [_play(c) for c in found]  # short enough to pick from at once
    out = [_play(c) for c in done]
    if not prefix and several >= 2:
        by_subject, regrouped = subjects(groups)
        if by_subject:
            for word, cs in groups.items():  # in the order the kinds first come in
                if word in regrouped:
                    for subject in dict.fromkeys(words(c)[1] for c in cs):
                        if subject in by_subject:
                            mine = by_subject.pop(subject)
                            if len(mine) == 1:
                                out.append(_play(mine[0]))
                                continue
                            name = group_name(subject, mine)
                            label = f"{name} … ({len(mine)})"[:MAX_TEXT]
                            out.append(Entry(label, f">@{subject}"[:MAX_TEXT], len(mine)))
                elif len(cs) == 1:
                    out.append(_play(cs[0]))
                else:
                    name = group_name(word, cs)
                    out.append(Entry(f"{name} … ({len(cs)})"[:MAX_TEXT], f">{word}"[:MAX_TEXT], len(cs)))
            return out
    if len(groups) + len(done) > MAX_OPTIONS:
        rest = [c for cs in groups.values() for c in cs]
        split = subgroups(rest, depth)
        if split:
            for i, (name, cs) in enumerate(split):
                if len(cs) == 1:
                    out.append(_play(cs[0]))
                else:
                    label = f"{name or ' '.join(prefix)} … ({len(cs)})"[:MAX_TEXT]
                    out.append(Entry(label, f">{path}|{i}"[:MAX_TEXT], len(cs)))
            return out
    for word, cs in groups.items():
        if len(cs) == 1:
            out.append(_play(cs[0]))
        else:
            narrowed = " ".join([*prefix, word])
            name = group_name(narrowed, cs)
            out.append(Entry(f"{name} … ({len(cs)})"[:MAX_TEXT], f">{narrowed}"[:MAX_TEXT], len(cs)))
    return out


def page(items: list[Entry], number: int) -> tuple[list[Entry], bool]:
    """Page ``number`` of a menu (24 entries and a "more…" entry while more follow)."""
    if len(items) <= MAX_OPTIONS:
        return items, False
    size = MAX_OPTIONS - 1
    chunk = items[number * size : (number + 1) * size]
    more = (number + 1) * size < len(items)
    if more:
        left = len(items) - (number + 1) * size
        chunk = [*chunk, Entry(f"more… ({left} more)", f"#{number + 1}", left)]
    return chunk, more


def is_short(c: Command) -> bool:
    """A one-word command (end, done, ready, an escape call): shown as a button and always listed."""
    return len(words(c)) == 1


def autocomplete(commands: list[Command], typed: str) -> list[Entry]:
    """At most 25 /do choices that hide no kind of command.

    Up to 25 matches (by text or label) are listed as they are. Beyond that: one-word commands first
    (end, done, ready, an escape call), then one grouped entry per next word after what all matches
    share (a verb, then a unit), or per room / column when that word has too many values, each with its
    count (typing narrows the list), and a last entry saying how many match and how to narrow.
    """
    needle = " ".join(typed.lower().split())
    hits = [c for c in commands if needle in c.text.lower() or needle in (c.label or "").lower()]
    if len(hits) <= MAX_OPTIONS:
        return [Entry((c.label or c.text)[:MAX_TEXT], c.text[:MAX_TEXT]) for c in hits]
    out = [Entry((c.label or c.text)[:MAX_TEXT], c.text[:MAX_TEXT]) for c in hits if is_short(c)]
    rest = [c for c in hits if not is_short(c)]
    prefix: list[str] = []
    while True:  # descend while every command shares the next word
        nxt = {tuple(words(c)[: len(prefix) + 1]) for c in rest}
        if len(nxt) != 1 or any(len(words(c)) <= len(prefix) + 1 for c in rest):
            break
        prefix = list(next(iter(nxt)))
    base = " ".join(prefix)
    groups: list[tuple[str, list[Command]]] = []
    by_word: dict[str, list[Command]] = {}
    for c in rest:
        by_word.setdefault(" ".join(words(c)[: len(prefix) + 1]), []).append(c)
    if len(by_word) + len(out) < MAX_OPTIONS:
        groups = list(by_word.items())
    else:
        groups = [(name or base, cs) for name, cs in subgroups(rest, len(prefix))] or list(by_word.items())
    room = MAX_OPTIONS - 1 - len(out)
    for name, cs in groups[:room]:
        if len(cs) == 1:
            out.append(Entry((cs[0].label or cs[0].text)[:MAX_TEXT], cs[0].text[:MAX_TEXT]))
        else:
            out.append(Entry(f"{name} … ({len(cs)}: keep typing)"[:MAX_TEXT], f"{base} "[:MAX_TEXT], len(cs)))
    hidden = len(groups) - room if len(groups) > room else 0
    more = f", {hidden} more groups" if hidden else ""
    out.append(
        Entry(
            f"{len(hits)} commands match{more}: type a few more letters to narrow"[:MAX_TEXT],
            needle or "?",
            0,
        )
    )
    return out[:MAX_OPTIONS]


def compact_labels(labels: list[str], most: int = 12) -> list[str]:
    """Labels that differ in one word only, three or more of them, told as one where the first stood:
    "Plan a4, b2, b3 (1/8)" for "Plan a4 (1/8)", "Plan b2 (1/8)" and "Plan b3 (1/8)". At most ``most``
    words are named, then how many more ("… +20")."""
    split = [label.split() for label in labels]
    keys: dict[tuple[int, int, tuple[str, ...]], list[int]] = {}
    for index, ws in enumerate(split):
        for i in range(len(ws)):
            keys.setdefault((len(ws), i, (*ws[:i], *ws[i + 1 :])), []).append(index)
    chosen: dict[int, tuple[int, int, tuple[str, ...]]] = {}
    for key, members in sorted(keys.items(), key=lambda kv: -len(kv[1])):
        free = [m for m in members if m not in chosen]
        if len(free) >= 3:
            chosen.update((m, key) for m in free)
    out: list[str] = []
    told: set[tuple[int, int, tuple[str, ...]]] = set()
    for index, label in enumerate(labels):
        key = chosen.get(index)
        if key is None:
            out.append(label)
        elif key not in told:
            told.add(key)
            _, i, rest = key
            values = [split[m][i] for m in range(len(labels)) if chosen.get(m) == key]
            named = ", ".join(values[:most]) + (f", … +{len(values) - most}" if len(values) > most else "")
            out.append(" ".join([*rest[:i], named, *rest[i:]]))
    return out
