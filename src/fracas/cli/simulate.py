"""``fracas simulate`` and ``fracas sweep``: odds before the fight, by Monte Carlo."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from fracas.cli.common import console, err_console
from fracas.cli.options import ScenarioArg, SeedOpt

if TYPE_CHECKING:
    from fracas.sim.fights import FightSpec
    from fracas.sim.runner import SimulationResult
    from fracas.sim.sweep import SweepResult

__all__ = ["simulate_command", "sweep_command"]

RunsOpt = Annotated[int, typer.Option("--runs", "-n", help="How many fights to simulate.")]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", "-w", help="Local worker processes (default: one per core).")]
ExecutorOpt = Annotated[str, typer.Option(
    "--executor", help="Where fights run: 'local' processes or a 'dask' cluster.")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="Dask scheduler address, e.g. tcp://127.0.0.1:8786.")]
PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", help="Write a plot (.png, .svg or .pdf).")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
PolicyOpt = Annotated[list[str] | None, typer.Option(
    "--policy", metavar="WHO=POLICY",
    help="Play a side (or one seat, or gm) with another policy, e.g. --policy blue=random. "
         "Repeatable; a seat's own name wins over its side.")]
SearchRolloutsOpt = Annotated[int | None, typer.Option(
    "--search-rollouts", min=1, max=100_000, metavar="N",
    help="Rollouts a decision for every seat played by search (the file's search: block "
         "otherwise; 32 by default). A seeded run then replays the same.")]
SearchMsOpt = Annotated[float | None, typer.Option(
    "--search-ms", min=1.0, max=60_000.0, metavar="MS",
    help="Thinking time a decision for every seat played by search, in milliseconds (at "
         "most 800 a turn, or the file's turn_ms): stronger, but results then depend on "
         "the machine's speed.")]
BatchFlag = Annotated[bool, typer.Option(
    "--batch", help="Play the fights in lockstep with array code where the batch path can "
    "(the same fights, far faster); anything else falls back to the engine, said on stderr.")]


PrecisionOpt = Annotated[float | None, typer.Option(
    "--precision", min=0.0001, max=0.5, metavar="P",
    help="Play in rounds until every reported rate's 95% interval is within +-P (0.01: "
         "one percentage point); --runs is then the first round.")]
MaxFightsOpt = Annotated[int, typer.Option(
    "--max-fights", min=1, metavar="N",
    help="With --precision: stop after N fights (per variant) even if not that precise.")]


class _Bar:
    """The live progress line on a terminal: fights done, time left, the current estimate."""

    def __init__(self, bar: Any, task: Any, first_side: str | None, per_fight: int) -> None:
        self.bar, self.task, self.first_side = bar, task, first_side
        self.per_fight = per_fight  # bar steps a fight (the variants of a sweep)
        self.rounds = 1

    def advance(self, n: int) -> None:
        self.bar.advance(self.task, n)

    def retarget(self, total: int) -> None:
        """A new round: the bar's end moves to ``total`` fights in all."""
        self.rounds += 1
        self.bar.update(self.task, total=total * self.per_fight)

    def watch(self, totals: Any) -> None:
        first = totals[0]
        if not first.fights or self.first_side is None:
            return
        from fracas.core.presentation import wins
        from fracas.sim.stats import half_width, wilson_interval

        won = first.wins.get(self.first_side, 0)
        rate = won / first.fights
        hw = half_width(rate, wilson_interval(won, first.fights))
        self.bar.update(self.task, estimate=f"{wins(self.first_side)} {100 * rate:.1f}% "
                                            f"+-{100 * hw:.1f}")


class _Quiet:
    """No progress line (JSON output, or stderr is not a terminal); counts rounds only."""

    rounds = 1

    def advance(self, n: int) -> None:
        return None

    def retarget(self, total: int) -> None:
        self.rounds += 1

    def watch(self, totals: Any) -> None:
        return None


@contextmanager
def _progress(total: int, quiet: bool, first_side: str | None = None,
              per_fight: int = 1) -> Iterator[_Bar | _Quiet]:
    """Progress on stderr while fights run, only when stderr is a terminal (never in
    ``--json`` output, never into a pipe or a file)."""
    if quiet or not err_console.is_terminal:
        yield _Quiet()
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Fights per second."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} fights/s" if speed else "- fights/s", style="cyan")

    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
               TextColumn("{task.fields[estimate]}"))
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task("fights", total=total * per_fight, estimate="")
        yield _Bar(bar, task, first_side, per_fight)


