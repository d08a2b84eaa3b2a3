"""The Age of Dragons rule set: the plug-in class tying state, rules and policies together."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import ActionSyntaxError, IllegalActionError
from fracas.core.events import Event
from fracas.core.policy import HumanPolicy, Policy, RandomPolicy, ScriptedPolicy
from fracas.core.rng import Rng
from fracas.core.ruleset import GM, Emit, Outcome, Ruleset, Standing
from fracas.rules.age_of_dragons import actions as act
from fracas.rules.age_of_dragons import fold, legality, odds, resolution, text
from fracas.rules.age_of_dragons.model import (
    ALTITUDES,
    RANGES,
    Fighter,
    Profile,
    RangedAttack,
    RerollAbility,
    State,
    Task,
    pair,
)
from fracas.rules.age_of_dragons.policies import ClawAllPolicy, HeuristicPolicy
from fracas.rules.age_of_dragons.scenario import AgeOfDragonsScenario

__all__ = ["AgeOfDragons"]


def _profile(spec: Any) -> Profile:
    policy, script = (spec.policy, ()) if isinstance(spec.policy, str) else \
        ("scripted", tuple(spec.policy))
    return Profile(
        spec.name, spec.side, spec.soma, spec.sophis, spec.pneuma, spec.pd, spec.pr,
        spec.flies, policy, script,
        tuple(RerollAbility(x.name, x.resource, x.cost, x.sphere, x.per_turn)
              for x in spec.rerolls),
        tuple(RangedAttack(w.name, w.sphere, RANGES.index(w.reach), w.damage_bonus, w.area)
              for w in spec.ranged),
    )


class AgeOfDragons(Ruleset[State]):
    """Age of Dragons skirmish combat: d6 pools, range bands and altitude, tooth and claw."""

    name = "age_of_dragons"
    title = "Age of Dragons skirmish combat"
    scenario_model = AgeOfDragonsScenario
    actions = act.ACTIONS

    def initial_state(self, scenario: Any) -> State:
        """Build the starting state from a validated :class:`AgeOfDragonsScenario`."""
        s: AgeOfDragonsScenario = scenario
        fighters = {
            c.name: Fighter(_profile(c), c.pr, c.pd, ALTITUDES.index(c.altitude),
                            dict(c.resources))
            for c in s.combatants
        }
        places = [*fighters, *(m.name for m in s.landmarks)]
        default = RANGES.index(s.default_range)
        ranges = {pair(a, b): default for i, a in enumerate(places) for b in places[i + 1:]
                  if a in fighters or b in fighters}
        # The distance between two landmarks is the GM's description of the field: kept as
        # set (nothing moves a landmark), never defaulted.
        for spec in s.ranges:
            ranges[pair(*spec.between)] = RANGES.index(spec.range)
        return State(
            fighters=fighters, ranges=ranges, grapples=set(),
            landmarks={m.name: m.ground for m in s.landmarks},
            tasks={t.name: Task(t.name, t.difficulty, t.sphere, t.threshold, t.description)
                   for t in s.tasks},
            aggressor=s.aggressor, initiative_sphere=s.initiative_sphere, ground=s.ground,
            max_rounds=s.max_rounds, spot_consumes_dice=s.options.spot_consumes_dice,
        )

    def clone_state(self, state: State) -> State:
        return state.copy()

    def apply_event(self, state: State, event: Event) -> None:
        fold.apply_event(state, event)

    def current_actor(self, state: State) -> str | None:
        if state.result is not None:
            return None
        if state.pending is not None:
            return state.pending.defenders[0]
        return state.turn.actor if state.turn is not None else None

    def why_not(self, state: State, partial: Partial) -> IllegalActionError | None:
        """Why the action put together so far is refused (see :mod:`.legality`)."""
        return legality.why_not(state, partial)

    def step(self, state: State, partial: Partial, field: str) -> Menu | Span | None:
        """The candidates for the next field (see :mod:`.legality`)."""
        return legality.step(state, partial, field)

    def asks(self, state: State, partial: Partial, field: str) -> bool:
        return legality.asks(state, partial, field)

    def verb_label(self, action: type[Action]) -> str:
        return legality.VERB_LABELS.get(action.verb, action.verb)

    def default_verb(self, state: State, verbs: Sequence[str]) -> str:
        """With nothing left but falling or ending the turn, ending it is preselected."""
        if "end" in verbs and set(verbs) <= {"fall", "end"}:
            return "end"
        return verbs[0]

    def resolve(self, state: State, action: Action, rng: Rng, emit: Emit) -> None:
        resolution.resolve(state, action, rng, emit)

    def advance(self, state: State, rng: Rng, emit: Emit) -> None:
        resolution.advance(state, rng, emit)

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        # A fight that ends in an end phase (a landing, the round limit) has already moved
        # the counter on to a round that never began.
        between = state.turn is None and state.turn_index == 0 and state.round > 1
        rounds = state.round - 1 if between else state.round
        return Outcome(state.result[0], state.result[1], rounds)

    def standings(self, state: State) -> Sequence[Standing]:
        return [Standing(f.name, f.profile.side,
                         "dead" if f.dead else "dying" if f.dying else "ok",
                         f.pr, f.profile.pr_max) for f in state.fighters.values()]

    def view(self, state: State, side: str | None = None) -> dict[str, Any]:
        return text.view(state)

    def table(self, state: State) -> tuple[list[str], list[list[str]]]:
        return text.table(state)

    def describe_event(self, event: Event, state: State) -> str | None:
        return text.describe_event(event, state)

    def state_key(self, state: State) -> Hashable:
        """Everything that shapes the rest of the fight, without the round counter."""
        turn, pending = state.turn, state.pending
        return (
            tuple((f.pr, f.pd, f.altitude, tuple(sorted(f.resources.items())), f.dead,
                   f.stunned, f.wing, f.tail, tuple(f.limbs), f.falling_rounds,
                   f.fell_this_round, f.chose_fall) for f in state.fighters.values()),
            tuple(sorted(state.ranges.items())), tuple(sorted(state.grapples)),
            state.order, state.turn_index,
            None if turn is None else (turn.actor, turn.step, turn.spheres,
                                       tuple(sorted(zip(turn.pool, turn.spotted, turn.expended,
                                                        strict=True))),
                                       tuple(sorted(turn.aims.items())),
                                       tuple(sorted(turn.rerolls_used.items()))),
            None if pending is None else (pending.attacker, pending.kind,
                                          tuple(pending.defenders), pending.hits, pending.tn,
                                          pending.damage_bonus, pending.sixes, pending.called),
            state.result,
        )

    def face_classes(self, state: State, count: int, sides: int,
                     ) -> tuple[tuple[int, ...], ...] | None:
        """Faces of a d6 roll that nothing in the fight tells apart (for the exact solver).

        Initiative and death checks count 4+ only.  A ``claw_all`` roller claws with
        every 4+ and never calls a shot (sixes matter only to called shots), so its
        pool is read as 1-3 / 4-6.  Any other pool is read against the attack
        threshold (4+), sixes and every spot and task threshold; a roller whose
        rerolls a random choice picks (one die per face shown) keeps every face.
        Landings add the faces up: every face counts.
        """
        from itertools import pairwise

        from fracas.rules.age_of_dragons.model import ATTACK_THRESHOLD, SPOT_THRESHOLDS

        if sides != 6:
            return None
        turn = state.turn
        if not state.order:
            cuts = {ATTACK_THRESHOLD}  # initiative
        elif turn is None:
            return None  # a landing
        elif state.fighters[turn.actor].dying:
            cuts = {ATTACK_THRESHOLD}  # the death check
        elif turn.step != "pool" or state.pending is not None:
            return None
        else:
            profile = state.fighters[turn.actor].profile
            if profile.policy == "claw_all":
                cuts = {ATTACK_THRESHOLD}
            elif profile.rerolls and profile.policy != "heuristic":
                return None
            else:
                cuts = {ATTACK_THRESHOLD, 6, *SPOT_THRESHOLDS.values(),
                        *(task.threshold for task in state.tasks.values())}
        bounds = [1, *sorted(c for c in cuts if 1 < c <= sides), sides + 1]
        return tuple(tuple(range(a, b)) for a, b in pairwise(bounds))

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of one attack; see :mod:`fracas.rules.age_of_dragons.odds`."""
        values, measure = odds.parse_question(question)
        return odds.attack_distribution(values["pool"], values["pd"], values["tn"],
                                         values["bonus"], values["threshold"], measure)

    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        if name == "heuristic":
            return HeuristicPolicy()
        if name == "claw_all":
            return ClawAllPolicy()
        if name == "search":
            from fracas.ai import search_policy

            return search_policy(self, actor, options)
        if name == "human":
            return HumanPolicy()
        if name == "random":
            return RandomPolicy()
        if name == "scripted":
            return ScriptedPolicy([self.parse_action(t) for t in options.get("script", ())])
        raise ActionSyntaxError(f"age_of_dragons has no policy called {name!r}")

    def policy_for(self, state: State, actor: str) -> Policy:
        if actor == GM or actor not in state.fighters:
            return HeuristicPolicy()
        profile = state.fighters[actor].profile
        return self.policy(profile.policy, actor, {"script": profile.script})
