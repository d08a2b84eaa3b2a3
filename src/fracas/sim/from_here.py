"""Each side's chance to win from where a fight stands: "win chance from here".

Fights are played on from a copy of the current state (the encounter's log replayed on
its scenario) with the scenario's policies, and each side's share of wins is reported
as a 95% interval: an estimate, labelled so.  A person's seat, and a scripted one (a
script follows the fight from its start), is played by the rule set's default AI, and
the answer says so.  Where the exact duel solver (:mod:`fracas.odds.duel`) finishes
within a small budget of states, the exact chances come with it.

Everything is deterministic given the seed: fight ``i`` is played as fight ``i`` of
``fracas simulate --from`` with that seed (:func:`fracas.sim.fights.run_chunk`), and the
solver's budget counts states and resolutions, never seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.errors import FracasError
from fracas.core.events import Event, encode_event
from fracas.core.ruleset import Ruleset
from fracas.sim.fights import FightSpec, SimulationError, prepare, run_chunk
from fracas.sim.stats import wilson_interval

__all__ = ["DEFAULT_EXACT_LEAVES", "DEFAULT_EXACT_STATES", "DEFAULT_FIGHTS", "SideChance",
           "WinChance", "estimate", "spec_from_here", "win_chance", "win_chance_from_here"]

#: Fights played on from the current state for an estimate.
DEFAULT_FIGHTS = 200
#: The exact solver gives up beyond this many states ...
DEFAULT_EXACT_STATES = 3_000
#: ... or this many resolutions (so a position is answered exactly or not, the same
#: way on any machine).
DEFAULT_EXACT_LEAVES = 20_000
#: A simulated fight still going after this many decisions counts as unfinished.
MAX_DECISIONS = 20_000


@dataclass(frozen=True, slots=True)
class SideChance:
    """One side's chance to win from here.

    Attributes:
        side: the side's name.
        wins: simulated fights it won (of :attr:`WinChance.fights`).
        low: the 95% interval's lower end (Wilson score).
        high: its upper end.
        exact: the exact chance under the same policies, when the solver finished.
    """

    side: str
    wins: int
    low: float
    high: float
    exact: float | None = None

    def words(self, fights: int) -> str:
        """``"blue: 62% to 75% (an estimate: won 137 of 200 fights played on from here)"``;
        with the exact chance first when the solver knows it."""
        shown = f"{self.low * 100:.0f}% to {self.high * 100:.0f}%"
        played = f"won {self.wins} of {fights} fights played on from here"
        if self.exact is not None:
            return f"{self.side}: {self.exact * 100:.1f}% exactly (an estimate: {shown}, {played})"
        return f"{self.side}: {shown} (an estimate: {played})"


@dataclass(frozen=True, slots=True)
class WinChance:
    """Every side's chance to win from one position.

    Attributes:
        sides: each side's chance, in scenario order.
        fights: fights played on from the position.
        seed: the seed they were played with.
        draws: fights that ended with no winner.
        unfinished: fights stopped by the decision limit.
        exact: ``True`` when the exact solver finished (each side's ``exact`` is set).
        exact_draw: the exact chance of a draw, when known.
        notes: what a reader should know (seats played by the AI, why no exact answer).
    """

    sides: tuple[SideChance, ...]
    fights: int
    seed: int
    draws: int = 0
    unfinished: int = 0
    exact: bool = False
    exact_draw: float | None = None
    notes: tuple[str, ...] = ()

    def side(self, name: str) -> SideChance:
        """The chance of the side called ``name`` (``KeyError`` if it has none)."""
        for s in self.sides:
            if s.side == name:
                return s
        raise KeyError(name)

    def lines(self) -> tuple[str, ...]:
        """The answer in words, one line a side, then draws and notes."""
        out = [s.words(self.fights) for s in self.sides]
        if self.draws or (self.exact_draw or 0) > 0:
            draw = f"draw: {self.draws} of {self.fights} fights"
            if self.exact_draw is not None:
                draw += f" ({self.exact_draw * 100:.1f}% exactly)"
            out.append(draw)
        if self.unfinished:
            out.append(f"unfinished after {MAX_DECISIONS:,} decisions: {self.unfinished}")
        return (*out, *self.notes)


def _computer_data(ruleset: Ruleset[Any], data: Mapping[str, Any], source: str,
                   ) -> tuple[dict[str, Any], list[str]]:
    """The scenario data with the default AI in every human or scripted seat."""
    from fracas.scenario import Scenario
    from fracas.scenario.problems import check_model
    from fracas.scenario.seats import DEFAULT_POLICY, HUMAN, seat, seats

    model = check_model(ruleset.scenario_model, data, source, {})
    scenario = Scenario(ruleset, model, dict(data), source)
    found = seats(scenario)
    swapped = [name for name, policy in found.policies.items()
               if policy == HUMAN or policy == "scripted" or not isinstance(policy, str)]
    if not swapped:
        return dict(data), []
    changed = seat(scenario, dict.fromkeys(swapped, DEFAULT_POLICY))
    plain: dict[str, Any] = changed.model.model_dump(mode="json")
    return plain, swapped


def spec_from_here(ruleset: Ruleset[Any], scenario: Mapping[str, Any], events: Sequence[Event],
                   source: str = "<fight>") -> tuple[FightSpec, tuple[str, ...]]:
    """The fights to play on from the position the ``events`` lead to, as plain data (a
    worker process may take it), and the seats the default AI takes over."""
    data, swapped = _computer_data(ruleset, scenario, source)
    spec = FightSpec.make(ruleset, data, source, tuple(encode_event(e) for e in events),
                          MAX_DECISIONS)
    return spec, tuple(swapped)


def estimate(spec: FightSpec, swapped: Sequence[str] = (), *, fights: int = DEFAULT_FIGHTS,
             seed: int = 0, exact_states: int = DEFAULT_EXACT_STATES,
             exact_leaves: int = DEFAULT_EXACT_LEAVES) -> WinChance:
    """Each side's chance to win from ``spec``'s position (see :func:`win_chance`)."""
    from fracas.odds.duel import DuelError, DuelLimits, solve_from_state
    from fracas.scenario.seats import DEFAULT_POLICY

    prepared = prepare(spec)
    ruleset, state = prepared.ruleset, prepared.state
    if ruleset.current_actor(state) is None:
        raise SimulationError(f"{spec.source}: the fight is over; there is nothing to estimate")
    order = list(dict.fromkeys(s.side for s in ruleset.standings(state)))
    notes: list[str] = []
    if swapped:
        notes.append(f"played by the default AI ({DEFAULT_POLICY}) instead of a person or "
                     f"a script: {', '.join(swapped)}")
    exact: dict[str, float] | None = None
    exact_draw: float | None = None
    if exact_states > 0:
        try:
            solved = solve_from_state(ruleset, state, started=True, limits=DuelLimits(
                max_states=exact_states, max_leaves=exact_leaves, max_seconds=None))
        except DuelError:
            notes.append("no exact answer: the fight from here is too large for the solver's "
                         "budget")
        except FracasError as exc:
            notes.append(f"no exact answer: {exc}")
        else:
            if solved.unresolved < 1e-9 and solved.pruned < 1e-9:
                exact, exact_draw = dict(solved.sides), solved.draw
    summary = run_chunk(spec, seed, 0, fights) if fights > 0 else None
    played = summary.fights if summary is not None else 0
    sides = []
    for side in order:
        won = summary.wins.get(side, 0) if summary is not None else 0
        low, high = wilson_interval(won, played)
        sides.append(SideChance(side, won, low, high,
                                None if exact is None else exact.get(side, 0.0)))
    return WinChance(tuple(sides), played, seed,
                     summary.draws if summary is not None else 0,
                     summary.unfinished if summary is not None else 0,
                     exact is not None, exact_draw, tuple(notes))


def win_chance(ruleset: Ruleset[Any], scenario: Mapping[str, Any], events: Sequence[Event], *,
               fights: int = DEFAULT_FIGHTS, seed: int = 0,
               exact_states: int = DEFAULT_EXACT_STATES,
               exact_leaves: int = DEFAULT_EXACT_LEAVES, source: str = "<fight>") -> WinChance:
    """Each side's chance to win from the position the ``events`` lead to.

    Args:
        ruleset: the rules.
        scenario: the scenario data the fight started from (a log header's).
        events: every event of the fight so far.
        fights: how many fights to play on (0: the exact answer alone, if any).
        seed: the seed of the fights played on.
        exact_states: the exact solver's budget of states (0: no exact answer).
        exact_leaves: its budget of resolutions.
        source: the fight's name, for messages.

    Raises:
        SimulationError: the fight is over, or a fight played on failed (the message
            says how to replay it).
    """
    spec, swapped = spec_from_here(ruleset, scenario, events, source)
    return estimate(spec, swapped, fights=fights, seed=seed, exact_states=exact_states,
                    exact_leaves=exact_leaves)


def win_chance_from_here(encounter: Encounter[Any], **options: Any) -> WinChance:
    """:func:`win_chance` from where ``encounter`` stands (its header and its log).

    The encounter must keep its log and have a header (as every front end's does);
    ``options`` are :func:`win_chance`'s.
    """
    if encounter.header is None or not encounter.keep_log:
        raise SimulationError("win chance from here needs the fight's scenario and log")
    return win_chance(encounter.ruleset, encounter.header.scenario, encounter.log, **options)
