"""Plots of simulation results with matplotlib (Agg backend: no display needed).

The file type follows the file name: ``.png``, ``.svg`` or ``.pdf``.  Each side keeps
one colour in every panel (:func:`side_colours`: a side named after a colour is drawn
in it), rates carry their 95% intervals, and titles say what was simulated and with
which policies (:func:`what_was_simulated`).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fracas.core.errors import FracasError
from fracas.core.presentation import say, wins
from fracas.sim.stats import wilson_interval

if TYPE_CHECKING:
    from fracas.sim.runner import SimulationResult
    from fracas.sim.sweep import SweepResult

__all__ = ["PlotError", "check_plot_path", "path_words", "plot_simulation", "plot_sweep",
           "side_colours", "what_was_simulated"]

_FORMATS = {".png", ".svg", ".pdf"}


class PlotError(FracasError):
    """A plot cannot be written (unknown file type, matplotlib missing)."""

    exit_code = 2


def check_plot_path(path: str | Path) -> Path:
    """Refuse, before any work is done, a plot file of an unknown type or in a missing folder."""
    out = Path(path)
    if out.suffix.lower() not in _FORMATS:
        raise PlotError(f"{out}: plots are written as {', '.join(sorted(_FORMATS))}")
    if not out.parent.is_dir():
        raise PlotError(f"{out}: the folder {out.parent} does not exist")
    return out


def _pyplot(path: Path) -> Any:
    check_plot_path(path)
    try:
        import matplotlib
    except ImportError as exc:
        raise PlotError("plots need matplotlib: pip install 'fracas[cli]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


#: Side names that are colours, and the tone each is drawn in.
_NAMED = {
    "red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "orange": "#ff7f0e",
    "purple": "#9467bd", "violet": "#9467bd", "brown": "#8c564b", "pink": "#e377c2",
    "grey": "#7f7f7f", "gray": "#7f7f7f", "black": "#333333", "white": "#a0a0a0",
    "yellow": "#bcbd22", "gold": "#bcbd22", "cyan": "#17becf", "teal": "#17becf",
}
#: Colours for sides whose names are not colours, in order, skipping those taken.
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
            "#17becf", "#bcbd22", "#7f7f7f")
#: The colour of draws (no side).
DRAW_COLOUR = "#9e9e9e"


def side_colours(sides: list[str] | tuple[str, ...]) -> dict[str, str]:
    """One colour per side, the same in every plot of a scenario.

    A side named after a colour (or whose name contains one as a word, ``red_team``)
    is drawn in that colour; the others take the next free colour of a fixed palette,
    in the order the scenario lists the sides.

    >>> side_colours(["blue", "red"])
    {'blue': '#1f77b4', 'red': '#d62728'}
    >>> side_colours(["heroes", "adversaries"])
    {'heroes': '#1f77b4', 'adversaries': '#d62728'}
    """
    out: dict[str, str] = {}
    for side in sides:
        words = str(side).lower().replace("-", "_").replace(" ", "_").split("_")
        named = next((_NAMED[w] for w in words if w in _NAMED), None)
        if named is not None and named not in out.values():
            out[side] = named
    free = [c for c in _PALETTE if c not in out.values()]
    for side in sides:
        if side not in out:
            out[side] = free.pop(0) if free else _PALETTE[len(out) % len(_PALETTE)]
    return {side: out[side] for side in sides}


def _seats(data: Any) -> dict[str, str]:
    """Each seat's policy (named items with a ``policy`` field) in the scenario data."""
    found: dict[str, str] = {}
    if isinstance(data, dict):
        for value in data.values():
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, dict) and isinstance(item.get("name"), str) \
                            and item.get("policy") is not None:
                        found.setdefault(item["name"], say(item["policy"]))
        gm = data.get("gm")
        if isinstance(gm, dict) and gm.get("policy") is not None:
            found["GM"] = say(gm["policy"])
    return found


