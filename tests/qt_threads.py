"""A recorder of the calls into PySide that threads other than the UI thread make (tests/test_ui_thread.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

import pytest


class QtCallsOffTheUiThread:
    """A profiler for threads started while it is installed: the PySide functions they call."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "c_call" or threading.current_thread() is threading.main_thread():
            return
        owner = getattr(arg, "__self__", None)
        module = getattr(type(owner), "__module__", "") or getattr(arg, "__module__", "") or ""
        if module.startswith(("PySide6", "shiboken6")):
            self.seen.append(f"{type(owner).__name__}.{arg.__name__} on {threading.current_thread().name}")


@pytest.fixture
def qt_calls() -> Iterator[QtCallsOffTheUiThread]:
    recorder = QtCallsOffTheUiThread()
    threading.setprofile(recorder)
    try:
        yield recorder
    finally:
        threading.setprofile(None)
