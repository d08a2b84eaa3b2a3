"""GM overrides: the referee's hand on the fight, outside the rules, at any moment.

A real table meets what no rule set models (a potion, a spell from another chapter, a
house ruling, a latecomer).  The GM then changes the fight by hand.  fracas makes each
such change an ordinary typed action of the ``gm`` actor, so it is offered step by step,
checked, logged, undone, replayed and stored like any decision:

* ``gm adjust target=Ash what=pr by=-3`` -- change a health or resource gauge by an amount;
* ``gm condition target=Ash condition=stunned`` (``on=no`` to clear it) -- set or clear a
  condition the rule set tracks;
* ``gm add like=Orc name='Orc 2'`` -- bring in a new combatant made like one of the
  scenario's (its profile, at full health) under a new name;
* ``gm enter spec='{name: Wolf, side: blue, soma: 6, pr: 12}'`` -- bring in a combatant
  typed in, as the scenario file writes one (checked by the scenario's own model);
* ``gm remove target=Orc`` -- take a combatant out of the fight;
* ``gm delay target=Ash`` -- hold the turn that is about to start and let it come later.

The actions and their events are the same for every rule set; what differs (which
gauges, which conditions, how a newcomer enters, what a delayed turn becomes) is a
rule set's :class:`OverrideRules`.  :class:`Overrides` turns those answers into the two
hooks the steps need (``why_not`` and ``step``, see :mod:`fracas.core.decision`), the
resolution (one event per override, never a die) and the log's words.  The encounter
accepts an override whoever's turn it is (:meth:`fracas.core.encounter.Encounter.apply`)
and records it as a :class:`~fracas.core.events.DecisionMade` of the GM, so undo, redo,
verified logs and the store need nothing new.  An override changes the state only through
its event and the rule set's fold; after it the rule set's ``advance`` runs as after any
decision (so a fight the override decided ends, and a turn whose combatant was removed
passes on).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from fracas.core.action import GM, Action, action
from fracas.core.decision import Menu, Partial, Span, check
from fracas.core.errors import IllegalActionError
from fracas.core.events import DecisionMade, Event, event
from fracas.core.presentation import possessive

if TYPE_CHECKING:
    from fracas.core.rng import Rng
    from fracas.core.ruleset import Ruleset

__all__ = [
    "OVERRIDE_ACTIONS",
    "OVERRIDE_EVENTS",
    "Adjust",
    "CombatantAdded",
    "CombatantEntered",
    "CombatantRemoved",
    "Condition",
    "ConditionChanged",
    "Delay",
    "Enter",
    "Gauge",
    "GaugeAdjusted",
    "Join",
    "OverrideRules",
    "Overrides",
    "Remove",
    "TurnDelayed",
    "is_override",
    "take_override",
]

S = TypeVar("S")

#: The longest name a combatant brought in by the GM may have.
MAX_NAME = 40
#: The longest entry of a combatant typed in (characters).
MAX_ENTRY = 4000


# -- the actions ---------------------------------------------------------------------------
@action("adjust")
class Adjust(Action):
    """The GM changes one gauge (health or a resource) of ``target`` by ``by``."""

    actor: str
    target: str
    what: str
    by: int


@action("condition")
class Condition(Action):
    """The GM sets (``on``) or clears (``on=no``) a condition of ``target``."""

    actor: str
    target: str
    condition: str
    on: bool = True


@action("add")
class Join(Action):
    """The GM brings in a new combatant called ``name``, made like the combatant ``like``."""

    actor: str
    like: str
    name: str


@action("enter")
class Enter(Action):
    """The GM brings in a combatant typed in: ``spec`` is its entry as the scenario file
    writes one (a YAML or JSON mapping, ``{name: Wolf, side: blue, soma: 6, pr: 12}``)."""

    actor: str
    spec: str


@action("remove")
class Remove(Action):
    """The GM takes ``target`` out of the fight."""

    actor: str
    target: str


@action("delay")
class Delay(Action):
    """The GM holds ``target``'s turn: it comes later (where, the rule set says)."""

    actor: str
    target: str


