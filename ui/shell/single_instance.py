"""One window per data folder: a second start hands its request to the running one and exits.

Who holds the window is decided by an OS lock on `window.lock` in the data folder
(core/store/folder_lock.py), not by the local socket: only the process holding the lock may remove a
socket left behind by a crash and listen. Deciding by the socket let two starts at once each fail to
listen, remove the other's socket and listen again, both believing they were first.

A start that cannot take the lock connects to the holder's socket, retrying while the holder is still
opening its database, sends its request and waits for the holder's answer. A holder that quits before
answering drops the connection unanswered; the start then tries the lock again, which the quitting
holder lets go of, so a request is never lost between the two. (Sending is guarded separately, by the
sender lock.)
"""

from __future__ import annotations

import enum
import hashlib
import logging
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from core.store.folder_lock import FolderLock
from core.store.paths import DataPaths

log = logging.getLogger(__name__)
LOCK_FILE = "window.lock"
REQUEST = b"activate\n"
ANSWER = b"ok\n"
# How long a second start waits for the holder to answer before it says that Shiftcast does not
# answer: the holder listens once its database is open, which an upgrade's backup can make slow.
PATIENCE_S = 60.0
RETRY_S = 0.05  # between tries while the holder is not listening yet


def server_name(paths: DataPaths) -> str:
    digest = hashlib.sha256(str(paths.home).encode()).hexdigest()[:16]
    return f"shiftcast-{digest}"


class Start(enum.Enum):
    """How a start ended up: holding the window, having handed its request over, or unanswered."""

    HOLDS = "holds"
    HANDED_OVER = "handed over"
    NO_ANSWER = "no answer"


class SingleInstance(QObject):
    activated = Signal()

    def __init__(self, paths: DataPaths, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = server_name(paths)
        self._lock = FolderLock(paths.home / LOCK_FILE)
        self._server: QLocalServer | None = None

    def claim(self) -> bool:
        """Take the folder's window without waiting. False while another process holds it."""
        return self._lock.acquire()

    def claim_or_hand_over(self, patience_s: float | None = None,
                           clock: Callable[[], float] = time.monotonic) -> Start:
        """Hold the window, or hand the request to the process that holds it (PATIENCE_S by default)."""
        deadline = clock() + (PATIENCE_S if patience_s is None else patience_s)
        pause = threading.Event()  # never set: a pause that a signal handler cannot cut short
        while True:
            if self.claim():
                return Start.HOLDS
            left_ms = max(int((deadline - clock()) * 1000), 1)
            if self.hand_over(left_ms):
                return Start.HANDED_OVER
            if clock() >= deadline:
                return Start.NO_ANSWER
            pause.wait(RETRY_S)

    def hand_over(self, timeout_ms: int = 1000) -> bool:
        """One try: True if the holder took the request (it shows its window), False if nobody listens
        or the connection closed unanswered."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(timeout_ms):
            return False
        socket.write(REQUEST)
        socket.flush()
        answer = b""
        deadline = time.monotonic() + timeout_ms / 1000
        # Waited for in short slices: PySide6 keeps Python's lock through a blocking wait, and the
        # process's other threads (in the tests, the holder itself) must not stop meanwhile.
        while ANSWER not in answer and socket.state() == QLocalSocket.LocalSocketState.ConnectedState:
            if time.monotonic() >= deadline:
                break
            socket.waitForReadyRead(int(RETRY_S * 1000))
            answer += bytes(socket.readAll().data())
        answer += bytes(socket.readAll().data())  # what came with the close
        socket.abort()
        return ANSWER in answer

    def listen(self) -> bool:
        """Serve later starts. Only the holder of the lock listens, so only it may remove a socket that a
        crashed holder left behind: no live holder's socket is ever removed."""
        if not self.claim():
            return False
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        QLocalServer.removeServer(self.name)  # a crashed holder's, if any: a live one would hold the lock
        if not server.listen(self.name):
            log.warning("cannot listen for other starts on %s: %s", self.name, server.errorString())
            return False
        server.newConnection.connect(self._on_connection)
        self._server = server
        return True

    def _on_connection(self) -> None:
        assert self._server is not None
        while (socket := self._server.nextPendingConnection()) is not None:
            received = bytearray()  # a request may come in pieces
            socket.readyRead.connect(lambda s=socket, r=received: self._read(s, r))
            socket.disconnected.connect(socket.deleteLater)
            if socket.bytesAvailable():
                self._read(socket, received)

    def _read(self, socket: QLocalSocket, received: bytearray) -> None:
        received += bytes(socket.readAll().data())
        if REQUEST not in received:
            return
        received.clear()
        log.info("another start asked this window to come forward")
        self.activated.emit()
        socket.write(ANSWER)
        socket.flush()
        socket.disconnectFromServer()  # after the answer is written

    def close(self) -> None:
        """Stop serving, then let go of the window: a start waiting on us finds the lock free."""
        if self._server is not None:
            self._server.close()
            self._server = None
        self._lock.release()
