"""The GM's seats: a link for one player, acting only for the combatants it names.

The GM makes a seat from the table page (tick the player's combatants, all of one
side) and may revoke it; both are plain forms of the GM's link (its role is
checked before the form is read, the form's CSRF token then), answered with the
page again (a redirect to it, or the page with the refusal).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse
from starlette.responses import Response

from fracas.store import SeatError
from fracas.web.console import ConsoleDep, Posted, Viewer, blocking, gm_viewer, read_posted

__all__ = ["PICK_PREFIX", "router"]

#: The new-seat form's checkboxes are named this prefix and a number; each one's value
#: is a combatant's name.
PICK_PREFIX = "pick"

router = APIRouter()


async def gm_seat_form(request: Request, console: ConsoleDep,
                       viewer: Annotated[Viewer, Depends(gm_viewer)]) -> Posted:
    """The GM link's form (role first, then the CSRF token)."""
    return await read_posted(request, console, viewer)


SeatForm = Annotated[Posted, Depends(gm_seat_form)]


def _back(request: Request, posted: Posted, note: str) -> Response:
    return RedirectResponse(f"{posted.viewer.base}?note={note}#links", 303)


@router.post("/e/{enc_id}/{token}/seats")
async def new_seat(request: Request, console: ConsoleDep, posted: SeatForm) -> Response:
    """A new seat for the ticked combatants."""
    viewer = posted.viewer
    names = [str(v) for k, v in posted.form.items() if k.startswith(PICK_PREFIX) and v]

    def make() -> Response:
        try:
            console.store.add_seat(viewer.enc_id, names)
        except SeatError as exc:
            t = console.snapshot(viewer.enc_id, viewer.access)
            t.message, t.message_kind = str(exc), "error"
            return console.page(t, viewer, 400, origin=_origin(request))
        return _back(request, posted, "seat")

    return await blocking(make)


@router.post("/e/{enc_id}/{token}/seats/remove")
async def remove_seat(request: Request, console: ConsoleDep, posted: SeatForm) -> Response:
    """Revoke a seat: its link stops working at once."""
    viewer = posted.viewer
    token = str(posted.form.get("seat") or "")[:128]

    def make() -> Response:
        if console.store.remove_seat(viewer.enc_id, token):
            console.forget_viewer(viewer.enc_id, token)
        return _back(request, posted, "revoked")

    return await blocking(make)


def _origin(request: Request) -> str:
    """The scheme, host and port the request came to (the links' origin by default)."""
    return str(request.base_url).rstrip("/")
