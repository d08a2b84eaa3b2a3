"""The table view: a plain picture of an encounter as one link's holder may see it.

Everything the page needs is copied out of the live encounter while the
encounter is locked, so rendering never touches a state another request may be
changing.  The GM sees the rule set's full ``view`` and ``table``; players see
``view(state, side)``, spectators what an outsider would
(``view(state, "spectator")``), and for both *everything* shown is derived from
that view alone: the table, the order, who is deciding (someone the view does
not hold is "another side"), the log lines as the store keeps them for that
viewer (hidden events and lines naming what the view does not hold are left out
without a trace: no numbering gaps), and the *version* a player posts back,
which is a keyed digest of what the viewer sees (so it changes only when the
viewer's picture changes, and says nothing about hidden events).
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
import json
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from fracas.core.action import Action
from fracas.core.cache import Lru
from fracas.core.codec import format_fields
from fracas.core.decision import Options, Step
from fracas.core.encounter import Encounter
from fracas.core.errors import ActionSyntaxError, IllegalActionError
from fracas.core.presentation import label_words, presentation_of, say, wins
from fracas.core.ruleset import GM
from fracas.store import EncounterInfo, EventStore, LogEntry
from fracas.store.text import names_in
from fracas.web.security import Access

__all__ = ["FIELD_PREFIX", "DecideForm", "Decision", "FormField", "Memo", "OptionsOf", "Status",
           "TableView", "action_from_form", "decide_form", "decision", "form_json", "options_of",
           "posted_action", "snapshot", "status", "value_text"]

#: Form fields holding a step's value are named this prefix + the action field's name
#: (so an action field can never clash with ``csrf``, ``rev``, ``verb`` or ``action``).
FIELD_PREFIX = "f_"
#: A decision with more steps than this is a rule-set slip; the form stops there.
MAX_STEPS = 16

#: How many log entries the page shows (newest last); the whole log has its own page.
#: Kept small so that one turn's page stays well under 20 KB.
LOG_TAIL = 60


#: What :meth:`Memo.get` finds under a key not kept (a kept answer may be ``None``).
_MISSING = object()


class Memo:
    """Answers worked out once per encounter revision and kept for the next request.

    A revision never comes back with another state (every change, undo and redo
    included, adds one), so whatever is derived from an encounter at a revision
    (a viewer's picture, the verbs on offer, a rendered panel) can be kept under
    ``(encounter, revision, ...)``.  Thread-safe, bounded (least recently used
    goes first).
    """

    def __init__(self, size: int = 4096) -> None:
        self._items: Lru[tuple[Any, ...], Any] = Lru(size)
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        with self._lock:
            found = self._items.get(key, _MISSING)
        if found is not _MISSING:
            return found
        value = make()
        with self._lock:
            self._items.put(key, value)
        return value

    def peek(self, key: tuple[Any, ...]) -> Any:
        with self._lock:
            return self._items.peek(key)

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        with self._lock:
            self._items.put(key, value)



@dataclass(slots=True)
class TableView:
    """Everything one page render needs, copied out of the store."""

    info: EncounterInfo
    revision: int | str
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
    form: DecideForm | None = None
    message: str = ""
    message_kind: str = "info"
    extra: dict[str, Any] = field(default_factory=dict)
    side_names: list[str] = field(default_factory=list)
    decision_key: str = ""
    battlefield: str | None = None
    #: The encounter's revision this picture was taken at (the GM's ``revision``).
    at_revision: int = -1
    #: What the rule set's book calls the GM (``the Loremaster``), and its own name.
    gm_name: str = "the GM"
    ruleset_title: str = ""
    #: The table's headings whose cells read as a bar (health).
    meters: frozenset[str] = frozenset()

    def who(self, name: Any) -> str:
        """A name as people read it: the ``gm`` actor by the book's word for it."""
        return self.gm_name if name == GM else str(name or "")

    @staticmethod
    def say(value: Any) -> str:
        """A value the view keeps as a token (``hill_troll``), in words (``hill troll``)."""
        return say(value)

    def meter(self, column: str, cell: str) -> tuple[int, int] | None:
        """``(value, most)`` when the cell of ``column`` is a health figure to draw as a bar
        (``12/20``, ``12 of 20``), else ``None``."""
        if column not in self.meters:
            return None
        found = _METER.match(cell)
        if found is None:
            return None
        value, most = int(found.group(1)), int(found.group(2))
        return (max(0, min(value, most)), most) if most > 0 else None

    def side_class(self, side: Any) -> str:
        """The CSS class of a side's colour (by the side's place among the encounter's sides)."""
        try:
            return f"side-c{self.side_names.index(str(side)) % 6}"
        except ValueError:
            return "side-cx"

    def as_json(self) -> dict[str, Any]:
        """The JSON form served to scripts (``state.json``; the legal actions: ``actions.json``)."""
        return {"id": self.info.id, "ruleset": self.info.ruleset, "revision": self.revision,
                "round": self.round, "actor": self.actor, "can_act": self.can_act,
                "verbs": [v for v, _ in self.verbs],
                "view": self.view, "outcome": self.outcome,
                # Players are not told how many events (hidden ones included) exist.
                "log_length": self.log_length if self.access.sees_hidden else None,
                "role": self.access.role,
                "side": self.access.side}


@dataclass(slots=True)
class Status:
    """The short answer to a script's POST: where the table stands now, for this link."""

    revision: int | str
    actor: str | None
    can_act: bool
    verbs: list[str]
    outcome: str | None
    log_length: int | None
    #: The usual verb's steps (as ``decide`` answers them), when the link may act.
    usual: DecideForm | None = None

    def as_json(self) -> dict[str, Any]:
        return {"revision": self.revision, "actor": self.actor, "can_act": self.can_act,
                "verbs": self.verbs, "outcome": self.outcome, "log_length": self.log_length,
                "next": form_json(self.usual)}


def form_json(form: DecideForm | None) -> dict[str, Any] | None:
    """A Decide form as scripts read it: its verb, each step (``name``, ``value``, then
    ``choices`` or ``low``/``high``) and the whole ``action`` the values make."""
    if form is None:
        return None
    return {"verb": form.verb, "fields": [
        {"name": x.name, "value": x.value,
         **({"low": x.low, "high": x.high} if x.is_span else
            {"choices": [{"value": v, "label": label} for v, label in x.choices]})}
        for x in form.fields], "action": form.action}


def _digest(secret: str, *parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, default=str)
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()[:20]


def entry_id(secret: str, viewer: str | None, seq: int) -> str:
    """An id for a log line in the page: the position for the GM, an opaque digest for others."""
    if viewer is None:
        return str(seq)
    return _digest(secret, "line", viewer, seq)[:12]


def _remembered(memo: Memo | None, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    return make() if memo is None else memo.get(key, make)


def _picture_at(memo: Memo | None, enc_id: str, revision: int, enc: Encounter[Any],
                access: Access) -> dict[str, Any]:
    return dict(_remembered(memo, ("picture", enc_id, revision, access.view_side),
                            lambda: _picture(enc, access)))


def _last_seen(memo: Memo | None, store: EventStore, enc_id: str, revision: int,
               viewer: str | None) -> int:
    return int(_remembered(memo, ("seen", enc_id, revision, viewer),
                           lambda: store.last_seen(enc_id, viewer)))


def _version(secret: str, store: EventStore, enc_id: str, revision: int, picture: dict[str, Any],
             viewer: str, memo: Memo | None) -> str:
    last = _last_seen(memo, store, enc_id, revision, viewer)
    return _digest(secret, enc_id, viewer, picture["view"], last, picture["actor"],
                   picture["outcome"])


def version_of(secret: str, store: EventStore, enc: Encounter[Any], enc_id: str,
               access: Access, revision: int | None = None, memo: Memo | None = None) -> str:
    """The version a non-GM viewer sees: a keyed digest of its whole picture.

    Call it with the encounter locked.  It changes when the viewer's view, the
    newest line it may read, who it sees deciding or the outcome change, and
    only then.  (With ``revision`` and a ``memo`` the work is done once per
    revision.)
    """
    viewer = access.viewer or ""
    if revision is None or memo is None:
        picture = _picture(enc, access)
        return _version(secret, store, enc_id, -1, picture, viewer, None)
    picture = _picture_at(memo, enc_id, revision, enc, access)
    return _version(secret, store, enc_id, revision, picture, viewer, memo)


#: ``Encounter.options`` for the values chosen so far (a tuple), perhaps remembered.
OptionsOf = Callable[[tuple[Any, ...]], Options]


def options_of(enc: Encounter[Any], memo: Memo | None = None, enc_id: str = "",
               revision: int | None = None) -> OptionsOf:
    """``enc.options``, remembered per revision when a ``memo`` and the revision are given.

    A decision walked through the form asks the same questions several times (the
    verb's ``decide``, the values' ``decide``, then ``act`` checks the same values
    again); each answer depends only on the state at the revision and the values.
    Call it, and what it returns, with the encounter locked.
    """
    if memo is None or revision is None:
        return enc.options

    def get(chosen: tuple[Any, ...]) -> Options:
        try:
            key = ("options", enc_id, revision, chosen)
            hash(key)
        except TypeError:  # a value that cannot be a key: worked out each time
            return enc.options(chosen)
        found: Options = memo.get(key, lambda: enc.options(chosen))
        return found

    return get


def _first_step(memo: Memo | None, enc_id: str, revision: int, enc: Encounter[Any]
                ) -> tuple[list[tuple[str, str]], str | None, Step | None]:
    def make() -> tuple[list[tuple[str, str]], str | None, Step | None]:
        first = options_of(enc, memo, enc_id, revision)(()).step
        if first is None:
            return [], None, None
        return ([(str(c.value), choice_words(c.value, c.label)) for c in first.choices],
                str(first.default), first)
    found: tuple[list[tuple[str, str]], str | None, Step | None] = _remembered(
        memo, ("verbs", enc_id, revision), make)
    return found


def _usual(memo: Memo | None, enc_id: str, revision: int, enc: Encounter[Any]
           ) -> DecideForm | None:
    """The form of the usual verb with every step at its default: the decision as it opens.

    Worked out once per revision (and shared: nobody changes it).
    """
    def make() -> DecideForm | None:
        _, default_verb, first = _first_step(memo, enc_id, revision, enc)
        if default_verb is None:
            return None
        form = decide_form(enc, {"verb": default_verb}, first,
                           options_of(enc, memo, enc_id, revision))
        form.fresh = False  # opened by the server, not chosen: no focus moves to it
        return None if form.error else form
    found: DecideForm | None = _remembered(memo, ("usual", enc_id, revision), make)
    return found


def status(store: EventStore, enc_id: str, access: Access, *, secret: str = "",
           memo: Memo | None = None, trust: bool = False) -> Status:
    """Where the table stands for ``access``: the short answer of a script's POST.

    ``trust``: the store has just made the change this answers (the encounter is
    taken as it left it, see :meth:`EventStore.live`).
    """
    with store.live(enc_id, trust=trust) as (enc, revision):
        picture = _picture_at(memo, enc_id, revision, enc, access)
        can_act = access.may_act_for(enc.current_actor(), picture["all_sides"])
        verbs = [v for v, _ in _first_step(memo, enc_id, revision, enc)[0]] if can_act else []
        shown: int | str = revision if access.viewer is None else _version(
            secret, store, enc_id, revision, picture, access.viewer, memo)
        return Status(shown, picture["actor"], can_act, verbs, picture["outcome"],
                      len(enc.log) if access.sees_hidden else None,
                      _usual(memo, enc_id, revision, enc) if can_act else None)


@dataclass(slots=True)
class Decision:
    """The Decide form's answer to a script: where the decision stands for a link."""

    revision: int | str
    actor: str | None
    can_act: bool
    verbs: list[tuple[str, str]]
    form: DecideForm | None


def decision(store: EventStore, enc_id: str, access: Access, chosen: Mapping[str, Any], *,
             secret: str = "", memo: Memo | None = None) -> Decision:
    """The steps of the decision for the values ``chosen`` (a posted form), for a script.

    What :func:`snapshot` works out for the Decide form and no more: no listing,
    table or log (each a read of the store).
    """
    with store.live(enc_id) as (enc, revision):
        picture = _picture_at(memo, enc_id, revision, enc, access)
        can_act = access.may_act_for(enc.current_actor(), picture["all_sides"])
        verbs: list[tuple[str, str]] = []
        form: DecideForm | None = None
        if can_act:
            verbs, _, first = _first_step(memo, enc_id, revision, enc)
            if chosen.get("verb"):
                form = decide_form(enc, chosen, first, options_of(enc, memo, enc_id, revision))
        shown: int | str = revision if access.viewer is None else _version(
            secret, store, enc_id, revision, picture, access.viewer, memo)
        return Decision(shown, picture["actor"], can_act, verbs, form)


def legal_actions(store: EventStore, enc_id: str, access: Access, limit: int) -> tuple[
        list[str], bool]:
    """Every legal action for the link (at most ``limit``; the flag: the list is whole)."""
    with store.live(enc_id) as (enc, _):
        sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
        if not access.may_act_for(enc.current_actor(), sides):
            return [], True
        found: list[str] = []
        for action in enc.legal_actions():
            if len(found) >= limit:
                return found, False
            found.append(str(action))
        return found, True


def snapshot(store: EventStore, enc_id: str, access: Access, *, with_log: bool = True,
             chosen: Mapping[str, Any] | None = None, log_tail: int | None = LOG_TAIL,
             secret: str = "", memo: Memo | None = None, open_usual: bool = False
             ) -> TableView:
    """Copy out what ``access`` may see of encounter ``enc_id`` (the log only if asked).

    The log is its last ``log_tail`` entries the viewer may read (``None``: all
    of them).  ``secret`` keys the versions and line ids of non-GM viewers.

    The decision is offered as its first step (the verbs); with ``chosen`` (the
    posted form: ``verb`` and ``f_<field>`` values) the remaining steps too, as a
    :class:`DecideForm`.  With ``open_usual`` and no verb chosen, the form of the
    usual verb (every step at its default) is open, so the decision can be confirmed
    at once or changed without asking for its steps first.  With a ``memo``, what
    depends only on the encounter's revision is worked out once.
    """
    info = store.info(enc_id)
    verbs: list[tuple[str, str]] = []
    default_verb: str | None = None
    form: DecideForm | None = None
    viewer = access.viewer
    with store.live(enc_id) as (enc, revision):
        picture = _picture_at(memo, enc_id, revision, enc, access)
        actor = picture["actor"]
        sides = picture["sides"]
        can_act = access.may_act_for(enc.current_actor(), picture["all_sides"])
        if can_act:
            verbs, default_verb, first = _first_step(memo, enc_id, revision, enc)
            if chosen is not None and chosen.get("verb"):
                form = decide_form(enc, chosen, first,
                                   options_of(enc, memo, enc_id, revision))
            elif open_usual:
                form = _usual(memo, enc_id, revision, enc)
        can_undo = access.is_gm and enc.can_undo
        log_length = len(enc.log)
        shown_revision: int | str = revision if viewer is None else _version(
            secret, store, enc_id, revision, picture, viewer, memo)
        if with_log and log_tail is not None:
            # Only the tail of the log is shown; read a margin for lines a viewer skips
            # (the GM skips none).
            start = max(0, log_length - (log_tail if viewer is None else 3 * log_tail))
            entries = store.entries(enc_id, start)
        elif with_log:
            start = 0
            entries = store.entries(enc_id)
        else:
            start, entries = 0, []
    seen: list[LogEntry] = []
    for e in entries:
        text = e.text_for(viewer)
        if text is None:
            continue
        seen.append(e if viewer is None else replace(e, text=text, veil={}, hidden=False))
    shown = seen if log_tail is None else seen[-log_tail:]
    log_cut = start > 0 or len(shown) < len(seen)
    last_decision = max((i for i, e in enumerate(seen) if e.kind == "decision"), default=0)
    last_dice = [e for e in seen[last_decision:] if e.kind == "dice"]
    if viewer is not None:
        # Line ids and positions say nothing about the lines a viewer does not read.
        shown = [replace(e, seq=i) for i, e in enumerate(shown)]
        last_dice = [replace(e, seq=-1) for e in last_dice]
    key = _digest(secret, "decide", enc_id, viewer, actor, verbs, picture["round"])
    return TableView(
        info=info, revision=shown_revision, access=access, round=picture["round"],
        actor=actor, can_act=can_act, verbs=verbs, default_verb=default_verb,
        form=form, columns=picture["columns"], rows=picture["rows"],
        view=picture["view"], sides=sides, order=picture["order"], log=shown,
        last_dice=last_dice, outcome=picture["outcome"], can_undo=can_undo,
        can_redo=access.is_gm and store.can_redo(enc_id), log_length=log_length,
        log_cut=log_cut, side_names=picture["side_names"], decision_key=key,
        battlefield=picture["battlefield"], at_revision=revision, gm_name=picture["gm"],
        ruleset_title=picture["title"], meters=picture["meters"])


_METER = re.compile(r"^\s*(-?\d+)\s*(?:/|of)\s*(\d+)\b")


def is_raw(kind: str, text: str) -> bool:
    """A line the rule set left to the core's generic wording (its event's kind and fields)."""
    return text == kind or text.startswith(kind + " ")


def plain_words(kind: str, text: str) -> str:
    """A line in the core's generic wording put in plainer words.

    ``xx.phase phase=gm queue=`` reads ``phase: phase gm``: the rule set's
    prefix goes, underscores become spaces and empty fields are left out.  (The
    rule set's ``describe_event`` is the place for real words.)
    """
    if not is_raw(kind, text):
        return text
    head = kind.rsplit(".", 1)[-1].replace("_", " ")
    parts = []
    for word in text[len(kind):].split():
        key, sep, value = word.partition("=")
        if sep and value.strip("'\""):
            parts.append(f"{key.replace('_', ' ')} {value.strip(chr(39))}")
        elif not sep:
            parts.append(word)
    return f"{head}: {', '.join(parts)}" if parts else head


def _picture(enc: Encounter[Any], access: Access) -> dict[str, Any]:
    """What ``access`` sees of the encounter now (call it with the encounter locked).

    The result is not changed afterwards by anyone (it may be shared between requests).
    """
    ruleset, state = enc.ruleset, enc.state
    presentation = presentation_of(ruleset)
    standings = list(ruleset.standings(state))
    all_sides = {s.name: s.side for s in standings}
    view = ruleset.view(state, access.view_side)
    actor = enc.current_actor()
    outcome = enc.outcome()
    if access.is_gm:
        # The GM's own table (a rule set's table that takes a side would otherwise guess
        # whose eyes are at a shared screen, and hide the foes' numbers from the GM).
        gm_table: Any = ruleset.table
        takes_side = "side" in inspect.signature(gm_table).parameters
        columns, rows = _said(*(gm_table(state, side=GM) if takes_side else gm_table(state)))
        names = set(all_sides)
        order_raw = view.get("order")
        order = [str(o) for o in order_raw] if isinstance(order_raw, list) else \
            [s.name for s in standings]
    else:
        # Everything below comes from the side's view alone, less any bare mention of a
        # combatant the view holds no record of (a rule set's slip, e.g. a turn queue).
        names = names_in(view)
        view = scrub(view, set(all_sides) - names)
        words = () if presentation.columns else _words(ruleset, state)
        table = presentation.table(view, set(all_sides), words)
        columns, rows = table.columns, table.rows
        order_raw = view.get("order")
        if isinstance(order_raw, list):
            order = [str(o) for o in order_raw if str(o) in names]
        else:
            order = [n for n in table.names if n in names]
        if actor is not None and actor not in names and actor != GM:
            actor = None  # someone this viewer does not see is deciding
    sides = {n: s for n, s in all_sides.items() if n in names}
    return {
        "view": view, "columns": list(columns), "rows": [list(r) for r in rows],
        "sides": sides, "all_sides": all_sides, "order": order, "actor": actor,
        "side_names": sorted(set(all_sides.values())),
        "round": ruleset.round_number(state),
        "battlefield": _battlefield(presentation.package, presentation.battlefield),
        "gm": presentation.gm, "title": presentation.title or say(ruleset.name),
        "meters": presentation.meters,
        "outcome": None if outcome is None else
                   f"{wins(presentation.who(outcome.winner) or 'nobody')} after "
                   f"{outcome.rounds} round{'' if outcome.rounds == 1 else 's'}: "
                   f"{say(outcome.reason)}",
    }


def _said(columns: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """The GM's table less the columns that say nothing yet (blank or ``-`` in every row):
    the table fits its card better, and a column comes back once something is in it."""
    if not rows:
        return columns, rows
    kept = [i for i in range(len(columns))
            if i == 0 or any(i < len(r) and r[i].strip() not in ("", "-") for r in rows)]
    return [columns[i] for i in kept], [[r[i] for i in kept if i < len(r)] for r in rows]


#: Template names of a rule set's own battlefield: this prefix, its package, ``/`` and the file.
RULESET_TEMPLATE = "ruleset:"


def _battlefield(package: str, name: str | None) -> str | None:
    return f"{RULESET_TEMPLATE}{package}/{name}" if package and name else None


def scrub(picture: Any, secret: set[str]) -> Any:
    """``picture`` without any string that is exactly one of the ``secret`` names.

    A list loses such items; a mapping's value becomes ``None``.  Records (``name``
    fields) are left to the view: only bare mentions are removed.
    """
    if not secret:
        return picture
    if isinstance(picture, dict):
        return {k: (None if isinstance(v, str) and v in secret else scrub(v, secret))
                for k, v in picture.items()}
    if isinstance(picture, list | tuple):
        return [scrub(v, secret) for v in picture if not (isinstance(v, str) and v in secret)]
    return picture


def _words(ruleset: Any, state: Any) -> list[str]:
    """The headings of the rule set's GM table (its own words), not its rows."""
    return [str(c) for c in ruleset.table(state)[0]]


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


def choice_words(value: Any, label: str) -> str:
    """The words shown for a value: the rule set's label, unless it is only ``str(value)``."""
    if label == str(value):
        return value_text(value).replace("_", " ").replace(",", ", ")
    return label_words(label)


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


def offered_value(step: Step, posted: Any) -> tuple[Any, bool]:
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
                     [(value_text(c.value), choice_words(c.value, c.label)) for c in step.choices])


def typed_text(action: Action) -> str:
    """The action as it would be typed, without its actor."""
    fields = format_fields(action, skip=("actor",))
    return f"{action.verb} {fields}" if fields else action.verb


def decide_form(enc: Encounter[Any], posted: Mapping[str, Any],
                first: Step | None = None, options_for: OptionsOf | None = None) -> DecideForm:
    """The form for the current decision after the values ``posted`` so far.

    Each step keeps its posted value while that value is still offered (given the
    values before it) and otherwise takes the step's default, so the form always
    shows a whole action that can be confirmed.
    """
    verb = str(posted.get("verb") or "")
    actor = enc.current_actor() or ""
    ask = options_for or enc.options
    first = first or ask(()).step
    labels = {str(c.value): choice_words(c.value, c.label) for c in first.choices} if first else {}
    if verb not in labels:
        return DecideForm(actor, verb, verb, [], None, "",
                          f"{actor} cannot {verb} now" if verb else "choose what to do")
    chosen: list[Any] = [next(c.value for c in first.choices if str(c.value) == verb)] \
        if first else []
    fields: list[FormField] = []
    try:
        options = ask(tuple(chosen))
        while options.step is not None and len(fields) < MAX_STEPS:
            step = options.step
            raw = posted.get(FIELD_PREFIX + step.name)
            value, ok = offered_value(step, raw)
            if not ok:
                value = _nearest(step, raw)
            fields.append(_field(step, value))
            chosen.append(value)
            options = ask(tuple(chosen))
    except (IllegalActionError, ActionSyntaxError) as exc:
        return DecideForm(actor, verb, labels[verb], fields, None, "", str(exc))
    action = options.action
    if action is None:
        return DecideForm(actor, verb, labels[verb], fields, None, "",
                          "this decision has too many steps for the form")
    fresh = not any(str(k).startswith(FIELD_PREFIX) for k in posted)
    return DecideForm(actor, verb, labels[verb], fields, str(action), typed_text(action),
                      fresh=fresh)


def action_from_form(enc: Encounter[Any], posted: Mapping[str, Any],
                     options_for: OptionsOf | None = None) -> Action:
    """The whole action the posted form names, every step's value checked as offered.

    Unlike :func:`decide_form` nothing falls back to a default: a value that is
    not offered (any more) is refused, naming the step.
    """
    verb = str(posted.get("verb") or "")
    ask = options_for or enc.options
    first = ask(()).step
    match = [c.value for c in first.choices if str(c.value) == verb] if first else []
    if not match:
        actor = enc.current_actor()
        raise ActionSyntaxError(f"{actor} cannot {verb or '(no verb)'} now; "
                                f"choose one of: {', '.join(str(c.value) for c in first.choices)}"
                                if first else "nothing to decide now")
    return posted_action(ask, verb, match[0], posted)


def posted_action(ask: OptionsOf, verb: str, first: Any, posted: Mapping[str, Any],
                  pick: Callable[[Step, Any], tuple[Any, bool]] | None = None,
                  whole: str = "action") -> Action:
    """Walk ``ask``'s steps from the verb ``first`` with the posted form's values; the
    action they form.  ``pick`` reads a step's posted value (default
    :func:`offered_value`); a value it refuses is refused naming the step and what it
    offers.  Shared by the Decide and the Adjust forms; ``whole`` names what is built."""
    read = pick or offered_value
    chosen: list[Any] = [first]
    options: Options = ask(tuple(chosen))
    for _ in range(MAX_STEPS):
        if options.step is None:
            break
        step = options.step
        posted_value = posted.get(FIELD_PREFIX + step.name)
        value, ok = read(step, posted_value)
        if not ok:
            shown = "nothing" if posted_value in (None, "") else repr(str(posted_value)[:40])
            offered = (f"{step.span.low} to {step.span.high}" if step.span is not None else
                       ", ".join(value_text(v) for v in step.values))
            raise ActionSyntaxError(f"{verb}: {_title(step.name).lower()} {shown} is not "
                                    f"offered now (choose {offered})")
        chosen.append(value)
        options = ask(tuple(chosen))
    if options.action is None:
        raise ActionSyntaxError(f"{verb}: the choices do not form a whole {whole}")
    return options.action
