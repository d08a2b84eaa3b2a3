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

from fracas.core.action import GM, Action
from fracas.core.decision import Options
from fracas.core.encounter import Encounter
from fracas.core.errors import ActionSyntaxError, FightOverError, FracasError, IllegalActionError
from fracas.core.ruleset import find_ruleset
from fracas.store import EventStore
from fracas.web.table import (
    DecideForm,
    Memo,
    OptionsOf,
    action_from_form,
    decide_form,
    value_text,
)

__all__ = ["OVERRIDE_FIELD", "AdjustView", "adjust_view", "override_action", "override_options_of",
           "override_verbs"]

#: The form field marking a posted action as a GM override (the Adjust panel's confirm).
OVERRIDE_FIELD = "override"


@dataclass(slots=True)
class AdjustView:
    """The Adjust panel: the overrides on offer (value, label) and the chosen one's steps."""

    verbs: list[tuple[str, str]]
    form: DecideForm | None = None


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
        verbs = [(value_text(c.value),
                  c.label if c.label != str(c.value) else value_text(c.value))
                 for c in first.choices]
        every = list(override_verbs(enc.ruleset.name) or verbs)
        form = None
        verb = str(chosen.get("verb") or "") if chosen is not None else ""
        if chosen is not None and verb in dict(verbs):
            form = decide_form(enc, chosen, first, ask)
            form.actor = GM
        elif verb:
            words = dict(every).get(verb, verb)
            form = DecideForm(GM, verb, words, [], None, "",
                              f"the GM cannot {words} now; choose one of: "
                              f"{', '.join(label for _, label in verbs)}")
        return AdjustView(every, form)


def override_action(enc: Encounter[Any], posted: Mapping[str, Any]) -> Action:
    """The whole override the posted Adjust form names, every value checked as offered now
    (a value no longer offered is refused, naming the step)."""
    if not _offers_overrides(enc):
        if enc.is_over:
            raise FightOverError("the fight is over: there is nothing left to adjust")
        raise IllegalActionError("gm override", "GM overrides",
                                 f"rule set {enc.ruleset.name} offers no GM overrides")
    verb = str(posted.get("verb") or "")
    first = enc.override_options(()).step
    offered = [value_text(c.value) for c in first.choices] if first else []
    if verb not in offered:
        raise ActionSyntaxError(f"the GM cannot {verb or '(nothing chosen)'} now; choose one "
                                f"of: {', '.join(offered)}")
    return action_from_form(enc, posted, enc.override_options)
