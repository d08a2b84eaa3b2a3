"""The AI's turns in the console: "let the AI play this turn" (the actor's whole turn) and
"play to the end"."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from fracas.ai.search import SearchPolicy
from fracas.core.cache import Lru
from fracas.core.encounter import Encounter
from fracas.core.errors import FightOverError, FracasError
from fracas.core.events import Event
from fracas.core.policy import HumanPolicy, Policy, RandomPolicy
from fracas.core.presentation import possessive, presentation_of
from fracas.core.ruleset import Action
from fracas.store import EventStore, decision_rng

__all__ = ["AUTO_BATCH_SECONDS", "AUTO_DECISIONS", "AUTO_SECONDS", "TURN_DECISIONS", "Seats",
           "ai_choice", "play_to_the_end", "play_turn"]

#: "Play to the end" stops after this many decisions or seconds.
AUTO_DECISIONS = 5000
AUTO_SECONDS = 20.0
#: "Play to the end" commits its decisions in groups of about this long a play each.
AUTO_BATCH_SECONDS = 0.05
#: "Let the AI play this turn" stops after this many decisions (a turn is a few).
TURN_DECISIONS = 200


def _ai_policy(enc: Encounter[Any], actor: str) -> Policy:
    """The scenario's policy for ``actor``; for a human seat, the rule set's heuristic."""
    policy = enc.ruleset.policy_for(enc.state, actor)
    if isinstance(policy, HumanPolicy):
        try:
            policy = enc.ruleset.policy("heuristic", actor, {})
        except FracasError:
            policy = RandomPolicy()
    return policy


class Seats:
    """The AI's ``search`` policies, kept from one decision of a fight to the next.

    A search seat remembers the plan it found and what its turn's time has used, as it
    does through a whole fight in ``fracas simulate``; a policy built afresh at every
    decision would forget both (and ``turn_ms`` would cap nothing).  A kept policy is
    used again only while the fight's log still begins with what it last saw, so after
    an undo the seat starts afresh.  Other policies are built each time, as the
    scenario names them.  At most ``size`` seats are kept, the least recently used
    dropped first.
    """

    def __init__(self, size: int = 64) -> None:
        self._kept: Lru[tuple[str, str], tuple[Policy, int, Event | None]] = Lru(size)
        self._lock = threading.Lock()

    def policy(self, key: str, enc: Encounter[Any], actor: str) -> Policy:
        """The policy of ``actor`` in the fight stored as ``key``, kept or made now."""
        log = enc.log
        mark = (len(log), log[-1] if log else None)
        with self._lock:
            kept = self._kept.get((key, actor))
            if kept is not None:
                policy, seen, last = kept
                if seen <= len(log) and (seen == 0 or log[seen - 1] == last):
                    self._kept.put((key, actor), (policy, *mark))
                    return policy
                self._kept.pop((key, actor))
        policy = _ai_policy(enc, actor)
        if isinstance(policy, SearchPolicy):
            with self._lock:
                self._kept.put((key, actor), (policy, *mark))
        return policy

    def __len__(self) -> int:
        return len(self._kept)


def ai_choice(enc: Encounter[Any], seats: Seats | None = None, key: str = "") -> Action:
    """What the AI would do now; falls back to a random legal action if the policy fails.

    With ``seats`` (and the fight's id as ``key``) a ``search`` seat keeps its plan and
    its turn's clock from one decision to the next.
    """
    actor = enc.current_actor()
    if actor is None:
        raise FightOverError("the fight is over: nobody has a decision to make")
    seed = enc.header.seed if enc.header and enc.header.seed is not None else 0
    rng = decision_rng(seed, len(enc.log), "policy")
    try:
        policy = seats.policy(key, enc, actor) if seats is not None else _ai_policy(enc, actor)
        action = policy.choose(enc.request(rng))
        enc.check(action)
        return action
    except FracasError:
        return RandomPolicy().choose(enc.request(rng))


def play_to_the_end(store: EventStore, enc_id: str, revision: int | None,
                    seats: Seats | None = None) -> str:
    """The AI decides for everyone, within the caps (``seats``: see :func:`ai_choice`).

    The decisions are written in groups (``EventStore.apply_many``): as many as
    :data:`AUTO_BATCH_SECONDS` of play, one commit each group, the table's pages
    told after each.  Between groups the table is let go, so its pages can read it.
    """
    deadline = time.monotonic() + AUTO_SECONDS
    played = 0
    while played < AUTO_DECISIONS and (now := time.monotonic()) < deadline:
        revision, made = store.apply_many(enc_id, revision,
                                          lambda enc: ai_choice(enc, seats, enc_id),
                                          decisions=AUTO_DECISIONS - played,
                                          seconds=min(AUTO_BATCH_SECONDS, deadline - now))
        if not made:
            break
        played += made
        # Let other tables' threads have the interpreter between groups.
        time.sleep(0)
    over = store.info(enc_id).status.startswith("over")
    return f"the AI played {played} decision(s)" + ("" if over else "; not over yet")


def play_turn(store: EventStore, enc_id: str, revision: int | None,
              first: Callable[[Encounter[Any]], None] | None = None,
              seats: Seats | None = None,
              allow: Callable[[Encounter[Any], Action], Action] | None = None) -> str:
    """The AI plays the current actor's whole turn: decision after decision while the
    same actor decides in the same round, until another decides or the fight ends
    (at most :data:`TURN_DECISIONS` decisions, :data:`AUTO_SECONDS` seconds).

    ``first`` checks, under the table's lock and before the first decision, that the
    asker may play this turn (it raises if not); ``allow`` checks each action chosen
    (it returns it, or raises).  The turn's decisions are committed together
    (``EventStore.apply_many``); each is one revision, so undo takes back one at a time.
    Returns what was done, in words.
    """
    whose: list[tuple[str, int]] = []
    said: list[str] = []  # the actor as people read it (the GM by the book's word)

    def choose(enc: Encounter[Any]) -> Action:
        if not whose:
            actor = enc.current_actor()
            if actor is None:
                raise FightOverError("the fight is over: nobody has a decision to make")
            if first is not None:
                first(enc)
            whose.append((actor, enc.ruleset.round_number(enc.state)))
            said.append(presentation_of(enc.ruleset).who(actor))
        action = ai_choice(enc, seats, enc_id)
        return action if allow is None else allow(enc, action)

    def turn_over(enc: Encounter[Any]) -> bool:
        return (enc.current_actor(), enc.ruleset.round_number(enc.state)) != whose[0]

    _, made = store.apply_many(enc_id, revision, choose, decisions=TURN_DECISIONS,
                               seconds=AUTO_SECONDS, stop=turn_over)
    if not made:
        raise FightOverError("the fight is over: nobody has a decision to make")
    actor = said[0] if said else "nobody"
    return f"the AI played {possessive(actor)} turn ({made} decision{'s' if made != 1 else ''})"
