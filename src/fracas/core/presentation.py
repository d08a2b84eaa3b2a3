"""How a rule set is shown to people: its combatants table, battlefield template and log wording.

A rule set's plug-in class may set ``presentation = Presentation(...)``; an
interface (the web console) reads everything it shows through it and so needs to
know no rule set by name.  A rule set that sets nothing gets the default
:class:`Presentation`, which works from the view alone:

* **the table** (:meth:`Presentation.table`): one row per record of the view
  that is a combatant (a record under a top-level list whose ``name`` is one of
  the standings' names, or under one of the lists the rule set names in
  ``records``); its columns are the ``columns`` the rule set declares (field and
  people's label), else every field of those records with its name in words; a
  field ``x`` beside ``x_max`` reads ``x/max``;
* **the battlefield** (:attr:`Presentation.battlefield`): a Jinja2 template the
  rule set ships in its package (``templates/<name>``, package data) that draws
  the view (it gets ``t``, the table as one link sees it, with ``t.view``; it
  may ``{% include "battlefield/generic.html" %}``, the web's picture of any
  view); ``None`` leaves the interface's generic picture of the view;
* **per-viewer wording** (:meth:`Presentation.describe_for`): the line an event
  reads for one side from that side's own view (a turn map of what that side
  sees), where the plain line would name what the side does not see.  The
  default has none (:data:`SAME`): the line is veiled as usual (withheld, or
  of a many-line text the lines naming what the viewer does not hold).

* **the book's words** (:attr:`Presentation.gm`, :attr:`Presentation.title`):
  what the rule set's book calls the person running the fight (``the
  Loremaster``; the ``gm`` actor is shown by that name) and the rule set itself;
* **health as a bar** (:attr:`Presentation.meters`): the table's headings whose
  cells (``12/20``, ``12 of 20``) an interface may draw as a bar beside the numbers.

People never read a token or a typed action: :func:`say` puts a value in words
(``hill_troll`` reads ``hill troll``), :func:`action_words` and
:func:`event_words` word a decision or an event that its rule set leaves to the
interface, and :func:`faces_words` names dice by their faces.  Machine formats
(``--json``, saved logs, the typed syntax) keep the tokens.

Nothing here imports a rule set or an interface.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = ["SAME", "Column", "Presentation", "Same", "TableRows", "action_words", "event_words",
           "faces_words", "label_words", "listed", "possessive", "presentation_of", "say",
           "scalar_text", "words_of"]


class Same:
    """The marker "worded the same for every viewer" (:meth:`Presentation.describe_for`)."""

    _instance: Same | None = None

    def __new__(cls) -> Same:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "SAME"


#: Returned by :meth:`Presentation.describe_for` when the rule set words the event the
#: same for every viewer (the usual veil then applies).
SAME: Final = Same()


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the combatants table: a record field and the words heading it."""

    field: str
    label: str


@dataclass(frozen=True, slots=True)
class TableRows:
    """A table for people: headings, rows of text and each row's record name."""

    columns: list[str]
    rows: list[list[str]]
    names: list[str]


def scalar_text(value: Any) -> str:
    """A record field as a table cell: lists joined, ``True`` as yes, ``None`` as blank."""
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return ", ".join(scalar_text(v) for v in value)
    if value is None:
        return ""
    if isinstance(value, dict):
        return ", ".join(f"{k} {scalar_text(v)}" for k, v in value.items())
    return str(value)


def _filled(value: Any) -> bool:
    """Whether a cell shows anything (``False``, ``None``, ``""`` and empty lists do not)."""
    return scalar_text(value) != ""


