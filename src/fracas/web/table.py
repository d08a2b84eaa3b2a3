"""The table view: a plain picture of an encounter as one link's holder may see it.

Everything the page needs is copied out of the live encounter while the store
is locked, so rendering never touches a state another request may be changing.
The GM sees the rule set's full ``view`` and ``table``; players see
``view(state, side)`` and the log without hidden events; spectators see what an
outsider would (``view(state, "spectator")``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fracas.core.encounter import Encounter
from fracas.store import EncounterInfo, EventStore, LogEntry
from fracas.web.security import Access

__all__ = ["TableView", "snapshot"]

#: How many log entries the page shows (newest last).
LOG_TAIL = 150
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
    actions: list[str]
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
    message: str = ""
    message_kind: str = "info"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def action_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The legal actions grouped by verb: (verb, [(full text, text without the actor)])."""
        groups: dict[str, list[tuple[str, str]]] = {}
        for text in self.actions:
            words = text.split(" ", 2)
            verb = words[1] if len(words) > 1 else text
            label = " ".join(words[1:]) if len(words) > 1 else text
            groups.setdefault(verb, []).append((text, label))
        return list(groups.items())

    def as_json(self) -> dict[str, Any]:
        """The JSON form served to scripts (``state.json``)."""
        return {"id": self.info.id, "ruleset": self.info.ruleset, "revision": self.revision,
                "round": self.round, "actor": self.actor, "can_act": self.can_act,
                "actions": self.actions, "view": self.view, "outcome": self.outcome,
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


def snapshot(store: EventStore, enc_id: str, access: Access, *,
             with_log: bool = True) -> TableView:
    """Copy out what ``access`` may see of encounter ``enc_id`` (the log only if asked)."""
    info = store.info(enc_id)
    with store.live(enc_id) as (enc, revision):
        picture = _picture(enc, access)
        actor = enc.current_actor()
        sides = picture["sides"]
        can_act = access.may_act_for(actor, sides)
        actions = [str(a) for a in enc.legal_actions()] if can_act else []
        can_undo = access.is_gm and enc.can_undo
        log_length = len(enc.log)
    # Only the tail of the log is shown; read a margin for hidden events a player skips.
    entries = store.entries(enc_id, max(0, log_length - 2 * LOG_TAIL)) if with_log else []
    if not access.sees_hidden:
        entries = [e for e in entries if not e.hidden]
    last_decision = max((i for i, e in enumerate(entries) if e.kind == "decision"), default=0)
    last_dice = [e for e in entries[last_decision:] if e.kind == "dice"]
    return TableView(
        info=info, revision=revision, access=access, round=picture["round"], actor=actor,
        can_act=can_act, actions=actions, columns=picture["columns"], rows=picture["rows"],
        view=picture["view"], sides=sides, order=picture["order"], log=entries[-LOG_TAIL:],
        last_dice=last_dice, outcome=picture["outcome"], can_undo=can_undo,
        can_redo=access.is_gm and store.can_redo(enc_id), log_length=log_length)


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
