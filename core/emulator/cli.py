"""Run the emulator as a standalone process: `python -m core.emulator --port 8080 --token T`."""

from __future__ import annotations

import argparse
import signal
import threading
from collections.abc import Sequence

from core.emulator.server import LineEmulator


def serve_forever(port: int, token: str | None, *, channel_id: str | None = None,
                  channel_secret: str | None = None, loopback_webhooks: bool = False) -> None:
    """Serve on 127.0.0.1 until SIGINT or SIGTERM. token None accepts any non-empty bearer token."""
    stop = threading.Event()
    emulator = LineEmulator(token=token, port=port, channel_id=channel_id, channel_secret=channel_secret,
                            loopback_webhooks=loopback_webhooks).start()
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
    parser.add_argument("--channel-id", help="the channel ID /oauth2/v3/token issues stateless tokens for")
    parser.add_argument("--channel-secret", help="the secret webhooks are signed with (default: a random one)")
    parser.add_argument("--loopback-webhooks", action="store_true",
                        help="allow plain-http webhook endpoints on this computer")
    args = parser.parse_args(argv)
    serve_forever(args.port, args.token, channel_id=args.channel_id, channel_secret=args.channel_secret,
                  loopback_webhooks=args.loopback_webhooks)
    return 0
