"""The odds beside the Decide form: the forecast of the choice being built, and each
side's win chance from here.

Both are fetched by the page after it is shown (``odds.html``, included by the Decide
form), so neither ever delays a page or a click:

* ``GET .../odds?verb=...&f_<field>=...`` answers the forecast of the decision as the
  form now stands (:meth:`fracas.core.encounter.Encounter.forecast`), for the link that
  may make it, read as that link's side may read it (the rule set leaves out what the
  side's view lacks).  The form asks again each time it changes.
* ``GET .../odds/win?shown=TAG`` answers the win-chance panel.  The estimate
  (:mod:`fracas.sim.from_here`: fights played on from the position, and the exact
  answer where the duel solver's small budget suffices) runs in one background worker
  process, one position at a time; until it is ready the panel says so and asks again.
  Once shown, the panel asks every few seconds and gets ``204`` until a decision moves
  the table on.  The GM always sees it; a side's or spectator's link only while the
  rule set's view for it hides nothing (it is worked out from the true state).
"""

from __future__ import annotations

import atexit
import hashlib
import multiprocessing
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from fracas.core.cache import Lru
from fracas.core.errors import FracasError
from fracas.core.forecast import Forecast, number, percent
from fracas.web.console import Console, ConsoleDep, Viewer, ViewerDep, blocking
from fracas.web.security import Access
from fracas.web.table import FIELD_PREFIX, action_from_form, decide_form, options_of

__all__ = ["WIN_FIGHTS", "WIN_POLL_SECONDS", "close_estimates", "router"]

router = APIRouter()

#: Fights played on from each position for the win chance.
WIN_FIGHTS = 200
#: How often a shown win-chance panel asks whether the table moved on.
WIN_POLL_SECONDS = 3
#: The query of a forecast: at most this many fields, each at most this long.
_MAX_PARAMS = 24
_MAX_CHARS = 200
#: Positions whose win chance is kept (done or under way).
_KEPT = 64


# -- the forecast of the choice being built ----------------------------------------------
def _posted(request: Request) -> dict[str, str]:
    """The form's values from the query: the verb and the ``f_`` fields, bounded."""
    out: dict[str, str] = {}
    for key, value in list(request.query_params.multi_items())[:_MAX_PARAMS]:
        if key == "verb" or key.startswith(FIELD_PREFIX):
            out[key[:_MAX_CHARS]] = value[:_MAX_CHARS]
    return out


def forecast_for(console: Console, viewer: Viewer, posted: dict[str, str],
                 ) -> tuple[bool, Forecast | None]:
    """Whether ``viewer`` may make the decision now, and the forecast of the one the posted
    form names (``None`` when the form names no whole action or it rolls nothing)."""
    access = viewer.access
    with console.store.live(viewer.enc_id) as (enc, revision):
        sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
        if not access.may_act_for(enc.current_actor(), sides):
            return False, None
        if not posted.get("verb"):
            return True, None
        ask = options_of(enc, console.memo, viewer.enc_id, revision)
        form = decide_form(enc, posted, None, ask)
        if form.action is None:
            return True, None
        whole = {"verb": form.verb, **{x.form_name: x.value for x in form.fields}}
        try:
            action = action_from_form(enc, whole, ask)
            return True, enc.forecast(action, side=access.view_side)
        except FracasError:
            return True, None


@router.get("/e/{enc_id}/{token}/odds", response_class=HTMLResponse)
async def forecast(request: Request, viewer: ViewerDep, console: ConsoleDep) -> Response:
    """The forecast of the choice the Decide form shows (an HTML fragment; ``204`` for a
    link that cannot make the decision now)."""
    posted = _posted(request)

    def make() -> Response:
        may, found = forecast_for(console, viewer, posted)
        if not may:
            return Response(status_code=204)
        return console.html("odds.html", part="forecast", forecast=found, percent=percent,
                            number=number)

    return await blocking(make)


