"""Shared set-up for tests that talk to the LINE WORKS stand-in (core/emulator/line_works) over real HTTP.

`works` is the stand-in on loopback with this module's app, bot and key pair; `works_ready` also saves
the credentials (in-memory keyring, settings) with both addresses pointing at it. Until every kind
composes a channel-neutral message, `ReminderWorksDriver` is LINE WORKS' driver with a shift reminder
builder that composes the reminder's Message and renders it with the driver, as the neutral compose will.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterator
from types import MappingProxyType

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy.orm import Session

from core.channels import line_works, line_works_client, line_works_credentials, registry
from core.channels.base import Builder, Outgoing
from core.channels.line_works_credentials import WorksCredentials
from core.emulator.line_works import WorksApp, WorksStandIn
from core.messages import ack, texts
from core.messages.message import Action, Message
from core.roster import rules
from core.sending import line_builders, send_checks
from core.sending.outgoing import CancelDelivery
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind
from core.store.paths import DataPaths

CLIENT_ID = "ZbsOq6zjt0IhtZZnrc"
CLIENT_SECRET = "client-secret-0123456789"
SERVICE_ACCOUNT = "1wagx.serviceaccount@example.com"
BOT_ID = "2000001"
BOT_SECRET = "bot-secret-abcdef0123456789"


@functools.cache
def key_pair() -> tuple[str, str]:
    """A private key (PEM) and its public key (PEM), made once per test process."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


def credentials(**changes: str) -> WorksCredentials:
    values = dict(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, service_account=SERVICE_ACCOUNT,
                  private_key=key_pair()[0], bot_id=BOT_ID, bot_secret=BOT_SECRET)
    values.update(changes)
    return WorksCredentials(**values)


def app() -> WorksApp:
    return WorksApp(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, service_account=SERVICE_ACCOUNT,
                    public_key=key_pair()[1], bot_id=BOT_ID, bot_secret=BOT_SECRET)


def member(n: int) -> str:
    """A member's login ID."""
    return f"teacher{n:03d}@example.com"


@pytest.fixture
def works() -> Iterator[WorksStandIn]:
    with WorksStandIn(app()) as standin:
        yield standin


def point_at(db: Database, standin: WorksStandIn) -> None:
    with db.write() as s:
        keys.LINE_WORKS_AUTH_BASE.write(s, standin.base_url)
        keys.LINE_WORKS_API_BASE.write(s, standin.base_url)


@pytest.fixture
def works_ready(db: Database, works: WorksStandIn) -> WorksStandIn:
    """The stand-in, the credentials saved, and the settings pointing at it."""
    line_works_credentials.save(db, credentials())
    point_at(db, works)
    return works


# ----- the shift reminder on LINE WORKS, until the kinds compose channel-neutral messages -----


def build_reminder(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = send_checks.checked_shift(session, delivery, now, reminder=True)
    teacher = send_checks.checked_teacher(session, delivery, shift.teacher, now)
    room = shift.classroom
    text = texts.reminder_text(line_builders.facts_of(shift, room, shift.note), room.language,
                               line_builders.templates(room.language, paths))
    data = line_builders.ack_data(session, delivery)
    actions = () if data is None else (Action(ack.label(room.language), data),)
    message = Message.of_text(DeliveryKind.SHIFT_REMINDER.value, room.language, text, actions=actions,
                              to_name=teacher.display_name)
    try:
        return line_works.DRIVER.render(session, delivery, message, paths)
    except line_works.RenderRefused as refused:
        raise CancelDelivery(refused.reason) from None


class ReminderWorksDriver(line_works.WorksDriver):
    builders = MappingProxyType[str, Builder]({DeliveryKind.SHIFT_REMINDER.value: build_reminder})


@pytest.fixture
def reminders_on_works() -> Iterator[None]:
    undo = registry.register_channel(ReminderWorksDriver())
    try:
        yield
    finally:
        undo()


def teacher_on_works(session: Session, name: str, n: int) -> int:
    teacher = rules.create_teacher(session, name=name, channel=line_works_client.KEY,
                                   contacts_in={line_works_client.KEY: rules.ContactChange(member(n), False)})
    return teacher.id