#: Every override action, in the order the first step offers them.
OVERRIDE_ACTIONS: tuple[type[Action], ...] = (Adjust, Condition, Join, Enter, Remove, Delay)
#: The classes, for a quick "is this an override?" (:func:`is_override`).
OVERRIDE_KINDS: frozenset[type[Action]] = frozenset(OVERRIDE_ACTIONS)


def is_override(action: Action) -> bool:
    """True when ``action`` is one of the GM's overrides."""
    return type(action) in OVERRIDE_KINDS


# -- the events ----------------------------------------------------------------------------
@event("gm.adjusted")
class GaugeAdjusted(Event):
    """A gauge of ``target`` went from ``before`` to ``after`` by the GM's hand."""

    actor: str
    target: str
    what: str
    before: int
    after: int


@event("gm.condition")
class ConditionChanged(Event):
    """The GM set (``on``) or cleared a condition of ``target``."""

    actor: str
    target: str
    condition: str
    on: bool


@event("gm.added")
class CombatantAdded(Event):
    """The GM brought in ``name``, made like ``like``."""

    actor: str
    name: str
    like: str


@event("gm.entered")
class CombatantEntered(Event):
    """The GM brought in ``name``, typed in: ``spec`` its entry, as canonical JSON."""

    actor: str
    name: str
    spec: str


@event("gm.removed")
class CombatantRemoved(Event):
    """The GM took ``target`` out of the fight."""

    actor: str
    target: str


@event("gm.delayed")
class TurnDelayed(Event):
    """The GM held ``target``'s turn for later."""

    actor: str
    target: str


#: Every event an override makes.
OVERRIDE_EVENTS: tuple[type[Event], ...] = (GaugeAdjusted, ConditionChanged, CombatantAdded,
                                            CombatantEntered, CombatantRemoved, TurnDelayed)


# -- what a rule set answers ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Gauge:
    """One adjustable number of a combatant: its words, its value and the values it may take.

    ``health`` marks the gauge whose rise reads "heals" and whose fall reads "wounds".
    """

    label: str
    value: int
    low: int
    high: int
    health: bool = False

    @property
    def bounds(self) -> tuple[int, int]:
        """The values an adjust may reach: ``low`` to ``high``, widened to hold the value
        now (a gauge the rules pushed past a bound can always be left where it is)."""
        return min(self.low, self.value), max(self.high, self.value)


