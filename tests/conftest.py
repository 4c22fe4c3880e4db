"""Hypothesis settings for the test suite, and Ctrl-C delivered to the commands the tests start.

Every hypothesis example has a deadline.

An example slower than ``deadline`` fails the test (hypothesis reports it as ``DeadlineExceeded``)
instead of passing silently slowly; a test that never returns is ended by its time limit (the pytest
plugin, :mod:`tvbo_verify.pytest_plugin`). The deadline is generous because the suite runs on loaded machines:
it catches a computation gone wrong (minutes), not a slow one. ``HYPOTHESIS_PROFILE=dev`` runs
without deadlines (e.g. under a debugger).

The Ctrl-C tests send SIGINT to the commands and worker pools they start. A shell that starts the suite in
the background (``nohup pytest &``) makes it ignore SIGINT, and an ignored signal stays ignored in every
process started from it, so those tests would fail for a reason outside the code. The suite therefore
handles SIGINT itself (as an interactive ``pytest`` does), and a handled signal is back to its default in
a started command.
"""

from __future__ import annotations

import os
import signal
from datetime import timedelta

from hypothesis import settings

settings.register_profile("tvbo", deadline=timedelta(seconds=60))
settings.register_profile("dev")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "tvbo"))

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
