"""Pictures of a One Ring fight: JSON view, CLI table and one-line event accounts."""

from __future__ import annotations

from typing import Any

from fracas.core.events import Event
from fracas.rules.one_ring import events as ev
from fracas.rules.one_ring.state import COMPANY, OneRingState

__all__ = ["describe_event", "table", "view"]


def _hero_conditions(state: OneRingState, name: str) -> list[str]:
    h = state.heroes[name]
    out = []
    if state.weary(name):
        out.append("weary")
    if state.miserable(name):
        out.append("miserable")
    for flag in ("knocked_back", "fend_off", "protected", "rallied", "prepared"):
        if getattr(h, flag):
            out.append(flag)
    out.extend(f"dropped {item}" for item in h.dropped)
    return out


def view(state: OneRingState, side: str | None = None) -> dict[str, Any]:
    """A JSON-ready picture; the Company (``side="company"``) does not see the adversaries'
    Endurance, Hate and Wounds, nor hidden pending details."""
    board = state.board
    heroes = []
    for name in state.roster.hero_order:
        h = state.heroes[name]
        card = state.roster.heroes[name]
        heroes.append({
            "name": name, "status": h.status, "stance": h.stance,
            "endurance": h.endurance, "endurance_max": card.endurance_max, "hope": h.hope,
            "wounds": h.wounds, "parry": state.parry(name), "load": state.load(name),
            "wielded": h.wielded, "engaged_with": board.foes_of(name),
            "conditions": _hero_conditions(state, name), "located": list(h.located),
        })
    secret = side == COMPANY
    foes = []
    for name in state.roster.foe_order:
        f = state.foes[name]
        foe_card = state.roster.foes[name]
        entry: dict[str, Any] = {
            "name": name, "kind": foe_card.kind, "status": f.status,
            "size": "large" if foe_card.large else "human",
            "engaged_with": board.heroes_on(name), "standing_back": name in board.stood_back,
        }
        if not secret:
            entry.update(endurance=f.endurance, endurance_max=foe_card.endurance_max,
                         hate=f.hate, wounds=f.wounds, weary=state.foe_weary(name))
        foes.append(entry)
    pending = None
    if state.pending is not None:
        p = state.pending
        pending = {"attacker": p.attacker, "target": p.target, "damage": p.damage,
                   "knockback": p.knockback}
        if not (secret and state.roster.gm_hidden and not p.hero_attacks):
            pending.update(tengwars=p.tengwars, heavy=p.heavy, pierce=p.pierce)
    return {
        "round": state.round, "phase": state.phase, "volley": state.volley,
        "volleys": state.volleys, "regime": board.regime if state.phase == "engagement" else "",
        "order": list(state.order), "turn": state.cursor,
        "heroes": heroes, "adversaries": foes, "pending": pending,
        "result": list(state.result) if state.result else None,
    }


def table(state: OneRingState) -> tuple[list[str], list[list[str]]]:
    """Columns and rows: every combatant's side, status, Endurance, stance and engagements."""
    columns = ["name", "side", "status", "endurance", "hope/hate", "wounds", "stance",
               "engaged with", "conditions"]
    rows = []
    board = state.board
    for name in state.roster.hero_order:
        h = state.heroes[name]
        rows.append([name, "company", h.status,
                     f"{h.endurance}/{state.roster.heroes[name].endurance_max}", str(h.hope),
                     str(h.wounds), h.stance, ", ".join(board.foes_of(name)),
                     ", ".join(_hero_conditions(state, name))])
    for name in state.roster.foe_order:
        f = state.foes[name]
        card = state.roster.foes[name]
        rows.append([name, "enemies", f.status, f"{f.endurance}/{card.endurance_max}",
                     str(f.hate), str(f.wounds),
                     "standing back" if name in board.stood_back else "",
                     ", ".join(board.heroes_on(name)), "weary" if state.foe_weary(name) else ""])
    return columns, rows


_RESULT = {True: "succeeds", False: "fails"}


def describe_event(event: Event, state: OneRingState) -> str | None:
    """One readable line for the events worth reading in a fight's log."""
    if isinstance(event, ev.PhaseBegan):
        if event.phase == "volley":
            return f"[bold]opening volley {event.volley}[/bold]: {', '.join(event.order)}"
        if event.phase == "stance":
            return f"[bold]round {event.round}[/bold]: the Company chooses stances"
        if event.phase == "engagement":
            return f"  engagement ({event.regime} choose)"
        if event.phase == "action":
            return f"  action order: {', '.join(event.order)}"
        return None
    if isinstance(event, ev.VolleysSet):
        return f"{event.count} opening volley(s)"
    if isinstance(event, ev.StanceTaken):
        return f"  {event.hero} takes the {event.stance} stance"
    if isinstance(event, ev.Engaged):
        return f"  {event.hero} and {event.foe} are engaged"
    if isinstance(event, ev.StoodBack):
        return f"  {event.foe} stands back"
    if isinstance(event, ev.RollRead):
        vs = f" against {event.target}" if event.target else ""
        extra = f", {event.tengwars} tengwar(s)" if event.tengwars else ""
        return (f"  {event.actor} {event.purpose}{vs}: {event.total} vs TN {event.tn}, "
                f"{_RESULT[event.success]}{extra}")
    if isinstance(event, ev.SpecialChosen):
        return f"  special damage: {event.special}"
    if isinstance(event, ev.KnockbackChosen):
        return f"  {event.hero} {'is knocked back' if event.accept else 'stands firm'}"
    if isinstance(event, ev.EnduranceLost):
        return f"  {event.target} loses {event.amount} Endurance"
    if isinstance(event, ev.Wounded):
        return f"  [red]{event.target} is Wounded[/red]"
    if isinstance(event, ev.TakenOut):
        return f"  [bold red]{event.name} is out: {event.status}[/bold red]"
    if isinstance(event, ev.HateLost):
        return f"  {event.foe} loses {event.amount} Hate"
    if isinstance(event, ev.TaskSucceeded):
        who = f" ({event.companion})" if event.companion else ""
        return f"  {event.hero}'s task {event.task}{who} succeeds"
    if isinstance(event, ev.ThrustLost):
        return f"  {event.foe} loses an attack, thrust back by a shield"
    if isinstance(event, ev.Recovered):
        return f"  {event.hero} recovers his position"
    if isinstance(event, ev.GearChanged):
        return f"  {event.hero} wields {event.wielded or 'nothing'}; dropped: " \
               f"{', '.join(event.dropped) or 'nothing'}"
    if isinstance(event, ev.Located):
        return f"  {event.hero} locates {event.other}"
    if isinstance(event, ev.Carried):
        return f"  {event.hero} carries {event.comrade} to safety"
    if isinstance(event, ev.Disengaged):
        return f"  {event.name} moves away"
    if isinstance(event, ev.HopeSpent):
        return f"  {event.hero} spends a point of Hope"
    return None
