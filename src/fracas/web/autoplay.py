"""The AI's turns in the console: "let the AI play this turn" and "play to the end"."""

from __future__ import annotations

import time
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.errors import FightOverError, FracasError
from fracas.core.policy import HumanPolicy, Policy, RandomPolicy
from fracas.core.ruleset import Action
from fracas.store import EventStore, decision_rng

__all__ = ["AUTO_BATCH_SECONDS", "AUTO_DECISIONS", "AUTO_SECONDS", "ai_choice",
           "play_to_the_end"]

#: "Play to the end" stops after this many decisions or seconds.
AUTO_DECISIONS = 5000
AUTO_SECONDS = 20.0
#: "Play to the end" commits its decisions in groups of about this long a play each.
AUTO_BATCH_SECONDS = 0.05


def _ai_policy(enc: Encounter[Any], actor: str) -> Policy:
    """The scenario's policy for ``actor``; for a human seat, the rule set's heuristic."""
    policy = enc.ruleset.policy_for(enc.state, actor)
    if isinstance(policy, HumanPolicy):
        try:
            policy = enc.ruleset.policy("heuristic", actor, {})
        except FracasError:
            policy = RandomPolicy()
    return policy


def ai_choice(enc: Encounter[Any]) -> Action:
    """What the AI would do now; falls back to a random legal action if the policy fails."""
    actor = enc.current_actor()
    if actor is None:
        raise FightOverError("the fight is over: nobody has a decision to make")
    seed = enc.header.seed if enc.header and enc.header.seed is not None else 0
    rng = decision_rng(seed, len(enc.log), "policy")
    try:
        action = _ai_policy(enc, actor).choose(enc.request(rng))
        enc.check(action)
        return action
    except FracasError:
        return RandomPolicy().choose(enc.request(rng))


def play_to_the_end(store: EventStore, enc_id: str, revision: int | None) -> str:
    """The AI decides for everyone, within the caps.

    The decisions are written in groups (``EventStore.apply_many``): as many as
    :data:`AUTO_BATCH_SECONDS` of play, one commit each group, the table's pages
    told after each.  Between groups the table is let go, so its pages can read it.
    """
    deadline = time.monotonic() + AUTO_SECONDS
    played = 0
    while played < AUTO_DECISIONS and (now := time.monotonic()) < deadline:
        revision, made = store.apply_many(enc_id, revision, ai_choice,
                                          decisions=AUTO_DECISIONS - played,
                                          seconds=min(AUTO_BATCH_SECONDS, deadline - now))
        if not made:
            break
        played += made
        # Let other tables' threads have the interpreter between groups.
        time.sleep(0)
    over = store.info(enc_id).status.startswith("over")
    return f"the AI played {played} decision(s)" + ("" if over else "; not over yet")
