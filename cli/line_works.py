"""The LINE WORKS verbs: `line-works credentials` saves the app's and the bot's values (the two secrets
read from standard input, or typed unseen at a terminal; the private key's PEM from --private-key FILE)
and `line-works test` asks LINE WORKS for an access token with them, as Settings → LINE WORKS does."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import EXIT_FAILED, Subcommands, Verb, now

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths

HELP = "LINE WORKS: save the app's and the bot's values (credentials), or test them (test)"


def add_parsers(sub: Subcommands) -> None:
    works = sub.add_parser("line-works", help=HELP, description=HELP)
    verbs = works.add_subparsers(dest="works_command", metavar="{credentials,test}", required=True)
    saved = verbs.add_parser(
        "credentials", help="save the LINE WORKS values; the client secret and the bot secret are read from standard "
                            "input, one a line (a blank line keeps the one saved)",
        description="Saves the values of the app and the bot made in the LINE WORKS Developer Console. The client "
                    "secret and the bot secret are read from standard input, one a line in that order (typed unseen "
                    "at a terminal); a blank line keeps the one saved before. Secrets and the private key go to "
                    "the keyring.")
    saved.add_argument("--client-id", required=True, help="the app's Client ID")
    saved.add_argument("--service-account", required=True, help="the app's Service Account")
    saved.add_argument("--bot-id", required=True, help="the bot's Bot ID")
    saved.add_argument("--domain-id", help="the Domain ID (digits; optional)")
    saved.add_argument("--private-key", metavar="FILE",
                       help="the private key file (.key) issued for the Service Account; without it, the key "
                            "saved before is kept")
    verbs.add_parser("test", help="ask LINE WORKS for an access token with the saved values; exit 1 when refused")


def _secret(prompt: str) -> str:
    """One secret: typed unseen at a terminal, else the next line of standard input (blank: keep the saved one)."""
    return (getpass.getpass(words.line(prompt)) if sys.stdin.isatty() else sys.stdin.readline()).strip()


def cmd_line_works(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    return {"credentials": _credentials, "test": _test}[args.works_command](db, args)  # argparse requires one


def _credentials(db: Database, args: argparse.Namespace) -> int:
    from core.setup import line_works

    key = line_works.read_private_key(args.private_key) if args.private_key else None
    client_secret = _secret("cli.prompt.works_client_secret")
    bot_secret = _secret("cli.prompt.works_bot_secret")
    line_works.save(db, client_id=args.client_id, client_secret=client_secret, service_account=args.service_account,
                    private_key=key, bot_id=args.bot_id, bot_secret=bot_secret, domain_id=args.domain_id)
    print(words.line("cli.line_works.saved"))
    return 0


def _test(db: Database, args: argparse.Namespace) -> int:
    from core.setup import line_works

    outcome = line_works.test(db, line_works.client_checker(db), now=now())
    said = words.say(line_works.says_test(outcome))
    if outcome.why is None:
        print(said)
        return 0
    print(f"shiftcast: {said}", file=sys.stderr)
    return EXIT_FAILED


COMMANDS: dict[str, Verb] = {"line-works": cmd_line_works}