class OverrideRules(ABC, Generic[S]):
    """What a rule set says about GM overrides; :class:`Overrides` derives the rest.

    Each ``fold_*`` method is the fold of one override event: the only place the
    override changes the state (the rule set's ``apply_event`` dispatches to it, see
    :meth:`Overrides.fold_handlers`).  It must not roll dice.
    """

    #: What the rule set calls the GM in its log lines ("the Loremaster").
    gm_title: ClassVar[str] = "the GM"
    #: What joins a suggested newcomer's name and its number (``Orc 2``; AD&D: ``orc-2``).
    name_sep: ClassVar[str] = " "
    #: The pattern every combatant's name must match, when the scenario has one, and its words.
    name_pattern: ClassVar[tuple[str, str] | None] = None

    @abstractmethod
    def targets(self, state: S) -> Sequence[str]:
        """The combatants in the fight now, in the order a person reads them."""

    @abstractmethod
    def gauges(self, state: S, target: str) -> Mapping[str, Gauge]:
        """``target``'s adjustable gauges by name (``pr``, ``endurance``...)."""

    def conditions(self, state: S, target: str) -> Mapping[str, tuple[str, bool]]:
        """``target``'s conditions the GM may set or clear: name -> (words, set now)."""
        return {}

    def models(self, state: S) -> Sequence[str]:
        """The combatants a newcomer may be made like (none: the rule set adds nobody)."""
        return ()

    def delayable(self, state: S) -> Sequence[str]:
        """Whose turn may be delayed now (none where the rule set has no turns to hold)."""
        return ()

    #: Whether the GM may type in a combatant (``enter``): then :meth:`newcomer`,
    #: :meth:`template` and :meth:`fold_entered` are answered.
    typed_in: ClassVar[bool] = False

    def newcomer(self, state: S, entry: Mapping[str, Any]) -> str:
        """Check a typed-in combatant's ``entry`` (the scenario's own format, checked by
        the scenario's own model) and return its name; raise ``ValueError`` saying why not."""
        raise NotImplementedError

    def template(self, state: S) -> Mapping[str, Any]:
        """A starting point for a typed-in combatant (the step's suggestion)."""
        raise NotImplementedError

    def taken(self, state: S) -> set[str]:
        """Every name a newcomer may not take (combatants, places, the GM)."""
        return {*self.targets(state), GM}

    @abstractmethod
    def fold_adjusted(self, state: S, event: GaugeAdjusted) -> None:
        """Set the gauge to ``event.after``."""

    def fold_condition(self, state: S, event: ConditionChanged) -> None:
        """Set or clear the condition."""
        raise NotImplementedError

    def fold_added(self, state: S, event: CombatantAdded) -> None:
        """Put the newcomer into the fight."""
        raise NotImplementedError

    def fold_entered(self, state: S, event: CombatantEntered) -> None:
        """Put the typed-in combatant (``json.loads(event.spec)``) into the fight."""
        raise NotImplementedError

    @abstractmethod
    def fold_removed(self, state: S, event: CombatantRemoved) -> None:
        """Take the combatant out of the fight."""

    def fold_delayed(self, state: S, event: TurnDelayed) -> None:
        """Move the combatant's turn later."""
        raise NotImplementedError

    def after(self, state: S, action: Action, rng: Rng, emit: Callable[[Event], None]) -> None:
        """What the rule set's own rules make of the override at once, as their events:
        One Ring's hero at 0 Endurance drops unconscious; an AD&D fighter laid low lets go
        of everything, and whoever hung from him falls (rolled, the dice logged as ever).
        Nothing by default."""

    def describe_delay(self, state: S, target: str) -> str:
        """The words for a delayed turn (after the fold)."""
        return f"{possessive(target)} turn is held: it comes later"


def _verb_labels() -> dict[str, str]:
    return {"adjust": "adjust a gauge", "condition": "set or clear a condition",
            "add": "add a combatant like one in the fight",
            "enter": "type in a new combatant", "remove": "remove a combatant",
            "delay": "delay a turn"}


