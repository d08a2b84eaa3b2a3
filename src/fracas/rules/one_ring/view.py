"""Pictures of a One Ring fight: JSON view, CLI table and one-line event accounts."""

from __future__ import annotations

from typing import Any

from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded
from fracas.core.presentation import Column, Presentation, listed, say
from fracas.core.ruleset import GM
from fracas.rules.one_ring import actions, events
from fracas.rules.one_ring.dice import EYE_FACE, FEAT_SIDES, RUNE_FACE
from fracas.rules.one_ring.rules import FEND_OFF, HEAVY, NONE, PIERCE, SHIELD_THRUST
from fracas.rules.one_ring.state import COMPANY, ENEMIES, OneRingState

__all__ = ["PRESENTATION", "describe_event", "table", "view"]


def _hero_conditions(state: OneRingState, name: str) -> list[str]:
    h = state.heroes[name]
    out = []
    if state.weary(name):
        out.append("weary")
    if state.miserable(name):
        out.append("miserable")
    for flag, words in _FLAGS:
        if getattr(h, flag):
            out.append(words)
    out.extend(f"dropped {say(item)}" for item in h.dropped)
    return out


#: A hero's passing states, in words.
_FLAGS = (("knocked_back", "knocked back"), ("fend_off", "fending off (+2 Parry)"),
          ("protected", "protected"), ("rallied", "rallied"), ("prepared", "shot prepared"))
#: What the person running the fight is called in the book.
LOREMASTER = "the Loremaster"


def who(name: str) -> str:
    """A name as the log reads it: the ``gm`` actor is the Loremaster."""
    return LOREMASTER if name == GM else name


def _tengwars(n: int) -> str:
    return f"{n} tengwar" if n == 1 else f"{n} tengwars"


def company_at_the_table(state: OneRingState) -> bool:
    """True when the people playing sit on the Company's side only (some hero is played by
    a person, the Loremaster is not): what they are shown is the Company's view."""
    humans = any(card.policy == "human" for card in state.roster.heroes.values())
    return humans and state.roster.gm_policy != "human"


def view(state: OneRingState, side: str | None = None) -> dict[str, Any]:
    """A JSON-ready picture; anyone but the Loremaster (``side`` ``None`` or ``enemies``)
    sees the Company's view: not the adversaries' Endurance, Hate (or Resolve) and Wounds,
    nor hidden pending details."""
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
    secret = side is not None and side != ENEMIES
    foes = []
    for name in state.roster.foe_order:
        f = state.foes[name]
        foe_card = state.roster.foes[name]
        entry: dict[str, Any] = {
            "name": name, "kind": foe_card.kind, "status": f.status,
            "size": "large" if foe_card.large else "human",
            "engaged_with": board.heroes_on(name), "standing_back": name in board.stood_back,
            "eligible": f.eligible,
        }
        if not secret:
            entry.update(endurance=f.endurance, endurance_max=foe_card.endurance_max,
                         wounds=f.wounds, weary=state.foe_weary(name))
            entry[foe_card.hate_label] = f.hate
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


def table(state: OneRingState, side: str | None = None) -> tuple[list[str], list[list[str]]]:
    """Columns and rows: every combatant's side, status, Endurance, stance and engagements.

    Shown to the Company (``side="company"``, or with ``side`` unset when the people at
    the table play heroes and not the Loremaster), the adversaries' Endurance, Hate or
    Resolve, Wounds and weariness are hidden, as in :func:`view`.
    """
    secret = side == COMPANY or (side is None and company_at_the_table(state))
    columns = ["name", "side", "status", "endurance", "hope / hate / resolve", "wounds",
               "stance", "engaged with", "conditions"]
    rows = []
    board = state.board
    for name in state.roster.hero_order:
        h = state.heroes[name]
        rows.append([name, "company", say(h.status),
                     f"{h.endurance}/{state.roster.heroes[name].endurance_max}",
                     f"{h.hope} Hope", str(h.wounds), say(h.stance or ""),
                     ", ".join(board.foes_of(name)),
                     ", ".join(_hero_conditions(state, name))])
    for name in state.roster.foe_order:
        f = state.foes[name]
        card = state.roster.foes[name]
        place = "standing back" if name in board.stood_back else \
            ("" if f.eligible else "held back")
        label = card.hate_label.capitalize()
        if secret:
            numbers = ["?", f"? {label}", "?", ""]
        else:
            numbers = [f"{f.endurance}/{card.endurance_max}", f"{f.hate} {label}", str(f.wounds),
                       "weary" if state.foe_weary(name) else ""]
        rows.append([name, "enemies", say(f.status), numbers[0], numbers[1], numbers[2], place,
                     ", ".join(board.heroes_on(name)), numbers[3]])
    return columns, rows


