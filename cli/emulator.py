"""The emulator verb: the local LINE Messaging API server (core/emulator) in the foreground. It needs
no database, so the command line opens none for it."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cli import numbers
from cli.verbs import NoDatabaseVerb, Subcommands, Verb

if TYPE_CHECKING:
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    emulator = sub.add_parser("emulator", help="run the local LINE emulator")
    emulator.add_argument("--port", type=numbers.PORT, default=8765)
    emulator.add_argument("--token", help="the only token it accepts (default: any)")


def cmd_emulator(_db: None, args: argparse.Namespace, _paths: DataPaths) -> int:
    from core.emulator import serve_forever

    serve_forever(args.port, args.token)
    return 0


COMMANDS: dict[str, Verb] = {}
NO_DATABASE: dict[str, NoDatabaseVerb] = {"emulator": cmd_emulator}
