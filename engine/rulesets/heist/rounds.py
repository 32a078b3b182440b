"""The flow of a heist: the rounds (roll, actions, Event phase), the escape and the end.

This module drives :mod:`engine.rulesets.heist.events` and :mod:`engine.rulesets.heist.npcs` from the
mechanics in :mod:`engine.rulesets.heist.rules`; none of those three imports it, so there is no import
circle.
"""

from __future__ import annotations

from engine.core import Event, Outcome
from engine.grammar import plural
from engine.rulesets.heist import events as E
from engine.rulesets.heist import npcs as N
from engine.rulesets.heist import rules as R
from engine.rulesets.heist.state import GUARD, HeistState, Player

# --- rounds -------------------------------------------------------------------------------------------


def start_round(st: HeistState, ev: list[Event]) -> None:
    """Phase 1: roll every character's die; clear last round's choices; auto-reveal."""
    st.round += 1
    st.phase = "action"
    rolled = []
    for p in R.in_play(st):
        p.die = st.rng.roll(6)
        rolled.append(p.die)
        p.action = p.source = p.left = p.proxy = ""
        p.done = False
        p.flags = []
        p.picks = p.unlocks = p.cracks = p.noise_due = p.alert_due = 0
    st.undo.clear()
    st.flags = [f for f in st.flags if not f.startswith("drawn:")]

    rolled += N.start_round(st, ev)
    text = ", ".join(
        [f"{p.nickname} {p.die}" for p in R.in_play(st)]
        + [f"the {n.kind} {n.die}" for n in st.npcs if n.active and n.status == "in"]
    )
    ev.append(
        Event(f"Round {st.round}: the dice are rolled ({text}).", "roll", dice=tuple(rolled), board=True)
    )
    R.auto_reveal(st, ev)
    if st.phase == "action" and not R.in_play(st):
        start_escape(st, ev)


def everyone_done(st: HeistState) -> bool:
    """True when every character still inside has finished its action."""
    return all(p.done for p in R.in_play(st))


def event_phase(st: HeistState, ev: list[Event]) -> None:
    """Phase 3: the active event, then the crisis queue in order; then the next round or the escape."""

    st.news = []
    mark = len(ev)

    N.end_of_actions(st, ev)
    ambush(st, ev)
    for c in (c for t in st.tiles.values() for c in t.chits):
        c.hits = 0
    if not st.deck:
        st.flags.append(E.REPLAYED)  # the deck ran out: the last card discarded is read again
    card = st.deck.pop(0) if st.deck else st.last_event
    st.active_event = card
    if card:
        ev.append(Event(f"Event phase: {R.card_name(card)}.", "event"))
        # A crisis bared by taking the active event is queued at once, as any crisis that comes to the top:
        # an alert the event raises discards the next event card, never a crisis (every crisis happens).
        R.queue_crises(st, ev)
        E.resolve(st, card, ev)
    st.news = [e.text for e in ev[mark:]]
    if card and E.choices_open(st):
        st.phase = "event"  # the team may act on the card before the phase goes on
        ev.append(
            Event(f"{R.card_name(card)}: the team may use it now, then 'continue'.", "event", board=True)
        )
        return
    finish_event_phase(st, ev)


def finish_event_phase(st: HeistState, ev: list[Event]) -> None:
    """The rest of the Event phase: discard the active event, play the crisis queue, then go on."""

    st.phase = "action" if st.phase == "event" else st.phase
    mark = len(ev)
    card = st.active_event
    st.flags = [f for f in st.flags if not f.startswith("choice:") and f != E.REPLAYED]
    if card:
        st.discard.append(card)
        st.last_event = card
        R.queue_crises(st, ev)
    alarm = False
    while st.crises and st.phase != "over":
        crisis = st.crises.pop(0)
        ev.append(Event(f"Crisis {R.card_name(crisis)}.", "crisis"))
        E.resolve(st, crisis, ev)
        st.discard.append(crisis)
        if R.C().events[crisis].final:
            alarm = True
        R.queue_crises(st, ev)
    st.active_event = ""
    E.end_of_event_phase(st, ev)
    st.news = [*st.news, *(e.text for e in ev[mark:])]
    if st.phase == "over":
        return
    if alarm or st.escape_called or not R.in_play(st):
        start_escape(st, ev)
    else:
        start_round(st, ev)


def ambush(st: HeistState, ev: list[Event]) -> None:
    """The Safehouse ambush: the printed guards must all go down in one round, or reinforcements come now."""

    if not R.has_rule(st, "ambush_required") or "ambush" in st.flags:
        return
    spots = [f.split(":", 1)[1] for f in st.flags if f.startswith("ambush_at:")]
    printed = [c for n in spots for c in st.tiles[n].chits if c.kind == GUARD]
    down = [c for c in printed if not c.active]
    if printed and len(down) == len(printed):
        st.flags.append("ambush")
        ev.append(Event("Ambush! Every guard went down at once.", "event"))
    elif down:
        st.flags.append("ambush")
        ev.append(Event("The ambush fails: reinforcements are called at once.", "crisis"))
        E.resolve(st, "C1", ev)


# --- escape -------------------------------------------------------------------------------------------


