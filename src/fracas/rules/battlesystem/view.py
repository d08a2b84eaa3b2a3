"""Reading a battle: the text map, log lines, the CLI table and the JSON view."""

from __future__ import annotations

from typing import Any

from fracas.core.events import DecisionMade, Event, FightEnded
from fracas.core.presentation import SAME, Column, Presentation, Same, say
from fracas.core.ruleset import GM
from fracas.rules.battlesystem import actions
from fracas.rules.battlesystem.events import (
    AltitudeChanged,
    CeilingCollapsed,
    Damaged,
    FeatureCollapsed,
    FormationChanged,
    FragileChecked,
    GasEnded,
    GasMoved,
    GasReleased,
    GmEffectUsed,
    MoraleResult,
    ObstacleMarked,
    ObstacleSprung,
    PhaseStarted,
    Routed,
    Struck,
    TargetChosen,
    TorchesChanged,
    TurnStarted,
    Unhurt,
    UnitLeft,
    UnitMoved,
    Withdrew,
)
from fracas.rules.battlesystem.movement import in_command
from fracas.rules.battlesystem.state import Area, BattlesystemState, Unit, can_see, unit_footprint

__all__ = ["PRESENTATION", "BattlesystemPresentation", "battle_map", "describe", "table", "view"]


def _inches(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.2f}".rstrip("0")


def _unit_line(state: BattlesystemState, unit: Unit) -> str:
    info = state.board.areas[unit.area]
    shape = unit_footprint(unit, info)
    bits = [f"{unit.figures} fig"]
    if unit.wounded:
        bits.append(f"{unit.wounded} wounded")
    bits.append(say(unit.formation) + (" squeezed" if shape.squeezed else ""))
    bits.append(f"{_inches(shape.width)}x{_inches(shape.length)} in")
    if unit.altitude != "ground":
        bits.append(f"flying {say(unit.altitude)}")
    if unit.lit:
        bits.append("torches")
    if unit.status != "ok":
        bits.append(say(unit.status).upper())
    return f"      {unit.side}: {unit.name} ({', '.join(bits)})"


def _area_line(state: BattlesystemState, area: Area) -> str:
    light = "lit" if area.lit else "dark"
    air = say(area.airflow) + (f" to {area.wind_to}" if area.wind_to else "")
    notes = []
    if area.name in state.gone:
        notes.append("FALLEN")
    if area.name in state.caved:
        notes.append("caved in")
    for name in area.features:
        notes.append(f"{say(state.features[name].kind)} {name}"
                     + (" (collapsed)" if state.features[name].collapsed else ""))
    notes.extend(f"gas cloud {g.turns_left} turns" for g in state.gases if g.area == area.name)
    links = ", ".join(lk.to + (" (bend)" if lk.bend else "")
                      for lk in state.board.links[area.name])
    text = (f"  {area.name}: {say(area.kind)} {_inches(area.width)} x {_inches(area.length)} in, "
            f"ceiling {_inches(area.ceiling)} ft, {light}, {air}")
    if notes:
        text += "; " + "; ".join(notes)
    return text + f"\n    exits: {links or 'none'}"


def battle_map(state: BattlesystemState, side: str | None = None) -> str:
    """A multi-line text map: every area in map order with the units standing in it.

    For a ``side`` (or ``"spectator"``), only the units that side's view holds:
    its own, and enemies some unit of its own can see.
    """
    lines = [f"=== turn {state.turn} map (1 inch = 10 yards) ==="]
    for name in state.board.order:
        lines.append(_area_line(state, state.board.areas[name]))
        lines.extend(_unit_line(state, u) for u in state.in_area(name)
                     if _visible(state, u, side))
    gone = [u for u in state.units.values() if not u.on_field and _visible(state, u, side)]
    if gone:
        lines.append("  off the field: " + ", ".join(f"{u.name} ({say(u.status)})"
                                                    for u in gone))
    return "\n".join(lines)


