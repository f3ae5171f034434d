"""Demo mode: a sample classroom that sends to the built-in LINE emulator, so a newcomer can walk
through the whole flow with no LINE account. It lives in its own data folder (`<data>/demo`) and
never mixes with real data; its token is set for this process only, never saved in the keyring.
While the demo runs, the process keeps secrets in memory instead of the OS keyring, so walking
through Connect LINE with the demo channel's secret cannot replace the real classroom's.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from core.app import demo_drafting, demo_inbox, demo_month, demo_shifts, demo_works
from core.errors import ShiftcastError, ValidationError
from core.roster import clock, closed_days, rules
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Channel, Classroom, ShiftStatus, Teacher, TeacherContact
from core.store.paths import DataPaths
from core.store.secrets import LINE_TOKEN_ENV
from core.texts import t

# The emulator and the image server are imported when a demo starts: the window imports this module
# at every start, and almost never runs the demo.
if TYPE_CHECKING:
    import http.server

    from keyring.backend import KeyringBackend

    from core.app.demo_relay import DemoRelay
    from core.emulator import LineEmulator
    from core.emulator.line_works import WorksStandIn
    from core.emulator.simulate import Delivered
    from core.receiving.server import WebhookReceiver

DEMO_TOKEN = "shiftcast-demo-token"
# The demo channel's ID and secret, so the Connect LINE wizard can be walked through against the simulator.
DEMO_CHANNEL_ID = "2000000000"
DEMO_CHANNEL_SECRET = "5a" * 16
DEMO_CLASSROOM = "さくら教室（デモ）"
DEMO_GROUP = "C" + "5a" * 16
# A group no classroom has yet, which the demo inbox can invite the account into: Connect LINE's group step.
DEMO_NEW_GROUP = "C" + "6b" * 16
DEMO_NEW_GROUP_NAME = "さくら教室 講師グループ（デモ）"
# The demo's groups by their names in LINE, for the inbox once no classroom (or no simulator) names one.
GROUP_NAMES = {DEMO_GROUP: DEMO_CLASSROOM, DEMO_NEW_GROUP: DEMO_NEW_GROUP_NAME}
TEACHERS = ["佐藤 花子", "鈴木 一郎", "高橋 美咲", "田中 健太", "伊藤 さくら", "渡辺 翔", "山本 結衣", "中村 大輝"]
# Not on LINE yet: they get a pairing code, which the demo inbox can send as them.
NEW_TEACHERS = ["小林 陽菜", "加藤 蓮"]
PATTERNS = [("16:00", "21:00"), ("13:00", "18:00"), ("10:00", "15:00"), ("17:00", "22:00")]
REPLY_WAIT = 15.0  # seconds the inbox waits for the account's reply to a △ (its picker for until when)


def check_hours(start: dt.time, end: dt.time | None) -> None:
    """From–to as a teacher can choose it in LINE: the picker for until when starts at the time chosen first."""
    if end is not None and end <= start:
        raise ValidationError(t("demo.until_not_after_from", start=f"{start:%H:%M}", end=f"{end:%H:%M}"))


def demo_home(base: Path) -> Path:
    """The demo's own data folder inside the data folder `base` the app was started with."""
    return base / "demo"


def user_id_for(n: int) -> str:
    return f"U{n:032x}"


def new_user_id_for(teacher_id: int) -> str:
    """The LINE user ID a teacher not on LINE yet gets when the demo makes them add the account: apart
    from the seeded teachers' IDs, and the same each time for the same teacher."""
    return f"U{0xde40 << 112 | teacher_id:032x}"


def _image_server(directory: Path) -> http.server.ThreadingHTTPServer:
    import http.server

    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
            pass

    return http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(directory)))