def _first_side(spec: FightSpec) -> str | None:
    from fracas.sim.fights import prepare

    prepared = prepare(spec)
    standings = prepared.ruleset.standings(prepared.state)
    return standings[0].side if standings else None


def _precision_line(result: SimulationResult, rounds: int) -> str:
    widest, which = result.precision()
    line = (f"precision: every rate above is within +-{100 * widest:.1f} points "
            f"(95%; the widest: {which})")
    asked = result.precision_asked
    if asked is None:
        return line + "; --precision P plays until it is within +-P"
    if widest <= asked:
        return line + f"; +-{100 * asked:g} asked, reached after {result.runs:,} fights " \
                      f"in {rounds} round(s)"
    return line + f"; +-{100 * asked:g} asked, NOT reached: stopped at the cap of " \
                  f"{result.runs:,} fights (--max-fights)"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_simulation(result: SimulationResult, played_rounds: int = 1) -> None:
    """The Rich report of one simulation."""
    from rich.table import Table

    report = result.to_json()
    sides = Table(title=f"{report['scenario']}: {report['runs']:,} fights, seed {report['seed']}")
    for column in ("side", "wins", "win rate", "95% interval"):
        sides.add_column(column, justify="left" if column == "side" else "right")
    for side, info in report["sides"].items():
        low, high = info["ci95"]
        sides.add_row(side, f"{info['wins']:,}", _pct(info["win_rate"]),
                      f"{_pct(low)} - {_pct(high)}")
    sides.add_row("draw", f"{report['draws']:,}", _pct(report["draw_rate"]), "")
    if report["unfinished"]:
        sides.add_row("unfinished", f"{report['unfinished']:,}",
                      _pct(report["unfinished"] / report["runs"]), "")
    console.print(sides)
    rounds = report["rounds"]
    console.print(f"rounds: mean {rounds['mean']:.2f}, median {rounds['median']:g}")
    hist = Table(title="fight length")
    hist.add_column("rounds", justify="right")
    hist.add_column("fights", justify="right")
    hist.add_column("")
    peak = max(rounds["histogram"].values(), default=1)
    for r, count in rounds["histogram"].items():
        hist.add_row(r, f"{count:,}", "#" * max(1, round(30 * count / peak)))
    console.print(hist)
    people = Table(title="combatants")
    for column in ("name", "side", "survival", "mean health left"):
        people.add_column(column, justify="left" if column in ("name", "side") else "right")
    for name, info in report["combatants"].items():
        people.add_row(name, info["side"], _pct(info["survival_rate"]),
                       f"{info['mean_health_left']:.2f}")
    console.print(people)
    console.print(_precision_line(result, played_rounds))
    console.print(f"{report['seconds']:.2f} s on {report['workers']} {report['executor']} "
                  f"worker(s): {report['fights_per_second']:,.0f} fights/s")


