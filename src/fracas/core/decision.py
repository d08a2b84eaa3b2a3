"""Decisions offered as short steps: first the verb, then each of its fields.

A rule set answers two questions about an action that is being put together:

* :meth:`Ruleset.why_not` -- given a :class:`Partial` (the verb and the fields
  chosen so far, possibly all of them), the :class:`IllegalActionError` naming the
  rule that forbids it, or ``None`` when nothing chosen so far is refused;
* :meth:`Ruleset.step` -- which values to offer for the next field: a
  :class:`Menu` of labelled values, a numeric :class:`Span`, or ``None`` when the
  field is not asked for this verb (it keeps its default).

Everything else derives from those two in this module: the next step of a
decision (:func:`options`), the whole-action check (:func:`check`), the lazy list
of every legal action (:func:`iter_legal`) and the cheap "is anything left?"
(:func:`has_options`).  Because the check walks the same fields with the same
hook, an action the steps build is always legal and a legal action can always be
chosen step by step.

The contract for rule sets (the conformance kit tests it):

* ``why_not`` judges only the fields a partial holds; it must refuse a partial
  exactly when no completion of it is legal *or* say nothing and leave the
  refusal to a later field (the steps then search for a completion).  The tighter
  it is, the cheaper the steps.
* A :class:`Span` is contiguous: every number in it completes when its ends do.
* A :class:`Menu` may list one value for several equivalent ones (dice showing
  the same face); every value it lists completes once ``why_not`` accepts it.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Protocol,
    TypeAlias,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from fracas.core.action import Action
from fracas.core.errors import IllegalActionError

if TYPE_CHECKING:
    from fracas.core.ruleset import Ruleset


class Tree(Protocol):
    """What the steps need of a rule set: its action classes and the two hooks."""

    @property
    def actions(self) -> Sequence[type[Action]]:
        """The action classes, verbs in the order they are offered."""
        ...

    def why_not(self, state: Any, partial: Partial) -> IllegalActionError | None:
        """See :meth:`fracas.core.ruleset.Ruleset.why_not`."""
        ...

    def step(self, state: Any, partial: Partial, field: str) -> Menu | Span | None:
        """See :meth:`fracas.core.ruleset.Ruleset.step`."""
        ...


@dataclass(frozen=True, slots=True)
class Steps:
    """A :class:`Tree` made of plain functions: for a rule set's own automatic flow.

    The flow (an idle turn that ends by itself, say) asks :func:`has_options` in code
    that has no rule-set object at hand; it passes the action classes and the two hooks.
    """

    actions: tuple[type[Action], ...]
    why_not: Callable[[Any, Partial], IllegalActionError | None]
    step: Callable[[Any, Partial, str], Menu | Span | None]

__all__ = [
    "VERB",
    "Choice",
    "Menu",
    "Options",
    "Partial",
    "Span",
    "Step",
    "Steps",
    "Tree",
    "action_fields",
    "check",
    "check_value",
    "chosen_values",
    "has_options",
    "iter_legal",
    "options",
    "options_after",
]

#: The name of the first step of every decision.
VERB = "verb"

Value: TypeAlias = Any


@dataclass(frozen=True, slots=True)
class Choice:
    """One value a step offers, with the words a person reads for it."""

    value: Value
    label: str


class Menu:
    """A rule set's candidates for one field: values (the usual one first) and their labels.

    ``label`` turns a value into the words a person reads (a callable or a mapping;
    by default the value's text); it is only called for values actually offered, so a
    check that walks the steps pays nothing for words.  ``default`` is the value a
    front end preselects (``None``: the first legal one).
    """

    __slots__ = ("_label", "default", "values")

    def __init__(self, values: Sequence[Value],
                 label: Callable[[Value], str] | Mapping[Any, str] | None = None,
                 default: Value = None) -> None:
        if values and all(isinstance(v, Choice) for v in values):  # Menu((Choice(..), ..))
            label = {c.value: c.label for c in values}
            values = [c.value for c in values]
        self.values = tuple(values)
        self._label = label
        self.default = default

    @classmethod
    def of(cls, values: Sequence[Value],
           label: Callable[[Value], str] | Mapping[Any, str] | None = None,
           default: Value = None) -> Menu:
        """The same as the constructor (kept for readability at call sites)."""
        return cls(values, label, default)

    def label(self, value: Value) -> str:
        """The words for ``value``."""
        label = self._label
        if label is None:
            return _text(value)
        if callable(label):
            return label(value)
        return label.get(value, _text(value))

    @property
    def choices(self) -> tuple[Choice, ...]:
        """Every candidate with its label."""
        return tuple(Choice(v, self.label(v)) for v in self.values)

    def __repr__(self) -> str:
        return f"Menu({self.values!r}, default={self.default!r})"


@dataclass(frozen=True, slots=True)
class Span:
    """A whole number from ``low`` to ``high`` (both included); ``default`` is preselected."""

    low: int
    high: int
    default: int | None = None

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and \
            self.low <= value <= self.high


@dataclass(frozen=True, slots=True)
class Step:
    """The next choice of a decision: a list of legal values, or a legal numeric span.

    Exactly one of ``choices`` (non-empty) and ``span`` is set.  ``default`` is
    the value to preselect (Enter accepts it).
    """

    name: str
    choices: tuple[Choice, ...] = ()
    span: Span | None = None
    default: Value = None

    @property
    def values(self) -> list[Value]:
        """Every value this step offers (a span spelled out)."""
        if self.span is not None:
            return list(range(self.span.low, self.span.high + 1))
        return [c.value for c in self.choices]

    @property
    def size(self) -> int:
        """How many entries a person is shown: a span counts as one."""
        return 1 if self.span is not None else len(self.choices)

    def label(self, value: Value) -> str:
        """The label of ``value`` (its text form when the step has none for it)."""
        for c in self.choices:
            if c.value == value:
                return c.label
        return str(value)


@dataclass(frozen=True, slots=True)
class Options:
    """Where a decision stands after ``chosen``: the next :class:`Step`, or the whole action.

    ``fields`` names the field each chosen value filled (``"verb"`` first).
    """

    actor: str
    chosen: tuple[Value, ...]
    fields: tuple[str, ...]
    step: Step | None
    action: Action | None

    @property
    def complete(self) -> bool:
        """True once the choices form a whole action."""
        return self.action is not None


class Partial:
    """An action being put together: its actor, its class and the fields chosen so far."""

    __slots__ = ("actor", "kind", "values")

    def __init__(self, actor: str, kind: type[Action],
                 values: Mapping[str, Value] | None = None) -> None:
        self.actor = actor
        self.kind = kind
        self.values: dict[str, Value] = dict(values) if values else {}

    @property
    def verb(self) -> str:
        """The verb of the action."""
        return self.kind.verb

    def __contains__(self, name: object) -> bool:
        return name in self.values

    def get(self, name: str, default: Value = None) -> Value:
        """The chosen value of ``name``, or ``default`` while it is not chosen."""
        return self.values.get(name, default)

    def __getitem__(self, name: str) -> Value:
        return self.values[name]

    def having(self, name: str, value: Value) -> Partial:
        """A copy with ``name`` chosen as ``value``."""
        values = dict(self.values)
        values[name] = value
        return Partial(self.actor, self.kind, values)

    @classmethod
    def of(cls, action: Action) -> Partial:
        """The whole action as a partial (every field chosen)."""
        return _Whole(action)

    def build(self) -> Action:
        """The action, fields not chosen taking their defaults."""
        return self.kind(actor=self.actor, **self.values)  # type: ignore[call-arg]

    def refuse(self, rule: str, reason: str) -> IllegalActionError:
        """An :class:`IllegalActionError` for this (partial) action."""
        return IllegalActionError(_Shown(self), rule, reason)

    def __repr__(self) -> str:
        return f"Partial({self.actor!r}, {self.verb!r}, {self.values!r})"


class _Whole(Partial):
    """A whole action seen as a partial, reading its fields in place (the check's hot path)."""

    __slots__ = ("action",)

    def __init__(self, action: Action) -> None:  # the base's ``values`` slot stays unset
        self.actor = action.actor
        self.kind = type(action)
        self.action = action

    @property
    def values(self) -> dict[str, Value]:  # type: ignore[override]
        action = self.action
        return {name: getattr(action, name) for name, _ in action_fields(self.kind)}

    def __contains__(self, name: object) -> bool:
        names = _NAMES.get(self.kind)
        if names is None:
            names = _NAMES[self.kind] = frozenset(f for f, _ in action_fields(self.kind))
        return name in names

    def get(self, name: str, default: Value = None) -> Value:
        return getattr(self.action, name, default) if name != "actor" else default

    def __getitem__(self, name: str) -> Value:
        if name == "actor":
            raise KeyError(name)
        return getattr(self.action, name)

    def build(self) -> Action:
        return self.action


class _Shown:
    """Prints a partial as its typed form so far (``Ash attack target=Bo``) in errors."""

    __slots__ = ("partial",)

    def __init__(self, partial: Partial) -> None:
        self.partial = partial

    def __str__(self) -> str:
        from fracas.core.codec import quote

        p = self.partial
        words = [quote(p.actor), p.verb]
        words += [f"{k}={_text(v)}" for k, v in p.values.items()]
        return " ".join(words)


def _text(value: Value) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


_NO_DEFAULT: Any = object()


_FIELDS: dict[type[Action], tuple[tuple[str, Value], ...]] = {}
_NAMES: dict[type[Action], frozenset[str]] = {}


def action_fields(kind: type[Action]) -> tuple[tuple[str, Value], ...]:
    """The fields of an action class after ``actor``, in order, with their defaults.

    A field without a default has the marker ``_NO_DEFAULT`` (an internal object).
    """
    known = _FIELDS.get(kind)
    if known is not None:
        return known
    out: list[tuple[str, Value]] = []
    for f in fields(kind):  # type: ignore[arg-type]
        if f.name == "actor":
            continue
        if f.default is not MISSING:
            default = f.default
        elif f.default_factory is not MISSING:
            default = f.default_factory()
        else:
            default = _NO_DEFAULT
        out.append((f.name, default))
    _FIELDS[kind] = tuple(out)
    return _FIELDS[kind]


def _verbs(ruleset: Tree) -> dict[str, type[Action]]:
    return {cls.verb: cls for cls in ruleset.actions}


def _asked(ruleset: Tree, state: Any, partial: Partial) -> tuple[str, Menu | Span] | None:
    """The next field the rule set asks for (with its candidates), or ``None`` when whole."""
    for name, _ in action_fields(partial.kind):
        if name in partial.values:
            continue
        offer = ruleset.step(state, partial, name)
        if offer is not None:
            return name, offer
    return None


def _values(offer: Menu | Span) -> Sequence[Value]:
    if isinstance(offer, Span):
        return range(offer.low, offer.high + 1)
    return offer.values


#: What a search for a completion found, per partial (its class and values): the first
#: legal whole action, or ``None`` (refused, or nothing completes).  Valid for one state.
Found: TypeAlias = dict[tuple[Any, ...], "Action | None"]


def _first(ruleset: Tree, state: Any, partial: Partial,
           found: Found | None = None) -> Action | None:
    """The first legal whole action that completes ``partial`` (which ``why_not`` accepts)."""
    asked = _asked(ruleset, state, partial)
    if asked is None:
        return partial.build()
    name, offer = asked
    for value in _values(offer):
        action = _completion(ruleset, state, partial.having(name, value), found)
        if action is not None:
            return action
    return None


def _completion(ruleset: Tree, state: Any, partial: Partial,
                found: Found | None = None) -> Action | None:
    """The first legal completion of ``partial``, ``None`` when refused or none completes.

    With ``found`` (kept for one state), each partial is searched once: the search of
    a verb or a value leaves the answers for the partials it walked, which the next
    step's values then read.
    """
    if found is None:
        if ruleset.why_not(state, partial) is not None:
            return None
        return _first(ruleset, state, partial)
    key = (partial.actor, partial.kind, *partial.values.items())
    try:
        if key in found:
            return found[key]
    except TypeError:  # a value that cannot be a key: searched each time
        if ruleset.why_not(state, partial) is not None:
            return None
        return _first(ruleset, state, partial, found)
    action = None if ruleset.why_not(state, partial) is not None else \
        _first(ruleset, state, partial, found)
    found[key] = action
    return action


def _completes(ruleset: Tree, state: Any, partial: Partial, found: Found | None = None) -> bool:
    return _completion(ruleset, state, partial, found) is not None


def _step(ruleset: Tree, state: Any, name: str, offer: Menu | Span,
          partial: Partial, found: Found | None = None) -> Step | None:
    """The legal part of ``offer`` for field ``name`` of ``partial``; ``None`` if nothing is."""
    if isinstance(offer, Span):
        low, high = offer.low, offer.high
        while low <= high and not _completes(ruleset, state, partial.having(name, low), found):
            low += 1
        while high > low and not _completes(ruleset, state, partial.having(name, high),
                                            found):
            high -= 1
        if low > high:
            return None
        default = offer.default if offer.default is not None and \
            low <= offer.default <= high else high
        return Step(name, span=Span(low, high, default), default=default)
    values = [v for v in offer.values
              if _completes(ruleset, state, partial.having(name, v), found)]
    if not values:
        return None
    default = offer.default if offer.default in values else values[0]
    return Step(name, choices=tuple(Choice(v, offer.label(v)) for v in values), default=default)


def _verb_step(ruleset: Ruleset[Any], state: Any, actor: str,
               found: Found | None = None) -> Step | None:
    kept = tuple(Choice(cls.verb, ruleset.verb_label(cls)) for cls in ruleset.actions
                 if _completes(ruleset, state, Partial(actor, cls), found))
    if not kept:
        return None
    return Step(VERB, choices=kept, default=ruleset.default_verb(state, [c.value for c in kept]))


def options(ruleset: Ruleset[Any], state: Any, actor: str,
            chosen: Sequence[Value] = (), found: Found | None = None) -> Options:
    """The next step of ``actor``'s decision after the values ``chosen`` so far.

    ``chosen[0]`` is a verb, each later value fills the next field the rule set asks
    for.  Raises :class:`IllegalActionError` (naming the rule) when a chosen value
    cannot lead to a legal action.

    ``found`` (a dict the caller keeps for this state and actor only) remembers the
    searches for a completion, for the verbs' step and :func:`options_after`.
    """
    chosen = tuple(chosen)
    if not chosen:
        return Options(actor, chosen, (), _verb_step(ruleset, state, actor, found), None)
    verbs = _verbs(ruleset)
    kind = verbs.get(chosen[0]) if type(chosen[0]) is str else None
    if kind is None:
        raise IllegalActionError(_Word(actor, _shown_value(chosen[0])), "actions",
                                 f"unknown verb {chosen[0]!r}; {ruleset.name} knows: "
                                 f"{', '.join(verbs)}")
    partial = Partial(actor, kind)
    _refuse_if_dead_end(ruleset, state, partial)
    names = [VERB]
    for value in chosen[1:]:
        asked = _asked(ruleset, state, partial)
        if asked is None:
            raise IllegalActionError(partial.build(), "actions",
                                     f"a {partial.verb} action takes no more choices "
                                     f"(extra value {value!r})")
        name, offer = asked
        if isinstance(offer, Span) and value not in offer:
            raise partial.refuse(name, f"{name} must be a whole number from {offer.low} "
                                 f"to {offer.high}, not {_shown_value(value)}")
        check_value(partial, name, value)
        if isinstance(offer, Menu) and offer.values and \
                not any(type(v) is type(value) for v in offer.values):
            raise partial.refuse(name, f"{name} takes one of: "
                                 f"{', '.join(_text(v) for v in offer.values)}")
        partial = partial.having(name, value)
        _refuse_if_dead_end(ruleset, state, partial)
        names.append(name)
    return _next(ruleset, state, partial, chosen, tuple(names))


def options_after(ruleset: Ruleset[Any], state: Any, before: Options,
                  value: Value, found: Found | None = None) -> Options | None:
    """The options after ``before.chosen + (value,)``, worked out from ``before``.

    ``before`` must be :func:`options`' answer for the same rule set, state and actor.
    When ``value`` is one its step offered (the same value, of the same type), every
    value chosen so far is one the core offered, and the core only offers a value that
    completes, so the prefix needs no new search for a completion: only the next step
    is worked out.  Returns ``None`` when ``value`` was not offered (or ``before`` is
    whole): then :func:`options` walks the values in full and names the rule that
    refuses.  The answer is the one :func:`options` gives.
    """
    step = before.step
    if step is None:
        return None
    if step.span is not None:
        if value not in step.span:
            return None
    elif not any(type(c.value) is type(value) and c.value == value for c in step.choices):
        return None
    chosen = (*before.chosen, value)
    if not before.chosen:  # the verb step
        kind = _verbs(ruleset).get(value)
        if kind is None:
            return None
        partial = Partial(before.actor, kind)
        names: tuple[str, ...] = (VERB,)
    else:
        kind = _verbs(ruleset)[before.chosen[0]]
        partial = Partial(before.actor, kind, dict(zip(before.fields[1:], before.chosen[1:],
                                                       strict=True)))
        partial.values[step.name] = value
        names = (*before.fields, step.name)
    return _next(ruleset, state, partial, chosen, names, found)


def _next(ruleset: Tree, state: Any, partial: Partial, chosen: tuple[Value, ...],
          names: tuple[str, ...], found: Found | None = None) -> Options:
    """The options once ``partial`` (accepted, and completable) holds ``chosen``."""
    asked = _asked(ruleset, state, partial)
    if asked is None:
        return Options(partial.actor, chosen, names, None, partial.build())
    name, offer = asked
    step = _step(ruleset, state, name, offer, partial, found)
    if step is None:  # why_not accepted a partial no value completes: a rule-set slip
        raise partial.refuse(name, f"no {name} can complete this {partial.verb}")
    return Options(partial.actor, chosen, names, step, None)


def _refuse_if_dead_end(ruleset: Tree, state: Any, partial: Partial) -> None:
    err = ruleset.why_not(state, partial)
    if err is not None:
        raise err
    if _first(ruleset, state, partial) is None:
        raise partial.refuse(partial.verb, "no choice of the remaining fields makes this legal")


class _Word:
    """Prints as ``actor word`` in errors about an unknown verb."""

    __slots__ = ("text",)

    def __init__(self, actor: str, word: str) -> None:
        self.text = f"{actor} {word}"

    def __str__(self) -> str:
        return self.text


def _optional(kind: type[Action]) -> tuple[tuple[int, str, Value], ...]:
    """The fields of ``kind`` that have a default, with their positions."""
    known = _OPTIONAL.get(kind)
    if known is None:
        known = _OPTIONAL[kind] = tuple(
            (i, name, default) for i, (name, default) in enumerate(action_fields(kind))
            if default is not _NO_DEFAULT)
    return known


_OPTIONAL: dict[type[Action], tuple[tuple[int, str, Value], ...]] = {}


def check(ruleset: Tree, state: Any, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` is legal.

    ``why_not`` judges the whole action (so the refusal is the most specific one), and
    a field the rule set does not ask for this verb must keep its default.

    A rule set may offer a fast path, ``allows(state, action) -> bool``: a quick yes
    for a whole action of its common kinds, exactly when this check would accept it
    (``False`` means "judge it in full", so a refusal still names the rule).  It must
    be held to the full check by a test, both ways (see Age of Dragons').
    """
    kind = type(action)
    if kind not in ruleset.actions:
        raise IllegalActionError(action, "actions", "not an action of this rule set")
    _check_types(action)
    allows = getattr(ruleset, "allows", None)
    if allows is not None and allows(state, action):
        return
    whole = Partial.of(action)
    err = ruleset.why_not(state, whole)
    if err is not None:
        raise _whole(err, action)
    for position, name, default in _optional(kind):
        # Only a field moved off its default can be one the rule set does not ask.
        if getattr(action, name) != default:
            before = {k: getattr(action, k) for k, _ in action_fields(kind)[:position]}
            if not _asks(ruleset, state, Partial(action.actor, kind, before), name):
                raise IllegalActionError(action, whole.verb,
                                         f"{name} does not apply to this {whole.verb}")


def _asks(ruleset: Tree, state: Any, partial: Partial, name: str) -> bool:
    asks = getattr(ruleset, "asks", None)
    if asks is not None:
        return bool(asks(state, partial, name))
    return ruleset.step(state, partial, name) is not None


def _whole(err: IllegalActionError, action: Action) -> IllegalActionError:
    """The same refusal, naming the whole action."""
    return IllegalActionError(action, err.rule, err.reason)


def chosen_values(ruleset: Tree, state: Any, action: Action) -> tuple[Value, ...]:
    """The values that choose ``action`` step by step (its verb, then each asked field)."""
    partial = Partial(action.actor, type(action))
    out: list[Value] = [action.verb]
    for name, _ in action_fields(type(action)):
        if ruleset.step(state, partial, name) is None:
            continue
        value = getattr(action, name)
        partial = partial.having(name, value)
        out.append(value)
    return tuple(out)


def iter_legal(ruleset: Tree, state: Any, actor: str) -> Iterator[Action]:
    """Every legal action of ``actor``, lazily, in step order (depth first over the steps)."""
    for cls in ruleset.actions:
        partial = Partial(actor, cls)
        if ruleset.why_not(state, partial) is None:
            yield from _leaves(ruleset, state, partial)


def _leaves(ruleset: Tree, state: Any, partial: Partial) -> Iterator[Action]:
    asked = _asked(ruleset, state, partial)
    if asked is None:
        yield partial.build()
        return
    name, offer = asked
    for value in _values(offer):
        nxt = partial.having(name, value)
        if ruleset.why_not(state, nxt) is None:
            yield from _leaves(ruleset, state, nxt)


def has_options(ruleset: Tree, state: Any, actor: str,
                skip: frozenset[str] = frozenset()) -> bool:
    """True when ``actor`` has a legal action whose verb is not in ``skip``; stops at the first."""
    for cls in ruleset.actions:
        if cls.verb in skip:
            continue
        if _completes(ruleset, state, Partial(actor, cls)):
            return True
    return False


# -- the values' types ------------------------------------------------------------------
#
# Every value a step or a whole action carries is checked against the type its action
# class declares for the field, before any rule looks at it: a rule that reads
# ``if p["closer"]`` must never see ``"maybe"``, and a value that is accepted must be one
# the log can write and read back the same.  ``True`` is not a number and ``1`` is not a
# yes/no answer, although Python compares them equal.


def _conforms(value: object, tp: Any) -> bool:
    """True when ``value`` is exactly of type ``tp`` (bool and int kept apart)."""
    if tp is Any or tp is object:
        return True
    if tp is bool:
        return type(value) is bool
    if tp is int:
        return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    if tp is None or tp is type(None):
        return value is None
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return any(_conforms(value, arg) for arg in get_args(tp))
    if origin is Literal:  # the type here; which of the words, the rule set's refusal
        return any(type(value) is type(arg) for arg in get_args(tp))
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(v, args[0]) for v in value)
        return len(args) == len(value) and all(
            _conforms(v, a) for v, a in zip(value, args, strict=True))
    if origin is not None:
        return isinstance(value, origin)
    if isinstance(tp, type):
        return isinstance(value, tp)
    return True  # a type this check does not know (a TypeVar, say): the rules judge it


def _wanted(tp: Any) -> str:
    """Words for the values of type ``tp``."""
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is str:
        return "a name"
    if tp is None or tp is type(None):
        return "nothing"
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return " or ".join(_wanted(a) for a in get_args(tp))
    if origin is Literal:
        return " or ".join(sorted({_wanted(type(a)) for a in get_args(tp)}))
    if origin is tuple:
        args = get_args(tp)
        return f"a list of ({_wanted(args[0])})" if args else "a list"
    return getattr(tp, "__name__", str(tp))


_TYPES: dict[type[Action], dict[str, Any]] = {}


def _field_types(kind: type[Action]) -> dict[str, Any]:
    known = _TYPES.get(kind)
    if known is None:
        try:
            hints = get_type_hints(kind)
        except Exception:  # annotations that cannot be resolved: no type check
            hints = {}
        names = {name for name, _ in action_fields(kind)} | {"actor"}
        known = _TYPES[kind] = {k: v for k, v in hints.items() if k in names}
    return known


def _shown_value(value: object) -> str:
    """A value in a refusal: short, whatever it is."""
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def check_value(partial: Partial, name: str, value: object) -> None:
    """Raise :class:`IllegalActionError` naming the step unless ``value`` has its field's type.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Jump(Action):
    ...     actor: str
    ...     far: bool = False
    >>> check_value(Partial("Ann", Jump), "far", True)
    >>> try:
    ...     check_value(Partial("Ann", Jump), "far", 1)
    ... except IllegalActionError as refusal:
    ...     print(refusal.rule, "--", refusal.reason)
    far -- far must be true or false, not 1
    """
    tp = _field_types(partial.kind).get(name)
    if tp is None or _conforms(value, tp):
        return
    raise IllegalActionError(_Shown(partial.having(name, _shown_value(value))), name,
                             f"{name} must be {_wanted(tp)}, not {_shown_value(value)}")


def _plain_types(tp: Any) -> frozenset[type]:
    """Classes whose every instance :func:`_conforms` to ``tp`` (none for a type it reads
    further, such as a tuple's items): a value of one of them needs no closer look."""
    if tp is bool:
        return frozenset({bool})
    if tp is int or tp is str:
        return frozenset({tp})
    if tp is float:
        return frozenset({int, float})
    if tp is None or tp is type(None):
        return frozenset({type(None)})
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return frozenset().union(*(_plain_types(arg) for arg in get_args(tp)))
    return frozenset()


#: Each action class's fields, their types and the classes that conform at a glance.
_CHECKED: dict[type[Action], tuple[tuple[str, Any, frozenset[type]], ...]] = {}


def _check_types(action: Action) -> None:
    kind = type(action)
    fields = _CHECKED.get(kind)
    if fields is None:
        fields = _CHECKED[kind] = tuple((name, tp, _plain_types(tp))
                                        for name, tp in _field_types(kind).items())
    for name, tp, plain in fields:
        value = getattr(action, name, None)
        if type(value) not in plain and not _conforms(value, tp):
            raise IllegalActionError(action, name,
                                     f"{name} must be {_wanted(tp)}, not "
                                     f"{_shown_value(value)}")
