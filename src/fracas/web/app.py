"""The GM console: a FastAPI app over the event store, rendered with Jinja2 and htmx.

URLs carry the secret: ``/gm/<key>`` is the GM's home (list, create, import,
archive); ``/e/<id>/<token>`` is one encounter as the link's holder may see
it.  Every page listens to ``.../events`` (server-sent events): each committed
change that alters what the link sees is pushed as the link's fresh panel, and
the page patches itself in place (``fracas.js``); ``.../panel?rev=N`` answers
``204`` while ``N`` is still the link's version.
Every change is a POST with a CSRF token; the answer is the fresh panel for
htmx, JSON for scripts (``Accept: application/json``) or a redirect for a
plain form.

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
"""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from hmac import compare_digest
from pathlib import Path
from types import FrameType
from typing import Any, ParamSpec, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.responses import Response

from fracas.core.encounter import Encounter
from fracas.core.errors import (
    ActionSyntaxError,
    FightOverError,
    FracasError,
    IllegalActionError,
    NothingToUndoError,
    ScenarioError,
)
from fracas.core.events import MAX_SEED
from fracas.core.policy import HumanPolicy, Policy, RandomPolicy
from fracas.core.ruleset import GM, Action
from fracas.scenario import load_scenario, parse_scenario
from fracas.scenario.limits import MAX_FILE_BYTES
from fracas.store import EventStore, Link, StaleRevisionError, UnknownEncounterError, decision_rng
from fracas.web.security import CSRF_HEADER, Access, BodySizeLimit, csrf_ok, csrf_token
from fracas.web.table import (
    TableView,
    action_from_form,
    entry_id,
    is_raw,
    plain_words,
    snapshot,
    version_of,
)
from fracas.web.words import MAX_ACTION_TEXT, parse_typed

__all__ = ["DEFAULT_MAX_BODY", "create_app", "find_bundled"]

HERE = Path(__file__).parent
#: Request bodies larger than this (bytes) are refused with 413.
DEFAULT_MAX_BODY = 2 * 1024 * 1024
#: Longest encounter title kept.
MAX_TITLE = 120
#: "Play to the end" stops after this many decisions or seconds.
AUTO_DECISIONS = 5000
AUTO_SECONDS = 20.0
#: Bodies of an encounter's forms (no files) larger than this are refused with 413.
FORM_BYTES = 16 * 1024
#: At most this many fields, each of at most this many characters, in an encounter's form.
MAX_FIELDS = 48
MAX_FIELD_CHARS = 2 * MAX_ACTION_TEXT
#: A server-sent events stream is closed after this long (the browser reconnects).
STREAM_SECONDS = 60.0
#: A comment line keeps an idle stream open through proxies every this many seconds.
HEARTBEAT_SECONDS = 15.0

_P = ParamSpec("_P")
_T = TypeVar("_T")


class BadForm(FracasError):
    """A form too big or malformed (answered 400 or 413 before anything else is done)."""

    exit_code = 2

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Forbidden(FracasError):
    """The link does not allow this (a player acting for another side, a spectator acting)."""

    exit_code = 3


def find_bundled(dirs: Sequence[Path]) -> dict[str, Path]:
    """Scenario files offered on the home page: YAML under ``dirs`` and the rule-set packages."""
    import fracas.rules

    found: dict[str, Path] = {}
    roots = [*dirs, *(Path(p) for p in fracas.rules.__path__)]
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted([*root.rglob("*.yaml"), *root.rglob("*.yml")]):
            if _names_a_ruleset(path):
                key = f"{root.name}/{path.relative_to(root).as_posix()}"
                found.setdefault(key, path)
    return found


def _names_a_ruleset(path: Path) -> bool:
    """A cheap test that a YAML file is a scenario (data files of rule sets are not)."""
    try:
        with path.open(encoding="utf-8") as fh:
            return any(line.startswith("ruleset:") for line in fh)
    except (OSError, UnicodeDecodeError):
        return False


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


