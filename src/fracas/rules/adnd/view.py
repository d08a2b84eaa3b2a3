"""Pictures of the fight for people: the JSON view, the CLI table and one line per event.

These run only for front ends, never in bulk simulation, so they may build strings.
"""

from __future__ import annotations

from typing import Any

from fracas.core.events import DecisionMade, Event, FightEnded
from fracas.core.presentation import Column, Presentation, listed, say
from fracas.core.ruleset import GM
from fracas.rules.adnd import actions, terrain
from fracas.rules.adnd.events import (
    AttackRolled,
    BoulderSpent,
    Breath,
    CheckRolled,
    Climbed,
    FallBegan,
    FrontRank,
    GmDone,
    Grabbed,
    GrappleBegan,
    GrappleEnded,
    Landed,
    Regained,
    RoundBegan,
    SaveRolled,
    Secured,
    Slain,
    Turned,
    TurnEnded,
    TurnOrder,
    Unconscious,
    WeaponDropped,
    Wielded,
    Wounded,
)
from fracas.rules.adnd.state import AdndUndergroundState, Fighter, Profile

__all__ = ["PRESENTATION", "describe", "table_of", "view_of"]


def _terrain(p: Profile, f: Fighter) -> str:
    if p.kind == "wall":
        if f.alt <= 0:
            return "foot of the wall"
        face = "facing it" if f.facing_wall else "back to it"
        return f"wall, {face}" + (", secure" if f.secure else "")
    if p.kind in ("ledge", "bridge"):
        return f"{p.kind}, edge {p.edge_ft:g} ft, {say(p.behind)} behind"
    if p.kind == "water":
        return f"water {p.depth_ft:g} ft"
    return "open"


def _conditions(state: AdndUndergroundState, name: str) -> list[str]:
    f = state.fighters[name]
    out = []
    if state.falling == name:
        out.append("falling")
    if f.hanging_on:
        out.append(f"hanging from {f.hanging_on}")
    if f.holding:
        out.append(f"holding {f.holding}")
    if f.held_by:
        out.append(f"held by {f.held_by}")
    if f.under:
        out.append(f"under water (breath: {f.breath_free} free, {f.con_checks} checks)")
    if f.dropped:
        out.append("dropped " + listed(say(w) for w in f.dropped))
    if f.boulders:
        out.append(f"{f.boulders} boulders")
    if state.setup.bottleneck_ft is not None and terrain.in_front(state, name) and f.up:
        out.append("front rank")
    return out


def view_of(state: AdndUndergroundState, side: str | None) -> dict[str, Any]:
    """JSON-ready state; for a side, foes' hit points and breath are hidden."""
    combatants = []
    for name, f in state.fighters.items():
        p = state.profile(name)
        secret = side is not None and p.side != side
        combatants.append({
            "name": name, "side": p.side, "status": f.status,
            "hp": None if secret else f.hp, "hp_max": None if secret else p.hp_max,
            "terrain": p.kind, "alt_ft": f.alt, "facing_wall": f.facing_wall,
            "secure": f.secure, "edge_ft": p.edge_ft, "behind": p.behind,
            "depth_ft": p.depth_ft, "wielding": f.wielding, "dropped": list(f.dropped),
            "boulders": f.boulders, "hanging_on": f.hanging_on, "holding": f.holding,
            "held_by": f.held_by, "under": f.under,
            "breath_free": None if secret else f.breath_free,
            "con_checks": None if secret else f.con_checks,
        })
    return {"round": state.round, "phase": state.phase, "queue": list(state.queue),
            "turn": state.turn, "falling": state.falling, "grab_choices": list(state.grab_choices),
            "front": {k: list(v) for k, v in sorted(state.front.items())},
            "result": list(state.result) if state.result else None, "combatants": combatants}