def _worded(value: Any, names: set[str]) -> str:
    """A cell's value in words, leaving the names of combatants as they are spelled."""
    if isinstance(value, str):
        return value if value in names else say(value)
    if isinstance(value, list | tuple):
        return ", ".join(_worded(v, names) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{say(k)} {_worded(v, names)}" for k, v in value.items())
    return scalar_text(value)


def words_of(key: str) -> str:
    """A field's name in words: ``passive_pd`` reads ``passive pd``."""
    return key.replace("_", " ")


def say(value: Any) -> str:
    """A value a rule set keeps as a token, as a person reads it.

    >>> say("hill_troll"), say(True), say(None), say(("soma", "pneuma"))
    ('hill troll', 'yes', 'none', 'soma and pneuma')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return listed([say(v) for v in value]) or "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("_", " ")


_SNAKE = re.compile(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])")


def label_words(label: str) -> str:
    """A label for people with any token in it spelled out: a rule set may label a menu
    entry with a value's token (``hand_axe (1d6, 1.5 ft)`` reads ``hand axe (1d6, 1.5 ft)``).
    """
    return _SNAKE.sub(" ", label)


def possessive(name: str) -> str:
    """Whose: ``Ash's``, and a name ending in s (a BATTLESYSTEM unit is often a plural)
    takes the apostrophe alone.

    >>> possessive("Ash"), possessive("lancers")
    ("Ash's", "lancers'")
    """
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def wins(name: str) -> str:
    """``name wins``, the verb agreeing with a plural side (a name ending in a single s, as
    :func:`possessive` reads it: ``assassins win``, ``red wins``).

    >>> wins("red"), wins("assassins"), wins("the Loremaster")
    ('red wins', 'assassins win', 'the Loremaster wins')
    """
    plural = name.endswith("s") and not name.endswith("ss")
    return f"{name} win" if plural else f"{name} wins"


def listed(items: Iterable[str]) -> str:
    """Items in a sentence: ``a``, ``a and b``, ``a, b and c`` (empty: ``""``).

    >>> listed(["2", "3", "4"])
    '2, 3 and 4'
    """
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def faces_words(faces: Iterable[int]) -> str:
    """Dice named by their faces: ``the 4``, ``the 2, 3 and 4`` (``no dice`` when none).

    >>> faces_words([2, 3, 4]), faces_words([6]), faces_words([])
    ('the 2, 3 and 4', 'the 6', 'no dice')
    """
    named = [str(f) for f in faces]
    return "the " + listed(named) if named else "no dice"


def action_words(action: Any, actor: str | None = None) -> str:
    """A decision in words when its rule set has none of its own: the actor, the verb,
    then each field set, by name (``Ann: strike, target bob``).

    ``actor`` names the actor as people call it (``the Loremaster`` for ``gm``).
    """
    from dataclasses import fields as fields_of

    who = actor if actor is not None else str(getattr(action, "actor", ""))
    verb = say(getattr(action, "verb", type(action).__name__))
    parts = []
    for f in fields_of(action):
        if f.name == "actor":
            continue
        value = getattr(action, f.name)
        if value in ("", None, ()) or value == f.default:
            continue
        parts.append(f"{words_of(f.name)} {say(value)}")
    return f"{who}: {verb}" + (f", {', '.join(parts)}" if parts else "")


def event_words(event: Any) -> str:
    """An event in words when its rule set has none of its own: its kind, then each field
    (``wounded: target bob, amount 3``)."""
    from dataclasses import fields as fields_of

    kind = str(getattr(event, "kind", type(event).__name__)).rsplit(".", 1)[-1]
    parts = []
    for f in fields_of(event):
        if f.name == "hidden":
            continue
        value = getattr(event, f.name)
        if value in ("", None, ()):
            continue
        parts.append(f"{words_of(f.name)} {say(value)}")
    return say(kind) + (f": {', '.join(parts)}" if parts else "")


@dataclass(frozen=True)
class Presentation:
    """What a rule set shows people, derived from its ``view`` (see the module's text).

    ``package``: the rule set's package (where ``templates/`` lives, for
    ``battlefield``); ``records``: the top-level lists of the view whose records
    are the table's rows (empty: every record named like a combatant);
    ``columns``: the table's columns in order (empty: every field, in words).
    """

    package: str = ""
    battlefield: str | None = None
    records: tuple[str, ...] = ()
    columns: tuple[Column, ...] = ()
    hidden_fields: frozenset[str] = field(default_factory=frozenset)
    #: What the rule set's book calls the person running the fight (the ``gm`` actor).
    gm: str = "the GM"
    #: The rule set's name as people read it (``The One Ring``); empty: its name in words.
    title: str = ""
    #: Headings of the table's columns read as a bar (health: ``12/20`` or ``12 of 20``).
    meters: frozenset[str] = field(default_factory=frozenset)

    def who(self, name: str | None) -> str:
        """A name as people read it: the ``gm`` actor is called what the book calls it."""
        if name is None:
            return ""
        return self.gm if name == "gm" else name

    # -- the table -------------------------------------------------------------------
    def items(self, view: Mapping[str, Any], combatants: Iterable[str] = ()) -> list[
            dict[str, Any]]:
        """The records of the view that are the table's rows, in the view's order."""
        keys = self.records or tuple(view)
        named = set(combatants)
        found: list[dict[str, Any]] = []
        for key in keys:
            value = view.get(key)
            if not isinstance(value, list):
                continue
            for item in value:
                if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                    continue
                if self.records or item["name"] in named:
                    found.append(item)
        return found

    def table(self, view: Mapping[str, Any], combatants: Iterable[str] = (),
              words: Sequence[str] = ()) -> TableRows:
        """The combatants table of ``view`` (only what the view holds), with people's labels.

        ``combatants``: the names of the standings (rows are the records so named,
        unless the rule set names its ``records``).  Without declared ``columns``
        a field is headed with one of ``words`` (the headings of the rule set's GM
        table) where one names it, else with its name in words, borrowing the
        casing of those headings (``passive_pd`` reads ``passive PD`` beside ``PD``).
        """
        items = self.items(view, combatants)
        if self.columns:
            present = {k for item in items for k in item}
            pairs = [(c.field, c.label) for c in self.columns if c.field in present or not items]
        else:
            keys: list[str] = []
            for item in items:
                keys.extend(k for k in item if k not in keys and k not in self.hidden_fields)
            named = {w.strip().lower().replace(" ", "_"): w for w in words}
            for word in ("combatant", "unit", "name"):
                if word in named:
                    named.setdefault("name", named[word])
            spelled = {w.lower(): w for heading in words for w in heading.split()}
            pairs = [(k, named.get(k) or " ".join(spelled.get(w, w) for w in k.split("_")))
                     for k in keys]
        # A column nobody has anything in says nothing (it only crowds the table).
        pairs = [(k, label) for k, label in pairs
                 if k == "name" or not items or any(_filled(item.get(k)) for item in items)]
        fields = [k for k, _ in pairs]
        maxed = {k for k in fields if any(f"{k}_max" in item for item in items)}
        pairs = [(k, label) for k, label in pairs if not (k.endswith("_max") and k[:-4] in maxed)]

        known = set(combatants) | {str(item["name"]) for item in items}

        def cell(item: Mapping[str, Any], k: str) -> str:
            if k in maxed and item.get(k) is not None:
                return f"{scalar_text(item.get(k))}/{scalar_text(item.get(k + '_max'))}"
            return _worded(item.get(k), known) if k != "name" else scalar_text(item.get(k))

        return TableRows(columns=[label for _, label in pairs],
                         rows=[[cell(item, k) for k, _ in pairs] for item in items],
                         names=[str(item["name"]) for item in items])

    # -- the log, worded for one viewer ----------------------------------------------------
    def describe_for(self, event: Any, state: Any, side: str) -> str | Same | None:
        """``event``'s line as ``side`` reads it (``state``: the state just after it).

        A string: the line for that side, from that side's view alone; ``None``:
        nothing for that side; :data:`SAME` (the default): the rule set words it
        the same for everyone and the usual veil applies.
        """
        return SAME


def presentation_of(ruleset: Any) -> Presentation:
    """The rule set's :class:`Presentation` (its ``presentation`` attribute), or the default."""
    found = getattr(ruleset, "presentation", None)
    return found if isinstance(found, Presentation) else _DEFAULT


_DEFAULT = Presentation()

