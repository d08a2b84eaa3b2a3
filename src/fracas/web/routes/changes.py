"""Changing one encounter through a link: the Decide form, acting, the AI's turn, the GM's
Adjust panel (overrides), undo, redo and play to the end.

Every route's link and role are checked first (a dependency), then its form is
read with its CSRF token; under the encounter's lock the link's right to decide
now is checked before anything the form says is used.  The answer is the fresh
panel for htmx, a short JSON status for scripts (``Accept: application/json``:
revision or version, who decides, the verbs on offer, the outcome; the whole
list of legal actions is ``actions.json``'s) or a redirect for a plain form.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from hmac import compare_digest
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from starlette.responses import Response
from starlette.routing import Route

from fracas.core.encounter import Encounter
from fracas.core.errors import (
    ActionSyntaxError,
    FightOverError,
    IllegalActionError,
    NothingToUndoError,
)
from fracas.core.ruleset import GM, Action
from fracas.store import StaleRevisionError
from fracas.store.text import names_in
from fracas.web.adjust import OVERRIDE_FIELD, adjust_view, override_action
from fracas.web.autoplay import play_to_the_end, play_turn
from fracas.web.console import (
    Console,
    Forbidden,
    Posted,
    Viewer,
    acting_viewer,
    blocking,
    console_of,
    gm_viewer,
    read_posted,
    viewer_of,
)
from fracas.web.security import Access
from fracas.web.table import (
    action_from_form,
    decision,
    form_json,
    options_of,
    status,
    version_of,
)
from fracas.web.words import MAX_ACTION_TEXT, parse_typed

__all__ = ["CLICKS", "router"]

router = APIRouter()
#: The endpoints of the changing routes by their last path segment (``decide``, ``act``, ...):
#: :class:`fracas.web.app.Clicks` calls them without the router.
CLICKS: dict[str, Callable[[Request], Awaitable[Response]]] = {}
#: What a change does (in a worker thread): returns the message shown with the fresh panel.
Change = Callable[[Console, Posted], str]
#: A route of this router: the request, the console and the link's checked form.
Handler = Callable[[Request, Console, Posted], Awaitable[Response]]


def posting(action: str, who: Callable[[Viewer], Awaitable[Viewer]]
            ) -> Callable[[Handler], Handler]:
    """Register ``handler`` for POSTs to ``/e/{enc_id}/{token}/<action>``.

    The same steps as the console's FastAPI dependencies, in the same order (the
    link, then its role by ``who``, then the form with its CSRF token), called
    directly: these are the routes every click goes through, and FastAPI's
    dependency solving is the largest part of the framework's work on a request.
    """
    def register(handler: Handler) -> Handler:
        async def endpoint(request: Request) -> Response:
            console = await console_of(request)
            params = request.path_params
            viewer = await who(await viewer_of(params["enc_id"], params["token"], console))
            return await handler(request, console, await read_posted(request, console, viewer))

        router.routes.append(Route(f"/e/{{enc_id}}/{{token}}/{action}", endpoint,
                                   methods=["POST"], name=handler.__name__))
        CLICKS[action] = endpoint
        return handler

    return register


def wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


async def answer_change(request: Request, console: Console, posted: Posted,
                        do: Change) -> Response:
    """Run ``do`` and answer with the fresh panel, a JSON status or a redirect."""
    viewer = posted.viewer
    access = viewer.access
    json_answer = wants_json(request)

    def make() -> Response:
        message, kind, code = "", "info", 200
        try:
            message = do(console, posted)
        except StaleRevisionError as exc:
            message, kind, code = str(exc), "conflict", 409
        except (IllegalActionError, ActionSyntaxError) as exc:
            message, kind, code = str(exc), "error", 422
        except Forbidden as exc:
            message, kind, code = str(exc), "error", 403
        except (NothingToUndoError, FightOverError) as exc:
            message, kind, code = str(exc), "error", 409
        if json_answer:
            now = status(console.store, viewer.enc_id, access, secret=console.secret,
                         memo=console.memo, trust=code < 400)
            return JSONResponse({"ok": code < 400, "error": message if code >= 400 else "",
                                 **now.as_json()}, code)
        hx = request.headers.get("hx-request")
        if hx and code < 400 and not message:
            # The plain fresh panel: the one this link's event streams are pushed, rendered
            # once per revision for both (console.fresh_panel keeps it).
            _, panel_html = console.fresh_panel(viewer.enc_id, viewer.token, access, "")
            return HTMLResponse(panel_html)
        t = console.snapshot(viewer.enc_id, access)
        t.message, t.message_kind = message, kind
        if hx:
            return console.html("panel.html", code, **console.panel_context(t, viewer.token))
        if code < 400:
            return RedirectResponse(viewer.base, 303)
        return console.page(t, viewer, code)

    def held() -> Response:
        # The streams are woken once the answer (the fresh panel) is made: they find it.
        with console.broker.holding():
            return make()

    return await run(held)


async def run(make: Callable[[], Response]) -> Response:
    return await blocking(make)


def fresh(console: Console, posted: Posted) -> Callable[[Encounter[Any]], None]:
    """The optimistic check for a link: the GM's revision, or another viewer's version."""
    access, enc_id, rev = posted.viewer.access, posted.viewer.enc_id, posted.rev

    def check(enc: Encounter[Any]) -> None:
        if access.viewer is None:
            return
        now = version_of(console.secret, console.store, enc, enc_id, access)
        if not compare_digest(now.encode(), rev.encode()):
            raise StaleRevisionError(-1, -1)
    return check


def gm_revision(posted: Posted) -> int | None:
    """The revision the GM's form was made at (other viewers post a version: ``None``)."""
    return None if posted.viewer.access.viewer is not None else number(posted.rev)


