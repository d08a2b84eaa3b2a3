"""Plots of simulation results with matplotlib (Agg backend: no display needed).

The file type follows the file name: ``.png``, ``.svg`` or ``.pdf``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from fracas.core.errors import FracasError
from fracas.core.presentation import say
from fracas.sim.stats import wilson_interval

if TYPE_CHECKING:
    from fracas.sim.runner import SimulationResult
    from fracas.sim.sweep import SweepResult

__all__ = ["PlotError", "check_plot_path", "path_words", "plot_simulation", "plot_sweep"]

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


def _error_bars(rate: float, low: float, high: float) -> list[float]:
    return [max(0.0, rate - low), max(0.0, high - rate)]


def plot_simulation(result: SimulationResult, path: str | Path) -> Path:
    """Three panels: win rate per side with 95% intervals, fight length, health left.

    Returns the path written.
    """
    out = Path(path)
    plt = _pyplot(out)
    report = result.to_json(timing=False)
    fig, (ax_win, ax_rounds, ax_health) = plt.subplots(1, 3, figsize=(15, 4.8))
    title = say(report["scenario"]) + (" (continued from a saved fight)"
                                  if report["continued_from_log"] else "")
    fig.suptitle(f"{title}: {report['runs']:,} simulated fights, seed {report['seed']}")

    labels = list(report["sides"])
    rates = [report["sides"][s]["win_rate"] for s in labels]
    bars = [_error_bars(report["sides"][s]["win_rate"], *report["sides"][s]["ci95"])
            for s in labels]
    if report["draws"]:
        labels.append("draw")
        rates.append(report["draw_rate"])
        bars.append(_error_bars(report["draw_rate"],
                                *wilson_interval(report["draws"], report["runs"])))
    yerr = [[b[0] for b in bars], [b[1] for b in bars]]
    ax_win.bar(labels, rates, yerr=yerr, capsize=6, color="tab:blue", alpha=0.8,
               label="win rate (95% Wilson interval)")
    ax_win.set_ylim(0, 1)
    ax_win.set_title("Who wins")
    ax_win.set_xlabel("side")
    ax_win.set_ylabel("share of fights")
    ax_win.legend(loc="upper right")

    hist = {int(k): v for k, v in report["rounds"]["histogram"].items()}
    ax_rounds.bar(list(hist), list(hist.values()), color="tab:orange", label="fights")
    ax_rounds.axvline(report["rounds"]["mean"], color="black", linestyle="--",
                      label=f"mean {report['rounds']['mean']:.2f}")
    ax_rounds.set_title("How long the fight lasts")
    ax_rounds.set_xlabel("rounds")
    ax_rounds.set_ylabel("fights")
    ax_rounds.legend(loc="upper right")

    for name, info in report["combatants"].items():
        health = {float(k): v for k, v in info["health_histogram"].items()}
        values = sorted(health)
        ax_health.step(values, [health[v] for v in values], where="mid",
                       label=f"{name} ({info['side']}), mean {info['mean_health_left']:.1f}")
    ax_health.set_title("Health left at the end")
    ax_health.set_xlabel("health")
    ax_health.set_ylabel("fights")
    ax_health.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out


def path_words(path: str) -> str:
    """A varied scenario path as a label people read: ``fighters.0.pr_max`` reads
    ``fighters › 0 › pr max``."""
    return " › ".join(say(part) for part in str(path).split("."))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def plot_sweep(result: SweepResult, path: str | Path) -> Path:
    """Win rate with 95% intervals against the first varied value, one line per side.

    With several varied paths, each combination of the other values gets its own
    lines.  Returns the path written.
    """
    out = Path(path)
    plt = _pyplot(out)
    if not result.variants:
        raise PlotError("the sweep has no variants to plot")
    x_path, others = result.paths[0], result.paths[1:]
    xs_raw = list(dict.fromkeys(values[x_path] for values, _ in result.variants))
    numeric = all(_is_number(x) for x in xs_raw)
    position = {x: (float(x) if numeric else float(i)) for i, x in enumerate(xs_raw)}
    lines: dict[tuple[str, str], list[tuple[float, float, float, float]]] = {}
    for values, sim in result.variants:
        rest = ", ".join(f"{path_words(p)} {say(values[p])}" for p in others)
        for side in sim.sides:
            rate, (low, high) = sim.win_rate(side)
            lines.setdefault((side, rest), []).append((position[values[x_path]], rate, low, high))
    fig, ax = plt.subplots(figsize=(8, 5))
    for (side, rest), points in lines.items():
        points.sort()
        xs = [p[0] for p in points]
        rates = [p[1] for p in points]
        yerr = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
        label = f"{side} wins" + (f" ({rest})" if rest else "")
        ax.errorbar(xs, rates, yerr=yerr, marker="o", capsize=4, label=label)
    if not numeric:
        ax.set_xticks([position[x] for x in xs_raw], [say(x) for x in xs_raw])
    runs = result.variants[0][1].runs
    ax.set_title(f"Win rate against {path_words(x_path)} ({runs:,} fights per variant, "
                 "95% intervals)")
    ax.set_xlabel(path_words(x_path))
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
