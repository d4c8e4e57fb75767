"""图表: legends beside the data, threshold labels apart and legible, serious tiers visible,
whole-number count axes; asserted on the matplotlib Figures."""

from __future__ import annotations

from itertools import combinations

import matplotlib
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb, to_rgba
from matplotlib.ticker import MaxNLocator

from compliance.reporting import charts
from compliance.reporting.labels import Labels
from compliance.reporting.model import ReportQuery, SessionFact, build
from tests.unit.test_report_model import DAY, NOW, integrity, source, threshold

PLACES = ("430000", "420000", "530000", "441900", "500000", "610000")
COUNT_LABELS = {"数量 count", "count"}


@pytest.fixture(scope="module")
def report(rule_book):
    """Many below-threshold findings beside a few criminal and very serious ones."""
    found = [
        threshold(f"s{i}", f"u{i}", "below_threshold", where=p) for i, p in enumerate(PLACES * 300)
    ]
    found += [threshold("s1", "u1", "administrative", where=p) for p in PLACES * 40]
    found += [threshold("s2", "u2", "criminal", where="430000"), integrity("s3")]
    found += [threshold("s3", "u3", "administrative_very_serious", where="420000")]
    found += [threshold("s4", "u4", "criminal_serious", where="530000")]
    found += [
        threshold("s5", f"n{i}", "administrative", 45, "administrative_serious", 5, 50)
        for i in range(7)
    ]
    found += [threshold("s5", "n9", "below_threshold", 19, "administrative", 1, 20)]
    sessions = [
        SessionFact("p", f"s{i}", "douniu", "r", "o", DAY, p, 4, 100.0 * (i + 1), 25.0 * (i + 1))
        for i, p in enumerate(PLACES)
    ]
    return build(source(found, sessions=sessions, book=rule_book), ReportQuery(), NOW)


def drawn(report, name: str):
    draw = {
        "by_place": charts._by_place,
        "distribution": charts._distribution,
        "near_misses": charts._near_misses,
        "over_time": charts._over_time,
        "mismatches": charts._mismatches,
    }[name]
    family = charts.find_cjk_family()
    fonts = [family, "DejaVu Sans"] if family else ["DejaVu Sans"]
    with matplotlib.rc_context({"font.family": fonts, "font.size": 9}):
        figure = draw(report, Labels(cjk=family is not None))
        canvas = FigureCanvasAgg(figure)
        canvas.draw()  # lays out (constrained) and fixes every extent
    return figure, canvas.get_renderer()


def overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def luminance(colour) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one, other) -> float:
    """WCAG 2 contrast ratio."""
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def behind(legend, figure) -> tuple[float, float, float]:
    """The legend frame's colour as painted over the figure."""
    r, g, b, a = to_rgba(legend.get_frame().get_facecolor())
    fr, fg, fb = to_rgb(figure.get_facecolor())
    return (r * a + fr * (1 - a), g * a + fg * (1 - a), b * a + fb * (1 - a))


CHARTS = ["by_place", "distribution", "near_misses", "over_time", "mismatches"]


def test_the_report_fixture_has_threshold_lines_to_label(report):
    assert len({line.jurisdiction for line in report.lines}) >= 3


@pytest.mark.parametrize("name", CHARTS)
def test_every_legend_lies_outside_its_axes_and_inside_the_figure(report, name):
    figure, renderer = drawn(report, name)
    legends = [(ax, ax.get_legend()) for ax in figure.axes if ax.get_legend()]
    assert legends
    page = figure.get_window_extent(renderer)
    for ax, legend in legends:
        box = legend.get_window_extent(renderer)
        assert not overlap(box, ax.get_window_extent(renderer))
        assert page.x0 <= box.x0 and box.x1 <= page.x1 + 0.5 and box.y0 >= page.y0 - 0.5


def test_threshold_line_labels_do_not_overlap_and_read_at_4_5_to_1(report):
    figure, renderer = drawn(report, "distribution")
    for ax in figure.axes:
        lines = report.lines
        legend = ax.get_legend()
        texts = legend.get_texts()
        metric = "single_stake" if ax.get_title().lower().startswith(("单注", "single")) else ""
        assert len(texts) == sum(line.metric == (metric or "per_capita_capital") for line in lines)
        boxes = [t.get_window_extent(renderer) for t in texts]
        assert all(not overlap(a, b) for a, b in combinations(boxes, 2))
        for text in texts:
            assert contrast(text.get_color(), behind(legend, figure)) >= 4.5
        assert not any(t.get_text().strip() for t in ax.texts)  # nothing written on the lines


@pytest.mark.parametrize("name", ["by_place", "over_time", "near_misses", "mismatches"])
def test_legend_labels_read_at_4_5_to_1(report, name):
    figure, _ = drawn(report, name)
    for ax in figure.axes:
        legend = ax.get_legend()
        if legend:
            for text in legend.get_texts():
                assert contrast(text.get_color(), behind(legend, figure)) >= 4.5


@pytest.mark.parametrize("name", ["by_place", "over_time"])
def test_criminal_and_very_serious_get_a_scale_of_their_own(report, name):
    figure, renderer = drawn(report, name)
    serious = [c for c in (charts.COLORS[k] for k in charts.SERIOUS)]
    panels = [
        ax
        for ax in figure.axes
        if ax.patches
        and all(
            to_rgb(p.get_facecolor()) in map(to_rgb, serious)
            for p in ax.patches
            if p.get_width() and p.get_height()
        )
    ]
    assert len(panels) == 1
    (ax,) = panels
    horizontal = name == "by_place"
    ends = [
        p.get_x() + p.get_width() if horizontal else p.get_y() + p.get_height() for p in ax.patches
    ]

    def span(a) -> float:
        return a.get_xlim()[1] if horizontal else a.get_ylim()[1]

    assert 0.5 <= max(ends) / span(ax) < 1  # fills half its axis at least, and is not cut
    other = next(a for a in figure.axes if a is not ax)
    assert span(other) > 10 * span(ax)  # beside the other counts it would be a sliver


@pytest.mark.parametrize("name", CHARTS)
def test_count_axes_have_integer_ticks(report, name):
    figure, _ = drawn(report, name)
    counted = [
        axis
        for ax in figure.axes
        for axis, label in ((ax.xaxis, ax.get_xlabel()), (ax.yaxis, ax.get_ylabel()))
        if label in COUNT_LABELS
    ]
    assert counted
    for axis in counted:
        locator = axis.get_major_locator()
        assert isinstance(locator, MaxNLocator) and locator._integer
        assert all(float(t).is_integer() for t in axis.get_ticklocs())


def test_a_stacked_bar_with_an_empty_top_segment_is_not_cut_at_the_frame():
    from matplotlib.figure import Figure

    ax = Figure().subplots()
    colours, names = {"x": "#000000", "y": "#444444"}, {"x": "x", "y": "y"}
    charts._stacked(ax, ["a", "b"], {"x": [16, 1], "y": [0, 3]}, colours, names, False)
    assert ax.get_ylim()[1] > 16
