"""``fracas serve``: run the GM console on one SQLite file."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer

from fracas.cli.common import console
from fracas.core.errors import FracasError

__all__ = ["default_example_dirs", "serve"]


class ServeError(FracasError):
    """The console cannot be served as asked (no such folder, address in use)."""

    exit_code = 2


def _check_address(host: str, port: int) -> None:
    """Refuse, before the database is opened, an address this machine cannot listen on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ServeError(f"--host {host}: not an address of this machine ({exc})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise ServeError(f"cannot listen on {host}:{port}: "
                             f"{exc.strerror or exc}") from None


def default_example_dirs() -> list[Path]:
    """The example scenarios shipped inside the package (found however fracas was installed)."""
    from fracas.scenario.reference import bundled_examples

    folder = bundled_examples()
    return [folder] if folder.is_dir() else []


def serve(
    db: Annotated[Path, typer.Option(help="The SQLite file holding every encounter.")] = Path(
        "fracas.sqlite"),
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    examples: Annotated[list[Path] | None, typer.Option(
        help="A folder of scenario files to offer as bundled (repeatable).")] = None,
    max_body: Annotated[int, typer.Option(
        min=1024, help="Largest request body accepted, in bytes.")] = 2 * 1024 * 1024,
    header_timeout: Annotated[float, typer.Option(
        min=0.5, help="Seconds a request's headers may take to arrive.")] = 10.0,
    body_timeout: Annotated[float, typer.Option(
        min=0.5, help="Seconds a request's body may take to arrive once its headers "
                      "have.")] = 30.0,
    idle_timeout: Annotated[float, typer.Option(
        min=0.5, help="Seconds a kept-alive connection may wait for its next request.")] = 5.0,
    max_connections_per_address: Annotated[int, typer.Option(
        min=1, help="Open connections one client address may hold.")] = 64,
    max_connections: Annotated[int, typer.Option(
        min=1, help="Open connections in all.")] = 800,
    max_streams_per_link: Annotated[int, typer.Option(
        min=1, help="Open push streams (live pages) one link may hold; a new one closes "
                    "the oldest.")] = 8,
    max_streams_per_address: Annotated[int, typer.Option(
        min=1, help="Open push streams one client address may hold; a new one closes "
                    "the oldest.")] = 32,
) -> None:
    """Serve the GM console in the browser; prints the GM's secret link.

    With ``--host 0.0.0.0`` (or any address other machines can reach) the links are
    printed, and written on the GM's page, with this machine's own addresses, so
    players' phones on the same network can open them."""
    try:
        import uvicorn

        from fracas.store import EventStore
        from fracas.web import create_app
    except ImportError as exc:
        raise typer.BadParameter(f"{exc}: install the extra with pip install 'fracas[web]'") \
            from None
    dirs = examples if examples else default_example_dirs()
    for folder in dirs:
        if not folder.is_dir():
            raise ServeError(f"--examples {folder}: no such folder")
    from fracas.web.hosts import origins

    _check_address(host, port)
    reachable = origins(host, port)
    store = EventStore(db)
    web = create_app(store, dirs, max_body=max_body, origins=reachable)
    for origin in reachable:
        console.print(f"fracas GM console on {origin}/")
    for origin in reachable:
        console.print(f"GM link (keep it secret): {origin}/gm/{web.state.admin_key}",
                      soft_wrap=True)
    try:
        from fracas.web.limits import Limits, bounded_protocol

        limits = Limits(header_timeout, body_timeout, idle_timeout,
                        max_connections_per_address, max_connections,
                        max_streams_per_link, max_streams_per_address)
        web.state.broker.bound(limits.streams_per_link, limits.streams_per_address)
        uvicorn.run(web, host=host, port=port, log_level="warning", access_log=False,
                    http=bounded_protocol(limits), timeout_keep_alive=int(idle_timeout) or 1)
    finally:
        store.close()
