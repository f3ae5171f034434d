"""Will the teachers get their messages: the requirements read from a real database and the
in-memory keyring, and the pure rule that grades them."""

from __future__ import annotations

import dataclasses
import datetime as dt

import keyring
import pytest
from keyring.backends import fail

from core.emulator import LineEmulator
from core.publication import hosting
from core.sending import presence
from core.setup import readiness
from core.setup.readiness import Fix, Requirement, State
from core.setup.receiving import ReceivingState
from core.setup.relay_credentials import Held
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import ContactRule, ShiftStatus
from core.texts import render
from tests import factories as f
from tests.linefixtures import TOKEN, emulator, line_ready  # noqa: F401 - fixtures

NOW = dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.UTC)


def _by_key(requirements: list[Requirement]) -> dict[str, Requirement]:
    return {r.key: r for r in requirements}


def _check(db: Database, *, autostart: bool | None = True) -> dict[str, Requirement]:
    return _by_key(readiness.check(db, now=NOW, autostart=autostart))


def test_a_new_data_folder_is_blocked_on_line_a_classroom_and_teachers(db: Database) -> None:
    found = readiness.check(db, now=NOW, autostart=False)
    assert [r.key for r in found] == ["line", "receiving", "classroom_groups", "teachers", "month_image", "autostart",
                                      "sender"]
    by_key = _by_key(found)
    assert (by_key["receiving"].state, by_key["receiving"].fix) == (State.WARNING, Fix.CONNECT_LINE)
    assert render(by_key["receiving"].says, "en") == "LINE cannot reach Shiftcast until LINE is connected"
    assert (by_key["line"].state, by_key["line"].fix) == (State.BLOCKING, Fix.CONNECT_LINE)
    assert render(by_key["line"].says, "en") == "LINE is not connected: no message can be sent"
    assert (by_key["classroom_groups"].state, by_key["classroom_groups"].fix) == (State.BLOCKING, Fix.ADD_CLASSROOM)
    assert by_key["teachers"].state is State.BLOCKING
    assert (by_key["month_image"].state, by_key["month_image"].fix) == (State.WARNING, Fix.HOSTING)
    assert render(by_key["month_image"].says, "en") == "no image hosting: the month goes to the group as a list, not as the image"
    assert (by_key["autostart"].state, by_key["autostart"].fix) == (State.WARNING, Fix.AUTOSTART)
    assert by_key["sender"].state is State.WARNING
    assert readiness.blocking(found) and not readiness.ready(found)


def test_a_keyring_that_cannot_be_used_is_said_and_blocks(db: Database) -> None:
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        line = _check(db)["line"]
    finally:
        keyring.set_keyring(before)
    assert (line.state, line.fix) == (State.BLOCKING, Fix.KEYRING)
    assert "keyring cannot be used" in render(line.says, "en")
    assert "キーリングを使えない" in render(line.says, "ja")


def test_a_connected_folder_names_each_teacher_nothing_reaches_and_why(db: Database, line_ready: LineEmulator) -> None:
    with db.write() as s:
        room = f.classroom(s, "本校", line_group_id="C" + "1" * 32)
        f.teacher(s, "佐藤", 1)  # paired and agreed
        f.teacher(s, "鈴木", 2, line_opt_in=False)
        blocked = f.teacher(s, "田中", 3)
        f.line(blocked).unreachable_since = NOW
        f.teacher(s, "高橋", 4, line_user_id=None, line_opt_in=False)
        f.teacher(s, "伊藤", 5, line_user_id=None, line_opt_in=False, email="ito@example.com", email_opt_in=True,
                  channel="email")
        f.shift(s, room, blocked, dt.date(2026, 12, 10), now=NOW, status=ShiftStatus.CONFIRMED)
    found = _check(db)
    assert found["line"].state is State.OK
    assert found["classroom_groups"].state is State.OK
    teachers = found["teachers"]
    assert (teachers.state, teachers.fix) == (State.WARNING, Fix.TEACHERS)
    assert render(teachers.says, "en") == "1 of 5 teachers can be reached"
    assert render(teachers.says, "ja") == "5人中1人の講師に届きます。"
    assert [render(d, "en") for d in teachers.details] == [
        "伊藤: E-mail is not set up",
        "田中: LINE can no longer reach them (blocked, unfollowed or refused)",
        "鈴木: has not agreed to LINE",
        "高橋: no LINE address (not paired)",
    ]
    assert not readiness.blocking(list(found.values()))


