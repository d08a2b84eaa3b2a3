"""The odds of each choice at ``fracas play``'s prompt, and the win chance from here.

While a person builds a decision, :func:`show_forecast` prints the forecast of the
decision as it stands (the steps not answered yet at their defaults: what Enter would
give), as the deciding combatant's side may read it, and :func:`choice_notes` marks
each value of the step on screen that would finish the decision with its chance of
success, or a warning when it cannot succeed.  The win chance from here is worked out
in a background thread once asked for with the ``o`` key, then again whenever the table
moves on (:class:`WinChanceWatch`); the prompt never waits.
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
    """The forecast as the deciding combatant's side may read it (the GM's own decisions:
    everything), so a player at the terminal reads no odds drawn from the GM's secrets."""
    actor = enc.current_actor()
    side = next((s.side for s in enc.ruleset.standings(enc.state) if s.name == actor), None)
    try:
        return enc.forecast(list(values), side=side)
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

    Off until first asked (:meth:`report`, the ``o`` key): from then on :meth:`start`,
    called whenever a person is asked to decide, hands the newest position to one worker
    thread, which always works on the newest position asked for and drops the ones the
    table has left behind.  The prompt never waits for it.
    """

    def __init__(self, fights: int = 200) -> None:
        self.fights = fights
        self.on = False
        self.lock = threading.Lock()
        self.position = -1
        self.result: tuple[str, ...] | None = None
        self.wanted: tuple[int, Any, tuple[str, ...]] | None = None
        self.thread: threading.Thread | None = None
        self.enc: Encounter[Any] | None = None

    def start(self, enc: Encounter[Any], *, force: bool = False) -> None:
        """Estimate from ``enc``'s position (once per position; only once asked for)."""
        self.enc = enc
        if not (self.on or force):
            return
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
            self.wanted = (position, spec, swapped)
            if self.thread is not None and self.thread.is_alive():
                return  # the worker takes the newest position when it is done
            self.thread = threading.Thread(target=self._work, name="win-chance", daemon=True)
            self.thread.start()

    def _work(self) -> None:
        from fracas.sim.from_here import estimate

        while True:
            with self.lock:
                wanted, self.wanted = self.wanted, None
            if wanted is None:
                return
            position, spec, swapped = wanted
            try:
                lines = estimate(spec, swapped, fights=self.fights, seed=position).lines()
            except FracasError as exc:
                lines = (f"no win chance: {exc}",)
            with self.lock:
                if self.position == position:
                    self.result = lines

    def wait(self) -> None:
        """Wait for the estimate under way (for tests and scripts; the prompt never waits)."""
        thread = self.thread
        if thread is not None:
            thread.join()

    def report(self, console: Console) -> None:
        """Print the win chance from here, or that it is still being worked out (the first
        time asked, its working out begins)."""
        if not self.on:
            self.on = True
            if self.enc is not None:
                self.start(self.enc)
        with self.lock:
            result = self.result
        if result is None:
            console.print("[dim]win chance from here: being worked out in the background "
                          "(press o again in a moment)[/dim]")
            return
        console.print("[bold]win chance from here[/bold]")
        for line in result:
            console.print(f"  {escape(line)}")
