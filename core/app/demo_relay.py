"""The demo's relay: the bundled Worker run on this computer (core/relay/local.py), attached to the demo's
database with LINE's calls going to the demo's simulator, so a newcomer sees the relay send while the PC
sleeps.

It starts on a thread of its own (wrangler takes seconds, on a busy machine a minute), never holding
up the window; where Node or the relay's packages are missing, or wrangler does not start, the demo
runs without it and `off` says why. Its cron runs only when the demo fires it, as Cloudflare's trigger
would: so it sends only while the demo says the PC sleeps.

"The PC sleeps" (`pc_sleeps`), in the order a real night takes, shortened: the window has stopped the
app's sender (no sends, no heartbeats); a reminder comes due that the last sync before the sleep handed
over (a shift starting soon is added and its reminder planned and handed over, without a heartbeat);
Cloudflare's trigger fires once the sender has been quiet long enough. The demo's relay waits for a few
seconds of quiet rather than five minutes, and the trigger is fired as scheduled just past them, so
nobody waits. Waking is the window starting the sender again: its first sync pulls the relay's
outcomes, which become attempts "by the relay".
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.app.demo_shifts import add_shifts_starting_soon
from core.errors import ShiftcastError, ValidationError
from core.planning import planner
from core.relay import local, settings, sync
from core.relay.outcomes import VIA
from core.store.db import Database
from core.store.models import Channel, Classroom, DeliveryAttempt, Teacher, TeacherContact
from core.store.paths import DataPaths
from core.texts import Text, t

log = logging.getLogger(__name__)
FOLDER = "relay-local"
# As deployed the relay waits 5 minutes after the last heartbeat; the demo's waits this long.
QUIET = dt.timedelta(seconds=3)
SHIFT_NOTE = "デモ: コンピューターのスリープ中にリマインダーが届くシフト"


@dataclass
class Sleep:
    """One time the demo's PC slept: from `since` until `until` (None: it sleeps still)."""

    since: dt.datetime
    until: dt.datetime | None = None


@dataclass
class DemoRelay:
    home: Path
    line_api_base: str
    channel_secret: str
    access_token: str
    relay: local.LocalRelay | None = None
    off: Text | None = None  # why the relay part of the demo is off; None while it starts or runs
    ready: threading.Event = field(default_factory=threading.Event)  # set once it runs or is off
    sleeps: list[Sleep] = field(default_factory=list)
    _thread: threading.Thread | None = None
    _stopping: bool = False

    def start(self, db: Database) -> DemoRelay:
        """Start the relay on a thread of its own and attach it to `db` once it answers."""
        # An installed copy carries the Worker it deploys (resources/relay/), not relay/ with wrangler.
        source = local.SOURCE
        why = local.missing(source) if (source / "wrangler.toml").exists() else t("relay.local.not_here")
        if why is not None:
            self._off(db, why)
            return self
        self.relay = local.LocalRelay(self.home / FOLDER, local.RelaySecrets(
            self.channel_secret, self.access_token, secrets.token_hex(32)), line_api_base=self.line_api_base,
            variables={"SENDER_QUIET_MINUTES": str(QUIET.total_seconds() / 60)}, source=source)
        self._thread = threading.Thread(target=self._run, args=(db, self.relay), name="demo-relay", daemon=True)
        self._thread.start()
        return self

    def _run(self, db: Database, relay: local.LocalRelay) -> None:
        try:
            url = relay.start()
            if self._stopping:
                return
            settings.attach(db, url, relay.key)  # the demo's keyring is in memory: the key goes with the demo
            log.info("the demo's relay runs at %s", url)
        except ShiftcastError as exc:
            self._off(db, exc.text if isinstance(exc.text, Text) else t("text.plain", text=exc.text))
        except Exception as exc:  # noqa: BLE001 - the demo runs on without its relay, saying why
            self._off(db, t("text.plain", text=f"{type(exc).__name__}: {exc}"))
        finally:
            self.ready.set()

    def _off(self, db: Database, why: Text) -> None:
        log.info("the demo runs without its relay: %s", why)
        self.off = why
        settings.detach(db)  # an earlier demo's relay is gone: its syncs would only fail
        self.ready.set()

    @property
    def running(self) -> bool:
        return self.relay is not None and bool(self.relay.url) and self.off is None and not self._stopping

    @property
    def pid(self) -> int | None:
        """The wrangler process the demo started (tests check it has gone)."""
        return self.relay.pid if self.relay is not None else None

    @property
    def asleep(self) -> bool:
        return bool(self.sleeps) and self.sleeps[-1].until is None

    def stop(self, db: Database | None = None, patience: float = 30.0) -> None:
        """End wrangler and its workerd, also while it is still starting, and forget the relay."""
        self._stopping = True
        if self.relay is not None:
            self.relay.stop(patience)
        # Still starting: wrangler may be launched after the stop above looked, so stop again until the
        # starting thread has given up (a wrangler ended at once makes it give up at once).
        while self._thread is not None and self._thread.is_alive():
            self._thread.join(0.2)
            if self.relay is not None:
                self.relay.stop(patience)
        if db is not None and self.off is None and self.relay is not None:
            settings.detach(db)

    # ----- the PC sleeps -----

    def pc_sleeps(self, db: Database, paths: DataPaths, now: dt.datetime) -> int:
        """Once the window stopped the app's sender: a reminder comes due and the relay sends it. Returns
        how many messages the relay sent."""
        relay = self.relay
        if relay is None or not self.running:
            raise ValidationError(self.off or t("relay.local.not_running"))
        self.sleeps.append(Sleep(now))
        with db.write() as session:
            _shift_starting_soon(session, now)
            planner.plan(session, now=now)
        client = settings.client(db)
        if client is None:
            raise ValidationError(t("relay.no_key"))
        with client:
            sync.sync(db, client, now=now, paths=paths, sender=None)  # the last sync before the sleep: no heartbeat
            before = len(client.outcomes().get("outcomes", []))
            relay.run_cron(at=dt.datetime.now(dt.UTC) + QUIET + dt.timedelta(seconds=1))
            return sum(1 for o in client.outcomes().get("outcomes", [])[before:] if o.get("outcome") == "sent")

    def pc_wakes(self, now: dt.datetime) -> None:
        if self.asleep:
            self.sleeps[-1].until = now

    def slept_at(self, moment: dt.datetime) -> bool:
        return any(s.since <= moment and (s.until is None or moment <= s.until) for s in self.sleeps)


def sent_by_relay(db: Database, request_ids: list[str]) -> set[str]:
    """Of LINE's request IDs, those of attempts the relay made (recorded once the app pulled its outcomes)."""
    if not request_ids:
        return set()
    with db.read() as session:
        return {found for found in session.scalars(select(DeliveryAttempt.request_id).where(
            DeliveryAttempt.via == VIA, DeliveryAttempt.request_id.in_(request_ids))) if found is not None}


def _shift_starting_soon(session: Session, now: dt.datetime) -> int:
    """A shift starting soon for a teacher on LINE of the demo's classroom: its reminder is due at once."""
    room = session.scalar(select(Classroom).where(Classroom.line_group_id.is_not(None)).order_by(Classroom.id))
    if room is None:
        return 0
    teachers = list(session.scalars(select(Teacher).join(TeacherContact, TeacherContact.teacher_id == Teacher.id).where(
        TeacherContact.channel == Channel.LINE, TeacherContact.address.is_not(None)).order_by(Teacher.id)))
    return add_shifts_starting_soon(session, room, teachers, now, count=1, note=SHIFT_NOTE)
