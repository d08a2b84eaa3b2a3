"""No refusal tells a side what its view lacks, in any shipped example (issue 34, item 3).

The property: two tables that differ only in what the deciding side cannot see (its
``view`` is the same on both; the GM's is not) give that side the same answer, word for
word, to everything it may try: the decisions offered, each step of a decision with
values offered and values not offered, and typed orders with every field set to every
name on the table (hidden ones included), a name that is no one's, and stray values;
typed both as the library reads them (``parse_action``, ``check``, ``refusal_behind``)
and as the console does for the side's link (its parser, the link's role, the rules).

Which rule sets hide anything, and what a twin table changes:

* AD&D: a side does not see its foes' hit points, breath or Constitution checks: the
  twin gives every living foe other hit points, breath and checks;
* The One Ring: the Company does not see the adversaries' Endurance, Hate (or
  Resolve) and Wounds: the twin gives every adversary standing other numbers;
* BATTLESYSTEM: a side does not see enemy units no unit of its own can see (darkness):
  the twin has those units taken off the field (all but an army's leader, whom the
  army's fixed facts name);
* Age of Dragons hides nothing: every side's view is the whole picture, and
  :func:`test_age_of_dragons_hides_nothing` fails the day that changes (then it needs a
  twin here).

A shipped example of a rule set not named here fails :func:`test_every_rule_set_is_judged`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.core.codec import quote
from fracas.core.encounter import Encounter
from fracas.core.errors import FightOverError, FracasError
from fracas.core.ruleset import GM
from fracas.scenario import load_scenario, start_encounter
from fracas.web.routes.changes import checked, may_decide_now, names
from fracas.web.security import Access
from fracas.web.words import parse_typed

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOBODY = "no-such-name"
STRAY = ("0", "1", "3", "-1", "99", "true", "false", "yes")
#: Decisions walked per seed, and at most how many of them are probed.
WALK, PROBED = 80, 6
#: Legal actions whose fields are varied, per probed decision.
VARIED = 10

Twin = Callable[[Encounter[Any], str, random.Random], Encounter[Any] | None]


def _rebuilt(enc: Encounter[Any], state: Any) -> Encounter[Any]:
    return Encounter(enc.ruleset, state, start=False)


def _adnd_twin(enc: Encounter[Any], side: str, rng: random.Random) -> Encounter[Any] | None:
    state = enc.ruleset.clone_state(enc.state)
    changed = False
    for name, fighter in list(state.fighters.items()):
        profile = state.profile(name)
        if profile.side == side or fighter.hp <= 0:
            continue
        others = [hp for hp in range(1, profile.hp_max + 1) if hp != fighter.hp]
        if not others:
            continue
        state.fighters[name] = dataclasses.replace(
            fighter, hp=rng.choice(others), breath_free=fighter.breath_free + rng.randint(1, 3),
            con_checks=fighter.con_checks + rng.randint(1, 3))
        changed = True
    return _rebuilt(enc, state) if changed else None


def _one_ring_twin(enc: Encounter[Any], side: str, rng: random.Random) -> Encounter[Any] | None:
    from fracas.rules.one_ring.state import ENEMIES

    if side == ENEMIES:
        return None  # the adversaries' side sees everything
    state = enc.ruleset.clone_state(enc.state)
    changed = False
    for name, foe in list(state.foes.items()):
        card = state.roster.foes[name]
        if foe.status != "ok" or foe.endurance <= 0:
            continue
        others = [e for e in range(1, card.endurance_max + 1) if e != foe.endurance]
        state.foes[name] = dataclasses.replace(
            foe, endurance=rng.choice(others) if others else foe.endurance,
            hate=foe.hate + rng.randint(1, 3), wounds=foe.wounds + rng.randint(0, 1))
        changed = True
    return _rebuilt(enc, state) if changed else None


def _battlesystem_twin(enc: Encounter[Any], side: str,
                       rng: random.Random) -> Encounter[Any] | None:
    from fracas.rules.battlesystem.view import _visible

    state = enc.ruleset.clone_state(enc.state)
    leaders = {s.leader for s in state.sides}  # the army's fixed facts name them: kept
    unseen = [name for name, unit in state.units.items()
              if unit.side != side and unit.on_field and not _visible(state, unit, side)
              and name not in leaders]
    if not unseen:
        return None
    for name in unseen:
        del state.units[name]
    state.queue = [n for n in state.queue if n not in unseen]
    return _rebuilt(enc, state)


TWINS: dict[str, Twin] = {"adnd": _adnd_twin, "one_ring": _one_ring_twin,
                          "battlesystem": _battlesystem_twin}
#: Rule sets whose every side sees the whole picture.
OPEN = ("age_of_dragons",)


def _examples(ruleset: str) -> list[Path]:
    return sorted((EXAMPLES / ruleset).glob("*.yaml"))


def _sides(enc: Encounter[Any]) -> dict[str, str]:
    return {s.name: s.side for s in enc.ruleset.standings(enc.state)}


def _library(enc: Encounter[Any], text: str) -> str:
    """What the library answers a typed order: accepted, or the refusal's words."""
    try:
        action = enc.ruleset.parse_action(text)
        enc.check(action)
    except FracasError as exc:
        return str(enc.refusal_behind(exc))
    return "accepted"


