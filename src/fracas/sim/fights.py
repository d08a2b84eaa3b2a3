"""The worker's side of a simulation: what a fight is made from, and playing a chunk of them.

Fight ``i`` of a run with seed ``s`` has the *fight seed* ``derive_seed(s, i)`` and
is played exactly as ``fracas run SCENARIO --seed <fight seed>`` plays it (the core's
seeding rule, :func:`fracas.core.rng.fight_streams`: the fight's dice stream and its
policy stream from that one seed), so the fight is the same whichever worker plays it
and any one of them can be replayed.
Workers receive a :class:`FightSpec` (plain data: rule-set name, scenario data,
optionally the events of a saved fight to continue from) and a range of fight
indices; they build the starting state once per process and send back a
:class:`~fracas.sim.stats.ChunkSummary`.  What is the same in every fight is done once:
a fresh fight's first automatic steps when they roll no die (each fight starts from a
copy of the state they reach), the encounter (restarted for each fight of a chunk), and
the policies that keep nothing of their own; ``tests/sim/test_chunk_same_fights.py``
holds the chunk to one plain encounter a fight.

Imports go one way inside :mod:`fracas.sim`: ``stats`` <- ``fights`` <- ``executors``
<- ``runner`` <- ``sweep``.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.errors import FracasError
from fracas.core.events import Event, decode_event, encode_event, read_log
from fracas.core.loop import play
from fracas.core.policy import HumanPolicy, Policy, scenario_policies
from fracas.core.rng import Rng, SeededRng, derive_seeds, policy_stream
from fracas.core.ruleset import Ruleset, find_ruleset
from fracas.scenario import Scenario, build_initial_state
from fracas.scenario.logs import cut_at_round
from fracas.sim.stats import ChunkSummary
from fracas.sim.streams import AlignedRng

__all__ = [
    "DEFAULT_MAX_DECISIONS",
    "FightSpec",
    "SimulationError",
    "prepare",
    "run_chunk",
    "spec_from_log",
    "spec_from_scenario",
]

#: A fight still running after this many decisions is counted as unfinished.
DEFAULT_MAX_DECISIONS = 100_000


class SimulationError(FracasError):
    """A simulation cannot run as asked (a human-played combatant, a finished fight, ...)."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class FightSpec:
    """Everything a worker needs to play fights of one scenario, as plain picklable data.

    Attributes:
        ruleset: the registered rule-set name.
        scenario: the scenario data (as in the YAML file) or a saved log's header data.
        source: where it came from, for messages.
        events: encoded events of a saved fight to continue from (empty: a fresh fight).
        module: the module defining the rule set's class, imported by workers first so
            that rule sets registered by hand (tests, plug-ins) are found there too.
        max_decisions: decision limit per fight.
        key: a digest of the above, used to cache the prepared state in each worker.
        aligned: roll the dice on streams aligned roll by roll
            (:class:`fracas.sim.streams.AlignedRng`), as a sweep does so that its
            variants share their dice; False: the fight ``fracas run --seed`` plays.
    """

    ruleset: str
    scenario: Mapping[str, Any]
    source: str = "<scenario>"
    events: tuple[Mapping[str, Any], ...] = ()
    module: str = ""
    max_decisions: int = DEFAULT_MAX_DECISIONS
    key: str = field(default="", compare=False)
    aligned: bool = False

    @staticmethod
    def make(ruleset: Ruleset[Any], scenario: Mapping[str, Any], source: str,
             events: Sequence[Mapping[str, Any]] = (),
             max_decisions: int = DEFAULT_MAX_DECISIONS) -> FightSpec:
        """Build a spec and its cache key."""
        text = json.dumps([ruleset.name, scenario, list(events)], sort_keys=True, default=str)
        key = hashlib.sha1(text.encode()).hexdigest()
        return FightSpec(ruleset.name, dict(scenario), source, tuple(events),
                         type(ruleset).__module__, max_decisions, key)


def spec_from_scenario(scenario: Scenario,
                       max_decisions: int = DEFAULT_MAX_DECISIONS) -> FightSpec:
    """A spec for fresh fights of a loaded scenario."""
    data = scenario.model.model_dump(mode="json")
    return FightSpec.make(scenario.ruleset, data, scenario.source, (), max_decisions)


def spec_from_log(path: str | Path, from_round: int | None = None,
                  max_decisions: int = DEFAULT_MAX_DECISIONS) -> FightSpec:
    """A spec for continuations of a saved fight.

    Args:
        path: a JSON-lines log written by ``fracas run --save`` or ``fracas play --save``.
        from_round: continue from the first decision of this round (the log is cut
            there); ``None`` continues from where the log ends.
        max_decisions: decision limit per continuation.

    Raises:
        SimulationError: the fight is already over where the log ends.
        RoundNotInLogError: the log has no decision of ``from_round``
            (:func:`fracas.scenario.logs.cut_at_round`).
    """
    header, lines = read_log(path)
    ruleset = find_ruleset(header.ruleset)
    initial = build_initial_state(ruleset, header.scenario, source=str(path))
    enc = Encounter(ruleset, initial, start=False)  # a log is untrusted: checked event by event
    for number, data in lines:
        enc.emit_checked(decode_event(data, ruleset, f"{path}:{number}: "), f"{path}:{number}")
    state, kept = enc.state, len(enc.log)
    if from_round is not None:
        state, kept = cut_at_round(ruleset, enc.initial_state, enc.log, from_round, str(path))
    if ruleset.current_actor(state) is None:
        raise SimulationError(f"{path}: the fight is already over at the end of the log; "
                              "nothing to simulate")
    return FightSpec.make(ruleset, header.scenario, str(path),
                          [encode_event(e) for e in enc.log[:kept]], max_decisions)


