"""ui/shell/gc_tuning.py: in the window's process, cycles are collected on the UI thread only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core.child_environment import child_environment

ROOT = Path(__file__).resolve().parent.parent

# As main.py starts the window: the collector paused at once, handed over when the first loads landed.
# Then a worker thread allocates as a sender or a background task does, while cycles wait to be freed.
PROGRAM = """
import gc, json, threading, weakref
from core.startup import pause_collector
pause_collector()
from PySide6.QtCore import QCoreApplication, QObject, QTimer
from ui.shell import gc_tuning
app = QCoreApplication([])
gc_tuning.FULL_EVERY = 1
gc_tuning.tune_for_interactivity(app)
freed_on = set()

class Holder:
    pass

def make_cycle():
    holder = Holder()
    holder.itself = holder
    holder.qt = QObject()
    weakref.finalize(holder, lambda: freed_on.add(threading.current_thread().name))

for _ in range(50):
    make_cycle()

def allocate():
    for _ in range(20):
        kept = [[] for _ in range(50_000)]
        del kept

worker = threading.Thread(target=allocate, name="worker")
worker.start()
worker.join()
QTimer.singleShot(0, lambda: QTimer.singleShot(int(gc_tuning.YOUNG_EVERY_MS * 1.5), app.quit))
app.exec()
print(json.dumps({"automatic": gc.isenabled(), "freed_on": sorted(freed_on)}))
"""


def test_cycles_are_freed_on_the_ui_thread_never_on_a_worker() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True,
                          env=child_environment(given={"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}),
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"automatic": False, "freed_on": ["MainThread"]}