# -- the win chance from here --------------------------------------------------------------
class _Estimates:
    """Each position's estimate, done or under way, worked out in one worker process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.found: Lru[tuple[str, int], Future[Any]] = Lru(_KEPT)
        self.pool: ProcessPoolExecutor | None = None

    def executor(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # A fresh interpreter (never a fork of the threaded server), one at a time.
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            atexit.register(self.pool.shutdown, wait=False, cancel_futures=True)
        return self.pool

    def forget(self, key: tuple[str, int]) -> None:
        """Drop a position's failed estimate (a new pool if the worker died), to try again."""
        with self.lock:
            self.found.pop(key)
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker, even in the middle of an estimate (the server is stopping).

        Shutting the pool down only cancels the estimates still waiting; the one under
        way would hold the interpreter's exit until it ends, so its process is ended.
        """
        with self.lock:
            pool, self.pool = self.pool, None
            self.found.clear()
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()

    def get(self, key: tuple[str, int], start: Any) -> Future[Any]:
        with self.lock:
            found = self.found.get(key)
            if found is None:
                found = start(self.executor())
                for _, old in self.found.put(key, found):
                    old.cancel()
            return found


_ESTIMATES = _Estimates()


def close_estimates() -> None:
    """Stop the win-chance worker (when the server stops)."""
    _ESTIMATES.close()


def _estimate(spec: Any, swapped: tuple[str, ...], seed: int,
              ) -> tuple[tuple[str, ...], str, str]:
    """The worker's job: the estimate's lines, its kind and a one-line summary (or no
    lines and why there is none)."""
    from fracas.sim.from_here import estimate

    try:
        found = estimate(spec, swapped, fights=WIN_FIGHTS, seed=seed)
    except FracasError as exc:
        return (), str(exc), ""
    if found.exact:
        summary = ", ".join(f"{s.side} {(s.exact or 0) * 100:.0f}%" for s in found.sides)
    else:
        summary = ", ".join(f"{s.side} {s.low * 100:.0f}\u2013{s.high * 100:.0f}%"
                            for s in found.sides)
    return found.lines(), ("exact" if found.exact else "estimate"), summary


def _sees_all(enc: Any, access: Access) -> bool:
    """True when nothing is hidden from the link now (its view is the GM's)."""
    if access.is_gm:
        return True
    ruleset, state = enc.ruleset, enc.state
    return bool(ruleset.view(state, access.view_side) == ruleset.view(state, None))


def _tag(console: Console, viewer: Viewer, revision: int) -> str:
    """What a shown panel sends back: says nothing of the revision to a non-GM link."""
    text = f"{console.secret}\x00{viewer.enc_id}\x00{viewer.token}\x00{revision}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def win_panel(console: Console, viewer: Viewer, shown: str) -> tuple[int, dict[str, Any]]:
    """The win-chance panel's status and context for ``viewer`` (``204``: nothing new)."""
    from fracas.sim.from_here import spec_from_here

    with console.store.live(viewer.enc_id) as (enc, revision):
        tag = _tag(console, viewer, revision)
        if not _sees_all(enc, viewer.access):
            if shown == tag:
                return 204, {}
            return 200, {"tag": tag, "state": "secret"}
        if enc.is_over:
            return (204, {}) if shown == tag else (200, {"tag": tag, "state": "over"})
        key = (viewer.enc_id, revision)
        header, events = enc.header, list(enc.log)
        ruleset = enc.ruleset

    def start(pool: ProcessPoolExecutor) -> Future[Any]:
        if header is None:
            done: Future[Any] = Future()
            done.set_result(((), "this fight has no scenario to play on from", ""))
            return done
        try:
            spec, swapped = spec_from_here(ruleset, header.scenario, events, viewer.enc_id)
        except FracasError as exc:
            failed: Future[Any] = Future()
            failed.set_result(((), str(exc), ""))
            return failed
        return pool.submit(_estimate, spec, swapped, revision)

    future = _ESTIMATES.get(key, start)
    if not future.done():
        return 200, {"tag": "", "state": "working"}
    if shown == tag:
        return 204, {}
    try:
        lines, kind, summary = future.result()
    except Exception as exc:  # a worker that died: said in words, tried again next time
        _ESTIMATES.forget(key)
        return 200, {"tag": "", "state": "failed", "why": f"{type(exc).__name__}: {exc}"}
    if not lines:
        return 200, {"tag": tag, "state": "failed", "why": kind}
    return 200, {"tag": tag, "state": "ready", "lines": lines, "kind": kind, "summary": summary}


@router.get("/e/{enc_id}/{token}/odds/win", response_class=HTMLResponse)
async def win_chance(viewer: ViewerDep, console: ConsoleDep, shown: str = "") -> Response:
    """The win-chance panel: ready, under way, or ``204`` while it is still the one shown."""
    def make() -> Response:
        status, context = win_panel(console, viewer, shown[:64])
        if status == 204:
            return Response(status_code=204)
        return console.html("odds.html", part="win", poll=WIN_POLL_SECONDS,
                            base=viewer.base, **context)

    return await blocking(make)
