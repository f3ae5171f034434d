"""Command-line verbs for the outbox: the headless sender, listing, retry, cancel, the emulator."""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import getpass
import json
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli import numbers, words
from core.errors import ShiftcastError, ValidationError
from core.startup import resume_collector
from core.store.kinds import DeliveryStatus
from core.texts import Text, t

# Every verb imports the core it needs when it runs: parsing (and --help) must not load SQLAlchemy,
# httpx or the sender (tests/test_cli.py holds that).
if TYPE_CHECKING:
    from core.outbox.deliveries import RetryOutcome
    from core.sending.engine import Engine
    from core.store.db import Database
    from core.store.paths import DataPaths

log = logging.getLogger(__name__)


def add_parsers(sub: Any) -> None:
    sender = sub.add_parser("sender", help="send in the foreground, without a window, until Ctrl+C")
    sender.add_argument("--until-idle", action="store_true", help="stop once nothing is due or in flight")

    senders = sub.add_parser("senders", help="list who sends from this database, from where and since when")
    senders.add_argument("--json", action="store_true")

    sub.add_parser("health", help="exit 0 if the database answers and a sender on this computer has a fresh "
                                  "heartbeat (a service's or container's health check)")

    listing = sub.add_parser("deliveries", help="list deliveries (newest first)")
    listing.add_argument("--status", choices=[s.value for s in DeliveryStatus], action="append")
    # Any registered message kind, built in or not, so no fixed choices (core/kinds/registry.py).
    listing.add_argument("--kind", action="append")
    listing.add_argument("--dead", action="store_true", help="only dead letters")
    listing.add_argument("--limit", type=numbers.whole_number(1, 100_000), default=100)
    listing.add_argument("--json", action="store_true")

    retry = sub.add_parser("retry", help="send a delivery again now (or every dead letter with --dead)")
    retry.add_argument("id", type=numbers.ROW_ID, nargs="?")
    retry.add_argument("--dead", action="store_true")

    cancel = sub.add_parser("cancel", help="cancel a delivery that was not sent")
    cancel.add_argument("id", type=numbers.ROW_ID)

    sub.add_parser("line-token", help="save the LINE channel access token (read from standard input) in the keyring")
    sub.add_parser("smtp-password", help="save the SMTP password (read from standard input) in the keyring")

    alert_list = sub.add_parser("alerts", help="list open incidents and those of the last 7 days")
    alert_list.add_argument("--json", action="store_true")

    plan = sub.add_parser("plan", help="dry run: what would be sent in the next days, and the LINE quota forecast")
    plan.add_argument("--days", type=int, default=7)
    plan.add_argument("--json", action="store_true")

    render = sub.add_parser("render", help="draw a classroom's month as PNG or PDF (for the wall)")
    render.add_argument("--classroom", required=True)
    render.add_argument("--month", required=True, help="YYYY-MM")
    render.add_argument("--out", required=True, type=Path, help="a .png or .pdf file")

    publish = sub.add_parser("publish", help="confirm and publish a classroom's month to its LINE group")
    publish.add_argument("--classroom", required=True)
    publish.add_argument("--month", required=True, help="YYYY-MM")
    publish.add_argument("--dry-run", action="store_true", help="only show recipients, quota cost and warnings")
    publish.add_argument("--json", action="store_true")

    emulator = sub.add_parser("emulator", help="run the local LINE emulator")
    emulator.add_argument("--port", type=numbers.PORT, default=8765)
    emulator.add_argument("--token", help="the only token it accepts (default: any)")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def cmd_sender(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.store import setting_keys as keys

    with db.read() as session:
        pending = keys.LINE_WEBHOOK_RESTORE_PENDING.read(session)
    if pending:  # a connect flow that crashed left LINE's webhook pointing at its tunnel
        from core.setup.line_connect import restore_if_pending  # only then: it loads the receiver's modules

        restore_if_pending(db)
    if args.until_idle:
        from core.channels import email as email_channel
        from core.channels.line import access_from_settings
        from core.sending.scheduler import Scheduler
        from core.sending.sender import Sender

        sender = Sender(db, lambda: access_from_settings(db), paths=paths,
                        email_access=lambda: email_channel.access_from_settings(db))
        Scheduler(db, wake_sender=sender.wake).run_plan()
        resume_collector()  # start-up ends here; a long drain must not keep its cycles
        drained = sender.run_until_idle()
        sender.stop()
        print(json.dumps(drained.__dict__), flush=True)
        stranded = _stranded_for_credentials(db, now=_now())
        for line in stranded:
            print(f"shiftcast: {words.say(line)}", file=sys.stderr)
        # Exit 0 only when nothing due was left behind for want of a credential: a service manager or a
        # cron job must see that reminders are not going out.
        return EXIT_NOT_SENT if stranded else 0
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
        return _send_until_stopped(Engine(db, paths), stop, died)
    finally:
        threading.excepthook = previous_hook


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


EXIT_NOT_SENT = 1
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
            reason = t("cli.credential.unreadable", what=_CREDENTIALS.get(channel.value, t("cli.credential.other")),
                       detail=exc.text if isinstance(exc, ShiftcastError) else str(exc))
        else:
            if connection is not None:
                connection.close()
                continue
            reason = _SET_UP_HINTS.get(channel.value, t("cli.not_set_up", channel=driver.title))
        lines.append(t("cli.stranded", count=count, channel=driver.title, reason=reason))
    return lines


def _to_group(kind: str) -> bool:
    from core.kinds import registry

    found = registry.kind_of(kind)
    return found is not None and found.to_group


def _row(d: Any, names: _Names) -> dict[str, Any]:
    from core.outbox import policy

    due_local, zone = names.local(d.due_at, d.classroom_id)
    return {
        "id": d.id, "kind": d.kind, "status": d.status.value, "recipient": d.recipient,
        "recipient_name": names.recipient(d), "due_at": d.due_at.isoformat(), "due_local": due_local,
        "timezone": zone, "attempts": d.attempt_count,
        "next_attempt_at": d.next_attempt_at.isoformat() if d.next_attempt_at else None,
        "sent_at": d.sent_at.isoformat() if d.sent_at else None, "error_code": d.last_error_code,
        "error": words.say(policy.shown_error(d.last_error_message)) or None, "cancel_reason": d.cancel_reason,
        "dead_letter": d.dead_lettered_at is not None, "dedup_key": d.dedup_key,
    }


class _Names:
    """Who a delivery is for and its classroom's time zone, looked up once for the whole listing."""

    def __init__(self, session: Any, rows: list[Any]) -> None:
        from sqlalchemy import select

        from core.store.models import Classroom, Teacher

        teacher_ids = {d.teacher_id for d in rows if d.teacher_id is not None}
        room_ids = {d.classroom_id for d in rows if d.classroom_id is not None}
        self.teachers: dict[int, str] = dict(session.execute(
            select(Teacher.id, Teacher.name).where(Teacher.id.in_(teacher_ids))).all()) if teacher_ids else {}
        self.rooms: dict[int, tuple[str, str]] = {
            room_id: (name, zone) for room_id, name, zone in session.execute(
                select(Classroom.id, Classroom.name, Classroom.timezone).where(Classroom.id.in_(room_ids)))
        } if room_ids else {}

    def recipient(self, d: Any) -> str | None:
        if d.teacher_id in self.teachers:
            return self.teachers[d.teacher_id]
        if d.classroom_id in self.rooms and _to_group(d.kind) and d.channel.value == "line":
            return f"{self.rooms[d.classroom_id][0]} (LINE group)"
        return None

    def local(self, when: dt.datetime, classroom_id: int | None) -> tuple[str, str]:
        """`when` on the classroom's wall clock, as the roster and `plan` show it (the PC's without one)."""
        from core.roster import clock

        if classroom_id in self.rooms:
            zone_name = self.rooms[classroom_id][1]
            return when.astimezone(clock.zone(zone_name)).strftime("%Y-%m-%d %H:%M"), zone_name
        local = when.astimezone()
        return local.strftime("%Y-%m-%d %H:%M"), local.tzname() or "local"


def cmd_senders(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.sending import presence

    now = _now()
    with db.read() as session:
        found = presence.listing(session, now=now)
    rows = [{"id": i.id, "state": i.state.value, "host": i.host, "pid": i.pid, "home": i.home, "app": i.app,
             "started_at": i.started_at.isoformat(), "heartbeat_at": i.heartbeat_at.isoformat(),
             "stopped_at": i.stopped_at.isoformat() if i.stopped_at else None,
             "heartbeat_age_s": round((now - i.heartbeat_at).total_seconds(), 1)} for i in found]
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
        live = presence.live_on_host(session, host, now=_now())
    if not live:
        print(words.line("cli.health.unhealthy", host=host, seconds=f"{presence.STALE_AFTER.total_seconds():.0f}"),
              file=sys.stderr)
        return EXIT_NOT_SENT
    age = min((_now() - i.heartbeat_at).total_seconds() for i in live)
    print(words.line("cli.health.ok", count=len(live), host=host, seconds=f"{age:.0f}"))
    return 0


def cmd_deliveries(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.outbox import deliveries

    flt = deliveries.DeliveryFilter(
        statuses=tuple(DeliveryStatus(s) for s in args.status or ()),
        kinds=tuple(args.kind or ()),
        dead_letters_only=args.dead,
    )
    with db.read() as session:
        found = deliveries.list_deliveries(session, flt, limit=args.limit)
        names = _Names(session, found)
        rows = [_row(d, names) for d in found]
        counts = deliveries.counts(session)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        problem = ": ".join(x for x in (r["error_code"], r["error"]) if x) or r["cancel_reason"] or ""
        who = r["recipient_name"] or r["recipient"] or "-"
        print(words.line("cli.deliveries.row", id=f"{r['id']:>7}", kind=f"{r['kind']:<18}", status=f"{r['status']:<10}",
                         due=r["due_local"], zone=r["timezone"], who=who, attempts=r["attempts"],
                         problem=problem).rstrip())
    print("  ".join(f"{k}: {v}" for k, v in counts.items()))
    return 0


def cmd_retry(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.outbox import deliveries

    if (args.id is None) == (not args.dead):
        raise ValidationError(t("cli.retry.what"))
    with db.write() as session:
        if args.dead:
            outcomes = deliveries.requeue_dead_letters(session, now=_now())
        else:
            outcomes = [deliveries.retry_now(session, args.id, now=_now())]
    for o in outcomes:
        note = t("cli.retry.new_key") if o.new_retry_key else t("cli.retry.same_key")
        print(words.line("cli.retry.done", id=o.delivery_id, when=_when_retried(o), note=note))
    if not outcomes:
        print(words.line("cli.retry.none"))
    return 0


def _when_retried(outcome: RetryOutcome) -> Text:
    """When a retried delivery goes, in its classroom's zone, as `plan` says it."""
    if not outcome.waits:
        return t("cli.retry.now")
    from core.roster import clock

    zone = outcome.zone or "UTC"
    local = outcome.send_at.astimezone(clock.zone(zone))
    return t("cli.retry.at", day=local.date(), time=local.time(), zone=zone)


def cmd_cancel(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.outbox import deliveries

    with db.write() as session:
        deliveries.cancel(session, args.id, now=_now())
    print(words.line("cli.canceled", id=args.id))
    return 0


def cmd_line_token(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.store import secrets

    token = getpass.getpass(words.line("cli.prompt.line_token")) if sys.stdin.isatty() else sys.stdin.readline()
    if not token.strip():
        raise ValidationError(t("cli.no_token"))
    secrets.set_line_token(token.strip())
    print(words.line("cli.saved_in_keyring"))
    return 0


def cmd_smtp_password(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.channels import email as email_channel

    password = getpass.getpass(words.line("cli.prompt.smtp_password")) if sys.stdin.isatty() else sys.stdin.readline()
    if not password.strip():
        raise ValidationError(t("cli.no_password"))
    email_channel.set_smtp_password(password.strip())
    print(words.line("cli.saved_in_keyring"))
    return 0


def _alert_row(a: Any) -> dict[str, Any]:
    from core import alerts

    title, detail = alerts.title_of(a), alerts.detail_of(a)
    return {
        "id": a.id, "kind": a.kind.value, "scope": a.scope, "open": a.open_key is not None, "title": words.say(title),
        "title_code": title.code if isinstance(title, Text) else None,
        "detail": words.say(detail), "opened_at": a.opened_at.isoformat(), "last_seen_at": a.last_seen_at.isoformat(),
        "cleared_at": a.cleared_at.isoformat() if a.cleared_at else None,
    }


def cmd_alerts(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core import alerts

    with db.read() as session:
        rows = [_alert_row(a) for a in alerts.list_alerts(session, now=_now())]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        state = words.line("cli.alerts.open") if r["open"] else words.line("cli.alerts.cleared")
        print(f"{r['id']:>5}  {state}  {r['opened_at'][:16]}  {r['title']}")
    print(words.line("cli.alerts.summary", open_count=sum(r["open"] for r in rows), count=len(rows)))
    return 0


def cmd_plan(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.planning import forecast

    if not 1 <= args.days <= 62:
        raise ValidationError(t("cli.plan.days"))
    now = _now()
    items = forecast.dry_run(db, now=now, days=args.days)
    fc = forecast.forecast(db, now=now)
    if args.json:
        print(forecast.as_json(items, fc, words.current()))
        return 0
    for i in items:
        print(f"{i.local_send_time}  {i.kind:<18} {i.channel:<5} {i.recipient}  [{i.classroom}]  {words.say(i.why)}")
    print(words.line("cli.plan.count", count=len(items), days=args.days))
    if fc.limit is None:
        print(words.line("cli.plan.no_limit", planned_count=fc.planned_rest_of_month))
    else:
        print(words.line("cli.plan.quota", used_count=fc.used, limit_count=fc.limit,
                         planned_count=fc.planned_rest_of_month, remaining_count=fc.remaining_after_plan))
    return 0


def cmd_render(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.publication import month_image
    from core.publication import publish as publication
    from core.roster import rules
    from core.store.exports import write_export

    year, month = rules.parse_month(args.month)
    suffix = args.out.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise ValidationError(t("cli.render.suffix"))
    with db.read() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        view = publication.build_month(session, classroom, year, month, now=_now(), include_drafts=True)

    def drawn() -> bytes:
        png = month_image.render_png(view)
        return month_image.pdf_of(png) if suffix == ".pdf" else png

    write_export(args.out, drawn)
    print(words.line("cli.wrote", path=str(args.out)))
    return 0


def cmd_publish(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.publication import publish as publication
    from core.publication.image_store import ImageStore
    from core.roster import rules

    year, month = rules.parse_month(args.month)
    now = _now()
    if args.dry_run:
        with db.read() as session:
            classroom = rules.classroom_by_name(session, args.classroom)
        members = _live_member_count(db, classroom.line_group_id)
        with db.read() as session:
            plan = publication.plan_publish(session, classroom.id, year, month, now=now, members=members)
        if args.json:
            shown = {k: v for k, v in dataclasses.asdict(plan).items() if k != "warning_text"}
            print(json.dumps(shown, ensure_ascii=False, indent=2))
        else:
            print(words.line("cli.publish.plan", classroom=plan.classroom, month=f"{year}-{month:02d}",
                             revision=plan.revision, draft_count=plan.drafts_to_confirm,
                             changed_count=plan.changed_cells))
            print(words.line("cli.publish.group", group=plan.group_id or "-",
                             members=plan.members if plan.members is not None else "?",
                             messages=plan.messages if plan.messages is not None else "?"))
            if plan.quota_limit is not None:
                print(words.line("cli.publish.quota", used_count=plan.quota_used or 0, limit_count=plan.quota_limit))
            if plan.warning_text:
                print(words.line("cli.publish.warning", warning=plan.warning_text))
        return 0
    with db.write() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        done = publication.publish(session, classroom.id, year, month, now=now, store=ImageStore(paths.images))
    emails = done.email_deliveries
    parts = ([t("cli.publish.group_message", id=done.delivery_id)] if done.delivery_id else []) + (
        [t("cli.publish.emails", count=len(emails))] if emails else [])
    print(json.dumps(dataclasses.asdict(done)) if args.json else
          words.line("cli.publish.done", revision=done.revision,
                     queued=t("word.and", first=parts[0], second=parts[1]) if len(parts) == 2 else tuple(parts)))
    return 0


def _live_member_count(db: Database, group_id: str | None) -> int | None:
    from core.channels.line import access_from_settings

    if not group_id:
        return None
    try:
        access = access_from_settings(db)
        if access is None:
            return None
        try:
            return access.client.group_member_count(group_id)
        finally:
            access.client.close()
    except Exception as exc:  # noqa: BLE001 - the dry run falls back to the last known count
        log.warning("could not ask LINE for the group's member count: %s", exc)
        return None


def cmd_emulator(_db: Database | None, args: argparse.Namespace, _paths: DataPaths) -> int:
    from core.emulator import serve_forever

    serve_forever(args.port, args.token)
    return 0


COMMANDS = {
    "sender": cmd_sender,
    "senders": cmd_senders,
    "health": cmd_health,
    "deliveries": cmd_deliveries,
    "retry": cmd_retry,
    "cancel": cmd_cancel,
    "line-token": cmd_line_token,
    "smtp-password": cmd_smtp_password,
    "alerts": cmd_alerts,
    "plan": cmd_plan,
    "render": cmd_render,
    "publish": cmd_publish,
}
NO_DATABASE = {"emulator": cmd_emulator}
# Verbs that end start-up themselves, past their own imports and set-up (core/startup.py); run() ends it
# just before every other verb.
END_START_UP_THEMSELVES = frozenset({"sender"})