# --------------------------------------------------------------------------- workers
@dataclass(slots=True)
class _Prepared:
    ruleset: Ruleset[Any]
    state: Any
    fresh: bool
    #: A fresh fight's state after its first automatic steps when they roll no die (so
    #: they leave every fight of the spec there): each fight starts from a copy of it
    #: instead of taking them again.  ``None``: each fight takes them on its own dice.
    started: Any = None


_PREPARED: dict[str, _Prepared] = {}


class _Watched:
    """An :class:`~fracas.core.rng.Rng` that notes whether anything drew from it."""

    __slots__ = ("_rng", "drawn")

    def __init__(self) -> None:
        self._rng = SeededRng(0)
        self.drawn = False

    def die(self, sides: int) -> int:
        self.drawn = True
        return self._rng.die(sides)

    def dice(self, count: int, sides: int) -> list[int]:
        self.drawn = True
        return self._rng.dice(count, sides)

    def choice_index(self, n: int) -> int:
        self.drawn = True
        return self._rng.choice_index(n)


def _started(ruleset: Ruleset[Any], initial: Any) -> Any:
    """The state a fresh fight of ``initial`` reaches by its first automatic steps, when
    they roll no die (the same for every fight then); ``None`` when they roll or fail
    (each fight takes them itself, and a failure names its fight)."""
    watched = _Watched()
    try:
        enc = Encounter(ruleset, initial, rng=watched, keep_log=False)
    except Exception:  # each fight meets it again, and says which
        return None
    return None if watched.drawn else enc.state


def prepare(spec: FightSpec) -> _Prepared:
    """The spec's starting state, built once per process and cached by the spec's key."""
    cached = _PREPARED.get(spec.key) if spec.key else None
    if cached is not None:
        return cached
    if spec.module:
        # An entry-point rule set is found by name below even if this fails.
        with contextlib.suppress(ImportError):
            importlib.import_module(spec.module)
    ruleset = find_ruleset(spec.ruleset)
    state = build_initial_state(ruleset, spec.scenario, spec.source)
    if spec.events:
        events: list[Event] = [decode_event(dict(data), ruleset, f"{spec.source}: ")
                               for data in spec.events]
        state = Encounter.replay(ruleset, state, events).state
    fresh = not spec.events
    prepared = _Prepared(ruleset, state, fresh, _started(ruleset, state) if fresh else None)
    if len(_PREPARED) >= 16:
        _PREPARED.clear()
    if spec.key:
        _PREPARED[spec.key] = prepared
    return prepared


def _refuse_humans(actor: str, policy: Policy) -> None:
    if isinstance(policy, HumanPolicy):
        raise SimulationError(
            f"{actor} is played by a human; give it a computer policy to simulate"
        )


def _policies(ruleset: Ruleset[Any], state: Any) -> Callable[[str], Policy]:
    return scenario_policies(ruleset, state, _refuse_humans)


def _holds_nothing(policy: Policy) -> bool:
    """Whether ``policy`` keeps nothing of its own (no attribute set, no slots): then it
    is as good as a new one for another fight of the same scenario."""
    attributes = getattr(policy, "__dict__", None)
    if attributes is None:  # compiled (fracas._compiled): it keeps the attributes it declares
        return hasattr(type(policy), "__mypyc_attrs__") and \
            not any(getattr(cls, "__mypyc_attrs__", ()) for cls in type(policy).__mro__)
    return not attributes and \
        not any(getattr(cls, "__slots__", ()) for cls in type(policy).__mro__)


class _Seats(dict[str, Policy]):
    """A fight's policies, as :func:`scenario_policies` makes them (each actor's made on
    first asking, humans refused), noting in ``kept`` the policies that keep nothing of
    their own: the next fights of the chunk are handed those instead of new ones (a
    policy is made from the scenario's data alone, which every fight of a chunk shares).
    """

    __slots__ = ("kept", "ruleset", "state", "traits")
    kept: dict[str, Policy]
    #: The attributes of each kept policy: one that takes any on is kept no longer.
    traits: list[dict[str, Any]]
    ruleset: Ruleset[Any]
    state: Any

    @staticmethod
    def first(ruleset: Ruleset[Any]) -> _Seats:
        """A chunk's first fight's seats (its ``state`` set by the caller)."""
        seats = _Seats()
        seats.kept, seats.traits, seats.ruleset = {}, [], ruleset
        return seats

    def next(self) -> _Seats:
        """The seats of the chunk's next fight: these again when every policy in them is
        kept and still keeps nothing; else those kept so far, with new ones to come."""
        if len(self) == len(self.kept) and not any(self.traits):
            return self
        kept, traits = self.kept, self.traits
        if any(traits):  # one took something on after all: new ones from now on
            kept, traits = {}, []
        seats = _Seats(kept)
        seats.kept, seats.traits, seats.ruleset = kept, traits, self.ruleset
        return seats

    def __missing__(self, actor: str) -> Policy:
        policy = self.ruleset.policy_for(self.state, actor)
        _refuse_humans(actor, policy)
        self[actor] = policy
        if _holds_nothing(policy):
            self.kept[actor] = policy
            # (a compiled policy that holds nothing has no room to take anything on)
            self.traits.append(getattr(policy, "__dict__", {}))
        return policy


