"""The rule-set plug-in interface and its registry.

A rule set owns its state, actions, events, options and default policies.  The
core drives it through a handful of hooks (python-chess variants override a few
methods of one board class; here a rule set overrides the hooks of
:class:`Ruleset`).  Rule sets register under the entry-point group
``fracas.rulesets`` and are found by name with :func:`find_ruleset`.
"""

from __future__ import annotations

import inspect
from abc import ABC
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from fracas.core.action import GM, Action
from fracas.core.codec import parse_fields, split_words
from fracas.core.decision import check, iter_legal
from fracas.core.errors import ActionSyntaxError, UnknownRulesetError
from fracas.core.events import DecisionMade, Event
from fracas.core.overrides import OVERRIDE_ACTIONS, Overrides
from fracas.core.policy import HumanPolicy, Policy, RandomPolicy, ScriptedPolicy
from fracas.core.records import fast_init

if TYPE_CHECKING:
    from pydantic import BaseModel

    from fracas.core.decision import Menu, Partial, Span
    from fracas.core.errors import IllegalActionError
    from fracas.core.forecast import Forecast
    from fracas.core.rng import Rng

__all__ = [
    "CORE_POLICIES",
    "GM",
    "MODULE_HOOKS",
    "REQUIRED_HOOKS",
    "TO_WIN",
    "Action",
    "Emit",
    "Outcome",
    "Ruleset",
    "Standing",
    "available_rulesets",
    "find_ruleset",
    "own_policies",
    "whole_state_key",
]

S = TypeVar("S")
Emit = Callable[[Event], None]


@fast_init  # made once a fight, twice a fight with a summary: the cheaper constructor
@dataclass(frozen=True, slots=True)
class Outcome:
    """How a fight ended: the winning side (``None`` for a draw) and why."""

    winner: str | None
    reason: str
    rounds: int


@fast_init
@dataclass(frozen=True, slots=True)
class Standing:
    """One combatant at a moment: for summaries, tables and simulations."""

    name: str
    side: str
    status: str
    health: float
    health_max: float

    @property
    def standing(self) -> bool:
        """True while the combatant is still in the fight (not dead, dying or fled)."""
        return self.status == "ok"


#: The policies the core hands out to every rule set (:meth:`Ruleset.policy`).
CORE_POLICIES = ("random", "human", "scripted")
#: An option of ``policy("heuristic", actor, {TO_WIN: True})``: play for the win alone.
#: A heuristic may trade some chance of winning for its side's survival (a hero who
#: escapes a fight going badly); the ``search`` policy, which scores a fight escaped as
#: lost, asks for its own side's rollouts played without that trade.  Rule sets whose
#: heuristic makes no such trade ignore it.
TO_WIN = "to_win"


def own_policies(names: Iterable[str]) -> tuple[str, ...]:
    """The names among ``names`` that are not the core's (a rule set's ``policy_names``
    from the names its scenario model accepts)."""
    return tuple(n for n in dict.fromkeys(names) if n not in CORE_POLICIES)


def whole_state_key(state: object) -> Hashable:
    """Every field of ``state``, recursively, as a hashable value: the default state key.

    Dataclasses (slotted or not) and plain objects are read field by field, dicts as
    their items in a stable order, lists and tuples as tuples, sets as frozensets;
    anything else hashable is kept as it is (enums, numbers, strings, frozen records).
    Two states get equal keys only when every field is equal, so merging by it never
    merges states that could play on differently.

    >>> from dataclasses import dataclass, field
    >>> @dataclass
    ... class Fight:
    ...     hp: dict[str, int] = field(default_factory=lambda: {"a": 3, "b": 2})
    ...     turn: int = 0
    >>> whole_state_key(Fight()) == whole_state_key(Fight())
    True
    >>> whole_state_key(Fight()) == whole_state_key(Fight(turn=1))
    False
    """
    return _frozen(state)


_ATOMS = (str, int, float, bool, bytes, type(None))


