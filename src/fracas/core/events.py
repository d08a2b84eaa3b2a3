"""Events: the append-only record of everything that happened in a fight.

An event is a small frozen dataclass with a ``kind`` tag.  State is a fold over
events, so every random result is an event too (:class:`DiceRolled` keeps the
faces) and replaying a log never needs the dice again.  Logs are stored as JSON
lines: a header line naming the rule set and scenario, then one event a line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast, dataclass_transform

from fracas.core.action import Action
from fracas.core.codec import from_jsonable, to_jsonable
from fracas.core.errors import ActionSyntaxError, LogFormatError, OutputFileError
from fracas.core.records import fast_init

if TYPE_CHECKING:
    from fracas.core.ruleset import Ruleset

__all__ = [
    "DecisionMade",
    "DiceRolled",
    "Event",
    "FightEnded",
    "LogHeader",
    "Note",
    "check_log_path",
    "decode_event",
    "encode_event",
    "event",
    "event_type",
    "interned",
    "parse_log_text",
    "read_log",
    "write_log",
]

LOG_FORMAT = 1


class Event:
    """Base of every event.  Subclasses are frozen, slotted dataclasses with a ``kind``."""

    __slots__ = ()
    kind: ClassVar[str] = "event"
    #: Hidden events (secret GM rolls) are shown to the GM only.
    hidden: bool


_EVENT_TYPES: dict[str, type[Event]] = {}

E = TypeVar("E", bound=type[Event])


def event_type(cls: E) -> E:
    """Class decorator: register an event class under its ``kind`` for decoding.

    It also gives the class a cheaper constructor (:func:`fracas.core.records.fast_init`):
    events stay frozen, slotted dataclasses in every other way.  :func:`event` declares
    the class, its kind and its ``hidden`` field in one line and calls this.
    """
    if cls.kind in _EVENT_TYPES and _EVENT_TYPES[cls.kind] is not cls:
        raise ValueError(f"event kind {cls.kind!r} registered twice")
    _EVENT_TYPES[cls.kind] = cls
    return fast_init(cls)


V = TypeVar("V", bound=Event)

#: Every interning table (see :func:`interned`), so that a test can empty them all.
INTERN_TABLES: list[dict[tuple[object, ...], Any]] = []
#: Whether :func:`interned` constructors keep what they make (a test turns it off to
#: compare with every event made by its class).
INTERNING = True


def interned(cls: Callable[..., V], kept: int = 4096) -> Callable[..., V]:
    """A constructor of ``cls`` that makes each distinct event once and hands it out again.

    Events are immutable values, so an event equal to one made before may be that very
    object, and a fight makes the same few (a turn ended, a d20 showing 12) over and over;
    looking one up costs a fraction of building it.  Call the constructor with every
    field, positionally, in declaration order, and only where each field always holds one
    type (``1``, ``1.0`` and ``True`` are equal keys).  At most ``kept`` distinct events
    are kept; past that the table starts again.
    """
    table: dict[tuple[object, ...], V] = {}
    INTERN_TABLES.append(table)
    get = table.get

    def make(*values: object) -> V:
        found = get(values)
        if found is None:
            found = cls(*values)
            if len(table) < kept and INTERNING:
                table[values] = found
            elif len(table) >= kept:
                table.clear()
        return found

    make.__qualname__ = make.__name__ = f"interned_{getattr(cls, '__name__', 'event')}"
    return make


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def event(kind: str, *, hidden: bool = False) -> Callable[[E], E]:
    """Class decorator: declare an event once, by the ``kind`` its log lines are tagged with.

    The class body holds the docstring and the fields; the decorator makes it a frozen,
    slotted dataclass with the class variable ``kind`` and a last field ``hidden``
    (default ``hidden``: ``True`` for an event only the GM ever sees), registers the kind
    for decoding and gives it the cheaper constructor (:func:`event_type`).  An event
    whose code sets ``hidden`` when it is made declares the field itself, last, so the
    type checker knows it.  A kind is stored in saved logs: never rename one.

    >>> @event("example.shoved")
    ... class Shoved(Event):
    ...     who: str
    ...     feet: int = 5
    >>> Shoved("Bo")
    Shoved(who='Bo', feet=5, hidden=False)
    >>> encode_event(Shoved("Bo", 10))
    {'type': 'example.shoved', 'who': 'Bo', 'feet': 10, 'hidden': False}
    """

    def declare(cls: E) -> E:
        annotations = cls.__annotations__  # the class's own (an empty one made if none)
        if "hidden" not in annotations:
            annotations["hidden"] = "bool"
            type.__setattr__(cls, "hidden", hidden)
        type.__setattr__(cls, "kind", kind)
        declared = cast(E, dataclass(frozen=True, slots=True)(cls))
        return event_type(declared)

    return declare


@event_type
@dataclass(frozen=True, slots=True)
class DecisionMade(Event):
    """An actor chose an action; everything after it up to the next one is its result."""

    kind: ClassVar[str] = "decision"
    actor: str
    action: Action
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """Dice were rolled: who rolled, what for, the die size and every face."""

    kind: ClassVar[str] = "dice"
    actor: str
    purpose: str
    sides: int
    faces: tuple[int, ...]
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class Note(Event):
    """Free text for the log (a ruling applied, a GM remark)."""

    kind: ClassVar[str] = "note"
    text: str
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class FightEnded(Event):
    """The fight is over: the winning side (or none) and why."""

    kind: ClassVar[str] = "fight_ended"
    winner: str | None
    reason: str
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class LogHeader:
    """First line of a stored log: enough to rebuild the starting state."""

    ruleset: str
    scenario: dict[str, Any]
    seed: int | None = None
    format: int = LOG_FORMAT


def encode_event(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready dict tagged with its kind."""
    data = to_jsonable(event)
    if isinstance(event, DecisionMade):
        data["action"] = str(event.action)
    return {"type": event.kind, **data}


