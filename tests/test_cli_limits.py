"""`shiftcast teachers limits NAME`: a teacher's limits shown, set, cleared one or all, refused with the
reason in the run's language and nothing changed; `shiftcast teachers` lists them briefly. Real processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli_language import shiftcast
from tests.test_cli_patterns import _ok

pytestmark = pytest.mark.slow  # every test here starts real processes


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    assert shiftcast(home, "add-classroom", "本校").returncode == 0
    for name, start, end in (("1限", "16:50", "18:10"), ("2限", "18:20", "19:40"), ("3限", "19:50", "21:10")):
        assert shiftcast(home, "lesson-slots", "--classroom", "本校", "--add", name, "--start", start,
                         "--end", end).returncode == 0
    (tmp_path / "teachers.csv").write_text("name,classrooms\n佐藤,本校\n鈴木,本校\n", encoding="utf-8")
    _ok(home, "import", "teachers", str(tmp_path / "teachers.csv"))
    return home


def test_limits_are_set_shown_and_cleared(home: Path) -> None:
    assert _ok(home, "teachers", "limits", "佐藤", "--lang", "en") == [
        "no limits set", "lesson slots they can teach: all of their classrooms'"]
    assert _ok(home, "teachers", "limits", "佐藤", "--max-shifts", "8", "--max-hours", "40", "--min-hours", "10.5",
               "--max-days-in-a-row", "3", "--max-weekend-days", "4", "--share", "2", "--slots", "1限,2限",
               "--lang", "en") == [
        "saved 佐藤's limits", "at most 8 shifts", "at most 40 h", "at least 10:30 h", "at most 3 days in a row",
        "at most 4 weekend days", "share 2", "lesson slots they can teach: 1限, 2限"]
    assert _ok(home, "teachers", "limits", "佐藤", "--lang", "ja") == [
        "最大8回", "最大40時間", "最低10:30時間", "連続3日まで", "土日4日まで", "配分2", "担当できるコマ：1限、2限"]
    assert _ok(home, "teachers", "limits", "佐藤", "--clear", "max-hours", "--clear", "slots", "--lang", "en")[1:] == [
        "at most 8 shifts", "at least 10:30 h", "at most 3 days in a row", "at most 4 weekend days", "share 2",
        "lesson slots they can teach: all of their classrooms'"]
    listed = _ok(home, "teachers", "--lang", "en")
    assert listed[0].endswith("at 本校  limits: at most 8 shifts; at least 10:30 h; at most 3 days in a row; "
                              "at most 4 weekend days; share 2") and "limits" not in listed[1]
    [sato, _suzuki] = json.loads(shiftcast(home, "teachers", "--json").stdout)
    assert sato["limits"] == {"max_shifts": 8, "max_minutes": None, "min_minutes": 630, "max_days_in_a_row": 3,
                              "max_weekend_days": 4, "target_share": 2, "slots": None}
    assert _ok(home, "teachers", "limits", "佐藤", "--clear", "--lang", "en") == [
        "saved 佐藤's limits", "no limits set", "lesson slots they can teach: all of their classrooms'"]


@pytest.mark.parametrize(("argv", "said"), [
    (("--max-hours", "10", "--min-hours", "20"), "月の最低時間（20:00）が月の最大時間（10:00）を超えています。"),
    (("--max-days-in-a-row", "0"), "最大連続勤務日数は1〜31で指定してください（0は指定できません）。"),
    (("--max-shifts", "-1"), "月の最大シフト数は0〜200で指定してください（-1は指定できません）。"),
    (("--max-hours", "四十"), "月の最大時間の「四十」は時間として読めません。40、40:30、40.5 のように入力してください。"),
    (("--slots", "1限,4限"), "講師の所属教室に「4限」というコマはありません（ほかの教室のコマは「教室:コマ」と書きます）。"),
])
def test_bad_limits_are_refused_in_the_run_s_language_and_nothing_changes(home: Path, argv: tuple[str, ...],
                                                                          said: str) -> None:
    _ok(home, "teachers", "limits", "佐藤", "--max-shifts", "5")
    done = shiftcast(home, "teachers", "limits", "佐藤", "--share", "3", *argv, "--lang", "ja")
    assert done.returncode != 0 and done.stderr.strip() == f"shiftcast: {said}"
    assert _ok(home, "teachers", "limits", "佐藤", "--lang", "en")[0:2] == [
        "at most 5 shifts", "lesson slots they can teach: all of their classrooms'"]
