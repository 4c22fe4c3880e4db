"""The shared figure layout of the ``bolt`` claims (``tvbo_verify.papers.bolt.checks.plotting``)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from tvbo_verify.papers.bolt.checks.plotting import WIDTH, finish, new_axes  # noqa: E402


def test_finish_labels_limits_and_places_the_legend_outside():
    fig, ax = new_axes(3.0)
    ax.plot([1, 2, 3], [1, 4, 9], label="data")
    finish(ax, xlabel="n", ylabel="value", xlim=(1, 3), title="t")
    assert fig.get_size_inches()[0] == WIDTH
    assert ax.get_xlabel() == "n" and ax.get_ylabel() == "value" and ax.get_xlim() == (1.0, 3.0)
    assert ax.get_title() == "t" and ax.get_legend() is not None