def test_no_teacher_reachable_blocks_and_email_alone_is_fixed_in_settings(db: Database, line_ready: LineEmulator) -> None:
    with db.write() as s:
        f.classroom(s, "本校", line_group_id="C" + "1" * 32)
        f.teacher(s, "伊藤", 5, line_user_id=None, line_opt_in=False, email="ito@example.com", email_opt_in=True,
                  channel="email")
    teachers = _check(db)["teachers"]
    assert (teachers.state, teachers.fix) == (State.BLOCKING, Fix.EMAIL)


def test_a_classroom_without_its_group_is_a_warning_whatever_its_shifts(db: Database,
                                                                         line_ready: LineEmulator) -> None:
    """Reminders reach each teacher without the group, and a published month waits for it: never
    blocking, so the state cannot depend on the day or on who asks (the window, `doctor`)."""
    with db.write() as s:
        f.classroom(s, "本校", line_group_id="C" + "1" * 32)
        annex = f.classroom(s, "分校")
        teacher = f.teacher(s, "佐藤", 1)
        f.shift(s, annex, teacher, dt.date(2026, 11, 20), now=NOW, status=ShiftStatus.CONFIRMED)  # past
    groups = _check(db)["classroom_groups"]
    assert (groups.state, groups.fix) == (State.WARNING, Fix.CLASSROOM_GROUP)
    assert [render(d, "en") for d in groups.details] == ["分校: no LINE group chosen"]
    assert render(groups.says, "en") == "1 of 2 classrooms has no LINE group"
    with db.write() as s:
        f.shift(s, annex, teacher, dt.date(2026, 12, 1), now=NOW, status=ShiftStatus.CONFIRMED)
    groups = _check(db)["classroom_groups"]
    assert groups.state is State.WARNING
    assert groups.fix_says is not None and "a published month waits for its group" in render(groups.fix_says, "en")


def test_a_sender_that_checked_in_is_seen_and_one_that_went_quiet_is_named(db: Database) -> None:
    with db.write() as s:
        presence.register(s, "sender-1", home="/data", app="window", now=NOW - dt.timedelta(seconds=10))
    assert _check(db)["sender"].state is State.OK
    with db.write() as s:
        presence.heartbeat(s, "sender-1", now=NOW - dt.timedelta(hours=2))
    sender = _check(db)["sender"]
    assert sender.state is State.WARNING
    assert "last checked in" in render(sender.says, "en")


