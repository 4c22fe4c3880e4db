"""Whatever comes in, ``calc`` and ``run`` answer with a table (exit 0) or one line on stderr (exit 2).

Hypothesis draws option values across scales (huge, tiny, negative, zero, non-numbers, NaN-like
strings; horizons up to 10^400), unknown ``-p key=value`` pairs and random response-time expressions;
a traceback, an uncaught exception, a Python warning printed to stderr or output on stdout before an
error fails the test. Every example has a deadline (hypothesis reports an example slower than
``DEADLINE``), and a stall guard interrupts one that runs for ``STALL`` seconds and fails the test with
the arguments, so a calculator that never returns cannot hang the suite.
"""

from __future__ import annotations

import contextlib
import signal
import time
import warnings
from datetime import timedelta

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tvbo_verify.cli import main
from tvbo_verify.theory.calculators import BETA_PAPERS

#: Hypothesis deadline of one example (a calculator answers in well under a second on an idle machine).
DEADLINE = timedelta(seconds=20)
#: An example still running after this many seconds is interrupted and fails the test.
STALL = 60


class Stalled(BaseException):
    """Raised in a calculator that runs past :data:`STALL` (a BaseException, so no handler swallows it)."""


@contextlib.contextmanager
def stall_guard(seconds: float, what: object):
    """Raise :class:`Stalled` naming ``what`` when the block runs past ``seconds``; the test's own time limit
    (the root conftest's SIGALRM timer) is suspended meanwhile and restored with the time it has left."""
    def interrupt(signum, frame):
        raise Stalled(f"still running after {seconds} s: {what}")

    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds if not outer_left else min(seconds, outer_left))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_left:
            signal.setitimer(signal.ITIMER_REAL, max(outer_left - (time.monotonic() - start), 1e-3))


HUGE_INT_TEXT = st.sampled_from(["100000000000000000000", "1e20", "4611686018427387904", "4611686018427387905",
                                 "1" + "0" * 400, "9223372036854775808", "1e300", "1e12", "10000000", "10000001"])
NUMBER_TEXT = st.one_of(
    st.sampled_from(["0", "-1", "1e308", "-1e308", "1e-308", "nan", "inf", "-inf", "NaN", "1e999", "abc", "", "3",
                     "0.25", "2", "1e30", "1e-30"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-10**12, 10**12).map(str),
)
#: Plausible values across many scales (positive, mostly in the ranges the papers use, some far outside).
PLAUSIBLE_TEXT = st.one_of(
    st.sampled_from(["0.01", "0.1", "0.2", "0.25", "0.3", "0.5", "1", "1.5", "2", "3", "10", "100"]),
    st.floats(-12, 12).map(lambda e: repr(10.0**e)),
    st.floats(0.001, 0.999).map(repr),
)
SMALL_INT_TEXT = st.one_of(st.sampled_from(["0", "-5", "1", "2", "7", "1.5", "x", "100", "1000000000000", "1e9"]),
                           st.integers(-3, 3000).map(str))
PLAUSIBLE_INT_TEXT = st.one_of(st.sampled_from(["2", "10", "100", "1000", "1e6", "1e9", "1000000000000"]),
                               st.integers(1, 5000).map(str), HUGE_INT_TEXT)

ATOMS = st.sampled_from(["n", "1", "0.1", "1e-6", "1e300", "-2", "0", "e", "pi", "n^3", "n**2", "log(n)", "sqrt(n)",
                         "exp(n)", "(n+1)", "1e-300"])


@st.composite
def expressions(draw) -> str:
    parts = [draw(ATOMS)]
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from([" + ", " - ", "*", "/", "^"]))
        parts.append(op + draw(ATOMS))
    text = "".join(parts)
    if draw(st.booleans()):
        text = draw(st.sampled_from(["log", "sqrt", "exp", "log10"])) + "(" + text + ")"
    return text


