"""The GM's Adjust panel: the overrides of :mod:`fracas.core.overrides`, step by step.

Always on the GM's page, whoever's turn it is: first *what* (adjust a gauge, set or
clear a condition, bring a combatant in, take one out, delay a turn: the ones the
rule set offers now, ``Encounter.override_options``), then that override's steps as
one form, as the Decide form builds a decision (the same walk: each posted value kept
while it is still offered, else the step's default).  Confirming posts to ``act``
(with ``override``), where the values are checked against what is offered *now* and
the override is applied through the store like any action: logged with the GM named,
one revision, taken back by undo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fracas.core.action import Action
from fracas.core.decision import Options, Step
from fracas.core.encounter import Encounter
from fracas.core.errors import ActionSyntaxError, FightOverError, FracasError, IllegalActionError
from fracas.core.ruleset import find_ruleset
from fracas.store import EventStore
from fracas.web.table import (
    FIELD_PREFIX,
    MAX_STEPS,
    Memo,
    OptionsOf,
    choice_words,
    offered_value,
    posted_action,
    typed_text,
    value_text,
)
from fracas.web.words import MAX_ACTION_TEXT

__all__ = ["OVERRIDE_FIELD", "TYPED_STEPS", "AdjustField", "AdjustForm", "AdjustView",
           "adjust_view", "override_action", "override_form", "override_options_of",
           "override_verbs"]

#: The form field marking a posted action as a GM override (the Adjust panel's confirm).
OVERRIDE_FIELD = "override"


@dataclass(slots=True)
class AdjustView:
    """The Adjust panel: the overrides on offer (value, label) and the chosen one's steps."""

    verbs: list[tuple[str, str]]
    form: AdjustForm | None = None


def override_options_of(enc: Encounter[Any], memo: Memo | None = None, enc_id: str = "",
                        revision: int | None = None) -> OptionsOf:
    """``enc.override_options``, remembered per revision with a ``memo`` and the revision
    (under keys of their own: the same values mean another thing than a decision's)."""
    if memo is None or revision is None:
        return enc.override_options

    def get(chosen: tuple[Any, ...]) -> Options:
        try:
            key = ("override", enc_id, revision, chosen)
            hash(key)
        except TypeError:
            return enc.override_options(chosen)
        found: Options = memo.get(key, lambda: enc.override_options(chosen))
        return found

    return get


def _offers_overrides(enc: Encounter[Any]) -> bool:
    return getattr(enc.ruleset, "overrides", None) is not None and not enc.is_over


@lru_cache(maxsize=64)
def override_verbs(ruleset: str) -> tuple[tuple[str, str], ...] | None:
    """Every override the rule set named ``ruleset`` has (verb, words), whether or not it
    can be made at this moment (``None``: it has none).

    The closed panel shows these at no cost to a page; a verb that cannot be made now
    says why once chosen (:func:`adjust_view`)."""
    try:
        tree = getattr(find_ruleset(ruleset), "overrides", None)
    except FracasError:
        return None
    if tree is None:
        return None
    return tuple((cls.verb, tree.verb_label(cls)) for cls in tree.actions)


#: Steps whose menu is only a suggestion: the GM may type another value (a newcomer's
#: name; a whole combatant as the scenario writes one), checked by the overrides' rules.
TYPED_STEPS = ("name", "spec")
#: The longest typed-in value taken: a form field's cap (``console.MAX_FIELD_CHARS``).
MAX_TYPED = 2 * MAX_ACTION_TEXT


@dataclass(slots=True)
class AdjustField:
    """One step of an override: a menu, a number span, or a typed-in value (``typed``)
    with the rules' suggestion as its default."""

    name: str
    title: str
    value: str
    choices: list[tuple[str, str]]
    low: int = 0
    high: int = 0
    typed: bool = False

    @property
    def is_span(self) -> bool:
        return not self.choices and not self.typed

    @property
    def form_name(self) -> str:
        return FIELD_PREFIX + self.name


@dataclass(slots=True)
class AdjustForm:
    """An override's steps after its verb (``action``: the whole override, or ``None`` with
    ``error`` saying why)."""

    verb: str
    verb_label: str
    fields: list[AdjustField]
    action: str | None
    typed: str
    error: str = ""
    fresh: bool = False

    def as_json(self) -> dict[str, Any]:
        """The steps as scripts read them (as ``decide`` answers a decision's)."""
        return {"verb": self.verb, "fields": [
            {"name": x.name, "value": x.value,
             **({"low": x.low, "high": x.high} if x.is_span else
                {"choices": [{"value": v, "label": label} for v, label in x.choices],
                 **({"typed": True} if x.typed else {})})}
            for x in self.fields], "action": self.action}


#: Headings of the steps whose field name says little to a person.
_TITLES = {"spec": "The combatant, as a scenario file writes one", "like": "Made like",
           "by": "By (+ raises, - lowers)", "on": "Set or clear"}


def _title(name: str) -> str:
    return _TITLES.get(name, name.replace("_", " ").capitalize())


