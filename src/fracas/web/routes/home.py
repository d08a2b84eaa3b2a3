"""The GM's home: list, create (bundled or uploaded scenario), import, archive."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.datastructures import UploadFile
from starlette.responses import Response

from fracas.core.errors import FracasError, ScenarioError
from fracas.core.events import MAX_SEED
from fracas.scenario import load_scenario, parse_scenario
from fracas.scenario.limits import MAX_FILE_BYTES
from fracas.store import EncounterInfo
from fracas.web.console import (
    ConsoleDep,
    GmKey,
    blocking,
    columns_css,
    home_form,
    upload_form,
)

__all__ = ["MAX_TITLE", "router"]

#: Longest encounter title kept.
MAX_TITLE = 120

router = APIRouter()
HomeForm = Annotated[dict[str, Any], Depends(home_form)]
UploadForm = Annotated[dict[str, Any], Depends(upload_form)]


def _to_gm_link(console: ConsoleDep, info: EncounterInfo) -> Response:
    gm = next(link for link in console.store.links(info.id) if link.role == "gm")
    return RedirectResponse(f"/e/{info.id}/{gm.token}", 303)


@router.get("/columns.css")
async def columns(c: Annotated[list[str], Query()] = []) -> Response:  # noqa: B006
    """The phone layout's headings of a combatants' table (its columns, in order, as
    ``?c=...&c=...``): each cell shows its column's name before it.  The sheet depends on
    its address alone, so a browser keeps it; a page's own ``<style>`` would be refused
    by the pages' content policy."""
    return Response(columns_css(c), media_type="text/css",
                    headers={"cache-control": "public, max-age=31536000, immutable"})


@router.get("/", response_class=HTMLResponse)
async def landing(console: ConsoleDep) -> Response:
    return console.html("landing.html", csrf="")


@router.get("/gm/{key}", response_class=HTMLResponse)
async def home(key: GmKey, console: ConsoleDep, archived: int = 0) -> Response:
    return await blocking(console.home_page, key, show_archived=bool(archived))


@router.post("/gm/{key}/create")
async def create(key: GmKey, console: ConsoleDep, form: UploadForm) -> Response:
    try:
        seed = int(str(form.get("seed") or 0).strip()[:40])
    except ValueError:
        seed = -1
    if not 0 <= seed < MAX_SEED:
        return await blocking(console.home_page, key,
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
            return await blocking(console.home_page, key, f"{filename}: a scenario file is at "
                                  f"most {MAX_FILE_BYTES // 1024} KB", 413)
    choice = str(form.get("bundled") or "")

    def make() -> Response:
        try:
            if raw is not None:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise ScenarioError("the file is not UTF-8 text", file=filename) from None
                scenario = parse_scenario(text, filename)
            else:
                if choice not in console.bundled:
                    return console.home_page(key, "choose a bundled scenario or upload one", 400)
                scenario = load_scenario(console.bundled[choice])
            info = console.store.create(scenario, seed, title)
        except FracasError as exc:
            return console.home_page(key, str(exc), 400)
        return _to_gm_link(console, info)

    return await blocking(make)


@router.post("/gm/{key}/import")
async def import_log(key: GmKey, console: ConsoleDep, form: UploadForm) -> Response:
    upload = form.get("log")
    if not isinstance(upload, UploadFile) or not upload.filename:
        return await blocking(console.home_page, key,
                              "choose an exported log (.jsonl) to import", 400)
    filename = upload.filename[:200]
    raw = await upload.read()

    def make() -> Response:
        try:
            info = console.store.import_log(raw.decode("utf-8"), filename)
        except UnicodeDecodeError:
            return console.home_page(key, f"{filename}: the file is not UTF-8 text", 400)
        except FracasError as exc:
            return console.home_page(key, str(exc), 400)
        return _to_gm_link(console, info)

    return await blocking(make)


@router.post("/gm/{key}/archive/{enc_id}")
async def archive(key: GmKey, enc_id: str, console: ConsoleDep, form: HomeForm) -> Response:
    await blocking(console.store.set_archived, enc_id, form.get("archived", "1") == "1")
    return RedirectResponse(f"/gm/{key}", 303)
