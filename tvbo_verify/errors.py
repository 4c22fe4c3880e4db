"""Exception types shared by every layer."""


class NumericalError(ArithmeticError):
    """A factorisation failed even after the largest jitter of the ladder.

    Raised by :func:`tvbo_verify.linalg.stable_cholesky`; the message names the matrix, its size
    and the largest jitter tried.
    """
