"""The one way other threads reach the UI thread: `post(fn, *args)` from any thread; `fn` runs on
the UI thread, in order, soon.

Why not a queued Qt signal, as Qt suggests: emitting from a Python thread holds the GIL while Qt
takes its own locks (the receiver's connection lock, the UI thread's event queue). The UI thread
sometimes holds one of those locks with the GIL released — a receiver destroyed inside the event
loop tells each of its senders `disconnectNotify` under its lock, and asking a Python-made sender
whether Python overrides that method needs the GIL. Each thread then waits for the other for ever
(a widget test hung so, its UI thread in `disconnect` waiting for the GIL, docs/reliability.md).

So a posting thread calls no Qt at all: it puts the call on a Python queue and writes one byte to a
socket pair; a `QSocketNotifier` made on the UI thread wakes it to run what waits. A socket pair,
not a pipe, because Qt on Windows watches sockets only.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import sys
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QSocketNotifier

_Call = tuple[Callable[..., Any], tuple[Any, ...], QObject | None]

_calls: queue.SimpleQueue[_Call] = queue.SimpleQueue()
_wake_reader, _wake_writer = socket.socketpair()
_wake_reader.setblocking(False)
_wake_writer.setblocking(False)
# True from a byte being written until the UI thread starts draining: one byte per burst is enough,
# and a burst of thousands of posts must not fill the socket's buffer.
_woken = False
_notifier: QSocketNotifier | None = None


def post(fn: Callable[..., Any], *args: Any, owner: QObject | None = None) -> None:
    """From any thread: run `fn(*args)` on the UI thread. With `owner`, only if that Qt object still
    exists then (a widget closed meanwhile is not called). Never blocks and never enters Qt."""
    global _woken
    _calls.put((fn, args, owner))
    if not _woken:
        _woken = True
        with contextlib.suppress(BlockingIOError):  # a buffer full of earlier wake-ups: woken already
            _wake_writer.send(b"\0")


def install() -> None:
    """On the UI thread, once a Q(Core)Application exists: start listening for posts. Posts made
    before it wait and run once the event loop runs. Calling it again does nothing."""
    global _notifier
    if _notifier is not None and shiboken6.isValid(_notifier):
        return
    _notifier = QSocketNotifier(_wake_reader.fileno(), QSocketNotifier.Type.Read)
    _notifier.activated.connect(_drain)
    _drain()  # what was posted before the notifier existed


def _drain(*_: Any) -> None:
    global _woken
    with contextlib.suppress(BlockingIOError):  # raised once every byte is read
        while _wake_reader.recv(4096):
            continue
    # Cleared after the bytes are read and before the queue is emptied: a post that lands after the
    # last get() sees it cleared and writes a new byte, or sees it set by a poster whose byte is yet
    # to come. Cleared before reading, a poster's byte could be read while its flag stayed set, and
    # every later post would wait for a wake-up that never comes.
    _woken = False
    while True:
        try:
            fn, args, owner = _calls.get_nowait()
        except queue.Empty:
            return
        if owner is not None and not shiboken6.isValid(owner):
            continue
        try:
            fn(*args)
        except BaseException as exc:  # noqa: BLE001 - as for a slot: reported, and the other calls still run
            sys.excepthook(type(exc), exc, exc.__traceback__)
        finally:
            del fn, args, owner  # released here, on the UI thread
