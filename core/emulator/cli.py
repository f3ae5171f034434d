"""Run the emulator as a standalone process: `python -m core.emulator --port 8080 --token T`."""

from __future__ import annotations

import argparse
import signal
import threading
from collections.abc import Sequence

from core.emulator.server import LineEmulator


def serve_forever(port: int, token: str | None) -> None:
    """Serve on 127.0.0.1 until SIGINT or SIGTERM. token None accepts any non-empty bearer token."""
    stop = threading.Event()
    emulator = LineEmulator(token=token, port=port).start()
    previous: dict[int, object] = {}
    # Signal handlers can only be installed from the main thread; elsewhere the caller owns shutdown.
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, lambda *_: stop.set())
    try:
        print(f"LINE emulator listening on {emulator.base_url}", flush=True)
        print(f"token: {token if token is not None else '(any non-empty bearer token)'}", flush=True)
        while not stop.wait(0.5):
            pass
    finally:
        emulator.stop()
        for number, handler in previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]  # whatever signal.signal returned


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.emulator", description="Local LINE Messaging API emulator")
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--token", default=None, help="channel access token to require (default: accept any)")
    args = parser.parse_args(argv)
    serve_forever(args.port, args.token)
    return 0
