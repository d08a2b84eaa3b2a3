"""The ``fracas`` command line (needs the ``cli`` extra: Typer and Rich)."""
