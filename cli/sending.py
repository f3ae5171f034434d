"""The sending verbs: the headless sender (until stopped, or `--until-idle` once), who sends from this
database (`senders`), and a health check for a service manager or a container (`health`)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

from cli import words
from cli.verbs import Subcommands, Verb, now
from core.errors import ShiftcastError, ValidationError
from core.startup import resume_collector
from core.texts import Text, t

# Every verb imports the core it needs when it runs: parsing (and --help) must not load SQLAlchemy,
# httpx or the sender (tests/test_cli.py holds that).
if TYPE_CHECKING:
    from core.sending.engine import Engine
    from core.sending.sender import Sender
    from core.store.db import Database
    from core.store.paths import DataPaths

EXIT_NOT_SENT = 1
# Verbs that end start-up themselves, past their own imports and set-up (core/startup.py); the command
# line ends it just before every other verb.
END_START_UP_THEMSELVES = frozenset({"sender"})


def add_parsers(sub: Subcommands) -> None:
    sender = sub.add_parser("sender", help="send in the foreground, without a window, until Ctrl+C")
    sender.add_argument("--until-idle", action="store_true", help="stop once nothing is due or in flight")

    senders = sub.add_parser("senders", help="list who sends from this database, from where and since when")
    senders.add_argument("--json", action="store_true")

    sub.add_parser("health", help="exit 0 if the database answers and a sender on this computer has a fresh "
                                  "heartbeat (a service's or container's health check)")


def cmd_sender(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.store import setting_keys as keys

    with db.read() as session:
        pending = keys.LINE_WEBHOOK_RESTORE_PENDING.read(session)
    if pending:  # a connect flow that crashed left LINE's webhook pointing at its tunnel
        from core.setup.line_connect import restore_if_pending  # only then: it loads the receiver's modules

        restore_if_pending(db)
    if args.until_idle:
        return _send_until_idle(db, paths)
    from core.relay import syncer
    from core.sending.engine import Engine

    stop = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        stop.set()

    # Before the engine starts: its first message can leave while start() still runs, and a signal
    # then must stop it cleanly, not end the process with requests in flight.
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    # A thread that ends on an error (the sender's loop, on a read-only or full disk) stops the process
    # with that error, which run() reports; Python's own hook would print its traceback and keep waiting.
    died: list[BaseException] = []
    previous_hook = threading.excepthook

    def on_thread_error(hook_args: threading.ExceptHookArgs) -> None:
        if hook_args.exc_value is not None and not died:
            died.append(hook_args.exc_value)
        stop.set()

    threading.excepthook = on_thread_error
    try:
        return _send_until_stopped(Engine(db, paths, companions=syncer.companions(db, paths)), stop, died)
    finally:
        threading.excepthook = previous_hook


def _headless_sender(db: Database, paths: DataPaths) -> Sender:
    """The sender `--until-idle` drains with: every registered channel, connected by its driver from the
    settings and keyring."""
    from core.sending.sender import Sender

    return Sender(db, paths=paths)


def _send_until_idle(db: Database, paths: DataPaths) -> int:
    from core.sending.scheduler import Scheduler

    sender = _headless_sender(db, paths)
    Scheduler(db, wake_sender=sender.wake).run_plan()
    resume_collector()  # start-up ends here; a long drain must not keep its cycles
    try:
        drained = sender.run_until_idle()
    except Exception as exc:
        _say_what_stays_claimed(db, sender.owner, exc)
        raise
    sender.stop()
    print(json.dumps(drained.__dict__), flush=True)
    stranded = _stranded_for_credentials(db, now=now())
    for line in stranded:
        print(f"shiftcast: {words.say(line)}", file=sys.stderr)
    # Exit 0 only when nothing due was left behind for want of a credential: a service manager or a
    # cron job must see that reminders are not going out.
    return EXIT_NOT_SENT if stranded else 0


def _say_what_stays_claimed(db: Database, owner: str, exc: Exception) -> None:
    """A full disk that stopped the sender after it claimed deliveries: say that they stay claimed, and
    what becomes of them, instead of the storage message's "nothing was changed". The rows are read
    (a full disk still reads); anything else returns, and the caller's error is said as it is."""
    from sqlalchemy import func, select

    from core.store.data_folder import StorageError
    from core.store.db import sqlite_file_of, storage_problem
    from core.store.models import Delivery, DeliveryStatus

    database = sqlite_file_of(db.url) or ""
    problem = storage_problem(exc, database=database or None)
    if problem is None or problem.code != "storage.database_full":
        return
    try:
        with db.read() as session:
            claimed = session.scalar(select(func.count()).select_from(Delivery).where(
                Delivery.status == DeliveryStatus.PROCESSING, Delivery.lease_owner == owner)) or 0
    except Exception:  # noqa: BLE001 - the disk's own failure is the one to tell
        return
    if claimed:
        raise StorageError(t("cli.sender.claimed_on_full_disk", path=problem.params.get("path", database),
                             count=claimed)) from exc


