"""What the emulator's handlers are given and give back, whatever serves the HTTP.

A handler answers each Request synchronously with an Outcome: a Response, a Hangup (the connection
ends without an answer), or Later(delay, then) when the answer, or what follows, comes after a wait.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

MAX_BODY_BYTES = 2 * 1024 * 1024  # LINE's request size limit; larger bodies are never buffered


@dataclass(slots=True)
class Request:
    method: str
    target: str
    path: str
    query: str
    headers: dict[str, str]  # names lower-cased; a repeated header keeps its last value
    body: bytes = b""
    keep_alive: bool = True
    # Declared Content-Length above MAX_BODY_BYTES: the body is skipped, never read into memory.
    too_large: bool = False
    # A framing problem found before the handler: (status, message). The connection closes after the answer.
    error: tuple[int, str] | None = None


@dataclass(slots=True)
class Response:
    status: int
    body: bytes
    headers: list[tuple[str, str]] = field(default_factory=list)
    close: bool = False


@dataclass(slots=True)
class Hangup:
    """End the connection without an answer. reset=True aborts with an RST instead of a FIN."""

    reset: bool = False


@dataclass(slots=True)
class Later:
    delay: float
    then: Callable[[], Outcome]


Outcome = Response | Hangup | Later


class Application(Protocol):
    def handle(self, request: Request) -> Outcome: ...

    def blocks(self, request: Request) -> bool:
        """Whether handling it may wait on something else (a webhook POST): it then runs on a worker thread."""
        ...

    def crashed(self) -> Response:
        """The answer when handle() or a Later step raised: a bug must cost one answer, not the server."""
        ...
