"""Storage the manager must fix, told in their language: the CLI's one line under a Japanese locale, the
same line in English with `--lang en`, and the log in English with the message code."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

import main
from core.store.db import storage_problem
from core.store.paths import DataPaths
from core.texts import render
from tests.test_cli_storage import _main, _one_line, full_disk

JA = {"LANG": "ja_JP.UTF-8"}


def _read_only_url(paths: DataPaths) -> dict[str, str]:
    # Opened read-only, as a disk mounted read-only is: works as root too, unlike a file mode.
    return {"SHIFTCAST_DB_URL": f"sqlite:///file:{paths.database.as_posix()}?mode=ro&uri=true"}


def test_a_read_only_database_under_a_japanese_locale_is_told_in_japanese(paths: DataPaths) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    line = _one_line(_main(paths.home, "add-classroom", "分校", **JA, **_read_only_url(paths)),
                     "データベースが読み取り専用です", str(paths.database), "何も変更していません")
    assert line.startswith("shiftcast: ") and "read-only" not in line
    log = (paths.logs / "shiftcast.log").read_text(encoding="utf-8")
    assert "the database is read-only" in log and "[storage.read_only]" in log


def test_lang_en_overrides_a_japanese_locale_for_a_storage_problem(paths: DataPaths) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    line = _one_line(_main(paths.home, "--lang", "en", "add-classroom", "分校", **JA, **_read_only_url(paths)),
                     "the database is read-only", str(paths.database), "nothing was changed")
    assert "読み取り専用" not in line


def test_a_full_disk_in_japanese_names_the_database(paths: DataPaths, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main.main(["add-classroom", "本校"]) == 0
    capsys.readouterr()
    csv = tmp_path / "teachers.csv"
    csv.write_text("name,line_user_id\n" + "".join(f"講師{n:04d},U{n:032x}\n" for n in range(1, 2001)),
                   encoding="utf-8")
    with full_disk():
        code = main.main(["--lang", "ja", "import", "teachers", str(csv)])
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert err == f"shiftcast: ディスクがいっぱいのため、{paths.database} に書き込めません。何も変更していません" \
                  "（ディスクの空き容量を増やしてください）。", err


def test_each_storage_problem_has_a_code_and_both_languages() -> None:
    cases = [
        (sqlite3.OperationalError("attempt to write a readonly database"), "storage.read_only"),
        (sqlite3.OperationalError("database or disk is full"), "storage.database_full"),
        (sqlite3.OperationalError("unable to open database file"), "storage.cannot_open"),
        (sqlite3.OperationalError("disk I/O error"), "storage.disk_error"),
        (OSError(errno.ENOSPC, "No space left on device", "/data/x.png"), "storage.disk_full"),
        (OSError(errno.EACCES, "Permission denied", "/data/x.png"), "storage.not_writable"),
    ]
    for exc, code in cases:
        text = storage_problem(exc, database="/data/shiftcast.db")
        assert text is not None and text.code == code, (exc, text)
        japanese = render(text, "ja")
        assert ("/data/shiftcast.db" in japanese or "/data/x.png" in japanese) and japanese != str(text)
    # SQLite's message names no file and none is given: the words for "the database file" in each language.
    unnamed = storage_problem(sqlite3.OperationalError("attempt to write a readonly database"))
    assert unnamed is not None
    assert "the database file" in str(unnamed) and "データベースファイル" in render(unnamed, "ja")
    assert storage_problem(ValueError("something else")) is None