def describe(event: Event, state: BattlesystemState) -> str | None:
    """One readable account of ``event`` (a new turn gives the whole map)."""
    if isinstance(event, TurnStarted):
        return battle_map(state)
    if isinstance(event, DecisionMade):
        return _decision(event.action)
    if isinstance(event, PhaseStarted):
        # A GM phase with nobody to decide in it is kept out of the log.
        phase = _PHASES.get(event.phase) or f"{say(event.phase)} phase"
        return f"-- {phase}" if event.queue or event.phase != "gm" else ""
    if isinstance(event, GmEffectUsed):
        return f"  {DM}'s prepared {say(event.effect)} is spent"
    if isinstance(event, UnitMoved):
        verb = "charges into" if event.charging else "moves to"
        if event.progress:
            return (f"  {event.unit} stands in {event.area} "
                    f"({_inches(round(event.progress, 2))} in of march carried)")
        return f"  {event.unit} {verb} {event.area}"
    if isinstance(event, Struck):
        hits = "no hits" if not event.hits else \
            f"{event.hits} hit{'s' if event.hits != 1 else ''}"
        text = (f"  {say(event.weapon)}, {event.unit} against {event.target}: Attack Rating "
                f"{event.rating}, {hits} of {event.rolled}d10")
        return text + (f" = {event.damage} dice of damage" if event.hits else "")
    if isinstance(event, Unhurt):
        whose = {"missiles": "the volley's ", "melee": "the blows' ",
                 "withdrawal": "the free strikes' "}.get(event.cause, "")
        return (f"  {whose}{event.dice} dice of damage are too weak to wound {event.unit} "
                f"(a figure of {event.figure_hd} Hit Dice needs {event.needed})")
    if isinstance(event, FightEnded):
        turns = f"{state.turn} turn{'s' if state.turn != 1 else ''}"
        return f"battle over after {turns}: {event.winner or 'nobody'} won ({say(event.reason)})"
    if isinstance(event, Damaged):
        return (f"  {event.unit} takes {event.dice} dice of {event.cause} damage: "
                f"{event.figures} figure{'s' if event.figures != 1 else ''} left "
                f"({event.wounded} wounded)")
    if isinstance(event, MoraleResult):
        return f"  {event.unit} {'passes' if event.passed else 'FAILS'} morale " \
               f"(needs {event.target} or less)"
    if isinstance(event, Routed):
        return f"  {event.unit} ROUTS ({say(event.cause)})"
    if isinstance(event, UnitLeft):
        return f"  {event.unit} leaves the battle: {say(event.status)}"
    if isinstance(event, FormationChanged):
        return f"  {event.unit} forms {say(event.formation)}"
    if isinstance(event, TorchesChanged):
        return f"  {event.unit} {'lights' if event.lit else 'puts out'} its torches"
    if isinstance(event, AltitudeChanged):
        return f"  {event.unit} flies at {say(event.altitude)} altitude"
    if isinstance(event, FragileChecked):
        result = "COLLAPSES" if event.collapsed else "holds"
        return (f"  (secret) {DM} checks {event.feature}: d100 {event.roll} against "
                f"{event.chance}%: {result}; base chance now {event.base_after}%")
    if isinstance(event, FeatureCollapsed):
        return f"  the {event.feature} in {event.area} COLLAPSES"
    if isinstance(event, CeilingCollapsed):
        return f"  the ceiling of {event.area} caves in ({say(event.material)})"
    if isinstance(event, GasReleased):
        if event.turns == 0:
            return f"  gas released in {event.area} is scattered by the wind"
        how = ", carried by the wind" if event.carried else ""
        return f"  gas cloud released in {event.area}: lasts {event.turns} turns{how}"
    if isinstance(event, GasMoved):
        return f"  gas cloud {event.gas} in {event.area}, {event.turns_left} turns left"
    if isinstance(event, GasEnded):
        return f"  gas cloud {event.gas} disperses"
    if isinstance(event, Withdrew):
        if not event.area:
            return f"  {event.unit} flies out of the melee"
        return f"  {event.unit} withdraws from the melee into {event.area}"
    if isinstance(event, TargetChosen):
        return ""  # the order's own line tells it
    if isinstance(event, ObstacleMarked):
        return f"  {event.side} see and mark an obstacle in {event.area}"
    if isinstance(event, ObstacleSprung):
        return f"  an unseen obstacle in {event.area} catches the first rank of {event.side}"
    return None


#: What the person running the battle is called in the book.
DM = "the DM"
_PHASES = {"gm": "the DM's phase"}


def who(name: str) -> str:
    """A name as the log reads it: the ``gm`` actor is the DM."""
    return DM if name == GM else name


