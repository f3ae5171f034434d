"""`shiftcast tray` on a desktop with no system tray (yet).

At login a desktop's panel often starts a few seconds after the programs started with it, and some
desktops have no tray at all (GNOME without its AppIndicator extension, a bare window manager). So
the tray mode waits a while for a tray, sending all the while; one that appears takes Shiftcast in as
asked, with no window. If none appears, the window opens with the reason beside it in a box that
holds nothing up (the modal box this replaced held the start until someone at the computer clicked
it), and a line says it on stderr and in the log; a tray that comes later is still taken up, so closing the window then hides it there.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer

log = logging.getLogger(__name__)

# How long the tray mode waits before it opens the window, and how often it looks meanwhile.
PATIENCE_MS = 30_000
LOOK_EVERY_MS = 1_000
# After the window opened: a tray that appears within this long is still taken up.
LATE_TRAY_MS = 10 * 60_000


def no_tray_text() -> str:
    return QCoreApplication.translate(
        "app", "This desktop has no system tray, so Shiftcast stays open as a window to keep sending. "
               "Closing the window stops sending.")


class TrayWait(QObject):
    """Looks for a tray every `LOOK_EVERY_MS`: `adopt` when one appears; `give_up` once, after `patience_ms`
    without one (it keeps looking until `LATE_TRAY_MS` after that)."""

    def __init__(self, available: Callable[[], bool], *, adopt: Callable[[], None], give_up: Callable[[], None],
                 patience_ms: int = PATIENCE_MS) -> None:
        super().__init__()
        self._available = available
        self._adopt = adopt
        self._give_up = give_up
        self.gave_up = False
        self._timer = QTimer(self, interval=LOOK_EVERY_MS)
        self._timer.timeout.connect(self._look)
        self._patience = QTimer(self, singleShot=True, interval=patience_ms)
        self._patience.timeout.connect(self._no_tray)
        self._late = QTimer(self, singleShot=True, interval=LATE_TRAY_MS)
        self._late.timeout.connect(self._timer.stop)

    def start(self) -> None:
        log.info("no system tray yet; waiting up to %d s for one before opening the window",
                 self._patience.interval() // 1000)
        self._timer.start()
        self._patience.start()

    def _look(self) -> None:
        if not self._available():
            return
        self._timer.stop()
        self._patience.stop()
        self._late.stop()
        log.info("a system tray appeared; Shiftcast goes there")
        self._adopt()

    def _no_tray(self) -> None:
        self.gave_up = True
        text = no_tray_text()
        log.warning("this desktop has no system tray: the window stays open to keep sending")
        print(f"shiftcast: {text}", file=sys.stderr, flush=True)
        self._late.start()
        self._give_up()
