"""When a long import tells how far it is: a pure rule, with the clock passed in.

A file of a few hundred rows is done before anyone wonders, so nothing is said in the first seconds;
past them, a line now and then shows that the work goes on, never so often that printing it costs
more than the rows.
"""

from __future__ import annotations

from collections.abc import Callable

QUIET_SECONDS = 3.0  # nothing is said before this
EVERY_SECONDS = 1.0  # then at most this often

Progress = Callable[[int, int], None]  # (the line just read, the file's lines): told after every row


def progress_due(started: float, last_shown: float | None, now: float) -> bool:
    """Whether to show the progress at `now` (seconds on one monotonic clock)."""
    if now - started < QUIET_SECONDS:
        return False
    return last_shown is None or now - last_shown >= EVERY_SECONDS
