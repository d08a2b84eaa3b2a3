"""Readable and JSON-ready pictures of an Age of Dragons fight: log lines, tables, views."""

from __future__ import annotations

from typing import Any

from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded
from fracas.core.presentation import Column, Presentation, faces_words, say
from fracas.rules.age_of_dragons import events
from fracas.rules.age_of_dragons.rules import (
    ATTACK_THRESHOLD,
    available_pd,
    is_locked,
    partners,
)
from fracas.rules.age_of_dragons.state import (
    ALTITUDES,
    LIMBS,
    PART_STATES,
    RANGES,
    AgeOfDragonsState,
    Fighter,
    SpotRun,
)

__all__ = ["PRESENTATION", "conditions", "describe_event", "table", "view"]


def conditions(state: AgeOfDragonsState, f: Fighter) -> list[str]:
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
    out += [f"{_part(LIMBS[i])} {PART_STATES[s]}" for i, s in enumerate(f.limbs) if s]
    if f.falling_rounds:
        out.append(f"falling ({f.falling_rounds})")
    return out


def _alt(level: int) -> str:
    return ALTITUDES[level].replace("_", " ")


def table(state: AgeOfDragonsState) -> tuple[list[str], list[list[str]]]:
    """One row per combatant: side, PR, PD, altitude, conditions and a line per range."""
    places = [*state.fighters, *state.landmarks]
    rows = []
    for f in state.fighters.values():
        ranges = [f"{o}: {RANGES[state.ranges[(f.name, o) if f.name < o else (o, f.name)]]}"
                  for o in places if o != f.name]
        rows.append([f.name, f.profile.side, f"{f.pr} of {f.profile.pr_max}",
                     _pd(f), _alt(f.altitude), "\n".join(ranges),
                     "\n".join(conditions(state, f)) or "-"])
    return ["combatant", "side", "PR", "PD", "altitude", "ranges", "conditions"], rows


def view(state: AgeOfDragonsState) -> dict[str, Any]:
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