def simulate_command(
    scenario: Annotated[Path | None, typer.Argument(
        help="A scenario YAML file (or use --from LOG).")] = None,
    runs: RunsOpt = 1000,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    as_json: JsonFlag = False,
    plot: PlotOpt = None,
    from_log: Annotated[Path | None, typer.Option(
        "--from", help="Continue a saved fight (a JSON-lines log) instead of starting fresh.")
    ] = None,
    from_round: Annotated[int | None, typer.Option(
        "--round", help="With --from: continue from the first decision of this round.")
    ] = None,
    policy: PolicyOpt = None,
    search_rollouts: SearchRolloutsOpt = None,
    search_ms: SearchMsOpt = None,
    batch: BatchFlag = False,
    precision: PrecisionOpt = None,
    max_fights: MaxFightsOpt = 100_000,
) -> None:
    """Simulate many fights and report win rates with 95% Wilson intervals."""
    import json

    from fracas.core.errors import ScenarioError
    from fracas.scenario import load_scenario
    from fracas.scenario.logs import load_log
    from fracas.scenario.seats import computer_note, computer_seats, with_policies, with_search
    from fracas.scenario.traps import tell_traps
    from fracas.sim.executors import make_executor
    from fracas.sim.plots import check_plot_path
    from fracas.sim.runner import simulate_many, spec_from_log, spec_from_scenario

    if plot is not None:
        check_plot_path(plot)
    if (scenario is None) == (from_log is None):
        raise ScenarioError("give either a SCENARIO file or --from LOG (not both)",
                            file="simulate")
    if from_round is not None and from_log is None:
        raise ScenarioError("--round needs --from LOG", file="simulate")
    if policy and from_log is not None:
        raise ScenarioError("--policy works with a SCENARIO file, not --from LOG", file="simulate")
    if (search_rollouts is not None or search_ms is not None) and from_log is not None:
        raise ScenarioError("--search-rollouts and --search-ms work with a SCENARIO file, "
                            "not --from LOG", file="simulate")
    if scenario is not None:
        checked = load_scenario(scenario)
        tell_traps(checked.warnings)
        loaded, humans = computer_seats(checked)
        loaded = with_search(with_policies(loaded, policy or ()), rollouts=search_rollouts,
                             ms=search_ms)
        spec = spec_from_scenario(loaded)
    else:
        log = Path(str(from_log))
        verified = load_log(log)  # every event checked against the rules and its dice
        if from_round is None:
            verified.continuable(str(log))
        spec, humans = _computer_spec(spec_from_log(log, from_round))
    with make_executor(executor, workers, scheduler) as ex, \
            _progress(min(runs, max_fights) if precision else runs, as_json,
                      _first_side(spec)) as progress:
        runner: Any = _batch_executor(ex, [spec]) if batch else ex
        result = simulate_many([spec], runs, seed, runner, progress.advance,
                               precision=precision, max_runs=max_fights,
                               on_round=progress.retarget, watch=progress.watch)[0]
    path = runner.path(spec) if batch else "engine"
    if plot is not None:
        from fracas.sim.plots import plot_simulation

        plot_simulation(result, plot)
    if as_json:
        report = result.to_json()
        report["path"] = path
        report["precision"]["rounds"] = progress.rounds
        if humans:
            report["played_by_default_policy"] = humans
        sys.stdout.write(json.dumps(report) + "\n")
        return
    if humans:
        console.print(f"[yellow]{escape(computer_note(humans))}[/yellow]")
    print_simulation(result, progress.rounds)
    if plot is not None:
        console.print(f"plot written to {plot}")


def _batch_executor(engine: Any, specs: list[FightSpec]) -> Any:
    """The batch path over ``engine`` (a ``BatchExecutor``), having said on stderr if a
    spec falls back to the engine."""
    from fracas.sim.batch import BatchExecutor

    runner = BatchExecutor(engine)
    for spec in specs:
        runner.path(spec)
    runner.tell(_say)
    return runner


def _say(line: str) -> None:
    err_console.print(line, markup=False, highlight=False, soft_wrap=True)


def _computer_spec(spec: FightSpec) -> tuple[FightSpec, list[str]]:
    """A continuation spec with the default AI in the human seats of the log's scenario."""
    from fracas.core.ruleset import find_ruleset
    from fracas.scenario import Scenario
    from fracas.scenario.problems import check_model
    from fracas.scenario.seats import computer_seats
    from fracas.sim.fights import FightSpec

    ruleset = find_ruleset(spec.ruleset)
    model = check_model(ruleset.scenario_model, spec.scenario, spec.source, {})
    loaded, humans = computer_seats(Scenario(ruleset, model, dict(spec.scenario), spec.source))
    if not humans:
        return spec, []
    data = loaded.model.model_dump(mode="json")
    return FightSpec.make(ruleset, data, spec.source, spec.events, spec.max_decisions), humans


def print_sweep(result: SweepResult, rounds: int = 1) -> None:
    """The Rich table of a sweep: one row per variant, with its difference from the first."""
    from rich.table import Table

    from fracas.core.presentation import wins

    first = result.variants[0][1]
    lead = first.sides[0] if first.sides else None
    table = Table(title=f"{first.spec.source.split(' [')[0]}: {first.runs:,} fights per "
                        f"variant, seed {first.seed}; win rates with 95% intervals")
    for path in result.paths:
        table.add_column(path, overflow="fold")
    for side in first.sides:
        table.add_column(f"{wins(side)} (95%)", justify="right")
    if lead is not None and len(result.variants) > 1:
        table.add_column(f"{wins(lead)} vs first (95%)", justify="right")
    table.add_column("draws", justify="right")
    table.add_column("rounds", justify="right")
    paired = True
    for values, sim in result.variants:
        report = sim.to_json(timing=False)
        row = [str(values[p]) for p in result.paths]
        for side in first.sides:
            info = report["sides"].get(side, {"win_rate": 0.0, "ci95": [0.0, 1.0]})
            low, high = info["ci95"]
            row.append(f"{_pct(info['win_rate'])} ({100 * low:.1f}-{100 * high:.1f})")
        if lead is not None and len(result.variants) > 1:
            found = sim.difference(lead)
            if found is None:
                row.append("(first)")
            else:
                diff, (low, high), was_paired = found
                paired = paired and was_paired
                row.append(f"{100 * diff:+.1f} ({100 * low:+.1f} to {100 * high:+.1f})")
        row += [_pct(report["draw_rate"]), f"{report['rounds']['mean']:.2f}"]
        table.add_row(*row)
    console.print(table)
    if len(result.variants) > 1:
        console.print("differences in percentage points, measured fight by fight on the same "
                      "dice (paired intervals)" if paired else
                      "differences in percentage points (intervals of independent samples: "
                      "this path keeps no per-fight outcomes)")
    widest = max(result.variants, key=lambda v: v[1].precision()[0])[1]
    console.print(_precision_line(widest, rounds))
    console.print(f"{result.seconds:.2f} s")


