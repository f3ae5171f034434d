"""One window per data folder: a second launch hands over to the running one and exits.

The first instance listens on a local socket named after its data folder; a later launch connects,
asks it to show its window, and quits. (Sending is guarded separately by the sender lock.)
"""

from __future__ import annotations

import hashlib

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from core.store.paths import DataPaths


def server_name(paths: DataPaths) -> str:
    digest = hashlib.sha256(str(paths.home).encode()).hexdigest()[:16]
    return f"shiftcast-{digest}"


class SingleInstance(QObject):
    activated = Signal()

    def __init__(self, paths: DataPaths, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = server_name(paths)
        self._server: QLocalServer | None = None

    def hand_over(self, timeout_ms: int = 1000) -> bool:
        """True if another instance is running and was asked to show itself."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(timeout_ms):
            return False
        socket.write(b"activate\n")
        socket.flush()
        socket.waitForBytesWritten(timeout_ms)
        socket.disconnectFromServer()
        return True

    def listen(self) -> bool:
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if not server.listen(self.name):
            QLocalServer.removeServer(self.name)  # a stale socket left by a crash
            if not server.listen(self.name):
                return False
        server.newConnection.connect(self._on_connection)
        self._server = server
        return True

    def _on_connection(self) -> None:
        assert self._server is not None
        while (socket := self._server.nextPendingConnection()) is not None:
            socket.readyRead.connect(lambda s=socket: self._read(s))
            if socket.bytesAvailable():
                self._read(socket)

    def _read(self, socket: QLocalSocket) -> None:
        if b"activate" in bytes(socket.readAll().data()):
            self.activated.emit()
        socket.disconnectFromServer()

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
