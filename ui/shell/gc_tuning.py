"""Garbage collection tuned for a window that must not stutter.

A full collection walks every container object; with the Deliveries view holding tens of thousands
of rows it took 50–90 ms, and it runs on whichever thread happens to trigger it while holding the
GIL — often freezing the window while the sender drains (measured by `make bench`). Objects alive
after start-up (modules, widgets, the loaded rows) are moved out of the collector's sight, and full
collections run less often. Reference counting still frees almost everything at once; only cycles
wait a little longer.
"""

from __future__ import annotations

import gc

from core.startup import resume_collector

THRESHOLDS = (10_000, 50, 100)  # CPython's defaults are (700, 10, 10)


def tune_for_interactivity() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    resume_collector()  # paused since main.py began (core/startup.py)
