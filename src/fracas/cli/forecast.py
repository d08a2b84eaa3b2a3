"""The odds of each choice at ``fracas play``'s prompt, and the win chance from here.

While a person builds a decision, :func:`show_forecast` prints the forecast of the
decision as it stands (the steps not answered yet at their defaults: what Enter would
give) and :func:`choice_notes` marks each value of the step on screen that would finish
the decision with its chance of success, or a warning when it cannot succeed.  The win
chance from here is worked out in a background thread as soon as a person is asked to
decide (:class:`WinChanceWatch`), so the prompt never waits; the ``o`` key prints it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from fracas.core.decision import Step
from fracas.core.encounter import Encounter
from fracas.core.errors import FracasError
from fracas.core.forecast import Forecast, percent

__all__ = ["WinChanceWatch", "choice_notes", "show_forecast"]


def _forecast(enc: Encounter[Any], values: Sequence[Any]) -> Forecast | None:
    try:
        return enc.forecast(list(values))
    except FracasError:
        return None


def show_forecast(console: Console, enc: Encounter[Any], values: Sequence[Any]) -> None:
    """Print the forecast of the decision built from ``values`` so far (nothing before a verb)."""
    if not values:
        return
    found = _forecast(enc, values)
    if found is None:
        return
    lines = list(found.lines())
    if found.sure_failure:
        console.print(f"  [bold yellow]{escape(lines.pop(0))}[/bold yellow]")
    console.print("  [dim]odds of this choice (the steps left at their defaults):[/dim]")
    for line in lines:
        console.print(f"  [dim]  {escape(line)}[/dim]")


def choice_notes(enc: Encounter[Any], values: Sequence[Any], step: Step) -> dict[Any, str]:
    """For each value of ``step`` that finishes the decision: its first chance in words, or
    a warning when it cannot succeed (nothing for a number's range or a verb)."""
    notes: dict[Any, str] = {}
    if not values or step.span is not None:
        return notes
    for choice in step.choices:
        chosen = [*values, choice.value]
        try:
            if enc.options(chosen).action is None:
                continue
        except FracasError:
            continue
        found = _forecast(enc, chosen)
        if found is None:
            continue
        if found.sure_failure:
            notes[choice.value] = "cannot succeed"
        elif found.chances:
            first = found.chances[0]
            notes[choice.value] = f"{first.what}: {percent(first.p)}"
    return notes


class WinChanceWatch:
    """Each side's win chance from the position on the table, worked out in the background.

    :meth:`start` begins the estimate for the position now (once per position);
    :meth:`report` prints it, or says it is still being worked out.
    """

    def __init__(self, fights: int = 200) -> None:
        self.fights = fights
        self.lock = threading.Lock()
        self.position = -1
        self.result: tuple[str, ...] | None = None

    def start(self, enc: Encounter[Any]) -> None:
        """Start estimating from ``enc``'s position unless it is already being estimated."""
        position = len(enc.log)
        if position == self.position or enc.header is None or not enc.keep_log:
            return
        from fracas.sim.from_here import spec_from_here

        try:
            spec, swapped = spec_from_here(enc.ruleset, enc.header.scenario, enc.log)
        except FracasError as exc:
            with self.lock:
                self.position, self.result = position, (f"no win chance: {exc}",)
            return
        with self.lock:
            self.position, self.result = position, None

        def work() -> None:
            from fracas.sim.from_here import estimate

            try:
                lines = estimate(spec, swapped, fights=self.fights, seed=position).lines()
            except FracasError as exc:
                lines = (f"no win chance: {exc}",)
            with self.lock:
                if self.position == position:
                    self.result = lines

        threading.Thread(target=work, name="win-chance", daemon=True).start()

    def report(self, console: Console) -> None:
        """Print the win chance from here (or that it is still being worked out)."""
        with self.lock:
            result = self.result
        if result is None:
            console.print("[dim]win chance from here: still being worked out (press o "
                          "again in a moment)[/dim]")
            return
        console.print("[bold]win chance from here[/bold]")
        for line in result:
            console.print(f"  {escape(line)}")