@st.composite
def calc_args(draw) -> list[str]:
    command = draw(st.sampled_from(["window", "queries", "nstar", "beta", "gamma", "lower-bound", "block", "discount",
                                    "regret-bound"]))
    weird = draw(st.booleans())  # half the examples may hold any text; the others plausible values at any scale
    x = (lambda: draw(NUMBER_TEXT)) if weird else (lambda: draw(PLAUSIBLE_TEXT))
    i = (lambda: draw(SMALL_INT_TEXT)) if weird else (lambda: draw(PLAUSIBLE_INT_TEXT))
    if command == "window":
        return ["window", "--alpha", x(), "--alpha-tilde", x(), "-T", i(), "--queries",
                draw(st.sampled_from(["experiments", "log", "theory", "bogus"]))]
    if command == "queries":
        return ["queries", "--alpha", x(), "-T", i(), "--budget", x(), "--noise-var", x(), "--eta", x()]
    if command == "nstar":
        kernel = draw(st.sampled_from(["se", "matern12", "matern32", "matern52", "rq", "cosine"]))
        if draw(st.booleans()):
            response = draw(expressions())
        else:  # a response model of Definition 3.5 (R(0) > 0, increasing, diverging) at a random scale
            power = draw(st.sampled_from(['1', '2', '3', '0.5']))
            response = f"{draw(PLAUSIBLE_TEXT)} + {draw(PLAUSIBLE_TEXT)}*n^{power}"
        return ["nstar", "--response", response, "--temporal-kernel", kernel, "--temporal-lengthscale", x(),
                "--n0", i()]
    if command == "beta":
        return ["beta", "--paper", draw(st.sampled_from(BETA_PAPERS)), "-t", i(),
                "--delta", x(), "--B", x(), "--d", i(), "--lipschitz", x()]
    if command == "gamma":
        grid = ["--grid", i(), "--lengthscale", x(), "--noise-var", x()] if draw(st.booleans()) else []
        return ["gamma", "--kernel", draw(st.sampled_from(["se", "matern"])), "-T", i(), "--d", i(), "--nu", x(),
                *grid]
    if command == "lower-bound":
        paper = draw(st.sampled_from(["bolt", "wsparq", "tvgpucb"]))
        if paper == "bolt":
            return ["lower-bound", "bolt", "--period", x(), "--temporal-lengthscale", x(), "--d", i(),
                    "--lipschitz", x()]
        if paper == "wsparq":
            extra = ["--gamma", x(), "--cells", i()] if draw(st.booleans()) else []
            return ["lower-bound", "wsparq", "--alpha", x(), "-T", i(), "--budget", x(), "--noise-var", x(), *extra]
        return ["lower-bound", "tvgpucb", "--epsilon", x(), "-T", i(), "--samples",
                draw(st.sampled_from(["0", "2", "-1", "5"]))]
    if command == "block":
        return ["block", "--epsilon", x(), "-T", i(), "--kernel", draw(st.sampled_from(["se", "matern"])), "--nu", x()]
    if command == "discount":
        return ["discount", "-T", i(), "--gamma-dot", x(), "--variation-budget", x()]
    names = ["alpha", "alpha_tilde", "d", "delta", "epsilon", "nu", "gamma_dot", "B_T", "epsilon_c", "zeta", "x"]
    pairs = [f"{draw(st.sampled_from(names))}={x()}" for _ in range(draw(st.integers(0, 4)))]
    bound = draw(st.sampled_from(["wsparq:prop-2.2", "wsparq:thm-3.10", "tvgpucb:cor-4.1-r-matern",
                                  "wgpucb:cor-5-known", "bolt:thm-3.6", "nope"]))
    return ["regret-bound", "--bound", bound, "-T", i(), "--rkhs-bound", x(), *[a for p in pairs for a in ("-p", p)]]


def answer(result) -> str:
    """``"table"`` or ``"error"`` after checking the answer is one of them: a table on stdout with exit 0, or
    exactly one ``error:`` line on stderr, nothing on stdout and exit 2; never a traceback or a warning."""
    text = (result.stdout or "") + (result.stderr or "")
    assert "Traceback" not in text and "Warning" not in result.stderr, text
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 2), (result.exit_code, text)
    if result.exit_code == 2:
        assert result.stdout == "", result.stdout
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        return "error"
    assert result.stdout.strip(), "exit 0 without a table"
    return "table"


@settings(max_examples=150, deadline=DEADLINE, suppress_health_check=[HealthCheck.too_slow])
@given(args=calc_args())
def test_calculators_answer_with_a_table_or_one_error_line(args):
    with warnings.catch_warnings(), stall_guard(STALL, ["calc", *args]):
        warnings.simplefilter("error")  # a RuntimeWarning would reach the user's terminal
        result = CliRunner().invoke(main, ["calc", *args])
    assert answer(result) in ("table", "error")


