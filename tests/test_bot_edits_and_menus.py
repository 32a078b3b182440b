"""The per-channel edit queue (coalescing within the rate limit, latest state wins) on a virtual clock,
and the grouping of legal commands into menus and autocomplete entries (bot/tap.py)."""

from __future__ import annotations

import asyncio

from bot import tap
from bot.edits import EditQueue
from engine import Command


class VirtualTime:
    """A clock whose sleep only moves the clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


async def test_a_burst_is_coalesced_within_the_rate_limit_and_the_latest_wins() -> None:
    t = VirtualTime()
    q = EditQueue(rate=5, per=5.0, clock=t.clock, sleep=t.sleep)
    sent: list[tuple[int, int, float]] = []

    def editor(message: int, state: int):  # noqa: ANN202
        async def send() -> None:
            sent.append((message, state, t.now))

        return send

    for state in range(40):  # 40 requests for message 1 and 20 for message 2, all at once
        q.edit("c", 1, editor(1, state))
        if state % 2 == 0:
            q.edit("c", 2, editor(2, state))
    await q.drain()
    # Each message was edited once, with its latest state, as soon as allowed.
    assert [(m, s) for m, s, _at in sent] == [(1, 39), (2, 38)]
    # A long stream of requests never exceeds 5 edits in any 5 seconds, and its last state is shown.
    sent.clear()
    for state in range(30):
        q.edit("c", 1, editor(1, state))
        await asyncio.sleep(0)
        t.now += 0.1
    await q.drain()
    assert sent[-1][:2] == (1, 29)
    times = [at for _m, _s, at in sent]
    assert all(b - a >= 5.0 - 1e-9 for a, b in zip(times, times[5:], strict=False))
    assert q.peak_rate() <= 1.0  # 5 edits per 5 s
    other = EditQueue(clock=t.clock, sleep=t.sleep)
    other.edit("d", 1, editor(1, 0))  # another channel has its own budget
    await other.drain()
    assert sent[-1][:2] == (1, 0)


def command(text: str, label: str = "") -> Command:
    verb, *args = text.split()
    return Command(verb, tuple(args), label)


def test_menus_group_by_verb_then_argument_and_fit_25() -> None:
    squares = [f"{c}{r}" for c in "abcdefghijklmnopqrst" for r in range(1, 21)]
    rooms = {s: ("Quarters" if s[0] < "f" else "Bridge" if s[0] < "m" else "Engine") for s in squares}
    legal = [command(f"crate {s}", f"Place a crate in the {rooms[s]} ({s})") for s in squares]
    legal += [command("end", "End the setup")]
    # Verb first; a menu with one kind of command only goes straight to its groups.
    assert [e.value for e in tap.entries(legal)] == [">crate", "=end"]
    assert tap.entries(legal[:-1]) == tap.entries(legal, "crate")
    top = tap.entries(legal, "crate")
    # 400 squares: one entry per room (the label without its square), with a count.
    assert [e.value for e in top] == [">crate|0", ">crate|1", ">crate|2"]
    assert top[0].label.startswith("Place a crate in the Quarters") and top[0].count == 100
    quarters = tap.entries(legal, "crate|0")
    # 100 squares in a room: split by column, each column holds 20 (one menu).
    assert len(quarters) == 5 and all(len(tap.entries(legal, e.value[1:])) <= 25 for e in quarters)
    # Every command is reachable, and no menu page holds more than 25 entries.
    reached: set[str] = set()

    def walk(path: str) -> None:
        items = tap.entries(legal, path)
        number = 0
        while True:
            page, more = tap.page(items, number)
            assert len(page) <= 25
            for e in page:
                assert len(e.label) <= 100 and len(e.value) <= 100
                if e.value.startswith("="):
                    reached.add(e.value[1:])
                elif e.value.startswith(">"):
                    walk(e.value[1:])
            if not more:
                break
            number += 1

    walk("")
    assert reached == {c.text for c in legal}


def test_a_group_is_named_by_the_words_its_labels_share() -> None:
    cards = {"rally": ("Rally", 2), "cleave": ("Cleave", 3), "charge": ("Charge", 2), "parry": ("Parry", 1)}
    cards["feint"] = ("Feint", 1)  # 26 commands: too many to list whole
    legal = [command("commit warrior rest", "Human Warrior: play no card")]
    for a, (name, speed) in cards.items():
        legal.append(command(f"commit warrior {a}", f"{name} (speed {speed})"))
        for b, (other, more) in cards.items():
            if a != b:
                legal.append(
                    command(f"commit warrior {a} {b}", f"{name}, then {other} (speed {speed + more})")
                )
    top = tap.entries(legal)
    # "commit warrior" is the one kind of command: its menu lists the cards, each group by its card's name.
    assert [e.label for e in top] == [
        "Human Warrior: play no card",
        "Rally … (5)",
        "Cleave … (5)",
        "Charge … (5)",
        "Parry … (5)",
        "Feint … (5)",
    ]
    assert top[1].value == ">commit warrior rally"
    # Labels that share only part of a word, or no label at all, fall back to the command's words.
    assert (
        tap.group_name(
            "move kit", [command("move kit a1", "Kitsune to a1"), command("move kit a2", "Kit to a2")]
        )
        == "Move kit"
    )
    assert tap.group_name("deploy oni", [command("deploy oni a1"), command("deploy oni a2")]) == "Deploy oni"
    assert (
        tap.group_name(
            "move oni", [command("move oni a1", "Oni moves to a1"), command("move oni b2", "Oni moves to b2")]
        )
        == "Oni moves to"
    )


def test_autocomplete_hides_no_kind_of_command() -> None:
    legal = [command(f"move oni {c}{r}", f"Oni moves to {c}{r}") for c in "abcdefgh" for r in range(1, 9)]
    legal += [command(f"shoot oni {t}") for t in ("kappa", "tengu")]
    legal += [command("end", "End Oni's activation")]
    shown = tap.autocomplete(legal, "")
    assert len(shown) <= 25
    values = [e.value for e in shown]
    assert "end" in values  # short one-off commands are always there
    assert any(e.label.startswith("oni shoot") or "shoot" in e.label for e in shown)  # shooting is not hidden
    assert "commands match" in shown[-1].label and "narrow" in shown[-1].label
    narrowed = tap.autocomplete(legal, "shoot")
    assert [e.value for e in narrowed] == ["shoot oni kappa", "shoot oni tengu"]


def reach(legal: list[Command], text: str) -> int:
    """How many picks it takes to play ``text`` from the top menu, always opening the group holding it."""
    path = ""
    for taps in range(1, 10):
        values = [e.value for e in tap.entries(legal, path)]
        assert len(values) <= 25
        if "=" + text in values:
            return taps
        path = next(
            v[1:] for v in values if v[:1] == ">" and text in [c.text for c in tap.matching(legal, v[1:])]
        )
    raise AssertionError(f"{text} not reachable")


def test_a_short_menu_lists_every_command_at_once() -> None:
    # ESCAPE: a figure's four moves and its end of activation are one pick each, not two.
    legal = [command(f"move ubume {s}", f"Ubume moves to {s}") for s in ("d8", "e9", "d10", "c9")]
    legal.append(command("end", "End Ubume's activation"))
    assert [e.value for e in tap.entries(legal)] == [f"={c.text}" for c in legal]
    # Up to 25 commands of one kind besides a one-off ("end") are listed whole too.
    moves = [
        command(f"move acolyte {c}{r}", f"Move Flame Acolyte to {c}{r}") for c in "abcd" for r in range(1, 7)
    ]
    assert len(tap.entries([command("end"), *moves])) == 25
    # Several kinds and more than 12 commands keep their groups at the top.
    mixed = [*moves[:10], *(command(f"dash acolyte b{r}") for r in range(1, 4)), command("end")]
    assert [e.value for e in tap.entries(mixed)] == [">move", ">dash", "=end"]
    assert reach(mixed, "move acolyte a1") == 2


def test_figures_that_share_several_verbs_get_a_menu_each() -> None:
    # Escape Path: four figures that each move (a square, then a facing) and turn.
    facings = ("n", "ne", "se", "s", "sw", "w", "nw")
    legal = [command("end", "End the team's turn")]
    for name in ("vance", "okafor", "mirza", "lund"):
        for square in ("d4", "d5", "d6", "b6", "b5", "b4"):
            legal += [
                command(f"move {name} {square} {f}", f"{name.title()} to {square}, facing {f}")
                for f in facings
            ]
        legal += [command(f"turn {name} {f}", f"{name.title()} turns {f}") for f in facings]
    legal += [command("react panic a", "Panic shot at a"), command("react panic b", "Panic shot at b")]
    top = tap.entries(legal)
    assert [e.value for e in top] == ["=end", ">@vance", ">@okafor", ">@mirza", ">@lund", ">react"]
    assert top[3].label == "Mirza … (49)"
    mirza = tap.entries(legal, "@mirza")  # the squares to move to, then the turns, in one menu
    assert [e.value for e in mirza[:6]] == [f">move mirza {s}" for s in ("d4", "d5", "d6", "b6", "b5", "b4")]
    assert [e.value for e in mirza[6:]] == [f"=turn mirza {f}" for f in facings]
    assert reach(legal, "move mirza d4 n") == 3 and reach(legal, "turn lund w") == 2
    assert reach(legal, "react panic b") == 2 and reach(legal, "end") == 1
