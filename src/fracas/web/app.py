"""The GM console: a FastAPI app over the event store, rendered with Jinja2 and htmx.

URLs carry the secret: ``/gm/<key>`` is the GM's home (list, create, import,
archive); ``/e/<id>/<token>`` is one encounter as the link's holder may see
it.  Every page listens to ``.../events`` (server-sent events): each committed
change that alters what the link sees is pushed as the link's fresh panel, and
the page patches itself in place (``fracas.js``); ``.../panel?rev=N`` answers
``204`` while ``N`` is still the link's version.
Every change is a POST with a CSRF token; the answer is the fresh panel for
htmx, a short JSON status for scripts (``Accept: application/json``) or a
redirect for a plain form.

The routes live in three routers (:mod:`fracas.web.routes`): the GM's home,
reading a table, changing it; what they share (the store, templates, secrets,
the memo of per-revision work) is one :class:`~fracas.web.console.Console`, and
links, roles and CSRF-checked forms come to them as FastAPI dependencies.

Bounded and isolated: bodies are capped before they are read (small for the
encounter's forms, larger for the GM's uploads), the link's role is checked
before the form is read, form fields and typed actions have length caps and
typed actions are split in linear time (:mod:`fracas.web.words`).  Every
blocking step (the store, the rules, rendering) runs in a worker thread, never
on the event loop, under the encounter's own lock, so one table's work (even a
20 s "play to the end") does not hold up another's.

A decision is offered step by step (``Encounter.options``): the Decide panel
shows the verbs as buttons; choosing one (or changing any later value) posts the
choices so far to ``.../decide``, which answers the re-rendered form: every
remaining step with its legal values, the posted value kept while it is still
offered, the step's default otherwise.  The confirm button posts the same
fields to ``.../act``, where they are checked against the offered values again
under the store lock and applied like a typed action.

The web knows no rule set by name: a rule set's table, battlefield template and
per-viewer wording come from its :class:`~fracas.core.presentation.Presentation`.
"""

from __future__ import annotations

import gc
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from fracas.core.errors import FracasError
from fracas.core.ruleset import available_rulesets, find_ruleset
from fracas.store import EventStore, UnknownEncounterError
from fracas.web import routes
from fracas.web.autoplay import AUTO_DECISIONS, AUTO_SECONDS, ai_choice
from fracas.web.console import (
    FORM_BYTES,
    MAX_FIELD_CHARS,
    MAX_FIELDS,
    BadForm,
    Console,
    Forbidden,
    blocking,
    find_bundled,
)
from fracas.web.routes.changes import CLICKS
from fracas.web.routes.home import MAX_TITLE
from fracas.web.routes.odds import close_estimates
from fracas.web.routes.tables import HEARTBEAT_SECONDS, STREAM_SECONDS
from fracas.web.security import BodySizeLimit, SecurityHeaders

__all__ = ["AUTO_DECISIONS", "AUTO_SECONDS", "DEFAULT_MAX_BODY", "FORM_BYTES",
           "HEARTBEAT_SECONDS", "MAX_FIELDS", "MAX_FIELD_CHARS", "MAX_TITLE", "STREAM_SECONDS",
           "BadForm", "Forbidden", "ai_choice", "blocking", "create_app", "find_bundled"]

HERE = Path(__file__).parent
#: Request bodies larger than this (bytes) are refused with 413.
DEFAULT_MAX_BODY = 2 * 1024 * 1024