async def blocking(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run ``fn`` in a worker thread: the event loop never waits for the store or the rules."""
    return await run_in_threadpool(fn, *args, **kwargs)


class Broker:
    """Wakes the event streams of an encounter when the store commits a change to it."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.closing = False
        self._hooked = False

    def hook_signals(self) -> None:
        """End every stream when the server is asked to stop (SIGINT, SIGTERM).

        The server waits for open responses before it stops, and an event stream
        never ends by itself; so the server's own handlers are chained behind one
        that closes the streams.  Only possible in the main thread (else a stream
        simply ends after :data:`STREAM_SECONDS`).
        """
        if self._hooked or threading.current_thread() is not threading.main_thread():
            return
        self._hooked = True
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(sig)

            def handler(signum: int, frame: FrameType | None, previous: Any = previous) -> None:
                self.closing = True
                loop = self.loop
                if loop is not None and not loop.is_closed():
                    loop.call_soon_threadsafe(self._wake_all)
                if callable(previous):
                    previous(signum, frame)

            signal.signal(sig, handler)

    def _wake_all(self) -> None:
        for events in self.waiters.values():
            for event in events:
                event.set()

    def changed(self, enc_id: str) -> None:
        """Called by the store, from any thread, after a commit."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, enc_id)

    def _wake(self, enc_id: str) -> None:
        for event in self.waiters.get(enc_id, ()):
            event.set()

    def listen(self, enc_id: str) -> asyncio.Event:
        self.loop = asyncio.get_running_loop()
        self.hook_signals()
        event = asyncio.Event()
        self.waiters.setdefault(enc_id, set()).add(event)
        return event

    def leave(self, enc_id: str, event: asyncio.Event) -> None:
        found = self.waiters.get(enc_id)
        if found is not None:
            found.discard(event)
            if not found:
                self.waiters.pop(enc_id, None)


def create_app(store: EventStore, scenario_dirs: Sequence[Path] = (),
               max_body: int = DEFAULT_MAX_BODY) -> FastAPI:
    """Build the console over ``store``; bundled scenarios come from ``scenario_dirs``.

    The GM's home URL is ``/gm/`` + ``app.state.admin_key`` (kept in the database,
    so it survives restarts).
    """
    app = FastAPI(title="fracas GM console", docs_url=None, redoc_url=None, openapi_url=None)
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True)
    env.filters["is_raw"] = lambda e: is_raw(e.kind, e.text)
    env.filters["words"] = lambda e: plain_words(e.kind, e.text)
    secret = store.secret("csrf")
    admin_key = store.secret("admin")
    app.state.store = store
    app.state.admin_key = admin_key
    broker = Broker()
    store.listeners.append(broker.changed)
    app.state.broker = broker
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_middleware(BodySizeLimit, max_bytes=max_body, form_bytes=FORM_BYTES)
    bundled = find_bundled(scenario_dirs)

    def render(name: str, **context: Any) -> str:
        return env.get_template(name).render(**context)

    def html(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(render(name, **context), status_code=status)

    async def ahtml(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(await blocking(render, name, **context), status_code=status)

    def battlefield(ruleset: str) -> str:
        template = env.select_template([f"battlefield/{ruleset}.html",
                                        "battlefield/generic.html"])
        return str(template.name)

    # -- access ------------------------------------------------------------
    def admin(key: str) -> None:
        if not compare_digest(key.encode(), admin_key.encode()):
            raise UnknownEncounterError("no such page")

    async def link_for(enc_id: str, token: str) -> Link:
        if len(enc_id) > 64 or len(token) > 128:
            raise UnknownEncounterError("no such encounter link")
        link = await blocking(store.find_link, enc_id, token)
        if link is None:
            raise UnknownEncounterError("no such encounter link")
        return link

    async def post_form(request: Request, scope: str, *, files: int = 0,
                        part_bytes: int = MAX_FIELD_CHARS) -> dict[str, Any]:
        """The form of a POST, read within its caps, once its CSRF token is known good."""
        if request.headers.get("sec-fetch-site") == "cross-site":
            raise Forbidden("cross-site requests are refused")
        header_token = request.headers.get(CSRF_HEADER)
        if header_token is not None and not csrf_ok(secret, scope, header_token):
            raise Forbidden("missing or wrong CSRF token: reload the page")
        try:
            # The parser's cap is on the encoded field (a quote is 3 bytes); the decoded
            # text is checked against ``part_bytes`` below.
            form = await request.form(max_files=files, max_fields=MAX_FIELDS,
                                      max_part_size=3 * part_bytes)
        except (MultiPartException, HTTPException) as exc:
            raise BadForm(f"bad form: {getattr(exc, 'detail', None) or exc}") from None
        for name, value in form.multi_items():
            if len(name) > 64 or (isinstance(value, str) and len(value) > part_bytes):
                raise BadForm(f"form field {name[:40]!r} is longer than {part_bytes} "
                              "characters", 413)
        offered = header_token or form.get("csrf")
        if not csrf_ok(secret, scope, offered if isinstance(offered, str) else None):
            raise Forbidden("missing or wrong CSRF token: reload the page")
        return dict(form)

    def base_of(enc_id: str, token: str) -> str:
        return f"/e/{enc_id}/{token}"

    def panel_context(t: TableView, token: str) -> dict[str, Any]:
        viewer = t.access.viewer
        role_title = ("GM console" if t.access.is_gm else
                      f"player view of {t.access.side}" if t.access.role == "player" else
                      "spectator view")
        return {"t": t, "base": base_of(t.info.id, token), "role_title": role_title,
                "battlefield": battlefield(t.info.ruleset),
                "line_id": lambda seq: entry_id(secret, viewer, seq),
                "csrf": csrf_token(secret, f"{t.info.id}:{token}")}

    def wants_json(request: Request) -> bool:
        return "application/json" in request.headers.get("accept", "")

    # -- errors ------------------------------------------------------------
    @app.exception_handler(UnknownEncounterError)
    async def not_found(request: Request, exc: UnknownEncounterError) -> Response:
        if wants_json(request):
            return JSONResponse({"ok": False, "error": str(exc)}, 404)
        return html("error.html", 404, message=str(exc), csrf="")

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: {e.get('msg', '')}"
            for e in exc.errors())
        message = f"bad request: {problems}"
        if wants_json(request):
            return JSONResponse({"ok": False, "error": message}, 400)
        return html("error.html", 400, message=message, csrf="")

    @app.exception_handler(BadForm)
    async def bad_form(request: Request, exc: BadForm) -> Response:
        if wants_json(request):
            return JSONResponse({"ok": False, "error": str(exc)}, exc.status)
        return html("error.html", exc.status, message=str(exc), csrf="")

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> Response:
        if wants_json(request):
            return JSONResponse({"ok": False, "error": str(exc)}, 403)
        return html("error.html", 403, message=str(exc), csrf="")

    @app.middleware("http")
    async def headers(request: Request,
                      call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            " connect-src 'self'; frame-ancestors 'none'; form-action 'self'")
        if not request.url.path.startswith("/static/"):
            response.headers["Cache-Control"] = "no-store"
        return response

    # -- the GM's home -----------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    async def landing() -> Response:
        return html("landing.html", csrf="")

    def home_page(key: str, message: str = "", status: int = 200,
                  show_archived: bool = False) -> Response:
        return html("home.html", status, key=key, csrf=csrf_token(secret, "admin"),
                    encounters=store.encounters(include_archived=show_archived),
                    links={i.id: store.links(i.id) for i in store.encounters(True)},
                    bundled=sorted(bundled), message=message, show_archived=show_archived)

    @app.get("/gm/{key}", response_class=HTMLResponse)
    async def home(key: str, archived: int = 0) -> Response:
        admin(key)
        return await blocking(home_page, key, show_archived=bool(archived))

    @app.post("/gm/{key}/create")
    async def create(request: Request, key: str) -> Response:
        admin(key)
        form = await post_form(request, "admin", files=1)
        try:
            seed = int(str(form.get("seed") or 0).strip()[:40])
        except ValueError:
            seed = -1
        if not 0 <= seed < MAX_SEED:
            return await blocking(home_page, key,
                                  "the seed must be a whole number from 0 to 2**63-1", 400)
        upload = form.get("scenario")
        title = str(form.get("title") or "")[:MAX_TITLE]
        raw: bytes | None = None
        filename = ""
        if isinstance(upload, UploadFile) and upload.filename:
            filename = upload.filename[:200]
            # The loader's own cap, checked before the file is read as YAML.
            raw = await upload.read(MAX_FILE_BYTES + 1)
            if len(raw) > MAX_FILE_BYTES:
                return await blocking(home_page, key, f"{filename}: a scenario file is at "
                                      f"most {MAX_FILE_BYTES // 1024} KB", 413)
        choice = str(form.get("bundled") or "")

        def make() -> Response:
            try:
                if raw is not None:
                    try:
                        text = raw.decode("utf-8")
                    except UnicodeDecodeError:
                        raise ScenarioError("the file is not UTF-8 text",
                                            file=filename) from None
                    scenario = parse_scenario(text, filename)
                else:
                    if choice not in bundled:
                        return home_page(key, "choose a bundled scenario or upload one", 400)
                    scenario = load_scenario(bundled[choice])
                info = store.create(scenario, seed, title)
            except FracasError as exc:
                return home_page(key, str(exc), 400)
            gm = next(link for link in store.links(info.id) if link.role == "gm")
            return RedirectResponse(base_of(info.id, gm.token), 303)

        return await blocking(make)

    @app.post("/gm/{key}/import")
    async def import_log(request: Request, key: str) -> Response:
        admin(key)
        form = await post_form(request, "admin", files=1)
        upload = form.get("log")
        if not isinstance(upload, UploadFile) or not upload.filename:
            return await blocking(home_page, key, "choose an exported log (.jsonl) to import",
                                  400)
        filename = upload.filename[:200]
        raw = await upload.read()

        def make() -> Response:
            try:
                info = store.import_log(raw.decode("utf-8"), filename)
            except UnicodeDecodeError:
                return home_page(key, f"{filename}: the file is not UTF-8 text", 400)
            except FracasError as exc:
                return home_page(key, str(exc), 400)
            gm = next(link for link in store.links(info.id) if link.role == "gm")
            return RedirectResponse(base_of(info.id, gm.token), 303)

        return await blocking(make)

    @app.post("/gm/{key}/archive/{enc_id}")
    async def archive(request: Request, key: str, enc_id: str) -> Response:
        admin(key)
        form = await post_form(request, "admin")
        await blocking(store.set_archived, enc_id, form.get("archived", "1") == "1")
        return RedirectResponse(f"/gm/{key}", 303)

    # -- one encounter -----------------------------------------------------
    @app.get("/e/{enc_id}/{token}", response_class=HTMLResponse)
    async def encounter_page(enc_id: str, token: str) -> Response:
        link = await link_for(enc_id, token)

        def make() -> Response:
            t = snapshot(store, enc_id, Access(link.role, link.side), secret=secret)
            return page(t, token, link)

        return await blocking(make)

    def page(t: TableView, token: str, link: Link, status: int = 200) -> HTMLResponse:
        links = store.links(t.info.id) if link.role == "gm" else []
        return html("encounter.html", status, links=links, admin_key=admin_key,
                    **panel_context(t, token))

    def current_version(enc_id: str, access: Access) -> str:
        if access.viewer is None:
            return str(store.info(enc_id).revision)
        with store.live(enc_id) as (enc, _):
            return version_of(secret, store, enc, enc_id, access)

    pushed: OrderedDict[tuple[str, str, str], str] = OrderedDict()
    pushed_lock = threading.Lock()

    def fresh_panel(enc_id: str, token: str, access: Access, known: str) -> tuple[str, str]:
        """The link's version and, if it is not ``known``, its panel as HTML.

        Pages open on the same link (a GM with two tabs) share one rendering.
        """
        if access.viewer is None:
            now = current_version(enc_id, access)
            if now == known:
                return now, ""
            with pushed_lock:
                html_text = pushed.get((enc_id, token, now))
            if html_text is not None:
                return now, html_text
        t = snapshot(store, enc_id, access, secret=secret)
        now = str(t.revision)
        if now == known:
            return now, ""
        html_text = render("panel.html", **panel_context(t, token))
        with pushed_lock:
            pushed[(enc_id, token, now)] = html_text
            while len(pushed) > 64:
                pushed.popitem(last=False)
        return now, html_text

    @app.get("/e/{enc_id}/{token}/panel", response_class=HTMLResponse)
    async def panel(enc_id: str, token: str, rev: str = "") -> Response:
        link = await link_for(enc_id, token)
        access = Access(link.role, link.side)

        def make() -> Response:
            if rev[:64] == current_version(enc_id, access):
                return Response(status_code=204)
            t = snapshot(store, enc_id, access, secret=secret)
            return html("panel.html", **panel_context(t, token))

        return await blocking(make)

    @app.get("/e/{enc_id}/{token}/events")
    async def events(request: Request, enc_id: str, token: str) -> Response:
        """Server-sent events: the link's new version whenever what it sees changes."""
        link = await link_for(enc_id, token)
        access = Access(link.role, link.side)

        async def stream() -> AsyncIterator[str]:
            wake = broker.listen(enc_id)
            try:
                sent = await blocking(current_version, enc_id, access)
                yield f"retry: 1000\nevent: version\ndata: {sent}\n\n"
                ends = time.monotonic() + STREAM_SECONDS
                while time.monotonic() < ends and not broker.closing:
                    try:
                        await asyncio.wait_for(wake.wait(), HEARTBEAT_SECONDS)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    wake.clear()
                    if broker.closing:
                        break
                    now, panel_html = await blocking(fresh_panel, enc_id, token, access, sent)
                    if now != sent:
                        # The fresh panel itself: the page patches it in without asking.
                        sent = now
                        lines = panel_html.replace("\r\n", "\n").replace("\r", "\n")
                        data = "".join(f"data: {line}\n" for line in lines.split("\n"))
                        yield f"event: panel\n{data}\n"
            finally:
                broker.leave(enc_id, wake)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    @app.get("/e/{enc_id}/{token}/log", response_class=HTMLResponse)
    async def whole_log(enc_id: str, token: str) -> Response:
        """Every log entry the link may see (the panel shows only the newest)."""
        link = await link_for(enc_id, token)

        def make() -> Response:
            t = snapshot(store, enc_id, Access(link.role, link.side), log_tail=None,
                         secret=secret)
            return html("log.html", **panel_context(t, token))

        return await blocking(make)

    @app.get("/e/{enc_id}/{token}/state.json")
    async def state_json(enc_id: str, token: str) -> Response:
        link = await link_for(enc_id, token)
        access = Access(link.role, link.side)

        def make() -> Response:
            # Players and spectators get their whole log, numbered 0, 1, 2, ... as they read it.
            t = snapshot(store, enc_id, access, with_actions=True, secret=secret,
                         log_tail=None if access.viewer is not None else 60)
            body = t.as_json()
            body["csrf"] = csrf_token(secret, f"{enc_id}:{token}")
            body["log"] = [{"seq": e.seq, "kind": e.kind, "text": e.text} for e in t.log]
            return JSONResponse(body)

        return await blocking(make)

    @app.get("/e/{enc_id}/{token}/export")
    async def export(enc_id: str, token: str) -> Response:
        link = await link_for(enc_id, token)
        if link.role != "gm":
            raise Forbidden("only the GM link may export the full log")
        text = await blocking(store.export_log, enc_id)
        return PlainTextResponse(
            text, media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="fracas-{enc_id}.jsonl"'})

    def refuse_spectator(access: Access) -> None:
        if access.role == "spectator":
            raise Forbidden("a spectator link cannot act")

    def gm_only(access: Access) -> None:
        if not access.is_gm:
            raise Forbidden("only the GM link may do that")

    async def change(request: Request, enc_id: str, token: str,
                     do: Callable[[Access, dict[str, Any], str], str],
                     role: Callable[[Access], None] = refuse_spectator) -> Response:
        link = await link_for(enc_id, token)
        access = Access(link.role, link.side)
        role(access)  # the role first: nothing else is read for a link that may not do this
        form = await post_form(request, f"{enc_id}:{token}")
        rev = str(form.get("rev", ""))[:64]
        json_answer = wants_json(request)

        def make() -> Response:
            message, kind, status = "", "info", 200
            try:
                message = do(access, form, rev)
            except StaleRevisionError as exc:
                message, kind, status = str(exc), "conflict", 409
            except IllegalActionError as exc:
                message, kind, status = str(exc), "error", 422
            except ActionSyntaxError as exc:
                message, kind, status = str(exc), "error", 422
            except Forbidden as exc:
                message, kind, status = str(exc), "error", 403
            except (NothingToUndoError, FightOverError) as exc:
                message, kind, status = str(exc), "error", 409
            t = snapshot(store, enc_id, access, with_log=not json_answer,
                         with_actions=json_answer, secret=secret)
            t.message, t.message_kind = message, kind
            if json_answer:
                return JSONResponse({"ok": status < 400,
                                     "error": message if status >= 400 else "",
                                     "revision": t.revision,
                                     "log_length": t.log_length if access.sees_hidden else None,
                                     "actor": t.actor, "actions": t.actions,
                                     "outcome": t.outcome}, status)
            if request.headers.get("hx-request"):
                return html("panel.html", status, **panel_context(t, token))
            if status < 400:
                return RedirectResponse(base_of(enc_id, token), 303)
            return page(t, token, link, status)

        return await blocking(make)

    def fresh(access: Access, enc_id: str, rev: str) -> Callable[[Encounter[Any]], None]:
        """The optimistic check for a link: the GM's revision, or another viewer's version."""
        def check(enc: Encounter[Any]) -> None:
            if access.viewer is None:
                return
            now = version_of(secret, store, enc, enc_id, access)
            if not compare_digest(now.encode(), rev.encode()):
                raise StaleRevisionError(-1, -1)
        return check

    def gm_revision(access: Access, rev: str) -> int | None:
        return None if access.viewer is not None else _number(rev)

    def checked(access: Access, enc: Encounter[Any], action: Action) -> Action:
        sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
        if not access.may_act_for(action.actor, sides):
            whose = "a spectator link cannot act" if access.role == "spectator" else \
                f"this link acts only for side {access.side!r}, not for {action.actor}"
            raise Forbidden(whose)
        return action

    def may_decide_now(access: Access, enc: Encounter[Any]) -> str:
        sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
        actor = enc.current_actor()
        if actor is None:
            raise FightOverError("the fight is over: nobody has a decision to make")
        if not access.may_act_for(actor, sides):
            raise Forbidden("a spectator link cannot act" if access.role == "spectator" else
                            f"this link acts only for side {access.side!r}, and it is not "
                            "that side's turn")
        return actor

    @app.post("/e/{enc_id}/{token}/decide")
    async def decide(request: Request, enc_id: str, token: str) -> Response:
        """The Decide form for the choices posted so far (nothing is stored)."""
        link = await link_for(enc_id, token)
        access = Access(link.role, link.side)
        refuse_spectator(access)
        form = await post_form(request, f"{enc_id}:{token}")
        json_answer = wants_json(request)
        hx = bool(request.headers.get("hx-request"))

        def make() -> Response:
            t = snapshot(store, enc_id, access, with_log=not json_answer, chosen=form,
                         secret=secret)
            problem, kind, status = "", "error", 200
            if str(form.get("rev", "")) != str(t.revision):
                problem, kind, status = ("the table moved on while you were choosing: "
                                         "here is the decision now", "conflict", 409)
            elif not t.can_act:
                problem, status = (f"this link cannot decide for {t.actor or 'anyone'} now",
                                   403)
            if json_answer:
                f = t.form
                return JSONResponse({
                    "ok": not problem and f is not None and not f.error,
                    "error": problem or (f.error if f else "choose a verb"),
                    "revision": t.revision, "actor": t.actor,
                    "verbs": [v for v, _ in t.verbs],
                    "fields": [] if problem or f is None else [
                        {"name": x.name, "value": x.value,
                         **({"low": x.low, "high": x.high} if x.is_span else
                            {"choices": [{"value": v, "label": label}
                                         for v, label in x.choices]})}
                        for x in f.fields],
                    "action": None if problem or f is None else f.action}, status)
            if problem:
                t.form = None
                t.message, t.message_kind = problem, kind
                if not hx:
                    return page(t, token, link, status)
                answer = html("panel.html", status, **panel_context(t, token))
                answer.headers["HX-Retarget"] = "#live"
                answer.headers["HX-Reswap"] = "outerHTML"
                return answer
            if not hx:
                return page(t, token, link)
            return html("decide.html", **panel_context(t, token))

        return await blocking(make)

    @app.post("/e/{enc_id}/{token}/act")
    async def act(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: str) -> str:
            text = str(form.get("action") or "").strip()
            if len(text) > MAX_ACTION_TEXT:
                raise ActionSyntaxError(f"an action is at most {MAX_ACTION_TEXT} characters")
            check = fresh(access, enc_id, rev)
            if not text and form.get("verb"):
                # The Decide form: the role first, then every step's value as offered now.
                def from_form(enc: Encounter[Any]) -> Action:
                    may_decide_now(access, enc)
                    check(enc)
                    return checked(access, enc, action_from_form(enc, form))

                store.apply(enc_id, gm_revision(access, rev), from_form)
                return ""
            if not text:
                raise ActionSyntaxError("no action given")

            def choose(enc: Encounter[Any]) -> Action:
                # The role first: a player types only on its own side's turn.
                if access.viewer is not None:
                    may_decide_now(access, enc)
                check(enc)
                # The actor may be left out of typed text: it is the one deciding now.
                actor = enc.current_actor() or GM
                action = parse_typed(enc.ruleset, text, actor, _names(enc))
                return checked(access, enc, action)

            store.apply(enc_id, gm_revision(access, rev), choose)
            return ""
        return await change(request, enc_id, token, do)

    @app.post("/e/{enc_id}/{token}/ai")
    async def ai_turn(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: str) -> str:
            check = fresh(access, enc_id, rev)

            def choose(enc: Encounter[Any]) -> Action:
                may_decide_now(access, enc)
                check(enc)
                return checked(access, enc, ai_choice(enc))

            store.apply(enc_id, gm_revision(access, rev), choose)
            return ""
        return await change(request, enc_id, token, do)

    @app.post("/e/{enc_id}/{token}/undo")
    async def undo(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: str) -> str:
            store.undo(enc_id, _number(rev))
            return "the last decision was undone"
        return await change(request, enc_id, token, do, gm_only)

    @app.post("/e/{enc_id}/{token}/redo")
    async def redo(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: str) -> str:
            store.redo(enc_id, _number(rev))
            return "the undone decision was restored"
        return await change(request, enc_id, token, do, gm_only)

    @app.post("/e/{enc_id}/{token}/auto")
    async def play_to_end(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: str) -> str:
            deadline = time.monotonic() + AUTO_SECONDS
            played = 0
            revision = gm_revision(access, rev)
            while played < AUTO_DECISIONS and time.monotonic() < deadline:
                with store.live(enc_id) as (enc, _):
                    if enc.is_over:
                        break
                revision = store.apply(enc_id, revision, ai_choice)
                played += 1
                # Let other tables' threads have the interpreter between decisions.
                time.sleep(0)
            over = store.info(enc_id).status.startswith("over")
            return f"the AI played {played} decision(s)" + ("" if over else "; not over yet")
        return await change(request, enc_id, token, do, gm_only)

    return app


def _names(enc: Encounter[Any]) -> set[str]:
    return {s.name for s in enc.ruleset.standings(enc.state)} | {GM}


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return -1
