"""Shared set-up for tests that send to the local LINE emulator over real HTTP."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import pytest

from core.channels.line import LineClient
from core.emulator import LineEmulator
from core.outbox import queue
from core.receiving import pairing
from core.receiving.server import WebhookReceiver
from core.store import secrets
from core.store.db import Database
from core.store.models import DeliveryKind, ShiftStatus
from tests import factories as f

TOKEN = "test-channel-token-0123456789abcdef"
SECRET = "0f1e2d3c4b5a69780f1e2d3c4b5a6978"  # the channel secret webhooks are signed with


@dataclass
class FakeClock:
    now: dt.datetime

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += dt.timedelta(**kwargs)


@pytest.fixture
def emulator() -> Iterator[LineEmulator]:
    with LineEmulator(token=TOKEN) as emu:
        yield emu


@pytest.fixture
def line_ready(emulator: LineEmulator, monkeypatch: pytest.MonkeyPatch) -> LineEmulator:
    """The emulator plus a token in the (in-memory) keyring and the API address pointing at it."""
    monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emulator.base_url)
    secrets.set_line_token(TOKEN)
    return emulator


@pytest.fixture
def line(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LineEmulator]:
    """The emulator on the test's clock, signing the webhooks it sends with SECRET; the app's token set."""
    with LineEmulator(token=TOKEN, channel_secret=SECRET, loopback_webhooks=True, clock=clock) as emu:
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        yield emu


@pytest.fixture
def receiver(db: Database, line: LineEmulator, clock: FakeClock) -> Iterator[WebhookReceiver]:
    """The webhook receiver with the standard handlers, where the emulator sends its webhooks."""
    with LineClient(TOKEN, base_url=line.base_url) as client, \
            WebhookReceiver(db, SECRET, handlers=pairing.standard_handlers(lambda: client), clock=clock) as rx:
        line.set_webhook_endpoint(rx.url)
        yield rx


def user_id(n: int) -> str:
    return f"U{n:032x}"


def make_reminders(db: Database, count: int, *, now: dt.datetime, start_in: dt.timedelta = dt.timedelta(days=2),
                   emulator: LineEmulator | None = None) -> list[int]:
    """`count` teachers, each with one confirmed shift and a reminder due now. Returns delivery ids."""
    ids = []
    with db.write() as s:
        room = f.classroom(s, "本校")
        for n in range(1, count + 1):
            teacher = f.teacher(s, f"講師{n:05d}", n)
            local = (now + start_in).astimezone(ZoneInfo("Asia/Tokyo"))
            day = local.date() + dt.timedelta(days=n // 50)  # spread so one teacher has one shift a day
            shift = f.shift(s, room, teacher, day, "16:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)
            if emulator is not None:
                line_user_id = f.reach(teacher).line_user_id
                assert line_user_id is not None and teacher.name is not None
                emulator.add_user(line_user_id, teacher.name)
            delivery_id, _ = queue.enqueue(
                s, kind=DeliveryKind.SHIFT_REMINDER,
                dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version),
                due_at=now, now=now, recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id,
                classroom_id=room.id, subject_type="shift", subject_id=shift.id, subject_version=shift.version,
            )
            ids.append(delivery_id)
    return ids
