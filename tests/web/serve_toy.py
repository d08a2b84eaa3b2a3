"""Run ``fracas serve`` with the test-only toy rule sets registered (for process-level tests).

Usage: ``python tests/web/serve_toy.py serve --db PATH --port N``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import web_secret_ruleset  # noqa: E402, F401  (registers "toy_secret")

import toy_ruleset  # noqa: E402, F401  (registers "toy")
from fracas.cli.app import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])