def create_app(store: EventStore, scenario_dirs: Sequence[Path] = (),
               max_body: int = DEFAULT_MAX_BODY, origins: Sequence[str] = ()) -> FastAPI:
    """Build the console over ``store``; bundled scenarios come from ``scenario_dirs``.

    The GM's home URL is ``/gm/`` + ``app.state.admin_key`` (kept in the database,
    so it survives restarts).  ``origins`` (``http://host:port``, see
    :func:`fracas.web.hosts.origins`) are the addresses the GM's page writes the
    links with, so a phone can open them; by default, the address the page used.
    """
    app = FastAPI(title="fracas GM console", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=_serving)
    console = Console(store, scenario_dirs, origins)
    app.state.console = console
    app.state.store = store
    app.state.admin_key = console.admin_key
    app.state.broker = console.broker
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # Innermost: every click straight to its endpoint (inside the body cap and the headers).
    app.add_middleware(Clicks, answer=lambda request, exc: _error_answer(console, request, exc))
    app.add_middleware(BodySizeLimit, max_bytes=max_body, form_bytes=FORM_BYTES)
    # The changing routes first: every click is one of them, and routes are tried in order.
    for router in (routes.changes, routes.tables, routes.seats, routes.home, routes.odds):
        app.include_router(router)
    _answer_errors(app, console)

    app.add_middleware(SecurityHeaders)
    return app


@asynccontextmanager
async def _serving(app: FastAPI) -> AsyncIterator[None]:
    """When the server starts: every rule set imported, then what is loaded so far frozen.

    Everything alive at start (modules, the app, the rule sets) moves out of the
    garbage collector's reach (``gc.freeze``): a full collection then walks only
    the live encounters, not the whole program, so it does not stall every table
    in the middle of a long "play to the end" (``tests/web/test_isolation.py``).
    """
    await blocking(_load_rule_sets)
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        close_estimates()  # an estimate under way must not hold the exit


def _load_rule_sets() -> None:
    """Import every registered rule set now (the first table need not wait for it)."""
    for name in available_rulesets():
        try:
            find_ruleset(name)
        except (FracasError, ImportError):
            continue  # a broken plug-in is reported when a scenario names it


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


#: The changing routes' paths: ``/e/<id>/<token>/<click>``.
_CLICK_PATH = re.compile(r"/e/([^/]+)/([^/]+)/([a-z]+)")


class Clicks:
    """ASGI middleware: a POST to a changing route goes straight to its endpoint.

    Every click is one of these routes, so it skips FastAPI's exception middleware,
    its exit stack and the match against every route.  The
    endpoint is the router's own (the same link, role and CSRF checks in the same
    order), and its errors are answered as the app's exception handlers answer
    them.  Everything else goes on to the app.
    """

    def __init__(self, app: ASGIApp,
                 answer: Callable[[Request, Exception], Response | None]) -> None:
        self.app = app
        self.answer = answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            found = _CLICK_PATH.fullmatch(scope["path"])
            endpoint = CLICKS.get(found.group(3)) if found else None
            if found is not None and endpoint is not None:
                scope["path_params"] = {"enc_id": found.group(1), "token": found.group(2)}
                request = Request(scope, receive)
                try:
                    response = await endpoint(request)
                except Exception as exc:
                    answered = self.answer(request, exc)
                    if answered is None:
                        raise
                    response = answered
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _error_answer(console: Console, request: Request, exc: Exception) -> Response | None:
    """The app's answer to one of its own errors (``None``: not one of them)."""
    if isinstance(exc, UnknownEncounterError):
        return _answer(console, request, str(exc), 404)
    if isinstance(exc, BadForm):
        return _answer(console, request, str(exc), exc.status)
    if isinstance(exc, Forbidden):
        return _answer(console, request, str(exc), 403)
    return None


def _answer(console: Console, request: Request, message: str, status: int) -> Response:
    if _wants_json(request):
        return JSONResponse({"ok": False, "error": message}, status)
    return console.html("error.html", status, message=message, csrf="")


def _answer_errors(app: FastAPI, console: Console) -> None:
    """Errors are answered in words (JSON for scripts), never with a traceback."""

    def answer(request: Request, message: str, status: int) -> Response:
        return _answer(console, request, message, status)

    @app.exception_handler(UnknownEncounterError)
    async def not_found(request: Request, exc: UnknownEncounterError) -> Response:
        return answer(request, str(exc), 404)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: {e.get('msg', '')}"
            for e in exc.errors())
        return answer(request, f"bad request: {problems}", 400)

    @app.exception_handler(BadForm)
    async def bad_form(request: Request, exc: BadForm) -> Response:
        return answer(request, str(exc), exc.status)

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> Response:
        return answer(request, str(exc), 403)
