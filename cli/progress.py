"""How far a long import is, on the terminal (stderr), once it has run for a few seconds.

When to speak is core's pure rule (core/roster/progress.py); this only writes the line: over itself
on a terminal, as lines of their own into a pipe or a file.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from cli import words
from core.roster.progress import progress_due


class ImportProgress:
    """A `Progress` callback for the CSV import that writes to `stream` when the rule says so."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, stream: TextIO | None = None) -> None:
        self.clock = clock
        self.stream = stream if stream is not None else sys.stderr
        self.started = clock()
        self.shown_at: float | None = None

    def __call__(self, line: int, lines: int) -> None:
        now = self.clock()
        if not progress_due(self.started, self.shown_at, now):
            return
        self.shown_at = now
        said = words.line("cli.import.progress", line_count=line, lines_count=lines)
        self.stream.write(f"\rshiftcast: {said}" if self._terminal() else f"shiftcast: {said}\n")
        self.stream.flush()

    def end(self) -> None:
        """After the last row: a progress line left open on a terminal is ended, so what follows starts anew."""
        if self.shown_at is not None and self._terminal():
            self.stream.write("\n")
            self.stream.flush()
        self.shown_at = None  # said once, however many ways the import ends

    def _terminal(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False
