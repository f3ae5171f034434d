"""Where the main window opens: inside the screen's available area (without the task bar and docks),
at the size and place it last had on that screen, never partly off-screen.

The rule is a pure function of rectangles; the window only reads the screen and the saved value and
applies the answer. Saved values live in `window.ini` in the data folder (QSettings in INI format, so
never the Windows registry), one per screen, keyed by the screen's name and size: a laptop that is
sometimes docked to a large monitor gets back the right size on each.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QRect, QSettings
from PySide6.QtGui import QScreen

DEFAULT_SIZE = (1280, 800)  # what the areas were designed at; smaller screens get less
# The title bar and borders the window manager adds around the window, before they can be measured:
# a frame is known only once the window is on screen.
FRAME_GUESS = (4, 32, 4, 4)  # left, top, right, bottom
FILE_NAME = "window.ini"


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    width: int
    height: int

    @classmethod
    def of(cls, rect: QRect) -> Rect:
        return cls(rect.x(), rect.y(), rect.width(), rect.height())

    def qrect(self) -> QRect:
        return QRect(self.x, self.y, self.width, self.height)

    def text(self) -> str:
        return f"{self.x},{self.y},{self.width},{self.height}"

    @classmethod
    def parse(cls, text: object) -> Rect | None:
        try:
            x, y, width, height = (int(part) for part in str(text).split(","))
        except ValueError:
            return None
        return cls(x, y, width, height) if width > 0 and height > 0 else None


def window_rect(available: Rect, saved: Rect | None, *, frame: tuple[int, int, int, int] = FRAME_GUESS) -> Rect:
    """The window's client rectangle (what QWidget.setGeometry takes) for a screen's available area.

    Saved: its size, shrunk to fit, at its place, moved in just enough that the whole frame is on this
    screen. Nothing saved: the default size, shrunk to fit, centred."""
    left, top, right, bottom = frame
    room = Rect(available.x + left, available.y + top, max(1, available.width - left - right),
                max(1, available.height - top - bottom))
    if saved is None:
        width, height = min(DEFAULT_SIZE[0], room.width), min(DEFAULT_SIZE[1], room.height)
        return Rect(room.x + (room.width - width) // 2, room.y + (room.height - height) // 2, width, height)
    width, height = min(saved.width, room.width), min(saved.height, room.height)
    x = min(max(saved.x, room.x), room.x + room.width - width)
    y = min(max(saved.y, room.y), room.y + room.height - height)
    return Rect(x, y, width, height)


def screen_key(screen: QScreen) -> str:
    size = screen.geometry().size()
    name = screen.name() or "screen"
    return f"{name} {size.width()}x{size.height()}".replace("/", "_").replace("\\", "_")


class SavedGeometry:
    """The last window rectangle per screen, in the data folder."""

    def __init__(self, home: Path) -> None:
        self._settings = QSettings(str(home / FILE_NAME), QSettings.Format.IniFormat)

    def read(self, key: str) -> Rect | None:
        return Rect.parse(self._settings.value(f"geometry/{key}", ""))

    def write(self, key: str, rect: Rect) -> None:
        self._settings.setValue(f"geometry/{key}", rect.text())
        self._settings.sync()