class Overrides(Generic[S]):
    """A rule set's GM overrides: the steps' two hooks, the resolution and the log's words.

    Built from an :class:`OverrideRules`; it reads like a small rule set of its own to
    :func:`fracas.core.decision.options` (``actions``, ``why_not``, ``step``).
    """

    actions: Sequence[type[Action]] = OVERRIDE_ACTIONS
    name = "GM overrides"

    def __init__(self, rules: OverrideRules[S]) -> None:
        self.rules = rules

    # -- the steps -----------------------------------------------------------------------
    def verb_label(self, action: type[Action]) -> str:
        """The words of a verb in the first step."""
        return _verb_labels().get(action.verb, action.verb)

    def default_verb(self, state: S, verbs: Sequence[str]) -> str:
        """The verb preselected: the first offered."""
        return verbs[0]

    def why_not(self, state: S, p: Partial) -> IllegalActionError | None:
        """Why the override put together so far cannot be made now, or ``None``."""
        rules = self.rules
        if p.actor != GM:
            return p.refuse("GM overrides", f"only the GM ({GM}) makes overrides, not "
                            f"{p.actor}")
        kind = p.kind
        if kind is Join:
            models = rules.models(state)
            if not models:
                return p.refuse("GM overrides", "this rule set brings nobody new in")
            if "like" in p and p["like"] not in models:
                return p.refuse("like", f"{p['like']!r} is not a combatant a newcomer can be "
                                f"made like (those: {', '.join(models)})")
            if "name" in p:
                return _bad_name(p, p["name"], rules.taken(state), rules.name_pattern)
            return None
        if kind is Enter:
            if not rules.typed_in:
                return p.refuse("GM overrides", "this rule set takes no typed-in combatant")
            if "spec" in p:
                try:
                    name = rules.newcomer(state, read_entry(p["spec"]))
                except ValueError as exc:
                    return p.refuse("spec", str(exc))
                return _bad_name(p, name, rules.taken(state), rules.name_pattern)
            return None
        if kind is Delay:
            able = rules.delayable(state)
            if not able:
                return p.refuse("GM overrides", "no turn can be delayed now")
            if "target" in p and p["target"] not in able:
                return p.refuse("target", f"{possessive(str(p['target']))} turn cannot be "
                                f"delayed now (only {possessive(', '.join(able))})")
            return None
        targets = rules.targets(state)
        if not targets:
            return p.refuse("GM overrides", "nobody is in the fight")
        if "target" not in p:
            if kind is Condition and not any(rules.conditions(state, t) for t in targets):
                return p.refuse("GM overrides", "this rule set has no conditions to set")
            return None
        target = p["target"]
        if target not in targets:
            return p.refuse("target", f"{target!r} is not in the fight")
        if kind is Adjust:
            gauges = rules.gauges(state, target)
            if "what" not in p:
                return None if gauges else p.refuse("target", f"{target} has nothing to "
                                                    "adjust")
            gauge = gauges.get(p["what"])
            if gauge is None:
                return p.refuse("what", f"{target} has no gauge {p['what']!r} (it has "
                                f"{', '.join(gauges) or 'none'})")
            if "by" in p:
                by, (low, high) = p["by"], gauge.bounds
                if not isinstance(by, int) or isinstance(by, bool) or \
                        not low <= gauge.value + by <= high:
                    return p.refuse("by", f"{gauge.label} must stay from {low} to {high} "
                                    f"(it is {gauge.value}, so by = {low - gauge.value} to "
                                    f"{high - gauge.value})")
            return None
        if kind is Condition:
            known = rules.conditions(state, target)
            if "condition" not in p:
                return None if known else p.refuse("target", f"{target} has no condition to "
                                                   "set or clear")
            entry = known.get(p["condition"])
            if entry is None:
                return p.refuse("condition", f"{p['condition']!r} is not a condition of "
                                f"{target} (those: {', '.join(known) or 'none'})")
            if "on" in p and bool(p["on"]) == entry[1]:
                return p.refuse("on", f"{target} is {'already' if entry[1] else 'not'} "
                                f"{entry[0]}")
            return None
        return None  # Remove: any combatant in the fight

    def step(self, state: S, p: Partial, field: str) -> Menu | Span | None:
        """The candidates for the next field of an override."""
        rules = self.rules
        if field == "target":
            names = rules.delayable(state) if p.kind is Delay else rules.targets(state)
            return Menu(tuple(names))
        if field == "what":
            gauges = rules.gauges(state, p["target"])
            return Menu(tuple(gauges), {k: f"{g.label} (now {g.value})" for k, g in gauges.items()})
        if field == "by":
            gauge = rules.gauges(state, p["target"])[p["what"]]
            low, high = gauge.bounds
            return Span(low - gauge.value, high - gauge.value, 0)
        if field == "condition":
            known = rules.conditions(state, p["target"])
            return Menu(tuple(known), {k: f"{words} (now {'set' if on else 'not set'})"
                                       for k, (words, on) in known.items()})
        if field == "on":  # asked only to clear (setting is the default)
            now = rules.conditions(state, p["target"])[p["condition"]][1]
            return Menu((False,), {False: "clear it"}) if now else None
        if field == "like":
            return Menu(tuple(rules.models(state)))
        if field == "name":
            return Menu((fresh_name(p["like"], rules.taken(state), rules.name_sep),))
        if field == "spec":
            return Menu((show_entry(rules.template(state)),))
        return None

    def check(self, state: S, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless ``action`` may be made."""
        check(self, state, action)

    # -- resolving ---------------------------------------------------------------------
    def resolve(self, state: S, action: Action, rng: Rng,
                emit: Callable[[Event], None]) -> None:
        """Make the override's one event (no dice): the fold then changes the state; then
        what the rule set's rules make of it (:meth:`OverrideRules.after`)."""
        rules = self.rules
        if isinstance(action, Adjust):
            before = rules.gauges(state, action.target)[action.what].value
            emit(GaugeAdjusted(GM, action.target, action.what, before, before + action.by))
        elif isinstance(action, Condition):
            emit(ConditionChanged(GM, action.target, action.condition, action.on))
        elif isinstance(action, Join):
            emit(CombatantAdded(GM, action.name, action.like))
        elif isinstance(action, Enter):
            entry = read_entry(action.spec)
            emit(CombatantEntered(GM, rules.newcomer(state, entry),
                                  json.dumps(entry, sort_keys=True, separators=(",", ":"))))
        elif isinstance(action, Remove):
            emit(CombatantRemoved(GM, action.target))
        elif isinstance(action, Delay):
            emit(TurnDelayed(GM, action.target))
        else:  # pragma: no cover - the check refuses anything else
            raise IllegalActionError(action, "GM overrides", "not an override")
        rules.after(state, action, rng, emit)

    def fold_handlers(self) -> dict[type[Event], Callable[[S, Any], None]]:
        """The fold of each override event, for the rule set's fold table."""
        rules = self.rules
        return {GaugeAdjusted: rules.fold_adjusted, ConditionChanged: rules.fold_condition,
                CombatantAdded: rules.fold_added, CombatantEntered: rules.fold_entered,
                CombatantRemoved: rules.fold_removed,
                TurnDelayed: rules.fold_delayed}

    # -- words ---------------------------------------------------------------------------
    def describe(self, event: Event, state: S) -> str | None:
        """The log line of an override's event (``""`` for its decision: the event tells
        it), or ``None`` for any other event.  Read in the state right after the event."""
        rules = self.rules
        gm = rules.gm_title[:1].upper() + rules.gm_title[1:]
        if type(event) is DecisionMade:
            return "" if type(event.action) in OVERRIDE_KINDS else None
        if isinstance(event, GaugeAdjusted):
            gauges = rules.gauges(state, event.target) if event.target in \
                rules.targets(state) else {}
            gauge = gauges.get(event.what)
            label = gauge.label if gauge is not None else event.what.replace("_", " ")
            up = event.after > event.before
            if gauge is not None and gauge.health:
                verb = "heals" if up else "wounds" if event.after < event.before else "leaves"
                return f"{gm} {verb} {event.target}: {label} {event.before} → {event.after}"
            verb = "raises" if up else "lowers" if event.after < event.before else "leaves"
            return f"{gm} {verb} {possessive(event.target)} {label}: {event.before} → {event.after}"
        if isinstance(event, ConditionChanged):
            entry = rules.conditions(state, event.target).get(event.condition) if \
                event.target in rules.targets(state) else None
            words = entry[0] if entry is not None else event.condition.replace("_", " ")
            verb = "sets" if event.on else "clears"
            return f"{gm} {verb} a condition of {event.target}: {words}"
        if isinstance(event, CombatantAdded):
            return f"{gm} brings {event.name} into the fight (like {event.like})"
        if isinstance(event, CombatantEntered):
            return f"{gm} brings {event.name} into the fight (typed in)"
        if isinstance(event, CombatantRemoved):
            return f"{gm} takes {event.target} out of the fight"
        if isinstance(event, TurnDelayed):
            return f"{gm} delays a turn: {rules.describe_delay(state, event.target)}"
        return None


def fresh_name(like: str, taken: set[str], sep: str = " ") -> str:
    """The first free name after ``like``: its trailing number counted on, else `` 2``, `` 3``...

    >>> fresh_name("Orc", {"Orc", "Orc 2"})
    'Orc 3'
    >>> fresh_name("orc-5", {"orc-5"})
    'orc-6'
    """
    found = re.fullmatch(r"(.*?)(\d+)", like)
    if found and found.group(1):
        base, n = found.group(1), int(found.group(2)) + 1
    else:
        base, n = like + sep, 2
    while f"{base}{n}" in taken:
        n += 1
    return f"{base}{n}"


def read_entry(text: str) -> dict[str, Any]:
    """A typed-in combatant's entry: a YAML (or JSON) mapping; ``ValueError`` otherwise.

    >>> read_entry("{name: Wolf, side: blue, soma: 6, pr: 12}")
    {'name': 'Wolf', 'side': 'blue', 'soma': 6, 'pr': 12}
    """
    import yaml  # only when a combatant is typed in

    if not isinstance(text, str) or len(text) > MAX_ENTRY:
        raise ValueError(f"a combatant typed in is a mapping of up to {MAX_ENTRY} characters")
    try:
        data = yaml.load(text, Loader=_plain_loader())  # a safe loader without aliases
    except yaml.YAMLError as exc:
        raise ValueError(f"cannot read the combatant: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        raise ValueError("a combatant typed in is a mapping such as {name: Wolf, side: blue, "
                         "...} (the scenario's own fields)")
    return data


@cache
def _plain_loader() -> Any:
    """YAML's safe loader without anchors and aliases (an alias bomb in a few hundred
    characters would otherwise grow without bound once written out as JSON)."""
    import yaml

    class PlainLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent) or (
                    self.check_event(yaml.ScalarEvent, yaml.SequenceStartEvent,
                                     yaml.MappingStartEvent)
                    and getattr(self.peek_event(), "anchor", None) is not None):  # type: ignore[no-untyped-call]
                raise yaml.YAMLError("anchors and aliases (& and *) are not read here")
            return super().compose_node(parent, index)

    return PlainLoader


def show_entry(entry: Mapping[str, Any]) -> str:
    """An entry as one line of YAML (the form :func:`read_entry` reads back).

    >>> show_entry({"name": "Wolf 2", "pr": 12})
    '{name: Wolf 2, pr: 12}'
    """
    import yaml

    return str(yaml.safe_dump(dict(entry), default_flow_style=True, sort_keys=False,
                              width=10_000)).strip()


def checked_entry(model: Any, entry: Mapping[str, Any]) -> Any:
    """``entry`` validated by a scenario's pydantic ``model``; ``ValueError`` naming each
    problem by its field (``soma: Input should be ...``)."""
    try:
        return model.model_validate(entry)
    except Exception as exc:  # pydantic's ValidationError, without importing pydantic here
        errors = getattr(exc, "errors", None)
        if errors is None:
            raise ValueError(str(exc)) from None
        raise ValueError("; ".join(
            f"{'.'.join(str(x) for x in e['loc']) or 'entry'}: {e['msg']}"
            for e in errors())) from None


def _bad_name(p: Partial, name: object, taken: set[str],
              pattern: tuple[str, str] | None = None) -> IllegalActionError | None:
    if not isinstance(name, str) or not name.strip():
        return p.refuse("name", "a newcomer needs a name")
    if pattern is not None and not re.fullmatch(pattern[0], name):
        return p.refuse("name", f"a name here is {pattern[1]}")
    if name != name.strip() or len(name) > MAX_NAME or not name.isprintable():
        return p.refuse("name", f"a name is up to {MAX_NAME} printable characters, without "
                        "spaces at either end")
    if name in taken:
        return p.refuse("name", f"{name!r} is taken: every combatant needs its own name")
    return None


def take_override(ruleset: Ruleset[S], overrides: Overrides[S], state: S, action: Action,
                  rng: Rng, emit: Callable[[Event], None]) -> None:
    """The override step: record ``action`` as the GM's decision, make its event, advance.

    ``action`` must already be checked.  The rule set's ``advance`` runs as after any
    decision: at a decision it changes nothing, but it ends a fight the override decided
    and passes on a turn whose combatant the override removed or delayed.
    """
    emit(DecisionMade(GM, action))
    overrides.resolve(state, action, rng, emit)
    ruleset.advance(state, rng, emit)
