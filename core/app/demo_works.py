"""The demo's LINE WORKS: the LINE WORKS stand-in (core/emulator/line_works) on this computer beside the
LINE simulator, with one teacher reached on LINE WORKS and the classroom's LINE WORKS message room, so
a newcomer sees the second channel send and take a 了解 tap with no LINE WORKS account.

At every start the stand-in gets a fresh app: a new RSA key pair (its private key saved with the other
credentials in the demo's keyring, which is in memory, its public key given to the stand-in) and new
secrets; the client's addresses point at it, and it signs its callbacks for the demo's receiver.
What it took lives in memory only, as long as the demo runs.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Container
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.app.demo_shifts import add_shifts_starting_soon
from core.channels import line_works_credentials as credentials
from core.channels import line_works_rooms
from core.channels.line_works_client import KEY
from core.receiving import line_works_callback
from core.roster import rules
from core.setup import line_works
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom, ClassroomRoom, Teacher, TeacherContact

if TYPE_CHECKING:  # the stand-in is imported when a demo starts
    from core.emulator.line_works import WorksStandIn

CLIENT_ID = "ShiftcastDemoApp"
SERVICE_ACCOUNT = "demo.serviceaccount@sakura-demo.example"
BOT_ID = "2000001"
# The demo teacher reached on LINE WORKS (their login ID there) and the classroom's message room.
WORKS_TEACHER = "中村 大輝"
WORKS_USER = "nakamura.daiki@sakura-demo.example"
WORKS_ROOM = "demo-room-sakura"


def seed(session: Session, room: Classroom, teacher: Teacher, now: dt.datetime, *,
         closed: Container[dt.date] = ()) -> None:
    """One teacher reached on LINE WORKS (their contact rule says so), with a shift starting soon so a
    reminder with 了解 reaches them at once, and the classroom's LINE WORKS room for its month."""
    rules.update_teacher(session, teacher.id, contacts_in={KEY: rules.ContactChange(WORKS_USER, True)},
                         channel=KEY, now=now)
    line_works_rooms.set_room(session, room.id, WORKS_ROOM)
    add_shifts_starting_soon(session, room, [teacher], now, count=1, closed=closed)


def _key_pair() -> tuple[str, str]:
    """A new private key (PEM) and its public key (PEM)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode("ascii")
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")
    return private, public


def callback_url(receiver_url: str) -> str:
    """The receiver's LINE WORKS callback address beside its LINE webhook address."""
    parts = urlsplit(receiver_url)
    return urlunsplit((parts.scheme, parts.netloc, line_works_callback.PATH, "", ""))


def start(db: Database, receiver_url: str) -> WorksStandIn:
    """Start the stand-in with a fresh app, teach it the demo's members and rooms, save the credentials
    (into the keyring in place now: the demo's) and point the client at it. The caller stops it."""
    from core.emulator.line_works import WorksApp, WorksStandIn

    private, public = _key_pair()
    app = WorksApp(client_id=CLIENT_ID, client_secret=secrets.token_urlsafe(24), service_account=SERVICE_ACCOUNT,
                   public_key=public, bot_id=BOT_ID, bot_secret=secrets.token_urlsafe(24))
    standin = WorksStandIn(app).start()
    try:
        with db.read() as session:
            members = list(session.scalars(select(TeacherContact.address).where(
                TeacherContact.channel == KEY, TeacherContact.address.is_not(None))))
            channels = list(session.scalars(select(ClassroomRoom.room_id).where(ClassroomRoom.channel == KEY)))
        for member in members:
            standin.add_user(str(member))
        for channel in channels:
            standin.add_channel(channel)
        credentials.save(db, credentials.WorksCredentials(app.client_id, app.client_secret, app.service_account,
                                                          private, app.bot_id, app.bot_secret))
        with db.write() as session:
            keys.LINE_WORKS_AUTH_BASE.write(session, standin.base_url)
            keys.LINE_WORKS_API_BASE.write(session, standin.base_url)
            keys.LINE_WORKS_HOLD.clear(session)  # an earlier run's app is gone with its refusal
        standin.callback_url = callback_url(receiver_url)
        # As Test would: the readiness check then says LINE WORKS works, not "not tested yet".
        line_works.test(db, line_works.client_checker(db), now=dt.datetime.now(dt.UTC))
    except BaseException:
        standin.stop()
        raise
    return standin


@dataclass(frozen=True)
class WorksNames:
    """Who the stand-in's recipients are in the demo: teachers by their LINE WORKS ID, classrooms by their room."""

    teachers: dict[str, str]
    rooms: dict[str, str]


def names(db: Database) -> WorksNames:
    with db.read() as session:
        teachers = {str(address): name or str(address) for address, name in session.execute(
            select(TeacherContact.address, Teacher.name).join(Teacher, Teacher.id == TeacherContact.teacher_id)
            .where(TeacherContact.channel == KEY, TeacherContact.address.is_not(None)))}
        rooms = {room_id: name for room_id, name in session.execute(
            select(ClassroomRoom.room_id, Classroom.name).join(Classroom, Classroom.id == ClassroomRoom.classroom_id)
            .where(ClassroomRoom.channel == KEY))}
    return WorksNames(teachers, rooms)


def button_data(content: dict[str, Any]) -> tuple[str, str] | None:
    """A button template's first postback button: its label and its data (what a tap hands the bot)."""
    if content.get("type") != "button_template":
        return None
    for action in content.get("actions") or []:
        if isinstance(action, dict) and action.get("postback"):
            return str(action.get("label") or ""), str(action["postback"])
    return None