def what_was_simulated(result: SimulationResult, varied: str = "") -> str:
    """A two-line title: the scenario, fights and seed; then each side's seats and their
    policies (``red: Ember (claw all)``)."""
    data = result.spec.scenario
    name = data.get("name") if isinstance(data, dict) else None
    source = result.spec.source.split(" [")[0]
    title = say(name) if isinstance(name, str) else Path(source).name
    more = " (continued from a saved fight)" if result.spec.events else ""
    fights = f"{result.runs:,} simulated fights{' per variant' if varied else ''}"
    first = f"{title}{more}{varied}: {fights}, seed {result.seed}"
    policies = _seats(data)
    by_side: dict[str, list[str]] = {}
    for who, side in result.combatants:
        policy = policies.get(who)
        by_side.setdefault(side, []).append(f"{who} ({policy})" if policy else who)
    second = "; ".join(f"{side}: {', '.join(names)}" for side, names in by_side.items())
    if "GM" in policies:
        second += f"; GM ({policies['GM']})"
    return f"{first}\n{second}" if second else first


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def plot_simulation(result: SimulationResult, path: str | Path) -> Path:
    """Three panels: who wins (with 95% intervals), how long fights last, and each
    combatant's health left as a distribution.  Returns the path written.
    """
    out = Path(path)
    plt = _pyplot(out)
    report = result.to_json(timing=False)
    colours = side_colours(list(result.sides))
    n_people = len(report["combatants"])
    fig, (ax_win, ax_rounds, ax_health) = plt.subplots(
        1, 3, figsize=(16, max(5.0, 2.2 + 0.55 * n_people)),
        gridspec_kw={"width_ratios": [1, 1, 1.3]})
    fig.suptitle(what_was_simulated(result))

    labels = list(report["sides"])
    rates = [report["sides"][s]["win_rate"] for s in labels]
    intervals = [tuple(report["sides"][s]["ci95"]) for s in labels]
    bar_colours = [colours[s] for s in labels]
    if report["draws"]:
        labels.append("draw")
        rates.append(report["draw_rate"])
        intervals.append(wilson_interval(report["draws"], report["runs"]))
        bar_colours.append(DRAW_COLOUR)
    yerr = [[max(0.0, r - i[0]) for r, i in zip(rates, intervals, strict=True)],
            [max(0.0, i[1] - r) for r, i in zip(rates, intervals, strict=True)]]
    ax_win.bar([say(x) for x in labels], rates, yerr=yerr, capsize=8, color=bar_colours,
               alpha=0.85, ecolor="black")
    for x, (rate, (low, high)) in enumerate(zip(rates, intervals, strict=True)):
        ax_win.text(x, min(high + 0.03, 0.97), f"{_pct(rate)}\n({_pct(low)} to {_pct(high)})",
                    ha="center", va="bottom", fontsize="small")
    ax_win.set_ylim(0, 1.12)
    ax_win.set_yticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
    ax_win.set_title("Who wins (bars: 95% interval)")
    ax_win.set_ylabel("share of fights")

    hist = {int(k): v for k, v in report["rounds"]["histogram"].items()}
    total = sum(hist.values()) or 1
    ax_rounds.bar(list(hist), [v / total for v in hist.values()], color="#607d8b")
    ax_rounds.axvline(report["rounds"]["mean"], color="black", linestyle="--",
                      label=f"mean {report['rounds']['mean']:.2f}")
    ax_rounds.axvline(report["rounds"]["median"], color="black", linestyle=":",
                      label=f"median {report['rounds']['median']:g}")
    ax_rounds.set_title("How long the fight lasts")
    ax_rounds.set_xlabel("rounds")
    ax_rounds.set_ylabel("share of fights")
    ax_rounds.legend(loc="upper right")

    _health_ridges(ax_health, report, colours)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out


def _health_ridges(ax: Any, report: dict[str, Any], colours: dict[str, str]) -> None:
    """One row per combatant: the share of fights ending with each health left."""
    people = list(report["combatants"].items())
    lows: list[float] = []
    highs: list[float] = []
    for row, (_name, info) in enumerate(reversed(people)):
        health = {float(k): v for k, v in info["health_histogram"].items()}
        total = sum(health.values()) or 1
        peak = max(health.values(), default=1) / total
        values = sorted(health)
        if values:
            lows.append(values[0])
            highs.append(values[-1])
            span = min((b - a for a, b in itertools.pairwise(values)), default=1.0)
            heights = [0.85 * health[v] / total / peak for v in values]
            ax.bar(values, heights, bottom=row, width=0.9 * span, color=colours[info["side"]],
                   alpha=0.8, align="center")
        ax.plot([info["mean_health_left"]] * 2, [row, row + 0.9], color="black", linewidth=1.5)
        ax.text(1.01, row + 0.4, f"survives {_pct(info['survival_rate'])}",
                transform=ax.get_yaxis_transform(), va="center", fontsize="small")
    ax.set_yticks([row + 0.4 for row in range(len(people))],
                  [f"{name} ({info['side']})" for name, info in reversed(people)])
    if lows and min(lows) <= 0 <= max(highs):
        ax.axvline(0, color="black", alpha=0.3, linewidth=1)
    ax.set_ylim(0, max(1, len(people)))
    ax.set_title("Health left at the end (black line: mean)")
    ax.set_xlabel("health left")


