"""The table view: a plain picture of an encounter as one link's holder may see it.

Everything the page needs is copied out of the live encounter while the store
is locked, so rendering never touches a state another request may be changing.
The GM sees the rule set's full ``view`` and ``table``; players see
``view(state, side)`` and the log without hidden events; spectators see what an
outsider would (``view(state, "spectator")``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fracas.core.action import Action
from fracas.core.codec import format_fields
from fracas.core.decision import Options, Step
from fracas.core.encounter import Encounter
from fracas.core.errors import ActionSyntaxError, IllegalActionError
from fracas.store import EncounterInfo, EventStore, LogEntry
from fracas.web.security import Access

__all__ = ["FIELD_PREFIX", "DecideForm", "FormField", "TableView", "action_from_form",
           "decide_form", "snapshot", "value_text"]

#: Form fields holding a step's value are named this prefix + the action field's name
#: (so an action field can never clash with ``csrf``, ``rev``, ``verb`` or ``action``).
FIELD_PREFIX = "f_"
#: A decision with more steps than this is a rule-set slip; the form stops there.
MAX_STEPS = 16

#: How many log entries the page shows (newest last); the whole log has its own page.
#: Kept small so that one turn's page stays well under 20 KB.
LOG_TAIL = 60
_LIST_KEYS = ("combatants", "fighters", "standings", "units", "heroes", "adversaries")


@dataclass(slots=True)
class TableView:
    """Everything one page render needs, copied out of the store."""

    info: EncounterInfo
    revision: int
    access: Access
    round: int
    actor: str | None
    can_act: bool
    verbs: list[tuple[str, str]]
    default_verb: str | None
    columns: list[str]
    rows: list[list[str]]
    view: dict[str, Any]
    sides: dict[str, str]
    order: list[str]
    log: list[LogEntry]
    last_dice: list[LogEntry]
    outcome: str | None
    can_undo: bool
    can_redo: bool
    log_length: int
    log_cut: bool = False
    actions: list[str] = field(default_factory=list)
    form: DecideForm | None = None
    message: str = ""
    message_kind: str = "info"
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The JSON form served to scripts (``state.json``)."""
        return {"id": self.info.id, "ruleset": self.info.ruleset, "revision": self.revision,
                "round": self.round, "actor": self.actor, "can_act": self.can_act,
                "verbs": [v for v, _ in self.verbs], "actions": self.actions,
                "view": self.view, "outcome": self.outcome,
                # Players are not told how many events (hidden ones included) exist.
                "log_length": self.log_length if self.access.sees_hidden else None,
                "role": self.access.role,
                "side": self.access.side}


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return ", ".join(_scalar(v) for v in value)
    if value is None:
        return ""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_scalar(v)}" for k, v in value.items())
    return str(value)


