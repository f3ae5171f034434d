"""The credential verbs: the LINE channel access token, the LINE channel ID and secret, and the SMTP
password, each read from standard input (or typed unseen at a terminal) and kept in the keyring."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, Verb
from core.errors import ValidationError
from core.texts import Text, t

if TYPE_CHECKING:
    from core.setup.relay_credentials import AfterSaving
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    sub.add_parser("line-token", help="save the LINE channel access token (read from standard input) in the keyring")
    sub.add_parser("smtp-password", help="save the SMTP password (read from standard input) in the keyring")
    channel = sub.add_parser("line-channel", help="save the LINE channel ID and the channel secret (read from "
                                                  "standard input, kept in the keyring)")
    channel.add_argument("--id", required=True, dest="channel_id", help="the channel ID (digits)")


def _read_secret(prompt: str, missing: Text) -> str:
    """One secret: typed unseen at a terminal, else the first line of standard input (a file, a pipe)."""
    secret = getpass.getpass(words.line(prompt)) if sys.stdin.isatty() else sys.stdin.readline()
    if not secret.strip():
        raise ValidationError(missing)
    return secret.strip()


def _relay_told(after: AfterSaving) -> int:
    """The exit code once the credentials are saved here: 0 when the relay on Cloudflare (if any) holds
    them now, else 1 with what failed and when it gets them."""
    from core.setup.relay_credentials import Push

    if after.delivered:
        return 0
    why = {Push.NO_TOKEN: t("cli.relay_credentials.no_cloudflare_token"),
           Push.OLDER: t("cli.relay_credentials.older"),
           Push.UNREACHABLE: t("cli.relay_credentials.unreachable")}.get(after.result) if after.result else None
    reason = why if why is not None else after.problem or ""
    print(words.line("cli.relay_credentials.not_delivered", why=words.say(reason)), file=sys.stderr)
    return 1


def cmd_line_token(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.setup import line

    line.store_token(db, _read_secret("cli.prompt.line_token", t("cli.no_token")))
    print(words.line("cli.saved_in_keyring"))
    # Also when the token is the one saved before: a relay that missed it then gets it now.
    return _relay_told(line.credentials_saved(db))


def cmd_smtp_password(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.channels import email as email_channel

    email_channel.set_smtp_password(_read_secret("cli.prompt.smtp_password", t("cli.no_password")))
    print(words.line("cli.saved_in_keyring"))
    return 0


def cmd_line_channel(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.setup import line
    from core.store import secrets
    from core.store import setting_keys as keys

    channel_id = args.channel_id.strip()
    if not (channel_id.isascii() and channel_id.isdigit()):
        raise ValidationError(t("cli.webhook.bad_id", value=args.channel_id))
    secrets.set_line_channel_secret(_read_secret("cli.prompt.channel_secret", t("cli.webhook.no_secret_given")))
    with db.write() as session:
        before = keys.LINE_CHANNEL_ID.read(session)
        keys.LINE_CHANNEL_ID.write(session, channel_id)
    if before != channel_id:  # another channel is another account: its name is not known until tested
        line.forget_account(db)
    print(words.line("cli.webhook.saved"))
    return _relay_told(line.credentials_saved(db))


COMMANDS: dict[str, Verb] = {
    "line-token": cmd_line_token,
    "smtp-password": cmd_smtp_password,
    "line-channel": cmd_line_channel,
}