def _frozen(value: object) -> Hashable:
    if isinstance(value, _ATOMS):
        return value
    if isinstance(value, (list, tuple)):
        return tuple([_frozen(v) for v in value])
    if isinstance(value, dict):
        items = [(_frozen(k), _frozen(v)) for k, v in value.items()]
        try:
            items.sort()
        except TypeError:  # keys of mixed types: a stable order all the same
            items.sort(key=repr)
        return ("dict", tuple(items))
    if isinstance(value, (set, frozenset)):
        return frozenset(_frozen(v) for v in value)
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return (type(value).__qualname__,
                tuple([_frozen(getattr(value, name, None)) for name in fields]))
    slots = [n for c in type(value).__mro__ for n in getattr(c, "__slots__", ())]
    attributes = getattr(value, "__dict__", None)
    if attributes is not None or slots:
        parts = dict(attributes or {})
        for name in slots:
            if name not in parts and hasattr(value, name):
                parts[name] = getattr(value, name)
        return (type(value).__qualname__, _frozen(parts))
    try:
        hash(value)
    except TypeError:
        return (type(value).__qualname__, repr(value))
    return value


#: The hooks every rule set must provide (the others have defaults).
REQUIRED_HOOKS = ("initial_state", "clone_state", "apply_event", "current_actor", "why_not",
                  "step", "resolve", "advance", "standings")
#: The hooks a rule set's ``modules`` may provide, as functions of the same name.
MODULE_HOOKS = (*REQUIRED_HOOKS, "asks", "verb_label", "default_verb", "allows",
                "apply_decision", "outcome", "round_number", "view", "table",
                "describe_event", "state_key", "round_limit", "without_round_limit",
                "face_classes", "rule_face_classes", "odds", "odds_labels", "forecast",
                "policy_choice", "search_settings")


