"""Logging to a rotating file in the data dir, with secrets redacted before anything is written, and
a burst of one same line (a flood of refused connections, a failure repeated in a loop) written once
with its count, so it cannot rotate away the log that explains it."""

from __future__ import annotations

import logging
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from logging.handlers import RotatingFileHandler
from pathlib import Path

_BEARER = re.compile(r"(?i)((?:bearer|basic)\s+)[A-Za-z0-9._~+/=\-]+")
_KEY_VALUE = re.compile(
    r"(?i)((?:access[_-]?token|channel[_-]?access[_-]?token|password|secret|api[_-]?key|"
    r"aws_secret_access_key)\s*[\"']?\s*[:=]\s*[\"']?)([^\s\"',;}]+)"
)
REDACTED = "***"


class SecretRegistry:
    """Exact secret values known at run time (tokens read from the keyring), redacted wherever they appear."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: frozenset[str] = frozenset()

    def add(self, value: str | None) -> None:
        # Very short values would redact ordinary words; real credentials are long.
        if value and len(value) >= 8:
            with self._lock:
                self._values = self._values | {value}

    def values(self) -> frozenset[str]:
        return self._values


secrets_registry = SecretRegistry()


def redact(text: str) -> str:
    for value in secrets_registry.values():
        if value in text:
            text = text.replace(value, REDACTED)
    text = _BEARER.sub(lambda m: m.group(1) + REDACTED, text)
    return _KEY_VALUE.sub(lambda m: m.group(1) + REDACTED, text)


class RedactingFormatter(logging.Formatter):
    """Redacts the fully formatted record, so arguments and tracebacks are covered too."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class ConsoleFormatter(RedactingFormatter):
    """One line per record on a terminal: the traceback, if any, is in the log file only."""

    def format(self, record: logging.LogRecord) -> str:
        if record.exc_info or record.exc_text or record.stack_info:
            record = logging.makeLogRecord(record.__dict__)
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        return super().format(record)


REPEAT_WINDOW = 60.0  # seconds


@dataclass
class _Burst:
    since: float  # when the line was last written
    held: int = 0  # how many times it came again since, unwritten


class RepeatFolder:
    """The rule (pure; the time is passed in): the first of a line is written; the same line again
    within `window` seconds is held back and counted; the first one after the window is written with
    how many were held."""

    def __init__(self, window: float = REPEAT_WINDOW, remembered: int = 1000) -> None:
        self.window = window
        self.remembered = remembered
        self._bursts: dict[object, _Burst] = {}

    def decide(self, key: object, now: float) -> int | None:
        """None: hold this one back; a number: write it, saying it was repeated that many times."""
        burst = self._bursts.get(key)
        if burst is not None and now - burst.since < self.window:
            burst.held += 1
            return None
        if burst is None and len(self._bursts) >= self.remembered:  # forget lines whose burst is over
            self._bursts = {k: b for k, b in self._bursts.items() if now - b.since < self.window}
        self._bursts[key] = _Burst(now)
        return burst.held if burst is not None else 0


class FoldRepeats(logging.Filter):
    """A handler filter around RepeatFolder: one line per burst, "… (repeated N times)" on the next.
    One instance may serve several handlers: a record is decided once, whichever handler sees it first."""

    def __init__(self, window: float = REPEAT_WINDOW, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._folder = RepeatFolder(window)
        self._clock = clock
        self._lock = threading.Lock()

    def forget(self) -> None:
        """Start afresh (another log file: the first of each line belongs in it too)."""
        with self._lock:
            self._folder = RepeatFolder(self._folder.window, self._folder.remembered)

    def filter(self, record: logging.LogRecord) -> bool:
        decided = getattr(record, "_shiftcast_written", None)
        if decided is not None:
            return bool(decided)
        exc = record.exc_info[0] if record.exc_info else None
        key = (record.name, record.levelno, record.getMessage(), exc)
        with self._lock:
            held = self._folder.decide(key, self._clock())
        if held:
            record.msg, record.args = f"{record.getMessage()} (repeated {held} times)", None
        record._shiftcast_written = held is not None
        return held is not None


FILE_ONLY = {"file_only": True}  # `log.error(..., extra=FILE_ONLY)`: already said on the terminal another way
_CHATTY = ("alembic", "apscheduler")


def _for_the_terminal(record: logging.LogRecord) -> bool:
    # Alembic announces every migration step and APScheduler every job at INFO, on each new data
    # folder's first start and each sender start: that is for the log file, not the terminal.
    if getattr(record, "file_only", False):
        return False
    return record.levelno >= logging.WARNING or not record.name.startswith(_CHATTY)


class QuietFileHandler(RotatingFileHandler):
    """The log file, which never sprays the terminal when it cannot be written.

    logging's own handleError prints "--- Logging error ---" and a traceback to stderr for every record
    that fails: on a full disk that is dozens of lines before the verb's one-line message. Here the
    first failure is kept for the caller to name once (`write_failure`), later ones are dropped, and
    writing is tried again at each record, so the log resumes when space comes back."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, maxBytes=2_000_000, backupCount=5, encoding="utf-8")
        self.path = path
        self.failure: OSError | None = None

    def handleError(self, record: logging.LogRecord) -> None:
        error = sys.exc_info()[1]
        if not isinstance(error, OSError):  # a record that cannot be formatted is a bug: say it as logging does
            super().handleError(record)
        elif self.failure is None:
            self.failure = error


def write_failure() -> tuple[Path, OSError] | None:
    """The log file and the first error that kept a record out of it in this process, if any."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, QuietFileHandler) and handler.failure is not None:
            return handler.path, handler.failure
    return None


_FORMAT = "%(asctime)s %(levelname)s [%(threadName)s] %(name)s: %(message)s"
_configured_file: Path | None = None
_repeats = FoldRepeats()


def configure_logging(log_dir: Path, *, level: int = logging.INFO, stderr: bool = False) -> Path:
    """Send the root logger to `<log_dir>/shiftcast.log` (5 × 2 MB), and with `stderr` to the terminal too.
    Safe to call again. Raises OSError when the folder or the file cannot be written."""
    global _configured_file
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / "shiftcast.log"
    root = logging.getLogger()
    root.setLevel(level)
    if _configured_file != path:
        for handler in list(root.handlers):
            if getattr(handler, "_shiftcast", False):
                root.removeHandler(handler)
                handler.close()
        file_handler = QuietFileHandler(path)
        file_handler.setFormatter(RedactingFormatter(_FORMAT))
        _repeats.forget()
        file_handler.addFilter(_repeats)
        file_handler._shiftcast = True  # type: ignore[attr-defined]
        root.addHandler(file_handler)
        _configured_file = path
    if stderr and not any(getattr(h, "_shiftcast_stderr", False) for h in root.handlers):
        console = logging.StreamHandler()
        console.setFormatter(ConsoleFormatter("%(levelname)s %(name)s: %(message)s"))
        console.addFilter(_for_the_terminal)
        console.addFilter(_repeats)
        console._shiftcast = True  # type: ignore[attr-defined]
        console._shiftcast_stderr = True  # type: ignore[attr-defined]
        root.addHandler(console)
    # httpx logs full URLs at INFO; keep them at WARNING so request logs stay small.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return path
