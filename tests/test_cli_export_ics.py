"""`shiftcast export ics` and `shiftcast calendar revoke` through the command line's entry function, on a
real data folder: the file reads back as iCalendar, a teacher named unclearly or not at all is refused
in words with no file written, and revoking gives a new address."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from icalendar import Calendar

import main
from core.calendar import feeds, ics
from core.publication import publish
from core.publication.image_store import ImageStore
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.paths import DataPaths
from tests import factories as f

RELAY = "https://relay.example.workers.dev"


def as_read(component: object) -> Any:
    """A parsed component, whose properties each have their own type: read as the test knows them."""
    return component


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def roster(db: Database, paths: DataPaths, now: dt.datetime) -> dict[str, int]:
    """佐藤 花子 and 佐藤 次郎 at 本校, whose December is published; January has 花子's draft only."""
    with db.write() as s:
        room = f.classroom(s)
        hanako, jiro = f.teacher(s, "佐藤 花子", 1), f.teacher(s, "佐藤 次郎", 2)
        december = f.shift(s, room, hanako, dt.date(2026, 12, 7), "16:00", "20:00", now=now)
        f.shift(s, room, jiro, dt.date(2026, 12, 8), now=now)
        f.shift(s, room, hanako, dt.date(2027, 1, 5), now=now)
        publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(paths.images))
        return {"hanako": hanako.id, "december": december.id}


def test_export_ics_writes_the_teachers_month_as_icalendar(capsys, roster: dict[str, int], tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    target = out_dir / "hanako.ics"
    code, out, err = run(capsys, "--lang", "en", "export", "ics", "--teacher", "佐藤 花子", "--month", "2026-12",
                         "-o", str(target))
    assert (code, err) == (0, "") and out.strip() == f"wrote {target}"
    calendar = Calendar.from_ical(target.read_bytes())
    [event] = calendar.walk("VEVENT")
    event = as_read(event)
    assert str(event["UID"]) == ics.uid(roster["december"])
    assert event["DTSTART"].params["TZID"] == "Asia/Tokyo"
    assert event["DTSTART"].dt.replace(tzinfo=None) == dt.datetime(2026, 12, 7, 16, 0)
    assert [p.name for p in out_dir.iterdir()] == ["hanako.ics"]  # no temporary file left beside it

    # A part of the name held by one teacher only will do; January has no published shift.
    code, out, _ = run(capsys, "export", "ics", "--teacher", "花子", "--month", "2027-01")
    assert code == 0 and Calendar.from_ical(out.encode()).walk("VEVENT") == []


@pytest.mark.parametrize(("name", "says"), [
    ("佐藤", "'佐藤' could be any of these teachers: 佐藤 次郎, 佐藤 花子; give the whole name"),
    ("田中", "unknown teacher '田中'"),
])
def test_a_teacher_named_unclearly_or_unknown_is_refused_and_no_file_is_written(
        capsys, roster: dict[str, int], tmp_path: Path, name: str, says: str) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    target = out_dir / "out.ics"
    code, out, err = run(capsys, "--lang", "en", "export", "ics", "--teacher", name, "-o", str(target))
    assert code != 0 and out == "" and says in err
    assert list(out_dir.iterdir()) == []


def test_export_ics_refuses_what_does_not_go_with_it(capsys, roster: dict[str, int], tmp_path: Path) -> None:
    target = tmp_path / "out.ics"
    code, _, err = run(capsys, "--lang", "ja", "export", "ics", "-o", str(target))
    assert code != 0 and "export ics には --teacher（講師の名前）が必要です。" in err
    code, _, err = run(capsys, "--lang", "en", "export", "ics", "--teacher", "佐藤 花子", "--classroom", "本校",
                       "-o", str(target))
    assert code != 0 and "--classroom does not go with export ics" in err
    code, _, err = run(capsys, "--lang", "en", "export", "ics", "--teacher", "佐藤 花子", "--month", "2026-13",
                       "-o", str(target))
    assert code != 0 and "2026-13" in err
    code, _, err = run(capsys, "--lang", "en", "export", "shifts", "--teacher", "佐藤 花子")
    assert code != 0 and "--teacher does not go with export shifts" in err
    assert not target.exists()


def test_calendar_revoke_gives_a_new_address(capsys, db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        keys.RELAY_URL.write(s, RELAY)
        old = feeds.feed_url(s, roster["hanako"], RELAY)
    code, out, err = run(capsys, "--lang", "en", "calendar", "revoke", "--teacher", "佐藤 花子")
    with db.read() as s:
        new = feeds.feed_url(s, roster["hanako"], RELAY)
    assert (code, err) == (0, "") and new != old
    assert out.strip() == (f"佐藤 花子's calendar has a new address: {new} (the old one stops working at the next sync "
                           "with the relay)")
    code, _, err = run(capsys, "--lang", "en", "calendar", "revoke", "--teacher", "佐藤")
    assert code != 0 and "could be any of these teachers" in err