def decode_event(data: dict[str, Any], ruleset: Ruleset[Any], where: str = "") -> Event:
    """Rebuild an event from its JSON form; actions are parsed by ``ruleset``."""
    data = dict(data)
    kind = data.pop("type", None)
    cls = _EVENT_TYPES.get(str(kind))
    if cls is None:
        raise LogFormatError(f"{where}unknown event type {kind!r}")
    try:
        if cls is DecisionMade:
            action: Action = ruleset.parse_action(str(data.pop("action")))
            return DecisionMade(actor=str(data["actor"]), action=action,
                                hidden=bool(data.get("hidden", False)))
        if cls is DiceRolled:  # a face is a whole JSON number: never 2.5, "3" or true
            _whole_numbers(data, ("sides",), ("faces",), where)
        event: Event = from_jsonable(cls, data, where)
        return event
    except KeyError as exc:
        raise LogFormatError(f"{where}{kind} event without its field {exc}") from None
    except ActionSyntaxError as exc:
        text = str(exc)  # field errors already say where
        raise LogFormatError(text if where and text.startswith(where.rstrip(": ")) else
                             f"{where}{text}") from None


def _whole_numbers(data: dict[str, Any], one: tuple[str, ...], many: tuple[str, ...],
                   where: str) -> None:
    """Refuse a field of ``one`` that is not a whole number, or a list of ``many`` holding one.

    The codec would turn ``2.5`` or ``"3"`` into an int; a die shows whole numbers only.
    """
    for name in one:
        if name in data and type(data[name]) is not int:
            raise LogFormatError(f"{where}DiceRolled.{name}: expected a whole number, "
                                 f"got {data[name]!r}")
    for name in many:
        values = data.get(name)
        bad = [v for v in values if type(v) is not int] if isinstance(values, list) else []
        if bad:
            raise LogFormatError(f"{where}DiceRolled.{name}: expected whole numbers, "
                                 f"got {bad[0]!r}")


def check_log_path(path: str | Path) -> Path:
    """Refuse, before any work is done, a log file that could not be written."""
    out = Path(path)
    if out.is_dir():
        raise OutputFileError(f"{out}: cannot write the log: it is a folder")
    if not out.parent.is_dir():
        raise OutputFileError(f"{out}: cannot write the log: the folder {out.parent} "
                              "does not exist")
    if not os.access(out.parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise OutputFileError(f"{out}: cannot write the log: permission denied")
    return out


def write_log(path: str | Path, header: LogHeader, events: Iterable[Event]) -> None:
    """Write a header and events as JSON lines."""
    lines = [json.dumps({"type": "header", **to_jsonable(header)})]
    lines += [json.dumps(encode_event(event)) for event in events]
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
    except OSError as exc:
        raise OutputFileError(f"{path}: cannot write the log: "
                              f"{exc.strerror or exc}") from None


#: Seeds are stored as SQLite integers and JSON numbers: 0 to 2**63 - 1.
MAX_SEED = 2**63


def parse_log_text(text: str, source: str) -> tuple[LogHeader, list[tuple[int, dict[str, Any]]]]:
    """Read a JSON-lines log: its header and the raw event records (decoded later by rule set).

    Every error names ``source`` and the line.
    """
    records: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogFormatError(f"{source}:{number}: not JSON: {exc.msg}") from None
        except ValueError:  # Python refuses to read integers of more than 4,300 digits
            raise LogFormatError(f"{source}:{number}: a number of more than 4,300 digits") \
                from None
        except RecursionError:
            raise LogFormatError(f"{source}:{number}: lists or objects nested too deeply") \
                from None
        if not isinstance(value, dict):
            raise LogFormatError(f"{source}:{number}: expected a JSON object")
        records.append((number, value))
    if not records or records[0][1].get("type") != "header":
        raise LogFormatError(f"{source}:1: a fracas log starts with a header line")
    raw = dict(records[0][1])
    raw.pop("type")
    known = [f.name for f in fields(LogHeader)]
    unknown = [key for key in raw if key not in known]
    if unknown:
        raise LogFormatError(f"{source}:1: unknown header field "
                             f"{', '.join(repr(k) for k in unknown)}; a header holds "
                             f"{', '.join(known)}")
    missing = [key for key in ("ruleset", "scenario") if key not in raw]
    if missing:
        raise LogFormatError(f"{source}:1: the header needs {' and '.join(missing)}")
    header = LogHeader(**raw)
    if header.format != LOG_FORMAT:
        raise LogFormatError(f"{source}:1: log format {header.format} is not supported")
    if not isinstance(header.scenario, dict) or not isinstance(header.ruleset, str):
        raise LogFormatError(f"{source}:1: the header needs a rule set name and a scenario")
    if header.seed is not None and not (type(header.seed) is int
                                        and 0 <= header.seed < MAX_SEED):
        raise LogFormatError(f"{source}:1: the seed must be a whole number from 0 to 2**63-1")
    return header, records[1:]


def read_log(path: str | Path) -> tuple[LogHeader, list[tuple[int, dict[str, Any]]]]:
    """Read a stored log file: its header and the raw event records."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogFormatError(f"{path}: cannot read log: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise LogFormatError(f"{path}: the log is not UTF-8 text") from None
    return parse_log_text(text, str(path))