class Ruleset(ABC, Generic[S]):
    """A game's combat rules, driven by :class:`fracas.core.encounter.Encounter`.

    Subclasses set ``name``, ``scenario_model`` and ``actions`` and provide the
    required hooks (:data:`REQUIRED_HOOKS`), either as methods or as functions of the
    same name in the modules listed in ``modules``.  State objects are owned by the
    encounter and changed only through :meth:`apply_event`.

    >>> import types
    >>> fold = types.ModuleType("fold")
    >>> def apply_event(state, event): state.append(event)
    >>> fold.apply_event = apply_event
    >>> class Half(Ruleset[list]):
    ...     name = "half"
    ...     modules = (fold,)
    Traceback (most recent call last):
    ...
    TypeError: rule set class Half has no initial_state, clone_state, current_actor, \
why_not, step, resolve, advance, standings: write each as a method or as a function of \
that name in one of its modules (fold)
    """

    name: ClassVar[str]
    title: ClassVar[str] = ""
    scenario_model: ClassVar[type[BaseModel]]
    #: The action classes of this rule set; their verbs must be unique.
    actions: ClassVar[Sequence[type[Action]]] = ()
    #: The policy names this rule set adds to the core's (``heuristic``...): an unknown
    #: name is refused with these and the core's listed.  :func:`own_policies` reads
    #: them from the names a scenario model accepts, so the two lists are one.
    policy_names: ClassVar[Sequence[str]] = ()
    #: The GM's overrides (:mod:`fracas.core.overrides`), ``None`` when it offers none.
    overrides: ClassVar[Overrides[Any] | None] = None
    #: A folder of example scenarios shipped inside the rule set's package, relative to
    #: the package of the module defining the class (``"examples"``); ``fracas new``,
    #: ``serve`` and the console's home find them there.  ``None``: fracas's own
    #: ``fracas/scenario/examples/<name>`` (the bundled rule sets).
    examples: ClassVar[str | None] = None
    #: The rule set's own modules whose functions are its hooks: a function named after a
    #: hook (:data:`MODULE_HOOKS`: ``apply_event``, ``why_not``, ``resolve``...) in one of
    #: them is that hook, with the hook's parameters less ``self``, unless the class
    #: writes the hook itself.  So the plug-in class holds no method that only calls a
    #: module function.
    modules: ClassVar[Sequence[ModuleType]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Cheaper construction for the rule set's actions (frozen slotted dataclasses
        # stay what they are in every other way): see fracas.core.records.
        for action_cls in cls.__dict__.get("actions", ()):
            fast_init(action_cls)
        _bind_modules(cls)

    # -- setting up --------------------------------------------------------
    def initial_state(self, scenario: Any) -> S:
        """The starting state for a validated scenario model."""
        raise NotImplementedError(_missing(self, "initial_state"))

    def clone_state(self, state: S) -> S:
        """An independent copy of ``state`` (cheap: called once per simulated fight)."""
        raise NotImplementedError(_missing(self, "clone_state"))

    # -- the fold ----------------------------------------------------------
    def apply_event(self, state: S, event: Event) -> None:
        """Change ``state`` in place by one event.  Must never roll dice."""
        raise NotImplementedError(_missing(self, "apply_event"))

    # -- decisions ---------------------------------------------------------
    def current_actor(self, state: S) -> str | None:
        """Who decides next: a combatant, :data:`GM`, or ``None`` once the fight is over."""
        raise NotImplementedError(_missing(self, "current_actor"))

    def why_not(self, state: S, partial: Partial) -> IllegalActionError | None:
        """Why the action being put together cannot be taken now, or ``None``.

        ``partial`` holds the verb and the fields chosen so far (all of them for a
        whole action).  Judge only what it holds and return
        ``partial.refuse(rule, reason)`` naming the rule.  The steps offered, the
        check and :meth:`legal_actions` all derive from this hook and :meth:`step`
        (see :mod:`fracas.core.decision`).
        """
        raise NotImplementedError(_missing(self, "why_not"))

    def step(self, state: S, partial: Partial, field: str) -> Menu | Span | None:
        """The candidate values for ``field`` of ``partial``, or ``None`` when it is not asked.

        Return a :class:`~fracas.core.decision.Menu` (labelled values, the usual one
        first) or a :class:`~fracas.core.decision.Span` for a number.  Offer few:
        a person reads them (at most 12 a step).  Candidates ``why_not`` refuses are
        dropped by the core.
        """
        raise NotImplementedError(_missing(self, "step"))

    def asks(self, state: S, partial: Partial, field: str) -> bool:
        """Whether ``field`` is asked for ``partial`` (else it keeps its default).

        The same answer as ``step(...) is not None``; a rule set may answer it more
        cheaply, since the whole-action check asks it for every field moved off its
        default.
        """
        return self.step(state, partial, field) is not None

    def verb_label(self, action: type[Action]) -> str:
        """The words a person reads for a verb in the first step."""
        return action.verb.replace("_", " ")

    def default_verb(self, state: S, verbs: Sequence[str]) -> str:
        """The verb to preselect among the legal ``verbs`` (the first by default)."""
        return verbs[0]

    def legal_actions(self, state: S) -> Iterable[Action]:
        """Every action the current actor may take now, lazily, over the steps."""
        actor = self.current_actor(state)
        if actor is None:
            return iter(())
        return iter_legal(self, state, actor)

    def check(self, state: S, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule if ``action`` is illegal now."""
        check(self, state, action)

    def allows(self, state: S, action: Action) -> bool:
        """Optional fast path of the check: a quick yes for a whole action of common kinds.

        ``True`` only when :meth:`check` would accept ``action`` now; ``False`` means
        "judge it in full" (so a refusal still names the rule), and is all the default
        says.  The check (:func:`fracas.core.decision.check`), the play loop and the
        exact duel solver ask it before walking the action's fields with
        :meth:`why_not`.  A rule set that offers it holds it to the full check by a test,
        both ways, on many decisions (see Age of Dragons' ``test_aod_quick_check.py``).
        """
        return False

    def apply_decision(self, state: S, actor: str, action: Action) -> None:
        """Fold ``actor``'s decision ``action`` into ``state`` without making its event.

        Exactly what :meth:`apply_event` does with ``DecisionMade(actor, action)`` (the
        default does just that); a rule set may do it without building the event.  The
        play loop uses it when no log is kept and nobody listens, and so does the exact
        duel solver.
        """
        self.apply_event(state, DecisionMade(actor, action))

    def resolve(self, state: S, action: Action, rng: Rng, emit: Emit) -> None:
        """Carry out a legal action, emitting events (each is applied before the next)."""
        raise NotImplementedError(_missing(self, "resolve"))

    def advance(self, state: S, rng: Rng, emit: Emit) -> None:
        """Run every automatic step (rolls nobody chooses, end phases) up to the next decision."""
        raise NotImplementedError(_missing(self, "advance"))

    def outcome(self, state: S) -> Outcome | None:
        """The result once the fight is over, else ``None``.

        By default read from ``state.result``: ``None`` while the fight goes on, else
        ``(winner, reason)`` (``winner`` ``None`` for a draw), with
        :meth:`round_number` as the rounds fought.
        """
        result = getattr(state, "result", None)
        if result is None:
            return None
        return Outcome(result[0], result[1], self.round_number(state))

    # -- reading the state -------------------------------------------------
    def standings(self, state: S) -> Sequence[Standing]:
        """Every combatant's side, status and health, in scenario order."""
        raise NotImplementedError(_missing(self, "standings"))

    def round_number(self, state: S) -> int:
        """The current round (for logs and summaries)."""
        return int(getattr(state, "round", 0))

    def view(self, state: S, side: str | None = None) -> dict[str, Any]:
        """A JSON-ready picture of the state, as ``side`` may see it (``None``: the GM)."""
        return {"round": self.round_number(state),
                "standings": [_standing_dict(s) for s in self.standings(state)]}

    def table(self, state: S) -> tuple[list[str], list[list[str]]]:
        """Column names and rows for a table of the combatants (positions, health, conditions)."""
        rows = [[s.name, s.side, s.status, f"{s.health:g}/{s.health_max:g}"]
                for s in self.standings(state)]
        return ["name", "side", "status", "health"], rows

    def describe_event(self, event: Event, state: S) -> str | None:
        """A one-line, human-readable account of ``event``.

        Return ``""`` to keep the event out of a readable log, ``None`` to let the
        front end use its generic wording.
        """
        return None

    def state_key(self, state: S) -> Hashable:
        """A hashable summary of everything that shapes the rest of the fight.

        The exact duel solver (:mod:`fracas.odds.duel`) merges decision states with
        equal keys and solves each once, so two states with equal keys must play on
        identically: the same actor, the same legal actions, the same choices by the
        fight's policies, and the same action under the same dice must lead to states
        with equal keys again (the conformance kit, :mod:`fracas.testing`, checks this
        on random fights).  The default is the whole state (:func:`whole_state_key`:
        whose turn it is, pending choices, the round, every counter), which is always
        right.  A rule set may merge more, explicitly: leave out what no rule, policy
        or outcome reads again (a fallen fighter's hit points, a spent die's face), or
        the round when no round limit can end the fight from here.  Merging less than
        it could only costs the solver time; merging too much gives wrong odds.
        """
        return whole_state_key(state)

    def round_limit(self, state: S) -> int | None:
        """The last round of the fight when :meth:`state_key` leaves the round out.

        ``None`` (the default) says the key keeps every round that matters.  A rule set
        whose key merges the same position in different rounds returns its round limit
        here, promising that the round changes nothing but this: once
        :meth:`round_number` passes the limit, the fight ends as a draw.  The exact duel
        solver then solves the merged fight round by round (the limit stays exact), and
        the conformance kit allows equal keys to part only where one side passes it.
        """
        return None

    def without_round_limit(self, state: S) -> S | None:
        """A copy of ``state`` whose fight never ends by the round limit, or ``None``.

        With :meth:`round_limit`, the exact duel solver explores the fight from this
        copy once, each merged position's play as at any round, and applies the limit
        itself round by round.  ``None`` (the default): it explores the fight as it is.
        """
        return None

    # -- exact odds --------------------------------------------------------
    def face_classes(self, state: S, count: int, sides: int) -> Sequence[Sequence[int]] | None:
        """The faces of a pool about to be rolled that nothing in the fight can tell apart.

        Asked by the exact duel solver when the rules call ``rng.dice(count, sides)`` in
        ``state`` (the state as it stands at that roll).  Return a partition of the faces
        ``1..sides`` into classes such that replacing any face of the pool by another
        face of its class changes neither what the rules do nor what the fight's
        policies choose, nor the odds of anything after: for example ``((1, 2, 3),
        (4, 5), (6,))`` for a pool that only counts 4+ and sixes.  The solver then
        branches on how many dice fall in each class (55 outcomes for nine dice in
        three classes instead of 2,002 sorted faces) and shows the lowest face of each
        class.  ``None`` (the default) keeps every face distinct, which is always right.
        """
        return None

    def rule_face_classes(self, state: S, count: int, sides: int,
                          ) -> Sequence[Sequence[int]] | None:
        """The faces of a pool that the rules alone cannot tell apart, whatever anyone chooses.

        :meth:`face_classes` may lean on the fight's policies (a policy that never reads
        a six lets sixes merge with fives); the best-response solver sets one side's
        choices free, so it asks this instead.  ``None`` (the default) keeps every face
        distinct, which is always right.
        """
        return None

    def odds(self, question: str) -> dict[int, Fraction]:
        """The exact distribution of one of this rule set's own rolls, described by ``question``.

        Each rule set documents its question syntax (for example an Age of Dragons
        attack or a One Ring test).  Raises :class:`ActionSyntaxError` when the
        question cannot be read.
        """
        raise ActionSyntaxError(f"rule set {self.name} answers no odds questions")

    def odds_labels(self, question: str) -> dict[int, str]:
        """What each outcome of :meth:`odds` for ``question`` is called at the table.

        ``fracas odds`` shows these words beside the numbers; an outcome without a name
        is shown as its number.  The default names none.
        """
        return {}

    def forecast(self, state: S, action: Action, side: str | None = None) -> Forecast | None:
        """The odds of ``action`` (legal now), or ``None`` when it rolls nothing to forecast.

        What it rolls, against what, the exact chance of each outcome that matters and
        the expected damage (:class:`~fracas.core.forecast.Forecast`), from this rule
        set's own roll odds.  ``side`` is who will read it (``None``: the GM): a rule set
        whose views keep secrets leaves out what that side's view lacks.  Front ends ask
        :meth:`fracas.core.encounter.Encounter.forecast`, which completes a partial
        decision with the steps' usual values first.  ``None`` by default.
        """
        return None

    # -- policies ----------------------------------------------------------
    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        """The policy called ``name`` for ``actor``.

        The core knows ``human`` (a person decides through a front end), ``random``
        (uniform at each step) and ``scripted`` (``options["script"]``: action texts
        played in order).  A rule set adds its own names (``heuristic``...) and calls
        ``super().policy(...)`` for the rest.
        """
        if name == "random":
            return RandomPolicy()
        if name == "human":
            return HumanPolicy()
        if name == "scripted":
            return ScriptedPolicy([self.parse_action(t) for t in options.get("script", ())])
        known = ", ".join(dict.fromkeys((*self.policy_names, *CORE_POLICIES)))
        raise ActionSyntaxError(f"rule set {self.name} has no policy called {name!r} "
                                f"(it has {known})")

    def policy_choice(self, state: S, actor: str) -> str | Sequence[str]:
        """What the scenario chose for ``actor``: a policy name, or a script (action texts).

        The default policy :meth:`policy_for` is built from it; ``random`` by default.
        """
        return "random"

    def policy_for(self, state: S, actor: str) -> Policy:
        """The default policy of ``actor`` as the scenario set it up.

        Built from :meth:`policy_choice`: a name is looked up with :meth:`policy` (``search``
        with the scenario's :meth:`search_settings`), a list or tuple of action texts is a
        ``scripted`` policy.
        """
        choice = self.policy_choice(state, actor)
        if isinstance(choice, str):
            return self.policy(choice, actor,
                               self.search_settings(state) if choice == "search" else {})
        return self.policy("scripted", actor, {"script": tuple(choice)})

    def search_settings(self, state: S) -> Mapping[str, Any]:
        """The scenario's budget for its ``search`` seats (its ``search:`` block), as
        :func:`fracas.ai.search_policy` reads it; empty for the search's defaults.

        A rule set that offers ``search`` keeps the block in its state and returns it.
        """
        return {}

    # -- text forms --------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        """Parse ``actor verb key=value ...`` into one of this rule set's actions."""
        words = split_words(text)
        if len(words) < 2:
            raise ActionSyntaxError(f"expected 'ACTOR VERB [key=value ...]', got {text!r}")
        table = _verb_table(type(self))
        cls = table.get(words[1])
        if cls is None and self.overrides is not None:  # a GM override (core.overrides)
            cls = {c.verb: c for c in OVERRIDE_ACTIONS}.get(words[1])
        if cls is None:
            raise ActionSyntaxError(
                f"unknown action {words[1]!r}; {self.name} knows: {', '.join(sorted(table))}"
            )
        action: Action = parse_fields(cls, words[2:], {"actor": words[0]})
        return action


def _missing(ruleset: object, hook: str) -> str:
    return f"rule set class {type(ruleset).__name__} does not provide {hook}"


def _bind_modules(cls: type[Ruleset[Any]]) -> None:
    """Bind the hooks found in ``cls.modules``; refuse a rule set missing a required hook."""
    modules = cls.__dict__.get("modules", ())
    found: dict[str, tuple[Callable[..., Any], ModuleType]] = {}
    for module in modules:
        for hook in MODULE_HOOKS:
            func = module.__dict__.get(hook)
            if func is None or not callable(func) or isinstance(func, type) \
                    or hook in cls.__dict__:
                continue
            if not _fits(func, hook):
                raise TypeError(f"rule set class {cls.__name__}: {module.__name__}.{hook} does "
                                f"not take the hook's parameters "
                                f"({', '.join(_hook_parameters(hook))}): rename it, or write "
                                "the hook in the class")
            if hook in found and found[hook][0] is not func:
                raise TypeError(f"rule set class {cls.__name__}: both {found[hook][1].__name__} "
                                f"and {module.__name__} define {hook}; write the hook in the "
                                "class to choose")
            found[hook] = (func, module)
    for hook, (func, _) in found.items():
        type.__setattr__(cls, hook, staticmethod(func))
    if "name" not in cls.__dict__:
        return  # a base shared by rule sets, not one itself
    missing = [hook for hook in REQUIRED_HOOKS
               if getattr(cls, hook) is getattr(Ruleset, hook)]
    if missing:
        where = ", ".join(m.__name__ for m in modules) or "none listed"
        raise TypeError(f"rule set class {cls.__name__} has no {', '.join(missing)}: write "
                        f"each as a method or as a function of that name in one of its "
                        f"modules ({where})")


def _hook_parameters(hook: str) -> list[str]:
    """The parameters of the hook ``hook`` of :class:`Ruleset`, less ``self``."""
    return list(inspect.signature(getattr(Ruleset, hook)).parameters)[1:]


def _fits(func: Callable[..., Any], hook: str) -> bool:
    """Whether ``func`` can be called with the hook's arguments, by position."""
    try:
        parameters = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):  # a callable without a signature: trusted
        return True
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return True
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY,
                                                        p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    return len(required) <= len(_hook_parameters(hook)) <= len(positional)


def _standing_dict(s: Standing) -> dict[str, Any]:
    return {"name": s.name, "side": s.side, "status": s.status, "health": s.health,
            "health_max": s.health_max}


@cache
def _verb_table(cls: type[Ruleset[Any]]) -> dict[str, type[Action]]:
    table: dict[str, type[Action]] = {}
    for action_cls in cls.actions:
        if action_cls.verb in table:
            raise ValueError(f"{cls.__name__}: verb {action_cls.verb!r} used twice")
        table[action_cls.verb] = action_cls
    return table


_REGISTERED: dict[str, type[Ruleset[Any]]] = {}


def register_ruleset(cls: type[Ruleset[Any]]) -> type[Ruleset[Any]]:
    """Register a rule set class by hand (entry points do this for installed packages)."""
    _REGISTERED[cls.name] = cls
    return cls


def available_rulesets() -> list[str]:
    """Names of every registered rule set, sorted.

    >>> {"adnd", "age_of_dragons", "battlesystem", "one_ring"} <= set(available_rulesets())
    True
    """
    from importlib.metadata import entry_points  # costly: only when a rule set is looked up

    names = set(_REGISTERED)
    names.update(ep.name for ep in entry_points(group="fracas.rulesets"))
    return sorted(names)


def find_ruleset(name: str) -> Ruleset[Any]:
    """An instance of the rule set registered as ``name``.

    Raises :class:`UnknownRulesetError` listing the known names.

    >>> find_ruleset("one_ring").name
    'one_ring'
    >>> find_ruleset("gurps")
    Traceback (most recent call last):
        ...
    fracas.core.errors.UnknownRulesetError: <scenario>: ruleset: unknown rule set 'gurps' ...
    """
    cls = _REGISTERED.get(name)
    if cls is None:
        from importlib.metadata import entry_points  # costly: only when a rule set is looked up

        for ep in entry_points(group="fracas.rulesets"):
            if ep.name == name:
                cls = ep.load()
                _REGISTERED[name] = cls
                break
    if cls is None:
        known = ", ".join(available_rulesets()) or "none"
        raise UnknownRulesetError(f"unknown rule set {name!r} (known: {known})", field="ruleset")
    return cls()
