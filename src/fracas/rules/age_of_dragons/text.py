"""Readable and JSON-ready pictures of an Age of Dragons fight: log lines, tables, views."""

from __future__ import annotations

from typing import Any

from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded
from fracas.rules.age_of_dragons import events as ev
from fracas.rules.age_of_dragons.model import (
    ALTITUDES,
    LIMBS,
    PART_STATES,
    RANGES,
    Fighter,
    State,
)
from fracas.rules.age_of_dragons.rules import is_locked, partners

__all__ = ["conditions", "describe_event", "table", "view"]


def conditions(state: State, f: Fighter) -> list[str]:
    """Short labels for everything unusual about a combatant."""
    out: list[str] = []
    if f.dead:
        out.append("dead")
    elif f.dying:
        out.append("dying")
    if f.stunned:
        out.append("stunned")
    if is_locked(state, f.name):
        out.append("locked with " + ", ".join(sorted(partners(state, f.name))))
    if f.wing:
        out.append(f"wing {PART_STATES[f.wing]}")
    if f.tail:
        out.append(f"tail {PART_STATES[f.tail]}")
    out += [f"{LIMBS[i].replace('_', ' ')} {PART_STATES[s]}" for i, s in enumerate(f.limbs) if s]
    if f.falling_rounds:
        out.append(f"falling ({f.falling_rounds})")
    return out


def _alt(level: int) -> str:
    return ALTITUDES[level].replace("_", " ")


def table(state: State) -> tuple[list[str], list[list[str]]]:
    """One row per combatant: side, PR, PD, altitude, conditions and a line per range."""
    places = [*state.fighters, *state.landmarks]
    rows = []
    for f in state.fighters.values():
        ranges = [f"{o}: {RANGES[state.ranges[(f.name, o) if f.name < o else (o, f.name)]]}"
                  for o in places if o != f.name]
        rows.append([f.name, f.profile.side, f"{f.pr}/{f.profile.pr_max}",
                     f"{f.pd}/{f.profile.passive_pd}", _alt(f.altitude), "\n".join(ranges),
                     "\n".join(conditions(state, f)) or "-"])
    return ["combatant", "side", "PR", "PD", "altitude", "ranges", "conditions"], rows


def view(state: State) -> dict[str, Any]:
    """Everything a screen needs (Age of Dragons keeps no secrets from either side)."""
    fighters = [{
        "name": f.name, "side": f.profile.side, "pr": f.pr, "pr_max": f.profile.pr_max,
        "pd": f.pd, "passive_pd": f.profile.passive_pd, "altitude": ALTITUDES[f.altitude],
        "altitude_level": f.altitude, "soma": f.profile.soma, "sophis": f.profile.sophis,
        "pneuma": f.profile.pneuma, "flies": f.profile.flies, "dead": f.dead,
        "dying": f.dying, "stunned": f.stunned, "wing": PART_STATES[f.wing],
        "tail": PART_STATES[f.tail], "limbs": [PART_STATES[s] for s in f.limbs],
        "falling_rounds": f.falling_rounds, "chose_fall": f.chose_fall,
        "resources": dict(sorted(f.resources.items())), "conditions": conditions(state, f),
    } for f in state.fighters.values()]
    turn = state.turn
    return {
        "round": state.round,
        "order": list(state.order),
        "fighters": fighters,
        "landmarks": [{"name": n, "ground": g} for n, g in state.landmarks.items()],
        "ranges": [{"between": [a, b], "range": RANGES[band]}
                   for (a, b), band in sorted(state.ranges.items())],
        "grapples": [list(link) for link in sorted(state.grapples)],
        "turn": None if turn is None else {
            "actor": turn.actor, "step": turn.step, "spheres": list(turn.spheres),
            "pool": list(turn.pool), "spotted": list(turn.spotted),
            "expended": list(turn.expended), "aims": dict(sorted(turn.aims.items())),
        },
        "pending": None if state.pending is None else {
            "attacker": state.pending.attacker, "attack": state.pending.kind,
            "defenders": list(state.pending.defenders), "hits": state.pending.hits,
            "tn": state.pending.tn,
        },
        "result": None if state.result is None else {
            "winner": state.result[0], "reason": state.result[1]},
    }


def _faces(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces) or "(no dice)"