def _all_well(**changes: object) -> readiness.Facts:
    """Facts under which every requirement is met, with `changes`."""
    facts = readiness.Facts(
        line_ready=True, keyring_problem=None, line_account="Shiftcast 本校", channels_ready=frozenset({"line"}),
        classrooms=(readiness.ClassroomFacts("本校", True),),
        teachers=(readiness.TeacherFacts("佐藤", ContactRule.EVERY,
                                         (readiness.Contact("line", "U" + "1" * 32, NOW, None, 0),)),),
        hosting_ready=True, autostart=True, last_heartbeat=NOW, sending_now=True,
        receiving=readiness.ReceivingFacts(True, ReceivingState("https://a.example.com/line/webhook")))
    return dataclasses.replace(facts, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(("autostart", "state"), [(True, State.OK), (False, State.WARNING), (None, State.WARNING)])
def test_start_at_login_is_graded_as_given(autostart: bool | None, state: State) -> None:
    facts = _all_well(autostart=autostart)
    found = _by_key(readiness.assess(facts))
    assert found["autostart"].state is state
    assert render(found["line"].says, "en") == "LINE is connected as Shiftcast 本校"
    rest = [r for r in found.values() if r.key != "autostart"]
    assert all(r.state is State.OK for r in rest)
    assert readiness.ready(list(found.values())) is (state is State.OK)
    assert not readiness.blocking(readiness.assess(dataclasses.replace(facts, autostart=False)))


@pytest.mark.parametrize(("held", "state"), [(Held.NOT_DEPLOYED, None), (Held.NOT_SAVED, None),
                                             (Held.CURRENT, State.OK), (Held.OLD, State.WARNING)])
def test_a_relay_holding_old_line_credentials_is_a_warning_fixed_in_always_on(held: Held, state: State | None) -> None:
    facts = _all_well(autostart=True, relay=held)
    found = _by_key(readiness.assess(facts))
    if state is None:  # no relay deployed from here: no row
        assert "relay" not in found
        return
    assert found["relay"].state is state
    assert not readiness.blocking(list(found.values()))  # the app still sends while it runs
    if state is State.WARNING:
        assert found["relay"].fix is readiness.Fix.RELAY
        assert "still holds the LINE credentials saved before" in render(found["relay"].says, "en")
        assert found["relay"].fix_says is not None and "Always on" in render(found["relay"].fix_says, "en")


def test_the_account_line_last_named_is_said_without_asking_line_again(db: Database,
                                                                        line_ready: LineEmulator) -> None:
    from core.setup import line

    assert render(_check(db)["line"].says, "en") == UNCHECKED
    bot = line.check_connection(db)  # the Settings screen's "Test connection"
    line_ready.stop()  # the check stays offline: LINE is not there to ask
    assert render(_check(db)["line"].says, "en") == f"LINE is connected as {bot.display_name} ({bot.basic_id})"
    assert bot.display_name and bot.basic_id.startswith("@")


UNCHECKED = "LINE is connected; which account has not been checked yet (Settings, LINE, Test connection)"


def test_a_new_token_forgets_the_previous_account_until_a_test_asks_line(db: Database,
                                                                          line_ready: LineEmulator) -> None:
    from core.setup import line

    line_ready.set_quota(500)
    bot = line.check_connection(db)
    named = f"LINE is connected as {bot.display_name} ({bot.basic_id})"
    assert render(_check(db)["line"].says, "en") == named
    assert not line.save_token(db, TOKEN)  # the same token again: the same account, nothing forgotten
    assert render(_check(db)["line"].says, "en") == named

    assert line.save_token(db, "another-accounts-token")  # pasted for another LINE account
    assert render(_check(db)["line"].says, "en") == UNCHECKED
    with db.read() as s:
        assert keys.LINE_ACCOUNT.read(s) is None
        assert keys.LINE_QUOTA.read(s).limit is None  # the old account's quota is not the new one's


def _hosting_set_up(db: Database) -> None:
    with db.write() as s:
        keys.HOSTING_ENDPOINT.write(s, "https://s3.example.com")
        keys.HOSTING_BUCKET.write(s, "rosters")
        keys.HOSTING_ACCESS_KEY_ID.write(s, "key")


def test_hosting_set_up_without_its_secret_is_said_with_its_fix(db: Database) -> None:
    _hosting_set_up(db)
    month = _check(db)["month_image"]
    assert (month.state, month.fix) == (State.WARNING, Fix.HOSTING)  # the month still goes, as a list
    assert render(month.says, "en") == (
        "image hosting is set up but does not work, so the month goes to the group as a list, not as the image: "
        "the image hosting secret access key is missing; enter it in Settings")
    assert render(month.says, "ja").startswith("画像ホスティングは設定されていますが使えないため")
    assert month.fix_says is not None and "Test upload" in render(month.fix_says, "en")
    secrets.set_secret(hosting.SECRET_NAME, "secret")
    assert _check(db)["month_image"].state is State.OK


def test_with_a_relay_attached_the_month_is_posted_through_it_unless_the_bucket_works(db: Database) -> None:
    with db.write() as s:
        keys.RELAY_URL.write(s, "https://relay.example.com")
    month = _check(db)["month_image"]
    assert (month.state, month.fix) == (State.OK, None)
    assert render(month.says, "en") == "the month image is posted through the relay"
    assert render(month.says, "ja") == "月のシフト表の画像は中継サーバー経由で投稿します。"
    _hosting_set_up(db)  # a bucket without its secret does not work: still the relay
    assert render(_check(db)["month_image"].says, "en") == "the month image is posted through the relay"
    secrets.set_secret(hosting.SECRET_NAME, "secret")  # the bucket works: it comes first
    assert render(_check(db)["month_image"].says, "en") == "the month image is posted through image hosting"


def test_hosting_whose_secret_the_keyring_cannot_read_is_said(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    _hosting_set_up(db)
    monkeypatch.setenv("SHIFTCAST_LINE_TOKEN", "token")  # LINE does without the keyring; hosting's secret cannot
    keyring.set_keyring(fail.Keyring())  # the autouse memory_keyring fixture restores the real one
    found = _check(db)
    assert found["line"].state is State.OK
    month = found["month_image"]
    assert (month.state, month.fix) == (State.WARNING, Fix.HOSTING)
    assert "the image hosting secret access key cannot be read" in render(month.says, "en"), render(month.says, "en")
