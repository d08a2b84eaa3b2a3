"""The addresses other machines can use to open the console, and each link's QR code.

``fracas serve --host 0.0.0.0`` listens on every interface, but ``0.0.0.0`` is not an
address a phone can open: the links it prints and the GM's page shows must name
this machine's own addresses.  They are read from the interfaces (no packet is
sent, no name is looked up); a loopback host stays ``127.0.0.1``.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

__all__ = ["WILDCARDS", "interface_addresses", "origins", "public_hosts", "qr_svg"]

#: Hosts that mean "every interface" (IPv4, IPv6 and the empty host).
WILDCARDS = ("0.0.0.0", "::", "")


def interface_addresses() -> dict[str, list[tuple[int, str]]]:
    """This machine's interfaces and their addresses (family, address), read locally
    (``psutil.net_if_addrs``: no network traffic)."""
    import psutil  # type: ignore[import-untyped, unused-ignore]

    return {name: [(int(a.family), str(a.address)) for a in addrs]
            for name, addrs in psutil.net_if_addrs().items()}


def _usable(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address if another machine could use it to reach this one (not loopback,
    link-local, multicast or unspecified), else ``None``."""
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return None
    if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
        return None
    return ip


def public_hosts(host: str, interfaces: Mapping[str, Sequence[tuple[int, str]]] | None = None
                 ) -> list[str]:
    """The hosts to print in links for a server listening on ``host``.

    * a loopback host (``127.0.0.1``, ``localhost``, ``::1``): ``127.0.0.1``
      (``[::1]`` for IPv6's), reachable from this machine only;
    * ``0.0.0.0`` (or ``::``, which also takes IPv6): every address of this
      machine's interfaces that another machine could use, private addresses
      (a home or club network) first, IPv4 before IPv6; ``127.0.0.1`` when the
      machine has none;
    * any other host: itself (IPv6 in brackets).

    ``interfaces`` maps interface names to ``(family, address)`` pairs (by default
    this machine's, :func:`interface_addresses`).

    >>> eth = {"lo": [(2, "127.0.0.1")], "eth0": [(2, "192.168.1.20"), (10, "fe80::1%eth0")]}
    >>> public_hosts("0.0.0.0", eth)
    ['192.168.1.20']
    >>> public_hosts("localhost", eth)
    ['127.0.0.1']
    """
    if host.lower() == "localhost":
        return ["127.0.0.1"]
    try:
        given = ipaddress.ip_address(host) if host else None
    except ValueError:
        return [host]  # a name: the machine's own, as the GM chose it
    if given is not None and given.is_loopback:
        return ["[::1]"] if given.version == 6 else ["127.0.0.1"]
    if host not in WILDCARDS:
        return [f"[{host}]" if ":" in host else host]
    found = interface_addresses() if interfaces is None else interfaces
    ipv6 = host == "::"
    usable: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for _, pairs in sorted(found.items()):
        for family, address in pairs:
            if family not in (socket.AF_INET, socket.AF_INET6):
                continue
            ip = _usable(address)
            if ip is None or (ip.version == 6 and not ipv6) or ip in usable:
                continue
            usable.append(ip)
    usable.sort(key=lambda ip: (ip.version, not ip.is_private))
    shown = [f"[{ip}]" if ip.version == 6 else str(ip) for ip in usable]
    return shown or ["127.0.0.1"]


def origins(host: str, port: int,
            interfaces: Mapping[str, Sequence[tuple[int, str]]] | None = None) -> list[str]:
    """``http://<host>:<port>`` for each of :func:`public_hosts`."""
    return [f"http://{h}:{port}" for h in public_hosts(host, interfaces)]


@lru_cache(maxsize=1024)
def qr_svg(text: str, title: str = "") -> str:
    """``text`` as a QR code: a standalone SVG document drawn by ``segno`` (kept once made).

    Medium error correction, a quiet zone of four modules, three pixels a module.
    """
    import io

    import segno

    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    options: dict[str, Any] = {"kind": "svg", "scale": 3, "border": 4, "dark": "#000",
                               "light": "#fff", "svgclass": "qr", "lineclass": None,
                               "xmldecl": False}
    if title:
        options["title"] = title
    code.save(out, **options)
    return out.getvalue().decode("utf-8")
