"""图表: the report's charts, drawn with matplotlib as SVG text to inline in the page.

Glyphs are drawn as paths (svg.fonttype "path"), so the page needs no font and
text from logs cannot become markup; mathtext is off so a `$` in a name is text.
"""

from __future__ import annotations

import functools
import io
import math
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from compliance.domain.tiers import TIER_CODES
from compliance.reporting.labels import Labels
from compliance.reporting.lines import NEAR_BINS
from compliance.reporting.model import Report

if TYPE_CHECKING:  # matplotlib is imported lazily, where a chart is drawn
    from matplotlib.typing import RcKeyType

CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Noto Serif CJK SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Droid Sans Fallback",
    "SimHei",
    "Microsoft YaHei",
    "PingFang SC",
    "Heiti SC",
    "AR PL UMing CN",
)
CJK_FILE_HINTS = ("cjk", "wqy", "droidsansfallback", "sourcehan", "simhei", "msyh", "pingfang")
COLORS = {
    "exempt": "#9ccc9c",
    "below_threshold": "#cfd8dc",
    "administrative": "#ffd54f",
    "administrative_serious": "#ffa040",
    "administrative_very_serious": "#f4511e",
    "criminal": "#c62828",
    "criminal_serious": "#6d0f0f",
    "integrity": "#7e57c2",
    "indeterminate": "#78909c",
}
ORDER = (*TIER_CODES, "integrity", "indeterminate")
SERIOUS = ("administrative_very_serious", "criminal", "criminal_serious")
LINES_PER_COLUMN = 14  # threshold lines listed in one legend column
LINE_METRICS = ("single_stake", "per_capita_capital")
CHECK_COLORS = ("#7e57c2", "#26a69a", "#ef5350", "#8d6e63", "#42a5f5", "#bdbdbd")


@functools.cache
def find_cjk_family() -> str | None:
    """A font family with Chinese glyphs that matplotlib can use, or None."""
    from matplotlib import font_manager

    def known() -> str | None:
        names = {f.name for f in font_manager.fontManager.ttflist}
        preferred = next((n for n in CJK_FAMILIES if n in names), None)
        return preferred or next((n for n in sorted(names) if "CJK" in n), None)

    found = known()
    if found is None:
        # a font installed after matplotlib built its cache is not in the list yet
        for path in font_manager.findSystemFonts():
            if any(hint in path.lower() for hint in CJK_FILE_HINTS):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
        found = known()
    return found


def draw_all(report: Report, labels: Labels, family: str | None) -> dict[str, Markup | None]:
    """Every chart by name; None where there is nothing to draw."""
    import matplotlib

    fonts = [family, "DejaVu Sans"] if family else ["DejaVu Sans"]
    drawers = {
        "by_place": _by_place,
        "distribution": _distribution,
        "near_misses": _near_misses,
        "exposure": _exposure,
        "over_time": _over_time,
        "mismatches": _mismatches,
    }
    out: dict[str, Markup | None] = {}
    for name, draw in drawers.items():
        style: dict[RcKeyType, Any] = {
            "font.family": fonts,
            "svg.fonttype": "path",
            "text.parse_math": False,
            "svg.hashsalt": f"chart-{name}",
            "axes.unicode_minus": False,
            "font.size": 9,
        }
        with matplotlib.rc_context(style):
            figure = draw(report, labels)
            out[name] = None if figure is None else _svg(figure, name, labels)
    return out


def _figure(height: float, rows: int = 1, cols: int = 1):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, height), layout="constrained")
    axes = figure.subplots(rows, cols, squeeze=False)
    return figure, [ax for row in axes for ax in row]


def _svg(figure, name: str, labels: Labels) -> Markup:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    title = escape(labels.main(name))
    text = text.replace(
        "<svg ", f'<svg class="chart" data-chart="{name}" role="img" aria-label="{title}" ', 1
    )
    return Markup(text)


def _legend_outside(ax, **options) -> None:
    """The legend right of the axes, never over the data."""
    options = {"fontsize": 7, "loc": "upper left", "bbox_to_anchor": (1.01, 1.0), **options}
    ax.legend(borderaxespad=0, **options)


