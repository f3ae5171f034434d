"""Storage the manager must fix (a folder or file that cannot be written, a read-only database, a full
disk): one line naming the cause and the path, exit status 1, and nothing changed."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, text

import main
from core.store.bootstrap import open_database
from core.store.paths import DataPaths
from tests.linefixtures import TOKEN, make_reminders

pytestmark = pytest.mark.slow  # real processes, all but the full-disk test

ROOT = Path(__file__).resolve().parent.parent
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
# Root writes through file modes; without the capabilities that allow it (setpriv, from util-linux) the
# command meets them as a manager's account does. Only a root without setpriv cannot run these.
SETPRIV = shutil.which("setpriv")
AS_A_USER = ([SETPRIV, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]
             if AS_ROOT and SETPRIV else [])
needs_permissions = pytest.mark.skipif(AS_ROOT and not SETPRIV, reason="root without setpriv writes through file modes")


def _main(home: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")}
    base |= {"SHIFTCAST_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    return subprocess.run([*AS_A_USER, sys.executable, "main.py", *argv], cwd=ROOT, env=base | env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def _one_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _classroom_names(paths: DataPaths) -> list[str]:
    db = open_database(paths)
    try:
        with db.read() as session:
            return list(session.execute(text("SELECT name FROM classrooms ORDER BY id")).scalars())
    finally:
        db.dispose()


@pytest.fixture
def restore_modes() -> Iterator[list[Path]]:
    """Paths made read-only by a test get their write bits back, so pytest can delete them."""
    changed: list[Path] = []
    yield changed
    for path in changed:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)


# ----- the data folder and the log file -----

def test_a_file_where_the_data_folder_should_be(tmp_path: Path) -> None:
    squatter = tmp_path / "Shiftcast"
    squatter.write_text("not a folder")
    line = _one_line(_main(squatter, "classrooms"), str(squatter), "is a file, not a folder")
    assert line.startswith("shiftcast: ")
    assert squatter.read_text() == "not a folder"


@needs_permissions
def test_a_data_folder_in_a_folder_without_write_permission(tmp_path: Path, restore_modes: list[Path]) -> None:
    parent = tmp_path / "locked"
    parent.mkdir()
    parent.chmod(0o500)
    restore_modes.append(parent)
    _one_line(_main(parent / "Shiftcast", "classrooms"), "not writable", str(parent))
    assert list(parent.iterdir()) == []


@needs_permissions
def test_a_read_only_log_file_keeps_no_log_and_says_so_once(paths: DataPaths, restore_modes: list[Path]) -> None:
    log_file = paths.logs / "shiftcast.log"
    log_file.write_text("")
    log_file.chmod(0o444)
    restore_modes.append(log_file)
    for argv in (["add-classroom", "本校"], ["classrooms"]):
        done = _main(paths.home, *argv)
        assert done.returncode == 0, done.stderr
        [warning] = done.stderr.strip().splitlines()
        assert "log file" in warning and "not writable" in warning and str(log_file) in warning
    assert "本校" in done.stdout and _classroom_names(paths) == ["本校"] and log_file.read_text() == ""


def _read_only_folder(paths: DataPaths, restore_modes: list[Path]) -> None:
    """The whole data folder as a copied backup or a read-only share gives it: every folder and file."""
    for path in sorted(paths.home.rglob("*"), reverse=True) + [paths.home]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        restore_modes.append(path)


@needs_permissions
@pytest.mark.parametrize(("lang", "says"), [("en", "is read-only"), ("ja", "は読み取り専用")])
def test_a_read_only_data_folder_answers_reading_commands_and_names_the_folder_for_a_change(
        paths: DataPaths, restore_modes: list[Path], lang: str, says: str) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    assert main.main(["import", "teachers", str(_teachers_csv(paths.home.parent))]) == 0
    _read_only_folder(paths, restore_modes)
    for argv in (["teachers"], ["classrooms"], ["deliveries"]):
        done = _main(paths.home, "--lang", lang, *argv)
        assert done.returncode == 0, done.stderr
        [warning] = done.stderr.strip().splitlines()  # one warning, after the answer
        assert str(paths.home) in warning and says in warning
    assert "青木" in _main(paths.home, "teachers").stdout
    refused = _one_line(_main(paths.home, "--lang", lang, "add-classroom", "分校"), str(paths.home), says)
    assert "log" not in refused and "ログ" not in refused
    assert _classroom_names(paths) == ["本校"]
    assert sorted(p.name for p in paths.home.iterdir()) == ["backups", "images", "logs", "shiftcast.db"]


def _teachers_csv(folder: Path) -> Path:
    csv = folder / "teachers.csv"
    csv.write_text("name,line_user_id\n青木,\n", encoding="utf-8")
    return csv


def test_a_folder_where_the_log_file_should_be(paths: DataPaths) -> None:
    (paths.logs / "shiftcast.log").mkdir(parents=True)
    _one_line(_main(paths.home, "add-classroom", "本校"), "log file", str(paths.logs / "shiftcast.log"))
    assert _classroom_names(paths) == []


# ----- a read-only database -----

def _read_only(paths: DataPaths, restore_modes: list[Path], how: str) -> dict[str, str]:
    """Make the database read-only: by its file mode, or (as root, who writes through modes) by opening
    it read-only as a mounted read-only disk would."""
    if how == "file mode":
        paths.database.chmod(0o444)
        restore_modes.append(paths.database)
        return {}
    return {"SHIFTCAST_DB_URL": f"sqlite:///file:{paths.database.as_posix()}?mode=ro&uri=true"}


READ_ONLY_WAYS = [pytest.param("file mode", marks=needs_permissions), "read-only open"]


@pytest.mark.parametrize("how", READ_ONLY_WAYS)
def test_a_read_only_database_refuses_a_change_in_one_line(paths: DataPaths, restore_modes: list[Path], how: str) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    env = _read_only(paths, restore_modes, how)
    _one_line(_main(paths.home, "add-classroom", "分校", **env), "database is read-only", str(paths.database))
    assert _classroom_names(paths) == ["本校"]


@pytest.mark.parametrize("how", READ_ONLY_WAYS)
@pytest.mark.parametrize("mode", [["sender", "--until-idle"], ["sender"]])
def test_a_sender_on_a_read_only_database_stops_in_one_line(paths: DataPaths, restore_modes: list[Path], how: str,
                                                           mode: list[str]) -> None:
    db = open_database(paths)
    make_reminders(db, 2, now=dt.datetime.now(dt.UTC))  # due work: the sender must write to claim it
    db.dispose()
    env = _read_only(paths, restore_modes, how)
    # A token, so LINE's rows are claimable; the address is never reached, the claim fails first.
    env |= {"SHIFTCAST_LINE_TOKEN": TOKEN, "SHIFTCAST_LINE_API_BASE": "http://127.0.0.1:9"}
    done = _main(paths.home, *mode, **env)
    assert done.returncode == 1, done.stderr
    problems = [line for line in done.stderr.splitlines() if line.startswith("shiftcast: ")]
    assert len(problems) == 1 and "database is read-only" in problems[0] and str(paths.database) in problems[0]
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 10, done.stderr


# ----- a full disk -----

@contextmanager
def full_disk() -> Iterator[None]:
    """Every new SQLite connection may not grow its file: SQLite then fails as on a full disk."""

    def cap(dbapi_connection: Any, _record: Any) -> None:
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {max(pages, 1)}")

    event.listen(Engine, "connect", cap)
    try:
        yield
    finally:
        event.remove(Engine, "connect", cap)


def test_a_full_disk_during_an_import_is_named_and_imports_nothing(
        paths: DataPaths, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main.main(["add-classroom", "本校"]) == 0  # the schema exists before the disk fills up
    capsys.readouterr()
    rows = "".join(f"講師{n:04d},U{n:032x}\n" for n in range(1, 2001))
    csv = tmp_path / "teachers.csv"
    csv.write_text("name,line_user_id\n" + rows, encoding="utf-8")
    with full_disk():
        code = main.main(["import", "teachers", str(csv)])
    err = capsys.readouterr().err
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and "disk is full" in err and str(paths.database) in err, err
    # The log keeps SQLite's own words, not only the savepoint error that used to hide them.
    assert "database or disk is full" in (paths.logs / "shiftcast.log").read_text(encoding="utf-8")
    assert main.main(["teachers", "--json"]) == 0
    assert capsys.readouterr().out.strip() == "[]"


# ----- a file the manager asks for (render --out, export --output) -----

CANNOT_WRITE = {"en": "cannot write", "ja": "に書き込めません"}


def _refused_file(paths: DataPaths, target: Path, lang: str, *words: str) -> None:
    for argv in (["render", "--classroom", "本校", "--month", "2026-12", "--out", str(target)],
                 ["export", "teachers", "--output", str(target.with_suffix(".csv"))]):
        done = _main(paths.home, "--lang", lang, *argv)
        written = target if argv[0] == "render" else target.with_suffix(".csv")
        _one_line(done, str(written), CANNOT_WRITE[lang], *words)
        assert "unexpected" not in done.stderr and "予期しない" not in done.stderr


@pytest.mark.parametrize(("lang", "says"), [("en", "files cannot be made in /proc"), ("ja", "/proc にはファイルを作れません")])
def test_a_file_where_no_file_can_be_made_is_named_with_the_cause(paths: DataPaths, lang: str, says: str) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    _refused_file(paths, Path("/proc/x.png"), lang, says)


@pytest.mark.parametrize(("lang", "says"), [("en", "does not exist"), ("ja", "がありません")])
def test_a_file_in_a_folder_that_does_not_exist_is_named_with_the_cause(paths: DataPaths, tmp_path: Path, lang: str,
                                                                        says: str) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    _refused_file(paths, tmp_path / "missing" / "month.png", lang, says, str(tmp_path / "missing"))
    assert not (tmp_path / "missing").exists()


@needs_permissions
@pytest.mark.parametrize(("lang", "says"), [("en", "no permission to write in"), ("ja", "に書き込む権限がありません")])
def test_a_file_in_a_folder_without_write_permission_is_named_with_the_cause(
        paths: DataPaths, tmp_path: Path, restore_modes: list[Path], lang: str, says: str) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    restore_modes.append(locked)
    _refused_file(paths, locked / "month.png", lang, says, str(locked))
    assert list(locked.iterdir()) == []


@pytest.mark.parametrize(("lang", "says"), [("en", "is on a read-only disk"), ("ja", "は読み取り専用のディスクにあります")])
def test_a_file_on_a_read_only_disk_is_named_with_the_cause(paths: DataPaths, tmp_path: Path, lang: str,
                                                            says: str) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    disk = tmp_path / "read-only"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a read-only tmpfs here")
    try:
        _refused_file(paths, disk / "month.png", lang, says, str(disk))
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)
