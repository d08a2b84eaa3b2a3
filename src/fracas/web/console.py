"""The console's shared parts: one :class:`Console` per app, and the routes' dependencies.

The :class:`Console` holds the store, the templates, the server's secrets, the
broker that wakes event streams, and a :class:`~fracas.web.table.Memo` of what
is worked out once per encounter revision (each viewer's picture, the verbs on
offer, rendered panels).  The FastAPI dependencies below give each route what it
may use, in the order the rules ask for: the link (an unknown one is a ``404``),
then the link's role (a spectator may not act; only the GM undoes), and only
then the form, read within its caps once its CSRF token is known good.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from hmac import compare_digest
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar
from urllib.parse import unquote_plus, urlencode

from fastapi import Depends, Request
from jinja2 import (
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    FunctionLoader,
    select_autoescape,
)
from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.responses import HTMLResponse

from fracas.core.cache import Lru
from fracas.core.errors import FracasError
from fracas.store import EventStore, Link, LogEntry, UnknownEncounterError
from fracas.web.adjust import AdjustView, adjust_view, override_verbs
from fracas.web.autoplay import Seats
from fracas.web.broker import Broker
from fracas.web.hosts import qr_svg
from fracas.web.security import CSRF_HEADER, Access, csrf_ok, csrf_token, names_in_words
from fracas.web.table import (
    RULESET_TEMPLATE,
    Memo,
    TableView,
    entry_id,
    is_raw,
    plain_words,
    snapshot,
    version_of,
)
from fracas.web.words import MAX_ACTION_TEXT

__all__ = ["FORM_BYTES", "MAX_FIELDS", "BadForm", "Console", "Forbidden", "LinkRow", "Posted",
           "Viewer", "blocking", "find_bundled", "link_row", "read_posted", "role_title_of"]

HERE = Path(__file__).parent
#: Bodies of an encounter's forms (no files) larger than this are refused with 413.
FORM_BYTES = 16 * 1024
#: Rendered log lines kept (oldest first out): sixty a panel, for many tables and links.
LOG_LINES_KEPT = 20_000
#: A panel being rendered by another thread is waited for at most this long.
PANEL_WAIT_SECONDS = 5.0
#: Links whose newest panel is kept for their event streams (all forgotten past this).
NEWEST_PANELS_KEPT = 10_000
#: Rendered parts of panels (``Console.keep``) kept (oldest first out).
PARTS_KEPT = 4_096
#: At most this many fields, each of at most this many characters, in an encounter's form.
MAX_FIELDS = 48
MAX_FIELD_CHARS = 2 * MAX_ACTION_TEXT

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


#: The worker threads every blocking step runs in (threads are started as needed, up to
#: this many: as many as Starlette's own pool allows).
WORKERS = ThreadPoolExecutor(max_workers=40, thread_name_prefix="fracas-web")


async def blocking(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run ``fn`` in a worker thread: the event loop never waits for the store or the rules.

    The loop's own executor hop (a plain :class:`ThreadPoolExecutor`), not Starlette's
    ``run_in_threadpool``: AnyIO's capacity limiter and cancel scopes around each call
    cost about twice the executor's hop.
    """
    return await asyncio.get_running_loop().run_in_executor(
        WORKERS, partial(fn, *args, **kwargs) if args or kwargs else fn)


def find_bundled(dirs: Sequence[Path]) -> dict[str, Path]:
    """Scenario files offered on the home page: YAML under ``dirs``, the rule-set packages
    and each installed rule set's ``examples`` folder (keyed by its name)."""
    import fracas.rules
    from fracas.scenario.reference import plugin_examples

    found: dict[str, Path] = {}
    roots = [(root.name, root) for root in [*dirs, *(Path(p) for p in fracas.rules.__path__)]]
    for label, root in [*roots, *plugin_examples().items()]:
        if not root.is_dir():
            continue
        for path in sorted([*root.rglob("*.yaml"), *root.rglob("*.yml")]):
            if _names_a_ruleset(path):
                key = f"{label}/{path.relative_to(root).as_posix()}"
                found.setdefault(key, path)
    return found


def _names_a_ruleset(path: Path) -> bool:
    """A cheap test that a YAML file is a scenario (data files of rule sets are not)."""
    try:
        with path.open(encoding="utf-8") as fh:
            return any(line.startswith("ruleset:") for line in fh)
    except (OSError, UnicodeDecodeError):
        return False