def _console(enc: Encounter[Any], access: Access, text: str) -> str:
    """What the console answers the side's link for a typed order (as ``_act`` does)."""
    try:
        may_decide_now(access, enc)
        actor = enc.current_actor() or GM
        try:
            action = parse_typed(enc.ruleset, text, actor, names(enc, access))
        except FracasError as exc:
            raise enc.refusal_behind(exc) from None
        enc.check(checked(access, enc, action))
    except FracasError as exc:
        return str(exc)
    return "accepted"


def _stepped(enc: Encounter[Any], chosen: tuple[Any, ...]) -> str:
    try:
        found = enc.options(chosen)
    except FracasError as exc:
        return str(exc)
    return repr(found.step) if found.step is not None else f"whole: {found.action}"


def _typed(action: Any, field: str, value: str) -> str:
    parts = [quote(action.actor), action.verb]
    for f in dataclasses.fields(action):
        if f.name == "actor":
            continue
        if f.name == field:
            parts.append(f"{field}={value}")
        else:
            raw = getattr(action, f.name)
            parts.append(f"{f.name}={quote(raw) if isinstance(raw, str) else _word(raw)}")
    return " ".join(parts)


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return str(value)


def _probes(enc: Encounter[Any], actor: str, side: str, pool: list[str],
            legal_texts: list[str]) -> Iterator[tuple[str, str]]:
    """Everything the side may try now, each with the answer it gets."""
    access = Access("player", side)
    legal = {str(a): a for a in enc.legal_actions()}
    yield "offered", repr(sorted(legal))
    for text in legal_texts:  # the union of both tables' offers
        yield text, _library(enc, text)
        yield f"console: {text}", _console(enc, access, text)
    for verb in sorted(cls.verb for cls in type(enc.ruleset).actions):
        yield f"step {verb}", _stepped(enc, (verb,))
        for value in pool:
            yield f"step {verb} {value}", _stepped(enc, (verb, value))
        for name in pool:  # a name where the console reads an actor
            yield f"console: {name} {verb}", _console(enc, access, f"{quote(name)} {verb}")
    for text in legal_texts[:VARIED]:
        action = legal.get(text)
        if action is None:
            continue
        for f in dataclasses.fields(action):
            if f.name == "actor":
                continue
            for value in [quote(p) for p in pool] + list(STRAY):
                typed = _typed(action, f.name, value)
                yield typed, _library(enc, typed)
                yield f"console: {typed}", _console(enc, access, typed)


def _pool(enc: Encounter[Any]) -> list[str]:
    return sorted(set(_sides(enc)) | {NOBODY})


def _walk(example: Path, seed: int) -> Iterator[Encounter[Any]]:
    """The encounter at each decision of a random walk through ``example``."""
    enc = start_encounter(load_scenario(example), seed)
    rng = random.Random(seed)
    for _ in range(WALK):
        if enc.current_actor() is None:
            return
        yield enc
        try:
            enc.apply(rng.choice(list(enc.legal_actions())))
        except FightOverError:
            return


def _hidden_cases() -> list[Any]:
    return [pytest.param(ruleset, path, id=f"{ruleset}/{path.stem}")
            for ruleset in sorted(TWINS) for path in _examples(ruleset)]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "example"), _hidden_cases())
def test_a_refusal_is_the_same_whatever_the_side_cannot_see(ruleset: str,
                                                            example: Path) -> None:
    twin_of = TWINS[ruleset]
    probed = 0
    for seed in (0, 1):
        rng = random.Random(1000 + seed)
        for enc in _walk(example, seed):
            actor = enc.current_actor()
            side = _sides(enc).get(actor or "")
            if actor is None or actor == GM or side is None or probed >= PROBED * (seed + 1):
                continue
            twin = twin_of(enc, side, rng)
            if twin is None:
                continue
            view = enc.ruleset.view
            # The twin differs only in what the side cannot see ...
            assert view(twin.state, side) == view(enc.state, side)
            assert view(twin.state, None) != view(enc.state, None)
            pool = _pool(enc)
            offers = sorted({str(a) for a in enc.legal_actions()}
                            | {str(a) for a in twin.legal_actions()})
            here = dict(_probes(enc, actor, side, pool, offers))
            there = dict(_probes(twin, actor, side, pool, offers))
            # ... and the side hears the same words, to everything.
            differ = [k for k in here if here[k] != there.get(k)]
            assert not differ, (f"{example.name}, {actor} ({side}): {differ[0]!r}: "
                                f"{here[differ[0]]!r} / {there.get(differ[0])!r}")
            probed += 1
    if ruleset == "battlesystem" and example.stem in ("cavern_flyers", "dwarf_column_ambush"):
        assert probed > 0, "the walk met no unseen unit"
    if ruleset in ("adnd", "one_ring"):
        assert probed > 0, "the walk met no decision with something hidden"


@pytest.mark.parametrize("example", _examples("age_of_dragons"), ids=lambda p: p.stem)
def test_age_of_dragons_hides_nothing(example: Path) -> None:
    """Every side's view is the GM's whole picture, all through a fight."""
    seen = 0
    for enc in _walk(example, 0):
        full = enc.ruleset.view(enc.state, None)
        for side in set(_sides(enc).values()) | {"spectator"}:
            assert enc.ruleset.view(enc.state, side) == full
        seen += 1
    assert seen > 0


def test_every_rule_set_is_judged() -> None:
    """A shipped example's rule set is either given a twin above or declared open."""
    shipped = {p.parent.name for p in EXAMPLES.glob("*/*.yaml")}
    assert shipped <= set(TWINS) | set(OPEN), shipped - set(TWINS) - set(OPEN)
