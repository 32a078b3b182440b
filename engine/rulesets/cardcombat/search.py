"""Dark Realms hooks for the search player: a fast state copy and a determinization that does not peek.

What a hero's seat cannot know: the order of the enemies' undrawn speed cards, the other heroes' hidden
commitments (and the items they readied for this round's commit), and the dice to come.
"""

from __future__ import annotations

from engine.ai.copying import flat, plain, rng_copy
from engine.dice import Rng
from engine.rulesets.cardcombat import actions as A
from engine.rulesets.cardcombat import rules as R
from engine.rulesets.cardcombat.state import CCState


def copy_state(st: CCState) -> CCState:
    """An independent deep copy of ``st`` (several times cheaper than a JSON round trip).

    The scenario is shared: the rules never change it in place (a map whose letters change gets new rows
    in a new scenario mapping), and mappings keep their saved order, which the copy inherits."""
    new = flat(st)
    new.rng = rng_copy(st.rng)
    new.figures = plain(st.figures)
    new.seats = list(st.seats)
    new.commits = plain(st.commits)
    new.decks = plain(st.decks)
    new.drawn = dict(st.drawn)
    new.order = plain(st.order)
    new.turn = plain(st.turn)
    new.pending = plain(st.pending)
    new.rifts = plain(st.rifts)
    new.loot = plain(st.loot)
    new.trail = plain(st.trail)
    new.attacks = plain(st.attacks)
    new.flags = plain(st.flags)
    new.log = list(st.log)
    return new


def hidden_in_play(st: CCState) -> tuple[int, int, str]:
    """What a determinization has brought into play (``Ruleset.hidden_in_play``): the dice drawn, the round
    and its phase.

    The hidden facts come into play only when a round's commitments are revealed, which also draws the
    enemies' speed cards: the phase then turns from ``commit`` to ``turns``, and it only turns back with a
    new round. Before that no rule reads the speed piles' order or another hero's commitment (the heroes
    still to commit choose from their own hands), so the same three values as at the start mean the same
    legal commands. Raises nothing."""
    return st.rng.counter, st.round, st.phase


def determinize(st: CCState, seat: str, rng: Rng) -> CCState:
    """A copy where what ``seat`` cannot know is dealt anew from ``rng``: each enemy type's undrawn speed
    cards in a fresh order (their order before is not used: the pile is sorted first), the other heroes'
    hidden commitments replaced by random legal ones (the items spent on them stay spent: an item's
    cooldown is public), the items other heroes readied for a commit not yet made dropped, and a fresh
    generator for the dice. The copy is marked as the search's scratch state (``CCState.scratch``): it is never
    saved, so its mappings are not put back in saved order after each command."""
    new = copy_state(st)
    new.rng = Rng(seed=rng.below(2**62))
    new.scratch = True
    for deck in new.decks.values():
        deck["draw"].sort()
        rng.shuffle(deck["draw"])
    if new.phase == "commit":
        mine = R.hero_of(new, seat)
        mine_id = mine["id"] if mine is not None else None
        readied = new.flags.get("round_items")
        if readied:
            for hid in [h for h in readied if h != mine_id]:
                del readied[hid]
        for hid in list(new.commits):
            if hid == mine_id:
                continue
            used = new.commits[hid].get("items", [])
            opts = A.commit_options(new, new.figures[hid])
            pick = opts[rng.below(len(opts))]
            new.commits[hid] = {"cards": [] if pick.args[1] == "rest" else list(pick.args[1:]), "items": used}
    return new