def _ruleset_template(name: str) -> str | None:
    """A template a rule set ships in its package: ``ruleset:<package>/<file>``.

    The file is ``templates/<file>`` inside the rule set's package (package data).
    """
    if not name.startswith(RULESET_TEMPLATE):
        return None
    package, _, file = name[len(RULESET_TEMPLATE):].partition("/")
    if not package or not file or ".." in file.split("/"):
        return None
    try:
        return (resources.files(package) / "templates" / file).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, OSError):
        return None


def css_string(text: object) -> Markup:
    r"""``text`` as a quoted CSS string, safe inside a ``<style>`` element: letters, digits
    and a few plain marks stay, every other character is a CSS escape (so no quote, ``<``
    or backslash of a column's name can end the string or the element).

    >>> str(css_string('hope / "hate"'))
    '"hope / \\22 hate\\22 "'
    """
    kept = " -_/.,()'"
    return Markup('"' + "".join(c if c.isalnum() or c in kept else f"\\{ord(c):x} "
                                for c in str(text)) + '"')


#: Most columns, and longest column name, the phone headings' sheet takes.
MAX_COLUMNS, MAX_COLUMN_NAME = 40, 120


def columns_href(columns: Sequence[str]) -> str:
    """The address of the phone headings' sheet of a table with ``columns`` (the first,
    the combatant's name, is shown as the card's title and needs none)."""
    return "/columns.css?" + urlencode([("c", str(c)) for c in columns[1:]])


def columns_css(columns: Sequence[str]) -> str:
    """The phone layout's headings of a combatants' table whose columns after the name are
    ``columns``: cell ``n`` of a row shows its column's name before it.

    >>> print(columns_css(["side"]))
    @media (max-width: 700px) {
    #table td:nth-child(2)::before { content: "side" }
    }
    """
    rules = [f"#table td:nth-child({i})::before {{ content: {css_string(c[:MAX_COLUMN_NAME])} }}"
             for i, c in enumerate(columns[:MAX_COLUMNS], start=2)]
    return "@media (max-width: 700px) {\n" + "".join(r + "\n" for r in rules) + "}"


def role_title_of(access: Access) -> str:
    """Whom a page is for, in words (its title and heading)."""
    if access.is_gm:
        return "GM console"
    if access.is_seat:
        owners = names_in_words(sorted(access.combatants))
        return f"{owners}{chr(39) if owners.endswith('s') else chr(39) + 's'} seat ({access.side})"
    if access.role == "player":
        return f"player view of {access.side}"
    return "spectator view"


@dataclass(frozen=True, slots=True)
class LinkRow:
    """One link as the GM's page lists it: whom it is for and its whole URL (its QR code is
    an image of its own, ``.../qr/<token>.svg``, loaded when the GM opens it)."""

    link: Link
    label: str
    url: str

    @property
    def path(self) -> str:
        """The link's path on this server."""
        return f"/e/{self.link.encounter_id}/{self.link.token}"

    @property
    def css(self) -> str:
        """The anchor's class (scripts and tests find a side's link by it)."""
        if self.link.is_seat:
            return "seat-link"
        return f"link-{self.link.role}" + (f"-{self.link.side}" if self.link.side else "")


def link_row(link: Link, origin: str) -> LinkRow:
    """``link`` with its whole URL (``origin`` + path) and whom it is for, in words."""
    url = f"{origin}/e/{link.encounter_id}/{link.token}"
    if link.is_seat:
        label = f"seat of {names_in_words(list(link.combatants))} ({link.side})"
    elif link.role == "player":
        label = f"side {link.side}"
    else:
        label = {"gm": "GM (keep it secret)", "spectator": "spectators"}.get(
            link.role, link.role)
    return LinkRow(link, label, url)


@dataclass(frozen=True, slots=True)
class Viewer:
    """One encounter link as a request holds it: the link and what it lets its holder do."""

    enc_id: str
    token: str
    link: Link
    access: Access

    @property
    def base(self) -> str:
        return f"/e/{self.enc_id}/{self.token}"

    @property
    def scope(self) -> str:
        """What the link's CSRF token is an HMAC of."""
        return f"{self.enc_id}:{self.token}"


@dataclass(frozen=True, slots=True)
class Posted:
    """A link's POST: the link, its form (read once its role and CSRF token passed)."""

    viewer: Viewer
    form: dict[str, Any]

    @property
    def rev(self) -> str:
        return str(self.form.get("rev", ""))[:64]