def describe_event(event: Event, state: State) -> str | None:
    """One line of the round-by-round log (``state`` is the state after the event).

    ``""`` keeps an event out of the log; ``None`` leaves it to the generic wording.
    """
    e: Any = event
    if isinstance(e, ev.TurnStarted):
        f = state.fighters[e.actor]
        return (f"[bold]round {e.round}[/bold] · {e.actor}'s turn (PR {f.pr}, PD {f.pd}, "
                f"{_alt(f.altitude)})")
    if isinstance(e, DecisionMade):
        return ""  # the dice and the results that follow tell the story
    if isinstance(e, DiceRolled):
        return "" if e.purpose == ev.REROLL else f"  {e.actor} rolls {e.purpose}: {_faces(e.faces)}"
    if isinstance(e, ev.DieRerolled):
        return f"  {e.actor} rerolls die #{e.die} with {e.ability}: now {e.face}"
    if isinstance(e, ev.DieSpotted):
        return f"  {e.actor} spots {e.effect}"
    if isinstance(e, ev.RangeChanged):
        return f"  range {e.a} <-> {e.b} is now {RANGES[e.range]}"
    if isinstance(e, ev.AltitudeChanged):
        return f"  {e.actor} is now {_alt(e.altitude)}"
    if isinstance(e, ev.Evaded):
        return f"  {e.actor} evades: PD {state.fighters[e.actor].pd}"
    if isinstance(e, ev.Aimed):
        return f"  {e.actor} aims at {e.target} (-{e.amount} PD this turn)"
    if isinstance(e, ev.AttackDeclared):
        extra = "".join(f" {x}" for x in (e.style if e.style != "claw" else None, e.called,
                                            e.weapon) if x)
        return (f"  {e.attacker} {e.attack.replace('_', ' ')}{extra}: {e.hits} hit(s), "
                f"TN {e.tn:+d}, sixes {e.sixes} -> {', '.join(e.defenders)}")
    if isinstance(e, ev.AttackResolved):
        verdict = "succeeds" if e.success else "fails"
        dmg = f", {e.damage} damage (PR {state.fighters[e.defender].pr})" if e.damage else ""
        return f"  {e.defender} spends {e.pd_spent} PD: margin {e.margin}, {verdict}{dmg}"
    if isinstance(e, ev.PartInjured):
        return f"  {e.target}'s {e.part.replace('_', ' ')} is {PART_STATES[e.severity]}!"
    if isinstance(e, ev.Stunned):
        return f"  {e.target} is stunned"
    if isinstance(e, ev.Killed):
        return f"  [red]{e.target} is dead ({e.cause})[/red]"
    if isinstance(e, ev.GrappleFormed):
        return f"  {e.a} and {e.b} are locked in a grapple at zero range"
    if isinstance(e, ev.GrappleBroken):
        return f"  {e.a} and {e.b} are no longer grappling ({e.reason})"
    if isinstance(e, ev.TaskAttempted):
        verdict = "succeeds" if e.success else "fails"
        task = state.tasks.get(e.task)
        what = f" ({task.description})" if task is not None and task.description else ""
        return f"  {e.actor} attempts {e.task}{what}: {e.hits}/{e.difficulty} hits, {verdict}"
    if isinstance(e, ev.DeathChecked):
        verdict = "survives and heals 1" if e.passed else "fails"
        return f"  death check for {e.actor}: {e.successes}/{e.needed} -> {verdict}"
    if isinstance(e, ev.TurnLost):
        return f"  {e.actor} cannot act ({e.reason})"
    if isinstance(e, ev.FallDeclared):
        return f"  {e.actor} will let itself fall"
    if isinstance(e, ev.Fell):
        return f"  {e.actor} falls ({e.cause}) to {_alt(e.altitude)}"
    if isinstance(e, ev.LandedHard):
        return (f"  [red]{e.actor} crashes onto {e.ground.replace('_', ' ')} for {e.damage}"
                f"[/red] (PR {state.fighters[e.actor].pr})")
    if isinstance(e, ev.OrderFixed):
        return f"initiative ({e.reason}): {', '.join(e.order)}"
    if isinstance(e, FightEnded):
        return f"[bold]the fight is over[/bold]: {e.winner or 'nobody'} won ({e.reason})"
    return None
