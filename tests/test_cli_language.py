"""The command line in the manager's language: the OS locale, the app's setting, `--lang` for one run;
its problems, messages and --help, and a log that stays English with the message codes."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli import commands, words

ROOT = Path(__file__).resolve().parent.parent
BAD_SHIFTS = (
    "classroom,teacher,date,start,end\n"
    "本校,山田,2026-12-01,17:00,19:00\n"       # line 2: no such teacher
    "本校,佐藤,2026-13-01,17:00,19:00\n"       # line 3: no such date
    "本校,佐藤,2026-12-02,25時,19:00\n"         # line 4: no such time
    "本校,佐藤,2026-12-03,19:00,17:00\n"       # line 5: ends before it starts
)

pytestmark = pytest.mark.slow  # every test here starts real processes


def shiftcast(home: Path, *argv: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {"SHIFTCAST_HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": lang}
    return subprocess.run([sys.executable, "main.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    assert shiftcast(home, "add-classroom", "本校").returncode == 0
    teachers = tmp_path / "teachers.csv"
    teachers.write_text("name\n佐藤\n", encoding="utf-8")
    assert shiftcast(home, "import", "teachers", str(teachers)).returncode == 0
    return home


@pytest.fixture
def bad_csv(tmp_path: Path) -> Path:
    path = tmp_path / "shifts.csv"
    path.write_text(BAD_SHIFTS, encoding="utf-8")
    return path


def test_a_bad_csv_under_a_japanese_locale_is_told_in_japanese_with_its_lines(home: Path, bad_csv: Path) -> None:
    done = shiftcast(home, "import", "shifts", str(bad_csv), lang="ja_JP.UTF-8")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == f"shiftcast: {bad_csv}: 4件の問題があるため、何もインポートしていません。"
    assert lines[1:] == [
        "  2行目: 「山田」という講師は登録されていません。",
        "  3行目: 「2026-13-01」は日付として読めません。2026-12-01 のように YYYY-MM-DD で入力してください。",
        "  4行目: 「25時」は時刻として読めません。時は00〜23、分は00〜59です。",
        "  5行目: 終了時刻は開始時刻より後にしてください（19:00–17:00）。翌日の2:00は26:00と入力します。",
    ]


def test_lang_en_overrides_the_locale_for_one_run(home: Path, bad_csv: Path) -> None:
    done = shiftcast(home, "--lang", "en", "import", "shifts", str(bad_csv), lang="ja_JP.UTF-8")
    assert done.returncode == 1
    assert done.stderr.splitlines()[:3] == [
        f"shiftcast: {bad_csv}: 4 problems, nothing was imported",
        "  line 2: unknown teacher '山田'",
        "  line 3: bad date '2026-13-01': write it as YYYY-MM-DD, e.g. 2026-12-01",
    ]
    after_the_verb = shiftcast(home, "import", "shifts", str(bad_csv), "--lang=en", lang="ja_JP.UTF-8")
    assert after_the_verb.stderr == done.stderr
    japanese = shiftcast(home, "--lang", "ja", "import", "shifts", str(bad_csv))
    assert "2行目: 「山田」という講師は登録されていません。" in japanese.stderr


def test_the_apps_language_setting_comes_before_the_locale_and_after_lang(home: Path, bad_csv: Path) -> None:
    from core.store import setting_keys as keys
    from core.store.bootstrap import open_database
    from core.store.paths import DataPaths

    db = open_database(DataPaths(home))
    try:
        with db.write() as session:
            keys.UI_LANGUAGE.write(session, "en")
    finally:
        db.dispose()
    english = shiftcast(home, "import", "shifts", str(bad_csv), lang="ja_JP.UTF-8")
    assert "line 2: unknown teacher '山田'" in english.stderr
    japanese = shiftcast(home, "--lang", "ja", "import", "shifts", str(bad_csv), lang="en_US.UTF-8")
    assert "2行目:" in japanese.stderr


def test_the_log_stays_english_with_the_codes(home: Path, bad_csv: Path) -> None:
    shiftcast(home, "import", "shifts", str(bad_csv), lang="ja_JP.UTF-8")
    log = (home / "logs" / "shiftcast.log").read_text(encoding="utf-8")
    refused = [line for line in log.splitlines() if "import of" in line]
    assert len(refused) == 1, log
    assert "line 2: unknown teacher '山田'" in refused[0] and refused[0].endswith("[csv.rejected]")
    assert "行目" not in log


def test_other_messages_follow_the_language(home: Path) -> None:
    done = shiftcast(home, "confirm", "--classroom", "分校", "--month", "2026-12", lang="ja_JP.UTF-8")
    assert done.stderr.strip() == "shiftcast: 「分校」という教室は見つかりません。"
    listed = shiftcast(home, "classrooms", lang="ja_JP.UTF-8")
    assert listed.stdout.splitlines()[-1] == "教室 1件"
    assert shiftcast(home, "classrooms").stdout.splitlines()[-1] == "1 classroom"


def test_help_and_usage_errors_in_japanese(tmp_path: Path) -> None:
    home = tmp_path / "home"
    top = shiftcast(home, "--help", lang="ja_JP.UTF-8")
    assert top.returncode == 0
    assert top.stdout.startswith("使い方: shiftcast")
    assert "シフト表をLINEで公開し、リマインダーを送ります。" in top.stdout
    assert "オプション:" in top.stdout and "このヘルプを表示して終了します" in top.stdout
    assert "講師またはシフトをCSVからインポートします" in top.stdout and "usage" not in top.stdout
    verb = shiftcast(home, "import", "--help", lang="ja_JP.UTF-8")
    assert verb.stdout.startswith("使い方: shiftcast import") and "引数:" in verb.stdout
    english = shiftcast(home, "--lang", "en", "import", "--help", lang="ja_JP.UTF-8")
    assert english.stdout.startswith("usage: shiftcast import") and "options:" in english.stdout
    wrong = shiftcast(home, "import", "rooms", "x.csv", lang="ja_JP.UTF-8")
    assert wrong.returncode == 2
    assert wrong.stderr.strip() == ("shiftcast: 引数 what: 'rooms' は選べません（'teachers', 'shifts' から選んでください）"
                                    "（--help をご覧ください）")


def _help_texts(parser: argparse.ArgumentParser) -> set[str]:
    found = {parser.description} if parser.description else set()
    # the titles of a verb's own groups of arguments (argparse's own two are among its words below)
    found |= {g.title for g in parser._action_groups if g.title and g.title not in ("options", "positional arguments")}
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            found.add(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                found.add(str(choice.help))
            for sub in action.choices.values():
                found |= _help_texts(sub)
    return found


def test_every_help_text_has_its_japanese() -> None:
    texts = _help_texts(commands.build_parser())
    assert len(texts) > 40
    assert sorted(texts - set(words.HELP_JA)) == []
    for argparse_word in ("usage: ", "options", "positional arguments", "show this help message and exit",
                          "invalid choice: %(value)r (choose from %(choices)s)",
                          "the following arguments are required: %s"):
        assert argparse_word in words.HELP_JA
    # The placeholders argparse fills in survive the translation.
    for english, japanese in words.HELP_JA.items():
        for placeholder in ("%s", "%(value)r", "%(choices)s", "%(prog)s", "%(message)s", "%(argument_name)s"):
            assert english.count(placeholder) == japanese.count(placeholder), english


def test_argparse_speaks_english_again_after_a_japanese_parse() -> None:
    with words.argparse_in("ja"):
        assert argparse._("usage: ") == "使い方: "  # type: ignore[attr-defined]
    assert argparse._("usage: ") == "usage: "  # type: ignore[attr-defined]
    assert words.from_argv(["import", "--lang=ja", "x"]) == "ja"
    assert words.from_argv(["--lang", "en"]) == "en"
    assert words.from_argv(["--", "--lang", "ja"]) is None
