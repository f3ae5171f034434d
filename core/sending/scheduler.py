"""Timed work, on APScheduler's BackgroundScheduler: planning, purging, quota refresh, wake detection,
the minute watch (alerts open and clear, e-mail fallbacks, publication e-mails) and the daily check
of which LINE IDs LINE can reach.

The scheduler never sends; it plans into the outbox and wakes the sender. Every job reads the time
from the injected clock, so tests drive it with a controllable clock.

A laptop that slept misses timer ticks. Two signs reveal a wake-up: the wall clock moved much more
than the monotonic clock between two checks (Linux and macOS stop the monotonic clock in sleep), or
a check ran much later than it was scheduled (Windows keeps counting). Either triggers planning now.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core import alerts
from core.outbox import retention
from core.planning import fallback, mailed_publication, planner
from core.sending import kinds as built_in  # noqa: F401 - registers the built-in kinds, which planning asks
from core.store import events
from core.store.db import Database
from core.store.models import utcnow
from core.texts import Text
from core.texts.message import logged

# APScheduler is imported by start(): `main.py sender --until-idle` only plans once and never starts it.
if TYPE_CHECKING:
    from apscheduler.events import JobExecutionEvent
    from apscheduler.schedulers.background import BackgroundScheduler

log = logging.getLogger(__name__)
PLAN_EVERY = dt.timedelta(minutes=15)
WATCH_EVERY = dt.timedelta(minutes=1)
REACH_EVERY = dt.timedelta(days=1)
CLOCK_CHECK_EVERY = 30.0  # seconds
JUMP_THRESHOLD = 90.0  # seconds of unexplained wall-clock time that count as a wake-up


class WakeDetector:
    """Tells whether the machine slept between two checks. Pure: both clocks are passed in."""

    def __init__(self, wall: float, mono: float) -> None:
        self._wall, self._mono = wall, mono

    def check(self, wall: float, mono: float, *, expected_gap: float = CLOCK_CHECK_EVERY) -> bool:
        wall_gap, mono_gap = wall - self._wall, mono - self._mono
        self._wall, self._mono = wall, mono
        return abs(wall_gap - mono_gap) > JUMP_THRESHOLD or wall_gap > expected_gap + JUMP_THRESHOLD


@dataclass(frozen=True)
class WatchReport:
    opened: list[tuple[str, Text | str]]  # (code, title) of incidents opened by this run
    cleared: list[int]
    fallbacks: list[int]
    publication_emails: list[int]


class Scheduler:
    def __init__(
        self,
        db: Database,
        *,
        wake_sender: Callable[[], None],
        clock: Callable[[], dt.datetime] = utcnow,
        refresh_quota: Callable[[], None] | None = None,
        retention_days: int = retention.DEFAULT_DAYS,
        wall: Callable[[], float] = time.time,
        mono: Callable[[], float] = time.monotonic,
        on_alert: Callable[[str, Text | str], None] | None = None,
        sending_since: Callable[[], dt.datetime | None] | None = None,
        check_line_reach: Callable[[], object] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self._wake_sender = wake_sender
        self._refresh_quota = refresh_quota
        self._on_alert = on_alert
        # When the sender started sending (None while it is not): a stall is measured from then.
        self._sending_since = sending_since or (lambda: None)
        self._check_line_reach = check_line_reach
        self._retention_days = retention_days
        self._wall, self._mono = wall, mono
        self._detector = WakeDetector(wall(), mono())
        self._aps: BackgroundScheduler | None = None
        self._plan_lock = threading.Lock()
        self.plans_run = 0
        self.last_report: planner.PlanReport | None = None
        self._job_done = threading.Condition()
        self._remove_hook: Callable[[], None] | None = None

    def start(self) -> Scheduler:
        from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED
        from apscheduler.schedulers.background import BackgroundScheduler

        self._aps = BackgroundScheduler(
            timezone=dt.UTC,
            job_defaults={"coalesce": True, "misfire_grace_time": 15 * 60, "max_instances": 1},
        )
        self._aps.add_listener(self._on_job_event, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
        now = dt.datetime.now(dt.UTC)
        self._aps.add_job(self.run_plan, "interval", seconds=PLAN_EVERY.total_seconds(), id="plan",
                          next_run_time=now)  # right after start-up too
        self._aps.add_job(self.run_purge, "interval", hours=24, id="purge", next_run_time=now + dt.timedelta(minutes=5))
        self._aps.add_job(self.check_clock, "interval", seconds=CLOCK_CHECK_EVERY, id="clock")
        if self._refresh_quota is not None:
            self._aps.add_job(self._refresh_quota, "interval", hours=1, id="quota", next_run_time=now)
        self._aps.add_job(self.run_watch, "interval", seconds=WATCH_EVERY.total_seconds(), id="watch",
                          next_run_time=now + WATCH_EVERY)
        if self._check_line_reach is not None:
            self._aps.add_job(self._check_line_reach, "interval", seconds=REACH_EVERY.total_seconds(), id="reach",
                              next_run_time=now + dt.timedelta(minutes=10))
        self._remove_hook = self.db.events.listen(events.ShiftsChanged, self._shifts_changed)
        self._aps.start()
        return self

    def shutdown(self) -> None:
        if self._remove_hook is not None:
            self._remove_hook()
        if self._aps is not None and self._aps.running:
            self._aps.shutdown(wait=True)

    def _shifts_changed(self, _event: events.ShiftsChanged) -> None:
        # Planning looks at every shift whichever changed; the payload says only that it must run.
        self.plan_soon()

    def plan_soon(self) -> None:
        """Plan on the scheduler's thread as soon as possible (after a shift edit or a wake-up)."""
        if self._aps is not None and self._aps.running:
            self._aps.modify_job("plan", next_run_time=dt.datetime.now(dt.UTC))

    def run_plan(self) -> planner.PlanReport:
        with self._plan_lock, self.db.write() as session:
            report = planner.plan(session, now=self.clock())
        self.plans_run += 1
        self.last_report = report
        if report.created:
            log.info("planned %d new deliveries", len(report.created))
        self._wake_sender()
        return report

    def run_watch(self) -> WatchReport:
        """Open and clear incidents, and enqueue what a missed moment would have: e-mail fallbacks and
        publication e-mails. Cheap, idempotent, every minute."""
        now = self.clock()
        with self.db.write() as session:
            opened, cleared = alerts.evaluate(session, now=now, running_since=self._sending_since())
            report = WatchReport(
                opened=[(a.kind.name, alerts.title_of(a)) for a in opened], cleared=[a.id for a in cleared],
                fallbacks=fallback.sweep(session, now=now),
                publication_emails=mailed_publication.fan_out_recent(session, now=now),
            )
        for code, title in report.opened:
            log.warning("alert: %s", logged(title))
            if self._on_alert is not None:
                self._on_alert(code, title)
        if report.opened or report.fallbacks or report.publication_emails:
            self._wake_sender()
        return report

    def run_purge(self) -> int:
        removed = retention.purge(self.db, now=self.clock(), days=self._retention_days)
        if removed:
            log.info("purged %d old deliveries", removed)
        return removed

    def check_clock(self) -> bool:
        woke = self._detector.check(self._wall(), self._mono())
        if woke:
            log.info("the clock jumped (the computer probably slept): planning now")
            self.plan_soon()
        return woke

    def wait_for_plans(self, count: int, timeout: float = 10.0) -> bool:
        """Block until `count` planning runs have finished (for tests and the CLI)."""
        with self._job_done:
            return self._job_done.wait_for(lambda: self.plans_run >= count, timeout)

    def _on_job_event(self, event: JobExecutionEvent) -> None:
        if event.exception is not None:
            log.error("scheduled job %s failed: %s", event.job_id, event.exception)
        with self._job_done:
            self._job_done.notify_all()