def table_of(state: AdndUndergroundState) -> tuple[list[str], list[list[str]]]:
    """Name, side, status, hit points, terrain, height and conditions of everyone."""
    rows = []
    for name, f in state.fighters.items():
        p = state.profile(name)
        rows.append([name, p.side, say(f.status), f"{f.hp}/{p.hp_max}", _terrain(p, f),
                     f"{f.alt:g} ft", "; ".join(_conditions(state, name))])
    return ["name", "side", "status", "hp", "terrain", "height", "conditions"], rows


def describe(event: Event, state: AdndUndergroundState) -> str | None:
    """One readable line for an event (None: let the core describe it; "": stay silent)."""
    if isinstance(event, TurnEnded | GmDone | BoulderSpent):
        return ""  # bookkeeping: the decision's own line says what was done
    return _line(event)


#: What the person running the fight is called in the book.
DM = "the DM"


def who(name: str) -> str:
    """A name as the log reads it: the ``gm`` actor is the DM."""
    return DM if name == GM else name


def _decision(action: Any) -> str:
    """A decision in words; empty where the events after it tell it (a ruling of the DM)."""
    a = who(action.actor)
    if isinstance(action, actions.Attack):
        return f"{a} attacks {action.target} with {_weapon(action.weapon)}"
    if isinstance(action, actions.Boulder):
        return f"{a} sends a boulder at {action.target}"
    if isinstance(action, actions.Climb):
        return f"{a} climbs {action.direction}"
    if isinstance(action, actions.Turn):
        return f"{a} turns on the wall"
    if isinstance(action, actions.Grapple):
        return f"{a} tries to grapple {action.target}"
    if isinstance(action, actions.BreakFree):
        return f"{a} tries to break free"
    if isinstance(action, actions.Release):
        return f"{a} lets go of his hold"
    if isinstance(action, actions.Regain):
        return f"{a} tries to regain his hold"
    if isinstance(action, actions.Grab):
        return f"{a} grabs at {action.target}"
    if isinstance(action, actions.Plummet):
        return f"{a} falls"
    if isinstance(action, actions.Wait):
        return f"{a} waits"
    return ""  # the DM's rulings (secure, a saving throw, knock out, let the round run)


def _weapon(weapon: str) -> str:
    """A weapon with its article: ``a battle axe``, ``an axe``, ``claws``, ``his bare hands``."""
    words = say(weapon)
    if words in ("fist", "fists", "bare hands", "hands"):
        return "his bare hands"
    if words.endswith("s") and not words.endswith("ss"):
        return words  # claws, talons: no article
    return ("an " if words[:1] in "aeiou" else "a ") + words


