"""The 了解 button over real HTTP: the sender pushes reminders and corrections to the emulator (whose
validation follows LINE's reference), the simulated teacher taps the button of the message they
received, and the receiver records the acknowledgement once."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from core.channels.line import LineApiError, LineClient
from core.emulator import LineEmulator
from core.emulator.simulate import postback_actions
from core.messages import ack
from core.outbox import queue, rows
from core.outbox.policy import BackoffPolicy
from core.planning.planner import plan
from core.receiving import acknowledge
from core.receiving.server import WebhookReceiver
from core.roster import rules
from core.sending.sender import Sender, SenderConfig
from core.store import ack_key, secrets
from core.store import setting_keys as keys
from core.store.bootstrap import open_database
from core.store.db import Database, backup_sqlite
from core.store.models import Delivery, DeliveryKind, DeliveryStatus
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, make_reminders, user_id

# Fixtures, named again for the tests that take them from here (tests/test_availability_line.py).
from tests.linefixtures import line as line
from tests.linefixtures import receiver as receiver

FAST = SenderConfig(concurrency=2, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now.replace(microsecond=now.microsecond // 1000 * 1000))


@pytest.fixture
def send(db: Database, clock: FakeClock) -> Iterator[Any]:
    made: list[Sender] = []

    def run() -> None:
        sender = Sender(db, paths=f.home_paths(), config=FAST, clock=clock)
        made.append(sender)
        sender.run_until_idle()

    yield run
    for sender in made:
        sender.stop()


def _switch(db: Database, on: bool) -> None:
    with db.write() as s:
        acknowledge.enable(s, on)


def _status(db: Database, delivery_id: int) -> DeliveryStatus:
    with db.read() as s:
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        return delivery.status


def _acknowledged(db: Database, *ids: int) -> dict[int, dt.datetime]:
    with db.read() as s:
        return acknowledge.acknowledged(s, ids)


def test_reminders_carry_the_button_only_when_the_setting_is_on(db: Database, line: LineEmulator, send: Any,
                                                                clock: FakeClock) -> None:
    with db.read() as s:
        assert keys.LINE_ACK_BUTTON.read(s) is False  # off by default
    [plain] = make_reminders(db, 1, now=clock.now, emulator=line)
    send()
    assert _status(db, plain) == DeliveryStatus.SENT
    [received] = line.inbox(user_id(1))
    assert postback_actions(received.message) == [] and "footer" not in received.message["contents"]

    _switch(db, True)
    with db.write() as s:  # a second reminder for the same teacher, due now
        teacher_id = s.scalar(select(Delivery.teacher_id).where(Delivery.id == plain))
        shift_id = s.scalar(select(Delivery.subject_id).where(Delivery.id == plain))
        assert teacher_id is not None and shift_id is not None
        with_button, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER, dedup="test:second-reminder", due_at=clock.now, now=clock.now,
            recipient=user_id(1), teacher_id=teacher_id, classroom_id=None, subject_type="shift", subject_id=shift_id,
            subject_version=1)
    send()
    assert _status(db, with_button) == DeliveryStatus.SENT  # the emulator's validation took the button
    [_, received] = line.inbox(user_id(1))
    [action] = postback_actions(received.message)
    assert (action["label"], action["displayText"]) == ("了解", "了解")
    with db.read() as s:
        key = ack_key.held_key(s)
    assert key and ack.read_postback(key, action["data"]) == with_button


def test_a_tap_acknowledges_its_delivery_once(db: Database, line: LineEmulator, receiver: WebhookReceiver,
                                              send: Any, clock: FakeClock) -> None:
    _switch(db, True)
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line)
    send()
    clock.advance(minutes=3)
    tapped_at = clock.now
    tap = line.tap(user_id(1))
    assert tap.result is not None and tap.result.status_code == 200
    assert receiver.dispatcher.wait_handled(1, timeout=30)
    assert _acknowledged(db, delivery_id) == {delivery_id: tapped_at}

    clock.advance(minutes=10)
    line.tap(user_id(1))  # tapped again
    line.redeliver(tap.event["webhookEventId"])  # and LINE's redelivery of the first tap
    assert receiver.dispatcher.wait_handled(2, timeout=30)
    assert _acknowledged(db, delivery_id) == {delivery_id: tapped_at}
    with db.read() as s:
        [row] = [r for r in rows.all_rows(s) if r.id == delivery_id]
    assert row.acknowledged_at == tapped_at  # what the Deliveries view shows


def test_forged_postbacks_change_nothing(db: Database, line: LineEmulator, receiver: WebhookReceiver, send: Any,
                                         clock: FakeClock) -> None:
    _switch(db, True)
    first, second = make_reminders(db, 2, now=clock.now, emulator=line)
    send()
    with db.read() as s:
        key = ack_key.held_key(s)
    assert key is not None
    mac_of_first = ack.postback_data(key, first).rsplit(":", 1)[1]
    line.postback(user_id(1), f"ack:{second}:{mac_of_first}")  # another delivery's number, first's MAC
    line.postback(user_id(1), f"ack:{first}:{'A' * 43}")  # a made-up MAC
    line.postback(user_id(1), ack.postback_data("some other key", first))  # signed with another key
    line.postback(user_id(2), ack.postback_data(key, first))  # a real button, tapped by someone it was not sent to
    line.postback(user_id(1), "ack:x:y")
    assert receiver.dispatcher.wait_handled(5, timeout=30)
    assert _acknowledged(db, first, second) == {}


def test_an_english_classroom_gets_an_ok_button_and_corrections_carry_it_too(
        db: Database, line: LineEmulator, send: Any, clock: FakeClock) -> None:
    _switch(db, True)
    [reminder] = make_reminders(db, 1, now=clock.now, emulator=line)
    with db.write() as s:
        delivery = s.get(Delivery, reminder)
        assert delivery is not None and delivery.classroom_id is not None and delivery.subject_id is not None
        rules.update_classroom(s, delivery.classroom_id, language="en")
        shift_id = delivery.subject_id
    send()
    assert len(line.inbox(user_id(1))) == 1  # the reminder: the teacher was told this version
    with db.write() as s:
        rules.edit_shift(s, shift_id, rules.ShiftChange(start_time=dt.time(17), end_time=dt.time(22)), now=clock.now)
    clock.advance(minutes=1)
    with db.write() as s:
        plan(s, now=clock.now)
    send()
    with db.read() as s:
        [correction] = s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.SHIFT_CORRECTION)).all()
        assert correction.status == DeliveryStatus.SENT
    labels = [[(a["label"], a["displayText"]) for a in postback_actions(m.message)] for m in line.inbox(user_id(1))]
    assert len(labels) >= 2 and all(found == [("OK", "OK")] for found in labels)
    assert correction.id in _ids_in_buttons(db, line)


def _ids_in_buttons(db: Database, line: LineEmulator) -> set[int | None]:
    with db.read() as s:
        key = ack_key.held_key(s)
    assert key is not None
    return {ack.read_postback(key, a["data"]) for m in line.inbox(user_id(1)) for a in postback_actions(m.message)}


@pytest.mark.parametrize(("action", "problem"), [
    ({"type": "postback", "label": "了解"}, "action.data"),
    ({"type": "postback", "label": "了解", "data": "x" * 301}, "action.data"),
    ({"type": "postback", "label": "了解", "data": "d", "displayText": ""}, "action.displayText"),
])
def test_the_emulator_refuses_postback_buttons_lines_reference_refuses(line: LineEmulator, action: dict[str, Any],
                                                                       problem: str) -> None:
    bubble = {"type": "bubble", "body": {"type": "box", "layout": "vertical", "contents": [{"type": "text", "text": "t"}]},
              "footer": {"type": "box", "layout": "vertical", "contents": [{"type": "button", "action": action}]}}
    with LineClient(TOKEN, base_url=line.base_url) as client, pytest.raises(LineApiError) as refused:
        client.validate_push([{"type": "flex", "altText": "t", "contents": bubble}])
    assert refused.value.status == 400
    assert any(d.startswith(f"messages[0].contents.footer.contents[0].{problem}:") for d in refused.value.details)


# ----- the key is kept with the other secrets, not in the database -----

OLD_KEY = "old-ack-key-" + "5f3a9c" * 6  # what an earlier version made and kept in the settings table


def _as_an_earlier_version_left_it(db: Database) -> None:
    with db.write() as s:
        keys.LINE_ACK_BUTTON.write(s, True)
        keys.LINE_ACK_SECRET.write(s, OLD_KEY)


def _file_bytes(paths: DataPaths) -> bytes:
    """The database file and its WAL, as a copy of the data folder would take them."""
    main = Path(paths.home / "shiftcast.db")
    return b"".join(p.read_bytes() for p in (main, main.with_name(main.name + "-wal")) if p.exists())


def test_a_key_kept_in_the_database_moves_to_the_keyring_at_the_next_start_and_old_buttons_still_count(
        db: Database, paths: DataPaths, line: LineEmulator, receiver: WebhookReceiver, memory_keyring: Any,
        clock: FakeClock) -> None:
    _as_an_earlier_version_left_it(db)
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line)
    old_button = ack.postback_data(OLD_KEY, delivery_id)  # the button the teacher already has
    assert OLD_KEY.encode() in _file_bytes(paths)

    open_database(paths).dispose()  # the next start

    assert OLD_KEY.encode() not in _file_bytes(paths)  # not even in a freed page or the WAL
    with db.read() as s:
        assert not keys.LINE_ACK_SECRET.is_set(s)
        assert memory_keyring.store[(secrets.SERVICE, ack_key.keyring_name(s))] == OLD_KEY
    line.postback(user_id(1), old_button)
    assert receiver.dispatcher.wait_handled(1, timeout=30)
    assert delivery_id in _acknowledged(db, delivery_id)


def test_a_copy_of_the_database_cannot_make_a_button_that_counts(
        db: Database, paths: DataPaths, line: LineEmulator, receiver: WebhookReceiver, send: Any,
        clock: FakeClock, tmp_path: Path) -> None:
    _switch(db, True)
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line)
    send()
    [action] = postback_actions(line.inbox(user_id(1))[0].message)
    copy = tmp_path / "stolen.db"
    backup_sqlite(str(paths.home / "shiftcast.db"), str(copy))
    mac = action["data"].rsplit(":", 1)[1]
    with db.read() as s:
        key = ack_key.held_key(s)
    assert key is not None and key.encode() not in copy.read_bytes()
    # Whatever the copy holds, tried as the key, signs a button that does not count.
    with sqlite3.connect(copy) as stolen:
        candidates = [value for (value,) in stolen.execute("SELECT value FROM settings")]
    assert candidates
    for candidate in candidates:
        assert ack.postback_data(candidate, delivery_id).rsplit(":", 1)[1] != mac
        line.postback(user_id(1), ack.postback_data(candidate, delivery_id))
    assert receiver.dispatcher.wait_handled(len(candidates), timeout=30)
    assert _acknowledged(db, delivery_id) == {}


def test_without_a_keyring_the_key_stays_unused_and_the_buttons_are_off_until_one_can_keep_it(
        db: Database, paths: DataPaths, line: LineEmulator, receiver: WebhookReceiver, send: Any, clock: FakeClock,
        memory_keyring: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import keyring
    from keyring.backends import fail

    _as_an_earlier_version_left_it(db)
    monkeypatch.setenv("SHIFTCAST_LINE_TOKEN", TOKEN)
    keyring.set_keyring(fail.Keyring())
    with caplog.at_level("WARNING"):
        open_database(paths).dispose()  # a start that cannot write the keyring
    assert "[ack.key_stays_in_database]" in caplog.text and "SHIFTCAST_LINE_ACK_KEY" in caplog.text
    with db.read() as s:
        assert keys.LINE_ACK_SECRET.read(s) == OLD_KEY  # kept, to be moved later
        assert ack.signer(s) is None  # but never used: no button is signed with it
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line)
    send()
    assert _status(db, delivery_id) == DeliveryStatus.SENT  # sending goes on, without the button
    assert postback_actions(line.inbox(user_id(1))[0].message) == []
    line.postback(user_id(1), ack.postback_data(OLD_KEY, delivery_id))  # a copy's forgery is not honoured either
    assert receiver.dispatcher.wait_handled(1, timeout=30)
    assert _acknowledged(db, delivery_id) == {}
    _switch(db, False)
    with pytest.raises(secrets.SecretStoreError, match="SHIFTCAST_LINE_ACK_KEY"), db.write() as s:
        acknowledge.enable(s, True)  # switching them on says why it cannot
    with db.read() as s:
        assert not keys.LINE_ACK_BUTTON.read(s)  # and changes nothing

    keyring.set_keyring(memory_keyring)
    open_database(paths).dispose()  # the first start that can keep it
    line.postback(user_id(1), ack.postback_data(OLD_KEY, delivery_id))
    assert receiver.dispatcher.wait_handled(2, timeout=30)
    assert delivery_id in _acknowledged(db, delivery_id)
    assert OLD_KEY.encode() not in _file_bytes(paths)


@pytest.mark.backends("sqlite", "postgresql")
def test_the_move_leaves_no_key_in_either_database_and_the_keyring_signs_as_the_old_key_did(
        db: Database, paths: DataPaths, db_url: str, memory_keyring: Any) -> None:
    _as_an_earlier_version_left_it(db)
    open_database(paths, url=db_url).dispose()  # the next start
    with db.read() as s:
        assert not keys.LINE_ACK_SECRET.is_set(s)
        assert OLD_KEY not in [value for (value,) in s.execute(text("SELECT value FROM settings"))]
        assert ack_key.held_key(s) == OLD_KEY
    open_database(paths, url=db_url).dispose()  # a later start finds nothing to move
    with db.read() as s:
        assert ack_key.held_key(s) == OLD_KEY
