"""tvbo_verify: check by computation what the theory of time-varying GP bandit optimisation states.

Layers (imports point downward only)::

    cli -> report -> verify -> bandits -> theory -> core numerics

Core numerics live in the top-level modules: :mod:`kernels`, :mod:`spectral`, :mod:`gp`,
:mod:`information`, :mod:`confidence` (and the sparse-inference modules built on them).

Importing the package imports nothing else: ``__version__`` is read from the installed metadata on
first access, so ``tvbo-verify --version`` starts at once.
"""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("tvbo-verify")
    except PackageNotFoundError:  # running from a source tree without installation
        value = "0.0.0"
    globals()["__version__"] = value
    return value
