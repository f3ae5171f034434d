"""LINE WORKS in set-up and the readiness check: its state, a test's answer kept and said offline,
each classroom with teachers on LINE WORKS needing its LINE WORKS channel, and `shiftcast doctor`
saying it all. The channel is its own driver and credentials (in the in-memory keyring); a test asks
the LINE WORKS stand-in on loopback (tests/worksfixtures.py)."""

from __future__ import annotations

import datetime as dt

import keyring.errors
import pytest
from sqlalchemy import select

from core.channels import line_works_credentials, line_works_rooms
from core.channels.line_works_client import KEY
from core.emulator.line_works import WorksStandIn
from core.roster import rules
from core.setup import line_works, readiness
from core.setup.readiness import Fix, State
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Setting
from core.store.settings import ChannelHold
from core.texts import render
from tests import factories as f
from tests.linefixtures import TOKEN
from tests.memory_keyring import MemoryKeyring
from tests.worksfixtures import app, credentials, point_at, works, works_pointed  # noqa: F401 - fixtures


def _on_works(db: Database, now: dt.datetime, *, line: bool = True) -> tuple[int, int]:
    """Two classrooms; 佐藤 works at 本校 and is reached on LINE WORKS; 鈴木 at 駅前, on LINE (connected)."""
    if line:
        secrets.set_line_token(TOKEN)
    with db.write() as s:
        main, station = f.classroom(s, "本校"), f.classroom(s, "駅前", line_group_id="C" + "1" * 32)
        sato = f.teacher(s, "佐藤", 1, line_user_id=None, line_opt_in=False, channel=KEY)
        rules.update_teacher(s, sato.id, contacts_in={KEY: rules.ContactChange(address="sato@example.com")},
                             classroom_ids=[main.id], now=now)
        suzuki = f.teacher(s, "鈴木", 2)
        rules.update_teacher(s, suzuki.id, classroom_ids=[station.id], now=now)
        return main.id, station.id


def _works_requirements(db: Database, now: dt.datetime) -> dict[str, readiness.Requirement]:
    found = readiness.check(db, now=now, autostart=True)
    return {r.key: r for r in found if r.key.startswith("line_works") or r.key in ("teachers", "classroom_groups")}