def _send_until_stopped(engine: Engine, stop: threading.Event, died: list[BaseException]) -> int:
    if not engine.start():
        raise ValidationError(t("cli.sender.busy"))
    loop = engine.sender
    assert loop is not None  # start() said yes
    # Said once the sender's loop runs: start-up (imports, database, the orphan sweep) can take
    # seconds on a slow machine, and whoever watches this process (a person, a service manager,
    # the crash test) should see when it really sends.
    # Polled, not a blocking wait, so Ctrl+C during start-up still stops it.
    while not stop.is_set() and not loop.ready.wait(0.1):
        pass
    resume_collector()  # start-up ends once the loop runs (core/startup.py)
    if loop.ready.is_set():
        print(words.line("cli.sending_from", path=str(engine.paths.home)), flush=True)
    while not stop.wait(1.0) and not died:
        pass
    stats = engine.sender.stats if engine.sender else None
    engine.stop()
    if died:
        # The loop logged it with its traceback; the front end says it in one line and exits non-zero,
        # instead of a process that looks alive but no longer sends.
        raise died[0]
    print(json.dumps(stats.__dict__ if stats else {}), flush=True)
    return 0


# What each channel needs before it can send, in the words of someone running the sender headless.
_SET_UP_HINTS = {"line": t("cli.hint.line"), "email": t("cli.hint.email")}

_CREDENTIALS = {"line": t("cli.credential.line"), "email": t("cli.credential.email")}


def _stranded_for_credentials(db: Database, *, now: dt.datetime) -> list[Text]:
    """One line per channel that has deliveries due now but cannot connect (no token, no keyring)."""
    from sqlalchemy import func, select

    from core.channels import registry
    from core.outbox.queue import CLAIMABLE
    from core.store.models import Delivery

    with db.read() as session:
        due = dict(session.execute(
            select(Delivery.channel, func.count()).where(Delivery.status.in_(CLAIMABLE), Delivery.next_attempt_at <= now)
            .group_by(Delivery.channel)).all())
    lines = []
    for channel, count in due.items():
        driver = registry.DRIVERS.get(channel)
        if driver is None or not count:
            continue
        try:
            connection = driver.connect(db)
        except Exception as exc:  # noqa: BLE001 - a missing keyring says what to do in its own message
            reason = t("cli.credential.unreadable", what=_CREDENTIALS.get(channel, t("cli.credential.other")),
                       detail=exc.text if isinstance(exc, ShiftcastError) else str(exc))
        else:
            if connection is not None:
                connection.close()
                continue
            reason = _SET_UP_HINTS.get(channel, t("cli.not_set_up", channel=driver.title))
        lines.append(t("cli.stranded", count=count, channel=driver.title, reason=reason))
    return lines


def cmd_senders(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.sending import presence

    at = now()
    with db.read() as session:
        found = presence.listing(session, now=at)
    rows: list[dict[str, Any]] = [{"id": i.id, "state": i.state.value, "host": i.host, "pid": i.pid, "home": i.home, "app": i.app,
             "started_at": i.started_at.isoformat(), "heartbeat_at": i.heartbeat_at.isoformat(),
             "stopped_at": i.stopped_at.isoformat() if i.stopped_at else None,
             "heartbeat_age_s": round((at - i.heartbeat_at).total_seconds(), 1)} for i in found]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print(words.line("cli.senders.none"))
    for r in rows:
        since = r["stopped_at"] if r["state"] == "stopped" else r["started_at"]
        print(words.line(f"cli.senders.{r['state']}", host=r["host"], pid=r["pid"], app=r["app"], home=r["home"],
                         since=since, seconds=f"{r['heartbeat_age_s']:.0f}"))
    return 0


def cmd_health(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    """The database answered (opening it ran a query); now: does a sender here keep its heartbeat?"""
    import socket

    from core.sending import presence

    host = socket.gethostname()
    with db.read() as session:
        live = presence.live_on_host(session, host, now=now())
    if not live:
        print(words.line("cli.health.unhealthy", host=host, seconds=f"{presence.STALE_AFTER.total_seconds():.0f}"),
              file=sys.stderr)
        return EXIT_NOT_SENT
    age = min((now() - i.heartbeat_at).total_seconds() for i in live)
    print(words.line("cli.health.ok", count=len(live), host=host, seconds=f"{age:.0f}"))
    return 0


COMMANDS: dict[str, Verb] = {"sender": cmd_sender, "senders": cmd_senders, "health": cmd_health}
