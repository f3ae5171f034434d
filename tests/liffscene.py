"""One classroom's world for the teachers' page, made through the app's own operations: what the browser
tests (tests/test_liff_e2e.py), the page's benchmark (tests/perf/liff_bench.py) and its screenshots
(tests/perf/liff_screenshots.py) open.

本町教室 with three paired teachers, its months published (this one and the next where shifts reach
it), a reminder with 了解 sent to 佐藤 花子 for her next shift, an availability request for the planning
month open to all three, and a cover call for 田中 一郎's shift sent to her; 駅前教室 beside it with a
teacher of its own; the manager's own LINE. The clock is the real one: the relay checks the ID tokens'
expiry against it.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select

from core.emulator import LineEmulator
from core.outbox import queue
from core.publication import publish as publication
from core.publication.image_store import ImageStore
from core.relay import settings as relay_settings
from core.relay import sync
from core.relay.local import LocalRelay, RelaySecrets
from core.roster import availability, clock, cover, rules
from core.sending.kinds import cover_call
from core.sending.sender import Sender
from core.store import secrets as app_secrets
from core.store import setting_keys as keys
from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus, ShiftStatus, SubjectType
from core.store.paths import DataPaths, data_paths
from tests.linefixtures import TOKEN

LOGIN_CHANNEL_ID = "1234567890"  # the LINE Login channel: the ID tokens' audience
LIFF_ID = "1234567890-AbCdEfGh"
MANAGER = "U" + "a0" * 16
HANAKO, ICHIRO, JIRO, YUKI = ("U" + f"{n:02x}" * 16 for n in (1, 2, 3, 4))
NAMES = {HANAKO: "佐藤 花子", ICHIRO: "田中 一郎", JIRO: "鈴木 次郎", YUKI: "高橋 由紀", MANAGER: "山本 店長"}
EVENING = (dt.time(16, 0), dt.time(20, 0))
LATE = (dt.time(18, 0), dt.time(21, 30))


@dataclass
class Scene:
    now: dt.datetime
    today: dt.date  # on the classroom's clock
    room: str  # the page's key of 本町教室, c<id>
    other_room: str  # 駅前教室's
    month: str  # this month, YYYY-MM
    teachers: dict[str, int] = field(default_factory=dict)  # LINE user ID → teacher id
    request: int = 0  # the open availability request
    request_month: str = ""
    call: int = 0  # the cover call sent to 佐藤 花子
    acked_shift: int = 0  # 佐藤 花子's shift whose reminder carries 了解
    reminder: int = 0  # that reminder's delivery


def _in(scene: Scene, days: int) -> dt.date:
    return scene.today + dt.timedelta(days=days)


def _shift(session, room_id: int, teacher_id: int, day: dt.date, hours: tuple[dt.time, dt.time], now: dt.datetime):
    return rules.add_shift(session, rules.ShiftDraft(
        classroom_id=room_id, teacher_id=teacher_id, local_date=day, start_time=hours[0], end_time=hours[1],
        note="", status=ShiftStatus.CONFIRMED), now=now)


def seed(db: Database, paths: DataPaths, emulator: LineEmulator, *, now: dt.datetime) -> Scene:
    """The world above in `db`, its messages sent to `emulator` (whose users it adds)."""
    for user_id, name in NAMES.items():
        emulator.add_user(user_id, name)
    with db.write() as s:
        # No quiet hours: the reminder and the call go at once whatever the hour the tests run at.
        room = rules.create_classroom(s, name="本町教室", quiet_hours=None)
        other = rules.create_classroom(s, name="駅前教室", quiet_hours=None)
        today = clock.local_now(now, room.timezone).date()
        scene = Scene(now, today, f"c{room.id}", f"c{other.id}", f"{today:%Y-%m}")
        for user_id in (HANAKO, ICHIRO, JIRO):
            scene.teachers[user_id] = rules.create_teacher(
                s, name=NAMES[user_id], classroom_ids=[room.id], line_user_id=user_id, line_opt_in=True, now=now).id
        scene.teachers[YUKI] = rules.create_teacher(
            s, name=NAMES[YUKI], classroom_ids=[other.id], line_user_id=YUKI, line_opt_in=True, now=now).id
        hanako, ichiro, jiro = (scene.teachers[u] for u in (HANAKO, ICHIRO, JIRO))
        _shift(s, room.id, ichiro, _in(scene, 0), EVENING, now)
        _shift(s, room.id, jiro, _in(scene, 0), LATE, now)
        reminded = _shift(s, room.id, hanako, _in(scene, 1), EVENING, now)
        _shift(s, room.id, hanako, _in(scene, 3), LATE, now)
        _shift(s, room.id, hanako, _in(scene, 8), EVENING, now)
        _shift(s, room.id, ichiro, _in(scene, 2), LATE, now)
        asked = _shift(s, room.id, ichiro, _in(scene, 5), EVENING, now)
        _shift(s, room.id, jiro, _in(scene, 4), EVENING, now)
        _shift(s, other.id, scene.teachers[YUKI], _in(scene, 1), EVENING, now)
        store = ImageStore(paths.images)
        for room_id in (room.id, other.id):
            for month in sorted({(d.year, d.month) for d in (scene.today, _in(scene, 8))}):
                if rules.month_shifts(s, room_id, *month):
                    publication.publish(s, room_id, *month, now=now, store=store)
        # The reminder of her next shift, due now, with its 了解 (as the planner makes it nearer the time).
        keys.LINE_ACK_BUTTON.write(s, True)
        scene.acked_shift = reminded.id
        scene.reminder, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER,
            dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{reminded.id}", reminded.version),
            due_at=now, now=now, recipient=HANAKO, teacher_id=hanako, classroom_id=room.id,
            subject_type=SubjectType.SHIFT, subject_id=reminded.id, subject_version=reminded.version)
        year, number = (scene.today.year + scene.today.month // 12, scene.today.month % 12 + 1)  # next month
        request = availability.ask(s, room.id, year, number, scene.today + dt.timedelta(days=7),
                                   [hanako, ichiro, jiro], now=now)
        scene.request, scene.request_month = request.id, f"{year:04d}-{number:02d}"
        row = cover.ask(s, asked.id, ichiro, now=now, reason="学校の試験のため")
        cover_call.call(s, row.id, now=now, teacher_ids=[hanako])
        scene.call = row.id
        keys.ALERTS_LINE_USER_ID.write(s, MANAGER)
        keys.LINE_LOGIN_CHANNEL_ID.write(s, LOGIN_CHANNEL_ID)
        keys.LIFF_ID.write(s, LIFF_ID)
        keys.PAGES_ENABLED.write(s, True)
    sender = Sender(db, paths=paths, clock=lambda: now)
    try:
        sender.run_until_idle()
    finally:
        sender.stop()
    with db.read() as s:
        sent = [s.get(Delivery, scene.reminder)] + list(s.scalars(select(Delivery).where(
            Delivery.kind == DeliveryKind.COVER_CALL.value)))
        # the page offers 了解 and the cover call only for what reached her
        assert all(d is not None and d.status == DeliveryStatus.SENT for d in sent), [
            (d.kind, d.status, d.last_error_code) for d in sent if d is not None]
    return scene


def attach(db: Database, relay_url: str, relay_key: str) -> None:
    relay_settings.attach(db, relay_url, relay_key)


def relay_sync(db: Database, paths: DataPaths, *, now: dt.datetime | None = None) -> sync.Summary:
    """One `relay sync` as the app's sender runs it: documents handed over, the page's answers taken in."""
    relay = relay_settings.client(db)
    assert relay is not None, "attach the relay first"
    with relay:
        return sync.sync(db, relay, now=now or dt.datetime.now(dt.UTC), paths=paths, sender=None)


@contextmanager
def page_relay(folder: Path, emulator: LineEmulator) -> Iterator[LocalRelay]:
    """The real relay on loopback, LINE being `emulator` (its ID token check too), the page loading the
    emulator's LIFF SDK stand-in."""
    with LocalRelay(folder, RelaySecrets(emulator.channel_secret, TOKEN, secrets.token_hex(32)),
                    line_api_base=emulator.base_url, variables={"LIFF_SDK_URL": sdk_url(emulator)}) as relay:
        yield relay


