"""The articles-per-month chart of the stats command (matplotlib, Agg canvas, PNG).

Why a Figure with its own Agg canvas instead of pyplot: no global backend state, no display needed,
and nothing leaks between calls (the command may run on a headless server).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sacorpus.corpus.stats import month_range

#: publications drawn as their own line; the rest are summed as "other"
MAX_SERIES = 10


def monthly_series(
    monthly: Mapping[tuple[str, str], int], max_series: int = MAX_SERIES
) -> tuple[list[str], dict[str, list[int]]]:
    """Months (gaps filled) and one count list per publication, the largest first, the rest "other"."""
    months = month_range([m for _p, m in monthly])
    totals: Counter[str] = Counter()
    for (pub, _m), n in monthly.items():
        totals[pub] += n
    ranked = [p for p, _n in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))]
    keep = ranked if len(ranked) <= max_series else ranked[: max_series - 1]
    index = {m: i for i, m in enumerate(months)}
    series: dict[str, list[int]] = {p: [0] * len(months) for p in keep}
    if len(keep) < len(ranked):
        series["other"] = [0] * len(months)
    for (pub, month), n in monthly.items():
        if month in index:
            series[pub if pub in series else "other"][index[month]] += n
    return months, series


_TICK_STEPS = (1, 2, 3, 6, 12, 24, 60, 120)
MAX_TICKS = 18


def tick_indexes(months: list[str]) -> list[int]:
    """Indexes of months to label: calendar-aligned steps (quarters, Januaries, ...), <= MAX_TICKS."""
    if not months:
        return []
    step = next((s for s in _TICK_STEPS if len(months) / s <= MAX_TICKS), _TICK_STEPS[-1])
    out = []
    for i, month in enumerate(months):
        year, mon = int(month[:4]), int(month[5:7])
        yearly = step > 12 and mon == 1 and year % (step // 12) == 0
        if yearly or (step <= 12 and (mon - 1) % step == 0):
            out.append(i)
    return out or [0]


def _colours(n: int) -> list[Any]:
    """Distinct colours: tab10 for up to 10 series, tab20 beyond."""
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def _save(fig: Any, ax: Any, title: str, path: str | Path) -> Path:
    """Title, layout and PNG file: the one ending every chart shares."""
    ax.set_title(title)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    return path


def plot_monthly(
    monthly: Mapping[tuple[str, str], int], path: str | Path, *, title: str = "Articles per month"
) -> Path:
    """Draw articles per month per publication (stacked bars) to a PNG file; returns the path.

    Stacked bars rather than lines: lines of small publications hide each other when counts are
    equal, while stacked bars show both each publication and the monthly total.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    months, series = monthly_series(monthly)
    fig = Figure(figsize=(11, 5.5), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    if not months:
        ax.text(0.5, 0.5, "no dated articles", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    else:
        x = list(range(len(months)))
        bottom = [0] * len(months)
        colours = _colours(len(series))
        for colour, (name, counts) in zip(colours, series.items(), strict=True):
            ax.bar(x, counts, bottom=bottom, width=0.85, label=f"{name} ({sum(counts)})", color=colour)
            bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
        ticks = tick_indexes(months)
        ax.set_xticks(ticks)
        ax.set_xticklabels([months[i] for i in ticks], rotation=45, ha="right", fontsize=8)
        ax.set_xlim(-0.6, len(months) - 0.4)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("month (published, UTC)")
        ax.set_ylabel("articles")
        ax.grid(True, axis="y", alpha=0.3)
        ax.set_axisbelow(True)
        handles, labels = ax.get_legend_handles_labels()  # top of the stack first, as drawn
        ax.legend(
            handles[::-1],
            labels[::-1],
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            fontsize=8,
            title="publication",
        )
    return _save(fig, ax, title, path)


def plot_runs(
    runs: list[tuple[str, str, int, bool]], path: str | Path, *, title: str = "New articles per run"
) -> Path:
    """Draw new articles per run per publication to a PNG; runs with alarms are marked with a red X.

    ``runs`` holds (publication, finished_at ISO, new articles, alarmed), in any order. The health
    history shares the stats chart's canvas and colours, so the two plots read alike.
    """
    from datetime import datetime

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 5.5), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    pubs = sorted({pub for pub, *_ in runs})
    for colour, pub in zip(_colours(len(pubs)), pubs, strict=True):
        mine = sorted((datetime.fromisoformat(when), new, bad) for p, when, new, bad in runs if p == pub)
        when: list[Any] = [w for w, _, _ in mine]  # matplotlib draws datetimes on a date axis
        ax.plot(when, [n for _, n, _ in mine], marker="o", color=colour, label=pub)
        alarmed: list[Any] = [w for w, _, bad in mine if bad]
        if alarmed:
            counts = [n for _, n, bad in mine if bad]
            ax.scatter(alarmed, counts, marker="x", s=90, color="red", zorder=3)
    if not runs:
        ax.text(0.5, 0.5, "no runs recorded", ha="center", va="center", transform=ax.transAxes)
    else:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="publication (x: alarm)")
        ax.set_ylabel("new articles")
        ax.grid(True, axis="y", alpha=0.3)
        fig.autofmt_xdate()
    return _save(fig, ax, title, path)
