"""Log-axis tick labels as plain text: the same numbers as matplotlib's mathtext labels."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from tvbo_verify.report.ticks import PlainLogFormatter, plain_label, plain_log_ticks  # noqa: E402


@pytest.mark.parametrize("label, plain", [
    (r"$\mathdefault{10^{-3}}$", "10⁻³"),
    (r"$\mathdefault{10^{12}}$", "10¹²"),
    (r"$\mathdefault{-10^{0}}$", "−10⁰"),
    (r"$\mathdefault{2\times10^{4}}$", "2×10⁴"),
    (r"$\mathdefault{0}$", "0"),
    (r"$\mathdefault{-1.5}$", "−1.5"),
    (r"$\mathdefault{e^{2}}$", r"$\mathdefault{e^{2}}$"),  # not a power of ten: kept as mathtext
    ("plain", "plain"),
])
def test_plain_label_writes_the_number_of_the_mathtext_label(label, plain):
    assert plain_label(label) == plain


def test_log_and_symlog_axes_get_plain_labels_of_the_same_ticks():
    fig, (a, b) = plt.subplots(1, 2)
    a.loglog([1, 10, 100, 3e4], [1e-3, 1, 10, 100])
    b.set_yscale("symlog", linthresh=1e-3)
    b.plot([0, 1, 2], [-1, 0, 1e2])
    fig.canvas.draw()
    before = [[t.get_text() for t in ax.get_yticklabels()] for ax in (a, b)]
    plain_log_ticks(fig)
    fig.canvas.draw()
    after = [[t.get_text() for t in ax.get_yticklabels()] for ax in (a, b)]
    assert after == [[plain_label(t) for t in labels] for labels in before]
    assert "10⁻³" in after[0] and "−10⁰" in after[1] and not any("$" in t for t in after[0] + after[1])
    assert isinstance(a.xaxis.get_major_formatter(), PlainLogFormatter)
    plt.close(fig)