def _integer_counts(axis) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _stacked(
    ax,
    categories: list[str],
    series: dict[str, list[int]],
    colors: dict[str, str],
    names: dict[str, str],
    horizontal: bool,
) -> None:
    base = [0] * len(categories)
    positions = range(len(categories))
    for key, values in series.items():
        if not any(values):
            continue
        if horizontal:
            ax.barh(positions, values, left=base, color=colors[key], label=names[key])
        else:
            ax.bar(positions, values, bottom=base, color=colors[key], label=names[key])
        base = [a + b for a, b in zip(base, values, strict=True)]
    if horizontal:
        ax.set_yticks(list(positions), categories)
        ax.invert_yaxis()
    else:
        ax.set_xticks(
            list(positions),
            categories,
            rotation=45 if len(categories) > 6 else 0,
            ha="right" if len(categories) > 6 else "center",
        )
    # set, not autoscaled: an empty segment on top of a bar pins the limit to the bar's end
    (ax.set_xlim if horizontal else ax.set_ylim)(0, (max(base, default=0) or 1) * 1.05)
    _integer_counts(ax.xaxis if horizontal else ax.yaxis)
    if ax.get_legend_handles_labels()[0]:
        _legend_outside(ax)
    else:
        ax.text(0.5, 0.5, names.get("", "—"), ha="center", transform=ax.transAxes)


def _serious_panel(ax, series: dict[str, list[int]], labels: Labels) -> dict[str, list[int]]:
    """The very serious and criminal counts alone, so their scale is their own."""
    ax.set_title(labels("serious_only"), fontsize=8)
    return {k: v for k, v in series.items() if k in SERIOUS}


def _by_place(report: Report, labels: Labels):
    if not report.by_place:
        return None
    codes = sorted(
        report.by_place,
        key=lambda c: (
            -sum(n for k, n in report.by_place[c].items() if k not in ("exempt", "below_threshold"))
        ),
    )
    figure, (ax, serious) = _figure(2.4 + 0.7 * len(codes), 2, 1)
    series = {k: [report.by_place[c].get(k, 0) for c in codes] for k in ORDER}
    names = {"": labels("none"), **{k: labels.tier(k) for k in ORDER}}
    places = [labels.place(c, report.places) for c in codes]
    _stacked(ax, places, series, COLORS, names, True)
    _stacked(serious, places, _serious_panel(serious, series, labels), COLORS, names, True)
    for a in (ax, serious):
        a.set_xlabel(labels("count"))
    ax.set_title(labels("by_place"))
    return figure


def _distribution(report: Report, labels: Labels):
    from matplotlib.ticker import FuncFormatter, NullFormatter

    if not report.single_stakes and not report.per_capita:
        return None
    most = max(sum(line.metric == m for line in report.lines) for m in LINE_METRICS)
    figure, axes = _figure(max(5.6, 2 * (0.6 + 0.13 * min(most, LINES_PER_COLUMN))), 2, 1)
    data = {"single_stake": report.single_stakes, "per_capita_capital": report.per_capita}
    for ax, (metric, pairs) in zip(axes, data.items(), strict=True):
        values = [v for _, v in pairs if v > 0]
        lines = [line for line in report.lines if line.metric == metric]
        ax.set_title(labels(metric))
        if not values:
            ax.text(0.5, 0.5, labels("none"), ha="center", transform=ax.transAxes)
            continue
        low = min([*values, *(line.value for line in lines)])
        high = max([*values, *(line.value for line in lines)])
        bins = _log_bins(low, high)
        scale = report.figure_counts.get(metric, len(pairs)) / len(pairs)  # pairs may be a sample
        ax.hist(values, bins=bins, color="#90a4ae", weights=[scale] * len(values))
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(_tick))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_ylabel(labels("count"))
        _integer_counts(ax.yaxis)
        for line in lines:
            place = labels.place(line.jurisdiction, report.places).rsplit(" ", 1)[0]
            only = f" ({', '.join(line.game_classes)})" if line.game_classes else ""
            ax.axvline(
                line.value,
                color=COLORS[line.tier],
                linewidth=1.4,
                linestyle="--",
                label=f"{place} {line.value:g}{only}",
            )
        if lines:
            # listed beside the axes: labels on the lines collide where the lines are close
            _legend_outside(ax, ncols=math.ceil(len(lines) / LINES_PER_COLUMN), fontsize=6.5)
    axes[-1].set_xlabel(labels("line_note"))
    return figure