def number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return -1


def checked(access: Access, enc: Encounter[Any], action: Action) -> Action:
    sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
    if not access.may_act_for(action.actor, sides):
        raise Forbidden(access.refusal(action.actor))
    return action


def may_decide_now(access: Access, enc: Encounter[Any]) -> str:
    sides = {s.name: s.side for s in enc.ruleset.standings(enc.state)}
    actor = enc.current_actor()
    if actor is None:
        raise FightOverError("the fight is over: nobody has a decision to make")
    if not access.may_act_for(actor, sides):
        raise Forbidden(access.refusal())
    return actor


def names(enc: Encounter[Any], access: Access) -> set[str]:
    """Names a typed action may start with: those the link sees, and the GM (one it
    cannot see reads like one that does not exist, so the answer tells nothing)."""
    everyone = {s.name for s in enc.ruleset.standings(enc.state)}
    if not access.is_gm:
        everyone &= names_in(enc.ruleset.view(enc.state, access.view_side))
    return everyone | {GM}


@posting("decide", acting_viewer)
async def decide(request: Request, console: Console, posted: Posted) -> Response:
    """The Decide form for the choices posted so far (nothing is stored)."""
    viewer, form = posted.viewer, posted.form
    json_answer = wants_json(request)
    hx = bool(request.headers.get("hx-request"))

    def answer_json() -> Response:
        # The steps alone: no listing, table or log is read.
        t = decision(console.store, viewer.enc_id, viewer.access, form,
                     secret=console.secret, memo=console.memo)
        problem, code = "", 200
        if str(form.get("rev", "")) != str(t.revision):
            problem, code = ("the table moved on while you were choosing: "
                             "here is the decision now", 409)
        elif not t.can_act:
            problem, code = f"this link cannot decide for {t.actor or 'anyone'} now", 403
        f = t.form
        steps = form_json(None if problem else f) or {"fields": [], "action": None}
        return JSONResponse({
            "ok": not problem and f is not None and not f.error,
            "error": problem or (f.error if f else "choose a verb"),
            "revision": t.revision, "actor": t.actor,
            "verbs": [v for v, _ in t.verbs],
            "fields": steps["fields"], "action": steps["action"]}, code)

    def make() -> Response:
        if json_answer:
            return answer_json()
        # The Decide fragment shows no log: only a whole panel or page reads it.
        t = console.snapshot(viewer.enc_id, viewer.access, with_log=not hx, chosen=form)
        problem, kind, code = "", "error", 200
        if str(form.get("rev", "")) != str(t.revision):
            problem, kind, code = ("the table moved on while you were choosing: "
                                   "here is the decision now", "conflict", 409)
        elif not t.can_act:
            problem, code = f"this link cannot decide for {t.actor or 'anyone'} now", 403
        if problem:
            if hx:  # the whole panel instead of the fragment: with its log
                t = console.snapshot(viewer.enc_id, viewer.access)
            t.form = None
            t.message, t.message_kind = problem, kind
            if not hx:
                return console.page(t, viewer, code)
            answer = console.html("panel.html", code, **console.panel_context(t, viewer.token))
            answer.headers["HX-Retarget"] = "#live"
            answer.headers["HX-Reswap"] = "outerHTML"
            return answer
        if not hx:
            return console.page(t, viewer)
        return console.html("decide.html", fragment=True,
                            **console.panel_context(t, viewer.token))

    return await run(make)


