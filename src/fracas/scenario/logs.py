"""Untrusted logs (replay, import, ``simulate --from``, ``play --from``): verified, not trusted.

A log is accepted only if the rules, replaying its decisions with its recorded dice,
produce exactly its events: the decisions are played again through the engine with a
:class:`~fracas.core.rng.ScriptedRng` fed the recorded faces (each face checked against
its die first), and the events the rules produce are compared with the log's, line by
line.  An edited number, a face a die cannot show, a reordered or truncated log: each is
refused naming the first line that differs.

:func:`encounter_from_log` is the one way a header and its events become an encounter
(files, uploads, the store's own rows); :func:`load_log` reads a file or text with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.errors import (
    FightOverError,
    FracasError,
    IllegalActionError,
    LogFormatError,
    ScriptExhaustedError,
)
from fracas.core.events import (
    DecisionMade,
    DiceRolled,
    Event,
    LogHeader,
    decode_event,
    encode_event,
    parse_log_text,
)
from fracas.core.rng import ScriptedRng, continuation_dice
from fracas.core.ruleset import Ruleset, find_ruleset
from fracas.scenario.loader import Scenario
from fracas.scenario.problems import check_model

__all__ = [
    "LoadedLog",
    "RoundNotInLogError",
    "cut_at_round",
    "encounter_from_log",
    "load_encounter",
    "load_log",
    "read_log_file",
    "state_from_header",
    "verify_events",
]

#: The most dice faces a log may hold (a long BATTLESYSTEM battle rolls some 10^5).
MAX_LOG_FACES = 5_000_000


class LoadedLog:
    """A verified log: its header, scenario and the encounter it rebuilds.

    ``complete`` is ``False`` for a log cut inside the results of its last decision: it
    can be shown, not continued.
    """

    def __init__(self, header: LogHeader, scenario: Scenario, encounter: Encounter[Any],
                 complete: bool = True) -> None:
        self.header = header
        self.scenario = scenario
        self.encounter = encounter
        self.complete = complete

    def continuable(self, source: str) -> Encounter[Any]:
        """The encounter, if the fight can go on from the end of the log."""
        if not self.complete:
            raise LogFormatError(f"{source}: the log stops in the middle of its last "
                                 "decision's results (was it cut?); it can be replayed, not "
                                 "continued")
        if self.encounter.is_over:
            raise LogFormatError(f"{source}: the fight is already over; nothing to continue")
        return self.encounter


def read_log_file(path: str | Path) -> str:
    """The text of a log file, or a :class:`LogFormatError` saying why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogFormatError(f"{path}: cannot read log: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise LogFormatError(f"{path}: the log is not UTF-8 text") from None


def _show(event: Event | None) -> str:
    if event is None:
        return "nothing more"
    data = encode_event(event)
    if not data.get("hidden"):
        data.pop("hidden", None)
    return " ".join(f"{k}={v}" for k, v in data.items())


def _faces(events: Sequence[Event], lines: Sequence[int], source: str) -> list[int]:
    faces: list[int] = []
    for event, line in zip(events, lines, strict=True):
        if isinstance(event, DiceRolled):
            if event.sides < 1:
                raise LogFormatError(f"{source}:{line}: a die with {event.sides} sides")
            for face in event.faces:
                if not 1 <= face <= event.sides:
                    raise LogFormatError(f"{source}:{line}: a d{event.sides} cannot show {face}")
            faces += event.faces
            if len(faces) > MAX_LOG_FACES:
                raise LogFormatError(f"{source}:{line}: more than {MAX_LOG_FACES:,} dice faces")
    return faces


def verify_events(ruleset: Ruleset[Any], initial: Any, events: Sequence[Event],
                  lines: Sequence[int], source: str,
                  header: LogHeader | None = None) -> tuple[Encounter[Any], bool]:
    """Replay the decisions of ``events`` with their recorded dice.

    Returns the rebuilt encounter and whether the log is complete: ``False`` when it
    stops inside the results of its last decision (cut while being written), every
    event it holds being what the rules give.  Raises :class:`LogFormatError` naming
    ``source`` and the first line whose event is not what the rules produce there.
    """
    dice = ScriptedRng(_faces(events, lines, source))
    enc: Encounter[Any] = Encounter(ruleset, initial, rng=dice, header=header, start=False)
    problem: str | None = None
    exhausted = False
    at = len(events)
    try:
        ruleset.advance(enc.state, dice, enc.emit)
        for i, event in enumerate(events):
            if type(event) is not DecisionMade:
                continue
            at = i
            if len(enc.log) != i:
                break  # the events before this decision already differ: compared below
            if event.actor != event.action.actor:
                raise IllegalActionError(event.action, "log",
                                         f"it is recorded as {event.actor}'s decision")
            enc.apply(event.action)
        else:
            at = len(events)
    except (IllegalActionError, FightOverError) as exc:
        problem = f"this decision cannot be taken here: {exc}"
    except ScriptExhaustedError:
        problem = "the rules roll more dice here than the log records"
        exhausted = True
    except FracasError as exc:
        problem = str(exc)
    except Exception as exc:  # an untrusted log must not crash the rule set's code
        problem = f"the rules cannot go on from here ({type(exc).__name__}: {exc})"
    produced = enc.log
    for i, (want, got) in enumerate(zip(events, produced, strict=False)):
        if want != got:
            raise LogFormatError(f"{source}:{lines[i]}: the events do not replay by the rules here:"
                                 f" the log says {_show(want)}, the rules give {_show(got)}")
    if (problem is None and len(produced) > len(events)) or (
            exhausted and len(produced) == len(events)):
        # Every event is what the rules give, but the log stops inside the results of its
        # last decision (a fight cut while being written): rebuilt as far as it goes.
        return Encounter.replay(ruleset, initial, events, header=header), False
    if problem is not None:
        line = lines[at] if at < len(lines) else (lines[-1] if lines else 1)
        raise LogFormatError(f"{source}:{line}: the events do not replay by the rules here: "
                             f"{problem}")
    if len(produced) != len(events):
        i = min(len(produced), len(events))
        wanted = events[i] if i < len(events) else None
        given = produced[i] if i < len(produced) else None
        line = lines[i] if i < len(lines) else (lines[-1] + 1 if lines else 2)
        raise LogFormatError(f"{source}:{line}: the events do not replay by the rules here: "
                             f"the log says {_show(wanted)}, the rules give {_show(given)}")
    if dice.remaining:
        raise LogFormatError(f"{source}: the log records {dice.remaining} dice faces the rules "
                             "never rolled")
    return enc, True


def state_from_header(ruleset: Ruleset[Any], data: Mapping[str, Any], source: str) -> Any:
    """The starting state of a log header's scenario data, checked as a scenario file is.

    A :data:`fracas.core.encounter.StateBuilder` (pass it to ``Encounter.load``).
    """
    return ruleset.initial_state(check_model(ruleset.scenario_model, data, source, {}))


def encounter_from_log(header: LogHeader, records: Sequence[tuple[int, Mapping[str, Any]]],
                       source: str, *, verify: bool = True,
                       where: Callable[[int], str] | None = None,
                       ruleset: Ruleset[Any] | None = None,
                       initial: Any = None) -> tuple[Encounter[Any], bool]:
    """The encounter a log header and its raw event records make; and whether it is complete.

    ``records`` are ``(line, data)`` pairs as :func:`fracas.core.events.parse_log_text`
    gives them.  With ``verify`` (every untrusted log: a file, an upload) the decisions
    are replayed with the recorded dice and every event must be what the rules give
    (:func:`verify_events`); without, the events are applied as they are (the store's
    own rows, written by the engine).  Errors name ``source`` and the line, or
    ``where(line)`` when given (``"encounter 3f2a event 12: "``).  ``ruleset`` and
    ``initial`` may be given when the caller has them already.
    """
    rs = ruleset if ruleset is not None else find_ruleset(header.ruleset)
    start = initial if initial is not None else \
        state_from_header(rs, header.scenario, f"{source}:1: header")
    place = where if where is not None else (lambda n: f"{source}:{n}: ")
    events: list[Event] = [decode_event(dict(data), rs, place(n)) for n, data in records]
    if not verify:
        return Encounter.replay(rs, start, events, header=header), True
    return verify_events(rs, start, events, [n for n, _ in records], source, header)


def load_encounter(path: str | Path) -> Encounter[Any]:
    """The encounter of a saved log file, every event verified (``Encounter.load`` for front
    ends: the scenario layer's messages, the events checked against the rules and dice)."""
    return load_log(path).encounter


def load_log(path: str | Path | None = None, *, text: str | None = None,
             source: str | None = None,
             policies: Mapping[str, Any] | None = None) -> LoadedLog:
    """Read, check and verify a saved log (from ``path``, or ``text`` named ``source``).

    ``policies`` changes seats before the fight goes on (``{"Ember": "human"}``); the
    encounter's dice are then a fresh seeded source, so the fight can continue.
    """
    name = source or str(path)
    if text is None:
        if path is None:
            raise LogFormatError("no log given")
        text = read_log_file(path)
    header, records = parse_log_text(text, name)
    ruleset = find_ruleset(header.ruleset)
    model = check_model(ruleset.scenario_model, header.scenario, f"{name}:1: header", {})
    scenario = Scenario(ruleset, model, dict(header.scenario), name)
    if policies:
        from fracas.scenario.seats import seat

        scenario = seat(scenario, policies)
        header = LogHeader(header.ruleset, scenario.model.model_dump(mode="json"), header.seed)
    enc, complete = encounter_from_log(header, records, name, ruleset=ruleset,
                                       initial=ruleset.initial_state(scenario.model))
    enc.rng = continuation_dice(header.seed or 0, len(records))
    return LoadedLog(header, scenario, enc, complete)


def decisions(events: Iterable[Event]) -> list[DecisionMade]:
    """The decisions of a log, in order."""
    return [e for e in events if type(e) is DecisionMade]


class RoundNotInLogError(FracasError, ValueError):
    """A fight is asked to go on from a round its log does not reach (or from round 0)."""

    exit_code = 2


def cut_at_round(ruleset: Ruleset[Any], initial: Any, events: Sequence[Event],
                 round_number: int, source: str) -> tuple[Any, int]:
    """Where a log is cut to go on from round ``round_number``: just before that round's
    first decision.

    Returns the state there (``initial`` is not changed) and how many of ``events`` come
    before it.  A log that stops at a decision of that round or later is cut at its end.
    The one cut every "from round N" uses (``simulate --from LOG --round N`` and the exact
    odds from a saved fight).

    Raises:
        RoundNotInLogError: ``round_number`` is below 1, or the log has no decision of
            that round (the message says where the fight ended or the log stops).
    """
    if round_number < 1:
        raise RoundNotInLogError(f"--round must be 1 or more, got {round_number}")
    state = ruleset.clone_state(initial)
    last = 0
    for kept, event in enumerate(events):
        if type(event) is DecisionMade:
            last = ruleset.round_number(state)
            if last >= round_number:
                return state, kept
        ruleset.apply_event(state, event)
    if ruleset.current_actor(state) is not None and ruleset.round_number(state) >= round_number:
        return state, len(events)  # the log stops at the first decision of that round
    ended = ruleset.outcome(state)
    where = (f"the fight ended in round {ended.rounds}" if ended is not None
             else f"the log stops in round {max(last, ruleset.round_number(state))}")
    raise RoundNotInLogError(f"{source}: no decision of round {round_number} in this log "
                             f"({where}); give an earlier --round, or none to go on from "
                             "where the log ends")