def sweep_command(
    scenario: ScenarioArg,
    vary: Annotated[list[str], typer.Option(
        "--vary", help="PATH=V1,V2,... (repeat for a grid); list items by index or name.")],
    runs: RunsOpt = 1000,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = "local",
    scheduler: SchedulerOpt = None,
    as_json: JsonFlag = False,
    plot: PlotOpt = None,
    policy: PolicyOpt = None,
    search_rollouts: SearchRolloutsOpt = None,
    search_ms: SearchMsOpt = None,
    batch: BatchFlag = False,
    precision: PrecisionOpt = None,
    max_fights: MaxFightsOpt = 100_000,
    dice: Annotated[str, typer.Option(
        "--dice", metavar="aligned|sequential",
        help="aligned (the default): every variant rolls its n-th roll of a fight from the "
             "same stream, so variants share their dice and differences are sharper; "
             "sequential: the fights 'fracas run --seed' plays (what --batch plays).")
    ] = "aligned",
) -> None:
    """Simulate every variant of a grid and compare their win rates (each variant's
    difference from the first, measured on the same dice)."""
    import json

    from fracas.core.errors import ScenarioError
    from fracas.scenario import load_scenario
    from fracas.scenario.seats import computer_note, computer_seats, with_policies, with_search
    from fracas.scenario.traps import tell_traps
    from fracas.sim.executors import make_executor
    from fracas.sim.plots import check_plot_path
    from fracas.sim.runner import spec_from_scenario
    from fracas.sim.sweep import parse_variation, sweep
    if plot is not None:
        check_plot_path(plot)
    checked = load_scenario(scenario)
    tell_traps(checked.warnings)
    loaded, humans = computer_seats(checked)
    loaded = with_search(with_policies(loaded, policy or ()), rollouts=search_rollouts,
                         ms=search_ms)
    if dice not in ("aligned", "sequential"):
        raise ScenarioError(f"--dice takes aligned or sequential, got {dice!r}", file="sweep")
    if batch and dice == "aligned":
        dice = "sequential"  # the batch path plays the sequential streams
    variations = [parse_variation(v) for v in vary]
    grid = 1
    for v in variations:
        grid *= len(v.values)
    with make_executor(executor, workers, scheduler) as ex, \
            _progress(min(runs, max_fights) if precision else runs, as_json,
                      _first_side(spec_from_scenario(loaded)), grid) as progress:
        runner: Any = _batch_executor(ex, []) if batch else ex
        result = sweep(loaded, variations, runs, seed, runner, progress.advance,
                       aligned=dice == "aligned", precision=precision, max_runs=max_fights,
                       on_round=progress.retarget, watch=progress.watch)
    if batch:
        runner.tell(_say)
    if plot is not None:
        from fracas.sim.plots import plot_sweep

        plot_sweep(result, plot)
    if as_json:
        report = result.to_json()
        report["dice"] = dice
        report["rounds"] = progress.rounds
        for variant, (_, sim) in zip(report["variants"], result.variants, strict=True):
            variant["path"] = runner.path(sim.spec) if batch else "engine"
        if humans:
            report["played_by_default_policy"] = humans
        sys.stdout.write(json.dumps(report, default=_jsonable) + "\n")
        return
    if humans:
        console.print(f"[yellow]{escape(computer_note(humans))}[/yellow]")
    print_sweep(result, progress.rounds)
    if plot is not None:
        console.print(f"plot written to {plot}")


def _jsonable(value: Any) -> Any:
    return str(value)
