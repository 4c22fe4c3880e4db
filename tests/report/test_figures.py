"""Figures the report shows read correctly: one-line titles, no quantity in log units on a log axis, plots not
squeezed by their tick labels, and no curve with a fitted constant labelled a bound."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _texts(fig) -> list[str]:
    return [fig.get_suptitle()] + [t.get_text() for t in fig.texts] + \
        [ax.get_title(loc) for ax in fig.axes for loc in ("left", "center", "right")]


def test_long_configuration_labels_do_not_squeeze_the_frequency_plot():
    from tvbo_verify.verify.builders.figures import frequency_figure

    labels = [f"actions={a}, lam=1.0, disc={g}, B=1.0, T=500, event={e}, δ=0.1"
              for a, g in (("random", 0.9), ("adversarial", 0.9), ("ucb", 0.99))
              for e in ("all t <= T at once (as stated)", "t = T only")]
    freq, lo, hi = [0.13, 0.4, 0.9, 1, 0.97, 1], [0.03, 0.2, 0.8, 0.9, 0.9, 0.9], [0.3, 0.6, 0.97, 1, 1, 1]
    fig = frequency_figure(labels, freq, lo, hi, 0.9)
    fig.canvas.draw()
    assert fig.axes[0].get_position().width > 0.5  # the plot keeps most of the figure's width
    assert "B=1.0, T=500" in fig.axes[0].get_xlabel()  # what every configuration shares is said once


def test_bolt_figure_1_draws_minus_log10_epsilon_on_a_linear_axis():
    from tvbo_verify.papers.bolt.reproductions import figures as bf
    from tvbo_verify.sweeps.reproduce.analysis import Finding

    curves = {k: [-(1.0 + 3.0 * j) * (i + 1) * math.log(10) for j in range(len(bf.FIG1_FREQUENCIES))]
              for i, k in enumerate(bf.FIG1_KERNELS)}  # −log10 ε_c from 1 to ~500
    floor = {k: {f"{f:g} Hz": {"mean": 0.1 / f, "ci95": [0.05 / f, 0.15 / f]} for f in bf.RUN_FREQUENCIES}
             for k in bf.FIG1_ORDER}
    fig = bf.figure_1_figure({}, Finding("t", {"frequencies": list(bf.FIG1_FREQUENCIES), "log_epsilon_c": curves,
                                               "measured_floor": floor}))
    left = fig.axes[0]
    assert left.get_yscale() == "linear" and left.get_ylim() == (0.0, bf.FIG1_DEPTH)
    drawn = np.concatenate([line.get_ydata() for line in left.get_lines()]).astype(float)
    assert np.nanmax(drawn) <= bf.FIG1_DEPTH  # what leaves the axes is marked, not drawn off-scale


def test_reproduced_figures_have_one_line_titles():
    from tvbo_verify.sweeps import RunCache
    from tvbo_verify.sweeps.reproduce import get_reproduction, measure

    rep = get_reproduction("tvgpucb:figure-2ab")
    outcome = measure(rep, fidelity="quick", cache=RunCache())
    fig = rep.figure(outcome.results, outcome.finding)
    for text in _texts(fig):
        assert "\n" not in text and len(text) <= 110, text[:200]


def test_a_figure_that_draws_a_paragraph_is_noted_in_the_report(tmp_path):
    from tvbo_verify.report.figures import text_problems
    from tvbo_verify.report.runner import save_figures
    from tvbo_verify.verify import Evidence, Verdict

    def wordy():
        fig, ax = plt.subplots()
        ax.plot([0, 1])
        fig.suptitle("a finding\nwrapped over\nthree lines")
        return fig

    assert text_problems(wordy()) and not text_problems(plt.subplots()[0])
    (tmp_path / "figures").mkdir()
    ev = Evidence(Verdict.CONFIRMED, "holds", figures=[("wordy", wordy)])
    listed = save_figures(tmp_path, "wsparq:assumption-1", ev)
    assert listed[0]["file"] and any("3 lines" in n for n in ev.stats["notes"])


def test_an_order_with_a_fitted_constant_is_never_labelled_a_bound():
    from tvbo_verify.verify.builders.rate import RateMeasurement, rate_figure

    x = np.array([100.0, 1000.0, 10000.0])
    m = RateMeasurement(x, np.array([[10.0, 30.0, 100.0], [12.0, 35.0, 110.0]]), 0.5)
    labels = rate_figure(m).axes[0].get_legend_handles_labels()[1]
    fitted = [lab for lab in labels if "fitted" in lab]
    assert fitted and not any("bound" in lab for lab in fitted)
    m.bound = 50.0 * np.sqrt(x)
    labels = rate_figure(m).axes[0].get_legend_handles_labels()[1]
    assert "stated bound with its constants" in labels


def test_the_run_plot_fits_the_order_of_the_bound_and_says_so(tmp_path):
    from types import SimpleNamespace

    from tvbo_verify.cli import run as run_cmd

    t = np.arange(1, 201, dtype=float)
    traces = [SimpleNamespace(cumulative=np.sqrt(t) * s) for s in (1.0, 1.2)]
    captured = {}
    original = plt.Figure.savefig

    def keep(fig, *args, **kwargs):
        captured["labels"] = fig.axes[0].get_legend_handles_labels()[1]
        return original(fig, *args, **kwargs)

    plt.Figure.savefig = keep
    try:
        run_cmd._plot(traces, "wgp-ucb", "stationary", 1, {}, str(tmp_path / "regret.png"))
    finally:
        plt.Figure.savefig = original
    fitted = [lab for lab in captured["labels"] if "order" in lab]
    assert fitted and all("constant fitted" in lab and "scaled at T" not in lab for lab in fitted), captured