def _decision(action: Any) -> str:
    """An order in words; empty where the events after it tell it."""
    a = who(action.actor)
    if isinstance(action, actions.Move):
        return f"[bold]{a} marches to {action.to}[/bold]"
    if isinstance(action, actions.Charge):
        return f"[bold]{a} charges {action.target}[/bold]"
    if isinstance(action, actions.Hold):
        return f"[bold]{a} holds its ground[/bold]"
    if isinstance(action, actions.Fire):
        return f"[bold]{a} shoots at {action.target}[/bold]"
    if isinstance(action, actions.Withdraw):
        return f"[bold]{a} withdraws from the melee to {action.to}[/bold]"
    if isinstance(action, actions.Attack):
        return f"[bold]{a} holds and strikes at {action.target}[/bold]"
    if isinstance(action, actions.StrikeFeature):
        return f"[bold]{a} strikes the {action.feature}[/bold]"
    return ""  # told by what follows: a formation, torches, a height, the DM's doings


def table(state: BattlesystemState) -> tuple[list[str], list[list[str]]]:
    """Columns and rows for the CLI table of units."""
    rows = []
    for unit in state.units.values():
        rows.append([unit.name, unit.side, unit.area if unit.on_field else "-",
                     say(unit.formation), f"{unit.figures}/{unit.stats.start_figures}",
                     str(unit.wounded), say(unit.status), say(unit.altitude),
                     "yes" if unit.lit else "no"])
    return ["unit", "side", "area", "formation", "figures", "wounded", "status", "altitude",
            "torches"], rows


def _visible(state: BattlesystemState, unit: Unit, side: str | None) -> bool:
    if side is None or unit.side == side:
        return True
    if not unit.on_field:
        return True
    return any(can_see(state, own, unit) for own in state.units.values()
               if own.side == side and own.on_field)


def view(state: BattlesystemState, side: str | None = None) -> dict[str, Any]:
    """JSON-ready picture; for a side, unseen enemies and secret collapse chances are hidden.

    Units that left the battle have ``area`` None.
    """
    areas = []
    for name in state.board.order:
        a = state.board.areas[name]
        areas.append({
            "name": name, "kind": a.kind, "width": a.width, "length": a.length,
            "ceiling": a.ceiling, "airflow": a.airflow, "wind_to": a.wind_to, "lit": a.lit,
            "links": [{"to": lk.to, "bend": lk.bend} for lk in state.board.links[name]],
            "fallen": name in state.gone, "caved": name in state.caved,
            "features": [{"name": f, "kind": state.features[f].kind,
                          "collapsed": state.features[f].collapsed,
                          **({"chance": state.features[f].chance} if side is None else {})}
                         for f in a.features],
        })
    units = []
    shown: set[str] = set()
    for unit in state.units.values():
        if not _visible(state, unit, side):
            continue
        shown.add(unit.name)
        entry: dict[str, Any] = {
            "name": unit.name, "side": unit.side, "status": unit.status,
            "area": unit.area if unit.on_field else None,
            "figures": unit.figures, "wounded": unit.wounded, "formation": unit.formation,
            "axis": unit.axis, "altitude": unit.altitude, "torches": unit.lit,
        }
        if side is None or unit.side == side:
            entry.update(progress=unit.progress, goal=unit.goal, rear=unit.rear,
                         in_command=in_command(state, unit) if unit.on_field else False)
        units.append(entry)
    return {
        # The order still to act names only units this viewer may see.
        "round": state.turn, "phase": state.phase,
        "queue": [u for u in state.queue if u in shown or u not in state.units],
        "areas": areas, "units": units,
        "gases": [{"area": g.area, "turns_left": g.turns_left, "carried": g.carried}
                  for g in state.gases],
        "result": list(state.result) if state.result else None,
    }


class BattlesystemPresentation(Presentation):
    """The units table, the map template, and the turn map worded for each side."""

    def describe_for(self, event: Any, state: Any, side: str) -> str | Same | None:
        """A new turn's map shows a side the units its view holds; other lines are shared."""
        if isinstance(event, TurnStarted) and not event.hidden:
            return battle_map(state, side)
        return SAME


PRESENTATION = BattlesystemPresentation(
    package=__package__ or "", battlefield="battlefield.html", records=("units",),
    gm=DM, title="BATTLESYSTEM", meters=frozenset({"figures"}),
    columns=(Column("name", "unit"), Column("side", "side"), Column("status", "status"),
             Column("area", "area"), Column("figures", "figures"),
             Column("wounded", "wounded"), Column("formation", "formation"),
             Column("altitude", "altitude"), Column("torches", "torches"),
             Column("goal", "marching to"), Column("in_command", "in command")))