def start_escape(st: HeistState, ev: list[Event]) -> None:
    """Phase 4 begins: whoever is already outside is out; every lockdown gate left shuts (its tile is removed,
    busting whoever stands there); every chit is revealed."""
    st.phase = "escape"
    st.undo.clear()
    st.bought = [b for b in st.bought if b != "blank"]  # unused blanks go back at the escape
    st.flags = [f for f in st.flags if not f.startswith("drawn:")]
    ev.append(Event("The alarm sounds: everyone must escape now!", "escape", board=True))
    for p in R.in_play(st):
        p.flags = []
        p.left = ""
        p.done = False
        if "anger_therapy" in R.abilities(p):
            for c in R.chits(st, p.pos, GUARD):
                c.active = False
        if R.outdoors(st, p) or (R.has_rule(st, "hideouts_only") and p.pos in R.hideouts(st)):
            p.status = "escaped"  # outside already, or (The Final Score Part 1) hidden in a hideout
            R.stash_docs(st, p, ev)
            R.bank(st, p, ev, final=True)
    while E.next_gate(st) is not None:
        E.close_gate(st, ev)  # "All Lockdown Gates are removed at the start of the Escape phase"
    for n in sorted(st.tiles):
        if st.tiles[n].unknown and R.alive(st, n):
            R.draw(st, n, ev, "Revealed for the escape at")
    if not R.in_play(st):
        finish(st, ev)


def run(st: HeistState, p: Player, via: str, ev: list[Event]) -> None:
    """Declare escape moves, spend ideas, roll the last-ditch die if needed: out, or Busted.

    A runner who falls short gets as far along the route as the moves allow and is caught there,
    leaving what they carry on that tile. ``via`` may be the runner's own hex: what lies there is picked up
    before setting off.
    """
    if via == p.pos:
        for what in R.loot_on(st, via):
            while what in R.loot_on(st, via):
                R.take_from(st, p, via, what)
        via = ""
    route = R.escape_route(st, p, via)
    need = None if route is None else (route[-1][1] if route else 0)
    if need is None or route is None:
        ev.append(Event(f"{p.nickname} has no way out: Busted!", "busted"))
        R.busted(st, p, ev)
        if not R.in_play(st):
            finish(st, ev)
        return
    spend = min(p.ideas, need)
    p.ideas -= spend
    left = need - spend
    where = f" via {via}" if via else ""
    if left == 0:
        ev.append(
            Event(
                f"{p.nickname} needs {plural(need, 'escape move')}{where} and spends {spend} 💡: out!",
                "escape",
            )
        )
        escaped(st, p, via, ev)
        return
    die = st.rng.roll(6)
    if die >= left:
        ev.append(Event(
            f"{p.nickname} needs {plural(need, 'escape move')}{where}, spends {spend} 💡 and rolls {die} for the last "
            f"{left}: out!", "escape", dice=(die,)))  # fmt: skip
        escaped(st, p, via, ev)
    else:
        ev.append(Event(
            f"{p.nickname} needs {plural(need, 'escape move')}{where}, spends {spend} 💡 and rolls {die}, short of "
            f"{left}: Busted!", "busted", dice=(die,)))  # fmt: skip
        budget = spend + die
        for n, used in route:
            if used > budget:
                break
            p.pos = n
            if n == via:
                for what in R.loot_on(st, via):
                    while what in R.loot_on(st, via):
                        R.take_from(st, p, via, what)
        if "camouflage" in p.items and not any(R.guards(st, m) for m in [p.pos, *R.nbrs(st, p.pos)]):
            ev.append(Event(f"{p.nickname}'s camouflage holds: hidden, not Busted (but not out).", "escape"))
            R.drop_all(st, p)
            p.status = "hidden"
        else:
            R.busted(st, p, ev)
    if not R.in_play(st):
        finish(st, ev)


def escaped(st: HeistState, p: Player, via: str, ev: list[Event]) -> None:
    """The character reaches an exit, picking up everything at ``via`` on the way."""
    if via:
        for what in R.loot_on(st, via):
            while what in R.loot_on(st, via):
                R.take_from(st, p, via, what)
    route = R.escape_route(st, p, via)
    if route:
        p.pos = route[-1][0]  # the exit it left by (or the hideout it hides in)
    p.status = "escaped"
    R.stash_docs(st, p, ev)
    R.bank(st, p, ev, final=True)
    if not R.in_play(st):
        finish(st, ev)


# --- the end ------------------------------------------------------------------------------------------


def finish(st: HeistState, ev: list[Event]) -> None:
    """The heist is over: record the outcome."""
    if st.phase == "over":
        return

    N.run_last(st, ev)
    st.phase = "over"
    won = R.objective_met(st)
    out = sum(p.status == "escaped" for p in st.players.values())
    jailed = [p.nickname for p in st.players.values() if p.status == "busted"]
    haul = ", ".join(f"{k} {v}" for k, v in sorted(st.hauled.items()) if v) or "nothing"
    reason = (
        f"{'Heist won' if won else 'Heist failed'} ({R.heist(st).objective.summary.rstrip('.')}). {out} escaped"
        + (f", Busted: {', '.join(jailed)}" if jailed else "")
        + f". Haul: {haul}."
    )
    st.result = Outcome(frozenset(st.seats) if won else frozenset(), reason)
    ev.append(Event(reason, "end", board=True))