def _words(names: list[str] | tuple[str, ...]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _dice(faces: list[int]) -> str:
    """The faces of the dice a spot used: ``a 4``, ``3 and 5``."""
    if len(faces) == 1:
        return f"a {faces[0]}"
    return _words([str(f) for f in faces])


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _expended(event: events.DiceExpended, state: AgeOfDragonsState) -> str:
    """The dice an expend took, named by their faces (the event holds their places in the
    pool, which the state just after it still shows)."""
    turn = state.turn
    if turn is None or any(i >= len(turn.pool) for i in event.dice):
        n = len(event.dice)
        return f"{n} {'die' if n == 1 else 'dice'}" if n else "no dice"
    return faces_words(sorted(turn.pool[i] for i in event.dice))


def _times(n: int) -> str:
    return "" if n == 1 else " twice" if n == 2 else f" {n} times"


def _plain(name: str) -> str:
    return name.replace("_", " ")


def _part(part: str) -> str:
    """A body part in words: ``left forelimb``, ``wing``."""
    if part in LIMBS:
        side, end = part.split("_")[1], part.split("_")[0]
        return f"{side} {end}limb"
    return _plain(part)


def _at(level: int) -> str:
    """Where an altitude puts a combatant: ``at normal altitude``, ``flying high``."""
    return {0: "on the ground", 1: "strafing low", 2: "at normal altitude", 3: "flying high",
            4: "at ceiling altitude"}[level]


_BANDS = ("zero range", "close quarters", "middle distance", "long distance", "disengaged")
_SPHERES = {"soma": "Soma", "sophis": "Sophis", "pneuma": "Pneuma"}
_CAUSES = {"locked": "locked in a grapple", "dying": "dying", "cannot fly": "cannot fly",
           "chose to fall": "by choice"}


def _pd(f: Fighter) -> str:
    """Physical Defence as a reader wants it: left of the usual, or raised by evading."""
    passive = f.profile.passive_pd
    if f.pd == passive:
        return str(f.pd)
    if f.pd < passive:
        return f"{f.pd} of {passive} left"
    return f"{f.pd} ({passive} + {f.pd - passive} evading)"


def _run_line(run: SpotRun, state: AgeOfDragonsState) -> str:
    """One line for a run of Aim or Evade spots."""
    n = len(run.faces)
    dice = f"with {_dice(run.faces)}" if n else ""
    if run.effect == "evade":
        pd = state.fighters[run.actor].pd
        return f"  {run.actor} evades {dice}: PD {pd} until its next turn"
    return f"  {run.actor} aims at {run.target} {dice}: {run.target} has {n} PD less against " \
        "it this turn"


def _spot_line(state: AgeOfDragonsState, what: str) -> str:
    """A manoeuvre's line: the die it took, the manoeuvre, where it leaves the actor."""
    run = state.spot_run
    if run is None or not run.faces:
        return f"  {what}"
    doing = {"lose_altitude": "lose altitude", "gain_altitude": "gain altitude",
             "take_off": "take off"}.get(run.effect)
    if doing is None:  # alter range
        doing = f"{'close on' if run.closer else 'draw away from'} {run.target}"
    return f"  {run.actor} spots {_dice(run.faces)} to {doing}: {what}"


def _roll_line(e: DiceRolled, state: AgeOfDragonsState) -> str:
    faces = _faces(e.faces)
    if e.purpose == events.POOL:
        spheres = state.turn.spheres if state.turn is not None else ()
        named = _words([_SPHERES[s] for s in spheres]) if spheres else "pool"
        n = len(e.faces)
        line = f"  {e.actor} rolls {n} {named} {'die' if n == 1 else 'dice'}: {faces}"
        if not any(f >= ATTACK_THRESHOLD for f in e.faces):
            line += f" (no {ATTACK_THRESHOLD}+: no hits)"
        return line
    if e.purpose == events.INITIATIVE:
        wins = sum(1 for f in e.faces if f >= ATTACK_THRESHOLD)
        return f"  {e.actor} rolls for initiative: {faces} ({wins} at {ATTACK_THRESHOLD}+)"
    if e.purpose == events.DEATH_CHECK:
        return f"  {e.actor} rolls Soma for its death check: {faces}"
    if e.purpose == events.STUN:
        return f"  {e.actor} is stunned and rolls a d6: {faces}"
    if e.purpose == events.LANDING:
        return f"  {e.actor} rolls the forced landing: {faces}"
    return f"  {e.actor} rolls for {say(e.purpose)}: {faces}"


def _attack_line(e: events.AttackDeclared, state: AgeOfDragonsState) -> str:
    target = e.defenders[0] if e.defenders else "nobody"
    if e.attack == "attack":
        whose = f"{target}'s {_part(e.called)}" if e.called else target
        verb = {"claw": f"claws at {whose}", "bite": f"bites at {whose}",
                "wing": f"slaps at {whose} with a wing",
                "tail": f"lashes at {whose} with its tail"}.get(e.style, f"attacks {whose}")
    elif e.attack == "shoot":
        others = f" (and {_words(list(e.defenders[1:]))}, in its grapple)" \
            if len(e.defenders) > 1 else ""
        verb = f"shoots {say(e.weapon)} at {target}{others}"
    elif e.attack == "grapple":
        verb = f"tries to grapple {target}"
    else:
        held = [f"{d}'s" for d in e.defenders]
        verb = f"tries to break out of {_words(held)} grip"
    notes = []
    if e.tn:
        notes.append(f"TN {e.tn:+d}")
    if e.damage_bonus:
        notes.append(f"damage {e.damage_bonus:+d}")
    if e.called:
        notes.append("no six" if e.sixes == 0 else "one six" if e.sixes == 1
                     else f"{e.sixes} sixes")
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"  {e.attacker} {verb} with {_hits(e.hits)}{extra}"


def _resolved_line(e: events.AttackResolved, state: AgeOfDragonsState) -> str:
    f = state.fighters[e.defender]
    left = available_pd(state, e.defender)
    spent = f"spends {e.pd_spent} of {e.pd_spent + left} PD" if e.pd_spent else \
        f"spends none of its {left} PD" if left else "has no PD to spend"
    if not e.success:
        return f"  {e.defender} {spent}: the attack fails (margin {e.margin})"
    result = f"{e.damage} damage, PR {f.pr} of {f.profile.pr_max}" if e.damage else \
        "no damage"
    return f"  {e.defender} {spent}: the attack succeeds by {e.margin}, {result}"


_INJURIES = {
    ("wing", 1): "is mauled: it can no longer fly",
    ("wing", 2): "is ripped out: it can no longer fly, and it will not heal naturally",
    ("tail", 1): "is mauled: no more tail attacks",
    ("tail", 2): "is ripped off: no more tail attacks, and it will not heal naturally",
}


def describe_event(event: Event, state: AgeOfDragonsState) -> str | None:
    """One line of the round-by-round log (``state`` is the state after the event).

    ``""`` keeps an event out of the log; ``None`` leaves it to the generic wording.
    Aim and Evade spots in a row are told as one line, with the event that ends the run
    (the next decision, or the end of the turn).
    """
    if isinstance(event, events.DiceExpended):
        return f"  {event.actor} expends {_expended(event, state)}"
    if isinstance(event, events.RoundEnded):
        return f"end of round {event.round}"
    e: Any = event
    if isinstance(e, events.TurnStarted):
        f = state.fighters[e.actor]
        return (f"[bold]round {e.round}[/bold] · {e.actor}'s turn (PR {f.pr} of "
                f"{f.profile.pr_max}, PD {f.pd}, {_at(f.altitude)})")
    if isinstance(e, DecisionMade | events.TurnEnded):
        run = state.closed_run
        return _run_line(run, state) if run is not None else ""
    if isinstance(e, DiceRolled):
        return "" if e.purpose == events.REROLL else _roll_line(e, state)
    if isinstance(e, events.DieRerolled):
        turn = state.turn
        if turn is None:
            return f"  {e.actor} rerolls a die with {e.ability}: now a {e.face}"
        return (f"  {e.actor} rerolls a {turn.rerolled_from} with {e.ability}: now a {e.face} "
                f"(dice {_faces(tuple(turn.pool))})")
    if isinstance(e, events.DieSpotted | events.Evaded | events.Aimed):
        return ""  # told by the manoeuvre's line, or by the run of Aim or Evade
    if isinstance(e, events.RangeChanged):
        return _spot_line(state, f"{e.a} and {e.b} are now at {_BANDS[e.range]}"
                          if state.spot_run is None else f"now at {_BANDS[e.range]}")
    if isinstance(e, events.AltitudeChanged):
        return _spot_line(state, f"{e.actor} is now {_at(e.altitude)}"
                          if state.spot_run is None else f"now {_at(e.altitude)}")
    if isinstance(e, events.AttackDeclared):
        return _attack_line(e, state)
    if isinstance(e, events.AttackResolved):
        return _resolved_line(e, state)
    if isinstance(e, events.PartInjured):
        what = _INJURIES.get((e.part, e.severity))
        if what is None:
            what = "is mauled: no claw or weapon on it" if e.severity == 1 else \
                "is ripped off: no claw or weapon on it, slower on the ground, and it will " \
                "not heal naturally"
        return f"  {e.target}'s {_part(e.part)} {what}!"
    if isinstance(e, events.Stunned):
        return f"  {e.target} is stunned: from now on it loses a turn one time in three"
    if isinstance(e, events.Killed):
        return f"  [red]{e.target} is dead ({say(e.cause)})[/red]"
    if isinstance(e, events.GrappleFormed):
        return f"  {e.a} and {e.b} are locked in a grapple at zero range"
    if isinstance(e, events.GrappleBroken):
        if e.reason == "broke out":
            return f"  {e.a} breaks free of {e.b}: now at close quarters"
        return f"  {e.a} and {e.b} are no longer grappling ({say(e.reason)})"
    if isinstance(e, events.TaskAttempted):
        verdict = "succeeds" if e.success else "fails"
        task = state.tasks.get(e.task)
        what = f" ({task.description})" if task is not None and task.description else ""
        return (f"  {e.actor} attempts {say(e.task)}{what}: {_hits(e.hits)} of {e.difficulty} "
                f"needed, {verdict}")
    if isinstance(e, events.DeathChecked):
        verdict = "survives and heals 1" if e.passed else "fails"
        return (f"  death check for {e.actor}: {e.successes} at {ATTACK_THRESHOLD}+, "
                f"{e.needed} needed: {verdict}")
    if isinstance(e, events.TurnLost):
        return "" if state.fighters[e.actor].dead else \
            f"  {e.actor} cannot act ({say(e.reason)})"
    if isinstance(e, events.FallDeclared):
        return f"  {e.actor} chooses to fall this round"
    if isinstance(e, events.Fell):
        return f"  {e.actor} falls ({_CAUSES.get(e.cause) or say(e.cause)}): now {_at(e.altitude)}"
    if isinstance(e, events.LandedHard):
        f = state.fighters[e.actor]
        ground = "soft ground" if e.ground == "soft" else _plain(e.ground)
        return (f"  [red]{e.actor} crashes onto {ground} for {e.damage}[/red] "
                f"(PR {f.pr} of {f.profile.pr_max})")
    if isinstance(e, events.OrderFixed):
        return f"initiative ({say(e.reason)}): {', '.join(e.order)}"
    if isinstance(e, FightEnded):
        return f"[bold]the fight is over[/bold]: {e.winner or 'nobody'} won ({say(e.reason)})"
    return None


#: What people see: the fighters' table in the game's words, and the sky picture.
PRESENTATION = Presentation(
    package=__package__ or "", battlefield="battlefield.html", records=("fighters",),
    title="Age of Dragons",
    meters=frozenset({"PR"}),
    columns=(Column("name", "combatant"), Column("side", "side"), Column("pr", "PR"),
             Column("pd", "PD"), Column("altitude", "altitude"),
             Column("conditions", "conditions")))
