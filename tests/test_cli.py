"""The command line, in process (fast) and once as a real process (no traceback ever)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

import main
from core.version import __version__

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main.main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"Shiftcast {__version__}"


def test_import_list_export(capsys, tmp_path: Path) -> None:
    assert run(capsys, "add-classroom", "本校")[0] == 0
    teachers = tmp_path / "teachers.csv"
    teachers.write_bytes("name,line_user_id\r\n佐藤,U" .encode("cp932") + b"0" * 32 + b"\r\n")
    code, out, _ = run(capsys, "import", "teachers", str(teachers))
    assert code == 0 and "1 added" in out
    shifts = tmp_path / "shifts.csv"
    shifts.write_text("classroom,teacher,date,start,end\n本校,佐藤,2026-12-01,16:00,21:00\n", encoding="utf-8")
    assert run(capsys, "import", "shifts", str(shifts))[0] == 0

    code, out, _ = run(capsys, "shifts", "--classroom", "本校", "--month", "2026-12", "--json")
    rows = json.loads(out)
    assert code == 0 and [(r["teacher"], r["start"], r["end"], r["status"]) for r in rows] == [("佐藤", "16:00", "21:00", "draft")]
    assert run(capsys, "confirm", "--classroom", "本校", "--month", "2026-12")[0] == 0
    code, out, _ = run(capsys, "shifts", "--classroom", "本校", "--month", "2026-12", "--json")
    assert json.loads(out)[0]["status"] == "confirmed"

    code, out, _ = run(capsys, "export", "shifts")
    assert code == 0 and out.splitlines()[1] == "本校,佐藤,2026-12-01,16:00,21:00,confirmed,"
    target = tmp_path / "out.csv"
    assert run(capsys, "export", "teachers", "-o", str(target))[0] == 0
    assert target.read_bytes().startswith(b"\xef\xbb\xbf")
    code, out, _ = run(capsys, "teachers", "--json")
    assert json.loads(out)[0]["name"] == "佐藤"
    code, out, _ = run(capsys, "classrooms", "--json")
    assert json.loads(out)[0]["quiet_hours"] == "22:00-07:00"


def test_bad_import_reports_rows_and_changes_nothing(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("name,line_user_id\n佐藤,U1\n鈴木,\n", encoding="utf-8")
    code, out, err = run(capsys, "import", "teachers", str(bad))
    assert code == 1
    assert "nothing was imported" in err and "line 2: malformed LINE user ID" in err
    code, out, _ = run(capsys, "teachers", "--json")
    assert json.loads(out) == []


def test_import_refuses_unknown_columns_and_reads_japanese_headings(capsys, tmp_path: Path) -> None:
    assert run(capsys, "add-classroom", "本校")[0] == 0
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("Name,LINE,Mail\n佐藤,U" + "0" * 32 + ",sato@example.com\n", encoding="utf-8")
    code, _, err = run(capsys, "--lang", "ja", "import", "teachers", str(unknown))
    assert code == 1 and err.strip() == (f"shiftcast: {unknown}: 何もインポートしていません。1行目: 見出しに使えない列があります: "
                                         "LINE、Mail。講師のファイルで使える列は 名前、ふりがな、LINEユーザーID、メール、LINE WORKS ID、"
                                         "LINE通知、メール通知、有効、所属教室、連絡方法、並び順、最大シフト数、最大時間、最低時間、"
                                         "最大連続勤務日数、最大土日勤務日数、配分、担当コマ です。")
    assert json.loads(run(capsys, "teachers", "--json")[1]) == []

    teachers = tmp_path / "講師.csv"
    teachers.write_bytes("講師名,LINE ID,メールアドレス\r\n佐藤,U".encode("cp932") + b"0" * 32 + b",sato@example.com\r\n")
    code, out, _ = run(capsys, "import", "teachers", str(teachers))
    assert code == 0 and "1 added" in out
    shifts = tmp_path / "シフト.csv"
    shifts.write_bytes("教室名,先生,日付,開始時刻,終了時刻,メモ\r\n本校,佐藤,2026/12/01,16:00,21:00,受付\r\n".encode("cp932"))
    assert run(capsys, "import", "shifts", str(shifts))[0] == 0
    code, out, _ = run(capsys, "shifts", "--classroom", "本校", "--month", "2026-12", "--json")
    assert [(r["teacher"], r["start"], r["note"]) for r in json.loads(out)] == [("佐藤", "16:00", "受付")]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["shifts", "--classroom", "x", "--month", "2026-12"], "no classroom named 'x'"),
        (["shifts", "--classroom", "x", "--month", "12/2026"], "bad month"),
        (["import", "teachers", "/nonexistent/file.csv"], "cannot read"),
        (["frobnicate"], "invalid choice"),
        (["add-classroom", "A", "--timezone", "Moon/Base"], "unknown time zone"),
        (["add-classroom", "A", "--quiet", "22-7"], "bad time"),
    ],
)
def test_bad_input_is_one_line(capsys, argv: list[str], message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code != 0
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.slow  # real processes
def test_real_process_bad_input_has_no_traceback(tmp_path: Path) -> None:
    env = {"SHIFTCAST_HOME": str(tmp_path / "h"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "main.py", "shifts", "--classroom", "無い", "--month", "2026-12"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == "shiftcast: no classroom named '無い'"
    version = subprocess.run([sys.executable, "main.py", "--version"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and version.stdout.strip() == f"Shiftcast {__version__}"


def test_unreadable_database_is_one_line(capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    monkeypatch.setenv("SHIFTCAST_DB_URL", f"sqlite:///{junk}")
    code, _, err = run(capsys, "teachers")
    assert code == 1 and err.startswith("shiftcast: ") and len(err.strip().splitlines()) == 1


# What a process has loaded once main.main(argv) returned (or exited): run in a fresh interpreter.
_LOADED = (
    "import json, sys\n"
    "import main\n"
    "try:\n"
    "    main.main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)\n"
)
HEAVY = {"sqlalchemy", "alembic", "httpx", "apscheduler", "PIL", "PySide6", "keyring"}


def _loaded(tmp_path: Path, *argv: str) -> set[str]:
    env = {"SHIFTCAST_HOME": str(tmp_path / "h"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", _LOADED, *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.slow  # a fresh interpreter each
@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["sender", "--help"], ["frobnicate"]])
def test_parsing_loads_no_database_network_or_screen_code(tmp_path: Path, argv: list[str]) -> None:
    # Every CLI call, tray start and wake-up pays for what parsing imports (docs/performance.md, Start-up).
    assert _loaded(tmp_path, *argv) & HEAVY == set()


@pytest.mark.slow  # a fresh interpreter
def test_a_listing_on_an_up_to_date_database_does_not_load_alembic(tmp_path: Path) -> None:
    assert "alembic" in _loaded(tmp_path, "teachers", "--json")  # the first start creates the schema
    assert _loaded(tmp_path, "teachers", "--json") & {"alembic", "httpx", "apscheduler", "PySide6"} == set()


def test_deliveries_show_whom_each_is_for_and_when_it_is_due(capsys, db) -> None:
    from tests.linefixtures import make_reminders

    [reminder] = make_reminders(db, 1, now=dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC))
    code, out, _ = run(capsys, "deliveries", "--json")
    [row] = json.loads(out)
    assert code == 0 and row["id"] == reminder
    assert row["recipient_name"] == "講師00001"
    # On the classroom's wall clock, like the roster and `plan` (08:00 UTC is 17:00 in Tokyo).
    assert (row["due_local"], row["timezone"]) == ("2026-12-01 17:00", "Asia/Tokyo")
    assert row["due_at"].startswith("2026-12-01T08:00")
    code, out, _ = run(capsys, "deliveries")
    [line] = [line for line in out.splitlines() if line.strip().startswith(str(reminder))]
    assert "講師00001" in line and "due 2026-12-01 17:00 Asia/Tokyo" in line


def test_a_broken_pipe_that_is_not_stdout_is_an_error(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    from cli import commands

    def hung_up(*_args: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")  # as a mail server that closed its socket

    monkeypatch.setitem(commands.COMMANDS, "teachers", hung_up)
    code, _, err = run(capsys, "teachers")
    assert code == 1 and "unexpected error (BrokenPipeError)" in err


def test_plan_says_a_question_mark_for_the_quota_use_line_did_not_tell(capsys, db) -> None:
    from core.store import setting_keys as keys
    from core.store.settings import StoredQuota

    with db.write() as s:
        keys.LINE_QUOTA.write(s, StoredQuota(limit=500, used=None))
    code, out, _ = run(capsys, "plan")
    assert code == 0
    assert "LINE quota: ? of 500 used; 0 planned for the rest of the month; ? would remain" in out
    with db.write() as s:
        keys.LINE_QUOTA.write(s, StoredQuota(limit=500, used=12))
    assert "LINE quota: 12 of 500 used; 0 planned for the rest of the month; 488 would remain" in run(capsys, "plan")[1]


def test_confirm_still_confirms_but_names_who_will_not_be_told(capsys, tmp_path: Path) -> None:
    assert run(capsys, "add-classroom", "本校")[0] == 0
    teachers = tmp_path / "teachers.csv"
    teachers.write_text("name,line_user_id\n佐藤,U" + "0" * 32 + "\n鈴木,\n", encoding="utf-8")
    assert run(capsys, "import", "teachers", str(teachers))[0] == 0
    shifts = tmp_path / "shifts.csv"
    shifts.write_text("classroom,teacher,date,start,end\n本校,佐藤,2026-12-01,16:00,21:00\n"
                      "本校,鈴木,2026-12-02,16:00,21:00\n", encoding="utf-8")
    assert run(capsys, "import", "shifts", str(shifts))[0] == 0
    code, out, _ = run(capsys, "confirm", "--classroom", "本校", "--month", "2026-12")
    assert code == 0
    done, untold = out.splitlines()
    assert done == "confirmed 2 shifts of 本校 2026-12"
    # An imported LINE ID carries no consent yet, and 鈴木 has none at all: neither will hear of it.
    assert untold == ("Not told (nothing can reach them now): 佐藤: has not agreed to LINE; "
                      "鈴木: no LINE address (not paired)"), untold


def test_a_new_token_or_channel_forgets_the_account_line_last_named(capsys, db,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from core.setup import line
    from core.store import setting_keys as keys

    def remembered() -> str | None:
        with db.read() as s:
            return keys.LINE_ACCOUNT.read(s)

    monkeypatch.delenv("SHIFTCAST_LINE_TOKEN", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("the-first-accounts-token\n"))
    assert run(capsys, "line-token")[0] == 0
    line.remember_account(db, "本校", "@first")  # as a connection test would
    monkeypatch.setattr("sys.stdin", io.StringIO("the-first-accounts-token\n"))
    assert run(capsys, "line-token")[0] == 0 and remembered() == "本校 (@first)"  # the same token: kept
    monkeypatch.setattr("sys.stdin", io.StringIO("another-accounts-token\n"))
    assert run(capsys, "line-token")[0] == 0 and remembered() is None

    line.remember_account(db, "駅前校", "@second")
    monkeypatch.setattr("sys.stdin", io.StringIO("0123456789abcdef0123456789abcdef\n"))
    assert run(capsys, "line-channel", "--id", "2001234567")[0] == 0 and remembered() is None
