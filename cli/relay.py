"""The relay verbs (docs/relay.md): `relay attach URL` (the key from SHIFTCAST_RELAY_KEY or standard
input, kept in the keyring, once the relay answered /health), `relay sync` (once, a JSON summary),
`relay status`, `relay detach`, `relay local --port P` (the bundled relay run here and attached, until
Ctrl+C), and `relay deploy` / `relay remove`, which put the relay on the manager's Cloudflare account and
take it away (cli/relay_setup.py)."""

from __future__ import annotations

import argparse
import getpass
import os
import signal
import sys
from typing import TYPE_CHECKING

from cli import relay_setup, words
from cli.verbs import Subcommands, Verb, now, print_json
from core.errors import ValidationError
from core.texts import t

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    relay = sub.add_parser("relay", help="the relay that receives LINE's webhook and sends reminders while every "
                                         "PC sleeps: attach, sync, status, detach, local, deploy, remove")
    verbs = relay.add_subparsers(dest="relay_command",
                                 metavar="{attach,sync,status,detach,local,deploy,remove}", required=True)
    attach = verbs.add_parser("attach", help="attach a relay: its address, and its key from SHIFTCAST_RELAY_KEY or "
                                             "standard input (kept in the keyring)")
    attach.add_argument("url", help="the relay's address (https://…)")
    verbs.add_parser("sync", help="sync with the relay once and print what was done as JSON")
    verbs.add_parser("status", help="the relay's address, its version and the last sync")
    verbs.add_parser("detach", help="forget the relay's address and key")
    local = verbs.add_parser("local", help="run the bundled relay on this computer (wrangler dev, a local D1 in the "
                                           "data folder) and attach it, until Ctrl+C")
    local.add_argument("--port", type=int, required=True, help="the loopback port it listens on")
    local.add_argument("--line-api-base", metavar="URL",
                       help="where the relay sends LINE's calls (default: the app's LINE API address)")
    relay_setup.add_setup_parsers(verbs)  # deploy, remove: the relay on the manager's Cloudflare account


def _key() -> str:
    from core.relay import settings

    given = os.environ.get(settings.KEY_ENV, "").strip()
    if not given:
        given = (getpass.getpass(words.line("cli.prompt.relay_key")) if sys.stdin.isatty()
                 else sys.stdin.readline()).strip()
    if not given:
        raise ValidationError(t("cli.relay.no_key_given"))
    return given


def cmd_relay(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    verbs = {"attach": _attach, "sync": _sync, "status": _status, "detach": _detach, "local": _local,
             **relay_setup.SETUP_COMMANDS}
    return verbs[args.relay_command](db, args, paths)  # argparse requires one of them


def _attach(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.relay import settings
    from core.relay.client import RelayClient

    key = _key().lower()
    with RelayClient(args.url, key) as relay:
        health = relay.health()
        relay.check_key()
    settings.attach(db, relay.url, key)
    print(words.line("cli.relay.attached", url=relay.url, version=str(health.get("version"))))
    return 0


def _sync(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.relay import settings, sync
    from core.sending import presence

    relay = settings.client(db)
    if relay is None:
        raise ValidationError(t("cli.relay.not_attached"))
    moment = now()
    with db.read() as session:  # the relay hears of the app's sender only while one is awake
        awake = [s.id for s in presence.listing(session, now=moment, include_stopped=False)
                 if s.state is presence.SenderState.SENDING]
    with relay:
        summary = sync.sync(db, relay, now=moment, paths=paths, sender=awake[0] if awake else None)
    result = {"at": moment.isoformat(), **summary.as_dict()}
    settings.remember_sync(db, result)
    print_json(result)
    return 0


def _status(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.relay import settings
    from core.relay.client import RelayError
    from core.setup import relay_credentials

    found = settings.attached(db)
    if found is None:
        print(words.line("cli.relay.not_attached"))
        return 1
    relay = settings.client(db)
    assert relay is not None
    with relay:
        try:
            health = relay.health()
            version: str = str(health.get("version"))
        except RelayError as exc:
            version = words.say(exc.text)
    last = found.last_sync.get("at") if found.last_sync else None
    held = relay_credentials.held(db)
    print_json({"url": found.url, "version": version, "last_sync": found.last_sync,
                "last_sync_at": last, "line_credentials": held.value})
    if held is relay_credentials.Held.OLD:
        print(words.line("cli.relay.old_credentials"), file=sys.stderr)
    return 0


def _detach(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.relay import settings

    settings.detach(db)
    print(words.line("cli.relay.detached"))
    return 0


def _local(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    import secrets as random

    from core.channels.line import resolve_base_url
    from core.relay import local, settings
    from core.setup import relay_credentials
    from core.store import setting_keys as keys

    saved = relay_credentials.saved(db)  # as a deployed relay gets them: the secret with the token, or with the channel ID
    if saved is None:
        raise ValidationError(t("cli.relay.no_line_credentials"))
    with db.read() as session:
        base = args.line_api_base or resolve_base_url(keys.LINE_API_BASE.read(session))
    # A key given in the environment is used as it is (a computer without a keyring); otherwise a new one
    # each run, kept in the keyring as the attached relay's.
    given = os.environ.get(settings.KEY_ENV, "").strip().lower()
    key = given or random.token_hex(32)
    relay_secrets = local.RelaySecrets(saved[relay_credentials.SECRET], saved.get(relay_credentials.TOKEN), key,
                                       channel_id=saved.get(relay_credentials.CHANNEL_ID))
    # With the LINE emulator, the teachers' page loads the emulator's LIFF SDK stand-in.
    relay = local.LocalRelay(paths.home / "relay-local", relay_secrets, port=args.port, line_api_base=base,
                             liff_sdk_url=local.emulator_sdk_url(base))
    signal.signal(signal.SIGTERM, _interrupt)  # a service manager's stop ends wrangler too, as Ctrl+C does
    try:
        url = relay.start()
        settings.attach(db, url, key, keep_key=not given)
        print(words.line("cli.relay.local_ready", url=url), flush=True)
        relay.wait()
    except KeyboardInterrupt:
        pass
    finally:
        relay.stop()
    print(words.line("cli.relay.local_stopped"), flush=True)
    return 0


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


COMMANDS: dict[str, Verb] = {"relay": cmd_relay}