def _line(e: Event) -> str | None:
    if isinstance(e, DecisionMade):
        line = _decision(e.action)
        return f"[bold]{line}[/bold]" if line else ""
    if isinstance(e, FightEnded):
        return f"[bold]the fight is over[/bold]: {who(e.winner or 'nobody')} won " \
               f"({say(e.reason)})"
    if isinstance(e, RoundBegan):
        return f"[bold]round {e.round}[/bold]"
    if isinstance(e, TurnOrder):
        return "  initiative: " + " then ".join(e.sides)
    if isinstance(e, FrontRank):
        return f"  front rank of {e.side}: {', '.join(e.names) or 'nobody'}"
    if isinstance(e, AttackRolled):
        return _attack_line(e)
    if isinstance(e, Wounded):
        return f"  {e.target} loses {e.amount} hp ({say(e.cause)})"
    if isinstance(e, CheckRolled):
        verdict = "succeeds" if e.success else "fails"
        behind = _behind_target(e.check, e.target, e.modifiers)
        return f"  {e.name} {verdict} a {say(e.check)} check: {e.roll} against {e.target}{behind}"
    if isinstance(e, SaveRolled):
        verdict = "saves" if e.success else "fails to save"
        behind = _behind_total(e.total, e.modifiers)
        return (f"  {e.name} {verdict} against {say(e.category)}: {e.total} against "
                f"{e.needed}{behind}")
    if isinstance(e, Unconscious):
        return f"  {e.name} is knocked unconscious"
    if isinstance(e, Slain):
        return f"  [red]{e.name} dies ({say(e.cause)})[/red]"
    if isinstance(e, FallBegan):
        return f"  {e.name} loses his hold and may grab {listed(e.choices) or 'nothing'}"
    if isinstance(e, Grabbed):
        return f"  {e.faller} hangs from {e.holder}"
    if isinstance(e, Landed):
        where = "out of the fight" if e.out else "at the foot of the wall"
        return f"  {e.name} falls {e.feet:g} ft, {where}"
    if isinstance(e, Regained):
        return f"  {e.name} regains his hold"
    if isinstance(e, GrappleBegan):
        under = ", and both go under the water" if e.under else ""
        return f"  {e.holder} grapples {e.victim}{under}"
    if isinstance(e, GrappleEnded):
        return f"  the hold of {e.holder} on {e.victim} ends"
    if isinstance(e, Breath):
        return (f"  {e.name}: breath held {_count(e.free, 'free round')}, "
                f"{_count(e.checks, 'check')} passed")
    if isinstance(e, Climbed):
        return f"  {e.name} climbs to {e.alt:g} ft"
    if isinstance(e, Turned):
        return f"  {e.name} turns {'to face' if e.facing_wall else 'his back to'} the wall"
    if isinstance(e, Secured):
        return f"  {DM} rules {e.name} secure: no wall penalties"
    if isinstance(e, Wielded):
        return f"  {e.name} now fights with {_weapon(e.weapon)}"
    if isinstance(e, WeaponDropped):
        return f"  {e.name} drops his {say(e.weapon)}"
    return None


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _sum(modifiers: tuple[str, ...]) -> int:
    """The sum of modifiers written as ``+2 higher``."""
    total = 0
    for text in modifiers:
        try:
            total += int(text.split(" ", 1)[0])
        except ValueError:
            continue
    return total


def _behind_total(total: int, modifiers: tuple[str, ...]) -> str:
    """`` (rolled 8, +2 higher, +2 rear)``: the die and what was added to it (or nothing)."""
    if not modifiers:
        return ""
    return f" (rolled {total - _sum(modifiers)}, {', '.join(modifiers)})"


_BASES = {"climbing": "rating", "dexterity": "Dexterity", "constitution": "Constitution"}


def _behind_target(check: str, target: int, modifiers: tuple[str, ...]) -> str:
    """`` (rating 80, -10 heavy blow)``: what the number to roll under was made of."""
    if not modifiers:
        return ""
    base = _BASES.get(check, check)
    return f" ({base} {target - _sum(modifiers)}, {', '.join(modifiers)})"


_SPECIAL = {"break free": ("breaks free of", "fails to break free of"),
            "grab": ("grabs hold of", "grabs in vain at"),
            "grapple": ("gets a hold on", "fails to get a hold on"),
            "boulder": ("brings a boulder down on", "sends a boulder past")}


def _attack_line(e: AttackRolled) -> str:
    behind = _behind_total(e.total, e.modifiers)
    score = f"{e.total} against {e.needed}{behind}"
    special = _SPECIAL.get(e.weapon)
    if special is not None:
        verdict = special[0] if e.hit else special[1]
        return f"  {e.attacker} {verdict} {e.target}: {score}"
    verdict = "hits" if e.hit else "misses"
    return f"  {e.attacker} {verdict} {e.target}: {score}"


#: What people see: the combatants' table in words, and the terrain picture.
PRESENTATION = Presentation(
    package=__package__ or "", battlefield="battlefield.html", records=("combatants",),
    gm=DM, title="AD&D", meters=frozenset({"hp"}),
    columns=(Column("name", "name"), Column("side", "side"), Column("status", "status"),
             Column("hp", "hp"), Column("alt_ft", "height (ft)"),
             Column("wielding", "wielding"), Column("dropped", "dropped"),
             Column("boulders", "boulders"), Column("hanging_on", "hanging on"),
             Column("holding", "holding"), Column("held_by", "held by"),
             Column("under", "under water"), Column("breath_free", "breath free"),
             Column("con_checks", "CON checks")))