_RESULT = {True: "succeeds", False: "fails"}
_PURPOSE = {"attack": "an attack", "protection": "Protection", "task": "a combat task",
            "escape": "an escape"}
_TASKS = {"intimidate": "Intimidate Foe", "rally": "Rally Comrades",
          "protect": "Protect Companion", "prepare": "Prepare Shot"}
_SPECIALS = {HEAVY: "a Heavy Blow", FEND_OFF: "Fend Off", PIERCE: "Pierce",
             SHIELD_THRUST: "a Shield Thrust"}


def feat_face(face: int, adversary: bool, miserable: bool = False) -> str:
    """A Feat die face in words: the Eye and the Gandalf rune are named with what they do
    for whoever rolled them (heroes and adversaries read them the other way round)."""
    if face == EYE_FACE:
        if adversary:
            return "the Eye (an automatic success for an adversary)"
        return "the Eye (an automatic failure: Miserable)" if miserable else "the Eye (counts 0)"
    if face == RUNE_FACE:
        return "the Gandalf rune (counts 0 for an adversary)" if adversary else \
            "the Gandalf rune (an automatic success)"
    return str(face)


def _dice(event: DiceRolled, state: OneRingState) -> str:
    purpose = _PURPOSE.get(event.purpose) or say(event.purpose)
    faces = event.faces
    if event.sides == FEAT_SIDES:
        adversary = event.actor in state.foes
        miserable = not adversary and event.actor in state.heroes and \
            state.miserable(event.actor)
        words = ", ".join(feat_face(f, adversary, miserable) for f in faces)
        dice = "the Feat die" if len(faces) == 1 else f"{len(faces)} Feat dice (one kept)"
        lead = "Piercing Blow! " if event.purpose == "protection" else ""
        return f"  {lead}{who(event.actor)} rolls {dice} for {purpose}: {words}"
    count = "1 Success die" if len(faces) == 1 else f"{len(faces)} Success dice"
    return f"  {who(event.actor)} rolls {count}: {' '.join(map(str, faces))}"


def _roll(event: events.RollRead) -> str:
    extra = f", {_tengwars(event.tengwars)}" if event.tengwars else ""
    if event.purpose == "protection":
        return (f"  {event.actor}'s Protection against the Piercing Blow (Injury {event.tn}): "
                f"{event.total}, {_RESULT[event.success]}")
    if event.purpose == "attack":
        what = f"attacks {event.target}" if event.target else "attacks"
    else:
        vs = f" against {event.target}" if event.target else ""
        what = f"tries {_PURPOSE.get(event.purpose) or say(event.purpose)}{vs}"
    return (f"  {event.actor} {what}: {event.total} vs TN {event.tn}, "
            f"{_RESULT[event.success]}{extra}")


def _special(event: events.SpecialChosen, state: OneRingState) -> str:
    p = state.pending
    by = f"{p.attacker} " if p is not None else ""
    if event.special == NONE:
        return f"  {by}gives up the tengwars left"
    effect = {
        HEAVY: f"+{event.amount} Endurance lost",
        PIERCE: f"+{event.amount} to the Feat die for a Piercing Blow",
        FEND_OFF: "+2 Parry until the round ends",
        SHIELD_THRUST: "the foe loses its next attack",
    }.get(event.special, "")
    name = _SPECIALS.get(event.special) or say(event.special)
    return f"  {by}spends a tengwar on {name}: {effect}"


def _phase(event: events.PhaseBegan) -> str | None:
    if event.phase == "volley":
        return f"[bold]opening volley {event.volley}[/bold]: {', '.join(event.order)}"
    if event.phase == "stance":
        return f"[bold]round {event.round}[/bold]: the Company chooses stances"
    if event.phase == "engagement":
        if event.regime == "loremaster":
            return f"  engagement: more enemies than heroes, so {LOREMASTER} pairs them"
        return "  engagement: the heroes match or outnumber the foes and choose their opponents"
    if event.phase == "action":
        return f"  action order: {', '.join(event.order)}"
    if event.phase == "volleys_choice":
        return f"{LOREMASTER} chooses how many opening volleys are shot"
    return f"  {say(event.phase)}"