def _field(step: Step, value: Any) -> AdjustField:
    if step.span is not None:
        return AdjustField(step.name, _title(step.name), str(value), [], step.span.low,
                           step.span.high)
    return AdjustField(step.name, _title(step.name), value_text(value),
                       [(value_text(c.value), choice_words(c.value, c.label))
                        for c in step.choices],
                       typed=step.name in TYPED_STEPS)


def _offered(step: Step, posted: Any) -> tuple[Any, bool]:
    """The value of ``step`` the posted text names, if offered: ``(value, True)``; a
    typed-in step also takes new text (the rules judge it at the next step)."""
    value, ok = offered_value(step, posted)
    if ok or not isinstance(posted, str):
        return value, ok
    text = posted.strip()
    if step.name in TYPED_STEPS and text and len(text) <= MAX_TYPED:
        return text, True
    return None, False


def override_form(ask: OptionsOf, posted: Mapping[str, Any], first: Step,
                  labels: Mapping[str, str]) -> AdjustForm:
    """The form of the override ``posted`` so far: each step keeps its posted value while
    it is still offered (a typed-in one while the rules take it), else its default."""
    verb = str(posted.get("verb") or "")
    match = [c.value for c in first.choices if value_text(c.value) == verb]
    if not match:
        words = labels.get(verb, verb)
        return AdjustForm(verb, words, [], None, "",
                          f"the GM cannot {words} now; choose one of: "
                          f"{', '.join(choice_words(c.value, c.label) for c in first.choices)}")
    chosen: list[Any] = [match[0]]
    fields: list[AdjustField] = []
    label = choice_words(match[0], next(c.label for c in first.choices if c.value == match[0]))
    problem = ""
    try:
        options = ask(tuple(chosen))
        while options.step is not None and len(fields) < MAX_STEPS:
            step = options.step
            raw = posted.get(FIELD_PREFIX + step.name)
            value, ok = _offered(step, raw)
            if ok and step.name in TYPED_STEPS and value not in step.values:
                try:  # a typed-in value: kept if the rules take it, else said why
                    after = ask((*chosen, value))
                except IllegalActionError as exc:
                    problem, value, ok = str(exc), None, False
                else:
                    fields.append(AdjustField(step.name, _title(step.name), str(value),
                                              [(value_text(c.value), choice_words(c.value, c.label))
                                               for c in step.choices], typed=True))
                    chosen.append(value)
                    options = after
                    continue
            if not ok:
                value = step.default
                if step.span is not None and isinstance(raw, str):
                    try:
                        value = min(max(int(raw.strip()), step.span.low), step.span.high)
                    except ValueError:
                        value = step.default
            fields.append(_field(step, value))
            chosen.append(value)
            options = ask(tuple(chosen))
    except (IllegalActionError, ActionSyntaxError) as exc:
        return AdjustForm(verb, label, fields, None, "", str(exc))
    action = options.action
    if action is None:
        return AdjustForm(verb, label, fields, None, "", "this override has too many steps")
    fresh = not any(str(k).startswith(FIELD_PREFIX) for k in posted)
    return AdjustForm(verb, label, fields, str(action), typed_text(action), problem,
                      fresh=fresh)


def adjust_view(store: EventStore, enc_id: str, chosen: Mapping[str, Any] | None = None,
                memo: Memo | None = None) -> AdjustView | None:
    """The Adjust panel for the values ``chosen`` so far (``None``: the rule set offers no
    overrides, or the fight is over).  A verb that cannot be made now is shown with why."""
    with store.live(enc_id) as (enc, revision):
        if not _offers_overrides(enc):
            return None
        ask = override_options_of(enc, memo, enc_id, revision)
        try:
            first = ask(()).step
        except (IllegalActionError, FightOverError):
            return None
        if first is None:
            return None
        offered = [(value_text(c.value), choice_words(c.value, c.label)) for c in first.choices]
        every = list(override_verbs(enc.ruleset.name) or offered)
        form = None
        if chosen is not None and chosen.get("verb"):
            form = override_form(ask, chosen, first, dict(every))
        return AdjustView(every, form)


def override_action(enc: Encounter[Any], posted: Mapping[str, Any]) -> Action:
    """The whole override the posted Adjust form names, every value checked as offered now
    (a menu's value no longer offered is refused, naming the step; a typed-in value is
    judged by the overrides' rules)."""
    if not _offers_overrides(enc):
        if enc.is_over:
            raise FightOverError("the fight is over: there is nothing left to adjust")
        raise IllegalActionError("gm override", "GM overrides",
                                 f"rule set {enc.ruleset.name} offers no GM overrides")
    verb = str(posted.get("verb") or "")
    first = enc.override_options(()).step
    offered = [value_text(c.value) for c in first.choices] if first else []
    if first is None or verb not in offered:
        raise ActionSyntaxError(f"the GM cannot {verb or '(nothing chosen)'} now; choose one "
                                f"of: {', '.join(offered)}")
    return posted_action(enc.override_options, verb,
                         next(c.value for c in first.choices if value_text(c.value) == verb),
                         posted, _offered, "override")