def _tick(value: float, _pos) -> str:
    return f"{value:,.0f}" if value >= 1 else f"{value:g}"


def _log_bins(low: float, high: float, count: int = 30) -> list[float]:
    low, high = max(low, 0.01) / 1.1, max(high, low * 2) * 1.1
    step = (math.log10(high) - math.log10(low)) / count
    return [10 ** (math.log10(low) + i * step) for i in range(count + 1)]


def _near_misses(report: Report, labels: Labels):
    if not report.near_miss_bins:
        return None
    figure, (ax,) = _figure(2.8)
    keys = [k for k in ORDER if k in report.near_miss_bins]
    centres = [(a + b) / 2 for a, b in pairwise(NEAR_BINS)]
    ax.hist(
        [centres] * len(keys),
        bins=list(NEAR_BINS),
        stacked=True,
        weights=[report.near_miss_bins[k] for k in keys],
        color=[COLORS[k] for k in keys],
        label=[f"→ {labels.tier(k)}" for k in keys],
    )
    ax.set_xlabel(labels("margin_share"))
    ax.set_ylabel(labels("count"))
    ax.set_title(labels("near_misses"))
    _integer_counts(ax.yaxis)
    _legend_outside(ax)
    return figure


def _exposure(report: Report, labels: Labels):
    from matplotlib.ticker import FuncFormatter

    groups = [
        ("rooms", report.top_rooms),
        ("owners", report.top_owners),
        ("top_players", report.top_players),
    ]
    if not any(items for _, items in groups):
        return None
    figure, axes = _figure(7.5, 3, 1)
    for ax, (key, items) in zip(axes, groups, strict=True):
        ax.set_title(f"{labels('exposure')}: {labels(key)}")
        if not items:
            ax.text(0.5, 0.5, labels("none"), ha="center", transform=ax.transAxes)
            continue
        names = [e.label if labels.cjk else e.key.split("/", 1)[1] for e in items]
        colors = [COLORS.get(e.top_tier or "", "#b0bec5") for e in items]
        ax.barh(range(len(items)), [e.capital for e in items], color=colors)
        ax.set_yticks(range(len(items)), names, fontsize=7)
        ax.invert_yaxis()
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
        ax.set_xlabel(labels("capital"))
    return figure


def _over_time(report: Report, labels: Labels):
    if not report.over_time:
        return None
    months = list(report.over_time)
    keys = [k for k in ORDER if k not in ("exempt", "below_threshold")]
    series = {k: [report.over_time[m].get(k, 0) for m in months] for k in keys}
    figure, (ax, serious) = _figure(5.6, 2, 1)
    names = {"": labels("none"), **{k: labels.tier(k) for k in keys}}
    _stacked(ax, months, series, COLORS, names, False)
    _stacked(serious, months, _serious_panel(serious, series, labels), COLORS, names, False)
    for a in (ax, serious):
        a.set_ylabel(labels("count"))
    ax.set_title(labels("over_time"))
    return figure


def _mismatches(report: Report, labels: Labels):
    if not report.mismatches:
        return None
    games = list(report.mismatches)
    checks = sorted({c for counter in report.mismatches.values() for c in counter})
    series = {c: [report.mismatches[g].get(c, 0) for g in games] for c in checks}
    colors = {c: CHECK_COLORS[i % len(CHECK_COLORS)] for i, c in enumerate(checks)}
    figure, (ax,) = _figure(3.0)
    _stacked(
        ax,
        [labels.game(g) for g in games],
        series,
        colors,
        {c: labels.check(c) for c in checks},
        False,
    )
    ax.set_ylabel(labels("count"))
    ax.set_title(labels("mismatches"))
    return figure
