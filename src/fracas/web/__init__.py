"""The GM console in the browser (needs the ``web`` extra: FastAPI, Jinja2, uvicorn)."""

try:
    import fastapi  # noqa: F401
    import jinja2  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the fracas web console needs its extra: pip install 'fracas[web]'") from exc

from fracas.web.app import DEFAULT_MAX_BODY, create_app, find_bundled

__all__ = ["DEFAULT_MAX_BODY", "create_app", "find_bundled"]
