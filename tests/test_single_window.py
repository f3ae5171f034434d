"""One window per data folder, with real `main.py` processes: two starts at once, a start while a smoke
check holds the folder, and a start after the holder was killed.

Each process says on stderr what it decided (ui/shell/app.py `report`, set on by SHIFTCAST_REPORT_SHOWN):
"holds the window", "waiting for the running window", "handed over to the running window", "asked to
come forward", "window shown". The tests wait for those lines, never for time to pass.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtNetwork import QLocalServer

from core.store.paths import data_paths
from tests.waiting import PATIENCE_S, wait_until
from ui.shell.single_instance import server_name

pytestmark = pytest.mark.slow  # real window processes
ROOT = Path(__file__).resolve().parent.parent
SHOWN = "shiftcast: window shown"
HOLDS = "shiftcast: holds the window"
WAITING = "shiftcast: waiting for the running window"
HANDED_OVER = "shiftcast: handed over to the running window"
ASKED = "shiftcast: asked to come forward"


class Window:
    """A `main.py` process on a data folder, its stderr lines collected as they come."""

    def __init__(self, home: Path, *arguments: str) -> None:
        env = os.environ | {"QT_QPA_PLATFORM": "offscreen", "SHIFTCAST_REPORT_SHOWN": "1",
                            "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
                            "XDG_CONFIG_HOME": str(home.parent / "xdg")}
        env.pop("SHIFTCAST_DB_URL", None)
        self.home = home
        self.process = subprocess.Popen([sys.executable, "main.py", "--home", str(home), *arguments], cwd=ROOT,
                                        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.out: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(self.process.stderr, self.lines), daemon=True),
                         threading.Thread(target=self._read, args=(self.process.stdout, self.out), daemon=True)]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line.rstrip("\n"))

    def said(self, line: str) -> bool:
        return line in self.lines

    @property
    def ended(self) -> bool:
        return self.process.poll() is not None

    def stderr(self) -> str:
        return "\n".join(self.lines)

    def end(self, how: signal.Signals = signal.SIGTERM) -> None:
        if not self.ended:
            self.process.send_signal(how)
        self.process.wait(timeout=PATIENCE_S)
        for reader in self._readers:
            reader.join(timeout=PATIENCE_S)


@pytest.fixture
def started(tmp_path: Path) -> Iterator[list[Window]]:
    """Every process a test starts, ended however the test went."""
    windows: list[Window] = []
    yield windows
    for window in windows:
        if not window.ended:
            window.process.kill()
        window.end()
    for home in {window.home for window in windows}:
        QLocalServer.removeServer(server_name(data_paths(home)))  # what the killed ones left in the temp folder


def _start(windows: list[Window], home: Path, *arguments: str) -> Window:
    window = Window(home, *arguments)
    windows.append(window)
    return window


def _two_at_once(started: list[Window], home: Path, round_: int) -> None:
    first, second = _start(started, home), _start(started, home)
    pair = (first, second)
    both = f"round {round_}:\n{first.stderr()}\n---\n{second.stderr()}"
    assert wait_until(lambda: sum(w.said(SHOWN) for w in pair) == 2
                      or any(w.said(SHOWN) for w in pair) and any(w.ended for w in pair)), f"no window, no hand-over: {both}"
    shown = [w for w in pair if w.said(SHOWN)]
    assert len(shown) == 1, f"two windows for one data folder: {both}"
    [holder] = shown
    [other] = [w for w in pair if w is not holder]
    assert other.process.wait(timeout=PATIENCE_S) == 0, other.stderr()
    assert other.said(HANDED_OVER) and not other.said(SHOWN), other.stderr()
    assert wait_until(lambda: holder.said(ASKED)), holder.stderr()  # the holder took the request
    assert not holder.ended
    holder.end()  # SIGTERM: it leaves its socket behind, as a crash does


def test_two_starts_at_once_make_one_window_and_the_second_hands_over(tmp_path: Path, started: list[Window]) -> None:
    for round_ in range(5):  # the same folder each round: from the second on, the last holder's socket is stale
        _two_at_once(started, tmp_path / "home", round_)


def test_a_start_while_a_smoke_check_holds_the_folder_waits_for_it(tmp_path: Path, started: list[Window]) -> None:
    home = tmp_path / "home"
    smoke = _start(started, home, "--smoke")
    assert wait_until(lambda: smoke.said(HOLDS) or smoke.ended), smoke.stderr()
    smoke.process.send_signal(signal.SIGSTOP)  # the smoke check holds the folder for as long as the test wants
    try:
        assert not smoke.ended, smoke.stderr()
        window = _start(started, home)
        assert wait_until(lambda: window.said(WAITING) or window.said(SHOWN) or window.ended), window.stderr()
        assert window.said(WAITING) and not window.said(SHOWN) and not window.ended, window.stderr()
    finally:
        smoke.process.send_signal(signal.SIGCONT)
    assert smoke.process.wait(timeout=PATIENCE_S) == 0, smoke.stderr()
    assert any('"smoke": "ok"' in line for line in smoke.out), smoke.out
    # Either the smoke check answered before it quit, or it quit first and let go of the folder.
    assert wait_until(lambda: window.said(SHOWN) or window.ended), window.stderr()
    if window.ended:
        assert window.process.returncode == 0 and window.said(HANDED_OVER), window.stderr()
        assert smoke.said(ASKED), smoke.stderr()
    else:
        assert window.said(HOLDS) and not window.said(HANDED_OVER), window.stderr()


def test_a_window_killed_leaves_a_socket_that_the_next_start_takes_over(tmp_path: Path,
                                                                       started: list[Window]) -> None:
    home = tmp_path / "home"
    first = _start(started, home)
    assert wait_until(lambda: first.said(SHOWN) or first.ended), first.stderr()
    first.end(signal.SIGKILL)
    second = _start(started, home)
    assert wait_until(lambda: second.said(SHOWN) or second.ended), second.stderr()
    assert second.said(SHOWN) and not second.said(WAITING), second.stderr()
    third = _start(started, home)  # the socket second took over is the one it serves
    assert third.process.wait(timeout=PATIENCE_S) == 0, third.stderr()
    assert third.said(HANDED_OVER), third.stderr()
    assert wait_until(lambda: second.said(ASKED)), second.stderr()