@pytest.mark.parametrize("args", [
    ["lower-bound", "wsparq", "--alpha", "0.001", "-T", "1e12", "--budget", "0.4", "--noise-var", "0.001"],
    ["window", "--alpha", "1", "--alpha-tilde", "0.01", "-T", "100000000000000000000"],
    ["window", "--alpha", "1", "--alpha-tilde", "0.01", "-T", "4611686018427387904"],
    ["queries", "--alpha", "2", "-T", "1" + "0" * 400],
    ["lower-bound", "wsparq", "--alpha", "2", "-T", "1000", "--gamma", "1e-300", "--cells", "1000000000000"],
    ["lower-bound", "tvgpucb", "--samples", "1000000"],
    ["block", "--epsilon", "1e-4", "-T", "10000000"],
    ["discount", "-T", "1" + "0" * 400], ["beta", "--paper", "tvgpucb", "-t", "1" + "0" * 400],
    ["gamma", "--kernel", "se", "-T", "1000000000000", "--grid", "1000000", "--d", "100000"],
    ["nstar", "--response", "1e-30 + 1e-30*n^0.5", "--temporal-kernel", "matern12", "--temporal-lengthscale", "1e300"],
    ["lower-bound", "bolt", "--period", "1.2717308641205348e+16", "--temporal-lengthscale", "1e-308"],
    ["lower-bound", "bolt", "--period", "1e-308", "--temporal-lengthscale", "1e-30", "--lipschitz", "7.5e14"],
    ["window", "--alpha", "4048045066146212.0", "--alpha-tilde", "1e-308", "-T", "100"],
    ["window", "--alpha", "1", "--alpha-tilde", "0.2", "-T", "100", "--t1", "1" + "0" * 30],
    ["discount", "-T", "2", "--gamma-dot", "1e308", "--variation-budget", "1e-308"],
    ["gamma", "--kernel", "se", "-T", "2", "--d", "1" + "0" * 400],
], ids=lambda a: " ".join(a[:3]))
def test_inputs_that_stalled_or_crashed_answer_within_the_guard(args):
    """The cases the review found (a stall of minutes, tracebacks) and their neighbours, drawn for sure."""
    with warnings.catch_warnings(), stall_guard(STALL, ["calc", *args]):
        warnings.simplefilter("error")
        result = CliRunner().invoke(main, ["calc", *args])
    assert answer(result) in ("table", "error")


@settings(max_examples=25, deadline=DEADLINE, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(
    algo=st.sampled_from(["gp-ucb", "r-gp-ucb", "tv-gp-ucb", "sw-gp-ucb", "nope"]),
    T=SMALL_INT_TEXT,
    reps=st.sampled_from(["1", "0", "-1", "2", "x"]),
    params=st.lists(st.tuples(st.sampled_from(["epsilon", "block", "window", "eps", "zeta", "beta"]), NUMBER_TEXT),
                    max_size=2),
    env_params=st.lists(st.tuples(st.sampled_from(["epsilon", "noise_var", "kernel", "zeta"]),
                                  st.one_of(NUMBER_TEXT, st.sampled_from(["matern52", "se:0.3", "cosine", "rq:x"]))),
                        max_size=2),
    workers=st.sampled_from([None, "0", "1", "-2", "x"]),
)
def test_run_answers_with_a_summary_or_one_error_line(tmp_path_factory, algo, T, reps, params, env_params, workers):
    out = tmp_path_factory.mktemp("run")
    args = ["run", algo, "--env", "tvgpucb-markov", "-T", T, "--reps", reps, "--out", str(out / "r"), "--executor",
            "serial", "--quiet", "--no-plot", "-e", "points_per_dim=5"]
    try:
        too_long = float(T) > 40
    except ValueError:
        too_long = False
    if too_long:
        args[args.index("-T") + 1] = "40"  # keep runs short: a valid huge horizon is a long run, not an error
    for k, v in params:
        args += ["-p", f"{k}={v}"]
    for k, v in env_params:
        args += ["-e", f"{k}={v}"]
    if workers is not None:
        args += ["--workers", workers]
    result = CliRunner().invoke(main, args)
    if answer(result) == "error":
        assert not (out / "r" / "run.json").exists()


@pytest.mark.parametrize(("text", "expected"), [
    ("n^n^n^n", "R(n) must be finite"), ("exp(exp(exp(n)))", "R(n) must be finite"), ("1/(n-3)", "R(0) must be > 0"),
    ("log(0)", "must be finite and real"), ("sqrt(-1)", "must be finite and real"), ("1e308*n^9", "R(0) must be > 0"),
    ("0.1 + 1e-6*n^3", "n_star"),
])
def test_awkward_response_expressions(text, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = CliRunner().invoke(main, ["calc", "nstar", "--response", text, "--temporal-kernel", "se",
                                           "--temporal-lengthscale", "10"])
    kind = answer(result)
    assert kind == ("table" if expected == "n_star" else "error")
    assert expected in (result.stdout if kind == "table" else result.stderr)
