"""The Qt binding must not leak references to None/True: on Python 3.11 such a leak ends the process
with "Fatal Python error: none_dealloc" after enough signal emits (seen with PySide6 6.12.0)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # a fresh interpreter with Qt

PROBE = """
import sys
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication([])
class Relay(QObject):
    fired = Signal(object)
relay, widget = Relay(), QWidget()
before = sys.getrefcount(None), sys.getrefcount(True)
for _ in range(200):
    relay.fired.emit(None)
    widget.setEnabled(True)
after = sys.getrefcount(None), sys.getrefcount(True)
print(after[0] - before[0], after[1] - before[1])
"""


def test_signal_emits_and_void_calls_do_not_leak_references() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60,
                          env=os.environ | {"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr[-500:]
    leaked_none, leaked_true = (int(x) for x in done.stdout.split())
    assert abs(leaked_none) < 50 and abs(leaked_true) < 50