def describe_event(event: Event, state: OneRingState) -> str | None:
    """One readable line for the events worth reading in a fight's log."""
    if isinstance(event, events.TurnEnded | events.MainActionTaken | events.SecondaryTaken
                  | events.HitResolved):
        return ""  # bookkeeping: the decision's own line says what was done
    if isinstance(event, DecisionMade):
        return _decision(event.action, state)
    if isinstance(event, events.HitPending):
        spend = (f", {_tengwars(event.tengwars)} for {who(event.decider)} to spend"
                 if event.tengwars else "")
        return f"  {event.attacker} hits {event.target}: damage {event.damage}{spend}"
    if isinstance(event, events.BonusUsed):
        return f"  {event.hero}'s {say(event.bonus)} bonus is used up"
    if isinstance(event, events.PhaseBegan):
        return _phase(event)
    if isinstance(event, DiceRolled):
        return _dice(event, state)
    if isinstance(event, events.VolleysSet):
        return {0: "no opening volleys", 1: "1 opening volley"}.get(
            event.count, f"{event.count} opening volleys")
    if isinstance(event, events.StanceTaken):
        return f"  {event.hero} takes the {event.stance} stance"
    if isinstance(event, events.Engaged):
        return f"  {event.hero} and {event.foe} are engaged"
    if isinstance(event, events.StoodBack):
        return f"  {event.foe} stands back"
    if isinstance(event, events.Introduced):
        if event.foe:
            return f"  the Loremaster introduces {event.foe} as a target for the heroes"
        return "  the Loremaster introduces no more targets this round"
    if isinstance(event, events.HeroPassed):
        return f"  {event.hero} finds no foe to engage"
    if isinstance(event, events.RollRead):
        return _roll(event)
    if isinstance(event, events.SpecialChosen):
        return _special(event, state)
    if isinstance(event, events.KnockbackChosen):
        return f"  {event.hero} {'is knocked back' if event.accept else 'stands firm'}"
    if isinstance(event, events.EnduranceLost):
        return f"  {event.target} loses {event.amount} Endurance"
    if isinstance(event, events.Wounded):
        return f"  [red]{event.target} is Wounded[/red]"
    if isinstance(event, events.TakenOut):
        return f"  [bold red]{event.name} is out: {say(event.status)}[/bold red]"
    if isinstance(event, events.HateLost):
        card = state.roster.foes.get(event.foe)
        label = card.hate_label.capitalize() if card is not None else "Hate"
        return f"  {event.foe} loses {event.amount} {label}"
    if isinstance(event, events.TaskSucceeded):
        aided = f" ({event.companion})" if event.companion else ""
        return f"  {event.hero}'s {_TASKS.get(event.task) or say(event.task)}{aided} succeeds"
    if isinstance(event, events.ThrustLost):
        return f"  {event.foe} loses an attack, thrust back by a shield"
    if isinstance(event, events.Recovered):
        return f"  {event.hero} recovers from the knockback"
    if isinstance(event, events.GearChanged):
        return f"  {event.hero} wields {say(event.wielded or 'nothing')}; dropped: " \
               f"{listed(say(d) for d in event.dropped) or 'nothing'}"
    if isinstance(event, events.Located):
        return f"  {event.hero} locates {event.other}"
    if isinstance(event, events.Carried):
        return f"  {event.hero} carries {event.comrade} to safety"
    if isinstance(event, events.Disengaged):
        return f"  {event.name} moves away"
    if isinstance(event, events.HopeSpent):
        return f"  {event.hero} spends a point of Hope"
    if isinstance(event, FightEnded):
        return f"[bold]the fight is over[/bold]: {who(event.winner or 'nobody')} won " \
               f"({say(event.reason)})"
    return None


def _decision(action: Any, state: OneRingState) -> str:
    """A decision's own line: empty where the events after it tell it (a stance, an
    engagement, a roll, a special success), else what was chosen, in words."""
    if isinstance(action, actions.Hold):
        holder = action.foe or who(action.actor)
        return f"  {holder} holds back and does not attack"
    return ""


#: What people see: heroes and adversaries in one table, and the stances picture.
PRESENTATION = Presentation(
    package=__package__ or "", battlefield="battlefield.html", gm=LOREMASTER,
    title="The One Ring", meters=frozenset({"endurance", "Endurance"}),
    records=("heroes", "adversaries"),
    columns=(Column("name", "name"), Column("kind", "kind"), Column("status", "status"),
             Column("stance", "stance"), Column("endurance", "endurance"),
             Column("hope", "hope"), Column("hate", "hate"), Column("resolve", "resolve"),
             Column("wounds", "wounds"), Column("weary", "weary"), Column("parry", "parry"),
             Column("wielded", "wielded"), Column("engaged_with", "engaged with"),
             Column("conditions", "conditions")))
