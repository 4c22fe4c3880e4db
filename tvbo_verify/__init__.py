"""tvbo_verify: check by computation what the theory of time-varying GP bandit optimisation states.

Layers (imports point downward only)::

    cli -> report -> verify -> bandits -> theory -> core numerics

Core numerics live in the top-level modules: :mod:`kernels`, :mod:`spectral`, :mod:`gp`,
:mod:`information`, :mod:`confidence` (and the sparse-inference modules built on them).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tvbo-verify")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"

__all__ = ["__version__"]
