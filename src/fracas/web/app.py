"""The GM console: a FastAPI app over the event store, rendered with Jinja2 and htmx.

URLs carry the secret: ``/gm/<key>`` is the GM's home (list, create, import,
archive); ``/e/<id>/<token>`` is one encounter as the link's holder may see
it.  Every page polls ``.../panel?rev=N`` once a second and gets ``204`` until
the log changes.  Every change is a POST with a CSRF token; the answer is the
fresh panel for htmx, JSON for scripts (``Accept: application/json``) or a
redirect for a plain form.

A decision is offered step by step (``Encounter.options``): the Decide panel
shows the verbs as buttons; choosing one (or changing any later value) posts the
choices so far to ``.../decide``, which answers the re-rendered form: every
remaining step with its legal values, the posted value kept while it is still
offered, the step's default otherwise.  The confirm button posts the same
fields to ``.../act``, where they are checked against the offered values again
under the store lock and applied like a typed action.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from hmac import compare_digest
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import UploadFile
from starlette.responses import Response

from fracas.core.codec import with_actor
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
from fracas.store import EventStore, Link, StaleRevisionError, UnknownEncounterError, decision_rng
from fracas.web.security import CSRF_HEADER, Access, BodySizeLimit, csrf_ok, csrf_token
from fracas.web.table import TableView, action_from_form, snapshot

__all__ = ["DEFAULT_MAX_BODY", "create_app", "find_bundled"]

HERE = Path(__file__).parent
#: Request bodies larger than this (bytes) are refused with 413.
DEFAULT_MAX_BODY = 2 * 1024 * 1024
#: Longest encounter title kept.
MAX_TITLE = 120
#: "Play to the end" stops after this many decisions or seconds.
AUTO_DECISIONS = 5000
AUTO_SECONDS = 20.0


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
    secret = store.secret("csrf")
    admin_key = store.secret("admin")
    app.state.store = store
    app.state.admin_key = admin_key
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_middleware(BodySizeLimit, max_bytes=max_body)
    bundled = find_bundled(scenario_dirs)

    def html(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=status)

    def battlefield(ruleset: str) -> str:
        template = env.select_template([f"battlefield/{ruleset}.html",
                                        "battlefield/generic.html"])
        return str(template.name)

    # -- access ------------------------------------------------------------
    def admin(key: str) -> None:
        if not compare_digest(key.encode(), admin_key.encode()):
            raise UnknownEncounterError("no such page")

    def link_for(enc_id: str, token: str) -> Link:
        link = store.find_link(enc_id, token)
        if link is None:
            raise UnknownEncounterError("no such encounter link")
        return link

    async def post_form(request: Request, scope: str) -> dict[str, Any]:
        if request.headers.get("sec-fetch-site") == "cross-site":
            raise Forbidden("cross-site requests are refused")
        form = await request.form()
        offered = request.headers.get(CSRF_HEADER) or form.get("csrf")
        if not csrf_ok(secret, scope, offered if isinstance(offered, str) else None):
            raise Forbidden("missing or wrong CSRF token: reload the page")
        return dict(form)

    def base_of(enc_id: str, token: str) -> str:
        return f"/e/{enc_id}/{token}"

    def panel_context(t: TableView, token: str) -> dict[str, Any]:
        return {"t": t, "base": base_of(t.info.id, token),
                "battlefield": battlefield(t.info.ruleset),
                "csrf": csrf_token(secret, f"{t.info.id}:{token}")}

    # -- errors ------------------------------------------------------------
    @app.exception_handler(UnknownEncounterError)
    async def not_found(request: Request, exc: UnknownEncounterError) -> Response:
        return html("error.html", 404, message=str(exc), csrf="")

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: {e.get('msg', '')}"
            for e in exc.errors())
        message = f"bad request: {problems}"
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse({"ok": False, "error": message}, 400)
        return html("error.html", 400, message=message, csrf="")

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> Response:
        if "application/json" in request.headers.get("accept", ""):
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
            " frame-ancestors 'none'; form-action 'self'")
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
        return home_page(key, show_archived=bool(archived))

    @app.post("/gm/{key}/create")
    async def create(request: Request, key: str) -> Response:
        admin(key)
        form = await post_form(request, "admin")
        try:
            seed = int(str(form.get("seed") or 0).strip())
        except ValueError:
            seed = -1
        if not 0 <= seed < MAX_SEED:
            return home_page(key, "the seed must be a whole number from 0 to 2**63-1", 400)
        upload = form.get("scenario")
        try:
            if isinstance(upload, UploadFile) and upload.filename:
                raw = await upload.read()
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise ScenarioError("the file is not UTF-8 text",
                                        file=upload.filename) from None
                scenario = parse_scenario(text, upload.filename)
            else:
                choice = str(form.get("bundled") or "")
                if choice not in bundled:
                    return home_page(key, "choose a bundled scenario or upload one", 400)
                scenario = load_scenario(bundled[choice])
            info = store.create(scenario, seed, str(form.get("title") or "")[:MAX_TITLE])
        except FracasError as exc:
            return home_page(key, str(exc), 400)
        gm = next(link for link in store.links(info.id) if link.role == "gm")
        return RedirectResponse(base_of(info.id, gm.token), 303)

    @app.post("/gm/{key}/import")
    async def import_log(request: Request, key: str) -> Response:
        admin(key)
        form = await post_form(request, "admin")
        upload = form.get("log")
        if not isinstance(upload, UploadFile) or not upload.filename:
            return home_page(key, "choose an exported log (.jsonl) to import", 400)
        try:
            text = (await upload.read()).decode("utf-8")
            info = store.import_log(text, upload.filename)
        except UnicodeDecodeError:
            return home_page(key, f"{upload.filename}: the file is not UTF-8 text", 400)
        except FracasError as exc:
            return home_page(key, str(exc), 400)
        gm = next(link for link in store.links(info.id) if link.role == "gm")
        return RedirectResponse(base_of(info.id, gm.token), 303)

    @app.post("/gm/{key}/archive/{enc_id}")
    async def archive(request: Request, key: str, enc_id: str) -> Response:
        admin(key)
        form = await post_form(request, "admin")
        store.set_archived(enc_id, form.get("archived", "1") == "1")
        return RedirectResponse(f"/gm/{key}", 303)

    # -- one encounter -----------------------------------------------------
    @app.get("/e/{enc_id}/{token}", response_class=HTMLResponse)
    async def encounter_page(enc_id: str, token: str) -> Response:
        link = link_for(enc_id, token)
        t = snapshot(store, enc_id, Access(link.role, link.side))
        return page(t, token, link)

    def page(t: TableView, token: str, link: Link, status: int = 200) -> HTMLResponse:
        links = store.links(t.info.id) if link.role == "gm" else []
        return html("encounter.html", status, links=links, admin_key=admin_key,
                    **panel_context(t, token))

    @app.get("/e/{enc_id}/{token}/panel", response_class=HTMLResponse)
    async def panel(enc_id: str, token: str, rev: int = -1) -> Response:
        link = link_for(enc_id, token)
        if rev == store.info(enc_id).revision:
            return Response(status_code=204)
        t = snapshot(store, enc_id, Access(link.role, link.side))
        return html("panel.html", **panel_context(t, token))

    @app.get("/e/{enc_id}/{token}/log", response_class=HTMLResponse)
    async def whole_log(enc_id: str, token: str) -> Response:
        """Every log entry the link may see (the panel shows only the newest)."""
        link = link_for(enc_id, token)
        t = snapshot(store, enc_id, Access(link.role, link.side), log_tail=None)
        return html("log.html", **panel_context(t, token))

    @app.get("/e/{enc_id}/{token}/state.json")
    async def state_json(enc_id: str, token: str) -> Response:
        link = link_for(enc_id, token)
        t = snapshot(store, enc_id, Access(link.role, link.side), with_actions=True)
        body = t.as_json()
        body["csrf"] = csrf_token(secret, f"{enc_id}:{token}")
        body["log"] = [{"seq": e.seq, "kind": e.kind, "text": e.text} for e in t.log]
        return JSONResponse(body)

    @app.get("/e/{enc_id}/{token}/export")
    async def export(enc_id: str, token: str) -> Response:
        link = link_for(enc_id, token)
        if link.role != "gm":
            raise Forbidden("only the GM link may export the full log")
        return PlainTextResponse(
            store.export_log(enc_id), media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="fracas-{enc_id}.jsonl"'})

    async def change(request: Request, enc_id: str, token: str,
                     do: Callable[[Access, dict[str, Any], int], str]) -> Response:
        link = link_for(enc_id, token)
        access = Access(link.role, link.side)
        form = await post_form(request, f"{enc_id}:{token}")
        message, kind, status = "", "info", 200
        try:
            rev = int(str(form.get("rev", "")))
        except ValueError:
            rev = -1
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
        wants_json = "application/json" in request.headers.get("accept", "")
        t = snapshot(store, enc_id, access, with_log=not wants_json, with_actions=wants_json)
        t.message, t.message_kind = message, kind
        if wants_json:
            return JSONResponse({"ok": status < 400, "error": message if status >= 400 else "",
                                 "revision": t.revision,
                                 "log_length": t.log_length if access.sees_hidden else None,
                                 "actor": t.actor, "actions": t.actions,
                                 "outcome": t.outcome}, status)
        if request.headers.get("hx-request"):
            return html("panel.html", status, **panel_context(t, token))
        if status < 400:
            return RedirectResponse(base_of(enc_id, token), 303)
        return page(t, token, link, status)

    def checked(access: Access, enc: Encounter[Any], action: Action) -> Action:
        sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
        if not access.may_act_for(action.actor, sides):
            whose = "a spectator link cannot act" if access.role == "spectator" else \
                f"this link acts only for side {access.side!r}, not for {action.actor}"
            raise Forbidden(whose)
        return action

    @app.post("/e/{enc_id}/{token}/decide")
    async def decide(request: Request, enc_id: str, token: str) -> Response:
        """The Decide form for the choices posted so far (nothing is stored)."""
        link = link_for(enc_id, token)
        access = Access(link.role, link.side)
        form = await post_form(request, f"{enc_id}:{token}")
        wants_json = "application/json" in request.headers.get("accept", "")
        t = snapshot(store, enc_id, access, with_log=not wants_json, chosen=form)
        problem, kind, status = "", "error", 200
        if str(form.get("rev", "")) != str(t.revision):
            problem, kind, status = ("the table moved on while you were choosing: "
                                     "here is the decision now", "conflict", 409)
        elif not t.can_act:
            problem, status = ("a spectator link cannot act" if access.role == "spectator" else
                               f"this link cannot decide for {t.actor or 'anyone'} now", 403)
        if wants_json:
            f = t.form
            return JSONResponse({
                "ok": not problem and f is not None and not f.error,
                "error": problem or (f.error if f else "choose a verb"),
                "revision": t.revision, "actor": t.actor,
                "verbs": [v for v, _ in t.verbs],
                "fields": [] if problem or f is None else [
                    {"name": x.name, "value": x.value,
                     **({"low": x.low, "high": x.high} if x.is_span else
                        {"choices": [{"value": v, "label": label} for v, label in x.choices]})}
                    for x in f.fields],
                "action": None if problem or f is None else f.action}, status)
        if problem:
            t.form = None
            t.message, t.message_kind = problem, kind
            if not request.headers.get("hx-request"):
                return page(t, token, link, status)
            answer = html("panel.html", status, **panel_context(t, token))
            answer.headers["HX-Retarget"] = "#live"
            answer.headers["HX-Reswap"] = "outerHTML"
            return answer
        if not request.headers.get("hx-request"):
            return page(t, token, link)
        return html("decide.html", **panel_context(t, token))

    @app.post("/e/{enc_id}/{token}/act")
    async def act(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: int) -> str:
            text = str(form.get("action") or "").strip()
            if not text and form.get("verb"):
                # The Decide form: the role first, then every step's value as offered now.
                def from_form(enc: Encounter[Any]) -> Action:
                    sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
                    actor = enc.current_actor()
                    if actor is None:
                        raise FightOverError("the fight is over: nobody has a decision to make")
                    if not access.may_act_for(actor, sides):
                        raise Forbidden("a spectator link cannot act" if access.role ==
                                        "spectator" else
                                        f"this link acts only for side {access.side!r}, "
                                        f"not for {actor}")
                    return checked(access, enc, action_from_form(enc, form))

                store.apply(enc_id, rev, from_form)
                return ""
            if not text:
                raise ActionSyntaxError("no action given")

            def choose(enc: Encounter[Any]) -> Action:
                # The actor may be left out of typed text: it is the one deciding now.
                actor = enc.current_actor() or GM
                full = with_actor(text, actor, _names(enc))
                return checked(access, enc, enc.ruleset.parse_action(full))

            store.apply(enc_id, rev, choose)
            return ""
        return await change(request, enc_id, token, do)

    @app.post("/e/{enc_id}/{token}/ai")
    async def ai_turn(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: int) -> str:
            store.apply(enc_id, rev, lambda enc: checked(access, enc, ai_choice(enc)))
            return ""
        return await change(request, enc_id, token, do)

    def gm_only(access: Access) -> None:
        if not access.is_gm:
            raise Forbidden("only the GM link may do that")

    @app.post("/e/{enc_id}/{token}/undo")
    async def undo(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: int) -> str:
            gm_only(access)
            store.undo(enc_id, rev)
            return "the last decision was undone"
        return await change(request, enc_id, token, do)

    @app.post("/e/{enc_id}/{token}/redo")
    async def redo(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: int) -> str:
            gm_only(access)
            store.redo(enc_id, rev)
            return "the undone decision was restored"
        return await change(request, enc_id, token, do)

    @app.post("/e/{enc_id}/{token}/auto")
    async def play_to_end(request: Request, enc_id: str, token: str) -> Response:
        def do(access: Access, form: dict[str, Any], rev: int) -> str:
            gm_only(access)
            deadline = time.monotonic() + AUTO_SECONDS
            played = 0
            while played < AUTO_DECISIONS and time.monotonic() < deadline:
                with store.live(enc_id) as (enc, _):
                    if enc.is_over:
                        break
                rev = store.apply(enc_id, rev, ai_choice)
                played += 1
            over = store.info(enc_id).status.startswith("over")
            return f"the AI played {played} decision(s)" + ("" if over else "; not over yet")
        return await change(request, enc_id, token, do)

    return app


def _names(enc: Encounter[Any]) -> set[str]:
    return {s.name for s in enc.ruleset.standings(enc.state)} | {GM}