def sdk_url(emulator: LineEmulator) -> str:
    return f"{emulator.base_url}/liff/sdk.js"


@dataclass
class World:
    db: Database
    paths: DataPaths
    emulator: LineEmulator
    relay: LocalRelay
    scene: Scene

    def page(self, view: str, **params: str | int) -> str:
        """The page's address on the relay, as LINE opens it for `view`."""
        query = "&".join(f"{k}={v}" for k, v in {"view": view, **params}.items())
        return f"{self.relay.url}/liff/?{query}"

    def token(self, user_id: str, *, expires_in: int = 3600) -> str:
        """An ID token for the person, as the LINE app hands it to the page."""
        return self.emulator.issue_id_token(user_id, LOGIN_CHANNEL_ID, expires_in=expires_in, name=NAMES.get(user_id))


def ready(db: Database, paths: DataPaths, emulator: LineEmulator, relay: LocalRelay) -> World:
    """The scene seeded, the relay attached and its documents handed over by one sync."""
    scene = seed(db, paths, emulator, now=dt.datetime.now(dt.UTC))
    relay_settings.attach(db, relay.url, relay.key)
    relay_sync(db, paths)
    return World(db, paths, emulator, relay, scene)


@contextmanager
def standalone(root: Path) -> Iterator[World]:
    """The same outside the tests (the benchmark, the screenshots): a data folder under `root`, the
    secrets in a keyring in memory, the emulator and the relay started and ended here."""
    import keyring

    from tests.memory_keyring import MemoryKeyring

    before_keyring = keyring.get_keyring()
    before_env = {k: os.environ.get(k) for k in ("SHIFTCAST_HOME", "SHIFTCAST_LINE_API_BASE", "SHIFTCAST_DB_URL")}
    keyring.set_keyring(MemoryKeyring())
    os.environ.pop("SHIFTCAST_DB_URL", None)
    os.environ["SHIFTCAST_HOME"] = str(root / "home")
    try:
        with LineEmulator(token=TOKEN) as emulator, page_relay(root / "relay", emulator) as relay:
            os.environ["SHIFTCAST_LINE_API_BASE"] = emulator.base_url
            app_secrets.set_line_token(TOKEN)
            paths = data_paths(root / "home")
            db = open_database(paths)
            try:
                yield ready(db, paths, emulator, relay)
            finally:
                db.dispose()
    finally:
        keyring.set_keyring(before_keyring)
        for name, value in before_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