def _memory_keyring() -> KeyringBackend:
    """A keyring that forgets everything when the demo ends."""
    from keyring.backend import KeyringBackend
    from keyring.errors import PasswordDeleteError

    store: dict[tuple[str, str], str] = {}

    class DemoKeyring(KeyringBackend):
        priority = 1

        def get_password(self, service: str, username: str) -> str | None:
            return store.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            store[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            if store.pop((service, username), None) is None:
                raise PasswordDeleteError(username)

    return DemoKeyring()  # type: ignore[no-untyped-call]  # keyring's own __init__ is untyped


class DemoEnvironment:
    """The emulator plus a loopback web server for images, wired into the demo database's settings, and
    a webhook receiver the emulator's simulated teachers reach: their 了解 taps and pairing codes are
    recorded from the start, without walking through Connect LINE first. Beside them the LINE WORKS
    stand-in (core/app/demo_works.py), whose signed callbacks reach the same receiver."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.hosted = home / "hosted"
        from core.emulator import LineEmulator

        self.emulator: LineEmulator = LineEmulator(token=DEMO_TOKEN, allow_loopback_media=True,
                                                   channel_id=DEMO_CHANNEL_ID, channel_secret=DEMO_CHANNEL_SECRET,
                                                   loopback_webhooks=True)
        self.receiver: WebhookReceiver | None = None
        self.works: WorksStandIn | None = None
        self.relay: DemoRelay | None = None  # started by start_relay: the demo window's, not every test's
        self._db: Database | None = None
        self._httpd: http.server.ThreadingHTTPServer | None = None
        self._real_keyring: KeyringBackend | None = None
        self._keeps_inbox = False  # not before start() read the saved inbox: an empty one would overwrite it

    def start(self, db: Database) -> DemoEnvironment:
        import keyring

        from core.receiving.server import WebhookReceiver

        self._db = db
        self._real_keyring = keyring.get_keyring()
        keyring.set_keyring(_memory_keyring())
        self.emulator.start()
        self.emulator.restore_inbox(demo_inbox.load(demo_inbox.inbox_path(self.home)))
        self._keeps_inbox = True  # from here on the simulator's inbox holds the earlier runs' messages too
        self.hosted.mkdir(parents=True, exist_ok=True)
        self._httpd = _image_server(self.hosted)
        threading.Thread(target=self._httpd.serve_forever, name="shiftcast-demo-images", daemon=True).start()
        os.environ[LINE_TOKEN_ENV] = DEMO_TOKEN
        with db.write() as session:
            keys.LINE_API_BASE.write(session, self.emulator.base_url)
            keys.LINE_HOLD.clear(session)
            keys.HOSTING_LOCAL_ROOT.write(session, str(self.hosted))
            keys.HOSTING_LOCAL_BASE_URL.write(session, f"http://127.0.0.1:{self._httpd.server_address[1]}")
        self._register_recipients(db)
        # As Test connection would: the readiness check then names the simulator's account, not "not checked yet".
        from core.setup import line

        line.check_connection(db)
        self.receiver = WebhookReceiver(db, DEMO_CHANNEL_SECRET).start()
        self.emulator.set_webhook_endpoint(self.receiver.url)
        self.works = demo_works.start(db, self.receiver.url)  # after the keyring swap: its secrets stay in memory
        return self

    def start_relay(self) -> DemoRelay:
        """Run the relay on this computer beside the simulator, when Node and its packages are here
        (core/app/demo_relay.py); it comes up on a thread of its own, or says why not."""
        from core.app.demo_relay import DemoRelay

        assert self._db is not None, "start() first"
        self.relay = DemoRelay(self.home, self.emulator.base_url, DEMO_CHANNEL_SECRET, DEMO_TOKEN).start(self._db)
        return self.relay

    def stop(self) -> None:
        if self._keeps_inbox:  # while the image server and the relay still answer
            demo_inbox.keep_images(self.home, self.emulator.all_inbox())
        if self.relay is not None:
            self.relay.stop(self._db)
        if self.works is not None:
            self.works.stop()
            self.works = None
        if self.receiver is not None:
            self.emulator.set_webhook_endpoint(None)
            self.receiver.stop()
            self.receiver = None
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._keeps_inbox:
            demo_inbox.save(demo_inbox.inbox_path(self.home), self.emulator.all_inbox())
        self.emulator.stop()
        if os.environ.get(LINE_TOKEN_ENV) == DEMO_TOKEN:
            del os.environ[LINE_TOKEN_ENV]
        if self._real_keyring is not None:
            import keyring

            keyring.set_keyring(self._real_keyring)
            self._real_keyring = None

    # ----- acting as a teacher, through the simulator -----

    def tap_on_works(self, user_id: str, data: str, *, channel_id: str | None = None) -> int:
        """The teacher taps a LINE WORKS message's 了解: the stand-in posts the signed callback to the
        receiver. The receiver's answer (200: taken)."""
        assert self.works is not None, "start() first"
        return self.works.postback(user_id, data, channel_id=channel_id)

    def tap_as_teacher(self, user_id: str, message_id: str) -> Delivered:
        """The teacher taps the postback (了解) button of a message they received."""
        return self.emulator.tap(user_id, message_id=message_id)

    def pick_hours_as_teacher(self, user_id: str, action: dict[str, Any], start: dt.time,
                              end: dt.time | None = None) -> Delivered:
        """The teacher chooses `start` in a time picker they received (an availability request's △), as in
        LINE: the postback carries the picker's data and `params.time`. With `end`, they then choose it in
        the picker for until when that the account's reply offers, once that reply has arrived."""
        from core.emulator.simulate import postback_actions

        check_hours(start, end)
        seen = len(self.emulator.inbox(user_id))
        first = self.emulator.pick(user_id, action, f"{start:%H:%M}")
        if end is None or first.result is None or not first.result.success:
            return first
        # The reply comes once a receiver of the database handled the tap (whichever: Connect LINE's, kept
        # receiving, may hold LINE's webhook now): look at each message that reaches the teacher.
        deadline = time.monotonic() + REPLY_WAIT
        while (left := deadline - time.monotonic()) > 0:
            inbox = self.emulator.wait_inbox(user_id, seen, left)
            until = next((p for m in inbox[seen:] if m.via == "reply"
                          for p in postback_actions(m.message.get("quickReply") or {}, "datetimepicker")), None)
            if until is not None:
                return self.emulator.pick(user_id, until, f"{end:%H:%M}")
            seen = len(inbox)
        raise ShiftcastError(t("demo.no_until_picker", start=f"{start:%H:%M}"))

    def send_code_as_teacher(self, teacher_id: int, name: str, code: str) -> Delivered:
        """A teacher not on LINE yet adds the account as a friend and sends it their pairing code."""
        user_id = new_user_id_for(teacher_id)
        self.emulator.follow(user_id, name)
        return self.emulator.send_text(user_id, code)

    def invite_into_group(self, db: Database) -> Delivered:
        """The manager invites the account into a group of the teachers on LINE that no classroom has
        yet, as in the LINE app: the join event lets Connect LINE's group step offer it."""
        self.emulator.add_group(DEMO_NEW_GROUP, DEMO_NEW_GROUP_NAME, [user_id for user_id, _ in _friends(db)])
        return self.emulator.join(DEMO_NEW_GROUP)

    def _register_recipients(self, db: Database) -> None:
        """The emulator forgets everything between runs; teach it the demo's friends and group again."""
        friends = _friends(db)
        with db.read() as session:
            names = {t.id: t.display_name for t in session.scalars(select(Teacher))}
            rooms = session.scalars(select(Classroom).where(Classroom.line_group_id.is_not(None))).all()
        for user_id, teacher_id in friends:
            self.emulator.add_user(user_id, names[teacher_id])
        for room in rooms:
            self.emulator.add_group(str(room.line_group_id), room.name, [user_id for user_id, _ in friends])


def _friends(db: Database) -> list[tuple[str, int]]:
    """The LINE user ID and teacher ID of every teacher on LINE."""
    with db.read() as session:
        return [(str(line.address), line.teacher_id) for line in session.scalars(select(TeacherContact).where(
            TeacherContact.channel == Channel.LINE, TeacherContact.address.is_not(None)))]


def seed(db: Database, *, now: dt.datetime) -> bool:
    """Create the sample classroom, teachers and two months of shifts, the month's availability request
    and cover requests, the lesson slots, staffing needs and limits a draft keeps, once. True if it seeded."""
    from core.receiving import pairing

    with db.write() as session:
        if session.scalar(select(Classroom.id).limit(1)) is not None:
            return False
        room = rules.create_classroom(session, name=DEMO_CLASSROOM, line_group_id=DEMO_GROUP)
        teachers = [rules.create_teacher(session, name=name, line_user_id=user_id_for(i + 1), line_opt_in=True,
                                          email=f"teacher{i + 1}@example.com")
                    for i, name in enumerate(TEACHERS)]
        newcomers = [rules.create_teacher(session, name=name) for name in NEW_TEACHERS]
        today = now.astimezone(clock.zone(room.timezone)).date()
        first = today.replace(day=1)
        # A manager puts no shift on a day the classroom is closed (元日, 成人の日 …), nor does the demo.
        closed = closed_days.read_between(session, room.id, first, first + dt.timedelta(days=61))
        for offset in range(0, 62):
            day = first + dt.timedelta(days=offset)
            if day.weekday() == 6 or day in closed:
                continue
            for slot in range(3):
                teacher = teachers[(offset * 3 + slot) % len(teachers)]
                start, end = PATTERNS[(offset + slot) % len(PATTERNS)]
                start_time, _ = clock.parse_wall_time(start)
                end_time, next_day = clock.parse_wall_time(end, allow_next_day=True)
                rules.add_shift(session, rules.ShiftDraft(
                    classroom_id=room.id, teacher_id=teacher.id, local_date=day, start_time=start_time,
                    end_time=end_time, ends_next_day=next_day, note="",
                    status=ShiftStatus.CONFIRMED if day.month == today.month else ShiftStatus.DRAFT,
                ), now=now)
        demo_shifts.add_shifts_starting_soon(session, room, teachers, now, closed=closed)
        demo_month.seed(session, room, teachers, newcomers, now)
        demo_drafting.seed(session, room, teachers, now)
        demo_works.seed(session, room, teachers[TEACHERS.index(demo_works.WORKS_TEACHER)], now, closed=closed)
        # Reminders carry the 了解 button, so the demo inbox can tap it as the teacher. Only the setting:
        # its key is made when the first reminder is signed, in the demo's own keyring, which is not
        # in place yet while the demo seeds.
        keys.LINE_ACK_BUTTON.write(session, True)
        pairing.issue_codes(session, now, room.id)
    return True


def send_once(db: Database, paths: DataPaths, *, now: Callable[[], dt.datetime]) -> str:
    """Give the demo inbox something to show: publish this month (once per demo folder), plan the
    reminders that are due, and send whatever is due to the emulator. What it did, in English."""
    # Imported here: the sender and the publisher are not paid for by a process that only seeds.
    from core.errors import ShiftcastError
    from core.planning import planner
    from core.publication import publish as publication
    from core.publication.image_store import ImageStore
    from core.sending.sender import Sender

    moment = now()
    notes = []
    with db.write() as session:
        for room in session.scalars(select(Classroom).where(Classroom.line_group_id.is_not(None))).all():
            local = moment.astimezone(clock.zone(room.timezone))
            if publication.latest(session, room.id, local.year, local.month) is None:
                try:
                    with session.begin_nested():
                        publication.publish(session, room.id, local.year, local.month, now=moment,
                                            store=ImageStore(paths.images))
                except ShiftcastError as exc:
                    notes.append(f"{room.name}: {exc}")
        planner.plan(session, now=moment)
    sender = Sender(db, paths=paths, clock=now)
    try:
        stats = sender.run_until_idle()
    finally:
        sender.stop()
    return "; ".join([f"demo messages sent to the LINE and LINE WORKS simulators: {stats.sent}", *notes])
