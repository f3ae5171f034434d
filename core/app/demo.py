"""Demo mode: a sample classroom that sends to the built-in LINE emulator, so a newcomer can walk
through the whole flow with no LINE account. It lives in its own data folder (`<data>/demo`) and
never mixes with real data; its token is set for this process only, never saved in the keyring.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select

from core.roster import clock, rules
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom, ShiftStatus, Teacher
from core.store.secrets import LINE_TOKEN_ENV

# The emulator and the image server are imported when a demo starts: the window imports this module
# at every start, and almost never runs the demo.
if TYPE_CHECKING:
    import http.server

    from core.emulator import LineEmulator

DEMO_TOKEN = "shiftcast-demo-token"
DEMO_CLASSROOM = "さくら教室（デモ）"
DEMO_GROUP = "C" + "5a" * 16
TEACHERS = ["佐藤 花子", "鈴木 一郎", "高橋 美咲", "田中 健太", "伊藤 さくら", "渡辺 翔", "山本 結衣", "中村 大輝"]
PATTERNS = [("16:00", "21:00"), ("13:00", "18:00"), ("10:00", "15:00"), ("17:00", "22:00")]


def demo_home(base: Path) -> Path:
    """The demo's own data folder inside the data folder `base` the app was started with."""
    return base / "demo"


def user_id_for(n: int) -> str:
    return f"U{n:032x}"


def _image_server(directory: Path) -> http.server.ThreadingHTTPServer:
    import http.server

    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
            pass

    return http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(directory)))


class DemoEnvironment:
    """The emulator plus a loopback web server for images, wired into the demo database's settings."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.hosted = home / "hosted"
        from core.emulator import LineEmulator

        self.emulator: LineEmulator = LineEmulator(token=DEMO_TOKEN, allow_loopback_media=True)
        self._httpd: http.server.ThreadingHTTPServer | None = None

    def start(self, db: Database) -> DemoEnvironment:
        self.emulator.start()
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
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        self.emulator.stop()
        if os.environ.get(LINE_TOKEN_ENV) == DEMO_TOKEN:
            del os.environ[LINE_TOKEN_ENV]

    def _register_recipients(self, db: Database) -> None:
        """The emulator forgets everything between runs; teach it the demo's friends and group again."""
        with db.read() as session:
            teachers = session.scalars(select(Teacher).where(Teacher.line_user_id.is_not(None))).all()
            rooms = session.scalars(select(Classroom).where(Classroom.line_group_id.is_not(None))).all()
        for teacher in teachers:
            self.emulator.add_user(str(teacher.line_user_id), teacher.display_name)
        for room in rooms:
            self.emulator.add_group(str(room.line_group_id), room.name, [str(t.line_user_id) for t in teachers])


def seed(db: Database, *, now: dt.datetime) -> bool:
    """Create the sample classroom, teachers and two months of shifts, once. True if it seeded."""
    with db.write() as session:
        if session.scalar(select(Classroom.id).limit(1)) is not None:
            return False
        room = rules.create_classroom(session, name=DEMO_CLASSROOM, line_group_id=DEMO_GROUP)
        teachers = [rules.create_teacher(session, name=name, line_user_id=user_id_for(i + 1), line_opt_in=True,
                                          email=f"teacher{i + 1}@example.com")
                    for i, name in enumerate(TEACHERS)]
        today = now.astimezone(clock.zone(room.timezone)).date()
        first = today.replace(day=1)
        for offset in range(0, 62):
            day = first + dt.timedelta(days=offset)
            if day.weekday() == 6:
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
        _add_shifts_starting_soon(session, room, teachers, now)
    return True


def _add_shifts_starting_soon(session, room: Classroom, teachers: list[Teacher], now: dt.datetime) -> None:  # type: ignore[no-untyped-def]
    """Two confirmed shifts starting in about 90 minutes, so their reminders are due at once and the
    newcomer sees a reminder arrive in the inbox, not only the roster image."""
    local = (now + dt.timedelta(minutes=90)).astimezone(clock.zone(room.timezone))
    start = local.replace(minute=0 if local.minute < 30 else 30, second=0, microsecond=0)
    busy = {s.teacher_id for s in rules.month_shifts(session, room.id, start.year, start.month)
            if s.local_date == start.date()}
    free = [t for t in teachers if t.id not in busy][:2]
    end = start + dt.timedelta(hours=1)
    for teacher in free:
        rules.add_shift(session, rules.ShiftDraft(
            classroom_id=room.id, teacher_id=teacher.id, local_date=start.date(), start_time=start.time(),
            end_time=end.time(), ends_next_day=end.date() != start.date(), note="デモ: まもなく始まるシフト",
            status=ShiftStatus.CONFIRMED,
        ), now=now)
