"""The command line as a real process: what a terminal, a pipe and a service manager see."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.emulator import LineEmulator
from core.store.db import Database
from core.store.kinds import ShiftStatus
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import TOKEN, emulator, make_reminders  # noqa: F401 - emulator is a fixture

pytestmark = pytest.mark.slow  # every test here starts real processes

ROOT = Path(__file__).resolve().parent.parent
NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")}
    # No keyring on this machine, as on a headless server: nothing here reads the real one.
    return env | {"SHIFTCAST_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"} | extra


def _main(home: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", *argv], cwd=ROOT, env=_env(home, **env), capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_a_new_data_folder_and_a_sender_start_print_no_migration_lines(tmp_path: Path) -> None:
    first = _main(tmp_path / "a", "classrooms")
    assert first.returncode == 0 and first.stderr == "", first.stderr
    sender = _main(tmp_path / "b", "sender", "--until-idle")  # a new folder: the sender creates the schema
    assert sender.returncode == 0, sender.stderr
    assert "alembic" not in sender.stderr and "Running upgrade" not in sender.stderr
    # The log file keeps them, for support.
    assert "Running upgrade" in (tmp_path / "b" / "logs" / "shiftcast.log").read_text(encoding="utf-8")


def test_a_reader_that_stops_early_ends_the_listing_quietly(paths: DataPaths, db: Database) -> None:
    with db.write() as s:
        room = f.classroom(s, "本校")
        for n in range(1, 41):  # 40 teachers × 31 days: far more JSON than a pipe buffers
            teacher = f.teacher(s, f"講師{n:02d}", n)
            for day in range(1, 32):
                f.shift(s, room, teacher, dt.date(2026, 12, day), now=NOW)
    db.dispose()
    command = [sys.executable, "main.py", "shifts", "--classroom", "本校", "--month", "2026-12", "--json"]
    with subprocess.Popen(command, cwd=ROOT, env=_env(paths.home), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL) as child:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline().strip() == b"["  # what `| head -1` reads before it exits
        child.stdout.close()
        err = child.stderr.read().decode()
        code = child.wait(timeout=120)
    assert (code, err) == (0, "")


def _due_reminders(paths: DataPaths, db: Database, emulator: LineEmulator | None = None) -> None:
    make_reminders(db, 2, now=dt.datetime.now(dt.UTC), emulator=emulator)
    db.dispose()


@pytest.mark.parametrize(("keyring_backend", "says"), [
    ("keyring.backends.null.Keyring", "the LINE channel access token is missing"),  # a keyring without it
    ("keyring.backends.fail.Keyring", "the LINE channel access token cannot be read"),  # no keyring at all
])
def test_a_headless_sender_without_a_token_says_why_and_fails(paths: DataPaths, db: Database, keyring_backend: str,
                                                               says: str) -> None:
    _due_reminders(paths, db)
    done = _main(paths.home, "sender", "--until-idle", PYTHON_KEYRING_BACKEND=keyring_backend)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["sent"] == 0
    ours = [line for line in done.stderr.splitlines() if line.startswith("shiftcast: ")]
    assert len(ours) == 1, done.stderr
    assert "2 due LINE deliveries were not sent" in ours[0] and says in ours[0]
    assert "SHIFTCAST_LINE_TOKEN" in ours[0]  # how to set it, headless


def test_a_headless_sender_with_a_token_sends_and_succeeds(paths: DataPaths, db: Database,
                                                            emulator: LineEmulator) -> None:
    _due_reminders(paths, db, emulator)
    done = _main(paths.home, "sender", "--until-idle", SHIFTCAST_LINE_TOKEN=TOKEN,
                 SHIFTCAST_LINE_API_BASE=emulator.base_url)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sent"] == 2 and "shiftcast:" not in done.stderr


def test_a_headless_sender_until_idle_prints_only_its_result(paths: DataPaths, db: Database) -> None:
    with db.write() as s:  # a confirmed shift without its reminder: the scheduler plans it, and logs that
        room = f.classroom(s, "本校")
        teacher = f.teacher(s, "佐藤", 1)
        f.shift(s, room, teacher, dt.date.today() + dt.timedelta(days=3), "16:00", "21:00", now=dt.datetime.now(dt.UTC),
                status=ShiftStatus.CONFIRMED)
    db.dispose()
    done = _main(paths.home, "sender", "--until-idle", SHIFTCAST_LINE_TOKEN=TOKEN,
                 SHIFTCAST_LINE_API_BASE="http://127.0.0.1:9")
    assert done.returncode == 0 and json.loads(done.stdout)["sent"] == 0, done.stderr
    assert done.stderr == ""  # the verb's own output only
    assert "core.sending.scheduler: planned 1 new deliveries" in (paths.logs / "shiftcast.log").read_text(encoding="utf-8")
