"""A really full disk, as a real process: a small tmpfs filled to the last byte (needs root, as CI runs).

Every verb says in one line which file cannot be written and that the disk is full: no "disk I/O
error" without a path, no "--- Logging error ---" tracebacks from the log file, and no queued message
lost or changed."""

from __future__ import annotations

import datetime as dt
import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.store.bootstrap import open_database
from core.store.paths import data_paths
from tests.linefixtures import TOKEN, make_reminders

pytestmark = pytest.mark.slow  # real CLI processes on a filled tmpfs
ROOT = Path(__file__).resolve().parent.parent
FULL = {"en": "the disk is full", "ja": "ディスクがいっぱい"}


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs of its own, unmounted afterwards; skipped where mounting is not allowed."""
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs", str(where)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(disk: Path) -> None:
    """Write until the disk refuses: nothing is left, not one block."""
    with (disk / "filler").open("wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    with (disk / "crumbs").open("wb", buffering=0) as crumbs:  # the last part of a block, byte by byte
        try:
            while True:
                crumbs.write(b"\0")
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def shiftcast(home: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")}
    base |= {"SHIFTCAST_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    return subprocess.run([sys.executable, "main.py", *argv], cwd=ROOT, env=base | env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def queued(home: Path) -> list[tuple[int, str, str | None]]:
    from sqlalchemy import text

    db = open_database(data_paths(home))
    try:
        with db.read() as session:
            rows = session.execute(text("SELECT id, status, retry_key FROM deliveries ORDER BY id"))
            return [(r[0], r[1], r[2]) for r in rows]
    finally:
        db.dispose()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_verb_on_a_full_disk_names_the_database_and_the_cause_in_one_line(
        small_disk: Path, tmp_path: Path, lang: str) -> None:
    home = small_disk / "Shiftcast"
    db = open_database(data_paths(home))
    make_reminders(db, 20, now=dt.datetime.now(dt.UTC))
    db.dispose()
    before = queued(home)
    # The log's last block is full, so its next line needs a new one: the log fails before anything else.
    log_file = home / "logs" / "shiftcast.log"
    with log_file.open("ab") as log:
        log.write(b"x" * (8192 - log_file.stat().st_size))
    teachers = tmp_path / "teachers.csv"
    teachers.write_text("name\n佐藤\n", encoding="utf-8")
    fill(small_disk)
    sending = {"SHIFTCAST_LINE_TOKEN": TOKEN, "SHIFTCAST_LINE_API_BASE": "http://127.0.0.1:9"}
    for argv in (["sender", "--until-idle"], ["classrooms"], ["add-classroom", "分校"],
                 ["import", "teachers", str(teachers)]):
        done = shiftcast(home, "--lang", lang, *argv, **sending)
        lines = done.stderr.splitlines()
        assert done.returncode == 1 and len(lines) == 1, (argv, done.stderr[:3000])
        assert FULL[lang] in lines[0] and str(home / "shiftcast.db") in lines[0], lines[0]
    (small_disk / "filler").unlink()
    assert queued(home) == before  # nothing sent, claimed or lost


def test_a_log_file_on_a_full_disk_is_named_once_and_the_verb_still_works(small_disk: Path, tmp_path: Path) -> None:
    home = small_disk / "Shiftcast"
    (home / "logs").mkdir(parents=True)
    database = {"SHIFTCAST_DB_URL": f"sqlite:///{(tmp_path / 'elsewhere.db').as_posix()}"}
    assert shiftcast(home, "add-classroom", "本校", **database).returncode == 0
    (home / "logs" / "shiftcast.log").unlink()
    fill(small_disk)
    done = shiftcast(home, "--lang", "en", "sender", "--until-idle", **database)
    assert done.returncode == 0 and done.stdout.startswith("{"), done.stderr[:3000]
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Logging error" not in done.stderr, done.stderr[:3000]
    assert "the disk is full" in lines[0] and str(home / "logs" / "shiftcast.log") in lines[0], lines[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_sender_stopped_by_a_full_disk_after_claiming_says_they_stay_claimed_and_sends_them_later(
        small_disk: Path, lang: str) -> None:
    home = small_disk / "Shiftcast"
    db = open_database(data_paths(home))
    make_reminders(db, 20, now=dt.datetime.now(dt.UTC))
    db.dispose()
    fill(small_disk)
    (small_disk / "crumbs").unlink()
    with (small_disk / "filler").open("r+b") as filler:  # room for the claim, not for what follows it
        filler.truncate((small_disk / "filler").stat().st_size - 64 * 1024)
    sending = {"SHIFTCAST_LINE_TOKEN": TOKEN, "SHIFTCAST_LINE_API_BASE": "http://127.0.0.1:9"}
    done = shiftcast(home, "--lang", lang, "sender", "--until-idle", **sending)
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr[:3000]
    (small_disk / "filler").unlink()
    claimed = [row for row in queued(home) if row[1] == "processing"]
    assert len(claimed) == 20  # what the disk allowed: every reminder claimed, none recorded
    says = {"en": ("the disk is full", "20 deliveries were claimed", "tried again once there is space"),
            "ja": ("ディスクがいっぱい", "20件の配信を送信処理中にした", "送信をやり直します")}[lang]
    assert all(words in lines[0] for words in says) and str(home / "shiftcast.db") in lines[0], lines[0]
    assert "nothing was changed" not in lines[0] and "何も変更していません" not in lines[0]

    again = shiftcast(home, "sender", "--until-idle", **sending)  # space again: the next run takes them back
    assert again.returncode == 0, again.stderr[:3000]
    assert [row for row in queued(home) if row[1] == "processing"] == []