def run_chunk(spec: FightSpec, seed: int, start: int, stop: int) -> ChunkSummary:
    """Play fights ``start .. stop-1`` of the run with ``seed`` and summarise them.

    This is the function the executors send to workers.
    """
    prepared = prepare(spec)
    ruleset, initial = prepared.ruleset, prepared.state
    started = prepared.started
    # A fresh fight's first steps: taken once in prepare() when they roll no die.
    advance = ruleset.advance if prepared.fresh and started is None else None
    if started is not None:
        initial = started
    standings = ruleset.standings
    aligned = spec.aligned
    summary = ChunkSummary()
    wins, rounds, survived, health = summary.wins, summary.rounds, summary.survived, summary.health
    for s in standings(initial):
        wins.setdefault(s.side, 0)
        survived.setdefault(s.name, 0)
        health.setdefault(s.name, {})
    # The chunk's per-fight outcome codes (ChunkSummary.note), by (winner, finished).
    codes: dict[tuple[str | None, bool], int] = {}
    # What the chunk's fights ended as, counted here and added to the summary after
    # them: by (winner, rounds) (rounds None: unfinished), [its outcome code, fights];
    # by (name, status, health), [a standing of it, fights].
    ends: dict[tuple[str | None, int | None], list[int]] = {}
    ends_get = ends.get
    stands: dict[tuple[str, str, float], list[Any]] = {}
    stands_get = stands.get
    seats = _Seats.first(ruleset)
    keep_code = summary.outcomes.append
    dice: Rng
    enc: Encounter[Any] | None = None  # one encounter, restarted for each fight
    stream = SeededRng(0)  # one dice stream, started again for each fight
    max_decisions = spec.max_decisions
    pick = seats.__getitem__
    for i, fight_seed in enumerate(derive_seeds(seed, start, stop), start):
        if aligned:  # a sweep's variants share their dice roll by roll
            dice, policy_rng = AlignedRng(fight_seed), policy_stream(fight_seed)
        else:  # fight_streams(fight_seed), the dice on the one stream
            stream.reseed(fight_seed)
            dice, policy_rng = stream, policy_stream(fight_seed)
        try:
            if enc is None:
                enc = Encounter.unlogged(ruleset, initial, dice)
            else:
                enc.restart(initial, dice)
            if advance is not None:
                advance(enc.state, dice, enc.emit)
            following = seats.next()
            if following is not seats:
                seats, pick = following, following.__getitem__
            seats.state = enc.state
            outcome = play(enc, pick, policy_rng, max_decisions=max_decisions)
        except SimulationError:
            raise
        except Exception as exc:
            # Re-raised as a plain message: it crosses process boundaries intact, and
            # says how to replay the fight that failed.
            raise SimulationError(
                f"fight {i} of the run (fight seed {fight_seed}) failed: "
                f"{type(exc).__name__}: {exc}; replay it with "
                f"'fracas run {spec.source} --seed {fight_seed}'"
            ) from exc
        end_key = (None, None) if outcome is None else (outcome.winner, outcome.rounds)
        end = ends_get(end_key)
        if end is None:
            key = (end_key[0], outcome is not None)
            code = codes.get(key)
            if code is None:
                summary.note(*key)
                code = codes[key] = summary.outcomes[-1]
            else:
                keep_code(code)
            ends[end_key] = [code, 1]
        else:
            keep_code(end[0])
            end[1] += 1
        for s in standings(enc.state):
            stand_key = (s.name, s.status, s.health)
            stand = stands_get(stand_key)
            if stand is None:
                stands[stand_key] = [s, 1]
            else:
                stand[1] += 1
    # The counts, in the order each was first met (as the fights come).
    draws = unfinished = 0
    for (winner, length), (_, fights) in ends.items():
        if length is None:
            unfinished += fights
            continue
        if winner is None:
            draws += fights
        else:
            wins[winner] = wins.get(winner, 0) + fights
        rounds[length] = rounds.get(length, 0) + fights
    for (name, _, value), (standing, fights) in stands.items():
        if standing.standing:
            survived[name] = survived.get(name, 0) + fights
        hist = health.get(name)
        if hist is None:
            hist = health[name] = {}
        hist[value] = hist.get(value, 0) + fights
    summary.fights += len(range(start, stop))
    summary.draws += draws
    summary.unfinished += unfinished
    return summary
