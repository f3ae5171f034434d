"""`shiftcast relay deploy` and `relay remove`: the relay (docs/relay.md) put on the manager's
Cloudflare account, kept current, and taken away again (core/setup/relay_deploy.py), one line per step.

The Cloudflare API token comes from the keyring, or from standard input with `--token-stdin` (then it is
saved in the keyring for later updates and removal). `add_setup_parsers` adds the two sub-commands to
the relay topic's sub-parsers (cli/relay.py), as `relay deploy` and `relay remove`.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING, Any

from cli import words
from cli.verbs import Verb
from core.errors import ValidationError
from core.texts import t

if TYPE_CHECKING:
    from core.setup.relay_deploy import Progress, Step
    from core.store.db import Database
    from core.store.paths import DataPaths



def add_setup_parsers(sub: Any) -> None:
    """`deploy` and `remove`, under whichever topic holds them."""
    deploy = sub.add_parser("deploy", help="deploy the relay to your Cloudflare account, or finish a deploy that "
                                           "stopped (running it again changes nothing)")
    deploy.add_argument("--token-stdin", action="store_true",
                        help="read the Cloudflare API token from standard input and save it in the keyring")
    deploy.add_argument("--account", help="the Cloudflare account ID, when the token sees several")
    remove = sub.add_parser("remove", help="put LINE's earlier webhook address back and delete the relay and its "
                                           "database from Cloudflare")
    remove.add_argument("--token-stdin", action="store_true",
                        help="read the Cloudflare API token from standard input and save it in the keyring")


def _token_from_stdin() -> None:
    from core.setup import relay_state

    token = getpass.getpass(words.line("cli.prompt.cloudflare_token")) if sys.stdin.isatty() else sys.stdin.readline()
    if not token.strip():
        raise ValidationError(t("relay_setup.no_token"))
    relay_state.set_cloudflare_token(token.strip())


def _say(step: Step, progress: Progress) -> None:
    from core.setup.relay_deploy import Progress

    if progress is not Progress.RUNNING:
        code = "cli.relay_setup.step_done" if progress is Progress.DONE else "cli.relay_setup.step_already"
        print(words.line(code, step=step.words), flush=True)


def cmd_deploy(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.setup import relay_deploy

    if args.token_stdin:
        _token_from_stdin()
    deployed = relay_deploy.deploy(db, report=_say, account_id=args.account)
    print(words.line("cli.relay_setup.deployed", url=deployed.url, version=deployed.version))
    return 0


def cmd_remove(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.setup import relay_deploy

    if args.token_stdin:
        _token_from_stdin()
    removed = relay_deploy.remove(db, report=_say)
    print(words.line("cli.relay_setup.removed" if removed else "cli.relay_setup.nothing_to_remove"))
    return 0


SETUP_COMMANDS: dict[str, Verb] = {"deploy": cmd_deploy, "remove": cmd_remove}
