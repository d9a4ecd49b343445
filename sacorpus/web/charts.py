"""Chart geometry for the stats page, drawn by the template as inline SVG.

Why SVG from the server: the page needs no script, no canvas and nothing fetched from elsewhere (the
content security policy allows no script at all), the chart scales with the window and prints, and
the numbers behind every line are also in the page's tables and downloads.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta

WIDTH, HEIGHT, MARGIN = 900, 260, 40
MAX_DAYS = 3660  # ten years of daily points; beyond that only the days that have articles
PALETTE = ("#1b6ca8", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d6a9f", "#30638e", "#a05a2c")


@dataclass
class Series:
    name: str
    colour: str
    points: str  # "x,y x,y ..." for an SVG polyline
    total: int


@dataclass
class LineChart:
    series: list[Series] = field(default_factory=list)
    days: list[str] = field(default_factory=list)
    ymax: int = 0
    ticks: list[tuple[float, str]] = field(default_factory=list)  # (x, label) along the time axis
    width: int = WIDTH
    height: int = HEIGHT
    margin: int = MARGIN


@dataclass
class Bar:
    label: str
    value: int
    length: float  # share of the longest bar, 0..100 (the template scales it)


def day_axis(days: set[str]) -> list[str]:
    """Every day from the first to the last (so a quiet day shows as 0), or only the given days."""
    try:
        first, last = date.fromisoformat(min(days)), date.fromisoformat(max(days))
    except ValueError:  # a stored date that is no calendar day: plot what there is
        return sorted(days)
    span = (last - first).days
    if span >= MAX_DAYS:
        return sorted(days)
    return [(first + timedelta(days=i)).isoformat() for i in range(span + 1)]


def daily_chart(daily: Counter[tuple[str, str]]) -> LineChart:
    """Articles per day per publication, one polyline each (largest publications first)."""
    if not daily:
        return LineChart()
    days = day_axis({d for _, d in daily})
    index = {d: i for i, d in enumerate(days)}
    ymax = max(daily.values())
    plot_w, plot_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN
    step = plot_w / max(1, len(days) - 1)

    def xy(i: int, v: int) -> str:
        return f"{MARGIN + i * step:.1f},{HEIGHT - MARGIN - plot_h * v / ymax:.1f}"

    totals: Counter[str] = Counter()
    for (pub, _), n in daily.items():
        totals[pub] += n
    series = []
    for k, (pub, total) in enumerate(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))):
        points = " ".join(xy(index[d], daily.get((pub, d), 0)) for d in days if d in index)
        series.append(Series(pub, PALETTE[k % len(PALETTE)], points, total))
    n_ticks = min(6, len(days))
    ticks = [
        (MARGIN + i * step, days[i])
        for i in sorted({round(j * (len(days) - 1) / max(1, n_ticks - 1)) for j in range(n_ticks)})
    ]
    return LineChart(series=series, days=days, ymax=ymax, ticks=ticks)


def bars(counts: Counter[str]) -> list[Bar]:
    """Horizontal bars, largest first."""
    if not counts:
        return []
    top = max(counts.values()) or 1
    return [Bar(k, v, 100.0 * v / top) for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