@posting("adjust", gm_viewer)
async def adjust(request: Request, console: Console, posted: Posted) -> Response:
    """The GM's Adjust panel for the override's values posted so far (nothing is stored)."""
    viewer, form = posted.viewer, posted.form
    hx = bool(request.headers.get("hx-request"))

    def make() -> Response:
        found = adjust_view(console.store, viewer.enc_id, form, console.memo)
        if wants_json(request):
            f = found.form if found is not None else None
            steps = f.as_json() if f is not None else {"fields": [], "action": None}
            error = "no overrides now" if found is None else (
                f.error if f is not None else "choose an override")
            return JSONResponse({"ok": f is not None and not f.error, "error": error,
                                 "verbs": [v for v, _ in found.verbs] if found else [],
                                 "fields": steps["fields"], "action": steps["action"]})
        t = console.snapshot(viewer.enc_id, viewer.access, with_log=not hx)
        t.extra["adjust_chosen"] = form
        if str(form.get("rev", "")) != str(t.revision):
            t.message, t.message_kind = ("the table moved on while you were choosing: "
                                         "check the values again", "conflict")
        if not hx:
            return console.page(t, viewer, origin=str(request.base_url).rstrip("/"))
        return console.html("adjust.html", **console.panel_context(t, viewer.token))

    return await run(make)


def _act(console: Console, posted: Posted) -> str:
    access, form = posted.viewer.access, posted.form
    text = str(form.get("action") or "").strip()
    if len(text) > MAX_ACTION_TEXT:
        raise ActionSyntaxError(f"an action is at most {MAX_ACTION_TEXT} characters")
    check = fresh(console, posted)
    if form.get(OVERRIDE_FIELD):
        # The GM's Adjust panel: an override, whoever's turn it is.
        if not access.is_gm:
            raise Forbidden("only the GM link may adjust the fight")
        console.store.apply(posted.viewer.enc_id, gm_revision(posted),
                            lambda enc: override_action(enc, form))
        return ""
    if not text and form.get("verb"):
        # The Decide form: the role first, then every step's value as offered now.
        def from_form(enc: Encounter[Any]) -> Action:
            may_decide_now(access, enc)
            check(enc)
            # The steps' answers as the form's ``decide`` requests worked them out.
            revision = console.store.held_revision(posted.viewer.enc_id, enc)
            ask = options_of(enc, console.memo, posted.viewer.enc_id, revision)
            return checked(access, enc, action_from_form(enc, form, ask))

        console.store.apply(posted.viewer.enc_id, gm_revision(posted), from_form)
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
        try:
            action = parse_typed(enc.ruleset, text, actor, names(enc, access))
        except ActionSyntaxError as exc:
            raise enc.refusal_behind(exc) from None
        return checked(access, enc, action)

    console.store.apply(posted.viewer.enc_id, gm_revision(posted), choose)
    return ""


def _ai(console: Console, posted: Posted) -> str:
    """The AI plays the actor's whole turn (the link's right to it checked first)."""
    access = posted.viewer.access
    check = fresh(console, posted)

    def first(enc: Encounter[Any]) -> None:
        may_decide_now(access, enc)
        check(enc)

    def allow(enc: Encounter[Any], action: Action) -> Action:
        return checked(access, enc, action)

    return play_turn(console.store, posted.viewer.enc_id, gm_revision(posted), first,
                     console.seats, allow)


def _undo(console: Console, posted: Posted) -> str:
    console.store.undo(posted.viewer.enc_id, number(posted.rev))
    return "the last decision was undone"


def _redo(console: Console, posted: Posted) -> str:
    console.store.redo(posted.viewer.enc_id, number(posted.rev))
    return "the undone decision was restored"


def _auto(console: Console, posted: Posted) -> str:
    return play_to_the_end(console.store, posted.viewer.enc_id, gm_revision(posted),
                           console.seats)


@posting("act", acting_viewer)
async def act(request: Request, console: Console, posted: Posted) -> Response:
    return await answer_change(request, console, posted, _act)


@posting("ai", acting_viewer)
async def ai_turn(request: Request, console: Console, posted: Posted) -> Response:
    return await answer_change(request, console, posted, _ai)


@posting("undo", gm_viewer)
async def undo(request: Request, console: Console, posted: Posted) -> Response:
    return await answer_change(request, console, posted, _undo)


@posting("redo", gm_viewer)
async def redo(request: Request, console: Console, posted: Posted) -> Response:
    return await answer_change(request, console, posted, _redo)


@posting("auto", gm_viewer)
async def play_to_end(request: Request, console: Console, posted: Posted) -> Response:
    return await answer_change(request, console, posted, _auto)
