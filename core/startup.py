"""The cyclic garbage collector rests while the process starts.

Importing SQLAlchemy and declaring the models creates about 100,000 objects that all live until the
process ends, and almost none of them are garbage (a full collection right after start-up finds a few
hundred). CPython's collector nonetheless runs every 700 allocations and walks them again each time:
about a fifth of `main.py teachers --json` (docs/performance.md). So main.py pauses it first, and it
resumes where start-up ends (just before a verb runs, or once the window's first loads have landed),
with the start-up objects frozen out of its sight so later full collections skip them. Reference
counting frees everything else as usual meanwhile; only cycles wait.
"""

from __future__ import annotations

import gc

_paused = False


def pause_collector() -> None:
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collector(*, automatic: bool = True) -> None:
    """Idempotent, and a no-op when start-up did not pause the collector (a test calling a verb).
    `automatic=False`: start-up ends, but the caller collects on its own terms (the window's
    process collects on its UI thread only)."""
    global _paused
    if _paused:
        gc.freeze()
        if automatic:
            gc.enable()
        _paused = False