class Console:
    """Everything the routes share: the store, templates, secrets, broker and memo."""

    def __init__(self, store: EventStore, scenario_dirs: Sequence[Path] = (),
                 origins: Sequence[str] = ()) -> None:
        self.store = store
        #: Where other machines reach this server (``http://host:port``), as ``fracas serve``
        #: worked it out; empty: the links are written with the address the GM's page used.
        self.origins = list(origins)
        self.env = Environment(
            loader=ChoiceLoader([FileSystemLoader(HERE / "templates"),
                                 FunctionLoader(_ruleset_template)]),
            autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True,
            # Templates do not change while the server runs: no file check (a stat call,
            # which lets another thread have the interpreter) at every template used.
            auto_reload=False)
        self.env.globals["keep"] = self.keep
        self._parts: Lru[str, Markup] = Lru(PARTS_KEPT)
        self._parts_lock = threading.Lock()
        self._panels_busy: dict[tuple[Any, ...], threading.Event] = {}
        self._panels_lock = threading.Lock()
        #: Each link's newest panel: (revision, version, HTML).
        self._newest: dict[tuple[str, str], tuple[int, str, str]] = {}
        self.env.filters["is_raw"] = lambda e: is_raw(e.kind, e.text)
        self.env.filters["words"] = lambda e: plain_words(e.kind, e.text)
        self.env.filters["columns_href"] = columns_href
        self.secret = store.secret("csrf")
        self.admin_key = store.secret("admin")
        self.broker = Broker()
        store.listeners.append(self.broker.changed)
        self.bundled = find_bundled(scenario_dirs)
        self.memo = Memo()
        #: The AI's search seats, kept between the decisions of a fight.
        self.seats = Seats()
        self._lines: Lru[tuple[Any, ...], Markup] = Lru(LOG_LINES_KEPT)
        self._lines_lock = threading.Lock()

    # -- rendering ---------------------------------------------------------------------
    def render(self, name: str, **context: Any) -> str:
        return self.env.get_template(name).render(**context)

    def keep(self, name: str, *inputs: Any, caller: Callable[[], str]) -> Markup:
        """A part of a page rendered once for each value of its inputs (a template's
        ``{% call keep("name", a, b) %}...{% endcall %}``): most clicks change a few
        parts of a panel, and a part that depends on nothing else is rendered again
        only when one of its inputs changes.  The inputs are plain data (the view's
        records, names, strings); the part must depend on them alone, so viewers
        whose inputs are equal may share it (it holds nothing their inputs do not)."""
        key = f"{name}\x00{inputs!r}"
        found = self._parts.peek(key)
        if found is None:
            found = Markup(caller())
            with self._parts_lock:
                self._parts.put(key, found)
        return found

    def html(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(self.render(name, **context), status_code=status)

    def battlefield(self, t: TableView) -> str:
        """The battlefield template: the rule set's own, else the generic picture of the view."""
        names = [t.battlefield] if t.battlefield else []
        template = self.env.select_template([*names, "battlefield/generic.html"])
        return str(template.name)

    def panel_context(self, t: TableView, token: str) -> dict[str, Any]:
        viewer = t.access.viewer
        role_title = role_title_of(t.access)
        secret = self.secret
        enc_id, sees_hidden = t.info.id, t.access.sees_hidden

        def line_html(e: LogEntry) -> Markup:
            return self.log_line(enc_id, viewer, sees_hidden, e)

        def log_lines(entries: Sequence[LogEntry]) -> Markup:
            """The log's lines, newest first, each followed by a line break (joined here
            rather than by a template loop: a panel shows sixty at every change)."""
            line = self.log_line
            lines = [line(enc_id, viewer, sees_hidden, e)
                     for e in reversed(entries) if e.text or e.kind == "dice"]
            return Markup("\n".join(lines) + "\n" if lines else "")

        def adjust_of() -> AdjustView | None:
            """The GM's Adjust panel (worked out only where a template shows it): closed,
            the overrides the rule set has, at no cost; with an override chosen, its steps."""
            if not t.access.is_gm or t.outcome:
                return None
            chosen = t.extra.get("adjust_chosen")
            if chosen is None:
                verbs = override_verbs(t.info.ruleset)
                return None if verbs is None else AdjustView(list(verbs))
            return adjust_view(self.store, enc_id, chosen, self.memo)

        return {"t": t, "base": f"/e/{t.info.id}/{token}", "role_title": role_title,
                "adjust_of": adjust_of,
                "battlefield": self.battlefield(t), "line_html": line_html,
                "log_lines": log_lines,
                "line_id": lambda seq: entry_id(secret, viewer, seq),
                "csrf": csrf_token(secret, f"{t.info.id}:{token}")}

    def log_line(self, enc_id: str, viewer: str | None, sees_hidden: bool,
                 e: LogEntry) -> Markup:
        """One log line's HTML (``log_line.html``), rendered once and kept: a line's
        words never change, and a panel shows sixty of them at every change."""
        faces = tuple(e.data.get("faces") or ()) if e.kind == "dice" else ()
        key = (enc_id, viewer, sees_hidden, e.seq, e.kind, e.text, e.hidden, faces,
               e.data.get("sides") if faces else None)
        found = self._lines.peek(key)
        if found is None:
            macro = self.env.get_template("log_line.html").module.line  # type: ignore[attr-defined]
            found = Markup(macro(e, entry_id(self.secret, viewer, e.seq), sees_hidden))
            with self._lines_lock:
                self._lines.put(key, found)
        return found

    def page(self, t: TableView, viewer: Viewer, status: int = 200, origin: str = "",
             at: int = 0) -> HTMLResponse:
        """The whole page of a link; the GM's also lists every link of the encounter (with a
        copy button and a QR code each) and the form making a new seat.

        ``origin``: the scheme, host and port the links are written with when the server
        was given none (:attr:`origins`); ``at`` picks one of those."""
        rows: list[LinkRow] = []
        others: list[tuple[int, str]] = []
        if viewer.access.is_gm:
            chosen = self.origin_of(origin, at)
            others = [(i, o) for i, o in enumerate(self.origins) if o != chosen]
            rows = [link_row(link, chosen) for link in self.store.links(t.info.id)]
        return self.html("encounter.html", status, links=rows, other_origins=others, at=at,
                         admin_key=self.admin_key, **self.panel_context(t, viewer.token))

    def origin_of(self, origin: str, at: int = 0) -> str:
        """The origin links are written with: the server's ``at``-th address (the first if
        there is no such), else ``origin`` (the address the GM's page used)."""
        if 0 <= at < len(self.origins):
            return self.origins[at]
        return self.origins[0] if self.origins else origin

    def qr_code(self, enc_id: str, token: str, origin: str, at: int = 0) -> str | None:
        """The QR code (SVG) of one of the encounter's links, written as the GM's page
        writes it; ``None`` when the encounter has no such link."""
        found = self.store.find_link(enc_id, token)
        if found is None:
            return None
        row = link_row(found, self.origin_of(origin, at))
        return qr_svg(row.url, f"QR code of the {row.label} link")

    def home_page(self, key: str, message: str = "", status: int = 200,
                  show_archived: bool = False) -> HTMLResponse:
        store = self.store
        return self.html("home.html", status, key=key, csrf=csrf_token(self.secret, "admin"),
                         encounters=store.encounters(include_archived=show_archived),
                         links={i.id: store.links(i.id) for i in store.encounters(True)},
                         bundled=sorted(self.bundled), message=message,
                         show_archived=show_archived)

    def snapshot(self, enc_id: str, access: Access, **options: Any) -> TableView:
        """What ``access`` may see of the table; the usual verb's form is open (so a page
        can confirm the usual action, or change its values, without asking for them)."""
        options.setdefault("open_usual", True)
        return snapshot(self.store, enc_id, access, secret=self.secret, memo=self.memo,
                        **options)

    # -- versions and pushed panels ------------------------------------------------------
    def current(self, enc_id: str, access: Access) -> tuple[int, str]:
        """The encounter's revision and the version ``access`` sees at it."""
        if access.viewer is None:
            revision = self.store.info(enc_id).revision
            return revision, str(revision)
        with self.store.live(enc_id) as (enc, revision):
            return revision, version_of(self.secret, self.store, enc, enc_id, access,
                                        revision, self.memo)

    def fresh_panel(self, enc_id: str, token: str, access: Access, known: str
                    ) -> tuple[str, str]:
        """The link's version and, if it is not ``known``, its panel as HTML.

        The version is worked out first (once per revision and viewer); a panel
        is rendered once per link and revision, so pages open on one link share it.
        """
        revision, now = self.current(enc_id, access)
        if now == known:
            return now, ""
        key = ("panel", enc_id, token, revision, now)
        found = self.memo.peek(key)
        if isinstance(found, str):
            self._newest_panel(enc_id, token, revision, now, found)
            return now, found
        # One render at a time for a link's revision: the answer to a click and the
        # link's event streams, woken by the same commit, ask for it at once (the
        # later ones wait for it rather than render it again).
        with self._panels_lock:
            busy = self._panels_busy.get(key)
            if busy is None:
                mine = self._panels_busy[key] = threading.Event()
        if busy is not None:
            busy.wait(PANEL_WAIT_SECONDS)
            found = self.memo.peek(key)
            if isinstance(found, str):
                return now, found
            return self.fresh_panel(enc_id, token, access, known)
        try:
            t = self.snapshot(enc_id, access)
            now = str(t.revision)
            if now == known:
                return now, ""
            html_text = self.render("panel.html", **self.panel_context(t, token))
            self.memo.put(("panel", enc_id, token, t.at_revision, now), html_text)
            self._newest_panel(enc_id, token, t.at_revision, now, html_text)
            return now, html_text
        finally:
            with self._panels_lock:
                self._panels_busy.pop(key, None)
            mine.set()

    def _newest_panel(self, enc_id: str, token: str, revision: int, version: str,
                      html_text: str) -> None:
        with self._panels_lock:
            if len(self._newest) > NEWEST_PANELS_KEPT:
                self._newest.clear()
            self._newest[(enc_id, token)] = (revision, version, html_text)

    def ready_panel(self, enc_id: str, token: str) -> tuple[str, str] | None:
        """The link's version and panel at the encounter's revision this process knows,
        if already rendered (no file read, no worker thread: an event stream woken
        by a click's commit finds the panel the click's answer rendered); else ``None``."""
        revision = self.store.known_revision(enc_id)
        found = self._newest.get((enc_id, token))
        if revision is None or found is None or found[0] != revision:
            return None
        return found[1], found[2]

    # -- access ----------------------------------------------------------------------------
    def known_viewer(self, enc_id: str, token: str) -> Viewer | None:
        """A link already looked up (links never change once made): no store read."""
        found = self.memo.peek(("link", enc_id, token))
        return found if isinstance(found, Viewer) else None

    def find_viewer(self, enc_id: str, token: str) -> Viewer:
        if len(enc_id) > 64 or len(token) > 128:
            raise UnknownEncounterError("no such encounter link")
        link = self.store.find_link(enc_id, token)
        if link is None:
            raise UnknownEncounterError("no such encounter link")
        viewer = Viewer(enc_id, token, link,
                        Access(link.role, link.side, frozenset(link.combatants)))
        self.memo.put(("link", enc_id, token), viewer)
        return viewer

    def forget_viewer(self, enc_id: str, token: str) -> None:
        """A revoked seat: its link is looked up again (and not found) from now on."""
        self.memo.put(("link", enc_id, token), None)

    async def read_form(self, request: Request, scope: str, *, files: int = 0,
                        part_bytes: int = MAX_FIELD_CHARS) -> dict[str, Any]:
        """The form of a POST, read within its caps, once its CSRF token is known good."""
        if request.headers.get("sec-fetch-site") == "cross-site":
            raise Forbidden("cross-site requests are refused")
        header_token = request.headers.get(CSRF_HEADER)
        if header_token is not None and not csrf_ok(self.secret, scope, header_token):
            raise Forbidden("missing or wrong CSRF token: reload the page")
        items: list[tuple[str, Any]]
        if not files and _media_type(request) == "application/x-www-form-urlencoded":
            # Every click's form: split here (Starlette's parser feeds a generic streaming
            # parser byte callbacks), with the same caps, decoding and last-one-wins keys.
            items = _urlencoded(await request.body(), 3 * part_bytes)
        else:
            try:
                # The parser's cap is on the encoded field (a quote is 3 bytes); the decoded
                # text is checked against ``part_bytes`` below.
                form = await request.form(max_files=files, max_fields=MAX_FIELDS,
                                          max_part_size=3 * part_bytes)
            except (MultiPartException, HTTPException) as exc:
                raise BadForm(f"bad form: {getattr(exc, 'detail', None) or exc}") from None
            items = form.multi_items()
        for name, value in items:
            if len(name) > 64 or (isinstance(value, str) and len(value) > part_bytes):
                raise BadForm(f"form field {name[:40]!r} is longer than {part_bytes} "
                              "characters", 413)
        found = dict(items)
        offered = header_token or found.get("csrf")
        if not csrf_ok(self.secret, scope, offered if isinstance(offered, str) else None):
            raise Forbidden("missing or wrong CSRF token: reload the page")
        return found


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").partition(";")[0].strip().lower()


def _urlencoded(body: bytes, max_part: int) -> list[tuple[str, str]]:
    """The fields of a URL-encoded body, as Starlette's form parser reads them.

    Fields are split on ``&`` (empty ones skipped, a field without ``=`` has an empty
    value); names and values are read as Latin-1 then percent- and plus-decoded as UTF-8;
    a field whose encoded name and value pass ``max_part`` bytes, or more than
    :data:`MAX_FIELDS` fields, make the form bad (``400``).
    """
    items: list[tuple[str, str]] = []
    for chunk in body.split(b"&"):
        if not chunk:
            continue
        name, equals, value = chunk.partition(b"=")
        if len(chunk) - len(equals) > max_part:
            raise BadForm(f"bad form: Field exceeded maximum size of {max_part // 1024}KB.")
        if len(items) == MAX_FIELDS:
            raise BadForm(f"bad form: Too many fields. Maximum number of fields is {MAX_FIELDS}.")
        items.append((unquote_plus(name.decode("latin-1")), unquote_plus(value.decode("latin-1"))))
    return items


# -- dependencies ------------------------------------------------------------------------

async def console_of(request: Request) -> Console:
    """The app's :class:`Console`.

    This and the other dependencies that do no blocking work are ``async``: FastAPI runs a
    plain ``def`` dependency in a worker thread, a hop that cost more than its work.
    """
    found: Console = request.app.state.console
    return found


ConsoleDep = Annotated[Console, Depends(console_of)]


async def viewer_of(enc_id: str, token: str, console: ConsoleDep) -> Viewer:
    """The encounter link of the URL (an unknown one, or a wrong token: ``404``)."""
    known = console.known_viewer(enc_id, token)
    if known is not None:
        return known
    return await blocking(console.find_viewer, enc_id, token)


ViewerDep = Annotated[Viewer, Depends(viewer_of)]


async def acting_viewer(viewer: ViewerDep) -> Viewer:
    """A link that may act (not a spectator's); checked before the form is read."""
    if viewer.access.role == "spectator":
        raise Forbidden("a spectator link cannot act")
    return viewer


async def gm_viewer(viewer: ViewerDep) -> Viewer:
    """The GM's link (undo, redo, play to the end, export); checked before the form is read."""
    if not viewer.access.is_gm:
        raise Forbidden("only the GM link may do that")
    return viewer


async def read_posted(request: Request, console: Console, viewer: Viewer) -> Posted:
    """A link's POST: its form, CSRF-checked (call it once the link's role passed)."""
    return Posted(viewer, await console.read_form(request, viewer.scope))


async def acting_form(request: Request, console: ConsoleDep,
                      viewer: Annotated[Viewer, Depends(acting_viewer)]) -> Posted:
    """An acting link's form, CSRF-checked."""
    return await read_posted(request, console, viewer)


async def gm_form(request: Request, console: ConsoleDep,
                  viewer: Annotated[Viewer, Depends(gm_viewer)]) -> Posted:
    """The GM link's form, CSRF-checked."""
    return await read_posted(request, console, viewer)


async def gm_key(key: str, console: ConsoleDep) -> str:
    """The GM's home key of the URL (a wrong one: ``404``, like an unknown page)."""
    if not compare_digest(key.encode(), console.admin_key.encode()):
        raise UnknownEncounterError("no such page")
    return key


GmKey = Annotated[str, Depends(gm_key)]


async def home_form(request: Request, console: ConsoleDep, key: GmKey) -> dict[str, Any]:
    """A form of the GM's home (no files), CSRF-checked."""
    return await console.read_form(request, "admin")


async def upload_form(request: Request, console: ConsoleDep, key: GmKey) -> dict[str, Any]:
    """A form of the GM's home with one file, CSRF-checked."""
    return await console.read_form(request, "admin", files=1)