def test_nothing_is_said_of_line_works_while_nobody_uses_it(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        f.classroom(s, "本校", line_group_id="C" + "1" * 32)
        f.teacher(s, "鈴木", 2)
    assert [r.key for r in readiness.check(db, now=now, autostart=True) if r.key.startswith("line_works")] == []


def test_line_works_not_set_up_names_its_teachers_and_the_classroom_without_its_channel(
        db: Database, now: dt.datetime) -> None:
    main, _station = _on_works(db, now)
    found = _works_requirements(db, now)
    setup, rooms, teachers = found["line_works"], found["line_works_rooms"], found["teachers"]
    assert (setup.state, setup.fix) == (State.WARNING, Fix.LINE_WORKS)
    assert render(setup.says, "en") == "LINE WORKS is not set up: 1 teacher with a LINE WORKS ID gets nothing on it"
    assert "Settings → LINE WORKS" in render(setup.fix_says or "", "en")
    # Only 本校 has a teacher on LINE WORKS; 駅前's teachers are on LINE.
    assert (rooms.state, rooms.fix) == (State.WARNING, Fix.CLASSROOMS)
    assert [render(d, "en") for d in rooms.details] == ["本校: no LINE WORKS channel"]
    assert render(rooms.says, "ja") == "LINE WORKS の講師がいる1教室に、月のシフトを送る LINE WORKS のトークルームがありません。"
    assert teachers.state is State.WARNING and teachers.fix is Fix.LINE_WORKS  # fixed in Settings, not the table

    line_works_credentials.save(db, credentials())
    with db.write() as s:
        line_works_rooms.set_room(s, main, "room-main")
    found = _works_requirements(db, now)
    assert found["line_works"].state is State.OK and found["line_works_rooms"].state is State.OK
    assert render(found["line_works"].says, "en") == "LINE WORKS is set up and reaches 1 teacher"
    assert render(found["line_works"].details[0], "en") == "Not tested yet (Settings → LINE WORKS, Test)"
    # 本校's month goes to its LINE WORKS channel: it is not missing a group; 駅前 has its LINE group.
    assert found["classroom_groups"].state is State.OK
    assert found["teachers"].state is State.OK


def test_an_unreadable_keyring_and_a_refused_send_are_said_with_their_fix(
        db: Database, now: dt.datetime, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    _on_works(db, now)
    saved = line_works_credentials.save(db, credentials())

    def locked(service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("the keyring is locked")

    with monkeypatch.context() as patch:
        patch.setattr(memory_keyring, "get_password", locked)
        setup = _works_requirements(db, now)["line_works"]
    assert (setup.state, setup.fix) == (State.WARNING, Fix.KEYRING)
    said = render(setup.says, "en")
    assert said.startswith("the keyring cannot be used, so the LINE WORKS credentials cannot be read: "), said
    assert said.endswith("the keyring is locked"), said
    with db.write() as s:
        keys.LINE_WORKS_HOLD.write(s, ChannelHold("AUTH_FAILED", saved.fingerprint, now))
    setup = _works_requirements(db, now)["line_works"]
    assert (setup.state, setup.fix) == (State.WARNING, Fix.LINE_WORKS)
    assert render(setup.says, "en").startswith("LINE WORKS refused the saved credentials when sending at ")
    line_works_credentials.save(db, credentials(client_secret="a-new-client-secret"))  # the hold is not for these
    assert _works_requirements(db, now)["line_works"].state is State.OK


def test_a_test_s_answer_is_kept_and_said_offline_until_the_next(
        db: Database, now: dt.datetime, works_pointed: WorksStandIn) -> None:
    _on_works(db, now)
    line_works_credentials.save(db, credentials(client_secret="a-secret-the-console-never-gave"))
    failed = line_works.test(db, line_works.client_checker(db), now=now)
    assert works_pointed.log == [("POST", "/oauth2/v2.0/token", 401)]  # its form checked, the secret refused
    said = render(line_works.says_test(failed), "en")
    assert said.startswith("the test failed: LINE WORKS refused the app's credentials (HTTP 401"), said
    setup = _works_requirements(db, now)["line_works"]
    assert (setup.state, setup.fix) == (State.WARNING, Fix.LINE_WORKS)
    assert "failed: LINE WORKS refused the app's credentials (HTTP 401" in render(setup.says, "en")

    line_works_credentials.save(db, credentials())
    later = now + dt.timedelta(minutes=3)
    worked = line_works.test(db, line_works.client_checker(db), now=later)
    assert works_pointed.tokens_issued == 1
    assert worked.why is None and render(line_works.says_test(worked), "ja").startswith("LINE WORKS からアクセストークンを取得")
    assert line_works.last_test(db) == line_works.LastTest(later, None)
    setup = _works_requirements(db, now)["line_works"]
    assert setup.state is State.OK and render(setup.details[0], "en").startswith("Tested at ")


def test_a_test_that_cannot_reach_line_works_says_why(db: Database, now: dt.datetime) -> None:
    line_works_credentials.save(db, credentials())
    with WorksStandIn(app()) as gone:
        point_at(db, gone)
    outcome = line_works.test(db, line_works.client_checker(db), now=now)  # nothing listens there now
    said = render(line_works.says_test(outcome), "en")
    assert said.startswith("the test failed: could not connect to LINE WORKS"), said


def test_a_test_before_anything_is_saved_says_to_save_first(db: Database, now: dt.datetime,
                                                            works_pointed: WorksStandIn) -> None:
    outcome = line_works.test(db, line_works.client_checker(db), now=now)
    assert render(line_works.says_test(outcome), "en") == "the test failed: save the LINE WORKS values first"
    assert works_pointed.token_requests == 0


def test_a_classroom_s_line_works_channel_is_no_setting(db: Database) -> None:
    """It is kept with the classroom's rooms; no setting names it any more."""
    assert not any(family.prefix.startswith("line_works.") for family in keys.FAMILIES)
    with db.write() as s:
        room = f.classroom(s, "本校").id
        line_works_rooms.set_room(s, room, "room-main")
    with db.read() as s:
        assert [k for k in s.scalars(select(Setting.key)) if k.startswith("line_works.")] == []


def test_a_hand_edited_last_test_reads_as_none(db: Database) -> None:
    with db.write() as s:
        keys.LINE_WORKS_LAST_TEST.write(s, "本校 シフト")
    assert line_works.last_test(db) is None


def test_doctor_says_line_works_with_its_fix(db: Database, now: dt.datetime,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import main

    _on_works(db, now, line=False)  # LINE not connected: doctor asks LINE nothing
    main.main(["--lang", "en", "doctor"])
    said = capsys.readouterr().out
    assert "[warn] LINE WORKS is not set up: 1 teacher with a LINE WORKS ID gets nothing on it" in said, said
    assert "enter the LINE WORKS values in Settings → LINE WORKS, then Test" in said
    assert "    - 本校: no LINE WORKS channel" in said
