"""Hypothesis settings for the test suite: every example has a deadline.

An example slower than ``deadline`` fails the test (hypothesis reports it as ``DeadlineExceeded``)
instead of passing silently slowly; a test that never returns is ended by the time limit of the
repository's ``conftest.py``. The deadline is generous because the suite runs on loaded machines:
it catches a computation gone wrong (minutes), not a slow one. ``HYPOTHESIS_PROFILE=dev`` runs
without deadlines (e.g. under a debugger).
"""

from __future__ import annotations

import os
from datetime import timedelta

from hypothesis import settings

settings.register_profile("tvbo", deadline=timedelta(seconds=60))
settings.register_profile("dev")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "tvbo"))