def view_table(view: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """A table of combatants taken from a ``view`` (only what the view already shows).

    Every list of records under a known key (``combatants``, ``fighters``,
    ``heroes`` and ``adversaries``, ``units``, ...) becomes rows; the columns are
    the union of their fields in order of appearance.
    """
    items: list[dict[str, Any]] = []
    for key in _LIST_KEYS:
        found = view.get(key)
        if isinstance(found, list) and all(isinstance(i, dict) for i in found):
            items.extend(found)
    columns: list[str] = []
    for item in items:
        columns.extend(k for k in item if k not in columns)
    rows = [[_scalar(item.get(c)) for c in columns] for item in items]
    return columns, rows


def snapshot(store: EventStore, enc_id: str, access: Access, *, with_log: bool = True,
             with_actions: bool = False, chosen: Mapping[str, Any] | None = None,
             log_tail: int | None = LOG_TAIL) -> TableView:
    """Copy out what ``access`` may see of encounter ``enc_id`` (the log only if asked).

    The log is its last ``log_tail`` visible entries (``None``: all of them).

    The decision is offered as its first step (the verbs); with ``chosen`` (the
    posted form: ``verb`` and ``f_<field>`` values) the remaining steps too, as a
    :class:`DecideForm`.  ``with_actions`` lists every legal action (for scripts
    reading JSON; the page never needs the whole list).
    """
    info = store.info(enc_id)
    verbs: list[tuple[str, str]] = []
    default_verb: str | None = None
    form: DecideForm | None = None
    actions: list[str] = []
    with store.live(enc_id) as (enc, revision):
        picture = _picture(enc, access)
        actor = enc.current_actor()
        sides = picture["sides"]
        can_act = access.may_act_for(actor, sides)
        if can_act:
            first = enc.options().step
            if first is not None:
                verbs = [(str(c.value), _label(c.value, c.label)) for c in first.choices]
                default_verb = str(first.default)
            if chosen is not None and chosen.get("verb"):
                form = decide_form(enc, chosen, first)
            if with_actions:
                actions = [str(a) for a in enc.legal_actions()]
        can_undo = access.is_gm and enc.can_undo
        log_length = len(enc.log)
    # Only the tail of the log is shown; read a margin for hidden events a player skips.
    start = 0 if log_tail is None else max(0, log_length - 3 * log_tail)
    entries = store.entries(enc_id, start) if with_log else []
    if not access.sees_hidden:
        entries = [e for e in entries if not e.hidden]
    shown = entries if log_tail is None else entries[-log_tail:]
    log_cut = start > 0 or len(shown) < len(entries)
    last_decision = max((i for i, e in enumerate(entries) if e.kind == "decision"), default=0)
    last_dice = [e for e in entries[last_decision:] if e.kind == "dice"]
    return TableView(
        info=info, revision=revision, access=access, round=picture["round"], actor=actor,
        can_act=can_act, verbs=verbs, default_verb=default_verb, actions=actions, form=form,
        columns=picture["columns"], rows=picture["rows"],
        view=picture["view"], sides=sides, order=picture["order"], log=shown,
        last_dice=last_dice, outcome=picture["outcome"], can_undo=can_undo,
        can_redo=access.is_gm and store.can_redo(enc_id), log_length=log_length,
        log_cut=log_cut)


def _picture(enc: Encounter[Any], access: Access) -> dict[str, Any]:
    ruleset, state = enc.ruleset, enc.state
    standings = list(ruleset.standings(state))
    view = ruleset.view(state, access.view_side)
    if access.is_gm:
        columns, rows = ruleset.table(state)
    else:
        columns, rows = view_table(view)
        if not columns:
            columns = ["name", "side", "status"]
            rows = [[s.name, s.side, s.status] for s in standings]
    order = view.get("order")
    outcome = enc.outcome()
    return {
        "view": view, "columns": list(columns), "rows": [list(r) for r in rows],
        "sides": {s.name: s.side for s in standings},
        "order": [str(o) for o in order] if isinstance(order, list) else
                 [s.name for s in standings],
        "round": ruleset.round_number(state),
        "outcome": None if outcome is None else
                   f"{outcome.winner or 'nobody'} wins after {outcome.rounds} round(s): "
                   f"{outcome.reason}",
    }


# -- the Decide form: the steps of one decision -----------------------------------


def value_text(value: Any) -> str:
    """A step's value as the text a form posts (as typed actions write it)."""
    if isinstance(value, tuple):
        return ",".join(value_text(v) for v in value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _label(value: Any, label: str) -> str:
    """The words shown for a value: the rule set's label, unless it is only ``str(value)``."""
    if label == str(value):
        return value_text(value).replace("_", " ").replace(",", ", ")
    return label


def _title(name: str) -> str:
    return name.replace("_", " ").capitalize()


@dataclass(slots=True)
class FormField:
    """One step of the form: a menu (``choices``) or a number from ``low`` to ``high``."""

    name: str
    title: str
    value: str
    choices: list[tuple[str, str]]
    low: int = 0
    high: int = 0

    @property
    def is_span(self) -> bool:
        """A number input rather than a menu."""
        return not self.choices

    @property
    def form_name(self) -> str:
        """The name of the form control."""
        return FIELD_PREFIX + self.name


@dataclass(slots=True)
class DecideForm:
    """The steps after the verb, each with its legal values and the value now chosen.

    ``action`` is the whole action the values form (``None`` if a chosen verb
    cannot lead anywhere: ``error`` says why).  ``fresh``: the verb was just chosen
    (the page moves the keyboard focus to the first step).
    """

    actor: str
    verb: str
    verb_label: str
    fields: list[FormField]
    action: str | None
    typed: str
    error: str = ""
    fresh: bool = False


def _pick(step: Step, posted: Any) -> tuple[Any, bool]:
    """The value of ``step`` the posted text names: ``(value, True)``, or ``(None, False)``."""
    if not isinstance(posted, str):
        return None, False
    text = posted.strip()
    if step.span is not None:
        try:
            number = int(text)
        except ValueError:
            return None, False
        return (number, True) if number in step.span else (None, False)
    for c in step.choices:
        if value_text(c.value) == text:
            return c.value, True
    return None, False


def _nearest(step: Step, posted: Any) -> Any:
    """A number outside a span's ends is moved to the nearer end; anything else is the default."""
    if step.span is not None and isinstance(posted, str):
        try:
            number = int(posted.strip())
        except ValueError:
            return step.default
        return min(max(number, step.span.low), step.span.high)
    return step.default


def _field(step: Step, value: Any) -> FormField:
    if step.span is not None:
        return FormField(step.name, _title(step.name), str(value), [], step.span.low,
                         step.span.high)
    return FormField(step.name, _title(step.name), value_text(value),
                     [(value_text(c.value), _label(c.value, c.label)) for c in step.choices])


def _typed(action: Action) -> str:
    """The action as it would be typed, without its actor."""
    fields = format_fields(action, skip=("actor",))
    return f"{action.verb} {fields}" if fields else action.verb


def decide_form(enc: Encounter[Any], posted: Mapping[str, Any],
                first: Step | None = None) -> DecideForm:
    """The form for the current decision after the values ``posted`` so far.

    Each step keeps its posted value while that value is still offered (given the
    values before it) and otherwise takes the step's default, so the form always
    shows a whole action that can be confirmed.
    """
    verb = str(posted.get("verb") or "")
    actor = enc.current_actor() or ""
    first = first or enc.options().step
    labels = {str(c.value): _label(c.value, c.label) for c in first.choices} if first else {}
    if verb not in labels:
        return DecideForm(actor, verb, verb, [], None, "",
                          f"{actor} cannot {verb} now" if verb else "choose what to do")
    chosen: list[Any] = [next(c.value for c in first.choices if str(c.value) == verb)] \
        if first else []
    fields: list[FormField] = []
    try:
        options = enc.options(chosen)
        while options.step is not None and len(fields) < MAX_STEPS:
            step = options.step
            raw = posted.get(FIELD_PREFIX + step.name)
            value, ok = _pick(step, raw)
            if not ok:
                value = _nearest(step, raw)
            fields.append(_field(step, value))
            chosen.append(value)
            options = enc.options(chosen)
    except (IllegalActionError, ActionSyntaxError) as exc:
        return DecideForm(actor, verb, labels[verb], fields, None, "", str(exc))
    action = options.action
    if action is None:
        return DecideForm(actor, verb, labels[verb], fields, None, "",
                          "this decision has too many steps for the form")
    fresh = not any(str(k).startswith(FIELD_PREFIX) for k in posted)
    return DecideForm(actor, verb, labels[verb], fields, str(action), _typed(action), fresh=fresh)


def action_from_form(enc: Encounter[Any], posted: Mapping[str, Any]) -> Action:
    """The whole action the posted form names, every step's value checked as offered.

    Unlike :func:`decide_form` nothing falls back to a default: a value that is
    not offered (any more) is refused, naming the step.
    """
    verb = str(posted.get("verb") or "")
    first = enc.options().step
    match = [c.value for c in first.choices if str(c.value) == verb] if first else []
    if not match:
        actor = enc.current_actor()
        raise ActionSyntaxError(f"{actor} cannot {verb or '(no verb)'} now; "
                                f"choose one of: {', '.join(str(c.value) for c in first.choices)}"
                                if first else "nothing to decide now")
    chosen: list[Any] = [match[0]]
    options: Options = enc.options(chosen)
    for _ in range(MAX_STEPS):
        if options.step is None:
            break
        step = options.step
        posted_value = posted.get(FIELD_PREFIX + step.name)
        value, ok = _pick(step, posted_value)
        if not ok:
            shown = "nothing" if posted_value in (None, "") else repr(str(posted_value)[:40])
            offered = (f"{step.span.low} to {step.span.high}" if step.span is not None else
                       ", ".join(value_text(v) for v in step.values))
            raise ActionSyntaxError(f"{verb}: {_title(step.name).lower()} {shown} is not "
                                    f"offered now (choose {offered})")
        chosen.append(value)
        options = enc.options(chosen)
    if options.action is None:
        raise ActionSyntaxError(f"{verb}: the choices do not form a whole action")
    return options.action
