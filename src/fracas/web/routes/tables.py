"""Reading one encounter through a link: the page, its live panel, the event stream,
the whole log, ``state.json``, ``actions.json`` and the GM's export."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    StreamingResponse,
)
from starlette.responses import Response

from fracas.web.console import ConsoleDep, Viewer, ViewerDep, blocking, gm_viewer
from fracas.web.security import csrf_token
from fracas.web.table import form_json, legal_actions

__all__ = ["HEARTBEAT_SECONDS", "MAX_LISTED_ACTIONS", "STREAM_SECONDS", "router"]

#: A server-sent events stream is closed after this long (the browser reconnects).
STREAM_SECONDS = 60.0
#: A stream ended for a newer one asks its page to wait this long before reconnecting.
ENDED_RETRY_MS = 15_000
#: A comment line keeps an idle stream open through proxies every this many seconds.
HEARTBEAT_SECONDS = 15.0
#: ``actions.json`` lists at most this many actions (``complete`` says whether that was all).
MAX_LISTED_ACTIONS = 5000

router = APIRouter()


#: What the GM's page says after a seat was made or revoked (``?note=``).
NOTES = {"seat": "A new seat was made: its link is the last of the list below.",
         "revoked": "The seat was revoked: its link no longer works."}


@router.get("/e/{enc_id}/{token}", response_class=HTMLResponse)
async def encounter_page(request: Request, viewer: ViewerDep, console: ConsoleDep,
                         at: int = 0, note: str = "") -> Response:
    """The link's page (``at``: which of the server's addresses the GM's links use)."""
    def make() -> Response:
        t = console.snapshot(viewer.enc_id, viewer.access)
        if viewer.access.is_gm and note in NOTES:
            t.message = NOTES[note]
        return console.page(t, viewer, origin=str(request.base_url).rstrip("/"), at=at)

    return await blocking(make)


@router.get("/e/{enc_id}/{token}/panel", response_class=HTMLResponse)
async def panel(viewer: ViewerDep, console: ConsoleDep, rev: str = "") -> Response:
    """The live part of the page; ``204`` while ``rev`` is still the link's version."""
    def make() -> Response:
        _, html_text = console.fresh_panel(viewer.enc_id, viewer.token, viewer.access,
                                           rev[:64])
        if not html_text:
            return Response(status_code=204)
        return HTMLResponse(html_text)

    return await blocking(make)


@router.get("/e/{enc_id}/{token}/events")
async def events(request: Request, viewer: ViewerDep, console: ConsoleDep) -> Response:
    """Server-sent events: the link's new panel whenever what it sees changes."""
    broker, enc_id, access = console.broker, viewer.enc_id, viewer.access

    address = request.client.host if request.client else "?"

    async def stream() -> AsyncIterator[str]:
        # At most a few streams a link and a client address: a new one ends the oldest.
        held = broker.open(enc_id, viewer.scope, address)
        wake = held.wake
        try:
            async with broker.starting:  # a few at once: a flood does not fill the workers
                if not held.ended:
                    _, sent = await blocking(console.current, enc_id, access)
            if held.ended:  # replaced already, while it waited for its first answer
                yield f"retry: {ENDED_RETRY_MS}\n: replaced by a newer stream\n\n"
                return
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
                if held.ended:  # a newer stream of this link or address took its place
                    yield f"retry: {ENDED_RETRY_MS}\n: replaced by a newer stream\n\n"
                    break
                ready = console.ready_panel(enc_id, viewer.token)
                if ready is None:
                    now, panel_html = await blocking(console.fresh_panel, enc_id,
                                                     viewer.token, access, sent)
                else:
                    now, panel_html = ready
                if now != sent:
                    # The fresh panel itself: the page patches it in without asking.
                    sent = now
                    lines = panel_html.replace("\r\n", "\n").replace("\r", "\n")
                    data = "".join(f"data: {line}\n" for line in lines.split("\n"))
                    yield f"event: panel\n{data}\n"
        finally:
            broker.close(held)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"X-Accel-Buffering": "no", "Connection": "close"})


@router.get("/e/{enc_id}/{token}/log", response_class=HTMLResponse)
async def whole_log(viewer: ViewerDep, console: ConsoleDep) -> Response:
    """Every log entry the link may see (the panel shows only the newest)."""
    def make() -> Response:
        t = console.snapshot(viewer.enc_id, viewer.access, log_tail=None)
        return console.html("log.html", **console.panel_context(t, viewer.token))

    return await blocking(make)


@router.get("/e/{enc_id}/{token}/state.json")
async def state_json(viewer: ViewerDep, console: ConsoleDep) -> Response:
    """The table for scripts: revision, CSRF token, verbs, view and log (no action list)."""
    access = viewer.access

    def make() -> Response:
        # Players and spectators get their whole log, numbered 0, 1, 2, ... as they read it.
        t = console.snapshot(viewer.enc_id, access,
                             log_tail=None if access.viewer is not None else 60)
        body = t.as_json()
        body["csrf"] = csrf_token(console.secret, viewer.scope)
        body["log"] = [{"seq": e.seq, "kind": e.kind, "text": e.text} for e in t.log]
        body["next"] = form_json(t.form)  # the usual verb's steps, as decide answers them
        return JSONResponse(body)

    return await blocking(make)


@router.get("/e/{enc_id}/{token}/actions.json")
async def actions_json(viewer: ViewerDep, console: ConsoleDep) -> Response:
    """Every legal action the link may take now, typed (for scripts that want the list)."""
    def make() -> Response:
        found, whole = legal_actions(console.store, viewer.enc_id, viewer.access,
                                     MAX_LISTED_ACTIONS)
        return JSONResponse({"actions": found, "complete": whole})

    return await blocking(make)


@router.get("/e/{enc_id}/{token}/qr/{link}.svg")
async def qr_code(request: Request, link: str, viewer: Annotated[Viewer, Depends(gm_viewer)],
                  console: ConsoleDep, at: int = 0) -> Response:
    """The QR code of one of the encounter's links (the GM's page shows it on demand)."""
    origin = str(request.base_url).rstrip("/")
    svg = await blocking(console.qr_code, viewer.enc_id, link[:128], origin, at)
    if svg is None:
        return PlainTextResponse("no such link", 404)
    return Response(svg, media_type="image/svg+xml")


@router.get("/e/{enc_id}/{token}/export")
async def export(viewer: Annotated[Viewer, Depends(gm_viewer)], console: ConsoleDep) -> Response:
    text = await blocking(console.store.export_log, viewer.enc_id)
    return PlainTextResponse(
        text, media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="fracas-{viewer.enc_id}.jsonl"'})
