"""`main.py webhook`: the LINE webhook receiver alone, in the foreground, until SIGINT or SIGTERM.

For an always-on box behind the owner's own HTTPS reverse proxy. The channel secret comes from
SHIFTCAST_LINE_CHANNEL_SECRET or the keyring (`main.py line-channel`, cli/credentials.py); without
it the receiver starts all the same when LINE WORKS is set up (its callback checks its own signature,
LINE's route refuses). The lines "receiving … on …" are printed once it listens, so whoever starts it
knows when to point LINE, and LINE WORKS' bot, at it.
"""

from __future__ import annotations

import argparse
import signal
import threading
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, Verb
from core.errors import ValidationError
from core.texts import t

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    webhook = sub.add_parser("webhook", help="receive LINE webhooks (follow, unfollow …) until Ctrl+C")
    webhook.add_argument("--port", type=int, required=True, help="TCP port to listen on")
    webhook.add_argument("--host", default="127.0.0.1",
                         help="address to listen on (default 127.0.0.1: only a reverse proxy on this computer)")


def cmd_webhook(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.receiving import line_works_callback
    from core.receiving.server import WebhookReceiver
    from core.setup import line_connect, receiving
    from core.store import secrets

    if not 0 < args.port < 65536:
        raise ValidationError(t("cli.webhook.port", port=args.port))
    unreadable: secrets.SecretStoreError | None = None
    try:
        secret = secrets.line_channel_secret()
    except secrets.SecretStoreError as exc:
        secret, unreadable = None, exc
    if not secret and not receiving.others_set_up(db):  # nothing to receive for
        if unreadable is not None:  # its advice names the token; here the secret is what is missing
            raise ValidationError(t("cli.webhook.secret_unreadable", detail=unreadable.text,
                                    env=secrets.LINE_CHANNEL_SECRET_ENV)) from None
        raise ValidationError(t("cli.webhook.no_secret", env=secrets.LINE_CHANNEL_SECRET_ENV))
    stop = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    line_connect.restore_if_pending(db)  # a connect flow that crashed left LINE pointing at its tunnel
    receiver = WebhookReceiver(db, secret or None, host=args.host, port=args.port).start()
    try:
        if secret:
            print(words.line("cli.webhook.receiving", url=receiver.url), flush=True)
        if receiving.others_set_up(db):
            print(words.line("cli.webhook.receiving_works", url=receiver.url_of(line_works_callback.PATH)), flush=True)
        while not stop.wait(0.5):
            pass
    finally:
        receiver.stop()
    return 0


COMMANDS: dict[str, Verb] = {"webhook": cmd_webhook}