def path_words(path: str) -> str:
    """A varied scenario path as a label people read: ``fighters.0.pr_max`` reads
    ``fighters › 0 › pr max``."""
    return " › ".join(say(part) for part in str(path).split("."))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _axis(values: list[Any]) -> tuple[bool, dict[Any, float]]:
    numeric = all(_is_number(x) for x in values)
    return numeric, {x: (float(x) if numeric else float(i)) for i, x in enumerate(values)}


def plot_sweep(result: SweepResult, path: str | Path) -> Path:
    """A sweep's picture: with two varied paths, a heatmap of the first side's win
    chance with its value and interval in every cell; otherwise the win rate of each
    side with its 95% band against the first varied value (one line per combination of
    any further values).  Returns the path written.
    """
    out = Path(path)
    plt = _pyplot(out)
    if not result.variants:
        raise PlotError("the sweep has no variants to plot")
    if len(result.paths) == 2:
        return _heatmap(plt, result, out)
    first = result.variants[0][1]
    colours = side_colours(list(first.sides))
    x_path, others = result.paths[0], result.paths[1:]
    xs_raw = list(dict.fromkeys(values[x_path] for values, _ in result.variants))
    numeric, position = _axis(xs_raw)
    lines: dict[tuple[str, str], list[tuple[float, float, float, float]]] = {}
    for values, sim in result.variants:
        rest = ", ".join(f"{path_words(p)} {say(values[p])}" for p in others)
        for side in sim.sides:
            rate, (low, high) = sim.win_rate(side)
            lines.setdefault((side, rest), []).append((position[values[x_path]], rate, low, high))
    fig, ax = plt.subplots(figsize=(9, 5.5))
    styles = ["-", "--", ":", "-."]
    rests = list(dict.fromkeys(rest for _, rest in lines))
    for (side, rest), points in lines.items():
        points.sort()
        xs = [p[0] for p in points]
        colour = colours.get(side, DRAW_COLOUR)
        style = styles[rests.index(rest) % len(styles)]
        label = wins(side) + (f" ({rest})" if rest else "")
        ax.plot(xs, [p[1] for p in points], marker="o", color=colour, linestyle=style,
                label=label)
        ax.fill_between(xs, [p[2] for p in points], [p[3] for p in points], color=colour,
                        alpha=0.15)
    if not numeric:
        ax.set_xticks([position[x] for x in xs_raw], [say(x) for x in xs_raw])
    elif all(float(x).is_integer() for x in xs_raw):
        ax.set_xticks([position[x] for x in xs_raw])
    ax.set_title(what_was_simulated(first, f", varying {path_words(x_path)}")
                 + "\nwin rates, shaded: 95% intervals", fontsize="medium")
    ax.set_xlabel(path_words(x_path))
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out


def _heatmap(plt: Any, result: SweepResult, out: Path) -> Path:
    from matplotlib.colors import LinearSegmentedColormap

    first = result.variants[0][1]
    side = first.sides[0]
    colour = side_colours(list(first.sides))[side]
    x_path, y_path = result.paths
    xs = list(dict.fromkeys(values[x_path] for values, _ in result.variants))
    ys = list(dict.fromkeys(values[y_path] for values, _ in result.variants))
    grid = [[float("nan")] * len(xs) for _ in ys]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(xs) + 3), max(4.5, 0.9 * len(ys) + 3)))
    cells: list[tuple[int, int, str]] = []
    for values, sim in result.variants:
        i, j = ys.index(values[y_path]), xs.index(values[x_path])
        rate, (low, high) = sim.win_rate(side)
        grid[i][j] = rate
        cells.append((i, j, f"{_pct(rate)}\n{100 * low:.0f} to {100 * high:.0f}"))
    cmap = LinearSegmentedColormap.from_list("win", ["#ffffff", colour])
    image = ax.imshow(grid, cmap=cmap, vmin=0, vmax=1, origin="lower", aspect="auto")
    for i, j, text in cells:
        dark = grid[i][j] > 0.6
        ax.text(j, i, text, ha="center", va="center", fontsize="small",
                color="white" if dark else "black")
    ax.set_xticks(range(len(xs)), [say(x) for x in xs])
    ax.set_yticks(range(len(ys)), [say(y) for y in ys])
    ax.set_xlabel(path_words(x_path))
    ax.set_ylabel(path_words(y_path))
    bar = fig.colorbar(image, ax=ax)
    bar.set_label(f"{wins(side)} (share of fights)")
    ax.set_title(what_was_simulated(first, ", varying two values")
                 + f"\nchance {wins(side)} per cell, with its 95% interval (%)",
                 fontsize="medium")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
