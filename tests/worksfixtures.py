"""Shared set-up for tests that talk to the LINE WORKS stand-in (core/emulator/line_works) over real HTTP.

`works` is the stand-in on loopback with this module's app, bot and key pair; `works_ready` also saves
the credentials (in-memory keyring, settings) with both addresses pointing at it; `works_pointed` points
the addresses at it and saves nothing. `without_works` takes LINE WORKS out of Shiftcast for one test. Until every kind
composes a channel-neutral message, `ReminderWorksDriver` is LINE WORKS' driver with a shift reminder
builder that composes the reminder's Message and renders it with the driver, as the neutral compose will.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy.orm import Session

from core.channels import line_works_client, line_works_credentials, registry
from core.channels.line_works_credentials import WorksCredentials
from core.emulator.line_works import WorksApp, WorksStandIn
from core.roster import rules
from core.store import setting_keys as keys
from core.store.db import Database

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
def works_pointed(db: Database, works: WorksStandIn) -> WorksStandIn:
    """The stand-in with the settings pointing at it, nothing saved yet."""
    point_at(db, works)
    return works


@pytest.fixture
def without_works(monkeypatch: pytest.MonkeyPatch) -> None:
    """LINE WORKS not part of Shiftcast: its driver is registered by default, so it is taken out."""
    monkeypatch.delitem(registry.DRIVERS, line_works_client.KEY)


def private_key_file(folder: Path, name: str = "private_20261201.key") -> Path:
    """The key file as the Developer Console gives it: the PEM with a line before it."""
    path = folder / name
    path.write_text("issued by the Developer Console\n" + key_pair()[0], encoding="ascii")
    return path


@pytest.fixture
def works_ready(db: Database, works: WorksStandIn) -> WorksStandIn:
    """The stand-in, the credentials saved, and the settings pointing at it."""
    line_works_credentials.save(db, credentials())
    point_at(db, works)
    return works


def teacher_on_works(session: Session, name: str, n: int) -> int:
    teacher = rules.create_teacher(session, name=name, channel=line_works_client.KEY,
                                   contacts_in={line_works_client.KEY: rules.ContactChange(member(n), False)})
    return teacher.id
